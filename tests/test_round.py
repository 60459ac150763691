"""Round: known hand-checked rounds, the verify/can/do trio, actions, observations, and a
hypothesis state machine of random legal and illegal play."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from fivecrowns import IllegalMoveError, Rules, deadwood, hand_counts, parse_cards
from fivecrowns.actions import (
    ACTION_DISCARD,
    ACTION_GO_OUT,
    Source,
    decode_action,
    encode_discard,
)
from fivecrowns.bots import best_discard_choice
from fivecrowns.cards import Card, format_cards
from fivecrowns.deck import full_counts
from fivecrowns.records import DiscardRecord, DrawRecord, EventKind, Phase
from fivecrowns.round import Round

DATA = Path(__file__).parent / "data"
KNOWN = json.loads((DATA / "known_games.json").read_text())["rounds"]


def snapshot(r: Round) -> tuple[Any, ...]:
    """Everything that defines a round's state."""
    return (tuple(r.hand_counts(p).tobytes() for p in range(r.n_players)),
            r.deck.draw_pile(), r.deck.discard_pile(), r.current_player, r.phase, r.turn,
            r.went_out, tuple(r._state.scores), r.history,
            r.deck.rng.bit_generator.state["state"], r.result, r._state.public_bytes())


# -- known answers --

@pytest.mark.parametrize("case", KNOWN, ids=[c["name"] for c in KNOWN])
def test_known_round(case: dict[str, Any]) -> None:
    r = Round(case["n_players"], case["round"], seed=case["seed"], dealer=case["dealer"],
              rules=Rules(max_turns=case["max_turns"]))
    assert [format_cards(r.hand(p)) for p in range(r.n_players)] == \
        [format_cards(sorted(parse_cards(h))) for h in case["hands"]]
    assert str(r.deck.top_discard) == case["turned_up"]
    for player, kind, card in case["moves"]:
        assert r.current_player == player
        if kind in ("deck", "pile"):
            rec = r.draw("deck" if kind == "deck" else "discard", player=player)
            assert str(rec.card) == card
        else:
            rec2 = r.discard(card, go_out=kind == "out", player=player)
            assert rec2.go_out == (kind == "out")
    assert r.is_over
    res = r.result
    assert res is not None
    assert [format_cards(h) for h in res.final_hands] == case["final_hands"]
    assert list(res.scores) == case["scores"]
    assert res.went_out == case["went_out"]
    assert res.hit_max_turns == case["hit_max_turns"]
    assert res.turns == case["turns"]
    assert r.deck.draw_size == case["draw_size"]
    assert format_cards(r.deck.discard_pile()) == case["discard_pile"]
    for p, hand in enumerate(res.final_hands):  # scores are the hands' deadwood
        assert deadwood(hand, res.wild) == res.scores[p]


# -- construction --

