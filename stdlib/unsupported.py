"""Tier-C builtins: names upstream Synsema has that this implementation does not provide.

A program written for the full engine may call `csv_parse` or `db_open`. It must get a clear
answer naming the builtin and why it is missing, not `Undefined variable` (which reads like a
typo) and never a traceback. Each name below is registered as a builtin that raises
`'<name>' is not supported by this implementation (tier C: <family>)`. Families whose members
are open-ended (`evm_*`, `jwt_*`, …) are also listed by prefix: `tier_c_family(name)` answers
for any member, so the evaluator can give the same message for a name not listed here.

What is implemented of the file, environment and network families lives in `stdlib.files_env`
and `stdlib.net`; the rest of those families (processes, pipes, sockets, archives) is listed
here. The list is upstream's builtin registry minus what this implementation provides; README
"What is not supported" is the same list in prose.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.lang.hints import unsupported
from synsema.stdlib.registry import builtin

FAMILIES: dict[str, tuple[str, ...]] = {
    "text": ("strip_ansi",),
    "special functions": ("gamma", "lgamma", "erf", "erfc", "beta"),
    "complex numbers": ("complex", "imag", "conj", "is_complex", "real", "arg"),
    "arrays and linear algebra": (
        "array", "zeros", "ones", "arange", "linspace", "identity", "eye", "is_array", "reshape",
        "transpose", "matmul", "solve", "eig", "svd", "corr", "cov", "lstsq", "polyfit", "polyval",
        "full", "shape", "ndim", "size", "to_list", "at", "dot", "det", "inv", "norm", "cumsum",
        "diff", "concat", "stack", "argmin", "argmax"),
    "files and archives": (
        "read_file_bytes", "file_info", "grep", "edit_file", "delete_dir", "cwd", "tar_create",
        "tar_extract", "zip_create", "zip_extract"),
    "processes and terminals": (
        "run", "run_program", "select", "pipe", "pipe_open", "pipe_send", "pipe_recv", "pipe_close",
        "proc_spawn", "proc_send", "proc_recv", "proc_wait", "proc_kill", "proc_close",
        "proc_close_stdin", "proc_resize", "proc_select", "proc_stats", "proc_status", "term_open",
        "term_write", "term_recv", "term_size", "term_stats", "term_close", "watch", "watch_recv",
        "watch_close", "watch_stats", "bus_publish", "bus_subscribe", "bus_unsubscribe", "bus_recv",
        "bus_topics"),
    "HTTP client and sockets": (
        "http", "http_get", "http_post", "http_put", "http_delete", "http_bytes", "multipart_encode",
        "ws_connect", "ws_send", "ws_recv", "ws_close", "ws_select", "ws_select_all", "ws_broadcast",
        "ws_stats", "ws_status", "tcp_connect", "tcp_listen", "tcp_accept", "tcp_send", "tcp_recv",
        "tcp_close"),
    "web push": ("push_send", "push_vapid_keys"),
    "judge": ("judge_available", "judge_usage", "judge_model"),
    "data formats": ("toml_parse", "toml_encode", "xml_parse", "parquet_read", "parquet_write"),
    "table operations": (
        "summarize", "count_by", "count", "pivot", "fill_missing", "drop_missing", "fill_nan"),
    "dates": ("date", "datetime", "duration", "date_range", "parse_date", "parse_datetime"),
    "seeded randomness": ("rng", "random_bytes", "token", "random_normal"),
    "HTTP server": (
        "ok", "created", "not_found", "fail", "html", "respond", "render", "read_body",
        "read_body_bytes", "binary", "state_get", "state_set", "state_incr", "state_delete",
        "content", "set_cookie", "clear_cookie", "redirect", "page", "image", "code"),
    "charts": ("chart", "chart_svg", "svg_to_png", "svg_to_pdf"),
    "cron": ("cron_every", "cron_after", "cron_cancel", "cron_list", "cron_status"),
    "databases": (
        "db_open", "db_close", "sql", "sql_exec", "sql_batch", "sql_tables", "paged",
        "mongo_find", "mongo_find_one", "mongo_insert", "mongo_update", "mongo_delete",
        "redis_get", "redis_set", "redis_del"),
    "agents": ("agents", "agent_stop"),
    "identity and auth": (
        "jwt_sign", "jwt_verify", "totp", "totp_verify", "lineage", "spend", "spend_total",
        "oidc_verify", "mtls_identity", "http_sign", "http_signature_verify"),
    "attestation": ("attest", "attest_verify"),
    "crypto": ("ecdh_shared", "aes_gcm_encrypt", "aes_gcm_decrypt", "hkdf_sha256", "ecdsa_p256_sign",
               "ecdsa_p256_verify", "rsa_sign_sha256", "rsa_verify_sha256", "keystore_export", "keystore_import", "int_to_bytes"),
    "blockchain": ("hd_derive", "bech32_encode", "bech32_decode", "rlp_decode", "wif_import",
                   "schnorr_sign", "spl_ata", "spl_balance"),
    "platform": ("platform", "self_path", "shutdown"),
}

# Open-ended families: every name starting with one of these belongs to the family.
PREFIXES: dict[str, str] = {
    "toml_": "data formats", "parquet_": "data formats",
    "state_": "HTTP server", "cron_": "cron", "sql_": "databases", "mongo_": "databases",
    "redis_": "databases", "jwt_": "identity and auth", "totp": "identity and auth",
    "captoken_": "identity and auth", "webauthn_": "identity and auth",
    "did_key_": "identity and auth", "document_": "identity and auth",
    "receipt": "identity and auth", "attest": "attestation", "ecdh_": "crypto",
    "aes_gcm_": "crypto", "evm_": "blockchain", "eth_": "blockchain", "secp256k1_": "blockchain",
    "ed25519_": "blockchain", "abi_": "blockchain", "solana_": "blockchain",
    "algorand_": "blockchain", "algo_": "blockchain", "btc_": "blockchain",
    "psbt_": "blockchain", "mnemonic_": "blockchain", "spl_": "blockchain",
    "proc_": "processes and terminals", "term_": "processes and terminals",
    "pipe_": "processes and terminals", "bus_": "processes and terminals",
    "watch_": "processes and terminals", "tcp_": "HTTP client and sockets",
    "ws_": "HTTP client and sockets", "http_": "HTTP client and sockets", "push_": "web push",
    "tar_": "files and archives", "zip_": "files and archives", "judge_": "judge",
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
    return SynError(unsupported(name, family), code="unsupported")


def _register(name: str, family: str) -> None:
    def refuse(rt, *args, **named):
        raise unsupported_error(name, family)
    refuse.__name__ = name
    refuse.__doc__ = f"Tier C ({family}): always refuses, naming what is missing."
    builtin(name, 0, None)(refuse)


for _name, _family in _FAMILY_OF.items():
    _register(_name, _family)
