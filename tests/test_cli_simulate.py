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
from fivecrowns.distributed import RAY_CONNECT_TIMEOUT
from helpers.engines import sized, slow_on_twins

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
    # without --players too, as `play --bots strong` does: the default line-up's 4 seats
    # (0.4 refused: "a game takes 2 to 7 players ..., got 1")
    code, again, _ = run(capsys, "simulate", "--games", "2", "--bots", "greedy", "--rounds",
                         "1", "--quiet")
    assert code == 0 and again == out


def test_duplicate_says_when_seats_rotate_unevenly(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--bots", "greedy,random", "--duplicate", "random", "--rounds", "1",
            "--quiet"]
    code, _, err = run(capsys, *argv, "--games", "3")
    assert code == 0 and err == (
        "note: 3 deals for 2 seats: the bot under test sits in some seats once more than in "
        "others; a multiple of 2 (e.g. --games 4) rotates it through every seat equally\n")
    code, _, err = run(capsys, *argv, "--games", "4")
    assert code == 0 and err == ""


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


MADE = [0]


class StopsAtGame13(Plain):
    """Ctrl-C, as the terminal sends it, while game 12 is being set up (one per game)."""

    def __init__(self):
        MADE[0] += 1
        if MADE[0] == 13:
            raise KeyboardInterrupt
        super().__init__()


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


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_raising_bot_shows_its_traceback_on_request(capsys: pytest.CaptureFixture[str],
                                                      user_bots: types.ModuleType,
                                                      jobs: str) -> None:
    """One line by default, naming --traceback; with it, the whole chain down to the line
    of the bot's own code that raised (from a worker process too)."""
    from fivecrowns.cli import main

    argv = ["simulate", "--games", "2", "--bots", "fc_user_bots:Raising,greedy", "--rounds",
            "1", "--quiet", "--jobs", jobs]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.endswith("(Raising) raised KeyError: 'oops' (--traceback shows where)\n")
    assert main([*argv, "--traceback"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback (most recent call last)" in err
    assert 'fc_user_bots.py", line' in err and 'raise KeyError("oops")' in err
    assert err.splitlines()[-1].endswith("(Raising) raised KeyError: 'oops'")


def test_traceback_is_an_option_of_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from fivecrowns.cli import build_parser, main

    for name, parser in build_parser().commands.items():  # type: ignore[attr-defined]
        assert "--traceback" in parser.format_help(), name
    assert main(["solve", "3C ZZ", "--wild", "5", "--traceback"]) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert err.splitlines()[-1].startswith("fivecrowns solve: error: cannot parse card 'ZZ'")
    code, _, err = run(capsys, "solve", "3C ZZ", "--wild", "5")  # not a bot's: no hint
    assert code == 2 and "--traceback" not in err


@pytest.mark.parametrize("extra", [[], ["--json"], ["--duplicate", "random"]])
def test_ctrl_c_prints_the_finished_games_marked_partial(
        capsys: pytest.CaptureFixture[str], user_bots: types.ModuleType,
        extra: list[str]) -> None:
    """Without --out, Ctrl-C used to throw the finished games away: their table (or JSON)
    is printed, marked partial, and the exit status is still 130."""
    from fivecrowns.cli import main

    argv = ["simulate", "--games", "20", "--bots", "fc_user_bots:StopsAtGame13,greedy",
            "--rounds", "1", "--quiet", *extra]
    user_bots.MADE[0] = 0
    assert main(argv) == 130
    out, err = capsys.readouterr()
    user_bots.MADE[0] = -100
    assert main([*argv[:2], "10", *argv[3:]]) == 0  # the same first 10 games, whole
    whole, _ = capsys.readouterr()
    unit = "deals" if "--duplicate" in extra else "games"
    assert err.startswith(f"PARTIAL RESULTS: interrupted after 10 of 20 {unit}\n") \
        if extra == ["--json"] else out.startswith(f"PARTIAL RESULTS: interrupted after 10 "
                                                   f"of 20 {unit}\n")
    assert err.endswith("Interrupted.\n")
    if extra == ["--json"]:
        assert json.loads(out) == {**json.loads(whole), "partial": True}
    else:
        assert out.split("\n", 1)[1] == whole


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


def _ray_present() -> None:
    """Skip without Ray (fail under CI): the CLI's --backend ray looks for it first."""
    import importlib.util

    from conftest import extras_required

    if importlib.util.find_spec("ray") is None:
        if extras_required():
            pytest.fail("CI requires the fivecrowns[ray] extra", pytrace=False)
        pytest.skip("Ray is not installed")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["simulate", "solitaire", "score"])
def test_an_unreachable_ray_cluster_fails_at_once(tmp_path: Path, command: str) -> None:
    """Ray itself retries 127.0.0.1:1 for over ten minutes; the CLI says in one line that
    nothing answers there, in a child process as a user runs it, well within its timeout."""
    import subprocess
    import time

    import fivecrowns

    _ray_present()
    np.save(tmp_path / "h.npy", np.zeros((2, 56), np.uint8))
    argv = {"score": ["score", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"), "--wild",
                      "5"]}.get(command, [command, "--games", "2"])
    src = str(Path(fivecrowns.__file__).parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    env.pop("RAY_ADDRESS", None)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "fivecrowns", *argv, "--backend", "ray",
                           "--ray-address", "127.0.0.1:1", "--quiet"], capture_output=True,
                          text=True, env=env, timeout=RAY_CONNECT_TIMEOUT * 4)
    took = time.monotonic() - started
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"fivecrowns {command}: error: cannot reach a Ray cluster at "
                           f"'127.0.0.1:1': connection refused\n")
    assert took < RAY_CONNECT_TIMEOUT


