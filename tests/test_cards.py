"""Cards: parsing, text forms, the 56-type index, ordering, hashing, pickling, counts."""

from __future__ import annotations

import copy
import pickle
import random
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecrowns import (
    JOKER_INDEX,
    N_TYPES,
    Card,
    CardError,
    HandError,
    Rank,
    Suit,
    card_value,
    format_cards,
    from_counts,
    parse_cards,
)
from fivecrowns.cards import _to_counts as to_counts  # the unchecked helper

ALL = [Card.from_index(i) for i in range(N_TYPES)]
SUITED = ALL[:55]


# -- parsing -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "index"), [
    ("3C", 0), ("10C", 7), ("KC", 10),
    ("3D", 11), ("JD", 19),
    ("10H", 29), ("QH", 31),
    ("4S", 34), ("KS", 43),
    ("3T", 44), ("KT", 54),
    ("JK", 55), ("JOKER", 55), ("jk", 55), ("joker", 55), ("Joker", 55), ("jOkEr", 55),
    ("3c", 0), ("10h", 29), ("qd", 20), ("kt", 54), ("jS", 41),
    ("3♣", 0), ("10♥", 29), ("q♦", 20), ("K♠", 43), ("7★", 48),
    (" 5D ", 13), ("\t9H\n", 28),
])
def test_parse_forms(text: str, index: int) -> None:
    assert Card.parse(text).index == index


def test_jack_of_a_suit_is_not_a_joker() -> None:
    assert Card.parse("JS") == Card(Rank.JACK, Suit.SPADES)
    assert not Card.parse("JS").is_joker
    assert Card.parse("JK").is_joker


@pytest.mark.parametrize("card", ALL, ids=str)
def test_text_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.parse(card.symbol) is card
    assert eval(repr(card), {"Card": Card}) is card  # repr is code that rebuilds the card
    assert repr(card) == f"Card.parse({str(card)!r})"


def test_text_forms() -> None:
    assert [str(c) for c in parse_cards("3c 10♥ joker KT jd")] == ["3C", "10H", "JK", "KT", "JD"]
    assert Card.parse("10H").symbol == "10♥"
    assert Card.JOKER.symbol == "JK"
    assert format_cards(parse_cards("3C 10H JK")) == "3C 10H JK"
    assert format_cards(parse_cards("3C 10H JK"), symbols=True) == "3♣ 10♥ JK"
    assert format_cards([]) == ""
    assert [s.letter for s in Suit] == list("CDHST")
    assert [s.symbol for s in Suit] == list("♣♦♥♠★")
    assert [r.label for r in Rank] == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_parse_cards_separators_and_sequences() -> None:
    expected = (Card.parse("3C"), Card.parse("10H"), Card.JOKER)
    assert parse_cards("3C 10H JK") == expected
    assert parse_cards("3C,10H,JK") == expected
    assert parse_cards("  3C ,  10H\tJK \n") == expected
    assert parse_cards(["3C", "10H", "JK"]) == expected
    assert parse_cards([Card.parse("3C"), "10h", Card.JOKER]) == expected
    assert parse_cards(iter(expected)) == expected
    assert parse_cards(c for c in expected) == expected
    assert parse_cards("") == ()
    assert parse_cards([]) == ()


# -- the index -----------------------------------------------------------------------------

def test_index_for_all_56() -> None:
    assert len(ALL) == N_TYPES == 56 and JOKER_INDEX == 55
    for i, card in enumerate(ALL):
        assert card.index == i
        assert Card.from_index(i) is card
        assert Card.from_index(np.int64(i)) is card
        assert Card.from_index(np.uint8(i)) is card
    for suit in Suit:
        for rank in Rank:
            card = Card(rank, suit)
            assert card.index == int(suit) * 11 + int(rank) - 3  # docs/rules.rst, Card codes
            assert card.rank is rank and card.suit is suit
            assert Card(int(rank), int(suit)) is card
            assert not card.is_joker
    assert Card() is Card.JOKER is ALL[55]
    assert Card.JOKER.rank is None and Card.JOKER.suit is None and Card.JOKER.is_joker


