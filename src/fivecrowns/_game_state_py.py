"""A game's state between its rounds, in plain Python: the specification.

A game of Five Crowns (docs/rules.rst, A game) is a plan of rounds played one after
another: the deal passes to the left each round (round ``k`` of the plan is dealt by seat
``(first_dealer + k) % n_players``), its scores add to the running totals, and once the
plan is played the lowest total wins. Ties share the victory, unless the rules ask for a
tie-break: then the tied seats play one more round of 6 cards, 6s wild, in sudden death;
the first tied seat clockwise from the next dealer's left plays first, and whoever goes
out wins (nobody within the turn limit: the tied seats share the victory).

:class:`GameState` is exactly that and nothing else: which round is dealt next, by whom,
with how many cards and which wild rank, who plays it, what the totals are and who won.
The round itself is a round state (:mod:`fivecrowns._state_py`); whoever plays the game
deals it with these parameters, plays it and hands its scores back to
:meth:`GameState.end_round`. :class:`~fivecrowns.Game`, the built-in bots' games
(:mod:`fivecrowns._bot_games`) and the OpenSpiel state keep their games on it.

The compiled twin, ``fivecrowns._game_state.GameState``, is the same class over the C struct
that the engine's game loops (``play_logged_game``, ``play_game_seated``, ``play_games``
and the vector environment) run on; ``fivecrowns._state.GameState`` chooses between them
as for the round state. tests/test_game_state_twins.py drives both through the same
games.

Conventions (both twins): seats ``0..n_players - 1``; the players of the round in play are
numbered ``0..`` locally, in seat order (``seats[local]`` is the seat); a tie-break round's
``round_number`` is ``None``; stages are :data:`ROUND` (a round of the plan is in play),
:data:`TIE_BREAK` and :data:`OVER`.

Examples
--------
>>> g = GameState(3, (1, 2), first_dealer=2, tie_break=True)
>>> g.round_number, g.hand_size, g.dealer, g.seats
(1, 3, 2, (0, 1, 2))
>>> g.end_round((0, 12, 5), 0)
0
>>> g.round_number, g.dealer, g.totals
(2, 0, (0, 12, 5))
>>> g.end_round((5, 0, 0), 1)
1
>>> g.seats, g.hand_size, g.wild, g.sudden_death, g.dealer
((0, 2), 6, 6, True, 0)
>>> g.end_round((0, 9), 0), g.winners, g.totals
(2, (0,), (5, 12, 5))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._checks import check_int

__all__ = ["GameState", "ROUND", "TIE_BREAK", "OVER", "TIE_BREAK_HAND_SIZE",
           "MAX_GAME_PLAYERS", "MAX_SCORE"]

# The compiled twin (_game_state.pyx) checks its arguments with _checked_args,
# _round_end and _checked_fields: one set of checks, one set of messages.

#: Stages of a game.
ROUND, TIE_BREAK, OVER = range(3)
#: Cards dealt (and the wild rank) in the tie-break round.
TIE_BREAK_HAND_SIZE = 6
#: The most players a game may seat (7 a deck pair: 14 with 4 decks).
MAX_GAME_PLAYERS = 14
#: The largest round score either twin takes (the compiled one keeps scores in 32 bits).
MAX_SCORE = 2**31 - 1
_N_ROUNDS = 11


def _plan(rounds: object) -> tuple[int, ...]:
    try:
        items: tuple[object, ...] = tuple(rounds)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"the plan must be a sequence of round numbers, got "
                        f"{type(rounds).__name__}") from None
    if not items:
        raise ValueError("the plan must name at least one round")
    return tuple(check_int(r, "a round number", 1, _N_ROUNDS) for r in items)


class GameState:
    """A game's plan, running totals, tie-break and winners (see the module docstring).

    Parameters
    ----------
    n_players : int
        2..14.
    plan : sequence of int
        The round numbers to play (1..11 each), in order.
    first_dealer : int
        The first round's dealer.
    tie_break : bool
        Whether a shared lowest total is played off (``Rules.tie_break``).
    """

    __slots__ = ("_n", "_plan", "_first", "_tie_break", "_k", "_totals", "_stage",
                 "_tied", "_winners")

    def __init__(self, n_players: int, plan: Iterable[int], first_dealer: int = 0,
                 tie_break: bool = False) -> None:
        self._n, self._plan, self._first, self._tie_break = _checked_args(
            n_players, plan, first_dealer, tie_break)
        self._k = 0
        self._totals = [0] * self._n
        self._stage = ROUND
        self._tied: tuple[int, ...] = ()     # the tie-break's seats, once dealt
        self._winners: tuple[int, ...] = ()

    # -- what the game is --

    @property
    def n_players(self) -> int:
        return self._n

    @property
    def plan(self) -> tuple[int, ...]:
        return self._plan

    @property
    def first_dealer(self) -> int:
        return self._first

    @property
    def tie_break(self) -> bool:
        return self._tie_break

    # -- where it stands --

    @property
    def stage(self) -> int:
        """:data:`ROUND`, :data:`TIE_BREAK` or :data:`OVER`."""
        return self._stage

    @property
    def is_over(self) -> bool:
        return self._stage == OVER

    @property
    def k(self) -> int:
        """How many rounds of the plan have ended (the tie-break not counted)."""
        return self._k

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total of the plan's rounds ended so far."""
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else ``()``."""
        return self._winners

    @property
    def tie_break_seats(self) -> tuple[int, ...]:
        """The seats of the tie-break round once it is dealt, else ``()``."""
        return self._tied

    # -- the round in play (the last one once the game is over) --

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat of each of its players, by local number."""
        return self._tied or tuple(range(self._n))

    @property
    def dealer(self) -> int:
        """Its dealer, by local number."""
        if not self._tied:
            return (self._first + min(self._k, len(self._plan) - 1)) % self._n
        next_dealer = (self._first + len(self._plan)) % self._n
        tied = self._tied
        # the first tied seat clockwise from the next dealer's left plays first
        first = min(range(len(tied)), key=lambda i: (tied[i] - next_dealer - 1) % self._n)
        return (first - 1) % len(tied)

    @property
    def round_number(self) -> int | None:
        """Its number (``None`` for the tie-break)."""
        return None if self._tied else self._plan[min(self._k, len(self._plan) - 1)]

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player; the wild rank is the same number."""
        return TIE_BREAK_HAND_SIZE if self._tied else self.round_number + 2  # type: ignore[operator]

    @property
    def wild(self) -> int:
        return self.hand_size

    @property
    def sudden_death(self) -> bool:
        """True in the tie-break round: the first to go out wins, nobody gets a final
        turn."""
        return bool(self._tied)

    def round_totals(self) -> tuple[int, ...]:
        """The totals of the round's players, by local number."""
        return tuple(self._totals[s] for s in self.seats)

    # -- the one move of a game --

    def end_round(self, scores: Iterable[int], went_out: int | None) -> int:
        """The round in play ended with ``scores`` (by local number) and ``went_out``
        (a local number, or ``None``/-1 for nobody); the next round, the tie-break or the
        end of the game follows. Returns the new :attr:`stage`."""
        if self._stage == OVER:
            raise ValueError("the game is over: no round is in play")
        seats = self.seats
        pts, out = _round_end(scores, went_out, len(seats))
        if self._stage == TIE_BREAK:
            # the tie-break's scores do not count: the first out wins
            self._winners = (seats[out],) if out >= 0 else seats
            self._stage = OVER
            return OVER
        for s, score in enumerate(pts):
            self._totals[s] += score
        self._k += 1
        if self._k < len(self._plan):
            return ROUND
        best = min(self._totals)
        tied = tuple(s for s in range(self._n) if self._totals[s] == best)
        if len(tied) > 1 and self._tie_break:
            self._tied = tied
            self._stage = TIE_BREAK
            return TIE_BREAK
        self._winners = tied
        self._stage = OVER
        return OVER

    # -- copies and pickles --

    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new._totals = list(self._totals)
        return new

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.copy()

    def fields(self) -> tuple[Any, ...]:
        """Everything the state is, as plain values (what a pickle holds)."""
        return (self._n, self._plan, self._first, self._tie_break, self._k,
                tuple(self._totals), self._stage, self._tied, self._winners)

    @classmethod
    def from_fields(cls, fields: Iterable[Any]) -> GameState:
        """The state of :meth:`fields`, checked: a malformed tuple is a ``ValueError``."""
        g = cls.__new__(cls)
        g._set_fields(_checked_fields(fields))
        return g

    def _set_fields(self, f: tuple[Any, ...]) -> None:
        (self._n, self._plan, self._first, self._tie_break, self._k, totals, self._stage,
         self._tied, self._winners) = f
        self._totals = list(totals)

    def __reduce__(self) -> tuple[Any, tuple[Any]]:
        return load, (self.fields(),)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState) and type(other) is not active:
            return NotImplemented  # (either twin: the states are equal by value)
        return bool(self.fields() == other.fields())  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        where = ("over" if self._stage == OVER else "tie-break" if self._stage == TIE_BREAK
                 else f"round={self.round_number}")
        return f"GameState(players={self._n}, {where}, totals={self.totals})"


