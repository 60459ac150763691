"""Bots: legal play over many seeded games, their documented behaviour, BotError, and the
play_game / tournament helpers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivecrowns.solver
from fivecrowns import BotError, Rules, best_discard
from fivecrowns.bots import (
    GreedyBot,
    RandomBot,
    StrongBot,
    best_discard_choice,
    discard_order,
    picked_up,
    unseen_counts,
)
from fivecrowns.cards import Card
from fivecrowns.deck import full_counts
from fivecrowns.game import Game
from fivecrowns.players import Player, game_seeds, play_game, tournament
from fivecrowns.round import Observation, Round, Source

DECK = np.array([t for t in range(55) for _ in range(2)] + [55] * 6)


@st.composite
def hands(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    n = draw(st.integers(2, 9))
    seed = draw(st.integers(0, 2**32))
    cards = np.random.default_rng(seed).choice(DECK, n, replace=False)
    return np.bincount(cards, minlength=56).astype(np.uint8), draw(st.integers(3, 13))


@settings(deadline=None)
@given(hands(), st.booleans())
def test_best_discard_choice_matches_best_discard(hw: tuple[np.ndarray, int],
                                                  batched: bool) -> None:
    row, wild = hw
    want = best_discard(row, wild)
    with pytest.MonkeyPatch.context() as mp:
        if batched:  # the compiled-core path: one deadwood_many call
            mp.setattr(fivecrowns.solver, "IMPLEMENTATION", "compiled")
        got = best_discard_choice(row, wild)
    assert got == (want.deadwood, want.card.index)
    assert set(discard_order(row, wild)) <= set(np.flatnonzero(row).tolist())


def test_bots_are_players() -> None:
    for bot in (RandomBot(1), GreedyBot(), StrongBot()):
        assert isinstance(bot, Player)
    with pytest.raises(TypeError, match="seed is required"):
        RandomBot(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(6))
def test_random_and_greedy_bots_play_legally(seed: int) -> None:
    rules = Rules(max_turns=60, tie_break=True, decks=4 if seed == 5 else 2)
    n = 2 + seed % 4
    bots = [RandomBot(seed * 10 + i) if i % 2 else GreedyBot() for i in range(n)]
    res = play_game(bots, seed=seed, rules=rules, rounds=[1 + seed % 3, 3, 4])
    assert len(res.rounds) == 3
    assert Game.replay(res.record).result == res


@pytest.mark.parametrize("seed", range(3))
def test_strong_bot_plays_legally(seed: int) -> None:
    bots = [StrongBot(), GreedyBot(), StrongBot(lookahead=0)]
    res = play_game(bots, seed=seed, rounds=[1, 2], rules=Rules(tie_break=True))
    assert Game.replay(res.record).result == res


def test_random_bot_is_reproducible() -> None:
    a = play_game([RandomBot(1), RandomBot(2)], seed=3, rounds=[2], rules=Rules(max_turns=30))
    b = play_game([RandomBot(1), RandomBot(2)], seed=3, rounds=[2], rules=Rules(max_turns=30))
    assert a == b


def observe(r: Round) -> Observation:
    return r.observation(r.current_player)


def test_greedy_takes_the_discard_only_when_it_helps() -> None:
    # seed 2, round 1: seat 1 holds 7D KH 9T (29) and 6D is turned up: taking it and
    # throwing KH leaves 6D 7D 9T (22), lower, so it takes it.
    r = Round(2, 1, seed=2)
    bot = GreedyBot()
    assert bot.choose_draw(observe(r)) is Source.DISCARD   # 7D KH 9T = 29; 6D 7D 9T = 22
    r.draw("discard")
    card, out = bot.choose_discard(observe(r))
    assert card == Card.parse("KH") and not out
    r.discard(card)
    # seat 0: 7D 6S 8T = 21; KH on the pile would not lower it
    assert GreedyBot().choose_draw(observe(r)) is Source.DECK


def test_greedy_goes_out_when_it_can() -> None:
    r = Round(2, 1, seed=0)   # seat 0 draws 9S on the second turn: 6D 9H 9S 9S
    r.draw("deck")
    r.discard("QD")
    r.draw("deck")
    assert GreedyBot().choose_discard(observe(r)) == (Card.parse("6D"), True)


def test_strong_bot_keeps_wilds_and_goes_out() -> None:
    r = Round(2, 1, seed=2)
    for move in ("discard", "KH", "deck", "QS", "deck", "10D", "deck", "JT", "deck", "JS",
                 "deck", "JC", "deck"):
        if move in ("deck", "discard"):
            r.draw(move)
        else:
            r.discard(move)
    # seat 1: 6D 7D 9T JK: the joker completes a run, so it goes out throwing 9T
    assert StrongBot().choose_discard(observe(r)) == (Card.parse("9T"), True)


def test_strong_bot_knowledge_helpers() -> None:
    r = Round(2, 1, seed=2)
    r.draw("discard")   # seat 1 takes 6D
    r.discard("KH")
    obs = r.observation(0)
    known = picked_up(obs)
    assert known[1][Card.parse("6D").index] == 1 and known[0].sum() == 0
    unseen = unseen_counts(obs)
    full = full_counts(Rules()).astype(int)
    assert unseen.sum() == full.sum() - 3 - 1 - 1  # own hand, KH on the pile, 6D with seat 1
    assert unseen[Card.parse("KH").index] == 1 and unseen[Card.parse("6D").index] == 1


# -- misbehaving bots --

class Raiser:
    def choose_draw(self, obs: Observation) -> Source:
        raise RuntimeError("boom")

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        raise RuntimeError("boom")


class Cheater(GreedyBot):
    """Goes out whatever its hand."""

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        card, _ = super().choose_discard(obs)
        return card, True


class Phantom(GreedyBot):
    """Discards a card it does not hold."""

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        missing = int(np.flatnonzero(obs.counts == 0)[0])
        return Card.from_index(missing), False


class Sloppy(GreedyBot):
    def choose_discard(self, obs: Observation) -> Card:  # type: ignore[override]
        return super().choose_discard(obs)[0]


@pytest.mark.parametrize("bot, match", [
    (Raiser(), r"seed 77, round 1, turn 1, seat 1 \(Raiser\) raised RuntimeError: boom"),
    (Cheater(), r"seed 77, round 1, .* made an illegal move .*cannot go out discarding"),
    (Phantom(), r"seed 77, round 1, .* made an illegal move .*not in their hand"),
    (Sloppy(), r"seed 77, .* choose_discard must return \(card, go_out\)"),
])
def test_bot_errors_name_the_seed(bot: Player, match: str) -> None:
    with pytest.raises(BotError, match=match):
        play_game([GreedyBot(), bot], seed=77, rounds=[1, 2])


def test_play_game_rejects_non_players() -> None:
    with pytest.raises(TypeError, match="is not a Player"):
        play_game([GreedyBot(), object()], seed=1)  # type: ignore[list-item]


# -- tournaments --

def test_tournament_is_reproducible_and_rotates_seats() -> None:
    kw = dict(games=6, seed=5, rounds=[1, 2], rules=Rules(max_turns=40))
    a = tournament([GreedyBot, RandomBot, GreedyBot], **kw)  # type: ignore[arg-type]
    b = tournament([GreedyBot, RandomBot, GreedyBot], **kw)  # type: ignore[arg-type]
    assert a.scores.tolist() == b.scores.tolist() and a.seeds == tuple(game_seeds(5, 6))
    assert a.wins.sum() == pytest.approx(6.0)  # one victory per game, shared or not
    for e in a.entrants:
        assert e.games == 6
        assert e.win_ci[0] <= e.win_rate <= e.win_ci[1]
        assert e.score_ci[0] <= e.mean_score <= e.score_ci[1]
    assert [e.name for e in a.entrants] == ["GreedyBot", "RandomBot", "GreedyBot"]
    assert "win rate" in a.table()


def test_tournament_seats_rotate() -> None:
    # game g seats entrant (s + g) % k at seat s, so entrant e sits at seat (e - g) % k
    t = tournament([GreedyBot] * 3, games=3, seed=2, rounds=[1])
    for g, seed in enumerate(t.seeds):
        totals = play_game([GreedyBot()] * 3, seed=seed, rounds=[1]).totals
        assert t.scores[g].tolist() == [totals[(e - g) % 3] for e in range(3)]


def test_tournament_jobs_give_the_same_numbers() -> None:
    kw = dict(games=4, seed=1, rounds=[1], rules=Rules(max_turns=30))
    seen: list[int] = []
    one = tournament([GreedyBot, RandomBot], progress=seen.append, **kw)  # type: ignore[arg-type]
    two = tournament([GreedyBot, RandomBot], jobs=2, **kw)  # type: ignore[arg-type]
    assert one.scores.tolist() == two.scores.tolist() and sum(seen) == 4


def test_tournament_validation() -> None:
    with pytest.raises(ValueError, match="2 to 7 entrants"):
        tournament([GreedyBot], games=1, seed=0)
    with pytest.raises(ValueError, match="games must be a positive int"):
        tournament([GreedyBot, GreedyBot], games=0, seed=0)
    with pytest.raises(ValueError, match="names has 1 entries"):
        tournament([GreedyBot, GreedyBot], games=1, seed=0, names=["a"])



def test_strong_bot_does_not_feed_the_next_player() -> None:
    r = Round(2, 1, seed=2)
    r.draw("discard")   # seat 1 takes 6D: it collects 6s or diamonds around 6
    r.discard("KH")
    r.draw("deck")      # seat 0: 7D 6S 8T and QS; seat 1 plays next
    obs = observe(r)
    bot = StrongBot()
    order = [Card.parse(c).index for c in ("QS", "8T", "7D", "6S")]
    pen = dict(zip(("QS", "8T", "7D", "6S"), bot._penalties(obs, order).tolist()))
    assert pen["QS"] == pen["8T"] == 0
    assert pen["7D"] == StrongBot.FEED_RUN_PENALTY
    assert pen["6S"] == StrongBot.FEED_RANK_PENALTY
    wild = Card.parse("3C").index
    assert bot._penalties(obs, [wild])[0] == StrongBot.WILD_PENALTY
