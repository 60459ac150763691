"""Determinized Monte-Carlo search: :class:`SearchBot`, and :func:`play_out`, the rollouts
it runs.

For each decision the bot samples worlds consistent with what it sees
(:meth:`Round.from_observation <fivecrowns.Round.from_observation>`, then
:meth:`Round.determinize <fivecrowns.Round.determinize>`), applies each candidate move
in every world, plays each round to its end with the greedy policy for every seat
(:func:`play_out`), and keeps the move with the best mean outcome. Every candidate is
played in the same worlds, with the same draw piles and reshuffles (common random
numbers), so the comparison between moves is far less noisy than each estimate.

:func:`play_out` runs the compiled rollout engine (:func:`fivecrowns.rollout.play_out`)
when the compiled extensions are built, and otherwise plays the rounds in Python with
:class:`~fivecrowns.GreedyBot` in every seat: same results, only slower.

Examples
--------
>>> from fivecrowns import GreedyBot, play_game
>>> res = play_game([SearchBot(seed=1, budget=16), GreedyBot()], seed=3, rounds=[1, 2])
>>> len(res.totals)
2
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import numpy.typing as npt

from . import rollout as _rollout
from . import solver
from .actions import Source
from .bots import GreedyBot, StrongBot
from .cards import N_TYPES, Card, card_value
from .records import Observation, Phase
from .round import Round
from .seeding import SeedLike, make_rng

__all__ = ["SearchBot", "play_out", "ROLLOUT_IMPLEMENTATION", "OBJECTIVES"]

#: Which rollouts :func:`play_out` runs: ``"compiled"`` or ``"python"``.
ROLLOUT_IMPLEMENTATION = "python" if getattr(_rollout, "_core", None) is None else "compiled"

#: What :class:`SearchBot` minimises: its own round score, or its score less the mean of
#: its opponents' (the default).
OBJECTIVES = ("relative", "own")


#: The Python twin's policies: the bot that plays every seat.
_POLICIES: dict[str, type[GreedyBot] | type[StrongBot]] = {"greedy": GreedyBot,
                                                            "strong": StrongBot}


def play_out(rounds: Sequence[Round], *, policy: str = "greedy",
             threads: int | None = None) -> npt.NDArray[np.int32]:
    """Each round played to its end by ``policy`` in every seat: the round scores.

    The rounds are left untouched (each is played on a clone). This is
    ``fivecrowns.rollout.play_out`` when the compiled rollout engine is installed;
    otherwise a pure-Python twin that plays the policy's bot in every seat.

    Parameters
    ----------
    rounds : sequence of Round
        All with the same number of players.
    policy : str
        ``"greedy"`` (:class:`~fivecrowns.GreedyBot` in every seat) or ``"strong"``
        (:class:`~fivecrowns.StrongBot`); the compiled engine may know more.
    threads : int, optional
        Worker threads of the compiled engine; the Python twin ignores it.

    Returns
    -------
    ndarray of shape (len(rounds), n_players), int32

    Examples
    --------
    >>> r = Round(3, round_number=2, seed=7)
    >>> scores = play_out([r, r])
    >>> scores.shape, bool((scores[0] == scores[1]).all()), r.turn
    ((2, 3), True, 0)
    """
    if ROLLOUT_IMPLEMENTATION == "compiled":
        return _rollout.play_out(rounds, policy=policy,  # type: ignore[arg-type]
                                 threads=threads)
    return _python_play_out(rounds, policy)


def _python_play_out(rounds: Sequence[Round], policy: str) -> npt.NDArray[np.int32]:
    """:func:`play_out` without the compiled engine: the policy's bot in every seat."""
    bot = _POLICIES.get(policy)
    if bot is None:
        raise ValueError(f"the Python rollouts know the policies 'greedy' and 'strong', "
                         f"got {policy!r}")
    rounds = list(rounds)
    if not rounds:
        return np.zeros((0, 0), dtype=np.int32)
    n = rounds[0].n_players
    scores = np.zeros((len(rounds), n), dtype=np.int32)
    for i, start in enumerate(rounds):
        if start.n_players != n:
            raise ValueError(f"every round must have {n} players; rounds[{i}] has "
                             f"{start.n_players}")
        r = start.clone()
        bots = [bot() for _ in range(n)]
        while not r.is_over:
            p = r.current_player
            obs = r.observation(p)
            if r.phase is Phase.DRAW:
                r.draw(bots[p].choose_draw(obs))
            else:
                card, out_ = bots[p].choose_discard(obs)
                r.discard(card, out_)
        assert r.result is not None
        scores[i] = r.result.scores
    return scores


def _allowed(obs: Observation) -> list[int]:
    """The card types that may be discarded now."""
    held = np.flatnonzero(obs.counts).tolist()
    if obs.must_keep is not None and len(held) > 1:
        held.remove(obs.must_keep.index)
    return held


