"""One round of Five Crowns as a state machine (docs/rules.rst, A round).

A :class:`Round` deals the cards, then alternates two phases for the player whose
turn it is: *draw* (from the draw pile or the top of the discard pile) and *discard*
(one card, optionally going out). Each move has three methods in the pokerkit
manner: ``verify_draw`` raises :class:`~fivecrowns.IllegalMoveError` (a ``ValueError``)
with a full sentence, ``can_draw`` answers True/False, and ``draw`` makes the move and
returns a frozen record; the same for ``discard``. An illegal move changes nothing.

Going out needs the n cards kept after the discard to have deadwood 0. After someone
goes out every other player has exactly one more turn, and scores the deadwood of the n
cards kept after their own discard; the player who went out scores 0. With
``Rules.return_discard`` off (the default) a card just taken from the discard pile may
not be discarded again in the same turn. If nobody goes out within ``Rules.max_turns``
turns the round stops and everyone scores the deadwood of their hand;
:attr:`~fivecrowns.records.RoundResult.hit_max_turns` reports it.

Every move is also an action code (:mod:`fivecrowns.actions`);
:meth:`Round.legal_actions` and :meth:`Round.apply_action` are the fast path for search
and reinforcement learning. The names of :mod:`fivecrowns.actions` and
:mod:`fivecrowns.records` can still be imported from here.

Examples
--------
>>> from fivecrowns import Round, Source
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

import copy
import os
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _state_py, solver
from . import positions as _positions
from ._checks import check_int, check_seat, check_table, passes
from ._deprecation import keyword_only
from .actions import _CARDS, _source
from .actions import ACTION_DISCARD as ACTION_DISCARD
from .actions import ACTION_DRAW_DECK as ACTION_DRAW_DECK
from .actions import ACTION_DRAW_DISCARD as ACTION_DRAW_DISCARD
from .actions import ACTION_GO_OUT as ACTION_GO_OUT
from .actions import N_ACTIONS as N_ACTIONS
from .actions import CardArg as CardArg
from .actions import Source as Source
from .actions import SourceLike as SourceLike
from .actions import card_index as card_index
from .actions import decode_action as decode_action
from .actions import describe_action as describe_action
from .actions import encode_discard as encode_discard
from .actions import encode_draw as encode_draw
from .cards import N_TYPES, Card
from .deck import Deck
from .errors import IllegalMoveError
from .public import PublicState
from .records import DiscardRecord as DiscardRecord
from .records import DrawRecord as DrawRecord
from .records import Event as Event
from .records import EventKind as EventKind
from .records import Observation as Observation
from .records import Phase as Phase
from .records import RoundResult as RoundResult
from .rules import Rules
from .seeding import SeedLike
from .solver import MAX_HAND_SIZE

__all__ = ["Round"]


def _load_rollout() -> Any:
    """The compiled engine (``fivecrowns._rollout``), unless ``FIVECROWNS_IMPLEMENTATION
    =python`` asks for the Python twins (the solver's switch) or it is not built."""
    if os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower() == "python":
        return None
    try:
        from . import _rollout
    except ImportError:  # a pure-Python install
        return None
    return _rollout


_rollout = _load_rollout()
#: The round state in use: the compiled one, or its twin (fivecrowns._state_py).
_State: Any = _state_py.RoundState if _rollout is None else _rollout.RoundState

_DRAW, _DISCARD, _OVER = Phase.DRAW, Phase.DISCARD, Phase.OVER
_DRAW_CODES: tuple[list[int], ...] = ([], [ACTION_DRAW_DECK], [ACTION_DRAW_DISCARD],
               [ACTION_DRAW_DECK, ACTION_DRAW_DISCARD])


def _draw_mask(codes: list[int]) -> npt.NDArray[np.bool_]:
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    mask[codes] = True
    mask.flags.writeable = False
    return mask


# The draw phase's masks, by the same index as _DRAW_CODES (legal_action_mask copies one).
_DRAW_MASKS = tuple(_draw_mask(codes) for codes in _DRAW_CODES)
_SOURCES = (Source.DECK, Source.DISCARD)
_UINT8 = np.dtype(np.uint8)
# Every field of an Observation, in order, but the three that it makes when first read
# from the round's frozen public counts, kept under "_tracked": observation() fills a copy.
_OBS_FIELDS: dict[str, Any] = dict.fromkeys(
    [name for name in Observation.__dataclass_fields__
     if name not in ("discard_counts", "taken_counts", "unseen_counts")] + ["_tracked"])


def _record(cls: type, **fields: Any) -> Any:
    # A frozen dataclass's __init__ sets each field through object.__setattr__; filling
    # __dict__ at once is much cheaper on the per-move path.
    rec: Any = object.__new__(cls)
    rec.__dict__.update(fields)
    return rec


class Round(_positions.RoundPositions):
    """One round: deal, then turns until the round ends.

    Parameters
    ----------
    n_players : int
        1 to ``rules.max_players`` (7, or 14 with 4 decks).
    round_number : int, optional
        1..11: deals ``round_number + 2`` cards, that rank wild. Leave it out to give
        ``hand_size`` and ``wild`` instead.
    seed : int, SeedSequence or Generator
        Shuffles the deck (and any reshuffle). Required and keyword-only: there is no
        hidden randomness.
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

    Notes
    -----
    ``copy.copy`` and ``copy.deepcopy`` of a round give the same independent copy as
    :meth:`clone` (random state included); ``copy.deepcopy`` of objects that share a
    generator with the round's deck (a :class:`~fivecrowns.Game`) keeps it shared.

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
        rules = check_table(n_players, rules, least=1, what="a round")
        if round_number is not None:
            if hand_size is not None or wild is not None:
                raise ValueError("give either round_number or hand_size and wild, not both")
            hand_size = Rules.hand_size(round_number)
            wild = Rules.wild_rank(round_number)
        else:
            if hand_size is None or wild is None:
                raise ValueError("give a round_number 1..11, or both hand_size and wild")
            hand_size, wild = check_int(hand_size, "hand_size"), check_int(wild, "wild")
            if not 3 <= wild <= 13:
                raise ValueError(f"wild must be a rank 3..13, got {wild}")
            if not 1 <= hand_size <= MAX_HAND_SIZE - 1:
                raise ValueError(f"hand_size must be 1..{MAX_HAND_SIZE - 1}, got {hand_size}")
            if n_players * hand_size + 1 > rules.n_cards:
                raise ValueError(f"{n_players} hands of {hand_size} cards and a turned-up "
                                 f"card need more than the {rules.n_cards} cards of the deck")
        dealer = check_seat(dealer, n_players, "dealer")
        self.rules = rules
        self.n_players = n_players
        self.round_number = round_number
        self.hand_size: int = hand_size
        self.wild: int = wild
        self.dealer = dealer
        self.sudden_death = bool(sudden_death)
        self.totals = totals
        self.deck = Deck(seed=seed, rules=rules)
        self._decks = rules.decks
        self._no_return = not rules.return_discard
        self._hands = [np.zeros(N_TYPES, dtype=np.uint8) for _ in range(n_players)]
        first = (dealer + 1) % n_players
        for _ in range(hand_size):  # one card at a time, clockwise from the dealer's left
            for i in range(n_players):
                self._hands[(first + i) % n_players][self.deck.draw_index()] += 1
        up = self.deck.turn_up()
        self._public = PublicState(n_players, rules)
        self._public.turn_up(up)
        self._history: list[Event] = [Event(-1, EventKind.TURN_UP, _CARDS[up])]
        self._current = first
        self._phase = _DRAW
        self._turn = 0
        self._drawn: int | None = None
        self._taken = -1  # the card type just taken from the discard pile, this turn
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
        return self._phase is _OVER

    @property
    def went_out(self) -> int | None:
        """The player who went out, if any."""
        return self._went_out

    @property
    def final_turn(self) -> bool:
        """True while someone has gone out and the current turn is a last one."""
        return self._went_out is not None and self._phase is not _OVER

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
        return self._cards(self._hands[self._check_player(player)])

    @staticmethod
    def _cards(row: npt.NDArray[np.uint8]) -> tuple[Card, ...]:
        return tuple(_CARDS[t] for t in np.flatnonzero(row).tolist()
                     for _ in range(int(row[t])))

    def hand_counts(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of a player's hand as a (56,) ``uint8`` row."""
        return self._hands[self._check_player(player)].copy()

    def _check_player(self, player: int) -> int:
        check_seat(player, self.n_players)
        return int(player)

    def _check_turn(self, player: int | None, move: str) -> None:
        if self._phase is _OVER:
            raise IllegalMoveError(f"cannot {move}: the round is over")
        if player is not None and player != self._current:
            raise IllegalMoveError(f"player {player} cannot {move}: it is player "
                                   f"{self._current}'s turn")

    def _kept(self) -> int:
        """The card type the current player may not discard now, or -1.

        With ``Rules.return_discard`` off it is the card just taken from the discard pile
        (an identical copy would be the same pass in disguise), unless the hand holds
        nothing else to discard.
        """
        t = self._taken
        if t < 0 or self._hands[self._current][t] == self.hand_size + 1:
            return -1
        return t

    # -- drawing --

    def _check_draw(self, source: SourceLike, player: int | None) -> Source:
        src = _source(source)
        self._check_turn(player, "draw")
        if self._phase is not _DRAW:
            raise IllegalMoveError(f"player {self._current} has already drawn this turn "
                                   f"and must discard")
        if src is Source.DISCARD:
            if not self.deck.discard_size:
                raise IllegalMoveError("cannot take from the discard pile: it is empty")
        elif not self.deck.can_draw:
            raise IllegalMoveError("cannot draw from the deck: the draw pile is empty and "
                                   "the discard pile has no card to reshuffle below its top")
        return src

    def verify_draw(self, source: SourceLike, *, player: int | None = None) -> None:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless the current player (or
        ``player``, if given) may draw from ``source`` now."""
        self._check_draw(source, player)

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
        return self._draw(self._check_draw(source, player))

    def _draw(self, src: Source) -> DrawRecord:
        p = self._current
        reshuffled = False
        deck = self.deck
        if src is Source.DECK:
            if not deck.draw_size:
                deck.reshuffle()
                top = deck.top_discard_index
                assert top is not None
                self._public.reshuffle(top)
                self._history.append(Event(-1, EventKind.RESHUFFLE, None))
                reshuffled = True
            t = deck.draw_index()
            self._history.append(Event(p, EventKind.DRAW_DECK, None))
        else:
            t = deck.take_discard()
            self._public.take(p, t)
            self._history.append(Event(p, EventKind.DRAW_DISCARD, _CARDS[t]))
            if self._no_return:
                self._taken = t
        self._hands[p][t] += 1
        self._drawn = t
        self._phase = _DISCARD
        return _record(DrawRecord, player=p, source=src, card=_CARDS[t], turn=self._turn,
                       reshuffled=reshuffled)

    # -- discarding --

    def _check_discard(self, card: CardArg, go_out: bool, player: int | None) -> int:
        t = card_index(card)
        if not isinstance(go_out, (bool, np.bool_)):
            raise TypeError(f"go_out must be a bool, got {type(go_out).__name__}")
        self._check_turn(player, "discard")
        if self._phase is not _DISCARD:
            raise IllegalMoveError(f"player {self._current} must draw before discarding")
        row = self._hands[self._current]
        if not row[t]:
            raise IllegalMoveError(f"player {self._current} cannot discard "
                                   f"{_CARDS[t]}: it is not in their hand")
        if t == self._taken and self._kept() == t:
            raise IllegalMoveError(
                f"player {self._current} cannot discard {_CARDS[t]}: it was just taken "
                f"from the discard pile, and a card taken from the discard pile may not be "
                f"discarded again in the same turn (Rules.return_discard is off)")
        if go_out:
            row[t] -= 1
            try:
                dead = solver.deadwood(row, self.wild, decks=self._decks)
            finally:
                row[t] += 1
            if dead:
                raise IllegalMoveError(
                    f"player {self._current} cannot go out discarding {_CARDS[t]}: "
                    f"the other {self.hand_size} cards leave deadwood {dead}, not 0")
        return t

    @keyword_only("go_out")
    def verify_discard(self, card: CardArg, *, go_out: bool = False,
                       player: int | None = None) -> None:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless the current player may
        discard ``card`` (going out if ``go_out``).

        Going out is allowed when the other n cards have deadwood 0. With
        ``Rules.return_discard`` off, the card just taken from the discard pile may not
        be discarded in the same turn.
        """
        self._check_discard(card, go_out, player)

    @keyword_only("go_out")
    def can_discard(self, card: CardArg, *, go_out: bool = False,
                    player: int | None = None) -> bool:
        """True if :meth:`discard` with these arguments would succeed."""
        return passes(self.verify_discard, card, go_out=go_out, player=player)

    @keyword_only("go_out")
    def discard(self, card: CardArg, *, go_out: bool = False,
                player: int | None = None) -> DiscardRecord:
        """Discard ``card``, ending the current player's turn; with ``go_out=True`` lay
        down all the other cards (they must form melds) and go out.

        On a final turn (someone has gone out) ``go_out=True`` just lays everything
        down; either way the player scores the deadwood of the n cards kept after this
        discard, melds laid optimally (docs/rules.rst, A final turn's score): a careless
        discard costs points.

        Raises
        ------
        IllegalMoveError
            Out of turn, before drawing, a card not held, the card just taken from the
            discard pile (unless ``Rules.return_discard``), or going out with deadwood.
        """
        return self._discard(self._check_discard(card, go_out, player), bool(go_out))

    def _discard(self, t: int, go_out: bool) -> DiscardRecord:
        p = self._current
        row = self._hands[p]
        row[t] -= 1
        self.deck.discard(t)
        self._public.discard(p, t)
        c = _CARDS[t]
        self._history.append(Event(p, EventKind.GO_OUT if go_out else EventKind.DISCARD, c))
        self._drawn = None
        self._taken = -1
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
                over = True
        else:
            # docs/rules.rst, A round, 4: the deadwood of the cards kept after the discard
            self._scores[p] = 0 if go_out else solver.deadwood(row, self.wild,
                                                                decks=self._decks)
            self._final_left -= 1
            over = self._final_left == 0
        if over:
            if self._result is None:
                self._finish(hit_max_turns=False)
        else:
            self._current = (p + 1) % self.n_players
            self._phase = _DRAW
        return _record(DiscardRecord, player=p, card=c, go_out=go_out, turn=self._turn - 1,
                       round_over=over, result=self._result)

    def _finish(self, hit_max_turns: bool) -> None:
        for q in range(self.n_players):
            if self._scores[q] is None:
                self._scores[q] = solver.deadwood(self._hands[q], self.wild, decks=self._decks)
        self._phase = _OVER
        scores = tuple(int(s) for s in self._scores if s is not None)
        self._result = RoundResult(
            scores=scores, went_out=self._went_out, hit_max_turns=hit_max_turns,
            turns=self._turn, final_hands=tuple(self._cards(h) for h in self._hands),
            round_number=self.round_number, hand_size=self.hand_size, wild=self.wild,
            dealer=self.dealer, reshuffles=self.deck.reshuffles)

    # -- actions as ints --

    def _discard_types(self) -> tuple[list[int], list[int]]:
        """The card types the current player may discard, and those that go out."""
        row = self._hands[self._current]
        held = row.nonzero()[0].tolist()
        kept = self._kept()
        if kept >= 0:
            held.remove(kept)
        return held, self._go_out_types(row, held)

    def _go_out_types(self, row: npt.NDArray[np.uint8], held: list[int]) -> list[int]:
        """The types of ``held`` whose discard goes out: one best-discard call answers
        "none" for almost every hand; only a hand that can go out tries each discard."""
        wild, decks = self.wild, self._decks
        if solver._core.best_discard_row(row, wild, decks)[0]:
            return []
        out = []
        for t in held:  # rare: only when some discard goes out
            row[t] -= 1
            try:
                if solver.deadwood(row, wild, decks=decks) == 0:
                    out.append(t)
            finally:
                row[t] += 1
        return out

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A (114,) bool array, True for each legal action code (all False once over).

        >>> r = Round(2, round_number=1, seed=0)
        >>> r.legal_action_mask()[:2].tolist()
        [True, True]
        """
        phase = self._phase
        if phase is _DRAW:
            deck = self.deck
            return _DRAW_MASKS[deck.can_draw + 2 * (deck.discard_size > 0)].copy()
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        if phase is _DISCARD:
            row = self._hands[self._current]
            mask[ACTION_DISCARD:ACTION_GO_OUT] = row  # every card type held
            kept = self._kept()
            if kept >= 0:
                mask[ACTION_DISCARD + kept] = False
            if not solver._core.best_discard_row(row, self.wild, self._decks)[0]:
                for t in self._discard_types()[1]:
                    mask[ACTION_GO_OUT + t] = True
        return mask

    def legal_actions(self) -> list[int]:
        """The legal action codes, ascending (the same as :meth:`legal_action_mask`'s)."""
        if self._phase is _DRAW:
            deck = self.deck
            return list(_DRAW_CODES[deck.can_draw + 2 * (deck.discard_size > 0)])
        if self._phase is _DISCARD:
            held, out = self._discard_types()
            codes = [t + ACTION_DISCARD for t in held]
            if out:
                codes += [t + ACTION_GO_OUT for t in out]
            return codes
        return []

    def verify_action(self, action: int, *, player: int | None = None) -> None:
        """Raise unless ``action`` (an int 0..113) is legal now."""
        kind, what, out = decode_action(action)
        if kind == "draw":
            assert isinstance(what, Source)
            self._check_draw(what, player)
        else:
            assert isinstance(what, Card)
            self._check_discard(what, out, player)

    def can_apply_action(self, action: int, *, player: int | None = None) -> bool:
        """True if :meth:`apply_action` would succeed."""
        return passes(self.verify_action, action, player=player)

    def apply_action(self, action: int, *,
                     player: int | None = None) -> DrawRecord | DiscardRecord:
        """Make the move of an action code (see :mod:`fivecrowns.actions`)."""
        if action.__class__ is int:  # the fast path: decode_action's checks, inline
            if 0 <= action < ACTION_DISCARD:
                return self._draw(self._check_draw(_SOURCES[action], player))
            if ACTION_DISCARD <= action < N_ACTIONS:
                out = action >= ACTION_GO_OUT
                card = _CARDS[action - (ACTION_GO_OUT if out else ACTION_DISCARD)]
                return self._discard(self._check_discard(card, out, player), out)
        kind, what, out = decode_action(action)
        if kind == "draw":
            return self._draw(self._check_draw(what, player))  # type: ignore[arg-type]
        return self._discard(self._check_discard(what, out, player), out)

    # -- views --

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now: their own hand, the public piles and history,
        and the public card counts (see :class:`~fivecrowns.records.Observation`; those
        are made when first read, from the counts of this moment)."""
        p = player if player.__class__ is int and 0 <= player < self.n_players \
            else self._check_player(player)
        hand = self._hands[p]
        counts = np.frombuffer(hand.tobytes(), _UINT8)   # read-only: quicker than setflags
        phase = self._phase
        own = p == self._current and phase is _DISCARD
        deck = self.deck
        piles = deck._discard
        kept = self._kept() if own else -1
        went_out = self._went_out
        # A frozen dataclass: give it a whole __dict__ at once (see _record); filling a
        # copy of a dict that has every key already is cheaper than a 25-entry literal.
        d = _OBS_FIELDS.copy()
        d["player"] = p
        d["counts"] = counts
        d["drawn"] = _CARDS[self._drawn] if own and self._drawn is not None else None
        d["top_discard"] = _CARDS[piles[-1]] if piles else None
        d["draw_size"] = len(deck._draw)
        d["discard_size"] = len(piles)
        d["round_number"] = self.round_number
        d["hand_size"] = self.hand_size
        d["wild"] = self.wild
        d["n_players"] = self.n_players
        d["dealer"] = self.dealer
        d["current_player"] = self._current
        d["phase"] = phase
        d["turn"] = self._turn
        d["final_turn"] = went_out is not None and phase is not _OVER
        d["went_out"] = went_out
        d["history"] = tuple(self._history)
        d["decks"] = self._decks
        d["sudden_death"] = self.sudden_death
        d["totals"] = self.totals
        public = self._public
        d["_tracked"] = public._frozen or public.freeze()
        d["return_discard"] = not self._no_return
        d["must_keep"] = _CARDS[kept] if kept >= 0 else None
        obs = object.__new__(Observation)
        object.__setattr__(obs, "__dict__", d)
        return obs
    # from_state, from_observation and determinize: see fivecrowns.positions

    def clone(self) -> Round:
        """An independent copy: playing on it leaves this round untouched, and the same
        moves give the same round (its deck gets a generator of its own, in the same state)."""
        return self._with_deck(self.deck.clone())

    def _with_deck(self, deck: Deck) -> Round:
        new = object.__new__(Round)
        new.__dict__.update(self.__dict__)
        new.deck = deck
        new._hands = [h.copy() for h in self._hands]
        new._history = list(self._history)
        new._scores = list(self._scores)
        new._public = self._public.copy()
        return new

    def __copy__(self) -> Round:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        # Through the memo: a generator the deck shares with what is copied along (the
        # game's, in a Game) must stay shared in the copy, or a reshuffle would advance
        # only one of the two and the copy's next deal would differ.
        return self._with_deck(copy.deepcopy(self.deck, memo))

    def __repr__(self) -> str:
        return (f"Round(players={self.n_players}, round={self.round_number}, "
                f"hand_size={self.hand_size}, wild={self.wild}, turn={self._turn}, "
                f"player={self._current}, phase={self._phase.value})")
