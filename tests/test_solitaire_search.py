"""The solitaire planner: completion sets, plan search, the bound, and the planner's play."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.outs import SolverMemo
from fivecrowns.seeding import solitaire_streams
from fivecrowns.solitaire import (
    STRATEGIES,
    Solitaire,
    SolitaireStrategy,
    make_strategy,
    play_solitaire,
)
from fivecrowns.solitaire.search import (
    PlannerSolitaire,
    completion_sets,
    find_plan,
    plan_bound,
    wilds_needed,
)
from helpers.engines import sized, slow_on_twins
from helpers.solitaire_deals import complete_piles, small_deal


def _types(cards: str) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in fc.parse_cards(cards)))


def _pool(cards: str) -> list[int]:
    return fc.hand_counts(cards).astype(int).tolist()


def test_completion_sets_are_minimal_and_from_the_pool() -> None:
    memo = SolverMemo(2)
    row = fc.hand_counts("5C 6C 9D")  # 13s wild: 7C, 4C or a wild completes it
    sets = completion_sets(row, 13, _pool("7C 4C 8C JK 9H 9S QD"), memo)
    assert _types("7C") in sets and _types("4C") in sets and _types("JK") in sets
    assert _types("9H 9S") in sets          # 5C 6C go, 9D 9H 9S stay
    assert all(len(s) <= 2 for s in sets)
    assert not any(_types("7C") [0] in s and len(s) == 2 for s in sets)  # minimal
    assert _types("8C") not in sets and _types("QD") not in sets
    # Only cards in the pool, with their copies:
    assert completion_sets(row, 13, _pool("9H QD"), memo) == []
    assert completion_sets(fc.hand_counts("5C 6C 7C"), 13, _pool("QD"), memo) == [()]


def test_completion_sets_of_two_cards_complete_the_pile() -> None:
    memo = SolverMemo(2)
    row = fc.hand_counts("3C 5D 9H QS")
    pool = _pool("4C 5C 6D 7D 9S 9D QD QH 8H 10H")
    for s in completion_sets(row, 13, pool, memo):
        # some two cards of the pile give way to the set and leave no deadwood
        plus = row.copy()
        for t in s:
            plus[t] += 1
        kept = [t for t in np.flatnonzero(plus).tolist() for _ in range(int(plus[t]))]
        assert any(memo.deadwood(_without(plus, a, b), 13) == 0
                   for i, a in enumerate(kept) for b in kept[i + 1:]
                   if a not in s and b not in s) or len(s) == 1


def _without(row: np.ndarray, a: int, b: int) -> np.ndarray:
    out = row.copy()
    out[a] -= 1
    out[b] -= 1
    return out


def test_find_plan_packs_disjoint_sets() -> None:
    a, b, c = (fc.Card.parse(x).index for x in ("7C", "JK", "9H"))
    pool = [0] * 56
    pool[a] = pool[b] = 1
    assert find_plan([[(a,), (b,)], [(a,)]], pool) == [(b,), (a,)]
    assert find_plan([[(a,)], [(a,)]], pool) is None
    # A complete pile takes one spare card: two cards, three piles is one too many.
    assert find_plan([[()], [(a,)], [(b,)]], pool) is None
    pool[c] = 1
    assert find_plan([[()], [(a,)], [(b,)]], pool) == [(), (a,), (b,)]
    # The relaxation of the bound: a pile may take `big` cards of any types.
    assert find_plan([[(a,)], []], pool) is None
    assert find_plan([[(a,)], []], pool, big=[3, 2]) == [(a,), None]
    assert find_plan([[(a,)], []], pool, big=[3, 3]) is None


def test_wilds_needed() -> None:
    memo = SolverMemo(2)
    assert wilds_needed(fc.hand_counts("5C 6C 7C"), 13, memo) == 0
    assert wilds_needed(fc.hand_counts("5C 6C 9D"), 13, memo) == 1
    assert wilds_needed(fc.hand_counts("3C 5D 9H"), 13, memo) == 2


def test_a_plan_wins_in_any_order() -> None:
    # Piles 3 and 4 need one card each (6S or 3S; QS), the others one card of any kind;
    # the draw pile is the rest of the deck, in five random orders.
    empty = small_deal("")
    left = empty.unseen_counts()
    draw = [str(fc.Card.from_index(t)) for t in np.flatnonzero(left) for _ in range(left[t])]
    player = PlannerSolitaire()
    rng = np.random.default_rng(5)
    memo = SolverMemo(2)
    for _ in range(5):
        game = small_deal(" ".join(rng.permutation(draw)))
        pool = game.unseen_counts()
        pool[game.draw_top.index] += 1  # type: ignore[union-attr]
        sets = [completion_sets(game.pile_counts[n - 3], n, pool, memo) for n in range(3, 14)]
        assert find_plan(sets, pool.tolist()) is not None
        while not game.is_over:
            game.play(*player.choose(game.observation(), rng))
        assert game.won


@slow_on_twins
def test_planner_wins_whenever_it_finds_a_plan() -> None:
    # A plan wins whatever the order of the draw pile: once one exists, the game is won.
    for seed in sized((1, 2), (1,)):  # the planner's search: a minute a game on the twins
        deal, rng = solitaire_streams(seed)
        game, player, memo = Solitaire(seed=deal), PlannerSolitaire(), SolverMemo(2)
        planned = False
        while not game.is_over:
            obs = game.observation()
            pool = obs.unseen.copy()
            pool[obs.top.index] += 1  # type: ignore[union-attr]
            sets = [completion_sets(obs.pile_counts[n - 3], n, pool, memo)
                    for n in obs.open_piles]
            planned = planned or find_plan(sets, pool.tolist()) is not None
            game.play(*player.choose(obs, rng))
        assert game.won or not planned
        assert game.result == play_solitaire("planner", seed=seed)


@pytest.mark.slow
def test_planner_is_registered_repeatable_and_pickles() -> None:
    assert "planner" in STRATEGIES
    player = make_strategy("planner")
    assert isinstance(player, PlannerSolitaire) and isinstance(player, SolitaireStrategy)
    fresh = pickle.loads(pickle.dumps(player))
    assert repr(fresh) == repr(player)
    # Its remembered answers never change a choice: a used player plays a new game like
    # a fresh one. On the twins a fresh player's first move takes half a minute and the
    # game of seed 4 one, so one game of 10 s and one move there.
    play_solitaire(player, seed=sized(4, 3))
    game = Solitaire(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(sized(6, 1)):
        obs = game.observation()
        move = player.choose(obs, rng)
        assert PlannerSolitaire().choose(obs, rng) == move
        assert game.can_play(*move)
        game.play(*move)
    with pytest.raises(ValueError, match="max_set"):
        PlannerSolitaire(max_set=3)


def test_plan_bound_brackets() -> None:
    memo = SolverMemo(2)
    piles, rest = complete_piles()
    game = Solitaire.from_cards(piles, draw=rest)
    pool = game.unseen_counts()
    pool[game.draw_top.index] += 1  # type: ignore[union-attr]
    rows = [(game.pile_counts[n - 3], n) for n in range(3, 14)]
    assert plan_bound(rows, pool.tolist(), memo) == (True, True)
    # Eleven piles but only ten cards to come: lost, and proved lost.
    assert plan_bound(rows, _pool(" ".join(rest[:10])), memo) == (False, False)


def test_a_search_that_gives_up_proves_nothing() -> None:
    memo = SolverMemo(2)
    game = Solitaire(seed=3)
    pool = game.unseen_counts()
    pool[game.draw_top.index] += 1  # type: ignore[union-attr]
    rows = [(game.pile_counts[n - 3], n) for n in range(3, 14)]
    assert plan_bound(rows, pool.tolist(), memo, node_limit=1) == (False, True)
