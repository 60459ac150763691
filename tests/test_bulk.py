"""Bulk scoring: deadwood_many and discard_deadwood_many agree with the one-hand functions."""

from __future__ import annotations

import threading
import time
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import fivecrowns as fc
from fivecrowns import Card
from fivecrowns.solver import Implementation, implementation
from helpers.reference import HAND_KINDS, RngChooser, generate_hand


def batch(seed: int, n: int, min_size: int = 0, max_size: int = 13,
          kinds: tuple[str, ...] = HAND_KINDS[:4]) -> tuple[npt.NDArray[np.uint8],
                                                            npt.NDArray[np.int64], int]:
    """(counts (n, 56) uint8, wilds (n,), decks) of seeded hands of the given kinds."""
    ch = RngChooser(np.random.default_rng(seed))
    counts = np.zeros((n, 56), dtype=np.uint8)
    wilds = np.zeros(n, dtype=np.int64)
    decks = 2
    for i in range(n):
        cards, wild, d = generate_hand(ch, kinds[i % len(kinds)], min_size, max_size)
        decks = max(decks, d)
        counts[i] = fc.hand_counts(cards, decks=d)
        wilds[i] = wild
    return counts, wilds, decks


def one_by_one(impl: Implementation, counts: npt.NDArray[np.uint8],
               wilds: npt.NDArray[np.int64], decks: int, discard: bool) -> list[int]:
    if discard:
        return [impl.best_discard(row, int(w), decks=decks).deadwood
                for row, w in zip(counts, wilds)]
    return [impl.deadwood(row, int(w), decks=decks) for row, w in zip(counts, wilds)]


@pytest.fixture(scope="module")
def hands() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], int]:
    return batch(1, 120, min_size=1)


@pytest.mark.parametrize("discard", [False, True], ids=["deadwood", "best_discard"])
def test_many_equals_one_by_one(impl: Implementation, hands: tuple, discard: bool) -> None:
    counts, wilds, decks = hands
    many = impl.discard_deadwood_many if discard else impl.deadwood_many
    expected = one_by_one(impl, counts, wilds, decks, discard)
    for wild in (wilds, wilds.astype(np.int8), wilds.astype(np.uint8), wilds.astype(np.int32)):
        out = many(counts, wild)
        assert isinstance(out, np.ndarray) and out.dtype == np.int32 and out.shape == (120,)
        assert out.tolist() == expected
    for threads in (1, 2, 4, None):
        assert many(counts, wilds, threads=threads).tolist() == expected


@pytest.mark.parametrize("discard", [False, True], ids=["deadwood", "best_discard"])
@pytest.mark.parametrize("wild", [3, 8, 13])
def test_one_wild_for_all(impl: Implementation, hands: tuple, discard: bool, wild: int) -> None:
    counts, _, decks = hands
    many = impl.discard_deadwood_many if discard else impl.deadwood_many
    expected = one_by_one(impl, counts, np.full(len(counts), wild), decks, discard)
    assert many(counts, wild).tolist() == expected
    assert many(counts, fc.Rank(wild)).tolist() == expected
    assert many(counts, np.int64(wild)).tolist() == expected
    assert many(counts, np.full(len(counts), wild)).tolist() == expected


