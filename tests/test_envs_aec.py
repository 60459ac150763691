"""The PettingZoo AEC environment: PettingZoo's own tests, rewards, seeding, options."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import require_extra

require_extra("pettingzoo", "gymnasium")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from fivecrowns.envs import aec_env, encode_observation, raw_env  # noqa: E402
from fivecrowns.envs.encoding import observation_scale  # noqa: E402
from fivecrowns.rules import Rules  # noqa: E402
from helpers.engines import sized  # noqa: E402

# PettingZoo's api_test warns that Dict observations are not Box/Discrete, as it does for
# its own classic card games.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def _play(env, seed: int, rng: np.random.Generator) -> tuple[dict, list[int]]:
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[int(rng.integers(legal.size))])
        actions.append(a)
        env.step(a)
    return rewards, actions


def test_pettingzoo_api_test() -> None:
    api_test(aec_env(4, rounds=[1, 2]), num_cycles=400)
    api_test(raw_env(3), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: aec_env(3, rounds=[2, 3]), num_cycles=300)


def test_pettingzoo_tests_with_every_option() -> None:
    for options in ({"solver_features": True}, {"normalize": True},
                    {"solver_features": True, "normalize": True}):
        api_test(aec_env(3, rounds=[1, 2], **options), num_cycles=200)
        seed_test(lambda options=options: aec_env(2, rounds=[4], **options), num_cycles=200)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: aec_env(3, rounds=[1, 2], render_mode=render_mode))
    assert capsys.readouterr().out.count("player_2:") == 5  # five renders in "human"


def test_solver_features_and_normalize_observations() -> None:
    """Every agent's observation is the shared encoding with the options applied."""
    # random moves rarely go out, and every seat's features at every move take minutes a
    # round on the pure-Python solver: there, shorter rounds cut at 40 turns
    env = raw_env(3, rounds=sized([2, 6], [2, 3]), max_turns=sized(None, 40),
                  solver_features=True, normalize=True)
    scale = observation_scale(3, features=True)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _ = env.last()
        for other in env.possible_agents:
            got = env.observe(other)
            want = encode_observation(env.game.observation(env.possible_agents.index(other)),
                                      features=True) * scale
            np.testing.assert_array_equal(got["observation"], want)
            assert env.observation_space(other).contains(got)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_rewards_are_minus_the_round_scores() -> None:
    env = aec_env(3, rounds=[1, 2])
    rewards, _ = _play(env, 5, np.random.default_rng(0))
    game = env.unwrapped.game
    assert game.is_over and len(game.results) == 2
    assert [rewards[f"player_{s}"] for s in range(3)] == [-float(t) for t in game.totals]


def test_reset_seed_reproduces_the_game() -> None:
    env = aec_env(2, rounds=[3])
    one = _play(env, 9, np.random.default_rng(1))
    two = _play(env, 9, np.random.default_rng(1))
    assert one == two
    other = aec_env(2, rounds=[3])
    other.reset(seed=9)
    env.reset(seed=9)
    np.testing.assert_array_equal(env.observe("player_0")["observation"],
                                  other.observe("player_0")["observation"])


def test_observations_equal_the_shared_encoding() -> None:
    """What the env's incremental bookkeeping gives equals a fresh encoding, every step."""
    env = raw_env(3, rounds=[1, 4])
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in env.agent_iter():
        obs, _r, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        for other in env.possible_agents:
            want = encode_observation(env.game.observation(env.possible_agents.index(other)))
            np.testing.assert_array_equal(env.observe(other)["observation"], want)
        if terminated or truncated:
            env.step(None)
            continue
        mask = env.game.legal_action_mask()
        assert obs["action_mask"].tolist() == mask.astype(np.int8).tolist()
        assert seat == env.game.current_player
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_observe_shapes_and_mask() -> None:
    env = aec_env(4)
    env.reset(seed=0)
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (114,)
        assert env.observation_space(agent).contains(obs)
        assert bool(obs["action_mask"].any()) == (agent == env.agent_selection)


def test_max_turns_truncates() -> None:
    env = aec_env(2, max_turns=5)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 10


def test_illegal_action_ends_the_episode() -> None:
    env = aec_env(2)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(113)  # going out before drawing
    assert all(env.terminations.values())
    assert env.rewards[agent] == -100


def test_render_ansi_and_close(capsys: pytest.CaptureFixture[str]) -> None:
    env = aec_env(2, rounds=[1], render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "round 1 (wild 3)" in text and "player_0:" in text and "player_1:" in text
    env.close()
    human = aec_env(2, rounds=[1], render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out == text + "\n"


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="num_players must be 2..7"):
        raw_env(8)
    with pytest.raises(ValueError, match="tie-break"):
        raw_env(2, rules=Rules(tie_break=True))
    with pytest.raises(ValueError, match=r"render_mode must be None or one of \['ansi', "
                       r"'human'\], got 'rgb_array'"):
        raw_env(2, render_mode="rgb_array")
    with pytest.raises(TypeError, match="normalize must be a bool"):
        raw_env(2, normalize="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_turns"):
        raw_env(2, max_turns=0)
    with pytest.raises(ValueError):
        raw_env(2, rounds=[12])


def _pettingzoo_wrapped(n: int, **kwargs):
    """raw_env in the wrappers PettingZoo's classic envs use (what aec_env returned in 0.1)."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(raw_env(n, **kwargs), illegal_reward=-100.0)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def _trace(env, seed: int, illegal_at: int | None) -> list:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    for i, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, info = env.last()
        out.append((agent, reward, terminated, truncated, repr(info),
                    obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                    dict(env.rewards), dict(env.terminations), dict(env.truncations)))
        if terminated or truncated:
            env.step(None)
        elif i == illegal_at:
            env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(np.int64(legal[int(rng.integers(legal.size))]))
    return out


@pytest.mark.filterwarnings("ignore:.*Illegal move")
def test_builtin_guarantees_match_pettingzoo_wrappers() -> None:
    """aec_env returns raw_env unwrapped: it behaves as PettingZoo's wrappers made it."""
    for seed, illegal_at, kwargs in ((0, None, {}), (1, 7, {}), (2, 0, {}),
                                     (3, 40, {"max_turns": 9}), (4, None, {"max_turns": 6})):
        ours = _trace(aec_env(3, rounds=[1, 2], **kwargs), seed, illegal_at)
        theirs = _trace(_pettingzoo_wrapped(3, rounds=[1, 2], **kwargs), seed, illegal_at)
        assert ours == theirs
    assert type(aec_env(2)) is raw_env


def test_order_and_bounds_are_enforced() -> None:
    env = aec_env(2, rounds=[1])
    for name in ("agents", "rewards", "terminations", "truncations", "infos",
                 "agent_selection", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    for call, what in ((lambda: env.step(0), "step"), (lambda: env.observe("player_0"), "observe"),
                       (env.render, "render"), (env.agent_iter, "agent_iter")):
        with pytest.raises(AssertionError, match=f"reset\\(\\) needs to be called before {what}"):
            call()
    with pytest.raises(AttributeError, match="no attribute 'bogus'"):
        env.bogus  # noqa: B018
    env.reset(seed=0)
    for bad in (114, -1, None, 2.0, "0"):
        with pytest.raises(AssertionError, match="not in the action space"):
            env.step(bad)
    assert not any(env.terminations.values())
    agents = env.agent_iter()
    next(agents)
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    env.step(0)
    assert next(agents) == env.agent_selection
