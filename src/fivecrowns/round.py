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

The rules of a turn are not written here. The round's state and its moves are a
``RoundState``: the compiled one (``fivecrowns._rollout``, over the rollout engine's own
state and moves), or its readable twin, ``fivecrowns._state_py`` (the specification),
when the core is not built or ``FIVECROWNS_IMPLEMENTATION=python``. A :class:`Round`
adds the argument checks, the sentences of the state's refusals, the records, the
history and the observations (see docs/development.rst, The engine and its twins).

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

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _round_views, _state, _state_checks, _state_py
from . import positions as _positions
from ._checks import check_seat, passes
from ._deprecation import keyword_only
from ._move_records import new_record
from ._round_support import deep_copied, pickled_round, refuse, round_table
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
from .cards import Card
from .deck import RoundDeck
from .errors import IllegalMoveError
from .public import _TakenRows
from .records import DiscardRecord as DiscardRecord
from .records import DrawRecord as DrawRecord
from .records import Event as Event
from .records import EventKind as EventKind
from .records import Observation as Observation
from .records import Phase as Phase
from .records import RoundResult as RoundResult
from .rules import Rules
from .seeding import SeedLike, make_rng

__all__ = ["Round"]

_TYPES = np.arange(len(_CARDS))  # card types, for np.repeat by a hand's counts


# The round state in use (compiled, or its twin).
_State = _state.State

#: The state's phase numbers as Phases.
_PHASES = (Phase.DRAW, Phase.DISCARD, Phase.OVER)
# The largest max_turns the state holds (a C int, with room for the final turns); a
# longer Rules.max_turns is the same rule: no round gets near it.
_TURN_LIMIT = _state_checks.TURN_LIMIT


