"""``fivecrowns replay``: the records of ``simulate --out``, shown turn by turn."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from fivecrowns.game import Game

run = run_cli


@pytest.fixture
def records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "games.jsonl"
    code, _, _ = run(capsys, "simulate", "--games", "3", "--bots", "greedy,random,strong",
                     "--rounds", "1-2", "--seed", "3", "--out", str(path), "--quiet")
    assert code == 0
    return path


def test_replay_shows_the_first_game_turn_by_turn(capsys: pytest.CaptureFixture[str],
                                                  records: Path) -> None:
    data = json.loads(records.read_text().splitlines()[0])
    code, out, err = run(capsys, "replay", str(records), "--ascii")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (f"game 0: 3 players, seed {data['seed']}, rounds 1,2 (2 decks); "
                        f"a lower score is better")
    players = data["players"]
    assert "Round 1: 3 cards, 3s wild; dealer seat 0 " f"({players[0]})" in out
    assert "Round 2: 4 cards, 4s wild; dealer seat 1 " f"({players[1]})" in out
    turns = [line for line in lines if line.startswith("  turn ")]
    pattern = (r"  turn +\d+  seat [0-2] \(\d:\w+\): draws (\w+) from the (deck|discard "
               r"pile)( \(the discard pile reshuffled\))?, discards (\w+)( and goes out)?")
    assert turns and all(re.fullmatch(pattern, t) for t in turns), turns
    assert sum(t.endswith(" and goes out") for t in turns) <= 2
    assert len(turns) == sum(len(a.split()) for a in data["actions"]) // 2
    # each round's scores and running totals, then the result
    game = Game.replay(data)
    who = [f"seat {s} ({players[s]})" for s in range(3)]
    for res in game.results:
        scores = ", ".join(f"{who[s]} {v}" for s, v in enumerate(res.scores))
        assert f"  scores  {scores}" in lines
    totals = ", ".join(f"{who[s]} {v}" for s, v in enumerate(data["totals"]))
    assert f"  totals  {totals}" in lines
    assert lines[-1].endswith(f"(totals {', '.join(map(str, data['totals']))})")


def test_replay_chooses_a_game(capsys: pytest.CaptureFixture[str], records: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    second = json.loads(records.read_text().splitlines()[2])
    code, out, _ = run(capsys, "replay", str(records), "--game", "2")
    assert code == 0 and out.startswith(f"game 2: 3 players, seed {second['seed']},")
    monkeypatch.setattr(sys, "stdin", io.StringIO(records.read_text()))
    code, again, _ = run(capsys, "replay", "-", "--game", "2")
    assert code == 0 and again == out


def test_replay_symbols(capsys: pytest.CaptureFixture[str], records: Path) -> None:
    code, out, _ = run(capsys, "replay", str(records))
    assert code == 0 and re.search("[♣♦♥♠★]", out)


def test_replay_checks_the_record(capsys: pytest.CaptureFixture[str], records: Path,
                                  tmp_path: Path) -> None:
    data = json.loads(records.read_text().splitlines()[0])
    data["totals"][0] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(data) + "\n")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and out == ""
    assert err.startswith("fivecrowns replay: error: the record's totals")


@pytest.mark.parametrize("content, argv, message", [
    (None, ["--game", "7"], "has no record of game 7 (games 0..2)"),
    ("", [], "holds no game record"),
    ("{not json\n", [], ":1: not a JSON line"),
    ("[1, 2]\n", [], ":1: expected a game record (a JSON object), got list"),
    ('{"format": "chess"}\n', [], "not a fivecrowns game record"),
])
def test_replay_errors(capsys: pytest.CaptureFixture[str], records: Path, tmp_path: Path,
                       content: str | None, argv: list[str], message: str) -> None:
    path = records
    if content is not None:
        path = tmp_path / "other.jsonl"
        path.write_text(content)
    code, out, err = run(capsys, "replay", str(path), *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_replay_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "none.jsonl"))
    assert code == 2 and "cannot read" in err and "No such file" in err
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and "cannot read" in err


def test_replay_a_tie_break_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tie.jsonl"
    for seed in range(1, 60):
        code, _, _ = run(capsys, "simulate", "--games", "4", "--players", "3", "--rounds", "1",
                         "--tie-break", "--seed", str(seed), "--out", str(path), "--quiet")
        assert code == 0
        tied = [json.loads(line) for line in path.read_text().splitlines()
                if json.loads(line)["tie_break_seats"]]
        if tied:
            break
    else:
        pytest.fail("no tie-break round in 236 games")
    record = tied[0]
    code, out, _ = run(capsys, "replay", str(path), "--game", str(record["game"]), "--ascii")
    assert code == 0
    seats = record["tie_break_seats"]
    header = re.search(r"Tie-break round between (.*): 6 cards, 6s wild; dealer seat (\d)", out)
    assert header is not None, out
    assert int(header.group(2)) in seats
    assert header.group(1) == ", ".join(f"seat {s} ({record['players'][s]})" for s in seats)
    winner = record["winners"][0]
    assert out.splitlines()[-1].startswith(f"seat {winner} ")


def test_replay_shows_either_half_of_a_duplicate_deal(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    # 0.4: both records of a deal share their "game", so --game N always found the bot's,
    # and the header did not say which half it showed
    path = tmp_path / "dup.jsonl"
    code, _, _ = run(capsys, "simulate", "--games", "2", "--bots", "greedy,random",
                     "--duplicate", "strong", "--rounds", "1-2", "--out", str(path), "--quiet")
    assert code == 0
    bot, reference = (json.loads(line) for line in path.read_text().splitlines()[2:4])
    assert (bot["game"], bot["duplicate"], reference["duplicate"]) == (1, "bot", "reference")
    code, out, _ = run(capsys, "replay", str(path), "--game", "1", "--ascii")
    assert code == 0 and out.startswith(
        f"game 1 (duplicate match: the bot's game; --reference shows the reference's): 2 "
        f"players, seed {bot['seed']},")
    assert f"(totals {', '.join(map(str, bot['totals']))})" in out
    code, out, _ = run(capsys, "replay", str(path), "--game", "1", "--reference", "--ascii")
    assert code == 0 and out.startswith(
        f"game 1 (duplicate match: the reference's game): 2 players, seed {reference['seed']},")
    assert f"(totals {', '.join(map(str, reference['totals']))})" in out
    assert "(strong)" in out and "1:greedy" not in out
    code, out, _ = run(capsys, "replay", str(path), "--reference", "--ascii")  # the first
    assert code == 0 and out.startswith("game 0 (duplicate match: the reference's game)")


def test_reference_needs_a_duplicate_record(capsys: pytest.CaptureFixture[str],
                                            records: Path) -> None:
    code, out, err = run(capsys, "replay", str(records), "--reference")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--reference: " in err and "holds no duplicate match" in err
