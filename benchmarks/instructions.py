"""Instructions per unit of work of the engine's rows, this tree against an older one
(0.4), counted by ``valgrind --tool=callgrind``: a figure the shared, noisy machine does
not move (issue 37 asks for no row below 0.95x 0.4; wall-clock ratios on this machine
swing by x2 between two runs of one build, see docs/notes/simulators.rst).

Each row runs a workload at two sizes, ``n1`` and ``n2``, in a fresh interpreter under
callgrind, once per tree; ``(instructions(n2) - instructions(n1)) / (n2 - n1)`` is the
cost of one unit with the interpreter's start-up (imports, compiling the sources)
cancelled. ``PYTHONHASHSEED=0`` and ``OPENBLAS_NUM_THREADS=1`` keep the counts
repeatable (OpenBLAS's idle threads otherwise spin into the count).

Run::

    python benchmarks/instructions.py --old /tmp/v04 [--only moves,clone]

The rows: ``moves`` (random legal ``Round`` moves, choices drawn beforehand), ``clone``
(``Round.clone`` of a round in play), ``aec`` (PettingZoo AEC agent steps, random legal
actions), ``gym`` (steps of the single Gymnasium environment against three StrongBots,
random legal actions, a reset when a game ends), ``spiel`` (whole 2-player, 2-round
OpenSpiel games, a Python loop of ``legal_actions``/``apply_action``), ``play_game``
(whole games of four StrongBots through ``play_game``), ``play_games``
(``rollout.play_games``, strong policy, one thread), ``play_worlds`` (a call of
``play_worlds`` over every legal move of a round-8 position, 8 worlds, strong policy) and
``decisions`` (games of ``record_decisions``, expert policy); and the solver's:
``deadwood_many`` and ``discard_many`` (4,004 random hands of 3 to 13 cards in bulk, one
thread), ``deadwood`` (1,000 of them one at a time) and ``draw_table`` (400 draw tables).
The ratio is the old tree's instructions over this tree's (above 1: this tree does less).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from _harness import aec_random_steps

ROWS = {"moves": (5000, 25000), "clone": (5000, 25000), "aec": (500, 3000),
        "gym": (500, 3000),
        "spiel": (2, 12), "play_game": (2, 12), "play_games": (10, 60),
        "play_worlds": (1, 6), "decisions": (1, 6),
        "deadwood_many": (1, 21), "discard_many": (1, 21), "draw_table": (1, 11),
        "deadwood": (1, 21)}
HERE = Path(__file__).resolve().parent.parent


def workload(what: str, n: int) -> None:
    """One run of the row ``what`` at size ``n`` (in the worker process)."""
    import fivecrowns as fc
    from fivecrowns import rollout

    rng = np.random.default_rng(0)
    if what == "moves":
        r = fc.Round(4, 8, seed=3)
        c = r.clone()
        u = rng.random(n)
        for i in range(n):
            if c.is_over:
                c = r.clone()
            a = c.legal_actions()
            c.apply_action(a[int(u[i] * len(a))])
    elif what == "clone":
        r = fc.Round(4, 8, seed=3)
        for _ in range(20):
            a = r.legal_actions()
            r.apply_action(a[int(rng.integers(len(a)))])
        for _ in range(n):
            r.clone()
    elif what == "aec":
        aec_random_steps(n)
    elif what == "gym":
        from fivecrowns.envs import FiveCrownsEnv
        env = FiveCrownsEnv(("strong", "strong", "strong"))
        obs, _ = env.reset(seed=1)
        for _ in range(n):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, term, trunc, _i = env.step(int(legal[int(rng.integers(legal.size))]))
            if term or trunc:
                obs, _ = env.reset(seed=int(rng.integers(2**31)))
    elif what == "spiel":
        import pyspiel

        from fivecrowns.envs import openspiel  # noqa: F401 (registers the game)
        game = pyspiel.load_game("python_five_crowns", {"players": 2, "rounds": 2})
        for _ in range(n):
            st = game.new_initial_state()
            while not st.is_terminal():
                a = st.legal_actions()
                st.apply_action(a[int(rng.integers(len(a)))])
    elif what == "play_game":
        for s in range(n):
            fc.play_game([fc.StrongBot() for _ in range(4)], seed=s)
    elif what == "play_games":
        rollout.play_games(n, seed=1, policy="strong", threads=1)
    elif what == "play_worlds":
        r = fc.Round(4, 8, seed=5)
        for _ in range(9):
            a = r.legal_actions()
            r.apply_action(a[int(rng.integers(len(a)))])
        for k in range(n):
            rollout.play_worlds(r, r.legal_actions(), worlds=8, seed=k, policy="strong")
    elif what == "decisions":
        from fivecrowns import decisions
        decisions.record_decisions(n, seed=1, policy="expert", threads=1)
    elif what in ("deadwood_many", "discard_many", "draw_table", "deadwood"):
        solver_workload(what, n)
    else:
        raise ValueError(f"no row {what!r}")


def solver_workload(what: str, n: int) -> None:
    """The solver's rows: 364 random hands of each size 3 to 13 (wild = size), each unit
    a pass over the 4,004 in bulk (one thread), or over 1,000 of them one at a time, or
    the draw tables of 400 of them (sizes 3 to 12: a card left to draw)."""
    import fivecrowns as fc

    counts = np.concatenate([fc.random_hands(364, k, seed=k) for k in range(3, 14)])
    wilds = np.repeat(np.arange(3, 14, dtype=np.int8), 364)
    order = np.random.default_rng(5).permutation(len(counts))
    counts, wilds = counts[order], wilds[order]
    drawn = [k for k in range(len(counts)) if wilds[k] < 13][:400]
    for _ in range(n):
        if what == "deadwood_many":
            fc.deadwood_many(counts, wilds, threads=1)
        elif what == "discard_many":
            fc.discard_deadwood_many(counts, wilds, threads=1)
        elif what == "deadwood":
            for k in range(1000):
                fc.deadwood(counts[k], int(wilds[k]))
        else:
            for k in drawn:
                fc.draw_table(counts[k], int(wilds[k]))


def count(tree: Path | None, what: str, n: int) -> int:
    """Instructions of one worker run under callgrind, ``tree``'s ``src`` first on the
    path (None: this tree, as installed)."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    env.pop("PYTHONPATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree / "src")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve()), "--worker", what, str(n)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    found = re.search(r"Collected\s*:\s*(\d+)", out)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{out[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=False, help="a checkout of the older "
                    "release with its core built in place (e.g. /tmp/v04)")
    ap.add_argument("--only", default=",".join(ROWS), help="rows, comma-separated")
    ap.add_argument("--worker", nargs=2, metavar=("ROW", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        workload(args.worker[0], int(args.worker[1]))
        return
    if args.old is None:
        ap.error("--old is required")
    print(f"{'row':12} {'this tree':>12} {'old':>12} {'old/this':>9}  (instructions a unit)")
    for what in args.only.split(","):
        n1, n2 = ROWS[what]
        per = []
        for tree in (None, args.old):
            per.append((count(tree, what, n2) - count(tree, what, n1)) / (n2 - n1))
        print(f"{what:12} {per[0]:12,.0f} {per[1]:12,.0f} {per[1] / per[0]:9.3f}", flush=True)


if __name__ == "__main__":
    main()
