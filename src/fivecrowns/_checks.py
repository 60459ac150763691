"""Argument checks, written once: every public function checks its arguments with these
rules (docs/conventions.rst, Argument checks and errors).

- An int is a Python ``int`` or a NumPy integer, never a ``bool`` or ``numpy.bool_``
  (:func:`is_int`, :func:`check_int`); a count is an int of at least its least value; a
  seat is an int ``0..n - 1`` (:func:`check_seat`); a thread count is ``None`` or an int
  of at least 1 (:func:`check_threads`); a wild rank is 3..13 or its name.
- A value of the wrong kind raises ``TypeError``, a value out of range ``ValueError``; the
  message reads ``"<name> must be <expected>, got <value>"``.

The solver's input checks are here too: the compiled core checks its inputs in C and,
only when something is wrong, calls these functions to raise, so both implementations
raise the very same messages.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec

import numpy as np
import numpy.typing as npt

from ._enums import Rank
from .errors import HandError
from .rules import N_ROUNDS, Rules, deck_counts
from .seeding import int_seed

__all__ = ["MAX_HAND_SIZE", "is_int", "check_int", "check_seat", "check_threads",
           "available_cores", "default_threads", "check_wild", "check_wild_array",
           "check_decks", "copy_limits", "check_row", "check_batch", "check_batch_row",
           "check_counts_array",
           "shorten", "type_name", "passes", "check_table"]


#: Most cards a solver call takes: a 13-card hand, the drawn card, and slack for tests
#: and variants. Bigger inputs are rejected rather than risk a slow search.
MAX_HAND_SIZE = 20
#: Most worker threads a call takes.
MAX_THREADS = 2**31 - 1

_SUIT_LETTERS = "CDHST"
_LABELS = {11: "J", 12: "Q", 13: "K"}


def type_name(index: int) -> str:
    """Short text of card type ``index`` (for messages)."""
    if index == 55:
        return "JK"
    rank = index % 11 + 3
    return f"{_LABELS.get(rank, str(rank))}{_SUIT_LETTERS[index // 11]}"


_RANK_NAMES = {str(r): r for r in range(3, 11)} | {"J": 11, "Q": 12, "K": 13}


def is_int(value: Any) -> bool:
    """True for a Python or numpy integer (bools excluded): one rule for every int argument.

    >>> is_int(3), is_int(np.int8(3)), is_int(True), is_int(np.bool_(True)), is_int(3.0)
    (True, True, False, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(value: Any, name: str, least: int | None = None,
              most: int | None = None) -> int:
    """``value`` as an int, or raise: ``TypeError`` unless :func:`is_int`, ``ValueError``
    below ``least`` or above ``most``.

    >>> check_int(np.int64(4), "games", 1)
    4
    >>> check_int(0, "games", 1)
    Traceback (most recent call last):
    ...
    ValueError: games must be at least 1, got 0
    >>> check_int(2.0, "games")
    Traceback (most recent call last):
    ...
    TypeError: games must be an int, got float
    """
    if not is_int(value):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if least is not None and value < least:
        raise ValueError(f"{name} must be at least {least}, got {int(value)}")
    if most is not None and value > most:
        raise ValueError(f"{name} must be at most {most}, got {int(value)}")
    return int(value)


def check_seat(value: Any, n: int, name: str = "player") -> int:
    """``value`` as a seat ``0..n - 1``, or raise.

    >>> check_seat(5, 3)
    Traceback (most recent call last):
    ...
    ValueError: player must be a seat 0..2, got 5
    """
    if not is_int(value):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not 0 <= value < n:
        raise ValueError(f"{name} must be a seat 0..{n - 1}, got {int(value)}")
    return int(value)


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_threads(threads: Any, n: int, serial: int) -> int:
    """The threads for ``n`` items: ``threads`` checked, or when ``None``, one below
    ``serial`` items (starting threads would cost more) and every available core from
    there."""
    wanted = check_threads(threads)
    if wanted is not None:
        return wanted
    return 1 if n < serial else available_cores()


def check_wild(wild: Any) -> int:
    """The wild rank as an int 3..13, or raise.

    Accepted: an int or numpy integer, a :class:`~fivecrowns.Rank`, or a rank's name
    (``"K"``, ``"10"``, ``"q"``). Any other enum, a :class:`~fivecrowns.Suit` among them,
    is a ``TypeError``.
    """
    if isinstance(wild, str):
        rank = _RANK_NAMES.get(wild.strip().upper() if wild.isascii() else wild)
        if rank is None:
            raise ValueError(f"wild must be a rank 3..13 or its name (3..10, J, Q, K), "
                             f"got {shorten(wild)!r}")
        return rank
    if isinstance(wild, enum.Enum) and not isinstance(wild, Rank):
        raise TypeError(f"wild must be a rank 3..13 (int, Rank or rank name), "
                        f"got {type(wild).__name__}.{wild.name}")
    if not is_int(wild):
        raise TypeError(f"wild must be a rank 3..13 (int, Rank or rank name), "
                        f"got {type(wild).__name__}")
    if not 3 <= wild <= 13:
        raise ValueError(f"wild must be a rank 3..13, got {int(wild)}")
    return int(wild)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to its first ``limit`` characters (and "...") for an error message."""
    return text if len(text) <= limit else text[:limit] + "..."


def check_decks(decks: Any) -> int:
    """The number of decks, 2 or 4, or raise."""
    if not is_int(decks):
        raise TypeError(f"decks must be 2 or 4, got {type(decks).__name__}")
    if decks not in (2, 4):
        raise ValueError(f"decks must be 2 (standard) or 4 (party mode), got {decks}")
    return int(decks)


def _limits(decks: int) -> npt.NDArray[np.uint8]:
    limits = np.array(deck_counts(decks), dtype=np.uint8)
    limits.setflags(write=False)
    return limits


# Built once for the decks a game plays: the checks run on every solver call
_LIMITS = {decks: _limits(decks) for decks in (2, 4)}


def copy_limits(decks: int) -> npt.NDArray[np.uint8]:
    """The most copies of each card type 0..55 that ``decks`` decks hold, as a read-only
    (56,) uint8 array: :func:`fivecrowns.rules.deck_counts`, which every copy check here
    compares counts with.

    >>> copy_limits(2)[[0, 54, 55]].tolist()
    [2, 2, 6]
    """
    limits = _LIMITS.get(decks)
    return _limits(decks) if limits is None else limits


def _copies_problem(row: np.ndarray, decks: int) -> str | None:
    limits = copy_limits(decks)
    over = np.flatnonzero(row > limits)
    if not over.size:
        return None
    i = int(over[0])
    if i == 55:
        return (f"the hand holds {int(row[i])} jokers, "
                f"but {decks} decks hold only {int(limits[i])}")
    return (f"the hand holds {int(row[i])} copies of {type_name(i)}, "
            f"but {decks} decks hold only {int(limits[i])}")


def _size_problem(size: int, min_cards: int, max_cards: int) -> str | None:
    if size < min_cards:
        return f"the hand must hold at least {min_cards} card(s), got {size}"
    if size > max_cards:
        return f"the hand must hold at most {max_cards} cards, got {size}"
    return None


def check_row(row: Any, decks: int, min_cards: int = 0,
              max_cards: int = MAX_HAND_SIZE) -> None:
    """Raise unless ``row`` is a (56,) uint8 array of counts the deck can hold."""
    if not isinstance(row, np.ndarray):
        raise TypeError(f"counts must be a numpy array, got {type(row).__name__}")
    if row.dtype != np.uint8:
        raise TypeError(f"counts must have dtype uint8, got {row.dtype}")
    if row.shape != (56,):
        raise ValueError(f"counts must have shape (56,), got {row.shape}")
    problem = _copies_problem(row, decks) or _size_problem(int(row.sum()), min_cards, max_cards)
    if problem:
        raise HandError(problem)


def _integer_kind(dtype: np.dtype) -> bool:
    """True for the integer dtypes: not bool, not timedelta or datetime."""
    return dtype.kind in "iu"


def check_wild_array(wilds: Any, n: int) -> None:
    """Raise unless ``wilds`` is an (n,) integer array of ranks 3..13."""
    if isinstance(wilds, np.ma.MaskedArray):
        raise TypeError("wild must not be a masked array: a masked entry has no rank; "
                        "fill it first (wild.filled(...))")
    if not isinstance(wilds, np.ndarray) or wilds.shape != (n,):
        shape = getattr(wilds, "shape", None)
        raise ValueError(f"wild must be an int or an array of shape ({n},), got shape {shape}")
    if not _integer_kind(wilds.dtype):
        raise TypeError(f"wild must be an int or an integer array, got dtype {wilds.dtype}")
    bad = np.flatnonzero((wilds < 3) | (wilds > 13))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"wild[{i}] must be a rank 3..13, got {int(wilds[i])}")


def check_counts_array(counts: Any, ndim: int, decks: int, values: bool = True) -> None:
    """Raise unless ``counts`` is an integer array of ``ndim`` dimensions (the last of 56)
    whose counts fit a deck: no negatives, no count above what ``decks`` decks hold of
    any card (the jokers' count, :func:`copy_limits`). What fits is converted to ``uint8``
    losslessly.
    ``values=False`` checks only the type, dtype and shape.
    """
    want = "(56,)" if ndim == 1 else "(N, 56)"
    if isinstance(counts, np.ma.MaskedArray):
        raise TypeError("counts must not be a masked array: the solver would read the masked "
                        "entries too; pass counts.filled(0) or select the rows you mean")
    if not isinstance(counts, np.ndarray):
        raise TypeError(f"counts must be a numpy array of shape {want}, "
                        f"got {type(counts).__name__}")
    if not _integer_kind(counts.dtype):
        hint = ("; convert with counts.astype(np.uint8) once the values are whole"
                if counts.dtype.kind == "f" else "")
        raise TypeError(f"counts must have an integer dtype (uint8 is fastest), "
                        f"got {counts.dtype}{hint}")
    if counts.ndim != ndim or counts.shape[-1] != 56:
        raise ValueError(f"counts must have shape {want}, got {counts.shape}")
    if not values or counts.dtype == np.uint8 or counts.size == 0:
        return
    most = int(copy_limits(decks).max())
    bad = np.flatnonzero(((counts < 0) | (counts > most)).reshape(-1))
    if bad.size:
        flat = int(bad[0])
        value = int(counts.reshape(-1)[flat])
        where = type_name(flat % 56) if ndim == 1 else f"hand {flat // 56}, {type_name(flat % 56)}"
        raise HandError(f"counts must be 0..{most} ({decks} decks), "
                        f"got {value} ({where})")


def check_threads(threads: Any) -> int | None:
    """``threads`` as an int >= 1 or None, or raise."""
    if threads is None:
        return None
    if not is_int(threads):
        raise TypeError(f"threads must be an int or None, got {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {int(threads)}")
    if threads > MAX_THREADS:  # the compiled core counts them in a C int
        raise ValueError(f"threads must be at most {MAX_THREADS}, got {int(threads)}")
    return int(threads)


def check_batch_row(row: np.ndarray, wild: int, i: int, decks: int, min_cards: int = 0,
                    max_cards: int = MAX_HAND_SIZE) -> None:
    """Raise for hand ``i`` of a batch, given alone (its counts and wild): the message of
    :func:`check_batch` without looking at the other rows."""
    if not 3 <= wild <= 13:
        raise ValueError(f"wild[{i}] must be a rank 3..13, got {wild}")
    problem = (_copies_problem(row, decks)
               or _size_problem(int(row.sum(dtype=np.int64)), min_cards, max_cards))
    if problem:
        raise HandError(f"hand {i}: {problem}")


def check_batch(counts: Any, wilds: Any, decks: int, min_cards: int = 0,
                max_cards: int = MAX_HAND_SIZE) -> None:
    """Raise unless ``counts`` is (N, 56) uint8 and ``wilds`` (N,) ranks 3..13, all valid."""
    if not isinstance(counts, np.ndarray):
        raise TypeError(f"counts must be a numpy array, got {type(counts).__name__}")
    if counts.dtype != np.uint8:
        raise TypeError(f"counts must have dtype uint8, got {counts.dtype}")
    if counts.ndim != 2 or counts.shape[1] != 56:
        raise ValueError(f"counts must have shape (N, 56), got {counts.shape}")
    check_wild_array(wilds, counts.shape[0])
    # Vectorised: find the first bad row, then describe it alone.
    over = (counts > copy_limits(decks)).any(axis=1)
    sizes = counts.sum(axis=1, dtype=np.int64)
    bad = np.flatnonzero(over | (sizes < min_cards) | (sizes > max_cards))
    if bad.size:
        i = int(bad[0])
        check_batch_row(counts[i], int(wilds[i]), i, decks, min_cards, max_cards)


_P = ParamSpec("_P")


def passes(check: Callable[_P, object], /, *args: _P.args, **kwargs: _P.kwargs) -> bool:
    """True if ``check(*args, **kwargs)`` raises no ``ValueError`` or ``TypeError``.

    Every error a simulator raises for a bad move is one of those (see
    :mod:`fivecrowns.errors`), so a ``can_*`` method is ``passes`` of its ``verify_*``.

    >>> passes(int, "12")
    True
    >>> passes(int, "twelve")
    False
    """
    try:
        check(*args, **kwargs)
    except (ValueError, TypeError):
        return False
    return True


def check_table(n_players: object, rules: object, *, least: int, what: str,
                note: str = "") -> Rules:
    """Validate ``rules`` (``None`` for the defaults) and a number of players
    ``least..rules.max_players``; return the rules.

    ``what`` names the table in messages ("a round", "a game"); ``note`` is appended to
    the message of a bad count.

    >>> check_table(3, None, least=2, what="a game")
    Rules(decks=2, max_turns=1000, tie_break=False, return_discard=False)
    >>> check_table(8, None, least=2, what="a game")
    Traceback (most recent call last):
    ...
    ValueError: a game takes 2 to 7 players with 2 decks, got 8
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise TypeError(f"n_players must be an int, got {type(n_players).__name__}")
    if not least <= n_players <= rules.max_players:
        raise ValueError(f"{what} takes {least} to {rules.max_players} players with "
                         f"{rules.decks} decks, got {n_players}{note}")
    return rules


def check_game(n_players: object, seed: Any, rules: object, rounds: Sequence[int] | None,
               first_dealer: object) -> tuple[Rules, tuple[int, ...], int, int]:
    """A game's arguments as every entrance checks them (:class:`~fivecrowns.Game`,
    ``play_game``, ``simulate_games``, ``play_games``, ``record_decisions``): its rules,
    its plan of round numbers, its seed as the int the record keeps (a Generator is
    advanced) and its first dealer (``TypeError``/``ValueError`` naming the bad one)."""
    rules = check_table(n_players, rules, least=2, what="a game",
                        note=" (one player plays solitaire)")
    plan = tuple(range(1, N_ROUNDS + 1)) if rounds is None else tuple(rounds)
    if not plan:
        raise ValueError("rounds must name at least one round")
    for r in plan:
        Rules.hand_size(r)  # raises for anything but an int 1..11
    first_dealer = check_seat(first_dealer, n_players, "first_dealer")  # type: ignore[arg-type]
    return rules, plan, int_seed(seed), first_dealer
