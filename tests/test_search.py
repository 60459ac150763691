"""SearchBot and play_out (fivecrowns.search)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fivecrowns
from fivecrowns import (
    GreedyBot,
    Phase,
    Player,
    Round,
    Rules,
    SearchBot,
    StrongBot,
    play_game,
    simulate_games,
)
from fivecrowns.search import _python_play_out, play_out


def _bot_scores(r: Round, bot: type[GreedyBot] | type[StrongBot] = GreedyBot
                ) -> tuple[int, ...]:
    """The round played to its end by ``bot`` in every seat, through the public moves."""
    r = r.clone()
    bots = [bot() for _ in range(r.n_players)]
    while not r.is_over:
        p = r.current_player
        obs = r.observation(p)
        if r.phase is Phase.DRAW:
            r.draw(bots[p].choose_draw(obs))
        else:
            r.discard(*bots[p].choose_discard(obs))
    assert r.result is not None
    return r.result.scores


def test_play_out_plays_greedy_and_leaves_the_rounds_alone() -> None:
    rounds = [Round(n, round_number=k, seed=k) for n in (2, 3) for k in (1, 6, 11)]
    for n in (2, 3):
        batch = [r for r in rounds if r.n_players == n]
        turns = [r.turn for r in batch]
        scores = play_out(batch)
        assert scores.dtype == np.int32 and scores.shape == (3, n)
        assert [r.turn for r in batch] == turns
        assert [tuple(s) for s in scores.tolist()] == [_bot_scores(r) for r in batch]


@pytest.mark.parametrize("run", [play_out, _python_play_out], ids=["play_out", "python"])
def test_play_out_checks_its_input(run: Any) -> None:
    with pytest.raises(ValueError, match="players"):
        run([Round(2, round_number=1, seed=0), Round(3, round_number=1, seed=0)],
            policy="greedy")
    with pytest.raises(ValueError, match="greedy"):
        run([Round(2, round_number=1, seed=0)], policy="perfect")


def test_python_twin_plays_as_the_bots() -> None:
    rounds = [Round(3, round_number=k, seed=k) for k in (2, 7)]
    assert [tuple(s) for s in _python_play_out(rounds, "strong").tolist()] == [
        _bot_scores(r, StrongBot) for r in rounds]


def test_play_out_strong_policy() -> None:
    r = Round(3, round_number=4, seed=2)
    scores = play_out([r], policy="strong")
    assert tuple(scores[0].tolist()) == _bot_scores(r, StrongBot)
    bot = SearchBot(seed=0, budget=4, policy="strong")
    assert bot.choose_draw(r.observation(r.current_player)).name in ("DECK", "DISCARD")


def test_search_bot_is_a_player_exported_at_top_level() -> None:
    assert fivecrowns.SearchBot is SearchBot
    assert isinstance(SearchBot(seed=0), Player)
    assert "SearchBot" in fivecrowns.__all__


@pytest.mark.parametrize("kwargs, error", [
    ({"budget": 0}, ValueError), ({"budget": 2.5}, TypeError),
    ({"candidates": 0}, ValueError), ({"objective": "win"}, ValueError),
    ({"time_limit": 0}, ValueError),
])
def test_search_bot_checks_its_arguments(kwargs: dict[str, object],
                                         error: type[Exception]) -> None:
    with pytest.raises(error):
        SearchBot(seed=0, **kwargs)  # type: ignore[arg-type]


def _moves(seed: int, budget: int, rounds: list[int]) -> list[str]:
    res = play_game([SearchBot(seed=seed, budget=budget), StrongBot(), GreedyBot()],
                    seed=11, rounds=rounds)
    return [str(m) for m in res.record.to_dict()["rounds"]]


def test_search_bot_is_seed_deterministic() -> None:
    a = _moves(3, 12, [2, 5])
    assert a == _moves(3, 12, [2, 5])


def test_search_bot_moves_are_legal_and_it_goes_out_when_it_can() -> None:
    rng = np.random.default_rng(4)
    checked_out = 0
    for g in range(6):
        n = int(rng.integers(2, 5))
        rules = Rules(return_discard=bool(g % 2))
        r = Round(n, round_number=int(rng.integers(1, 12)), seed=g, rules=rules)
        bots: list[object] = [SearchBot(seed=g + q, budget=8) for q in range(n)]
        while not r.is_over:
            p = r.current_player
            obs = r.observation(p)
            bot = bots[p]
            if r.phase is Phase.DRAW:
                source = bot.choose_draw(obs)  # type: ignore[attr-defined]
                r.verify_draw(source)
                r.draw(source)
            else:
                card, out = bot.choose_discard(obs)  # type: ignore[attr-defined]
                r.verify_discard(card, out)
                could = any(a >= 58 for a in r.legal_actions())
                assert out == could, "goes out exactly when it can"
                checked_out += could
                r.discard(card, out)
    assert checked_out


def test_search_bot_takes_the_discard_that_goes_out() -> None:
    # player 1 holds 5C 6C JD; the top discard 7C completes the run: take it, go out
    from fivecrowns import hand_counts
    from fivecrowns.deck import full_counts
    hands = ["3D 9S QH", "5C 6C JD"]
    rest = full_counts(Rules()).astype(np.int64) - hand_counts(
        "3D 9S QH 5C 6C JD 7C").astype(np.int64)
    draw = [t for t in range(56) for _ in range(rest[t])]
    r = Round.from_state(hands, draw, ["7C"], current_player=1, round_number=1, seed=0)
    bot = SearchBot(seed=0, budget=4)
    assert bot.choose_draw(r.observation(1)).name == "DISCARD"
    r.draw("discard")
    card, out = bot.choose_discard(r.observation(1))
    assert out and str(card) == "JD"


def test_search_bot_with_a_time_limit() -> None:
    r = Round(4, round_number=11, seed=1)
    bot = SearchBot(seed=0, budget=10_000, time_limit=0.02)
    assert bot.choose_draw(r.observation(r.current_player)).name in ("DECK", "DISCARD")


def test_search_bot_plays_whole_games() -> None:
    res = play_game([SearchBot(seed=1, budget=6), StrongBot(), GreedyBot()], seed=2)
    assert len(res.rounds) == 11


def test_search_bot_in_simulate_games_with_two_jobs() -> None:
    report = simulate_games([SearchBot, GreedyBot], 2, seed=0, jobs=2, rounds=[1, 7])
    again = simulate_games([SearchBot, GreedyBot], 2, seed=0, jobs=1, rounds=[1, 7])
    assert report.scores.shape == (2, 2)
    assert (report.scores == again.scores).all()


def test_search_bot_in_a_sudden_death_round() -> None:
    r = Round(3, hand_size=6, wild=6, seed=5, sudden_death=True, totals=(40, 40, 40))
    bots = [SearchBot(seed=q, budget=6) for q in range(3)]
    while not r.is_over:
        p = r.current_player
        obs = r.observation(p)
        if r.phase is Phase.DRAW:
            r.draw(bots[p].choose_draw(obs))
        else:
            r.discard(*bots[p].choose_discard(obs))
    assert r.result is not None and r.result.went_out is not None
