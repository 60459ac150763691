"""Decision data in bulk: every move of whole games, as NumPy arrays, for learning.

The compiled rollout engine (:mod:`fivecrowns.rollout`) plays seeded games with a
built-in policy in each seat (``"greedy"``, ``"strong"``, ``"expert"``, ``"random"``)
and notes, before each decision of the recorded seats, what the player to act may see: its
hand, the discard pile, the cards each player was seen taking, its unseen cards, the
piles' sizes, the round, the totals; then the move it made. NumPy turns those notes into
the shared observation encoding (:mod:`fivecrowns.envs.encoding`) a chunk of games at a
time, so the encoding costs a few vectorized operations per chunk, not a Python call per
decision.

- :func:`record_decisions`: the decisions of ``games`` games, in memory.
- :func:`write_decisions`: the same written to a file in bounded chunks (memory does not
  grow with ``games``), through ``PATH.part`` renamed when complete.
- :func:`iter_decisions`, :func:`load_decisions`: read such a file back, chunk by chunk
  or whole.
- :func:`to_minari`: a :class:`Decisions` (or a file) as a Minari dataset (the
  ``minari`` extra).

The moves are exactly those of the Python bots (:class:`~fivecrowns.bots.GreedyBot`,
:class:`~fivecrowns.bots.StrongBot`, :class:`~fivecrowns.expert.ExpertBot`) playing
:class:`~fivecrowns.game.Game` from the same seed, and each observation is exactly
``encode_observation(game.observation(player))`` at that moment: the tests replay
sampled games step by step against the Python engine. Game ``g`` is dealt from
``game_seeds(seed, games)[g]``, as :func:`fivecrowns.rollout.play_games` and
:func:`fivecrowns.simulate.simulate_games` deal it.

Arrays of a :class:`Decisions` (``D`` decisions, ``n`` players)
-----------------------------------------------------------------

===============  ==============  ===================================================
name             dtype, shape    contents
===============  ==============  ===================================================
``obs``          int16 (D, 192   the shared encoding (``features=False``) of the
                 + 60n)          player to act, in integers: every entry of that
                                 encoding is a count, a one-hot or a difference of
                                 totals; :meth:`Decisions.observations` gives it as
                                 ``float32``
``features``     float32 (D,     the solver features (:mod:`fivecrowns.envs.features`),
                 62) or None     with ``features=True``
``mask``         bool (D, 114)   the legal actions (:mod:`fivecrowns.actions`)
``action``       int16 (D,)      the action code played
``game``         int32 (D,)      the game's index in the run (its seed is
                                 ``game_seeds(seed, games)[game]``)
``round``        int8 (D,)       the round number 1..11
``player``       int8 (D,)       the seat that decided
``turn``         int16 (D,)      turns completed in the round before this decision
``round_score``  int16 (D,)      the player's score of this round (known at its end)
``game_total``   int32 (D,)      the player's total of the whole game
``reward``       float32 (D,)    minus the round's score at the player's last decision
                                 of the round, else 0 (the Gymnasium environment's
                                 reward: an episode's rewards sum to minus the total)
``round_end``    bool (D,)       the player's last decision of the round
``episode_end``  bool (D,)       the player's last decision of the game: an episode
                                 is one seat's decisions in one game
===============  ==============  ===================================================

Decisions are in the order they were made within a game, games in order. No observation
holds hidden information: the notes are taken from the player's own view (the opponents'
hidden cards and the draw pile's order never enter them).

Examples
--------
>>> from fivecrowns.decisions import record_decisions
>>> d = record_decisions(2, seed=1, policy="greedy", n_players=3)
>>> d.obs.shape[1], d.mask.shape[1]
(372, 114)
>>> bool(d.mask[range(len(d)), d.action].all())   # every action was legal
True
>>> sorted(set(d.game.tolist())), int(d.episode_end.sum())   # 2 games x 3 seats
([0, 1], 6)
"""

from __future__ import annotations

