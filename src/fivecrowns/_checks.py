"""How the simulators' ``can_*`` methods answer: their ``verify_*`` check, as a bool."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

__all__ = ["passes"]

P = ParamSpec("P")


def passes(check: Callable[P, object], /, *args: P.args, **kwargs: P.kwargs) -> bool:
    """True if ``check(*args, **kwargs)`` raises no ``ValueError`` or ``TypeError``.

    Every error a simulator raises for a bad move is one of those (see
    :mod:`fivecrowns.errors`), so a ``can_*`` method is ``passes`` of its ``verify_*``.

    >>> passes(int, "12")
    True
    >>> passes(int, "twelve")
    False
    """
    try:
        check(*args, **kwargs)
    except (ValueError, TypeError):
        return False
    return True
