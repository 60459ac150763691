"""State machines (PyRoaringBitMap style) that play a Round and a Game with random legal
moves and, at random moments, take copies of every kind, then make every later move on
the copies too: each exact copy must stay identical to the original, move after move,
through reshuffles, final turns, the next rounds' deals and tie-break rounds.

The copies are ``clone()``, ``copy.copy``, ``copy.deepcopy``, a pickle round trip, a
replay of the game's record, and for a round ``Round.from_state`` given the whole state
(a copy of the deck's generator included). ``Round.determinize`` and
``Round.from_observation`` sample what one player cannot see: their worlds must show
that player exactly what the round shows them, and hold every card of the deck once.

The moves come from ``legal_actions()``: one at a time drawn by hypothesis, or runs of
moves by a seeded policy that draws from the deck and goes out late (long rounds with
reshuffles) or early (short rounds, final turns, tied games). Under
``HYPOTHESIS_PROFILE=ci`` (see ``machine_settings`` in conftest.py) about a third of the
hundred examples of each machine reshuffle a deck with live copies, and in the game
machine as many deal the next round after it; a sixth play a tie-break round (run
``pytest --hypothesis-show-statistics`` to see these events).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from conftest import machine_settings
from fivecrowns import Game, IllegalMoveError, Round, Rules
from fivecrowns.actions import ACTION_DISCARD, ACTION_GO_OUT
from fivecrowns.bots import best_discard_choice
from fivecrowns.deck import full_counts
from fivecrowns.records import Phase
from helpers.copying import (
    GAME_COPIES,
    ROUND_COPIES,
    game_state,
    obs_key,
    patient_action,
    round_state,
)

#: Live copies kept at most by a machine (the oldest is dropped for a new one).
MAX_COPIES = 4

_SEEDS = st.integers(0, 2**32 - 1)
# How long a run plays: a number of moves, or until the deck is next reshuffled (patient
# play), or the round ends (eager play).
_RUN = st.sampled_from([5, 40, 150, "reshuffle", "round end"])
# The same, or eager moves until the game ends (last rounds, tied totals, tie-breaks).
_GAME_RUN = st.sampled_from([5, 40, 150, "reshuffle", "round end", "game end"])
# How a run of some moves plays: see policy_action.
_POLICIES = st.sampled_from(["patient", "late", "eager"])
# The longest run: far more moves than a reshuffle or the end of a round needs.
_LONGEST = 3000
# The ways to sample what a player cannot see.
_SAMPLES = st.sampled_from(["determinize", "from_observation"])


def eager_action(r: Round, legal: list[int], rng: np.random.Generator) -> int:
    """A random legal move that ends rounds soon: go out whenever possible, otherwise a
    random draw and the discard that leaves the least deadwood."""
    outs = [a for a in legal if a >= ACTION_GO_OUT]
    if outs:
        return outs[int(rng.integers(len(outs)))]
    if r.phase is Phase.DRAW:
        return legal[int(rng.integers(len(legal)))]
    _, t = best_discard_choice(r.hand_counts(r.current_player), r.wild, r.rules.decks)
    return ACTION_DISCARD + t if ACTION_DISCARD + t in legal else legal[0]


def policy_action(r: Round, legal: list[int], rng: np.random.Generator, policy: str) -> int:
    """A random legal move of round ``r``: ``patient`` never goes out and draws mostly from
    the deck (long rounds, reshuffles), ``late`` plays so but goes out when it can,
    ``eager`` ends the round soon (:func:`eager_action`)."""
    if policy == "eager":
        return eager_action(r, legal, rng)
    return patient_action(legal, rng, go_out=policy == "late")


def from_state_copy(r: Round) -> Round:
    """``Round.from_state`` given everything about ``r``, and a copy of its deck's
    generator for the reshuffles to come: an exact copy."""
    sizes: dict[str, Any] = ({"round_number": r.round_number} if r.round_number is not None
                             else {"hand_size": r.hand_size, "wild": r.wild})
    return Round.from_state(
        [r.hand_counts(q) for q in range(r.n_players)], r.deck.draw_pile(),
        r.deck.discard_pile(), current_player=r.current_player,
        seed=copy.deepcopy(r.deck.rng), phase=r.phase, dealer=r.dealer, rules=r.rules,
        history=r.history, drawn=r.observation(r.current_player).drawn,
        sudden_death=r.sudden_death, totals=r.totals, **sizes)


def follow(name: str, c: Round | Game, action: int) -> None:
    """Make on copy ``c`` the move just made on the original."""
    try:
        c.apply_action(action)
    except IllegalMoveError as exc:
        raise AssertionError(f"copy {name} refuses the original's move {action}: "
                             f"{exc}") from None


def round_copy(how: str, r: Round) -> Round:
    """An exact copy of ``r``: one of ``ROUND_COPIES``, or ``from_state``."""
    return from_state_copy(r) if how == "from_state" else ROUND_COPIES[how](r)


_ROUND_COPIES = st.sampled_from([*sorted(ROUND_COPIES), "from_state"])


def run(r: Round, play: Callable[[int], None], seed: int, length: int | str,
        policy: str = "patient") -> None:
    """Make moves of round ``r`` with ``play``: ``length`` moves by ``policy`` (see
    :func:`policy_action`), or patient moves until the deck is next reshuffled
    (``"reshuffle"``), or eager moves until the round ends (``"round end"``); always
    stopping at the end of the round."""
    rng = np.random.default_rng(seed)
    reshuffles = r.deck.reshuffles
    if isinstance(length, str):
        policy = "patient" if length == "reshuffle" else "eager"
    for _ in range(length if isinstance(length, int) else _LONGEST):
        if r.is_over or (length == "reshuffle" and r.deck.reshuffles > reshuffles):
            break
        play(policy_action(r, r.legal_actions(), rng, policy))


def conserved(r: Round) -> None:
    """Every card of the deck (116, or 232 with 4 decks) is in one place, once."""
    total = r.deck.draw_counts().astype(np.int64) + r.deck.discard_counts()
    for q in range(r.n_players):
        total += r.hand_counts(q)
    assert total.tolist() == full_counts(r.rules).tolist()
    assert int(total.sum()) == r.rules.n_cards


def check_world(world: Round, r: Round, player: int) -> None:
    """A sampled world of ``r`` for ``player``: the same view for that player, the same
    sizes and phase, every card once."""
    assert obs_key(world.observation(player)) == obs_key(r.observation(player))
    assert (world.phase, world.current_player, world.turn) == (r.phase, r.current_player,
                                                               r.turn)
    for q in range(r.n_players):
        assert int(world.hand_counts(q).sum()) == int(r.hand_counts(q).sum())
    assert world.deck.draw_size == r.deck.draw_size
    conserved(world)
    if r.current_player == player:   # their moves depend on what they see only
        assert world.legal_actions() == r.legal_actions()


def sample_world(r: Round, data: st.DataObject, seed: int, how: str) -> None:
    """A world of ``r`` sampled for a player (``how``: ``Round.determinize`` or
    ``Round.from_observation``) must agree with what they see (:func:`check_world`),
    leave ``r`` alone, and be a round one can play on."""
    p = data.draw(st.integers(0, r.n_players - 1), label="player")
    before = round_state(r)
    if how == "determinize":
        world = r.determinize(p, seed)
    else:
        world = Round.from_observation(r.observation(p), seed=seed, rules=r.rules)
    check_world(world, r, p)
    assert round_state(r) == before
    world.apply_action(world.legal_actions()[0])
    conserved(world)


def _ended(r: Round) -> dict[str, Any]:
    """The state of a round that is over, but its deck's generator."""
    state = round_state(r)
    del state["rng"]
    return state


