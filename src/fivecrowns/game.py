"""A whole game: 11 rounds (or a chosen subset), running totals, winners, records.

A :class:`Game` plays its rounds one after another (docs/rules.rst, A game): the deal
passes to the left each round, the player at the dealer's left starts, scores add up
and the lowest total wins. Ties share the victory unless ``Rules.tie_break`` is set;
then the tied players play one 6-card round (6s wild) and the first to go out wins.

Every move is recorded; :meth:`Game.record` gives a
:class:`~fivecrowns.replay.GameRecord` that serialises to JSON, and :meth:`Game.replay`
plays it again, checking every move and every score, so that an edited or corrupted
record raises :class:`~fivecrowns.ReplayError`. In a tie-break round the round's player
numbers are local (see :attr:`Game.round_seats`); the game's methods take seats.

``GameRecord``, ``RECORD_FORMAT``, ``action_token`` and ``parse_token`` live in
:mod:`fivecrowns.replay` and can still be imported from here.

Examples
--------
>>> from fivecrowns.game import Game
>>> g = Game(2, seed=11, rounds=[1, 2])
>>> g.round_number, g.round.dealer, g.current_player, g.phase.value
(1, 0, 1, 'draw')
>>> rec = g.draw("deck")
>>> rec = g.discard(g.round.hand(1)[-1])
>>> g.current_player, g.phase.value
(0, 'draw')

Whole games are easier with bots (see :func:`fivecrowns.players.play_game`):

>>> from fivecrowns.players import play_game
>>> from fivecrowns.bots import GreedyBot
>>> res = play_game([GreedyBot(), GreedyBot()], seed=11, rounds=[1, 2])
>>> Game.replay(res.record.to_json()).result == res
True
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _state
from ._checks import check_game, passes
from ._deprecation import keyword_only
from ._game_state_py import OVER, ROUND, TIE_BREAK
from ._game_state_py import TIE_BREAK_HAND_SIZE as TIE_BREAK_HAND_SIZE
from .actions import N_ACTIONS, CardArg, SourceLike, encode_discard, encode_draw
from .errors import GameInUseError, IllegalMoveError, ReplayError
from .records import DiscardRecord, DrawRecord, Observation, Phase, RoundResult
from .replay import RECORD_FORMAT as RECORD_FORMAT
from .replay import GameRecord as GameRecord
from .replay import action_token as action_token
from .replay import action_tokens
from .replay import parse_token as parse_token
from .round import Round
from .rules import Rules
from .seeding import SeedLike, _deepcopy_rng

__all__ = ["Game", "GameResult", "TIE_BREAK_HAND_SIZE"]

# A Game's attributes that hold immutable values (ints, tuples, Rules, frozen results and
# records): a copy shares them (deep-copying the finished rounds' results is most of the
# cost of a copy otherwise).
_SHARED = frozenset({"seed", "rules", "_seats", "_tie_round", "_result"})


def _in_use(what: str) -> GameInUseError:
    return GameInUseError(
        f"cannot {what} this Game: another thread is moving, copying or pickling it now; "
        f"a Game is used by one thread at a time (hold a lock of your own around its "
        f"moves, or give each thread a clone)")


def _take(guard: list[None], what: str) -> None:
    """Take a Game's thread guard (``_guard``: one token, taken by list.pop, a step no
    other thread interrupts), or raise :class:`GameInUseError` for ``what``."""
    try:
        guard.pop()
    except IndexError:
        raise _in_use(what) from None


def _pretty(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats)


@dataclass(frozen=True)
class GameResult:
    """The outcome of a game.

    Attributes
    ----------
    totals : tuple of int
        Each seat's total score.
    winners : tuple of int
        The winning seats: one, or several sharing the victory.
    rounds : tuple of RoundResult
    seed : int
    tie_break : RoundResult or None
        The tie-break round, if one was played; its players are ``tie_break_seats``.
    tie_break_seats : tuple of int
    record : GameRecord
    """

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    seed: int
    tie_break: RoundResult | None
    tie_break_seats: tuple[int, ...]
    record: GameRecord

    @property
    def shared(self) -> bool:
        """True if several players share the victory."""
        return len(self.winners) > 1

    @property
    def hit_max_turns(self) -> int:
        """How many rounds were stopped by ``Rules.max_turns``."""
        return sum(r.hit_max_turns for r in self.rounds)


class Game:
    """A game of Five Crowns between ``n_players`` seats.

    Moves go through the game (``draw``/``discard``/``apply_action`` with the same
    verify/can/do trio as :class:`~fivecrowns.round.Round`); each round starts as soon
    as the previous one ends.

    A move, a copy or a pickle of a game is many steps (the round's move, the record,
    the next round's deal); one started while another thread's is under way raises
    :class:`GameInUseError` and changes nothing, so a game is never left half moved
    or copied half way (docs/development.rst, Threads).

    Parameters
    ----------
    n_players : int
        2 to ``rules.max_players`` (7, or 14 with 4 decks). One player plays solitaire
        instead (docs/rules.rst, A game).
    seed : int, numpy SeedSequence or numpy Generator
        Shuffles every round; the same seed and moves give the same game everywhere.
        Required and keyword-only. The game keeps an int (``self.seed``, in its record):
        a SeedSequence or Generator gives one (:func:`fivecrowns.seeding.int_seed`).
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers to play (default 1..11), in the order given.
    first_dealer : int
        The first round's dealer.

    Examples
    --------
    >>> g = Game(3, seed=1, rounds=[2, 5])
    >>> g.round_number, g.round.dealer, g.current_player, g.round.hand_size
    (2, 0, 1, 4)
    """

    def __init__(self, n_players: int, *, seed: SeedLike, rules: Rules | None = None,
                 rounds: Sequence[int] | None = None, first_dealer: int = 0) -> None:
        rules, plan, seed, first_dealer = check_game(n_players, seed, rules, rounds,
                                                    first_dealer)
        self.seed = seed  # the int the record keeps
        self.rules = rules
        # the plan, the dealers, the totals, the tie-break and the winners: the game's
        # state between its rounds (fivecrowns._game_state_py, compiled or not)
        self._g = _state.GameState(n_players, plan, first_dealer, rules.tie_break)
        self._rng = np.random.default_rng(self.seed)
        self._results: list[RoundResult] = []
        self._actions: list[list[int]] = []
        self._tie_round: RoundResult | None = None
        self._result: GameResult | None = None
        # The token of a move, copy or pickle under way: taken by list.pop (one step,
        # which no other thread interrupts), put back by append; empty while in use.
        self._guard: list[None] = [None]
        self._start_round()

    # -- rounds --

    def _start_round(self) -> None:
        """Deal the round the game state has in play."""
        g = self._g
        # the round's seats, kept beside the state: every move reads them
        self._seats: tuple[int, ...] = g.seats
        if g.stage == TIE_BREAK:
            self._round = Round(len(self._seats), seed=self._rng, rules=self.rules,
                                dealer=g.dealer, hand_size=g.hand_size, wild=g.wild,
                                sudden_death=True, totals=g.round_totals())
        else:
            self._round = Round(self.n_players, g.round_number, seed=self._rng,
                                rules=self.rules, dealer=g.dealer, totals=g.totals)
        self._actions.append([])

    def _after_move(self) -> None:
        rnd = self._round
        if not rnd.is_over:
            return
        res = rnd.result
        assert res is not None
        if self._g.stage == TIE_BREAK:
            self._tie_round = res
        else:
            self._results.append(res)
        if self._g.end_round(res.scores, res.went_out) == OVER:
            self._finish()
        else:
            self._start_round()

    def _finish(self) -> None:
        g = self._g
        self._result = GameResult(
            totals=g.totals, winners=g.winners, rounds=tuple(self._results),
            seed=self.seed, tie_break=self._tie_round, tie_break_seats=g.tie_break_seats,
            record=self.record())

    # -- state --

    @property
    def n_players(self) -> int:
        """The seats."""
        n: int = self._g.n_players
        return n

    @property
    def rounds(self) -> tuple[int, ...]:
        """The round numbers played, in order (the tie-break not counted)."""
        plan: tuple[int, ...] = self._g.plan
        return plan

    @property
    def first_dealer(self) -> int:
        """The first round's dealer."""
        first: int = self._g.first_dealer
        return first

    @property
    def is_over(self) -> bool:
        """True once the last round (and any tie-break) has ended."""
        # the result is made the moment the state says so: a plain read on the hot path
        return self._result is not None

    @property
    def round(self) -> Round:
        """The round being played (the last one once the game is over).

        Its player numbers are seats, except in a tie-break round, whose players are
        numbered 0.. in :attr:`tie_break_seats` order (see :attr:`round_seats`).
        """
        return self._round

    @property
    def round_seats(self) -> tuple[int, ...]:
        """The seat of each of the current round's players: ``round_seats[local]``.

        In a normal round it is ``(0, 1, ..., n_players - 1)``. In a tie-break round the
        round numbers the tied players 0.. in seat order, and so do its observations
        (``player``, ``current_player``, ``went_out``, ``taken_counts``...); the game's
        own methods and records take and give seats.
        """
        return self._seats

    @property
    def round_number(self) -> int | None:
        """The current round's number (``None`` during a tie-break)."""
        return self._round.round_number

    @property
    def round_index(self) -> int:
        """How many rounds have finished (the tie-break not counted)."""
        return len(self._results)

    @property
    def tie_break_seats(self) -> tuple[int, ...]:
        """The seats playing (or that played) the tie-break round, if any."""
        seats: tuple[int, ...] = self._g.tie_break_seats
        return seats

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self._seats[self._round.current_player]

    @property
    def phase(self) -> Phase:
        """The current round's phase (OVER once the game is over)."""
        return self._round.phase

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals by seat (rounds finished so far)."""
        totals: tuple[int, ...] = self._g.totals
        return totals

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The finished rounds' results."""
        return tuple(self._results)

    @property
    def result(self) -> GameResult | None:
        """The outcome once the game is over, else ``None``."""
        return self._result

    def _local(self, seat: int | None) -> int | None:
        if seat is None or len(self._seats) == self._g.n_players:
            return seat
        if seat in self._seats:
            return self._seats.index(seat)
        raise IllegalMoveError(f"seat {seat} does not play the tie-break round between "
                               f"seats {_pretty(self._seats)}")

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (see :meth:`Round.observation`)."""
        local = self._local(seat)
        assert local is not None
        return self._round.observation(local)

    # -- moves --

    def _check_open(self) -> None:
        if self._result is not None:
            raise IllegalMoveError("cannot move: the game is over")

    def verify_action(self, action: int, *, player: int | None = None) -> None:
        """Raise :class:`~fivecrowns.IllegalMoveError` unless ``action`` is legal now."""
        self._check_open()
        self._round.verify_action(action, player=self._local(player))

    def can_apply_action(self, action: int, *, player: int | None = None) -> bool:
        """True if :meth:`apply_action` would succeed."""
        return passes(self.verify_action, action, player=player)

    def apply_action(self, action: int, *,
                     player: int | None = None) -> DrawRecord | DiscardRecord:
        """Make the move of an action code (see :mod:`fivecrowns.actions`); the record's
        player is the seat. :class:`GameInUseError` while another thread moves, copies
        or pickles this game."""
        guard = self._guard
        _take(guard, "move")
        try:
            self._check_open()
            rnd = self._round
            local = self._local(player)
            if local is not None and local == rnd.current_player and not rnd.is_over:
                # the seat to move: nothing left to check that the state does not, so
                # the round's fast path (the bots of the environments move this way)
                local = None
            rec = rnd.apply_action(action, player=local)
            self._actions[-1].append(int(action))
            seat = self._seats[rec.player]
            self._after_move()
        finally:
            guard.append(None)
        if seat != rec.player:
            rec = _with_player(rec, seat)  # a tie-break round numbers its players 0..
        return rec

    def _run_policies(self, stop: int, policies: Sequence[int | None],
                      choices: Sequence[Any], first: int = -1) -> None:
        """The compiled engine's moves for the seats with a policy (``policies[seat]``,
        as ``_policies.policy_action`` takes it, and ``choices[seat]``, a RandomBot's
        BitGenerator or None), until seat ``stop`` or a seat without one is to move or
        the round ends: the single Gymnasium environment's opponents, a run of moves in
        one call (the same moves as each bot's own, ``tests/test_envs_gym.py``).
        ``first``: an action code the seat to move plays before them (the agent's,
        legal: checked by the caller), -1 for none."""
        guard = self._guard
        _take(guard, "move")
        try:
            self._check_open()
            seats = self._seats
            if len(seats) == self._g.n_players:   # every seat plays: seats are players
                self._round._run_policies(tuple(policies), tuple(choices), stop,
                                          self._actions[-1], first)
            else:
                self._round._run_policies(
                    tuple(policies[s] for s in seats), tuple(choices[s] for s in seats),
                    seats.index(stop) if stop in seats else -1, self._actions[-1], first)
            self._after_move()
        finally:
            guard.append(None)

    def verify_draw(self, source: SourceLike, *, player: int | None = None) -> None:
        """Raise unless the current seat (or ``player``) may draw from ``source``."""
        self.verify_action(encode_draw(source), player=player)

    def can_draw(self, source: SourceLike, *, player: int | None = None) -> bool:
        """True if :meth:`draw` would succeed."""
        return passes(self.verify_draw, source, player=player)

    def draw(self, source: SourceLike, *, player: int | None = None) -> DrawRecord:
        """Draw from ``"deck"`` or ``"discard"`` (or a :class:`Source`)."""
        rec = self.apply_action(encode_draw(source), player=player)
        assert isinstance(rec, DrawRecord)
        return rec

    @keyword_only("go_out")
    def verify_discard(self, card: CardArg, *, go_out: bool = False,
                       player: int | None = None) -> None:
        """Raise unless the current seat may discard ``card`` (going out if ``go_out``)."""
        self.verify_action(encode_discard(card, go_out=go_out), player=player)

    @keyword_only("go_out")
    def can_discard(self, card: CardArg, *, go_out: bool = False,
                    player: int | None = None) -> bool:
        """True if :meth:`discard` would succeed."""
        return passes(self.verify_discard, card, go_out=go_out, player=player)

    @keyword_only("go_out")
    def discard(self, card: CardArg, *, go_out: bool = False,
                player: int | None = None) -> DiscardRecord:
        """Discard ``card``, going out if ``go_out``."""
        rec = self.apply_action(encode_discard(card, go_out=go_out), player=player)
        assert isinstance(rec, DiscardRecord)
        return rec

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The current round's legal actions as a (114,) bool array."""
        if self._result is not None:
            return np.zeros(N_ACTIONS, dtype=np.bool_)
        return self._round.legal_action_mask()

    def legal_actions(self) -> list[int]:
        """The legal action codes, ascending."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    # -- records --

    def record(self) -> GameRecord:
        """The moves so far and the results so far, as a :class:`GameRecord`."""
        g = self._g
        return GameRecord(
            n_players=g.n_players, seed=self.seed, rules=self.rules, rounds=g.plan,
            first_dealer=g.first_dealer,
            actions=tuple(map(action_tokens, self._actions)),
            round_scores=tuple(r.scores for r in self._results), totals=g.totals,
            winners=g.winners, tie_break_seats=g.tie_break_seats)

    @classmethod
    def replay(cls, record: GameRecord | str | dict[str, Any]) -> Game:
        """Play a recorded game again and check it move by move.

        Parameters
        ----------
        record : GameRecord, JSON str, or dict

        Returns
        -------
        Game
            The finished game, identical to the recorded one.

        Raises
        ------
        ReplayError
            If the record is malformed, a move is illegal, the moves end too early or go on
            after the game, or a recorded score or winner differs from the replay's.
        """
        if isinstance(record, str):
            record = GameRecord.from_json(record)
        elif isinstance(record, dict):
            record = GameRecord.from_dict(record)
        if not isinstance(record, GameRecord):
            raise TypeError(f"record must be a GameRecord, JSON str or dict, "
                            f"got {type(record).__name__}")
        try:
            game = cls(record.n_players, seed=record.seed, rules=record.rules,
                       rounds=record.rounds, first_dealer=record.first_dealer)
        except (TypeError, ValueError) as exc:
            raise ReplayError(f"the game record cannot start a game: {exc}") from None
        for k, tokens in enumerate(record.actions):
            label = (f"round {record.rounds[k]} (#{k + 1})" if k < len(record.rounds)
                     else "the tie-break round")
            if game.is_over:
                raise ReplayError(f"the record has moves for {label}, but the game was over "
                                  f"after {k} rounds")
            if len(game._actions) != k + 1:
                raise ReplayError(f"the record's moves for {label} start while another "
                                  f"round is being played")
            for i, token in enumerate(tokens):
                action = parse_token(token)
                if len(game._actions) != k + 1:
                    raise ReplayError(
                        f"{label} ended after move {i}, but the record has "
                        f"{len(tokens) - i} more move(s) for it, starting with {token!r}")
                try:
                    game.apply_action(action)
                except IllegalMoveError as exc:
                    raise ReplayError(f"move {i + 1} of {label} ({token!r}) is illegal: "
                                      f"{exc}") from None
            if not game.is_over and len(game._actions) == k + 1:
                raise ReplayError(f"the record's {len(tokens)} moves for {label} end before "
                                  f"the round does")
        if not game.is_over:
            raise ReplayError(f"the record ends after {len(record.actions)} rounds, before "
                              f"the game is over")
        checks = [("round scores", record.round_scores, tuple(r.scores for r in game._results)),
                  ("totals", record.totals, game._g.totals),
                  ("winners", record.winners, game._g.winners),
                  ("tie-break seats", record.tie_break_seats, game._g.tie_break_seats)]
        for name, recorded, replayed in checks:
            if tuple(recorded) != tuple(replayed):
                raise ReplayError(f"the record's {name} {recorded} differ from the "
                                  f"replay's {replayed}")
        return game

    def clone(self) -> Game:
        """An independent copy (random state included): playing on it leaves this game
        untouched, and the same moves give the same game. ``copy.copy`` and
        ``copy.deepcopy`` give the same.

        >>> g = Game(2, seed=3, rounds=[1, 2])
        >>> c = g.clone()
        >>> g.draw("deck").card == c.draw("deck").card, c.round is g.round
        (True, False)
        """
        return self.__deepcopy__({})

    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # The round's deck shuffles with the game's own generator, so the copy's deck
        # must share the copy's generator: both go through the same memo.
        guard = self.__dict__.get("_guard")
        if guard is not None:  # (None: a game being unpickled by copy.deepcopy)
            _take(guard, "copy")
        try:
            new = object.__new__(type(self))
            memo[id(self)] = new
            d = new.__dict__
            for name, value in self.__dict__.items():
                if name in _SHARED:
                    d[name] = value
                elif name == "_rng":
                    d[name] = _deepcopy_rng(value, memo)
                elif name == "_g":
                    d[name] = value.copy()
                elif name == "_results":
                    d[name] = list(value)
                elif name == "_actions":
                    d[name] = [list(acts) for acts in value]
                elif name == "_guard":
                    d[name] = [None]
                else:  # the round, and whatever a subclass adds
                    d[name] = copy.deepcopy(value, memo)
        finally:
            if guard is not None:
                guard.append(None)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle holds: a copy's attributes (the pickler reads them after this
        returns, when another thread may be moving the game), but the guard."""
        d = self.__deepcopy__({}).__dict__
        d.pop("_guard", None)
        return d

    def __setstate__(self, state: dict[str, Any]) -> None:
        if not isinstance(state, dict):
            raise ValueError(f"a Game's pickle holds a dict, got {type(state).__name__}")
        guard = self.__dict__.get("_guard")
        if guard is not None:  # loaded into a game in use: refused the same way
            _take(guard, "load a pickle into")
        d = dict(state)
        d["_guard"] = [None]
        if "_g" not in d:  # a pickle of 0.4 or before: its game state in plain attributes
            d = _from_plain_attributes(d)
        else:
            try:
                d["_g"] = _state.game_state_of(d["_g"])
            except ValueError:
                raise ValueError(f"a Game's pickle holds a GameState, got "
                                 f"{type(d['_g']).__name__}") from None
        self.__dict__.update(d)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round={self.round_number}"
        return f"Game(players={self.n_players}, seed={self.seed}, {state}, totals={self.totals})"


def _with_player(rec: DrawRecord | DiscardRecord, seat: int) -> DrawRecord | DiscardRecord:
    return dataclasses.replace(rec, player=seat)


def _from_plain_attributes(d: dict[str, Any]) -> dict[str, Any]:
    """The attributes of a Game pickled before the game state (0.4 and before) as today's:
    the plain totals, tie-break seats, winners and plan become a game state, checked as
    any (a malformed one is a ``ValueError``)."""
    try:
        over, tied = bool(d.pop("_over")), tuple(d.pop("_tie_seats"))
        rules = d["rules"]
        if not isinstance(rules, Rules):
            raise TypeError("rules")
        fields = (d.pop("n_players"), tuple(d.pop("rounds")), d.pop("first_dealer"),
                  rules.tie_break, len(d["_results"]), tuple(d.pop("_totals")),
                  OVER if over else TIE_BREAK if tied else ROUND, tied,
                  tuple(d.pop("_winners")))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a Game's pickle lacks its state ({exc})") from None
    d["_g"] = _state.GameState.from_fields(fields)
    return d
