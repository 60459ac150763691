"""simulate.py: simulate_games, its report, seeds, jobs and entrants."""

from __future__ import annotations

from typing import Any

import pytest

from fivecrowns import Rules
from fivecrowns.bots import GreedyBot, RandomBot
from fivecrowns.players import play_game
from fivecrowns.seeding import game_seeds
from fivecrowns.simulate import simulate_games


def test_simulate_games_is_reproducible_and_rotates_seats() -> None:
    kw = dict(seed=5, rounds=[1, 2], rules=Rules(max_turns=40))
    a = simulate_games([GreedyBot, RandomBot, GreedyBot], 6, **kw)  # type: ignore[arg-type]
    b = simulate_games([GreedyBot, RandomBot, GreedyBot], 6, **kw)  # type: ignore[arg-type]
    assert a.scores.tolist() == b.scores.tolist() and a.seeds == tuple(game_seeds(5, 6))
    assert a.wins.sum() == pytest.approx(6.0)  # one victory per game, shared or not
    for e in a.entrants:
        assert e.games == 6
        assert e.win_ci[0] <= e.win_rate <= e.win_ci[1]
        assert e.score_ci[0] <= e.mean_score <= e.score_ci[1]
    assert [e.name for e in a.entrants] == ["GreedyBot", "RandomBot", "GreedyBot"]
    assert "win rate" in a.table()


def test_simulate_games_seats_rotate() -> None:
    # game g seats entrant (s + g) % k at seat s, so entrant e sits at seat (e - g) % k
    t = simulate_games([GreedyBot] * 3, 3, seed=2, rounds=[1])
    for g, seed in enumerate(t.seeds):
        totals = play_game([GreedyBot()] * 3, seed=seed, rounds=[1]).totals
        assert t.scores[g].tolist() == [totals[(e - g) % 3] for e in range(3)]


def test_simulate_games_jobs_give_the_same_numbers() -> None:
    kw = dict(seed=1, rounds=[1], rules=Rules(max_turns=30))
    seen: list[int] = []
    one = simulate_games([GreedyBot, RandomBot], 4, progress=seen.append, **kw)  # type: ignore[arg-type]
    two = simulate_games([GreedyBot, RandomBot], 4, jobs=2, **kw)  # type: ignore[arg-type]
    assert one.scores.tolist() == two.scores.tolist() and sum(seen) == 4


def test_simulate_games_validation() -> None:
    with pytest.raises(ValueError, match="2 to 7 entrants"):
        simulate_games([GreedyBot], 1, seed=0)
    with pytest.raises(ValueError, match="games must be at least 1"):
        simulate_games([GreedyBot, GreedyBot], 0, seed=0)
    with pytest.raises(ValueError, match="names has 1 entries"):
        simulate_games([GreedyBot, GreedyBot], 1, seed=0, names=["a"])


class Plain:
    """A bot class as the docs write one: no seed."""

    def choose_draw(self, obs: object) -> str:
        return "deck"

    def choose_discard(self, obs: Any) -> tuple[Any, bool]:
        return obs.hand[-1], False


def test_simulate_games_takes_seedless_classes_with_jobs() -> None:
    kw: dict[str, Any] = dict(seed=4, rounds=[1], rules=Rules(max_turns=20))
    one = simulate_games([Plain, GreedyBot], 4, **kw)
    two = simulate_games([Plain, GreedyBot], 4, jobs=2, **kw)
    assert one.scores.tolist() == two.scores.tolist()
    assert [e.name for e in one.entrants] == ["Plain", "GreedyBot"]


def test_simulate_games_rejects_bad_entrants() -> None:
    with pytest.raises(TypeError, match="an entrant must be a Player class"):
        simulate_games([GreedyBot(), GreedyBot], 1, seed=0)
    with pytest.raises(TypeError, match="games must be an int"):
        simulate_games([GreedyBot, GreedyBot], 1.5, seed=0)  # type: ignore[arg-type]


def test_simulate_games_records_replay() -> None:
    from fivecrowns.game import Game

    records: list[dict[str, Any]] = []
    simulate_games([GreedyBot, RandomBot], 2, seed=9, rounds=[1, 2], on_record=records.append)
    assert [r["game"] for r in records] == [0, 1]
    assert records[1]["players"] == ["RandomBot", "GreedyBot"]
    for r in records:
        Game.replay({k: v for k, v in r.items() if k not in ("game", "players")})


def test_backend_options_reach_the_runner() -> None:
    with pytest.raises(ValueError, match="ray_address is only for backend='ray'"):
        simulate_games([GreedyBot, GreedyBot], 1, seed=0, ray_address="auto")
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray'"):
        simulate_games([GreedyBot, GreedyBot], 1, seed=0, backend="dask")  # type: ignore[arg-type]


