"""Cards, their text form and the 56-type bulk encoding (docs/rules.rst, Cards).

A card *type* has an index 0..55: ``suit_index * 11 + (rank - 3)`` for suited
cards and 55 for the joker. A hand in bulk form is a row of 56 ``uint8``
counts, one per type.

Examples
--------
>>> from fivecrowns import Card, parse_cards
>>> Card.parse("10H")
Card.parse('10H')
>>> [str(c) for c in parse_cards("3c 10♥ joker")]
['3C', '10H', 'JK']
>>> Card.parse("KT").index
54
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Union

import numpy as np
import numpy.typing as npt

from ._checks import check_wild, is_int, shorten
from ._enums import Rank, Suit
from .errors import CardError, HandError

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardLike",
    "HandLike",
    "JOKER_INDEX",
    "N_TYPES",
    "N_RANKS",
    "type_index",
    "parse_cards",
    "format_cards",
    "from_counts",
    "card_value",
]

#: Number of card types in the bulk encoding (55 suited + the joker).
N_TYPES = 56
#: Index of the joker in the bulk encoding.
JOKER_INDEX = 55
#: Number of ranks (3..13); suited card types are ``suit * N_RANKS + rank - 3``.
N_RANKS = 11


def type_index(suit: int, rank: int) -> int:
    """The bulk-encoding index of the suited card type ``(suit, rank)``.

    >>> type_index(Suit.HEARTS, Rank.KING), str(Card.from_index(type_index(2, 13)))
    (32, 'KH')
    """
    return int(suit) * N_RANKS + int(rank) - 3


_SUIT_CODES = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
               "T": Suit.STARS, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS,
               "♠": Suit.SPADES, "★": Suit.STARS}
_RANK_CODES = {str(r): Rank(r) for r in range(3, 11)} | {"J": Rank.JACK, "Q": Rank.QUEEN,
                                                           "K": Rank.KING}
_CARD_RE = re.compile(r"^(10|[3-9JQK])([CDHST♣♦♥♠★])$")


class Card:
    """One card: a suited card of rank 3..13, or the joker.

    Cards are immutable, hashable and ordered by their type index (suit, then
    rank, the joker last). There are only 56 distinct cards; the constructor
    returns the shared instance.

    Parameters
    ----------
    rank, suit : Rank or int, Suit or int, optional
        Both given for a suited card; both omitted (``None``) for the joker.

    Examples
    --------
    >>> Card(Rank.QUEEN, Suit.DIAMONDS)
    Card.parse('QD')
    >>> Card() is Card.JOKER
    True
    >>> sorted([Card.JOKER, Card.parse("3D"), Card.parse("KC")])
    [Card.parse('KC'), Card.parse('3D'), Card.parse('JK')]
    """

    __slots__ = ("_index",)
    _index: int
    JOKER: Card  # set below
    _ALL: tuple[Card, ...]

    def __new__(cls, rank: Rank | int | None = None, suit: Suit | int | None = None) -> Card:
        if rank is None and suit is None:
            return cls._ALL[JOKER_INDEX]
        if rank is None or suit is None:
            raise CardError(f"a suited card needs both a rank and a suit; got rank={rank!r}, "
                            f"suit={suit!r} (leave both out for the joker)")
        if not is_int(rank) or isinstance(rank, Suit) or not 3 <= rank <= 13:
            raise CardError(f"rank must be a Rank or 3..13, got {rank!r}")
        if not is_int(suit) or isinstance(suit, Rank) or not 0 <= suit <= 4:
            raise CardError(f"suit must be a Suit or 0..4, got {suit!r}")
        return cls._ALL[int(suit) * 11 + int(rank) - 3]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    @property
    def index(self) -> int:
        """The type index 0..55 of the bulk encoding."""
        return self._index

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self._index == JOKER_INDEX

    @property
    def rank(self) -> Rank | None:
        """The rank, or ``None`` for the joker."""
        return None if self.is_joker else Rank(self._index % 11 + 3)

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for the joker."""
        return None if self.is_joker else Suit(self._index // 11)

    def is_wild(self, wild: int | str) -> bool:
        """True if this card is wild in a round whose wild rank is ``wild`` (3..13, a
        :class:`Rank` or a rank's name); the deadwood value is :func:`card_value`."""
        if type(wild) is not int or not 3 <= wild <= 13:  # bots call this in loops
            wild = check_wild(wild)
        return self._index == JOKER_INDEX or self._index % 11 + 3 == wild

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of type ``index`` (0..55).

        >>> Card.from_index(55)
        Card.parse('JK')
        """
        if index.__class__ is int and 0 <= index < N_TYPES:  # bots call this in loops
            return cls._ALL[index]
        if not is_int(index):
            raise TypeError(f"card index must be an int, got {type(index).__name__}")
        if not 0 <= index < N_TYPES:
            raise CardError(f"card index must be 0..55, got {index}")
        return cls._ALL[int(index)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``3C``, ``10H``, ``QD``, ``KT``, ``JK``/``JOKER``, any case,
        suit letters or the symbols ♣ ♦ ♥ ♠ ★.

        >>> Card.parse("q♦")
        Card.parse('QD')
        """
        if not isinstance(text, str):
            raise TypeError(f"a card must be given as a str, got {type(text).__name__}")
        code = _ascii_upper(text.strip())
        if code in ("JK", "JOKER"):
            return cls._ALL[JOKER_INDEX]
        m = _CARD_RE.match(code)
        if m is None:
            raise CardError(f"cannot parse card {shorten(text)!r}: expected a rank 3-10, J, Q or K "
                            f"followed by a suit C, D, H, S or T (or ♣♦♥♠★), or JK for a joker")
        return cls(_RANK_CODES[m.group(1)], _SUIT_CODES[m.group(2)])

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        assert self.rank is not None and self.suit is not None
        return f"{self.rank.label}{self.suit.letter}"

    @property
    def symbol(self) -> str:
        """Short form with the suit symbol, e.g. ``10♥``; the joker is ``JK``."""
        if self.is_joker:
            return "JK"
        assert self.rank is not None and self.suit is not None
        return f"{self.rank.label}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index <= other._index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index > other._index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index >= other._index

    def __hash__(self) -> int:
        return self._index

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index == other._index

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


Card._ALL = tuple(Card._make(i) for i in range(N_TYPES))
Card.JOKER = Card._ALL[JOKER_INDEX]

#: Anything accepted where one card is expected.
CardLike = Union[Card, str]
#: Anything accepted where a hand is expected: a string of cards separated by
#: spaces or commas, or a sequence of cards or card strings.
HandLike = Union[str, Iterable[CardLike]]


def card_value(card: CardLike, wild: int | str) -> int:
    """Deadwood value of ``card`` left over in a round whose wild rank is ``wild``: its
    rank, 20 for a card of the wild rank, 50 for a joker (docs/rules.rst, Card values).

    ``card`` is a :class:`Card` or its text; ``wild`` a rank 3..13, a :class:`Rank` or a
    rank's name.

    >>> card_value(Card.parse("QD"), 13), card_value("KD", "K")
    (12, 20)
    >>> card_value(Card.JOKER, 3)
    50
    """
    if type(wild) is not int or not 3 <= wild <= 13:
        wild = check_wild(wild)
    if not isinstance(card, Card):
        if not isinstance(card, str):
            raise TypeError(f"a card must be a Card or a str, got {type(card).__name__}")
        card = _parse_one(card.strip())
    if card.is_joker:
        return 50
    rank = card.index % 11 + 3
    return 20 if rank == wild else rank


# Every accepted spelling of every card, upper-cased: parsing a hand is a lookup per card.
_BY_TEXT: dict[str, Card] = {"JK": Card.JOKER, "JOKER": Card.JOKER}
for _card in Card._ALL[:JOKER_INDEX]:
    assert _card.rank is not None and _card.suit is not None
    _BY_TEXT[f"{_card.rank.label}{_card.suit.letter}"] = _card
    _BY_TEXT[f"{_card.rank.label}{_card.suit.symbol}"] = _card
del _card
# Card numbers by text, in upper and lower case, for the quickest path from a string to counts.
_INDEX_BY_TEXT: dict[str, int] = {}
for _text, _card in _BY_TEXT.items():
    _INDEX_BY_TEXT[_text] = _INDEX_BY_TEXT[_text.lower()] = _card._index
del _text, _card


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _ascii_upper(text: str) -> str:
    """``text`` with only its ASCII letters upper-cased: ``str.upper`` maps "ſ" to "S"
    and "ﬀ" to "FF", which would let such text pass for a card."""
    return text.translate(_UPPER)


def _parse_one(text: str) -> Card:
    card = _BY_TEXT.get(_ascii_upper(text))
    return card if card is not None else Card.parse(text)  # Card.parse explains the error


def _words(text: str) -> list[str]:
    """The card words of a hand's text: spaces or commas separate them."""
    return text.replace(",", " ").split()


def parse_cards(hand: HandLike) -> tuple[Card, ...]:
    """Parse a hand: a string like ``"3C 10H JK"`` (spaces or commas), or a
    sequence of :class:`Card` objects and card strings.

    >>> parse_cards("3C,10H jk")
    (Card.parse('3C'), Card.parse('10H'), Card.parse('JK'))
    """
    if isinstance(hand, str):
        return tuple(_parse_one(tok) for tok in _words(hand))
    if isinstance(hand, (bytes, bytearray)):
        raise TypeError("a hand must be a str or a sequence of cards, got bytes")
    if isinstance(hand, np.ndarray):
        raise TypeError("a hand must be a str or a sequence of cards, got a numpy array; "
                        "use from_counts() for a row of 56 counts")
    try:
        items = list(hand)
    except TypeError:
        raise TypeError(f"a hand must be a str or a sequence of cards, "
                        f"got {type(hand).__name__}") from None
    out = []
    for item in items:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, str):
            out.append(_parse_one(item.strip()))
        else:
            raise TypeError(f"a hand's cards must be Card or str, got {type(item).__name__} "
                            f"({shorten(repr(item))})")
    return tuple(out)


