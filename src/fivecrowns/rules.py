"""The configurable choices of the rules (docs/rules.rst), as one frozen dataclass.

>>> from fivecrowns import Rules
>>> r = Rules()
>>> r.n_cards, r.max_players, r.hand_size(11), r.wild_rank(1)
(116, 7, 13, 3)
>>> Rules(decks=4).n_cards
232

The deck's composition is written once, in :func:`deck_counts`; :class:`Rules`,
:mod:`fivecrowns.deck`, the round state's Python twin, :func:`~fivecrowns.random_hands`,
solitaire and the OpenSpiel game derive their decks from it:

>>> deck_counts(2)[:3], deck_counts(2)[55], len(sorted_deck(2))
((2, 2, 2), 6, 116)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

__all__ = ["Rules", "N_ROUNDS", "DEFAULT_MAX_TURNS", "deck_counts", "sorted_deck"]

#: Rounds in a full game.
N_ROUNDS = 11
#: Default safety limit on turns in one round (docs/rules.rst, A round, 6). Sensible players go out
#: long before: it only stops simulations of players that never go out.
DEFAULT_MAX_TURNS = 1000

# One deck (docs/rules.rst, Cards): one of each suited card, 5 suits of 3 to King, which
# are card types 0..54 (fivecrowns.cards; this module sits below it in the import order,
# so it cannot import the numbers), and 3 jokers, type 55.
_SUITED_TYPES = 5 * 11
_JOKERS_PER_DECK = 3
# The answers for up to 4 decks (the game's 2 and 4 among them), kept: Rules' properties
# and the round state ask for them on every new round
_CACHED_DECKS = 4
_COUNTS: dict[int, tuple[int, ...]] = {}
_SORTED: dict[int, tuple[int, ...]] = {}


def deck_counts(decks: int) -> tuple[int, ...]:
    """The copies of each card type 0..55 in ``decks`` decks: ``decks`` of each suited
    card, 3 jokers a deck (docs/rules.rst, Cards).

    The one place the Python code writes the deck's composition (the compiled core writes
    it once too, in its deal; tests/test_deck_one_place.py ties the two). A game plays 2
    decks or 4 (:class:`Rules`); any positive number is answered.

    >>> counts = deck_counts(2)
    >>> len(counts), counts[0], counts[54], counts[55], sum(counts)
    (56, 2, 2, 6, 116)
    >>> sum(deck_counts(4))
    232
    """
    counts = _COUNTS.get(decks) if decks.__class__ is int else None
    if counts is None:
        if isinstance(decks, bool) or not hasattr(type(decks), "__index__"):
            raise TypeError(f"decks must be an int, got {type(decks).__name__}")
        decks = operator.index(decks)  # a NumPy integer too
        if decks < 1:
            raise ValueError(f"decks must be at least 1, got {decks}")
        counts = (decks,) * _SUITED_TYPES + (_JOKERS_PER_DECK * decks,)
        if decks <= _CACHED_DECKS:
            _COUNTS[decks] = counts
    return counts


def sorted_deck(decks: int) -> tuple[int, ...]:
    """Every card of ``decks`` decks as its type, in type order: each suited card
    ``decks`` times, then the jokers. What a deal shuffles: a seed's shuffle permutes
    exactly this order (:class:`~fivecrowns.deck.Deck`, a round's deal,
    :func:`~fivecrowns.random_hands`), so the same seed gives the same cards.

    >>> sorted_deck(2)[:5], sorted_deck(2)[-7:]
    ((0, 0, 1, 1, 2), (54, 55, 55, 55, 55, 55, 55))
    """
    cards = _SORTED.get(decks) if decks.__class__ is int else None
    if cards is None:
        cards = tuple(t for t, k in enumerate(deck_counts(decks)) for _ in range(k))
        if decks <= _CACHED_DECKS:
            _SORTED[decks] = cards
    return cards


@dataclass(frozen=True)
class Rules:
    """The choices docs/rules.rst leaves open; the defaults are its choices.

    Parameters
    ----------
    decks : int
        2 (116 cards, 1 to 7 players) or 4 for party mode (232 cards, up to 14 players).
    max_turns : int
        Safety limit on turns (one player's draw and discard) in one round; reaching it
        ends the round and is reported.
    tie_break : bool
        False: players tied for the lowest total share the victory. True: they play one
        6-card round (6s wild) and the first to go out wins.
    return_discard : bool
        False: a card just taken from the discard pile may not be discarded again in the
        same turn (docs/rules.rst, A round, 3). True allows it.
    """

    decks: int = 2
    max_turns: int = DEFAULT_MAX_TURNS
    tie_break: bool = False
    return_discard: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int):
            raise TypeError(f"Rules.decks must be an int, got {type(self.decks).__name__}")
        if self.decks not in (2, 4):
            raise ValueError(f"Rules.decks must be 2 (standard) or 4 (party mode), "
                             f"got {self.decks}")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int):
            raise TypeError(f"Rules.max_turns must be an int, "
                            f"got {type(self.max_turns).__name__}")
        if self.max_turns < 1:
            raise ValueError(f"Rules.max_turns must be at least 1, got {self.max_turns}")
        if not isinstance(self.tie_break, bool):
            raise TypeError(f"Rules.tie_break must be a bool, "
                            f"got {type(self.tie_break).__name__}")
        if not isinstance(self.return_discard, bool):
            raise TypeError(f"Rules.return_discard must be a bool, "
                            f"got {type(self.return_discard).__name__}")

    @property
    def copies(self) -> int:
        """Copies of each suited card in the deck (:func:`deck_counts`)."""
        return deck_counts(self.decks)[0]

    @property
    def jokers(self) -> int:
        """Jokers in the deck (3 per 58-card deck; :func:`deck_counts`)."""
        return deck_counts(self.decks)[-1]

    @property
    def n_cards(self) -> int:
        """Cards in the deck: 116, or 232 in party mode (:func:`deck_counts`)."""
        return len(sorted_deck(self.decks))

    @property
    def max_players(self) -> int:
        """Most players a game takes: 7, or 14 in party mode."""
        return 7 * self.decks // 2

    @staticmethod
    def hand_size(round_number: int) -> int:
        """Cards dealt in round 1..11: round + 2."""
        _check_round(round_number)
        return round_number + 2

    @staticmethod
    def wild_rank(round_number: int) -> int:
        """Wild rank of round 1..11: the rank equal to the hand size."""
        _check_round(round_number)
        return round_number + 2


def _check_round(round_number: int) -> None:
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise TypeError(f"round must be an int, got {type(round_number).__name__}")
    if not 1 <= round_number <= N_ROUNDS:
        raise ValueError(f"round must be 1..{N_ROUNDS}, got {round_number}")