def test_round_sizes_and_dealing() -> None:
    r = Round(7, 11, seed=1, dealer=6)
    assert (r.hand_size, r.wild, r.current_player) == (13, 13, 0)
    assert all(len(r.hand(p)) == 13 for p in range(7))
    assert r.deck.draw_size == 116 - 91 - 1
    big = Round(14, 11, seed=1, rules=Rules(decks=4))
    assert big.deck.draw_size == 232 - 14 * 13 - 1
    solo = Round(1, 3, seed=0)
    assert solo.current_player == 0
    tie = Round(3, hand_size=6, wild=6, seed=0, sudden_death=True)
    assert tie.round_number is None and tie.hand_size == 6 and tie.wild == 6


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(n_players=8, round_number=1), ValueError, "1 to 7 players"),
    (dict(n_players=0, round_number=1), ValueError, "1 to 7 players"),
    (dict(n_players=2, round_number=12), ValueError, "round must be 1..11"),
    (dict(n_players=2), ValueError, "round_number 1..11, or both"),
    (dict(n_players=2, round_number=1, hand_size=3, wild=3), ValueError, "not both"),
    (dict(n_players=2, hand_size=6, wild=2), ValueError, "wild must be a rank"),
    (dict(n_players=7, hand_size=19, wild=6), ValueError, "need more than the 116"),
    (dict(n_players=2, round_number=1, dealer=2), ValueError, "dealer must be a seat"),
    (dict(n_players="2", round_number=1), TypeError, "n_players must be an int"),
])
def test_bad_rounds(kwargs: dict[str, Any], exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        Round(seed=0, **kwargs)


def test_seed_is_required() -> None:
    with pytest.raises(TypeError, match="seed is required"):
        Round(2, 1, seed=None)  # type: ignore[arg-type]


# -- illegal moves --

def test_illegal_moves_raise_sentences_and_change_nothing() -> None:
    r = Round(2, 1, seed=0)  # seat 1 to play: 8D QD 6T; seat 0: 6D 9H 9S
    before = snapshot(r)
    cases = [
        (lambda: r.draw("deck", player=0), "player 0 cannot draw: it is player 1's turn"),
        (lambda: r.discard("QD"), "player 1 must draw before discarding"),
        (lambda: r.discard("QD", player=0), "player 0 cannot discard: it is player 1's turn"),
    ]
    for move, message in cases:
        with pytest.raises(IllegalMoveError, match=message):
            move()
        assert snapshot(r) == before
    assert not r.can_draw("deck", player=0) and r.can_draw("deck") and r.can_draw(1)
    r.draw(Source.DECK)  # 10H
    before = snapshot(r)
    for move, message in [
        (lambda: r.draw("discard"), "player 1 has already drawn this turn and must discard"),
        (lambda: r.discard("KS"), "player 1 cannot discard KS: it is not in their hand"),
        (lambda: r.discard("QD", go_out=True),
         "player 1 cannot go out discarding QD: the other 3 cards leave deadwood 24, not 0"),
    ]:
        with pytest.raises(IllegalMoveError, match=message):
            move()
        assert snapshot(r) == before
    assert r.can_discard("QD") and not r.can_discard("QD", go_out=True) and not r.can_discard("KS")
    with pytest.raises(TypeError, match="go_out must be a bool"):
        r.discard("QD", go_out="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot parse card"):
        r.discard("ZZ")
    with pytest.raises(ValueError, match="a draw source must be"):
        r.verify_draw("hand")
    assert snapshot(r) == before


def test_moves_after_the_round_is_over() -> None:
    r = Round(2, 1, seed=1, rules=Rules(max_turns=1))
    r.draw("deck")
    rec = r.discard(r.hand(1)[0])
    assert rec.round_over and r.is_over and r.result is not None and r.result.hit_max_turns
    before = snapshot(r)
    with pytest.raises(IllegalMoveError, match="cannot draw: the round is over"):
        r.draw("deck")
    with pytest.raises(IllegalMoveError, match="cannot discard: the round is over"):
        r.discard("3C")
    assert not r.legal_action_mask().any() and r.legal_actions() == []
    assert snapshot(r) == before


def test_records_are_frozen() -> None:
    r = Round(2, 1, seed=0)
    rec = r.draw("deck")
    assert rec == DrawRecord(1, Source.DECK, Card.parse("10H"), 0, False)
    with pytest.raises(AttributeError):
        rec.player = 0  # type: ignore[misc]
    rec2 = r.discard("QD")
    assert rec2 == DiscardRecord(1, Card.parse("QD"), False, 0, False)


# -- actions --

def test_legal_action_mask_and_go_out_actions() -> None:
    r = Round(2, 1, seed=0)
    assert r.legal_actions() == [0, 1]
    r.apply_action(0)   # seat 1 draws 10H
    r.apply_action(encode_discard("QD"))
    r.apply_action(0)   # seat 0 draws 9S: 6D 9H 9S 9S
    mask = r.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (114,)
    held = {"6D", "9H", "9S"}
    assert {str(Card.from_index(a - 2)) for a in range(2, 58) if mask[a]} == held
    assert [str(Card.from_index(a - 58)) for a in range(58, 114) if mask[a]] == ["6D"]
    assert not r.can_apply_action(encode_discard("9H", go_out=True))
    assert r.can_apply_action(encode_discard("6D", go_out=True))
    with pytest.raises(IllegalMoveError, match="cannot go out discarding 9H"):
        r.apply_action(encode_discard("9H", go_out=True))
    r.apply_action(encode_discard("6D", go_out=True))
    assert r.final_turn and r.went_out == 0 and r.current_player == 1


def test_max_turns_does_not_cut_final_turns() -> None:
    r = Round(2, 1, seed=0, rules=Rules(max_turns=2))
    for a in (0, encode_discard("QD"), 0, encode_discard("6D", go_out=True)):
        r.apply_action(a)
    assert not r.is_over and r.final_turn  # turn 2 reached, but seat 1 has a last turn
    r.apply_action(0)
    r.apply_action(encode_discard("10H"))
    assert r.result is not None and not r.result.hit_max_turns


def test_sudden_death_ends_at_once() -> None:
    r = Round(2, 1, seed=0, sudden_death=True)
    for a in (0, encode_discard("QD"), 0, encode_discard("6D", go_out=True)):
        r.apply_action(a)
    assert r.is_over and r.result is not None and r.result.went_out == 0
    assert r.result.scores == (0, 24)


def test_one_player_round() -> None:
    r = Round(1, 1, seed=4)
    while not r.is_over:
        r.draw("deck")
        dead, t = best_discard_choice(r.hand_counts(0), r.wild)
        r.discard(t, go_out=dead == 0)
    assert r.result is not None and r.result.scores == (0,)


def test_reshuffle_during_play() -> None:
    r = Round(2, 1, seed=3, rules=Rules(max_turns=200))
    reshuffled = False
    while not r.is_over and not reshuffled:
        reshuffled = r.draw("deck").reshuffled
        r.discard(r.hand(r.current_player)[0])  # never goes out
    assert reshuffled and r.deck.reshuffles == 1
    assert any(ev.kind is EventKind.RESHUFFLE for ev in r.history)
    total = sum(r.hand_counts(p).astype(int) for p in range(2)) \
        + r.deck.draw_counts() + r.deck.discard_counts()
    assert total.tolist() == full_counts(Rules()).tolist()


# -- observations --

def test_observation_shows_only_what_a_player_may_know() -> None:
    r = Round(2, 1, seed=2)
    r.draw("discard")   # seat 1 takes 6D: public
    obs1 = r.observation(1)
    obs0 = r.observation(0)
    assert obs1.drawn == Card.parse("6D") and obs0.drawn is None
    assert obs1.counts.tolist() == hand_counts("7D KH 9T 6D").tolist()
    assert obs0.counts.tolist() == hand_counts("7D 6S 8T").tolist()
    assert not obs0.counts.flags.writeable
    assert obs0.top_discard is None and obs0.discard_size == 0
    assert obs0.history[-1].player == 1 and obs0.history[-1].card == Card.parse("6D")
    assert (obs0.phase, obs0.current_player, obs0.my_turn, obs1.my_turn) == \
        (Phase.DISCARD, 1, False, True)
    r.discard("KH")
    r.draw("deck")      # seat 0 draws QS: hidden from seat 1
    obs1 = r.observation(1)
    assert obs1.history[-1].kind is EventKind.DRAW_DECK and obs1.history[-1].card is None
    assert obs1.draw_size == r.deck.draw_size and obs1.wild == 3 and obs1.round_number == 1
    assert not obs1.final_turn and obs1.went_out is None
    # Nothing hidden leaks: no other hands, no deck order. The tracked counts are kept as
    # the round's public counts (bytes) until first read.
    tracked = {"discard_counts", "taken_counts", "unseen_counts"}
    fields = {
        "player", "counts", "drawn", "top_discard", "draw_size", "discard_size",
        "round_number", "hand_size", "wild", "n_players", "dealer", "current_player",
        "phase", "turn", "final_turn", "went_out", "history", "decks", "sudden_death",
        "totals", "return_discard", "must_keep"} | tracked
    assert set(vars(obs1)) == fields - tracked | {"_tracked"}
    assert vars(obs1)["_tracked"] is r._freeze()
    assert obs1.discard_counts.tolist() == hand_counts("KH").tolist()
    assert obs1.taken_counts[1].tolist() == hand_counts("6D").tolist()
    assert not obs1.taken_counts[0].any() and not obs1.taken_counts[1].flags.writeable
    assert int(obs1.unseen_counts.sum()) == 116 - 3 - 1   # own hand and the pile
    assert int(r.observation(0).unseen_counts.sum()) == 116 - 4 - 1 - 1   # and 6D
    assert obs1.hand == tuple(sorted(parse_cards("7D 9T 6D")))
    assert set(vars(obs1)) == fields | {"_tracked"}


def test_clone_and_pickle() -> None:
    def plain(rnd: Round) -> list[int]:  # legal moves that do not go out
        return [a for a in rnd.legal_actions() if a < 58]

    r = Round(3, 2, seed=8)
    for _ in range(7):
        r.apply_action(plain(r)[-1])
    for copy in (r.clone(), pickle.loads(pickle.dumps(r))):
        assert snapshot(copy) == snapshot(r)
        copy.apply_action(copy.legal_actions()[0])
        assert snapshot(copy) != snapshot(r)
    a, b = r.clone(), pickle.loads(pickle.dumps(r))
    for _ in range(4):
        acts = plain(a)
        a.apply_action(acts[len(acts) // 2])
        b.apply_action(acts[len(acts) // 2])
        assert snapshot(a) == snapshot(b)


# -- random play, legal and illegal, against a simple model --

class RoundMachine(RuleBasedStateMachine):
    """Random play: after every step every card is somewhere exactly once, illegal moves
    change nothing, clones and pickles behave the same, and final scores are the
    deadwood of the final hands."""

    @initialize(n=st.integers(1, 5), rnd=st.integers(1, 4), seed=st.integers(0, 2**32),
                decks=st.sampled_from([2, 2, 4]), max_turns=st.integers(1, 40))
    def start(self, n: int, rnd: int, seed: int, decks: int, max_turns: int) -> None:
        self.game_rules = Rules(decks=decks, max_turns=max_turns)
        self.r = Round(n, rnd, seed=seed, rules=self.game_rules, dealer=seed % n)
        self.full = full_counts(self.game_rules).astype(np.int64)

    @invariant()
    def cards_accounted_for(self) -> None:
        r = self.r
        total = r.deck.draw_counts().astype(np.int64) + r.deck.discard_counts()
        for p in range(r.n_players):
            total += r.hand_counts(p)
        assert total.tolist() == self.full.tolist()
        for p in range(r.n_players):
            extra = int(p == r.current_player and r.phase is Phase.DISCARD)
            assert int(r.hand_counts(p).sum()) == r.hand_size + extra

    @invariant()
    def public_state_agrees(self) -> None:
        """The tracked public counts against the deck and the hands they describe."""
        r = self.r
        assert r._state.pile_counts().tolist() == r.deck.discard_counts().tolist()
        taken = r._state.taken_counts().astype(np.int64)
        for p in range(r.n_players):
            hand = r.hand_counts(p).astype(np.int64)
            assert (taken[p] <= hand).all()   # what p took and kept is in p's hand
            obs = r.observation(p)
            others = taken.sum(axis=0) - taken[p]
            assert (obs.unseen_counts + hand + obs.discard_counts + others).tolist() == \
                self.full.tolist()

    @invariant()
    def ended_properly(self) -> None:
        r = self.r
        if not r.is_over:
            assert r.result is None and r.deck.discard_size + (r.phase is Phase.DISCARD) >= 1
            return
        res = r.result
        assert res is not None
        for p, hand in enumerate(res.final_hands):
            assert res.scores[p] == deadwood(hand, r.wild, decks=r.rules.decks)
        if res.went_out is not None:
            assert res.scores[res.went_out] == 0 and not res.hit_max_turns
            assert res.turns <= r.rules.max_turns + r.n_players - 1
        else:
            assert res.hit_max_turns and res.turns == r.rules.max_turns

    @rule(action=st.integers(0, 113), wrong_player=st.booleans())
    def any_action(self, action: int, wrong_player: bool) -> None:
        r = self.r
        player = None
        if wrong_player and r.n_players > 1:
            player = (r.current_player + 1) % r.n_players
        legal = (not r.is_over and player is None
                 and bool(r.legal_action_mask()[action]))
        assert r.can_apply_action(action, player=player) == legal
        if legal:
            rec = r.apply_action(action)
            kind, what, out = decode_action(action)
            if kind == "draw":
                assert isinstance(rec, DrawRecord) and rec.source is what
            else:
                assert isinstance(rec, DiscardRecord) and rec.card == what and rec.go_out == out
        else:
            before = snapshot(r)
            try:
                r.apply_action(action, player=player)
            except IllegalMoveError:
                pass
            else:
                raise AssertionError(f"illegal action {action} was accepted")
            assert snapshot(r) == before

    @precondition(lambda self: not self.r.is_over)
    @rule()
    def sensible_move(self) -> None:
        """Greedy play, so that rounds do end with someone going out."""
        r = self.r
        if r.phase is Phase.DRAW:
            r.draw("deck")
        else:
            dead, t = best_discard_choice(r.hand_counts(r.current_player), r.wild,
                                          r.rules.decks)
            r.discard(t, go_out=dead == 0)

    @rule()
    def clone_and_pickle_agree(self) -> None:
        r = self.r
        copies = [r.clone(), pickle.loads(pickle.dumps(r))]
        for c in copies:
            assert snapshot(c) == snapshot(r)
        if not r.is_over:
            action = r.legal_actions()[0]
            before = snapshot(r)
            results = [c.apply_action(action) for c in copies]
            assert results[0] == results[1]
            assert snapshot(copies[0]) == snapshot(copies[1])
            assert snapshot(r) == before


TestRoundMachine = RoundMachine.TestCase
TestRoundMachine.settings = settings(stateful_step_count=40, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])


def test_final_turn_scores_the_hand_kept() -> None:
    """docs/rules.rst, A final turn's score: deadwood(hand - d) with d the player's own
    discard. Here the final player throws the card that leaves the most deadwood, and
    scores exactly that; the result's final hand agrees with the score."""
    from fivecrowns import best_discard
    from fivecrowns.actions import ACTION_DRAW_DECK

    def without(cards: tuple[Card, ...], card: Card) -> list[Card]:
        rest = list(cards)
        rest.remove(card)
        return rest

    differed = 0
    for seed in range(40):
        r = Round(2, 3, seed=seed)
        while not r.final_turn and not r.is_over:  # greedy play until someone goes out
            if r.phase is Phase.DRAW:
                r.apply_action(ACTION_DRAW_DECK)
                continue
            dead, t = best_discard_choice(hand_counts(r.hand(r.current_player)), r.wild)
            r.discard(Card.from_index(t), go_out=dead == 0)
        if r.is_over:
            continue
        r.apply_action(ACTION_DRAW_DECK)
        player = r.current_player
        held = r.hand(player)
        worst = max(set(held), key=lambda c: deadwood(without(held, c), r.wild))
        kept = deadwood(without(held, worst), r.wild)
        differed += kept != best_discard(held, r.wild).deadwood
        r.discard(worst)
        assert r.result is not None and r.result.scores[player] == kept
        assert list(r.result.final_hands[player]) == sorted(without(held, worst))
    assert differed > 0  # the worst discard really was worse in some of these rounds


def test_final_turn_example_of_the_rules() -> None:
    # docs/rules.rst, A round, 4: seat 0 takes 6T and goes out throwing JT (3S 6T JK:
    # a joker and a 3 are wild); seat 1 draws 8S and throws its joker, keeping JC 8S 8T.
    r = Round(2, 1, seed=16, dealer=1)
    assert r.hand(0) == tuple(parse_cards("3S JT JK"))
    assert r.hand(1) == tuple(parse_cards("JC 8T JK"))
    r.draw("discard")
    r.discard("JT", go_out=True)
    assert r.draw("deck").card == Card.parse("8S")
    rec = r.discard("JK")
    assert rec.round_over and rec.result is r.result and r.result is not None
    assert r.result.scores == (0, 27)   # JC 8S 8T: 11 + 8 + 8, not the best discard's 0
    assert r.result.final_hands[1] == tuple(parse_cards("JC 8S 8T"))


def test_every_score_is_the_deadwood_of_the_final_hand() -> None:
    for seed in range(30):
        rules = Rules(max_turns=5 + seed)
        r = Round(3, 1 + seed % 11, seed=seed, rules=rules)
        rng = np.random.default_rng(seed)
        while not r.is_over:
            acts = r.legal_actions()
            rec = r.apply_action(acts[int(rng.integers(len(acts)))])
        assert isinstance(rec, DiscardRecord) and rec.result is r.result
        res = r.result
        assert res is not None
        for p in range(3):
            assert res.scores[p] == deadwood(list(res.final_hands[p]), r.wild)


# -- a card just taken from the discard pile --

def test_the_card_just_taken_may_not_be_thrown_back() -> None:
    r = Round(2, 1, seed=2)
    r.draw("discard")   # seat 1 takes 6D
    assert not r.can_discard("6D")
    with pytest.raises(IllegalMoveError, match="cannot discard 6D: it was just taken from "
                                               "the discard pile"):
        r.verify_discard("6D")
    mask = r.legal_action_mask()
    six = Card.parse("6D").index
    assert not mask[ACTION_DISCARD + six] and not mask[ACTION_GO_OUT + six]
    assert ACTION_DISCARD + six not in r.legal_actions()
    assert r.observation(1).must_keep == Card.parse("6D")
    assert r.observation(0).must_keep is None
    r.discard("KH")
    r.draw("discard")   # seat 0 takes KH back: the next turn may throw it
    r.discard("7D")
    r.draw("deck")
    assert r.can_discard("6D")   # a later turn may throw it


def test_return_discard_allows_it() -> None:
    r = Round(2, 1, seed=2, rules=Rules(return_discard=True))
    r.draw("discard")
    assert r.can_discard("6D") and r.observation(1).must_keep is None
    assert r.observation(1).return_discard
    r.discard("6D")
    assert r.deck.top_discard == Card.parse("6D")


def test_a_hand_of_one_card_type_may_throw_it_back() -> None:
    # nothing else to discard: the rule cannot apply
    r = Round(2, hand_size=1, wild=3, seed=9)
    hand = r.hand(r.current_player)[0]
    assert r.deck.top_discard == hand == Card.parse("8D")   # seat 1 holds 8D, 8D turned up
    r.draw("discard")
    assert r.can_discard(hand) and r.observation(r.current_player).must_keep is None


def test_copy_gives_an_independent_round() -> None:
    import copy

    r = Round(3, 2, seed=8)
    for c in (copy.copy(r), copy.deepcopy(r)):
        assert snapshot(c) == snapshot(r)
        c.apply_action(c.legal_actions()[0])
        assert snapshot(c) != snapshot(r)
        assert c._state is not r._state and c.deck.rng is not r.deck.rng


def _eager_counts(r: Round, p: int) -> tuple[list[int], list[list[int]], list[int]]:
    """The tracked counts of ``r.observation(p)``, read from the round's state now."""
    st = r._state
    return (st.pile_counts().tolist(), st.taken_counts().tolist(), st.unseen(p).tolist())


@pytest.mark.parametrize("seed", range(4))
def test_tracked_counts_are_those_of_the_moment(seed: int) -> None:
    """Observation.discard_counts, taken_counts and unseen_counts are made when first
    read: along played rounds (with takes and reshuffles), read many moves later, a
    pickle or copy of an observation never read, they equal the counts of the moment
    the observation was made, with the same types and read-only (numpy's unpickling
    and copies give writeable arrays, of every field, as they always did)."""
    import copy

    pick = np.random.default_rng(seed)
    r = Round(4, 1 + seed, seed=seed, rules=Rules(max_turns=300))
    kept: list[tuple[Any, tuple[list[int], list[list[int]], list[int]]]] = []
    reshuffled = False
    while not r.is_over:
        p = int(pick.integers(r.n_players))
        kept.append((r.observation(p), _eager_counts(r, p)))
        # take the top discard half the time; never go out, so that the deck runs out
        acts = [a for a in r.legal_actions() if a < ACTION_GO_OUT]
        rec = r.apply_action(acts[int(pick.integers(len(acts)))])
        reshuffled |= getattr(rec, "reshuffled", False)
    assert reshuffled and any(any(map(any, want[1])) for _, want in kept)
    for i, (obs, want) in enumerate(kept):
        copied = i % 3 == 1
        if copied:   # an observation pickled or copied before any field was read
            assert "discard_counts" not in vars(obs)
            obs = pickle.loads(pickle.dumps(obs)) if i % 2 else copy.deepcopy(obs)
            assert "_tracked" not in vars(obs)
        pile, taken, unseen = obs.discard_counts, obs.taken_counts, obs.unseen_counts
        assert (pile.tolist(), [row.tolist() for row in taken], unseen.tolist()) == want
        assert isinstance(taken, tuple) and len(taken) == r.n_players
        for row in (pile, unseen, *taken):
            assert isinstance(row, np.ndarray) and row.dtype == np.uint8
            assert row.shape == (56,) and row.flags.writeable == copied
        assert obs.unseen_counts is unseen   # made once
    obs = r.observation(0)
    with pytest.raises(AttributeError):
        obs.discard_counts = obs.discard_counts   # type: ignore[misc]  # frozen as before


def test_public_state_survives_pickle_read_only() -> None:
    r = Round(3, 2, seed=8)
    r.draw("discard")
    obs = r.observation(0)
    s = pickle.loads(pickle.dumps(r))
    again = s.observation(0)
    assert again.discard_counts.tolist() == obs.discard_counts.tolist()
    assert not again.discard_counts.flags.writeable
    assert not again.taken_counts[0].flags.writeable
    assert s._state.n_pile == 0 and s._state.taken_counts().sum(axis=1).tolist() == [0, 1, 0]
