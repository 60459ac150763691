"""What a round says about itself: phases, public events, move records, results and the
observation a player sees.

Records and results are frozen dataclasses; an :class:`Observation` holds read-only
arrays. None of them refers back to the round, so they can be kept, compared and pickled.

>>> from fivecrowns.round import Round
>>> r = Round(2, round_number=1, seed=5)
>>> rec = r.draw("deck")
>>> rec.player, rec.source.name, rec.turn
(1, 'DECK', 0)
>>> obs = r.observation(1)
>>> obs.phase is Phase.DISCARD, len(obs.hand), int(obs.discard_counts.sum())
(True, 4, 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .actions import _CARDS, Source
from .cards import N_TYPES, Card
from .public import Frozen, thaw

__all__ = [
    "Phase",
    "EventKind",
    "Event",
    "DrawRecord",
    "DiscardRecord",
    "RoundResult",
    "Observation",
]

_ZEROS = np.zeros(N_TYPES, dtype=np.uint8)
_ZEROS.flags.writeable = False


class Phase(enum.Enum):
    """What the player to act must do next."""

    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


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
class RoundResult:
    """The outcome of a round.

    Attributes
    ----------
    scores : tuple of int
        Each player's round score: the deadwood of ``final_hands[p]``, the cards the
        player kept. That is 0 for the player who went out; on a final turn, the deadwood
        of the n cards kept after the player's own discard (docs/rules.rst, A round, 4);
        when the round hit ``max_turns``, the deadwood of the hand.
    went_out : int or None
        Who went out (in a sudden-death round: the winner); ``None`` if the round hit
        ``max_turns``.
    hit_max_turns : bool
        The round was stopped by ``Rules.max_turns`` (docs/rules.rst, A round, 6).
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
    result : RoundResult or None
        The round's result on the record that ended it (``round_over``), else ``None``.
    """

    player: int
    card: Card
    go_out: bool
    turn: int
    round_over: bool = False
    result: RoundResult | None = None


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
        Player numbers of the round; in a game's tie-break round they number the tied
        players 0.. (see :attr:`fivecrowns.Game.round_seats`).
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
    discard_counts : ndarray
        The discard pile's contents, a read-only (56,) ``uint8`` row. In an observation
        from :meth:`Round.observation <fivecrowns.round.Round.observation>` this and the
        next two are made when first read, from the counts the round tracked at the
        moment of the observation (a bot that never reads them does not pay for them).
    taken_counts : tuple of ndarray
        For each player, the cards they were seen taking from the discard pile and have
        not discarded since (read-only (56,) ``uint8`` rows).
    unseen_counts : ndarray
        The cards whose place this player cannot know: the whole deck less their hand,
        the discard pile and the other players' ``taken_counts`` (read-only (56,)
        ``uint8``).
    return_discard : bool
        ``Rules.return_discard``: whether a card just taken from the discard pile may be
        discarded in the same turn.
    must_keep : Card or None
        In the player's own discard phase after taking the top discard (with
        ``return_discard`` off): the card taken, which may not be discarded this turn.
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
    discard_counts: npt.NDArray[np.uint8] = field(default_factory=lambda: _ZEROS)
    taken_counts: tuple[npt.NDArray[np.uint8], ...] = ()
    unseen_counts: npt.NDArray[np.uint8] = field(default_factory=lambda: _ZEROS)
    return_discard: bool = False
    must_keep: Card | None = None

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

    def __getstate__(self) -> dict[str, Any]:
        # Every field made: a pickle or copy holds the same state as one of an observation
        # built with every field given.
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class _Tracked:
    """A field of :class:`Observation` made when first read.

    :meth:`Round.observation <fivecrowns.round.Round.observation>` leaves the three
    tracked counts out of the observation's ``__dict__`` and keeps the round's
    :meth:`~fivecrowns.public.PublicState.freeze` under ``"_tracked"`` instead. The first
    read of any of them comes here and stores all three in the ``__dict__`` (a reader of
    one nearly always reads the others). The descriptor defines no ``__set__``, so later
    reads find the values in the ``__dict__`` and never come back here; an observation
    built by its constructor holds every field there and never comes here at all.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        frozen: Frozen | None = d.get("_tracked")
        if frozen is None:
            raise AttributeError(f"'Observation' object has no attribute '{self.name}'")
        d["discard_counts"], d["taken_counts"], d["unseen_counts"] = thaw(
            frozen, d["player"], d["counts"])
        return d[self.name]


# Installed after @dataclass has read the fields' defaults, which stay the constructor's.
for _name in ("discard_counts", "taken_counts", "unseen_counts"):
    setattr(Observation, _name, _Tracked(_name))
del _name
