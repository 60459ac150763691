"""Shared test setup: hypothesis profiles and the solver implementations under test.

* Hypothesis profiles: ``dev`` (the default, quick) and ``ci`` (more examples), chosen
  with the ``HYPOTHESIS_PROFILE`` environment variable. Both are derandomized, so every
  run of the suite tries the same examples.
* ``impl``: a module-scoped fixture over the solver cores, ``"python"`` (always) and
  ``"compiled"`` (when ``fivecrowns._solver`` is built). It points
  ``fivecrowns.solver._core`` at that core, so the public API (``fivecrowns.solve``,
  ``deadwood``, ...) runs through it, and yields its name.
* ``cores``: every available core by name, for tests that compare them side by side.

Where the environment variable ``CI`` is set and ``FIVECROWNS_IMPLEMENTATION`` is not
``python``, a missing compiled core is a test failure, never a skip.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # for `import reference`

import fivecrowns.solver  # noqa: E402
from fivecrowns import _solver_py  # noqa: E402

_COMMON = dict(deadline=None, derandomize=True, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=30, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("ci", max_examples=100, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

#: Entry points every solver core must provide (those of fivecrowns._solver_py).
CORE_FUNCTIONS = ("deadwood_row", "plan_row", "best_discard_row", "draw_table_row",
                  "deadwood_many", "best_discard_many")


def compiled_required() -> bool:
    """True where a missing compiled core must fail the tests (CI, not forced to Python)."""
    forced = os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower()
    return bool(os.environ.get("CI")) and forced != "python"


def load_compiled() -> tuple[ModuleType | None, str]:
    """(the compiled core, "") or (None, why it is not available)."""
    try:
        from fivecrowns import _solver  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, f"fivecrowns._solver does not import: {exc}"
    missing = [name for name in CORE_FUNCTIONS if not hasattr(_solver, name)]
    if missing:
        return None, f"fivecrowns._solver lacks {', '.join(missing)}"
    return _solver, ""


def get_core(name: str) -> ModuleType:
    """The core called ``name``; skips (or fails, in CI) when the compiled one is missing."""
    if name == "python":
        return _solver_py
    core, why = load_compiled()
    if core is None:
        if compiled_required():
            pytest.fail(f"CI requires the compiled solver core: {why}", pytrace=False)
        pytest.skip(f"compiled core not available: {why}")
    return core


@contextlib.contextmanager
def using(core: ModuleType) -> Iterator[None]:
    """Run the public API through ``core`` inside the block."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fivecrowns.solver, "_core", core)
        yield


@pytest.fixture(scope="module", params=["python", "compiled"])
def impl(request: pytest.FixtureRequest) -> Iterator[str]:
    """The name of the core the public API runs through in this test."""
    core = get_core(request.param)
    with using(core):
        yield request.param


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    """The compiled core module (skips, or fails in CI, when it is not built)."""
    return get_core("compiled")


@pytest.fixture(scope="module")
def cores() -> dict[str, ModuleType]:
    """Every available core by name; in CI the compiled one must be among them."""
    out = {"python": _solver_py}
    core, why = load_compiled()
    if core is not None:
        out["compiled"] = core
    elif compiled_required():
        pytest.fail(f"CI requires the compiled solver core: {why}", pytrace=False)
    return out


def extras_required() -> bool:
    """True where a missing optional extra (Ray, pyarrow) must fail the tests: under CI,
    unless ``FIVECROWNS_TEST_EXTRAS=optional`` says this platform cannot have them (the
    wheel builds for platforms without Ray wheels)."""
    optional = os.environ.get("FIVECROWNS_TEST_EXTRAS", "").strip().lower() == "optional"
    return bool(os.environ.get("CI")) and not optional


def need(module: str) -> ModuleType:
    """Import an optional extra's module; skip without it, but fail under CI."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if extras_required():
            pytest.fail(f"CI requires {module} (the fivecrowns[ray] / [io] extras): {exc}",
                        pytrace=False)
        pytest.skip(f"{module} is not installed: {exc}")


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
