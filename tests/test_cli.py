"""The command line: ``main([...])`` with captured output, and ``python -m fivecrowns``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from fivecrowns.cli import build_parser, main, parse_rounds

SUBCOMMANDS = ["solve", "solitaire", "simulate", "play", "bench"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert out.startswith("usage: fivecrowns") and all(c in out for c in SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: fivecrowns {command}")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("fivecrowns ")


def test_solve_draws_the_partition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "3C 4C 5C JK 9D", "--wild", "7")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "hand  3♣ 4♣ 5♣ JK 9♦   (wild rank 7, and jokers)",
        "run   3♣ 4♣ 5♣ JK(6♣)",
        "left  9♦",
        "deadwood 9",
    ]


def test_solve_discard_ascii_and_named_wild(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "3c,4c,5c,joker,9d", "--wild", "7", "--discard",
                       "--ascii")
    assert code == 0
    assert out.splitlines() == [
        "hand  3C 4C 5C JK 9D   (wild rank 7, and jokers)",
        "discard 9D",
        "run   3C 4C 5C JK(6C)",
        "left  -",
        "deadwood 0",
        "the rest all meld: this hand can go out",
    ]
    code, out, _ = run(capsys, "solve", "KS KD KH KH", "--wild", "q", "--ascii")
    assert code == 0 and "book  KD KH KH KS" in out and "(wild rank Q" in out
    code, out, _ = run(capsys, "solve", "KS KS KS KS JK", "--wild", "3", "--decks", "4")
    assert code == 0 and out.endswith("deadwood 0\n")


@pytest.mark.parametrize("argv, message", [
    (["solve", "3C 4X", "--wild", "7"], "cannot parse card '4X'"),
    (["solve", "3C 3C 3C", "--wild", "7"], "holds 3 copies of 3C, but 2 decks hold only 2"),
    (["solve", "", "--wild", "7"], "the hand is empty"),
    (["solve", "3C", "--wild", "7", "--discard"], "--discard needs a hand of at least 2"),
    (["solve", "3C 4C", "--wild", "2"], "expected a wild rank 3..13"),
    (["solve", "3C 4C"], "the following arguments are required: --wild"),
    (["solve", "3C 4C", "--wild", "5", "--decks", "3"], "expected 2 decks"),
    (["solitaire", "--games", "0"], "expected a positive integer, got '0'"),
    (["solitaire", "--strategy", "best"], "invalid choice: 'best'"),
    (["simulate", "--games", "1", "--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["simulate", "--games", "1", "--players", "3", "--bots", "greedy,greedy"],
     "--players 3 does not match the 2 bots"),
    (["simulate", "--games", "1", "--players", "1"], "a game takes 2 to 7 players"),
    (["simulate", "--games", "1", "--players", "2", "--rounds", "0-3"],
     "round numbers must be 1..11"),
    (["play", "--players", "9"], "a game takes 2 to 7 players"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "error" in err


def test_solitaire_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solitaire", "--games", "3", "--strategy", "greedy",
                         "--seed", "4", "--quiet")
    assert code == 0 and err == ""  # no progress bar when quiet or not a terminal
    assert "games         3 (seeds 4..6)" in out
    assert "win rate" in out and "95% CI" in out and "piles closed" in out and "turns" in out


def test_solitaire_show_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solitaire", "--show", "--seed", "3", "--ascii")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "seed 3, strategy greedy" and lines[1].startswith("pile  3 (open  )")
    assert "turn 1: " in out and lines[-1].split(":")[0] in ("won", "lost")


def test_bench_without_and_with_the_module(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fivecrowns.bench", None)  # not importable
    code, out, err = run(capsys, "bench", "--quick")
    assert code == 1 and "fivecrowns.bench" in err and "not available" in err
    fake = types.ModuleType("fivecrowns.bench")
    fake.report = lambda quick: f"TABLE quick={quick}"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fivecrowns.bench", fake)
    code, out, _ = run(capsys, "bench", "--quick")
    assert code == 0 and out == "TABLE quick=True\n"


def test_simulate_table_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("fivecrowns.players")
    from fivecrowns.game import Game

    path = tmp_path / "games.jsonl"
    code, out, _ = run(capsys, "simulate", "--games", "3", "--players", "3", "--bots",
                       "greedy,random,greedy", "--seed", "2", "--rounds", "1-2", "--out",
                       str(path), "--quiet")
    assert code == 0
    assert "1:greedy" in out and "2:random" in out and "3:greedy" in out
    assert "win rate" in out and "mean score" in out and "wrote 3 game records" in out
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    first = json.loads(lines[0])
    assert first["game"] == 0 and first["rounds"] == [1, 2] and len(first["players"]) == 3
    game = Game.replay(lines[0])
    assert list(game.totals) == first["totals"]
    # --jobs gives the same table
    code, again, _ = run(capsys, "simulate", "--games", "3", "--players", "3", "--bots",
                         "greedy,random,greedy", "--seed", "2", "--rounds", "1-2", "--jobs",
                         "2", "--quiet")
    assert code == 0 and again == out.replace(f"wrote 3 game records to {path}\n", "")


def test_simulate_runs_on_its_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's main job: no --players or --bots plays the default lineup."""
    pytest.importorskip("fivecrowns.players")
    code, out, _ = run(capsys, "simulate", "--games", "2", "--rounds", "1", "--quiet")
    assert code == 0
    assert all(f"{i}:{name}" in out for i, name in enumerate(
        ("strong", "greedy", "greedy", "random"), start=1))


