"""Agent steps per second through each framework adapter, and through the raw engine.

Every loop plays random legal actions, 4 players, whole 11-round games; the adapters build
the observation every step (PettingZoo: ``env.last()``; Gymnasium: ``step``'s
observation; OpenSpiel: the observation tensor and the legal actions). The rows:

- ``raw Round``: :class:`fivecrowns.round.Round`'s own ``legal_actions`` +
  ``apply_action`` loop, with no observation;
- ``PettingZoo aec_env``: what :func:`fivecrowns.envs.aec_env` returns (``raw_env``
  with the wrappers' guarantees built in);
- ``PettingZoo raw_env``: ``raw_env`` constructed directly (the same class);
- ``PettingZoo wrapped``: ``raw_env`` inside PettingZoo's ``TerminateIllegalWrapper``,
  ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (what ``aec_env`` returned
  before 0.2), for comparison;
- ``Gymnasium``: :class:`~fivecrowns.envs.gym.FiveCrownsEnv` against three ``"random"``
  bots, counting the agent's steps (the bots' moves are in the time);
- ``OpenSpiel``: ``python_five_crowns``, counting player steps (chance nodes in the time).

OpenSpiel's search and learning algorithms also copy states and read tensors all the
time; a second table sets ``python_five_crowns`` (2 players, 11 rounds) beside OpenSpiel's
C++ ``gin_rummy`` in the same process:

- ``clone``: ``state.clone()`` at move 50 and at move 2,000 of a random game (the cost
  must not grow with the history), and ``gin_rummy``'s at move 50;
- ``observation_tensor`` and ``information_state_tensor``: calls a second on one state
  at move 50 (``gin_rummy`` has no information-state tensor: its observation tensor is
  the comparison for both), and ``with moves``: random play reading the observation
  tensor of the player to act at every decision, in decisions a CPU second (and the same
  with the ``solver_features`` game parameter, whose features cost solver calls at the
  first read after each move);
- ``random_sim_test``: seconds for ``pyspiel.random_sim_test`` of one whole 11-round
  2-player game with serialization, wall clock and CPU time of this process.

Run with::

    python -m pytest benchmarks/bench_envs.py --benchmark-only

A third part prices the solver features (:mod:`fivecrowns.envs.features`): CPU
microseconds a call of the observation, its encoding without and with the features and the
features alone, at every position of random 4-player rounds 1 to 11; and the Gymnasium
env's agent steps a CPU second against three GreedyBots, without and with
``solver_features=True, normalize=True``.

Run as a script for the tables::

    python benchmarks/bench_envs.py [--quick] [--only adapters|openspiel|features]
                                    [--games 3] [--seed 0] [--repeat 3]

``--quick`` plays one game a loop and makes a quarter of the OpenSpiel calls; ``--only``
(repeatable) picks the parts, all three by default; ``--openspiel`` is ``--only
openspiel``. ``--games`` are the games of each loop of the first table and of the
Gymnasium runs of the third, ``--repeat`` the timings of which the best is kept.

The first table reports steps per second of CPU time of this process (one core), the best
of ``--repeat`` timings of each loop; the second, wall-clock time per call, the best of
short batches (see ``_per_call``), except ``with moves`` (CPU time, the best of
``--repeat`` loops) and ``random_sim_test`` (wall clock and CPU time of one run); the
third, CPU time (the best of ``--repeat`` timings per call, one run of the Gymnasium
games). It needs ``fivecrowns[rl]``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from _harness import CPU, WALL, best_time, core_line, parser, play_aec, table
from fivecrowns.round import Round

PLAYERS = 4


def raw_steps(games: int, seed: int = 0) -> int:
    """Random legal actions on Rounds 1..11 (no observation); the steps played."""
    rng = np.random.default_rng(seed)
    steps = 0
    for g in range(games):
        for r in range(1, 12):
            rnd = Round(PLAYERS, r, seed=seed * 1000 + g * 11 + r, dealer=(r - 1) % PLAYERS)
            while not rnd.is_over:
                acts = rnd.legal_actions()
                rnd.apply_action(acts[int(rng.integers(len(acts)))])
                steps += 1
    return steps


def _pettingzoo_wrapped(n: int) -> object:
    from pettingzoo.utils import wrappers

    from fivecrowns.envs import raw_env

    env = wrappers.TerminateIllegalWrapper(raw_env(n), illegal_reward=-100.0)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def aec_steps(games: int, seed: int = 0, *, make: str = "aec_env") -> int:
    """Random legal actions through the PettingZoo env (``aec_env``, ``raw_env``, or
    ``wrapped``: raw_env in PettingZoo's standard wrappers); the agent steps played."""
    from fivecrowns.envs import aec_env, raw_env

    rng = np.random.default_rng(seed)
    env: Any = {"aec_env": aec_env, "raw_env": raw_env,
                "wrapped": _pettingzoo_wrapped}[make](PLAYERS)
    steps = 0
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        steps += play_aec(env, rng)
    return steps


def openspiel_steps(games: int, seed: int = 0) -> int:
    """Random legal actions (and chance outcomes) on ``python_five_crowns``; player steps."""
    import pyspiel

    import fivecrowns.envs.openspiel  # noqa: F401

    rng = np.random.default_rng(seed)
    game = pyspiel.load_game("python_five_crowns", {"players": PLAYERS})
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                acts = [a for a, _ in outcomes]
                probs = np.array([p for _, p in outcomes])
                state.apply_action(acts[int(rng.choice(len(acts), p=probs / probs.sum()))])
                continue
            state.observation_tensor()
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
            steps += 1
    return steps


def raw_aec_steps(games: int, seed: int = 0) -> int:
    """:func:`aec_steps` on ``raw_env``."""
    return aec_steps(games, seed, make="raw_env")


def wrapped_aec_steps(games: int, seed: int = 0) -> int:
    """:func:`aec_steps` on ``raw_env`` in PettingZoo's three standard wrappers."""
    return aec_steps(games, seed, make="wrapped")


def gym_steps(games: int, seed: int = 0) -> int:
    """Random legal actions of the agent (seat 0) against three random bots; agent steps."""
    from fivecrowns.envs.gym import FiveCrownsEnv

    rng = np.random.default_rng(seed)
    env = FiveCrownsEnv(("random",) * (PLAYERS - 1))
    steps = 0
    for g in range(games):
        obs, _info = env.reset(seed=seed * 1000 + g)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _reward, terminated, truncated, _info = env.step(
                int(legal[int(rng.integers(legal.size))]))
            done = terminated or truncated
            steps += 1
    return steps


LOOPS: dict[str, Callable[[int, int], int]] = {
    "raw Round": raw_steps, "PettingZoo aec_env": aec_steps,
    "PettingZoo raw_env": raw_aec_steps, "PettingZoo wrapped": wrapped_aec_steps,
    "Gymnasium": gym_steps, "OpenSpiel": openspiel_steps}


@pytest.mark.parametrize("name", list(LOOPS))
def test_steps(benchmark: object, name: str) -> None:
    pytest.importorskip("pettingzoo", reason="needs fivecrowns[rl]")
    pytest.importorskip("pyspiel", reason="needs fivecrowns[rl]")
    benchmark.group = "envs"  # type: ignore[attr-defined]
    benchmark.pedantic(LOOPS[name], args=(1, 0), rounds=3, iterations=1)  # type: ignore[attr-defined]


def spiel_state(name: str, moves: int, seed: int = 0) -> Any:
    """A state of ``name`` (``"python_five_crowns"``: 2 players, 11 rounds; or an
    OpenSpiel game such as ``"gin_rummy"``) after ``moves`` random moves, chance
    outcomes included, at a decision node."""
    import pyspiel

    import fivecrowns.envs.openspiel  # noqa: F401

    params = {"players": 2} if name == "python_five_crowns" else {}
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(name, params).new_initial_state()
    done = 0
    while done < moves or state.is_chance_node():
        if state.is_terminal():
            raise ValueError(f"the game ended after {done} moves")
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=np.array(probs) / sum(probs))))
        else:
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
        done += 1
    return state


