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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._checks import check_int
from ._decisions_minari import _arrow_encoders, _chained, _episodes, _write_arrow_chunk
from ._decisions_record import (
    _ARRAYS,
    _DEFAULT_CHUNK,
    FORMAT_VERSION,
    DecisionFile,
    Decisions,
    _check_run,
    _chunks,
    _empty,
)
from ._npz import npz_array, npz_meta, open_npz, refusal, write_array
from ._sigint import sigint_held
from ._version import VERSION
from .actions import N_ACTIONS
from .errors import Interrupted
from .rollout import Policy
from .rules import Rules
from .runner import ProgressCallback
from .seeding import SeedLike

__all__ = ["Decisions", "DecisionFile", "record_decisions", "write_decisions",
           "iter_decisions", "load_decisions", "to_minari", "FORMAT_VERSION"]


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
                                write_array(zf, f"c{chunks:05d}.{name}", value)
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
                write_array(zf, "meta", np.array(json.dumps(meta)))
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


_DECISIONS = "a decisions file"
_FROM_WRITE = "a file from write_decisions"
# The arrays every chunk holds (``features`` only when recorded).
_OPTIONAL = ("features",)
# What the meta of a decisions file names: without them the chunks cannot be read back.
_META_KEYS = ("format", "games", "chunks", "decisions", "n_players", "decks",
              "return_discard", "max_turns", "rounds", "first_dealer", "policy", "features")


def _meta(data: Any, path: Path) -> dict[str, Any]:
    meta = npz_meta(data, path, _DECISIONS, _FROM_WRITE)
    if "format" not in meta:
        raise refusal(path, _DECISIONS, "it holds LearnedBot weights"
                   if {"mean", "w0"} <= set(data.files) else "its meta names no format",
                   _FROM_WRITE)
    if meta.get("format") != FORMAT_VERSION:
        raise ValueError(f"{path}: decisions format {meta.get('format')!r}, this "
                         f"version reads {FORMAT_VERSION}")
    missing = [k for k in _META_KEYS if k not in meta]
    if missing:
        raise refusal(path, _DECISIONS, f"its meta lacks {missing[0]!r}", _FROM_WRITE)
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
    with open_npz(src, _DECISIONS, _FROM_WRITE) as data:
        meta = _meta(data, src)
        wanted = range(meta["chunks"]) if chunks is None else list(chunks)
        for c in wanted:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) \
                    or not 0 <= c < meta["chunks"]:
                raise ValueError(f"{src.name}: chunks must be chunk numbers "
                                 f"0..{meta['chunks'] - 1}, got {c!r}")
            kw: dict[str, Any] = {
                name: None if name in _OPTIONAL and f"c{c:05d}.{name}" not in data.files
                else npz_array(data, f"c{c:05d}.{name}", src, _DECISIONS, _FROM_WRITE)
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
    with open_npz(src, _DECISIONS, _FROM_WRITE) as data:
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

