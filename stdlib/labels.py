"""The label builtins: `private`, `declassify`, `label_of`, `is_private`.

They see labelled values as they are (flow "raw"). Without `--labels` a program cannot create
private data — `private` says to turn labels on — while `declassify` is the identity and the
questions answer `[]` and `false`, so one program runs either way. They are ordinary values: an
alias, a module or another builtin's callback reaches the same functions, and the labels follow
(runtime/label_compiler.py).
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.labels import strip, wrap
from synsema.runtime.values import type_name
from synsema.stdlib.registry import builtin


@builtin("private", 2, flow="raw")
def private(rt, value, principal):
    """Mark a value private to one principal (a text literal, checked when the program loads).

    Example: private(42, "app") => private(app)
    """
    if rt.labels is None:
        raise SynError("private() needs information-flow labels: run with --labels "
                       "(synsema run --labels FILE)")
    if type(principal) is not str or not principal:
        raise SynError("private: the principal must be a non-empty text literal, like private(v, \"app\")")
    if principal not in rt.labels.principals:
        raise SynError(f"private: '{principal}' is not a principal this program declares; principals "
                       f"are declared by writing private(value, \"{principal}\") with the literal text "
                       "in the program or a module it uses (the redacted text names them all before "
                       "the run starts)")
    rt.labels.touched = rt.labels.touched | {principal}
    return wrap(value, frozenset((principal,)))


@builtin("declassify", 2, 3, flow="raw")
def declassify(rt, value, reason, principals=None):
    """Publish a private value (or narrow it to some of its principals), on the record with a reason.

    Example: declassify(private(42, "app"), "the answer is public") => 42
    """
    st = rt.labels
    if st is None:
        return value
    reason_text, _ = strip(reason)
    if type(reason_text) is not str or not reason_text.strip():
        raise SynError("declassify needs a reason: declassify(value, \"why this may be public\")")
    raw, labels = strip(value)
    if principals is None:
        st.may_declassify(labels)
        return raw
    target, _ = strip(principals)
    if type(target) is str:
        target = [target]
    if type(target) is not list or not all(type(p) is str for p in target):
        raise SynError(f"declassify: principals must be text or a list of texts, got {type_name(target)}")
    narrowed = frozenset(target)
    wider = sorted(narrowed - labels)
    if wider:
        raise SynError(f"declassify can only narrow a value's principals, never widen them: "
                       f"{', '.join(wider)} is not among them")
    st.may_declassify(labels - narrowed)
    return wrap(raw, narrowed)


@builtin("label_of", 1, flow="raw")
def label_of(rt, value):
    """The principals a value is private to (an answer exactly as private as the value).

    Example: label_of(1) => []
    """
    if rt.labels is None:
        return []
    _, labels = strip(value)
    return wrap(sorted(labels), labels)


@builtin("is_private", 1, flow="raw")
def is_private(rt, value):
    """Whether a value carries a label (an answer as private as the value).

    Example: is_private(1) => false
    """
    if rt.labels is None:
        return False
    _, labels = strip(value)
    return wrap(bool(labels), labels)


