"""The vector environment (fivecrowns.envs.vector) and its Stable-Baselines3 adapter:
every game plays, decision by decision, what the single Gymnasium environment plays from
the same episode seed; bad actions are refused or end only their own game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conftest import require_extra, require_train_extra
from helpers.engines import compiled_engine, sized, slow_on_twins

require_extra("gymnasium")

import gymnasium  # noqa: E402

import fivecrowns.envs  # noqa: E402
from fivecrowns.envs import FiveCrownsEnv, FiveCrownsVectorEnv  # noqa: E402
from fivecrowns.envs.vector import MAX_ENVS  # noqa: E402
from fivecrowns.rules import Rules  # noqa: E402


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def _same_obs(a: dict[str, Any], b: dict[str, Any]) -> None:
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize("options", [
    dict(opponents=("strong", "greedy"), rounds=[1, 3]),
    dict(opponents=("random", "greedy", "strong"), rounds=[2], seat=2, solver_features=True,
         normalize=True, max_turns=3),
    dict(opponents=("random", "greedy"), rounds=[1, 2], seat=[2, 0, 1]),
])
@slow_on_twins
def test_every_game_is_the_single_environments_game(options: dict[str, Any]) -> None:
    """Game i's k-th episode is FiveCrownsEnv's after reset(seed=episode_seed(i, k)), step
    by step: observations, masks, rewards, ends, auto-resets; with ``seat`` per game, each
    game's learner sits there."""
    n = 3
    envs = FiveCrownsVectorEnv(n, **options)
    seats = np.broadcast_to(options.get("seat", 0), n).tolist()  # one seat, or one a game
    singles = [FiveCrownsEnv(**{**options, "seat": seats[i]}) for i in range(n)]
    obs, infos = envs.reset(seed=11)
    assert infos["seat"].tolist() == seats
    episodes = [0] * n
    for i, single in enumerate(singles):
        first, _ = single.reset(seed=envs.episode_seed(i, 0))
        _same_obs({k: v[i] for k, v in obs.items()}, first)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(sized(400, 60)):
        actions = _random_actions(envs.action_masks(), rng)
        obs, rewards, terms, truncs, infos = envs.step(actions)
        for i, single in enumerate(singles):
            s_obs, s_rew, s_term, s_trunc, _ = single.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (s_rew, s_term, s_trunc)
            if s_term or s_trunc:
                ended += 1
                assert infos["_final_obs"][i]
                _same_obs(infos["final_obs"][i], s_obs)
                episodes[i] += 1
                s_obs, _ = single.reset(seed=envs.episode_seed(i, episodes[i]))
            _same_obs({k: v[i] for k, v in obs.items()}, s_obs)
    assert ended >= n  # the check saw auto-resets


def test_the_seed_fixes_every_deal_whatever_the_number_of_games() -> None:
    small = FiveCrownsVectorEnv(2, ("greedy",), [1])
    large = FiveCrownsVectorEnv(5, ("greedy",), [1])
    a, _ = small.reset(seed=3)
    a = {k: v.copy() for k, v in a.items()}
    b, _ = large.reset(seed=3)
    _same_obs(a, {k: v[:2] for k, v in b.items()})
    assert small.episode_seed(1, 4) == large.episode_seed(1, 4) != large.episode_seed(4, 1)
    c, _ = small.reset(seed=4)
    assert not np.array_equal(a["observation"], c["observation"])
    drawn = FiveCrownsVectorEnv(1, ("greedy",), [1])
    drawn.reset()
    assert isinstance(drawn.seed, int) and drawn.seed >= 0


def test_buffers_are_handed_out_without_a_copy() -> None:
    envs = FiveCrownsVectorEnv(4, ("greedy", "greedy"), [2])
    obs, _ = envs.reset(seed=1)
    before = obs["observation"].copy()
    again, rewards, terms, truncs, _ = envs.step(envs.action_masks().argmax(axis=1))
    assert again["observation"] is obs["observation"] and again["action_mask"] is obs[
        "action_mask"]
    assert not np.array_equal(before, obs["observation"])  # rewritten in place
    assert rewards.shape == terms.shape == truncs.shape == (4,)
    assert np.shares_memory(envs.action_masks(), obs["action_mask"])


