"""The game of Five Crowns solitaire (docs/rules.rst, Solitaire), its records and what a
player sees.

Eleven piles are dealt face up, of 3, 4, ..., 13 cards; pile ``n`` has its own wild rank
``n`` (jokers are wild everywhere). A turn turns up the top card of the draw pile, adds it to
one open pile and discards one card of that same pile; discards are out of the game. A pile
closes when, after such a turn, all its cards form melds. You win when all 11 piles are
closed and lose when the draw pile runs out first.

Piles are named by their size, which is also their wild rank: ``3`` .. ``13``.

Every move has three methods, as in pokerkit: :meth:`Solitaire.verify_play` raises
:class:`~fivecrowns.IllegalMoveError` with a full sentence, :meth:`Solitaire.can_play`
answers with a bool, and :meth:`Solitaire.play` makes the move and returns a frozen
:class:`PlayRecord`. An illegal move leaves the game unchanged.

Examples
--------
>>> game = Solitaire(seed=7)
>>> len(game.piles), len(game.pile(13)), game.draw_remaining
(11, 13, 28)
>>> top = game.draw_top
>>> record = game.play(3, top)          # put the card on pile 3, then discard it again
>>> record.pile, record.discard == top, game.turn
(3, True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._checks import passes
from ..cards import N_TYPES, Card, CardLike, HandLike, format_cards, parse_cards
from ..deck import full_counts
from ..errors import HandError, IllegalMoveError
from ..rules import Rules, sorted_deck
from ..seeding import SeedLike, make_rng
from ..solver import deadwood

__all__ = [
    "PILE_SIZES",
    "Solitaire",
    "PlayRecord",
    "SolitaireResult",
    "SolitaireObservation",
]

#: The pile sizes, which are also the piles' names and wild ranks.
PILE_SIZES: tuple[int, ...] = tuple(range(3, 14))
_N_PILES = len(PILE_SIZES)


def _deck(rules: Rules) -> npt.NDArray[np.int64]:
    """Card type indices of the full deck, in index order: what a deal shuffles
    (:func:`fivecrowns.rules.sorted_deck`)."""
    return np.array(sorted_deck(rules.decks), dtype=np.int64)


def _check_pile(pile: Any) -> int:
    if isinstance(pile, (bool, np.bool_)) or not isinstance(pile, (int, np.integer)):
        raise TypeError(f"a pile is named by its size, an int 3..13, got {type(pile).__name__}")
    if not 3 <= pile <= 13:
        raise IllegalMoveError(f"there is no pile {int(pile)}: the piles are 3..13, "
                               f"named by their size")
    return int(pile)


def _as_card(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise TypeError(f"a card must be a Card or a str such as '10H', got {type(card).__name__}")


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayRecord:
    """What one turn did.

    Attributes
    ----------
    turn : int
        1 for the first turn of the game.
    card : Card
        The card turned up from the draw pile.
    pile : int
        The pile it went to (3..13).
    discard : Card
        The card discarded from that pile (it may be ``card``).
    deadwood : int
        The pile's deadwood after the turn, with its own wild rank.
    closed : bool
        True if the turn closed the pile (``deadwood == 0``).
    """

    turn: int
    card: Card
    pile: int
    discard: Card
    deadwood: int
    closed: bool

    def __str__(self) -> str:
        end = ", pile closed" if self.closed else f", deadwood {self.deadwood}"
        return f"turn {self.turn}: {self.card} to pile {self.pile}, discard {self.discard}{end}"


@dataclass(frozen=True)
class SolitaireResult:
    """The outcome of one game of solitaire.

    Attributes
    ----------
    won : bool
        All 11 piles were closed before the draw pile ran out.
    piles_closed : int
        Piles closed, 0..11.
    turns : int
        Turns played (cards turned up).
    """

    won: bool
    piles_closed: int
    turns: int


@dataclass(frozen=True, eq=False)
class SolitaireObservation:
    """Everything a player sees before choosing a move: no peeking under the top card.

    Attributes
    ----------
    pile_counts : ndarray of shape (11, 56), uint8, read-only
        Row ``k`` holds the counts of pile ``k + 3``.
    closed : tuple of bool
        ``closed[k]`` is True when pile ``k + 3`` is closed.
    top : Card or None
        The card this turn turns up; ``None`` once the draw pile is empty.
    draw_remaining : int
        Cards left in the draw pile, the top one included.
    unseen : ndarray of shape (56,), int64, read-only
        Counts of the cards not in sight: the deck less the piles, the discards and
        the top card. The rest of the draw pile is drawn from these.
    turn : int
        Turns played so far.
    rules : Rules
    """

    pile_counts: npt.NDArray[np.uint8]
    closed: tuple[bool, ...]
    top: Card | None
    draw_remaining: int
    unseen: npt.NDArray[np.int64]
    turn: int
    rules: Rules

    @property
    def open_piles(self) -> tuple[int, ...]:
        """Sizes of the open piles."""
        return tuple(n for n, c in zip(PILE_SIZES, self.closed) if not c)

    def pile(self, size: int) -> tuple[Card, ...]:
        """The cards of pile ``size``, sorted."""
        return _cards_of(self.pile_counts[_check_pile(size) - 3])


def _cards_of(row: npt.NDArray[np.uint8]) -> tuple[Card, ...]:
    return tuple(Card.from_index(int(t)) for t in np.flatnonzero(row)
                 for _ in range(int(row[t])))


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------


class Solitaire:
    """One game of Five Crowns solitaire.

    Parameters
    ----------
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only. Shuffles the deck through ``numpy.random.default_rng(seed)``; the
        same seed deals the same game on every platform. Required: nothing is shuffled
        from global state.
    rules : Rules, optional
        ``Rules(decks=4)`` plays with 232 cards (a 144-card draw pile).

    Notes
    -----
    The deal: the shuffled deck's first 3 cards form pile 3, the next 4 pile 4, and so on
    up to pile 13; the remaining cards, in order, are the draw pile, first card on top.

    Examples
    --------
    >>> game = Solitaire(seed=1)
    >>> game.open_piles == tuple(range(3, 14)), game.is_over
    (True, False)
    >>> game.can_play(3, "JK") if "JK" not in map(str, game.pile(3)) else True
    True
    >>> try:
    ...     game.play(14, game.draw_top)
    ... except ValueError as e:
    ...     print(e)
    there is no pile 14: the piles are 3..13, named by their size
    """

    __slots__ = ("_rules", "_piles", "_closed", "_draw", "_next", "_discards", "_turn", "_plays")

    def __init__(self, *, seed: SeedLike, rules: Rules | None = None) -> None:
        rules = _check_rules(rules)
        order = make_rng(seed).permutation(_deck(rules))
        piles = np.zeros((_N_PILES, N_TYPES), dtype=np.uint8)
        pos = 0
        for k, n in enumerate(PILE_SIZES):
            np.add.at(piles[k], order[pos:pos + n], 1)
            pos += n
        self._setup(rules, piles, tuple(int(t) for t in order[pos:]))

    def _setup(self, rules: Rules, piles: npt.NDArray[np.uint8], draw: tuple[int, ...]) -> None:
        self._rules = rules
        self._piles = piles
        self._closed = [False] * _N_PILES
        self._draw = draw  # top first; shared (immutable) between clones
        self._next = 0
        self._discards: list[Card] = []
        self._turn = 0
        self._plays: list[PlayRecord] = []

    @classmethod
    def from_cards(cls, piles: Mapping[int, HandLike] | Sequence[HandLike], draw: HandLike, *,
                   rules: Rules | None = None) -> Solitaire:
        """A game from a given deal, for puzzles, tests and replays.

        Parameters
        ----------
        piles : mapping of size to cards, or a sequence of 11 hands (piles 3..13 in order)
            Pile ``n`` must hold exactly ``n`` cards.
        draw : cards
            The draw pile, top card first. It may be shorter than in a shuffled game; the
            cards of the deck that appear nowhere are simply out of play.
        rules : Rules, optional

        Examples
        --------
        >>> dealt = Solitaire(seed=1)
        >>> again = Solitaire.from_cards(dealt.piles, draw=[dealt.draw_top])
        >>> again.piles == dealt.piles, again.draw_remaining
        (True, 1)
        """
        rules = _check_rules(rules)
        if isinstance(piles, Mapping):
            given = dict(piles)
            if sorted(given) != list(PILE_SIZES):
                raise HandError(f"piles must name each of the piles 3..13 once, "
                                f"got {sorted(given)!r}")
            hands = [given[n] for n in PILE_SIZES]
        else:
            if isinstance(piles, str):
                raise TypeError("piles must be a mapping or a sequence of 11 hands, got a str")
            hands = list(piles)
            if len(hands) != _N_PILES:
                raise HandError(f"piles must be 11 hands (piles 3..13), got {len(hands)}")
        rows = np.zeros((_N_PILES, N_TYPES), dtype=np.uint8)
        for k, (n, hand) in enumerate(zip(PILE_SIZES, hands)):
            cards = parse_cards(hand)
            if len(cards) != n:
                raise HandError(f"pile {n} must hold {n} cards, got {len(cards)} "
                                f"({format_cards(cards)})")
            for c in cards:
                rows[k, c.index] += 1
        draw_cards = parse_cards(draw)
        total = rows.sum(axis=0, dtype=np.int64)
        for c in draw_cards:
            total[c.index] += 1
        limit = full_counts(rules).astype(np.int64)
        over = np.flatnonzero(total > limit)
        if over.size:
            t = int(over[0])
            raise HandError(f"the deal holds {int(total[t])} copies of "
                            f"{Card.from_index(t)}, but {rules.decks} decks hold only "
                            f"{int(limit[t])}")
        game = cls.__new__(cls)
        game._setup(rules, rows, tuple(c.index for c in draw_cards))
        return game

    # -- state ---------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self._rules

    @property
    def piles(self) -> dict[int, tuple[Card, ...]]:
        """Every pile's cards, sorted, keyed by pile size 3..13."""
        return {n: _cards_of(self._piles[k]) for k, n in enumerate(PILE_SIZES)}

    def pile(self, size: int) -> tuple[Card, ...]:
        """The cards of pile ``size`` (3..13), sorted."""
        return _cards_of(self._piles[_check_pile(size) - 3])

    @property
    def pile_counts(self) -> npt.NDArray[np.uint8]:
        """A copy of the piles as an (11, 56) array of counts; row ``k`` is pile ``k + 3``."""
        return self._piles.copy()

    @property
    def closed_piles(self) -> tuple[int, ...]:
        """Sizes of the closed piles."""
        return tuple(n for n, c in zip(PILE_SIZES, self._closed) if c)

    @property
    def open_piles(self) -> tuple[int, ...]:
        """Sizes of the piles that still take cards."""
        return tuple(n for n, c in zip(PILE_SIZES, self._closed) if not c)

    def is_closed(self, size: int) -> bool:
        """True if pile ``size`` is closed."""
        return self._closed[_check_pile(size) - 3]

    @property
    def draw_top(self) -> Card | None:
        """The card the next turn turns up; ``None`` when the draw pile is empty."""
        if self._next >= len(self._draw):
            return None
        return Card.from_index(self._draw[self._next])

    @property
    def draw_remaining(self) -> int:
        """Cards left in the draw pile, the top one included."""
        return len(self._draw) - self._next

    @property
    def discards(self) -> tuple[Card, ...]:
        """The cards discarded so far, oldest first; they are out of the game."""
        return tuple(self._discards)

    @property
    def turn(self) -> int:
        """Turns played so far."""
        return self._turn

    @property
    def plays(self) -> tuple[PlayRecord, ...]:
        """The record of every turn played, in order."""
        return tuple(self._plays)

    @property
    def won(self) -> bool:
        """True once all 11 piles are closed."""
        return all(self._closed)

    @property
    def is_over(self) -> bool:
        """True when the game is won, or lost because the draw pile is used up."""
        return self.won or self._next >= len(self._draw)

    @property
    def result(self) -> SolitaireResult:
        """The outcome so far; final once :attr:`is_over`."""
        return SolitaireResult(self.won, sum(self._closed), self._turn)

    def unseen_counts(self) -> npt.NDArray[np.int64]:
        """Counts of the cards not in sight: deck less piles, discards and top card."""
        full = full_counts(self._rules).astype(np.int64)
        full -= self._piles.sum(axis=0, dtype=np.int64)
        for c in self._discards:
            full[c.index] -= 1
        top = self.draw_top
        if top is not None:
            full[top.index] -= 1
        return full

    def observation(self) -> SolitaireObservation:
        """What a player sees now (piles, closed piles, top card, unseen cards)."""
        counts = self._piles.copy()
        counts.flags.writeable = False
        unseen = self.unseen_counts()
        unseen.flags.writeable = False
        return SolitaireObservation(counts, tuple(self._closed), self.draw_top,
                                    self.draw_remaining, unseen, self._turn, self._rules)

    def legal_plays(self) -> list[tuple[int, Card]]:
        """Every legal ``(pile, discard)`` of this turn, one per distinct discard card."""
        top = self.draw_top
        if self.is_over or top is None:
            return []
        out: list[tuple[int, Card]] = []
        for k, n in enumerate(PILE_SIZES):
            if self._closed[k]:
                continue
            row = self._piles[k].copy()
            row[top.index] += 1
            out.extend((n, Card.from_index(int(t))) for t in np.flatnonzero(row))
        return out

    # -- moves ---------------------------------------------------------------------------------

    def verify_play(self, pile: int, discard: CardLike) -> None:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless ``play(pile, discard)`` is legal.

        Raises ``TypeError`` for arguments of the wrong type and
        :class:`~fivecrowns.CardError` for a card string that names no card.

        >>> game = Solitaire(seed=1)
        >>> game.verify_play(5, "9C")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        fivecrowns.errors.IllegalMoveError: cannot discard 9C from pile 5: the pile holds ...
        """
        size = _check_pile(pile)
        card = _as_card(discard)
        if self.won:
            raise IllegalMoveError("the game is over: all 11 piles are closed")
        top = self.draw_top
        if top is None:
            raise IllegalMoveError("the game is over: the draw pile is used up")
        k = size - 3
        if self._closed[k]:
            raise IllegalMoveError(f"pile {size} is closed and takes no more cards; "
                                   f"the open piles are {_names(self.open_piles)}")
        if card != top and self._piles[k, card.index] == 0:
            raise IllegalMoveError(f"cannot discard {card} from pile {size}: the pile holds "
                                   f"{format_cards(self.pile(size))} and the card turned up "
                                   f"is {top}")

    def can_play(self, pile: int, discard: CardLike) -> bool:
        """True if ``play(pile, discard)`` is legal now."""
        return passes(self.verify_play, pile, discard)

    def play(self, pile: int, discard: CardLike) -> PlayRecord:
        """Turn up the top card, add it to ``pile`` and discard ``discard`` from that pile.

        Returns the frozen record of the turn; raises (leaving the game unchanged) if the
        move is illegal.
        """
        self.verify_play(pile, discard)
        size = int(pile)
        k = size - 3
        card = _as_card(discard)
        top = Card.from_index(self._draw[self._next])
        row = self._piles[k]
        row[top.index] += 1
        row[card.index] -= 1
        self._next += 1
        self._discards.append(card)
        self._turn += 1
        left = deadwood(row, size, decks=self._rules.decks)
        if left == 0:
            self._closed[k] = True
        record = PlayRecord(self._turn, top, size, card, left, left == 0)
        self._plays.append(record)
        return record

    # -- copies --------------------------------------------------------------------------------

    def clone(self) -> Solitaire:
        """An independent copy of the game (the same deal, the same turns played)."""
        other = Solitaire.__new__(Solitaire)
        other._rules = self._rules
        other._piles = self._piles.copy()
        other._closed = list(self._closed)
        other._draw = self._draw
        other._next = self._next
        other._discards = list(self._discards)
        other._turn = self._turn
        other._plays = list(self._plays)
        return other

    def __copy__(self) -> Solitaire:
        return self.clone()

    def __deepcopy__(self, memo: object) -> Solitaire:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Solitaire):
            return NotImplemented
        return (self._rules == other._rules and np.array_equal(self._piles, other._piles)
                and self._closed == other._closed and self._draw == other._draw
                and self._next == other._next and self._discards == other._discards
                and self._turn == other._turn)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Solitaire turn {self._turn}, {sum(self._closed)}/{_N_PILES} piles closed, "
                f"{self.draw_remaining} to draw>")

    def describe(self, *, symbols: bool = False) -> str:
        """Several lines: each pile with its state, then the top card and the draw count."""
        lines = []
        for k, n in enumerate(PILE_SIZES):
            state = "closed" if self._closed[k] else "open  "
            lines.append(f"pile {n:2} ({state}) "
                         f"{format_cards(_cards_of(self._piles[k]), symbols=symbols)}")
        top = self.draw_top
        lines.append(f"top {top.symbol if symbols else top}" if top is not None else "top -")
        lines.append(f"draw pile {self.draw_remaining}, discards {len(self._discards)}, "
                     f"turn {self._turn}")
        return "\n".join(lines)


def _names(sizes: Iterable[int]) -> str:
    names = [str(n) for n in sizes]
    return ", ".join(names) if names else "none"


def _check_rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    return rules