def test_threads_give_identical_results(compiled: ModuleType,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled core really splits the work (the twin ignores ``threads``, so it is
    not tested here) and the answers do not depend on the split."""
    impl = implementation("compiled")
    counts, wilds, _ = batch(2, 5000, min_size=1)
    chunked: list[int] = []
    real = compiled.run_threaded

    def counting(work: Any, n: int, threads: int) -> Any:
        chunked.append(threads)
        return real(work, n, threads)

    monkeypatch.setattr(compiled, "run_threaded", counting)
    _cores(monkeypatch, 8)
    for many in (impl.deadwood_many, impl.discard_deadwood_many):
        results = [many(counts, wilds, threads=t) for t in (1, 2, 4, 7)]
        for other in results[1:]:
            assert np.array_equal(results[0], other)
    assert chunked == [1, 2, 4, 7] * 2


def _cores(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Pretend the process may run on ``n`` cores."""
    from fivecrowns import _checks

    monkeypatch.setattr(_checks, "available_cores", lambda: n)
    monkeypatch.setattr(fc.solver, "available_cores", lambda: n)


def test_threads_are_clamped_to_what_helps(monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 2)
    assert fc.solver._threads(64, 10_000) == 2  # no more than the cores
    assert fc.solver._threads(2, 1) == 1  # no more than the rows
    assert fc.solver._threads(None, 100) == 1  # small batches: one thread
    assert fc.solver._threads(None, 50_000) == 2
    assert fc.solver._threads(np.int64(1), 50_000) == 1
    assert fc.solver._threads(3, 0) == 1


def test_large_batch_default_threads(impl: Implementation) -> None:
    """Batches of 20,000+ hands take the multi-threaded path by default."""
    if impl.name == "python":
        pytest.skip("too slow in pure Python; the threaded path is the compiled core's")
    counts, wilds, _ = batch(3, 25_000)
    assert np.array_equal(impl.deadwood_many(counts, wilds),
                          impl.deadwood_many(counts, wilds, threads=1))
    assert np.array_equal(impl.discard_deadwood_many(counts[counts.sum(axis=1) > 0], 9),
                          impl.discard_deadwood_many(counts[counts.sum(axis=1) > 0], 9, threads=1))


def test_list_of_hands(impl: Implementation) -> None:
    hands = ["5C 6C 7C", "5C 6C 8D", [Card.parse("JK"), "9H", "9S"], fc.hand_counts("3C 3D JK 4H"),
             ("KH", "KS"), "JK JK", ""]
    assert impl.deadwood_many(hands, 13).tolist() == [impl.deadwood(h, 13) for h in hands]
    assert impl.deadwood_many(hands, 13).tolist() == [0, 19, 0, 4, 40, 100, 0]
    nonempty = hands[:-1]
    assert impl.discard_deadwood_many(nonempty, 13).tolist() == [
        impl.best_discard(h, 13).deadwood for h in nonempty]
    wilds = np.array([13, 13, 13, 3, 13, 13])
    assert impl.discard_deadwood_many(iter(nonempty), wilds).tolist() == [
        11, 11, 18, 0, 20, 50]


def test_empty_batch(impl: Implementation) -> None:
    empty = np.zeros((0, 56), dtype=np.uint8)
    for many in (impl.deadwood_many, impl.discard_deadwood_many):
        for wild in (5, np.zeros(0, dtype=np.int64)):
            out = many(empty, wild)
            assert out.shape == (0,) and out.dtype == np.int32
        for threads in (1, 4):
            assert many(empty, 5, threads=threads).shape == (0,)
        out = many([], 7)
        assert out.shape == (0,) and out.dtype == np.int32
        assert many(empty, 5, decks=4).shape == (0,)


def test_party_mode(impl: Implementation) -> None:
    counts, wilds, decks = batch(4, 80, min_size=1, max_size=12, kinds=("party",))
    assert decks == 4 and counts.max() > 2  # really party-mode hands
    for discard, many in ((False, impl.deadwood_many), (True, impl.discard_deadwood_many)):
        expected = one_by_one(impl, counts, wilds, 4, discard)
        assert many(counts, wilds, decks=4).tolist() == expected
        assert many(counts, wilds, decks=4, threads=3).tolist() == expected


def test_layouts_and_no_side_effects(impl: Implementation, hands: tuple) -> None:
    counts, wilds, decks = hands
    before, wilds_before = counts.copy(), wilds.copy()
    expected = impl.deadwood_many(counts, wilds)
    assert np.array_equal(counts, before) and np.array_equal(wilds, wilds_before)
    # A strided view, a Fortran-ordered copy and a reversed view give the same answers.
    assert impl.deadwood_many(counts[::2], wilds[::2]).tolist() == expected[::2].tolist()
    assert impl.deadwood_many(np.asfortranarray(counts), wilds).tolist() == expected.tolist()
    assert impl.deadwood_many(counts[::-1], wilds[::-1]).tolist() == expected[::-1].tolist()
    wide = np.zeros((len(counts), 60), dtype=np.uint8)
    wide[:, 2:58] = counts
    assert impl.deadwood_many(wide[:, 2:58], wilds).tolist() == expected.tolist()
    assert impl.deadwood_many(counts[:1], wilds[:1]).tolist() == expected[:1].tolist()


def test_cores_agree_on_batches(cores: dict) -> None:
    """Every other core gives the same batch results as the Python twin, threads or not."""
    others = {name: core for name, core in cores.items() if name != "python"}
    if not others:
        pytest.skip("only the Python core is available")
    counts, wilds, _ = batch(5, 300, min_size=1, max_size=14)
    w8 = wilds.astype(np.int8)
    dead = cores["python"].deadwood_many(counts, w8, 2, 1)
    best = cores["python"].discard_deadwood_many(counts, w8, 2, 1)
    for core in others.values():
        for threads in (1, 2):
            assert np.array_equal(core.deadwood_many(counts, w8, 2, threads), dead)
            assert np.array_equal(core.discard_deadwood_many(counts, w8, 2, threads), best)


# -- inputs: any integer dtype, converted once; the caller's array is never trusted -----------

@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64,
                                   np.intp])