def _table(data: st.DataObject, short: int) -> tuple[Rules, int]:
    """Rules and a number of players: party mode (4 decks, up to 14 players) in a third
    of the examples, rounds long enough to reshuffle in two thirds (max_turns 400 or
    2,000), and rounds cut at ``short`` turns in the others."""
    decks = data.draw(st.sampled_from([2, 2, 4]), label="decks")
    rules = Rules(decks=decks, max_turns=data.draw(st.sampled_from([400, 2000, short]),
                                                   label="max_turns"),
                  return_discard=data.draw(st.booleans(), label="return_discard"),
                  tie_break=data.draw(st.booleans(), label="tie_break"))
    most = data.draw(st.sampled_from([3, 7]), label="most players")
    n = data.draw(st.integers(2, most if decks == 2 else 2 * most), label="players")
    return rules, n


class _Copies(RuleBasedStateMachine):
    """What both machines share: the copies and the moves made on all of them."""

    def __init__(self) -> None:
        super().__init__()
        self.copies: list[tuple[str, Any]] = []
        self.moves = 0

    def keep(self, name: str, c: Any) -> None:
        """Follow a new copy, forgetting the oldest one if there are too many."""
        if len(self.copies) >= MAX_COPIES:
            self.copies.pop(0)
        self.copies.append((f"{name}@{self.moves}", c))
        note(f"copy {name} at move {self.moves}")


