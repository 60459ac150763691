"""A slow, obviously-correct reference for the solver, written from the rules alone
(docs/rules.rst).

Nothing here imports the package's solver: only :mod:`fivecrowns.cards` (cards and
their values) and :mod:`fivecrowns.melds` (to read a returned ``Solution``).

* :func:`is_valid_meld` reads docs/rules.rst, "Melds", literally.
* :func:`reference_deadwood` tries *every* way to lay disjoint melds: the first natural
  card left in the hand is either left over, or in some meld together with a
  sub-multiset of the other cards that :func:`is_valid_meld` accepts. A meld holding a
  natural card is a book (its other naturals share the card's rank) or a run (its other
  naturals share the card's suit and have other, distinct ranks), so only those cards
  and the wilds are tried as its partners. When only wilds are left, 3 or more make one
  book of wilds and fewer than 3 cannot meld at all. Results are memoised on the
  multiset of cards left. Exponential, but fine up to about 10 cards.
* :func:`check_solution` checks a returned ``Solution`` card by card.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from fivecrowns.cards import Card, card_value, parse_cards

__all__ = [
    "is_valid_meld",
    "reference_deadwood",
    "reference_best_discard",
    "reference_can_go_out",
    "check_solution",
    "hand_list",
    "HAND_KINDS",
    "Chooser",
    "RngChooser",
    "DataChooser",
    "generate_hand",
    "shuffled",
]

MIN_RANK, MAX_RANK = 3, 13


def hand_list(hand: str | Iterable[Card | str]) -> list[Card]:
    """The hand as a list of Card."""
    return list(parse_cards(hand))


def _is_wild(card: Card, wild: int) -> bool:
    # docs/rules.rst, Rounds and wilds: jokers are always wild, and so is every card of
    # the round's wild rank.
    return card.is_joker or card.rank == wild


def is_valid_meld(cards: Sequence[Card], wild: int) -> bool:
    """True if ``cards`` (3 or more) form a book or a run when ``wild`` is the wild rank."""
    cards = list(cards)
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not _is_wild(c, wild)]
    if not naturals:
        return True  # (choice) wilds only: a book
    # Book: every natural has the same rank; suits and duplicates do not matter.
    if len({c.rank for c in naturals}) == 1:
        return True
    # Run: naturals of one suit and distinct ranks; the run has len(cards) places, each
    # natural at the place of its own rank, wilds on every other place, all within 3..K.
    if len({c.suit for c in naturals}) != 1:
        return False
    ranks = [int(c.rank) for c in naturals]  # type: ignore[arg-type]
    if len(set(ranks)) != len(ranks):
        return False
    length = len(cards)
    for start in range(MIN_RANK, MAX_RANK + 1):
        end = start + length - 1
        if end > MAX_RANK:
            break
        if all(start <= r <= end for r in ranks):
            return True
    return False


def _sub_multisets(items: list[tuple[int, int]]) -> Iterable[tuple[int, ...]]:
    """Every choice of how many copies to take of each (type, available) item."""
    return itertools.product(*[range(n + 1) for _, n in items])


class _Reference:
    """Exhaustive minimum-deadwood search for one wild rank, memoised on the hand left."""

    def __init__(self, wild: int) -> None:
        self.wild = wild
        self.memo: dict[tuple[int, ...], int] = {}
        self.cards = [Card.from_index(i) for i in range(56)]

    def value(self, counts: tuple[int, ...]) -> int:
        if counts in self.memo:
            return self.memo[counts]
        wild = self.wild
        first = next((i for i in range(56) if counts[i] and not _is_wild(self.cards[i], wild)),
                     None)
        if first is None:
            # Only wilds left: any 3 or more of them make a book; fewer cannot meld.
            n = sum(counts)
            result = 0 if n >= 3 else sum(card_value(self.cards[i], wild) * counts[i]
                                          for i in range(56))
            self.memo[counts] = result
            return result
        card = self.cards[first]
        rest = list(counts)
        rest[first] -= 1
        # 1. The card is left over.
        best = card_value(card, wild) + self.value(tuple(rest))
        # 2. The card is in a meld with some of the remaining wilds and same-rank or
        #    same-suit naturals (no other card can share a meld with it).
        #    A book's other cards are wilds and naturals of its rank (any copies); a run's
        #    are wilds and naturals of its suit, at most one per rank and none of its own
        #    rank. Every candidate is still checked by is_valid_meld.
        wilds = [(i, rest[i]) for i in range(56) if rest[i] and _is_wild(self.cards[i], wild)]
        same_rank = [(i, rest[i]) for i in range(56) if rest[i]
                     and not _is_wild(self.cards[i], wild) and self.cards[i].rank == card.rank]
        same_suit = [(i, 1) for i in range(56) if rest[i]
                     and not _is_wild(self.cards[i], wild) and self.cards[i].suit == card.suit
                     and self.cards[i].rank != card.rank]
        for partners in (same_rank + wilds, same_suit + wilds):
            for take in _sub_multisets(partners):
                if sum(take) < 2:
                    continue
                meld = [card]
                for (i, _), k in zip(partners, take):
                    meld.extend([self.cards[i]] * k)
                if not is_valid_meld(meld, wild):
                    continue
                left = list(rest)
                for (i, _), k in zip(partners, take):
                    left[i] -= k
                best = min(best, self.value(tuple(left)))
                if best == 0:
                    break
            if best == 0:
                break
        self.memo[counts] = best
        return best


_REFERENCES: dict[int, _Reference] = {}


def _counts(cards: Iterable[Card]) -> tuple[int, ...]:
    row = [0] * 56
    for c in cards:
        row[c.index] += 1
    return tuple(row)


def _reference(wild: int) -> _Reference:
    ref = _REFERENCES.get(wild)
    if ref is None or len(ref.memo) > 2_000_000:
        ref = _REFERENCES[wild] = _Reference(wild)
    return ref


def reference_deadwood(cards: str | Iterable[Card | str], wild: int) -> int:
    """Least total value of the cards left over, over all ways to lay disjoint melds."""
    return _reference(int(wild)).value(_counts(hand_list(cards)))


def reference_best_discard(cards: str | Iterable[Card | str], wild: int) -> tuple[int, set[Card]]:
    """(least deadwood after discarding one card, every card whose discard achieves it)."""
    hand = hand_list(cards)
    if not hand:
        raise ValueError("an empty hand has no discard")
    results: dict[Card, int] = {}
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        results[card] = reference_deadwood(rest, wild)
    best = min(results.values())
    return best, {c for c, v in results.items() if v == best}


def reference_can_go_out(cards: str | Iterable[Card | str], wild: int) -> bool:
    """True if some discard leaves every other card in melds."""
    return reference_best_discard(cards, wild)[0] == 0


def check_solution(hand_cards: str | Iterable[Card | str], wild: int, solution: object) -> None:
    """Assert that ``solution`` (a ``fivecrowns.Solution``) is a legal partition of the hand.

    Checks every meld against :func:`is_valid_meld` and its layout (``stands_for``), that the
    melds and the leftover cards are exactly the hand, and that ``solution.deadwood`` is the
    value of the leftover cards. It does *not* check optimality; compare the deadwood with
    :func:`reference_deadwood` for that.
    """
    from fivecrowns.melds import Meld, MeldKind, Solution

    hand = hand_list(hand_cards)
    assert isinstance(solution, Solution), f"expected a Solution, got {type(solution).__name__}"
    assert solution.wild == wild, f"solution.wild is {solution.wild}, expected {wild}"
    where = f"hand {' '.join(map(str, sorted(hand)))} (wild {wild})"
    laid: list[Card] = []
    for meld in solution.melds:
        assert isinstance(meld, Meld), f"{where}: meld {meld!r} is not a Meld"
        cards = list(meld.cards)
        text = " ".join(map(str, cards))
        assert all(isinstance(c, Card) for c in cards), f"{where}: meld {text} holds non-cards"
        assert is_valid_meld(cards, wild), f"{where}: {meld.kind.value} {text} is not a meld"
        meant = meld.stands_for
        assert len(meant) == len(cards), f"{where}: stands_for of {text} has the wrong length"
        if meld.kind is MeldKind.RUN:
            assert meld.suit is not None and meld.rank is not None, f"{where}: run {text}"
            start = int(meld.rank)
            assert MIN_RANK <= start and start + len(cards) - 1 <= MAX_RANK, (
                f"{where}: run {text} from rank {start} leaves 3..K")
            assert len(cards) <= 11, f"{where}: run {text} is longer than 11 cards"
            for i, (c, m) in enumerate(zip(cards, meant)):
                assert m == Card(start + i, meld.suit), (
                    f"{where}: run {text}: place {i} stands for {m}, expected "
                    f"{Card(start + i, meld.suit)}")
                if not _is_wild(c, wild):
                    assert c == m, f"{where}: run {text}: natural {c} stands for {m}"
        else:
            assert meld.kind is MeldKind.BOOK, f"{where}: unknown meld kind {meld.kind!r}"
            assert meld.suit is None, f"{where}: book {text} has a suit"
            naturals = [c for c in cards if not _is_wild(c, wild)]
            if meld.rank is None:
                assert not naturals, f"{where}: book {text} of no rank holds naturals"
            else:
                assert all(c.rank == meld.rank for c in naturals), (
                    f"{where}: book {text} of rank {int(meld.rank)} holds another rank")
                assert naturals, f"{where}: book {text} of rank {int(meld.rank)} has no natural"
            assert all(m == meld.rank for m in meant), f"{where}: book {text}: stands_for {meant}"
        laid.extend(cards)
    leftover = list(solution.leftover)
    assert all(isinstance(c, Card) for c in leftover), f"{where}: leftover holds non-cards"
    assert leftover == sorted(leftover), f"{where}: leftover {leftover} is not sorted"
    assert Counter(laid + leftover) == Counter(hand), (
        f"{where}: melds + leftover are {' '.join(map(str, sorted(laid + leftover)))}, "
        f"not the hand")
    assert sorted(solution.cards) == sorted(hand), f"{where}: solution.cards is not the hand"
    total = sum(card_value(c, wild) for c in leftover)
    assert solution.deadwood == total, (
        f"{where}: solution.deadwood is {solution.deadwood} but the leftover "
        f"{' '.join(map(str, leftover))} is worth {total}")


# -- Hand generators -------------------------------------------------------------------
#
# One description of each kind of hand, driven by two callbacks so that hypothesis
# (``st.integers`` / ``st.sampled_from`` through ``data.draw``) and a seeded
# ``numpy.random.Generator`` produce the same kinds of hands.

#: The kinds of hands :func:`generate_hand` makes.
HAND_KINDS = ("random", "wilds", "dense", "two_suits", "party")


class Chooser:
    """The two callbacks a generator needs: an integer in [lo, hi] and an element of a list."""

    def integer(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def choose(self, items: Sequence[int]) -> int:
        raise NotImplementedError


class RngChooser(Chooser):
    """Choices from a seeded numpy Generator."""

    def __init__(self, rng: object) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))  # type: ignore[attr-defined]

    def choose(self, items: Sequence[int]) -> int:
        return items[int(self.rng.integers(len(items)))]  # type: ignore[attr-defined]


class DataChooser(Chooser):
    """Choices drawn from hypothesis' ``data`` object (so failures shrink)."""

    def __init__(self, data: object) -> None:
        from hypothesis import strategies as st

        self.data = data
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))  # type: ignore[attr-defined]

    def choose(self, items: Sequence[int]) -> int:
        return self.data.draw(self.st.sampled_from(list(items)))  # type: ignore[attr-defined]


