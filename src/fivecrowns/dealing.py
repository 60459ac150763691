"""Random hands in bulk: rows of 56 counts dealt from shuffled decks, for scoring in bulk.

>>> from fivecrowns import deadwood_many, random_hands
>>> hands = random_hands(1000, 13, seed=7)
>>> hands.shape, hands.dtype.name, int(hands.sum(axis=1).min())
((1000, 56), 'uint8', 13)
>>> deadwood_many(hands, 13).shape
(1000,)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._checks import check_decks, check_int
from ._deprecation import renamed_parameters
from ._state import rollout_core as _core
from .cards import N_TYPES
from .rules import sorted_deck
from .seeding import SeedLike, make_rng

# The same deal in C (the rollout engine links numpy's random library), unless the core
# is not built or FIVECROWNS_IMPLEMENTATION=python chooses the twins (fivecrowns._state).
_deal_hands = None if _core is None else _core.deal_hands

__all__ = ["random_hands"]

#: Hands dealt per block: the working arrays of a block stay a few megabytes, whatever n.
_BLOCK = 4096


def _deck(decks: int) -> npt.NDArray[np.uint8]:
    """The card type at each position of an unshuffled deck
    (:func:`fivecrowns.rules.sorted_deck`)."""
    return np.array(sorted_deck(decks), dtype=np.uint8)


@renamed_parameters(rng="seed")
def random_hands(n: int, size: int, *, decks: int = 2, seed: SeedLike) -> npt.NDArray[np.uint8]:
    """``n`` hands of ``size`` cards, each dealt from a freshly shuffled deck.

    Each hand is a uniform sample without replacement of the deck's positions (116 cards
    for two decks, 232 for four), so a card type with more copies is dealt more often;
    hands are independent of each other.

    Parameters
    ----------
    n : int
        Number of hands.
    size : int
        Cards per hand, 0 up to the whole deck.
    decks : int
        2, or 4 for party mode.
    seed : int, numpy SeedSequence or numpy Generator
        The randomness (keyword-only and required; see :doc:`/conventions`): the same
        seed gives the same hands.

    Returns
    -------
    ndarray of shape (n, 56) and dtype uint8
        One row of counts per hand, as :func:`~fivecrowns.deadwood_many` takes them.

    Notes
    -----
    Hands are dealt in blocks with a partial Fisher-Yates shuffle of a small array of
    card types per hand (the deck's 116 or 232 cards as bytes), so memory stays at the
    result plus a few megabytes. The compiled extension runs the same draws and swaps in
    C (about three times faster); a pure-Python install, or
    ``FIVECROWNS_IMPLEMENTATION=python``, deals the very same hands in NumPy.

    Examples
    --------
    >>> h = random_hands(3, 7, seed=1)
    >>> h.sum(axis=1).tolist()
    [7, 7, 7]
    >>> bool((random_hands(3, 7, seed=1) == h).all())
    True
    """
    decks = check_decks(decks)
    rng = make_rng(seed)
    deck = _deck(decks)
    n, size = check_int(n, "n", 0), check_int(size, "size")
    if not 0 <= size <= deck.size:
        raise ValueError(f"size must be 0..{deck.size} ({decks} decks), got {size}")
    out = np.zeros((n, N_TYPES), dtype=np.uint8)
    if _deal_hands is not None:
        _deal_hands(rng, deck, size, _BLOCK, out)
        return out
    for start in range(0, n, _BLOCK):
        rows = min(_BLOCK, n - start)
        _deal_block(rng, deck, size, out[start:start + rows])
    return out


def _deal_block(rng: np.random.Generator, deck: npt.NDArray[np.uint8], size: int,
                out: npt.NDArray[np.uint8]) -> None:
    """Deal ``out.shape[0]`` hands of ``size`` cards into ``out`` (zeros)."""
    rows = out.shape[0]
    cards = np.empty((rows, deck.size), dtype=np.uint8)  # each row: a deck's card types
    cards[:] = deck
    flat = cards.reshape(-1)
    row_start = np.arange(rows, dtype=np.intp) * deck.size
    for j in range(size):  # swap a uniform pick of places j.. into place j of each row
        at = row_start + rng.integers(j, deck.size, size=rows)
        chosen = flat[at]
        flat[at] = cards[:, j]
        cards[:, j] = chosen
    types = cards[:, :size].astype(np.intp)
    types += (np.arange(rows, dtype=np.intp) * N_TYPES)[:, None]
    out.reshape(-1)[:] = np.bincount(types.reshape(-1), minlength=rows * N_TYPES)
