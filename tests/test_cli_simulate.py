"""``fivecrowns simulate``: the table, --json, --out, the bots (built-in and a user's
classes), and the --backend options."""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from conftest import run_cli
from fivecrowns.cli import _common

run = run_cli


# --------------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------------


def test_simulate_table_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
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


def test_simulate_header_says_lower_is_better(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "2", "--rounds", "1", "--quiet")
    assert code == 0
    assert "a lower score is better" in out.splitlines()[0]
    assert all(f"{i}:{name}" in out for i, name in enumerate(
        ("strong", "greedy", "greedy", "random"), start=1))  # the default lineup


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--games", "3", "--bots", "greedy,random",
                         "--rounds", "1", "--seed", "5", "--json", "--quiet")
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["command"] == "simulate" and summary["games"] == 3
    assert summary["rounds"] == [1] and summary["lower_score_is_better"] is True
    assert [e["name"] for e in summary["entrants"]] == ["1:greedy", "2:random"]
    for e in summary["entrants"]:
        assert e["games"] == 3 and e["win_ci"][0] <= e["win_rate"] <= e["win_ci"][1]
        assert e["score_ci"][0] <= e["mean_score"] <= e["score_ci"][1]


def test_simulate_out_dash_writes_json_lines_to_stdout(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--games", "2", "--players", "2", "--rounds", "1",
                         "--out", "-", "--quiet")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["game"] for r in records] == [0, 1]
    assert "win rate" in err and "1:greedy" in err  # the table, on stderr
    assert "wrote" not in err


@pytest.mark.parametrize("target", ["dir", "missing-dir", "/proc/fivecrowns-test",
                                    "/dev/full"])
def test_simulate_out_that_cannot_be_written(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, target: str) -> None:
    path = {"dir": str(tmp_path), "missing-dir": str(tmp_path / "no" / "games.jsonl")}.get(
        target, target)
    if not os.path.exists(os.path.dirname(path) or "/") and target.startswith("/"):
        pytest.skip(f"no {os.path.dirname(path)} here")
    if target == "/dev/full" and not os.path.exists(target):
        pytest.skip("no /dev/full here")
    code, out, err = run(capsys, "simulate", "--games", "2", "--players", "2", "--rounds", "1",
                         "--out", path, "--quiet")
    assert code == 2 and out == ""
    assert err.startswith(f"fivecrowns simulate: error: cannot write --out {path!r}: ")
    assert err.count("\n") == 1


def test_simulate_one_bot_fills_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "2", "--bots", "greedy", "--players",
                       "4", "--rounds", "1", "--quiet")
    assert code == 0
    assert all(f"{i}:greedy" in out for i in range(1, 5)) and "5:" not in out


USER_BOTS = '''
from fivecrowns.bots import GreedyBot

SEEDS = []


class Seeded(GreedyBot):
    """Takes a seed: made with seed=<int>."""

    def __init__(self, seed):
        SEEDS.append(seed)
        super().__init__()


class Plain:
    """Takes no argument."""

    def __init__(self):
        self.inner = GreedyBot()

    def choose_draw(self, obs):
        return self.inner.choose_draw(obs)

    def choose_discard(self, obs):
        return self.inner.choose_discard(obs)


class Failing(Plain):
    def __init__(self):
        raise RuntimeError("no table")


class Raising(Plain):
    def choose_draw(self, obs):
        raise KeyError("oops")


NOT_A_PLAYER = 3
'''


