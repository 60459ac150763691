"""The OpenSpiel game: OpenSpiel's own checks, search bots, and agreement with the rules."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import require_extra

require_extra("pyspiel")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from fivecrowns import solver  # noqa: E402
from fivecrowns.actions import ACTION_DISCARD, ACTION_GO_OUT  # noqa: E402
from fivecrowns.envs.encoding import blocks, encode_observation  # noqa: E402
from fivecrowns.envs.openspiel import (  # noqa: E402
    GAME_NAME,
    FiveCrownsGame,
    FiveCrownsState,
    make_resampler,
    resample,
)
from fivecrowns.round import Round  # noqa: E402
from fivecrowns.rules import Rules  # noqa: E402
from helpers.engines import sized  # noqa: E402


def _game(**params: int | bool) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, params)


def _chance(state: pyspiel.State, rng: np.random.Generator) -> None:
    outcomes, probs = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(outcomes, p=np.array(probs) / sum(probs))))


def test_random_sim_test_with_serialisation() -> None:
    pyspiel.random_sim_test(_game(players=3, rounds=2), num_sims=2, serialize=True,
                            verbose=False)
    pyspiel.random_sim_test(_game(players=2, rounds=11, max_turns=20), num_sims=1,
                            serialize=True, verbose=False)
    pyspiel.random_sim_test(_game(players=5, rounds=1, decks=4), num_sims=1,
                            serialize=True, verbose=False)
    pyspiel.random_sim_test(_game(players=3, rounds=2, solver_features=True), num_sims=1,
                            serialize=True, verbose=False)


def test_chance_outcomes_are_the_unseen_cards() -> None:
    state = _game(players=2, rounds=1).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 56 and outcomes[55] == pytest.approx(6 / 116)
    state.apply_action(55)
    assert dict(state.chance_outcomes())[55] == pytest.approx(5 / 115)


def test_mcts_and_ismcts_play_a_game() -> None:
    game = _game(players=2, rounds=1)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    # ISMCTS with no set-up: it calls the state's resample_from_infostate
    bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=rs)]
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert max(returns) == 0.0 and all(r <= 0 for r in returns)


def test_resample_keeps_the_players_information() -> None:
    game = _game(players=3, rounds=3)
    rng = np.random.default_rng(2)
    resampler = make_resampler(1)
    state = game.new_initial_state()
    changed = False
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _chance(state, rng)
            continue
        p = state.current_player()
        other = resampler(state, p)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        changed |= any((other.hand_counts(q) != state.hand_counts(q)).any()
                       for q in range(3) if q != p)
        acts = state.legal_actions()
        state.apply_action(acts[int(rng.integers(len(acts)))])
    assert changed


def _replay_round(seed: int, rng: np.random.Generator, features: bool = False
                  ) -> tuple[int, int]:
    """Play one round on Round and on the OpenSpiel state with the same cards and moves;
    (final turns checked, cards taken from the discard pile). Every player's tensor is
    checked against the encoding of Round's observation (with the solver features if
    ``features``)."""
    n, round_number = 3, 1
    rnd = Round(n, round_number, seed=seed, rules=Rules(max_turns=200))
    state = _game(players=n, rounds=1, max_turns=200,
                  solver_features=features).new_initial_state()
    hands = [[t for t in np.flatnonzero(rnd.hand_counts(q)).tolist()
              for _ in range(int(rnd.hand_counts(q)[t]))] for q in range(n)]
    first = (rnd.dealer + 1) % n
    for i in range(rnd.hand_size):
        for k in range(n):
            state.apply_action(hands[(first + k) % n][i])
    state.apply_action(rnd.deck.top_discard_index)
    finals = takes = 0
    while not rnd.is_over:
        assert state.current_player() == rnd.current_player
        p = rnd.current_player
        # Round's mask applies docs/rules.rst, A round, 3 (no throwing back the card just
        # taken, unless the hand holds nothing else)
        assert state.legal_actions() == np.flatnonzero(rnd.legal_action_mask()).tolist()
        for q in range(n):
            np.testing.assert_array_equal(
                state.observation_tensor(q),
                encode_observation(rnd.observation(q), features=features))
        a = state.legal_actions()[int(rng.integers(len(state.legal_actions())))]
        kept = rnd.hand_counts(p)
        final = rnd.final_turn
        rec = rnd.apply_action(a)
        state.apply_action(a)
        takes += a == 1
        if a == 0:
            state.apply_action(rec.card.index)  # the blind draw as a chance outcome
        if final and a >= ACTION_DISCARD:
            kept[a - (ACTION_GO_OUT if a >= ACTION_GO_OUT else ACTION_DISCARD)] -= 1
            # docs/rules.rst, A round, 4: the final turn scores the hand kept
            assert state._c.scores[p] == solver.deadwood(kept, rnd.wild)
            finals += 1
        for q in range(n):
            assert state.hand_counts(q).tolist() == rnd.hand_counts(q).tolist()
    assert state.is_terminal()
    went_out = rnd.result.went_out
    if went_out is not None:
        assert state.returns()[went_out] == 0.0
    if "return_discard" in Rules.__dataclass_fields__:
        # An engine with the rules of docs/rules.rst scores the round the same way.
        assert state.returns() == [float(-s) for s in rnd.result.scores]
    return finals, takes


def test_a_hand_of_one_card_type_may_throw_back_the_card_taken() -> None:
    """docs/rules.rst, A round, 3: the card just taken may not go straight back, unless
    the hand holds nothing else."""
    state = _game(players=2, rounds=1).new_initial_state()
    for card in (55, 0, 55, 1, 55, 2, 55):  # player 1: three jokers; a joker turned up
        state.apply_action(card)
    state.apply_action(1)  # player 1 takes the joker: four jokers
    assert state.legal_actions() == [ACTION_DISCARD + 55, ACTION_GO_OUT + 55]
    state = _game(players=2, rounds=1).new_initial_state()
    for card in (55, 0, 55, 1, 3, 2, 55):  # player 1: two jokers and a 6C
        state.apply_action(card)
    state.apply_action(1)
    assert state.legal_actions() == [ACTION_DISCARD + 3, ACTION_GO_OUT + 3]


@pytest.mark.parametrize("features", [False, True])
def test_agrees_with_round(features: bool) -> None:
    rng = np.random.default_rng(5)
    counts = np.array([_replay_round(seed, rng, features) for seed in range(6)])
    assert (counts.sum(axis=0) > 0).all(), "no final turn or no take was exercised"


@pytest.mark.parametrize("features", [False, True])
def test_observation_hides_what_it_should(features: bool) -> None:
    """Moving an opponent's unseen card into the draw pile changes no tensor of ours
    (the vectors of the changed world computed again from its counts), the solver
    features included."""
    game = _game(players=3, rounds=2, solver_features=features)
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    for _ in range(200):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _chance(state, rng)
            continue
        p = state.current_player()
        other: FiveCrownsState = state.clone()
        q = (p + 1) % 3
        core = other._c
        hands, stock = core.hands, core.stock
        free = np.flatnonzero(hands[q].astype(np.int64) - core.taken[q])
        swap = np.flatnonzero(stock)
        swap = swap[~np.isin(swap, free)]
        if free.size and swap.size:
            hands[q, free[0]] -= 1
            stock[free[0]] += 1
            hands[q, swap[0]] += 1
            stock[swap[0]] -= 1
            core.st.set_hand(q, hands[q])
            core.st.set_draw_pile(np.repeat(np.arange(56), stock).tolist())
            core.refresh()
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(q) != state.observation_tensor(q)
        acts = state.legal_actions()
        state.apply_action(acts[int(rng.integers(len(acts)))])


@pytest.mark.parametrize("features", [False, True])
def test_public_observer_hides_the_own_hand(features: bool) -> None:
    game = _game(players=2, rounds=1, solver_features=features)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        _chance(state, rng)
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    observer.set_from(state, 0)
    assert not observer.tensor[:56].any()
    if features:  # the features describe the own hand
        assert not observer.tensor[blocks(2, features=True)["features"]].any()
        assert state.observation_tensor(0)[-62:] != [0.0] * 62
    assert "hand" not in observer.string_from(state, 0)
    assert "hand" in state.observation_string(0)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="players must be 2..7"):
        _game(players=9)
    with pytest.raises(ValueError, match="rounds must be 1..11"):
        _game(rounds=12)
    with pytest.raises(TypeError, match="solver_features must be a bool, got int"):
        FiveCrownsGame({"solver_features": 1})


def test_illegal_actions_are_refused() -> None:
    game = _game(players=2, rounds=2)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="not a card left"):
        for _ in range(7):
            state.apply_action(55)  # six jokers only
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _chance(state, rng)
            continue
        legal = set(state.legal_actions())
        illegal = [a for a in range(114) if a not in legal]
        for a in rng.choice(illegal, size=min(4, len(illegal)), replace=False).tolist():
            with pytest.raises(ValueError, match="is not legal now"):
                state.clone().apply_action(a)
        state.apply_action(int(rng.choice(sorted(legal))))


def _play(state: pyspiel.State, rng: np.random.Generator, moves: int) -> pyspiel.State:
    """``moves`` random moves (chance outcomes included) or until the game ends."""
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _chance(state, rng)
        else:
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
    return state


@pytest.mark.parametrize("players, rounds, decks, features",
                         [(2, 11, 2, False), (3, 4, 2, False), (5, 2, 4, False),
                          # the features: a minute for 3 rounds on the pure-Python solver
                          (3, sized(3, 2), 2, True)])
def test_kept_vectors_are_the_encoding(players: int, rounds: int, decks: int,
                                       features: bool) -> None:
    """The vectors kept up to date move by move equal the encoding computed from the
    counts, for every player after every move of whole games (reshuffles included; the
    solver features, computed when read, are never stale)."""
    game = _game(players=players, rounds=rounds, decks=decks, solver_features=features)
    rng = np.random.default_rng(players)
    state = game.new_initial_state()
    while not state.is_terminal():
        _play(state, rng, 1)
        core = state._c
        for v in range(players):
            np.testing.assert_array_equal(core.vector(v), core.encode(v))
    if players == 2:
        assert "reshuffle" in state.information_state_string(0), "no reshuffle exercised"


def test_clone_is_independent_and_exact() -> None:
    game = _game(players=3, rounds=11)
    rng = np.random.default_rng(6)
    pristine = (str(game.new_initial_state()), game.new_initial_state().chance_outcomes())
    state = _play(game.new_initial_state(), rng, 1500)
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    for p in range(3):
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert copy.observation_tensor(p) == state.observation_tensor(p)
    before = (state.history(), str(state), state.information_state_string(0),
              state.observation_tensor(0))
    _play(copy, rng, 300)
    assert (state.history(), str(state), state.information_state_string(0),
            state.observation_tensor(0)) == before
    # the initial state every new state shares until its first move is never changed
    assert (str(game.new_initial_state()), game.new_initial_state().chance_outcomes()) \
        == pristine


def test_information_string_reads_the_events() -> None:
    """The string of each player: own cards shown, the others' private cards hidden."""
    game = _game(players=2, rounds=1)
    state = game.new_initial_state()
    for card in (0, 1, 2, 3, 4, 5, 6):  # three cards each, then the turned-up card
        state.apply_action(card)
    state.apply_action(0)  # player 1 draws blind ...
    state.apply_action(7)  # ... a 10C
    s0, s1 = state.information_state_string(0), state.information_state_string(1)
    assert s0.endswith("| round1 d1:? d0:4C d1:? d0:6C d1:? d0:8C up:9C 1:deck b1:?")
    assert s1.endswith("| round1 d1:3C d0:? d1:5C d0:? d1:7C d0:? up:9C 1:deck b1:10C")
    assert s1.startswith("p1 hand 3C 5C 7C 10C |")