def _fill(ch: Chooser, types: Sequence[int], n: int, decks: int,
          counts: list[int] | None = None) -> list[int]:
    counts = [0] * 56 if counts is None else counts
    for _ in range(n):
        room = [t for t in types if counts[t] < (3 * decks if t == 55 else decks)]
        if not room:
            break
        counts[ch.choose(room)] += 1
    return counts


def generate_hand(ch: Chooser, kind: str, min_size: int = 1,
                  max_size: int = 10) -> tuple[list[Card], int, int]:
    """(cards, wild, decks) of the given kind, with min_size..max_size cards."""
    wild = ch.integer(3, 13)
    n = ch.integer(min_size, max_size)
    decks = 2
    counts: list[int]
    if kind == "random":
        counts = _fill(ch, range(56), n, decks)
    elif kind == "wilds":  # many wilds: jokers and wild-rank cards, then any naturals
        wild_types = [s * 11 + wild - 3 for s in range(5)] + [55]
        k = ch.integer(min(3, n), n)
        counts = _fill(ch, wild_types, k, decks)
        counts = _fill(ch, range(56), n - k, decks, counts)
    elif kind == "dense":  # one suit, duplicates likely, a few wilds
        suit = ch.integer(0, 4)
        k = ch.integer(0, min(2, n))
        counts = _fill(ch, [55] + [s * 11 + wild - 3 for s in range(5)], k, decks)
        counts = _fill(ch, range(suit * 11, suit * 11 + 11), n - k, decks, counts)
    elif kind == "two_suits":  # two suits around the same few ranks, jokers
        s1 = ch.integer(0, 4)
        s2 = (s1 + ch.integer(1, 4)) % 5
        lo = ch.integer(0, 6)
        types = [s * 11 + r for s in (s1, s2) for r in range(lo, lo + 5)] + [55]
        counts = _fill(ch, types, n, decks)
    elif kind == "party":  # four decks: up to four copies and 12 jokers, few types
        decks = 4
        s1 = ch.integer(0, 4)
        if ch.integer(0, 1):  # two suits around four ranks
            s2 = (s1 + ch.integer(1, 4)) % 5
            lo = ch.integer(0, 7)
            types = [s * 11 + r for s in (s1, s2) for r in range(lo, lo + 4)] + [55]
        else:  # one suit, stacked copies for parallel runs
            types = list(range(s1 * 11, s1 * 11 + 11)) + [55]
        counts = _fill(ch, types, n, decks)
    else:
        raise ValueError(f"unknown kind of hand {kind!r}")
    cards = [Card.from_index(i) for i in range(56) for _ in range(counts[i])]
    return cards, wild, decks


def shuffled(ch: Chooser, cards: Sequence[Card]) -> list[Card]:
    """The cards in an order picked by ``ch`` (input order must not matter)."""
    rest = list(cards)
    out = []
    while rest:
        out.append(rest.pop(ch.integer(0, len(rest) - 1)))
    return out