class RoundMachine(_Copies):
    """A Round played by random legal moves, with exact copies and sampled worlds."""

    @initialize(data=st.data(), seed=_SEEDS)
    def start(self, data: st.DataObject, seed: int) -> None:
        self.rules, n = _table(data, short=12)
        if data.draw(st.booleans(), label="a tie-break round"):
            n = min(n, 7)
            self.deal: dict[str, Any] = {"hand_size": 6, "wild": 6, "sudden_death": True}
        else:
            self.deal = {"round_number": data.draw(st.integers(1, 11), label="round")}
        self.n = n
        self.new_round(seed)

    def new_round(self, seed: int) -> None:
        self.r = Round(self.n, seed=seed, rules=self.rules, dealer=seed % self.n,
                       totals=tuple(range(self.n)), **self.deal)
        self.copies.clear()

    def play(self, action: int) -> None:
        r = self.r
        before = r.deck.reshuffles
        final = r.final_turn
        r.apply_action(action)
        self.moves += 1
        for name, c in self.copies:
            follow(name, c, action)
            assert (c.current_player, c.phase, c.turn) == (r.current_player, r.phase,
                                                           r.turn), name
        if self.copies:
            if r.deck.reshuffles > before:
                event("round: a reshuffle with live copies")
            if final:
                event("round: a final turn with live copies")
            if r.is_over:
                event("round: the end of the round with live copies")

    def going(self, seed: int) -> Round:
        """The round, or a new one if it is over (its copies were checked at its end).
        Every rule can run at every step: no example is lost to preconditions."""
        if self.r.is_over:
            self.new_round(seed)
        return self.r

    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        r = self.going(self.moves)
        self.play(data.draw(st.sampled_from(r.legal_actions()), label="action"))

    @rule(seed=_SEEDS, length=_RUN, policy=_POLICIES)
    def run(self, seed: int, length: int | str, policy: str) -> None:
        run(self.going(seed), self.play, seed, length, policy)

    @rule(how=_ROUND_COPIES, seed=_SEEDS)
    def copy_across_a_reshuffle(self, how: str, seed: int) -> None:
        """A copy, then play until the deck is reshuffled."""
        self.keep(how, round_copy(how, self.going(seed)))
        run(self.r, self.play, seed + 1, "reshuffle")

    @rule(how=_ROUND_COPIES)
    def take_copy(self, how: str) -> None:
        if how != "from_state" or not self.r.is_over:   # from_state: a round going on
            self.keep(how, round_copy(how, self.r))

    @rule(data=st.data(), seed=_SEEDS, how=_SAMPLES)
    def sample_world(self, data: st.DataObject, seed: int, how: str) -> None:
        sample_world(self.going(seed), data, seed, how)

    @invariant()
    def copies_are_identical(self) -> None:
        want = round_state(self.r)
        for name, c in self.copies:
            assert round_state(c) == want, name

    @invariant()
    def cards_are_conserved(self) -> None:
        conserved(self.r)