def test_serialization_is_exact_late_in_a_game() -> None:
    game = _game(players=3, rounds=11)
    rng = np.random.default_rng(8)
    state = _play(game.new_initial_state(), rng, 2000)
    back = game.deserialize_state(state.serialize())
    assert back.history() == state.history() and str(back) == str(state)
    for p in range(3):
        assert back.information_state_string(p) == state.information_state_string(p)
        assert back.observation_string(p) == state.observation_string(p)
        assert back.information_state_tensor(p) == state.information_state_tensor(p)
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    assert str(_play(back, a, 400)) == str(_play(state.clone(), b, 400))


def test_a_state_serialized_by_0_2_is_refused() -> None:
    """0.2 kept the game in many attributes (``_log``, ``_stock``, ...): reading one of
    its serialized states would silently give an initial state."""
    old = (Path(__file__).parent / "data" / "openspiel_state_0.2.txt").read_text()
    game = _game(players=2, rounds=1)
    with pytest.raises(ValueError, match="serialized by fivecrowns 0.2"):
        game.deserialize_state(old)
    # the way out the message gives: its history applied to a new initial state
    state = game.new_initial_state()
    for action in (0, 1, 2, 3, 4, 5, 6, 1):  # old.startswith("history=-1:0,...,1:1")
        state.apply_action(action)
    assert old.startswith("history=" + ",".join(
        f"{h.player}:{h.action}" for h in state.full_history()) + "\n")