def test_any_integer_dtype(impl: Implementation, hands: tuple, dtype: type) -> None:
    counts, wilds, decks = hands
    expected = impl.deadwood_many(counts, wilds, decks=decks).tolist()
    wide = counts.astype(dtype)
    assert impl.deadwood_many(wide, wilds, decks=decks).tolist() == expected
    assert impl.deadwood_many(np.asfortranarray(wide), wilds, decks=decks).tolist() == expected
    assert impl.discard_deadwood_many(wide, wilds, decks=decks).tolist() == (
        impl.discard_deadwood_many(counts, wilds, decks=decks).tolist())
    assert np.array_equal(wide, counts.astype(dtype))  # untouched


def test_a_bad_row_at_the_end_of_a_long_batch_is_reported_fast(compiled: ModuleType) -> None:
    """The message is built from the offending row alone: no Python pass over 5,000,000
    rows (which takes minutes), however the batch is given."""
    impl = implementation("compiled")
    counts = np.zeros((5_000_000, 56), dtype=np.uint8)
    counts[:, 0] = 1  # one card each, so that the best discard takes them too
    counts[-1, 7] = 3
    start = time.perf_counter()
    for many in (impl.deadwood_many, impl.discard_deadwood_many):
        with pytest.raises(fc.HandError, match="hand 4999999: the hand holds 3 copies of 10C"):
            many(counts, 13, threads=1)
    wilds = np.full(5_000_000, 13, dtype=np.int8)
    wilds[-1] = 2
    with pytest.raises(ValueError, match=r"wild\[4999999\] must be a rank 3..13, got 2"):
        impl.deadwood_many(counts[:, :], wilds)
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("discard", [False, True], ids=["deadwood", "best_discard"])
def test_a_batch_written_meanwhile_never_hangs_or_asserts(compiled: ModuleType,
                                                          discard: bool) -> None:
    """Another thread writes out-of-range counts into the caller's array while bulk calls
    run on it: each call returns an answer or raises ValueError, and never hangs."""
    impl = implementation("compiled")
    many = impl.discard_deadwood_many if discard else impl.deadwood_many
    counts, wilds, _ = batch(6, 4000, min_size=1)
    shared = counts.copy()
    stop = threading.Event()
    outcomes: list[str] = []
    failures: list[BaseException] = []

    def vandal() -> None:
        rng = np.random.default_rng(0)
        while not stop.is_set():
            rows = rng.integers(0, len(shared), size=64)
            shared[rows, rng.integers(0, 56, size=64)] = rng.integers(0, 256, size=64)
            shared[rows] = counts[rows]  # and back, so that some calls succeed

    def caller() -> None:
        try:
            for _ in range(40):
                try:
                    out = many(shared, wilds, threads=2)
                except ValueError:
                    outcomes.append("error")
                else:
                    assert out.shape == (len(shared),) and (out >= 0).all()
                    outcomes.append("answer")
        except BaseException as exc:
            failures.append(exc)

    writer = threading.Thread(target=vandal, daemon=True)
    worker = threading.Thread(target=caller, daemon=True)
    writer.start()
    worker.start()
    worker.join(timeout=120)
    stop.set()
    writer.join(timeout=10)
    assert not worker.is_alive(), "a bulk call hung on a batch being written"
    assert not failures, failures
    assert len(outcomes) == 40


def test_a_threads_share_is_checked_at_its_own_entry(compiled: ModuleType) -> None:
    """``_solve_range``, the entry each thread of a bulk call goes through, takes nothing on
    trust either: rows past the batch, a row of another length or another deck count are
    errors, never a read out of bounds."""
    counts = np.zeros((3, 56), dtype=np.uint8)
    counts[:, :3] = 1
    wilds = np.full(3, 5, dtype=np.int8)
    out = np.full(3, -7, dtype=np.int32)
    for start, stop in ((0, 4), (-1, 2)):
        with pytest.raises(ValueError, match="out of range"):
            compiled._solve_range(counts, wilds, out, start, stop, 2, False)
    with pytest.raises(ValueError, match="out of range"):
        compiled._solve_range(counts, wilds[:2], out, 0, 3, 2, False)
    with pytest.raises(ValueError, match="out of range"):
        compiled._solve_range(np.zeros((3, 55), dtype=np.uint8), wilds, out, 0, 3, 2, False)
    with pytest.raises(ValueError, match="decks must be 2"):
        compiled._solve_range(counts, wilds, out, 0, 3, 100, False)
    assert out.tolist() == [-7, -7, -7]  # nothing written by a refused call
    compiled._solve_range(counts, wilds, out, 1, 3, 2, False)
    assert out.tolist() == [-7, 0, 0]  # 3-4-5 of one suit: a run
