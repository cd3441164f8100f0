"""The `MathTool` declaration: one immutable value per public operation (seed rule R1).

A declaration names the operation, states its mathematical claim, holds the request model and
the result type, the domain function that computes it, at least one published invocation
example, the three-part boundedness statement, the validator-only rules its schema must show,
and its wall-clock deadline. Discovery (`find`) and execution (`run`) read nothing else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from types import UnionType
from typing import Annotated, Any, Callable, Union, get_args, get_origin

from pydantic import BaseModel, TypeAdapter

from .primitives import Rule

IDENTIFIER = re.compile(r"^[a-z]+(\.[a-z_]+)+$")
DEFAULT_DEADLINE = 10.0
MAX_DEADLINE = 30.0


@dataclass(frozen=True)
class Example:
    """A published invocation: "Compute ...; <precondition>" and a payload that validates.

    The payload is kept as JSON text so the declaration stays immutable; `payload` returns a
    fresh copy each time.
    """

    description: str
    payload_json: str

    @classmethod
    def of(cls, description: str, payload: dict) -> "Example":
        return cls(description, json.dumps(payload))

    @property
    def payload(self) -> dict:
        return json.loads(self.payload_json)


@dataclass(frozen=True)
class Bounds:
    """The three boundedness obligations of the seed: input domain, computation, output."""

    input: str
    computation: str
    output: str


@dataclass(frozen=True, kw_only=True)
class MathTool:
    """One public operation.

    `function` takes the validated request model and returns a value of `result`. It runs only
    inside the worker process, so it may import backends (lazily, inside its body). An
    operation that needs no backend declares a `kernel` instead: a Pydantic-free function
    (stdlib/math/kernels) from the request's fields, read as attributes, to the result as
    plain data; its `function` validates that data against `result`, and stdlib.math.plain runs
    the kernel without Pydantic (the first math call of a run, issue 31).
    `on_deadline`, present only when the result type has an `unknown` variant, builds that
    variant when the deadline kills the worker: `on_deadline(request, deadline_ms, elapsed_ms)`.
    `vocabulary` holds the words and phrases a mathematician would search for this operation
    by (names of methods and theorems, field terms); `math.find` ranks by it. `synonyms` holds
    the informal words that name the same thing without the field's term ("undo" for an
    inverse, "pick" for choose, "GF" or "mod p" for the field an operation works over): they
    rank like the vocabulary, so a query that names the operation's domain that way finds it.
    `adapters` names the modules of `stdlib.math.adapters` the function imports (on any path):
    the worker imports exactly those, and the backends behind them, before it forks the child
    of the operation's first call, so an operation that needs no backend never loads one
    (tests/math/test_lazy_backends.py checks every declaration against what its examples
    import). `late_adapters` names those the function imports only on a path its first
    example does not take (calculus.integrate.definite's divergent case, on sympy): the worker
    does not prepare them, so that first call stays free of their backend; the child imports
    one when it takes that path and says so in its frame, the helper then loads it before the
    next fork, and a pre-warm loads them with the rest.
    """

    identifier: str
    claim: str
    request: type[BaseModel]
    result: Any
    function: Callable[[Any], Any] | None = None
    kernel: Callable[[Any], Any] | None = None
    examples: tuple[Example, ...]
    bounds: Bounds
    rules: tuple[Rule, ...] = ()
    deadline: float = DEFAULT_DEADLINE
    on_deadline: Callable[[Any, int, int], Any] | None = None
    vocabulary: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()
    adapters: tuple[str, ...] = ()
    late_adapters: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        derived = getattr(self.function, "__func__", None) is MathTool._kernel_result
        if (self.function is None or derived) == (self.kernel is None):
            raise ValueError(f"{self.identifier}: declare exactly one of function and kernel")
        if self.kernel is not None:  # also for a copy (dataclasses.replace) of such a tool
            object.__setattr__(self, "function", self._kernel_result)
        if not IDENTIFIER.fullmatch(self.identifier):
            raise ValueError(f"bad operation identifier {self.identifier!r}")
        if not self.examples:
            raise ValueError(f"{self.identifier}: every operation publishes an example")
        if not 0 < self.deadline <= MAX_DEADLINE:
            raise ValueError(f"{self.identifier}: deadline must be in (0, {MAX_DEADLINE}] s")

    def _kernel_result(self, request: Any) -> Any:
        """The kernel's plain data validated as a value of `result` (the Pydantic path)."""
        return self.result_adapter.validate_python(self.kernel(request))

    @cached_property
    def result_adapter(self) -> TypeAdapter:
        """Validates and serialises results; built on first use, like the models."""
        return TypeAdapter(self.result)

    def build_validators(self) -> None:
        """Build now what running this operation validates with: the request model, the result
        adapter and every model a result is made of. Models are built on first use
        (`primitives.CONFIG` defers building, so a process builds only the operations it runs);
        the worker calls this before it forks a child, so every child inherits them built
        instead of building them again."""
        build_models(self.request)
        build_models(self.result)
        self.result_adapter.validator  # the adapter builds when first read

    @property
    def domain(self) -> str:
        return self.identifier.split(".", 1)[0]

    @property
    def summary(self) -> str:
        """The computation clause of the first example ("Compute ...")."""
        return self.examples[0].description.split("; ", 1)[0]

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The `status` values the result can take, or ("value",) for a single-shape result."""
        return _statuses(self.result) or ("value",)

    @property
    def deadline_ms(self) -> int:
        return int(self.deadline * 1000)


def build_models(tp: Any) -> None:
    """Build the validator of every model a value of type `tp` can contain, innermost first,
    so that each model reuses the built schemas of the models inside it (a model still unbuilt
    would have its schema generated again inside every model that holds it)."""
    for model in _models(tp, set()):
        model.model_rebuild()


def _models(tp: Any, seen: set) -> list[type[BaseModel]]:
    """The model classes a value of type `tp` can contain, each after the models it holds:
    itself, its union variants, the element types of its lists, and so on through fields."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp in seen:
            return []
        seen.add(tp)
        found = [model for info in tp.model_fields.values()
                 for model in _models(info.annotation, seen)]
        return found + [tp]
    return [model for arg in get_args(tp) for model in _models(arg, seen)]


def _statuses(tp: Any) -> tuple[str, ...]:
    """Collect the literal `status` values of a result type (a model or a union of models)."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _statuses(get_args(tp)[0])
    if origin in (Union, UnionType):
        out: list[str] = []
        for arg in get_args(tp):
            out.extend(s for s in _statuses(arg) if s not in out)
        return tuple(out)
    if isinstance(tp, type) and issubclass(tp, BaseModel) and "status" in tp.model_fields:
        return tuple(get_args(tp.model_fields["status"].annotation))
    return ()