def _same(a: pyspiel.State, b: pyspiel.State, players: int) -> None:
    assert a.history() == b.history() and str(a) == str(b)
    assert a.legal_actions() == b.legal_actions() and a.returns() == b.returns()
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    for p in range(players):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)


@pytest.mark.parametrize("phase", ["deal", "turn_up", "blind_draw", "after_take",
                                   "final_turn", "over", "draw_pile_empty"])
def test_a_state_serialized_by_0_3_reads_as_its_history(phase: str) -> None:
    """0.3 kept the round as counts of its own: its serialized states load into the
    round state, the same as their history applied to a new state, now and move for
    move after (a state whose draw pile is empty included: the next blind draw
    reshuffles)."""
    data = json.loads((Path(__file__).parent / "data" / "openspiel_states_0.3.json")
                      .read_text())
    game = _game(**data["game"])
    old = game.deserialize_state(data["states"][phase])
    new = game.new_initial_state()
    for action in old.history():
        new.apply_action(action)
    _same(old, new, 2)
    if phase == "draw_pile_empty":
        assert old._c.stock_size == 0 and 0 in old.legal_actions()
        old.apply_action(0)
        new.apply_action(0)
        assert "reshuffle" in old.information_state_string(0)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    _same(_play(old, a, 300), _play(new, b, 300), 2)
    back = game.deserialize_state(old.serialize())
    _same(back, old, 2)