def test_an_illegal_action_ends_only_its_own_game() -> None:
    envs = FiveCrownsVectorEnv(3, ("greedy",), [3])
    twin = FiveCrownsVectorEnv(3, ("greedy",), [3])
    envs.reset(seed=2)
    twin.reset(seed=2)
    actions = envs.action_masks().argmax(axis=1)
    bad = actions.copy()
    bad[1] = 113 if not envs.action_masks()[1, 113] else 2  # no legal move
    _, rewards, terms, _, infos = envs.step(bad)
    _, t_rewards, t_terms, _, _ = twin.step(actions)
    ended = infos["final_info"]
    assert rewards[1] == -100.0 and terms[1] and ended["illegal_action"][1] == bad[1]
    assert ended["_illegal_action"].tolist() == [False, True, False]
    np.testing.assert_array_equal(rewards[[0, 2]], t_rewards[[0, 2]])
    # the game was dealt its next episode; the others go on as before
    assert envs._episodes.tolist() == [0, 1, 0]
    _same_obs({k: v[[0, 2]] for k, v in envs._obs.items()},
              {k: v[[0, 2]] for k, v in twin._obs.items()})
    out_of_range = envs.action_masks().argmax(axis=1)
    out_of_range[0] = 10_000
    _, rewards, terms, _, _ = envs.step(out_of_range)
    assert rewards[0] == -100.0 and terms[0]


@pytest.mark.parametrize("implementation", ["compiled", "python"])
def test_self_play_gives_every_seat_its_turns_and_its_scores(implementation: str) -> None:
    """Self-play: each observation is the seat to move's (``infos["seat"]``), a step's
    reward is the mover's, and ``infos["seat_rewards"]`` over an episode add up to minus
    every seat's game total."""
    if implementation == "compiled":
        compiled_engine()
    n, players = 4, 3
    envs = FiveCrownsVectorEnv(n, rounds=[1], self_play=True, n_players=players,
                               implementation=implementation)
    assert (envs.seat, envs.opponents, envs.n_players) == (None, (), players)
    obs, infos = envs.reset(seed=9)
    rng = np.random.default_rng(2)
    summed = np.zeros((n, players))
    ended = 0
    seen_seats = set()
    for _ in range(sized(300, 120)):
        seats = infos["seat"].copy()
        seen_seats.update(seats.tolist())
        masks = envs.action_masks()
        obs, rewards, terms, truncs, infos = envs.step(
            (rng.random(masks.shape) * masks).argmax(axis=1))
        np.testing.assert_array_equal(
            rewards, infos["seat_rewards"][np.arange(n), seats])
        summed += infos["seat_rewards"]
        for i in np.flatnonzero(terms):
            ended += 1
            final = {k: v[i] for k, v in infos["final_info"].items()}
            assert final["actor"] == final["seat"] == seats[i]
            np.testing.assert_array_equal(summed[i], -final["totals"])
            summed[i] = 0
    assert ended >= 2 and seen_seats == set(range(players))


def test_bad_actions_and_options_get_clear_errors() -> None:
    envs = FiveCrownsVectorEnv(2, ("greedy",), [1])
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="integer array, got dtype float64"):
        envs.step(np.zeros(2))
    with pytest.raises(TypeError, match="integer array, got dtype bool"):
        envs.step(np.zeros(2, dtype=bool))
    with pytest.raises(ValueError, match=r"shape \(2,\), one per game, got \(3,\)"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"shape \(2,\), one per game, got \(\)"):
        envs.step(0)
    with pytest.raises(ValueError, match="num_envs must be at least 1"):
        FiveCrownsVectorEnv(0)
    with pytest.raises(ValueError, match="num_envs must be at most"):
        FiveCrownsVectorEnv(MAX_ENVS + 1)
    with pytest.raises(TypeError, match="sequence of bot specs"):
        FiveCrownsVectorEnv(2, opponents="strong")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        FiveCrownsVectorEnv(2, opponents=("nobody",))
    with pytest.raises(ValueError, match="seat"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), seat=5)
    with pytest.raises(ValueError, match="options"):
        envs.reset(seed=0, options={"x": 1})
    with pytest.raises(ValueError, match=r"seat: one per game, 2 of them, got shape \(3,\)"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), seat=[0, 1, 0])
    with pytest.raises(TypeError, match="seat must be an int or a sequence of ints"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), seat=[0.0, 1.0])
    with pytest.raises(ValueError, match="seat"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), seat=[0, 2])
    with pytest.raises(ValueError, match="neither opponents nor seat"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), self_play=True)
    with pytest.raises(ValueError, match="n_players is for self_play=True"):
        FiveCrownsVectorEnv(2, opponents=("greedy",), n_players=2)
    with pytest.raises(ValueError, match="n_players must be"):
        FiveCrownsVectorEnv(2, self_play=True, n_players=1)
    # a refused step changed nothing
    obs, _ = envs.reset(seed=0)
    kept = obs["observation"].copy()
    with pytest.raises(ValueError):
        envs.step(np.zeros(3, dtype=np.int64))
    np.testing.assert_array_equal(kept, obs["observation"])


