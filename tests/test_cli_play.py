"""``fivecrowns play``: a whole game at the terminal, fed from a StringIO stdin."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from helpers.engines import sized

run = run_cli


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_play_a_whole_game_from_stdin(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
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


def test_play_tie_break_round(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With --tie-break, a tie for the lowest total is settled by a 6-card round (seed 1:
    both players score 0 in round 1); without it the tied players share the victory."""
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "2", "--rounds", "1", "--tie-break",
                       "--seed", "1", "--ascii")
    assert code == 0
    assert "Tie-break round between You and Player 1: 6 cards, 6s wild" in out
    ending = out.rstrip().splitlines()[-1]
    assert ending in ("You win!", "Player 1 wins!")  # one winner: whoever went out first
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "2", "--rounds", "1", "--seed", "1",
                       "--ascii")
    assert code == 0 and "Tie-break" not in out and out.rstrip().endswith("share the win!")


def test_play_names_the_tie_break_dealer_by_seat(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 1 with three players: players 1 and 2 tie after round 1. The tie-break round
    numbers its two players 0 and 1, but its dealer is one of them, never seat 0."""
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "3", "--rounds", "1", "--tie-break",
                       "--seed", "1", "--ascii")
    assert code == 0
    header = re.search(r"=== Tie-break round between (.*): 6 cards, 6s wild; "
                       r"dealer: (.*) ===", out)
    assert header is not None, out
    assert header.group(1) == "Player 1 and Player 2"
    assert header.group(2) in ("Player 1", "Player 2")


def test_play_quits_cleanly_on_eof_and_q(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "")
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--rounds", "1")
    assert code == 0 and out.rstrip().endswith("End of input: goodbye.")
    feed(monkeypatch, "d\nq\n")
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--rounds", "1")
    assert code == 0 and out.rstrip().endswith("Goodbye.")


def test_play_ctrl_c(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    code, _, err = run(capsys, "play", "--players", "2", "--seed", "5", "--rounds", "1")
    assert code == 130 and "Interrupted." in err


USER_BOT = '''
from fivecrowns.bots import GreedyBot


class Quiet:
    def __init__(self):
        self.inner = GreedyBot()

    def choose_draw(self, obs):
        return self.inner.choose_draw(obs)

    def choose_discard(self, obs):
        return self.inner.choose_discard(obs)


class Raising(Quiet):
    def choose_discard(self, obs):
        raise KeyError("lost the card")
'''


def test_play_against_a_users_bot_class(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    (tmp_path / "fc_play_bots.py").write_text(USER_BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fc_play_bots", raising=False)
    feed(monkeypatch, "\n" * 500)
    code, out, _ = run(capsys, "play", "--players", "3", "--bots", "fc_play_bots:Quiet",
                       "--seed", "2", "--rounds", "1", "--ascii")
    assert code == 0
    assert "Player 1 (Quiet)" in out and "Player 2 (Quiet)" in out
    feed(monkeypatch, "\n" * 500)
    code, out, err = run(capsys, "play", "--players", "2", "--bots", "fc_play_bots:Raising",
                         "--seed", "2", "--rounds", "1", "--ascii")
    assert code == 2
    assert err == ("fivecrowns play: error: Player 1 (Raising): choose_discard raised "
                   "KeyError: 'lost the card' (--traceback shows where)\n")


def test_play_against_searchbot_with_options(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "\n" * 500)
    # round 2 of 64 worlds takes minutes on the pure-Python twins
    code, out, err = run(capsys, "play", "--players", "3", "--bots", "search,search:worlds=8",
                         "--seed", "4", "--rounds", sized("1-2", "1"), "--ascii")
    assert code == 0, err
    assert "Player 1 (search)" in out and "Player 2 (search:worlds=8)" in out
    assert "Game over. Final totals:" in out


@pytest.mark.parametrize("bots, message", [
    ("search:wrlds=8", "--bots: unknown option 'wrlds' for bot 'search' (did you mean "
                       "'worlds'?)"),
    ("clever", "--bots: unknown bot 'clever'"),
    ("search:time_limit=-1", "time_limit must be positive seconds or None"),
])
def test_play_bad_bots(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                       bots: str, message: str) -> None:
    feed(monkeypatch, "\n" * 50)
    code, out, err = run(capsys, "play", "--players", "2", "--bots", bots, "--seed", "1")
    assert code == 2 and out == ""
    assert err.startswith("fivecrowns play: error: ") and message in err


def test_suggested_discard_is_never_the_card_just_taken(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 11: the best discard after taking JC from the pile is JC itself, which the rules
    forbid throwing back; the suggestion (and Enter) is the best allowed discard."""
    feed(monkeypatch, "p\n\nq\n")
    code, out, _ = run(capsys, "play", "--players", "3", "--bots", "strong", "--seed", "11",
                       "--rounds", "1", "--ascii")
    assert code == 0
    assert "You took JC." in out and "Suggested discard: JS (leaves deadwood 27)." in out
    assert "You discard JS." in out and "cannot discard" not in out
    # always take the pile and accept the suggestion: never a refused discard
    for seed in range(3):
        feed(monkeypatch, "p\n\n" * 400)
        code, out, _ = run(capsys, "play", "--players", "2", "--seed", str(seed), "--rounds",
                           "1-4", "--ascii")
        assert code == 0 and "You took" in out and "cannot discard" not in out


def test_help_prompt_and_enter_agree_on_the_draw(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.4: the help said Enter draws from the deck, the prompt said "(Enter = p)" when the
    # pile was the hint, and Enter took the pile; a "Suggested" line showed for the pile only
    feed(monkeypatch, "h\n" + "\n" * 3000)
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "3", "--rounds", "1-4",
                       "--ascii")
    assert code == 0
    assert "(d, or just Enter)" not in out
    assert 'just Enter does what the "Suggested" line says' in out
    lines = out.splitlines()
    turns = [i for i, line in enumerate(lines) if "Draw from the deck [d]" in line]
    assert turns
    seen = set()
    for i in turns:
        said = [line for line in lines[:i] if line.startswith("Suggested: ")][-1]
        letter = re.search(r"\(Enter = (\w)\)", lines[i]).group(1)  # type: ignore[union-attr]
        # stdin is not echoed: the answer follows the prompt on its line
        done = next(m.group(1) for line in lines[i:]
                    if (m := re.search(r"You (drew|took) ", line)))
        if said.startswith("Suggested: take "):
            assert (letter, done) == ("p", "took")
        else:
            assert said.startswith("Suggested: draw from the deck")
            assert (letter, done) == ("d", "drew")
        seen.add(letter)
    assert seen == {"d", "p"}  # both suggestions were shown