def test_tensor_methods_follow_openspiel() -> None:
    """The tensors are the observer's, the player defaults to the one to act, and a bad
    seat raises OpenSpiel's error."""
    game = _game(players=3, rounds=2)
    state = _play(game.new_initial_state(), np.random.default_rng(3), 60)
    while state.is_chance_node():
        _play(state, np.random.default_rng(0), 1)
    p = state.current_player()
    assert state.observation_tensor() == state.observation_tensor(p)
    assert state.information_state_tensor() == state.information_state_tensor(p)
    observer = game.make_py_observer()
    for q in range(3):
        observer.set_from(state, q)
        assert state.observation_tensor(q) == observer.tensor.tolist()
        assert state.observation_tensor(q) == list(pyspiel.State.observation_tensor(state, q))
    for bad in (-1, 3):
        with pytest.raises(pyspiel.SpielError, match="player must be a seat 0..2"):
            state.observation_tensor(bad)
        with pytest.raises(pyspiel.SpielError, match="player must be a seat 0..2"):
            state.information_state_tensor(bad)
    with pytest.raises(pyspiel.SpielError, match="got -1"):
        game.new_initial_state().observation_tensor()  # a chance node: no one to act


def test_resample_from_infostate_is_reproducible_and_keeps_the_information() -> None:
    game = _game(players=3, rounds=3)
    state = _play(game.new_initial_state(), np.random.default_rng(5), 120)
    while state.is_chance_node():
        _play(state, np.random.default_rng(0), 1)
    p = state.current_player()
    worlds = [state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(s, 0., 1.))
              for s in (1, 1, 2)]
    assert str(worlds[0]) == str(worlds[1]) != str(worlds[2])
    for world in worlds:
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.information_state_tensor(p) == state.information_state_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        core, old = world._c, state._c
        for q in range(3):  # the cards known to be held stay, the rest is the same pool
            assert (core.hands[q] >= core.taken[q]).all()
            assert core.hands[q].sum() == old.hands[q].sum()
            np.testing.assert_array_equal(core.obs[q], core.encode(q))
        assert (core.hands.sum(axis=0) + core.stock
                == old.hands.sum(axis=0) + old.stock).all()
        assert core.stock.sum() == core.stock_size
    with pytest.raises(TypeError, match="probability_sampler must be callable"):
        state.resample_from_infostate(p, 0.5)
    with pytest.raises(ValueError, match="player must be a seat 0..2, got 3"):
        resample(state, 3, seed=np.random.default_rng(0))