def _same_step(a: tuple[Any, ...], b: tuple[Any, ...], where: str) -> None:
    """Two vector envs' step results are the same, final observations and infos too."""
    _same_obs(a[0], b[0])
    for j, name in ((1, "rewards"), (2, "terminations"), (3, "truncations")):
        np.testing.assert_array_equal(a[j], b[j], err_msg=f"{name}, {where}")
    ia, ib = a[4], b[4]
    assert set(ia) == set(ib), where
    for key in ("totals", "seat", "seat_rewards"):
        if key in ia:
            np.testing.assert_array_equal(ia[key], ib[key], err_msg=f"{key}, {where}")
    assert ("final_obs" in ia) == ("final_obs" in ib), where
    if "final_obs" in ia:
        np.testing.assert_array_equal(ia["_final_obs"], ib["_final_obs"], err_msg=where)
        for i in np.flatnonzero(ia["_final_obs"]):
            _same_obs(ia["final_obs"][i], ib["final_obs"][i])
        assert set(ia["final_info"]) == set(ib["final_info"]), where
        for key, value in ia["final_info"].items():
            np.testing.assert_array_equal(value, ib["final_info"][key], err_msg=where)


_COMPILED_CASES = [
    dict(opponents=("strong", "greedy"), rounds=[1, 3]),
    dict(opponents=("random", "greedy", "StrongBot"), rounds=[2], seat=2, normalize=True,
         max_turns=3),
    dict(opponents=("expert",), rounds=[1, 2], max_episode_steps=7, solver_features=True),
    dict(opponents=("random",) * 5, rounds=[4], seat=3, rules=Rules(decks=4),
         solver_features=True, normalize=True),
    dict(opponents=("greedy", "random"), rounds=[1, 2, 3],
         rules=Rules(return_discard=True, max_turns=6)),
    dict(opponents=("strong", "random", "greedy"), seat=[0, 1, 2, 3, 1], rounds=[2, 3]),
    dict(self_play=True, n_players=3, rounds=[1, 2], max_episode_steps=9),
    dict(self_play=True, rounds=[3], max_turns=2, solver_features=True, normalize=True),
]


@pytest.mark.parametrize("options", _COMPILED_CASES)
def test_the_compiled_route_plays_the_python_routes_games(options: dict[str, Any]) -> None:
    """Every opponent the engine plays, learners' illegal and out-of-range actions, both
    time limits, party decks, a seat other than 0, the solver features: the games in C give the same
    observations, masks, rewards, ends, totals and final infos as the games of
    FiveCrownsEnv, step by step."""
    compiled_engine()
    n = 5
    fast = FiveCrownsVectorEnv(n, implementation="compiled", **options)
    spec = FiveCrownsVectorEnv(n, implementation="python", **options)
    assert (fast.implementation, spec.implementation) == ("compiled", "python")
    _same_obs(fast.reset(seed=3)[0], spec.reset(seed=3)[0])
    rng = np.random.default_rng(8)
    ended = 0
    for t in range(120):
        actions = _random_actions(fast.action_masks(), rng)
        bad = rng.random(n) < 0.02
        actions[bad] = rng.integers(-3, 120, size=int(bad.sum()))
        a, b = fast.step(actions), spec.step(actions)
        _same_step(a, b, f"step {t}")
        ended += int((a[2] | a[3]).sum())
    assert ended >= n
    assert fast._episodes.tolist() == spec._episodes.tolist()


def test_the_compiled_route_gives_the_same_games_on_any_number_of_threads() -> None:
    compiled_engine()
    runs = []
    for threads in (1, 2):
        envs = FiveCrownsVectorEnv(300, ("strong", "random", "greedy"), [1, 2],
                                   threads=threads)
        assert envs.implementation == "compiled"
        obs, _ = envs.reset(seed=5)
        rng = np.random.default_rng(1)
        seen = [obs["observation"].copy()]
        for _ in range(30):
            masks = envs.action_masks()
            obs, rewards, terms, truncs, _ = envs.step(
                (rng.random(masks.shape) * masks).argmax(axis=1))
            seen += [obs["observation"].copy(), rewards.copy(), terms.copy()]
        runs.append(seen)
    for x, y in zip(*runs):
        np.testing.assert_array_equal(x, y)


