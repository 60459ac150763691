"""ExpertBot: legal play, and its two rules checked against a slow reference written from
the policy's statement (expectations over explicit card copies, as exact fractions)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import fivecrowns
from fivecrowns import Rules, best_discard, deadwood, play_game
from fivecrowns.actions import Source
from fivecrowns.bots import GreedyBot, StrongBot
from fivecrowns.cards import Card
from fivecrowns.expert import ExpertBot
from fivecrowns.game import Game
from fivecrowns.outs import discard_order
from fivecrowns.players import Player
from fivecrowns.records import Observation, Phase
from fivecrowns.round import Round
from helpers.engines import ON_TWINS, sized, slow_on_twins
from helpers.playing import bot_move


def test_expert_bot_is_a_player_and_exported() -> None:
    assert isinstance(ExpertBot(), Player)
    assert fivecrowns.ExpertBot is ExpertBot
    assert "ExpertBot" in fivecrowns.__all__
    assert repr(ExpertBot()) == "ExpertBot()"


@slow_on_twins  # ExpertBot: a minute a round on the pure-Python solver
@pytest.mark.parametrize("seed", range(4))
def test_expert_bot_plays_legally(seed: int) -> None:
    rules = Rules(tie_break=True, return_discard=bool(seed % 2),
                  decks=4 if seed == 3 else 2)
    n = 2 + seed
    bots = [ExpertBot() if i % 2 == 0 else StrongBot() for i in range(n)]
    bots[-1] = GreedyBot()
    res = play_game(bots, seed=seed, rules=rules, rounds=sized([1 + seed, 5, 11], [1 + seed]))
    assert Game.replay(res.record).result == res


@slow_on_twins
def test_expert_bot_is_deterministic() -> None:
    rounds = sized([4, 8], [2])
    a = play_game([ExpertBot(), StrongBot()], seed=9, rounds=rounds)
    b = play_game([ExpertBot(), StrongBot()], seed=9, rounds=rounds)
    assert a == b


# -- the reference: the policy's statement computed over card copies ---------------------

def _copies(unseen: np.ndarray) -> list[int]:
    return [t for t in range(56) for _ in range(int(unseen[t]))]


def _best_discard_after(row: np.ndarray, card: int, wild: int, decks: int) -> int:
    hand = row.copy()
    hand[card] += 1
    return best_discard(hand, wild, decks=decks).deadwood


def _one_draw(row: np.ndarray, obs: Observation) -> Fraction:
    """The mean best-discard deadwood after drawing one unseen copy."""
    cards = _copies(obs.unseen_counts)
    return Fraction(sum(_best_discard_after(row, c, obs.wild, obs.decks) for c in cards),
                    len(cards))


def _out_chance(row: np.ndarray, obs: Observation) -> Fraction:
    """The chance that one unseen copy drawn lets the hand go out."""
    cards = _copies(obs.unseen_counts)
    return Fraction(sum(_best_discard_after(row, c, obs.wild, obs.decks) == 0
                        for c in cards), len(cards))


def _two_draws(row: np.ndarray, obs: Observation) -> tuple[Fraction, Fraction]:
    """Over ordered pairs of distinct unseen copies (draw the first, make the best
    discard, draw the second): the mean best-discard deadwood, and the share of pairs
    after which the hand can go out."""
    cards = _copies(obs.unseen_counts)
    total, outs, pairs = 0, 0, 0
    after_first: dict[int, np.ndarray] = {}
    memo: dict[tuple[bytes, int], int] = {}
    for i, c1 in enumerate(cards):
        if c1 not in after_first:
            hand = row.copy()
            hand[c1] += 1
            hand[best_discard(hand, obs.wild, decks=obs.decks).card.index] -= 1
            after_first[c1] = hand
        hand = after_first[c1]
        for j, c2 in enumerate(cards):
            if i == j:
                continue
            key = (hand.tobytes(), c2)
            if key not in memo:
                memo[key] = _best_discard_after(hand, c2, obs.wild, obs.decks)
            total += memo[key]
            outs += memo[key] == 0
            pairs += 1
    return Fraction(total, pairs), Fraction(outs, pairs)


def _reference_draw(obs: Observation) -> Source | None:
    """The draw the statement prescribes, or None where a shortcut decides."""
    top = obs.top_discard
    if top is None or top.is_wild(obs.wild) or obs.draw_size == 0:
        return None
    row = np.array(obs.counts, dtype=np.uint8)
    row[top.index] += 1
    choices = [(deadwood(_less(row, t), obs.wild, decks=obs.decks), t)
               for t in discard_order(row, obs.wild)
               if obs.return_discard or t != top.index]
    taken, t = min(choices, key=lambda c: c[0])  # the first best in discard_order
    if taken == 0:
        return None
    plan_a = _less(row, t)
    now = np.array(obs.counts, dtype=np.uint8)
    if obs.final_turn:
        return Source.DISCARD if taken < _one_draw(now, obs) else Source.DECK
    bonus = ExpertBot.OUT_BONUS
    mean, chance = _two_draws(now, obs)
    take = _one_draw(plan_a, obs) - bonus * _out_chance(plan_a, obs) < mean - bonus * chance
    return Source.DISCARD if take else Source.DECK


def _less(row: np.ndarray, t: int) -> np.ndarray:
    out = row.copy()
    out[t] -= 1
    return out


def _positions(phase: Phase, count: int) -> list[Observation]:
    """Observations of the seat to move in ``phase``, from rounds of two to four players
    played by StrongBots (late in small rounds, so the unseen cards are few enough to
    enumerate pairs)."""
    found = []
    rng = np.random.default_rng(11)
    seed = 0
    while len(found) < count:
        seed += 1
        players = 2 + seed % 3
        r = Round(players, 1 + seed % 4, seed=seed,
                  rules=Rules(return_discard=bool(seed % 2)))
        bots = [StrongBot()] * players
        for _ in range(int(rng.integers(0, 30))):
            if r.is_over:
                break
            bot_move(r, bots)
        if not r.is_over and r.phase is phase:
            found.append(r.observation(r.current_player))
    return found


def test_the_draw_is_the_two_draw_comparison() -> None:
    checked = took = 0
    for obs in _positions(Phase.DRAW, 40):
        want = _reference_draw(obs)
        if want is None:
            continue
        assert ExpertBot().choose_draw(obs) is want, obs
        checked += 1
        took += want is Source.DISCARD
    assert checked >= 20 and 0 < took < checked


def _fixed_point(points: Fraction) -> int:
    """A score as ExpertBot keeps it: in units of 2**-20 points, rounded down."""
    return math.floor(points * 2**20)


@pytest.mark.slow
def test_the_discard_is_the_best_look_ahead_score() -> None:
    checked = differs = 0
    bonus = ExpertBot.OUT_BONUS
    # The reference enumerates every pair of unseen copies: 7 s a position on the
    # pure-Python solver, where a dozen positions check ExpertBot's own Python code on it
    # (the first position the two-draw scores decide is the 63rd).
    for obs in _positions(Phase.DISCARD, sized(150, 12)):
        row = np.array(obs.counts, dtype=np.uint8)
        kept = -1 if obs.must_keep is None else obs.must_keep.index
        order = [t for t in discard_order(row, obs.wild) if t != kept]
        if obs.final_turn or len(order) < 2 \
                or min(deadwood(_less(row, t), obs.wild) for t in order) == 0:
            continue
        pen = ExpertBot()._penalties(obs, order)
        one = [_fixed_point(_one_draw(_less(row, t), obs)
                            - bonus * _out_chance(_less(row, t), obs)
                            + Fraction(pen[k], 4)) for k, t in enumerate(order)]
        looked = sorted(range(len(order)), key=lambda k: (one[k], k))
        looked = looked[:ExpertBot.LOOKED_AHEAD]
        mixed = {}
        for k in looked:
            mean, chance = _two_draws(_less(row, order[k]), obs)
            two = _fixed_point(mean - bonus * chance + Fraction(pen[k], 4))
            mixed[k] = (obs.n_players - 1) * one[k] + two
        want = order[min(mixed, key=lambda k: (mixed[k], k))]
        assert ExpertBot().choose_discard(obs) == (Card.from_index(want), False)
        checked += 1
        differs += want != order[min(range(len(order)), key=lambda k: (one[k], k))]
    # some positions are decided by the two-draw scores, not the one-draw ones alone
    assert checked >= sized(20, 6) and (differs > 0 or ON_TWINS)


@slow_on_twins
def test_wilds_and_going_out() -> None:
    # a wild on the pile is always taken; a hand that can go out goes out
    r = Round(2, 1, seed=2)
    for move in ("discard", "KH", "deck", "QS", "deck", "10D", "deck", "JT", "deck", "JS",
                 "deck", "JC", "deck"):
        if move in ("deck", "discard"):
            r.draw(move)
        else:
            r.discard(move)
    obs = r.observation(r.current_player)
    assert ExpertBot().choose_discard(obs) == (Card.parse("9T"), True)
    played = 0
    # ExpertBot's rounds up to the eleventh: minutes each on the pure-Python solver, where
    # the first five (three to seven cards) check the same rules
    for seed in range(sized(30, 5)):
        r = Round(3, 1 + seed % 11, seed=seed)
        bots = [ExpertBot()] * 3
        while not r.is_over:
            obs = r.observation(r.current_player)
            if r.phase is Phase.DRAW and obs.top_discard is not None \
                    and obs.top_discard.is_wild(obs.wild) and obs.draw_size > 0:
                assert ExpertBot().choose_draw(obs) is Source.DISCARD
                played += 1
            if r.phase is Phase.DISCARD:
                row = np.array(obs.counts, dtype=np.uint8)
                kept = -1 if obs.must_keep is None else obs.must_keep.index
                can_out = any(deadwood(_less(row, t), obs.wild) == 0
                              for t in np.flatnonzero(row).tolist() if t != kept)
                card, out = ExpertBot().choose_discard(obs)
                assert out == can_out
                assert card != obs.must_keep
            bot_move(r, bots)
    assert played > 0
