"""The rollout engine's pure-Python twin: what ``fivecrowns._rollout`` computes, computed
by :class:`~fivecrowns.round.Round`, :class:`~fivecrowns.game.Game` and the Python bots.

It stands beside the compiled engine as ``_solver_py`` stands beside ``_solver``: it is
the readable specification, :mod:`fivecrowns.rollout` runs on it when the compiled core
is absent or ``FIVECROWNS_IMPLEMENTATION=python`` is set, and the twin tests play both
move for move (``tests/engines.py`` runs a test through each). Every function here makes
exactly the compiled engine's moves, with one exception said where it stands
(:func:`play_worlds` samples other worlds from the same distribution).

- :func:`play_out`: rounds played to their end by a policy's bot in every seat;
- :func:`play_games`: whole games dealt from seeds, by a policy per seat;
- :class:`RandomPolicy`: the ``"random"`` policy as a player, its choices drawn from its
  own bit generator as the engine draws them (``random_interval``);
- :func:`play_worlds`: a search's sampled worlds, each move played out in each.

Whole games of built-in bots with their records (``_rollout._logged_games_range``) have
their twin in :func:`fivecrowns.players._play_on_game`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from . import solver
from ._player import player_action
from .actions import Source
from .bots import GreedyBot, StrongBot, _deck_drawable, _hand_row, _must_keep_index
from .cards import Card
from .expert import ExpertBot
from .game import Game
from .records import Observation
from .registry import engine_policies, engine_policy, parse_bot
from .round import Round
from .rules import Rules

__all__ = ["POLICY_BOTS", "RandomPolicy", "play_out", "play_out_actions", "play_games",
           "play_worlds"]

#: The bot of each deterministic policy: the registry's class of each compiled policy but
#: ``"random"`` (:class:`RandomPolicy`, whose choices are the engine's, not RandomBot's).
POLICY_BOTS: dict[str, type[GreedyBot] | type[StrongBot] | type[ExpertBot]] = {
    name: parse_bot(name).cls for name in engine_policies() if name != "random"}


class RandomPolicy:
    """The engine's ``"random"`` policy: a legal source uniformly, then a card type held
    (but the one the rules keep) uniformly, going out when that discard allows it.

    Each choice is numpy's ``random_interval(bitgen, n - 1)`` on ``bit_generator``
    (the smallest bit mask covering ``n - 1``, 32-bit draws until one falls in range),
    which is what the compiled engine calls; a 32-bit draw is ``Generator.integers(0,
    2**32, dtype=uint32)``, numpy's ``next_uint32``.
    """

    name = "RandomPolicy"

    def __init__(self, bit_generator: np.random.BitGenerator) -> None:
        self._gen = np.random.Generator(bit_generator)

    def _interval(self, top: int) -> int:
        """numpy's ``random_interval(bitgen, top)`` for ``top < 2**32``."""
        if top == 0:
            return 0
        mask = (1 << top.bit_length()) - 1
        while True:
            value = int(self._gen.integers(0, 1 << 32, dtype=np.uint32)) & mask
            if value <= top:
                return value

    def choose_draw(self, obs: Observation) -> Source:
        deck, pile = _deck_drawable(obs), obs.top_discard is not None
        if deck and pile:
            return Source.DISCARD if self._interval(1) == 1 else Source.DECK
        return Source.DISCARD if pile else Source.DECK

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        row = _hand_row(obs)
        kept = _must_keep_index(obs)
        held = [int(t) for t in np.flatnonzero(row) if t != kept]
        t = held[self._interval(len(held) - 1)]
        row[t] -= 1
        return Card.from_index(t), solver.deadwood(row, obs.wild, decks=obs.decks) == 0


def _players(policy: str, n: int, choices: np.random.BitGenerator | None) -> list[object]:
    """The players of one round or game with ``policy`` in every seat (one random policy
    shared by every seat, as the engine shares its generator)."""
    policy = engine_policy(policy)
    if policy == "random":
        assert choices is not None
        shared = RandomPolicy(choices)
        return [shared] * n
    bot = POLICY_BOTS[policy]
    return [bot() for _ in range(n)]