def test_wilds_and_values() -> None:
    for wild in range(3, 14):
        for card in SUITED:
            assert card.is_wild(wild) == (card.rank == wild)
            expected = 20 if card.rank == wild else int(card.rank)  # type: ignore[arg-type]
            assert card_value(card, wild) == card_value(str(card), wild) == expected
        assert Card.JOKER.is_wild(wild)
        assert card_value(Card.JOKER, wild) == 50
    assert card_value(Card.parse("JD"), 3) == 11
    assert card_value(Card.parse("QD"), 3) == 12
    assert card_value(Card.parse("KD"), 3) == 13
    assert card_value(Card.parse("10D"), 3) == 10


# -- identity, ordering, hashing, pickling -------------------------------------------------

def test_ordering_is_by_index() -> None:
    shuffled = list(ALL)
    np.random.default_rng(0).shuffle(shuffled)  # type: ignore[arg-type]
    assert sorted(shuffled) == ALL
    a, b = Card.parse("KC"), Card.parse("3D")  # KC (10) comes before 3D (11)
    assert a < b and a <= b and b > a and b >= a and a != b
    assert not (a > b) and not (a >= b) and not (b < a)
    assert a <= a and a >= a and not (a < a)
    assert max(ALL) is Card.JOKER and min(ALL) is Card.parse("3C")


def test_comparison_with_other_types() -> None:
    card = Card.parse("5H")
    assert card != "5H" and not (card == "5H") and card != 27
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(card, op)(27) is NotImplemented
    with pytest.raises(TypeError):
        card < 27  # noqa: B015
    with pytest.raises(TypeError):
        card >= "5H"  # noqa: B015


def test_hashing() -> None:
    assert len(set(ALL)) == 56
    assert len({Card.parse(str(c)) for c in ALL} | set(ALL)) == 56
    lookup = {c: i for i, c in enumerate(ALL)}
    assert lookup[Card.parse("10h")] == 29
    for card in ALL:
        assert hash(card) == hash(Card.parse(str(card)))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickling(protocol: int) -> None:
    for card in ALL:
        assert pickle.loads(pickle.dumps(card, protocol)) is card
    hand = parse_cards("3C 3C 10H JK")
    assert pickle.loads(pickle.dumps(hand, protocol)) == hand


def test_copies_and_immutability() -> None:
    card = Card.parse("7S")
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert copy.deepcopy([card, card]) == [card, card]
    with pytest.raises(AttributeError):
        card._index = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        card.foo = 1  # type: ignore[attr-defined]
    assert card.index == Card.parse("7S").index == 37


# -- counts ----------------------------------------------------------------------------------

def test_to_counts_and_back() -> None:
    row = to_counts("3C 3C JK 10H KT")
    assert row.dtype == np.uint8 and row.shape == (56,)
    assert row[0] == 2 and row[55] == 1 and row[29] == 1 and row[54] == 1 and row.sum() == 5
    assert from_counts(row) == parse_cards("3C 3C 10H KT JK")
    assert from_counts(np.zeros(56, dtype=np.uint8)) == ()
    assert to_counts("").sum() == 0
    assert from_counts(list(row)) == from_counts(row)
    assert from_counts(row.astype(np.int64)) == from_counts(row)
    assert from_counts(np.ones(56, dtype=np.uint8)) == tuple(ALL)


@given(st.lists(st.integers(0, 55), max_size=30))
def test_counts_round_trip(indices: list[int]) -> None:
    cards = [Card.from_index(i) for i in indices]
    row = to_counts(cards)
    assert row.tolist() == [indices.count(i) for i in range(56)]
    # from_counts takes what some deck holds: 4 of a suited card, 12 jokers (party mode)
    if all(indices.count(i) <= (12 if i == JOKER_INDEX else 4) for i in indices):
        assert from_counts(row) == tuple(sorted(cards))
    else:
        with pytest.raises(HandError, match="no deck holds more"):
            from_counts(row)
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, symbols=True)) == tuple(cards)
    assert np.array_equal(to_counts(format_cards(cards)), row)


