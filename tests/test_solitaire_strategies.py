"""Solitaire strategies: legal whole games, documented choices, pickling, make_strategy."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.seeding import solitaire_streams
from fivecrowns.solitaire import (
    GreedySolitaire,
    RandomSolitaire,
    Solitaire,
    SolitaireStrategy,
    StrongSolitaire,
    make_strategy,
    play_solitaire,
)
from helpers.solitaire_deals import small_deal


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_strategies_play_legal_whole_games(strategy: str) -> None:
    for seed in range(3):
        res = play_solitaire(strategy, seed=seed)
        assert res == play_solitaire(strategy, seed=seed)  # seeded, so repeatable
        assert 0 <= res.piles_closed <= 11 and 11 <= res.turns <= 28
        assert res.won == (res.piles_closed == 11)


def test_strong_strategy_is_repeatable_and_pickles() -> None:
    res = play_solitaire(StrongSolitaire(), seed=3)
    assert 0 <= res.piles_closed <= 11 and res.won == (res.piles_closed == 11)
    used = StrongSolitaire()
    fresh = pickle.loads(pickle.dumps(used))
    game = Solitaire(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(4):
        move = used.choose(game.observation(), rng)
        assert fresh.choose(game.observation(), rng) == move
        game.play(*move)


def test_greedy_closes_a_pile_that_needed_the_card() -> None:
    game = small_deal("6S")
    pile, card = GreedySolitaire().choose(game.observation(), np.random.default_rng(0))
    assert (pile, str(card)) == (3, "8T")
    pile, card = StrongSolitaire().choose(game.observation(), np.random.default_rng(0))
    assert (pile, str(card)) == (3, "8T")


def test_make_strategy() -> None:
    assert isinstance(make_strategy("Greedy"), GreedySolitaire)
    assert isinstance(make_strategy(" strong"), StrongSolitaire)
    bot = RandomSolitaire()
    assert make_strategy(bot) is bot
    with pytest.raises(ValueError, match="unknown solitaire strategy 'best'"):
        make_strategy("best")
    with pytest.raises(TypeError, match="choose"):
        make_strategy(42)  # type: ignore[arg-type]




def test_strategies_follow_the_protocol_and_are_exported() -> None:
    for cls in (RandomSolitaire, GreedySolitaire, StrongSolitaire):
        assert isinstance(cls(), SolitaireStrategy)
    assert fc.SolitaireStrategy is SolitaireStrategy
    assert fc.SolitaireObservation is type(Solitaire(seed=0).observation())
    game = Solitaire(seed=0)
    assert type(game.play(3, game.draw_top)) is fc.PlayRecord  # type: ignore[arg-type]


def test_strategies_in_party_mode() -> None:
    # Four decks: the memo is rebuilt for the other deck size, and moves stay legal.
    player = GreedySolitaire()
    for decks in (2, 4, 2):
        rules = fc.Rules(decks=decks)
        assert play_solitaire(player, seed=1, rules=rules) == play_solitaire(
            "greedy", seed=1, rules=rules)


def _moves(strategy: str, seed: int, turns: int) -> list[str]:
    deal, rng = solitaire_streams(seed)
    game, player = Solitaire(seed=deal), make_strategy(strategy)
    for _ in range(turns):
        game.play(*player.choose(game.observation(), rng))
    return [str(r) for r in game.plays]


def test_known_moves() -> None:
    # Recorded before 0.2.0's restructuring: the strategies' choices must not drift.
    assert _moves("strong", 3, 4) == [
        "turn 1: 9T to pile 6, discard JS, deadwood 18",
        "turn 2: 7C to pile 7, discard 4T, deadwood 5",
        "turn 3: QT to pile 3, discard JD, deadwood 28",
        "turn 4: JD to pile 10, discard 7S, deadwood 6"]
    assert _moves("greedy", 3, 3) == [
        "turn 1: 9T to pile 11, discard KT, deadwood 57",
        "turn 2: 7C to pile 4, discard QH, pile closed",
        "turn 3: QT to pile 7, discard 6D, deadwood 4"]