def format_cards(cards: HandLike, *, symbols: bool = False) -> str:
    """Join cards (or anything :func:`parse_cards` reads) into text; ``symbols=True``
    uses ♣♦♥♠★.

    >>> format_cards(parse_cards("3C 10H JK"), symbols=True)
    '3♣ 10♥ JK'
    >>> format_cards(["3c", "10h"], symbols=True)
    '3♣ 10♥'
    """
    return " ".join(c.symbol if symbols else str(c) for c in parse_cards(cards))


def _to_counts(hand: HandLike) -> npt.NDArray[np.uint8]:
    """A hand as a row of 56 ``uint8`` counts, *not* checked against a deck (the solver
    checks them); the public, checked form is :func:`fivecrowns.hand_counts`.

    >>> _to_counts("3C 3C JK")[[0, 55]]
    array([2, 1], dtype=uint8)
    """
    counts = [0] * N_TYPES
    if isinstance(hand, str):  # the common text case, without making Card objects
        for tok in _words(hand):
            i = _INDEX_BY_TEXT.get(tok)
            counts[i if i is not None else _parse_one(tok)._index] += 1
    else:
        for card in parse_cards(hand):
            counts[card._index] += 1
    if max(counts) > 255:
        raise HandError("a hand holds at most 255 copies of a card")
    return np.frombuffer(bytearray(counts), dtype=np.uint8)  # writable, and quicker to make


