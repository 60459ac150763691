"""One round's state and the moves of a turn, in plain Python: the specification.

:class:`RoundState` is the state under :class:`~fivecrowns.Round` (and so under
:class:`~fivecrowns.Game`, the bots and the environments): the hands as counts, the draw
pile in order, the discard pile, the public counts every player can keep, whose turn it
is and in which phase, the final turns and the scores. Its methods are the rules of a
round (docs/rules.rst, A round) and nothing else, but for :meth:`RoundState.play`, which
makes a move with its public events and record in one call (the compiled twin's is one C
call a move): :class:`~fivecrowns.Round` adds the argument checks, the messages, the
round's result and the views.

The compiled twin, ``fivecrowns._round_state.RoundState``, is the same class over the
rollout engine's C ``Table`` and its moves (``deal``, ``draw_from``, ``discard_card``,
``reshuffle``, ``finish``), so that a round played by :class:`~fivecrowns.Round` and one
played out by :mod:`fivecrowns.rollout` are one engine. ``fivecrowns._state`` chooses
the compiled class unless it is not built or ``FIVECROWNS_IMPLEMENTATION=python`` (the
solver's switch). tests/test_state_twins.py plays both move for move.

Conventions (both twins): card types are ints 0..55 (:mod:`fivecrowns.cards`); players
0..n_players-1; phases 0 (draw), 1 (discard), 2 (over); a player, card or score that is
not there is -1. The draw pile is listed top card first, the discard pile bottom card
first. Methods that move check that the move is legal (``check_draw`` and
``check_discard`` say why not, as one of the :data:`CHECK_CODES`) and raise
``ValueError`` otherwise; arguments out of range raise ``ValueError`` too.

Examples
--------
>>> import numpy as np
>>> s = RoundState.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(5))
>>> s.current, s.phase, s.n_draw, s.n_pile
(1, 0, 109, 1)
>>> s.check_draw(True), s.check_discard(0, False)
(0, 3)
>>> card, reshuffled = s.draw(True)
>>> s.must_keep() == card, s.legal_actions()[0] >= 2
(True, True)
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _move_records as _moves
from . import records, solver
from ._rows import row_core

# The compiled twin (_round_state.pyx) imports the helpers both twins share from here, and
# Round the limits: the names marked noqa are there for them
from ._state_checks import (
    _ANY_RNG,
    _ANY_SEED,  # noqa: F401
    DISCARD,
    DRAW,
    MAX_HAND,
    OVER,
    TURN_LIMIT,  # noqa: F401
    _check_seat,
    _check_state,
    _check_table,
    _check_type,
    _checked_fields,
    _from_snapshot,  # noqa: F401
    _generator,
    _snapshot,  # noqa: F401
    _sorted_deck,
    _types,
    full_counts,
)
from ._state_views import StateViews
from .actions import _CARDS, Source
from .cards import N_TYPES
from .rules import sorted_deck
from .seeding import _deepcopy_rng  # noqa: F401 (the compiled twin's)

__all__ = ["CHECK_CODES", "RoundState"]


#: Why a move is not legal now: what ``check_draw`` and ``check_discard`` return.
CHECK_CODES = {
    "OK": 0,
    "OVER": 1,          # the round is over
    "DRAWN": 2,         # a draw in the discard phase
    "UNDRAWN": 3,       # a discard in the draw phase
    "PILE_EMPTY": 4,    # a take from an empty discard pile
    "DECK_EMPTY": 5,    # a blind draw with nothing to draw or reshuffle
    "NOT_HELD": 6,      # a discard of a card type not in the hand
    "MUST_KEEP": 7,     # a discard of the card just taken (Rules.return_discard off)
    "NOT_OUT": 8,       # going out with deadwood left
}
_C = CHECK_CODES
_ACTION_DRAW_DISCARD, _ACTION_DISCARD, _ACTION_GO_OUT = 1, 2, 58


class RoundState(StateViews):
    """One round's state and moves (the compiled ``RoundState``'s twin).

    Build one with :meth:`deal`, :meth:`undealt` or :meth:`from_state`, never directly.
    Its attributes, views and copies are those of
    :class:`~fivecrowns._state_views.StateViews`.
    """

    # -- construction --

    @classmethod
    def _empty(cls, n_players: int, hand_size: int, wild: int, decks: int, max_turns: int,
               return_discard: bool, sudden_death: bool, rng: Any) -> RoundState:
        _check_table(n_players, hand_size, wild, decks, max_turns)
        s = object.__new__(cls)
        s._lock = threading.RLock()
        s.n_players, s.hand_size, s.wild, s.decks = n_players, hand_size, wild, decks
        s.max_turns, s.return_discard = max_turns, bool(return_discard)
        s.sudden_death = bool(sudden_death)
        s._rng, s._snapshot = _generator(rng), None
        s._hands = np.zeros((n_players, N_TYPES), dtype=np.uint8)
        s._draw, s._pile = [], []
        # public.PublicState: the discard pile's counts, the cards each player was seen
        # taking from the pile and has not discarded since, and what is out of public
        # view (the whole deck less those two)
        s._pile_counts = np.zeros(N_TYPES, dtype=np.int64)
        s._taken_counts = np.zeros((n_players, N_TYPES), dtype=np.int64)
        s._hidden = full_counts(decks)
        s._start(0)
        return s

    def _start(self, current: int) -> None:
        self.current, self.phase, self.turn = current, DRAW, 0
        self.taken = -1          # the type just taken from the pile, while the rules keep it
        self.drawn = -1          # the type the current player drew this turn (-1: none)
        self.went_out = -1
        self.final_left = 0      # the final turns still to play once someone went out
        self._scores = [-1] * self.n_players
        self.hit_max_turns = False
        self.reshuffles = 0

    @classmethod
    def deal(cls, n_players: int, hand_size: int, wild: int, decks: int, max_turns: int,
             return_discard: bool, dealer: int, sudden_death: bool,
             rng: np.random.Generator) -> RoundState:
        """docs/rules.rst, A round, 1-2: shuffle the whole deck with ``rng``
        (``Generator.permutation``, advancing it), deal ``hand_size`` cards one at a
        time clockwise from the dealer's left, turn the top card up; the dealer's left
        plays first."""
        _check_table(n_players, hand_size, wild, decks, max_turns)
        if n_players * hand_size + 1 > len(sorted_deck(decks)):
            raise ValueError(f"{n_players} hands of {hand_size} cards and a turned-up card "
                             f"need more than the {len(sorted_deck(decks))} cards of the "
                             f"deck")
        _check_seat(dealer, n_players, "dealer")
        s = cls._empty(n_players, hand_size, wild, decks, max_turns, return_discard,
                       sudden_death, rng)
        base = _sorted_deck(decks)
        s._draw = base[rng.permutation(base.size)].tolist()
        first = (dealer + 1) % n_players
        for _ in range(hand_size):
            for i in range(n_players):
                s.deal_card((first + i) % n_players)
        s.turn_up()
        s.current = first
        return s

    @classmethod
    def undealt(cls, n_players: int, hand_size: int, wild: int, decks: int, max_turns: int,
                return_discard: bool, dealer: int, sudden_death: bool,
                draw_pile: Iterable[int], rng: np.random.Generator) -> RoundState:
        """A round before its deal: every hand and the discard pile empty, ``draw_pile``
        (top card first) the whole draw pile. Deal it with :meth:`deal_card` and
        :meth:`turn_up` (placing chance outcomes on top first with :meth:`stack`); the
        dealer's left plays first."""
        s = cls._empty(n_players, hand_size, wild, decks, max_turns, return_discard,
                       sudden_death, rng)
        _check_seat(dealer, n_players, "dealer")
        s.set_draw_pile(draw_pile)
        s.current = (dealer + 1) % n_players
        return s

    @classmethod
    def from_state(cls, hands: Any, draw_pile: Iterable[int], discard_pile: Iterable[int],
                   taken_counts: Any, wild: int, hand_size: int, decks: int,
                   max_turns: int, return_discard: bool, sudden_death: bool, current: int,
                   phase: int, turn: int, taken: int, went_out: int, final_left: int,
                   scores: Iterable[int], reshuffles: int,
                   rng: np.random.Generator) -> RoundState:
        """A round in a given state (every card of the deck in exactly one place):
        ``hands`` and ``taken_counts`` are (n_players, 56) counts, ``taken`` the type
        just taken from the pile (-1: none), ``scores`` one per player (-1: not scored)."""
        rows = np.asarray(hands, dtype=np.int64)
        known = np.asarray(taken_counts, dtype=np.int64)
        if rows.ndim != 2 or rows.shape[1] != N_TYPES or known.shape != rows.shape:
            raise ValueError(f"hands and taken_counts must be (n_players, 56) counts, got "
                             f"shapes {rows.shape} and {known.shape}")
        n = rows.shape[0]
        s = cls._empty(n, hand_size, wild, decks, max_turns, return_discard, sudden_death,
                       rng)
        points = _check_state(n, hand_size, decks, bool(sudden_death), current, phase,
                              turn, taken, went_out, final_left, scores, reshuffles, rows,
                              known)
        s.set_draw_pile(draw_pile)
        pile = _types(discard_pile, "discard_pile")
        total = rows.sum(axis=0) + np.bincount(np.array(pile + s._draw, dtype=np.intp),
                                               minlength=N_TYPES)
        full = full_counts(decks)
        for t in np.flatnonzero(total != full).tolist()[:1]:
            raise ValueError(f"the cards are not conserved: card type {t} is in "
                             f"{total[t]} places, the deck holds {full[t]}")
        s._hands = rows.astype(np.uint8)
        s._taken_counts = known.copy()
        s._pile = pile
        s._pile_counts = np.bincount(np.array(pile, dtype=np.intp),
                                     minlength=N_TYPES).astype(np.int64)
        s._hidden = full - s._pile_counts - known.sum(axis=0)
        s.current, s.phase, s.turn = current, phase, turn
        s.taken = taken if not return_discard else -1
        s.went_out, s.final_left, s._scores = went_out, final_left, points
        s.reshuffles = reshuffles
        return s

    # -- the deal, a card at a time --

    def deal_card(self, player: int) -> int:
        """Move the top card of the draw pile into ``player``'s hand; its type."""
        _check_seat(player, self.n_players, "player")
        if not self._draw:
            raise ValueError("cannot deal: the draw pile is empty")
        size = int(self._hands[player].sum())
        if size >= MAX_HAND:
            raise ValueError(f"cannot deal: player {player} holds {size} cards already")
        t = self._draw.pop()
        self._hands[player, t] += 1
        return t

    def turn_up(self) -> int:
        """Turn the top card of the draw pile up onto the discard pile; its type."""
        if not self._draw:
            raise ValueError("cannot turn a card up: the draw pile is empty")
        t = self._draw.pop()
        self._pile.append(t)
        self._pile_counts[t] += 1
        self._hidden[t] -= 1
        return t

    def stack(self, t: int) -> None:
        """Move the card of type ``t`` nearest the top of the draw pile to its top (the
        other cards keep their order): the next card drawn, dealt or turned up is a ``t``."""
        _check_type(t)
        draw = self._draw
        for i in range(len(draw) - 1, -1, -1):
            if draw[i] == t:
                draw.append(draw.pop(i))
                return
        raise ValueError(f"no card of type {t} is left in the draw pile")

    # -- moves: docs/rules.rst, A round --

    @property
    def can_draw(self) -> bool:
        """A card can be drawn from the draw pile, reshuffling first if need be (5)."""
        return bool(self._draw) or len(self._pile) > 1

    def check_draw(self, from_pile: bool) -> int:
        """0 if the current player may draw now from the discard pile (``from_pile``) or
        the draw pile, else why not (:data:`CHECK_CODES`)."""
        if self.phase == OVER:
            return _C["OVER"]
        if self.phase != DRAW:
            return _C["DRAWN"]
        if from_pile:
            return _C["OK"] if self._pile else _C["PILE_EMPTY"]
        return _C["OK"] if self.can_draw else _C["DECK_EMPTY"]

    def reshuffle(self) -> None:
        """Refill the empty draw pile now, as a blind draw would first (5): ``ValueError``
        unless the draw pile is empty and the discard pile holds more than its top card.
        (The OpenSpiel state calls it before the chance node of a blind draw, whose
        outcomes are then the new pile.)"""
        if self._draw or len(self._pile) < 2:
            raise ValueError(f"cannot reshuffle: the draw pile holds {len(self._draw)} "
                             f"cards and the discard pile {len(self._pile)}; expected 0 "
                             f"and at least 2")
        self._reshuffle()

    def draw(self, from_pile: bool) -> tuple[int, bool]:
        """3: draw the top card of the draw pile or take the top discard; ``(card type,
        reshuffled)``. An empty draw pile is first refilled (5)."""
        code = self.check_draw(from_pile)
        if code:
            raise ValueError(f"illegal draw (check code {code})")
        p = self.current
        reshuffled = False
        if from_pile:
            t = self._pile.pop()
            self._pile_counts[t] -= 1        # still in public view: in p's hand
            self._taken_counts[p, t] += 1
            if not self.return_discard:
                self.taken = t
        else:
            if not self._draw:
                self._reshuffle()
                reshuffled = True
            t = self._draw.pop()
        self._hands[p, t] += 1
        self.drawn = t
        self.phase = DISCARD
        return t, reshuffled

    def _reshuffle(self) -> None:
        """5: the discard pile except its top card, shuffled, becomes the draw pile."""
        top = self._pile[-1]
        rest = self._pile[:-1]
        order = self.rng.permutation(len(rest))
        self._draw = [rest[i] for i in order.tolist()]
        self._pile = [top]
        self.reshuffles += 1
        self._hidden += self._pile_counts     # out of public view again, but the top
        self._hidden[top] -= 1
        self._pile_counts[:] = 0
        self._pile_counts[top] = 1

    def must_keep(self) -> int:
        """3: the card type the current player may not discard now (the one just taken
        from the discard pile, with ``Rules.return_discard`` off, unless the hand holds
        nothing else), or -1."""
        t = self.taken
        if t < 0 or self._hands[self.current, t] == self.hand_size + 1:
            return -1
        return t

    def deadwood_without(self, t: int) -> int:
        """The current player's deadwood after discarding one ``t`` (which they hold)."""
        _check_type(t)
        row = self._hands[self.current].copy()
        if not row[t]:
            raise ValueError(f"player {self.current} holds no card of type {t}")
        row[t] -= 1
        return int(solver.deadwood(row, self.wild, decks=self.decks))

    def check_discard(self, t: int, go_out: bool) -> int:
        """0 if the current player may discard ``t`` now (going out if ``go_out``: the
        cards kept must leave deadwood 0), else why not (:data:`CHECK_CODES`)."""
        _check_type(t)
        if self.phase == OVER:
            return _C["OVER"]
        if self.phase != DISCARD:
            return _C["UNDRAWN"]
        if not self._hands[self.current, t]:
            return _C["NOT_HELD"]
        if self.must_keep() == t:
            return _C["MUST_KEEP"]
        if go_out and self.deadwood_without(t):
            return _C["NOT_OUT"]
        return _C["OK"]

    def discard(self, t: int, go_out: bool) -> bool:
        """3-4 and 6: discard ``t``, ending the turn (going out if ``go_out``); True if
        that ended the round."""
        code = self.check_discard(t, go_out)
        if code:
            raise ValueError(f"illegal discard (check code {code})")
        p = self.current
        row = self._hands[p]
        row[t] -= 1
        self._pile.append(t)
        self._pile_counts[t] += 1
        if self._taken_counts[p, t]:
            self._taken_counts[p, t] -= 1     # a card seen taken goes back in view
        else:
            self._hidden[t] -= 1
        self.taken = -1
        self.drawn = -1
        self.turn += 1
        over = False
        if self.went_out < 0:
            if go_out:
                self.went_out = p
                self._scores[p] = 0
                self.final_left = 0 if self.sudden_death else self.n_players - 1
                over = self.final_left <= 0
            elif self.turn >= self.max_turns:    # 6: everyone scores their hand
                self._finish(hit_max_turns=True)
                over = True
        else:
            # 4: a final turn scores the deadwood of the cards kept after the discard
            self._scores[p] = 0 if go_out else int(
                solver.deadwood(row, self.wild, decks=self.decks))
            self.final_left -= 1
            over = self.final_left <= 0
        if over:
            if self.phase != OVER:
                self._finish(hit_max_turns=False)
        else:
            self.current = (p + 1) % self.n_players
            self.phase = DRAW
        return over

    def play(self, action: int, history: list[Any]) -> Any:
        with self._lock:
            return self._play(action, history)

    def _play(self, action: int, history: list[Any]) -> Any:
        """Make the move of action code ``action`` (:mod:`fivecrowns.actions`) as
        :meth:`Round.apply_action <fivecrowns.Round.apply_action>` does: :meth:`draw` or
        :meth:`discard`, then append the move's public events (a reshuffle's first) to
        ``history`` and return its record (:class:`~fivecrowns.records.DrawRecord` or
        :class:`~fivecrowns.records.DiscardRecord`); None for the discard that ends the
        round, whose record holds the round's result, which the caller makes.
        ``ValueError`` (and nothing changes) unless the move is legal.

        The only method that knows records: a move, its events and its record are one
        call, as the compiled twin makes them in one C call."""
        p = self.current
        if action in (0, 1):
            t, reshuffled = self.draw(action == _ACTION_DRAW_DISCARD)
            if reshuffled:
                history.append(_moves.RESHUFFLE_EVENT)
            history.append(_moves.TAKE_EVENTS[p][t] if action else _moves.BLIND_EVENTS[p])
            return _moves.new_record(records.DrawRecord, {
                "player": p, "source": Source(action), "card": _CARDS[t],
                "turn": self.turn, "reshuffled": reshuffled})
        if not (isinstance(action, int) and _ACTION_DISCARD <= action < 114):
            raise ValueError(f"an action code must be 0..113, got {action}")
        out = action >= _ACTION_GO_OUT
        t = action - (_ACTION_GO_OUT if out else _ACTION_DISCARD)
        over = self.discard(t, out)
        history.append((_moves.OUT_EVENTS if out else _moves.DISCARD_EVENTS)[p][t])
        if over:
            return None
        return _moves.new_record(records.DiscardRecord, {
            "player": p, "card": _CARDS[t], "go_out": out, "turn": self.turn - 1,
            "round_over": False, "result": None})

    def set_drawn(self, t: int) -> None:
        """Say which card type the current player drew this turn (-1: not known):
        ``ValueError`` unless the round is in its discard phase and the player holds
        one."""
        if t != -1:
            _check_type(t)
            if self.phase != DISCARD or not self._hands[self.current, t]:
                raise ValueError(f"the current player cannot have drawn card type {t}: "
                                 f"not in the discard phase, or not in their hand")
        self.drawn = int(t)

    def _finish(self, hit_max_turns: bool) -> None:
        """The round ends: whoever has no score yet scores the deadwood of their hand."""
        for q in range(self.n_players):
            if self._scores[q] < 0:
                self._scores[q] = int(solver.deadwood(self._hands[q], self.wild,
                                                      decks=self.decks))
        self.hit_max_turns = hit_max_turns
        self.phase = OVER

    def legal_actions(self) -> list[int]:
        """The legal action codes (:mod:`fivecrowns.actions`), ascending."""
        if self.phase == DRAW:
            return [a for a, ok in ((0, self.can_draw), (1, bool(self._pile))) if ok]
        if self.phase != DISCARD:
            return []
        row = self._hands[self.current]
        kept = self.must_keep()
        held = [t for t in np.flatnonzero(row).tolist() if t != kept]
        codes = [_ACTION_DISCARD + t for t in held]
        # one best-discard search answers "none" for almost every hand
        if row_core().best_discard_row(row, self.wild, self.decks)[0] == 0:
            codes += [_ACTION_GO_OUT + t for t in held if self.deadwood_without(t) == 0]
        return codes

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """A new (114,) bool array, True for each legal action code."""
        mask = np.zeros(114, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask


    def fields(self) -> tuple[Any, ...]:
        """Everything as plain values, what :meth:`from_fields` takes (and what a pickle
        holds): the same values from either twin, so either twin can be built from them."""
        with self._lock:
            return self._fields()

    def _fields(self) -> tuple[Any, ...]:
        return (self.n_players, self.hand_size, self.wild, self.decks, self.max_turns,
                self.return_discard, self.sudden_death, self._hands.tobytes(),
                self.public_bytes(), self.draw_pile(), self.discard_pile(), self.current,
                self.phase, self.turn, self.taken, self.went_out, self.final_left,
                self.scores, self.hit_max_turns, self.reshuffles, self.drawn, self._rng,
                self._snapshot)

    @classmethod
    def from_fields(cls, fields: tuple[Any, ...]) -> RoundState:
        """The state :meth:`fields` gave."""
        (n, hand_size, wild, decks, max_turns, return_discard, sudden_death, hands,
         public, draw, pile, current, phase, turn, taken, went_out, final_left, scores,
         hit, reshuffles, drawn, rng, snapshot) = _checked_fields(fields)
        s = cls.from_state(np.frombuffer(hands, np.uint8).reshape(n, N_TYPES), draw, pile,
                           np.frombuffer(public[2], np.uint8).reshape(n, N_TYPES), wild,
                           hand_size, decks, max_turns, return_discard, sudden_death,
                           current, phase, turn, taken, went_out, final_left, scores,
                           reshuffles, rng if rng is not None else _ANY_RNG)
        s.hit_max_turns = bool(hit)
        s.set_drawn(drawn)
        if rng is None:
            s._rng, s._snapshot = None, snapshot
        return s

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self).from_fields, (self.fields(),)

    def __repr__(self) -> str:
        return (f"RoundState(players={self.n_players}, turn={self.turn}, "
                f"current={self.current}, phase={self.phase}, draw={self.n_draw}, "
                f"discard={self.n_pile})")

