"""Every script of examples/ runs, with small arguments, and prints what it promises.

Each runs in a fresh interpreter, as a user would run it, against the package these tests
import. A script that needs an optional extra is skipped without it (and fails under CI,
which installs every extra). The training recipe has its own test (test_example_train.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import fivecrowns
from conftest import need

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="no examples/ beside the tests")


def run(script: str, *args: str, cwd: Path | None = None) -> str:
    """The script's output; its error output in the message if it fails."""
    env = dict(os.environ)
    # the package under test, first: an installed one, or the checkout's src/
    package_parent = str(Path(fivecrowns.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True,
                          text=True, timeout=600, env=env, cwd=cwd)
    assert done.returncode == 0, f"{script} {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def test_every_example_is_tested_and_indexed() -> None:
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    tested = Path(__file__).read_text(encoding="utf-8")
    train_test = Path(__file__).with_name("test_example_train.py")
    if train_test.exists():
        tested += train_test.read_text(encoding="utf-8")
    index = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert scripts, "examples/ holds no script"
    for name in scripts:
        assert f'"{name}"' in tested, f"examples/{name} is run by no test"
        assert f"({name})" in index, f"examples/{name} is not in examples/README.md"


@pytest.mark.slow
@pytest.mark.parametrize("script", ["bulk_scoring.py", "custom_bot.py",
                                    "duplicate_match.py", "score_parquet.py"])
def test_help_is_whole(script: str) -> None:
    """--help gives the docstring's whole first paragraph (it stopped mid-sentence at its
    first line) and says what every option is."""
    if script == "score_parquet.py":
        need("pyarrow")
    text = run(script, "--help")
    doc = (EXAMPLES / script).read_text(encoding="utf-8").split('"""')[1]
    first = " ".join(doc.split("\n\n")[0].split())
    assert first in " ".join(text.split()) and first[-1] in ".?"
    options = text.split("options:")[1]
    flags = re.findall(r"^  (--[\w-]+)(?: \S+)?\s*$", options, re.M)
    assert not flags, f"options without help: {flags}"


@pytest.mark.slow
def test_bulk_scoring() -> None:
    out = run("bulk_scoring.py", "--hands", "500", "--seed", "3", "--threads", "1")
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s+\d+\s", line)]
    assert [int(r[0]) for r in rows] == list(range(1, 12))
    assert [int(r[1]) for r in rows] == list(range(3, 14))
    assert [r[2] for r in rows] == [str(n) for n in range(3, 11)] + ["J", "Q", "K"]
    for r in rows:
        complete, out_after = float(r[4].rstrip("%")), float(r[5].rstrip("%"))
        # a hand that is complete as dealt still goes out after drawing: discard the card
        assert 0 < float(r[3]) and 0 <= complete <= out_after <= 100
    assert "dealt and scored 11,000 hands" in out
    # seeded: the same seed prints the same table
    again = run("bulk_scoring.py", "--hands", "500", "--seed", "3", "--threads", "2")
    assert again.splitlines()[:13] == out.splitlines()[:13]


@pytest.mark.slow
def test_score_parquet(tmp_path: Path) -> None:
    need("pyarrow")
    out = run("score_parquet.py", "--rows", "40", "--seed", "2")
    assert "scored 40 of 41 hands, 1 bad row(s) set aside, in a temporary folder" in out
    assert "mean deadwood" in out and "cannot parse card '9Z'" in out
    # no path into the temporary folder it deletes
    assert tempfile.gettempdir() not in out and ".parquet" not in out and ".csv" not in out

    # a user's own file: the deadwoods written are the solver's
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "mine.parquet"
    hands = ["5C 6C 7C 9D 9H 9S KH", "3C 4D 8H", "JK JK QS QT"]
    pq.write_table(pa.table({"hand": hands}), src)
    dst = tmp_path / "scored.parquet"
    out = run("score_parquet.py", str(src), "--wild", "5", "--out", str(dst))
    assert f"scored 3 of 3 hands into {dst}" in out and "bad rows" not in out
    written = pq.read_table(dst).column("deadwood").to_pylist()
    assert written == [fivecrowns.deadwood(h, wild=5) for h in hands]


@pytest.mark.slow
def test_custom_bot() -> None:
    out = run("custom_bot.py", "--games", "3", "--seed", "4")
    assert "3 games of 3 players" in out
    names = [line.split()[0] for line in out.splitlines()[2:5]]
    assert names == ["WildHunter", "GreedyBot", "RandomBot"]
    assert all(line.split()[1] == "3" for line in out.splitlines()[2:5])


def test_custom_bot_keeps_the_rules() -> None:
    # The bot is importable and plays legal games on its own (an illegal move would raise).
    sys.path.insert(0, str(EXAMPLES))
    try:
        from custom_bot import WildHunter
    finally:
        sys.path.remove(str(EXAMPLES))
    res = fivecrowns.play_game([WildHunter(), WildHunter()], seed=11, rounds=[1, 6, 11])
    assert len(res.rounds) == 3 and min(res.totals) >= 0


@pytest.mark.slow
def test_duplicate_match() -> None:
    out = run("duplicate_match.py", "--games", "4", "--players", "3", "--seed", "5")
    assert "4 deals, 3 players" in out
    assert re.search(r"StrongBot's gain over GreedyBot: [+-]\d+\.\d points a game "
                     r"\(95% CI [+-]\d+\.\d to [+-]\d+\.\d\)", out)