#: The class a pickle loads as: the twin in use (fivecrowns._state sets it), so that a
#: pickle names no twin.
active: type[Any] | None = None


def load(fields: Any) -> Any:
    """A pickled game state, as the twin in use."""
    return (active or GameState).from_fields(fields)


def _checked_args(n_players: object, plan: object, first_dealer: object,
                  tie_break: object) -> tuple[int, tuple[int, ...], int, bool]:
    """A new game's arguments checked (both twins' checks)."""
    n = check_int(n_players, "n_players", 2, MAX_GAME_PLAYERS)
    return n, _plan(plan), check_int(first_dealer, "first_dealer", 0, n - 1), bool(tie_break)


def _round_end(scores: Iterable[object], went_out: object,
               m: int) -> tuple[tuple[int, ...], int]:
    """A round's end as :meth:`GameState.end_round` takes it, checked (both twins' checks):
    ``m`` scores of 0..MAX_SCORE, and who went out as -1..m-1."""
    try:
        items = tuple(scores)
    except TypeError:
        raise TypeError(f"scores must be a sequence of ints, got "
                        f"{type(scores).__name__}") from None
    if len(items) != m:
        raise ValueError(f"the round has {m} players, got {len(items)} scores")
    pts = tuple(check_int(s, "a score", 0, MAX_SCORE) for s in items)
    return pts, -1 if went_out is None else check_int(went_out, "went_out", -1, m - 1)


