"""The melds of a solved hand laid out with its cards: the solver's answer (a plan of runs
by span and booked ranks, and the deadwood) made into a
:class:`~fivecrowns.melds.Solution` (docs/rules.rst, Melds). Wilds go where a meld lacks
a card, jokers last, so that the cheapest wilds are the ones left over; wilds that no meld
needs are put into one anyway, since spare wilds cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .cards import Card, Rank, Suit
from .melds import Meld, MeldKind, Solution

__all__ = ["assemble"]

# Cards, suits and ranks by number: assemble runs in bots' loops, and these skip the
# argument checks of Card.from_index, Suit(...) and Rank(...).
_CARDS: tuple[Card, ...] = tuple(Card.from_index(t) for t in range(56))
_SUITS: tuple[Suit, ...] = tuple(Suit(s) for s in range(5))
_RANKS: dict[int, Rank] = {r: Rank(r) for r in range(3, 14)}


def assemble(row: npt.NDArray[np.uint8], wild: int, dead: int,
              runs: Sequence[tuple[int, int, int]], books: Sequence[int]) -> Solution:
    """Lay out the melds of a plan (runs by span, booked ranks) with the hand's cards."""
    left: list[int] = row.tolist()
    w = wild - 3
    # Leftover wilds should be the cheap ones, so melds take jokers last.
    wilds = [_CARDS[s * 11 + w] for s in range(5) for _ in range(left[s * 11 + w])]
    wilds += [Card.JOKER] * left[55]
    for s in range(5):
        left[s * 11 + w] = 0
    left[55] = 0

    def take_wild() -> Card:
        return wilds.pop(0)

    run_cards: list[list[Card]] = []
    run_specs: list[tuple[int, int]] = []  # (suit, first rank) of each laid-out run
    for suit, lo, hi in runs:
        cards: list[Card] = []
        for rank in range(lo, hi + 1):
            t = suit * 11 + rank - 3
            if left[t] > 0:
                left[t] -= 1
                cards.append(_CARDS[t])
            else:
                cards.append(take_wild())
        start = lo
        while len(cards) < 3:  # a short run is padded on whichever side has room
            if start + len(cards) <= 13:
                cards.append(take_wild())
            else:
                start -= 1
                cards.insert(0, take_wild())
        run_cards.append(cards)
        run_specs.append((suit, start))
    book_cards: list[list[Card]] = []
    for rank in books:
        cards = []
        for s in range(5):
            t = s * 11 + rank - 3
            cards.extend([_CARDS[t]] * left[t])
            left[t] = 0
        while len(cards) < 3:
            cards.append(take_wild())
        book_cards.append(cards)
    wild_book: list[Card] = []
    if wilds and (run_cards or book_cards):
        _place_spare_wilds(wilds, run_cards, run_specs, book_cards, wild_book)
    elif len(wilds) >= 3:
        wild_book, wilds = wilds, []
    melds = [Meld(MeldKind.RUN, tuple(c), _SUITS[s], _RANKS[start])
             for c, (s, start) in zip(run_cards, run_specs)]
    melds += [Meld(MeldKind.BOOK, tuple(c), None, _RANKS[r]) for c, r in zip(book_cards, books)]
    if wild_book:
        melds.append(Meld(MeldKind.BOOK, tuple(wild_book), None, None))
    # Cards sort by their index: sort the numbers, then look the cards up.
    kept = [t for t in range(56) if left[t] for _ in range(left[t])]
    kept += [c.index for c in wilds]
    leftover = tuple([_CARDS[t] for t in sorted(kept)])
    return Solution(dead, tuple(melds), leftover, wild)


def _place_spare_wilds(wilds: list[Card], runs: list[list[Card]], specs: list[tuple[int, int]],
                       books: list[list[Card]], wild_book: list[Card]) -> None:
    """Put wilds that no meld needs into melds (spare wilds cost nothing: docs/rules.rst,
    Melds)."""
    if books:
        books[0].extend(wilds)
    elif len(wilds) >= 3:
        wild_book.extend(wilds)
    else:
        while wilds:
            for k, cards in enumerate(runs):
                if len(cards) < 11:
                    suit, start = specs[k]
                    if start + len(cards) <= 13:
                        cards.append(wilds.pop())
                    else:
                        cards.insert(0, wilds.pop())
                        specs[k] = (suit, start - 1)
                    break
            else:
                # Every run spans 3..K: split one into 3..8 and 9..K, which both have room.
                suit, _ = specs[0]
                runs.append(runs[0][6:])
                specs.append((suit, 9))
                runs[0] = runs[0][:6]
    wilds.clear()
