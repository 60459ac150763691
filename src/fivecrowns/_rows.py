"""The solver core in use, for the package's own hot paths: the one place outside
:mod:`fivecrowns.solver` that knows where the solver keeps its core."""

from __future__ import annotations

from typing import Any

from . import solver

__all__ = ["row_core"]


def row_core() -> Any:
    """The solver core in use now: the compiled ``_solver`` or its twin ``_solver_py``,
    whose row functions (``deadwood_row``, ``best_discard_row``, ``draw_table_row``...)
    take a hand as 56 checked ``uint8`` counts.

    For the package's own hot paths (the bots, LearnedBot's features, the observation
    features), which check their rows once and then call the row functions without the
    solver's argument checks. Read at each call, so a ``solver.use_implementation``
    block switches them too; the one place outside the solver that knows where the
    solver keeps its core.
    """
    return solver._core