def test_the_route_is_chosen_or_refused_with_a_reason() -> None:
    compiled_engine()
    assert FiveCrownsVectorEnv(2, ("greedy",)).implementation == "compiled"
    assert FiveCrownsVectorEnv(2, ("learned",)).implementation == "python"
    assert FiveCrownsVectorEnv(2, ("strong:lookahead=2",)).implementation == "python"
    assert FiveCrownsVectorEnv(2, ("greedy",), solver_features=True).implementation == \
        "compiled"
    with pytest.raises(ValueError, match="the engine plays random, greedy, strong and expert "
                                         "with their default options; the opponents are "
                                         "'learned'"):
        FiveCrownsVectorEnv(2, ("learned",), implementation="compiled")
    with pytest.raises(ValueError, match="implementation must be one of auto, compiled, "
                                         "python, got 'c'"):
        FiveCrownsVectorEnv(2, ("greedy",), implementation="c")


def test_the_compiled_games_check_every_argument() -> None:
    """The engine's own class refuses what would read or write out of bounds."""
    core = compiled_engine("_vecgames")

    def games(**changes: Any) -> Any:
        args = dict(n=2, n_players=3, seats=[0, 2], policies=[2, 0], decks=2, max_turns=100,
                    return_discard=False, rounds=[1, 2], agent_turns=0, max_steps=0,
                    scale=None)
        args.update(changes)
        return core.VectorGames(*args.values())

    for changes, message in [
            (dict(n=0), "n must be"), (dict(n_players=15), "n_players"),
            (dict(seats=[0, 3]), "a seat must be"), (dict(seats=[0]), "seats must hold 2"),
            (dict(seats=[0, -1]), "a seat must be"), (dict(policies=[2]), "policies must hold"),
            (dict(policies=[-1, 0]), "policy"), (dict(policies=[1, 0]), "policy"),
            (dict(policies=[], seats=[-1, 0]), "every seat must be -1"),
            (dict(seats=[0, 1.5]), "a seat must be an int"),
            (dict(seats=[0, True]), "a seat must be an int"),
            (dict(policies=[2.0, 0]), "policy"),
            (dict(decks=3), "decks"), (dict(rounds=[]), "rounds must hold"),
            (dict(rounds=[12]), "round number"), (dict(max_turns=0), "max_turns"),
            (dict(n_players=14, policies=[0] * 13, rounds=[11]), "cards"),
            (dict(scale=np.ones(5, np.float32)), "scale must have shape"),
            (dict(agent_turns=-1), ">= 0")]:
        with pytest.raises(ValueError, match=message):
            games(**changes)
    g = games()
    obs = np.zeros((2, g.size), np.float32)
    masks = np.zeros((2, 114), np.int8)
    seats = np.zeros(2, np.int64)
    with pytest.raises(RuntimeError, match="no generators"):
        g.begin(obs, masks, seats, 0, 2)
    with pytest.raises(IndexError):
        g.provide(2, np.random.PCG64(0), [None] * 3)
    with pytest.raises(ValueError, match="only for it"):
        g.provide(0, np.random.PCG64(0), [None, None, np.random.PCG64(1)])
    for i in range(2):
        g.provide(i, np.random.PCG64(i), [None] * 3)
    step_args = (np.zeros(2, np.int64), obs, masks, np.zeros(2), np.zeros((2, 3)),
                 np.zeros(2, np.uint8), np.zeros(2, np.uint8), np.zeros(2, np.int32),
                 np.zeros(2, np.int32), seats, obs.copy(), masks.copy(),
                 np.zeros(2, np.uint8), np.zeros((2, 3), np.int64), 0, 2)
    with pytest.raises(RuntimeError, match="game 0 has not begun"):
        g.step(*step_args)   # its table is zeroed: a move on it crashed the interpreter
    with pytest.raises(RuntimeError, match="game 1 has not begun"):
        g.play_one(1, 0, obs[1], masks[1])
    with pytest.raises(ValueError, match="obs must have shape"):
        g.begin(np.zeros((2, 5), np.float32), masks, seats, 0, 2)
    with pytest.raises(ValueError, match="games 0..3"):
        g.begin(obs, masks, seats, 0, 3)
    with pytest.raises(ValueError, match="seats must hold 2"):
        g.begin(obs, masks, seats[:1], 0, 2)
    g.begin(obs, masks, seats, 0, 2)
    assert masks[:, :2].sum() > 0 and seats.tolist() == [0, 2]
    # the single environment's entrances: one game, its own row buffers
    with pytest.raises(IndexError):
        g.play_one(2, 0, obs[0], masks[0])
    with pytest.raises(ValueError, match="obs and mask must have shapes"):
        g.play_one(0, 0, obs[0, 1:], masks[0])
    with pytest.raises(ValueError, match="obs and mask must have shapes"):
        g.begin_one(0, obs[0], masks[0, :50])
    with pytest.raises(ValueError, match="dtype mismatch"):
        g.play_one(0, 0, obs[0].astype(np.float64), masks[0])
    with pytest.raises(OverflowError):
        g.play_one(0, 2**70, obs[0], masks[0])
    reward, terminated, truncated, illegal = g.play_one(0, 113, obs[0], masks[0])
    assert (reward, terminated, truncated, illegal) == (-100.0, True, False, True)
    with pytest.raises(RuntimeError, match="no generators"):
        g.begin_one(0, obs[0], masks[0])   # the second episode's were not given
    with pytest.raises(TypeError, match="pickled"):
        import pickle
        pickle.dumps(g)


