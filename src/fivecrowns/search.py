"""Determinized Monte-Carlo search: :class:`SearchBot`.

For each decision with a real choice the bot samples worlds consistent with what it
sees (:meth:`Round.from_observation <fivecrowns.Round.from_observation>`, then
:func:`fivecrowns.rollout.play_worlds`, which resamples the hidden cards as
:meth:`Round.determinize <fivecrowns.Round.determinize>` does), applies each candidate
move in every world, plays each round to its end with StrongBot's policy in every seat,
and compares each candidate with StrongBot's own move world by world. Every candidate is
played in the same worlds, with the same draw piles and reshuffles (common random
numbers), so the comparison between moves is far less noisy than each estimate.

Without the compiled extensions the same search runs on the rollout engine's pure-Python
twin (:data:`fivecrowns.rollout.ROLLOUT_IMPLEMENTATION`): the policy's bot in every seat, worlds
from the same distribution, only much slower.

Examples
--------
>>> from fivecrowns import GreedyBot, play_game
>>> res = play_game([SearchBot(seed=1, worlds=4), GreedyBot()], seed=3, rounds=[1, 2])
>>> len(res.totals)
2
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from . import rollout as _rollout
from . import solver
from ._checks import check_int
from ._deprecation import (
    deprecated_attribute,
    moved_names,
    renamed_parameters,
)
from .actions import Source, encode_discard, encode_draw
from .bots import StrongBot
from .cards import N_TYPES, Card, card_value
from .expert import ExpertBot
from .records import Observation
from .registry import engine_policy
from .round import Round
from .rules import N_ROUNDS
from .seeding import SeedLike, make_rng

__all__ = ["SearchBot", "win_chances", "OBJECTIVES", "ROUND_SPREAD"]

# Engine code that lived here until 0.4: the rollout engine's own now.
__getattr__ = moved_names(__name__, {"play_out": "fivecrowns.rollout",
                                      "ROLLOUT_IMPLEMENTATION": "fivecrowns.rollout"})


#: What :class:`SearchBot` optimises: its own round score (``"own"``), its score less the
#: mean of its opponents' (``"relative"``), or its chance of winning the game
#: (``"win"``, from the running totals; see :func:`win_chances`).
OBJECTIVES = ("own", "relative", "win")

#: The spread of one player's score over one round, in points (the standard deviation
#: of StrongBots' round scores is 9 to 15 in every round, with 2 and with 4 players:
#: ``rollout.play_out`` of ``rollout.deal_rounds``); :func:`win_chances` uses it for the
#: rounds still to come.
ROUND_SPREAD = 12.0


def _normal_cdf(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The standard normal distribution function (Abramowitz and Stegun 7.1.26, error
    below 1.5e-7), for arrays: numpy has no ``erf``."""
    z = np.abs(x) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (
        -1.453152027 + t * 1.061405429))))
    half = 0.5 * poly * np.exp(-z * z)
    return np.where(x >= 0, 1.0 - half, half)


_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(16)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def win_chances(totals: npt.NDArray[np.float64], player: int,
                rounds_left: int) -> npt.NDArray[np.float64]:
    """The chance that ``player`` ends the game with the lowest total, for each row of
    running ``totals`` (shape ``(..., n_players)``), when ``rounds_left`` rounds remain.

    With no round left it is 1 for a lowest total, shared among ties. Otherwise each
    player's rounds to come add a normal amount of spread
    ``ROUND_SPREAD * sqrt(rounds_left)``, independent across players (the mean, the
    same for all, cancels), and the chance is computed by Gauss-Hermite quadrature.

    >>> float(win_chances(np.array([10.0, 10.0]), 0, 0))
    0.5
    >>> a, b = win_chances(np.array([[0.0, 30.0], [30.0, 0.0]]), 0, 3)
    >>> 0.5 < float(a) < 1 and 0 < float(b) < 0.5
    True
    """
    mine = totals[..., player]
    if rounds_left <= 0:
        low = totals.min(axis=-1)
        ties = (totals == low[..., None]).sum(axis=-1)
        return np.where(mine == low, 1.0 / ties, 0.0)
    spread = ROUND_SPREAD * np.sqrt(rounds_left)
    others = np.delete(totals, player, axis=-1)
    # my future is node x: every other player must end above my total
    gap = (others[..., None, :] - mine[..., None, None]) / spread \
        - _NODES[:, None]                                  # (..., nodes, others)
    beat = _normal_cdf(gap).prod(axis=-1)                  # (..., nodes)
    return (beat * _WEIGHTS).sum(axis=-1)



