"""One round of Five Crowns as a state machine (RULES.md, "A round").

A :class:`Round` deals the cards, then alternates two phases for the player whose
turn it is: *draw* (from the draw pile or the top of the discard pile) and *discard*
(one card, optionally going out). Each move has three methods in the pokerkit
manner: ``verify_draw`` raises :class:`~fivecrowns.IllegalMoveError` (a ``ValueError``)
with a full sentence, ``can_draw`` answers True/False, and ``draw`` makes the move and
returns a frozen record; the same for ``discard``. An illegal move changes nothing.

Going out needs the n cards kept after the discard to have deadwood 0. After someone
goes out every other player has exactly one more turn, and scores the best-discard
deadwood of the n + 1 cards held on it; the player who went out scores 0. If nobody goes out within
``Rules.max_turns`` turns the round stops and everyone scores the deadwood of their
hand; :attr:`RoundResult.hit_max_turns` reports it.

Action encoding
---------------
For reinforcement learning and search, every move is also an int in ``0..113``
(:data:`N_ACTIONS` = 114):

==========  ======================================================
``0``       draw from the draw pile (:attr:`Source.DECK`)
``1``       take the top card of the discard pile (:attr:`Source.DISCARD`)
``2 + t``   discard card type ``t`` (0..55), without going out
``58 + t``  discard card type ``t`` and go out
==========  ======================================================

:meth:`Round.legal_action_mask` gives a numpy bool array of that length.

Examples
--------
>>> from fivecrowns.round import Round, Source
>>> r = Round(2, round_number=1, seed=5)
>>> r.current_player, r.phase.value, r.wild
(1, 'draw', 3)
>>> rec = r.draw(Source.DECK)
>>> r.phase.value
'discard'
>>> card = r.hand(1)[0]
>>> r.can_discard(card)
True
>>> _ = r.discard(card)
>>> r.current_player, r.turn
(0, 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple, Union

import numpy as np
import numpy.typing as npt

from . import solver
from ._checks import passes
from .cards import N_TYPES, Card
from .deck import Deck, SeedLike
from .errors import CardError, IllegalMoveError
from .rules import Rules
from .solver import MAX_HAND_SIZE

__all__ = [
    "Phase",
    "Source",
    "EventKind",
    "Event",
    "DrawRecord",
    "DiscardRecord",
    "RoundResult",
    "Observation",
    "Round",
    "N_ACTIONS",
    "ACTION_DRAW_DECK",
    "ACTION_DRAW_DISCARD",
    "ACTION_DISCARD",
    "ACTION_GO_OUT",
    "encode_draw",
    "encode_discard",
    "decode_action",
    "describe_action",
    "card_index",
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


class Phase(enum.Enum):
    """What the player to act must do next."""

    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


class Source(enum.IntEnum):
    """Where a card is drawn from; the values are the action codes."""

    DECK = 0
    DISCARD = 1


class EventKind(enum.Enum):
    """Kinds of public events in a round's history."""

    TURN_UP = "turn_up"            #: the card turned up to start the discard pile
    DRAW_DECK = "draw_deck"        #: a blind draw (the card stays hidden)
    DRAW_DISCARD = "draw_discard"  #: the top discard taken (everyone sees it)
    DISCARD = "discard"            #: a discard
    GO_OUT = "go_out"              #: a discard by a player going out (or laying down all)
    RESHUFFLE = "reshuffle"        #: the discard pile but its top became the draw pile


class Event(NamedTuple):
    """One public event: who (``-1`` for none), what, and the card when it is public."""

    player: int
    kind: EventKind
    card: Card | None


_CARDS: tuple[Card, ...] = tuple(Card.from_index(t) for t in range(N_TYPES))
_SOURCES = (Source.DECK, Source.DISCARD)

SourceLike = Union[Source, int, str]
CardArg = Union[Card, str, int, np.integer]


