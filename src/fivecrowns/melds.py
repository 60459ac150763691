"""What the solver returns: melds, solutions, discards.

A :class:`Meld` is laid out as a player would put it on the table: a run in rank
order, each wild at the place of the card it stands for; a book with its natural
cards first.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Card, Rank, Suit, card_value, format_cards

__all__ = ["MeldKind", "Meld", "Solution", "Discard", "leftover_value"]


class MeldKind(enum.Enum):
    """BOOK: cards of one rank; RUN: consecutive ranks of one suit."""

    BOOK = "book"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A book or a run of three or more cards.

    Attributes
    ----------
    kind : MeldKind
    cards : tuple of Card
        The cards as laid out; in a run, ``cards[i]`` stands at rank ``start + i``.
    suit : Suit or None
        A run's suit; ``None`` for a book.
    rank : Rank or None
        A run's first rank (``start``) or a book's rank; ``None`` for a book of wilds only.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    suit: Suit | None = None
    rank: Rank | None = None

    @property
    def start(self) -> int | None:
        """First rank of a run; ``None`` for a book."""
        return int(self.rank) if self.kind is MeldKind.RUN and self.rank is not None else None

    @property
    def end(self) -> int | None:
        """Last rank of a run; ``None`` for a book."""
        start = self.start
        return None if start is None else start + len(self.cards) - 1

    @property
    def stands_for(self) -> tuple[Card | Rank | None, ...]:
        """What each card stands for: in a run the exact card of its place; in a book the
        book's rank (``None`` throughout a book of wilds only)."""
        if self.kind is MeldKind.RUN:
            assert self.rank is not None and self.suit is not None
            return tuple(Card(self.rank + i, self.suit) for i in range(len(self.cards)))
        return tuple(self.rank for _ in self.cards)

    def describe(self, wild: int, *, symbols: bool = True) -> str:
        """Text form, wilds followed by what they stand for: ``5♣ JK(6♣) 7♣``."""
        parts = []
        for card, meant in zip(self.cards, self.stands_for):
            text = card.symbol if symbols else str(card)
            if card.is_wild(wild) and meant is not None and meant != card:
                if isinstance(meant, Card):
                    text += f"({meant.symbol if symbols else str(meant)})"
                else:
                    text += f"({meant.label})"
            parts.append(text)
        return " ".join(parts)

    def __str__(self) -> str:
        return f"{self.kind.value} {format_cards(self.cards)}"


@dataclass(frozen=True)
class Solution:
    """An optimal partition of a hand.

    Attributes
    ----------
    deadwood : int
        Total value of the leftover cards: the least any partition achieves.
    melds : tuple of Meld
    leftover : tuple of Card
        The cards in no meld, sorted.
    wild : int
        The wild rank the hand was solved for.
    """

    deadwood: int
    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...]
    wild: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the hand, sorted."""
        return tuple(sorted([c for m in self.melds for c in m.cards] + list(self.leftover)))

    def describe(self, *, symbols: bool = True) -> str:
        """Several lines: one per meld, then the leftover cards and the deadwood."""
        lines = [f"{m.kind.value:4}  {m.describe(self.wild, symbols=symbols)}"
                 for m in self.melds]
        left = format_cards(self.leftover, symbols=symbols) or "-"
        lines.append(f"left  {left}")
        lines.append(f"deadwood {self.deadwood}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe(symbols=False)


@dataclass(frozen=True)
class Discard:
    """The best card to discard from a hand of n + 1 cards.

    Attributes
    ----------
    card : Card
        The card to discard.
    deadwood : int
        Deadwood of the hand without ``card``: 0 means the player can go out.
    solution : Solution
        An optimal partition of the hand without ``card``; laid out on first access, so
        a bot that only needs the card and the deadwood never pays for it.
    """

    card: Card
    deadwood: int
    _layout: Callable[[], Solution] = field(repr=False, compare=False)

    @cached_property
    def solution(self) -> Solution:
        """An optimal partition of the hand without :attr:`card`."""
        return self._layout()


def leftover_value(cards: tuple[Card, ...], wild: int) -> int:
    """Total deadwood value of ``cards``."""
    return sum(card_value(c, wild) for c in cards)
