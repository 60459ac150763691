"""Memory bounded in n (issue 24): long calls work piece by piece, and the pieces change
nothing in the results.

The memory checks trace allocations (tracemalloc sees numpy's arrays and the bit
generators) and compare the peak at two sizes: it may grow by the result's growth and
a small slack, never per game. ``benchmarks/soak_memory.py`` measures peak RSS up to
10**7 games."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecrowns import Rules, rollout
from fivecrowns._threads import _split_work, run_threaded
from fivecrowns.rollout import _generators, _states, deal_rounds, play_games, play_out
from fivecrowns.runner import run_in_order
from fivecrowns.seeding import bot_seeds, game_seeds, game_seeds_range
from helpers.engines import compiled_engine

_rollout = pytest.importorskip("fivecrowns._rollout")
pytestmark = pytest.mark.slow  # memory measured over long runs


# -- seeds of a range of games --------------------------------------------------------------

@given(st.integers(0, 2**130), st.integers(0, 300), st.integers(0, 300))
def test_game_seeds_range_is_a_slice_of_game_seeds(seed: int, a: int, b: int) -> None:
    start, stop = min(a, b), max(a, b)
    assert game_seeds_range(seed, start, stop) == game_seeds(seed, 300)[start:stop]


def test_game_seeds_range_far_out() -> None:
    every = game_seeds(2026, 70_000)
    assert game_seeds_range(2026, 65_530, 70_000) == every[65_530:]
    assert game_seeds_range(2026, 5, 5) == []
    with pytest.raises(ValueError, match="non-negative"):
        game_seeds_range(1, -1, 3)


# -- the pieces --------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 7, 100, 1000, 4097])
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("most", [1, 64, 1 << 16])
def test_pieces_cover_the_range_once_and_are_bounded(n: int, threads: int, most: int) -> None:
    pieces = list(_split_work(n, threads, most))
    assert [a for a, _ in pieces] == ([0] + [b for _, b in pieces[:-1]] if n else [])
    assert (pieces[-1][1] if pieces else 0) == n
    assert all(0 < b - a <= most for a, b in pieces)
    done = np.zeros(n, dtype=int)

    def mark(a: int, b: int) -> None:
        done[a:b] += 1

    run_threaded(mark, n, threads, most)
    assert (done == 1).all()


def test_a_failing_piece_stops_the_rest() -> None:
    started: list[int] = []

    def work(a: int, b: int) -> None:
        started.append(a)
        if a == 0:
            raise RuntimeError("boom")

    for threads in (1, 2):
        started.clear()
        with pytest.raises(RuntimeError, match="boom"):
            run_threaded(work, 10_000, threads, 10)
        # the first piece failed: the pieces in flight may have run, no others
        assert len(started) <= 1 + threads * 2


# -- the same results, however the work is cut ------------------------------------------------

def _games_at_once(n: int, seed: int, policy: str, n_players: int = 4,
                   rounds: list[int] | None = None) -> np.ndarray:
    """play_games as 0.2 played them: every game's generator made up front, one call."""
    code = rollout.POLICIES.index(policy)
    generators = [np.random.PCG64(s) for s in game_seeds(seed, n)]
    choices = None if policy != "random" else [np.random.PCG64(bot_seeds(seed, g, 1)[0])
                                               for g in range(n)]
    r = Rules()
    plan = np.array(range(1, 12) if rounds is None else rounds, dtype=np.int8)
    return _rollout.play_games(generators, choices, n_players, r.decks, r.max_turns,
                               r.return_discard, plan, 0, code, 1)


@pytest.mark.parametrize("policy,n", [("greedy", 301), ("random", 150), ("strong", 70)])
@pytest.mark.parametrize("piece", [1, 16, 1024])
def test_play_games_does_not_depend_on_pieces_or_threads(
        monkeypatch: pytest.MonkeyPatch, policy: str, n: int, piece: int) -> None:
    compiled_engine()  # pieces and threads are the compiled engine's
    expected = _games_at_once(n, 41, policy, rounds=[1, 5, 11])
    monkeypatch.setitem(rollout._GAMES_PER_PIECE, policy, piece)
    for threads in (1, 2, 3):
        got = play_games(n, seed=41, policy=policy, rounds=[1, 5, 11], threads=threads)
        assert np.array_equal(got, expected), (piece, threads)


