"""Doctests: the examples in every docstring of the package, in docs/ and in README.md.

Module docstrings run against the *imported* package (installed or editable), so the
examples are checked against the code users get. The pages of ``docs/`` and README.md
are read as text: every ``>>>`` example in them runs, one file sharing one namespace.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import io
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

import fivecrowns
from conftest import need, require_extra
from helpers.engines import ON_TWINS, SLOW_ON_TWINS, compiled_engine, slow_on_twins

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


#: Pages and modules that need the fivecrowns[rl] extra: skipped without it (failed in CI).
_RL_FRAMEWORKS = ("pettingzoo", "gymnasium", "pyspiel")


def _needs_rl() -> set[str]:
    """frameworks.rst, and every module of the package that imports a framework through
    ``requires("rl", ...)``: found, not listed, so a new one cannot be forgotten (two
    were, and the plain [test] install failed importing them)."""
    root = Path(fivecrowns.__file__).resolve().parent
    found = {"frameworks.rst"}
    for path in root.rglob("*.py"):
        if 'requires("rl"' in path.read_text(encoding="utf-8"):
            found.add(".".join(path.relative_to(root.parent).with_suffix("").parts))
    return found


_NEEDS_RL = _needs_rl()
#: Modules that need the fivecrowns[train] extra (Stable-Baselines3): skipped without it,
#: CI included, whose main run has no torch (the training step runs them).
_NEEDS_TRAIN = {"fivecrowns.envs.sb3": "stable_baselines3"}


#: Modules whose examples record decision data, which only the compiled engine does: they
#: skip where the pure-Python twins run (and fail where the compiled core is required).
_NEEDS_COMPILED = ("fivecrowns.decisions",)
#: Modules whose examples play whole games or many worlds: a minute or more each on the
#: pure-Python twins, so ``slow`` there; the pages' examples too (simulations whose figures
#: they quote), below.
_SLOW_ON_TWINS = ("fivecrowns.learned", "fivecrowns.rollout", "fivecrowns.search",
                  "fivecrowns.solitaire.search")


def _module_names() -> list[Any]:
    names = ["fivecrowns"]
    names += [m.name for m in pkgutil.walk_packages(fivecrowns.__path__, "fivecrowns.")]
    return [pytest.param(n, marks=SLOW_ON_TWINS) if n in _SLOW_ON_TWINS else n
            for n in sorted(names)]


def _run(tests: list[doctest.DocTest]) -> tuple[int, str]:
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test, out=out.write)
    return runner.failures, out.getvalue()


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name: str) -> None:
    if name in _NEEDS_RL:
        require_extra(*_RL_FRAMEWORKS)
    if name in _NEEDS_TRAIN:
        pytest.importorskip(_NEEDS_TRAIN[name])
    if name in _NEEDS_COMPILED:
        compiled_engine()
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, name)
    failures, report = _run(tests)
    assert failures == 0, f"{failures} doctest example(s) failed in {name}:\n{report}"


def test_public_api_is_documented() -> None:
    objects = {name: getattr(fivecrowns, name) for name in fivecrowns.__all__}
    missing = [name for name, obj in objects.items()
               if (inspect.isfunction(obj) or inspect.isclass(obj))
               and not (obj.__doc__ or "").strip()]
    assert not missing, f"public names without a docstring: {missing}"


def _text_files() -> list[Path]:
    files = sorted((ROOT / "docs").glob("**/*.rst")) if (ROOT / "docs").is_dir() else []
    files = [f for f in files if "_build" not in f.parts]
    if (ROOT / "README.md").exists():
        files.append(ROOT / "README.md")
    return files


def _has_repo_layout() -> bool:
    return (ROOT / "pyproject.toml").exists()


@pytest.mark.skipif(not _has_repo_layout(), reason="no docs beside the tests")
def test_docs_are_present() -> None:
    names = {f.name for f in _text_files()}
    for needed in ("README.md", "index.rst", "getting_started.rst", "rules.rst", "api.rst",
                   "cli.rst", "performance.rst", "development.rst", "frameworks.rst"):
        assert needed in names, f"{needed} is missing"


#: ``# doctest: +COMPILED`` marks a page's example of a feature only the compiled core has
#: (decision data is recorded in C): the pure-Python twins leave it out.
COMPILED = doctest.register_optionflag("COMPILED")

#: Pages whose examples need an optional extra: they skip without it, except under CI.
NEEDS = {"scaling.rst": ("ray", "pyarrow")}


@slow_on_twins
@pytest.mark.parametrize("path", _text_files(), ids=lambda p: p.name)
def test_text_examples(path: Path) -> None:
    if path.name in _NEEDS_RL:
        require_extra(*_RL_FRAMEWORKS)
    for module in NEEDS.get(path.name, ()):
        need(module)
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        # A fence line would otherwise read as the expected output of the example above it.
        text = re.sub(r"^[ \t]*```.*$", "", text, flags=re.M)
    test = doctest.DocTestParser().get_doctest(
        text, {"__name__": f"doc_{path.stem}"}, path.name, str(path), 0)
    if ON_TWINS:
        test.examples = [ex for ex in test.examples if not ex.options.get(COMPILED)]
    failures, report = _run([test])
    assert failures == 0, f"{failures} example(s) failed in {path.name}:\n{report}"


def test_every_bot_is_named_where_the_bots_are_listed() -> None:
    """The pages that list the built-in bots name all of them (docs/cli.rst had no
    ``expert``, getting_started three of five)."""
    from fivecrowns.registry import bot_entry, bot_names

    docs = ROOT / "docs"
    if not docs.is_dir():
        pytest.skip("no docs/ beside the tests")
    cli = (docs / "cli.rst").read_text(encoding="utf-8")
    bots_paragraph = cli[cli.index("``--bots`` names one bot per seat"):]
    bots_paragraph = bots_paragraph[:bots_paragraph.index("\n\n")]
    start = (docs / "getting_started.rst").read_text(encoding="utf-8")
    for name in bot_names():
        assert f"``{name}``" in bots_paragraph, f"docs/cli.rst's --bots omits {name}"
        assert f"``{name}``" in start, f"docs/getting_started.rst omits {name}"
        cls = bot_entry(name).target.rpartition(":")[2]
        assert f":class:`~fivecrowns.{cls}`" in start, f"getting_started omits {cls}"