import json
import os
import shutil
import time
import warnings
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import check_int, check_seat, default_threads
from ._sigint import sigint_held
from ._threads import run_threaded
from ._version import VERSION
from .actions import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS
from .cards import N_TYPES
from .envs.encoding import observation_size
from .envs.features import feature_size
from .errors import Interrupted
from .rollout import (
    _GAMES_PER_PIECE,
    _RANDOM,
    POLICIES,
    Policy,
    _check_games,
    _core,
    _policy,
    _seat_policies,
)
from .rules import N_ROUNDS, Rules
from .runner import ProgressCallback
from .seeding import SeedLike, bot_seeds, game_seeds_range

__all__ = ["Decisions", "DecisionFile", "record_decisions", "write_decisions",
           "iter_decisions", "load_decisions", "to_minari", "FORMAT_VERSION"]

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


def record_decisions(games: int, *, seed: SeedLike,
                     policy: Policy | Sequence[Policy] = "expert", n_players: int = 4,
                     seats: Sequence[int] | None = None, features: bool = False,
                     rules: Rules | None = None, rounds: Sequence[int] | None = None,
                     first_dealer: int = 0, threads: int | None = None,
                     progress: ProgressCallback | None = None) -> Decisions:
    """Every decision of ``games`` seeded games, in memory.

    Parameters
    ----------
    games : int
        How many games (0 or more); game ``g`` is dealt from
        ``game_seeds(seed, games)[g]``.
    seed : int, SeedSequence or Generator
        The run's seed (:func:`~fivecrowns.seeding.int_seed`). Keyword-only and required.
    policy : {"expert", "strong", "greedy", "random"} or sequence of them
        Every seat's policy, or one per seat (see :func:`fivecrowns.rollout.play_games`).
        The deterministic ones are exactly the bots.
    n_players : int
        2 to ``rules.max_players``.
    seats : sequence of int, optional
        The seats whose decisions are recorded (default all).
    features : bool
        Also record the solver features (:mod:`fivecrowns.envs.features`), computed in
        the engine: a solver call per held card type and a draw table a decision.
    rules, rounds, first_dealer
        As :class:`~fivecrowns.game.Game`'s.
    threads : int, optional
        Worker threads (the engine releases the GIL); default one per core. The
        result does not depend on it.
    progress : callable, optional
        Called with the number of games finished, chunk by chunk.

    Returns
    -------
    Decisions
        About 1 kB a decision with four players (220 kB a four-player ExpertBot game):
        for many games use :func:`write_decisions`.

    Examples
    --------
    >>> d = record_decisions(3, seed=7, policy=["expert", "strong"], n_players=2,
    ...                      seats=[0])
    >>> set(d.player.tolist()), int(d.episode_end.sum())
    ({0}, 3)
    >>> float(d.reward[d.game == 0].sum()) == -int(d.game_total[d.game == 0][0])
    True
    """
    run = _check_run(games, seed, policy, n_players, seats, features, rules, rounds,
                     first_dealer, threads)
    parts = list(_chunks(run, _DEFAULT_CHUNK, progress))
    if not parts:
        return _empty(run)
    return Decisions.concatenate(parts)


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


# -- files ------------------------------------------------------------------------------------