class GameMachine(_Copies):
    """A Game played by random legal moves, with exact copies of the game and of its
    round; short games reach tied totals and tie-break rounds."""

    @initialize(data=st.data(), seed=_SEEDS)
    def start(self, data: st.DataObject, seed: int) -> None:
        self.rules, self.n = _table(data, short=40)
        # Short games of low rounds end in tied totals often enough for tie-breaks.
        self.rounds = data.draw(st.lists(st.sampled_from([1, 2, 3, 7, 11]), min_size=1,
                                         max_size=3), label="rounds")
        self.round_copies: list[tuple[str, Round]] = []
        self.new_game(seed)

    def new_game(self, seed: int) -> None:
        self.g = Game(self.n, seed=seed, rules=self.rules, rounds=self.rounds,
                      first_dealer=seed % self.n)
        self.copies.clear()
        self.round_copies.clear()
        self.replayed = False
        self.reshuffled = False   # with live copies, in the round being played

    def play(self, action: int) -> None:
        g = self.g
        r = g.round
        before = r.deck.reshuffles
        g.apply_action(action)
        self.moves += 1
        for name, c in self.copies:
            follow(name, c, action)
            assert (c.current_player, c.phase) == (g.current_player, g.phase), name
        for name, rc in self.round_copies:
            follow(name, rc, action)
            assert (rc.current_player, rc.phase) == (r.current_player, r.phase), name
        if r.deck.reshuffles > before and self.copies:
            event("game: a reshuffle with live copies")
            self.reshuffled = True
        if r.final_turn and self.copies:
            event("game: a final turn with live copies")
        if r.is_over:   # the round just played is over, the next one dealt (if any)
            want = _ended(r)   # the game's generator has dealt the next round since
            for name, rc in self.round_copies:
                assert _ended(rc) == want, name
            self.round_copies.clear()
            if self.reshuffled and not g.is_over:
                event("game: a round dealt after a reshuffle, with live copies")
            self.reshuffled = False
            if g.tie_break_seats and not g.is_over:
                event("game: a tie-break round")

    def going(self, seed: int) -> Game:
        """The game, or a new one if it is over (its copies were checked at its end).
        Every rule can run at every step: no example is lost to preconditions."""
        if self.g.is_over:
            self.new_game(seed)
        return self.g

    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        g = self.going(self.moves)
        self.play(data.draw(st.sampled_from(g.legal_actions()), label="action"))

    @rule(seed=_SEEDS, length=_GAME_RUN, policy=_POLICIES)
    def run(self, seed: int, length: int | str, policy: str) -> None:
        g = self.going(seed)
        if length != "game end":
            run(g.round, self.play, seed, length, policy)
        while length == "game end" and not g.is_over:
            run(g.round, self.play, seed, "round end")
            seed += 1

    @rule(how=st.sampled_from(sorted(GAME_COPIES)), seed=_SEEDS)
    def copy_across_a_reshuffle(self, how: str, seed: int) -> None:
        """Issue 24's case: a copy, the deck reshuffled, then the next round dealt."""
        g = self.going(seed)
        self.keep(how, GAME_COPIES[how](g))
        run(g.round, self.play, seed + 1, "reshuffle")
        if not g.is_over:
            run(g.round, self.play, seed + 2, "round end")

    @rule(how=st.sampled_from([*sorted(GAME_COPIES), "round clone", "round copy",
                               "round deepcopy", "round pickle", "round from_state"]))
    def take_copy(self, how: str) -> None:
        """A copy of the game, or of its round (while it goes on: at most two)."""
        if not how.startswith("round "):
            self.keep(how, GAME_COPIES[how](self.g))
        elif not self.g.is_over and len(self.round_copies) < 2:
            self.round_copies.append((f"{how}@{self.moves}",
                                      round_copy(how[6:], self.g.round)))

    @rule(data=st.data(), seed=_SEEDS, how=_SAMPLES)
    def sample_world(self, data: st.DataObject, seed: int, how: str) -> None:
        """Also of a tie-break round, whose players are numbered 0.. among the tied."""
        sample_world(self.going(seed).round, data, seed, how)


    @invariant()
    def copies_are_identical(self) -> None:
        want = game_state(self.g)
        for name, c in self.copies:
            assert game_state(c) == want, name
        if self.round_copies:
            want = round_state(self.g.round)
            for name, rc in self.round_copies:
                assert round_state(rc) == want, name

    @invariant()
    def consistent(self) -> None:
        g = self.g
        conserved(g.round)
        assert g.round.deck.rng is g._rng   # the round deals and shuffles with the game's
        assert g.totals == tuple(sum(res.scores[s] for res in g.results)
                                 for s in range(g.n_players))
        if g.is_over and not self.replayed:
            self.replayed = True
            res = g.result
            assert res is not None
            assert Game.replay(g.record().to_json()).result == res
            if res.tie_break_seats:
                event("game: over after a tie-break")


TestRoundMachine = RoundMachine.TestCase
TestRoundMachine.settings = machine_settings()
TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = machine_settings()
