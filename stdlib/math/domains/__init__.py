"""The operation catalog, one module per domain, each exporting an immutable `TOOLS` tuple."""
