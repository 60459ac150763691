"""Moves of a round as ints: the fixed action encoding used by search and reinforcement
learning, and the argument types the move methods accept.

Every move of a :class:`~fivecrowns.round.Round` is also an int in ``0..113``
(:data:`N_ACTIONS` = 114):

==========  ======================================================
``0``       draw from the draw pile (:attr:`Source.DECK`)
``1``       take the top card of the discard pile (:attr:`Source.DISCARD`)
``2 + t``   discard card type ``t`` (0..55), without going out
``58 + t``  discard card type ``t`` and go out
==========  ======================================================

>>> encode_draw("discard"), encode_discard("5C", go_out=True)
(1, 60)
>>> describe_action(60)
'-5C out'
"""

from __future__ import annotations

import enum
from typing import Union

import numpy as np

from ._deprecation import keyword_only
from .cards import N_TYPES, Card
from .errors import CardError, IllegalMoveError

__all__ = [
    "N_ACTIONS",
    "ACTION_DRAW_DECK",
    "ACTION_DRAW_DISCARD",
    "ACTION_DISCARD",
    "ACTION_GO_OUT",
    "Source",
    "SourceLike",
    "CardArg",
    "card_index",
    "encode_draw",
    "encode_discard",
    "decode_action",
    "describe_action",
]

#: Size of the fixed action encoding.
N_ACTIONS = 114
#: Action code: draw from the draw pile.
ACTION_DRAW_DECK = 0
#: Action code: take the top card of the discard pile.
ACTION_DRAW_DISCARD = 1
#: First action code of "discard card type t" (``ACTION_DISCARD + t``).
ACTION_DISCARD = 2
#: First action code of "discard card type t and go out" (``ACTION_GO_OUT + t``).
ACTION_GO_OUT = 58


class Source(enum.IntEnum):
    """Where a card is drawn from; the values are the action codes."""

    DECK = 0
    DISCARD = 1


#: A draw source: a :class:`Source`, its value 0 or 1, or ``"deck"``/``"discard"``.
SourceLike = Union[Source, int, str]
#: A card argument of a move: a :class:`~fivecrowns.Card`, its text or its type index.
CardArg = Union[Card, str, int, np.integer]

# Every card type's Card, by index: the move methods' hot paths look cards up here.
_CARDS: tuple[Card, ...] = tuple(Card.from_index(t) for t in range(N_TYPES))
_SOURCES = (Source.DECK, Source.DISCARD)


def card_index(card: CardArg) -> int:
    """Type index 0..55 of a card given as :class:`~fivecrowns.Card`, text or index.

    >>> card_index("JK"), card_index(Card.parse("5D")), card_index(7)
    (55, 13, 7)
    """
    if card.__class__ is Card:
        return card.index
    if isinstance(card, str):
        return Card.parse(card).index
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool):
        if not 0 <= card < N_TYPES:
            raise CardError(f"card index must be 0..55, got {card}")
        return int(card)
    if isinstance(card, Card):
        return card.index
    raise TypeError(f"a card must be a Card, a str such as '5D' or an index 0..55, "
                    f"got {type(card).__name__}")


def _source(source: SourceLike) -> Source:
    if source.__class__ is Source or isinstance(source, Source):
        return source
    if isinstance(source, str):
        key = source.strip().lower()
        if key in ("deck", "draw", "stock"):
            return Source.DECK
        if key in ("discard", "pile", "discard_pile"):
            return Source.DISCARD
        raise ValueError(f"a draw source must be 'deck' or 'discard', got {source!r}")
    if isinstance(source, (int, np.integer)) and not isinstance(source, bool) and source in (0, 1):
        return Source(int(source))
    raise TypeError(f"a draw source must be Source.DECK, Source.DISCARD, 0 or 1, "
                    f"got {source!r}")


def encode_draw(source: SourceLike) -> int:
    """Action code of a draw: 0 from the deck, 1 from the discard pile.

    >>> encode_draw("discard")
    1
    """
    return int(_source(source))


@keyword_only("go_out")
def encode_discard(card: CardArg, *, go_out: bool = False) -> int:
    """Action code of a discard: ``2 + t``, or ``58 + t`` when going out.

    >>> encode_discard("3C"), encode_discard("JK", go_out=True)
    (2, 113)
    """
    return (ACTION_GO_OUT if go_out else ACTION_DISCARD) + card_index(card)


def decode_action(action: int) -> tuple[str, Source | Card, bool]:
    """``("draw", source, False)`` or ``("discard", card, go_out)``.

    >>> decode_action(0)
    ('draw', <Source.DECK: 0>, False)
    >>> decode_action(60)
    ('discard', Card.parse('5C'), True)
    """
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action must be an int 0..{N_ACTIONS - 1}, "
                        f"got {type(action).__name__}")
    a = int(action)
    if a == ACTION_DRAW_DECK or a == ACTION_DRAW_DISCARD:
        return "draw", _SOURCES[a], False
    if ACTION_DISCARD <= a < ACTION_GO_OUT:
        return "discard", _CARDS[a - ACTION_DISCARD], False
    if ACTION_GO_OUT <= a < N_ACTIONS:
        return "discard", _CARDS[a - ACTION_GO_OUT], True
    raise IllegalMoveError(f"an action must be 0..{N_ACTIONS - 1}, got {a}")


def describe_action(action: int) -> str:
    """Short text of an action: ``deck``, ``discard-pile``, ``-5C`` or ``-5C out``.

    >>> describe_action(1), describe_action(2), describe_action(113)
    ('discard-pile', '-3C', '-JK out')
    """
    kind, what, out = decode_action(action)
    if kind == "draw":
        return "deck" if what is Source.DECK else "discard-pile"
    return f"-{what}{' out' if out else ''}"
