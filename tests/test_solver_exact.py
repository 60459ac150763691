"""The solver gives exact answers: known hands, and every implementation against the
slow reference of ``tests/helpers/reference.py`` on random and adversarial hands."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fivecrowns as fc
from fivecrowns import Card, Rank, card_value
from fivecrowns.bench import adversarial_hands
from fivecrowns.solver import Implementation, implementation
from helpers.reference import (
    HAND_KINDS,
    DataChooser,
    RngChooser,
    check_solution,
    generate_hand,
    hand_list,
    is_valid_meld,
    reference_best_discard,
    reference_deadwood,
    shuffled,
)

KNOWN = json.loads((Path(__file__).parent / "data" / "known_hands.json").read_text("utf-8"))
CASES = KNOWN["hands"]
#: Hands the reference is fast enough for.
REFERENCE_MAX = 10
#: Seeded random hands per kind and implementation.
N_SEEDED = 300 if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else 60


def case_id(case: dict[str, Any]) -> str:
    return f"{case['hand']}|w{case['wild']}" + ("|party" if case.get("decks") == 4 else "")


def minus(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def check_against_reference(impl: Implementation, cards: list[Card], wild: int,
                            decks: int = 2) -> None:
    """Every public solver call on ``cards`` agrees with the reference."""
    where = f"hand {' '.join(map(str, cards))}, wild {wild}, decks {decks}"
    expected = reference_deadwood(cards, wild)
    assert impl.deadwood(cards, wild, decks=decks) == expected, where
    assert impl.deadwood(fc.hand_counts(cards, decks=decks), wild, decks=decks) == expected, where
    solution = impl.solve(cards, wild, decks=decks)
    check_solution(cards, wild, solution)
    assert solution.deadwood == expected, where
    if not cards:
        return
    best, winners = reference_best_discard(cards, wild)
    discard = impl.best_discard(cards, wild, decks=decks)
    assert discard.deadwood == best, where
    # Bulk best discard runs one search for all discards, not one per discard.
    assert impl.discard_deadwood_many([cards], wild, decks=decks).tolist() == [best], where
    assert discard.card in winners, f"{where}: discarding {discard.card} is not optimal"
    # Documented tie rule: ties go to the highest-value card.
    assert card_value(discard.card, wild) == max(card_value(c, wild) for c in winners), where
    check_solution(minus(cards, discard.card), wild, discard.solution)
    assert discard.solution.deadwood == best, where
    assert impl.can_go_out(cards, wild, decks=decks) is (best == 0), where


# -- known answers ---------------------------------------------------------------------------

def test_known_hands_file_is_well_formed() -> None:
    assert len(CASES) >= 40
    published = [c for c in CASES if c.get("source") == "docs/rules.rst, Melds"]
    assert len(published) == 8
    for case in CASES:
        assert set(case) <= {"hand", "wild", "decks", "deadwood", "best_discard", "discards",
                             "why", "source"}, case
        assert case["why"].strip(), case
        assert 3 <= case["wild"] <= 13 and case.get("decks", 2) in (2, 4)
        fc.hand_counts(case["hand"], decks=case.get("decks", 2))  # a hand the deck can hold
        assert ("best_discard" in case) == ("discards" in case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_known_hand(impl: Implementation, case: dict[str, Any]) -> None:
    hand, wild, decks = case["hand"], case["wild"], case.get("decks", 2)
    cards = hand_list(hand)
    assert impl.deadwood(hand, wild, decks=decks) == case["deadwood"]
    solution = impl.solve(hand, wild, decks=decks)
    check_solution(cards, wild, solution)
    assert solution.deadwood == case["deadwood"]
    if "best_discard" in case:
        discard = impl.best_discard(hand, wild, decks=decks)
        assert discard.deadwood == case["best_discard"]
        assert str(discard.card) in case["discards"]
        check_solution(minus(cards, discard.card), wild, discard.solution)
        assert impl.can_go_out(hand, wild, decks=decks) is (case["best_discard"] == 0)


@pytest.mark.parametrize("case", [c for c in CASES if len(hand_list(c["hand"])) <= 12],
                         ids=case_id)
def test_reference_agrees_with_known_hands(case: dict[str, Any]) -> None:
    """The reference itself is checked against the hand-worked answers."""
    assert reference_deadwood(case["hand"], case["wild"]) == case["deadwood"]
    if "best_discard" in case:
        best, winners = reference_best_discard(case["hand"], case["wild"])
        assert best == case["best_discard"]
        assert sorted(map(str, winners)) == sorted(case["discards"])


@pytest.mark.parametrize(("meld", "wild", "valid"), [
    # the rules' published examples (docs/rules.rst)
    ("8C 8T 8S", 3, True), ("KS KD KH KH", 3, True), ("8S QS QT", 8, True),
    ("8T 9D 9D 9H", 8, True), ("5C 6C 7C", 3, True), ("9T 10T JT QT", 3, True),
    ("9D 7C JD", 7, True), ("6D 7T 7S 9D", 7, True),
    # wilds
    ("JK JK JK", 5, True), ("5C 5D JK", 5, True), ("3C JK JK", 9, True),
    ("JK 3C 5C", 9, True), ("QC KC JK", 9, True), ("JK JK KC", 9, True),
    ("3C JK 5C JK 7C JK 9C JK JC JK KC", 4, True),
    ("3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", 4, True),
    ("3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JK", 4, False),  # 12 places
    ("JK JK JK JK JK JK JK JK JK JK JK JK", 4, True),  # a book of wilds has no length limit
    ("3C JK KC", 9, False), ("3C JK JK JK JK JK JK JK JK JK KC", 9, True),
    ("3C JK JK JK JK JK JK JK JK KC", 9, False),  # 10 cards cannot span 3..K
    ("QH KH 3H", 9, False), ("QH KH JK", 9, True),
    # naturals
    ("5C 5C 6C", 9, False), ("5C 6D 7C", 9, False), ("5C 6C 8C", 9, False),
    ("5C 5D", 9, False), ("JK JK", 9, False), ("5C", 9, False), ("", 9, False),
    ("5C 5C 5C 5C 5C", 9, True), ("5C 6C 6C JK", 9, False), ("7C 5C 6C", 9, True),
])
def test_reference_meld_rules(meld: str, wild: int, valid: bool) -> None:
    assert is_valid_meld(hand_list(meld), wild) is valid


def _set_partitions(items: list[Card]) -> Any:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for blocks in _set_partitions(rest):
        yield [[first], *blocks]
        for i in range(len(blocks)):
            yield blocks[:i] + [[first, *blocks[i]]] + blocks[i + 1:]


def partition_brute_force(cards: list[Card], wild: int) -> int:
    """The least deadwood by brute force over every set partition of the cards: a block
    is a meld (worth 0) or left over (worth its cards). Independent of the reference's
    search order and pruning, and fine up to 8 cards."""
    return min(sum(0 if is_valid_meld(block, wild) else sum(card_value(c, wild) for c in block)
                   for block in blocks)
               for blocks in _set_partitions(list(cards)))


@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_reference_matches_partition_brute_force(kind: str, data: st.DataObject) -> None:
    """The reference itself against a second, even simpler search."""
    cards, wild, _ = generate_hand(DataChooser(data), kind, 0, 8)
    assert reference_deadwood(cards, wild) == partition_brute_force(cards, wild)


def test_wild_forms(impl: Implementation) -> None:
    """A wild rank may be an int, a Rank or a numpy integer."""
    hand = "9D 7C JD 4H"
    for wild in (7, Rank.SEVEN, np.int64(7), np.uint8(7)):
        assert impl.deadwood(hand, wild) == 4
        assert impl.solve(hand, wild).deadwood == 4
        assert impl.best_discard(hand, wild).deadwood == 0
        assert impl.can_go_out(hand, wild)
        assert impl.draw_table(hand, wild)[Card.parse("10D").index] == 0
        assert impl.draw_table(hand, wild)[Card.parse("4H").index] == 4


def test_hand_forms_agree(impl: Implementation) -> None:
    text = "5C 6C 7C 9D 9H JK 3S"
    cards = hand_list(text)
    forms: list[Any] = [text, text.lower(), text.replace(" ", ","), cards, [str(c) for c in cards],
                        tuple(reversed(cards)), fc.hand_counts(cards),
                        fc.hand_counts(cards).astype(np.int64)]
    for form in forms:
        assert impl.deadwood(form, 13) == 3
        assert impl.solve(form, 13).deadwood == 3
        assert impl.best_discard(form, 13).card == Card.parse("3S")
    assert impl.draw_table(forms[-1], 13).tolist() == impl.draw_table(text, 13).tolist()


def test_empty_hand(impl: Implementation) -> None:
    assert impl.deadwood("", 5) == 0
    solution = impl.solve([], 5)
    assert solution.deadwood == 0 and solution.melds == () and solution.leftover == ()


def test_solution_uses_cheap_wilds_last(impl: Implementation) -> None:
    """With no meld possible, every card is left: the reported deadwood is their value."""
    solution = impl.solve("JK 5H", 5)
    assert solution.deadwood == 70 and sorted(solution.leftover) == hand_list("5H JK")


# -- against the reference -------------------------------------------------------------------

@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_matches_reference(impl: Implementation, kind: str, data: st.DataObject) -> None:
    ch = DataChooser(data)
    cards, wild, decks = generate_hand(ch, kind, 0, REFERENCE_MAX)
    check_against_reference(impl, shuffled(ch, cards), wild, decks)


@pytest.mark.parametrize("kind", HAND_KINDS)
def test_matches_reference_seeded(impl: Implementation, kind: str) -> None:
    ch = RngChooser(np.random.default_rng(["random", "wilds", "dense", "two_suits",
                                           "party"].index(kind) + 2024))
    for _ in range(N_SEEDED):
        cards, wild, decks = generate_hand(ch, kind, 1, REFERENCE_MAX)
        check_against_reference(impl, cards, wild, decks)


@pytest.mark.parametrize("wild", range(3, 14))
def test_every_wild_rank(impl: Implementation, wild: int) -> None:
    """Hands built around the wild rank: wild-rank cards of every suit, neighbours, jokers."""
    ch = RngChooser(np.random.default_rng(wild))
    near = [s * 11 + r for s in range(5) for r in range(max(0, wild - 5), min(11, wild - 3 + 3))]
    for _ in range(N_SEEDED // 2):
        n = ch.integer(1, REFERENCE_MAX)
        counts = [0] * 56
        for _ in range(n):
            room = [t for t in near + [55] if counts[t] < (6 if t == 55 else 2)]
            counts[ch.choose(room)] += 1
        cards = [Card.from_index(i) for i in range(56) for _ in range(counts[i])]
        check_against_reference(impl, cards, wild)


# -- bigger hands: the compiled core against its Python twin ---------------------------------

@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_large_hands_compiled_matches_python(compiled: ModuleType, kind: str,
                                             data: st.DataObject) -> None:
    from fivecrowns import _solver_py

    cards, wild, decks = generate_hand(DataChooser(data), kind, 11, 16)
    row = fc.hand_counts(cards, decks=decks)
    where = f"hand {' '.join(map(str, cards))}, wild {wild}, decks {decks}"
    expected = _solver_py.deadwood_row(row, wild, decks)
    assert compiled.deadwood_row(row, wild, decks) == expected, where
    solution = implementation("compiled").solve(row, wild, decks=decks)
    check_solution(cards, wild, solution)
    assert solution.deadwood == expected, where
    best, _ = _solver_py.best_discard_row(row, wild, decks)
    discard = implementation("compiled").best_discard(row, wild, decks=decks)
    assert discard.deadwood == best, where
    assert compiled.discard_deadwood_many(row[None, :], np.array([wild], np.int8), decks,
                                          1).tolist() == [best], where
    rest = minus(cards, discard.card)
    assert _solver_py.deadwood_row(fc.hand_counts(rest, decks=decks), wild, decks) == best, where
    check_solution(rest, wild, discard.solution)


@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_suit_options_match_search(compiled: ModuleType, kind: str, data: st.DataObject) -> None:
    """The compiled core's two routes to the same leaves, its suits' option lists and its
    plain search, agree on deadwood and best discard, up to the largest hands."""
    cards, wild, decks = generate_hand(DataChooser(data), kind, 0, 20)
    by_options, discard_by_options, by_search, discard_by_search = compiled._routes_row(
        fc.hand_counts(cards, decks=decks), wild, decks)
    where = f"hand {' '.join(map(str, cards))}, wild {wild}, decks {decks}"
    assert by_options == by_search, where
    assert discard_by_options == discard_by_search, where


def test_crowded_suit_falls_back_to_search(compiled: ModuleType) -> None:
    """Eight ranks of one suit held twice: no table lists that suit's run sets, so the
    core runs its search, and agrees with the twin."""
    from fivecrowns import _solver_py

    cards = fc.parse_cards("3C 4C 5C 5C 6C 6C 7C 7C 8C 8C 9C 9C 10C 10C JC JC QC QC 3H 7S")
    row = fc.hand_counts(cards)
    assert compiled._routes_row(row, 13, 2) == (10, 3, 10, 3)
    assert compiled.deadwood_row(row, 13, 2) == _solver_py.deadwood_row(row, 13, 2) == 10
    assert _solver_py.best_discard_row(row, 13, 2)[0] == 3
    assert compiled.discard_deadwood_many(row[None, :], np.array([13], np.int8), 2,
                                          1).tolist() == [3]
    check_solution(cards, 13, implementation("compiled").solve(row, 13))


@pytest.mark.parametrize("kind", HAND_KINDS)
@given(data=st.data())
def test_large_hands_are_consistent(impl: Implementation, kind: str, data: st.DataObject) -> None:
    """Beyond the reference's reach: partitions validate, best_discard is the minimum of
    deadwood over every discard, and adding a card never raises deadwood by more than
    its value."""
    cards, wild, decks = generate_hand(DataChooser(data), kind, 11, 14)
    where = f"hand {' '.join(map(str, cards))}, wild {wild}, decks {decks}"
    whole = impl.deadwood(cards, wild, decks=decks)
    solution = impl.solve(cards, wild, decks=decks)
    check_solution(cards, wild, solution)
    assert solution.deadwood == whole, where
    by_discard = {c: impl.deadwood(minus(cards, c), wild, decks=decks) for c in set(cards)}
    for card, dead in by_discard.items():
        assert whole <= dead + card_value(card, wild), f"{where}: without {card}"
    discard = impl.best_discard(cards, wild, decks=decks)
    assert discard.deadwood == min(by_discard.values()), where
    many = impl.discard_deadwood_many([cards], wild, decks=decks)
    assert many.tolist() == [discard.deadwood], where
    assert by_discard[discard.card] == discard.deadwood, where
    check_solution(minus(cards, discard.card), wild, discard.solution)


# -- draw tables --------------------------------------------------------------------------------

def check_draw_table(impl: Implementation, cards: list[Card], wild: int, decks: int,
                     exact: bool) -> None:
    table = impl.draw_table(cards, wild, decks=decks)
    assert isinstance(table, np.ndarray) and table.dtype == np.int32 and table.shape == (56,)
    row = fc.hand_counts(cards, decks=decks)
    for t in range(56):
        card = Card.from_index(t)
        limit = 3 * decks if card.is_joker else decks
        where = f"hand {' '.join(map(str, cards))} + {card}, wild {wild}, decks {decks}"
        if row[t] >= limit:
            assert table[t] == -1, where
            continue
        drawn = cards + [card]
        expected = (reference_best_discard(drawn, wild)[0] if exact
                    else impl.best_discard(drawn, wild, decks=decks).deadwood)
        assert table[t] == expected, where


@given(data=st.data())
def test_draw_table_small_hands_reference(impl: Implementation, data: st.DataObject) -> None:
    ch = DataChooser(data)
    cards, wild, decks = generate_hand(ch, ch.choose(list(HAND_KINDS)), 0, 5)
    check_draw_table(impl, cards, wild, decks, exact=True)


@pytest.mark.parametrize("kind", HAND_KINDS)
def test_draw_table_seeded(impl: Implementation, kind: str) -> None:
    ch = RngChooser(np.random.default_rng(["random", "wilds", "dense", "two_suits",
                                           "party"].index(kind) + 77))
    for _ in range(3 if N_SEEDED < 100 else 12):
        cards, wild, decks = generate_hand(ch, kind, 0, 12)
        check_draw_table(impl, cards, wild, decks, exact=False)


def test_draw_table_crowded_suits(impl: Implementation) -> None:
    """Hands crowding one or two suits (the compiled core lists such suits' run sets at
    run time for a draw table): every entry is the best discard of the hand plus it."""
    counts, wilds = adversarial_hands(4, seed=21)
    if impl.name == "python":  # the slow twin checks one
        counts, wilds = counts[:1], wilds[:1]
    for row, wild in zip(counts, wilds):
        table = impl.draw_table(row, int(wild))
        for t in range(56):
            drawn = row.copy()
            drawn[t] += 1
            if drawn[t] > (6 if t == 55 else 2):
                assert table[t] == -1
                continue
            expected = impl.best_discard(drawn, int(wild)).deadwood
            assert table[t] == expected, f"{row.tolist()} + {t}, wild {int(wild)}"


def test_draw_table_exhausted_cards(impl: Implementation) -> None:
    hand = "3C 3C JK JK JK JK JK JK KT KT"
    table = impl.draw_table(hand, 9)
    assert set(np.flatnonzero(table == -1).tolist()) == {0, 54, 55}
    assert (table[[i for i in range(56) if i not in (0, 54, 55)]] == 0).all()
    party = impl.draw_table(hand, 9, decks=4)
    assert (party >= 0).all() and (party == 0).all()
    full = "JK " * 12 + "5D 5D 5D 5D"
    assert set(np.flatnonzero(impl.draw_table(full, 5, decks=4) == -1).tolist()) == {13, 55}


# -- the compiled core is used where it must be -----------------------------------------------

@pytest.mark.parametrize("kind", HAND_KINDS)
def test_draw_table_compiled_matches_python(compiled: ModuleType, kind: str) -> None:
    from fivecrowns import _solver_py

    ch = RngChooser(np.random.default_rng(["random", "wilds", "dense", "two_suits",
                                           "party"].index(kind) + 505))
    for _ in range(2 if N_SEEDED < 100 else 6):
        cards, wild, decks = generate_hand(ch, kind, 8, 15)
        row = fc.hand_counts(cards, decks=decks)
        assert np.array_equal(compiled.draw_table_row(row, wild, decks),
                              _solver_py.draw_table_row(row, wild, decks)), (
            f"hand {' '.join(map(str, cards))}, wild {wild}, decks {decks}")


@pytest.mark.slow
def test_soak_script_runs_and_catches_a_difference(compiled: ModuleType,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/soak_solver.py`` (the long core comparison) on a small round, then on
    a core made wrong by one point on 9-card hands: it must pass the first and fail the
    second."""
    import importlib.util
    import types
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "soak_solver.py"
    spec = importlib.util.spec_from_file_location("soak_solver", script)
    assert spec is not None and spec.loader is not None, f"no {script}"
    soak = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(soak)

    monkeypatch.setattr(soak, "HANDS_PER_SIZE", 8)
    monkeypatch.setattr(soak, "TABLES_PER_SIZE", 1)
    monkeypatch.setattr(soak, "compiled", compiled)
    assert soak.main(["--rounds", "1", "--seed", "3"]) == 0

    def off_by_one(counts: Any, wilds: Any, decks: Any, threads: int) -> Any:
        return compiled.deadwood_many(counts, wilds, decks, threads) + (counts.sum(axis=1) == 9)

    wrong = types.SimpleNamespace(deadwood_many=off_by_one,
                                  discard_deadwood_many=compiled.discard_deadwood_many,
                                  draw_table_row=compiled.draw_table_row)
    monkeypatch.setattr(soak, "compiled", wrong)
    capsys.readouterr()
    assert soak.main(["--rounds", "1", "--seed", "3"]) == 1
    assert "DIFFERENT deadwood_many, 9 cards, 2 decks" in capsys.readouterr().out
