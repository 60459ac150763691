"""The recording of :mod:`fivecrowns.decisions`: the run's checked arguments, the
compiled engine's notes of each game and their encoding into :class:`Decisions`, chunk by
chunk.

Private: :mod:`fivecrowns.decisions` re-exports what is public (:class:`Decisions`,
:class:`DecisionFile`, :data:`FORMAT_VERSION`), and is their home.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import check_seat, default_threads
from ._homes import rehome
from ._rollout_inputs import (
    _GAMES_PER_PIECE,
    _RANDOM,
    POLICIES,
    _check_games,
    _policy,
    _seat_policies,
)
from ._state import rollout_core as _core
from ._threads import run_threaded
from .actions import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS
from .cards import N_TYPES
from .envs.encoding import observation_size
from .envs.features import feature_size
from .rules import N_ROUNDS, Rules
from .runner import ProgressCallback
from .seeding import bot_seeds, game_seeds_range

__all__ = ["Decisions", "DecisionFile", "FORMAT_VERSION"]

#: The version of the file layout :func:`write_decisions` writes.
FORMAT_VERSION = 1

# The columns of the engine's info rows (_rollout.pyx, D_*).
_GAME, _ROUND, _PLAYER, _PHASE, _TURN, _TOP, _KEEP, _N_DRAW, _N_PILE, _WENT_OUT, \
    _ACTION = range(11)
_N_INFO = 11
# Decisions noted per game before a buffer is grown (a four-player ExpertBot game makes
# about 210): a game that does not fit is played again into a larger buffer.
_ROOM_PER_GAME = 320
_DEFAULT_CHUNK = 256
# By round number 1..11 (0 unused): the encoding asks for them per row, as arrays
_HAND_SIZES = np.array([0] + [Rules.hand_size(r) for r in range(1, N_ROUNDS + 1)])
_WILD_RANKS = np.array([0] + [Rules.wild_rank(r) for r in range(1, N_ROUNDS + 1)])


@dataclass(frozen=True)
class Decisions:
    """Recorded decisions (see the module docstring for each array).

    Attributes
    ----------
    n_players : int
    decks : int
    obs, features, mask, action, game, round, player, turn, round_score, game_total, \
