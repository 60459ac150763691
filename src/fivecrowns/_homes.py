"""The public home of what a private module defines: a public module that re-exports a
class or function of a private one (``_player``, ``_decisions_record``...) is where users,
reprs, pickles and the docs find it."""

from __future__ import annotations

import inspect
from typing import Any

__all__ = ["rehome"]


def rehome(module: str, *objects: Any) -> None:
    """Set ``__module__`` of each class or function in ``objects``, and of a class's own
    methods and properties, to ``module``.

    A class is pickled by its ``__module__`` and ``__qualname__``, so a class moved into a
    private module keeps its old pickles loading only so. Its methods are set too:
    doctest looks for a method's examples only in the module its ``__module__`` names
    (and runs them with that module's names), and Sphinx documents it there.
    """
    for obj in objects:
        obj.__module__ = module
        if not inspect.isclass(obj):
            continue
        for value in vars(obj).values():
            if isinstance(value, property):
                parts = [value.fget, value.fset, value.fdel]
            else:
                parts = [getattr(value, "__func__", value)]
            for part in parts:
                if inspect.isfunction(part):
                    part.__module__ = module