def write_decisions(path: str | os.PathLike[str], games: int, *, seed: SeedLike,
                    policy: Policy | Sequence[Policy] = "expert", n_players: int = 4,
                    seats: Sequence[int] | None = None, features: bool = False,
                    rules: Rules | None = None, rounds: Sequence[int] | None = None,
                    first_dealer: int = 0, chunk_games: int = _DEFAULT_CHUNK,
                    compress: bool = True, threads: int | None = None,
                    progress: ProgressCallback | None = None) -> DecisionFile:
    """:func:`record_decisions` written to ``path``, ``chunk_games`` games at a time.

    The file is a NumPy ``.npz`` (a zip of ``.npy`` arrays): ``meta`` (a JSON text: the
    format version, the run's arguments and the number of chunks and decisions), then
    for chunk ``c`` an array ``c{c:05d}.{name}`` for each array of :class:`Decisions`
    (``features`` only when recorded). ``np.load(path)`` reads any array;
    :func:`iter_decisions` reads it chunk by chunk. Memory holds one chunk (about
    220 kB a four-player ExpertBot game).

    The file is written as ``path + ".part"`` and renamed ``path`` when complete, so a
    file named ``path`` always holds the whole run. Ctrl-C keeps the chunks finished
    before it, as ``fivecrowns simulate --out`` keeps its finished games: ``.part`` is
    closed as a valid decisions file of the run's first games (its ``meta`` counts them,
    with ``planned_games`` the number asked for; they are the same decisions as a run of
    that many games) and the call raises :class:`~fivecrowns.errors.Interrupted`, whose
    ``partial`` is that file's :class:`DecisionFile` (``None``, and no ``.part``, if no
    chunk was finished). Any other error removes the ``.part``.

    Parameters
    ----------
    path : str or path-like
        Where to write: a name ending in ``.npz``, in a folder that exists (an existing
        file is replaced when the new one is complete).
    games, seed, policy, n_players, seats, features, rules, rounds, first_dealer, threads, \
progress
        As :func:`record_decisions`.
    chunk_games : int
        Games per chunk.
    compress : bool
        Deflate the arrays (the default): a four-player ExpertBot game takes about 8 kB
        instead of 220 kB (mostly zeros and small counts), for a little more time (about
        30% more than playing the games). ``False`` stores them as they are.

    Returns
    -------
    DecisionFile

    Raises
    ------
    ValueError, TypeError
        A bad argument, or a ``path`` not ending in ``.npz``.
    FileNotFoundError, IsADirectoryError
        ``path``'s folder does not exist, or ``path`` is a folder (checked before any
        game is played).
    Interrupted
        Ctrl-C (a ``KeyboardInterrupt``), the finished chunks kept (see above).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = write_decisions(os.path.join(tmp, "d.npz"), 3, seed=1, policy="greedy",
    ...                         n_players=2, chunk_games=2)
    ...     back = load_decisions(f.path)
    >>> f.chunks, len(back) == f.decisions
    (2, True)
    """
    run = _check_run(games, seed, policy, n_players, seats, features, rules, rounds,
                     first_dealer, threads)
    chunk_games = check_int(chunk_games, "chunk_games", 1)
    if not isinstance(compress, bool):
        raise TypeError(f"compress must be a bool, got {type(compress).__name__}")
    dst = _check_destination(path)
    part = dst.with_name(dst.name + ".part")
    started = time.perf_counter()
    chunks = decisions = done = 0
    stop: KeyboardInterrupt | None = None
    ok = False
    try:
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED if compress
                             else zipfile.ZIP_STORED, allowZip64=True) as zf:
            try:
                for chunk in _chunks(run, chunk_games, progress):
                    # a chunk is in the file whole or not at all: Ctrl-C waits for it
                    with sigint_held():
                        for name in _ARRAYS:
                            value = getattr(chunk, name)
                            if value is not None:
                                _write_array(zf, f"c{chunks:05d}.{name}", value)
                        chunks += 1
                        decisions += len(chunk)
                        done = min(run.games, chunks * chunk_games)
            except KeyboardInterrupt as exc:
                stop = exc
            # the meta and the zip's directory make the file valid; a Ctrl-C that comes
            # meanwhile is raised once the file is complete (and kept)
            with sigint_held():
                meta = dict(run.meta(), games=done, chunks=chunks, decisions=decisions)
                if stop is not None:
                    meta["planned_games"] = run.games
                _write_array(zf, "meta", np.array(json.dumps(meta)))
                zf.close()
                if stop is None:
                    os.replace(part, dst)
                ok = stop is None or chunks > 0
    finally:
        if not ok and part.exists():
            part.unlink()
    if stop is not None:
        kept = DecisionFile(str(part), done, decisions, chunks,
                            time.perf_counter() - started) if chunks else None
        raise Interrupted(kept) from stop
    return DecisionFile(str(dst), run.games, decisions, chunks,
                        time.perf_counter() - started)


