"""The cards of one round: a shuffled draw pile and a discard pile (docs/rules.rst, A round).

Randomness comes only from an explicit seed or :class:`numpy.random.Generator`,
normalised with :func:`numpy.random.default_rng`; there is no global state, so the
same seed gives the same deal on every platform.

Examples
--------
>>> from fivecrowns.deck import Deck
>>> deck = Deck(seed=7)
>>> deck.draw_size, deck.discard_size
(116, 0)
>>> card = deck.draw()
>>> deck.draw_size
115
>>> Deck(seed=7).draw() == card   # same seed, same order
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ._checks import check_int
from .cards import N_TYPES, Card
from .errors import IllegalMoveError
from .rules import Rules, deck_counts, sorted_deck
from .seeding import SeedLike as SeedLike
from .seeding import _copy_rng, _deepcopy_rng
from .seeding import make_rng as make_rng

if TYPE_CHECKING:
    from ._state_py import RoundState

__all__ = ["Deck", "RoundDeck", "full_counts"]

def full_counts(rules: Rules) -> npt.NDArray[np.uint8]:
    """Counts of every card type in the whole deck: ``decks`` of each suited card and
    3 jokers per deck (:func:`fivecrowns.rules.deck_counts` as an array).

    >>> int(full_counts(Rules()).sum()), int(full_counts(Rules(decks=4)).sum())
    (116, 232)
    """
    return np.array(deck_counts(rules.decks), dtype=np.uint8)


def _sorted_deck(decks: int) -> npt.NDArray[np.intp]:
    return np.array(sorted_deck(decks), dtype=np.intp)


#: Every card of the deck in index order, by number of decks: what a shuffle permutes.
_SORTED = {2: _sorted_deck(2), 4: _sorted_deck(4)}


class Deck:
    """A draw pile and a discard pile built from :class:`~fivecrowns.Rules`.

    The draw pile starts with every card (116, or 232 in party mode), shuffled by
    ``seed``. Cards are card-type indices 0..55 internally; :meth:`draw` returns a
    :class:`~fivecrowns.Card` and :meth:`draw_index` the index.

    Parameters
    ----------
    seed : int, SeedSequence or Generator
        The only source of randomness: the first shuffle and every reshuffle use it.
        Required and keyword-only.
    rules : Rules, optional
        ``rules.decks`` sets the size of the deck.

    Examples
    --------
    >>> deck = Deck(seed=1, rules=Rules(decks=4))
    >>> deck.draw_size
    232
    >>> deck.discard(deck.draw_index()); deck.discard(deck.draw_index())
    >>> deck.discard_size, deck.top_discard is not None
    (2, True)
    """

    __slots__ = ("rules", "rng", "_draw", "_discard", "reshuffles")

    def __init__(self, *, seed: SeedLike, rules: Rules | None = None) -> None:
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(self.rules).__name__}")
        #: The generator used for every shuffle of this deck.
        self.rng = make_rng(seed)
        # The top of the draw pile is the *last* element, so drawing is a cheap pop().
        base = _SORTED[self.rules.decks]
        self._draw: list[int] = base[self.rng.permutation(base.size)].tolist()
        self._discard: list[int] = []
        #: How many times the discard pile was turned into a new draw pile.
        self.reshuffles = 0

    @classmethod
    def from_piles(cls, draw_pile: Sequence[int], discard_pile: Sequence[int], *,
                   seed: SeedLike, rules: Rules | None = None,
                   reshuffles: int = 0) -> Deck:
        """A deck holding exactly these piles, as card-type indices 0..55.

        ``draw_pile`` is listed top card first (as :meth:`draw_pile` returns it) and
        ``discard_pile`` bottom card first; ``seed`` drives any later reshuffle. The piles
        need not hold the whole deck (the other cards are in players' hands); that each
        card appears at most as often as the deck holds it is checked here, the rest by
        :meth:`fivecrowns.Round.from_state`.

        >>> deck = Deck.from_piles([0, 55], [10], seed=3)
        >>> [str(c) for c in deck.draw_pile()], str(deck.top_discard)
        (['3C', 'JK'], 'KC')
        """
        self = object.__new__(cls)
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(self.rules).__name__}")
        reshuffles = check_int(reshuffles, "reshuffles", 0)
        piles = []
        for name, pile in (("draw_pile", draw_pile), ("discard_pile", discard_pile)):
            cards = [int(t) for t in pile]
            bad = [t for t in cards if not 0 <= t < N_TYPES]
            if bad:
                raise ValueError(f"{name} holds card indices outside 0..55: {bad}")
            piles.append(cards)
        both = np.bincount(np.array(piles[0] + piles[1], dtype=np.intp), minlength=N_TYPES)
        over = np.flatnonzero(both > full_counts(self.rules))
        if over.size:
            raise ValueError(f"the piles hold more copies than the deck of card types "
                             f"{over.tolist()}")
        self.rng = make_rng(seed)
        self._draw = piles[0][::-1]
        self._discard = piles[1]
        self.reshuffles = reshuffles
        return self

    def _shuffled(self, cards: list[int]) -> list[int]:
        order = self.rng.permutation(len(cards))
        return [cards[i] for i in order.tolist()]

    # -- the draw pile --

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile."""
        return len(self._draw)

    @property
    def discard_size(self) -> int:
        """Cards in the discard pile."""
        return len(self._discard)

    @property
    def can_draw(self) -> bool:
        """True if a card can be drawn from the draw pile, reshuffling if need be."""
        return bool(self._draw) or len(self._discard) > 1

    def draw_index(self) -> int:
        """Draw the top card of the draw pile, as a type index.

        An empty draw pile is first refilled by :meth:`reshuffle`.
        """
        if not self._draw:
            self.reshuffle()
        return self._draw.pop()

    def draw(self) -> Card:
        """Draw the top card of the draw pile (reshuffling first if it is empty)."""
        return Card.from_index(self.draw_index())

    def reshuffle(self) -> None:
        """docs/rules.rst, A round, 5: the discard pile except its top card, shuffled, becomes
        the draw pile (appended under any cards left in it, which is none in play).

        Raises
        ------
        IllegalMoveError
            If the discard pile holds fewer than two cards, so there is nothing to reshuffle.
        """
        if len(self._discard) < 2:
            raise IllegalMoveError(
                f"cannot reshuffle: the draw pile has {len(self._draw)} cards and the "
                f"discard pile {len(self._discard)}, so no card is left to draw")
        top = self._discard[-1]
        self._draw = self._shuffled(self._discard[:-1]) + self._draw
        self._discard = [top]
        self.reshuffles += 1

    # -- the discard pile --

    @property
    def top_discard_index(self) -> int | None:
        """Type index of the top card of the discard pile, or ``None`` if it is empty."""
        return self._discard[-1] if self._discard else None

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile, or ``None`` if it is empty."""
        return Card.from_index(self._discard[-1]) if self._discard else None

    def discard(self, index: int) -> None:
        """Put card type ``index`` on the discard pile."""
        self._discard.append(index)

    def take_discard(self) -> int:
        """Take the top card of the discard pile (its type index)."""
        if not self._discard:
            raise IllegalMoveError("cannot take from the discard pile: it is empty")
        return self._discard.pop()

    def turn_up(self) -> int:
        """Turn the top card of the draw pile up onto the discard pile; returns its index."""
        index = self.draw_index()
        self._discard.append(index)
        return index

    # -- inspection --

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card first (for tests and analysis: players never see it)."""
        return tuple(Card.from_index(t) for t in reversed(self._draw))

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom card first, top card last."""
        return tuple(Card.from_index(t) for t in self._discard)

    def draw_counts(self) -> npt.NDArray[np.uint8]:
        """The draw pile as a row of 56 counts."""
        return np.bincount(np.asarray(self._draw, dtype=np.intp),
                           minlength=N_TYPES).astype(np.uint8)

    def discard_counts(self) -> npt.NDArray[np.uint8]:
        """The discard pile as a row of 56 counts."""
        return np.bincount(np.asarray(self._discard, dtype=np.intp),
                           minlength=N_TYPES).astype(np.uint8)

    def clone(self) -> Deck:
        """An independent copy, random state included: it has a generator of its own.

        ``copy.copy`` gives the same. ``copy.deepcopy`` too, except that a generator the
        deck shares with other objects copied at the same time (a game's, see
        :meth:`fivecrowns.Game.clone`) stays shared in the copy.
        """
        return self._with_rng(_copy_rng(self.rng))

    def _with_rng(self, rng: np.random.Generator) -> Deck:
        new = object.__new__(Deck)
        new.rules = self.rules
        new.rng = rng
        new._draw = list(self._draw)
        new._discard = list(self._discard)
        new.reshuffles = self.reshuffles
        return new

    def __copy__(self) -> Deck:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Deck:
        return self._with_rng(_deepcopy_rng(self.rng, memo))

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        top = self.top_discard
        return (f"Deck(draw={self.draw_size}, discard={self.discard_size}, "
                f"top={str(top) if top is not None else None})")


class RoundDeck:
    """A round's two piles, read-only: what :attr:`fivecrowns.Round.deck` gives.

    The same questions as :class:`Deck` answers, about the round's state at the moment
    of asking; cards move only through the round's moves (the round's state, see
    ``fivecrowns._state_py``, holds the piles). ``rng`` is the generator of the round's
    reshuffles.

    Examples
    --------
    >>> from fivecrowns import Round
    >>> r = Round(2, round_number=1, seed=7)
    >>> r.deck
    RoundDeck(draw=109, discard=1, top=3S)
    >>> _ = r.draw("discard"); r.deck.discard_size, r.deck.can_draw
    (0, True)
    """

    __slots__ = ("_state", "rules")

    def __init__(self, state: RoundState, rules: Rules) -> None:
        self._state = state
        self.rules = rules

    @property
    def rng(self) -> np.random.Generator:
        """The generator of every reshuffle of the round."""
        return self._state.rng

    @property
    def reshuffles(self) -> int:
        """How many times the discard pile was turned into a new draw pile."""
        return self._state.reshuffles

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile."""
        return self._state.n_draw

    @property
    def discard_size(self) -> int:
        """Cards in the discard pile."""
        return self._state.n_pile

    @property
    def can_draw(self) -> bool:
        """True if a card can be drawn from the draw pile, reshuffling if need be."""
        return self._state.can_draw

    @property
    def top_discard_index(self) -> int | None:
        """Type index of the top card of the discard pile, or ``None`` if it is empty."""
        top: int = self._state.top_discard
        return None if top < 0 else top

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile, or ``None`` if it is empty."""
        top: int = self._state.top_discard
        return None if top < 0 else Card.from_index(top)

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card first (for tests and analysis: players never see it)."""
        return tuple(Card.from_index(t) for t in self._state.draw_pile())

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom card first, top card last."""
        return tuple(Card.from_index(t) for t in self._state.discard_pile())

    def draw_counts(self) -> npt.NDArray[np.uint8]:
        """The draw pile as a row of 56 counts."""
        return self._state.draw_counts()

    def discard_counts(self) -> npt.NDArray[np.uint8]:
        """The discard pile as a row of 56 counts."""
        return self._state.pile_counts()

    def __repr__(self) -> str:
        top = self.top_discard
        return (f"RoundDeck(draw={self.draw_size}, discard={self.discard_size}, "
                f"top={str(top) if top is not None else None})")
