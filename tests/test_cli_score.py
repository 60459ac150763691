"""``fivecrowns score``: hands from files, and the Ray backend of the simulations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fivecrowns as fc
from conftest import need, run_cli

ROWS = fc.random_hands(50, 9, seed=3)


def test_score_npy(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    np.save(tmp_path / "h.npy", ROWS)
    code, out, _ = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"),
                           "--wild", "9", "--discard", "--quiet")
    assert code == 0 and "scored 50 of 50 hands" in out
    scored = np.load(tmp_path / "o.npy")
    assert scored["deadwood"].tolist() == fc.deadwood_many(ROWS, 9).tolist()
    assert scored["discard_deadwood"].tolist() == fc.discard_deadwood_many(ROWS, 9).tolist()


def test_score_csv_text_column_json_and_bad_rows(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    need("pyarrow")
    (tmp_path / "h.csv").write_text("id,hand\n0,5C 6C 7C\n1,5C ZZ\n2,KS KD KH KH\n")
    code, _, err = run_cli(capsys, "score", str(tmp_path / "h.csv"), str(tmp_path / "o.csv"),
                           "--wild", "K", "--quiet")
    assert code == 2 and "row 1" in err and "ZZ" in err and err.count("\n") == 1
    code, out, _ = run_cli(capsys, "score", str(tmp_path / "h.csv"), str(tmp_path / "o.csv"),
                           "--wild", "K", "--skip-bad", str(tmp_path / "bad.csv"), "--json",
                           "--quiet")
    assert code == 0
    summary = json.loads(out)
    assert (summary["rows"], summary["scored"], summary["skipped"]) == (3, 2, 1)
    lines = (tmp_path / "o.csv").read_text().splitlines()
    assert lines[0].split(",")[-1].strip('"') == "deadwood" and len(lines) == 3
    assert "ZZ" in (tmp_path / "bad.csv").read_text()


def test_score_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "score", str(tmp_path / "missing.npy"),
                           str(tmp_path / "o.npy"), "--wild", "9")
    assert code == 2 and "missing.npy" in err and err.count("\n") == 1
    np.save(tmp_path / "h.npy", ROWS)
    code, _, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"),
                           "--wild", "9", "--ray-address", "127.0.0.1:1")
    assert code == 2 and "--ray-address needs --backend ray" in err
    code, _, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"))
    assert code == 2 and "--wild" in err and "usage: fivecrowns score" in err


def test_score_progress_on_a_pipe(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from fivecrowns.cli import _common

    monkeypatch.setattr(_common, "PROGRESS_INTERVAL", 0.0)
    np.save(tmp_path / "h.npy", ROWS)
    code, _, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"),
                           "--wild", "9", "--batch-size", "20")
    assert code == 0 and "score: 50/50 hands (100%)" in err


@pytest.mark.parametrize("command", ["simulate", "solitaire"])
def test_ray_backend_gives_the_local_results(capsys: pytest.CaptureFixture[str],
                                             ray_session: Any, command: str) -> None:
    args = [command, "--games", "6", "--seed", "3", "--json", "--quiet"]
    if command == "simulate":
        args += ["--bots", "greedy,random", "--rounds", "1-2"]
    code, local, _ = run_cli(capsys, *args, "--jobs", "2")
    assert code == 0
    code, on_ray, _ = run_cli(capsys, *args, "--backend", "ray")
    assert code == 0
    assert json.loads(on_ray) == json.loads(local)
