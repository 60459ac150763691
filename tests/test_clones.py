"""Copies of games, rounds and decks continue exactly as the original (issue 24, 1).

Inside a game the round's deck shuffles with the game's own generator; a copy must keep
the two one generator, or after a reshuffle the copy's next round is dealt differently.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from conftest import need
from copying import GAME_COPIES, ROUND_COPIES, game_state, patient_action, round_state
from fivecrowns import Game, Round, Rules
from fivecrowns.actions import ACTION_GO_OUT, encode_discard, encode_draw
from fivecrowns.bots import RandomBot
from fivecrowns.deck import Deck
from fivecrowns.records import Phase


def bot_move(g: Game, bots: list[RandomBot]) -> int:
    """The current seat's bot chooses a move, which is made; returns its action code."""
    seat = g.current_player
    obs = g.observation(seat)
    if g.phase is Phase.DRAW:
        action = encode_draw(bots[seat].choose_draw(obs))
    else:
        card, out = bots[seat].choose_discard(obs)
        action = encode_discard(card, go_out=out)
    g.apply_action(action)
    return action


def test_issue_24_a_clone_mid_game_plays_on_like_the_original() -> None:
    """The issue's case: four RandomBots, ``Rules(max_turns=300)``, 150 moves, then
    every kind of copy with deep copies of the bots: the same moves to the end, the same
    rounds, the same result (before the fix the clone's round 2 was dealt from a game
    generator that had not seen round 1's reshuffle)."""
    g = Game(4, seed=3, rules=Rules(max_turns=300))
    bots = [RandomBot(seed=12 + i) for i in range(4)]
    for _ in range(150):
        bot_move(g, bots)
    copies = {name: make(g) for name, make in GAME_COPIES.items()}
    their_bots = {name: copy.deepcopy(bots) for name in copies}
    rounds = g.round_index
    copied, reshuffles = g.round, g.round.deck.reshuffles
    while not g.is_over:
        action = bot_move(g, bots)
        for name, c in copies.items():
            assert bot_move(c, their_bots[name]) == action, name
        if g.round_index != rounds or g.is_over:
            rounds = g.round_index
            for name, c in copies.items():
                assert game_state(c) == game_state(g), (name, rounds)
    # the case of the bug: the round copied reshuffled its deck after the copy
    assert copied.result is not None and copied.result.reshuffles > reshuffles
    for c in copies.values():
        assert c.result == g.result
    assert g.result is not None and Game.replay(g.record()).result == g.result


# 2 to 7 players with 2 decks, 2 to 9 with 4 (party mode).
SWEEP = [(n, 2) for n in range(2, 8)] + [(n, 4) for n in range(2, 10)]