def test_play_tie_break_round(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With --tie-break, a tie for the lowest total is settled by a 6-card round (seed 1:
    both players score 0 in round 1); without it the tied players share the victory."""
    pytest.importorskip("fivecrowns.game")
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "2", "--rounds", "1", "--tie-break",
                       "--seed", "1", "--ascii")
    assert code == 0
    assert "Tie-break round: 6 cards, 6s wild" in out
    ending = out.rstrip().splitlines()[-1]
    assert ending in ("You win!", "Player 1 wins!")  # one winner: whoever went out first
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "2", "--rounds", "1", "--seed", "1",
                       "--ascii")
    assert code == 0 and "Tie-break" not in out and out.rstrip().endswith("share the win!")


def test_simulate_bad_out_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("fivecrowns.players")
    code, _, err = run(capsys, "simulate", "--games", "1", "--players", "2", "--rounds", "1",
                       "--out", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert code == 2 and "cannot write --out" in err


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_play_a_whole_game_from_stdin(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fivecrowns.game")
    # bad draw choice, help, a real draw, then bad discards, then Enter throughout
    feed(monkeypatch, "zz\nh\nd\n99\nXX\n5C 6C\nout\n" + "\n" * 3000)
    code, out, err = run(capsys, "play", "--players", "2", "--seed", "1", "--rounds", "1-2",
                         "--ascii")
    assert code == 0, err
    assert "seed 1" in out and "=== Round 1: 3 cards, 3s wild" in out
    assert "=== Round 2: 4 cards, 4s wild" in out
    assert "'zz' is not a choice" in out
    assert "How to play" in out
    assert "There is no card number 99: choose 1..4." in out
    assert "cannot parse card 'XX'" in out
    assert "give one card (e.g. 9H) or its number" in out
    assert "Your hand (3 cards, 3s and jokers wild)" in out and "Suggested discard" in out
    assert "Round over. Scores:" in out and "Game over. Final totals:" in out


def test_play_quits_cleanly_on_eof_and_q(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fivecrowns.game")
    feed(monkeypatch, "")
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--rounds", "1")
    assert code == 0 and out.rstrip().endswith("End of input: goodbye.")
    feed(monkeypatch, "d\nq\n")
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--rounds", "1")
    assert code == 0 and out.rstrip().endswith("Goodbye.")


def test_play_ctrl_c(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fivecrowns.game")

    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    code, _, err = run(capsys, "play", "--players", "2", "--seed", "5", "--rounds", "1")
    assert code == 130 and "Interrupted." in err


def test_parse_rounds() -> None:
    assert parse_rounds("1-3, 9,11") == [1, 2, 3, 9, 11]
    assert build_parser().parse_args(["play", "--rounds", "2"]).rounds == [2]


def test_python_dash_m(tmp_path: Path) -> None:
    # Run the package this test imported (installed, or the source tree on the path).
    import fivecrowns

    where = str(Path(fivecrowns.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": where, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "fivecrowns", "solve", "5C 6C 7C KD",
                           "--wild", "13", "--discard"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "discard K♦" in done.stdout
    done = subprocess.run([sys.executable, "-m", "fivecrowns", "solve", "ZZ", "--wild", "5"],
                          capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot parse card 'ZZ'" in done.stderr


def test_progress_bar_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tqdm")
    import fivecrowns.cli

    monkeypatch.setattr(fivecrowns.cli, "_show_progress", lambda quiet, stream: not quiet)
    code, out, err = run(capsys, "solitaire", "--games", "2", "--seed", "1")
    assert code == 0 and "solitaire greedy" in err and "game" in err  # the bar, on stderr
    assert "win rate" in out and "solitaire greedy" not in out
    code, out, err = run(capsys, "solitaire", "--games", "2", "--seed", "1", "--quiet")
    assert code == 0 and err == ""
