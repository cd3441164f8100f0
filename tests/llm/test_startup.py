"""The LLM machinery costs nothing until a program asks a model (SPEC §9 start-up)."""

import subprocess
import sys


def run_python(code: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SYNSEMA_LLM", "OPENAI", "ANTHROPIC"))}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_loading_the_llm_builtins_and_asking_offline_imports_no_http_client():
    code = ("import sys, synsema.stdlib.llm as b\n"
            "class Rt:\n"
            "    def check_cap(self, name, scope): pass\n"
            "assert b.llm_available(Rt()) is False\n"
            "assert b.llm_step(Rt(), 'hi', [], '')['text'] == '[no llm provider]'\n"
            "assert b.llm_usage(Rt()) == 0\n"
            "print([m for m in sys.modules if m.startswith(('httpx', 'httpcore', 'synsema.runtime.llm.http'))])\n")
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_importing_the_builtin_module_imports_nothing_from_runtime_llm():
    done = run_python("import sys, synsema.stdlib.llm; print([m for m in sys.modules if m.startswith('synsema.runtime.llm.')])")
    assert done.stdout.strip() == "[]", done.stderr
