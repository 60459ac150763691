"""The command line: ``main([...])`` with captured output, and ``python -m fivecrowns``.

``simulate`` is in test_cli_simulate.py, the interactive game in test_cli_play.py,
``replay`` in test_cli_replay.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import fivecrowns.cli
from conftest import run_cli
from fivecrowns.cli import _common, _engine, build_parser, parse_rounds

SUBCOMMANDS = ["solve", "solitaire", "simulate", "replay", "play", "bench"]
CLI_DIR = Path(fivecrowns.cli.__file__).parent


run = run_cli


# --------------------------------------------------------------------------------------------
# The package and its parser
# --------------------------------------------------------------------------------------------


def test_the_cli_is_a_package_of_small_modules() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in CLI_DIR.glob("*.py")}
    assert {"__init__.py", "_common.py", "_engine.py", "play.py", "replay.py"} <= set(sizes)
    assert max(sizes.values()) <= 600, sizes
    text = "".join(p.read_text(encoding="utf-8") for p in CLI_DIR.glob("*.py"))
    # No guard around the package's own modules: they always ship (an optional extra's
    # ImportError, such as pyarrow's, is a real error to report).
    assert "_ENGINE_MISSING" not in text
    assert not re.search(r"try:\n\s+from \.\.?\w* import [^\n]*\n\s+except ImportError", text)


def test_no_arguments_prints_help_and_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 0.4 printed the help on stdout and exited 0, so a script calling `fivecrowns` without
    # its command went on as if it had worked; argparse's usage errors exit 2
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("usage: fivecrowns") and all(c in err for c in SUBCOMMANDS)
    assert err.splitlines()[-1].startswith("fivecrowns: error: choose a command")


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: fivecrowns {command}")
    assert "RULES.md" not in out


def test_help_cites_the_rules_in_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solitaire", "--help")
    assert code == 0 and "docs/rules.rst" in " ".join(out.split())


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"fivecrowns {version('fivecrowns')}\n"


@pytest.mark.parametrize("argv", [
    ["solve", "3C", "--wild", "7", "--bogus"],
    ["simulate", "--games", "1", "--frobnicate", "3"],
    ["solitaire", "--strategy", "greedy", "extra"],
])
def test_a_bad_option_shows_its_subcommands_usage(capsys: pytest.CaptureFixture[str],
                                                   argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"usage: fivecrowns {argv[0]} ")
    assert f"fivecrowns {argv[0]}: error: unrecognized arguments:" in err


def test_parse_rounds() -> None:
    assert parse_rounds("1-3, 9,11") == [1, 2, 3, 9, 11]
    assert build_parser().parse_args(["play", "--rounds", "2"]).rounds == [2]


# --------------------------------------------------------------------------------------------
# solve
# --------------------------------------------------------------------------------------------


def test_solve_draws_the_partition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "3C 4C 5C JK 9D", "--wild", "7")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "hand  3♣ 4♣ 5♣ JK 9♦   (wild rank 7, and jokers)",
        "run   3♣ 4♣ 5♣ JK(6♣)",
        "left  9♦",
        "deadwood 9",
    ]


def test_solve_takes_the_cards_as_separate_words(capsys: pytest.CaptureFixture[str]) -> None:
    quoted = run(capsys, "solve", "5C 7C 9C", "--wild", "3")
    unquoted = run(capsys, "solve", "5C", "7C", "9C", "--wild", "3")
    assert unquoted == quoted and quoted[0] == 0
    code, out, _ = run(capsys, "solve", "3C", "4C,5C", "JK", "9D", "--wild", "7", "--discard",
                       "--ascii")
    assert code == 0 and "discard 9D" in out
    assert run(capsys, "solve", "5C", "--wild", "3", "7C", "9C") == quoted  # cards after it


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
    (["solve", "--wild", "7"], "the following arguments are required: hand"),
    (["solve", "3C 4C", "--wild", "5", "--decks", "3"], "expected 2 decks"),
    (["solitaire", "--games", "0"], "expected a positive integer, got '0'"),
    (["solitaire", "--strategy", "best"], "invalid choice: 'best'"),
    (["solitaire", "--show", "--json"], "--json summarises many games"),
    (["simulate", "--games", "1", "--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["simulate", "--games", "1", "--players", "3", "--bots", "greedy,greedy"],
     "--players 3 does not match the 2 bots"),
    (["simulate", "--games", "1", "--players", "1"], "a game takes 2 to 7 players"),
    (["simulate", "--games", "1", "--bots", "strong,,greedy"], "entry 2 of 3 is empty"),
    (["play", "--bots", "strong,greedy,"], "entry 3 of 3 is empty"),
    (["simulate", "--games", "1", "--players", "2", "--rounds", "0-3"],
     "round numbers must be 1..11"),
    (["simulate", "--games", "1", "--out", "-", "--json"], "both write to standard output"),
    (["play", "--players", "9"], "a game takes 2 to 7 players"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "error" in err


# --------------------------------------------------------------------------------------------
# solitaire
# --------------------------------------------------------------------------------------------


def test_solitaire_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solitaire", "--games", "3", "--strategy", "greedy",
                         "--seed", "4", "--quiet")
    assert code == 0 and err == ""
    assert "games         3 (seed 4)" in out
    assert "win rate" in out and "95% CI" in out and "piles closed" in out and "turns" in out


def test_solitaire_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solitaire", "--games", "3", "--seed", "4", "--json",
                         "--quiet")
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["command"] == "solitaire" and summary["games"] == 3
    assert summary["strategy"] == "greedy" and summary["seed"] == 4
    lo, hi = summary["win_ci"]
    assert 0 <= lo <= summary["win_rate"] <= hi <= 1
    assert {"wins", "mean_piles_closed", "piles_closed_ci", "mean_turns", "turns_ci"} \
        <= set(summary)
    code, table, _ = run(capsys, "solitaire", "--games", "3", "--seed", "4", "--quiet")
    assert f"wins          {summary['wins']}\n" in table
    assert table.splitlines()[0] == "strategy      greedy"


def test_solitaire_show_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solitaire", "--show", "--seed", "3", "--ascii")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "seed 3, strategy greedy" and lines[1].startswith("pile  3 (open  )")
    assert "turn 1: " in out and lines[-1].split(":")[0] in ("won", "lost")
    from fivecrowns.solitaire import play_solitaire

    result = play_solitaire("greedy", seed=3)  # --show plays the very game of the seed
    assert lines[-1] == (f"{'won' if result.won else 'lost'}: {result.piles_closed} piles "
                         f"closed in {result.turns} turns")


# --------------------------------------------------------------------------------------------
# bench
# --------------------------------------------------------------------------------------------

BENCH_TABLE = """\
fivecrowns compiled core, CPython 3.11.7, x86_64, 2 CPUs (quick run)

