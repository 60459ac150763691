"""The optional dependencies, and the one error that says which extra brings each.

Every import of an optional package goes through :func:`require` (a module wanted now)
or :func:`requires` (a block of imports, so that static types are kept), and a missing
package raises :class:`~fivecrowns.errors.MissingExtraError` with the same message from
the API and the command line: ``"<what> needs <package>: pip install
'fivecrowns[<extra>]'"``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .errors import MissingExtraError

__all__ = ["require", "requires", "missing"]

# Top-level import name -> the name users know it by. Only a missing package of this
# table becomes a MissingExtraError; any other import failure is raised as it is.
PACKAGES = {
    "pyarrow": "pyarrow",
    "ray": "Ray",
    "gymnasium": "Gymnasium",
    "pettingzoo": "PettingZoo",
    "pyspiel": "OpenSpiel",
    "open_spiel": "OpenSpiel",
    "minari": "Minari",
    "stable_baselines3": "Stable-Baselines3",
}
#: The extras of pyproject.toml that bring optional packages.
EXTRAS = ("io", "ray", "rl", "minari", "train")


def missing(module: str, extra: str, what: str) -> MissingExtraError:
    """The error for ``what`` when ``module`` (its top-level package) is not installed."""
    if extra not in EXTRAS:  # pragma: no cover - a typo here is a bug of fivecrowns'
        raise AssertionError(f"unknown extra {extra!r}")
    top = module.split(".")[0]
    return MissingExtraError(
        f"{what} needs {PACKAGES.get(top, top)}: pip install 'fivecrowns[{extra}]'",
        extra=extra, name=top)


def _convert(exc: ModuleNotFoundError, extra: str, what: str) -> MissingExtraError | None:
    top = (exc.name or "").split(".")[0]
    return missing(top, extra, what) if top in PACKAGES else None


def require(module: str, extra: str, what: str, *, load: bool = True) -> ModuleType | None:
    """``module`` imported, or a :class:`MissingExtraError` naming ``extra``.

    With ``load=False`` it is only looked for (nothing is imported, ``None`` is
    returned): for a check before a long run, of a package slow to import.
    """
    if not load:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent that is missing or None
            found = False
        if not found:
            raise missing(module, extra, what)
        return None
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        error = _convert(exc, extra, what)
        if error is None:
            raise
        raise error from None


@contextmanager
def requires(extra: str, what: str) -> Iterator[None]:
    """A block of optional imports: a missing optional package raises
    :class:`MissingExtraError` naming ``extra``.

    >>> with requires("io", "this example"):
    ...     import json
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        error = _convert(exc, extra, what)
        if error is None:
            raise
        raise error from None
