"""SearchBot and play_out (fivecrowns.search)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

import fivecrowns
from fivecrowns import (
    ExpertBot,
    GreedyBot,
    Phase,
    Player,
    Round,
    Rules,
    SearchBot,
    StrongBot,
    _engine_py,
    play_game,
    rollout,
    simulate_games,
)
from fivecrowns.rollout import play_out
from fivecrowns.search import ROUND_SPREAD, win_chances
from helpers.engines import engine, sized, slow_on_twins
from helpers.playing import play_until

#: Tests that play whole games of SearchBots: seconds on the compiled engine, far too long
#: on its Python twin with the pure-Python solver (FIVECROWNS_IMPLEMENTATION=python).
#: test_search_bot_without_the_compiled_engine plays SearchBot on the twin.
games_of_search = pytest.mark.skipif(
    rollout.ROLLOUT_IMPLEMENTATION == "python",
    reason="whole games of SearchBot take minutes on the rollout engine's Python twin")


def _bot_scores(r: Round,
                bot: type[GreedyBot] | type[StrongBot] | type[ExpertBot] = GreedyBot
                ) -> tuple[int, ...]:
    """The round played to its end by ``bot`` in every seat, through the public moves."""
    r = play_until(r.clone(), [bot() for _ in range(r.n_players)])
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


def _python_play_out(rounds: list[Round], policy: str = "greedy") -> Any:
    return _engine_py.play_out(rounds, policy)


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
    bot = SearchBot(seed=0, worlds=4, policy="strong")
    assert bot.choose_draw(r.observation(r.current_player)).name in ("DECK", "DISCARD")


@slow_on_twins  # ExpertBot's rounds, four times over: a minute or more on the twins
def test_the_expert_policy_in_the_rollouts() -> None:
    # round 8's expert play-out takes minutes on the twin with the pure-Python solver,
    # and there play_out is the Python play-out itself: checked once
    sizes = sized((3, 8), (1, 2))
    rounds = [Round(3, round_number=k, seed=k) for k in sizes]
    want = [_bot_scores(r, ExpertBot) for r in rounds]
    assert [tuple(s) for s in _python_play_out(rounds, "expert").tolist()] == want
    if rollout.ROLLOUT_IMPLEMENTATION == "compiled":
        assert [tuple(s) for s in play_out(rounds, policy="expert").tolist()] == want
    worlds = _engine_py.play_worlds(rounds[0], [0, 1], sized(3, 1), np.random.default_rng(1),
                                    "expert")
    assert worlds.shape == (sized(3, 1), 2, 3)


@pytest.mark.slow
@games_of_search
def test_search_bot_with_the_expert_policy() -> None:
    # its default move is ExpertBot's: with evidence it can never reach, it plays as
    # ExpertBot, move for move
    stubborn = play_game([SearchBot(seed=1, worlds=4, policy="expert", confidence=1e9),
                          StrongBot()], seed=2, rounds=[2, 7])
    assert stubborn.record.to_dict()["rounds"] == play_game(
        [ExpertBot(), StrongBot()], seed=2, rounds=[2, 7]).record.to_dict()["rounds"]
    # searching, it plays legal moves (the game replays) and is seed-deterministic
    bots = [SearchBot(seed=3, worlds=8, policy="expert"), StrongBot(), GreedyBot()]
    res = play_game(bots, seed=4, rounds=[3, 6])
    again = play_game([SearchBot(seed=3, worlds=8, policy="expert"), StrongBot(),
                       GreedyBot()], seed=4, rounds=[3, 6])
    assert res == again
    assert fivecrowns.Game.replay(res.record).result == res
    assert "policy='expert'" in repr(bots[0])


def test_search_bot_is_a_player_exported_at_top_level() -> None:
    assert fivecrowns.SearchBot is SearchBot
    assert isinstance(SearchBot(seed=0), Player)
    assert "SearchBot" in fivecrowns.__all__


@pytest.mark.parametrize("kwargs, error", [
    ({"worlds": 0}, ValueError), ({"worlds": 2.5}, TypeError),
    ({"candidates": -1}, ValueError), ({"objective": "lose"}, ValueError),
    ({"time_limit": 0}, ValueError), ({"policy": "perfect"}, ValueError),
    ({"policy": "random"}, ValueError), ({"confidence": -1}, ValueError),
    ({"confidence": "high"}, ValueError), ({"discard_weight": -1}, ValueError),
    ({"replay_draws": -1}, ValueError), ({"replay_draws": 1.5}, TypeError),
    ({"opponents": "random"}, ValueError), ({"opponents": "perfect"}, ValueError),
    ({"opponents": 2}, TypeError), ({"extra_worlds": -1}, ValueError),
    ({"extra_worlds": 1.5}, TypeError), ({"extra_worlds": 8, "time_limit": 1.0}, ValueError),
])
def test_search_bot_checks_its_arguments(kwargs: dict[str, object],
                                         error: type[Exception]) -> None:
    with pytest.raises(error):
        SearchBot(seed=0, **kwargs)  # type: ignore[arg-type]


def _moves(seed: int, worlds: int, rounds: list[int]) -> list[str]:
    res = play_game([SearchBot(seed=seed, worlds=worlds), StrongBot(), GreedyBot()],
                    seed=11, rounds=rounds)
    return [str(m) for m in res.record.to_dict()["rounds"]]


@games_of_search
def test_search_bot_is_seed_deterministic() -> None:
    a = _moves(3, 12, [2, 5])
    assert a == _moves(3, 12, [2, 5])


@games_of_search
def test_search_bot_moves_are_legal_and_it_goes_out_when_it_can() -> None:
    rng = np.random.default_rng(4)
    checked_out = 0
    for g in range(6):
        n = int(rng.integers(2, 5))
        rules = Rules(return_discard=bool(g % 2))
        r = Round(n, round_number=int(rng.integers(1, 12)), seed=g, rules=rules)
        bots: list[object] = [SearchBot(seed=g + q, worlds=8) for q in range(n)]
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
                r.verify_discard(card, go_out=out)
                could = any(a >= 58 for a in r.legal_actions())
                assert out == could, "goes out exactly when it can"
                checked_out += could
                r.discard(card, go_out=out)
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
    bot = SearchBot(seed=0, worlds=4)
    assert bot.choose_draw(r.observation(1)).name == "DISCARD"
    r.draw("discard")
    card, out = bot.choose_discard(r.observation(1))
    assert out and str(card) == "JD"


@pytest.mark.parametrize("name", ["compiled", "python"])
def test_search_bot_with_a_time_limit_keeps_it(name: str) -> None:
    # On the pure-Python twins one world of this round takes seconds (a first batch of
    # 16 worlds took 49 s for a 0.02 s limit): the limit must cut inside a world there.
    # The bound is loose for a loaded machine; the overrun is one move of the policy.
    r = Round(4, round_number=11, seed=1)
    with engine(name) as ran:
        if not ran:
            pytest.skip("the compiled rollout engine is not built")
        bot = SearchBot(seed=0, worlds=10_000, time_limit=0.05)
        start = time.perf_counter()
        move = bot.choose_draw(r.observation(r.current_player))
        spent = time.perf_counter() - start
    assert move.name in ("DECK", "DISCARD")
    assert spent < 5.0, f"a decision with time_limit=0.05 took {spent:.1f} s"


def test_search_bot_keeps_the_default_when_no_world_ends_in_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    r = Round(2, round_number=5, seed=3)
    obs = r.observation(r.current_player)
    bot = SearchBot(seed=0, worlds=8, time_limit=1.0, confidence=0.0)
    seen = []

    def none_in_time(base: Round, actions: list[int], k: int,
                     deadline: float | None = None) -> np.ndarray:
        seen.append((k, deadline))
        return np.zeros((0, len(actions), base.n_players), dtype=np.int32)
    monkeypatch.setattr(bot, "_worlds", none_in_time)
    assert bot._search(obs, [0, 1, 2]) == 0
    assert len(seen) == 1 and seen[0][0] == 1 and seen[0][1] is not None


def test_play_worlds_stops_at_its_deadline_on_the_python_twin() -> None:
    r = Round(2, round_number=2, seed=4)
    with engine("python"):
        late = rollout._play_worlds(r, [0, 1], worlds=3, seed=2, deadline=time.perf_counter())
        free = rollout.play_worlds(r, [0, 1], worlds=3, seed=2)
        far = rollout._play_worlds(r, [0, 1], worlds=3, seed=2,
                                   deadline=time.perf_counter() + 3600)
    assert late.shape == (0, 2, 2) and late.dtype == free.dtype
    assert free.shape == (3, 2, 2) and (far == free).all()
    with engine("compiled") as ran:   # worlds of microseconds: all of them, deadline or not
        if ran:
            assert rollout._play_worlds(r, [0, 1], worlds=3, seed=2,
                                        deadline=time.perf_counter()).shape == (3, 2, 2)
    with pytest.raises(TypeError, match="deadline must be a time.perf_counter"):
        rollout._play_worlds(r, [0], worlds=1, seed=0, deadline="soon")  # type: ignore[arg-type]


@games_of_search
def test_search_bot_plays_whole_games() -> None:
    res = play_game([SearchBot(seed=1, worlds=6), StrongBot(), GreedyBot()], seed=2)
    assert len(res.rounds) == 11


@games_of_search
def test_search_bot_in_simulate_games_with_two_jobs() -> None:
    report = simulate_games([SearchBot, GreedyBot], 2, seed=0, jobs=2, rounds=[1, 7])
    again = simulate_games([SearchBot, GreedyBot], 2, seed=0, jobs=1, rounds=[1, 7])
    assert report.scores.shape == (2, 2)
    assert (report.scores == again.scores).all()


@games_of_search
def test_search_bot_in_a_sudden_death_round() -> None:
    r = Round(3, hand_size=6, wild=6, seed=5, sudden_death=True, totals=(40, 40, 40))
    play_until(r, [SearchBot(seed=q, worlds=6) for q in range(3)])
    assert r.result is not None and r.result.went_out is not None


@games_of_search
def test_search_bot_with_endless_doubt_plays_as_strong_bot() -> None:
    # confidence never met: StrongBot's move every time, the search only looks
    for g in range(3):
        r = Round(3, round_number=3 + 4 * g, seed=g)
        search, strong = SearchBot(seed=g, worlds=4, confidence=1e9), StrongBot()
        while not r.is_over:
            obs = r.observation(r.current_player)
            if r.phase is Phase.DRAW:
                move = search.choose_draw(obs)
                assert move == strong.choose_draw(obs)
                r.draw(move)
            else:
                card, out = search.choose_discard(obs)
                assert (card, out) == strong.choose_discard(obs)
                r.discard(card, go_out=out)


def _rigged(values: np.ndarray, player: int = 0) -> Any:
    """A ``_worlds`` that returns ``values`` (worlds x moves) as the player's scores."""
    def worlds(base: Round, actions: list[int], k: int) -> np.ndarray:
        out = np.zeros((k, len(actions), base.n_players), dtype=np.int32)
        out[:, :, player] = values[:k]
        return out
    return worlds