class _StopsAtGame:
    """Raises KeyboardInterrupt (as Ctrl-C would) when made for game ``STOP`` (one seat
    of it per game, jobs=1: games are made in order)."""

    MADE = [0]
    STOP = 13

    def __init__(self, seed: int) -> None:
        _StopsAtGame.MADE[0] += 1
        if _StopsAtGame.MADE[0] == _StopsAtGame.STOP:
            raise KeyboardInterrupt
        self.inner = GreedyBot()
        self.choose_draw = self.inner.choose_draw
        self.choose_discard = self.inner.choose_discard


@pytest.mark.parametrize("duplicate", [None, RandomBot])
def test_ctrl_c_keeps_the_report_of_the_games_finished(duplicate: object) -> None:
    """20 games in chunks of 5: Ctrl-C in game 12 keeps games 0..9, exactly as a full run
    plays them, in a KeyboardInterrupt (Interrupted) carrying their report."""
    from fivecrowns import Interrupted, duplicate_match

    def run() -> Any:
        if duplicate is None:
            return simulate_games([_StopsAtGame, GreedyBot], 20, seed=3, rounds=[1])
        return duplicate_match(_StopsAtGame, duplicate, [GreedyBot], 20, seed=3, rounds=[1])

    _StopsAtGame.MADE[0] = 0
    with pytest.raises(KeyboardInterrupt) as info:
        run()
    assert isinstance(info.value, Interrupted) and not isinstance(info.value, Exception)
    partial = info.value.partial
    _StopsAtGame.MADE[0] = -100  # never stops
    whole = run()
    assert partial is not None and type(partial) is type(whole)
    assert partial.seeds == whole.seeds[:10]
    assert partial.scores.tolist() == whole.scores[:10].tolist()
    _StopsAtGame.MADE[0], _StopsAtGame.STOP = 0, 2  # in the first chunk: nothing finished
    try:
        with pytest.raises(Interrupted) as info:
            simulate_games([_StopsAtGame, GreedyBot], 20, seed=3, rounds=[1])
    finally:
        _StopsAtGame.STOP = 13
    assert info.value.partial is None


@pytest.mark.parametrize("duplicate", [False, True])
def test_seeds_made_block_by_block_are_the_same_games(duplicate: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # The seeds are made as the games are played, a block at a time: blocks of 3 here, so
    # that 8 games cross two block boundaries. Every game is still dealt from
    # game_seeds(seed, games)[g], as before, and its record replays.
    from fivecrowns.duplicate import DuplicateReport
    from fivecrowns.game import Game
    from fivecrowns.seeding import GameSeeds
    from fivecrowns.simulate import duplicate_match

    monkeypatch.setattr(GameSeeds, "BLOCK", 3)
    records: list[dict[str, Any]] = []
    report: Any
    if duplicate:
        report = duplicate_match(GreedyBot, RandomBot, [GreedyBot], 8, seed=11, rounds=[1],
                                 on_record=records.append)
        assert isinstance(report, DuplicateReport)
        scores = report.scores
    else:
        report = simulate_games([GreedyBot, GreedyBot], 8, seed=11, rounds=[1],
                                on_record=records.append)
        scores = report.scores
    assert report.seeds == tuple(game_seeds(11, 8))
    for g, seed in enumerate(report.seeds):
        totals = play_game([GreedyBot()] * 2, seed=seed, rounds=[1]).totals
        assert scores[g].tolist() == [totals[(e - g) % 2] for e in range(2)]
    bots = records[::2] if duplicate else records
    assert [r["seed"] for r in bots] == list(report.seeds)
    for r in records:
        Game.replay(r)


def test_game_seeds_sequence_is_game_seeds() -> None:
    from fivecrowns.seeding import GameSeeds

    every = game_seeds(3, 10_000)
    seeds = GameSeeds(3, 10_000)
    assert len(seeds) == 10_000 and list(seeds) == every
    assert seeds[4095:4100] == every[4095:4100] and seeds[-1] == every[-1]
    assert seeds[::1000] == every[::1000] and seeds[9000] == every[9000]
    with pytest.raises(IndexError):
        seeds[10_000]


@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize("games", [10**10, 10**20])
def test_too_many_games_is_refused_before_any_is_played(duplicate: bool, games: int) -> None:
    # 0.4 made every game's seed up front: NumPy's MemoryError (74.5 GiB for 10**10), or
    # "Maximum allowed dimension exceeded" without a word about games
    from fivecrowns.runner import TooManyGames
    from fivecrowns.simulate import duplicate_match

    with pytest.raises(TooManyGames, match=r"games [\d,]+ is too many for one run") as info:
        if duplicate:
            duplicate_match(GreedyBot, RandomBot, [GreedyBot], games, seed=1)
        else:
            simulate_games([GreedyBot, GreedyBot], games, seed=1)
    assert isinstance(info.value, ValueError) and info.value.games == games
