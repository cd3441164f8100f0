"""`python -m synsema …` is the `synsema` command."""

import sys

from synsema.runtime.cli import main

if __name__ == "__main__":
    sys.exit(main())