def test_a_silent_ray_cluster_times_out(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An address that never answers (packets dropped) ends after --ray-timeout seconds."""
    import socket

    _ray_present()
    waited: list[float | None] = []

    def silent(address: tuple[str, int], timeout: float | None = None) -> socket.socket:
        waited.append(timeout)
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    code, out, err = run(capsys, "simulate", "--games", "1", "--backend", "ray",
                         "--ray-address", "ray://head:10001", "--ray-timeout", "2.5")
    assert (code, out, waited) == (2, "", [2.5])
    assert err == ("fivecrowns simulate: error: cannot reach a Ray cluster at "
                   "'ray://head:10001': no answer within 2.5 s (--ray-timeout sets how long "
                   "to wait)\n")
    code, _, err = run(capsys, "solitaire", "--games", "1", "--ray-timeout", "5")
    assert code == 2 and err == "fivecrowns solitaire: error: --ray-timeout needs --backend ray\n"
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")  # the environment's address too
    code, _, err = run(capsys, "solitaire", "--games", "1", "--backend", "ray")
    assert code == 2 and "'10.0.0.1:6379': no answer within 30 s" in err
    assert waited[-1] == RAY_CONNECT_TIMEOUT


def test_check_reachable_api() -> None:
    from fivecrowns.distributed import check_reachable

    with pytest.raises(ConnectionError, match=r"^cannot reach a Ray cluster at "
                                              r"'127\.0\.0\.1:1': connection refused$"):
        check_reachable("127.0.0.1:1", timeout=5)
    for address in ("auto", "local", "http://x:1", "no-port"):
        check_reachable(address)  # left to Ray
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        check_reachable("127.0.0.1:1", timeout=0)
    with pytest.raises(TypeError, match="ray_address must be a str"):
        check_reachable(6379)  # type: ignore[arg-type]


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
     "expert, learned"),
    (["--bots", "clever,strong", "--duplicate", "strong"], "--bots: unknown bot 'clever'"),
    (["--bots", "search,strong", "--duplicate", "strong,greedy"],
     "--duplicate takes one reference bot, got 2"),
    (["--bots", "search,strong", "--duplicate", ","], "--duplicate needs at least one bot"),
    (["--bots", "search", "--players", "1", "--duplicate", "strong"],
     "a game takes 2 to 7 players"),
    # 0.4 played the bot against itself: gain +0.00 (95% CI +0.00..+0.00), without a word
    (["--duplicate", "strong"], "--duplicate strong is the bot under test itself (strong, the "
                                "first of the default line-up)"),
    (["--bots", "search:worlds=8,strong", "--duplicate", "search:worlds=8"],
     "is the bot under test itself (search:worlds=8, the first of --bots)"),
    # 0.4 dropped the empty entry and seated one player fewer
    (["--bots", "strong,,greedy"], "--bots 'strong,,greedy': entry 2 of 3 is empty"),
    (["--bots", "search,strong", "--duplicate", "strong,"], "entry 2 of 2 is empty"),
    # 0.4: ModuleNotFoundError: No module named 'examples/custom_bot', and no hint
    (["--bots", "examples/custom_bot.py:WildHunter,greedy"],
     "'examples/custom_bot.py' is a file path; give the module's dotted name, as Python "
     "imports it from the current folder: examples.custom_bot:WildHunter"),
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

    # SearchBot's rollouts take a minute a deal on the pure-Python twins: fewer there
    games, rounds = sized((6, [1, 2]), (2, [1]))
    argv = ["simulate", "--games", str(games), "--bots", "search:worlds=4,strong,greedy",
            "--duplicate", "strong", "--rounds", ",".join(map(str, rounds)), "--seed", "3",
            "--quiet"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.startswith(f"{games} deals, 3 players, seed 3, rounds "
                          f"{','.join(map(str, rounds))}")
    assert "duplicate match: 1:search:worlds=4 against strong in its seat, field 2:strong, " \
           f"3:greedy; {games} deals, each played twice" in out
    assert "strong (reference)" in out and "gain " in out
    code, again, _ = run(capsys, *argv, "--jobs", "2")
    assert code == 0 and again == out
    code, text, _ = run(capsys, *argv, "--json")
    summary = json.loads(text)
    assert summary["mode"] == "duplicate" and summary["games"] == games
    assert (summary["bot"], summary["reference"], summary["field"]) == \
        ("1:search:worlds=4", "strong", ["2:strong", "3:greedy"])
    # the library's numbers, for the same bots
    specs = [parse_bot(t) for t in ("search:worlds=4", "strong", "greedy")]
    bot, *field = [s.factory() for s in specs]
    report = duplicate_match(bot, parse_bot("strong").factory(), field, games, seed=3,
                             rounds=rounds)
    assert summary["gain"] == report.gain and summary["gain_ci"] == list(report.gain_ci)
    assert summary["win_rate"] == report.win_rate
    assert summary["reference_win_rate"] == report.reference_win_rate
    assert summary["score_ci"] == list(report.score_ci)
    assert summary["reference_score_ci"] == list(report.reference_score_ci)
    assert f"gain {report.gain:+.2f} points a game" in out


@slow_on_twins
def test_simulate_expert_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    # the command, short: ExpertBot by name in a duplicate match against StrongBot,
    # and its gain deal by deal equal to the compiled engine's seat policies on the same deals
    from fivecrowns.duplicate import paired_gains
    from fivecrowns.rollout import play_games

    games, rounds = sized((4, [1, 2, 3]), (2, [1]))  # ExpertBot: minutes on the twins
    code, out, _ = run(capsys, "simulate", "--bots", "expert,strong,strong,strong",
                       "--duplicate", "strong", "--games", str(games), "--rounds",
                       ",".join(map(str, rounds)), "--seed", "5", "--json")
    assert code == 0
    summary = json.loads(out)
    assert (summary["bot"], summary["reference"]) == ("1:expert", "strong")
    ref = play_games(games, seed=5, n_players=4, policy="strong", rounds=rounds)
    bot = np.zeros_like(ref)
    refs = np.zeros_like(ref)
    for g in range(games):
        seat = -g % 4
        seats = ["strong"] * 4
        seats[seat] = "expert"
        totals = play_games(games, seed=5, n_players=4, policy=seats,  # type: ignore[arg-type]
                            rounds=rounds)
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


@pytest.mark.parametrize("argv", [
    ("simulate", "--games", "10000000000", "--rounds", "1", "--bots", "greedy,greedy"),
    ("simulate", "--games", "100000000000000000000", "--duplicate", "greedy"),
    ("solitaire", "--games", "5000000000"),
])
def test_too_many_games_is_one_line(capsys: pytest.CaptureFixture[str],
                                    argv: tuple[str, ...]) -> None:
    # 0.4: NumPy's _ArrayMemoryError traceback (every seed made up front), or "Maximum
    # allowed dimension exceeded" without naming --games
    code, out, err = run(capsys, *argv, "--quiet")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"error: --games {int(argv[2]):,} is too many" in err