def _check_destination(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path, checked before any game is played: an ``.npz`` name, in a
    folder that exists, not a folder itself."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path-like, got {type(path).__name__}")
    dst = Path(path)
    if dst.suffix.lower() != ".npz":
        # np.load reads any name, but every other tool takes the suffix for the format
        raise ValueError(f"path {str(path)!r} must end in .npz (the file is a NumPy "
                         f".npz archive)")
    folder = dst.absolute().parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {str(path)!r}: no such folder "
                                f"{str(folder)!r}")
    if dst.is_dir():
        raise IsADirectoryError(f"cannot write {str(path)!r}: it is a folder")
    return dst


def _write_array(zf: zipfile.ZipFile, name: str, value: npt.NDArray[Any]) -> None:
    with zf.open(name + ".npy", "w", force_zip64=True) as f:
        np.lib.format.write_array(f, np.ascontiguousarray(value), allow_pickle=False)


_DECISIONS = "a decisions file"
_FROM_WRITE = "a file from write_decisions"
# The arrays every chunk holds (``features`` only when recorded).
_OPTIONAL = ("features",)
# What the meta of a decisions file names: without them the chunks cannot be read back.
_META_KEYS = ("format", "games", "chunks", "decisions", "n_players", "decks",
              "return_discard", "max_turns", "rounds", "first_dealer", "policy", "features")


def _not(path: Path, what: str, why: str, expected: str) -> ValueError:
    return ValueError(f"{path}: not {what} ({why}); expected {expected}")


def _open_npz(path: Path, what: str, expected: str) -> Any:
    """``path`` opened as a NumPy ``.npz`` (the caller closes it).

    Anything else is one ``ValueError`` saying what the file is not (``what``), what it
    is instead, and what was ``expected``: never NumPy's advice to load pickled data,
    which would run code from the file. A file that cannot be opened raises the
    ``OSError`` of ``open`` (no such file, a folder...)."""
    with open(path, "rb") as f:
        head = f.read(6)
    if head.startswith(b"\x93NUMPY"):
        raise _not(path, what, "it is a single NumPy array, an .npy, not an .npz archive",
                   expected)
    if not head.startswith(b"PK"):
        raise _not(path, what, "an empty file" if not head else
                   "it is not a zip archive, as every .npz is", expected)
    try:
        # zipfile first: np.load leaves the file open when the archive is damaged
        with zipfile.ZipFile(path):
            pass
        return np.load(path, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, ValueError):
        raise _not(path, what, "a damaged or truncated zip archive", expected) from None


def _npz_array(data: Any, name: str, path: Path, what: str,
               expected: str) -> npt.NDArray[Any]:
    """The array ``name`` of an open ``.npz``, or the ValueError of :func:`_open_npz`."""
    if name not in data.files:
        raise _not(path, what, f"no array {name!r}", expected)
    try:
        return np.asarray(data[name])
    except ValueError:  # an object array: NumPy would need allow_pickle
        raise _not(path, what, f"its array {name!r} holds pickled Python objects",
                   expected) from None
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error):
        raise _not(path, what, f"its array {name!r} is damaged", expected) from None


def _npz_meta(data: Any, path: Path, what: str, expected: str) -> dict[str, Any]:
    """The JSON text of the array ``meta``, as a dict."""
    raw = _npz_array(data, "meta", path, what, expected)
    try:
        meta = json.loads(str(raw.reshape(-1)[0])) if raw.size == 1 \
            and raw.dtype.kind == "U" else None
    except json.JSONDecodeError:
        meta = None
    if not isinstance(meta, dict):
        raise _not(path, what, "its 'meta' array is not a JSON object", expected)
    return meta


