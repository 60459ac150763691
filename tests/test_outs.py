"""Solver-level analysis (fivecrowns.outs): completing types against draw tables, the joker
distance, the one statement of the best-discard order, and the solver memo."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivecrowns as fc
from fivecrowns import _solver_py
from fivecrowns.deck import full_counts
from fivecrowns.outs import SolverMemo, completing_types, discard_order, joker_distance
from fivecrowns.solitaire import PILE_SIZES
from solitaire_deals import complete_piles

DECK2 = np.repeat(np.arange(fc.N_TYPES), full_counts(fc.Rules()))


@st.composite
def hands(draw: st.DrawFn, least: int = 1, most: int = 14) -> tuple[np.ndarray, int]:
    n = draw(st.integers(least, most))
    seed = draw(st.integers(0, 2**32))
    cards = np.random.default_rng(seed).choice(DECK2, n, replace=False)
    return np.bincount(cards, minlength=fc.N_TYPES).astype(np.uint8), draw(st.integers(3, 13))


# --------------------------------------------------------------------------------------------
# completing_types
# --------------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.sampled_from(PILE_SIZES), swaps=st.integers(0, 3))
def test_completing_types_matches_draw_table(seed: int, size: int, swaps: int) -> None:
    # Start from a complete pile and spoil a few cards, so that many piles are close.
    piles, rest = complete_piles()
    rng = np.random.default_rng(seed)
    cards = list(piles[size])
    pool = rest + ["JK"] * 6
    for _ in range(swaps):
        cards[int(rng.integers(len(cards)))] = pool.pop(int(rng.integers(len(pool))))
    row = fc.hand_counts(cards)
    expected = fc.draw_table(row, size) == 0
    assert np.array_equal(completing_types(row, size), expected)


@settings(max_examples=25, deadline=None)
@given(hands(2, 9))
def test_completing_types_matches_draw_table_on_random_hands(hw: tuple[np.ndarray, int]
                                                             ) -> None:
    row, wild = hw
    assert np.array_equal(completing_types(row, wild), fc.draw_table(row, wild) == 0)


def test_completing_types_examples() -> None:
    outs = completing_types(fc.hand_counts("5C 6C 9D"), 13)
    assert {str(fc.Card.from_index(t)) for t in np.flatnonzero(outs)} == {
        "4C", "7C", "KC", "KD", "KH", "KS", "KT", "JK"}
    assert completing_types("5C 6C 7C", 13).sum() == 56  # complete: any card
    # six jokers held: no room for a seventh, so the draw table answers
    many = fc.hand_counts("JK " * 6 + "3C 9D")
    assert np.array_equal(completing_types(many, 13), fc.draw_table(many, 13) == 0)
    # party mode: the memo and the call agree on the deck
    party = completing_types("5C 6C 9D", 13, decks=4, memo=SolverMemo(4))
    assert np.array_equal(party, fc.draw_table("5C 6C 9D", 13, decks=4) == 0)


def test_completing_types_returns_a_copy() -> None:
    memo = SolverMemo()
    first = completing_types("5C 6C 9D", 13, memo=memo)
    first[:] = False
    assert completing_types("5C 6C 9D", 13, memo=memo).sum() == 8


# --------------------------------------------------------------------------------------------
# joker_distance
# --------------------------------------------------------------------------------------------


def test_joker_distance() -> None:
    memo = SolverMemo(2)
    assert joker_distance(fc.hand_counts("5C 6C 9D"), 13, memo=memo) == 1   # 9D -> JK
    assert joker_distance("3C 5D 9H", 13, memo=memo) == 2                    # 3C JK JK
    # all six jokers held: the swaps bring in kings (wild) instead
    assert joker_distance("JK " * 6 + "3C 5D 7H 9S JT QH 6H", 13) == 2
    spread = fc.hand_counts("3C 5D 7H 9S JT 4D 6H 8S 10T QC KD")             # nothing melds
    assert joker_distance(spread, 13, limit=2) == 3
    assert joker_distance("3C 3D 3H", 5) == 1  # complete: one swap (a wild) keeps it so


@pytest.mark.parametrize("call, error, message", [
    (lambda: joker_distance("3C", 13, limit=0), ValueError, "limit must be at least 1"),
    (lambda: joker_distance("3C", 13, limit=1.5), TypeError, "limit must be an int"),
    (lambda: joker_distance("3C", 14), ValueError, "wild must be a rank 3..13"),
    (lambda: joker_distance("3C", 13.5), TypeError, "wild must be a rank"),
    (lambda: completing_types("3C 3C 3C", 13), fc.HandError, "3C"),
    (lambda: completing_types("3C", 13, memo={}), TypeError, "memo must be a SolverMemo"),
    (lambda: completing_types("3C", 13, decks=4, memo=SolverMemo(2)), ValueError,
     "the memo holds answers for 2 decks, but decks=4"),
    (lambda: completing_types("3C", 13, decks=3), ValueError, "decks"),
])
def test_argument_errors(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]


# --------------------------------------------------------------------------------------------
# discard_order: the one statement of best_discard's tie-break order
# --------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(hands(1, 15))
def test_discard_order_is_the_twins_candidate_order(hw: tuple[np.ndarray, int]) -> None:
    row, wild = hw
    assert discard_order(row, wild) == _solver_py.discard_candidates(row.tolist(), wild)
    assert discard_order(row.tolist(), wild) == discard_order(row, wild)


@settings(max_examples=200, deadline=None)
@given(hands(2, 15))
def test_best_discard_is_the_first_best_card_in_discard_order(hw: tuple[np.ndarray, int]
                                                              ) -> None:
    row, wild = hw
    order = discard_order(row, wild)
    values = []
    for t in order:
        rest = row.copy()
        rest[t] -= 1
        values.append(fc.deadwood(rest, wild))
    first_best = order[values.index(min(values))]
    got = fc.best_discard(row, wild)
    assert (got.deadwood, got.card.index) == (min(values), first_best)


def test_discard_order_example() -> None:
    row = fc.hand_counts("5C 5D KH 9S 9S JK")
    assert [str(fc.Card.from_index(t)) for t in discard_order(row, 9)] == ["JK", "KH", "5C",
                                                                           "5D"]
    # no joker: only the first wild-rank card held is tried
    row = fc.hand_counts("9D 9S 3C")
    assert [str(fc.Card.from_index(t)) for t in discard_order(row, 9)] == ["9D", "3C"]


def test_discard_order_has_one_home() -> None:
    from fivecrowns import bots

    assert "discard_order" not in bots.__all__
    with pytest.warns(DeprecationWarning, match="fivecrowns.bots.discard_order is deprecated"):
        assert bots.discard_order is discard_order


# --------------------------------------------------------------------------------------------
# SolverMemo
# --------------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(hands(0, 12))
def test_memo_answers_as_the_solver_does(hw: tuple[np.ndarray, int]) -> None:
    row, wild = hw
    memo = SolverMemo(2)
    for _ in range(2):  # computed, then remembered
        assert memo.deadwood(row, wild) == fc.deadwood(row, wild)
        assert memo.deadwood_many(np.array([row, row]), wild) == [fc.deadwood(row, wild)] * 2
        if row.sum() >= 1:
            want = fc.best_discard(row, wild)
            assert memo.best_discard_choice(row, wild) == (want.deadwood, want.card.index)
        if 1 <= row.sum() <= 12:
            assert np.array_equal(memo.draw_table(row, wild), fc.draw_table(row, wild))
            assert np.array_equal(memo.completing_types(row, wild),
                                  completing_types(row, wild))


def test_memo_stays_bounded_and_travels_empty() -> None:
    memo = SolverMemo(2, limit=20)
    rows = np.zeros((60, fc.N_TYPES), dtype=np.uint8)
    for i in range(60):
        rows[i, i % 55] = 1
        rows[i, (i * 7 + 3) % 55] += 1
    for r in rows:
        memo.deadwood(r, 13)
    assert len(memo._dead) <= 21
    clone = pickle.loads(pickle.dumps(memo))
    assert (clone.decks, clone.limit, len(clone._dead)) == (2, 20, 0)
    assert repr(clone) == "SolverMemo(decks=2, limit=20)"
    assert np.array_equal(clone.deck_counts, full_counts(fc.Rules()))
    assert np.array_equal(SolverMemo(4).deck_counts, full_counts(fc.Rules(decks=4)))
    memo.clear()
    assert len(memo._dead) == 0


@pytest.mark.parametrize("args, error", [((3,), ValueError), (("2",), TypeError)])
def test_memo_checks_its_deck(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error, match="decks"):
        SolverMemo(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit, error", [(5, ValueError), (2.5, TypeError)])
def test_memo_checks_its_limit(limit: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="limit"):
        SolverMemo(2, limit=limit)  # type: ignore[arg-type]
