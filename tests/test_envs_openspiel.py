"""The OpenSpiel game: OpenSpiel's own checks, search bots, and agreement with the rules."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import require_extra

require_extra("pyspiel")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from fivecrowns import solver  # noqa: E402
from fivecrowns.envs.encoding import encode_observation  # noqa: E402
from fivecrowns.envs.openspiel import GAME_NAME, FiveCrownsState, make_resampler  # noqa: E402
from fivecrowns.round import ACTION_DISCARD, ACTION_GO_OUT, Round  # noqa: E402
from fivecrowns.rules import Rules  # noqa: E402


def _game(**params: int) -> pyspiel.Game:
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
    bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=rs)]
    bots[1].set_resampler(make_resampler(0))
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


def _replay_round(seed: int, rng: np.random.Generator) -> tuple[int, int]:
    """Play one round on Round and on the OpenSpiel state with the same cards and moves;
    (final turns checked, cards taken from the discard pile)."""
    n, round_number = 3, 1
    rnd = Round(n, round_number, seed=seed, rules=Rules(max_turns=200))
    state = _game(players=n, rounds=1, max_turns=200).new_initial_state()
    hands = [[t for t in np.flatnonzero(rnd.hand_counts(q)).tolist()
              for _ in range(int(rnd.hand_counts(q)[t]))] for q in range(n)]
    first = (rnd.dealer + 1) % n
    for i in range(rnd.hand_size):
        for k in range(n):
            state.apply_action(hands[(first + k) % n][i])
    state.apply_action(rnd.deck.top_discard_index)
    taken = -1
    finals = takes = 0
    while not rnd.is_over:
        assert state.current_player() == rnd.current_player
        p = rnd.current_player
        mask = rnd.legal_action_mask()
        if taken >= 0:  # the card just taken may not go straight back
            mask[[ACTION_DISCARD + taken, ACTION_GO_OUT + taken]] = False
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        np.testing.assert_array_equal(state.observation_tensor(p),
                                      encode_observation(rnd.observation(p)))
        a = state.legal_actions()[int(rng.integers(len(state.legal_actions())))]
        kept = rnd.hand_counts(p)
        final = rnd.final_turn
        rec = rnd.apply_action(a)
        state.apply_action(a)
        taken = rec.card.index if a == 1 else -1
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


def test_agrees_with_round() -> None:
    rng = np.random.default_rng(5)
    counts = np.array([_replay_round(seed, rng) for seed in range(6)])
    assert (counts.sum(axis=0) > 0).all(), "no final turn or no take was exercised"


def test_observation_hides_what_it_should() -> None:
    """Moving an opponent's unseen card into the draw pile changes no tensor of ours
    (the vectors of the changed world computed again from its counts)."""
    game = _game(players=3, rounds=2)
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
        free = np.flatnonzero(other._c.hands[q].astype(np.int64) - other._c.taken[q])
        swap = np.flatnonzero(other._c.stock)
        swap = swap[~np.isin(swap, free)]
        if free.size and swap.size:
            other._c.hands[q, free[0]] -= 1
            other._c.stock[free[0]] += 1
            other._c.hands[q, swap[0]] += 1
            other._c.stock[swap[0]] -= 1
            other._c.refresh()
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(q) != state.observation_tensor(q)
        acts = state.legal_actions()
        state.apply_action(acts[int(rng.integers(len(acts)))])


def test_public_observer_hides_the_own_hand() -> None:
    game = _game(players=2, rounds=1)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        _chance(state, rng)
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    observer.set_from(state, 0)
    assert not observer.tensor[:56].any()
    assert "hand" not in observer.string_from(state, 0)
    assert "hand" in state.observation_string(0)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="players must be 2..7"):
        _game(players=9)
    with pytest.raises(ValueError, match="rounds must be 1..11"):
        _game(rounds=12)


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
