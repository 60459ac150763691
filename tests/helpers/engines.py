"""The one comparer of the rollout engine's twins: a test body run on the compiled engine
(``fivecrowns._rollout``) and on its pure-Python twin (``fivecrowns._engine_py``), whose
answers must be equal.

:func:`engine` switches :mod:`fivecrowns.rollout` (and with it the built-in bots' games
of :mod:`fivecrowns._bot_games`) to one of them for a ``with`` block; :func:`on_both`
runs a function under each available engine and checks the answers agree. Where the
compiled engine is required (see ``conftest.compiled_required``) and missing, it fails.

:data:`ON_TWINS` says whether this run plays on the pure-Python twins, and :func:`sized`
picks a smaller instance of a check for them.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np
import pytest

from conftest import compiled_required
from fivecrowns import _state, rollout, solver

__all__ = ["ENGINES", "ON_TWINS", "compiled_engine", "engine", "on_both", "same", "sized",
           "slow_on_twins", "SLOW_ON_TWINS"]

ENGINES = ("compiled", "python")
T = TypeVar("T")

#: True where the games run on the pure-Python twins (``FIVECROWNS_IMPLEMENTATION=python``,
#: or an install without the compiled core): the solver is hundreds of times slower there,
#: so a test that plays many games, worlds or rounds checks the same thing on fewer.
ON_TWINS = solver.IMPLEMENTATION == "python" or rollout.ROLLOUT_IMPLEMENTATION == "python"


def sized(compiled: T, twins: T) -> T:
    """The size of a test's work: ``compiled`` on the compiled core, the smaller ``twins``
    where the pure-Python twins run (:data:`ON_TWINS`)."""
    return twins if ON_TWINS else compiled


#: The marks of :func:`slow_on_twins`, for ``pytest.param(..., marks=SLOW_ON_TWINS)``.
SLOW_ON_TWINS: list[pytest.MarkDecorator] = [pytest.mark.slow] if ON_TWINS else []

F = TypeVar("F", bound=Callable[..., Any])


def slow_on_twins(test: F) -> F:
    """The ``slow`` marker on the pure-Python twins only, for a test whose smallest
    meaningful instance still takes seconds there (ExpertBot's games, the planner's
    search): ``pytest -m "not slow"`` leaves it to the whole suite there."""
    return pytest.mark.slow(test) if ON_TWINS else test


def _compiled() -> Any:
    try:
        return importlib.import_module("fivecrowns._rollout")
    except ImportError as exc:
        if compiled_required():
            pytest.fail(f"the compiled rollout engine is required here: {exc}", pytrace=False)
        return None


@contextlib.contextmanager
def engine(name: str) -> Iterator[bool]:
    """Run the block on the engine ``name``; yields False (and runs nothing on it) when
    the compiled engine is asked for and not built."""
    core = None if name == "python" else _compiled()
    if name != "python" and core is None:
        yield False
        return
    # the rollouts' engine, the one the built-in bots' games read (fivecrowns._state),
    # and the compiled policies the built-in bots decide by (fivecrowns._compiled_bots):
    # on the Python engine every bot decides in its own Python
    saved = rollout._core, _state.rollout_core, _state.policies_core
    rollout._core = _state.rollout_core = core
    _state.policies_core = None if core is None else _compiled_policies()
    try:
        yield True
    finally:
        rollout._core, _state.rollout_core, _state.policies_core = saved


def _compiled_policies() -> Any:
    return importlib.import_module("fivecrowns._policies")


@contextlib.contextmanager
def python_bots() -> Iterator[None]:
    """The built-in bots decide in their own Python inside the block, not by the engine's
    policies (``fivecrowns._compiled_bots``): the specification, for a test that holds
    the engine to it."""
    saved = _state.policies_core
    _state.policies_core = None
    try:
        yield
    finally:
        _state.policies_core = saved


def same(a: Any, b: Any) -> bool:
    """Equal answers: arrays element by element (and of the same shape), else ``==``."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.shape(a) == np.shape(b) and np.array_equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def on_both(fn: Callable[[], T]) -> T:
    """``fn()`` on each engine; the answers must be the same. Returns the Python twin's
    (the specification)."""
    answers = {}
    for name in ENGINES:
        with engine(name) as ran:
            if ran:
                answers[name] = fn()
    if "compiled" in answers:
        assert same(answers["compiled"], answers["python"]), (answers["compiled"],
                                                              answers["python"])
    return answers["python"]


def compiled_engine(module: str = "_rollout") -> Any:
    """The engine's compiled module ``fivecrowns.<module>`` (the runs by default), when
    :mod:`fivecrowns.rollout` runs on the compiled engine; else the calling test (or
    module) is skipped, or fails where the compiled core is required (tests of what only
    the compiled engine does: threads, pieces, its own worlds)."""
    if rollout._core is None:
        if compiled_required():
            pytest.fail("the compiled rollout engine is required here", pytrace=False)
        pytest.skip("a test of the compiled engine: fivecrowns.rollout runs its Python twin "
                    "here (FIVECROWNS_IMPLEMENTATION=python, or the compiled core is not "
                    "built)", allow_module_level=True)
    return importlib.import_module(f"fivecrowns.{module}")