class _TimeUp(Exception):
    """A play-out reached its deadline before the round's end."""


def _play_round(r: Round, players: Sequence[object],
                deadline: float | None = None) -> list[int]:
    """Play ``r`` (changed) to its end; the moves, as action codes. Past ``deadline`` (a
    ``time.perf_counter()`` moment) before the end, :class:`_TimeUp` is raised."""
    moves = []
    while not r.is_over:
        if deadline is not None and time.perf_counter() > deadline:
            raise _TimeUp
        p = r.current_player
        bot: Any = players[p]
        a = player_action(bot, r.observation(p))
        r.apply_action(a)
        moves.append(a)
    return moves


def play_out(rounds: Sequence[Round], policy: str,
             choices: Sequence[np.random.BitGenerator] | None = None
             ) -> npt.NDArray[np.int32]:
    """Each round (left untouched) played to its end by ``policy`` in every seat; the
    random policy's choices in round ``i`` come from ``choices[i]`` (advanced)."""
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
        _play_round(r, _players(policy, n, None if choices is None else choices[i]))
        assert r.result is not None
        scores[i] = r.result.scores
    return scores


def play_out_actions(round: Round, policy: str,
                     choices: np.random.BitGenerator | None = None) -> list[int]:
    """The moves of :func:`play_out` of ``[round]``, as action codes."""
    return _play_round(round.clone(), _players(policy, round.n_players, choices))


def play_games(seeds: Sequence[int], *, n_players: int, policies: Sequence[str],
               rules: Rules, plan: Sequence[int], first_dealer: int,
               choices: Sequence[np.random.BitGenerator] | None = None
               ) -> npt.NDArray[np.int64]:
    """Game ``g`` dealt from ``seeds[g]``, seat q played by ``policies[q]`` (the random
    policy's seats sharing ``choices[g]``); the totals. A tie-break round changes no
    total, so it is not played."""
    policies = [engine_policy(p, what=f"policies[{q}]") for q, p in enumerate(policies)]
    out = np.zeros((len(seeds), n_players), dtype=np.int64)
    plain = dataclasses.replace(rules, tie_break=False)
    for g, seed in enumerate(seeds):
        shared = None if choices is None else RandomPolicy(choices[g])
        players = [shared if p == "random" else _players(p, 1, None)[0] for p in policies]
        game = Game(n_players, seed=seed, rules=plain, rounds=plan, first_dealer=first_dealer)
        while not game.is_over:
            bot: Any = players[game.current_player]
            game.apply_action(player_action(bot, game.observation(game.current_player)))
        out[g] = game.totals
    return out


def play_worlds(round: Round, actions: Sequence[int], worlds: int, rng: np.random.Generator,
                policy: str, deadline: float | None = None,
                opponents: str | None = None) -> npt.NDArray[np.int32]:
    """:func:`fivecrowns.rollout.play_worlds` on the Python engine: each world a
    :meth:`Round.determinize` of the current player's view drawn from ``rng``, each
    action played out by :func:`play_out` (the other seats by ``opponents`` when
    given). The same distribution as the compiled engine's worlds, not the same
    samples (the engine draws them from a splitmix64 generator of its own), and
    uniform worlds only (``discard_weight`` and ``replay_draws`` are the compiled
    engine's). Past ``deadline`` (a ``time.perf_counter()`` moment) it stops at the next
    move, and the worlds finished by then are all it returns (a world here takes seconds
    in the last rounds)."""
    p = round.current_player
    scores = np.zeros((worlds, len(actions), round.n_players), dtype=np.int32)

    def seated() -> list[object]:  # fresh bots for every play-out, as the engine's
        players = _players(policy if opponents is None else opponents, round.n_players, None)
        players[p] = _players(policy, 1, None)[0]
        return players
    for w in range(worlds):
        world = round.determinize(p, rng)
        for i, a in enumerate(actions):
            r = world.clone()
            r.apply_action(a)
            try:
                _play_round(r, seated(), deadline)
            except _TimeUp:
                return scores[:w]
            assert r.result is not None
            scores[w, i] = r.result.scores
    return scores
