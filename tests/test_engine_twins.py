"""The rollout engine and its Python twin (fivecrowns._rollout, fivecrowns._engine_py),
played move for move through the one comparer (tests/helpers/engines.py): play-outs by every
policy from rounds in every kind of state (player counts, party mode, reshuffles, final
turns, tie-break rounds), whole games with a policy per seat, and games of built-in
bots with their records."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from fivecrowns import GreedyBot, RandomBot, Rules, StrongBot, play_game, rollout, solver
from fivecrowns.expert import ExpertBot
from helpers.engines import engine, on_both
from helpers.rollout_twins import varied_round


@pytest.mark.parametrize("policy", ["greedy", "strong", "random"])
def test_play_out_from_rounds_in_every_state(policy: str) -> None:
    for seed in range(12):
        r = varied_round(seed)
        on_both(partial(rollout.play_out, [r, r.clone()], policy=policy, seed=seed))
        on_both(partial(rollout.play_out_actions, r, policy=policy, seed=seed))


def test_play_out_by_the_expert_policy() -> None:
    if solver.IMPLEMENTATION == "python":  # minutes a round on the pure-Python solver
        rounds = rollout.deal_rounds(2, seed=1, n_players=3, round_number=1)
    else:
        rounds = [varied_round(1), varied_round(4)]
    for r in rounds:
        on_both(partial(rollout.play_out, [r], policy="expert"))


def test_the_random_policy_reshuffles() -> None:
    r = rollout.deal_rounds(1, seed=3, n_players=7, round_number=11)[0]
    moves = on_both(lambda: rollout.play_out_actions(r, policy="random", seed=2))
    clone = r.clone()
    for a in moves:
        clone.apply_action(a)
    assert clone.result is not None and clone.result.reshuffles > 0


@pytest.mark.parametrize("policy", ["greedy", "random", ["strong", "random", "greedy"]],
                         ids=["greedy", "random", "seated"])
def test_play_games(policy: object) -> None:
    last = 11 if solver.IMPLEMENTATION == "compiled" else 3  # the pure-Python solver's pace
    on_both(lambda: rollout.play_games(3, seed=5, n_players=3, policy=policy,  # type: ignore[arg-type]
                                       rounds=[1, last], rules=Rules(max_turns=60)))
    party = policy if isinstance(policy, str) else (policy * 3)[:8]  # type: ignore[operator]
    on_both(lambda: rollout.play_games(2, seed=6, n_players=8, policy=party,
                                       rounds=[2], rules=Rules(decks=4, tie_break=True)))


def test_games_of_built_in_bots_with_their_records() -> None:
    def game() -> object:
        bots = [RandomBot(seed=1), StrongBot(), GreedyBot(), ExpertBot()]
        rounds = [3, 8] if solver.IMPLEMENTATION == "compiled" else [1, 2]
        res = play_game(bots, seed=9, rounds=rounds, rules=Rules(return_discard=True))
        return res, bots[0].rng.bit_generator.state
    on_both(game)


def test_worlds_sample_the_same_distribution() -> None:
    # the twins' worlds are other samples: compare what every world must hold
    r = rollout.deal_rounds(1, seed=2, n_players=3, round_number=4)[0]
    actions = r.legal_actions()
    for name in ("compiled", "python"):
        with engine(name) as ran:
            if not ran:
                continue
            s = rollout.play_worlds(r, actions, worlds=20, seed=1, policy="greedy")
            assert s.shape == (20, len(actions), 3) and (s.min(axis=2) == 0).all()
            assert np.array_equal(s, rollout.play_worlds(r, actions, worlds=20, seed=1,
                                                         policy="greedy"))


def test_the_switch_names_the_engine() -> None:
    with engine("python"):
        assert rollout._core is None
    assert rollout.ROLLOUT_IMPLEMENTATION in ("compiled", "python")
