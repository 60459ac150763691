"""Duplicate matches: a bot's *paired gain* over a reference bot on the same deals, and the
report of a match (:class:`DuplicateReport`, made by
:func:`~fivecrowns.simulate.duplicate_match`).

Luck dominates Five Crowns: over one game the spread of a player's total is far larger
than the difference between a good bot and a better one. A duplicate match takes the
deal's luck out by playing every deal twice, once with the bot under test in a seat and
once with the reference bot in that same seat, the other seats (the *field*) holding the
same bots with the same seeds in both games. Seats rotate from deal to deal as in any
simulation, so the bot sits in every seat in turn.

The gain, defined
-----------------
In game ``g`` the bot's **edge** is how many points below its opponents it scores: the
mean of the field's game totals less the bot's own total (a lower total is better, so a
positive edge is good). The reference's edge is the same quantity in the reference's game
of the same deal. The **gain** of deal ``g`` is the bot's edge less the reference's::

    gain[g] = (mean(field totals in the bot's game) - bot total)
            - (mean(field totals in the reference's game) - reference total)

and the paired gain is the mean of ``gain`` over the deals, in points a game, with a 95%
interval from :func:`fivecrowns.stats.mean_interval` (the gains of distinct deals are
independent). Measuring each bot against the field's totals *in its own game* counts
what it does to its opponents too (a card it feeds them, a round it ends early). A bot
equal to the reference has a gain of 0; the field does not need to be the reference.

>>> import numpy as np
>>> bot = np.array([[50, 70, 60], [40, 40, 40]])     # totals: the bot first, then the field
>>> ref = np.array([[60, 70, 60], [40, 46, 40]])     # the same deals, the reference first
>>> paired_gains(bot, ref).tolist()
[10.0, -3.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .stats import mean_interval, wilson_interval

__all__ = ["DuplicateReport", "edges", "paired_gains", "paired_gain"]


def edges(scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Column 0's points below the mean of the other columns, row by row: the edge of
    the player whose totals are in column 0 (games in rows, entrants in columns).

    >>> edges([[50, 70, 60], [40, 40, 46]]).tolist()
    [15.0, 3.0]
    """
    arr = np.asarray(scores, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] < 2:
        raise ValueError(f"scores must have shape (games, entrants) with at least 2 "
                         f"entrants, got shape {arr.shape}")
    return arr[:, 1:].mean(axis=1) - arr[:, 0]