def _spellings(card: Card) -> list[str]:
    """Every way to write ``card`` that parsing accepts, up to letter case."""
    if card.is_joker:
        return ["JK", "JOKER"]
    return [str(card), card.symbol]


@given(st.lists(st.tuples(st.integers(0, 55), st.integers(0, 1), st.randoms()), max_size=30),
       st.sampled_from([" ", ",", ", ", "  "]))
def test_text_to_counts_any_spelling(picks: list[tuple[int, int, random.Random]],
                                     sep: str) -> None:
    # to_counts reads a string without making Card objects: it must agree with the card path
    # on every spelling and letter case.
    words = []
    for index, form, rnd in picks:
        options = _spellings(Card.from_index(index))
        word = options[form % len(options)]
        words.append("".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in word))
    text = sep.join(words)
    expected = [0] * N_TYPES
    for index, _, _ in picks:
        expected[index] += 1
    assert to_counts(text).tolist() == expected
    assert to_counts(text).tolist() == to_counts(parse_cards(text)).tolist()


# -- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [
    "", " ", "2C", "11C", "1C", "13H", "AH", "ZZ", "3X", "3", "10", "C3", "3CC", "3C3",
    "JKK", "JOKERS", "JO", "K", "T", "3 C", "10 H", "1 0H", "♣3", "3♣♣", "3C,", "3C 4C",
])
def test_parse_rejects_malformed(bad: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", ["3C 2D", "3C,XX,4D", "3C 11H"])
def test_parse_cards_names_the_bad_card(bad: str) -> None:
    culprit = [t for t in bad.replace(",", " ").split() if t not in ("3C", "4D")][0]
    with pytest.raises(CardError, match=repr(culprit)):
        parse_cards(bad)


@pytest.mark.parametrize(("bad", "name"), [
    (3, "int"), (None, "NoneType"), (b"3C", "bytes"), (3.0, "float"), (["3C"], "list"),
    (Card.parse("3C"), "Card"),
])
def test_parse_rejects_non_strings(bad: object, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        Card.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("bad", "name"), [
    (3, "int"), (None, "NoneType"), (b"3C 4C", "bytes"), (np.zeros(56, np.uint8), "numpy"),
    ([3, 4], "int"), (["3C", None], "NoneType"), ([b"3C"], "bytes"),
])
def test_parse_cards_rejects_bad_types(bad: object, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        parse_cards(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [56, -1, 100, 255, np.int64(56)])
def test_from_index_rejects_out_of_range(bad: int) -> None:
    with pytest.raises(CardError, match=str(int(bad))):
        Card.from_index(bad)


@pytest.mark.parametrize(("bad", "name"), [
    (True, "bool"), (1.0, "float"), ("3", "str"), (None, "NoneType"), (np.float64(2), "float64"),
])
def test_from_index_rejects_bad_types(bad: object, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        Card.from_index(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit", "text"), [
    (2, 0, "2"), (14, 0, "14"), (3, 5, "5"), (3, -1, "-1"), (True, 0, "True"),
    (3, None, "None"), (None, 2, "None"), (3.0, 0, "3.0"), ("K", 0, "'K'"),
])
def test_constructor_rejects_bad_rank_or_suit(rank: object, suit: object, text: str) -> None:
    with pytest.raises(CardError) as info:
        Card(rank, suit)  # type: ignore[arg-type]
    assert text in str(info.value)


def test_counts_errors() -> None:
    with pytest.raises(ValueError, match=r"\(55,\)"):
        from_counts(np.zeros(55, dtype=np.uint8))
    with pytest.raises(ValueError, match=r"\(2, 56\)"):
        from_counts(np.zeros((2, 56), dtype=np.uint8))
    with pytest.raises(TypeError, match="float64"):
        from_counts(np.zeros(56, dtype=np.float64))
    negative = np.zeros(56, dtype=np.int64)
    negative[7] = -2
    with pytest.raises(HandError, match="-2"):
        from_counts(negative)
    with pytest.raises(CardError, match="'9Z'"):
        to_counts("3C 9Z")
    with pytest.raises(HandError, match="255"):
        to_counts(["3C"] * 256)
    assert to_counts(["3C"] * 255)[0] == 255
    with pytest.raises(HandError, match="255"):
        to_counts(" ".join(["3c"] * 256))
    with pytest.raises(CardError, match="'11H'"):
        to_counts("3c 11H")


# -- 0.2.0: one value function, checked wilds, ASCII-only parsing ----------------------------

def test_card_value_is_the_one_value_function() -> None:
    assert not hasattr(Card, "value")
    assert card_value("3C", 5) == 3 and card_value(" kd ", "K") == 20
    assert card_value("JK", Rank.THREE) == 50 and card_value(Card.parse("10H"), "10") == 20
    assert card_value("QS", np.int8(12)) == 20


@pytest.mark.parametrize(("wild", "kind", "text"), [
    (2, ValueError, "got 2"), (14, ValueError, "got 14"), ("Z", ValueError, "'Z'"),
    (Suit.STARS, TypeError, "Suit.STARS"), (None, TypeError, "NoneType"), (True, TypeError, "bool"),
])
def test_card_value_and_is_wild_check_the_wild_rank(wild: object, kind: type, text: str) -> None:
    with pytest.raises(kind, match=re.escape(text)):
        card_value("3C", wild)  # type: ignore[arg-type]
    with pytest.raises(kind, match=re.escape(text)):
        Card.parse("3C").is_wild(wild)  # type: ignore[arg-type]


def test_card_value_refuses_a_non_card() -> None:
    with pytest.raises(TypeError, match="int"):
        card_value(3, 5)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="'3X'"):
        card_value("3X", 5)


def test_is_wild_takes_rank_names() -> None:
    assert Card.parse("KD").is_wild("K") and Card.parse("10H").is_wild("10")
    assert Card.JOKER.is_wild("q") and not Card.parse("QD").is_wild("J")


@pytest.mark.parametrize("text", ["3ſ", "Kſ", "ﬀ", "3ꜱ", "JOKEⓇ", "10ſ"])
def test_only_ascii_letters_fold_case(text: str) -> None:
    """``str.upper`` maps "ſ" to "S": such text must not pass for a card."""
    with pytest.raises(CardError):
        Card.parse(text)
    with pytest.raises(CardError):
        parse_cards(f"4C {text}")
    with pytest.raises(CardError):
        to_counts(f"4C {text}")


def test_symbols_still_parse() -> None:
    assert parse_cards("q♦ 10♥ 3★ jOkEr") == parse_cards("QD 10H 3T JK")


def test_format_cards_takes_text_and_symbols() -> None:
    assert format_cards(["3c", Card.parse("10H"), "jk"], symbols=True) == "3♣ 10♥ JK"
    assert format_cards("3c 10h", symbols=True) == "3♣ 10♥"
    assert format_cards("3c 10h") == "3C 10H"


def test_long_garbage_is_cut_in_the_message() -> None:
    junk = "Z" * 5000
    with pytest.raises(CardError) as info:
        parse_cards(f"3C {junk}")
    message = str(info.value)
    assert "Z" * 40 + "..." in message and len(message) < 300


def test_from_counts_is_bounded_by_the_largest_deck() -> None:
    with pytest.raises(HandError, match="at most 4 for 3C"):
        from_counts(np.full(56, 2**62))
    jokers = np.zeros(56, np.int64)
    jokers[55] = 13
    with pytest.raises(HandError, match="at most 12 for JK"):
        from_counts(jokers)
    jokers[55] = 12
    assert len(from_counts(jokers)) == 12


def test_numpy_integers_work_where_ints_do() -> None:
    assert Card(np.int64(12), np.uint8(1)) is Card.parse("QD")
    assert Card(Rank.KING, np.int32(4)) is Card.parse("KT")
    with pytest.raises(CardError):
        Card(np.bool_(True), 0)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        Card(Suit.HEARTS, Suit.HEARTS)  # a suit is not a rank
