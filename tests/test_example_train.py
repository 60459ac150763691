"""The training recipe, examples/"train_maskable_ppo.py", runs end to end on a tiny budget.

It needs the ``fivecrowns[train]`` extra (sb3-contrib and torch), which ``all`` does not
bring: without it the test is skipped, except where ``FIVECROWNS_REQUIRE_TRAIN=1`` (the CI
step that installs the extra) makes a missing extra a failure.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fivecrowns
from conftest import require_train_extra
from helpers.engines import compiled_engine
from test_examples import EXAMPLES, run

SCRIPT = "train_maskable_ppo.py"


def _no_constant(name: str) -> float:
    """``json.loads``' hook for NaN and Infinity, which strict JSON does not have."""
    raise ValueError(f"not JSON: {name}")


def _figures(out: str) -> dict[str, tuple[float, float, float]]:
    """The evaluation's three lines: label -> (mean, low, high)."""
    found = {}
    for key, label in (("agent", "agent's mean game total"),
                       ("bots", "GreedyBots' mean game total"),
                       ("diff", r"agent minus opponents \(paired\)")):
        m = re.search(label + r"\s+(-?[\d.]+)\s+95% interval \[(-?[\d.]+), (-?[\d.]+)\]", out)
        assert m, f"no line {label!r} in the output:\n{out}"
        found[key] = (float(m[1]), float(m[2]), float(m[3]))
    return found


@pytest.mark.slow
def test_train_save_reload_evaluate(tmp_path: Path) -> None:
    require_train_extra("torch", "sb3_contrib")
    model = tmp_path / "model.zip"
    # a few seconds of imitation (the warm start), then 2,048 PPO steps
    out = run(SCRIPT, "--imitate", "0.1", "--steps", "2048", "--envs", "2", "--n-steps", "512",
              "--batch-size", "256", "--epochs", "2", "--threads", "1", "--seed", "5",
              "--eval-games", "48", "--out", str(model), cwd=tmp_path)
    m = re.search(r"imitation: (\d+) games, ([\d,]+) decisions of a GreedyBot", out)
    assert m and int(m[1]) >= 1 and int(m[2].replace(",", "")) >= 11, out
    m = re.search(r"GreedyBot's action most likely in ([\d.]+)% of its decisions", out)
    assert m and 0 <= float(m[1]) <= 100, out
    m = re.search(r"trained ([\d,]+) PPO steps", out)
    assert m and int(m[1].replace(",", "")) >= 2048, out
    assert model.is_file() and model.stat().st_size > 10_000
    assert "evaluation over 48 seeded games against three GreedyBots" in out
    fig = _figures(out)
    for mean, lo, hi in fig.values():
        assert lo < mean < hi, out
    # game totals are never negative; GreedyBots among themselves total about 130 a game
    # and never near 1000 on average
    agent, bots, diff = fig["agent"][0], fig["bots"][0], fig["diff"][0]
    assert 0 < agent < 1000 and 50 < bots < 400, out
    assert diff == pytest.approx(agent - bots, abs=0.11), out
    verdict = "not below" if fig["diff"][2] >= 0 else "below"
    assert f"target (mean total below the GreedyBots'): {verdict} " in out

    # the saved model reloads and plays the same seeded games the same way
    again = run(SCRIPT, "--eval-only", str(model), "--eval-games", "48", "--seed", "5",
                "--threads", "1", cwd=tmp_path)
    assert f"loaded {model}" in again
    assert _figures(again) == fig


