"""Shared test setup: hypothesis profiles and the solver implementations under test.

* Hypothesis profiles: ``dev`` (the default, quick) and ``ci`` (more examples), chosen
  with the ``HYPOTHESIS_PROFILE`` environment variable. Both are derandomized, so every
  run of the suite tries the same examples. :func:`machine_settings` gives the state
  machines' examples and steps under each.
* ``impl``: a module-scoped fixture over the solver implementations,
  ``fivecrowns.solver.implementation("python")`` (always) and ``("compiled")`` (when
  ``fivecrowns._solver`` is built): the public solver functions bound to that core.
* ``cores``: every available core *module* by name, for tests of the entry points.

:func:`compiled_required` is the one place that decides whether a missing compiled core
is a test failure (never a skip): where ``CI`` is set, or ``FIVECROWNS_BUILD_EXTENSION=1``
or ``FIVECROWNS_IMPLEMENTATION=compiled``, unless ``FIVECROWNS_IMPLEMENTATION=python``.

Tests that take seconds carry the ``slow`` marker (registered in pyproject.toml; those on
Ray get it here): ``pytest -m "not slow"`` is the fast loop of docs/development.rst.
Helpers shared by the tests live in the ``helpers`` package beside this file.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

from fivecrowns import _solver_py
from fivecrowns.solver import Implementation, implementation

_COMMON = dict(deadline=None, derandomize=True, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=30, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("ci", max_examples=100, **_COMMON)  # type: ignore[arg-type]
#: The hypothesis profile of this run.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)

# The state machines of test_state_machine.py: a step can be a run of thousands of moves,
# so fewer examples; ci plays enough of them to reach reshuffles with live copies, the
# next round dealt after them and tie-break rounds in a quarter of the examples or more.
# No explain phase: on such long examples it takes minutes and adds little.
_MACHINE_PHASES = tuple(p for p in Phase if p is not Phase.explain)
_MACHINES = {
    "dev": settings(settings.get_profile("dev"), max_examples=10, stateful_step_count=30,
                    phases=_MACHINE_PHASES),
    "ci": settings(settings.get_profile("ci"), max_examples=100, stateful_step_count=50,
                   phases=_MACHINE_PHASES),
}


def machine_settings() -> settings:
    """The settings of a state machine test under this run's profile."""
    return _MACHINES.get(PROFILE, _MACHINES["dev"])


def _env(name: str) -> str:
    return os.environ.get(name, "").strip().lower()


def compiled_required() -> bool:
    """True where a missing compiled core must fail the tests, not skip them."""
    if _env("FIVECROWNS_IMPLEMENTATION") == "python":
        return False
    return (bool(_env("CI")) or _env("FIVECROWNS_BUILD_EXTENSION") == "1"
            or _env("FIVECROWNS_IMPLEMENTATION") == "compiled")


def compiled_rollout(module: str = "_rollout") -> Any:
    """The engine's compiled module ``fivecrowns.<module>`` (the runs by default; the round
    state's ``_round_state``, the game state's ``_game_state``, ...); skips (or fails,
    where required) when it is missing: the twin tests' fixtures."""
    try:
        return importlib.import_module(f"fivecrowns.{module}")
    except ImportError as exc:
        if compiled_required():
            pytest.fail(f"the compiled core is required here: {exc}", pytrace=False)
        pytest.skip(f"compiled core not available: {exc}")


def get_impl(name: str) -> Implementation:
    """The implementation called ``name``; skips (or fails, where required) when the
    compiled core is missing."""
    try:
        return implementation(name)
    except ImportError as exc:
        if compiled_required():
            pytest.fail(f"the compiled solver core is required here: {exc}", pytrace=False)
        pytest.skip(f"compiled core not available: {exc}")


@pytest.fixture(scope="module", params=["python", "compiled"])
def impl(request: pytest.FixtureRequest) -> Implementation:
    """The public solver functions bound to one core."""
    return get_impl(request.param)


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    """The compiled core module (skips, or fails where required, when it is not built)."""
    get_impl("compiled")
    from fivecrowns import _solver  # type: ignore[attr-defined]

    return _solver


@pytest.fixture(scope="module")
def cores() -> dict[str, ModuleType]:
    """Every available core module by name; where required, the compiled one is there."""
    out = {"python": _solver_py}
    try:
        implementation("compiled")
    except ImportError as exc:
        if compiled_required():
            pytest.fail(f"the compiled solver core is required here: {exc}", pytrace=False)
    else:
        from fivecrowns import _solver  # type: ignore[attr-defined]

        out["compiled"] = _solver
    return out


def extras_required() -> bool:
    """True where a missing optional extra (rl, ray, io) must fail the tests: under CI,
    unless ``FIVECROWNS_TEST_EXTRAS=optional`` says this platform cannot have them (the
    wheel builds for platforms without wheels of Ray or OpenSpiel)."""
    optional = os.environ.get("FIVECROWNS_TEST_EXTRAS", "").strip().lower() == "optional"
    return bool(os.environ.get("CI")) and not optional


def require_extra(*modules: str) -> None:
    """Skip the calling test (or module) unless the ``fivecrowns[rl]`` frameworks import;
    under CI a missing one fails instead (see :func:`extras_required`)."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            why = f"needs the fivecrowns[rl] extra: {name} does not import ({exc})"
            if extras_required():
                pytest.fail(f"CI requires the fivecrowns[rl] extra: {why}", pytrace=False)
            pytest.skip(why, allow_module_level=True)


def require_train_extra(*modules: str) -> None:
    """Skip the calling test unless the ``fivecrowns[train]`` extra's ``modules`` import;
    where CI's training step runs (``FIVECROWNS_REQUIRE_TRAIN=1``) a missing one fails."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            why = f"needs the fivecrowns[train] extra: {module} does not import ({exc})"
            if os.environ.get("FIVECROWNS_REQUIRE_TRAIN") == "1":
                pytest.fail(why, pytrace=False)
            pytest.skip(why)


def need(module: str) -> ModuleType:
    """Import an optional extra's module; skip without it, but fail under CI."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if extras_required():
            pytest.fail(f"CI requires {module} (the fivecrowns[ray] / [io] extras): {exc}",
                        pytrace=False)
        pytest.skip(f"{module} is not installed: {exc}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test on Ray (one that uses :func:`ray_session`) is ``slow``: Ray takes seconds to
    start and to schedule."""
    for item in items:
        if "ray_session" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def ray_session() -> Iterator[ModuleType]:
    """A local two-CPU Ray for the whole session (started once: it takes seconds)."""
    ray = need("ray")
    need("pyarrow")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    from fivecrowns.distributed import ray_data

    ray_data()
    yield ray
    if started:
        ray.shutdown()


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``fivecrowns ARGV...`` in this process: (exit status, stdout, stderr), never a
    traceback."""
    from fivecrowns.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err