reward, round_end, episode_end : ndarray
    """

    n_players: int
    decks: int
    obs: npt.NDArray[np.int16]
    features: npt.NDArray[np.float32] | None
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int16]
    game: npt.NDArray[np.int32]
    round: npt.NDArray[np.int8]
    player: npt.NDArray[np.int8]
    turn: npt.NDArray[np.int16]
    round_score: npt.NDArray[np.int16]
    game_total: npt.NDArray[np.int32]
    reward: npt.NDArray[np.float32]
    round_end: npt.NDArray[np.bool_]
    episode_end: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def observations(self) -> npt.NDArray[np.float32]:
        """The observations as the environments give them: ``float32``, the solver
        features appended when recorded (``observation_size(n_players, features)``
        columns).

        >>> d = record_decisions(1, seed=2, policy="greedy", n_players=2, features=True)
        >>> d.observations().shape[1]
        374
        """
        base = self.obs.astype(np.float32)
        if self.features is None:
            return base
        return np.concatenate([base, self.features], axis=1)

    @staticmethod
    def concatenate(parts: Sequence[Decisions]) -> Decisions:
        """One :class:`Decisions` of ``parts`` in order (game indices are kept as they
        are: chunks of one run number their games in the run)."""
        if not parts:
            raise ValueError("concatenate needs at least one Decisions")
        first = parts[0]
        kw: dict[str, Any] = {"n_players": first.n_players, "decks": first.decks}
        for f in fields(Decisions):
            if f.name in kw:
                continue
            arrays = [getattr(p, f.name) for p in parts]
            kw[f.name] = None if arrays[0] is None else np.concatenate(arrays)
        return Decisions(**kw)


_ARRAYS = tuple(f.name for f in fields(Decisions) if f.name not in ("n_players", "decks"))


@dataclass(frozen=True)
class DecisionFile:
    """What :func:`write_decisions` wrote: the path, games, decisions, chunks, seconds."""

    path: str
    games: int
    decisions: int
    chunks: int
    seconds: float


# Pickles, reprs and the docs know them as fivecrowns.decisions' (their home before 0.5)
rehome("fivecrowns.decisions", Decisions, DecisionFile)


# -- the run: checked arguments -----------------------------------------------------------

@dataclass(frozen=True)
class _Run:
    games: int
    seed: int
    n_players: int
    rules: Rules
    plan: npt.NDArray[np.int8]
    first_dealer: int
    codes: npt.NDArray[np.int32]
    seats: npt.NDArray[np.uint8]
    features: bool
    threads: int
    piece: int

    def meta(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "games": self.games, "seed": self.seed,
                "n_players": self.n_players, "decks": self.rules.decks,
                "return_discard": self.rules.return_discard,
                "max_turns": self.rules.max_turns, "rounds": self.plan.tolist(),
                "first_dealer": self.first_dealer,
                "policy": [POLICIES[c] for c in self.codes.tolist()],
                "seats": np.flatnonzero(self.seats).tolist(), "features": self.features}


def _check_run(games: object, seed: object, policy: object, n_players: int,
               seats: object, features: object, rules: Rules | None,
               rounds: Sequence[int] | None, first_dealer: object,
               threads: object) -> _Run:
    n_games, seed_, rules_, plan, dealer = _check_games(games, seed, n_players, rules,
                                                        rounds, first_dealer)
    if isinstance(policy, str):
        codes = [_policy(policy)] * n_players
    else:
        codes = _seat_policies(policy, n_players)
    chosen = np.zeros(n_players, dtype=np.uint8)
    if seats is None:
        chosen[:] = 1
    else:
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
            raise TypeError(f"seats must be a sequence of seat numbers or None, got "
                            f"{type(seats).__name__}")
        for i, s in enumerate(seats):
            chosen[check_seat(s, n_players, f"seats[{i}]")] = 1
        if not chosen.any():
            raise ValueError("seats must name at least one seat to record")
    if not isinstance(features, bool):
        raise TypeError(f"features must be a bool, got {type(features).__name__}")
    piece = min(_GAMES_PER_PIECE[POLICIES[c]] for c in codes)
    return _Run(n_games, seed_, n_players, rules_, plan, dealer,
                np.array(codes, dtype=np.int32), chosen, features,
                default_threads(threads, n_games, 2), piece)


# -- playing and noting ---------------------------------------------------------------------

def _compiled_engine() -> Any:
    """The compiled engine: decisions are recorded in C only (the Python route is the
    bots themselves, one step at a time)."""
    if _core is None:
        raise RuntimeError("recording decisions needs fivecrowns' compiled engine, and it is "
                           "not in use here (a pure-Python install, or "
                           "FIVECROWNS_IMPLEMENTATION=python); reinstall with "
                           "FIVECROWNS_BUILD_EXTENSION=1")
    return _core


def _play(run: _Run, a: int, b: int) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[Any]]:
    """The engine's notes of games a..b (concatenated) and their round scores."""
    core = _compiled_engine()
    n = run.n_players
    parts: list[dict[str, npt.NDArray[Any]]] = []
    scores = np.zeros((b - a, len(run.plan), n), dtype=np.int32)
    random = _RANDOM in run.codes.tolist()
    start = a
    room = _ROOM_PER_GAME * (b - a)
    while start < b:
        # the generators of games start..b, made from their seeds (a game that did not
        # fit is dealt again from its seed)
        gens = [np.random.PCG64(s) for s in game_seeds_range(run.seed, start, b)]
        picks = (None if not random else
                 [np.random.PCG64(bot_seeds(run.seed, g, 1)[0]) for g in range(start, b)])
        buf: dict[str, npt.NDArray[Any]] = {
               "info": np.empty((room, _N_INFO), dtype=np.int32),
               "hand": np.empty((room, N_TYPES), dtype=np.uint8),
               "pile": np.empty((room, N_TYPES), dtype=np.uint8),
               "unseen": np.empty((room, N_TYPES), dtype=np.uint8),
               "taken": np.empty((room, n, N_TYPES), dtype=np.uint8),
               "outs": np.empty((room, N_TYPES), dtype=np.uint8),
               "totals": np.empty((room, n), dtype=np.int32)}
        if run.features:
            buf["features"] = np.empty((room, feature_size()), dtype=np.float32)
        done, rows = core._decisions_range(
            core._bitgens(gens, b - start), core._bitgens(picks, b - start), n,
            run.rules.decks, run.rules.max_turns, not run.rules.return_discard, run.plan,
            run.first_dealer, run.codes, run.seats, buf["info"], buf["hand"], buf["pile"],
            buf["unseen"], buf["taken"], buf["outs"], buf["totals"], scores[start - a:],
            buf.get("features"), 0, b - start)
        part: dict[str, npt.NDArray[Any]] = {k: v[:rows] for k, v in buf.items()}
        part["info"][:, _GAME] += start
        parts.append(part)
        start += done
        if done == 0:  # one game needs more room than this
            room *= 2
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, scores


