"""Input checks shared by both solver implementations.

The compiled core checks its inputs in C and, only when something is wrong, calls
these functions to raise, so both implementations raise the very same messages.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import HandError

__all__ = ["MAX_HAND_SIZE", "check_wild", "check_wild_array", "check_decks", "check_row",
           "check_batch"]

#: Most cards a solver call takes: a 13-card hand, the drawn card, and slack for tests
#: and variants. Bigger inputs are rejected rather than risk a slow search.
MAX_HAND_SIZE = 20

_SUIT_LETTERS = "CDHST"
_LABELS = {11: "J", 12: "Q", 13: "K"}


def type_name(index: int) -> str:
    """Short text of card type ``index`` (for messages)."""
    if index == 55:
        return "JK"
    rank = index % 11 + 3
    return f"{_LABELS.get(rank, str(rank))}{_SUIT_LETTERS[index // 11]}"


def check_wild(wild: Any) -> int:
    """The wild rank as an int 3..13, or raise."""
    if isinstance(wild, (bool, np.bool_)) or not isinstance(wild, (int, np.integer)):
        raise TypeError(f"wild must be a rank 3..13 (int or Rank), got {type(wild).__name__}")
    if not 3 <= wild <= 13:
        raise ValueError(f"wild must be a rank 3..13, got {int(wild)}")
    return int(wild)


def check_decks(decks: Any) -> int:
    """The number of decks, 2 or 4, or raise."""
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
        raise TypeError(f"decks must be 2 or 4, got {type(decks).__name__}")
    if decks not in (2, 4):
        raise ValueError(f"decks must be 2 (standard) or 4 (party mode), got {decks}")
    return int(decks)


def _copies_problem(row: np.ndarray, decks: int) -> str | None:
    over = np.flatnonzero(row[:55] > decks)
    if over.size:
        i = int(over[0])
        return (f"the hand holds {int(row[i])} copies of {type_name(i)}, "
                f"but {decks} decks hold only {decks}")
    if row[55] > 3 * decks:
        return (f"the hand holds {int(row[55])} jokers, "
                f"but {decks} decks hold only {3 * decks}")
    return None


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


def check_wild_array(wilds: Any, n: int) -> None:
    """Raise unless ``wilds`` is an (n,) integer array of ranks 3..13."""
    if not isinstance(wilds, np.ndarray) or wilds.shape != (n,):
        shape = getattr(wilds, "shape", None)
        raise ValueError(f"wild must be an int or an array of shape ({n},), got shape {shape}")
    if not np.issubdtype(wilds.dtype, np.integer):
        raise TypeError(f"wild must be an int or an integer array, got dtype {wilds.dtype}")
    bad = np.flatnonzero((wilds < 3) | (wilds > 13))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"wild[{i}] must be a rank 3..13, got {int(wilds[i])}")


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
    sizes = counts.sum(axis=1, dtype=np.int64)
    for i in range(counts.shape[0]):
        problem = (_copies_problem(counts[i], decks)
                   or _size_problem(int(sizes[i]), min_cards, max_cards))
        if problem:
            raise HandError(f"hand {i}: {problem}")
