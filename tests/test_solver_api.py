"""The solver's public names: the implementation seam, the scalar/bulk pairs, the one
hand -> row function, and the compiled entry points documented by their twin."""

from __future__ import annotations

import importlib
import inspect
import os
import platform
from types import ModuleType

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns import _solver_py, solver
from fivecrowns._rows import row_core
from fivecrowns.solver import CORE_FUNCTIONS, Implementation, implementation

BOUND = ("deadwood", "solve", "best_discard", "discard_deadwood", "can_go_out", "draw_table",
         "deadwood_many", "discard_deadwood_many")


def test_implementation_binds_every_solver_function(impl: Implementation) -> None:
    assert impl.name in ("python", "compiled") and repr(impl).endswith(f"({impl.name!r})")
    expected_core = _solver_py if impl.name == "python" else pytest.importorskip(
        "fivecrowns._solver")
    for name in BOUND:
        fn = getattr(impl, name)
        public = getattr(solver, name)
        assert fn.__globals__["_core"] is expected_core, name
        assert inspect.signature(fn) == inspect.signature(public), name
        assert fn.__doc__ == public.__doc__ and fn.__name__ == name
    assert implementation(impl.name) is impl  # one object per core


def test_implementation_runs_its_core(impl: Implementation, cores: dict[str, ModuleType],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A call through ``implementation(name)`` reaches that core and no other, and the
    lazily solved discard of best_discard comes from the same core."""
    calls: list[str] = []
    for core_name, core in cores.items():
        for fn in ("deadwood_row", "plan_row"):
            original = getattr(core, fn)

            def spy(*args: object, _o: object = original, _n: str = core_name) -> object:
                calls.append(_n)
                return _o(*args)  # type: ignore[operator]

            monkeypatch.setattr(core, fn, spy)
    assert impl.deadwood("5C 6C 7C 9D", 13) == 9
    assert impl.best_discard("5C 6C 7C 9D QD", 13).solution.deadwood == 9
    assert calls == [impl.name, impl.name]


def test_implementation_changes_no_global_state() -> None:
    before = (fc.IMPLEMENTATION, solver._core)
    py = implementation("python")
    assert py.deadwood_many(["5C 6C 7C"], 13).tolist() == [0]
    assert (fc.IMPLEMENTATION, solver._core) == before
    assert fc.deadwood is solver.deadwood and fc.deadwood is not py.deadwood


@pytest.mark.parametrize("name", ["", "Python", "cpp", None])
def test_implementation_refuses_other_names(name: object) -> None:
    with pytest.raises(ValueError, match="'compiled' or 'python'"):
        implementation(name)  # type: ignore[arg-type]


def test_use_implementation_runs_the_simulators_through_that_core(
        impl: Implementation, cores: dict[str, ModuleType],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside the block the module's functions, and so the engine and the bots, reach that
    core and no other; after it, the core loaded at import again."""
    from fivecrowns.bots import GreedyBot
    from fivecrowns.players import play_game

    class _Greedy(GreedyBot):
        pass

    calls: set[str] = set()
    for core_name, core in cores.items():
        for fn in ("deadwood_row", "best_discard_row"):  # the engine's and bots' entry points
            original = getattr(core, fn)

            def spy(*args: object, _o: object = original, _n: str = core_name) -> object:
                calls.add(_n)
                return _o(*args)  # type: ignore[operator]

            monkeypatch.setattr(core, fn, spy)
    before = solver._core
    with solver.use_implementation(impl.name) as used:
        assert used is impl and solver._core is cores[impl.name]
        assert row_core() is cores[impl.name]  # the bots' and features' rows too
        # a subclass takes play_game's Python route (built-in bots play on the compiled
        # engine, which calls the compiled core in C, out of the spies' sight)
        result = play_game([_Greedy(), _Greedy()], seed=1, rounds=[1, 2])
    assert calls == {impl.name} and result.rounds
    assert solver._core is before
    assert solver.IMPLEMENTATION == fc.IMPLEMENTATION   # the import-time choice, unchanged


def test_use_implementation_nests_and_restores_on_an_error() -> None:
    before = solver._core
    with pytest.raises(KeyError):
        with solver.use_implementation("python"):
            with solver.use_implementation(fc.IMPLEMENTATION):
                assert solver._core is before
            assert solver._core is _solver_py
            raise KeyError("out of the block")
    assert solver._core is before


@pytest.mark.parametrize("name", ["", "Python", "cpp", None])
def test_use_implementation_refuses_other_names(name: object) -> None:
    before = solver._core
    with pytest.raises(ValueError, match="'compiled' or 'python'"):
        with solver.use_implementation(name):  # type: ignore[arg-type]
            pass
    assert solver._core is before


def test_compiled_entry_points_carry_the_twin_docstrings(compiled: ModuleType) -> None:
    for name in CORE_FUNCTIONS:
        twin_doc = getattr(_solver_py, name).__doc__
        assert twin_doc and twin_doc.strip(), f"the twin's {name} has no docstring"
        assert getattr(compiled, name).__doc__ == twin_doc, name


def test_discard_deadwood_is_best_discard_deadwood(impl: Implementation) -> None:
    cases = (("5C 6C 7C KD", 13), ("5C 6C 8D 3H", 13), ("JK", 5), ("3S 4S 5S KD KH 8C", 8))
    for hand, wild in cases:
        expected = impl.best_discard(hand, wild).deadwood
        assert impl.discard_deadwood(hand, wild) == expected
        assert impl.discard_deadwood_many([hand], wild).tolist() == [expected]
        assert impl.can_go_out(hand, wild) is (expected == 0)
    with pytest.raises(fc.HandError, match="at least 1 card"):
        impl.discard_deadwood("", 5)


def test_old_names_are_gone() -> None:
    assert not hasattr(solver, "best_discard_many")
    assert not hasattr(fc.cards, "to_counts") and "to_counts" not in fc.__all__
    assert not hasattr(fc.Card, "value")
    for name in ("discard_deadwood", "discard_deadwood_many", "hand_counts", "card_value",
                 "random_hands"):
        assert name in fc.__all__ and hasattr(fc, name)


def test_hand_counts_is_checked_and_keyword_only() -> None:
    row = fc.hand_counts("3C 3C JK", decks=2)
    assert row.dtype == np.uint8 and row.shape == (56,) and row[[0, 55]].tolist() == [2, 1]
    with pytest.raises(TypeError):
        fc.hand_counts("3C", 2)  # type: ignore[misc]
    with pytest.raises(fc.HandError, match="3 copies of 3C"):
        fc.hand_counts("3C 3C 3C")
    assert fc.hand_counts("3C 3C 3C", decks=4)[0] == 3
    mine = np.zeros(56, np.int64)
    mine[4] = 2
    row = fc.hand_counts(mine)
    assert row.dtype == np.uint8 and row[4] == 2
    row[4] = 0
    assert mine[4] == 2  # a copy: the caller keeps theirs


@pytest.mark.parametrize("wild", ["K", "k", " K ", fc.Rank.KING, np.int8(13), np.uint64(13), 13])
def test_wild_rank_names_and_numpy_ints(impl: Implementation, wild: object) -> None:
    assert impl.deadwood("5C 6C 7C 9D KD", wild) == 9
    assert impl.deadwood_many(["5C 6C 7C 9D KD"], wild).tolist() == [9]
    assert impl.solve("5C 6C 7C 9D KD", wild).deadwood == 9


def test_numpy_ints_for_decks_and_threads(impl: Implementation) -> None:
    assert impl.deadwood("3C 3C 3C", 5, decks=np.int64(4)) == 0
    many = impl.deadwood_many(["3C 4C 5C"], 13, threads=np.int32(2), decks=np.uint8(2))
    assert many.tolist() == [0]


def test_the_row_masks_take_the_platforms_route(compiled: ModuleType) -> None:
    """SSE2 wherever the CPU has it (x86-64), the portable route where a build asks for it
    (``-DFC_NO_SSE2``, CI's portable step, which says so in ``FIVECROWNS_EXPECT_SSE2``)."""
    core = importlib.import_module("fivecrowns._solver_core")
    expected = os.environ.get("FIVECROWNS_EXPECT_SSE2")
    if expected is not None:
        assert core.SSE2 is (expected == "1")
    elif platform.machine().lower() in ("x86_64", "amd64"):
        assert core.SSE2 is True
    else:
        assert isinstance(core.SSE2, bool)
