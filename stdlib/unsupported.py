"""Tier-C builtins: names upstream Synsema has that this implementation does not provide.

A program written for the full engine may call `csv_parse` or `db_open`. It must get a clear
answer naming the builtin and why it is missing, not `Undefined variable` (which reads like a
typo) and never a traceback. Each name below is registered as a builtin that raises
`'<name>' is not supported by this implementation (tier C: <family>)`. Families whose members
are open-ended (`evm_*`, `jwt_*`, …) are also listed by prefix: `tier_c_family(name)` answers
for any member, so the evaluator can give the same message for a name not listed here.

The file, environment, process and network families are not here: `stdlib.files_env` owns
them.
"""

from __future__ import annotations

from lang.errors import SynError
from stdlib.registry import builtin

FAMILIES: dict[str, tuple[str, ...]] = {
    "text": ("strip_ansi",),
    "special functions": ("gamma", "lgamma", "erf", "erfc", "beta"),
    "complex numbers": ("complex", "imag", "conj", "is_complex"),
    "arrays and linear algebra": (
        "array", "zeros", "ones", "arange", "linspace", "identity", "eye", "is_array", "reshape",
        "transpose", "matmul", "solve", "eig", "svd", "corr", "cov", "lstsq", "polyfit", "polyval"),
    "data formats": (
        "jsonl_parse", "jsonl_encode", "csv_parse", "csv_encode", "toml_parse", "toml_encode",
        "xml_parse", "parquet_read", "parquet_write"),
    "table operations": (
        "summarize", "count_by", "pivot", "fill_missing", "drop_missing", "fill_nan"),
    "dates": ("date", "datetime", "duration"),
    "seeded randomness": ("rng", "random_bytes", "token"),
    "HTTP server": (
        "ok", "created", "not_found", "fail", "html", "respond", "render", "read_body",
        "read_body_bytes", "binary", "state_get", "state_set", "state_incr", "state_delete",
        "content"),
    "charts": ("chart", "chart_svg", "svg_to_png"),
    "cron": ("cron_every", "cron_after", "cron_cancel", "cron_list", "cron_status"),
    "databases": (
        "db_open", "db_close", "sql", "sql_exec", "sql_batch", "sql_tables", "paged",
        "mongo_find", "mongo_find_one", "mongo_insert", "mongo_update", "mongo_delete",
        "redis_get", "redis_set", "redis_del"),
    "agents and memory": (
        "parallel_map", "agents", "remember", "recall", "forget_memory", "add_rule",
        "check_rules", "get_rules", "memory_summary", "create_progress", "start_step",
        "complete_step", "fail_step", "resume_point", "progress_display", "progress_percent"),
    "identity and auth": (
        "jwt_sign", "jwt_verify", "totp", "totp_verify", "lineage", "spend"),
    "attestation": ("attest", "attest_verify"),
    "crypto": ("ecdh_shared", "aes_gcm_encrypt", "aes_gcm_decrypt"),
    "blockchain": ("hd_derive",),
    "platform": ("platform", "self_path", "shutdown"),
}

# Open-ended families: every name starting with one of these belongs to the family.
PREFIXES: dict[str, str] = {
    "jsonl_": "data formats", "toml_": "data formats", "parquet_": "data formats",
    "state_": "HTTP server", "cron_": "cron", "sql_": "databases", "mongo_": "databases",
    "redis_": "databases", "jwt_": "identity and auth", "totp": "identity and auth",
    "captoken_": "identity and auth", "webauthn_": "identity and auth",
    "did_key_": "identity and auth", "document_": "identity and auth",
    "receipt": "identity and auth", "attest": "attestation", "ecdh_": "crypto",
    "aes_gcm_": "crypto", "evm_": "blockchain", "eth_": "blockchain", "secp256k1_": "blockchain",
    "ed25519_": "blockchain", "abi_": "blockchain", "solana_": "blockchain",
    "algorand_": "blockchain", "algo_": "blockchain", "btc_": "blockchain",
    "psbt_": "blockchain", "mnemonic_": "blockchain",
}

_FAMILY_OF = {name: family for family, names in FAMILIES.items() for name in names}


def tier_c_family(name: str) -> str | None:
    """The tier-C family `name` belongs to, or None when it is not a known tier-C builtin."""
    family = _FAMILY_OF.get(name)
    if family is not None:
        return family
    for prefix, family in PREFIXES.items():
        if name.startswith(prefix):
            return family
    return None


def unsupported_error(name: str, family: str) -> SynError:
    return SynError(f"'{name}' is not supported by this implementation (tier C: {family})")


def _register(name: str, family: str) -> None:
    def refuse(rt, *args, **named):
        raise unsupported_error(name, family)
    refuse.__name__ = name
    refuse.__doc__ = f"Tier C ({family}): always refuses, naming what is missing."
    builtin(name, 0, None)(refuse)


for _name, _family in _FAMILY_OF.items():
    _register(_name, _family)