def test_resample_is_uniform() -> None:
    """After the deal of round 1 (three cards each), the chance that the resampled
    opponent holds no joker is the hypergeometric one."""
    game = _game(players=2, rounds=1)
    state = game.new_initial_state()
    for card in (0, 1, 2, 3, 4, 5, 6):  # no joker dealt or turned up
        state.apply_action(card)
    unseen = 116 - 3 - 1  # all but player 0's hand and the turned-up card
    p_none = math.comb(unseen - 6, 3) / math.comb(unseen, 3)
    rng = np.random.default_rng(0)
    k = 4000
    none = sum(resample(state, 0, seed=rng)._c.hands[1, 55] == 0 for _ in range(k))
    sigma = math.sqrt(k * p_none * (1 - p_none))
    assert abs(none - k * p_none) < 4 * sigma


@pytest.mark.slow
def test_ismcts_beats_random_play() -> None:
    """ISMCTS (10 simulations, random rollouts) against uniform random play over seeded
    one-round games, seats alternating: it wins far more often than a coin would."""
    game = _game(players=2, rounds=1, max_turns=20)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 10,
                           random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(7, 0., 1.)  # seeded: reproducible
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
    rng = np.random.default_rng(1)
    wins = losses = 0
    for g in range(24):
        seat = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                acts = state.legal_actions()
                state.apply_action(acts[int(rng.integers(len(acts)))])
        ours, theirs = state.returns()[seat], state.returns()[1 - seat]
        wins += ours > theirs
        losses += ours < theirs
    decided = wins + losses
    p_value = sum(math.comb(decided, k) for k in range(wins, decided + 1)) / 2 ** decided
    assert p_value < 0.01, (wins, losses)