class SearchBot:
    """Determinized Monte-Carlo search over the moves of one turn.

    - **Draw**: the deck or the top discard (taking it when that lets the bot go out).
    - **Discard**: goes out whenever it can; on a final turn keeps the least deadwood;
      otherwise searches the ``candidates`` discards that leave the least deadwood.

    Each searched move is played in the same ``budget // moves`` sampled worlds
    (at least one), each world then played out greedily; the move with the least mean
    objective wins. The objective (``"relative"``, the default) is the bot's round
    score less the mean of its opponents': a game is won on the lowest total, so points
    that opponents take count as much as points the bot saves (ending a round while
    opponents hold many cards is worth more than a few points of its own deadwood).
    ``"own"`` minimises the bot's own round score alone.

    Parameters
    ----------
    seed : int or Generator
        Its own random source (required): the same seed makes the same moves.
    budget : int
        Rollouts per searched decision, spread over the candidate moves.
    candidates : int
        How many discards (the least deadwood first) to search.
    objective : ``"relative"`` or ``"own"``
    policy : str
        The rollout policy of every seat (see :func:`play_out`): ``"greedy"``, the
        default, or ``"strong"`` (a better model of strong opponents, several times
        slower).
    time_limit : float, optional
        Seconds per decision: stop sampling worlds when it is spent (at least one world
        per move). The moves then depend on the machine's speed, so the bot is no longer
        seed-deterministic; ``None`` (the default) uses the budget alone.

    Examples
    --------
    >>> from fivecrowns import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> bot = SearchBot(seed=0, budget=8)
    >>> bot.choose_draw(r.observation(r.current_player)) in (Source.DECK, Source.DISCARD)
    True
    """

    name = "SearchBot"

    #: Rollouts per decision by default: well within 100 ms of one core per decision
    #: even with the Python rollouts (in 4-player games against StrongBots: 14 ms on
    #: average, 28 ms at the 95th percentile; with the compiled engine 2.3 ms and
    #: 3.6 ms; benchmarks/bench_search.py).
    DEFAULT_BUDGET = 64

    def __init__(self, seed: SeedLike, budget: int = DEFAULT_BUDGET, *,
                 candidates: int = 4, objective: str = "relative",
                 policy: str = "greedy", time_limit: float | None = None) -> None:
        self.rng = make_rng(seed)
        for name, value, least in (("budget", budget, 1), ("candidates", candidates, 1)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
            if value < least:
                raise ValueError(f"{name} must be at least {least}, got {value}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive seconds or None, "
                             f"got {time_limit!r}")
        self.budget = budget
        self.candidates = candidates
        self.objective = objective
        self.time_limit = time_limit
        self.policy = str(policy)

    # -- the Player protocol --

    def choose_draw(self, obs: Observation) -> Source:
        """The deck or the discard pile, by search (the pile at once if it lets the bot
        go out)."""
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
        moves = [Source.DECK, Source.DISCARD]
        best = self._search(obs, [partial(Round.draw, source=s) for s in moves])
        return moves[best]

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible; else the searched discard (the least deadwood on a final
        turn)."""
        row = np.array(obs.counts, dtype=np.uint8)
        barred = -1 if obs.must_keep is None else obs.must_keep.index
        dead, order = self._least(row, obs, barred)
        if dead == 0:
            return Card.from_index(order[0]), True
        if obs.final_turn or (obs.sudden_death and obs.went_out is not None):
            return Card.from_index(order[0]), False
        picks = order[:self.candidates]
        if len(picks) == 1:
            return Card.from_index(picks[0]), False
        best = self._search(obs, [partial(Round.discard, card=t) for t in picks])
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

    def _search(self, obs: Observation, moves: Sequence[Callable[[Round], object]]) -> int:
        """The index of the move with the least mean objective over sampled worlds."""
        m = len(moves)
        worlds = max(1, self.budget // m)
        start = time.perf_counter()
        p = obs.player
        base = Round.from_observation(obs, seed=self.rng)
        totals = np.zeros(m, dtype=np.float64)
        done = 0
        batch = worlds if self.time_limit is None else max(1, min(worlds, 4))
        while done < worlds:
            k = min(batch, worlds - done)
            rounds = []
            for i in range(k):
                world = base if done + i == 0 else base.determinize(p, self.rng)
                for move in moves:
                    r = world.clone()
                    move(r)
                    rounds.append(r)
            scores = play_out(rounds, policy=self.policy, threads=1).astype(np.float64)
            scores = scores.reshape(k, m, obs.n_players)
            value = scores[:, :, p]
            if self.objective == "relative" and obs.n_players > 1:
                value = value - (scores.sum(axis=2) - value) / (obs.n_players - 1)
            totals += value.sum(axis=0)
            done += k
            if self.time_limit is not None and \
                    time.perf_counter() - start >= self.time_limit:
                break
        return int(np.argmin(totals))

    def __repr__(self) -> str:
        return (f"SearchBot(budget={self.budget}, candidates={self.candidates}, "
                f"objective={self.objective!r}, policy={self.policy!r})")