def _meta(data: Any, path: Path) -> dict[str, Any]:
    meta = _npz_meta(data, path, _DECISIONS, _FROM_WRITE)
    if "format" not in meta:
        raise _not(path, _DECISIONS, "it holds LearnedBot weights"
                   if {"mean", "w0"} <= set(data.files) else "its meta names no format",
                   _FROM_WRITE)
    if meta.get("format") != FORMAT_VERSION:
        raise ValueError(f"{path}: decisions format {meta.get('format')!r}, this "
                         f"version reads {FORMAT_VERSION}")
    missing = [k for k in _META_KEYS if k not in meta]
    if missing:
        raise _not(path, _DECISIONS, f"its meta lacks {missing[0]!r}", _FROM_WRITE)
    return meta


def iter_decisions(path: str | os.PathLike[str], *,
                   chunks: Sequence[int] | None = None) -> Iterator[Decisions]:
    """The chunks of a file from :func:`write_decisions`, one :class:`Decisions` each
    (only the chunks numbered in ``chunks``, in that order, if given).

    Raises
    ------
    ValueError
        The file is not a decisions file of this format version (one line: what it is
        instead), or a chunk number out of range.
    OSError
        The file cannot be opened (no such file...).
    """
    src = Path(path)
    with _open_npz(src, _DECISIONS, _FROM_WRITE) as data:
        meta = _meta(data, src)
        wanted = range(meta["chunks"]) if chunks is None else list(chunks)
        for c in wanted:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) \
                    or not 0 <= c < meta["chunks"]:
                raise ValueError(f"{src.name}: chunks must be chunk numbers "
                                 f"0..{meta['chunks'] - 1}, got {c!r}")
            kw: dict[str, Any] = {
                name: None if name in _OPTIONAL and f"c{c:05d}.{name}" not in data.files
                else _npz_array(data, f"c{c:05d}.{name}", src, _DECISIONS, _FROM_WRITE)
                for name in _ARRAYS}
            yield Decisions(meta["n_players"], meta["decks"], **kw)


def load_decisions(path: str | os.PathLike[str]) -> Decisions:
    """A whole file from :func:`write_decisions` in memory.

    Raises
    ------
    ValueError, OSError
        As :func:`iter_decisions`.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = write_decisions(os.path.join(tmp, "d.npz"), 0, seed=1)
    ...     len(load_decisions(f.path))
    0
    """
    src = Path(path)
    parts = list(iter_decisions(src))
    if parts:
        return Decisions.concatenate(parts)
    with _open_npz(src, _DECISIONS, _FROM_WRITE) as data:
        meta = _meta(data, src)
    run = _check_run(0, 0, meta["policy"], meta["n_players"], None, meta["features"],
                     Rules(decks=meta["decks"], return_discard=meta["return_discard"],
                           max_turns=meta["max_turns"]), meta["rounds"],
                     meta["first_dealer"], 1)
    return _empty(run)


# -- Minari --------------------------------------------------------------------------------

