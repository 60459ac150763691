"""The compiled core's partial draw tables (``fill_draw_entries``) against the whole table,
entry by entry, and ExpertBot's two-draw sums (which share entries between the hands
after different first draws, through a memo of partial tables) against the Python bot's.

A partial table must give exactly the whole table's entries where asked and leave every
other entry as it found it: the engine's memo merges partial tables of the same hand."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fivecrowns as fc
from fivecrowns.bench import adversarial_hands
from fivecrowns.expert import _two_blind_draws
from helpers.reference import HAND_KINDS, DataChooser, RngChooser, generate_hand

#: What an entry left alone holds (no entry is ever below -1).
UNTOUCHED = -7
ALL = (1 << 56) - 1


def wild_types(wild: int) -> int:
    """The mask of the wild cards: the five wild-rank cards and the joker."""
    return sum(1 << (s * 11 + wild - 3) for s in range(5)) | 1 << 55


def masks(ch: DataChooser | RngChooser, wild: int) -> list[int]:
    """Masks of entries to ask for: everything, nothing, the wilds alone, one rank, one
    suit, one card, and a random one (some ranks wanted in one suit only)."""
    rank = ch.integer(0, 10)
    suit = ch.integer(0, 4)
    bits = [ch.integer(0, 1) for _ in range(56)]
    return [ALL, 0, wild_types(wild), sum(1 << (s * 11 + rank) for s in range(5)),
            sum(1 << (suit * 11 + p) for p in range(11)), 1 << ch.integer(0, 55),
            sum(b << t for t, b in enumerate(bits))]


def check_entries(compiled: ModuleType, row: np.ndarray, wild: int, decks: int,
                  want: int) -> None:
    whole = compiled.draw_table_row(row, wild, decks)
    part = compiled._draw_entries_row(row, wild, decks, want, UNTOUCHED)
    for t in range(56):
        where = f"row {row.tolist()}, wild {wild}, decks {decks}, want {want:#x}, entry {t}"
        assert part[t] == (whole[t] if want >> t & 1 else UNTOUCHED), where


@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_partial_tables_match_the_whole(compiled: ModuleType, kind: str,
                                        data: st.DataObject) -> None:
    ch = DataChooser(data)
    cards, wild, decks = generate_hand(ch, kind, 0, 15)
    row = fc.hand_counts(cards, decks=decks)
    for want in masks(ch, wild):
        check_entries(compiled, row, wild, decks, want)


def test_partial_tables_of_crowded_hands(compiled: ModuleType) -> None:
    """Hands whose suits the option tables leave out (the card-by-card route), and
    party hands, with every kind of mask."""
    counts, wilds = adversarial_hands(6, seed=5)
    ch = RngChooser(np.random.default_rng(5))
    for row, wild in zip(counts, wilds):
        row = row.copy()
        while row.sum() > 15:  # draw_table_row takes a hand that can still draw
            row[int(np.flatnonzero(row)[0])] -= 1
        for want in masks(ch, int(wild)):
            check_entries(compiled, row, int(wild), 2, want)
    party = fc.hand_counts("3C 3C 3C 4C 4C 5C 5C 5C 5C JK JK JK JK", decks=4)
    for want in masks(ch, 9):
        check_entries(compiled, party, 9, 4, want)


def test_partial_tables_name_exhausted_cards(compiled: ModuleType) -> None:
    hand = fc.hand_counts("3C 3C JK JK JK JK JK JK KT KT")
    part = compiled._draw_entries_row(hand, 9, 2, 1 << 0 | 1 << 55 | 1 << 1, UNTOUCHED)
    assert part[0] == part[55] == -1 and part[1] == 0
    assert (np.delete(part, [0, 1, 55]) == UNTOUCHED).all()


def unseen_of(ch: DataChooser | RngChooser, row: np.ndarray, decks: int) -> np.ndarray:
    """An unseen count for each type (at most the copies the hand leaves), some zero."""
    limit = np.full(56, decks)
    limit[55] = 3 * decks
    room = limit - row.astype(np.int64)
    return np.array([ch.integer(0, int(r)) if ch.integer(0, 3) else 0 for r in room],
                    dtype=np.int64)


@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_two_draw_sums_match_the_python_bot(kind: str, data: st.DataObject) -> None:
    """The engine's two-draw sums share entries between the hands after first draws
    that throw the same card; they must equal ExpertBot's own, hand after hand (the memo
    keeps partial tables from one call to the next)."""
    rollout = pytest.importorskip("fivecrowns._policies")
    ch = DataChooser(data)
    for _ in range(2):
        cards, wild, decks = generate_hand(ch, kind, 1, 13)
        row = fc.hand_counts(cards, decks=decks)
        unseen = unseen_of(ch, row, decks)
        assert rollout.two_draw_sums(row, wild, decks, unseen) == _two_blind_draws(
            row.copy(), wild, decks, unseen), f"hand {row.tolist()}, wild {wild}"


def test_two_draw_sums_of_crowded_hands() -> None:
    rollout = pytest.importorskip("fivecrowns._policies")
    counts, wilds = adversarial_hands(4, seed=9)
    ch = RngChooser(np.random.default_rng(9))
    for row, wild in zip(counts, wilds):
        row = row.copy()
        while row.sum() > 13:
            row[int(np.flatnonzero(row)[-1])] -= 1
        unseen = unseen_of(ch, row, 2)
        assert rollout.two_draw_sums(row, int(wild), 2, unseen) == _two_blind_draws(
            row.copy(), int(wild), 2, unseen), f"hand {row.tolist()}, wild {wild}"