def _refuse_set(name: str) -> None:
    raise AttributeError(
        f"Round.{name} is read-only: it is part of the round's state, which the moves and "
        f"the compiled engine read; make another round (Round(...) or Round.from_state) "
        f"for another {name}")


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

    A round used from two threads at once is serialized, never corrupted: a move
    changes the round's state and history in one step of its state
    (``RoundState.play``: one C call, or under the Python twin's lock), and a copy
    (:meth:`clone`, ``copy``, ``deepcopy``, a pickle, :meth:`determinize`) reads both in
    one step (``RoundState.copy_at``), so it is of one moment, before or after another
    thread's move; two threads' moves are made one after the other (the later may be
    refused as illegal by then). Views (:meth:`observation`, :meth:`legal_actions`...)
    read the moment of their own reads: read a clone while another thread moves.
    :func:`fivecrowns.rollout.play_worlds` and ``play_out`` read one moment of the
    round, and the engine's threads only its copy. docs/development.rst, Threads, says
    how; a :class:`~fivecrowns.Game` refuses instead
    (:class:`~fivecrowns.errors.GameInUseError`).

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
        rules, hand_size, wild, dealer = round_table(n_players, round_number, rules, dealer,
                                                     hand_size, wild)
        # Read-only: the players, hand size, wild rank and sudden death are read from
        # the state itself (the compiled engine trusts nothing else), and these go with it.
        self._rules = rules
        self._round_number = round_number
        self._dealer = dealer
        self._totals = totals
        self._decks = rules.decks
        self._no_return = not rules.return_discard
        # docs/rules.rst, A round, 1-2: the deal, in the state (fivecrowns._state_py)
        self._state: _state_py.RoundState = _State.deal(
            n_players, hand_size, wild, rules.decks, min(rules.max_turns, _TURN_LIMIT),
            rules.return_discard, dealer, bool(sudden_death), make_rng(seed))
        self._history: list[Event] = [Event(-1, EventKind.TURN_UP,
                                            _CARDS[self._state.top_discard])]
        self._result: RoundResult | None = None
        # The public counts of a moment, for observations: (state, moment, counts), valid
        # while the state is at that moment (see _freeze).
        self._frozen: _round_views.Tracked | None = None
        self._taken_rows: _TakenRows | None = None

    # -- state --

    @property
    def rules(self) -> Rules:
        """The rules of the round."""
        return self._rules

    @rules.setter
    def rules(self, value: object) -> None:
        _refuse_set("rules")

    @property
    def n_players(self) -> int:
        """The number of players."""
        n: int = self._state.n_players
        return n

    @n_players.setter
    def n_players(self, value: object) -> None:
        _refuse_set("n_players")

    @property
    def round_number(self) -> int | None:
        """1..11, or None for an explicit deal (``hand_size`` and ``wild`` given)."""
        return self._round_number

    @round_number.setter
    def round_number(self, value: object) -> None:
        _refuse_set("round_number")

    @property
    def hand_size(self) -> int:
        """The cards each player holds between turns."""
        size: int = self._state.hand_size
        return size

    @hand_size.setter
    def hand_size(self, value: object) -> None:
        _refuse_set("hand_size")

    @property
    def wild(self) -> int:
        """The wild rank, 3..13 (jokers are always wild)."""
        wild: int = self._state.wild
        return wild

    @wild.setter
    def wild(self, value: object) -> None:
        _refuse_set("wild")

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._dealer

    @dealer.setter
    def dealer(self, value: object) -> None:
        _refuse_set("dealer")

    @property
    def sudden_death(self) -> bool:
        """True in a sudden-death round: the first player to go out ends it."""
        return bool(self._state.sudden_death)

    @sudden_death.setter
    def sudden_death(self, value: object) -> None:
        _refuse_set("sudden_death")

    @property
    def totals(self) -> tuple[int, ...] | None:
        """The players' running totals before this round (shown in observations)."""
        return self._totals

    @totals.setter
    def totals(self, value: object) -> None:
        _refuse_set("totals")

    @property
    def current_player(self) -> int:
        """Whose turn it is (the last player to act once the round is over)."""
        return self._state.current

    @property
    def phase(self) -> Phase:
        """DRAW, DISCARD, or OVER."""
        return _PHASES[self._state.phase]

    @property
    def turn(self) -> int:
        """Turns completed (a turn is one player's draw and discard)."""
        return self._state.turn

    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self._state.phase == 2

    @property
    def went_out(self) -> int | None:
        """The player who went out, if any."""
        out: int = self._state.went_out
        return None if out < 0 else out

    @property
    def final_turn(self) -> bool:
        """True while someone has gone out and the current turn is a last one."""
        st = self._state
        return st.went_out >= 0 and st.phase != 2

    @property
    def result(self) -> RoundResult | None:
        """The outcome once the round is over, else ``None``."""
        res = self._result
        if res is None:
            st = self._state
            if st.phase == 2:
                # a clone made by another thread between the round's last move and its
                # result: made here, from the state
                res = self._make_result(st)
                if self._state is st:
                    self._result = res
        return res

    @property
    def history(self) -> tuple[Event, ...]:
        """The public history of the round."""
        return tuple(self._history)

    @property
    def deck(self) -> RoundDeck:
        """The round's draw and discard piles, read-only (see
        :class:`~fivecrowns.deck.RoundDeck`)."""
        return RoundDeck(self._state, self.rules)

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's cards, sorted (everything, not only what one player may see)."""
        return self._cards(self._state.hand(self._check_player(player)))

    @staticmethod
    def _cards(row: npt.NDArray[np.uint8]) -> tuple[Card, ...]:
        # each type repeated by its count in one NumPy call: a round's result makes
        # every hand's cards, and environments end a round every few steps
        return tuple(map(_CARDS.__getitem__, np.repeat(_TYPES, row).tolist()))

    def hand_counts(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of a player's hand as a (56,) ``uint8`` row."""
        return self._state.hand(self._check_player(player))

    def _check_player(self, player: int) -> int:
        check_seat(player, self.n_players)
        return int(player)

    def _check_turn(self, player: int | None, move: str) -> None:
        st = self._state
        if st.phase == 2:
            raise IllegalMoveError(f"cannot {move}: the round is over")
        if player is not None and player != st.current:
            raise IllegalMoveError(f"player {player} cannot {move}: it is player "
                                   f"{st.current}'s turn")

    def _kept(self) -> int:
        """The card type the current player may not discard now, or -1 (see
        ``RoundState.must_keep``)."""
        return self._state.must_keep()

    # -- drawing --

    def _check_draw(self, source: SourceLike, player: int | None) -> Source:
        src = _source(source)
        code = self._state.check_draw(src is Source.DISCARD)
        if code or player is not None:
            self._check_turn(player, "draw")
            refuse(code, -1, self._state, self.hand_size)
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
        rec: DrawRecord = self._play(src.value)
        return rec

    # -- discarding --

    def _check_discard(self, card: CardArg, go_out: bool, player: int | None) -> int:
        t = card_index(card)
        if not isinstance(go_out, (bool, np.bool_)):
            raise TypeError(f"go_out must be a bool, got {type(go_out).__name__}")
        code = self._state.check_discard(t, bool(go_out))
        if code or player is not None:
            self._check_turn(player, "discard")
            refuse(code, t, self._state, self.hand_size)
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
        return self._play((ACTION_GO_OUT if go_out else ACTION_DISCARD) + t)

    def _play(self, action: int) -> Any:
        """Make the legal move of an action code: the state makes the move, its events
        and its record in one step (apply_action repeats these lines: a call less per
        move). Nothing else of the round changes: the counts that observations keep are
        those of a moment of the state (see _freeze), so no other thread sees a move
        half made (docs/development.rst, Threads)."""
        st = self._state
        rec = st.play(action, self._history)
        return rec if rec is not None else self._last_record(action, st)

    def _last_record(self, action: int, st: Any) -> DiscardRecord:
        """The record of the discard that ended the round of state ``st``, which holds
        its result."""
        res = self._make_result(st)
        if self._state is st:
            self._result = res
        out = action >= ACTION_GO_OUT
        rec: DiscardRecord = new_record(DiscardRecord, {
            "player": st.current,
            "card": _CARDS[action - (ACTION_GO_OUT if out else ACTION_DISCARD)],
            "go_out": out, "turn": st.turn - 1, "round_over": True, "result": res})
        return rec

    def _make_result(self, st: Any) -> RoundResult:
        out = st.went_out
        return RoundResult(
            scores=tuple(st.scores), went_out=None if out < 0 else out,
            hit_max_turns=st.hit_max_turns, turns=st.turn,
            final_hands=tuple(self._cards(h) for h in st.hands()),
            round_number=self.round_number, hand_size=self.hand_size, wild=self.wild,
            dealer=self.dealer, reshuffles=st.reshuffles)

    # -- actions as ints --

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A (114,) bool array, True for each legal action code (all False once over).

        >>> r = Round(2, round_number=1, seed=0)
        >>> r.legal_action_mask()[:2].tolist()
        [True, True]
        """
        return self._state.legal_mask()

    def legal_actions(self) -> list[int]:
        """The legal action codes, ascending (the same as :meth:`legal_action_mask`'s)."""
        return self._state.legal_actions()

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
        if action.__class__ is int and player is None and 0 <= action < N_ACTIONS:
            # the fast path: the state checks the move (a refused move changes nothing),
            # then the sentence of why is made
            st = self._state
            try:
                rec = st.play(action, self._history)
            except ValueError as exc:
                refused = exc
            else:
                return rec if rec is not None else self._last_record(action, st)
            self.verify_action(action)    # raises the sentence
            raise refused
        kind, what, out = decode_action(action)
        if kind == "draw":
            return self._draw(self._check_draw(what, player))  # type: ignore[arg-type]
        return self._discard(self._check_discard(what, out, player), out)

    def _run_policies(self, policies: tuple[int | None, ...], choices: tuple[Any, ...],
                      stop: int, actions: list[int], first: int = -1) -> int:
        """The compiled engine's moves for the players with a policy, until player
        ``stop`` (-1: none) or one without a policy is to move, or the round ends; their
        action codes appended to ``actions``, their number returned
        (``_policies.play_policies``, whose twin is a move of each bot's own:
        ``tests/test_envs_gym.py``); ``first``, an action code, the current player's own
        move before them. ``RuntimeError`` on the pure-Python state."""
        st = self._state
        core = _state.policies_core
        if core is None or type(st) is not _state.State:
            raise RuntimeError("the compiled engine's policies need its round state")
        made: int = core.play_policies(st, self._history, actions, policies, choices, stop,
                                       first)
        return made

    # -- views --

    # What a player sees, written in fivecrowns._round_views: functions set here as the
    # round's methods, so an observation costs no call more
    _freeze = _round_views.freeze
    observation = _round_views.observation

    # from_state, from_observation and determinize: see fivecrowns.positions

    def clone(self) -> Round:
        """An independent copy: playing on it leaves this round untouched, and the same
        moves give the same round (its deck draws from a generator of its own, in the
        same state; see ``RoundState.rng``). A copy of one moment, even while another
        thread moves this round."""
        return self._copy(False)

    def _copy(self, share_rng: bool) -> Round:
        """A copy of this round at one moment (its state sharing this one's generator if
        ``share_rng``): the attributes in one step, then the state and history together
        in one (``RoundState.copy_at``): a move by another thread is wholly in the copy
        or not at all. The counts kept for observations are made again."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d["_state"], d["_history"] = d["_state"].copy_at(d["_history"], share_rng)
        d["_frozen"] = None
        return new

    def __copy__(self) -> Round:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        # a generator shared with what is copied along stays shared (see deep_copied)
        new = object.__new__(type(self))
        new.__dict__.update(deep_copied(self.__dict__, memo))
        return new

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle holds: the attributes, the state and the history of one moment.
        The state's generator is the round's own object, so that a pickle keeps it
        shared with whatever else it holds (a :class:`~fivecrowns.Game`'s); the pickler
        reads it after this, so while another thread moves the round a reshuffle may
        come between (a :class:`~fivecrowns.Game`'s pickle copies the game first)."""
        d = self._copy(True).__dict__
        d["_taken_rows"] = None
        return d

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickle's round, checked: its state was checked as it loaded (``from_fields``),
        and the rest must agree with it. A 0.4 pickle keeps these attributes under their
        public names."""
        self.__dict__.update(pickled_round(state))

    def __repr__(self) -> str:
        st = self._state
        return (f"Round(players={self.n_players}, round={self.round_number}, "
                f"hand_size={self.hand_size}, wild={self.wild}, turn={st.turn}, "
                f"player={st.current}, phase={self.phase.value})")
