"""Rounds moved on by bots through the public moves: the loop the tests share."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fivecrowns import Player, Round, player_action

__all__ = ["bot_move", "play_until"]


def bot_move(r: Round, bots: Sequence[Player]) -> None:
    """One move of ``r`` (changed) by the bot of the seat to move (``bots[seat]``)."""
    r.apply_action(player_action(bots[r.current_player], r.observation(r.current_player)))


def play_until(r: Round, bots: Sequence[Player],
               stop: Callable[[Round], bool] = lambda r: False,
               moves: int | None = None) -> Round:
    """Move ``r`` (changed) with ``bots`` until it is over, ``stop(r)`` holds, or
    ``moves`` moves are made; returns ``r``."""
    made = 0
    while not r.is_over and not stop(r) and (moves is None or made < moves):
        bot_move(r, bots)
        made += 1
    return r