deadwood_many, 13 cards, K wild, 1 thread   3,000,000 /s  (333 ns each)         hands
compiled / pure-Python speed, 13 cards      x1,234
slowest hand of the adversarial set         12.5 us                            hand 7"""


def fake_bench(monkeypatch: pytest.MonkeyPatch, report: object,
               report_data: object = None) -> None:
    fake = types.ModuleType("fivecrowns.bench")
    fake.report = report  # type: ignore[attr-defined]
    fake.report_data = report_data  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fivecrowns.bench", fake)


def test_bench_prints_the_table_or_json(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"name": "slowest hand of the adversarial set", "value": "12.5 us",
             "note": "hand 7", "seconds": 1.25e-05, "hand": 7}]
    fake_bench(monkeypatch, lambda quick: BENCH_TABLE if quick else "TABLE",
               lambda quick: {"title": BENCH_TABLE.splitlines()[0], "table": BENCH_TABLE,
                              "rows": rows})
    code, out, _ = run(capsys, "bench")
    assert code == 0 and out == "TABLE\n"
    code, out, _ = run(capsys, "bench", "--quick", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["command"] == "bench" and summary["quick"] is True
    assert summary["title"].startswith("fivecrowns compiled core")
    assert summary["rows"] == rows


def test_bench_json_gives_the_figures_as_numbers(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.4's rows were the table's text only ("5,874,693 /s  (170 ns each)"): every figure
    # is now a number too. The timers are stood in for, so the numbers are known.
    from fivecrowns import bench

    monkeypatch.setattr(bench, "_best", lambda fn, repeats: 0.002)
    monkeypatch.setattr(bench, "_best_pair", lambda fa, fb, repeats: (0.004, 0.002))
    monkeypatch.setattr(bench, "peak_memory", lambda fn: (0.1, 3 * 2**20))
    monkeypatch.setattr(bench, "slowest_hand", lambda c, w, repeats=3: (12.5e-6, 7))
    code, out, _ = run(capsys, "bench", "--quick", "--json")
    assert code == 0
    rows = {r["name"]: r for r in json.loads(out)["rows"]}
    two = rows["deadwood_many, 13 cards, K wild, 2 threads"]
    assert two["value"] == "50,000,000 /s  (20 ns each)" and two["note"] == "x2.00 vs 1 thread"
    assert (two["items"], two["seconds"], two["speedup"]) == (100_000, 0.002, 2.0)
    assert two["per_second"] == 100_000 / 0.002 and two["seconds_each"] == 0.002 / 100_000
    assert rows["slowest hand of the adversarial set"] == {
        "name": "slowest hand of the adversarial set", "value": "12.5 us", "note": "hand 7",
        "seconds": 12.5e-6, "hand": 7}
    assert rows["random_hands, 13 cards"]["peak_bytes"] == 3 * 2**20
    for row in rows.values():  # every row has its figures, and only numbers beside the text
        figures = {k: v for k, v in row.items() if k not in ("name", "value", "note")}
        assert figures and all(type(v) in (int, float) for v in figures.values()), row
    assert bench.report(quick=True) == bench.report_data(quick=True)["table"]


def test_bench_errors_exit_2(capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(quick: bool) -> str:
        raise ValueError("no timer")

    fake_bench(monkeypatch, broken)
    code, out, err = run(capsys, "bench", "--quick")
    assert code == 2 and out == "" and err == "fivecrowns bench: error: no timer\n"


# --------------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------------


def test_progress_lines_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_common, "PROGRESS_INTERVAL", 0.0)
    code, out, err = run(capsys, "simulate", "--games", "3", "--players", "2", "--rounds",
                         "1")
    assert code == 0 and "win rate" in out
    lines = err.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "simulate: 1/3 games (33%)", "simulate: 2/3 games (66%)", "simulate: 3/3 games (100%)"]
    assert all(line.endswith(" s") for line in lines)
    code, out, err = run(capsys, "solitaire", "--games", "2")
    assert code == 0 and err.splitlines()[-1].startswith("solitaire greedy: 2/2 games (100%), ")
    code, out, err = run(capsys, "simulate", "--games", "3", "--players", "2", "--rounds", "1",
                         "--quiet")
    assert code == 0 and err == ""


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_lines_every_interval() -> None:
    import io

    clock, stream = Clock(), io.StringIO()
    with _common.progress(1000, "simulate", quiet=False, stream=stream, interval=5.0,
                          clock=clock) as update:
        for _ in range(10):
            clock.now += 1.0
            update(100)
    assert stream.getvalue().splitlines() == [
        "simulate: 500/1000 games (50%), 5.0 s",
        "simulate: 1000/1000 games (100%), 10.0 s",
    ]
    stream = io.StringIO()
    with _common.progress(10, "solitaire", quiet=False, stream=stream, interval=5.0,
                          clock=Clock()) as update:
        update(10)  # a short run: no line at all
    assert stream.getvalue() == ""


def test_progress_bar_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = run(capsys, "solitaire", "--games", "2", "--seed", "1")
    assert code == 0 and "solitaire greedy" in err and "game" in err  # the bar, on stderr
    assert "win rate" in out and "solitaire greedy" not in out
    code, out, err = run(capsys, "solitaire", "--games", "2", "--seed", "1", "--quiet")
    assert code == 0 and err == ""


# --------------------------------------------------------------------------------------------
# As a program
# --------------------------------------------------------------------------------------------


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    import fivecrowns

    where = str(Path(fivecrowns.__file__).resolve().parent.parent)
    path = os.pathsep.join([str(tmp_path), where])
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONWARNINGS", "FIVECROWNS_IMPLEMENTATION")}
    return {**env, "PYTHONPATH": path, "PYTHONIOENCODING": "utf-8", **extra}


@pytest.mark.slow
def test_python_dash_m(tmp_path: Path) -> None:
    # on the route this run is on: without the compiled core, a child not told to use the
    # twins warns at import, and this test wants a clean stderr
    route = os.environ.get("FIVECROWNS_IMPLEMENTATION")
    env = _env(tmp_path, **({"FIVECROWNS_IMPLEMENTATION": route} if route else {}))
    done = subprocess.run([sys.executable, "-m", "fivecrowns", "solve", "5C 6C 7C KD",
                           "--wild", "13", "--discard"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "discard K♦" in done.stdout
    done = subprocess.run([sys.executable, "-m", "fivecrowns", "solve", "ZZ", "--wild", "5"],
                          capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot parse card 'ZZ'" in done.stderr
    done = subprocess.run([sys.executable, "-m", "fivecrowns.cli", "solve", "5C", "--wild",
                           "5", "--ascii"], capture_output=True, text=True, env=env,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "" and "left  5C" in done.stdout


# Stands in for the warning the library gives at import when the pure-Python twin is in use
# and nobody asked for it (FIVECROWNS_IMPLEMENTATION unset): the compiled core is hidden, and
# if importing fivecrowns.solver gives no RuntimeWarning itself, this hook gives one. Worker
# processes start afresh (spawn), so each would import fivecrowns again.
WARNING_AT_IMPORT = '''
import multiprocessing, os, sys, warnings

sys.modules["fivecrowns._solver"] = None  # the compiled core is missing
multiprocessing.set_start_method("spawn")


class _Loader:
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            self.inner.exec_module(module)
        for w in seen:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        unasked = not os.environ.get("FIVECROWNS_IMPLEMENTATION")
        if unasked and not any(issubclass(w.category, RuntimeWarning) for w in seen):
            warnings.warn("fivecrowns is using its pure-Python solver", RuntimeWarning)


class _Finder:
    def find_spec(self, name, path=None, target=None):
        if name != "fivecrowns.solver":
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        spec.loader = _Loader(spec.loader)
        return spec


sys.meta_path.insert(0, _Finder())
'''


@pytest.mark.parametrize("argv", [
    ["solve", "5C 6C 7C KD", "--wild", "13", "--ascii"],
    ["simulate", "--games", "4", "--players", "2", "--rounds", "1", "--jobs", "2"],
    ["solitaire", "--games", "4", "--jobs", "2"],
])
@pytest.mark.slow
def test_a_warning_at_import_shows_once_and_is_no_traceback(tmp_path: Path,
                                                            argv: list[str]) -> None:
    (tmp_path / "sitecustomize.py").write_text(WARNING_AT_IMPORT, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "fivecrowns", *argv], capture_output=True,
                          text=True, env=_env(tmp_path), timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    warned = [line for line in done.stderr.splitlines() if ": RuntimeWarning: " in line]
    assert len(warned) == 1, done.stderr
    assert done.stdout.strip()


def test_workers_are_told_to_use_the_fallback_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIVECROWNS_IMPLEMENTATION", raising=False)
    monkeypatch.setattr(_engine, "IMPLEMENTATION", "python")
    with _engine.same_solver_in_workers():
        assert os.environ["FIVECROWNS_IMPLEMENTATION"] == "python"
    assert "FIVECROWNS_IMPLEMENTATION" not in os.environ
    monkeypatch.setattr(_engine, "IMPLEMENTATION", "compiled")
    with _engine.same_solver_in_workers():
        assert "FIVECROWNS_IMPLEMENTATION" not in os.environ