class SearchBot:
    """StrongBot's moves, improved by determinized Monte-Carlo search where it pays.

    For each decision with a real choice the bot lists a few candidate moves, always
    including the one :class:`~fivecrowns.StrongBot` would make (its *default*;
    :class:`~fivecrowns.ExpertBot`'s with ``policy="expert"``), samples
    ``worlds`` worlds consistent with what it sees
    (:meth:`Round.from_observation <fivecrowns.Round.from_observation>`, then
    :func:`fivecrowns.rollout.play_worlds`), plays every candidate to the end of the
    round in every world with ``policy`` in every seat (or ``opponents`` in theirs),
    and compares each candidate with the default world by world (the same worlds and
    reshuffles: common random numbers). It leaves the default only for a candidate
    whose mean gain is at least ``confidence`` standard errors above zero, so few
    worlds cost little strength and many buy more.

    - **Draw**: the deck or the top discard (taking it at once when that lets the bot
      go out).
    - **Discard**: goes out whenever it can; on a final turn keeps the least deadwood;
      otherwise StrongBot's discard and the ``candidates`` discards that leave the
      least deadwood.

    Objectives: ``"own"`` (the default) minimises the bot's own round score;
    ``"relative"`` its score less the mean of its opponents'.

    Parameters
    ----------
    seed : int, numpy SeedSequence or numpy Generator
        Its own random source (see :doc:`/conventions`): the same seed makes the same
        moves; ``0`` when not given.
    worlds : int
        Worlds sampled per searched decision; every candidate is played in each.
    candidates : int
        How many least-deadwood discards to search besides StrongBot's.
    objective : ``"own"`` or ``"relative"``
    policy : str
        Every seat's play in the rollouts: ``"strong"`` (the default; StrongBot),
        ``"greedy"`` (GreedyBot: about 8 times cheaper, a poorer model) or ``"expert"``
        (:class:`~fivecrowns.ExpertBot`, the strongest policy, about fifty times
        dearer than StrongBot's: at the default worlds a decision is far over 100 ms;
        ``worlds=4`` keeps p95 under it, docs/bots.rst). With ``"expert"`` the move to
        improve on (the *default*) is ExpertBot's instead of StrongBot's. Any name the
        registry takes for them is accepted (``"StrongBot"`` is ``"strong"``,
        :func:`fivecrowns.registry.engine_policy`).
    opponents : str, optional
        The other seats' play in the rollouts when it is not ``policy``: a model of
        the table the bot sits at (``policy="expert", opponents="strong"`` against
        StrongBots). The same names as ``policy``.
    confidence : float
        Standard errors of evidence needed to leave the default move (0: the best mean
        wins).
    extra_worlds : int
        Worlds added to a close decision (0, the default: none): when after ``worlds``
        the best candidate's mean gain is above zero but short of ``confidence``
        standard errors, this many more are sampled and the rule is applied to all of
        them, so that the evidence grows where a move is in doubt and nowhere else.
        Not with a ``time_limit``, which sets the worlds itself (``ValueError``).
    time_limit : float, optional
        Seconds per decision, from the moment the bot is asked: it samples worlds in
        growing batches (the first of one world) until the limit is spent, a batch
        would not fit in what is left, or ``worlds`` are played; on the pure-Python
        twins a world is cut at the first move past the limit. A decision takes about
        ``time_limit`` and at most that plus one move of ``policy`` (a millisecond or
        less on the compiled engine; with StrongBot's policy on the pure-Python twins, up
        to a few tenths of a second in the last rounds), plus the default move's own
        time. When fewer than two worlds
        end in time the default move is kept (one world suffices with
        ``confidence=0``). The moves depend on the machine's speed, so the bot is no
        longer seed-deterministic; ``None`` (the default) samples all ``worlds``.

    Examples
    --------
    >>> from fivecrowns import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> bot = SearchBot(seed=0, worlds=8)
    >>> bot.choose_draw(r.observation(r.current_player)) in (Source.DECK, Source.DISCARD)
    True
    """

    name = "SearchBot"

    #: Worlds per searched decision by default (see ``benchmarks/bench_search.py`` for
    #: the time a decision takes).
    DEFAULT_WORLDS = 64
    DEFAULT_BUDGET = deprecated_attribute("SearchBot.DEFAULT_BUDGET", "DEFAULT_WORLDS")
    budget = deprecated_attribute("SearchBot.budget", "worlds")
    #: The most worlds per engine call when a time limit is set.
    _BATCH = 16

    @renamed_parameters(budget="worlds")
    def __init__(self, seed: SeedLike = 0, worlds: int = DEFAULT_WORLDS, *,
                 candidates: int = 2, objective: str = "own", policy: str = "strong",
                 opponents: str | None = None, confidence: float = 1.0,
                 discard_weight: float = 0.0, replay_draws: int = 0,
                 extra_worlds: int = 0, time_limit: float | None = None) -> None:
        self.rng = make_rng(seed)
        worlds = check_int(worlds, "worlds", 1)
        candidates = check_int(candidates, "candidates", 0)
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
        # the worlds' policy, as play_worlds takes it (not the random one)
        policy = engine_policy(policy, exclude=("random",), user="SearchBot")
        if opponents is not None:
            opponents = engine_policy(opponents, what="opponents", exclude=("random",),
                                      user="SearchBot")
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) \
                or not confidence >= 0:
            raise ValueError(f"confidence must be a number >= 0, got {confidence!r}")
        if isinstance(discard_weight, bool) or not isinstance(discard_weight, (int, float)) \
                or not discard_weight >= 0:
            raise ValueError(f"discard_weight must be a number >= 0, got {discard_weight!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive seconds or None, "
                             f"got {time_limit!r}")
        replay_draws = check_int(replay_draws, "replay_draws", 0)
        self.extra_worlds = check_int(extra_worlds, "extra_worlds", 0)
        if self.extra_worlds and time_limit is not None:
            raise ValueError("extra_worlds and time_limit do not go together: a time "
                             "limit sets the worlds itself")
        self.discard_weight = float(discard_weight)
        self.replay_draws = replay_draws
        self.worlds = worlds
        self.candidates = candidates
        self.objective = objective
        self.policy = policy
        self.opponents = opponents
        self.confidence = float(confidence)
        self.time_limit = time_limit
        # the move to improve on: the rollout policy's own when it is the stronger one
        self._default: StrongBot | ExpertBot = ExpertBot() if policy == "expert" \
            else StrongBot()

    # -- the Player protocol --

    def choose_draw(self, obs: Observation) -> Source:
        """The deck or the discard pile, by search (the pile at once if it lets the bot
        go out)."""
        start = time.perf_counter()
        top = obs.top_discard
        if top is None:
            return Source.DECK
        if not (obs.draw_size > 0 or obs.discard_size > 1):
            return Source.DISCARD
        row = np.array(obs.counts, dtype=np.uint8)
        row[top.index] += 1
        barred = -1 if obs.return_discard else top.index
        if self._least(row, obs, barred)[0] == 0:
            return Source.DISCARD
        default = self._default.choose_draw(obs)
        moves = [default, Source.DISCARD if default is Source.DECK else Source.DECK]
        return moves[self._search(obs, [encode_draw(m) for m in moves], start)]

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible; else the searched discard (the least deadwood on a final
        turn)."""
        start = time.perf_counter()
        row = np.array(obs.counts, dtype=np.uint8)
        barred = -1 if obs.must_keep is None else obs.must_keep.index
        dead, order = self._least(row, obs, barred)
        if dead == 0:
            return Card.from_index(order[0]), True
        if obs.final_turn or (obs.sudden_death and obs.went_out is not None):
            return Card.from_index(order[0]), False
        default = self._default.choose_discard(obs)[0].index
        picks = [default] + [t for t in order[:self.candidates] if t != default]
        if len(picks) == 1:
            return Card.from_index(default), False
        best = self._search(obs, [encode_discard(t) for t in picks], start)
        return Card.from_index(picks[best]), False

    # -- the search --

    @staticmethod
    def _least(row: npt.NDArray[np.uint8], obs: Observation,
               barred: int) -> tuple[int, list[int]]:
        """The least deadwood after a discard from ``row`` (not of type ``barred``, unless
        that is all), and the allowed discards sorted by the deadwood they leave (ties:
        the higher-value card first)."""
        held = np.flatnonzero(row).tolist()
        if barred >= 0 and len(held) > 1 and barred in held:
            held.remove(barred)
        batch = np.repeat(row.reshape(1, N_TYPES), len(held), axis=0)
        batch[np.arange(len(held)), held] -= 1
        deads = solver.deadwood_many(batch, obs.wild, decks=obs.decks).tolist()
        order = sorted(range(len(held)), key=lambda k: (
            deads[k], -card_value(Card.from_index(held[k]), obs.wild), held[k]))
        return int(deads[order[0]]), [held[k] for k in order]

    def _worlds(self, base: Round, actions: list[int], worlds: int,
                deadline: float | None = None) -> npt.NDArray[np.int32]:
        return _rollout._play_worlds(base, actions, worlds=worlds,
                                     seed=int(self.rng.integers(2**63)),
                                     policy=self.policy,  # type: ignore[arg-type]
                                     opponents=self.opponents,  # type: ignore[arg-type]
                                     threads=1, discard_weight=self.discard_weight,
                                     replay_draws=self.replay_draws, deadline=deadline)

    def _scores(self, base: Round, actions: list[int],
                start: float) -> npt.NDArray[np.float64]:
        """The worlds' scores: all ``worlds`` at once without a time limit; with one, in
        batches sized to what is left of it (:meth:`_next_batch`), each call given the
        deadline (the pure-Python twin stops at it inside a world: there one world of a
        late round takes seconds). Perhaps no world at all."""
        if self.time_limit is None:
            return self._worlds(base, actions, self.worlds).astype(np.float64)
        deadline = start + self.time_limit
        parts = []
        done, k = 0, 1
        while k > 0:
            began = time.perf_counter()
            part = self._worlds(base, actions, k, deadline)
            parts.append(part.astype(np.float64))
            done += part.shape[0]
            now = time.perf_counter()
            k = 0 if part.shape[0] < k else self._next_batch(
                k, (now - began) / k, deadline - now, self.worlds - done)
        return np.concatenate(parts)

    @classmethod
    def _next_batch(cls, last: int, per_world: float, left: float, to_do: int) -> int:
        """How many worlds to play next under a time limit (0: stop): at most twice the
        last batch (up to ``_BATCH``) and what the time ``left`` fits at ``per_world``
        seconds a world, so that the last batch ends near the deadline rather than a
        whole batch past it (the compiled engine plays a batch without looking at the
        clock; with ``policy="expert"`` a world takes about a millisecond)."""
        if to_do <= 0 or left <= 0:
            return 0
        fits = to_do if per_world <= 0 else int(left / per_world)
        return max(0, min(to_do, fits, 2 * last, cls._BATCH))

    def _search(self, obs: Observation, actions: list[int],
                start: float | None = None) -> int:
        """The index of the move to make: 0 (the default) unless another one's mean
        objective is lower by ``confidence`` standard errors of the paired difference.
        ``start``: when the decision began (``time.perf_counter()``; default now), for the
        time limit."""
        if start is None:
            start = time.perf_counter()
        base = Round.from_observation(obs, seed=self.rng)
        scores = self._scores(base, actions, start)
        if scores.shape[0] == 0:  # the time limit spent before one world's end
            return 0
        k, close = self._verdict(obs, scores)
        if close and self.extra_worlds:
            more = self._worlds(base, actions, self.extra_worlds).astype(np.float64)
            k, _ = self._verdict(obs, np.concatenate([scores, more]))
        return k

    def _verdict(self, obs: Observation,
                 scores: npt.NDArray[np.float64]) -> tuple[int, bool]:
        """The index of the move the worlds' ``scores`` choose (0: the default), and
        whether the best other move gained on average but short of ``confidence``
        standard errors (a close decision)."""
        p = obs.player
        value = scores[:, :, p]
        if self.objective == "relative" and obs.n_players > 1:
            value = value - (scores.sum(axis=2) - value) / (obs.n_players - 1)
        elif self.objective == "win" and obs.n_players > 1:
            totals = np.zeros(obs.n_players) if obs.totals is None else \
                np.array(obs.totals, dtype=np.float64)
            left = 0 if obs.round_number is None else N_ROUNDS - obs.round_number
            value = -win_chances(scores + totals, p, left)
        gain = value[:, :1] - value[:, 1:]          # > 0: better than the default
        mean = gain.mean(axis=0)
        k = int(np.argmax(mean))
        if mean[k] <= 0:
            return 0, False
        n = gain.shape[0]
        if self.confidence > 0:
            if n < 2:
                return 0, True
            se = gain[:, k].std(ddof=1) / np.sqrt(n)
            if mean[k] < self.confidence * se:
                return 0, True
        return k + 1, False

    def __repr__(self) -> str:
        opponents = "" if self.opponents is None else f", opponents={self.opponents!r}"
        extra = f", extra_worlds={self.extra_worlds}" if self.extra_worlds else ""
        return (f"SearchBot(worlds={self.worlds}, candidates={self.candidates}, "
                f"objective={self.objective!r}, policy={self.policy!r}{opponents}, "
                f"confidence={self.confidence}{extra})")
