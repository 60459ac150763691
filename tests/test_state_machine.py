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
``HYPOTHESIS_PROFILE=ci`` the machines play enough steps to reach reshuffles with live
copies in most examples (see ``hypothesis.event`` in the statistics, e.g.
``pytest --hypothesis-show-statistics``).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from conftest import machine_settings
from copying import GAME_COPIES, ROUND_COPIES, game_state, obs_key, patient_action, round_state
from fivecrowns import Game, IllegalMoveError, Round, Rules
from fivecrowns.actions import ACTION_DISCARD, ACTION_GO_OUT
from fivecrowns.bots import best_discard_choice
from fivecrowns.deck import full_counts
from fivecrowns.records import Phase

#: Live copies kept at most by a machine (the oldest is dropped for a new one).
MAX_COPIES = 4

_SEEDS = st.integers(0, 2**32 - 1)
# Moves in a run: a few, or many.
_RUN = st.sampled_from([5, 40, 150])
# How a run plays: see policy_action.
_POLICIES = st.sampled_from(["patient", "late", "eager"])
# Runs until the deck is next reshuffled (patient play), or the round ends (eager play).
_UNTIL = st.sampled_from(["reshuffle", "round end"])
# The longest such run: far more moves than a reshuffle or the end of a round needs.
_LONGEST = 3000


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


def _round_copy(how: str, r: Round) -> Round:
    return from_state_copy(r) if how == "from_state" else ROUND_COPIES[how](r)


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

    @precondition(lambda self: not self.r.is_over)
    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        self.play(data.draw(st.sampled_from(self.r.legal_actions()), label="action"))

    @precondition(lambda self: not self.r.is_over)
    @rule(seed=_SEEDS, moves=_RUN, policy=_POLICIES)
    def run(self, seed: int, moves: int, policy: str) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(moves):
            if self.r.is_over:
                break
            self.play(policy_action(self.r, self.r.legal_actions(), rng, policy))

    @precondition(lambda self: not self.r.is_over)
    @rule(seed=_SEEDS, until=_UNTIL)
    def run_until(self, seed: int, until: str) -> None:
        r = self.r
        rng = np.random.default_rng(seed)
        policy = "patient" if until == "reshuffle" else "eager"
        reshuffles = r.deck.reshuffles
        for _ in range(_LONGEST):
            if r.is_over or (until == "reshuffle" and r.deck.reshuffles > reshuffles):
                break
            self.play(policy_action(r, r.legal_actions(), rng, policy))

    @precondition(lambda self: not self.r.is_over)
    @rule(how=st.sampled_from([*sorted(ROUND_COPIES), "from_state"]), seed=_SEEDS)
    def copy_across_a_reshuffle(self, how: str, seed: int) -> None:
        """A copy, then play until the deck is reshuffled."""
        self.keep(how, _round_copy(how, self.r))
        self.run_until(seed, "reshuffle")

    @precondition(lambda self: self.r.is_over)
    @rule(seed=_SEEDS)
    def next_round(self, seed: int) -> None:
        self.new_round(seed)

    @rule(how=st.sampled_from(sorted(ROUND_COPIES)))
    def take_copy(self, how: str) -> None:
        self.keep(how, ROUND_COPIES[how](self.r))

    @precondition(lambda self: not self.r.is_over)
    @rule()
    def take_from_state(self) -> None:
        self.keep("from_state", from_state_copy(self.r))

    @precondition(lambda self: not self.r.is_over)
    @rule(data=st.data(), seed=_SEEDS, how=st.sampled_from(["determinize", "from_observation"]))
    def sample_world(self, data: st.DataObject, seed: int, how: str) -> None:
        r = self.r
        p = data.draw(st.integers(0, r.n_players - 1), label="player")
        before = round_state(r)
        if how == "determinize":
            world = r.determinize(p, seed)
        else:
            world = Round.from_observation(r.observation(p), seed=seed, rules=r.rules)
        check_world(world, r, p)
        assert round_state(r) == before   # sampling leaves the round alone
        if world.legal_actions():
            world.apply_action(world.legal_actions()[0])   # a world is a playable round
            conserved(world)

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

    @precondition(lambda self: not self.g.is_over)
    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        self.play(data.draw(st.sampled_from(self.g.legal_actions()), label="action"))

    @precondition(lambda self: not self.g.is_over)
    @rule(seed=_SEEDS, moves=_RUN, policy=_POLICIES)
    def run(self, seed: int, moves: int, policy: str) -> None:
        rng = np.random.default_rng(seed)
        g = self.g
        for _ in range(moves):
            if g.is_over:
                break
            self.play(policy_action(g.round, g.legal_actions(), rng, policy))

    @precondition(lambda self: not self.g.is_over)
    @rule(seed=_SEEDS, until=_UNTIL)
    def run_until(self, seed: int, until: str) -> None:
        g = self.g
        rng = np.random.default_rng(seed)
        policy = "patient" if until == "reshuffle" else "eager"
        r = g.round
        reshuffles = r.deck.reshuffles
        for _ in range(_LONGEST):
            if r.is_over or (until == "reshuffle" and r.deck.reshuffles > reshuffles):
                break
            self.play(policy_action(r, g.legal_actions(), rng, policy))

    @precondition(lambda self: not self.g.is_over)
    @rule(how=st.sampled_from(sorted(GAME_COPIES)), seed=_SEEDS)
    def copy_across_a_reshuffle(self, how: str, seed: int) -> None:
        """Issue 24's case: a copy, the deck reshuffled, then the next round dealt."""
        self.keep(how, GAME_COPIES[how](self.g))
        self.run_until(seed, "reshuffle")
        self.run_until(seed + 1, "round end")

    @precondition(lambda self: self.g.is_over)
    @rule(seed=_SEEDS)
    def next_game(self, seed: int) -> None:
        self.new_game(seed)

    @rule(how=st.sampled_from(sorted(GAME_COPIES)))
    def take_copy(self, how: str) -> None:
        self.keep(how, GAME_COPIES[how](self.g))

    @precondition(lambda self: not self.g.is_over and len(self.round_copies) < 2)
    @rule(how=st.sampled_from([*sorted(ROUND_COPIES), "from_state"]))
    def take_round_copy(self, how: str) -> None:
        self.round_copies.append((f"round {how}@{self.moves}",
                                  _round_copy(how, self.g.round)))

    @precondition(lambda self: not self.g.is_over)
    @rule(seed=_SEEDS)
    def play_out(self, seed: int) -> None:
        """Eager play to the end of the game: last rounds, tied totals, tie-breaks."""
        while not self.g.is_over:
            self.run_until(seed, "round end")
            seed += 1

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
