"""Checks shared by the simulators: how ``can_*`` methods answer, and the validation of a
table of players and its rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

from .rules import Rules

__all__ = ["passes", "check_table"]

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


def check_table(n_players: object, rules: object, *, least: int, what: str,
                note: str = "") -> Rules:
    """Validate ``rules`` (``None`` for the defaults) and a number of players
    ``least..rules.max_players``; return the rules.

    ``what`` names the table in messages ("a round", "a game"); ``note`` is appended to
    the message of a bad count.

    >>> check_table(3, None, least=2, what="a game")
    Rules(decks=2, max_turns=1000, tie_break=False, return_discard=False)
    >>> check_table(8, None, least=2, what="a game")
    Traceback (most recent call last):
    ...
    ValueError: a game takes 2 to 7 players with 2 decks, got 8
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise TypeError(f"n_players must be an int, got {type(n_players).__name__}")
    if not least <= n_players <= rules.max_players:
        raise ValueError(f"{what} takes {least} to {rules.max_players} players with "
                         f"{rules.decks} decks, got {n_players}{note}")
    return rules