@dataclass(frozen=True)
class DrawRecord:
    """What a draw did.

    Attributes
    ----------
    player : int
    source : Source
    card : Card
        The card drawn (private to ``player`` when ``source`` is the deck).
    turn : int
        Turns completed in the round before this one (0 for the first turn).
    reshuffled : bool
        True if the draw pile was empty and the discard pile was reshuffled first.
    """

    player: int
    source: Source
    card: Card
    turn: int
    reshuffled: bool = False


@dataclass(frozen=True)
class DiscardRecord:
    """What a discard did.

    Attributes
    ----------
    player : int
    card : Card
    go_out : bool
        The player laid down all other cards.
    turn : int
    round_over : bool
        This discard ended the round.
    """

    player: int
    card: Card
    go_out: bool
    turn: int
    round_over: bool = False


@dataclass(frozen=True)
class RoundResult:
    """The outcome of a round.

    Attributes
    ----------
    scores : tuple of int
        Each player's round score: 0 for the player who went out, the best-discard
        deadwood of the n + 1 cards held on a final turn, the deadwood of the hand if the
        round hit ``max_turns``.
    went_out : int or None
        Who went out (in a sudden-death round: the winner); ``None`` if the round hit
        ``max_turns``.
    hit_max_turns : bool
        The round was stopped by ``Rules.max_turns`` (RULES.md, A round, 6).
    turns : int
        Turns played.
    final_hands : tuple of tuple of Card
        Each player's cards at the end (sorted).
    round_number : int or None
    hand_size, wild, dealer : int
    reshuffles : int
        Times the discard pile was reshuffled into a new draw pile.
    """

    scores: tuple[int, ...]
    went_out: int | None
    hit_max_turns: bool
    turns: int
    final_hands: tuple[tuple[Card, ...], ...]
    round_number: int | None
    hand_size: int
    wild: int
    dealer: int
    reshuffles: int


@dataclass(frozen=True, eq=False)
class Observation:
    """Everything one player may know at a moment of a round, and nothing more.

    Attributes
    ----------
    player : int
        Whose view this is.
    counts : ndarray
        The player's own hand as a read-only (56,) ``uint8`` row (n cards, or n + 1 in
        their discard phase).
    drawn : Card or None
        In the player's own discard phase, the card just drawn.
    top_discard : Card or None
    draw_size, discard_size : int
        Sizes of the draw and discard piles.
    round_number : int or None
        1..11, or ``None`` for a round with an explicit hand size (a tie-break).
    hand_size, wild : int
    n_players, dealer, current_player : int
    phase : Phase
    turn : int
        Turns completed so far.
    final_turn : bool
        Someone has gone out and this is the current player's last turn.
    went_out : int or None
    history : tuple of Event
        Public history: the turned-up card, every blind draw (card hidden), every card
        taken from the discard pile, every discard, every reshuffle.
    decks : int
        2, or 4 in party mode.
    sudden_death : bool
        A tie-break round: the first player to go out wins at once.
    totals : tuple of int or None
        In a game, the running totals before this round.
    """

    player: int
    counts: npt.NDArray[np.uint8]
    drawn: Card | None
    top_discard: Card | None
    draw_size: int
    discard_size: int
    round_number: int | None
    hand_size: int
    wild: int
    n_players: int
    dealer: int
    current_player: int
    phase: Phase
    turn: int
    final_turn: bool
    went_out: int | None
    history: tuple[Event, ...]
    decks: int = 2
    sudden_death: bool = False
    totals: tuple[int, ...] | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        """The player's cards, sorted."""
        row = self.counts
        return tuple(_CARDS[t] for t in np.flatnonzero(row).tolist()
                     for _ in range(int(row[t])))

    @property
    def my_turn(self) -> bool:
        """True if this player is to act."""
        return self.current_player == self.player and self.phase is not Phase.OVER


