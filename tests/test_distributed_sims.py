"""The simulators on Ray give what they give locally, byte for byte.

Under one seed, ``simulate_games`` and ``simulate_solitaire`` must report the same numbers
and stream the same game records with ``backend="ray"`` as on the local backend with one
or two worker processes. Skipped where the simulators (fivecrowns 0.2.0) are not there yet,
and without Ray outside CI.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import Any

import numpy as np
import pytest

import fivecrowns as fc

simulate_games = getattr(fc, "simulate_games", None)
simulate_solitaire = getattr(fc, "simulate_solitaire", None)


def _plain(value: Any) -> Any:
    """A report as plain, comparable data (arrays as lists, dataclasses as dicts)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return [str(value.dtype), value.shape, value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _games(backend: str, jobs: int) -> tuple[Any, list[str], list[int]]:
    from fivecrowns.bots import GreedyBot, RandomBot

    records: list[str] = []
    done: list[int] = []
    report = simulate_games([GreedyBot, RandomBot, GreedyBot], 24, seed=11, jobs=jobs,
                            rounds=[1, 2, 3], names=["g1", "r", "g2"], backend=backend,
                            on_record=lambda r: records.append(json.dumps(r, sort_keys=True)),
                            progress=done.append)
    return report, records, done


@pytest.mark.skipif(simulate_games is None, reason="fivecrowns.simulate_games is not there yet")
def test_simulate_games_same_on_every_backend(ray_session: Any) -> None:
    base, records, done = _games("local", 1)
    assert len(records) == 24 and sum(done) == 24
    for backend, jobs in (("local", 2), ("ray", 1), ("ray", 2)):
        report, recs, done = _games(backend, jobs)
        assert recs == records, f"records differ on {backend} with jobs={jobs}"
        assert _plain(report) == _plain(base), f"report differs on {backend}, jobs={jobs}"
        assert pickle.dumps(np.asarray(report.scores)) == pickle.dumps(np.asarray(base.scores))
        assert report.table() == base.table()
        assert sum(done) == 24


def _solitaire(backend: str, jobs: int) -> tuple[Any, list[int]]:
    done: list[int] = []
    report = simulate_solitaire("greedy", 30, seed=5, jobs=jobs, backend=backend,
                                progress=done.append)
    return report, done


@pytest.mark.skipif(simulate_solitaire is None,
                    reason="fivecrowns.simulate_solitaire is not there yet")
def test_simulate_solitaire_same_on_every_backend(ray_session: Any) -> None:
    base, done = _solitaire("local", 1)
    assert sum(done) == 30
    for backend, jobs in (("local", 2), ("ray", 1), ("ray", 2)):
        report, done = _solitaire(backend, jobs)
        assert _plain(report) == _plain(base), f"report differs on {backend}, jobs={jobs}"
        assert pickle.dumps(report.results) == pickle.dumps(base.results)
        for name in ("win_rate", "win_ci", "mean_piles_closed", "piles_closed_ci",
                     "mean_turns", "turns_ci", "games"):
            assert getattr(report, name) == getattr(base, name), name
        assert sum(done) == 30


@pytest.mark.skipif(simulate_games is None, reason="fivecrowns.simulate_games is not there yet")
def test_simulate_games_checks_backend() -> None:
    from fivecrowns.bots import GreedyBot

    with pytest.raises(ValueError, match="backend"):
        simulate_games([GreedyBot, GreedyBot], 2, seed=1, backend="dask")
    with pytest.raises(ValueError, match="ray_address"):
        simulate_games([GreedyBot, GreedyBot], 2, seed=1, ray_address="auto")
