"""fivecrowns.distributed: chunks on Ray in order (even when a worker dies), Ray Data scoring.

Everything runs on one local two-CPU Ray started once for the session (``ray_session`` in
conftest.py); without Ray the tests skip, except under CI where the extra must be there.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import fivecrowns as fc
from conftest import need
from fivecrowns import distributed, runner
from fivecrowns.files import CARD_COLUMNS


@pytest.fixture(scope="module")
def ray(ray_session):  # type: ignore[no-untyped-def]
    # Ray workers cannot import this test module: ship its functions by value.
    ray_session.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    return ray_session


def draws(seed: int) -> list[int]:
    """A seeded function of an item, standing in for one game."""
    return np.random.default_rng(seed).integers(0, 1 << 30, 3).tolist()


def dies_once(marker: str, seed: int) -> list[int]:
    """Like draws(), but the worker process running item 5 dies the first time."""
    if seed == 5 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)  # the worker process dies: no exception, no cleanup
    return draws(seed)


def raises_on_3(log: str, seed: int) -> int:
    if seed == 3:
        with open(log, "a") as f:
            f.write("called\n")
        raise ValueError("item 3 is bad")
    return seed


def _chunk_of(fn):  # type: ignore[no-untyped-def]
    return functools.partial(runner._map_chunk, fn)


SEEDS = list(range(40))


@pytest.mark.parametrize("chunk_size", [None, 1, 7, 40])
def test_ray_matches_local(ray, chunk_size) -> None:  # type: ignore[no-untyped-def]
    local = runner.run_in_order(draws, SEEDS)
    for jobs in (1, 3):
        got = runner.run_in_order(draws, SEEDS, backend="ray", jobs=jobs, chunk_size=chunk_size)
        assert got == local


def test_ray_matches_local_pool(ray) -> None:  # type: ignore[no-untyped-def]
    pool = runner.run_in_order(draws, SEEDS, jobs=2, chunk_size=3)
    assert runner.run_in_order(draws, SEEDS, backend="ray", chunk_size=3) == pool


def test_progress_and_on_result_in_order(ray) -> None:  # type: ignore[no-untyped-def]
    seen: list[int] = []
    results: list[list[int]] = []
    out = runner.run_in_order(draws, SEEDS, backend="ray", chunk_size=6, progress=seen.append,
                              on_result=results.append)
    assert seen == [6] * 6 + [4]
    assert results == out == [draws(s) for s in SEEDS]


def test_many_chunks_keep_order(ray) -> None:  # type: ignore[no-untyped-def]
    # More chunks than the tasks kept in flight: the window refills in order.
    items = list(range(300))
    assert runner.run_in_order(abs, items, backend="ray", chunk_size=1) == items


def test_worker_death_is_retried(ray, tmp_path) -> None:  # type: ignore[no-untyped-def]
    marker = tmp_path / "died"
    fn = functools.partial(dies_once, str(marker))
    got = runner.run_in_order(fn, SEEDS, backend="ray", chunk_size=4)
    assert marker.exists(), "the worker never died: the test tested nothing"
    assert got == runner.run_in_order(draws, SEEDS)


def test_worker_death_without_retries_fails(ray, tmp_path) -> None:  # type: ignore[no-untyped-def]
    fn = functools.partial(dies_once, str(tmp_path / "died"))
    parts = distributed.ray_map_chunks(_chunk_of(fn), [[5]], max_retries=0)
    with pytest.raises(ray.exceptions.RayError):
        list(parts)


def test_errors_reach_the_caller_unretried(ray, tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "calls"
    fn = functools.partial(raises_on_3, str(log))
    with pytest.raises(ValueError, match="item 3 is bad"):
        runner.run_in_order(fn, range(8), backend="ray", chunk_size=2)
    assert log.read_text().count("called") == 1


def test_stopping_early_leaves_ray_usable(ray) -> None:  # type: ignore[no-untyped-def]
    # the chunks in flight finish unwatched; the driver and the cluster carry on
    for _ in range(5):
        parts = distributed.ray_map_chunks(_chunk_of(abs), [[-i] for i in range(50)])
        assert next(parts) == [0]
        parts.close()
    got = list(distributed.ray_map_chunks(_chunk_of(abs), [[-i] for i in range(12)]))
    assert got == [[i] for i in range(12)]


def test_no_chunks(ray) -> None:  # type: ignore[no-untyped-def]
    assert list(distributed.ray_map_chunks(len, [])) == []


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError),
                                        (True, TypeError)])
def test_max_retries_checked(bad, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match="max_retries"):
        list(distributed.ray_map_chunks(len, [[1]], max_retries=bad))


def test_without_ray_the_message_says_what_to_install(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"fivecrowns\[ray\]"):
        runner.run_in_order(abs, [1], backend="ray")


def test_bad_address_type(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ray = need("ray")
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(TypeError, match="ray_address must be a str"):
        distributed.ensure_ray(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# score_dataset

def _hands(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(56), [2] * 55 + [6])
    rows = np.zeros((n, 56), dtype=np.uint8)
    for i in range(n):
        np.add.at(rows[i], rng.choice(deck, size=rng.integers(1, 14), replace=False), 1)
    return rows


def _text(rows: np.ndarray) -> list[str]:
    return [fc.format_cards(fc.from_counts(r)) for r in rows]


def test_score_dataset_layouts(ray) -> None:  # type: ignore[no-untyped-def]
    rows = _hands(50)
    want = fc.deadwood_many(rows, 9)
    want_d = fc.discard_deadwood_many(rows, 9)
    data = need("ray.data")
    text = data.from_items([{"hand": h, "n": i} for i, h in enumerate(_text(rows))])
    counts = data.from_items([dict(zip(CARD_COLUMNS, map(int, r))) for r in rows])
    tensor = data.from_numpy(rows)
    for ds in (text, counts, tensor):
        out = distributed.score_dataset(ds, wild=9, discard=True, batch_size=16).take_all()
        assert [r["deadwood"] for r in out] == want.tolist()
        assert [r["discard_deadwood"] for r in out] == want_d.tolist()
    assert [r["n"] for r in distributed.score_dataset(text, wild=9).take_all()] == list(range(50))


def test_score_dataset_wild_column(ray) -> None:  # type: ignore[no-untyped-def]
    rows = _hands(20)
    wilds = np.arange(20) % 11 + 3
    ds = need("ray.data").from_items([{"hand": h, "w": int(w)}
                                      for h, w in zip(_text(rows), wilds)])
    out = distributed.score_dataset(ds, wild="w").take_all()
    assert [r["deadwood"] for r in out] == fc.deadwood_many(rows, wilds).tolist()


def test_score_dataset_bad_hand_raises(ray) -> None:  # type: ignore[no-untyped-def]
    ds = need("ray.data").from_items([{"hand": "5C 6C"}, {"hand": "5C ZZ"}])
    with pytest.raises(Exception, match="cannot parse card 'ZZ'"):
        distributed.score_dataset(ds, wild=5).take_all()


def test_score_dataset_checks_arguments() -> None:
    with pytest.raises(ValueError, match="wild must be a rank"):
        distributed.score_dataset(None, wild=2)
    with pytest.raises(ValueError, match="decks"):
        distributed.score_dataset(None, wild=5, decks=3)