def test_the_compiled_games_hold_every_generator_they_may_use() -> None:
    """``VectorGames`` keeps alive the generators of the episode being played and of the
    next: giving the next episode's twice before it begins, or giving it wrongly (a
    refusal), must not free the ones in use (the fuzz test found a crash there)."""
    import sys

    core = compiled_engine("_vecgames")
    g = core.VectorGames(1, 3, [1], [4, 2], 2, 100, False, [7], 0, 0, None)
    obs, masks = np.zeros((1, g.size), np.float32), np.zeros((1, 114), np.int8)
    playing = np.random.PCG64(1)
    base = sys.getrefcount(playing)
    g.provide(0, np.random.PCG64(0), [playing, None, None])
    g.begin(obs, masks, np.zeros(1, np.int64), 0, 1)
    g.provide(0, np.random.PCG64(2), [np.random.PCG64(3), None, None])
    g.provide(0, np.random.PCG64(4), [np.random.PCG64(5), None, None])  # replaces it unbegun
    with pytest.raises(ValueError, match="only for it"):
        g.provide(0, np.random.PCG64(6), [np.random.PCG64(7), np.random.PCG64(8), None])
    assert sys.getrefcount(playing) > base  # still held: the RandomBot in seat 0 uses it


def test_the_engine_derives_the_episode_seeds_as_numpy_does() -> None:
    """The compiled games derive each episode's generators in C (no Python when an
    episode ends): its SeedSequence, PCG64 seeding and output must be NumPy's, bit for
    bit, for small, 32-bit-edge, 64-bit and huge run seeds and game numbers."""
    core = compiled_engine("_vecgames")
    envs = FiveCrownsVectorEnv(1, ("greedy",), [1])
    rng = np.random.default_rng(3)
    runs = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, 2**64, 2**200 + 12345,
            *rng.integers(0, 2**63, size=20).tolist()]
    for run in runs:
        envs._seed = run
        for i, k in [(0, 0), (1, 0), (0, 1), (2**32, 7), (3, 2**32 + 1),
                     *zip(rng.integers(0, 10**6, 5).tolist(), rng.integers(0, 99, 5).tolist())]:
            assert core._episode_seed(run, i, k) == envs._seed_of(i, k), (run, i, k)
    for seed in [0, 1, 2**32, 2**63 - 2, *rng.integers(0, 2**63, size=30).tolist()]:
        assert core._pcg64_raw(seed, 50) == np.random.PCG64(seed).random_raw(50).tolist()
        bits = np.random.PCG64(seed)  # next_uint32: the low half, then the buffered high
        halves = [v for x in bits.random_raw(25).tolist() for v in (x & 0xFFFFFFFF, x >> 32)]
        assert core._pcg64_raw(seed, 50, halves=True) == halves
    with pytest.raises(ValueError, match="run_seed must be an int >= 0"):
        core._episode_seed(-1, 0, 0)