def test_information_strings_do_not_depend_on_their_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The strings are built in sealed chunks (so that copies share them): the same game
    with one unbounded chunk gives the same strings."""
    from fivecrowns.envs import _spiel_state

    def strings() -> list[str]:
        state = _play(_game(players=3, rounds=3).new_initial_state(),
                      np.random.default_rng(11), 1500)
        return [state.information_state_string(p) for p in range(3)]

    chunked = strings()
    monkeypatch.setattr(_spiel_state, "_CHUNK", 10**9)
    assert strings() == chunked and len(chunked[0]) > 3000


def test_direct_answers_match_openspiel() -> None:
    """``legal_actions`` and ``is_chance_node`` are answered in Python directly: the same
    as OpenSpiel's own ``State`` methods, for every player and for chance, at every step."""
    game = _game(players=3, rounds=2, max_turns=30)
    rng = np.random.default_rng(12)
    state = game.new_initial_state()
    kinds = set()
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in range(3):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        if state.is_chance_node():
            assert state.legal_actions(pyspiel.PlayerId.CHANCE) \
                == [a for a, _ in state.chance_outcomes()]
        elif not state.is_terminal():
            for ask in (state.legal_actions,
                        lambda p: pyspiel.State.legal_actions(state, p)):
                with pytest.raises(pyspiel.SpielError, match="pseudo-player -4"):
                    ask(-4)
        kinds.add(state.current_player())
        if state.is_terminal():
            break
        _play(state, rng, 1)
    assert kinds == {-1, 0, 1, 2, pyspiel.PlayerId.TERMINAL}


def test_both_round_states_play_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game on the compiled round state and on its pure-Python twin: the same
    strings, tensors, legal actions and chance outcomes at every step of a seeded game
    with reshuffles and final turns."""
    from fivecrowns import _state_py
    from fivecrowns.envs import _spiel_state

    if _spiel_state._State is _state_py.RoundState:
        pytest.skip("the compiled round state is not in use")

    def game_on(state_class: type) -> pyspiel.State:
        with monkeypatch.context() as m:
            m.setattr(_spiel_state, "_State", state_class)
            return FiveCrownsGame({"players": 2, "rounds": 2, "max_turns": 400})

    compiled, twin = game_on(_spiel_state._State), game_on(_state_py.RoundState)
    a, b = compiled.new_initial_state(), twin.new_initial_state()
    assert type(b._c.st) is _state_py.RoundState
    rng = np.random.default_rng(13)
    while not a.is_terminal():
        _same(a, b, 2)
        if a.is_chance_node():
            action = int(rng.choice([o for o, _ in a.chance_outcomes()]))
        else:
            acts = a.legal_actions()
            if acts[-1] < ACTION_GO_OUT or rng.random() < 0.97:  # long rounds
                acts = [x for x in acts if x < ACTION_GO_OUT]
            action = acts[int(rng.integers(len(acts)))]
        a.apply_action(action)
        b.apply_action(action)
    _same(a, b, 2)
    events = a.information_state_string(0)
    assert "reshuffle" in events and "*" in events and a.returns() == b.returns()


STATES_0_4 = json.loads((Path(__file__).parent / "data" / "states_0.4.json").read_text())


@pytest.mark.parametrize("entry", STATES_0_4["openspiel"],
                         ids=lambda e: f"{e['players']}p-{e['rounds']}r-{e['moves']}")
def test_a_state_serialized_by_0_4_loads_and_plays_on(entry: dict[str, Any]) -> None:
    """0.4 kept the totals and the round's index in plain slots: its serialized states
    load onto the game state, the same as their actions applied to a new state."""
    if importlib.util.find_spec("fivecrowns._rollout") is None:
        pytest.skip("0.4 pickled the compiled engine's round state, by its class's name")
    game = _game(players=entry["players"], rounds=entry["rounds"])
    old = game.deserialize_state(entry["state"])
    new = game.new_initial_state()
    rng = np.random.default_rng(entry["seed"])
    for _ in range(entry["moves"]):
        acts = new.legal_actions()
        new.apply_action(acts[int(rng.integers(len(acts)))])
    _same(old, new, entry["players"])
    assert old._c.game == new._c.game
    a, b = np.random.default_rng(2), np.random.default_rng(2)
    _same(_play(old, a, 400), _play(new, b, 400), entry["players"])