def paired_gains(scores: npt.ArrayLike,
                 reference_scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The gain of each deal: the bot's :func:`edges` less the reference's (row ``g`` of
    both arrays is the same deal, column 0 the bot, resp. the reference, and the other
    columns the field)."""
    a = np.asarray(scores)
    b = np.asarray(reference_scores)
    if a.shape != b.shape:
        raise ValueError(f"the bot's and the reference's scores must have the same shape "
                         f"(the same deals and entrants), got {a.shape} and {b.shape}")
    return edges(a) - edges(b)


def paired_gain(scores: npt.ArrayLike, reference_scores: npt.ArrayLike
                ) -> tuple[float, tuple[float, float]]:
    """The paired gain in points a game and its 95% interval
    (:func:`fivecrowns.stats.mean_interval` of :func:`paired_gains`).

    >>> gain, (lo, hi) = paired_gain([[50, 70], [40, 40]], [[60, 70], [40, 46]])
    >>> gain, lo < gain < hi
    (2.0, True)
    """
    return mean_interval(paired_gains(scores, reference_scores))


def _rate(wins: npt.NDArray[np.float64]) -> tuple[float, tuple[float, float]]:
    return float(wins.mean()), wilson_interval(float(wins.sum()), int(wins.size))


@dataclass(frozen=True, eq=False)
class DuplicateReport:
    """The outcome of a duplicate match (:func:`~fivecrowns.simulate.duplicate_match`).

    Attributes
    ----------
    bot : str
        The bot under test (entrant 0).
    reference : str
        The bot that took its seat in the second game of each deal.
    field : tuple of str
        The other entrants, the same in both games.
    games : int
        Deals, each played twice.
    gain : float
        The paired gain: points a game the bot scores below the field, less what the
        reference scores below it on the same deals (see the module's definition).
        Positive: the bot is the stronger.
    gain_ci : tuple of float
        Its 95% interval.
    win_rate, reference_win_rate : float
        Mean share of victory of the bot in its games, and of the reference in its own
        (1 for an outright win, 1/k when k players share it).
    win_ci, reference_win_ci : tuple of float
        95% Wilson intervals.
    mean_score, reference_mean_score : float
        Mean game totals (lower is better).
    seeds : tuple of int
        The deal seeds; deal g seated entrant ``(s + g) % k`` at seat ``s``.
    scores, reference_scores : ndarray of shape (games, k), int64
        Each entrant's total in the bot's game and in the reference's game of each deal
        (column 0: the bot, resp. the reference).
    wins, reference_wins : ndarray of shape (games, k), float64
        Each entrant's share of victory in the same games.
    hit_max_turns : int
        Rounds, over all games of both kinds, stopped by ``Rules.max_turns``.
    """

    bot: str
    reference: str
    field: tuple[str, ...]
    games: int
    gain: float
    gain_ci: tuple[float, float]
    win_rate: float
    win_ci: tuple[float, float]
    reference_win_rate: float
    reference_win_ci: tuple[float, float]
    mean_score: float
    reference_mean_score: float
    seeds: tuple[int, ...]
    scores: npt.NDArray[np.int64]
    reference_scores: npt.NDArray[np.int64]
    wins: npt.NDArray[np.float64]
    reference_wins: npt.NDArray[np.float64]
    hit_max_turns: int

    @classmethod
    def from_games(cls, names: Sequence[str], reference: str, seeds: Sequence[int],
                   scores: npt.NDArray[np.int64], reference_scores: npt.NDArray[np.int64],
                   wins: npt.NDArray[np.float64], reference_wins: npt.NDArray[np.float64],
                   hit_max_turns: int) -> DuplicateReport:
        """The report of the games' totals and wins (entrant order, the bot first)."""
        gain, gain_ci = paired_gain(scores, reference_scores)
        rate, rate_ci = _rate(wins[:, 0])
        ref_rate, ref_ci = _rate(reference_wins[:, 0])
        return cls(str(names[0]), str(reference), tuple(str(n) for n in names[1:]),
                   len(seeds), gain, gain_ci, rate, rate_ci, ref_rate, ref_ci,
                   float(scores[:, 0].mean()), float(reference_scores[:, 0].mean()),
                   tuple(seeds), scores, reference_scores, wins, reference_wins,
                   hit_max_turns)

    @property
    def gains(self) -> npt.NDArray[np.float64]:
        """The gain of each deal (:func:`paired_gains`); :attr:`gain` is their mean."""
        return paired_gains(self.scores, self.reference_scores)

    def table(self) -> str:
        """A small text table of the results."""
        lo, hi = self.gain_ci
        ref = f"{self.reference} (reference)"
        width = max(len(self.bot), len(ref))
        lines = [
            f"duplicate match: {self.bot} against {self.reference} in its seat, field "
            f"{', '.join(self.field)}; {self.games} deals, each played twice",
            f"gain {self.gain:+.2f} points a game (95% CI {lo:+.2f}..{hi:+.2f})",
            f"{'':<{width}}  {'win rate (95% CI)':<21} {'mean score':>10}",
        ]
        for name, rate, (wlo, whi), mean in (
                (self.bot, self.win_rate, self.win_ci, self.mean_score),
                (ref, self.reference_win_rate, self.reference_win_ci,
                 self.reference_mean_score)):
            lines.append(f"{name:<{width}}  {rate:.3f} ({wlo:.3f}..{whi:.3f}) {mean:>10.1f}")
        lines.append("gain: the bot's points a game below the field's mean, less the "
                     "reference's on the same deals")
        if self.hit_max_turns:
            lines.append(f"{self.hit_max_turns} round(s) stopped by max_turns")
        return "\n".join(lines)