def to_minari(decisions: Decisions | str | os.PathLike[str], dataset_id: str, *,
              algorithm_name: str = "fivecrowns", **metadata: Any) -> Any:
    """A Minari dataset of recorded decisions (needs the ``minari`` extra).

    Each episode is one seat's decisions in one game: the observations (``float32``,
    the shared encoding, with the solver features when recorded) and a final one
    repeating the last (the player makes no decision after the game ends), the actions,
    the rewards (minus each round's score at the player's last decision of it), the
    legal-action masks in ``infos["action_mask"]``, ``terminations`` true at the
    episode's end. The observation space is a ``Box`` of the encoding's width (unbounded),
    the action space ``Discrete(114)``.

    Parameters
    ----------
    decisions : Decisions or path
        Decisions in memory, or a file from :func:`write_decisions` (read chunk by
        chunk, and written chunk by chunk: memory holds one chunk; an episode never
        spans two chunks).
    dataset_id : str
        Minari's id, ``"namespace/name-v0"`` style.
    algorithm_name : str
        Minari's metadata, as the other keyword arguments, which go to
        ``minari.create_dataset_from_buffers`` as they are (``author``,
        ``author_email``, ``code_permalink``, ``description``, ``eval_env``...).
        Where left out: no author and no e-mail (empty sets), ``code_permalink`` this
        package's version and function (the project publishes no repository link),
        a ``description`` of the table, so Minari has nothing to warn of. The
        decisions were not collected in an environment (every recorded seat is an
        episode of the engine's own games), so there is no ``env`` and, unless given,
        no ``eval_env``: Minari's warnings of those two are not shown. The data format
        is Minari's ``"arrow"`` unless ``data_format`` says otherwise (its ``"hdf5"``
        needs h5py).

    Returns
    -------
    minari.MinariDataset

    Notes
    -----
    In the ``"arrow"`` format the episodes of a chunk are written in one
    ``pyarrow.dataset.write_dataset`` call, in Minari's layout and with Minari's own
    column encoders, and the dataset's size is measured once at the end: Minari's
    ``create_dataset_from_buffers`` writes each episode apart and measures the whole
    folder after each (time growing as the square of the episodes), which made the export
    take 2.4 times as long as recording the decisions. A test checks that both ways
    give the same dataset.
    """
    from ._optional import requires

    with requires("minari", "to_minari"):
        import gymnasium as gym
        import minari
        from minari.data_collector import EpisodeBuffer
    chunks: Iterator[Decisions]
    if isinstance(decisions, Decisions):
        chunks = iter([decisions])
    elif isinstance(decisions, (str, os.PathLike)):
        chunks = iter_decisions(decisions)
    else:
        raise TypeError(f"decisions must be Decisions or a path, got "
                        f"{type(decisions).__name__}")
    first = next(chunks, None)
    if first is None:
        raise ValueError("no decisions to make a dataset of")
    meta: dict[str, Any] = {
        "data_format": "arrow", "author": set(), "author_email": set(),
        "code_permalink": f"fivecrowns {VERSION}, fivecrowns.decisions.to_minari",
        "description": f"Five Crowns decisions of {first.n_players}-player games "
                       f"recorded by fivecrowns {VERSION}; an episode is one seat's "
                       f"decisions in one game", **metadata}
    spaces = (gym.spaces.Box(-np.inf, np.inf, shape=(first.observations().shape[1],),
                             dtype=np.float32),
              gym.spaces.Discrete(N_ACTIONS))
    encoders = _arrow_encoders() if meta["data_format"] == "arrow" else None
    all_chunks = _chained(first, chunks)
    with warnings.catch_warnings():
        # the data come from no environment (see above): Minari's notes of that say nothing
        warnings.filterwarnings("ignore", message="env_spec is None", category=UserWarning)
        if "eval_env" not in meta:
            warnings.filterwarnings("ignore", message="`eval_env` is set to None",
                                    category=UserWarning)
        if encoders is None:  # another format: Minari's own route, episode by episode
            buffers = [EpisodeBuffer(observations=obs, actions=actions, rewards=rewards,
                                     terminations=term, truncations=np.zeros_like(term),
                                     infos={"action_mask": masks})
                       for chunk in all_chunks
                       for obs, actions, rewards, term, masks in _episodes(chunk)]
            return minari.create_dataset_from_buffers(
                dataset_id, buffers, observation_space=spaces[0], action_space=spaces[1],
                algorithm_name=algorithm_name, **meta)
        empty = minari.create_dataset_from_buffers(
            dataset_id, [], observation_space=spaces[0], action_space=spaces[1],
            algorithm_name=algorithm_name, **meta)
    storage = empty.storage
    try:
        episodes = steps = 0
        for chunk in all_chunks:
            n, k = _write_arrow_chunk(storage, chunk, spaces, encoders, episodes)
            storage.update_episode_metadata(
                [{"id": episodes + e, "total_steps": int(t)} for e, t in enumerate(k)],
                range(episodes, episodes + n))
            episodes += n
            steps += int(k.sum())
        storage.update_metadata({"total_steps": steps, "total_episodes": episodes,
                                 "dataset_size": storage.get_size()})
    except BaseException:  # no half-written dataset left under that id
        shutil.rmtree(Path(storage.data_path).parent, ignore_errors=True)
        raise
    return minari.MinariDataset(storage)