def card_index(card: CardArg) -> int:
    """Type index 0..55 of a card given as :class:`Card`, text or index.

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
    raise TypeError(f"a card must be a Card, a str such as '5D' or an index 0..55, "
                    f"got {type(card).__name__}")


def _source(source: SourceLike) -> Source:
    if source.__class__ is Source:
        return source
    if isinstance(source, Source):
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


def encode_discard(card: CardArg, go_out: bool = False) -> int:
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


class Round:
    """One round: deal, then turns until the round ends.

    Parameters
    ----------
    n_players : int
        1 to ``rules.max_players`` (7, or 14 with 4 decks).
    round_number : int, optional
        1..11: deals ``round_number + 2`` cards, that rank wild. Leave it out to give
        ``hand_size`` and ``wild`` instead.
    seed : int, SeedSequence or Generator
        Shuffles the deck (and any reshuffle). Required: there is no hidden randomness.
    rules : Rules, optional
    dealer : int
        The dealer's seat; the player at the dealer's left (``dealer + 1``) plays first.
    hand_size, wild : int, optional
        An explicit deal (e.g. the 6-card, 6s-wild tie-break round).
    sudden_death : bool
        The first player to go out ends the round at once and wins it (the tie-break).
    totals : tuple of int, optional
        The players' running totals before this round, shown in observations (a game
        passes them).

    Examples
    --------
    >>> r = Round(3, hand_size=6, wild=6, seed=2, dealer=2)
    >>> r.current_player, len(r.hand(0)), r.deck.draw_size
    (0, 6, 97)
    """

    def __init__(self, n_players: int, round_number: int | None = None, *,
                 seed: SeedLike, rules: Rules | None = None, dealer: int = 0,
                 hand_size: int | None = None, wild: int | None = None,
                 sudden_death: bool = False, totals: tuple[int, ...] | None = None) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        if isinstance(n_players, bool) or not isinstance(n_players, int):
            raise TypeError(f"n_players must be an int, got {type(n_players).__name__}")
        if not 1 <= n_players <= rules.max_players:
            raise ValueError(f"a round takes 1 to {rules.max_players} players with "
                             f"{rules.decks} decks, got {n_players}")
        if round_number is not None:
            if hand_size is not None or wild is not None:
                raise ValueError("give either round_number or hand_size and wild, not both")
            hand_size = Rules.hand_size(round_number)
            wild = Rules.wild_rank(round_number)
        else:
            if hand_size is None or wild is None:
                raise ValueError("give a round_number 1..11, or both hand_size and wild")
            for name, value in (("hand_size", hand_size), ("wild", wild)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise TypeError(f"{name} must be an int, got {type(value).__name__}")
            if not 3 <= wild <= 13:
                raise ValueError(f"wild must be a rank 3..13, got {wild}")
            if not 1 <= hand_size <= MAX_HAND_SIZE - 1:
                raise ValueError(f"hand_size must be 1..{MAX_HAND_SIZE - 1}, got {hand_size}")
            if n_players * hand_size + 1 > rules.n_cards:
                raise ValueError(f"{n_players} hands of {hand_size} cards and a turned-up "
                                 f"card need more than the {rules.n_cards} cards of the deck")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise TypeError(f"dealer must be an int, got {type(dealer).__name__}")
        if not 0 <= dealer < n_players:
            raise ValueError(f"dealer must be a seat 0..{n_players - 1}, got {dealer}")
        self.rules = rules
        self.n_players = n_players
        self.round_number = round_number
        self.hand_size: int = hand_size
        self.wild: int = wild
        self.dealer = dealer
        self.sudden_death = bool(sudden_death)
        self.totals = totals
        self.deck = Deck(rules, seed)
        self._decks = rules.decks
        self._hands = [np.zeros(N_TYPES, dtype=np.uint8) for _ in range(n_players)]
        first = (dealer + 1) % n_players
        for _ in range(hand_size):  # one card at a time, clockwise from the dealer's left
            for i in range(n_players):
                self._hands[(first + i) % n_players][self.deck.draw_index()] += 1
        up = self.deck.turn_up()
        self._history: list[Event] = [Event(-1, EventKind.TURN_UP, _CARDS[up])]
        self._current = first
        self._phase = Phase.DRAW
        self._turn = 0
        self._drawn: int | None = None
        self._went_out: int | None = None
        self._final_left = 0
        self._scores: list[int | None] = [None] * n_players
        self._result: RoundResult | None = None

    # -- state --

    @property
    def current_player(self) -> int:
        """Whose turn it is (the last player to act once the round is over)."""
        return self._current

    @property
    def phase(self) -> Phase:
        """DRAW, DISCARD, or OVER."""
        return self._phase

    @property
    def turn(self) -> int:
        """Turns completed (a turn is one player's draw and discard)."""
        return self._turn

    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self._phase is Phase.OVER

    @property
    def went_out(self) -> int | None:
        """The player who went out, if any."""
        return self._went_out

    @property
    def final_turn(self) -> bool:
        """True while someone has gone out and the current turn is a last one."""
        return self._went_out is not None and self._phase is not Phase.OVER

    @property
    def result(self) -> RoundResult | None:
        """The outcome once the round is over, else ``None``."""
        return self._result

    @property
    def history(self) -> tuple[Event, ...]:
        """The public history of the round."""
        return tuple(self._history)

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's cards, sorted (everything, not only what one player may see)."""
        row = self._hands[self._check_player(player)]
        return tuple(_CARDS[t] for t in np.flatnonzero(row).tolist()
                     for _ in range(int(row[t])))

    def hand_counts(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of a player's hand as a (56,) ``uint8`` row."""
        return self._hands[self._check_player(player)].copy()

    def _check_player(self, player: int) -> int:
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
            raise TypeError(f"player must be an int, got {type(player).__name__}")
        if not 0 <= player < self.n_players:
            raise ValueError(f"player must be 0..{self.n_players - 1}, got {player}")
        return int(player)

    def _check_turn(self, player: int | None, move: str) -> None:
        if self._phase is Phase.OVER:
            raise IllegalMoveError(f"cannot {move}: the round is over")
        if player is not None and player != self._current:
            raise IllegalMoveError(f"player {player} cannot {move}: it is player "
                                   f"{self._current}'s turn")

    # -- drawing --

    def verify_draw(self, source: SourceLike, *, player: int | None = None) -> Source:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless the current player (or
        ``player``, if given) may draw from ``source`` now; return the source."""
        src = _source(source)
        self._check_turn(player, "draw")
        if self._phase is not Phase.DRAW:
            raise IllegalMoveError(f"player {self._current} has already drawn this turn "
                                   f"and must discard")
        if src is Source.DISCARD:
            if not self.deck.discard_size:
                raise IllegalMoveError("cannot take from the discard pile: it is empty")
        elif not self.deck.can_draw:
            raise IllegalMoveError("cannot draw from the deck: the draw pile is empty and "
                                   "the discard pile has no card to reshuffle below its top")
        return src

    def can_draw(self, source: SourceLike, *, player: int | None = None) -> bool:
        """True if :meth:`draw` with these arguments would succeed."""
        return passes(self.verify_draw, source, player=player)

    def draw(self, source: SourceLike, *, player: int | None = None) -> DrawRecord:
        """Draw from ``source`` (the deck or the discard pile) for the current player.

        Raises
        ------
        IllegalMoveError
            Out of turn, in the discard phase, after the round, or from an empty pile.
        """
        src = self.verify_draw(source, player=player)
        p = self._current
        reshuffled = False
        if src is Source.DECK:
            if not self.deck.draw_size:
                self.deck.reshuffle()
                self._history.append(Event(-1, EventKind.RESHUFFLE, None))
                reshuffled = True
            t = self.deck.draw_index()
            self._history.append(Event(p, EventKind.DRAW_DECK, None))
        else:
            t = self.deck.take_discard()
            self._history.append(Event(p, EventKind.DRAW_DISCARD, _CARDS[t]))
        self._hands[p][t] += 1
        self._drawn = t
        self._phase = Phase.DISCARD
        return DrawRecord(p, src, _CARDS[t], self._turn, reshuffled)

    # -- discarding --

    def verify_discard(self, card: CardArg, go_out: bool = False, *,
                       player: int | None = None) -> int:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless the current player may
        discard ``card`` (going out if ``go_out``); return the card's type index.

        Going out is allowed when the other n cards have deadwood 0.
        """
        t = card_index(card)
        if not isinstance(go_out, (bool, np.bool_)):
            raise TypeError(f"go_out must be a bool, got {type(go_out).__name__}")
        self._check_turn(player, "discard")
        if self._phase is not Phase.DISCARD:
            raise IllegalMoveError(f"player {self._current} must draw before discarding")
        row = self._hands[self._current]
        if not row[t]:
            raise IllegalMoveError(f"player {self._current} cannot discard "
                                   f"{Card.from_index(t)}: it is not in their hand")
        if go_out:
            row[t] -= 1
            try:
                dead = solver.deadwood(row, self.wild, decks=self._decks)
            finally:
                row[t] += 1
            if dead:
                raise IllegalMoveError(
                    f"player {self._current} cannot go out discarding {Card.from_index(t)}: "
                    f"the other {self.hand_size} cards leave deadwood {dead}, not 0")
        return t

    def can_discard(self, card: CardArg, go_out: bool = False, *,
                    player: int | None = None) -> bool:
        """True if :meth:`discard` with these arguments would succeed."""
        return passes(self.verify_discard, card, go_out, player=player)

    def discard(self, card: CardArg, go_out: bool = False, *,
                player: int | None = None) -> DiscardRecord:
        """Discard ``card``, ending the current player's turn; with ``go_out=True`` lay
        down all the other cards (they must form melds) and go out.

        On a final turn (someone has gone out) ``go_out=True`` just lays everything
        down; either way the player scores the best-discard deadwood of the n + 1 cards
        held before this discard (RULES.md: going out, end-of-round score).

        Raises
        ------
        IllegalMoveError
            Out of turn, before drawing, a card not held, or going out with deadwood.
        """
        t = self.verify_discard(card, go_out, player=player)
        p = self._current
        row = self._hands[p]
        final_score = 0
        if self._went_out is not None and not go_out:
            # RULES.md: a final turn scores the best-discard deadwood of the n + 1 cards
            # held, so a careless discard on the last turn costs nothing.
            final_score = solver.best_discard(row, self.wild, decks=self._decks).deadwood
        row[t] -= 1
        self.deck.discard(t)
        c = _CARDS[t]
        self._history.append(Event(p, EventKind.GO_OUT if go_out else EventKind.DISCARD, c))
        self._drawn = None
        self._turn += 1
        over = False
        if self._went_out is None:
            if go_out:
                self._went_out = p
                self._scores[p] = 0
                self._final_left = 0 if self.sudden_death else self.n_players - 1
                over = self._final_left == 0
            elif self._turn >= self.rules.max_turns:
                self._finish(hit_max_turns=True)
                return DiscardRecord(p, c, bool(go_out), self._turn - 1, True)
        else:
            self._scores[p] = final_score
            self._final_left -= 1
            over = self._final_left == 0
        if over:
            self._finish(hit_max_turns=False)
        else:
            self._current = (p + 1) % self.n_players
            self._phase = Phase.DRAW
        return DiscardRecord(p, c, bool(go_out), self._turn - 1, over)

    def _finish(self, hit_max_turns: bool) -> None:
        for q in range(self.n_players):
            if self._scores[q] is None:
                self._scores[q] = solver.deadwood(self._hands[q], self.wild, decks=self._decks)
        self._phase = Phase.OVER
        scores = tuple(int(s) for s in self._scores if s is not None)
        self._result = RoundResult(
            scores=scores, went_out=self._went_out, hit_max_turns=hit_max_turns,
            turns=self._turn, final_hands=tuple(self.hand(q) for q in range(self.n_players)),
            round_number=self.round_number, hand_size=self.hand_size, wild=self.wild,
            dealer=self.dealer, reshuffles=self.deck.reshuffles)

    # -- actions as ints --

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A (114,) bool array, True for each legal action code (all False once over).

        >>> r = Round(2, round_number=1, seed=0)
        >>> r.legal_action_mask()[:2].tolist()
        [True, True]
        """
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        if self._phase is Phase.DRAW:
            mask[ACTION_DRAW_DECK] = self.deck.can_draw
            mask[ACTION_DRAW_DISCARD] = self.deck.discard_size > 0
        elif self._phase is Phase.DISCARD:
            row = self._hands[self._current]
            held = np.flatnonzero(row)
            mask[ACTION_DISCARD + held] = True
            if solver.discard_deadwood_many(row.reshape(1, N_TYPES), self.wild,
                                        decks=self._decks)[0] == 0:
                batch = np.repeat(row.reshape(1, N_TYPES), held.size, axis=0)
                batch[np.arange(held.size), held] -= 1
                dead = solver.deadwood_many(batch, self.wild, decks=self._decks)
                mask[ACTION_GO_OUT + held[dead == 0]] = True
        return mask

    def legal_actions(self) -> list[int]:
        """The legal action codes, ascending."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def verify_action(self, action: int, *, player: int | None = None) -> None:
        """Raise unless ``action`` (an int 0..113) is legal now."""
        kind, what, out = decode_action(action)
        if kind == "draw":
            assert isinstance(what, Source)
            self.verify_draw(what, player=player)
        else:
            assert isinstance(what, Card)
            self.verify_discard(what, out, player=player)

    def can_apply(self, action: int, *, player: int | None = None) -> bool:
        """True if :meth:`apply_action` would succeed."""
        return passes(self.verify_action, action, player=player)

    def apply_action(self, action: int, *,
                     player: int | None = None) -> DrawRecord | DiscardRecord:
        """Make the move of an action code (see the module docstring)."""
        kind, what, out = decode_action(action)
        if kind == "draw":
            assert isinstance(what, Source)
            return self.draw(what, player=player)
        assert isinstance(what, Card)
        return self.discard(what, out, player=player)

    # -- views --

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now: their own hand, the public piles and history."""
        p = self._check_player(player)
        counts = self._hands[p].copy()
        counts.flags.writeable = False
        own = p == self._current and self._phase is Phase.DISCARD
        top = self.deck.top_discard_index
        # The frozen dataclass's own __init__ sets 20 fields one by one through
        # object.__setattr__; filling __dict__ at once is 5x faster on this hot path.
        obs = object.__new__(Observation)
        obs.__dict__.update(
            player=p, counts=counts,
            drawn=_CARDS[self._drawn] if own and self._drawn is not None else None,
            top_discard=None if top is None else _CARDS[top],
            draw_size=self.deck.draw_size, discard_size=self.deck.discard_size,
            round_number=self.round_number, hand_size=self.hand_size, wild=self.wild,
            n_players=self.n_players, dealer=self.dealer, current_player=self._current,
            phase=self._phase, turn=self._turn,
            final_turn=self._went_out is not None and self._phase is not Phase.OVER,
            went_out=self._went_out, history=tuple(self._history), decks=self._decks,
            sudden_death=self.sudden_death, totals=self.totals)
        return obs

    def clone(self) -> Round:
        """An independent copy: playing on it leaves this round untouched."""
        new = object.__new__(Round)
        new.__dict__.update(self.__dict__)
        new.deck = self.deck.clone()
        new._hands = [h.copy() for h in self._hands]
        new._history = list(self._history)
        new._scores = list(self._scores)
        return new

    def __repr__(self) -> str:
        return (f"Round(players={self.n_players}, round={self.round_number}, "
                f"hand_size={self.hand_size}, wild={self.wild}, turn={self._turn}, "
                f"player={self._current}, phase={self._phase.value})")

