"""Every way fivecrowns turns a seed into randomness, in one place.

Randomness comes only from an explicit seed or :class:`numpy.random.Generator`; there is
no global state, so the same seed gives the same game on every platform. The named
derivations below are the schemes the simulators use to give each game, deal and bot its
own stream: recorded results depend on them, so each is written once, here.

>>> game_seeds(1, 3) == game_seeds(1, 3)
True
>>> bool(make_rng(3).integers(100) == make_rng(3).integers(100))
True
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Union, overload

import numpy as np

__all__ = [
    "SeedLike",
    "make_rng",
    "check_seed",
    "int_seed",
    "game_seeds",
    "game_seeds_range",
    "GameSeeds",
    "bot_seeds",
    "solitaire_streams",
    "play_seeds",
]

#: What a shuffle accepts: an int seed, a :class:`numpy.random.SeedSequence`, or a
#: :class:`numpy.random.Generator` (used as is, and advanced).
SeedLike = Union[int, np.integer, np.random.SeedSequence, np.random.Generator]


def check_seed(seed: object, name: str = "seed") -> SeedLike:
    """Return ``seed`` if it is a :data:`SeedLike`, else raise a ``TypeError`` or
    ``ValueError`` that says what is expected.

    >>> check_seed(5)
    5
    """
    if seed is None:
        raise TypeError(f"{name} is required: pass an int, a numpy.random.SeedSequence or a "
                        f"numpy.random.Generator (fivecrowns never shuffles from hidden or "
                        f"global state)")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(
            seed, (int, np.integer, np.random.SeedSequence, np.random.Generator)):
        raise TypeError(f"{name} must be an int, a numpy.random.SeedSequence or a "
                        f"numpy.random.Generator, got {type(seed).__name__}")
    if isinstance(seed, (int, np.integer)) and seed < 0:
        raise ValueError(f"{name} must be a non-negative int, got {seed}")
    return seed


def int_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an int, for what records its seed or derives seeds from it (a game, the
    simulators, the compiled engine), or raise as :func:`check_seed` does.

    An int is itself. A :class:`~numpy.random.SeedSequence` or a
    :class:`~numpy.random.Generator` gives one 63-bit int drawn from it (the Generator is
    advanced), so every function that takes a ``seed`` takes the same kinds; the int is
    what the game records, and replaying it gives the same game.

    >>> int_seed(7), int_seed(np.random.SeedSequence(7)) == int_seed(np.random.SeedSequence(7))
    (7, True)
    """
    seed = check_seed(seed, name)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(1 << 63))
    if isinstance(seed, np.random.SeedSequence):
        return _ints(seed, 1)[0]
    return int(seed)


def make_rng(seed: SeedLike) -> np.random.Generator:
    """``numpy.random.default_rng(seed)``, refusing ``None`` and other hidden-state sources.

    A :class:`~numpy.random.Generator` is returned as is (and advanced by its user).

    >>> make_rng(None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: seed is required: pass an int, a numpy.random.SeedSequence or ...
    """
    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _ints(seq: np.random.SeedSequence, n: int) -> list[int]:
    # 63-bit ints: they fit a signed 64-bit field in any record or language.
    return [int(s) >> 1 for s in seq.generate_state(n, dtype=np.uint64)]


# SeedSequence.generate_state's output hash (numpy's, from O'Neill's seed_seq_fe): 32-bit
# word i is pool[i % pool_size] mixed with the constant INIT_B * MULT_B**i (mod 2**32).
# Written here only to compute words start..stop without the words before them: a run of
# 10**8 games would otherwise hold 10**8 seeds. The tests check it against numpy's.
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_XSHIFT = 16


def _state_range(seq: np.random.SeedSequence, start: int, stop: int) -> list[int]:
    """``seq.generate_state(n, dtype=np.uint64)[start:stop]`` for any ``n >= stop``."""
    if stop <= start:
        return []
    first, count = 2 * start, 2 * (stop - start)  # uint64 j is 32-bit words 2j, 2j + 1
    steps = np.full(count + 1, _MULT_B, dtype=np.uint32)
    steps[0] = _INIT_B * pow(_MULT_B, first, 1 << 32) % (1 << 32)
    consts = np.multiply.accumulate(steps, dtype=np.uint32)  # wraps mod 2**32, as C does
    pool = np.asarray(seq.pool, dtype=np.uint32)
    words = pool[np.arange(first, first + count) % len(pool)] ^ consts[:-1]
    words *= consts[1:]
    words ^= words >> np.uint32(_XSHIFT)
    values = words[0::2].astype(np.uint64) | (words[1::2].astype(np.uint64) << np.uint64(32))
    return (values >> np.uint64(1)).tolist()


def game_seeds(seed: int, games: int) -> list[int]:
    """The deal seeds of a run of ``games`` games, derived from ``seed``.

    Game ``g`` of a simulation is dealt from ``game_seeds(seed, games)[g]``; the list's
    first entries do not depend on ``games``.

    >>> game_seeds(1, 2) == game_seeds(1, 5)[:2], len(set(game_seeds(1, 100)))
    (True, 100)
    """
    return _ints(np.random.SeedSequence(int(seed)), games)


