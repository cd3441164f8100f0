"""README's tier-C list is exactly what the implementation refuses."""

from __future__ import annotations

import re
from pathlib import Path

from synsema.stdlib.registry import load_all
from synsema.stdlib.unsupported import FAMILIES, PREFIXES

README = Path(__file__).resolve().parents[2] / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## What is not supported (tier C)", 1)[1].split("\n## ", 1)[0]


def test_readme_lists_every_tier_c_name_and_no_other():
    listed = {}
    for family, names in re.findall(r"^- ([^:]+): (.+)$", _section(), re.M):
        listed[family] = tuple(re.findall(r"`([^`]+)`", names))
    assert listed == FAMILIES


def test_readme_lists_every_prefix():
    assert set(re.findall(r"`([a-z0-9_]+)\*`", _section())) == set(PREFIXES)


def test_no_tier_c_name_is_also_implemented():
    builtins = load_all()
    refused = {name for name, spec in builtins.items() if spec.module == "synsema.stdlib.unsupported"}
    assert refused == {name for names in FAMILIES.values() for name in names}
