"""The built-in bots' time a decision, by the engine's compiled policies (what the bots do
now) and by their own Python (their specification), on the same observations: the
observations every seat to move got in whole games of four (GreedyBot, StrongBot,
ExpertBot, StrongBot), each decided by each bot.

    python benchmarks/bench_bot_decisions.py [--games 4] [--seed 1] [--repeat 3]

Prints microseconds a decision (median and 95th percentile of the per-observation times,
the best of ``--repeat`` passes) and the ratio, Python over compiled, for each bot.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from fivecrowns import ExpertBot, GreedyBot, StrongBot, _state, player_action
from fivecrowns.game import Game
from fivecrowns.records import Observation, Phase


def observations(games: int, seed: int) -> list[Observation]:
    out = []
    for k in range(games):
        bots = [GreedyBot(), StrongBot(), ExpertBot(), StrongBot()]
        game = Game(4, seed=seed + k)
        while not game.is_over:
            obs = game.observation(game.current_player)
            obs.unseen_counts  # noqa: B018 - made once here, as a bot's first read makes it
            out.append(obs)
            game.apply_action(player_action(bots[game.current_player], obs))
    return out


def times(cls: type, obs: list[Observation], repeat: int) -> np.ndarray:
    """Seconds a decision for each observation, the best of ``repeat`` passes."""
    best = np.full(len(obs), np.inf)
    for _ in range(repeat):
        bot = cls()
        for i, o in enumerate(obs):
            t = time.perf_counter()
            if o.phase is Phase.DRAW:
                bot.choose_draw(o)
            else:
                bot.choose_discard(o)
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if _state.policies_core is None:
        print("the compiled engine is not in use here: nothing to compare", file=sys.stderr)
        return 1
    obs = observations(args.games, args.seed)
    print(f"{len(obs)} observations of {args.games} games of four (seed {args.seed}), "
          f"best of {args.repeat} passes; microseconds a decision")
    print(f"{'bot':<10} {'compiled p50':>13} {'p95':>8} {'Python p50':>11} {'p95':>8} "
          f"{'Python/compiled (mean)':>23}")
    core = _state.policies_core
    for cls in (GreedyBot, StrongBot, ExpertBot):
        fast = times(cls, obs, args.repeat)
        _state.policies_core = None
        try:
            slow = times(cls, obs, args.repeat)
        finally:
            _state.policies_core = core
        print(f"{cls.__name__:<10} {np.median(fast) * 1e6:>13.1f} "
              f"{np.percentile(fast, 95) * 1e6:>8.1f} {np.median(slow) * 1e6:>11.1f} "
              f"{np.percentile(slow, 95) * 1e6:>8.1f} {slow.mean() / fast.mean():>22.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
