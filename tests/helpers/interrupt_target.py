"""One long call, to be stopped by SIGINT: the child process of ``test_interrupt.py`` and of
``benchmarks/soak_memory.py --interrupt``.

    python tests/helpers/interrupt_target.py CALL FOLDER [--size N]

Prepares the call's inputs in FOLDER, prints ``READY`` on standard output, then runs the
call (far longer than a test waits, unless ``--size`` is small). When it ends, by
``KeyboardInterrupt`` or otherwise, it prints one JSON line: whether it was interrupted,
the threads still alive besides the main one, the child processes still alive, and the
files in FOLDER; the exit status is 130 after an interrupt, else 0.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

# The long calls, by name: each takes (folder, size) and returns the call to interrupt.
# Sizes are chosen so that a whole call takes minutes on a 2-core machine.
CALLS: dict[str, Callable[[Path, int], Callable[[], object]]] = {}
DEFAULT_SIZES: dict[str, int] = {}


def call(name: str, size: int) -> Callable[[Callable[[Path, int], Callable[[], object]]],
                                            Callable[[Path, int], Callable[[], object]]]:
    def register(fn: Callable[[Path, int], Callable[[], object]]
                 ) -> Callable[[Path, int], Callable[[], object]]:
        CALLS[name], DEFAULT_SIZES[name] = fn, size
        return fn
    return register


@call("play_games", 10**6)
def _play_games(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns.rollout import play_games

    return lambda: play_games(size, seed=1, threads=1)


@call("play_games_threads", 10**6)
def _play_games_threads(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns.rollout import play_games

    return lambda: play_games(size, seed=1, threads=2, policy="strong")


@call("play_out", 10**6)
def _play_out(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns.rollout import deal_rounds, play_out

    # the same thousand rounds over and over: play_out only reads them
    rounds = deal_rounds(1000, seed=1, round_number=11) * max(1, size // 1000)
    return lambda: play_out(rounds, policy="strong", threads=2)


def _slow_hands(size: int) -> tuple[np.ndarray, np.ndarray]:
    from fivecrowns.bench import adversarial_hands

    hands, wilds = adversarial_hands(1000, seed=1)  # the slowest kind of hand
    reps = max(1, size // 1000)
    return np.tile(hands, (reps, 1)), np.tile(wilds, reps)


@call("deadwood_many", 10**6)
def _deadwood_many(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns import deadwood_many

    hands, wilds = _slow_hands(size)

    def run() -> None:
        # A million hands take well under a second on two idle cores, and a larger array
        # would take gigabytes: the same call again and again, for minutes, so that the
        # signal lands inside one of them.
        for _ in range(1000):
            deadwood_many(hands, wilds, threads=2)
    return run


def _npy_hands(folder: Path, size: int) -> Path:
    hands, _ = _slow_hands(size)
    src = folder / "hands.npy"
    np.save(src, hands)
    return src


@call("score_file", 2 * 10**6)
def _score_file(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns.files import score_file

    src = _npy_hands(folder, size)
    return lambda: score_file(src, folder / "scored.npy", wild=13, discard=True)


@call("simulate_games", 10**5)
def _simulate_games(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns import StrongBot, simulate_games

    return lambda: simulate_games([StrongBot] * 4, size, seed=1, jobs=2)


@call("write_decisions", 10**5)
def _write_decisions(folder: Path, size: int) -> Callable[[], object]:
    from fivecrowns.decisions import write_decisions

    return lambda: write_decisions(folder / "decisions.npz", size, seed=1, policy="expert",
                                   chunk_games=8, threads=2)


class CommandStopped(Exception):
    """The command line caught the interrupt itself (exit status 130)."""


def _cli(argv: list[str]) -> Callable[[], object]:
    from fivecrowns.cli import main

    def run() -> object:
        code = main(argv)
        if code == 130:
            raise CommandStopped
        return code
    return run


@call("cli_simulate", 10**5)
def _cli_simulate(folder: Path, size: int) -> Callable[[], object]:
    return _cli(["simulate", "--games", str(size), "--bots", "strong,strong,strong,strong",
                 "--jobs", "2", "--quiet", "--out", str(folder / "games.jsonl")])


@call("cli_score", 2 * 10**6)
def _cli_score(folder: Path, size: int) -> Callable[[], object]:
    src = _npy_hands(folder, size)
    return _cli(["score", str(src), str(folder / "scored.npy"), "--wild", "13", "--quiet"])


def main(argv: list[str] | None = None) -> int:
    # Ctrl-C at a terminal reaches a program whose SIGINT is at its default. A child of a
    # background job (a non-interactive shell's "&", nohup) inherits SIGINT ignored, and
    # Python then raises no KeyboardInterrupt at all: restore the default, so the test
    # checks the same thing wherever the suite is started from.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("call", choices=sorted(CALLS), help="the long call to run")
    parser.add_argument("folder", type=Path, help="where its inputs and outputs go")
    parser.add_argument("--size", type=int, help="its size (default: minutes of work)")
    args = parser.parse_args(argv)
    size = DEFAULT_SIZES[args.call] if args.size is None else args.size
    run = CALLS[args.call](args.folder, size)
    print("READY", flush=True)
    interrupted = False
    try:
        run()
    except (KeyboardInterrupt, CommandStopped):
        interrupted = True
    report = {
        "call": args.call,
        "interrupted": interrupted,
        "threads": [t.name for t in threading.enumerate() if t is not threading.main_thread()],
        "children": [p.pid for p in multiprocessing.active_children()],
        "files": sorted(os.listdir(args.folder)),
    }
    print(json.dumps(report), flush=True)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