def _chained(first: Decisions, rest: Iterator[Decisions]) -> Iterator[Decisions]:
    yield first
    yield from rest


def _episode_rows(chunk: Decisions) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The chunk's rows episode by episode (one seat in one game, decisions in order),
    and where each episode ends in them."""
    key = chunk.game.astype(np.int64) * 16 + chunk.player
    order = np.argsort(key, kind="stable")
    ends = np.append(np.flatnonzero(np.diff(key[order])) + 1, len(order)) if len(order) \
        else np.zeros(0, dtype=np.intp)
    return order, ends


def _episodes(chunk: Decisions) -> Iterator[tuple[npt.NDArray[Any], ...]]:
    """Each episode's observations (its last repeated), actions, rewards, terminations
    and masks (the last repeated): an EpisodeBuffer's fields."""
    obs = chunk.observations()
    order, ends = _episode_rows(chunk)
    for rows in np.split(order, ends[:-1]):
        term = np.zeros(len(rows), dtype=np.bool_)
        term[-1] = True
        yield (np.concatenate([obs[rows], obs[rows[-1:]]]),
               chunk.action[rows].astype(np.int64), chunk.reward[rows].astype(np.float64),
               term, np.concatenate([chunk.mask[rows], chunk.mask[rows[-1:]]]))


def _arrow_encoders() -> tuple[Any, Any, Any, Any] | None:
    """Minari's arrow column encoders, pyarrow's dataset module and the arrow storage
    class; None where this Minari has them elsewhere (its own route is taken then)."""
    try:
        import pyarrow as pa
        import pyarrow.dataset as pads
        from minari.dataset._storages.arrow_storage import (
            ArrowStorage,
            _encode_info,
            _encode_space,
        )
    except ImportError:
        return None
    return (pa, pads, (_encode_space, _encode_info), ArrowStorage)


def _write_arrow_chunk(storage: Any, chunk: Decisions, spaces: tuple[Any, Any],
                       encoders: Any, first_id: int) -> tuple[int, npt.NDArray[np.int64]]:
    """The chunk's episodes written in one call, as Minari's ArrowStorage.update_episodes
    writes each: a row per observation, the actions, rewards and flags padded with a zero
    row at each episode's end, partitioned by episode id. The episodes and their steps."""
    pa, pads, (encode_space, encode_info), arrow_storage = encoders
    if type(storage) is not arrow_storage:
        raise TypeError(f"expected Minari's arrow storage, got {type(storage).__name__}")
    order, ends = _episode_rows(chunk)
    n = len(ends)
    steps = np.diff(ends, prepend=0)
    if not n:
        return 0, steps
    # each episode's rows, then its last row again: the final observation, and the pad
    # row of the rest
    rows = np.insert(order, ends, order[ends - 1])
    pad = ends + np.arange(n)
    real = np.ones(len(rows), dtype=np.bool_)
    real[pad] = False
    actions = np.where(real, chunk.action[rows], 0).astype(np.int64)
    rewards = np.where(real, chunk.reward[rows], 0).astype(np.float64)
    terminations = np.zeros(len(rows), dtype=np.bool_)
    terminations[pad - 1] = True
    batch = pa.RecordBatch.from_pydict({
        "episode_id": np.repeat(np.arange(first_id, first_id + n, dtype=np.int32), steps + 1),
        "observations": encode_space(spaces[0], chunk.observations()[rows],
                                     jpeg_encoding=storage._jpeg_encoding),
        "actions": encode_space(spaces[1], actions, jpeg_encoding=storage._jpeg_encoding),
        "rewards": rewards,
        "terminations": terminations,
        "truncations": np.zeros(len(rows), dtype=np.bool_),
        "infos": encode_info({"action_mask": chunk.mask[rows]})})
    pads.write_dataset(batch, storage.data_path, format=storage.FORMAT,
                       partitioning=["episode_id"], existing_data_behavior="overwrite_or_ignore",
                       basename_template=f"part-{first_id}-{{i}}.arrow", max_partitions=n + 1,
                       preserve_order=True)
    return n, steps