def test_a_run_seed_past_the_engines_words_is_given_episode_by_episode() -> None:
    """Past 2**2048 the engine does not take the run seed: the games' generators are given
    from Python, the same episodes as the Python route's."""
    compiled_engine()
    seed = 2**2100 + 5
    fast = FiveCrownsVectorEnv(3, ("random", "greedy"), [1], implementation="compiled")
    spec = FiveCrownsVectorEnv(3, ("random", "greedy"), [1], implementation="python")
    _same_obs(fast.reset(seed=seed)[0], spec.reset(seed=seed)[0])
    rng = np.random.default_rng(4)
    for t in range(80):
        actions = _random_actions(fast.action_masks(), rng)
        _same_step(fast.step(actions), spec.step(actions), f"step {t}")
    assert fast._episodes.sum() >= 1


def test_the_final_infos_are_built_as_gymnasium_builds_them() -> None:
    """The ended games' ``final_obs``/``final_info`` come in one pass, the same arrays,
    dtypes, masks and key order as ``VectorEnv._add_info`` called game by game."""
    from fivecrowns.envs._vector_games import Ended
    from fivecrowns.envs.vector import _final_infos

    env = FiveCrownsVectorEnv(6, ("greedy",), [1])
    rng = np.random.default_rng(0)
    for _ in range(100):
        ended = []
        for g in sorted(rng.choice(6, size=int(rng.integers(1, 6)), replace=False).tolist()):
            info: dict[str, Any] = {"totals": np.array([1, 2]), "seat": int(rng.integers(2))}
            if rng.random() < 0.4:
                info["illegal_action"] = int(rng.integers(114))
            if rng.random() < 0.3:
                info.update(actor=1, seat_rewards=rng.random(2))
            ended.append(Ended(g, {"observation": rng.random(3)}, info))
        ours = _final_infos(ended, 6)
        theirs: dict[str, Any] = {}
        for e in ended:
            theirs = env._add_info(theirs, {"final_obs": e.obs, "final_info": e.info}, e.game)
        assert list(ours) == list(theirs)
        assert list(ours["final_info"]) == list(theirs["final_info"])
        for key, value in theirs["final_info"].items():
            assert ours["final_info"][key].dtype == value.dtype
            np.testing.assert_array_equal(ours["final_info"][key], value)
        for key in ("_final_obs", "_final_info"):
            np.testing.assert_array_equal(ours[key], theirs[key])
        assert [o is None for o in ours["final_obs"]] == [o is None for o in theirs["final_obs"]]


def test_make_vec_builds_it_from_the_registered_id() -> None:
    envs = gymnasium.make_vec(fivecrowns.envs.GYM_ID, num_envs=3,
                              vectorization_mode="vector_entry_point",
                              opponents=("greedy",), rounds=[1])
    assert isinstance(envs, FiveCrownsVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(
        {k: v.copy() for k, v in obs.items()})
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    envs.close()


def test_the_sb3_adapter_follows_vecenv_conventions() -> None:
    require_train_extra("stable_baselines3")
    from fivecrowns.envs.sb3 import to_sb3

    venv = to_sb3(FiveCrownsVectorEnv(2, ("greedy",), [1]), seed=4)
    obs = venv.reset()
    assert obs["observation"].shape[0] == 2
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (2, 114) and masks.dtype == np.bool_ and venv.has_attr(
        "action_masks")
    rng = np.random.default_rng(0)
    done_seen = False
    for _ in range(200):
        venv.step_async(_random_actions(np.stack(venv.env_method("action_masks")), rng))
        obs, rewards, dones, infos = venv.step_wait()
        assert rewards.dtype == np.float32 and dones.shape == (2,) and len(infos) == 2
        for i in np.flatnonzero(dones):
            done_seen = True
            assert set(infos[i]["terminal_observation"]) == {"observation", "action_mask"}
            assert infos[i]["TimeLimit.truncated"] is False
    assert done_seen
    venv.close()


def test_maskable_ppo_trains_on_the_adapter() -> None:
    require_train_extra("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from fivecrowns.envs.sb3 import to_sb3

    venv = to_sb3(FiveCrownsVectorEnv(4, ("greedy",), [1]), seed=1)
    assert is_masking_supported(venv)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=16, batch_size=32, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(64)
    obs = venv.reset()
    action, _ = model.predict(obs, action_masks=get_action_masks(venv))
    assert get_action_masks(venv)[np.arange(4), action].all()
