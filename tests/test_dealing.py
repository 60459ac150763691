"""random_hands: legal hands of the asked size, deterministic under a seed, uniform."""

from __future__ import annotations

import os
import tracemalloc

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.dealing import random_hands


@pytest.mark.parametrize(("n", "size", "decks"), [(1, 0, 2), (5, 1, 2), (4000, 13, 2),
                                                  (5000, 14, 4), (10_000, 7, 2), (3, 116, 2),
                                                  (2, 232, 4), (0, 13, 2)])
def test_shape_dtype_and_legal_rows(n: int, size: int, decks: int) -> None:
    hands = random_hands(n, size, decks=decks, seed=n + size)
    assert hands.shape == (n, 56) and hands.dtype == np.uint8 and hands.flags.c_contiguous
    assert (hands.sum(axis=1) == size).all()
    assert (hands[:, :55] <= decks).all() and (hands[:, 55] <= 3 * decks).all()
    if size == 58 * decks:  # the whole deck
        assert (hands[:, :55] == decks).all() and (hands[:, 55] == 3 * decks).all()


def test_rows_are_hands_the_solver_takes() -> None:
    hands = random_hands(500, 13, seed=3)
    assert fc.deadwood_many(hands, 13).shape == (500,)
    for row in hands[:20]:
        fc.hand_counts(row)  # checked: no error


def test_deterministic_under_a_seed() -> None:
    a = random_hands(9000, 11, seed=42)
    assert np.array_equal(a, random_hands(9000, 11, seed=42))
    assert np.array_equal(a, random_hands(9000, 11, seed=np.random.SeedSequence(42)))
    assert np.array_equal(a, random_hands(9000, 11, seed=np.random.default_rng(42)))
    assert not np.array_equal(a, random_hands(9000, 11, seed=43))
    rng = np.random.default_rng(5)
    assert not np.array_equal(random_hands(10, 11, seed=rng), random_hands(10, 11, seed=rng))


@pytest.mark.parametrize("decks", [2, 4])
def test_every_card_type_is_dealt_in_proportion(decks: int) -> None:
    """Each of the deck's positions is dealt with probability size / deck size: a suited
    type with ``decks`` copies, the joker with ``3 * decks``."""
    n, size = 40_000, 13
    hands = random_hands(n, size, decks=decks, seed=2024 + decks)
    deck = 58 * decks
    totals = hands.sum(axis=0, dtype=np.int64)
    expected = np.full(56, n * size * decks / deck)
    expected[55] *= 3
    # Binomial-like spread: allow 5 standard deviations.
    spread = np.sqrt(expected)
    assert (np.abs(totals - expected) < 5 * spread).all(), (totals - expected) / spread
    # Pairs of copies are as likely as sampling without replacement says (two decks, 3C).
    both = (hands[:, 0] == 2).mean()
    p_both = size * (size - 1) / (deck * (deck - 1)) * (decks * (decks - 1) / 2)
    assert abs(both - p_both) < 5 * np.sqrt(p_both / n) + 1e-4


def test_memory_stays_light() -> None:
    tracemalloc.start()
    try:
        hands = random_hands(200_000, 13, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < hands.nbytes + 20 * 2**20  # the result plus a few megabytes


@pytest.mark.parametrize(("args", "kwargs", "kind", "text"), [
    ((5, 13), {}, TypeError, "seed"),
    ((5, 13), {"seed": None}, TypeError, "seed"),
    ((5, 13), {"seed": 1.5}, TypeError, "seed"),
    ((-1, 13), {"seed": 1}, ValueError, "n must be at least 0, got -1"),
    ((5, 117), {"seed": 1}, ValueError, "size must be 0..116 (2 decks), got 117"),
    ((5, -1), {"seed": 1}, ValueError, "got -1"),
    ((5, 13), {"seed": 1, "decks": 3}, ValueError, "got 3"),
    ((5.0, 13), {"seed": 1}, TypeError, "float"),
    ((5, "13"), {"seed": 1}, TypeError, "str"),
])
def test_bad_arguments(args: tuple, kwargs: dict, kind: type, text: str) -> None:
    with pytest.raises(kind) as info:
        random_hands(*args, **kwargs)
    assert text in str(info.value)


def test_numpy_integers_are_ints() -> None:
    hands = random_hands(np.int64(3), np.uint8(5), decks=np.int32(4), seed=np.int64(1))
    assert hands.shape == (3, 56)


@pytest.mark.parametrize("decks", [2, 4])
def test_the_compiled_deal_is_the_python_one(decks: int, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    import fivecrowns.dealing as dealing
    try:  # whichever route this run takes (FIVECROWNS_IMPLEMENTATION), when it is built
        from fivecrowns._rollout import deal_hands
    except ImportError:
        pytest.skip("no compiled extension")
    cases = [(0, 5), (1, 3), (7, 13), (4096, 7), (5000, 13), (300, 0), (50, 58 * decks)]
    monkeypatch.setattr(dealing, "_deal_hands", deal_hands)
    compiled = []
    for n, size in cases:
        rng = np.random.default_rng([n, size, decks])
        compiled.append((random_hands(n, size, decks=decks, seed=rng), rng.random()))
    monkeypatch.setattr(dealing, "_deal_hands", None)
    for (n, size), (hands, after) in zip(cases, compiled):
        rng = np.random.default_rng([n, size, decks])
        assert (random_hands(n, size, decks=decks, seed=rng) == hands).all(), (n, size)
        assert rng.random() == after, "the generator is left in the same state"


@pytest.mark.parametrize("route", ["python", "compiled", ""])
def test_the_implementation_switch_chooses_the_deal(route: str) -> None:
    """The one switch (read once, at import, by the solver) chooses the deal too: a fresh
    interpreter under each setting."""
    import importlib.util
    import subprocess
    import sys

    built = importlib.util.find_spec("fivecrowns._rollout") is not None
    if route == "compiled" and not built:
        pytest.skip("the compiled core is not built")
    code = ("import fivecrowns.dealing as d; from fivecrowns import random_hands; "
            "assert random_hands(3, 5, seed=2).sum() == 15; "
            "print(d._deal_hands is not None)")
    env = dict(os.environ, FIVECROWNS_IMPLEMENTATION=route)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout.split()[-1]
    assert out == str(route != "python" and built)
