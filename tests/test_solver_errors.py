"""Bad inputs raise ValueError/TypeError (or CardError/HandError) with a message naming
the culprit, the same message from every implementation, and leave the solver usable."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns import CardError, HandError

ROW3 = fc.to_counts("3C 3C 4D")  # a valid row, modified below
GOOD = "5C 6C 7C 9D 9H JK"  # deadwood 0 with Kings wild; best discard 0


def row_with(**changes: int) -> np.ndarray:
    """A uint8 row of counts: card text -> count (``JK`` for jokers)."""
    row = np.zeros(56, dtype=np.uint8)
    for text, n in changes.items():
        row[fc.Card.parse(text.replace("_", "")).index] = n
    return row


def twenty_one() -> str:
    return " ".join(str(fc.Card.from_index(i)) for i in range(21))


def twenty() -> str:
    return " ".join(str(fc.Card.from_index(i)) for i in range(20))


def batch(*hands: str) -> np.ndarray:
    return np.stack([fc.to_counts(h) for h in hands])


# (id, call, expected exception class, text the message must contain)
CASES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    # malformed cards
    ("card-string", lambda: fc.deadwood("3C 1H", 5), CardError, "'1H'"),
    ("card-string-solve", lambda: fc.solve("3C 4C XX", 5), CardError, "'XX'"),
    ("card-string-discard", lambda: fc.best_discard("3C 3D 3HH", 5), CardError, "'3HH'"),
    ("card-string-draw", lambda: fc.draw_table("2C", 5), CardError, "'2C'"),
    ("card-string-many", lambda: fc.deadwood_many(["3C", "3C 11D"], 5), CardError, "'11D'"),
    ("hand-int", lambda: fc.deadwood(42, 5), TypeError, "int"),
    ("hand-bytes", lambda: fc.solve(b"3C 4C", 5), TypeError, "bytes"),
    ("hand-none-card", lambda: fc.deadwood(["3C", None], 5), TypeError, "NoneType"),
    ("many-str", lambda: fc.deadwood_many("3C 4C 5C", 5), TypeError, "str"),
    # more copies than the deck holds
    ("three-copies", lambda: fc.deadwood("3C 3C 3C", 5), HandError, "3 copies of 3C"),
    ("three-copies-row", lambda: fc.deadwood(row_with(QH=3), 5), HandError, "3 copies of QH"),
    ("three-copies-solve", lambda: fc.solve(row_with(KT=3), 5), HandError, "3 copies of KT"),
    ("three-copies-discard", lambda: fc.best_discard(row_with(_10D=3), 5), HandError,
     "3 copies of 10D"),
    ("three-copies-go-out", lambda: fc.can_go_out("4S 4S 4S 5S", 5), HandError, "4S"),
    ("three-copies-draw", lambda: fc.draw_table(row_with(JC=3), 5), HandError, "3 copies of JC"),
    ("three-copies-many", lambda: fc.deadwood_many(batch("3C", "5H 5H 5H"), 5), HandError,
     "hand 1: the hand holds 3 copies of 5H"),
    ("three-copies-discard-many", lambda: fc.best_discard_many(batch("9S 9S 9S"), 5), HandError,
     "hand 0: the hand holds 3 copies of 9S"),
    ("seven-jokers", lambda: fc.deadwood("JK " * 7, 5), HandError, "7 jokers"),
    ("seven-jokers-row", lambda: fc.solve(row_with(JK=7), 5), HandError, "7 jokers"),
    ("seven-jokers-many", lambda: fc.deadwood_many(batch("3C", "3C", "JK " * 7), 5), HandError,
     "hand 2: the hand holds 7 jokers"),
    ("five-copies-party", lambda: fc.deadwood("8D " * 5, 5, decks=4), HandError,
     "5 copies of 8D"),
    ("thirteen-jokers-party", lambda: fc.deadwood(row_with(JK=13), 5, decks=4), HandError,
     "13 jokers"),
    # wild ranks
    ("wild-2", lambda: fc.deadwood(GOOD, 2), ValueError, "got 2"),
    ("wild-14", lambda: fc.deadwood(GOOD, 14), ValueError, "got 14"),
    ("wild-0-row", lambda: fc.deadwood(fc.to_counts(GOOD), 0), ValueError, "got 0"),
    ("wild-K", lambda: fc.deadwood(GOOD, "K"), TypeError, "str"),
    ("wild-True", lambda: fc.deadwood(GOOD, True), TypeError, "bool"),
    ("wild-np-bool", lambda: fc.deadwood(GOOD, np.True_), TypeError, "bool"),
    ("wild-float", lambda: fc.deadwood(GOOD, 7.0), TypeError, "float"),
    ("wild-None", lambda: fc.deadwood(GOOD, None), TypeError, "NoneType"),
    ("wild-solve", lambda: fc.solve(GOOD, 1), ValueError, "got 1"),
    ("wild-discard", lambda: fc.best_discard(GOOD, 20), ValueError, "got 20"),
    ("wild-go-out", lambda: fc.can_go_out(GOOD, "7"), TypeError, "str"),
    ("wild-draw", lambda: fc.draw_table(GOOD, -3), ValueError, "got -3"),
    ("wild-many", lambda: fc.deadwood_many([GOOD], 14), ValueError, "got 14"),
    ("wild-many-bool", lambda: fc.best_discard_many([GOOD], True), TypeError, "bool"),
    ("wild-array-value", lambda: fc.deadwood_many(batch(GOOD, GOOD), np.array([5, 2])),
     ValueError, "wild[1] must be a rank 3..13, got 2"),
    ("wild-array-value-discard", lambda: fc.best_discard_many(batch(GOOD), np.array([14])),
     ValueError, "wild[0] must be a rank 3..13, got 14"),
    ("wild-array-large-value", lambda: fc.deadwood_many(batch(GOOD, GOOD), np.array([5, 1000])),
     ValueError, "got 1000"),
    ("wild-array-float", lambda: fc.deadwood_many(batch(GOOD), np.array([5.0])), TypeError,
     "float64"),
    ("wild-array-shape", lambda: fc.deadwood_many(batch(GOOD, GOOD), np.array([5, 5, 5])),
     ValueError, "(3,)"),
    ("wild-array-2d", lambda: fc.best_discard_many(batch(GOOD, GOOD), np.array([[5], [5]])),
     ValueError, "(2, 1)"),
    ("wild-array-empty-batch", lambda: fc.deadwood_many(np.zeros((0, 56), np.uint8),
                                                        np.array([5])), ValueError, "(1,)"),
    # counts arrays
    ("counts-float", lambda: fc.deadwood(np.zeros(56), 5), TypeError, "float64"),
    ("counts-bool", lambda: fc.solve(np.zeros(56, dtype=bool), 5), TypeError, "bool"),
    ("counts-shape-55", lambda: fc.deadwood(np.zeros(55, np.uint8), 5), ValueError, "(55,)"),
    ("counts-shape-2d", lambda: fc.best_discard(np.zeros((1, 56), np.uint8), 5), ValueError,
     "(1, 56)"),
    ("counts-int64-shape", lambda: fc.deadwood(np.zeros(57, np.int64), 5), ValueError, "(57,)"),
    ("counts-over-255", lambda: fc.deadwood(np.full(56, 300), 5), HandError, "0..255"),
    ("counts-negative", lambda: fc.deadwood(np.full(56, -1), 5), HandError, "0..255"),
    ("many-shape-55", lambda: fc.deadwood_many(np.zeros((4, 55), np.uint8), 5), ValueError,
     "(4, 55)"),
    ("many-shape-1d", lambda: fc.deadwood_many(np.zeros(56, np.uint8), 5), ValueError, "(56,)"),
    ("many-shape-3d", lambda: fc.best_discard_many(np.zeros((2, 2, 56), np.uint8), 5),
     ValueError, "(2, 2, 56)"),
    ("many-dtype", lambda: fc.deadwood_many(np.zeros((4, 56), np.int64), 5), TypeError,
     "int64"),
    ("many-dtype-float", lambda: fc.best_discard_many(np.zeros((4, 56)), 5), TypeError,
     "float64"),
    # sizes
    ("discard-empty", lambda: fc.best_discard("", 5), HandError, "at least 1 card(s), got 0"),
    ("discard-empty-row", lambda: fc.best_discard(np.zeros(56, np.uint8), 5), HandError,
     "at least 1 card(s), got 0"),
    ("go-out-empty", lambda: fc.can_go_out([], 5), HandError, "at least 1 card(s), got 0"),
    ("discard-many-empty-hand", lambda: fc.best_discard_many(["3C 4C", ""], 5), HandError,
     "hand 1: the hand must hold at least 1 card(s), got 0"),
    ("too-big", lambda: fc.deadwood(twenty_one(), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE} cards, got 21"),
    ("too-big-row", lambda: fc.solve(fc.to_counts(twenty_one()), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE} cards, got 21"),
    ("too-big-jokers", lambda: fc.deadwood(row_with(JK=12, _3C=4, _4C=4, _5C=1), 5, decks=4),
     HandError, "got 21"),
    ("too-big-discard", lambda: fc.best_discard(twenty_one(), 5), HandError, "got 21"),
    ("too-big-draw", lambda: fc.draw_table(twenty(), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE - 1} cards, got 20"),
    ("too-big-many", lambda: fc.deadwood_many(batch("3C", "4C", twenty_one()), 5), HandError,
     "hand 2: the hand must hold at most"),
    ("too-big-discard-many", lambda: fc.best_discard_many(batch(twenty_one()), 5), HandError,
     "hand 0: the hand must hold at most"),
    # threads
    ("threads-0", lambda: fc.deadwood_many([GOOD], 5, threads=0), ValueError, "got 0"),
    ("threads-negative", lambda: fc.best_discard_many([GOOD], 5, threads=-2), ValueError,
     "got -2"),
    ("threads-float", lambda: fc.deadwood_many([GOOD], 5, threads=2.0), TypeError, "float"),
    ("threads-str", lambda: fc.deadwood_many([GOOD], 5, threads="2"), TypeError, "str"),
    ("threads-bool", lambda: fc.deadwood_many([GOOD], 5, threads=True), TypeError, "bool"),
    # decks
    ("decks-3", lambda: fc.deadwood(GOOD, 5, decks=3), ValueError, "got 3"),
    ("decks-3-row", lambda: fc.deadwood(fc.to_counts(GOOD), 5, decks=3), ValueError, "got 3"),
    ("decks-3-row-copies", lambda: fc.deadwood(row_with(_3C=3, _4D=1), 5, decks=3), ValueError,
     "got 3"),
    ("decks-3-solve-row", lambda: fc.solve(fc.to_counts(GOOD), 5, decks=3), ValueError,
     "got 3"),
    ("decks-3-discard-row", lambda: fc.best_discard(fc.to_counts(GOOD), 5, decks=3),
     ValueError, "got 3"),
    ("decks-3-draw-row", lambda: fc.draw_table(fc.to_counts(GOOD), 5, decks=3), ValueError,
     "got 3"),
    ("decks-str-row", lambda: fc.can_go_out(fc.to_counts(GOOD), 5, decks="2"), TypeError,
     "str"),
    ("decks-3-many", lambda: fc.deadwood_many([GOOD], 5, decks=3), ValueError, "got 3"),
    ("decks-1-discard-many", lambda: fc.best_discard_many(batch(GOOD), 5, decks=1), ValueError,
     "got 1"),
    ("decks-str", lambda: fc.solve(GOOD, 5, decks="4"), TypeError, "str"),
    ("decks-bool", lambda: fc.deadwood(GOOD, 5, decks=True), TypeError, "bool"),
]


def _outcome(core: ModuleType, call: Callable[[], Any]) -> tuple[type, str] | Any:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fc.solver, "_core", core)
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - the exception is what is tested
            return type(exc), str(exc)
    return result


def _still_works(core: ModuleType) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fc.solver, "_core", core)
        assert fc.deadwood(GOOD, 13) == 0
        assert fc.solve(fc.to_counts(GOOD), 13).deadwood == 0
        assert fc.best_discard(GOOD + " 4H", 13).card == fc.Card.parse("4H")
        assert fc.deadwood_many([GOOD, "3C 4D"], 13).tolist() == [0, 7]
        assert fc.best_discard_many([GOOD + " 4H"], 13, threads=2).tolist() == [0]


@pytest.mark.parametrize(("call", "kind", "text"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input(cores: dict[str, ModuleType], call: Callable[[], Any], kind: type,
                   text: str) -> None:
    outcomes = {}
    for name, core in cores.items():
        outcome = _outcome(core, call)
        assert isinstance(outcome, tuple) and len(outcome) == 2 and isinstance(outcome[0], type), (
            f"{name}: no error raised, returned {outcome!r}")
        exc_type, message = outcome
        assert issubclass(exc_type, kind), f"{name}: raised {exc_type.__name__}: {message}"
        assert issubclass(exc_type, (ValueError, TypeError))
        assert exc_type.__module__ != "numpy" and "ufunc" not in message, (
            f"{name}: leaked a numpy error: {message}")
        assert text in message, f"{name}: message {message!r} does not mention {text!r}"
        outcomes[name] = outcome
        _still_works(core)
    assert len(set(outcomes.values())) == 1, f"messages differ between cores: {outcomes}"


# -- the core entry points themselves ---------------------------------------------------------
#
# The public API hands well-formed uint8 rows straight to the core, which must validate them
# with the same messages in both implementations.

def _row(text: str) -> np.ndarray:
    return fc.to_counts(text)


CORE_CASES: list[tuple[str, str, tuple[Any, ...]]] = [
    ("deadwood_row", "copies", (row_with(QH=3), 5, 2)),
    ("deadwood_row", "jokers", (row_with(JK=7), 5, 2)),
    ("deadwood_row", "party-copies", (row_with(QH=5), 5, 4)),
    ("deadwood_row", "size", (_row(twenty_one()), 5, 2)),
    ("deadwood_row", "wild-low", (_row(GOOD), 2, 2)),
    ("deadwood_row", "wild-high", (_row(GOOD), 14, 2)),
    ("deadwood_row", "wild-bool", (_row(GOOD), True, 2)),
    ("deadwood_row", "wild-str", (_row(GOOD), "K", 2)),
    ("deadwood_row", "dtype", (np.zeros(56, np.int64), 5, 2)),
    ("deadwood_row", "shape", (np.zeros(55, np.uint8), 5, 2)),
    ("plan_row", "copies", (row_with(KT=3), 5, 2)),
    ("plan_row", "wild", (_row(GOOD), 1, 2)),
    ("plan_row", "size", (_row(twenty_one()), 5, 2)),
    ("best_discard_row", "empty", (np.zeros(56, np.uint8), 5, 2)),
    ("best_discard_row", "jokers", (row_with(JK=7), 5, 2)),
    ("best_discard_row", "wild", (_row(GOOD), 15, 2)),
    ("draw_table_row", "size", (_row(twenty()), 5, 2)),
    ("draw_table_row", "copies", (row_with(_3C=3), 5, 2)),
    ("draw_table_row", "wild", (_row(GOOD), 0, 2)),
    ("deadwood_many", "copies", (batch("3C", "5H 5H 5H"), np.array([5, 5], np.int8), 2, 1)),
    ("deadwood_many", "wild", (batch("3C", "5H"), np.array([5, 2], np.int8), 2, 1)),
    ("deadwood_many", "wild-shape", (batch("3C", "5H"), np.array([5], np.int8), 2, 1)),
    ("deadwood_many", "size", (batch("3C", twenty_one()), np.array([5, 5], np.int8), 2, 2)),
    ("deadwood_many", "shape", (np.zeros((2, 55), np.uint8), np.array([5, 5], np.int8), 2, 1)),
    ("best_discard_many", "empty", (batch("3C", ""), np.array([5, 5], np.int8), 2, 1)),
    ("best_discard_many", "jokers", (batch("JK " * 7), np.array([5], np.int8), 2, 1)),
    ("best_discard_many", "wild", (batch("3C"), np.array([14], np.int8), 2, 1)),
]


@pytest.mark.parametrize(("func", "args"), [(c[0], c[2]) for c in CORE_CASES],
                         ids=[f"{c[0]}-{c[1]}" for c in CORE_CASES])
def test_core_entry_points_validate(cores: dict[str, ModuleType], func: str,
                                    args: tuple[Any, ...]) -> None:
    outcomes = {}
    for name, core in cores.items():
        try:
            result = getattr(core, func)(*args)
        except (ValueError, TypeError) as exc:
            outcomes[name] = (type(exc), str(exc))
        else:
            pytest.fail(f"{name}.{func} accepted bad input and returned {result!r}")
        assert core.deadwood_row(_row(GOOD), 13, 2) == 0  # still usable
    assert len(set(outcomes.values())) == 1, f"messages differ between cores: {outcomes}"
    assert all(issubclass(t, (HandError, ValueError, TypeError)) for t, _ in outcomes.values())