@pytest.mark.parametrize("policy", rollout.POLICIES)
@pytest.mark.parametrize("piece", [1, 33, 512])
def test_play_out_does_not_depend_on_pieces_or_threads(
        monkeypatch: pytest.MonkeyPatch, policy: str, piece: int) -> None:
    compiled_engine()  # pieces and threads are the compiled engine's
    rounds = deal_rounds(101, seed=5, n_players=3, round_number=4)
    code = rollout.POLICIES.index(policy)
    choices = None if policy != "random" else [np.random.PCG64(s)
                                               for s in game_seeds(9, len(rounds))]
    states = _states(rounds)
    expected = _rollout.play_rounds(states, _generators(states), choices, code, 1)[:, :3]
    monkeypatch.setattr(rollout, "_ROUNDS_PER_PIECE", piece)
    for threads in (1, 2, 3):
        got = play_out(rounds, policy=policy, seed=9, threads=threads)
        assert got.dtype == np.int32 and got.flags.c_contiguous
        assert np.array_equal(got, expected), (piece, threads)


# -- memory --------------------------------------------------------------------------------

def _peak(call: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


SLACK = 256 * 1024


@pytest.mark.parametrize("threads", [1, 2])
def test_play_games_memory_is_the_result_and_a_bounded_working_set(
        monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    compiled_engine()  # pieces and threads are the compiled engine's
    # small pieces, so that the small run already has many: 0.2 held ~700 bytes a game
    # (2.7 MB more for the larger run), the result grows by 32 bytes a game
    monkeypatch.setitem(rollout._GAMES_PER_PIECE, "greedy", 64)
    small, large = 512, 4_352

    def run(n: int) -> int:
        return _peak(lambda: play_games(n, seed=3, rounds=[1], threads=threads))

    run(small)  # warm up: imports, the pool's first threads
    grown = run(large) - run(small)
    result = (large - small) * 4 * 8
    assert grown <= result + SLACK, (grown, result)


def test_play_out_memory_is_the_result_and_a_bounded_working_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled_engine()  # pieces and threads are the compiled engine's
    # 0.2 packed every round at once, about 5 kB a round; the result is 8 bytes a round
    monkeypatch.setattr(rollout, "_ROUNDS_PER_PIECE", 32)
    rounds = deal_rounds(2_048, seed=1, n_players=2, round_number=1)

    def run(n: int) -> int:
        return _peak(lambda: play_out(rounds[:n], threads=2))

    run(256)
    grown = run(2_048) - run(256)
    result = (2_048 - 256) * 2 * 4 + (2_048 - 256) * 8  # scores and the list of rounds
    assert grown <= result + SLACK, (grown, result)


# -- simulate_games ------------------------------------------------------------------------

def test_simulate_games_keeps_its_report_not_every_outcome() -> None:
    """0.2 kept every game's work item and outcome as Python objects until the end. At
    these sizes (1-round games) its peak grew about 1,010 bytes a game, now about 580: the
    report (the seeds, scores and win shares, about 110) and the games' garbage that the
    collector has not reached yet, which is most of the rest at small sizes.
    ``test_the_runner_reads_items_as_the_work_goes`` checks the streaming itself."""
    from fivecrowns import GreedyBot, simulate_games

    def run(n: int) -> int:
        return _peak(lambda: simulate_games([GreedyBot] * 4, n, seed=1, rounds=[1]))

    run(50)
    small, large = 200, 1_200
    per_game = (run(large) - run(small)) / (large - small)
    assert per_game < 800, per_game


class _Watched(Sequence[int]):
    """Items that record the highest index read."""

    def __init__(self, n: int) -> None:
        self.n, self.highest = n, -1

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: Any) -> Any:
        assert isinstance(i, int), "the runner reads items one by one"
        self.highest = max(self.highest, i)
        return i


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_runner_reads_items_as_the_work_goes(jobs: int) -> None:
    items = _Watched(400)
    read_when: list[int] = []
    out = run_in_order(abs, items, jobs=jobs, chunk_size=4,
                       on_result=lambda r: read_when.append(items.highest))
    assert out == list(range(400))
    # when the first result arrives, only the chunks in flight have been read
    assert read_when[0] < 4 * (1 + 4 * jobs), read_when[:3]
    assert run_in_order(abs, items, jobs=jobs, chunk_size=7, keep=False,
                        on_result=lambda r: None) == []