@pytest.mark.slow
def test_help_and_bad_arguments(tmp_path: Path) -> None:
    require_train_extra("torch", "sb3_contrib")
    assert "--eval-only" in run(SCRIPT, "--help")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(fivecrowns.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    for args, error in ((["--eval-only", str(tmp_path / "missing.zip")], "no model file"),
                        ([], "give a training budget"),
                        (["--steps", "10", "--eval-games", "0"], "--eval-games must be"),
                        (["--steps", "10", "--subproc"], "give --route single")):
        done = subprocess.run([sys.executable, str(EXAMPLES / SCRIPT), *args], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 2 and error in done.stderr, done.stderr


@pytest.mark.slow
def test_the_single_route_trains_as_before(tmp_path: Path) -> None:
    """``--route single``: 0.4's recipe, one FiveCrownsEnv a game."""
    require_train_extra("torch", "sb3_contrib")
    out = run(SCRIPT, "--route", "single", "--imitate", "0", "--steps", "512", "--envs", "2",
              "--epochs", "1", "--eval-games", "4", "--out", str(tmp_path / "m.zip"),
              cwd=tmp_path)
    assert re.search(r"trained [\d,]+ PPO steps .* 2 envs, single route", out), out


def test_the_shaped_rewards_telescope_over_every_games_episodes() -> None:
    """ShapedReward over the vector env: with gamma 1, a game's shaped rewards over an
    episode add up to its scaled rewards less the potential of its first observation (the
    shaping ranks policies as the game does); an episode ends with potential 0."""
    require_train_extra("torch", "sb3_contrib")
    import argparse
    import importlib.util

    import numpy as np

    spec = importlib.util.spec_from_file_location("recipe", EXAMPLES / SCRIPT)
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    args = argparse.Namespace(route="vector", envs=3, seed=2, reward_scale=0.01, shaping=1.0,
                              gamma=1.0)
    venv = recipe.training_games(("greedy",) * 2, args)
    obs = venv.reset()
    start = recipe.potential(obs["observation"], args)
    assert (start < 0).all()  # a dealt hand has deadwood
    shaped_sum = np.zeros(3)
    episodes = 0
    rng = np.random.default_rng(0)
    while episodes < 3:
        masks = np.stack(venv.env_method("action_masks"))
        venv.step_async((rng.random(masks.shape) * masks).argmax(axis=1))
        obs, shaped, dones, infos = venv.step_wait()
        shaped_sum += shaped
        for i in np.flatnonzero(dones):
            episodes += 1
            total = -infos[i]["episode"]["r"]  # VecMonitor: the unscaled rewards' sum
            assert shaped_sum[i] == pytest.approx(-0.01 * total - start[i], abs=1e-3)
            shaped_sum[i] = 0.0
            start[i] = recipe.potential(obs["observation"][i], args)
    venv.close()


# -- the imitation recipe, examples/"train_imitation.py": LearnedBot's weights ------------------

def test_imitation_recipe_trains_saves_and_evaluates(tmp_path: Path) -> None:
    require_train_extra("torch")
    compiled_engine()  # the recipe records ExpertBot's decisions, on the compiled engine only
    from fivecrowns import LearnedBot, StrongBot, play_game
    from fivecrowns.learned import load_weights

    weights = tmp_path / "w.npz"
    base = ["--games", "6", "--seed", "4", "--epochs", "2", "--jobs", "1"]
    args = base + ["--eval-deals", "3", "--eval-seed", "5", "--out", str(weights)]
    out = run("train_imitation.py", *args, cwd=tmp_path)
    m = re.search(r"data: 6 games, ([\d,]+) decisions of ExpertBot", out)
    assert m and int(m[1].replace(",", "")) > 6 * 100, out
    m = re.search(r"inputs: ([\d,]+) decisions by the network", out)
    assert m and 0 < int(m[1].replace(",", "")) < 6 * 300, out
    m = re.search(r"ExpertBot's move scored best in ([\d.]+)% of the training", out)
    assert m and 0 <= float(m[1]) <= 100, out
    assert "duplicate match on 3 deals (seed 5)" in out
    m = re.search(r"paired gain over StrongBot: ([-+][\d.]+) points a game, 95% interval "
                  r"\[([-+][\d.]+), ([-+][\d.]+)\]", out)
    assert m and float(m[2]) <= float(m[1]) <= float(m[3]), out
    w = load_weights(weights)
    assert w.meta["seed"] == 4 and w.meta["command"].endswith(" ".join(args))
    # six games hold none out (ceil(0.95 * 6) = 6): said so, and null in the JSON, never NaN
    assert "none held out" in out and w.meta["accuracy_held_out"] is None, out
    summary = json.loads(out.strip().splitlines()[-1], parse_constant=_no_constant)
    assert summary == {"decisions": w.meta["decisions"], "accuracy_held_out": None}
    assert w.meta["evaluation"]["deals"] == 3
    assert weights.stat().st_size < 1_000_000
    # the weights play, and the same arguments give the same weights
    play_game([LearnedBot(weights=str(weights)), StrongBot()], seed=1, rounds=[2])
    again = tmp_path / "again.npz"
    out = run("train_imitation.py", *base, "--eval-deals", "0", "--out", str(again),
              "--check", str(weights), cwd=tmp_path)
    assert all((a[0] == b[0]).all() for a, b in zip(w.layers, load_weights(again).layers))
    assert f"check: these weights are {weights}'s, byte for byte (mean, scale, w0, b0" in out
    # --check of other weights: exit status 1, and how far apart they are
    from fivecrowns.learned import WEIGHTS

    shipped = Path(fivecrowns.__file__).parent / WEIGHTS
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(fivecrowns.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(EXAMPLES / "train_imitation.py"), "--init",
                           str(weights), "--eval-deals", "0", "--out", str(tmp_path / "x.npz"),
                           "--check", str(shipped)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(rf"check: these weights differ from {re.escape(str(shipped))}'s: "
                     r"mean by up to [\d.e+-]+, ", done.stdout), done.stdout
    # the RL phase from saved weights, compared with them on the same deals
    rl = tmp_path / "rl.npz"
    out = run("train_imitation.py", "--init", str(weights), "--rl-rounds", "11",
              "--rl-batch", "4", "--jobs", "1", "--eval-deals", "2", "--eval-seed", "5",
              "--compare", str(weights), "--out", str(rl), cwd=tmp_path)
    assert "rl: 11 rounds" in out and f"{weights} on the same deals" in out, out
    assert load_weights(rl).meta["rl_rounds"] == 11


def test_imitation_recipe_bad_arguments() -> None:
    require_train_extra("torch")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(fivecrowns.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    for args, error in ((["--games", "0"], "must be at least 1"),
                        (["--seed", "3", "--eval-seed", "3"], "--eval-seed must differ"),
                        (["--players", "4,4"], "each once"),
                        (["--players", "2,8"], "must be 2 to 7 players"),
                        (["--players", "two"], "not a list of table sizes")):
        done = subprocess.run([sys.executable, str(EXAMPLES / "train_imitation.py"), *args],
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 2 and error in done.stderr, done.stderr


def test_imitation_recipe_learns_from_every_table_size(tmp_path: Path) -> None:
    """``--players``: ExpertBot's decisions at each size, dealt from seeds of their own,
    one network fitted to them all (the weights say which sizes and how many decisions)."""
    require_train_extra("torch")
    compiled_engine()
    from fivecrowns.learned import load_weights

    weights = tmp_path / "w.npz"
    out = run("train_imitation.py", "--games", "3", "--players", "2,6", "--seed", "4",
              "--epochs", "1", "--jobs", "1", "--eval-deals", "0", "--out", str(weights),
              "--data", str(tmp_path / "d.npz"), cwd=tmp_path)
    found = {}
    for n in (2, 6):
        m = re.search(rf"data: 3 games, ([\d,]+) decisions of ExpertBot at {n} players", out)
        assert m, out
        m = re.search(rf"inputs: ([\d,]+) decisions by the network at {n} players", out)
        assert m and int(m[1].replace(",", "")) > 0, out
        found[str(n)] = int(m[1].replace(",", ""))
        assert (tmp_path / f"d-{n}p.npz").is_file()  # --data keeps each size's file
    from fivecrowns.decisions import iter_decisions

    assert [c.n_players for c in iter_decisions(tmp_path / "d-6p.npz")][0] == 6
    meta = load_weights(weights).meta
    assert meta["players"] == [2, 6] and meta["decisions_by_players"] == found
    assert meta["decisions"] == sum(found.values())
