"""The two enums every card builds on: :class:`Suit` and :class:`Rank`.

They sit below :mod:`fivecrowns.cards` (which re-exports them) so that the input checks
of :mod:`fivecrowns._checks` can recognise a :class:`Rank` without importing the cards
module, which imports those checks.
"""

from __future__ import annotations

import enum

__all__ = ["Suit", "Rank"]


class Suit(enum.IntEnum):
    """The five suits, in the order that defines card indices."""

    # Their public home is fivecrowns.cards: pickles and the docs name it, as in 0.2.
    __module__ = "fivecrowns.cards"

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    STARS = 4

    @property
    def letter(self) -> str:
        """One-letter code: C, D, H, S or T."""
        return "CDHST"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠ ★."""
        return "♣♦♥♠★"[self]


class Rank(enum.IntEnum):
    """Ranks 3..13; J, Q, K are 11, 12, 13."""

    __module__ = "fivecrowns.cards"

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """Text form: ``3``..``10``, ``J``, ``Q``, ``K``."""
        return {11: "J", 12: "Q", 13: "K"}.get(int(self), str(int(self)))
