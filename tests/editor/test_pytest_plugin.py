"""The pytest plugin (entry point `pytest11`): a real `pytest` in a subprocess collects the test
blocks of `.syn` files when a project opts in, with node ids `file.syn::name`, `-k`, `-x`, the
runner's failure messages, host flags from an ini option and replay cassettes per test."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

from tests.conftest import ROOT, synsema_env

CALC = textwrap.dedent('''\
    task add(a, b)
        give a + b

    print("loaded")

    test "adds small numbers"
        assert_eq(add(1, 2), 3)

    test "adds lists"
        assert_eq(add([1], [2, 3]), [1, 2, 3])

    test "a wrong expectation"
        print("about to fail")
        assert_eq(add(2, 2), 5)
''')


def pytest_in(folder, *args, ini: str | None = "[pytest]\nsynsema_files = *.syn\n"):
    if ini is not None:
        (folder / "pytest.ini").write_text(ini)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=folder, capture_output=True, text=True, timeout=120, env=synsema_env())


def test_nothing_is_collected_without_opting_in(tmp_path):
    (tmp_path / "calc.syn").write_text(CALC)
    done = pytest_in(tmp_path, "-q", ini="[pytest]\n")
    assert done.returncode == 5, done.stdout   # pytest's "no tests ran"


def test_test_blocks_are_items_with_file_and_name_ids(tmp_path):
    (tmp_path / "calc.syn").write_text(CALC)
    listed = pytest_in(tmp_path, "--collect-only", "-q")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert listed.stdout.splitlines()[:3] == ["calc.syn::adds small numbers", "calc.syn::adds lists",
                                              "calc.syn::a wrong expectation"]


def test_a_failure_shows_the_runner_message_position_and_output(tmp_path):
    (tmp_path / "calc.syn").write_text(CALC)
    done = pytest_in(tmp_path, "-q", "-rN")
    assert done.returncode == 1
    assert "2 passed" in done.stdout and "1 failed" in done.stdout
    assert "calc.syn:12: test 'a wrong expectation' failed:" in done.stdout
    assert "4" in done.stdout and "5" in done.stdout
    assert "where add(2, 2) = 4" in done.stdout   # the explanation synsema test shows, too
    assert "about to fail" in done.stdout and "synsema output" in done.stdout


def test_k_and_x_select_and_stop(tmp_path):
    (tmp_path / "calc.syn").write_text(CALC)
    picked = pytest_in(tmp_path, "-q", "-k", "lists")
    assert picked.returncode == 0 and "1 passed, 2 deselected" in picked.stdout
    (tmp_path / "more.syn").write_text(CALC.replace("adds", "sums"))
    stopped = pytest_in(tmp_path, "-q", "-x")
    assert stopped.returncode == 1 and "1 failed, 2 passed" in stopped.stdout   # stops at the first


def test_host_flags_come_from_the_ini(tmp_path):
    (tmp_path / "secret.syn").write_text(textwrap.dedent('''\
        test "a private value never prints"
            let balance be private(120, "bank")
            when balance > 100
                print("rich")
    '''))
    (tmp_path / "clock.syn").write_text('test "needs the clock"\n    require time\n    assert(now() > 0)\n')
    labels = pytest_in(tmp_path, "-q", "secret.syn",
                       ini="[pytest]\nsynsema_files = *.syn\nsynsema_flags = --labels\n")
    assert labels.returncode == 1 and "label_violation" in labels.stdout
    without = pytest_in(tmp_path, "-q", "secret.syn")
    assert without.returncode == 1 and "--labels" in without.stdout
    narrowed = pytest_in(tmp_path, "-q", "clock.syn",
                         ini='[pytest]\nsynsema_files = *.syn\nsynsema_flags = --cap-set "stdout"\n')
    assert narrowed.returncode == 1 and "time" in narrowed.stdout
    assert pytest_in(tmp_path, "-q", "clock.syn").returncode == 0
    bad = pytest_in(tmp_path, "-q", ini="[pytest]\nsynsema_files = *.syn\nsynsema_flags = --bogus\n")
    assert bad.returncode == 4 and "synsema_flags: --bogus is not a host flag" in bad.stderr


def test_a_cassette_per_test_replays_the_model(tmp_path):
    (tmp_path / "agent.syn").write_text(textwrap.dedent('''\
        require llm

        task get_weather(city: text)
            require net("api.weather.com")
            give "weather in " + city + ": sunny"

        let catalog be [tool_spec(get_weather, "Current weather for a city")]

        test "the model asks for the weather tool"
            let step be llm_step("What is the weather in Atlantis and in Lima?", catalog, "")
            assert_eq(step["kind"], "tool")
            assert_eq(step["name"], "get_weather")

        test "offline the placeholder answers"
            assert_eq(llm_step("hello", [], "")["kind"], "final")
    '''))
    (tmp_path / "cassettes" / "agent").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "agent_loop.cassette.jsonl",
                tmp_path / "cassettes" / "agent" / "the_model_asks_for_the_weather_tool.jsonl")
    done = pytest_in(tmp_path, "-q", ini="[pytest]\nsynsema_files = *.syn\nsynsema_cassettes = cassettes\n")
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout


def test_a_file_that_does_not_parse_is_a_collection_error_with_its_position(tmp_path):
    (tmp_path / "broken.syn").write_text('test "x"\n    assert(1 +)\n')
    done = pytest_in(tmp_path, "-q")
    assert done.returncode == 2
    assert "broken.syn:2:" in done.stdout and "Traceback" not in done.stdout