def _decisions(run: _Run, notes: dict[str, npt.NDArray[Any]],
               scores: npt.NDArray[np.int32], first_game: int) -> Decisions:
    """The notes of games from ``first_game`` on, as :class:`Decisions`."""
    n = run.n_players
    info = notes["info"]
    d = len(info)
    player = info[:, _PLAYER]
    k = info[:, _ROUND]
    rnd = run.plan[k].astype(np.int64)
    phase = info[:, _PHASE]
    rows = np.arange(d)
    obs = _encode(run, notes, rnd, phase)
    mask = np.zeros((d, N_ACTIONS), dtype=np.bool_)
    draw = phase == 0
    mask[draw, 0] = (info[draw, _N_DRAW] > 0) | (info[draw, _N_PILE] > 1)
    mask[draw, 1] = info[draw, _N_PILE] > 0
    held = (notes["hand"] > 0) & ~draw[:, None]
    keep = info[:, _KEEP]
    kept = keep >= 0
    held[rows[kept], keep[kept]] = False
    mask[:, ACTION_DISCARD:ACTION_DISCARD + N_TYPES] = held
    mask[:, ACTION_GO_OUT:] = notes["outs"].astype(np.bool_)
    game = info[:, _GAME]
    local = game - first_game
    round_score = scores[local, k, player]
    game_total = scores[local, :, player].sum(axis=1) if d else np.zeros(0, np.int64)
    # The player's last decision of a round (of a game): the next decision of the same
    # player is in another round (game), or there is none.
    key_round = (game.astype(np.int64) * 64 + k) * 16 + player
    key_game = game.astype(np.int64) * 16 + player
    round_end = _last_of(key_round)
    episode_end = _last_of(key_game)
    reward = np.where(round_end, -round_score, 0).astype(np.float32)
    _skipped_rounds(reward, scores, local, k, player, round_end, episode_end)
    feats = notes["features"] if run.features else None
    return Decisions(n, run.rules.decks, obs, feats, mask, info[:, _ACTION].astype(np.int16),
                     game.astype(np.int32), rnd.astype(np.int8), player.astype(np.int8),
                     info[:, _TURN].astype(np.int16), round_score.astype(np.int16),
                     game_total.astype(np.int32), reward, round_end, episode_end)


