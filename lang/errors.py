"""The one error type a Synsema user ever sees.

Every failure a program can cause, from a stray character to a failed assertion, is a
`SynError`. It carries the phase that found it (`Lexer`, `Parse`, `Runtime`) and the source
position, so the command line can print `Runtime error: file:line:col: message` and `recover`
can hand the bare message to the script. Python exceptions never reach a user.
"""

from __future__ import annotations


class Span:
    """A position in a source file: 1-based line and column."""

    __slots__ = ("file", "line", "col")

    def __init__(self, file: str, line: int, col: int):
        self.file = file
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    __str__ = __repr__


class SynError(Exception):
    """A language error.

    `phase` is how the error is introduced on stderr ("Lexer", "Parse", "Runtime").
    `span` may be None while the error travels up from a builtin; the evaluator fills in
    the call site before it leaves the call. `assertion` marks failures of the assert family
    so the test runner can tell a failed expectation from a crash; a failed assertion may also
    carry a `detail` (runtime.assertions), the lines that explain it below the first line.

    Under `--labels` two more kinds exist, and neither can be caught by `recover`: a
    `violation` (the label system refusing a flow) and an error whose very existence depends on
    private data (`secret` holds its principals). A secret error leaves the process showing only
    `redacted`, never its message or position.
    """

    def __init__(self, message: str, span: Span | None = None, phase: str = "Runtime",
                 assertion: bool = False, hint: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.phase = phase
        self.assertion = assertion
        self.hint = hint            # how to fix it, shown below the source line (lang.diagnostics)
        self.code = code            # a stable name for the kind of error, for --format json
        self.fixes: list = []       # lang.hints.Fix: the mechanical rewrites, offered by editors
        self.detail = None          # () -> lines explaining a failed assertion, made when shown
        self.public: str | None = None  # a part of the message that depends on nothing private
        self.public_at = None           # a secret error's public position (runtime.labels.make_secret)
        self.violation = False
        self.secret: frozenset | None = None
        self.redacted = ""

    @property
    def catchable(self) -> bool:
        return not self.violation and not self.secret

    def at(self, span: Span | None) -> "SynError":
        """Give the error a position if it has none yet (the innermost node wins)."""
        if self.span is None:
            self.span = span
        return self

    def located(self) -> str:
        """`file:line:col: message`, or just the message when no position is known."""
        if self.span is None:
            return self.message
        return f"{self.span}: {self.message}"

    def report(self) -> str:
        """The one-line form printed on stderr for an uncaught error."""
        if self.secret:
            span = self.public_span()
            where = f"{span.file}:{span.line}: " if span is not None and span.line else ""
            return f"{self.phase} error: {where}{self.withheld()}"
        return f"{self.phase} error: {self.located()}"

    def public_span(self) -> "Span | None":
        """Where a secret error may be said to be: the last position public control flow reached
        (shown as file:line only: which operation of a statement failed may depend on the secret)."""
        return self.span if self.public_at == "here" else self.public_at

    def withheld_code(self) -> str:
        """The `code` a secret error may show: one of the public kinds, else `runtime` (which
        of the other kinds an operation on private data failed with may depend on the data)."""
        return self.code if self.code in _WITHHELD_KINDS else "runtime"

    def withheld(self) -> str:
        """A secret error's message as it may be shown: `private(…): a <kind> …` — the kind (a
        provider error, a cassette miss, a capability error) and what its raiser marked public,
        never its own message."""
        kind = _WITHHELD_KINDS.get(self.code, "runtime error")
        if self.public:
            return f"{self.redacted}: a {kind}; {self.public}"
        return f"{self.redacted}: a {kind} whose message depends on private data"


# The kinds a withheld (secret) error still names; `code` is set by whoever raised it.
_WITHHELD_KINDS = {"provider-error": "provider error", "cassette-miss": "cassette miss",
                   "capability": "capability error", "label-violation": "label violation"}


def lex_error(message: str, span: Span) -> SynError:
    return SynError(message, span, "Lexer")


def parse_error(message: str, span: Span) -> SynError:
    return SynError(message, span, "Parse")