def test_search_bot_models_its_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    # its worlds play the opponents by ``opponents``: the engine gets both policies
    from fivecrowns import rollout
    r = Round(3, round_number=5, seed=3)
    obs = r.observation(r.current_player)
    calls: list[tuple[str, str | None]] = []
    play_worlds = rollout._play_worlds

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((kwargs["policy"], kwargs["opponents"]))
        return play_worlds(*args, **kwargs)
    monkeypatch.setattr(rollout, "_play_worlds", spy)
    bot = SearchBot(seed=0, worlds=2, policy="ExpertBot", opponents="StrongBot")
    assert (bot.policy, bot.opponents) == ("expert", "strong")
    assert "opponents='strong'" in repr(bot)
    bot._search(obs, [0, 1])
    assert calls == [("expert", "strong")]
    assert SearchBot(seed=0).opponents is None and "opponents" not in repr(SearchBot())


def test_search_leaves_the_default_only_on_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    r = Round(2, round_number=5, seed=3)
    obs = r.observation(r.current_player)
    p = obs.player
    bot = SearchBot(seed=0, worlds=8)
    clear = np.array([[10, 4, 9]] * 8)                  # move 1: 6 points better, always
    monkeypatch.setattr(bot, "_worlds", _rigged(clear, p))
    assert bot._search(obs, [0, 1, 2]) == 1
    noisy = np.array([[10, 0, 10], [10, 30, 10]] * 4)  # a mean gain of -5: stay
    monkeypatch.setattr(bot, "_worlds", _rigged(noisy, p))
    assert bot._search(obs, [0, 1, 2]) == 0
    lucky = np.array([[10, 0, 10], [10, 19, 10]] * 4)  # gain 0.5, standard error 3.4
    monkeypatch.setattr(bot, "_worlds", _rigged(lucky, p))
    assert bot._search(obs, [0, 1, 2]) == 0
    bot.confidence = 0.0                                # the best mean alone
    assert bot._search(obs, [0, 1, 2]) == 1
    worse = np.array([[3, 9, 7]] * 8)
    monkeypatch.setattr(bot, "_worlds", _rigged(worse, p))
    assert bot._search(obs, [0, 1, 2]) == 0


