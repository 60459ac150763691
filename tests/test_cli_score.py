"""``fivecrowns score``: hands from files, and the Ray backend of the simulations."""

from __future__ import annotations

import json
import re
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


def score_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
              *args: str) -> tuple[int, str, str]:
    """``fivecrowns score h.csv o.csv ARGS... --quiet`` on a CSV file holding ``text``."""
    need("pyarrow")
    (tmp_path / "h.csv").write_text(text)
    return run_cli(capsys, "score", str(tmp_path / "h.csv"), str(tmp_path / "o.csv"), *args,
                   "--quiet")


def test_score_csv_text_column_json_and_bad_rows(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    code, _, err = score_csv(capsys, tmp_path, "id,hand\n0,5C 6C 7C\n1,5C ZZ\n2,KS KD KH KH\n",
                             "--wild", "K")
    assert code == 2 and "h.csv: line 3: " in err and "ZZ" in err and err.count("\n") == 1
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


@pytest.mark.parametrize("suffix", [".npy", ".csv"])
@pytest.mark.parametrize("wild", ["20", "0", "-1", "2", "+14"])
def test_score_wild_number_is_a_rank(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     suffix: str, wild: str) -> None:
    """A number given to --wild is a rank, refused as `solve --wild` refuses it, and never
    looked up as a column, whatever the input's format."""
    src = tmp_path / f"h{suffix}"
    if suffix == ".npy":
        np.save(src, ROWS)
    else:
        src.write_text("hand\n5C 6C 7C\n")
    code, _, err = run_cli(capsys, "score", str(src), str(tmp_path / f"o{suffix}"),
                           "--wild", wild, "--quiet")
    code_solve, _, err_solve = run_cli(capsys, "solve", "5C 6C 7C", "--wild", wild)
    want = f"argument --wild: expected a wild rank 3..13 (or J, Q, K), got '{wild}'"
    assert (code, code_solve) == (2, 2)
    assert f"fivecrowns score: error: {want}\n" in err
    assert f"fivecrowns solve: error: {want}\n" in err_solve
    assert "wild column" not in err


def test_score_wild_name_is_a_column(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    text = "hand,w\n5C 6C 7C,9\n5C 6C 9C,9\n"
    code, _, err = score_csv(capsys, tmp_path, text, "--wild", "nope")
    assert code == 2 and "wild column 'nope' not found" in err
    code, out, _ = score_csv(capsys, tmp_path, text, "--wild", "w")
    assert code == 0 and "scored 2 of 2" in out


def test_score_bad_row_speaks_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A bad row's message names --skip-bad (not the API's skip_bad=PATH) and the CSV
    line an editor shows (header line 1; an empty line counted), or the row from 1."""
    code, _, err = score_csv(capsys, tmp_path, "id,hand\n0,5C 6C 7C\n\n1,5C 6C 8D\n2,5C ZZ\n",
                             "--wild", "K")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("fivecrowns score: error: h.csv: line 5: cannot parse card 'ZZ'")
    assert err.endswith("(add --skip-bad PATH to set bad rows aside)\n")
    assert "skip_bad" not in err and not re.search(r"\brow \d", err)
    with pytest.raises(fc.BadRowError) as info:  # the API counts rows from 0, and says so
        fc.files.score_file(tmp_path / "h.csv", tmp_path / "o.csv", wild=13)
    assert (info.value.row, info.value.line) == (2, 5)
    assert str(info.value).startswith("h.csv: row 2 (line 5): cannot parse card 'ZZ'")
    rows = ROWS.copy()
    rows[3, 0] = 9
    np.save(tmp_path / "h.npy", rows)
    code, _, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"),
                           "--wild", "9", "--quiet")
    assert code == 2 and err.startswith("fivecrowns score: error: h.npy: row 4 (from 1): "
                                        "the hand holds 9 copies of 3C")
    assert "skip_bad" not in err and "--skip-bad PATH" in err


@pytest.mark.parametrize("content", [b"", b"garbage\n", bytes(range(256)) * 4,
                                     b"\x93NUMPY\x01\x00\xff\xff{'descr'"])
@pytest.mark.parametrize("suffix", [".npy", ".parquet"])
def test_score_garbage_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         suffix: str, content: bytes) -> None:
    if suffix == ".parquet":
        need("pyarrow")
    src = tmp_path / f"junk{suffix}"
    src.write_bytes(content)
    code, out, err = run_cli(capsys, "score", str(src), str(tmp_path / "o.npy"), "--wild",
                             "9", "--quiet")
    kind = "a .npy file" if suffix == ".npy" else "a Parquet file"
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"fivecrowns score: error: junk{suffix}: ")
    assert f"not {kind}" in err or "damaged" in err
    for raw in ("allow_pickle", "magic", "footer's (", "Errno", "pickle.load"):
        assert raw not in err


@pytest.mark.parametrize("where", ["dst", "skip_bad"])
def test_score_missing_output_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     where: str) -> None:
    np.save(tmp_path / "h.npy", ROWS)
    out_path, skip = str(tmp_path / "o.npy"), []
    gone = str(tmp_path / "no" / "such")
    if where == "dst":
        out_path = f"{gone}/o.npy"
    else:
        skip = ["--skip-bad", f"{gone}/bad.csv"]
    code, out, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), out_path, "--wild",
                             "9", "--quiet", *skip)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"no such folder '{gone}'" in err and "Errno" not in err
    assert not (tmp_path / "o.npy").exists()


def test_column_with_a_npy_input_is_refused(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    # 0.4 ignored --column for a .npy input without a word: the user's column of hands was
    # never read, the file's counts were
    np.save(tmp_path / "h.npy", ROWS)
    code, out, err = run_cli(capsys, "score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"),
                             "--wild", "9", "--column", "cards", "--quiet")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--column" in err and ".npy input has no columns" in err
    assert not (tmp_path / "o.npy").exists()


@pytest.mark.parametrize("argv, said", [
    (["h.csv", "h.csv"], "IN and OUT are the same file"),
    (["h.csv", "o.csv", "--skip-bad", "o.csv"], "OUT and --skip-bad are the same file"),
    (["h.csv", "o.csv", "--skip-bad", "h.csv"], "IN and --skip-bad are the same file"),
    (["h.csv", "o.csv", "--skip-bad", "kb.npy"], "--skip-bad 'kb.npy' must be a .parquet or "
                                                 ".csv file"),
    (["h.txt", "o.csv"], "IN 'h.txt' must end in .parquet, .csv or .npy"),
    (["h.csv", "o.txt"], "OUT 'o.txt' must end in .parquet, .csv or .npy"),
])
def test_path_errors_speak_the_commands_words(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              argv: list[str], said: str) -> None:
    # 0.4 gave the API's words: "src, dst and skip_bad must be three different files" with
    # no --skip-bad given, "skip_bad must be ...", "src 'h.txt' must end in ..."
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.csv").write_text("hand\n5C 6C 7C\n")
    code, out, err = run_cli(capsys, "score", *argv, "--wild", "K", "--quiet")
    assert (code, out) == (2, "") and err.count("\n") == 1 and said in err
    for api in ("src", "dst", "skip_bad"):
        assert not re.search(rf"\b{api}\b", err)
    assert (tmp_path / "h.csv").read_text() == "hand\n5C 6C 7C\n"


@pytest.mark.parametrize("content", [bytes(range(256)) * 4, b"hand\n\x00\x01\x02,\xff\xfe\n",
                                     b"\xc3\x28garbage,\x1b[2J\n"])
def test_binary_csv_is_not_echoed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  content: bytes) -> None:
    # 0.4 quoted pyarrow's message, which holds the first bad line's raw bytes, to the
    # terminal (escape sequences and all)
    need("pyarrow")
    (tmp_path / "junk.csv").write_bytes(content)
    code, out, err = run_cli(capsys, "score", str(tmp_path / "junk.csv"),
                             str(tmp_path / "o.csv"), "--wild", "K", "--quiet")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err == ("fivecrowns score: error: junk.csv: not a text CSV file (its first bytes "
                   "are binary data, not UTF-8 text)\n")


def test_a_quoted_line_is_printable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # UTF-8 text, so no binary file, but a ragged line with an escape sequence: pyarrow's
    # message quotes it; the terminal gets it escaped
    code, _, err = score_csv(capsys, tmp_path, "hand\n5C 6C 7C\n5C,\x1b[2J,x\n", "--wild", "K")
    assert code == 2 and err.count("\n") == 1 and "\x1b" not in err and "\\x1b[2J" in err