@pytest.fixture
def user_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    name = "fc_user_bots"
    (tmp_path / f"{name}.py").write_text(USER_BOTS, encoding="utf-8")
    (tmp_path / "fc_broken_bots.py").write_text("raise ImportError('needs torch')\n",
                                                encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in (name, "fc_broken_bots"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    import importlib

    return importlib.import_module(name)


def test_simulate_with_a_users_bot_classes(capsys: pytest.CaptureFixture[str],
                                           user_bots: types.ModuleType) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "2", "--bots",
                       "fc_user_bots:Seeded,fc_user_bots:Plain,random", "--rounds", "1",
                       "--quiet")
    assert code == 0, out
    assert "1:Seeded" in out and "2:Plain" in out and "3:random" in out
    seeds = user_bots.SEEDS
    assert len(seeds) == 2 and all(isinstance(s, int) for s in seeds)  # one per game
    code, out, _ = run(capsys, "simulate", "--games", "1", "--bots", "fc_user_bots:Plain",
                       "--players", "3", "--rounds", "1", "--quiet")
    assert code == 0 and all(f"{i}:Plain" in out for i in (1, 2, 3))


def test_a_users_bot_module_in_the_current_folder(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """The `fivecrowns` script's sys.path lacks the current folder: --bots adds it."""
    (tmp_path / "fc_here_bots.py").write_text(USER_BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "fc_here_bots", raising=False)
    code, out, _ = run(capsys, "simulate", "--games", "1", "--bots", "fc_here_bots:Plain",
                       "--players", "2", "--rounds", "1", "--quiet")
    assert code == 0 and "1:Plain" in out and sys.path[0] == str(tmp_path)


@pytest.mark.parametrize("spec, message", [
    ("fc_no_such_module:Bot", "cannot import module 'fc_no_such_module': "
                              "ModuleNotFoundError"),
    ("fc_broken_bots:Bot", "cannot import module 'fc_broken_bots': ImportError: needs torch"),
    ("fc_user_bots:Missing", "module 'fc_user_bots' has no 'Missing'"),
    ("fc_user_bots:NOT_A_PLAYER", "is not a player: expected a class with choose_draw"),
    ("fc_user_bots:", "expected a bot name"),
    ("fc_user_bots:Failing", "bot 'Failing': Failing() raised RuntimeError: no table"),
])
def test_simulate_a_bad_bot_class(capsys: pytest.CaptureFixture[str],
                                  user_bots: types.ModuleType, spec: str, message: str) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", "--bots", f"{spec},greedy",
                         "--rounds", "1", "--quiet")
    assert code == 2 and message in err and err.count("\n") == 1


def test_entrants_pickle_and_call_as_the_contract_says(user_bots: types.ModuleType) -> None:
    import pickle

    seeded = _common.bot_factory("fc_user_bots:Seeded")
    plain = _common.bot_factory("fc_user_bots:Plain")
    assert seeded.seeded and not plain.seeded
    assert isinstance(seeded(seed=12), user_bots.Seeded) and user_bots.SEEDS[-1] == 12
    assert isinstance(plain(5), user_bots.Plain)
    assert pickle.loads(pickle.dumps(_common.bot_factory("strong")))(1).__class__.__name__ \
        == "StrongBot"


# --------------------------------------------------------------------------------------------
# --backend / --ray-address
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["simulate", "solitaire"])
def test_ray_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str],
                                           command: str) -> None:
    code, _, err = run(capsys, command, "--games", "1", "--ray-address", "auto")
    assert code == 2 and err == f"fivecrowns {command}: error: --ray-address needs --backend ray\n"


@pytest.mark.parametrize("command", ["simulate", "solitaire"])
def test_the_ray_backend_without_ray(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # not importable
    code, _, err = run(capsys, command, "--games", "1", "--backend", "ray")
    assert code == 2 and "pip install 'fivecrowns[ray]'" in err and err.count("\n") == 1


# --------------------------------------------------------------------------------------------
# bots by name with options, --list-bots, --duplicate
# --------------------------------------------------------------------------------------------


def test_list_bots(capsys: pytest.CaptureFixture[str]) -> None:
    from fivecrowns.registry import bot_names

    for command in ("simulate", "play"):
        code, out, err = run(capsys, command, "--list-bots")
        assert code == 0 and err == ""
        assert all(f"{name} " in out for name in bot_names())
        assert "SearchBot" in out and "worlds: int = 64" in out


def test_simulate_search_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "2", "--bots",
                       "search:worlds=4:policy=greedy,strong", "--rounds", "1", "--quiet")
    assert code == 0
    assert "1:search:worlds=4:policy=greedy" in out and "2:strong" in out