def tensor_steps(name: str, decisions: int, seed: int = 0, features: bool = False) -> int:
    """Random play on ``name`` (as :func:`spiel_state`; ``features``: with the solver
    features), reading the observation tensor of the player to act at every decision;
    the decisions played (new games as needed)."""
    import pyspiel

    import fivecrowns.envs.openspiel  # noqa: F401

    params: dict[str, Any] = {}
    if name == "python_five_crowns":
        params = {"players": 2, **({"solver_features": True} if features else {})}
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    while done < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=np.array(probs) / sum(probs))))
        else:
            state.observation_tensor()
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
            done += 1
    return done


def random_sim_game() -> None:
    """``pyspiel.random_sim_test`` of one whole 11-round 2-player game, serialized (its
    random moves come from OpenSpiel's own fixed seed)."""
    import pyspiel

    import fivecrowns.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_five_crowns", {"players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _per_call(fn: Callable[[], object], calls: int) -> float:
    """Seconds a call of ``fn``: the best of batches of about 2 ms each, ``calls`` calls
    in all (at least five batches). Short batches keep the time the process spends
    descheduled on a shared machine out of the figure, for every game alike."""
    t0 = WALL()
    for _ in range(10):
        fn()
    batch = max(1, int(0.002 / max((WALL() - t0) / 10, 1e-9)))

    def run_batch() -> None:
        for _ in range(batch):
            fn()

    return best_time(run_batch, max(5, calls // batch), WALL) / batch


def openspiel_table(quick: bool = False, seed: int = 0,
                    repeats: int = 3) -> list[tuple[str, str, str]]:
    """(measure, python_five_crowns, gin_rummy) rows of the second table."""
    scale = 1 if quick else 4
    ours = spiel_state("python_five_crowns", 50, seed)
    late = spiel_state("python_five_crowns", 2000, seed)
    gin = spiel_state("gin_rummy", 50, seed)
    rows = []
    c50 = _per_call(ours.clone, 500 * scale)
    c2k = _per_call(late.clone, 500 * scale)
    cgin = _per_call(gin.clone, 500 * scale)
    rows.append(("clone at move 50 (us)", f"{c50 * 1e6:.1f}", f"{cgin * 1e6:.1f}"))
    rows.append(("clone at move 2,000 (us)", f"{c2k * 1e6:.1f}", "-"))
    obs = _per_call(ours.observation_tensor, 2000 * scale)
    info = _per_call(ours.information_state_tensor, 2000 * scale)
    gobs = _per_call(gin.observation_tensor, 2000 * scale)
    rows.append(("observation_tensor (calls/s)", f"{1 / obs:,.0f}", f"{1 / gobs:,.0f}"))
    rows.append(("information_state_tensor (calls/s)", f"{1 / info:,.0f}",
                 f"{1 / gobs:,.0f} (obs.)"))
    n = 1000 * scale
    ours_steps = best_time(lambda: tensor_steps("python_five_crowns", n, seed), repeats, CPU)
    gin_steps = best_time(lambda: tensor_steps("gin_rummy", n, seed), repeats, CPU)
    rows.append(("with moves (decisions/CPU s)", f"{n / ours_steps:,.0f}",
                 f"{n / gin_steps:,.0f}"))
    feat_steps = best_time(lambda: tensor_steps("python_five_crowns", n, seed,
                                                features=True), repeats, CPU)
    rows.append(("with moves, solver_features (dec./CPU s)", f"{n / feat_steps:,.0f}", "-"))
    t0, c0 = WALL(), CPU()
    random_sim_game()
    rows.append(("random_sim_test, 11 rounds (s)",
                 f"{WALL() - t0:.2f} ({CPU() - c0:.2f} CPU)", "-"))
    return rows


SPIEL = {"clone python_five_crowns move 50": lambda: spiel_state("python_five_crowns", 50),
         "clone python_five_crowns move 2000":
             lambda: spiel_state("python_five_crowns", 2000),
         "clone gin_rummy move 50": lambda: spiel_state("gin_rummy", 50)}


@pytest.mark.parametrize("name", list(SPIEL))
def test_openspiel_clone(benchmark: object, name: str) -> None:
    pytest.importorskip("pyspiel", reason="needs fivecrowns[rl]")
    benchmark.group = "openspiel clone"  # type: ignore[attr-defined]
    benchmark(SPIEL[name]().clone)  # type: ignore[operator]


@pytest.mark.parametrize("name", ["python_five_crowns observation_tensor",
                                  "python_five_crowns information_state_tensor",
                                  "gin_rummy observation_tensor"])
def test_openspiel_tensor(benchmark: object, name: str) -> None:
    pytest.importorskip("pyspiel", reason="needs fivecrowns[rl]")
    game, method = name.split()
    benchmark.group = "openspiel tensor"  # type: ignore[attr-defined]
    benchmark(getattr(spiel_state(game, 50), method))  # type: ignore[operator]


def test_openspiel_random_sim_test(benchmark: object) -> None:
    pytest.importorskip("pyspiel", reason="needs fivecrowns[rl]")
    benchmark.group = "openspiel random_sim_test"  # type: ignore[attr-defined]
    benchmark.pedantic(random_sim_game, rounds=1, iterations=1)  # type: ignore[attr-defined]


# -- The cost of the solver features (fivecrowns.envs.features) --------------------------


def _feature_positions(seed: int = 0) -> list[tuple[Round, int]]:
    """(round, player to act) at every move of random legal play, 4 players, rounds
    1..11: a copy of each position, half of them in the discard phase."""
    rng = np.random.default_rng(seed)
    out = []
    for r in range(1, 12):
        rnd = Round(PLAYERS, r, seed=seed * 1000 + r)
        while not rnd.is_over:
            out.append((rnd.clone(), rnd.current_player))
            acts = rnd.legal_actions()
            rnd.apply_action(acts[int(rng.integers(len(acts)))])
    return out


def feature_encoding_cost(seed: int = 0, repeats: int = 3) -> dict[str, float]:
    """Microseconds of CPU per call, over the positions of :func:`_feature_positions`
    (best of ``repeats``): the observation, the encoding without and with the features, and the
    features alone from the observation and from the round."""
    from fivecrowns.envs.encoding import encode_observation
    from fivecrowns.envs.features import observation_features, round_features

    positions = _feature_positions(seed)
    observations = [rnd.observation(p) for rnd, p in positions]
    calls: dict[str, Callable[[], object]] = {
        "observation()": lambda: [rnd.observation(p) for rnd, p in positions],
        "encode": lambda: [encode_observation(o) for o in observations],
        "encode features=True": lambda: [encode_observation(o, features=True)
                                         for o in observations],
        "observation_features": lambda: [observation_features(o) for o in observations],
        "round_features": lambda: [round_features(rnd, p) for rnd, p in positions],
    }
    out = {}
    for name, call in calls.items():
        call()  # warm up (and the observations' lazy counts)
        out[name] = best_time(call, repeats, CPU) / len(positions) * 1e6
    return out


def gym_feature_steps(games: int = 3, seed: int = 0) -> dict[str, float]:
    """Agent steps per CPU second of the Gymnasium env against three GreedyBots, random
    legal actions, without and with ``solver_features=True, normalize=True``."""
    from fivecrowns.envs.gym import FiveCrownsEnv

    out = {}
    for label, on in (("Gymnasium vs greedy", False), ("  + features, normalize", True)):
        env = FiveCrownsEnv(("greedy",) * (PLAYERS - 1), solver_features=on, normalize=on)
        rng = np.random.default_rng(seed)
        steps = 0
        t0 = CPU()
        for g in range(games):
            obs, _info = env.reset(seed=seed * 1000 + g)
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _r, terminated, truncated, _info = env.step(
                    int(legal[int(rng.integers(legal.size))]))
                done = terminated or truncated
                steps += 1
        out[label] = steps / (CPU() - t0)
    return out


def test_feature_encoding(benchmark: object) -> None:
    from fivecrowns.envs.encoding import encode_observation

    observations = [rnd.observation(p) for rnd, p in _feature_positions(1)]
    benchmark.group = "features"  # type: ignore[attr-defined]
    benchmark(lambda: [encode_observation(o, features=True)  # type: ignore[operator]
                       for o in observations])


#: The parts of the script, in the order they run.
PARTS = ("adapters", "openspiel", "features")


def steps_rows(games: int, seed: int = 0, repeats: int = 3) -> list[list[object]]:
    """(loop, steps, steps per CPU second) rows of the first table: each loop of
    :data:`LOOPS` on ``games`` games, the best of ``repeats`` timings after a warm-up."""
    rows: list[list[object]] = []
    for name, loop in LOOPS.items():
        loop(1, seed + 99)  # warm up, on another game
        steps, best = _timed(loop, games, seed, repeats)
        rows.append([name, steps, steps / best])
    return rows


def _timed(loop: Callable[[int, int], int], games: int, seed: int,
           repeats: int) -> tuple[int, float]:
    """(steps of ``loop(games, seed)``, its best CPU time of ``repeats``)."""
    steps: list[int] = []
    best = best_time(lambda: steps.append(loop(games, seed)), repeats, CPU)
    return steps[-1], best


def main(argv: list[str]) -> int:
    p = parser(__doc__, quick=False, games=3, seed=0, repeat=3)
    p.add_argument("--only", choices=PARTS, action="append",
                   help="run only these parts (repeatable; all by default)")
    p.add_argument("--openspiel", dest="only", action="append_const", const="openspiel",
                   help="the same as --only openspiel")
    args = p.parse_args(argv)
    parts = [part for part in PARTS if part in (args.only or PARTS)]
    games = 1 if args.quick else args.games
    print(f"{core_line()}; seed {args.seed}; best of {args.repeat} timings")
    if "adapters" in parts:
        print(f"\nagent steps per CPU second (one core), {PLAYERS} players, random legal "
              f"actions, {games} whole game(s) a loop")
        print(table(["loop", "steps", "steps/s"], steps_rows(games, args.seed, args.repeat),
                    ["", "", ",.0f"]))
    if "openspiel" in parts:
        print("\nOpenSpiel, 2 players, 11 rounds, against gin_rummy in the same process")
        print(table(["OpenSpiel", "python_five_crowns", "gin_rummy"],
                    openspiel_table(args.quick, args.seed, args.repeat)))
    if "features" in parts:
        print(f"\nsolver features: CPU time a call, every position of random {PLAYERS}-player "
              "rounds 1..11")
        print(table(["per call (4 players)", "us"],
                    list(feature_encoding_cost(args.seed, args.repeat).items()), ["", ".1f"]))
        print(f"\nGymnasium against three GreedyBots, {games} game(s), CPU time")
        print(table(["env", "agent steps/s"], list(gym_feature_steps(games, args.seed).items()),
                    ["", ",.0f"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