def _last_of(key: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """True at the last occurrence of each key."""
    out = np.zeros(len(key), dtype=np.bool_)
    if len(key):
        _, first_from_end = np.unique(key[::-1], return_index=True)
        out[len(key) - 1 - first_from_end] = True
    return out


def _skipped_rounds(reward: npt.NDArray[np.float32], scores: npt.NDArray[np.int32],
                    local: npt.NDArray[Any], k: npt.NDArray[Any], player: npt.NDArray[Any],
                    round_end: npt.NDArray[np.bool_],
                    episode_end: npt.NDArray[np.bool_]) -> None:
    """A round in which a recorded player made no decision (``Rules.max_turns`` ended it
    first) still scores: its score goes to the player's latest round-ending decision
    before it (to the first one for rounds before any), so every episode's rewards sum
    to minus the player's total."""
    ends = np.flatnonzero(round_end)
    n_rounds = scores.shape[1]
    if len(ends) == int(episode_end.sum()) * n_rounds:
        return  # the player decided in every round: the usual case
    episodes: dict[tuple[int, int], list[int]] = {}
    for i in ends.tolist():
        episodes.setdefault((int(local[i]), int(player[i])), []).append(i)
    for (g, p), rows in episodes.items():
        decided = [int(k[i]) for i in rows]
        for r in range(n_rounds):
            if r in decided:
                continue
            before = [i for i, kr in zip(rows, decided) if kr < r]
            reward[before[-1] if before else rows[0]] -= scores[g, r, p]


def _encode(run: _Run, notes: dict[str, npt.NDArray[Any]], rnd: npt.NDArray[np.int64],
            phase: npt.NDArray[np.int32]) -> npt.NDArray[np.int16]:
    """The shared encoding (``envs.encoding._fill``, row by row there) of every note."""
    n = run.n_players
    info = notes["info"]
    d = len(info)
    rows = np.arange(d)
    player = info[:, _PLAYER].astype(np.int64)
    out = np.zeros((d, observation_size(n)), dtype=np.int16)
    out[:, 0:56] = notes["hand"]
    top = info[:, _TOP]
    has = top >= 0
    out[rows[has], 56 + top[has]] = 1
    out[:, 112:168] = notes["pile"]
    out[:, 168:224] = notes["unseen"]
    size = _HAND_SIZES[rnd]  # between turns: the player to act is not an opponent
    at = 224
    for j in range(1, n):  # opponents in play order after the player; none holds n + 1
        q = (player + j) % n
        out[:, at] = size
        out[:, at + 1:at + 57] = notes["taken"][rows, q]
        at += 57
    out[:, at] = info[:, _N_DRAW]
    at += 1
    out[rows, at + rnd - 1] = 1
    at += 11
    out[rows, at + _WILD_RANKS[rnd] - 3] = 1
    at += 11
    out[:, at] = 1  # the player to act is the observer: relative seat 0
    at += n
    out[rows, at + phase] = 1
    at += 2
    went = info[:, _WENT_OUT]
    out[:, at] = went >= 0
    at += 1
    gone = went >= 0
    out[rows[gone], at + (went[gone] - player[gone]) % n] = 1
    at += n
    totals = notes["totals"].astype(np.int64)
    own = totals[rows, player]
    for j in range(1, n):
        diff = totals[rows, (player + j) % n] - own
        if d and np.abs(diff).max() > np.iinfo(np.int16).max:
            raise OverflowError("a difference of totals does not fit the int16 encoding")
        out[:, at] = diff
        at += 1
    return out


def _chunks(run: _Run, chunk_games: int,
            progress: ProgressCallback | None) -> Iterator[Decisions]:
    """The decisions of the run, ``chunk_games`` games at a time."""
    for a in range(0, run.games, chunk_games):
        b = min(run.games, a + chunk_games)
        results: dict[int, tuple[dict[str, npt.NDArray[Any]], npt.NDArray[Any]]] = {}

        def piece(i: int, j: int, a: int = a, results: dict[int, Any] = results) -> None:
            results[i] = _play(run, a + i, a + j)

        run_threaded(piece, b - a, run.threads, run.piece)
        order = sorted(results)
        notes = {key: np.concatenate([results[i][0][key] for i in order])
                 for key in results[order[0]][0]}
        scores = np.concatenate([results[i][1] for i in order])
        yield _decisions(run, notes, scores, a)
        if progress is not None:
            progress(b - a)



def _empty(run: _Run) -> Decisions:
    notes: dict[str, npt.NDArray[Any]] = {"info": np.zeros((0, _N_INFO), dtype=np.int32),
             "hand": np.zeros((0, N_TYPES), dtype=np.uint8),
             "pile": np.zeros((0, N_TYPES), dtype=np.uint8),
             "unseen": np.zeros((0, N_TYPES), dtype=np.uint8),
             "taken": np.zeros((0, run.n_players, N_TYPES), dtype=np.uint8),
             "outs": np.zeros((0, N_TYPES), dtype=np.uint8),
             "totals": np.zeros((0, run.n_players), dtype=np.int32)}
    if run.features:
        notes["features"] = np.zeros((0, feature_size()), dtype=np.float32)
    return _decisions(run, notes, np.zeros((0, len(run.plan), run.n_players),
                                           dtype=np.int32), 0)