def test_extra_worlds_only_on_a_close_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    r = Round(2, round_number=5, seed=3)
    obs = r.observation(r.current_player)
    p = obs.player
    lucky = np.array([[10, 0, 10], [10, 19, 10]] * 4)  # gain 0.5, standard error 3.4
    sure = np.array([[10, 4, 9]] * 64)                  # move 1: 6 points better, always
    asked: list[int] = []

    def worlds(first: np.ndarray, then: np.ndarray) -> Any:
        def play(base: Round, actions: list[int], k: int) -> np.ndarray:
            asked.append(k)
            return _rigged(first if len(asked) == 1 else then, p)(base, actions, k)
        return play
    bot = SearchBot(seed=0, worlds=8, extra_worlds=64)
    assert "extra_worlds=64" in repr(bot)
    monkeypatch.setattr(bot, "_worlds", worlds(lucky, sure))
    assert bot._search(obs, [0, 1, 2]) == 1 and asked == [8, 64]  # close: 64 more decide
    asked.clear()
    noisy = np.array([[10, 0, 10], [10, 30, 10]] * 4)  # a mean gain of -5: not close
    monkeypatch.setattr(bot, "_worlds", worlds(noisy, sure))
    assert bot._search(obs, [0, 1, 2]) == 0 and asked == [8]
    asked.clear()
    monkeypatch.setattr(bot, "_worlds", worlds(sure, lucky))  # clear at once
    assert bot._search(obs, [0, 1, 2]) == 1 and asked == [8]
    asked.clear()
    bot.extra_worlds = 0  # as before the option: the close decision keeps the default
    monkeypatch.setattr(bot, "_worlds", worlds(lucky, sure))
    assert bot._search(obs, [0, 1, 2]) == 0 and asked == [8]