#: Most copies of a card, and of the joker, that any deck (party mode: 4 decks) holds.
_MOST_COPIES, _MOST_JOKERS = 4, 12


def from_counts(counts: Sequence[int] | npt.ArrayLike) -> tuple[Card, ...]:
    """The cards of a 56-count row, in index order.

    Counts are bounded by what the largest deck (party mode) holds: 4 copies of a card,
    12 jokers.

    >>> from_counts(np.bincount([55, 0, 12], minlength=56))
    (Card.parse('3C'), Card.parse('4D'), Card.parse('JK'))
    """
    row = np.asarray(counts)
    if row.shape != (N_TYPES,):
        raise ValueError(f"counts must have shape (56,), got {row.shape}")
    if not np.issubdtype(row.dtype, np.integer):
        raise TypeError(f"counts must be integers, got dtype {row.dtype}")
    if (row < 0).any():
        raise HandError(f"counts must be non-negative, got {int(row.min())} "
                        f"at index {int(row.argmin())}")
    over = np.flatnonzero(row > np.array([_MOST_COPIES] * 55 + [_MOST_JOKERS]))
    if over.size:
        i = int(over[0])
        most = _MOST_JOKERS if i == JOKER_INDEX else _MOST_COPIES
        raise HandError(f"counts must be at most {most} for {Card._ALL[i]} (no deck holds "
                        f"more), got {int(row[i])} at index {i}")
    return tuple(Card._ALL[i] for i in range(N_TYPES) for _ in range(int(row[i])))
