"""The Gymnasium environment: Gymnasium's checker, registration, rewards, opponents."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import require_extra
from helpers.engines import compiled_engine, python_bots, slow_on_twins

require_extra("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import fivecrowns.envs  # noqa: E402
from fivecrowns.bots import GreedyBot, RandomBot  # noqa: E402
from fivecrowns.envs import FiveCrownsEnv  # noqa: E402
from fivecrowns.envs._common import max_agent_steps  # noqa: E402
from fivecrowns.envs.encoding import observation_scale, observation_size  # noqa: E402
from fivecrowns.envs.features import observation_features  # noqa: E402
from fivecrowns.rules import Rules  # noqa: E402


def _episode(env: gymnasium.Env, seed: int) -> tuple[float, dict, int]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info, steps


@pytest.mark.parametrize("features", [False, True])
@pytest.mark.parametrize("normalize", [False, True])
def test_check_env(features: bool, normalize: bool) -> None:
    for kwargs in ({"opponents": ("greedy", "random"), "rounds": [1, 2]},
                   {"opponents": ("strong",), "rounds": [3], "seat": 1}):
        env = gymnasium.make(fivecrowns.envs.GYM_ID, render_mode="ansi",
                             solver_features=features, normalize=normalize, **kwargs)
        check_env(env.unwrapped)


def test_solver_features_and_normalize() -> None:
    """The options change the vector as documented, and keep it inside its space."""
    envs = {(f, s): FiveCrownsEnv(opponents=("greedy", "greedy"), rounds=[2, 7, 11],
                                  solver_features=f, normalize=s)
            for f in (False, True) for s in (False, True)}
    rng = np.random.default_rng(2)
    obs = {k: e.reset(seed=5)[0] for k, e in envs.items()}
    size = observation_size(3)
    scale = observation_scale(3, features=True)
    steps = 0
    while True:
        raw, both = obs[False, False]["observation"], obs[True, True]["observation"]
        for k, e in envs.items():
            assert e.observation_space.contains(obs[k]), k
        np.testing.assert_array_equal(obs[True, False]["observation"][:size], raw)
        np.testing.assert_array_equal(obs[False, True]["observation"], raw * scale[:size])
        np.testing.assert_array_equal(both[size:], observation_features(
            envs[True, True].game.observation(0)))
        assert np.abs(both).max() <= 1.5
        legal = np.flatnonzero(obs[False, False]["action_mask"])
        a = int(rng.choice(legal))
        done = False
        for k, e in envs.items():
            obs[k], _, terminated, truncated, _ = e.step(a)
            done = terminated or truncated
        steps += 1
        if done:
            break
    assert steps > 10
    with pytest.raises(TypeError, match="solver_features must be a bool"):
        FiveCrownsEnv(opponents=("greedy",), solver_features=1)  # type: ignore[arg-type]


def test_registered_id() -> None:
    assert fivecrowns.envs.GYM_ID in gymnasium.registry
    env = gymnasium.make(fivecrowns.envs.GYM_ID, opponents=("random",), rounds=[1])
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    env.close()


def test_episode_rewards_sum_to_minus_the_total() -> None:
    env = FiveCrownsEnv(opponents=("greedy", "greedy"), rounds=[1, 2, 3], seat=2)
    total, info, _ = _episode(env, 4)
    assert env.game.is_over
    assert total == -info["totals"][2]
    assert _episode(env, 4)[:2] == (total, info)  # the same seed, the same episode


def test_bot_objects_as_opponents() -> None:
    env = FiveCrownsEnv(opponents=(GreedyBot(), GreedyBot(), GreedyBot()), rounds=[2])
    total, info, _ = _episode(env, 1)
    assert len(info["totals"]) == 4 and total == -info["totals"][0]


def test_illegal_action_and_truncation() -> None:
    env = FiveCrownsEnv(opponents=("random",), max_turns=2)
    obs, _ = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(113)
    assert terminated and reward == -100 and info["illegal_action"] == 113
    assert _episode(env, 0)[2] == 4  # two turns of a draw and a discard


def test_bad_opponents() -> None:
    with pytest.raises(ValueError, match="opponent 'nobody': unknown bot 'nobody': expected "
                                         "one of random, greedy, strong"):
        FiveCrownsEnv(opponents=("nobody",))
    with pytest.raises(ValueError, match="unknown option 'wrlds' for bot 'search'"):
        FiveCrownsEnv(opponents=("search:wrlds=4",))
    with pytest.raises(TypeError, match="choose_draw"):
        FiveCrownsEnv(opponents=(42,))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence"):
        FiveCrownsEnv(opponents="greedy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        FiveCrownsEnv(opponents=("greedy",), seat=2)


@slow_on_twins
def test_every_registry_bot_is_an_opponent_by_name() -> None:
    """The opponents are named as everywhere else (issue 37: one registry): ExpertBot,
    LearnedBot and SearchBot with options too, each made afresh, seeded, at reset."""
    names = ("expert", "learned", "search:worlds=4:policy=greedy", "StrongBot")
    env = FiveCrownsEnv(opponents=names, rounds=[1])
    env.reset(seed=5)
    made = [type(env._bots[s]).__name__ for s in range(1, 5)]
    assert made == ["ExpertBot", "LearnedBot", "SearchBot", "StrongBot"]
    assert env._bots[3].worlds == 4
    first = _episode(env, 9)
    assert _episode(env, 9) == first  # seeded: the same episode again


def test_the_old_table_of_names_is_deprecated() -> None:
    from fivecrowns.envs import gym as gym_module

    with pytest.warns(DeprecationWarning, match="registry.bot_names"):
        table = gym_module.BOTS
    assert set(table) == {"random", "greedy", "strong"}
    with pytest.raises(AttributeError):
        gym_module.NO_SUCH_NAME  # noqa: B018


@pytest.mark.parametrize("opponents", [("random", "greedy", "StrongBot"), ("expert",),
                                       ("strong", "random:go_out=0.5")])
def test_the_bots_moves_chosen_in_c_are_their_python_moves(opponents: tuple[str, ...]) -> None:
    """The opponents the engine plays choose their moves in C (policy_action): the same
    games, step by step and move by move, as their Python classes, RandomBot's generator
    included; a bot it does not play (go_out < 1) moves in Python beside them."""
    compiled_engine()
    fast = FiveCrownsEnv(opponents, rounds=[1, 2, 3])
    slow = FiveCrownsEnv(opponents, rounds=[1, 2, 3])
    fast.compiled_game = slow.compiled_game = False   # a Python Game, bots moved in C
    slow.compiled_bots = False
    rng = np.random.default_rng(2)
    for episode in range(3):
        a, _ = fast.reset(seed=episode)
        with python_bots():
            b, _ = slow.reset(seed=episode)
        assert len(fast._compiled) == sum(o != "random:go_out=0.5" for o in opponents)
        assert not slow._compiled
        done = False
        while not done:
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
            action = int(rng.choice(np.flatnonzero(a["action_mask"])))
            a, ra, ta, ua, _ = fast.step(action)
            with python_bots():  # the bots' own Python: the specification
                b, rb, tb, ub, _ = slow.step(action)
            assert (ra, ta, ua) == (rb, tb, ub)
            done = ta or ua
        assert fast.game.record().actions == slow.game.record().actions


@pytest.mark.parametrize("opponents, options", [
    (("strong", "strong", "strong"), {}),
    (("random", "greedy", "expert"), {"rounds": [1, 6, 11], "normalize": True}),
    (("random",), {"seat": 1, "solver_features": True, "max_turns": 9}),
    (("strong",) * 5, {"rounds": [2, 4], "seat": 3,
                       "rules": Rules(decks=4, tie_break=False, return_discard=True)}),
])
def test_the_engines_game_is_the_python_games(opponents: tuple[str, ...],
                                              options: dict) -> None:
    """``compiled_game``: a game whose opponents the engine plays is stepped whole in C;
    the same observations, masks, rewards, infos and games as a Python ``Game`` stepped
    each move, illegal actions, truncation and steps after it included; ``game``, read at
    any step, is the Python game, replayed from the agent's moves, and the rest of the
    episode is played on it (a reference to it stays the game being played)."""
    compiled_engine()
    fast = FiveCrownsEnv(opponents, **options)
    slow = FiveCrownsEnv(opponents, **options)
    slow.compiled_game = False
    rng = np.random.default_rng(len(opponents))
    steps = 0
    for episode in range(4):
        seed = None if episode == 3 else episode   # reset(seed=None) goes on drawing
        a, info_a = fast.reset(seed=seed)
        b, info_b = slow.reset(seed=seed)
        assert fast._on_engine and not slow._on_engine
        assert info_a == info_b
        held = None
        while True:
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
            np.testing.assert_array_equal(fast.action_masks(), slow.action_masks())
            if episode >= 2 and held is None and rng.random() < 0.05:
                held = fast.game     # replayed here; the episode goes on in Python
                assert not fast._on_engine
            if held is not None:
                assert held.record() == slow.game.record()
                assert held.totals == slow.game.totals
            legal = np.flatnonzero(a["action_mask"])
            action = (int(rng.choice(legal)) if rng.random() > 0.004
                      else int(rng.choice([-1, 114, 2**70, int(rng.integers(114))])))
            a, ra, ta, ua, xa = fast.step(action)
            b, rb, tb, ub, xb = slow.step(action)
            assert (ra, ta, ua, xa) == (rb, tb, ub, xb)
            steps += 1
            if slow.game.is_over or (ua and rng.random() < 0.5):
                break      # truncated or ended by an illegal action: at times go on
        assert fast.game.record() == slow.game.record()
        assert fast.game.results == slow.game.results
    assert steps > 30
    if fast._on_engine and fast.game.is_over:
        with pytest.raises(RuntimeError, match="episode is over"):
            fast.step(0)


def test_an_environment_on_the_engine_copies_and_pickles() -> None:
    """``deepcopy`` and ``pickle`` of an environment whose game is in C (not picklable):
    the episode is replayed into a ``Game`` first, and the copy, the original and an
    environment that never used the engine play on the same."""
    import copy
    import pickle

    compiled_engine()
    opponents = ("strong", "random", "expert")
    env, spec = FiveCrownsEnv(opponents, rounds=[2, 3]), FiveCrownsEnv(opponents, rounds=[2, 3])
    spec.compiled_game = False
    a, _ = env.reset(seed=8)
    spec.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(9):
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        a, *_ = env.step(action)
        spec.step(action)
    assert env._on_engine
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    assert not env._on_engine
    while True:
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        outcomes = [e.step(action) for e in (env, spec, *copies)]
        for o in outcomes[1:]:
            np.testing.assert_array_equal(o[0]["observation"], outcomes[0][0]["observation"])
            assert o[1:] == outcomes[0][1:]
        a = outcomes[0][0]
        if outcomes[0][2] or outcomes[0][3]:
            break
    assert copies[0].game.record() == spec.game.record() == env.game.record()
    env.reset(seed=1)
    assert env._on_engine   # the next episode is the engine's again


def test_two_threads_stepping_one_environment_take_turns() -> None:
    """Steps from two threads on an environment whose game is in C are made one after
    the other: the game replayed from the moves is the engine's (without the lock, a
    quarter of such games replayed into another game)."""
    import sys
    import threading

    compiled_engine()

    def play(env: FiveCrownsEnv, seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(400):
            legal = np.flatnonzero(env.action_masks())
            if legal.size == 0:
                return
            try:
                env.step(int(rng.choice(legal)))   # illegal by now at times: no move
            except RuntimeError:                   # the other thread ended the game
                return

    interval = sys.getswitchinterval()
    for trial in range(8):
        env = FiveCrownsEnv(("strong", "greedy", "random"))
        env.reset(seed=trial)
        sys.setswitchinterval(1e-6)   # switch threads within steps, not every 5 ms
        try:
            threads = [threading.Thread(target=play, args=(env, k)) for k in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            sys.setswitchinterval(interval)
        assert env._on_engine and len(env._moves) > 40
        seen, mask = env._vobs.copy(), env._vmask.copy()
        game = env.game
        np.testing.assert_array_equal(env._encode(game, env.seat), seen)
        np.testing.assert_array_equal(
            np.zeros(114, np.int8) if game.is_over else
            game.legal_action_mask().view(np.int8), mask)


def test_a_seat_changed_between_episodes_is_the_engines_seat() -> None:
    compiled_engine()
    env = FiveCrownsEnv(("strong", "greedy"), rounds=[3])
    env.reset(seed=0)
    env.seat = 3
    with pytest.raises(ValueError, match="seat must be 0..2"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="reset"):   # no game left half-made
        env.step(0)
    env.seat, env.max_turns = 2, 3
    fresh = FiveCrownsEnv(("strong", "greedy"), rounds=[3], seat=2, max_turns=3)
    a, b = env.reset(seed=4)[0], fresh.reset(seed=4)[0]
    while True:
        np.testing.assert_array_equal(a["observation"], b["observation"])
        action = int(np.flatnonzero(a["action_mask"])[-1])
        (a, *ra), (b, *rb) = env.step(action), fresh.step(action)
        assert ra == rb
        if ra[1] or ra[2]:
            break


def test_the_engines_game_needs_a_reset_first() -> None:
    env = FiveCrownsEnv(("strong",), rounds=[1])
    with pytest.raises(RuntimeError, match="reset"):
        env.game  # noqa: B018
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_bots_moves_in_c_through_tie_break_rounds() -> None:
    """A run of the engine's bots' moves (``Game._run_policies``, the environment's
    opponents) through tie-break rounds, whose players are numbered apart from the
    seats: the same games as the bots' own moves, stopping at the seat asked for even
    when it sits out the tie-break (the environments play without one: Game directly)."""
    compiled_engine()
    from fivecrowns import Game, StrongBot
    from fivecrowns._player import player_action

    rules = Rules(tie_break=True)
    ties = 0
    for seed in range(40):
        bots = [GreedyBot(), StrongBot(), GreedyBot()]
        policies = (0, 2, 0)
        stop = seed % 3
        fast = Game(3, seed=seed, rounds=[1], rules=rules)
        slow = Game(3, seed=seed, rounds=[1], rules=rules)
        while not fast.is_over:
            s = fast.current_player
            if s == stop:   # the "agent": the same bot's move, played in Python
                action = player_action(bots[s], fast.observation(s))
                fast.apply_action(action, player=s)
            else:
                fast._run_policies(stop, policies, (None,) * 3)
                # the run stops at the seat asked for, or at a round's end
                assert fast.is_over or fast.current_player == stop or fast.round.turn == 0
        while not slow.is_over:
            s = slow.current_player
            slow.apply_action(player_action(bots[s], slow.observation(s)), player=s)
        assert fast.record().actions == slow.record().actions
        assert fast.result == slow.result
        ties += bool(fast.result.tie_break_seats)
    assert ties >= 2


def test_play_policies_refuses_bad_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled run of bots' moves checks every argument and changes nothing when it
    refuses."""
    core = compiled_engine("_policies")
    from fivecrowns import Round
    from fivecrowns._state import State

    r = Round(3, 4, seed=1)
    st = r._state
    before = st.fields()
    gen = np.random.PCG64(0)
    bad = [
        ((0, 2), (None, None), 0, "one entry per player"),
        ((0, 2, 9), (None, None, None), 0, "policy must be"),
        ((0, 1, 2), (None, None, None), 0, "policy must be"),   # "random": not a bot
        ((0, 2, True), (None, None, None), 0, "policy must be"),
        ((0, 4, 2), (None, None, None), 0, "generator is needed"),
        ((0, 2, 2), (None, gen, None), 0, "generator is needed"),
        ((0, None, 2), (None, gen, None), 0, "generator but no policy"),
        ((0, 4, 2), (None, "x", None), 0, "numpy BitGenerator"),
        ((0, 2, 0), (None, None, None), 3, "stop must be"),
        ((0, 2, 0), (None, None, None), 2**63, "stop must be"),
        ((0, 2, 0), (None, None, None), 1.0, "stop must be"),
    ]
    for policies, choices, stop, message in bad:
        with pytest.raises((ValueError, TypeError), match=message):
            core.play_policies(st, [], [], policies, choices, stop)
    assert st.fields() == before
    # a deal in progress (the OpenSpiel state's chance nodes) has no move to choose: a
    # RandomBot's discard from a short hand once read past its choices (found by the fuzz)
    half = State.undealt(3, 4, 6, 2, 1000, False, 0, False,
                         list(range(55)) * 2 + [55] * 6, np.random.default_rng(0))
    half.deal_card(1)
    for call in (lambda: core.policy_action(half, 4, gen),
                 lambda: core.play_policies(half, [], [], (4, 4, 4), (gen, gen, gen), -1)):
        with pytest.raises(ValueError, match="deal is not finished"):
            call()
    idle = (r.current_player + 2) % 3    # a player without a policy, two turns away
    policies = tuple(None if p == idle else 0 for p in range(3))
    history: list = []
    actions: list[int] = []
    made = core.play_policies(st, history, actions, policies, (None,) * 3, -1)
    assert made == len(actions) == 4 and len(history) >= made
    assert r.current_player == idle and r.turn == 2
    monkeypatch.setattr(fivecrowns._state, "policies_core", None)
    with pytest.raises(RuntimeError, match="compiled engine"):
        r._run_policies((0, 0, 0), (None,) * 3, -1, [])


