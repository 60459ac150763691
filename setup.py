"""Build the compiled solver core and the rollout engine.

All metadata lives in pyproject.toml; this file only declares the extension.

Environment switches:

``FIVECROWNS_BUILD_EXTENSION``
    ``1``: the compiled core is required; a failure to cythonize, compile or link it fails
    the build (wheel builds and CI set this). ``0``: do not build it (a pure-Python
    install). Unset or ``auto``: try, and if it fails, say so loudly and install without
    it; ``fivecrowns.IMPLEMENTATION`` then reads ``"python"``.
``FIVECROWNS_DEBUG=1``
    Build with ``-O0 -g`` and Cython's bounds, wraparound and initialisation checks on
    (an out-of-range memoryview index raises ``IndexError``). The directives are set here
    and only here: no ``.pyx`` has a directive header to override them.
``FIVECROWNS_SANITIZE=1``
    With the debug build, also instrument with AddressSanitizer and UBSan.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

BUILD = os.environ.get("FIVECROWNS_BUILD_EXTENSION", "auto").strip().lower() or "auto"
if BUILD not in ("auto", "0", "1"):
    sys.exit(f"FIVECROWNS_BUILD_EXTENSION must be 0, 1 or auto, got {BUILD!r}")
REQUIRED = BUILD == "1"
DEBUG = os.environ.get("FIVECROWNS_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("FIVECROWNS_SANITIZE", "") not in ("", "0")

#: The engine's compiled modules, in the order each cimports the ones before it.
ENGINE_MODULES = ("_round_state", "_game_state", "_policies", "_rollout", "_vecgames")


def cython_directives(debug: bool) -> dict[str, object]:
    """The Cython directives of the compiled core (its only source: the .pyx sets none).

    The release build trusts its indices, checked at the boundary; the debug build checks
    every memoryview access, and ``cdivision`` stays on in both (no division by a value
    that could be zero or negative).
    """
    return {
        "language_level": "3",
        "boundscheck": debug,
        "wraparound": debug,
        "initializedcheck": debug,
        "cdivision": True,
        "embedsignature": True,
    }

if sys.platform == "win32":
    compile_args = ["/O2"] if not DEBUG else ["/Od", "/Zi"]
    link_args: list[str] = []
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
    link_args = []
    if SANITIZE:
        flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        compile_args += flags
        link_args += flags


def _warn(what: str, exc: BaseException) -> None:
    bar = "*" * 78
    sys.stderr.write(
        f"\n{bar}\nWARNING: {what} failed: {exc}\n"
        "fivecrowns is installed WITHOUT its compiled core and will run the pure-Python\n"
        "solver (fivecrowns.IMPLEMENTATION == 'python'), which is much slower.\n"
        "Set FIVECROWNS_BUILD_EXTENSION=1 to make this failure an error.\n"
        f"{bar}\n\n"
    )


class BuildExt(build_ext):
    """build_ext that fails, or warns and skips, as FIVECROWNS_BUILD_EXTENSION says."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            if REQUIRED:
                raise
            _warn("building the compiled core", exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            if REQUIRED:
                raise
            _warn(f"compiling {ext.name}", exc)


def _extensions() -> list[Extension]:
    if BUILD == "0":
        return []
    try:
        import numpy as np
        from Cython.Build import cythonize
    except Exception as exc:
        if REQUIRED:
            raise
        _warn("importing numpy and Cython to build the extensions", exc)
        return []
    macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
    # numpy's C random library (random_interval), for the rollout engine's shuffles: the
    # route of numpy's "Extending via Cython" documentation.
    random_lib = os.path.join(os.path.dirname(np.__file__), "random", "lib")
    declared = [
        # The solver: its core (the search and its tables, C functions only), then its
        # entry points, which cimport the core (_solver_core.pxd).
        Extension(
            "fivecrowns._solver_core",
            ["src/fivecrowns/_solver_core.pyx"],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        ),
        Extension(
            "fivecrowns._solver",
            ["src/fivecrowns/_solver.pyx"],
            include_dirs=[np.get_include()],
            define_macros=macros,
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        ),
        # Hands' text to counts, for scoring files (fivecrowns.files).
        Extension(
            "fivecrowns._textcounts",
            ["src/fivecrowns/_textcounts.pyx"],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        ),
    ]
    # The engine: the round state, the game state, the built-in policies, the runs and the
    # vector environment's games, each a module of its own that cimports the ones before
    # it (their .pxd files), all on numpy's C random library.
    declared += [
        Extension(
            f"fivecrowns.{name}",
            [f"src/fivecrowns/{name}.pyx"],
            include_dirs=[np.get_include()],
            library_dirs=[random_lib],
            libraries=["npyrandom"],
            define_macros=macros,
            # the strong policy's float arithmetic must be numpy's, operation by operation
            extra_compile_args=compile_args + ([] if sys.platform == "win32"
                                               else ["-ffp-contract=off"]),
            extra_link_args=link_args,
        )
        for name in ENGINE_MODULES
    ]
    extensions: list[Extension] = []
    for ext in declared:
        source = ext.sources[0]
        if not os.path.exists(source):  # a partial tree (the packaging tests build one)
            continue
        try:
            extensions += cythonize([ext], compiler_directives=cython_directives(DEBUG))
        except Exception as exc:
            if REQUIRED:
                raise
            _warn(f"cythonizing {source}", exc)
    return extensions


if __name__ == "__main__":  # as setuptools runs it; tests import cython_directives alone
    setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