def test_python_worlds_sample_the_players_view() -> None:
    r = Round(3, round_number=4, seed=6)
    actions = r.legal_actions()
    a = _engine_py.play_worlds(r, actions, 30, np.random.default_rng(1), "greedy")
    b = _engine_py.play_worlds(r, actions, 30, np.random.default_rng(1), "greedy")
    assert a.shape == (30, 2, 3) and (a == b).all()
    assert (a.min(axis=2) == 0).all()
    rng = np.random.default_rng(1)
    world = r.determinize(r.current_player, rng)
    first = world.clone()
    first.apply_action(actions[0])
    assert a[0, 0].tolist() == list(_python_play_out([first], "greedy")[0])


def test_search_bot_without_the_compiled_engine() -> None:
    with engine("python"):
        res = play_game([SearchBot(seed=1, worlds=3), StrongBot()], seed=4, rounds=[1, 3])
    assert len(res.rounds) == 2


@pytest.mark.parametrize("name", ["play_out", "ROLLOUT_IMPLEMENTATION"])
def test_the_engine_names_that_left_search_still_answer_with_a_warning(name: str) -> None:
    import fivecrowns.search as search
    from fivecrowns import rollout

    with pytest.warns(DeprecationWarning, match=f"fivecrowns.search.{name} is deprecated"):
        assert getattr(search, name) == getattr(rollout, name)
    assert name not in search.__all__
    with pytest.raises(AttributeError, match="nonsense"):
        search.nonsense  # noqa: B018


def test_win_chances_in_the_last_round_count_the_lowest_totals() -> None:
    totals = np.array([[30.0, 20.0, 20.0], [10.0, 20.0, 30.0], [40.0, 20.0, 30.0]])
    assert win_chances(totals, 1, 0).tolist() == [0.5, 0.0, 1.0]
    assert win_chances(totals, 0, 0).tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("left", [1, 4, 10])
def test_win_chances_agree_with_sampled_futures(left: int) -> None:
    rng = np.random.default_rng(left)
    totals = rng.integers(0, 80, size=(5, 4)).astype(np.float64)
    futures = totals[:, None, :] + rng.normal(0, ROUND_SPREAD * np.sqrt(left),
                                              size=(5, 100_000, 4))
    for p in range(4):
        sampled = (futures.argmin(axis=2) == p).mean(axis=1)
        assert np.abs(win_chances(totals, p, left) - sampled).max() < 0.01
    # the chances of all players add up to one
    assert np.allclose(sum(win_chances(totals, p, left) for p in range(4)), 1, atol=1e-3)


@games_of_search
def test_search_bot_playing_for_the_win() -> None:
    res = play_game([SearchBot(seed=2, worlds=6, objective="win"), StrongBot(),
                     GreedyBot()], seed=5, rounds=[2, 10, 11])
    assert len(res.rounds) == 3
