"""Solitaire, the game (docs/rules.rst, Solitaire): the deal, moves, hand-checked games and
a state machine."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import fivecrowns as fc
from fivecrowns.solitaire import (
    PILE_SIZES,
    PlayRecord,
    Solitaire,
    SolitaireResult,
    make_strategy,
)
from helpers.solitaire_deals import complete_piles, small_deal, total_cards

# --------------------------------------------------------------------------------------------
# the deal
# --------------------------------------------------------------------------------------------


def test_deal_shape_and_conservation() -> None:
    game = Solitaire(seed=0)
    assert [len(game.pile(n)) for n in PILE_SIZES] == list(PILE_SIZES)
    assert game.draw_remaining == 116 - sum(PILE_SIZES) == 28
    assert total_cards(game) == 116
    assert game.turn == 0 and game.discards == () and not game.is_over
    assert game.closed_piles == () and game.open_piles == PILE_SIZES
    full = np.full(56, 2)
    full[55] = 6
    everything = game.pile_counts.sum(axis=0) + game.unseen_counts()
    everything[game.draw_top.index] += 1  # type: ignore[union-attr]
    assert np.array_equal(everything, full)


def test_party_mode_deal() -> None:
    game = Solitaire(seed=3, rules=fc.Rules(decks=4))
    assert game.draw_remaining == 232 - 88
    assert total_cards(game) == 232


def test_same_seed_same_deal_everywhere() -> None:
    a, b = Solitaire(seed=42), Solitaire(seed=42)
    assert a == b and a.piles == b.piles
    assert Solitaire(seed=43) != a
    assert Solitaire(seed=np.random.default_rng(42)) == a
    assert Solitaire(seed=np.random.SeedSequence(42)) == a
    # A known answer: this pins the shuffle, so a change of deal order is noticed.
    assert fc.format_cards(Solitaire(seed=1).pile(3)) == "5H 3S JK"
    assert str(Solitaire(seed=1).draw_top) == "6T"


@pytest.mark.parametrize("seed, error", [(None, TypeError), ("1", TypeError), (1.5, TypeError),
                                         (True, TypeError), (-1, ValueError)])
def test_bad_seeds(seed: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="seed"):
        Solitaire(seed=seed)  # type: ignore[arg-type]


def test_bad_rules() -> None:
    with pytest.raises(TypeError, match="rules must be a Rules"):
        Solitaire(seed=1, rules=4)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# hand-checked games
# --------------------------------------------------------------------------------------------

def test_known_small_game_by_hand() -> None:
    game = small_deal("8S 6S QS KS")
    assert fc.deadwood(game.pile(3), 3) == 4 + 5 + 8 and fc.deadwood(game.pile(4), 4) == 3
    assert fc.deadwood(game.pile(5), 5) == 0 and not game.is_closed(5)  # never closed at deal

    # Turn 1: 8S is of no use; put it on pile 4 and throw it away again.
    rec = game.play(4, "8S")
    assert rec == PlayRecord(turn=1, card=fc.Card.parse("8S"), pile=4,
                                discard=fc.Card.parse("8S"), deadwood=3, closed=False)
    # Turn 2: 6S completes the run 4S 5S 6S of pile 3 once 8T goes.
    rec = game.play(3, "8T")
    assert rec.closed and rec.deadwood == 0 and game.is_closed(3)
    assert fc.format_cards(game.pile(3)) == "4S 5S 6S"
    # A closed pile takes no more cards, and the failed move changes nothing.
    before = game.clone()
    with pytest.raises(fc.IllegalMoveError, match="pile 3 is closed and takes no more cards"):
        game.play(3, "QS")
    assert game == before
    # Turn 3: QS on pile 4, 3T away: QS QS QT 4H.
    assert game.play(4, "3T").closed
    # Turn 4: a dealt-complete pile closes as soon as a card has been played into it.
    rec = game.play(5, "KS")
    assert rec.closed and game.closed_piles == (3, 4, 5)
    assert game.is_over and not game.won  # the draw pile ran out with 8 piles open
    assert game.result == SolitaireResult(won=False, piles_closed=3, turns=4)
    assert [str(c) for c in game.discards] == ["8S", "8T", "3T", "KS"]
    with pytest.raises(fc.IllegalMoveError, match="the draw pile is used up"):
        game.verify_play(6, "KS")


def test_known_win_in_eleven_turns() -> None:
    piles, rest = complete_piles()
    assert sum(map(len, piles.values())) + len(rest) == 116
    for n, cards in piles.items():
        assert len(cards) == n and fc.deadwood(cards, n) == 0, (n, cards)
    game = Solitaire.from_cards(piles, draw=rest[:12])
    for n in PILE_SIZES:
        assert not game.is_over
        card = game.draw_top
        assert card is not None
        assert game.play(n, card).closed
    assert game.won and game.is_over and game.result == SolitaireResult(True, 11, 11)
    assert game.draw_remaining == 1  # winning leaves the rest of the draw pile unplayed
    with pytest.raises(fc.IllegalMoveError, match="all 11 piles are closed"):
        game.verify_play(3, "JK")
    # Every strategy wins this deal in 11 turns.
    for strategy in ("greedy", "strong"):
        player = make_strategy(strategy)
        g = Solitaire.from_cards(piles, draw=rest[:12])
        while not g.is_over:
            g.play(*player.choose(g.observation(), np.random.default_rng(0)))
        assert g.result == SolitaireResult(True, 11, 11)


def test_illegal_moves_raise_full_sentences() -> None:
    game = Solitaire(seed=1)
    before = game.clone()
    with pytest.raises(fc.IllegalMoveError, match=r"cannot discard 9C from pile 5: the pile "
                       r"holds 3D 4D 3H JH 7T and the card turned up is 6T"):
        game.play(5, "9C")
    with pytest.raises(fc.IllegalMoveError, match="there is no pile 14"):
        game.play(14, "6T")
    with pytest.raises(TypeError, match="a pile is named by its size"):
        game.play("5", "6T")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a card must be a Card or a str"):
        game.play(5, 7)  # type: ignore[arg-type]
    with pytest.raises(fc.CardError, match="cannot parse card"):
        game.play(5, "1X")
    assert not game.can_play(5, "9C") and not game.can_play(2, "6T")
    assert not game.can_play(5, 7)  # type: ignore[arg-type]
    assert game.can_play(5, "6T") and game.can_play(5, "JH")
    assert game == before and game.turn == 0
    assert isinstance(fc.IllegalMoveError("x"), ValueError)


def test_from_cards_validates() -> None:
    piles, rest = complete_piles()
    with pytest.raises(fc.HandError, match="pile 3 must hold 3 cards, got 2"):
        Solitaire.from_cards({**piles, 3: "3C 4C"}, draw="")
    with pytest.raises(fc.HandError, match="each of the piles 3..13"):
        Solitaire.from_cards({n: piles[n] for n in range(3, 13)}, draw="")
    with pytest.raises(fc.HandError, match="holds 3 copies of 3C"):
        Solitaire.from_cards(piles, draw="3C")
    with pytest.raises(fc.HandError, match="must be 11 hands"):
        Solitaire.from_cards([piles[n] for n in range(3, 13)], draw="")
    game = Solitaire.from_cards([piles[n] for n in PILE_SIZES], draw=rest[:2])
    assert game.draw_remaining == 2 and game.piles == {n: tuple(sorted(fc.parse_cards(c)))
                                                       for n, c in piles.items()}


def test_legal_plays_and_observation() -> None:
    game = Solitaire(seed=5)
    plays = game.legal_plays()
    top = game.draw_top
    assert top is not None
    assert all(game.can_play(p, c) for p, c in plays)
    expected = sum(len(set(game.pile(n)) | {top}) for n in PILE_SIZES)
    assert len(plays) == expected
    obs = game.observation()
    assert obs.top == top and obs.open_piles == PILE_SIZES and obs.turn == 0
    assert int(obs.unseen.sum()) == game.draw_remaining - 1
    assert obs.pile(7) == game.pile(7)
    with pytest.raises(ValueError):
        obs.pile_counts[0, 0] = 1  # read-only: a strategy cannot change the game


def test_records_are_frozen() -> None:
    game = Solitaire(seed=2)
    rec = game.play(3, game.draw_top)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.pile = 4  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.result.won = True  # type: ignore[misc]
    assert game.plays == (rec,) and "to pile 3" in str(rec)


def test_clone_copy_and_pickle_are_independent() -> None:
    game = Solitaire(seed=9)
    game.play(6, game.draw_top)  # type: ignore[arg-type]
    for other in (game.clone(), copy.copy(game), copy.deepcopy(game),
                  pickle.loads(pickle.dumps(game))):
        assert other == game and other.plays == game.plays
        other.play(7, other.draw_top)  # type: ignore[arg-type]
        assert other != game and game.turn == 1 and total_cards(game) == 116


# --------------------------------------------------------------------------------------------
# the state machine
# --------------------------------------------------------------------------------------------


class SolitaireMachine(RuleBasedStateMachine):
    """Random legal and illegal moves against a simple model of what must hold."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Solitaire(seed=0)
        self.closed: set[int] = set()
        self.discards: list[fc.Card] = []

    @initialize(seed=st.integers(0, 2**32), party=st.booleans())
    def deal(self, seed: int, party: bool) -> None:
        self.game = Solitaire(seed=seed, rules=fc.Rules(decks=4 if party else 2))

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        plays = self.game.legal_plays()
        pile, card = data.draw(st.sampled_from(plays))
        top = self.game.draw_top
        before = self.game.pile_counts[pile - 3].astype(int)
        rec = self.game.play(pile, card)
        assert rec.card == top and rec.pile == pile and rec.discard == card
        after = self.game.pile_counts[pile - 3].astype(int)
        change = np.zeros(56, dtype=int)
        change[top.index] += 1  # type: ignore[union-attr]
        change[card.index] -= 1
        assert np.array_equal(after - before, change)
        self.discards.append(card)
        if rec.closed:
            self.closed.add(pile)

    @rule(pile=st.sampled_from(PILE_SIZES), data=st.data())
    def play_illegal(self, pile: int, data: st.DataObject) -> None:
        game = self.game
        top = game.draw_top
        pile_cards = set(game.pile(pile))
        absent = [c for c in map(fc.Card.from_index, range(56))
                  if c not in pile_cards and c != top]
        card = data.draw(st.sampled_from(absent))
        if not game.is_over and not game.is_closed(pile):
            assert not game.can_play(pile, card)
        before = game.clone()
        with pytest.raises(fc.IllegalMoveError):
            game.play(pile, card)
        if game.is_closed(pile) or game.is_over:
            # a closed pile, or a finished game, refuses every card
            with pytest.raises(fc.IllegalMoveError):
                game.play(pile, top if top is not None else card)
        assert game == before

    @rule()
    def clone_round_trip(self) -> None:
        assert pickle.loads(pickle.dumps(self.game)) == self.game

    @invariant()
    def cards_are_conserved(self) -> None:
        game = self.game
        assert total_cards(game) == game.rules.n_cards
        assert [len(game.pile(n)) for n in PILE_SIZES] == list(PILE_SIZES)
        assert game.turn == len(game.discards) == len(self.discards) == len(game.plays)
        assert list(game.discards) == self.discards

    @invariant()
    def closed_piles_are_melded_and_stay_closed(self) -> None:
        game = self.game
        assert set(game.closed_piles) == self.closed
        for n in game.closed_piles:
            assert fc.deadwood(game.pile(n), n, decks=game.rules.decks) == 0
            assert not game.can_play(n, game.draw_top or "JK")

    @invariant()
    def over_when_won_or_drawn_out(self) -> None:
        game = self.game
        assert game.is_over == (len(self.closed) == 11 or game.draw_remaining == 0)
        assert game.result.piles_closed == len(self.closed)
        assert game.legal_plays() == [] if game.is_over else game.legal_plays()


SolitaireMachine.TestCase.settings = settings(SolitaireMachine.TestCase.settings,
                                              stateful_step_count=35)
TestSolitaireMachine = SolitaireMachine.TestCase




def test_package_keeps_its_names() -> None:
    # Every name the single solitaire module had (less the renamed ones) still imports.
    import fivecrowns.solitaire as sol
    from fivecrowns import outs, seeding, stats

    kept = ["PILE_SIZES", "Solitaire", "SolitaireResult", "SolitaireObservation",
            "SolitaireStrategy", "RandomSolitaire", "GreedySolitaire", "StrongSolitaire",
            "STRATEGIES", "make_strategy", "play_solitaire"]
    assert all(hasattr(sol, name) for name in kept)
    assert sol.SeedLike is seeding.SeedLike and sol.wilson_interval is stats.wilson_interval
    assert sol.completing_types is outs.completing_types
    assert set(sol.__all__) <= set(dir(sol))
