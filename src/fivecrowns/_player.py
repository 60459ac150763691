"""The player protocol and how a player is asked for its move as an action code.

Their public home is :mod:`fivecrowns.players`; they sit here, below it, because the
engines that :mod:`fivecrowns.players` plays games on ask players for their moves too.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .actions import CardArg, SourceLike, encode_discard, encode_draw
from .records import Observation, Phase

__all__ = ["Player", "player_action"]


@runtime_checkable
class Player(Protocol):
    """What the game asks of a player.

    Both methods get the player's :class:`~fivecrowns.records.Observation`. A player may
    keep state between calls, but the observation holds all it may know.
    """

    def choose_draw(self, obs: Observation) -> SourceLike:
        """Where to draw from: ``Source.DECK``/``0``/``"deck"`` or
        ``Source.DISCARD``/``1``/``"discard"``."""
        ...

    def choose_discard(self, obs: Observation) -> tuple[CardArg, bool]:
        """``(card, go_out)``: the card to discard from the n + 1 cards of
        ``obs.counts``, and whether to go out (lay all the others down). With
        ``obs.must_keep`` set, that card may not be discarded this turn."""
        ...


def player_action(player: Player, obs: Observation) -> int:
    """The action code of ``player``'s move for ``obs``: its draw in the draw phase, its
    discard (and whether it goes out) in the discard phase.

    This is how a loop that moves by action codes (:meth:`Round.apply_action
    <fivecrowns.round.Round.apply_action>`, OpenSpiel, PettingZoo) asks a built-in or
    custom bot for its move.

    Raises
    ------
    TypeError
        ``obs`` is not an :class:`~fivecrowns.records.Observation`, ``player`` lacks the
        method, ``choose_discard`` did not return a ``(card, go_out)`` pair, or a choice
        is not a draw source or a card.
    ValueError
        A choice names no source or card (``"5X"``).

    Examples
    --------
    >>> from fivecrowns import Round, StrongBot
    >>> r = Round(2, 3, seed=1)
    >>> bot = StrongBot()
    >>> while not r.is_over:
    ...     _ = r.apply_action(player_action(bot, r.observation(r.current_player)))
    >>> r.result.turns > 0
    True
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"obs must be an Observation, got {type(obs).__name__}")
    drawing = obs.phase is Phase.DRAW
    method = "choose_draw" if drawing else "choose_discard"
    choose = getattr(player, method, None)
    if choose is None:
        raise TypeError(f"{player!r} is not a Player: it has no {method}() method")
    if drawing:
        return encode_draw(choose(obs))
    choice = choose(obs)
    if not isinstance(choice, tuple) or len(choice) != 2:
        raise TypeError(f"choose_discard must return (card, go_out), got {choice!r}")
    return encode_discard(choice[0], go_out=bool(choice[1]))


# Documented, pickled and shown in reprs in fivecrowns.players, as before 0.4.
Player.__module__ = player_action.__module__ = "fivecrowns.players"
