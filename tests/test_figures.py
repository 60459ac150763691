"""The figures of the docs: each is committed beside the JSON it is drawn from, shown by a
page of the docs, and ``benchmarks/figures.py`` draws it again from that JSON (where
matplotlib, of the ``docs`` extra, is installed)."""

from __future__ import annotations

import importlib.util
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures"
SCRIPT = ROOT / "benchmarks" / "figures.py"

pytestmark = pytest.mark.skipif(not (SCRIPT.is_file() and FIGURES.is_dir()),
                                reason="no benchmarks/ and docs/figures/ beside the tests")


def figures_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("figures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_figure_is_committed_shown_and_sourced() -> None:
    drawn = figures_module().DRAWN
    shown = set()
    for page in (ROOT / "docs").rglob("*.rst"):
        shown |= set(re.findall(r"^\.\. figure:: (?:\.\./)*figures/(\S+)$",
                                page.read_text(encoding="utf-8"), re.M))
    assert shown == set(drawn), "every figure drawn is shown in the docs, and only those"
    for name, source in drawn.items():
        assert (FIGURES / name).is_file(), f"docs/figures/{name} is not committed"
        data = json.loads((FIGURES / source).read_text(encoding="utf-8"))
        assert data["command"].startswith("python benchmarks/"), source
        assert {"date", "cpus", "load_1min", "core"} <= set(data["machine"]), source
        for row in data.get("gains", []):  # a number not measured by the run says where
            assert row["source"] == "measured by this run" or \
                row["source"].startswith("recorded in docs/"), row


@pytest.mark.slow
def test_the_figures_are_drawn_from_the_committed_json(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    module = figures_module()
    written = module.draw(out=tmp_path)
    assert sorted(p.name for p in written) == sorted(module.DRAWN)
    for path in written:
        root = ET.parse(path).getroot()
        assert root.tag.endswith("svg"), path
        text = path.read_text(encoding="utf-8")
        assert "<dc:date>" not in text  # no date: the same JSON draws the same file
    speed = (tmp_path / "solver_speed.svg").read_text(encoding="utf-8")
    assert "million hands per second" in speed and "plain bulk rate" in speed
    assert "Paired gain over StrongBot" in (tmp_path / "bot_gains.svg").read_text("utf-8")