def game_seeds_range(seed: int, start: int, stop: int) -> list[int]:
    """``game_seeds(seed, games)[start:stop]`` (for any ``games >= stop``), computed
    without the seeds before ``start``: how a long run deals its games chunk by chunk in
    bounded memory.

    >>> game_seeds_range(1, 3, 5) == game_seeds(1, 5)[3:5]
    True
    """
    if start < 0 or stop < 0:
        raise ValueError(f"start and stop must be non-negative, got {start} and {stop}")
    return _state_range(np.random.SeedSequence(int(seed)), int(start), int(stop))


class GameSeeds(Sequence[int]):
    """``game_seeds(seed, games)`` as a sequence whose entries are computed when read, a
    block at a time (:func:`game_seeds_range`): a simulator reads its games' seeds as it
    plays them, so a long run never holds every seed at once, and a count too large for
    memory fails on what the run keeps, not on its seeds.

    >>> seeds = GameSeeds(1, 10**12)
    >>> len(seeds), seeds[3] == game_seeds(1, 5)[3], seeds[1:3] == game_seeds(1, 3)[1:]
    (1000000000000, True, True)
    """

    #: Seeds computed together (about 10 microseconds a block plus 0.1 a seed).
    BLOCK = 4096

    def __init__(self, seed: int, games: int) -> None:
        self.seed, self.games = int(seed), int(games)
        self._start, self._block = 0, list[int]()

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            start, stop, step = i.indices(self.games)
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            out: list[int] = []
            for a in range(start, stop, self.BLOCK):  # bounded temporaries for any slice
                out += game_seeds_range(self.seed, a, min(a + self.BLOCK, stop))
            return out
        if not -self.games <= i < self.games:
            raise IndexError(i)
        i %= self.games
        if not self._start <= i < self._start + len(self._block):
            self._start = i - i % self.BLOCK
            self._block = game_seeds_range(self.seed, self._start,
                                           min(self._start + self.BLOCK, self.games))
        return self._block[i - self._start]


def bot_seeds(seed: int, game: int, k: int) -> list[int]:
    """The seeds of the ``k`` entrants' bots in game ``game`` of a simulation seeded ``seed``.

    Entrant ``e`` of game ``g`` is made by ``factory(bot_seeds(seed, g, k)[e])``, so a bot's
    randomness depends on the simulation's seed, the game and the entrant, not on the seat
    or the worker that plays it.

    >>> bot_seeds(1, 0, 3) == bot_seeds(1, 0, 3), bot_seeds(1, 0, 3) != bot_seeds(1, 1, 3)
    (True, True)
    """
    base = _ints(np.random.SeedSequence([int(seed), 1]), 1)[0]
    return _ints(np.random.SeedSequence([base, int(game)]), k)


def solitaire_streams(seed: SeedLike) -> tuple[SeedLike, np.random.Generator]:
    """The deal's seed and the strategy's generator of a solitaire game seeded ``seed``.

    An int or SeedSequence is spawned into two independent streams, the deal's and the
    strategy's; a Generator serves both (it is advanced by each in turn).

    >>> deal, rng = solitaire_streams(11)
    >>> isinstance(deal, np.random.SeedSequence), isinstance(rng, np.random.Generator)
    (True, True)
    """
    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed, seed
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))
    deal, own = seq.spawn(2)
    return deal, np.random.default_rng(own)


def play_seeds(seed: int, game: int, k: int) -> list[int]:
    """The seeds of the ``k`` bots of an interactive game (``fivecrowns play``).

    >>> len(play_seeds(7, 0, 3))
    3
    """
    return _ints(np.random.SeedSequence([int(seed), 7, int(game)]), k)


_ANY_SEED = np.random.SeedSequence(0)


def _copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state: what ``copy.deepcopy`` gives, about
    four times faster (rounds are cloned for every rollout of a search)."""
    bits = rng.bit_generator
    try:
        twin = type(bits)(_ANY_SEED)
        twin.state = bits.state
    except Exception:  # a bit generator that cannot be built from a SeedSequence
        return copy.deepcopy(rng)
    return np.random.Generator(twin)


def _deepcopy_rng(rng: np.random.Generator, memo: dict[int, Any]) -> np.random.Generator:
    """``copy.deepcopy(rng, memo)``, as fast as :func:`_copy_rng`: one copy per generator
    and memo, so objects that share a generator (a game and its round's deck) still share
    one in the copy."""
    twin: np.random.Generator | None = memo.get(id(rng))
    if twin is None:
        twin = memo[id(rng)] = _copy_rng(rng)
        # As copy.deepcopy does: keep the original alive while the memo names it by id.
        memo.setdefault(id(memo), []).append(rng)
    return twin
