"""Frames at run time: the value an unbound slot holds.

Which names live in which slot is decided at compile time by `lang.resolve`. A frame at run time
is a Python list: slot 0 links to the frame it was opened in (None when that is the program's
global dictionary), the rest hold the frame's names. A slot whose `let` has not run yet holds
UNBOUND; reading it falls back to the next frame out that binds the name, then to the globals.
"""

from __future__ import annotations


class _Unbound:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNBOUND"


UNBOUND = _Unbound()
