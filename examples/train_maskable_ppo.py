"""The training recipe: MaskablePPO (sb3-contrib) on the vector environment, against
three GreedyBots, with the solver features in the observation; then an evaluation.

Needs ``pip install "fivecrowns[train]"`` (sb3-contrib and torch; install a CPU build of
torch first, ``pip install torch --index-url https://download.pytorch.org/whl/cpu``, or pip
fetches the CUDA one). Train for 30 minutes of wall-clock time, save the model, and
evaluate it over 1,000 seeded games::

    python examples/train_maskable_ppo.py --minutes 30 --out model.zip --eval-games 1000

Evaluate a saved model again (no training)::

    python examples/train_maskable_ppo.py --eval-only model.zip --eval-games 1000

The recipe, and why (each part is a flag; docs/frameworks.rst, Training, has the result):

- **Observations**: ``solver_features=True, normalize=True``. The policy network
  (:class:`SolverSkip`, ``--arch skip``) passes the solver features beside its hidden
  layers to a linear policy head, so "the deadwood that discarding t leaves" weighs on the
  logit of discarding t directly.
- **Warm start** (``--imitate 5``: 5 of the budget's minutes): half the time playing
  GreedyBot games with a GreedyBot in the agent's seat, half fitting the policy to its
  choices and the value function to its returns (supervised). PPO from nothing learns too
  slowly for a 30-minute budget on a loaded 2-core machine.
- **PPO** for the rest of the budget (``--lr 1e-4``, low so as to refine the warm start
  rather than unlearn it) on :class:`~fivecrowns.envs.vector.FiveCrownsVectorEnv`
  (``--route vector``): 64 games stepped in C in one call, the agent's seat rotated game
  by game (``seat=[g % 4]``), through :func:`~fivecrowns.envs.sb3.to_sb3`; 32 steps a game
  per update, the same 2,048 a rollout as 8 games of 256, and 2 passes over it in
  minibatches of 512 (the games are cheap enough now that fresh ones beat going over old
  ones five times: the update, not the games, had become most of the time). One torch
  thread: on a shared, loaded 2-core machine two were much slower. ``--route single``
  trains on 8 (``--envs``) single Gymnasium environments instead (``DummyVecEnv``, or
  ``--subproc``), 5 passes in minibatches of 256, as 0.4's recipe did.
- **Rewards**: minus the points, times ``--reward-scale`` (0.01), plus a potential-based
  shaping term on the deadwood kept (:class:`ShapedReward`, on every game of the vector
  at once), which ranks policies as the game does and rewards a good discard at once
  instead of at the round's end.

With ``--steps`` and ``--imitate 0`` a seed gives the same model every time; a wall-clock
budget gives whatever the machine reaches in the time.

The evaluation plays whole 11-round games, the agent in seat ``g % 4`` of game ``g``
(seats rotated) against three GreedyBots, on deals seeded from ``--seed`` that training
never saw. The agent picks its most likely legal action (a deterministic policy). For each
game it counts the agent's total less the mean of the opponents' totals (lower is better:
negative means the agent beat the bots on average) and reports the mean of that paired
difference with its 95% interval (:func:`fivecrowns.stats.mean_interval`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

try:
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import (
        DummyVecEnv,
        SubprocVecEnv,
        VecEnv,
        VecEnvWrapper,
        VecMonitor,
    )
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(f"this example needs the [train] extra (sb3-contrib and torch): {exc}")

from fivecrowns import GreedyBot, player_action
from fivecrowns.envs.features import BLOCKS, feature_size
from fivecrowns.envs.gym import FiveCrownsEnv
from fivecrowns.envs.sb3 import to_sb3
from fivecrowns.envs.vector import FiveCrownsVectorEnv
from fivecrowns.stats import mean_interval

#: Evaluation deals are seeded from seed + EVAL_OFFSET + g, away from the training seeds.
EVAL_OFFSET = 1_000_000


#: Index of the solver feature "now" in the observation vector, counted from its end: the
#: deadwood (divided by 100) of the hand the player keeps (fivecrowns.envs.features).
NOW = BLOCKS["now"].start - feature_size()


def potential(vec: np.ndarray, args: argparse.Namespace) -> np.ndarray:
    """The shaping potential of observation vectors (the last axis): ``-shaping *
    deadwood * scale``, the deadwood of the hand kept (the solver feature "now", divided
    by 100 in the vector)."""
    return -args.shaping * vec[..., NOW].astype(np.float64) * 100.0 * args.reward_scale


class ShapedReward(VecEnvWrapper):
    """Rewards multiplied by ``scale``, plus a potential-based shaping term, for every
    game of a ``VecEnv``.

    Round scores reach 200+ points; PPO's value function learns faster on rewards of order
    1. The shaping adds ``gamma * phi(next) - phi(now)`` with ``phi`` from
    :func:`potential`, and ``phi = 0`` once a game is over. Such a term changes no
    policy's ranking (the terms telescope to ``-phi(start)`` over an episode), but it tells
    the agent at once that a discard left more deadwood than it could have, instead of at
    the end of the round. A game whose episode ends starts the next at once (the
    observation given is the next episode's first): its last step's ``phi(next)`` is 0
    where the game ended, the ended episode's last observation's where a time limit cut it.
    Keeps ``action_masks`` (``env_method``, which the wrapper forwards).
    """

    def __init__(self, venv: VecEnv, args: argparse.Namespace) -> None:
        super().__init__(venv)
        self.args = args
        self._phi = np.zeros(venv.num_envs)

    def reset(self) -> Any:
        obs = self.venv.reset()
        self._phi = potential(obs["observation"], self.args)
        return obs

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = self.venv.step_wait()
        phi = potential(obs["observation"], self.args)  # the next decision's
        ending = phi.copy()
        for i in np.flatnonzero(dones):
            cut = infos[i].get("TimeLimit.truncated", False)
            ending[i] = (potential(infos[i]["terminal_observation"]["observation"], self.args)
                         if cut else 0.0)
        shaped = rewards * self.args.reward_scale + self.args.gamma * ending - self._phi
        self._phi = phi
        return obs, shaped.astype(np.float32), dones, infos


class SolverSkip(BaseFeaturesExtractor):
    """An MLP of the observation vector, with the solver features passed on beside it.

    The policy head is then linear in the raw features: the discard block's entry for card
    type ``t`` (the deadwood that discarding ``t`` leaves) can weigh on the logits of
    actions ``2 + t`` and ``58 + t`` (discard ``t``, discard it and go out) directly,
    instead of through two hidden layers. The default MLP learns the same far more slowly.
    """

    def __init__(self, observation_space: gymnasium.spaces.Dict, width: int = 256) -> None:
        n_in = int(observation_space["observation"].shape[0])
        super().__init__(observation_space, features_dim=width + feature_size())
        self.mlp = torch.nn.Sequential(torch.nn.Linear(n_in, width), torch.nn.ReLU(),
                                       torch.nn.Linear(width, width), torch.nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        vec = observations["observation"]
        # the features are the vector's last entries (encode_observation appends them)
        return torch.cat([self.mlp(vec), vec[:, -feature_size():]], dim=1)


def make_env(opponents: tuple[str, ...], seat: int = 0) -> Any:
    """A factory for one single training environment (``--route single``)."""
    def thunk() -> gymnasium.Env:  # type: ignore[type-arg]
        return FiveCrownsEnv(opponents=opponents, seat=seat, solver_features=True,
                             normalize=True)
    return thunk


def training_games(opponents: tuple[str, ...], args: argparse.Namespace) -> VecEnv:
    """The training games, the agent's seat rotated game by game, as one ``VecEnv`` whose
    rewards are shaped (VecMonitor below the shaping records the true game totals)."""
    if args.route == "vector":
        games = FiveCrownsVectorEnv(args.envs, opponents, seat=np.arange(args.envs) % 4,
                                    solver_features=True, normalize=True)
        vec: VecEnv = to_sb3(games, seed=args.seed)
    else:
        fns = [make_env(opponents, seat=i % 4) for i in range(args.envs)]
        vec = SubprocVecEnv(fns) if args.subproc else DummyVecEnv(fns)
        vec.seed(args.seed)
    return ShapedReward(VecMonitor(vec), args)


class Deadline(BaseCallback):
    """Stops training after ``seconds`` of wall-clock time; prints progress."""

    def __init__(self, seconds: float, every: float = 60.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.every = every
        self.start = time.monotonic()
        self.last = self.start

    def _on_training_start(self) -> None:
        self.start = self.last = time.monotonic()

    def _on_step(self) -> bool:
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            # VecMonitor records the unscaled rewards: minus the game totals
            totals = [-ep["r"] for ep in self.model.ep_info_buffer]
            mean = f"{np.mean(totals):.1f}" if totals else "n/a"
            print(f"  {now - self.start:6.0f} s  {self.num_timesteps:>9,} steps  "
                  f"mean total of the last {len(totals)} training games: {mean}", flush=True)
        return now - self.start < self.seconds


def greedy_episodes(args: argparse.Namespace, seconds: float
                    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Whole games with a GreedyBot in the agent's seat, for ``seconds``: the agent's
    observations, the GreedyBot's actions, and the discounted (shaped, scaled) returns."""
    obs_rows: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    start = time.monotonic()
    g = 0
    while time.monotonic() - start < seconds or g == 0:
        env = make_env(("greedy",) * 3, seat=g % 4)()
        teacher = GreedyBot()
        o, _ = env.reset(seed=args.seed + 2 * EVAL_OFFSET + g)
        game = env.unwrapped.game  # type: ignore[attr-defined]
        seat = g % 4
        rewards: list[float] = []
        phi = float(potential(o["observation"], args))
        while True:
            view = game.observation(seat)
            a = player_action(teacher, view)
            obs_rows.append(o["observation"])
            masks.append(o["action_mask"].astype(bool))
            actions.append(a)
            o, r, terminated, truncated, _ = env.step(a)
            # the shaped reward, as ShapedReward gives it in training
            nxt = 0.0 if terminated else float(potential(o["observation"], args))
            rewards.append(r * args.reward_scale + args.gamma * nxt - phi)
            phi = nxt
            if terminated or truncated:
                break
        ret = 0.0
        back = []
        for r in reversed(rewards):
            ret = r + args.gamma * ret
            back.append(ret)
        returns.extend(reversed(back))
        g += 1
    print(f"  imitation: {g} games, {len(actions):,} decisions of a GreedyBot in "
          f"{time.monotonic() - start:.0f} s", flush=True)
    obs = {"observation": np.stack(obs_rows), "action_mask": np.stack(masks).astype(np.int8)}
    return obs, np.array(actions), np.array(returns, dtype=np.float32)


def imitate(model: MaskablePPO, args: argparse.Namespace, seconds: float) -> None:
    """Warm start: fit the policy to a GreedyBot's choices and the value function to the
    returns of its games (supervised, half the time collecting, half fitting)."""
    obs, actions, returns = greedy_episodes(args, seconds / 2)
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    n = len(actions)
    rng = np.random.default_rng(args.seed)
    start = time.monotonic()
    epoch = 0
    t_obs = {k: torch.as_tensor(v) for k, v in obs.items()}
    t_act = torch.as_tensor(actions)
    t_ret = torch.as_tensor(returns)
    t_mask = t_obs["action_mask"].bool()
    while time.monotonic() - start < seconds / 2 or epoch == 0:
        order = torch.as_tensor(rng.permutation(n))
        hits = 0.0
        for i in range(0, n, 256):
            b = order[i:i + 256]
            values, logp, _ = policy.evaluate_actions(
                {k: v[b] for k, v in t_obs.items()}, t_act[b], action_masks=t_mask[b])
            loss = -logp.mean() + 0.5 * ((values.flatten() - t_ret[b]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            hits += float((logp > -0.693).sum())  # the teacher's action has p > 1/2
        epoch += 1
    print(f"  imitation: {epoch} epochs, the GreedyBot's action most likely in "
          f"{hits / n:.1%} of its decisions ({time.monotonic() - start:.0f} s)", flush=True)


def train(args: argparse.Namespace) -> MaskablePPO:
    torch.set_num_threads(args.threads)
    opponents = ("greedy",) * 3
    # seats vary across the training envs, so the agent learns every seat
    vec = training_games(opponents, args)
    width = args.width
    if args.arch == "skip":
        # the shared extractor is the hidden layers; the policy head is linear on top
        policy_kwargs: dict[str, Any] = {
            "features_extractor_class": SolverSkip,
            "features_extractor_kwargs": {"width": width},
            "net_arch": {"pi": [], "vf": [width]}}
    else:
        policy_kwargs = {"net_arch": {"pi": [width, width], "vf": [width, width]},
                         "activation_fn": torch.nn.ReLU}
    model = MaskablePPO(
        "MultiInputPolicy", vec, seed=args.seed, verbose=0, device="cpu",
        n_steps=args.n_steps, batch_size=args.batch_size, learning_rate=args.lr,
        n_epochs=args.epochs, gamma=args.gamma, gae_lambda=0.95, ent_coef=args.ent_coef,
        policy_kwargs=policy_kwargs)
    # a logger that writes nothing: sb3's default makes an empty SB3-* folder in /tmp
    model.set_logger(Logger(folder=None, output_formats=[]))
    budget = args.minutes * 60 if args.minutes else float("inf")
    steps = args.steps if args.steps else 10**12
    t0 = time.monotonic()
    if args.minutes:
        args.imitate = min(args.imitate, args.minutes)
    if args.imitate:
        # inside the budget: the warm start counts as training time
        imitate(model, args, args.imitate * 60)
        budget -= time.monotonic() - t0
    t1 = time.monotonic()
    model.learn(total_timesteps=steps, callback=Deadline(budget))
    took = time.monotonic() - t1
    vec.close()
    print(f"trained {model.num_timesteps:,} PPO steps in {took / 60:.1f} min "
          f"({model.num_timesteps / took:,.0f} steps/s, {args.envs} envs, {args.route} route, "
          f"{args.threads} torch threads); {(time.monotonic() - t0) / 60:.1f} min in all")
    model.save(args.out)
    print(f"saved the model to {args.out}")
    return model


def evaluate(model: MaskablePPO, games: int, seed: int, batch: int = 64,
             opponent: str = "greedy") -> dict[str, Any]:
    """Play ``games`` seeded games, the agent in seat ``g % 4``, ``batch`` at a time."""
    n = 4
    totals = np.zeros((games, n), dtype=np.int64)
    seats = np.arange(games) % n
    envs: dict[int, FiveCrownsEnv] = {}
    obs: dict[int, dict[str, np.ndarray]] = {}
    pending = iter(range(games))

    def start(g: int) -> None:
        env = FiveCrownsEnv(opponents=(opponent,) * 3, seat=int(seats[g]),
                            solver_features=True, normalize=True)
        obs[g], _ = env.reset(seed=seed + EVAL_OFFSET + g)
        envs[g] = env

    for _ in range(min(batch, games)):
        start(next(pending))
    with torch.no_grad():
        while envs:
            ids = list(envs)
            stacked = {k: np.stack([obs[g][k] for g in ids]) for k in ("observation",
                                                                         "action_mask")}
            masks = stacked["action_mask"].astype(bool)
            actions, _ = model.predict(stacked, action_masks=masks, deterministic=True)
            for g, a in zip(ids, actions):
                o, _, terminated, truncated, info = envs[g].step(int(a))
                if terminated or truncated:
                    if "illegal_action" in info or truncated:
                        raise RuntimeError(f"game {g} ended early: {info}")
                    totals[g] = info["totals"]
                    del envs[g], obs[g]
                    nxt = next(pending, None)
                    if nxt is not None:
                        start(nxt)
                else:
                    obs[g] = o
    agent = totals[np.arange(games), seats]
    others = (totals.sum(axis=1) - agent) / (n - 1)
    won = totals.min(axis=1) == agent
    return {"agent": mean_interval(agent), "opponents": mean_interval(others),
            "diff": mean_interval(agent - others), "wins": float(won.mean()),
            "games": games}


def report(result: dict[str, Any], opponent: str) -> None:
    name = {"greedy": "GreedyBots", "strong": "StrongBots", "random": "RandomBots"}[opponent]
    g = result["games"]
    print(f"evaluation over {g:,} seeded games against three {name}, seats rotated:")
    for label, key in (("agent's mean game total", "agent"),
                       (f"{name}' mean game total", "opponents"),
                       ("agent minus opponents (paired)", "diff")):
        m, (lo, hi) = result[key]
        print(f"  {label:32s} {m:8.1f}   95% interval [{lo:.1f}, {hi:.1f}]")
    print(f"  agent won (lowest total, ties included) {result['wins']:.1%} of games")
    hi = result["diff"][1][1]
    verdict = "below" if hi < 0 else "not below"
    print(f"target (mean total below the {name}'): {verdict} (95% interval upper end "
          f"{hi:+.1f})")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=None,
                   help="wall-clock training budget in minutes (default: none)")
    p.add_argument("--steps", type=int, default=None,
                   help="training steps (default: none; with --minutes, whichever comes first)")
    p.add_argument("--out", default="model.zip", help="where to save the model")
    p.add_argument("--eval-only", metavar="MODEL", default=None,
                   help="load this model and only evaluate it")
    p.add_argument("--eval-games", type=int, default=1000, help="evaluation games")
    p.add_argument("--eval-opponent", choices=("greedy", "strong", "random"),
                   default="greedy", help="the bots of the evaluation games")
    p.add_argument("--seed", type=int, default=0, help="seeds training and evaluation")
    p.add_argument("--route", choices=("vector", "single"), default="vector",
                   help="vector: the games of one FiveCrownsVectorEnv, stepped in C; "
                        "single: one FiveCrownsEnv a game (0.4's recipe)")
    p.add_argument("--envs", type=int, default=None,
                   help="training games (default: 64 on the vector route, 8 on single)")
    p.add_argument("--subproc", action="store_true",
                   help="--route single: step the environments in subprocesses")
    p.add_argument("--threads", type=int, default=None,
                   help="torch threads (default: 2 on the vector route, whose games take a "
                        "small share of a core; 1 on single, where the games take one)")
    p.add_argument("--n-steps", type=int, default=None,
                   help="PPO steps per game per update (default: 2,048 a rollout in all, "
                        "32 a game of 64, 256 a game of 8)")
    p.add_argument("--batch-size", type=int, default=None,
                   help="PPO's minibatch (default: 512 on the vector route, 256 on single)")
    p.add_argument("--epochs", type=int, default=None,
                   help="PPO's passes over a rollout (default: 2 on the vector route, whose "
                        "games are cheap enough to take fresh ones instead; 5 on single)")
    p.add_argument("--lr", type=float, default=1e-4,
                   help="PPO's learning rate (low: it fine-tunes the warm start)")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--arch", choices=("skip", "mlp"), default="skip",
                   help="skip: an MLP with the solver features passed beside it to a linear "
                        "policy head (SolverSkip); mlp: sb3's MLP policy")
    p.add_argument("--width", type=int, default=256, help="hidden units per layer")
    p.add_argument("--imitate", type=float, default=5.0, metavar="MINUTES",
                   help="first imitate a GreedyBot for this many minutes, part of the "
                        "budget --minutes (0: PPO from scratch)")
    p.add_argument("--reward-scale", type=float, default=0.01,
                   help="rewards (minus points) are multiplied by this")
    p.add_argument("--shaping", type=float, default=1.0,
                   help="weight of the deadwood potential shaping (0: none)")
    args = p.parse_args(argv)
    if args.envs is None:
        args.envs = 64 if args.route == "vector" else 8
    if args.n_steps is None:
        args.n_steps = max(1, 2048 // args.envs)
    vector = args.route == "vector"
    if args.batch_size is None:
        args.batch_size = 512 if vector else 256
    if args.epochs is None:
        args.epochs = 2 if vector else 5
    if args.threads is None:
        args.threads = 2 if vector else 1
    if args.threads < 1:
        p.error("--threads must be at least 1")
    if args.subproc and args.route != "single":
        p.error("--subproc steps single environments: give --route single")
    if args.eval_games < 1:
        p.error("--eval-games must be at least 1")
    if args.eval_only is None and not (args.minutes or args.steps):
        p.error("give a training budget (--minutes and/or --steps), or --eval-only MODEL")

    if args.eval_only is not None:
        if not os.path.exists(args.eval_only):
            p.error(f"no model file {args.eval_only!r}")
        torch.set_num_threads(args.threads)
        model = MaskablePPO.load(args.eval_only, device="cpu")
        print(f"loaded {args.eval_only}")
    else:
        model = train(args)
    t0 = time.monotonic()
    result = evaluate(model, args.eval_games, args.seed, opponent=args.eval_opponent)
    print(f"evaluated in {time.monotonic() - t0:.0f} s")
    report(result, args.eval_opponent)


if __name__ == "__main__":
    main()