@pytest.mark.parametrize("argv, message", [
    (["--bots", "search:wrlds=256,strong"],
     "--bots: unknown option 'wrlds' for bot 'search' (did you mean 'worlds'?); options: "
     "worlds, candidates"),
    (["--bots", "search:worlds=lots,strong"],
     "--bots: option 'worlds' of bot 'search' expects an int, got 'lots'"),
    (["--bots", "search:policy=oracle,strong"], "policy must be one of"),
    (["--bots", "strong,greedy:depth=2"], "unknown option 'depth' for bot 'greedy'"),
    (["--bots", "search,strong", "--duplicate", "strnog"],
     "--duplicate: unknown bot 'strnog': expected one of random, greedy, strong, search, "
     "expert"),
    (["--bots", "clever,strong", "--duplicate", "strong"], "--bots: unknown bot 'clever'"),
    (["--bots", "search,strong", "--duplicate", "strong,greedy"],
     "--duplicate takes one reference bot, got 2"),
    (["--bots", "search,strong", "--duplicate", ","], "--duplicate needs at least one bot"),
    (["--bots", "search", "--duplicate", "strong"], "a game takes 2 to 7 players"),
    (["--bots", "search,strong", "--duplicate", "strong:lookahead=x"],
     "--duplicate: option 'lookahead' of bot 'strong' expects an int, got 'x'"),
])
def test_bad_bots_and_duplicate(capsys: pytest.CaptureFixture[str], argv: list[str],
                                message: str) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", "--rounds", "1", "--quiet", *argv)
    assert code == 2 and out == ""
    assert err.startswith("fivecrowns simulate: error: ") and message in err
    assert err.count("\n") == 1


def test_simulate_duplicate_table_json_and_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    from fivecrowns import duplicate_match
    from fivecrowns.registry import parse_bot

    argv = ["simulate", "--games", "6", "--bots", "search:worlds=4,strong,greedy",
            "--duplicate", "strong", "--rounds", "1-2", "--seed", "3", "--quiet"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.startswith("6 deals, 3 players, seed 3, rounds 1,2")
    assert "duplicate match: 1:search:worlds=4 against strong in its seat, field 2:strong, " \
           "3:greedy; 6 deals, each played twice" in out
    assert "strong (reference)" in out and "gain " in out
    code, again, _ = run(capsys, *argv, "--jobs", "2")
    assert code == 0 and again == out
    code, text, _ = run(capsys, *argv, "--json")
    summary = json.loads(text)
    assert summary["mode"] == "duplicate" and summary["games"] == 6
    assert (summary["bot"], summary["reference"], summary["field"]) == \
        ("1:search:worlds=4", "strong", ["2:strong", "3:greedy"])
    # the library's numbers, for the same bots
    specs = [parse_bot(t) for t in ("search:worlds=4", "strong", "greedy")]
    bot, *field = [s.factory() for s in specs]
    report = duplicate_match(bot, parse_bot("strong").factory(), field, 6, seed=3,
                             rounds=[1, 2])
    assert summary["gain"] == report.gain and summary["gain_ci"] == list(report.gain_ci)
    assert summary["win_rate"] == report.win_rate
    assert summary["reference_win_rate"] == report.reference_win_rate
    assert f"gain {report.gain:+.2f} points a game" in out


def test_simulate_expert_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    # the command, short: ExpertBot by name in a duplicate match against StrongBot,
    # and its gain deal by deal equal to the compiled engine's seat policies on the same deals
    from fivecrowns.duplicate import paired_gains
    from fivecrowns.rollout import play_games

    code, out, _ = run(capsys, "simulate", "--bots", "expert,strong,strong,strong",
                       "--duplicate", "strong", "--games", "4", "--rounds", "1-3",
                       "--seed", "5", "--json")
    assert code == 0
    summary = json.loads(out)
    assert (summary["bot"], summary["reference"]) == ("1:expert", "strong")
    ref = play_games(4, seed=5, n_players=4, policy="strong", rounds=[1, 2, 3])
    bot = np.zeros_like(ref)
    refs = np.zeros_like(ref)
    for g in range(4):
        seat = -g % 4
        seats = ["strong"] * 4
        seats[seat] = "expert"
        totals = play_games(4, seed=5, n_players=4, policy=seats,  # type: ignore[arg-type]
                            rounds=[1, 2, 3])
        order = [(seat + e) % 4 for e in range(4)]
        bot[g], refs[g] = totals[g][order], ref[g][order]
    assert summary["gain"] == pytest.approx(float(paired_gains(bot, refs).mean()))


def test_simulate_duplicate_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from fivecrowns.game import Game

    path = tmp_path / "pairs.jsonl"
    code, out, _ = run(capsys, "simulate", "--games", "3", "--bots", "greedy,random",
                       "--duplicate", "strong", "--rounds", "1", "--out", str(path), "--quiet")
    assert code == 0 and f"wrote 6 game records to {path} (two per deal)" in out
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["game"], r["duplicate"]) for r in records] == [
        (g, which) for g in range(3) for which in ("bot", "reference")]
    assert "strong" in records[1]["players"] and "1:greedy" in records[0]["players"]
    for r in records:
        assert list(Game.replay(r).totals) == r["totals"]
