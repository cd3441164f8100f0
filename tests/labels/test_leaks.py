"""The leak suite: every program in `leaks/` must be rejected (or, for a direct copy to stdout,
printed redacted); its twin of the same name in `secure/` must be accepted with the exact output.

Each pair runs with the same command line, `synsema run --labels [--cap-set …] PROGRAM -- [args]
SECRET`, so the only difference between a leak and its twin is the program text. Every program
that reads its arguments runs twice, with two different secrets as its last argument (the
programs from 45 on read it with `args()`): a leak must then produce exactly the same exit code, stdout and stderr both
times, and neither secret may appear in what it printed. (A violation that only one secret
triggers would still tell one bit, the termination channel README.md describes; the leaks are
written so that both secrets reach their refusal.) Where a capability could
be what stops a leak (files, the network), the ceiling grants it, so a rejection can only come from
the labels. Over-rejection of a twin is as much a defect as a leak that gets through.

The expectations are the tables `LEAKS` and `TWINS` below.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import run_synsema

HERE = Path(__file__).resolve().parent
LEAK_DIR = HERE / "leaks"
SECURE_DIR = HERE / "secure"

# Ceilings. FILES grants file.write on the test's own directory (and the declassify items the
# twins need), so a refused write is refused by the labels, not by the capability.
FILES = "stdout,file.write={tmp},declassify=app,declassify=hr"
NET = "stdout,net=127.0.0.1,declassify=app"
LLM = "stdout,llm=customers"
NO_BANK = "stdout,declassify=app"
BANK = "stdout,declassify=bank"

SECRETS = ("417", "862")   # the last program argument of every run; each program runs with both

VIOLATION = "violation"   # exit 1, a `label_violation: …` on stderr
SECRET = "secret"         # exit 1, stderr `Runtime error: FILE:LINE: private(<principals>): a … error …`
REJECTED = "rejected"     # either of the two (where the implementation may pick)
REDACTED = "redacted"     # exit 0, the exact stdout, private values shown as private(…)
LOAD_ERROR = "load_error"  # exit 1 before anything runs, stderr naming the rule


@dataclass
class Leak:
    outcome: str
    stdout: str = ""               # exact stdout (what ran before the rejection, or the redaction)
    principals: str = "app"        # the redacted text's principals, for SECRET
    hidden: tuple = ()             # texts (the secret) that must appear in no output at all
    message: str = ""              # a fragment stderr must contain (LOAD_ERROR, or extra checks)
    cap_set: str | None = None
    args: tuple = ()
    absent: tuple = ()             # files the run must not have created


@dataclass
class Twin:
    stdout: str
    stderr: str = ""
    cap_set: str | None = None
    args: tuple = ()
    files: dict = field(default_factory=dict)   # files the run must have written, with content


LEAKS: dict[str, Leak] = {
    "01_direct_print": Leak(REDACTED, "private(app)\npin: private(app)\nprivate(app)\n"
                                      "private(app)\nprivate(app)\n", hidden=("4711", "4712")),
    "02_file_copy": Leak(VIOLATION, cap_set=FILES, hidden=("4711",), absent=("pin.txt",),
                         message="write_file"),
    "03_implicit_branch": Leak(VIOLATION, message="cannot assign to 'high'"),
    "04_partial_leak": Leak(VIOLATION, message="cannot assign to 'x'"),
    "05_loop_count": Leak(VIOLATION, message="cannot assign to 'n'"),
    "06_line_count": Leak(VIOLATION, message="print called under private control flow"),
    "07_conditional_output": Leak(VIOLATION, message="print called under private control flow"),
    "08_exception_presence": Leak(SECRET, principals="customer", hidden=("seventeen", "invalid")),
    "09_index_error": Leak(SECRET, hidden=("out of range", "Index 5")),
    "10_early_return": Leak(VIOLATION, message="print called under private control flow"),
    "11_stop_counter": Leak(VIOLATION, message="cannot assign to 'count'"),
    "12_tool_args": Leak(VIOLATION, hidden=("ana@example.com",),
                         message="print called under private control flow"),
    "13_file_under_pc": Leak(VIOLATION, cap_set=FILES, absent=("flag.txt",),
                             message="write_file() called under private control flow"),
    "14_fetch": Leak(VIOLATION, cap_set=NET, args=("{url}",), hidden=("s3cr3t",), message="fetch"),
    "15_llm_prompt": Leak(VIOLATION, cap_set=LLM, hidden=("4111",), message="llm_step"),
    "16_steps": Leak(VIOLATION, "private(app)\n", message="print called under private control flow"),
    "17_aliasing": Leak(REDACTED, '["visa", private(customer)]\nprivate(customer)\n'
                                  'private(customer)\n{cards: ["visa", private(customer)]}\n'
                                  'private(customer)\n', hidden=("4111",)),
    "18_computed_principal": Leak(LOAD_ERROR, message="never computed"),
    "19_stop_in_task": Leak(VIOLATION, message="stop would leave its task"),
    "20_match_subject": Leak(VIOLATION, message="print called under private control flow"),
    "21_short_circuit": Leak(VIOLATION, message="print called under private control flow"),
    "22_each_private_list": Leak(VIOLATION, message="print called under private control flow"),
    "23_exit_code": Leak(VIOLATION, message="exit() called under private control flow"),
    "24_callback": Leak(VIOLATION, message="print called under private control flow"),
    "25_raise_private_message": Leak(SECRET, hidden=("tok-123", "bad token")),
    "26_division_by_zero": Leak(SECRET, hidden=("Division",)),
    "27_eprint_under_pc": Leak(VIOLATION, hidden=("warning",), message="eprint"),
    "28_log_under_pc": Leak(VIOLATION, hidden=("negative balance",), message="log"),
    "29_nested_file": Leak(VIOLATION, cap_set=FILES, hidden=("123-45-6789",),
                           absent=("record.json",), message="write_file"),
    "30_invariant": Leak(SECRET, principals="bank", hidden=("under limit", "Invariant")),
    "31_inline_when_effect": Leak(VIOLATION, hidden=("LOUD",),
                                  message="print called under private control flow"),
    "32_while_stop": Leak(VIOLATION, message="cannot assign to 'tries'"),
    "33_not_operator": Leak(REDACTED, "private(bank)\n[private(bank)]\n"),
    "34_match_guard": Leak(VIOLATION, hidden=("overdrawn", "fine"),
                           message="print called under private control flow"),
    "35_let_rebind": Leak(REJECTED),
    # Decision: a name a private branch might bind is bound to a private `nothing` when the
    # branch does not run, so both outcomes print the same redacted text and nothing leaks.
    "36_undefined_after_private_let": Leak(REDACTED, "private(app)\n", hidden=("no y", "Undefined")),
    "37_give_in_loop": Leak(REJECTED, hidden=("not found", "none")),
    "38_task_redefined_under_pc": Leak(REJECTED, hidden=("insider",)),
    "39_set_index_error": Leak(SECRET, hidden=("caught", "Index 7")),
    "40_llm_expression": Leak(VIOLATION, hidden=("Ana owes",), message="reason"),
    "41_exit_value": Leak(VIOLATION, "start\n", message="exit()"),
    "42_where_callback": Leak(REDACTED, "private(app)\n"),
    "43_show_under_pc": Leak(VIOLATION, hidden=("high score",), message="show"),
    "44_chained_comparison": Leak(VIOLATION, message="cannot assign to 'calls'"),
    # Decision (README, labels): the label builtins are values like any other and are tracked
    # on every route: an alias, a higher-order builtin's callback, a module's export.
    "45_alias_private": Leak(SECRET, principals="bank"),
    "46_reduce_private": Leak(SECRET, principals="bank"),
    "47_module_private": Leak(VIOLATION, message="cannot assign to 'n'"),
    "48_callback_first_private": Leak(REDACTED, "private(bank)\nprivate(bank)\n"),
    "49_sink_callback": Leak(VIOLATION, cap_set=FILES, absent=("pin.txt",), message="write_file"),
    "50_declassify_alias": Leak(VIOLATION, cap_set=NO_BANK, message="declassify of bank is not allowed"),
    "51_label_of_alias": Leak(VIOLATION, message="print called under private control flow"),
    # Time is an observable: sleeping is a sink, and a clock read after private work is private.
    "52_sleep_under_pc": Leak(VIOLATION, message="sleep() called under private control flow"),
    "53_clock_after_branch": Leak(REDACTED, "private(bank)\nprivate(bank)\n"),
    # The principals in the redacted text are fixed before the run, and `use` is not a branch.
    "54_use_under_pc": Leak(VIOLATION, message="use under private control flow"),
    "55_principals_fixed": Leak(REDACTED, "private(audit, bank)\nprivate(audit, bank)\n"),
    # Code already running when the run's first private value appears.
    "56_first_private_in_set": Leak(REDACTED, "private(bank)\n"),
    "57_public_task_meets_private": Leak(REDACTED, "private(bank)\n"),
    "58_closed_task_private_data": Leak(REDACTED, "private(app) private(app) private(app) 7 private(app)\n"),
    "59_closed_task_under_private_pc": Leak(SECRET),
}

TWINS: dict[str, Twin] = {
    "01_direct_print": Twin("4711\npin: 4711\npin=4711\n4712\n"),
    "02_file_copy": Twin("written\n", cap_set=FILES, files={"pin.txt": "pin=4711"}),
    "03_implicit_branch": Twin("true\n"),
    "04_partial_leak": Twin("private(app)\nfalse\n"),
    "05_loop_count": Twin("3\nprivate(app)\n"),
    "06_line_count": Twin("line 0 private(app)\nline 1 private(app)\nline 2 private(app)\n"),
    "07_conditional_output": Twin("private(patient)\nyes\n"),
    "08_exception_presence": Twin("invalid\n"),
    "09_index_error": Twin("private(app)\nout of range: Index 5 out of range (list length 3)\n"),
    "10_early_return": Twin("private(bank)\nok\nlooking up savings\naccount\ndone\n"),
    "11_stop_counter": Twin("4\nprivate(app)\n"),
    "12_tool_args": Twin("sending: ana@example.com\nsent\n"),
    "13_file_under_pc": Twin("done\n", cap_set=FILES, files={"flag.txt": "yes"}),
    "14_fetch": Twin("200\npong\n", cap_set=NET, args=("{url}",)),
    "15_llm_prompt": Twin('{kind: "final", text: "[no llm provider]", tokens: 0}\n', cap_set=LLM),
    "16_steps": Twin("5\ntrue\nfalse\ncounted\n"),
    "17_aliasing": Twin('["visa", "hidden"]\nhidden\n["visa", private(customer)]\nvisa\n'),
    "18_computed_principal": Twin('started\n["bank"]\nprivate(app, bank)\n'),
    "19_stop_in_task": Twin("3\n"),
    "20_match_subject": Twin("20\n"),
    "21_short_circuit": Twin("audited\nprivate(crm)\nafter\n"),
    "22_each_private_list": Twin("contact ana\ncontact private(crm)\ncontact cy\n"),
    "23_exit_code": Twin("end\n"),
    "24_callback": Twin("private(app)\n[10, 20, 30]\n"),
    "25_raise_private_message": Twin("bad token\n"),
    "26_division_by_zero": Twin("private(app)\n[0.5, 1.0, nothing, -1.0]\n"),
    "27_eprint_under_pc": Twin("done\n", stderr="balance: private(bank)\n"),
    "28_log_under_pc": Twin("done\n", stderr="[LOG] checked the balance\n"),
    "29_nested_file": Twin("written\n", cap_set=FILES, files={"record.json": '{"name":"Ana","ids":[]}'}),
    "30_invariant": Twin("Invariant violation: under limit\n"),
    "31_inline_when_effect": Twin("private(app)\nafter\n"),
    "32_while_stop": Twin("10\nprivate(app)\n"),
    "33_not_operator": Twin("true\n[true]\n"),
    "34_match_guard": Twin("overdrawn\n"),
    "35_let_rebind": Twin("0\nprivate(app)\n"),
    "36_undefined_after_private_let": Twin("private(app)\n"),
    "37_give_in_loop": Twin("searched 3 items\nprivate(app)\nnone\n"),
    "38_task_redefined_under_pc": Twin("hello, insider\n"),
    "39_set_index_error": Twin("private(app)\ncaught: Index 7 out of range (list length 3)\n"),
    "40_llm_expression": Twin("[reasoning about: the weather]\n"),
    "41_exit_value": Twin("start\n"),
    "42_where_callback": Twin("[2, 3]\n"),
    "43_show_under_pc": Twin("private(app)\nchecked\ndone\n"),
    "44_chained_comparison": Twin("1\nprivate(app)\n"),
    "45_alias_private": Twin("{secret}\n"),
    "46_reduce_private": Twin("6\n"),
    "47_module_private": Twin("private(bank)\n"),
    "48_callback_first_private": Twin("4\n[2]\n"),
    "49_sink_callback": Twin("written\n", cap_set=FILES, files={"pin.txt": "public"}),
    "50_declassify_alias": Twin("true\n", cap_set=BANK),
    "51_label_of_alias": Twin("public\n"),
    "52_sleep_under_pc": Twin("done\n"),
    "53_clock_after_branch": Twin("true\ntrue\ndone\n"),
    "54_use_under_pc": Twin("private(audit, bank)\n"),
    "55_principals_fixed": Twin("true\n1\n"),
    "56_first_private_in_set": Twin("{key: private(bank)}\n"),
    "57_public_task_meets_private": Twin("9\n"),
    "58_closed_task_private_data": Twin("{secret} {secret} 7 7 {secret}\n"),
    "59_closed_task_under_private_pc": Twin("1\n"),
}


# ---------------------------------------------------------------- a local HTTP server for fetch
class _Server:
    def __init__(self):
        self.paths: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.paths.append(self.path)
                body = b"pong"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)


@pytest.fixture(scope="module")
def http_server():
    server = _Server()
    server.thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


# ---------------------------------------------------------------- running one program
def _fill(text: str, tmp: Path, url: str) -> str:
    return text.replace("{tmp}", str(tmp)).replace("{url}", url)


def _run(program: Path, cap_set, args, tmp: Path, url: str, secret: str = SECRETS[0]):
    command = ["run", "--labels"]
    if cap_set is not None:
        command += ["--cap-set", _fill(cap_set, tmp, url)]
    command.append(str(program))
    command += ["--", *[_fill(a, tmp, url) for a in args], secret]
    return run_synsema(*command, cwd=tmp)


def _secrets(program: Path) -> tuple:
    """Both secrets for a program that reads its arguments; one run is enough for the others."""
    return SECRETS if "args()" in program.read_text(encoding="utf-8") else SECRETS[:1]


def _shown(proc) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}"


def test_every_leak_has_a_twin_and_an_expectation():
    leaks = sorted(p.stem for p in LEAK_DIR.glob("*.syn"))
    twins = sorted(p.stem for p in SECURE_DIR.glob("*.syn"))
    assert leaks == twins
    assert leaks == sorted(LEAKS) == sorted(TWINS)
    assert len(leaks) >= 20
    for name in leaks:
        assert re.fullmatch(r"\d\d_[a-z0-9_]+", name), name


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_leak_is_stopped(name, tmp_path, http_server):
    """Both secrets: the expected refusal or redaction, and exactly the same observable run."""
    runs = []
    for secret in _secrets(LEAK_DIR / f"{name}.syn"):
        workdir = tmp_path / secret
        workdir.mkdir()
        runs.append(_check_leak(name, workdir, http_server, secret))
    first, second = runs[0], runs[-1]
    assert (first.returncode, first.stdout, first.stderr) == \
        (second.returncode, second.stdout, second.stderr), f"{_shown(first)}\n---\n{_shown(second)}"


def _check_leak(name, tmp_path, http_server, secret):
    case = LEAKS[name]
    uses_server = "{url}" in " ".join(case.args)
    before = len(http_server.paths)
    proc = _run(LEAK_DIR / f"{name}.syn", case.cap_set, case.args, tmp_path, http_server.url, secret)
    shown = _shown(proc)

    if case.outcome == REDACTED:
        assert proc.returncode == 0, shown
        assert proc.stdout == case.stdout, shown
        assert proc.stderr == "", shown
    elif case.outcome == LOAD_ERROR:
        assert proc.returncode == 1, shown
        assert proc.stdout == "", shown
        assert case.message in proc.stderr, shown
    else:
        assert proc.returncode == 1, shown
        assert proc.stdout == case.stdout, shown
        # A secret error shows where public control flow last was, its kind, and nothing else
        # (issue 26); `test_leak_is_stopped` compares the two secrets' runs, positions included.
        secret_form = re.compile(rf"Runtime error: [^:\n]+\.syn:\d+: private\({re.escape(case.principals)}\): "
                                 rf"a [a-z ]+ whose message depends on private data\n")
        if case.outcome == VIOLATION:
            assert "label_violation" in proc.stderr, shown
            assert case.message in proc.stderr, shown
        elif case.outcome == SECRET:
            assert secret_form.fullmatch(proc.stderr), shown
        else:
            assert "label_violation" in proc.stderr or secret_form.fullmatch(proc.stderr), shown
        assert proc.stderr.count("\n") == 1, shown      # one error line, nothing else

    for text in (*case.hidden, *SECRETS):
        assert text not in proc.stdout and text not in proc.stderr, f"{text!r} leaked\n{shown}"
        if uses_server:
            assert not any(text in path for path in http_server.paths[before:]), http_server.paths
    for missing in case.absent:
        assert not (tmp_path / missing).exists(), f"{missing} was written\n{shown}"
    if uses_server:
        assert http_server.paths[before:] == [], "the request was sent"
    return proc


@pytest.mark.parametrize("name", sorted(TWINS))
def test_secure_twin_is_accepted(name, tmp_path, http_server):
    """Both secrets; `{secret}` in the expected output is the secret the twin chose to publish."""
    case = TWINS[name]
    for secret in _secrets(SECURE_DIR / f"{name}.syn"):
        workdir = tmp_path / secret
        workdir.mkdir()
        proc = _run(SECURE_DIR / f"{name}.syn", case.cap_set, case.args, workdir, http_server.url, secret)
        shown = _shown(proc)
        assert proc.returncode == 0, shown
        assert proc.stdout == case.stdout.replace("{secret}", secret), shown
        assert proc.stderr == case.stderr, shown
        for file_name, content in case.files.items():
            assert (workdir / file_name).read_text(encoding="utf-8") == content


def test_fetch_twin_reaches_the_server(tmp_path, http_server):
    """The secure fetch really went out (so the leak's silence is the labels' doing)."""
    before = len(http_server.paths)
    proc = _run(SECURE_DIR / "14_fetch.syn", NET, ("{url}",), tmp_path, http_server.url)
    assert proc.returncode == 0, _shown(proc)
    assert http_server.paths[before:] == ["/lookup?token=public"]


def test_file_leak_is_not_stopped_by_the_capability(tmp_path):
    """Control: under the same ceiling a public write succeeds, so in the file leaks it is the
    labels, not the capability, that refuse the write."""
    program = tmp_path / "plain.syn"
    program.write_text('require file.write(".")\nwrite_file("probe.txt", "x")\nprint("ok")\n')
    proc = run_synsema("run", "--labels", "--cap-set", _fill(FILES, tmp_path, ""), str(program),
                       cwd=tmp_path)
    assert proc.returncode == 0, _shown(proc)
    assert (tmp_path / "probe.txt").read_text() == "x"


def test_secret_errors_show_their_public_position_and_kind_and_no_value(tmp_path, http_server):
    """The secret form is one line: the file and line of the statement public control flow last
    reached (no column: which operation of it failed may depend on the secret), the kind, and
    neither message nor value (issue 26)."""
    proc = _run(LEAK_DIR / "09_index_error.syn", None, (), tmp_path, http_server.url)
    assert proc.stderr == (f"Runtime error: {LEAK_DIR / '09_index_error.syn'}:5: private(app): a runtime error "
                           "whose message depends on private data\n")
