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
from fivecrowns.cards import _to_counts as raw  # unchecked rows, to build bad ones
from fivecrowns.solver import Implementation, implementation

ROW3 = raw("3C 3C 4D")  # a valid row, modified below
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


def huge_last_row() -> np.ndarray:
    counts = np.zeros((3, 56), np.int64)
    counts[2, 55] = 2**62
    return counts


def batch(*hands: str) -> np.ndarray:
    return np.stack([raw(h) for h in hands])


# (id, call, expected exception class, text the message must contain)
CASES: list[tuple[str, Callable[[Implementation], Any], type[Exception], str]] = [
    # malformed cards
    ("card-string", lambda sv: sv.deadwood("3C 1H", 5), CardError, "'1H'"),
    ("card-string-solve", lambda sv: sv.solve("3C 4C XX", 5), CardError, "'XX'"),
    ("card-string-discard", lambda sv: sv.best_discard("3C 3D 3HH", 5), CardError, "'3HH'"),
    ("card-string-draw", lambda sv: sv.draw_table("2C", 5), CardError, "'2C'"),
    ("card-string-many", lambda sv: sv.deadwood_many(["3C", "3C 11D"], 5), CardError, "'11D'"),
    ("hand-int", lambda sv: sv.deadwood(42, 5), TypeError, "int"),
    ("hand-bytes", lambda sv: sv.solve(b"3C 4C", 5), TypeError, "bytes"),
    ("hand-none-card", lambda sv: sv.deadwood(["3C", None], 5), TypeError, "NoneType"),
    ("many-str", lambda sv: sv.deadwood_many("3C 4C 5C", 5), TypeError, "str"),
    # more copies than the deck holds
    ("three-copies", lambda sv: sv.deadwood("3C 3C 3C", 5), HandError, "3 copies of 3C"),
    ("three-copies-row", lambda sv: sv.deadwood(row_with(QH=3), 5), HandError, "3 copies of QH"),
    ("three-copies-solve", lambda sv: sv.solve(row_with(KT=3), 5), HandError, "3 copies of KT"),
    ("three-copies-discard", lambda sv: sv.best_discard(row_with(_10D=3), 5), HandError,
     "3 copies of 10D"),
    ("three-copies-go-out", lambda sv: sv.can_go_out("4S 4S 4S 5S", 5), HandError, "4S"),
    ("three-copies-draw", lambda sv: sv.draw_table(row_with(JC=3), 5), HandError, "3 copies of JC"),
    ("three-copies-many", lambda sv: sv.deadwood_many(batch("3C", "5H 5H 5H"), 5), HandError,
     "hand 1: the hand holds 3 copies of 5H"),
    ("three-copies-discard-many", lambda sv: sv.discard_deadwood_many(batch("9S 9S 9S"), 5),
     HandError, "hand 0: the hand holds 3 copies of 9S"),
    ("seven-jokers", lambda sv: sv.deadwood("JK " * 7, 5), HandError, "7 jokers"),
    ("seven-jokers-row", lambda sv: sv.solve(row_with(JK=7), 5), HandError, "7 jokers"),
    ("seven-jokers-many", lambda sv: sv.deadwood_many(batch("3C", "3C", "JK " * 7), 5), HandError,
     "hand 2: the hand holds 7 jokers"),
    ("five-copies-party", lambda sv: sv.deadwood("8D " * 5, 5, decks=4), HandError,
     "5 copies of 8D"),
    ("thirteen-jokers-party", lambda sv: sv.deadwood(row_with(JK=13), 5, decks=4), HandError,
     "13 jokers"),
    # wild ranks
    ("wild-2", lambda sv: sv.deadwood(GOOD, 2), ValueError, "got 2"),
    ("wild-14", lambda sv: sv.deadwood(GOOD, 14), ValueError, "got 14"),
    ("wild-0-row", lambda sv: sv.deadwood(raw(GOOD), 0), ValueError, "got 0"),
    ("wild-Z", lambda sv: sv.deadwood(GOOD, "Z"), ValueError, "got 'Z'"),
    ("wild-suit", lambda sv: sv.deadwood(GOOD, fc.Suit.STARS), TypeError, "Suit.STARS"),
    ("wild-suit-many", lambda sv: sv.deadwood_many([GOOD], fc.Suit.HEARTS), TypeError, "Suit"),
    ("wild-True", lambda sv: sv.deadwood(GOOD, True), TypeError, "bool"),
    ("wild-np-bool", lambda sv: sv.deadwood(GOOD, np.True_), TypeError, "bool"),
    ("wild-float", lambda sv: sv.deadwood(GOOD, 7.0), TypeError, "float"),
    ("wild-None", lambda sv: sv.deadwood(GOOD, None), TypeError, "NoneType"),
    ("wild-solve", lambda sv: sv.solve(GOOD, 1), ValueError, "got 1"),
    ("wild-discard", lambda sv: sv.best_discard(GOOD, 20), ValueError, "got 20"),
    ("wild-go-out", lambda sv: sv.can_go_out(GOOD, "77"), ValueError, "'77'"),
    ("wild-draw", lambda sv: sv.draw_table(GOOD, -3), ValueError, "got -3"),
    ("wild-many", lambda sv: sv.deadwood_many([GOOD], 14), ValueError, "got 14"),
    ("wild-many-bool", lambda sv: sv.discard_deadwood_many([GOOD], True), TypeError, "bool"),
    ("wild-array-value", lambda sv: sv.deadwood_many(batch(GOOD, GOOD), np.array([5, 2])),
     ValueError, "wild[1] must be a rank 3..13, got 2"),
    ("wild-array-value-discard", lambda sv: sv.discard_deadwood_many(batch(GOOD), np.array([14])),
     ValueError, "wild[0] must be a rank 3..13, got 14"),
    ("wild-array-large-value", lambda sv: sv.deadwood_many(batch(GOOD, GOOD), np.array([5, 1000])),
     ValueError, "got 1000"),
    ("wild-array-float", lambda sv: sv.deadwood_many(batch(GOOD), np.array([5.0])), TypeError,
     "float64"),
    ("wild-array-shape", lambda sv: sv.deadwood_many(batch(GOOD, GOOD), np.array([5, 5, 5])),
     ValueError, "(3,)"),
    ("wild-array-2d", lambda sv: sv.discard_deadwood_many(batch(GOOD, GOOD), np.array([[5], [5]])),
     ValueError, "(2, 1)"),
    ("wild-array-empty-batch", lambda sv: sv.deadwood_many(np.zeros((0, 56), np.uint8),
                                                        np.array([5])), ValueError, "(1,)"),
    # counts arrays
    ("counts-float", lambda sv: sv.deadwood(np.zeros(56), 5), TypeError, "float64"),
    ("counts-bool", lambda sv: sv.solve(np.zeros(56, dtype=bool), 5), TypeError, "bool"),
    ("counts-shape-55", lambda sv: sv.deadwood(np.zeros(55, np.uint8), 5), ValueError, "(55,)"),
    ("counts-shape-2d", lambda sv: sv.best_discard(np.zeros((1, 56), np.uint8), 5), ValueError,
     "(1, 56)"),
    ("counts-int64-shape", lambda sv: sv.deadwood(np.zeros(57, np.int64), 5), ValueError, "(57,)"),
    ("counts-over-255", lambda sv: sv.deadwood(np.full(56, 300), 5), HandError, "got 300"),
    ("counts-negative", lambda sv: sv.deadwood(np.full(56, -1), 5), HandError, "got -1"),
    ("counts-masked", lambda sv: sv.deadwood(np.ma.zeros(56, np.uint8), 5), TypeError,
     "masked"),
    ("many-shape-55", lambda sv: sv.deadwood_many(np.zeros((4, 55), np.uint8), 5), ValueError,
     "(4, 55)"),
    ("many-shape-1d", lambda sv: sv.deadwood_many(np.zeros(56, np.uint8), 5), ValueError, "(56,)"),
    ("many-shape-3d", lambda sv: sv.discard_deadwood_many(np.zeros((2, 2, 56), np.uint8), 5),
     ValueError, "(2, 2, 56)"),
    ("many-dtype-timedelta", lambda sv: sv.deadwood_many(np.zeros((4, 56), "m8[s]"), 5),
     TypeError, "timedelta64"),
    ("many-dtype-datetime", lambda sv: sv.deadwood_many(np.zeros((4, 56), "M8[D]"), 5),
     TypeError, "datetime64"),
    ("many-dtype-bool", lambda sv: sv.deadwood_many(np.zeros((4, 56), bool), 5), TypeError,
     "bool"),
    ("many-int64-negative", lambda sv: sv.deadwood_many(np.full((3, 56), -1), 5), HandError,
     "got -1 (hand 0, 3C)"),
    ("many-int64-over-deck", lambda sv: sv.deadwood_many(huge_last_row(), 5), HandError,
     "got 4611686018427387904 (hand 2, JK)"),
    ("many-int64-copies", lambda sv: sv.deadwood_many(batch("3C", "9S 9S 9S").astype(np.int16), 5),
     HandError, "hand 1: the hand holds 3 copies of 9S"),
    ("many-masked", lambda sv: sv.deadwood_many(np.ma.zeros((2, 56), np.uint8), 5), TypeError,
     "masked"),
    ("many-wild-masked", lambda sv: sv.deadwood_many(batch(GOOD), np.ma.array([5])), TypeError,
     "masked"),
    ("many-int", lambda sv: sv.deadwood_many(5, 13), TypeError,
     "counts must be a (N, 56) array of counts or a sequence of hands, got int"),
    ("many-wild-timedelta", lambda sv: sv.deadwood_many(batch(GOOD), np.array([5], "m8[s]")),
     TypeError, "timedelta64"),
    ("many-dtype-float", lambda sv: sv.discard_deadwood_many(np.zeros((4, 56)), 5), TypeError,
     "float64; convert with counts.astype(np.uint8)"),
    # sizes
    ("discard-empty", lambda sv: sv.best_discard("", 5), HandError, "at least 1 card(s), got 0"),
    ("discard-empty-row", lambda sv: sv.best_discard(np.zeros(56, np.uint8), 5), HandError,
     "at least 1 card(s), got 0"),
    ("go-out-empty", lambda sv: sv.can_go_out([], 5), HandError, "at least 1 card(s), got 0"),
    ("discard-many-empty-hand", lambda sv: sv.discard_deadwood_many(["3C 4C", ""], 5), HandError,
     "hand 1: the hand must hold at least 1 card(s), got 0"),
    ("too-big", lambda sv: sv.deadwood(twenty_one(), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE} cards, got 21"),
    ("too-big-row", lambda sv: sv.solve(raw(twenty_one()), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE} cards, got 21"),
    ("too-big-jokers", lambda sv: sv.deadwood(row_with(JK=12, _3C=4, _4C=4, _5C=1), 5, decks=4),
     HandError, "got 21"),
    ("too-big-discard", lambda sv: sv.best_discard(twenty_one(), 5), HandError, "got 21"),
    ("too-big-draw", lambda sv: sv.draw_table(twenty(), 5), HandError,
     f"at most {fc.MAX_HAND_SIZE - 1} cards, got 20"),
    ("too-big-many", lambda sv: sv.deadwood_many(batch("3C", "4C", twenty_one()), 5), HandError,
     "hand 2: the hand must hold at most"),
    ("too-big-discard-many", lambda sv: sv.discard_deadwood_many(batch(twenty_one()), 5), HandError,
     "hand 0: the hand must hold at most"),
    # threads
    ("threads-0", lambda sv: sv.deadwood_many([GOOD], 5, threads=0), ValueError, "got 0"),
    ("threads-negative", lambda sv: sv.discard_deadwood_many([GOOD], 5, threads=-2), ValueError,
     "got -2"),
    ("threads-float", lambda sv: sv.deadwood_many([GOOD], 5, threads=2.0), TypeError, "float"),
    ("threads-str", lambda sv: sv.deadwood_many([GOOD], 5, threads="2"), TypeError, "str"),
    ("threads-bool", lambda sv: sv.deadwood_many([GOOD], 5, threads=True), TypeError, "bool"),
    # decks
    ("decks-3", lambda sv: sv.deadwood(GOOD, 5, decks=3), ValueError, "got 3"),
    ("decks-3-row", lambda sv: sv.deadwood(raw(GOOD), 5, decks=3), ValueError, "got 3"),
    ("decks-3-row-copies", lambda sv: sv.deadwood(row_with(_3C=3, _4D=1), 5, decks=3), ValueError,
     "got 3"),
    ("decks-3-solve-row", lambda sv: sv.solve(raw(GOOD), 5, decks=3), ValueError,
     "got 3"),
    ("decks-3-discard-row", lambda sv: sv.best_discard(raw(GOOD), 5, decks=3),
     ValueError, "got 3"),
    ("decks-3-draw-row", lambda sv: sv.draw_table(raw(GOOD), 5, decks=3), ValueError,
     "got 3"),
    ("decks-str-row", lambda sv: sv.can_go_out(raw(GOOD), 5, decks="2"), TypeError,
     "str"),
    ("decks-3-many", lambda sv: sv.deadwood_many([GOOD], 5, decks=3), ValueError, "got 3"),
    ("decks-1-discard-many", lambda sv: sv.discard_deadwood_many(batch(GOOD), 5, decks=1),
     ValueError, "got 1"),
    ("decks-str", lambda sv: sv.solve(GOOD, 5, decks="4"), TypeError, "str"),
    ("decks-bool", lambda sv: sv.deadwood(GOOD, 5, decks=True), TypeError, "bool"),
]


def _outcome(sv: Implementation,
             call: Callable[[Implementation], Any]) -> tuple[type, str] | Any:
    try:
        return call(sv)
    except Exception as exc:
        return type(exc), str(exc)


def _still_works(sv: Implementation) -> None:
    assert sv.deadwood(GOOD, 13) == 0
    assert sv.solve(raw(GOOD), 13).deadwood == 0
    assert sv.best_discard(GOOD + " 4H", 13).card == fc.Card.parse("4H")
    assert sv.deadwood_many([GOOD, "3C 4D"], 13).tolist() == [0, 7]
    assert sv.discard_deadwood_many([GOOD + " 4H"], 13, threads=2).tolist() == [0]


@pytest.mark.parametrize(("call", "kind", "text"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input(cores: dict[str, ModuleType], call: Callable[[Implementation], Any],
                   kind: type, text: str) -> None:
    outcomes = {}
    for name in cores:
        sv = implementation(name)
        outcome = _outcome(sv, call)
        assert isinstance(outcome, tuple) and len(outcome) == 2 and isinstance(outcome[0], type), (
            f"{name}: no error raised, returned {outcome!r}")
        exc_type, message = outcome
        assert issubclass(exc_type, kind), f"{name}: raised {exc_type.__name__}: {message}"
        assert issubclass(exc_type, (ValueError, TypeError))
        assert exc_type.__module__ != "numpy" and "ufunc" not in message, (
            f"{name}: leaked a numpy error: {message}")
        assert text in message, f"{name}: message {message!r} does not mention {text!r}"
        outcomes[name] = outcome
        _still_works(sv)
    assert len(set(outcomes.values())) == 1, f"messages differ between cores: {outcomes}"


# -- the core entry points themselves ---------------------------------------------------------
#
# The public API hands well-formed uint8 rows straight to the core, which must validate them
# with the same messages in both implementations.

def _row(text: str) -> np.ndarray:
    return raw(text)


CORE_CASES: list[tuple[str, str, tuple[Any, ...]]] = [
    ("deadwood_row", "copies", (row_with(QH=3), 5, 2)),
    ("deadwood_row", "jokers", (row_with(JK=7), 5, 2)),
    ("deadwood_row", "party-copies", (row_with(QH=5), 5, 4)),
    ("deadwood_row", "size", (_row(twenty_one()), 5, 2)),
    ("deadwood_row", "wild-low", (_row(GOOD), 2, 2)),
    ("deadwood_row", "wild-high", (_row(GOOD), 14, 2)),
    ("deadwood_row", "wild-bool", (_row(GOOD), True, 2)),
    ("deadwood_row", "wild-str", (_row(GOOD), "K2", 2)),
    ("deadwood_row", "wild-suit", (_row(GOOD), fc.Suit.CLUBS, 2)),
    ("discard_deadwood_row", "empty", (np.zeros(56, np.uint8), 5, 2)),
    ("discard_deadwood_row", "copies", (row_with(QH=3), 5, 2)),
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
    ("discard_deadwood_many", "empty", (batch("3C", ""), np.array([5, 5], np.int8), 2, 1)),
    ("discard_deadwood_many", "jokers", (batch("JK " * 7), np.array([5], np.int8), 2, 1)),
    ("discard_deadwood_many", "wild", (batch("3C"), np.array([14], np.int8), 2, 1)),
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


def test_core_batch_entry_points_take_the_same_layouts(cores: dict[str, ModuleType]) -> None:
    """Both cores take a strided batch and wilds of any integer dtype, with equal answers."""
    counts = batch("3C 4C 5C", "9S 9H", "JK 3D", "5H 6H 8H KT")
    strided = np.repeat(counts, 2, axis=0)[::2]
    wide = np.zeros((4, 60), np.uint8)
    wide[:, 2:58] = counts
    results = set()
    for core in cores.values():
        for layout in (counts, strided, wide[:, 2:58], np.asfortranarray(counts)):
            for wilds in (np.array([5, 9, 13, 3], np.int64), np.array([5, 9, 13, 3], np.uint8),
                          np.array([5, 5, 9, 9, 13, 13, 3, 3], np.int8)[::2]):
                for fn in ("deadwood_many", "discard_deadwood_many"):
                    results.add((fn, tuple(getattr(core, fn)(layout, wilds, 2, 1).tolist())))
    assert len(results) == 2, results
