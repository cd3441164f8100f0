"""Code the compiler generates by shape (runtime.fastpaths) behaves as the plain statements do.

A block longer than one generated function runs as nested ones (fastpaths.SEQUENCE_WIDTH); the
tests put a `give` and a `stop` at every position around those edges, and read the value a
block ends with. Expected outputs are computed here, independently of the interpreter.
"""

from __future__ import annotations

from conftest import run_synsema
from synsema.runtime.fastpaths import SEQUENCE_WIDTH

W = SEQUENCE_WIDTH
LENGTHS = (3, W - 1, W, W + 1, 2 * W, 2 * W + 1, W * W, W * W + 1, W * W + W + 2)


def _positions(n: int) -> list[int]:
    """Where to end a block of `n` statement pairs early: both ends and each chunk edge."""
    edges = {0, 1, n - 1}
    for k in range(W - 1, n, W):
        edges.update((k, k + 1))
    return sorted(e for e in edges if 0 <= e < n)


def _long_task(n: int) -> str:
    """A task of 2n + 2 statements: at pair k, `give` what was collected if g == k."""
    body = "".join(f"    when g == {k}\n        give acc\n    set acc to append(acc, {k})\n" for k in range(n))
    return f"task long_{n}(g)\n    let acc be []\n{body}    acc\n"


def _long_loop(n: int) -> str:
    """A loop whose body has 2n statements: at pair k, `stop` if g == k."""
    body = "".join(f"        when g == {k}\n            stop\n        set acc to append(acc, {k})\n"
                   for k in range(n))
    return (f"task loop_{n}(g)\n    let acc be []\n    each r in range(2)\n{body}"
            f"    give acc\n")


def test_long_blocks_give_stop_and_end_exactly_as_written(tmp_path):
    program, expected = [], []
    for n in LENGTHS:
        program += [_long_task(n), _long_loop(n)]
        for g in [*_positions(n), -1]:
            program.append(f"print(long_{n}({g}))\nprint(loop_{n}({g}))\n")
            expected.append(str(list(range(g if g >= 0 else n))))
            expected.append(str(list(range(g)) if g >= 0 else list(range(n)) * 2))
    # The top level itself: a long run of statements, in order, with a value-less end.
    program += [f"print({k})\n" for k in range(W * W + 3)]
    expected += [str(k) for k in range(W * W + 3)]
    path = tmp_path / "long.syn"
    path.write_text("".join(program), encoding="utf-8")
    result = run_synsema("run", path.name, cwd=tmp_path)
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected


def test_an_error_deep_in_a_long_block_names_its_own_line(tmp_path):
    lines = [f"let v{k} be {k}\n" for k in range(W * W + 5)]
    lines[W * W + 1] = "let broken be [1][3]\n"
    path = tmp_path / "deep.syn"
    path.write_text("".join(lines), encoding="utf-8")
    result = run_synsema("run", path.name, cwd=tmp_path)
    assert result.returncode == 1
    assert f"deep.syn:{W * W + 2}:" in result.stderr
    assert "Index 3 out of range (list length 1)" in result.stderr


OPERANDS = ("a", "b", "c", "d", "g1", "g2", "3", "-7", "(a + b)", "(c - 1)")
OPERATORS = ("+", "-", "*", "%", "//", "<", "<=", ">", ">=", "==", "!=")
SITES = [f"{left} {op} {right}" for left in OPERANDS for op in OPERATORS for right in OPERANDS]


def _shown(value) -> str:
    return ("true" if value else "false") if type(value) is bool else str(value)


def _expected(a: int, b: int) -> list[str]:
    names = {"a": a, "b": b, "c": a + 1, "d": b + 2, "g1": 10, "g2": 20}
    return [_shown(eval(site, {}, names)) for site in SITES]


def test_sites_of_one_shape_keep_their_own_slots_names_and_constants(tmp_path):
    """Each operator is generated once per shape (operator, how each side is read) and then
    shared: every site must still read its own parameter, local, global or literal. The same
    sites run in a task (parameters, locals), twice with other arguments, and at the top level
    (globals), with and without --labels."""
    prints = "".join(f"    print({site})\n" for site in SITES)
    program = (f"let g1 be 10\nlet g2 be 20\ntask sites(a, b)\n    let c be a + 1\n    let d be b + 2\n"
               f"{prints}sites(5, 8)\nsites(-4, 3)\n"
               f"let a be 2\nlet b be 9\nlet c be a + 1\nlet d be b + 2\n{prints.replace('    print', 'print')}")
    path = tmp_path / "sites.syn"
    path.write_text(program, encoding="utf-8")
    expected = _expected(5, 8) + _expected(-4, 3) + _expected(2, 9)
    for flags in ([], ["--labels"]):
        result = run_synsema("run", *flags, path.name, cwd=tmp_path)
        assert result.stderr == ""
        assert result.stdout.splitlines() == expected
