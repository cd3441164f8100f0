"""`synsema math list [--json]`, `synsema math describe ID`, `synsema math run ID JSON`.

`main` receives the arguments after `math`. Results go to stdout as JSON (exact integers beyond
2^53-1 as decimal text, rationals as text); a rejected payload or a failed run is one line on
stderr and exit code 1; a malformed command line is exit code 2.
"""

from __future__ import annotations

import json
import re
import sys

# No request nests deeper than a few levels (a matrix is three); a payload nested deeper than
# this is refused before the JSON parser recurses into it (CPython's stops near 1000 levels
# with a RecursionError). A local check: issue12's shared JSON depth helper had not landed.
MAX_PAYLOAD_DEPTH = 100
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')

USAGE = ("usage: synsema math list [--json]\n"
         "       synsema math describe ID\n"
         "       synsema math run ID JSON")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command == "list" and args in ([], ["--json"]):
        return _list(as_json=bool(args))
    if command == "describe" and len(args) == 1:
        return _describe(args[0])
    if command == "run" and len(args) == 2:
        return _run(args[0], args[1])
    print(f"synsema math: bad arguments: {' '.join(argv)}\n{USAGE}", file=sys.stderr)
    return 2


def _list(as_json: bool) -> int:
    from . import api
    entries = api.find(limit=api.MAX_LIMIT)
    if as_json:
        print(json.dumps([e.model_dump() for e in entries], indent=2))
        return 0
    width = max(len(e.identifier) for e in entries)
    for e in entries:
        print(f"{e.identifier:<{width}}  {e.summary}  [{' | '.join(e.outcomes)}]")
    return 0


def _describe(identifier: str) -> int:
    from . import api
    from .errors import MathError
    try:
        print(json.dumps(api.describe(identifier).model_dump(), indent=2))
    except MathError as error:
        print(error.one_line(), file=sys.stderr)
        return 1
    return 0


def _run(identifier: str, text: str) -> int:
    from . import isolation
    isolation.start_soon(identifier)  # the worker prepares the operation while this validates
    from . import api
    from .errors import MathError
    try:
        payload = _decode(text)
    except ValueError as error:
        print(f"math.run {identifier}: invalid JSON payload: {error}", file=sys.stderr)
        return 1
    try:
        result = api.run(identifier, payload)
    except MathError as error:
        print(error.one_line(), file=sys.stderr)
        return 1
    print(result.model_dump_json())
    return 0


def _decode(text: str):
    """json.loads, refusing nesting deeper than MAX_PAYLOAD_DEPTH first."""
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_PAYLOAD_DEPTH:
                raise ValueError(f"nested deeper than {MAX_PAYLOAD_DEPTH} levels at character "
                                 f"{token.start()}")
        elif bracket in "]}":
            depth -= 1
    return json.loads(text)