@pytest.mark.parametrize(("n", "decks"), SWEEP)
def test_copies_continue_like_the_original_through_reshuffles(n: int, decks: int) -> None:
    """Copies of every kind taken at the start, mid-round and at the next round's deal,
    then the same moves: rounds long enough to reshuffle, going out only after the
    first reshuffle (so the final turns are played too), and a second round dealt after
    them. Every copy's state equals the original's at every round's end."""
    rules = Rules(decks=decks, max_turns=300 * decks // 2, tie_break=True)
    g = Game(n, seed=100 * n + decks, rules=rules, rounds=[1, 2], first_dealer=n - 1)
    rng = np.random.default_rng([n, decks])
    copies: list[tuple[str, Game]] = []
    moves = 0
    rounds = 0
    while not g.is_over:
        if moves in (0, 7 * n) or (g.round_index != rounds and not g.is_over):
            copies += [(f"{name}@{moves}", make(g)) for name, make in GAME_COPIES.items()]
        rounds = g.round_index
        action = patient_action(g.legal_actions(), rng,
                                go_out=g.round.deck.reshuffles > 0 and rng.random() < 0.5)
        g.apply_action(action)
        moves += 1
        for name, c in copies:
            c.apply_action(action)
            assert (c.current_player, c.phase) == (g.current_player, g.phase), name
        if g.round_index != rounds or g.is_over:
            want = game_state(g)
            for name, c in copies:
                assert game_state(c) == want, (name, g.round_index)
    assert g.results[0].reshuffles > 0   # after the first copies were taken
    assert len(copies) == 3 * len(GAME_COPIES)
    for name, c in copies:
        assert c.result == g.result, name


def test_a_deep_copy_keeps_a_generator_shared_with_a_round() -> None:
    """Objects copied together keep their sharing: a round dealt from a caller's
    generator, a game's round, a deck and its generator."""
    rng = np.random.default_rng(5)
    r = Round(2, round_number=1, seed=rng)
    rng2, r2 = copy.deepcopy((rng, r))
    assert r2.deck.rng is rng2 and rng2 is not rng
    rng3, r3 = pickle.loads(pickle.dumps((rng, r)))
    assert r3.deck.rng is rng3
    g = Game(3, seed=1)
    g2, round2 = copy.deepcopy([g, g.round])
    assert round2 is g2.round and g2.round.deck.rng is g2._rng
    for c in (g.clone(), copy.copy(g), pickle.loads(pickle.dumps(g))):
        assert c.round.deck.rng is c._rng and c._rng is not g._rng
    deck = Deck(seed=2)
    d2, gen2 = copy.deepcopy((deck, deck.rng))
    assert d2.rng is gen2


def test_a_round_alone_gets_a_generator_of_its_own() -> None:
    """``Round.clone`` (and copy.copy, copy.deepcopy of the round alone) give the deck
    its own generator in the same state: the original's generator is not advanced by
    the copy's reshuffles, and the copy reshuffles as the original does."""
    g = Game(2, seed=8, rules=Rules(max_turns=500), rounds=[1])
    rng = np.random.default_rng(0)
    copies = {name: make(g.round) for name, make in ROUND_COPIES.items()}
    for c in copies.values():
        assert c.deck.rng is not g._rng
    while not g.is_over:
        action = patient_action(g.legal_actions(), rng, go_out=False)
        g.apply_action(action)
        for c in copies.values():
            c.apply_action(action)
    assert g.result is not None and g.result.rounds[0].reshuffles > 0
    for name, c in copies.items():
        assert round_state(c) == round_state(g.round), name


def test_copy_copy_of_a_deck_is_independent() -> None:
    deck = Deck(seed=4)
    c = copy.copy(deck)
    c.discard(c.draw_index())
    assert deck.draw_size == 116 and deck.discard_size == 0 and c.rng is not deck.rng
    assert c.draw_pile() == deck.draw_pile()[1:]


def test_a_copied_gym_environment_plays_on_like_the_original() -> None:
    """An environment holds a game (and bots): ``copy.deepcopy`` and pickle of it copy
    the game through the same memo, so the copies' next rounds are dealt alike."""
    need("gymnasium")
    from fivecrowns.envs import FiveCrownsEnv

    env = FiveCrownsEnv((RandomBot(1, go_out=0.0), RandomBot(2, go_out=0.0)),
                        rules=Rules(max_turns=300), rounds=[1, 2])
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    copies: list[FiveCrownsEnv] = []
    for step in range(10_000):
        legal = np.flatnonzero(obs["action_mask"])
        if step < 300:   # no going out: the first round reshuffles
            legal = legal[legal < ACTION_GO_OUT]
        if step in (5, 40):
            copies += [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
        action = int(rng.choice(legal))
        obs, *rest = env.step(action)
        for c in copies:
            c_obs, *c_rest = c.step(action)
            assert c_rest[:3] == rest[:3]
            assert all(np.array_equal(c_obs[k], obs[k]) for k in obs), step
        if rest[1] or rest[2]:
            break
    assert env.unwrapped._game.is_over and env.unwrapped._game.results[0].reshuffles > 0
