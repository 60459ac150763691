"""Packaging: what the installed package, its wheel and its sdist hold.

Some checks only apply where ``.ci/run`` (or cibuildwheel) sets the stage:

* ``FIVECROWNS_TEST_INSTALLED=1``: the suite runs against an installed wheel, so
  ``fivecrowns`` must not come from a source tree.
* ``FIVECROWNS_SDIST`` / ``FIVECROWNS_WHEEL``: paths of freshly built distributions to
  inspect.
* where ``conftest.compiled_required()`` (CI, ``FIVECROWNS_BUILD_EXTENSION=1`` or
  ``FIVECROWNS_IMPLEMENTATION=compiled``): the compiled core must be the one in use.
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

import fivecrowns
from conftest import compiled_required

PKG = Path(fivecrowns.__file__).resolve().parent
ROOT = Path(__file__).resolve().parent.parent


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def test_version_comes_from_metadata() -> None:
    try:
        dist = distribution("fivecrowns")
    except PackageNotFoundError:
        pytest.skip("fivecrowns is not installed (running from a bare source tree)")
    assert fivecrowns.__version__ == dist.version
    assert re.fullmatch(r"\d+\.\d+\.\d+([.-]?\w+)*", fivecrowns.__version__)


def test_version_matches_pyproject_and_changelog() -> None:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("no pyproject.toml beside the tests")
    match = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
    assert match, "pyproject.toml has no static version"
    assert fivecrowns.__version__ == match.group(1)
    changelog = ROOT / "CHANGELOG.md"
    if changelog.exists():
        assert f"## [{match.group(1)}]" in changelog.read_text(encoding="utf-8"), (
            f"CHANGELOG.md has no section for version {match.group(1)}")


def test_typing_markers_ship() -> None:
    assert (PKG / "py.typed").is_file()
    assert (PKG / "_solver.pyi").is_file(), "the compiled core's stub _solver.pyi is missing"


def test_implementation_is_reported() -> None:
    """IMPLEMENTATION names the core the public functions really call: the twin when it
    is forced or the compiled core does not import, else the compiled core."""
    from fivecrowns import _solver_py, solver

    try:
        from fivecrowns import _solver
    except ImportError:
        built = None
    else:
        built = _solver
    forced = _env("FIVECROWNS_IMPLEMENTATION").lower()
    expected = "python" if forced == "python" or built is None else "compiled"
    assert fivecrowns.IMPLEMENTATION == solver.IMPLEMENTATION == expected
    assert solver._core is (_solver_py if expected == "python" else built)
    assert fivecrowns.deadwood.__globals__["_core"] is solver._core


@pytest.mark.skipif(not compiled_required(), reason="the compiled core is not required here")
def test_compiled_core_in_use_when_required() -> None:
    assert fivecrowns.IMPLEMENTATION == "compiled"
    from fivecrowns import _solver  # type: ignore[attr-defined]

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert str(_solver.__file__).endswith(suffixes), _solver.__file__


@pytest.mark.skipif(_env("FIVECROWNS_TEST_INSTALLED") != "1",
                    reason="only when testing an installed wheel")
def test_runs_against_the_installed_package() -> None:
    # The package must come from site-packages, not from a src/ tree or the test folder.
    assert PKG.parent.name != "src", f"fivecrowns imported from a source tree: {PKG}"
    assert ROOT not in PKG.parents, f"fivecrowns imported from beside the tests: {PKG}"
    assert "site-packages" in PKG.parts or "dist-packages" in PKG.parts, PKG


@pytest.mark.skipif(not _env("FIVECROWNS_WHEEL"), reason="FIVECROWNS_WHEEL is not set")
def test_wheel_contents() -> None:
    wheel = Path(_env("FIVECROWNS_WHEEL"))
    assert not wheel.name.endswith("-none-any.whl"), "a pure-Python wheel: no compiled core"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = zf.read(meta).decode()
        entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_points = zf.read(entry).decode()
    for needed in ("fivecrowns/__init__.py", "fivecrowns/py.typed", "fivecrowns/_solver.pyi",
                   "fivecrowns/_solver_core.pyi",
                   "fivecrowns/_solver_py.py", "fivecrowns/data/learned_bot.npz",
                   "fivecrowns/data/learned_bot_0.5.npz"):
        assert needed in names, f"{needed} is missing from {wheel.name}"
    for module in ("_solver", "_solver_core"):  # the solver's entry points and core
        assert any(re.fullmatch(rf"fivecrowns/{module}\..*(so|pyd)", n) for n in names), (
            f"the compiled {module} is missing from {wheel.name}")
    from fivecrowns._state import ENGINE_MODULES
    for module in ENGINE_MODULES:  # the engine's compiled modules, each with its stub
        assert f"fivecrowns/{module}.pyi" in names, f"{module}.pyi is missing"
        assert any(re.fullmatch(rf"fivecrowns/{module}\..*(so|pyd)", n) for n in names), (
            f"the compiled {module} is missing from {wheel.name}")
    assert not any(n.endswith(".c") for n in names), "generated C leaked into the wheel"
    assert re.search(r"^Requires-Dist: numpy", metadata, re.M)
    assert re.search(r"^Requires-Dist: tqdm", metadata, re.M)
    assert "fivecrowns = fivecrowns.cli:main" in entry_points


@pytest.mark.skipif(not _env("FIVECROWNS_SDIST"), reason="FIVECROWNS_SDIST is not set")
def test_sdist_contents() -> None:
    sdist = Path(_env("FIVECROWNS_SDIST"))
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md",
                   "src/fivecrowns/_solver.pyx", "src/fivecrowns/_solver.pyi",
                   "src/fivecrowns/_solver_core.pyx", "src/fivecrowns/_solver_core.pxd",
                   "src/fivecrowns/py.typed", "src/fivecrowns/__init__.py",
                   "src/fivecrowns/data/learned_bot.npz",
                   "src/fivecrowns/data/learned_bot_0.5.npz",
                   "tests/conftest.py", "tests/test_packaging.py", "docs/conf.py",
                   "docs/index.rst"):
        assert needed in names, f"{needed} is missing from {sdist.name}"
    assert "src/fivecrowns/_solver.c" not in names, "the sdist must build from the .pyx"
    assert not any(n.endswith((".so", ".pyd", ".pyc")) for n in names)
    # every part a compiled module includes, every header of its own it names, and the
    # .pxd of every engine module it cimports
    with tarfile.open(sdist) as tf:
        sources = {n.split("/", 1)[1]: tf.extractfile(n).read().decode()  # type: ignore[union-attr]
                   for n in tf.getnames() if n.endswith((".pyx", ".pxi", ".pxd"))}
    parts = {f"src/fivecrowns/{m}" for text in sources.values()
             for m in re.findall(r'^(?:include|cdef extern from) "(_[\w.]+)"', text, re.M)}
    parts |= {f"src/fivecrowns/{m}.pxd" for text in sources.values()
              for m in re.findall(r"^from \.(_\w+) cimport", text, re.M)}
    assert "src/fivecrowns/_round_state.pxd" in parts
    assert parts and not parts - names, f"{sorted(parts - names)} missing from {sdist.name}"


# --- setup.py: a failed compile is fatal when FIVECROWNS_BUILD_EXTENSION=1 -------------------

BROKEN_PYX = '''\
cdef extern from *:
    """
    #error this core does not compile
    """
    int never

def f():
    return never
'''


def _build_broken(tmp_path: Path, mode: str) -> subprocess.CompletedProcess[str]:
    setup_py = ROOT / "setup.py"
    if not setup_py.exists():
        pytest.skip("no setup.py beside the tests")
    pytest.importorskip("Cython")
    pytest.importorskip("setuptools")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    shutil.copy(setup_py, tmp_path / "setup.py")
    (tmp_path / "src" / "fivecrowns").mkdir(parents=True)
    # Only the core, broken: setup.py passes over the other extensions' missing sources.
    (tmp_path / "src" / "fivecrowns" / "_solver.pyx").write_text(BROKEN_PYX)
    env = {**os.environ, "FIVECROWNS_BUILD_EXTENSION": mode}
    env.pop("FIVECROWNS_DEBUG", None)
    env.pop("FIVECROWNS_SANITIZE", None)
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "lib",
         "--build-temp", "tmp"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_failed_compile_is_fatal_when_required(tmp_path: Path) -> None:
    proc = _build_broken(tmp_path, "1")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "this core does not compile" in proc.stdout + proc.stderr


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_failed_compile_warns_loudly_otherwise(tmp_path: Path) -> None:
    proc = _build_broken(tmp_path, "auto")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WITHOUT its compiled core" in proc.stderr


# --- a failed build: importing the result warns ----------------------------------------------

def _no_extension_build(tmp_path: Path) -> Path:
    """A copy of the package whose compiled core was built by setup.py with a compiler
    that always fails (``CC=false``), as ``pip install`` builds it where no compiler
    works; returns the folder to import it from."""
    if not (ROOT / "setup.py").exists() or not (ROOT / "src" / "fivecrowns").is_dir():
        pytest.skip("no source tree beside the tests")
    if sys.platform == "win32":
        pytest.skip("MSVC does not take its compiler from CC")
    pytest.importorskip("Cython")
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    # The C that Cython made in place comes along (newer than its .pyx, so not made
    # again): what fails here is the compiler, and cythonizing eight modules took 20 s.
    shutil.copytree(ROOT / "src" / "fivecrowns", tmp_path / "src" / "fivecrowns",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.html", "__pycache__"))
    env = {**os.environ, "CC": "false", "LDSHARED": "false", "FIVECROWNS_BUILD_EXTENSION": "auto"}
    for name in ("FIVECROWNS_DEBUG", "FIVECROWNS_SANITIZE"):
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "lib",
                           "--build-temp", "tmp"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WITHOUT its compiled core" in proc.stderr
    assert not list(tmp_path.rglob("_solver*.so")), "the broken compiler built a core"
    return tmp_path / "src"


def _import_from(lib: Path, **env: str) -> subprocess.CompletedProcess[str]:
    code = ("import fivecrowns, pathlib; "
            "print(fivecrowns.IMPLEMENTATION, pathlib.Path(fivecrowns.__file__).parent)")
    clean = {k: v for k, v in os.environ.items() if k != "FIVECROWNS_IMPLEMENTATION"}
    return subprocess.run([sys.executable, "-W", "default", "-c", code], cwd=lib,
                          env={**clean, "PYTHONPATH": str(lib), **env}, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_import_warns_when_the_compiled_core_failed_to_build(tmp_path: Path) -> None:
    lib = _no_extension_build(tmp_path)
    proc = _import_from(lib)
    assert proc.returncode == 0, proc.stderr
    implementation, where = proc.stdout.split()
    assert implementation == "python" and Path(where).resolve() == (lib / "fivecrowns").resolve()
    assert "RuntimeWarning" in proc.stderr
    assert "No module named 'fivecrowns._solver'" in proc.stderr, proc.stderr
    for advice in ("install a C compiler", "FIVECROWNS_BUILD_EXTENSION=1",
                   "FIVECROWNS_IMPLEMENTATION=python"):
        assert advice in proc.stderr, proc.stderr
    # Asked for by name, the twin is no surprise: no warning.
    quiet = _import_from(lib, FIVECROWNS_IMPLEMENTATION="python")
    assert quiet.returncode == 0 and quiet.stdout.split()[0] == "python"
    assert "Warning" not in quiet.stderr, quiet.stderr


def test_a_copy_without_the_compiled_core_runs_the_twins(tmp_path: Path) -> None:
    """The package with its compiled modules removed (a pure-Python install) imports, runs
    both twins, and its warning names the missing module, not a "circular import"."""
    if not (ROOT / "src" / "fivecrowns").is_dir():
        pytest.skip("no source tree beside the tests")
    shutil.copytree(ROOT / "src" / "fivecrowns", tmp_path / "fivecrowns",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    proc = _import_from(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["python", str(tmp_path / "fivecrowns")]
    assert "RuntimeWarning" in proc.stderr
    assert "No module named 'fivecrowns._solver'" in proc.stderr, proc.stderr
    assert "circular import" not in proc.stderr, proc.stderr
    engine = subprocess.run(
        [sys.executable, "-c", "from fivecrowns import rollout, play_games; "
         "print(rollout.ROLLOUT_IMPLEMENTATION, play_games(2, seed=1, rounds=[1]).tolist())"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path),
                           "FIVECROWNS_IMPLEMENTATION": "python"},
        capture_output=True, text=True, timeout=120, check=False)
    assert engine.returncode == 0 and engine.stderr == "", engine.stderr
    assert engine.stdout.startswith("python ")


# --- Cython directives: set in setup.py only, and the debug build checks bounds --------------

def _cythonize(tmp_path: Path, debug: bool) -> str:
    """The C that Cython generates from the real _solver.pyx with setup.py's directives."""
    if not (ROOT / "setup.py").exists():
        pytest.skip("no setup.py beside the tests")
    pytest.importorskip("Cython")
    import runpy

    from Cython.Compiler import Main

    directives = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")["cython_directives"]
    # the module in a package of its own, with the .pxd of the core it cimports
    pyx = tmp_path / f"debug{int(debug)}" / "fivecrowns" / "_solver.pyx"
    pyx.parent.mkdir(parents=True)
    (pyx.parent / "__init__.py").write_text("")
    source = PKG if (PKG / "_solver.pyx").exists() else ROOT / "src" / "fivecrowns"
    for part in [source / "_solver.pyx", source / "_solver_core.pxd"]:
        shutil.copy(part, pyx.parent / part.name)
    options = Main.CompilationOptions(Main.default_options,
                                      compiler_directives=directives(debug))
    Main.compile(str(pyx), options)
    return pyx.with_suffix(".c").read_text(encoding="utf-8")


@pytest.mark.slow
def test_directives_have_one_home_and_debug_checks_bounds(tmp_path: Path) -> None:
    for pyx in sorted((ROOT / "src" / "fivecrowns").glob("*.pyx")):
        header = [line for line in pyx.read_text(encoding="utf-8").splitlines()
                  if line.startswith("# cython:")]
        assert header == [], f"directives in {pyx.name} override setup.py's: {header}"
    assert "__Pyx_RaiseBufferIndexError(" not in _cythonize(tmp_path, debug=False)
    assert "__Pyx_RaiseBufferIndexError(" in _cythonize(tmp_path, debug=True)
