"""One round's state and the moves of a turn, in plain Python: the specification.

:class:`RoundState` is the state under :class:`~fivecrowns.Round` (and so under
:class:`~fivecrowns.Game`, the bots and the environments): the hands as counts, the draw
pile in order, the discard pile, the public counts every player can keep, whose turn it
is and in which phase, the final turns and the scores. Its methods are the rules of a
round (docs/rules.rst, A round) and nothing else, but for :meth:`RoundState.play`, which
makes a move with its public events and record in one call (the compiled twin's is one C
call a move): :class:`~fivecrowns.Round` adds the argument checks, the messages, the
round's result and the views.

The compiled twin, ``fivecrowns._rollout.RoundState``, is the same class over the
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

import copy
import threading
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import records, solver
from .actions import _CARDS, Source
from .cards import N_TYPES
from .rules import deck_counts, sorted_deck
from .seeding import _deepcopy_rng

__all__ = ["CHECK_CODES", "RoundState"]

DRAW, DISCARD, OVER = 0, 1, 2

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

#: The largest hand the solver is asked about (fivecrowns._checks.MAX_HAND_SIZE).
MAX_HAND = 20
_MAX_PLAYERS = 14
# The largest turn (and reshuffle) count a state holds: the compiled twin counts them in a
# C int, and a round may play a final turn per player past it. Refused beyond by both
# twins; a longer max_turns is the same rule as this one (no round gets near either).
TURN_LIMIT = 2**31 - 1 - _MAX_PLAYERS
_SCORE_LIMIT = 2**31 - 1
_N_FIELDS = 23
_ACTION_DRAW_DISCARD, _ACTION_DISCARD, _ACTION_GO_OUT = 1, 2, 58


def full_counts(decks: int) -> npt.NDArray[np.int64]:
    """Every card type's copies in the deck (:func:`fivecrowns.rules.deck_counts`), a
    fresh array the caller may change."""
    row = _FULL.get(decks)
    return np.array(deck_counts(decks), dtype=np.int64) if row is None else row.copy()


def _sorted_deck(decks: int) -> npt.NDArray[np.intp]:
    """Every card of the deck in type order (:func:`fivecrowns.rules.sorted_deck`): what
    the first shuffle permutes. Read only."""
    cards = _SORTED.get(decks)
    return np.array(sorted_deck(decks), dtype=np.intp) if cards is None else cards


# Built once for the game's decks: every new state asks for them
_FULL = {d: np.array(deck_counts(d), dtype=np.int64) for d in (2, 4)}
_SORTED = {d: np.array(sorted_deck(d), dtype=np.intp) for d in (2, 4)}
for _row in (*_FULL.values(), *_SORTED.values()):
    _row.flags.writeable = False


class RoundState:
    """One round's state and moves (the compiled ``RoundState``'s twin).

    Build one with :meth:`deal`, :meth:`undealt` or :meth:`from_state`, never directly.
    """

    # The piles keep their top card last, so drawing is a cheap pop().
    n_players: int
    hand_size: int
    wild: int
    decks: int
    max_turns: int
    return_discard: bool
    sudden_death: bool
    current: int
    phase: int
    turn: int
    taken: int
    drawn: int
    went_out: int
    final_left: int
    hit_max_turns: bool
    reshuffles: int
    _rng: np.random.Generator | None
    _snapshot: tuple[Any, Any] | None
    _hands: npt.NDArray[np.uint8]
    _draw: list[int]
    _pile: list[int]
    _pile_counts: npt.NDArray[np.int64]
    _taken_counts: npt.NDArray[np.int64]
    _hidden: npt.NDArray[np.int64]
    _scores: list[int]
    # Held by every step that a Round takes as one (a move with its events, a copy, the
    # fields of a pickle): the compiled twin's steps are single C calls, which the GIL
    # keeps whole; this twin's are many lines of Python (docs/development.rst, Threads).
    _lock: threading.RLock

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
                history.append(records._RESHUFFLE_EVENT)
            history.append(records._TAKE_EVENTS[p][t] if action else records._BLIND_EVENTS[p])
            return records._new_record(records.DrawRecord, {
                "player": p, "source": Source(action), "card": _CARDS[t],
                "turn": self.turn, "reshuffled": reshuffled})
        if not (isinstance(action, int) and _ACTION_DISCARD <= action < 114):
            raise ValueError(f"an action code must be 0..113, got {action}")
        out = action >= _ACTION_GO_OUT
        t = action - (_ACTION_GO_OUT if out else _ACTION_DISCARD)
        over = self.discard(t, out)
        history.append((records._OUT_EVENTS if out else records._DISCARD_EVENTS)[p][t])
        if over:
            return None
        return records._new_record(records.DiscardRecord, {
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
        if solver._core.best_discard_row(row, self.wild, self.decks)[0] == 0:
            codes += [_ACTION_GO_OUT + t for t in held if self.deadwood_without(t) == 0]
        return codes

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """A new (114,) bool array, True for each legal action code."""
        mask = np.zeros(114, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    # -- read access --

    @property
    def n_draw(self) -> int:
        return len(self._draw)

    @property
    def n_pile(self) -> int:
        return len(self._pile)

    @property
    def top_discard(self) -> int:
        return self._pile[-1] if self._pile else -1

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    def hand(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of ``player``'s hand, (56,) uint8 counts."""
        return self._hands[_check_seat(player, self.n_players, "player")].copy()

    def hand_bytes(self, player: int) -> bytes:
        """``player``'s hand as 56 bytes of counts."""
        return self._hands[_check_seat(player, self.n_players, "player")].tobytes()

    def hands(self) -> npt.NDArray[np.uint8]:
        """A copy of every hand, (n_players, 56) uint8."""
        return self._hands.copy()

    def draw_pile(self) -> list[int]:
        """The draw pile's card types, top card first."""
        return self._draw[::-1]

    def discard_pile(self) -> list[int]:
        """The discard pile's card types, bottom card first."""
        return list(self._pile)

    def draw_counts(self) -> npt.NDArray[np.uint8]:
        return _counts(self._draw)

    def pile_counts(self) -> npt.NDArray[np.uint8]:
        """The discard pile's counts, (56,) uint8."""
        return self._pile_counts.astype(np.uint8)

    def hidden_counts(self) -> npt.NDArray[np.uint8]:
        """The whole deck less the discard pile and every player's taken cards."""
        return self._hidden.astype(np.uint8)

    def taken_counts(self) -> npt.NDArray[np.uint8]:
        """For each player, the cards seen taken from the discard pile and not discarded
        since: (n_players, 56) uint8."""
        return self._taken_counts.astype(np.uint8)

    def public_bytes(self) -> tuple[bytes, bytes, bytes]:
        """``(pile_counts, hidden_counts, taken_counts)`` as bytes of uint8 counts."""
        return (self.pile_counts().tobytes(), self.hidden_counts().tobytes(),
                self.taken_counts().tobytes())

    def unseen(self, player: int) -> npt.NDArray[np.uint8]:
        """``PublicState.unseen``: the cards whose place ``player`` cannot know."""
        p = _check_seat(player, self.n_players, "player")
        return (self._hidden - self._hands[p] + self._taken_counts[p]).astype(np.uint8)

    # -- what a sampled world replaces (Round.determinize) --

    def set_hand(self, player: int, row: Any) -> None:
        """Replace ``player``'s hand by ``row`` (56 counts) holding the cards it is known
        to hold; the caller keeps the cards conserved."""
        p = _check_seat(player, self.n_players, "player")
        counts = np.asarray(row, dtype=np.int64)
        if counts.shape != (N_TYPES,) or (counts < 0).any() or counts.sum() > MAX_HAND:
            raise ValueError(f"a hand must be 56 counts of at most {MAX_HAND} cards")
        bad = np.flatnonzero((counts < self._taken_counts[p])
                             | (counts > full_counts(self.decks))).tolist()
        if bad:
            t = bad[0]
            raise ValueError(f"card type {t}: {counts[t]} copies in player {p}'s hand, "
                             f"known to hold {self._taken_counts[p, t]}")
        self._hands[p] = counts

    def set_draw_pile(self, cards: Iterable[int]) -> None:
        """Replace the draw pile by ``cards`` (card types, top card first)."""
        types = _types(cards, "draw_pile")
        over = np.flatnonzero(_counts(types, np.int64) > full_counts(self.decks)).tolist()
        if over:
            raise ValueError(f"the draw pile holds more cards of type {over[0]} than "
                             f"the deck")
        self._draw = types[::-1]

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` for the reshuffles from now on."""
        self._rng, self._snapshot = _generator(rng), None

    @property
    def rng(self) -> np.random.Generator:
        """The generator of the reshuffles. A copy does not copy the generator (that
        costs more than the rest of the copy): it keeps a snapshot of its state and
        builds one from it when first needed, so it draws what the original generator
        would have drawn from the moment of the copy, whatever happens to that one."""
        with self._lock:  # built once, even by two threads at once
            rng = self._rng
            if rng is None:
                assert self._snapshot is not None
                rng = self._rng = _from_snapshot(self._snapshot)
                self._snapshot = None
            return rng

    # -- copies and pickles --

    def _copy_cards(self) -> RoundState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._lock = threading.RLock()
        new._hands = self._hands.copy()
        new._draw, new._pile = list(self._draw), list(self._pile)
        new._pile_counts = self._pile_counts.copy()
        new._taken_counts = self._taken_counts.copy()
        new._hidden = self._hidden.copy()
        new._scores = list(self._scores)
        return new

    def copy(self) -> RoundState:
        """An independent copy, its generator in the same state as this one's."""
        with self._lock:
            new = self._copy_cards()
            new._rng = None
            new._snapshot = self._snapshot if self._rng is None else _snapshot(self._rng)
            return new

    def copy_with(self, rng: np.random.Generator) -> RoundState:
        """A copy that reshuffles with ``rng`` (shared, not copied)."""
        with self._lock:
            new = self._copy_cards()
        new.set_rng(rng)
        return new

    def copy_at(self, history: list[Any],
                share_rng: bool = False) -> tuple[RoundState, list[Any]]:
        """``(copy, list(history))`` of one moment, ``history`` being the list that
        :meth:`play` appends this state's events to: what ``Round.clone`` copies. With
        ``share_rng`` the copy reshuffles with this state's own generator (shared, as
        :meth:`copy_with`; for a pickle or a deep copy, which copy it themselves), else
        with a copy of it (as :meth:`copy`).

        Another thread's move is never half seen: it is wholly before the copy or wholly
        after (here the state's lock holds both; the compiled twin's moves are single C
        calls)."""
        if not isinstance(history, list):
            raise TypeError(f"history must be a list, got {type(history).__name__}")
        with self._lock:
            rng = self._rng
            new = self.copy_with(rng) if share_rng and rng is not None else self.copy()
            return new, history[:]

    def __copy__(self) -> RoundState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> RoundState:
        if self._rng is None:
            return self.copy()
        return self.copy_with(_deepcopy_rng(self._rng, memo))

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


# -- shared by both twins -----------------------------------------------------------------

def _counts(types: list[int], dtype: Any = np.uint8) -> Any:
    return np.bincount(np.array(types, dtype=np.intp), minlength=N_TYPES).astype(dtype)


def _check_count(value: Any, name: str, least: int, most: int) -> int:
    """``value`` as an int ``least..most``, else ``TypeError``/``ValueError``: both twins
    refuse what the compiled one cannot hold (a C int) before converting it."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not least <= value <= most:
        raise ValueError(f"{name} must be {least}..{most}, got {int(value)}")
    return int(value)


def _check_table(n_players: Any, hand_size: Any, wild: Any, decks: Any,
                 max_turns: Any) -> None:
    # Every deal passes here: plain ints in range (the usual case) are taken in one test,
    # which keeps Round() at 0.4's cost; anything else gets the checks and their messages.
    if (int is type(n_players) is type(hand_size) is type(wild) is type(decks)
            is type(max_turns) and 1 <= n_players <= _MAX_PLAYERS
            and 1 <= hand_size < MAX_HAND and 3 <= wild <= 13 and (decks == 2 or decks == 4)
            and 1 <= max_turns <= TURN_LIMIT):
        return
    _check_count(n_players, "n_players", 1, _MAX_PLAYERS)
    if _check_count(decks, "decks", -2**63, 2**63) not in (2, 4):
        raise ValueError(f"decks must be 2 or 4, got {decks}")
    _check_count(hand_size, "hand_size", 1, MAX_HAND - 1)
    _check_count(wild, "wild", 3, 13)
    _check_count(max_turns, "max_turns", 1, TURN_LIMIT)


def _check_state(n: int, hand_size: int, decks: int, sudden_death: bool, current: Any,
                 phase: Any, turn: Any, taken: Any, went_out: Any, final_left: Any,
                 scores: Iterable[int], reshuffles: Any, rows: npt.NDArray[Any],
                 known: npt.NDArray[Any]) -> list[int]:
    """``RoundState.from_state``'s checks of the values but the cards' places: each in
    its range, and together a state that the moves can reach (the compiled moves trust
    it: a hand of the wrong size, a finished round in play or final turns that never end
    would make them read past an array or loop for ever); the scores as a list."""
    _check_count(current, "current", 0, n - 1)
    _check_count(phase, "phase", DRAW, OVER)
    _check_count(turn, "turn", 0, TURN_LIMIT)
    _check_count(reshuffles, "reshuffles", 0, TURN_LIMIT)
    _check_count(taken, "taken", -1, N_TYPES - 1)
    _check_count(went_out, "went_out", -1, n - 1)
    _check_count(final_left, "final_left", 0, max(0, n - 1))
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        raise TypeError(f"scores must be {n} ints, got {type(scores).__name__}")
    points = list(scores)
    if len(points) != n:
        raise ValueError(f"scores must be {n} ints, -1 or more, got {len(points)}")
    points = [_check_count(x, "a score", -1, _SCORE_LIMIT) for x in points]
    if (rows < 0).any() or (known < 0).any() or (known > rows).any():
        raise ValueError("hands and taken_counts must be counts, taken_counts within "
                         "hands")
    if n * hand_size + 1 > len(sorted_deck(decks)):
        raise ValueError(f"{n} hands of {hand_size} cards and a turned-up card need more "
                         f"than the {len(sorted_deck(decks))} cards of the deck")
    sizes = rows.sum(axis=1).tolist()
    # A deal in progress (RoundState.undealt, then deal_card: the OpenSpiel state's
    # chance nodes) has hands not yet full; nothing plays such a state out (_check_dealt).
    dealing = phase == DRAW and turn == 0 and went_out < 0 and taken < 0 and \
        max(sizes) <= hand_size and all(x < 0 for x in points)
    for q, size in enumerate(sizes):
        want = hand_size + (q == current and phase == DISCARD)
        if size != want and not dealing:
            raise ValueError(f"player {q} holds {size} cards; in phase {phase} with "
                             f"{hand_size}-card hands they hold {want}")
    if taken >= 0 and (phase != DISCARD or not rows[current, taken]):
        raise ValueError(f"taken ({taken}) must be -1 but in the discard phase, a card "
                         f"type the current player holds")
    scored = [q for q in range(n) if points[q] >= 0]
    if phase == OVER:
        if len(scored) != n or final_left:
            raise ValueError("a round that is over has every score and no final turn left")
    elif went_out < 0:
        if scored or final_left:
            raise ValueError("before anyone goes out no one has a score and no final "
                             "turn is left")
    else:
        # the final turns go clockwise from the one who went out: they and the players
        # after them have scored, the current player and the rest have not
        done = (current - went_out) % n
        if sudden_death or points[went_out] != 0 or final_left != n - done or \
                sorted(scored) != sorted((went_out + k) % n for k in range(done)):
            raise ValueError(f"the final turns after player {went_out} went out do not add "
                             f"up: current {current}, final_left {final_left}, scores "
                             f"{points}{' (sudden death ends the round)' if sudden_death else ''}")
    return points


def _check_dealt(state: RoundState) -> None:
    """Raise ``ValueError`` for a round whose deal is not finished: the policies play
    full hands (the compiled engine checks the same in C)."""
    sizes = state.hands().sum(axis=1)
    want = np.full(state.n_players, state.hand_size)
    if state.phase == DISCARD:
        want[state.current] += 1
    if not np.array_equal(sizes, want):
        raise ValueError("a round whose deal is not finished cannot be played out")


def _checked_fields(fields: Any) -> tuple[Any, ...]:
    """Raise ``ValueError``/``TypeError`` unless ``fields`` has the form of
    :meth:`RoundState.fields` (a pickle's): the checks before ``from_state`` takes the
    values, which checks them (``from_fields`` is an entrance like any other)."""
    if not isinstance(fields, tuple) or len(fields) != _N_FIELDS:
        size = len(fields) if isinstance(fields, tuple) else "?"
        raise ValueError(f"a round state's fields are a tuple of {_N_FIELDS} values, got "
                         f"{type(fields).__name__} of {size}")
    max_turns = fields[4]
    if isinstance(max_turns, int) and TURN_LIMIT < max_turns <= _SCORE_LIMIT:
        # 0.4 held a longer Rules.max_turns as 2**31 - 1: the same rule as TURN_LIMIT
        fields = fields[:4] + (TURN_LIMIT,) + fields[5:]
    n, hands, public = fields[0], fields[7], fields[8]
    n = _check_count(n, "n_players", 1, _MAX_PLAYERS)
    if not isinstance(hands, bytes) or len(hands) != n * N_TYPES:
        raise ValueError(f"the hands must be {n * N_TYPES} bytes")
    if not isinstance(public, tuple) or len(public) != 3 or \
            not all(isinstance(b, bytes) for b in public) or \
            [len(b) for b in public] != [N_TYPES, N_TYPES, n * N_TYPES]:
        raise ValueError(f"the public counts must be 3 bytes objects of {N_TYPES}, "
                         f"{N_TYPES} and {n * N_TYPES} bytes")
    for i, name in ((9, "draw_pile"), (10, "discard_pile"), (17, "scores")):
        if not isinstance(fields[i], (list, tuple)):
            raise TypeError(f"{name} must be a list, got {type(fields[i]).__name__}")
    for i, name in ((5, "return_discard"), (6, "sudden_death"), (18, "hit_max_turns")):
        if not isinstance(fields[i], (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {type(fields[i]).__name__}")
    _check_count(fields[20], "drawn", -1, N_TYPES - 1)
    rng, snapshot = fields[21], fields[22]
    if rng is not None:
        _generator(rng)
    else:
        try:
            _from_snapshot(snapshot)
        except Exception as exc:  # whatever a malformed snapshot raises
            raise ValueError(f"the generator's snapshot is malformed: {exc}") from None
    return fields


def _check_seat(seat: int, n_players: int, name: str) -> int:
    if not 0 <= seat < n_players:
        raise ValueError(f"{name} must be a seat 0..{n_players - 1}, got {seat}")
    return int(seat)


def _check_type(t: int) -> None:
    if not 0 <= t < N_TYPES:
        raise ValueError(f"a card type must be 0..55, got {t}")


def _types(cards: Iterable[int], name: str) -> list[int]:
    """``cards`` as a list of card types 0..55."""
    out = [int(t) for t in cards]
    bad = [t for t in out if not 0 <= t < N_TYPES]
    if bad:
        raise ValueError(f"{name} holds card types outside 0..55: {bad}")
    return out


def _generator(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    return rng


_ANY_SEED = np.random.SeedSequence(0)
_ANY_RNG = np.random.default_rng(0)
_PLAIN_BITS = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64,
               np.random.MT19937)


def _snapshot(rng: np.random.Generator) -> tuple[Any, Any]:
    """What :func:`_from_snapshot` needs for a generator in ``rng``'s state now: its bit
    generator's type and state (plain values), or, for a bit generator of another kind,
    a deep copy of the generator."""
    bits = rng.bit_generator
    kind = type(bits)
    if kind in _PLAIN_BITS:
        return kind, bits.state
    return None, copy.deepcopy(rng)


def _from_snapshot(snapshot: tuple[Any, Any]) -> np.random.Generator:
    """A new generator in the state of ``snapshot``."""
    kind, state = snapshot
    if kind is None:
        return copy.deepcopy(state)
    bits = kind(_ANY_SEED)
    bits.state = state
    return np.random.Generator(bits)