def _checked_fields(fields: Iterable[Any]) -> tuple[Any, ...]:
    """``fields`` checked as both twins check them (each in range, and the whole a state
    that a game reaches: nothing built from a pickle can be another), as plain values;
    a malformed tuple is a ``ValueError``."""
    try:
        items = tuple(fields)
    except TypeError:
        raise ValueError("a game state's fields must be a tuple") from None
    if len(items) != 9:
        raise ValueError(f"malformed game state: 9 fields, got {len(items)}")
    n, plan, first, tie_break, k, totals, stage, tied, winners = items
    try:
        if not isinstance(tie_break, bool):
            raise TypeError(f"tie_break must be a bool, got {type(tie_break).__name__}")
        n, plan, first, tie_break = _checked_args(n, plan, first, tie_break)
        k = check_int(k, "k", 0, len(plan))
        totals = tuple(check_int(t, "a total", 0, MAX_SCORE * len(plan)) for t in totals)
        stage = check_int(stage, "stage", ROUND, OVER)
        tied = tuple(check_int(s, "a tie-break seat", 0, n - 1) for s in tied)
        winners = tuple(check_int(s, "a winner", 0, n - 1) for s in winners)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed game state: {exc}") from None
    if len(totals) != n:
        raise ValueError(f"malformed game state: {len(totals)} totals for {n} players")
    if k < len(plan):
        ok = stage == ROUND and not tied and not winners and (k > 0 or not any(totals))
    else:
        best = min(totals)
        lowest = tuple(s for s in range(n) if totals[s] == best)
        if len(lowest) > 1 and tie_break:
            ok = tied == lowest and (
                (stage == TIE_BREAK and not winners) or
                (stage == OVER and (winners == lowest or
                                    (len(winners) == 1 and winners[0] in lowest))))
        else:
            ok = stage == OVER and not tied and winners == lowest
    if not ok:
        raise ValueError("malformed game state: its fields are not a state a game reaches")
    return n, plan, first, tie_break, k, totals, stage, tied, winners
