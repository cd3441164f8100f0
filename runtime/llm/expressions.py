"""The LLM expression forms `reason`, `decide`, `analyze`, `generate`, for the evaluator.

All four answer text. `decide` additionally promises to answer *exactly one of its options*, the
option value itself, so a script can `match` on it: the model is forced to call a `choose` tool
whose argument is an enum of the options (where the API honours it), a near miss ("  YES." for
"yes") is normalised to the option it unambiguously means, and a real miss gets one retry that
tells the model what was wrong. A second miss is a language error (catchable with `try`): any
text we made up instead would break the promise.

Offline, the forms answer the placeholders of LANGUAGE.md §2; past the budget, the budget
message — both as text, never as errors.
"""

from __future__ import annotations

import json

from synsema.lang.errors import SynError
from synsema.runtime.llm import session
from synsema.runtime.llm.exchange import Ask, Reply, Tool
from synsema.runtime.values import display, type_name

DECISION_PENDING = "[decision pending]"
PLACEHOLDERS = {"reason": "[reasoning about: {}]", "analyze": "[analysis of: {}]", "generate": "[generated: {}]"}

# How each form introduces its subject in the prompt (the instructions are in `exchange`).
LABELS = {"reason": "Subject", "analyze": "Subject", "generate": "Target"}
_QUOTES = "\"'`“”‘’"
_NO_MATCH = object()


def evaluate(rt, kind: str, subject, given, objective, with_: dict):
    """The value of an LLMExpr: `kind` is the form's word, the rest its evaluated parts.

    `given` and `objective` are None when the source has no `given`/`for` clause; `with_` maps
    each `with key = value` name to its value. `rt` is the calling runtime, taken for parity with
    builtins (the capability check is the evaluator's, before this call). Returns text, except
    that `decide` returns the chosen option value itself (text when the options are texts).
    """
    options = _options(subject) if kind == "decide" else None
    current = session.current()
    if current.offline:
        return DECISION_PENDING if kind == "decide" else PLACEHOLDERS[kind].format(display(subject))
    exceeded = current.budget_exceeded()
    if exceeded:
        return exceeded
    details = _details(given, objective, with_)
    if kind == "decide":
        return _decide(current, options, details)
    reply = current.ask(Ask(kind, f"{LABELS[kind]}: {display(subject)}{details}"))
    if reply.kind == "text":
        return reply.text
    reason = reply.text if reply.kind == "invalid" else "a tool call where text was asked for"
    return f"[invalid model reply: {reason}]"


def _options(subject) -> list:
    """decide's options: a list, or text of comma-separated options ("yes, no"), each trimmed."""
    if type(subject) is str:
        subject = [option.strip() for option in subject.split(",") if option.strip()]
        if not subject:
            raise SynError("decide needs options: a list, or text of options separated by commas "
                           "(\"approve, reject\"), got text with none")
    if type(subject) is not list or not subject:
        shown = "an empty list" if subject == [] else type_name(subject)
        raise SynError(f"decide needs a non-empty list of options, or text of options separated "
                       f"by commas, got {shown}")
    return subject


def _details(given, objective, with_: dict) -> str:
    """The optional parts of a form as prompt lines: given, objective, then each `with` pair."""
    lines = []
    if given is not None:
        lines.append(f"Given: {display(given)}")
    if objective is not None:
        lines.append(f"Objective: {display(objective)}")
    lines.extend(f"{key}: {display(value)}" for key, value in with_.items())
    return "".join("\n" + line for line in lines)


def _decide(current: session.Session, options: list, details: str):
    shown = [display(option) for option in options]
    choose = Tool("choose", "Choose one of the options.",
                  {"type": "object", "properties": {"choice": {"type": "string", "enum": list(dict.fromkeys(shown))}},
                   "required": ["choice"], "additionalProperties": False})
    prompt = "Options:\n" + "\n".join(f"- {text}" for text in shown) + details
    answer = _answer(current.ask(Ask("decide", prompt, tools=(choose,), force="choose")))
    picked = _pick(answer, options, shown)
    if picked is not _NO_MATCH:
        return picked
    said = "nothing readable" if answer is None else json.dumps(answer, ensure_ascii=False)
    retry = (f"{prompt}\n\nYour previous answer was {said}, which is not one of the options. "
             "Answer with exactly one option, written exactly as listed.")
    second = _answer(current.ask(Ask("decide", retry, tools=(choose,), force="choose")))
    picked = _pick(second, options, shown)
    if picked is not _NO_MATCH:
        return picked
    said_again = "nothing readable" if second is None else json.dumps(second, ensure_ascii=False)
    raise SynError(f"decide: the model chose none of the options {json.dumps(shown, ensure_ascii=False)} "
                   f"(it answered {said}, then {said_again})")


def _answer(reply: Reply) -> str | None:
    """The text the model chose: the `choice` argument of its tool call, or its plain text."""
    if reply.kind == "tool":
        choice = reply.calls[0].args.get("choice")
        return choice if isinstance(choice, str) else None
    return reply.text if reply.kind == "text" else None


def _pick(answer: str | None, options: list, shown: list[str]):
    """The option `answer` names: exactly, else the one option it matches once normalised."""
    if answer is None:
        return _NO_MATCH
    for option, text in zip(options, shown):
        if text == answer:
            return option
    wanted = _normalised(answer)
    matches = {text for text in shown if _normalised(text) == wanted}
    if len(matches) != 1:
        return _NO_MATCH
    return options[shown.index(matches.pop())]


def _normalised(text: str) -> str:
    """Case, surrounding quotes, a final period and runs of whitespace do not count."""
    text = text.strip().strip(_QUOTES).strip().removesuffix(".").strip().strip(_QUOTES)
    return " ".join(text.split()).casefold()