def test_action_masks() -> None:
    env = FiveCrownsEnv(opponents=("random", "greedy"), rounds=[1, 5])
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=3)
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (114,)
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(mask, env.game.legal_action_mask())
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert not env.action_masks().any()


def test_registered_time_limit_cuts_no_game_short() -> None:
    """max_episode_steps is max_agent_steps(): reached only by a game whose every round
    runs to Rules.max_turns, and no game can take more steps."""
    spec = gymnasium.spec(fivecrowns.envs.GYM_ID)
    assert spec.max_episode_steps == max_agent_steps() == 2 * 11 * 501
    for n, max_turns in ((2, 9), (2, 10), (3, 8)):
        rules = Rules(max_turns=max_turns)
        env = FiveCrownsEnv(opponents=[RandomBot(s, go_out=0.0) for s in range(n - 1)],
                            rules=rules)
        obs, _ = env.reset(seed=n)
        steps = 0
        while True:  # nobody goes out: every round runs to max_turns
            legal = np.flatnonzero(obs["action_mask"][:58])
            obs, _, terminated, truncated, info = env.step(int(legal[-1]))
            steps += 1
            if terminated or truncated:
                break
        assert terminated and all(r.hit_max_turns for r in env.game.results)
        assert 2 * 11 * (max_turns // n) <= steps <= max_agent_steps(n, rules)
        assert max_agent_steps(n, rules) <= max_agent_steps(2, rules)


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(fivecrowns.envs.GYM_ID, opponents=("greedy",), rounds=[1],
                         render_mode="human").unwrapped
    env.reset(seed=0)
    assert env.render() is None
    assert "round 1 (wild 3)" in capsys.readouterr().out
    check_env(env)


def test_maskable_ppo_uses_action_masks() -> None:
    """sb3-contrib's MaskablePPO trains on the registered env (through Gymnasium's
    wrappers, two envs in a vector) with no mask function of its own."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    def make() -> gymnasium.Env:
        return gymnasium.make(fivecrowns.envs.GYM_ID, opponents=("greedy",), rounds=[1],
                              solver_features=True, normalize=True)

    vec = DummyVecEnv([make, make])
    assert is_masking_supported(vec)
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=32, batch_size=16, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(64)
    obs = vec.reset()
    masks = get_action_masks(vec)
    np.testing.assert_array_equal(masks, obs["action_mask"].astype(bool))
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, int(a)] for i, a in enumerate(actions))
