"""Playing solitaire: play_solitaire's seeding and errors, simulate_solitaire's report."""

from __future__ import annotations

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.seeding import game_seeds, int_seed, solitaire_streams
from fivecrowns.solitaire import (
    Solitaire,
    SolitaireReport,
    make_strategy,
    play_solitaire,
    simulate_solitaire,
)

# Known answers, recorded before 0.2.0's restructuring: they pin the deal, the seed scheme
# and the strategies' choices, so a change to any of them is noticed.
KNOWN = [
    ("greedy", 0, fc.SolitaireResult(won=False, piles_closed=9, turns=28)),
    ("greedy", 3, fc.SolitaireResult(won=True, piles_closed=11, turns=26)),
    ("strong", 0, fc.SolitaireResult(won=False, piles_closed=10, turns=28)),
    ("strong", 3, fc.SolitaireResult(won=True, piles_closed=11, turns=26)),
    ("strong", 6, fc.SolitaireResult(won=True, piles_closed=11, turns=27)),
]


@pytest.mark.parametrize("strategy, seed, result", KNOWN)
def test_known_results(strategy: str, seed: int, result: fc.SolitaireResult) -> None:
    assert play_solitaire(strategy, seed=seed) == result


def test_play_solitaire_uses_the_seed_streams() -> None:
    # The deal comes from the first stream of the seed, the strategy's rng from the second.
    # (A SeedSequence or Generator changes as it is used, so each run gets a fresh one.)
    makers = [lambda: 0, lambda: 7, lambda: np.random.SeedSequence(3),
              lambda: np.random.default_rng(5)]
    for make in makers:
        deal, rng = solitaire_streams(make())
        game = Solitaire(seed=deal)
        player = make_strategy("random")
        while not game.is_over:
            game.play(*player.choose(game.observation(), rng))
        assert play_solitaire("random", seed=make()) == game.result


def test_seeds_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        play_solitaire("greedy", 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Solitaire(1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        simulate_solitaire("greedy", 2, 1)  # type: ignore[misc]


class _Bad:
    name = "bad"

    def choose(self, obs: object, rng: object) -> tuple[int, fc.Card]:
        return 3, fc.Card.JOKER


class _Raises:
    name = "raises"

    def choose(self, obs: object, rng: object) -> tuple[int, fc.Card]:
        raise KeyError("no idea")


class _Shape:
    name = "shape"

    def choose(self, obs: object, rng: object) -> object:
        return [3, "JK"]


def test_a_strategy_that_misbehaves_raises_bot_error() -> None:
    game = Solitaire(seed=0)
    assert fc.Card.JOKER not in game.pile(3) and game.draw_top != fc.Card.JOKER
    with pytest.raises(fc.BotError, match="strategy 'bad' made an illegal move on turn 1 of "
                       "the game seeded 0: cannot discard JK from pile 3") as info:
        play_solitaire(_Bad(), seed=0)
    assert isinstance(info.value.__cause__, fc.IllegalMoveError)
    assert not isinstance(info.value, fc.IllegalMoveError)
    with pytest.raises(fc.BotError, match="strategy 'raises' raised KeyError on turn 1 of the "
                       "game seeded 4"):
        play_solitaire(_Raises(), seed=4)
    with pytest.raises(fc.BotError, match=r"choose must return \(pile, discard\)"):
        play_solitaire(_Shape(), seed=np.random.SeedSequence(2))  # type: ignore[arg-type]
    with pytest.raises(fc.BotError, match="seeded a numpy Generator"):
        play_solitaire(_Bad(), seed=np.random.default_rng(0))
    # In a simulation the error names the game's own seed.
    with pytest.raises(fc.BotError, match=f"game seeded {game_seeds(12, 3)[0]}"):
        simulate_solitaire(_Bad(), 3, seed=12)


def test_simulate_solitaire_is_seeded_and_jobs_do_not_matter() -> None:
    ticks: list[int] = []
    one = simulate_solitaire("greedy", 4, seed=10, progress=ticks.append)
    two = simulate_solitaire("greedy", 4, seed=10, jobs=2)
    assert isinstance(one, SolitaireReport) and one.strategy == "greedy"
    assert one.results == two.results and sum(ticks) == 4
    # game i is dealt from game_seeds(seed, games)[i], as in the other simulators
    assert one.results[2] == play_solitaire("greedy", seed=game_seeds(10, 4)[2])
    # a SeedSequence or Generator is first turned into the int the report keeps
    seq = np.random.SeedSequence(10)
    via = simulate_solitaire("greedy", 2, seed=seq)
    assert via.seed == int_seed(np.random.SeedSequence(10))
    assert via.results == simulate_solitaire("greedy", 2, seed=via.seed).results
    assert one.games == 4 and one.seed == 10
    assert one.wins == sum(r.won for r in one.results) and one.win_rate == one.wins / 4
    assert one.win_ci[0] <= one.win_rate <= one.win_ci[1]
    assert one.mean_piles_closed == np.mean([r.piles_closed for r in one.results])
    assert one.piles_closed_ci[0] <= one.mean_piles_closed <= one.piles_closed_ci[1]
    assert one.turns_ci[0] <= one.mean_turns <= one.turns_ci[1]
    assert "win rate" in one.describe() and "(seed 10)" in one.describe()


def test_simulate_solitaire_party_mode() -> None:
    report = simulate_solitaire("random", 2, seed=0, rules=fc.Rules(decks=4))
    assert report.results == tuple(play_solitaire("random", seed=s, rules=fc.Rules(decks=4))
                                   for s in game_seeds(0, 2))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"games": 0}, ValueError, "games must be at least 1"),
    ({"games": 1.0}, TypeError, "games must be an int"),
    ({"games": True}, TypeError, "games must be an int"),
    ({"jobs": 1.5}, TypeError, "jobs must be an int"),
    ({"jobs": 0}, ValueError, "jobs must be at least 1"),
    ({"seed": -1}, ValueError, "seed must be a non-negative int, got -1"),
    ({"seed": "1"}, TypeError, "seed must be an int, a numpy.random.SeedSequence or a "
                               "numpy.random.Generator, got str"),
    ({"seed": None}, TypeError, "seed is required"),
    ({"progress": True}, TypeError, "progress must be a callable"),
    ({"rules": 4}, TypeError, "rules must be a Rules"),
    ({"strategy": "best"}, ValueError, "unknown solitaire strategy 'best'"),
    ({"strategy": 42}, TypeError, "a strategy must be a name"),
    ({"backend": "cloud"}, ValueError, "backend must be 'local' or 'ray'"),
])
def test_simulate_solitaire_argument_errors(kwargs: dict[str, object], error: type[Exception],
                                            message: str) -> None:
    args: dict[str, object] = {"strategy": "greedy", "games": 1, "seed": 0}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        simulate_solitaire(**args)  # type: ignore[arg-type]


def test_seeds_made_as_the_games_are_played(monkeypatch: pytest.MonkeyPatch) -> None:
    # blocks of 3 seeds: 7 games cross two block boundaries and are the same games
    from fivecrowns.seeding import GameSeeds

    monkeypatch.setattr(GameSeeds, "BLOCK", 3)
    report = simulate_solitaire("greedy", 7, seed=4)
    assert list(report.results) == [play_solitaire("greedy", seed=s) for s in game_seeds(4, 7)]


@pytest.mark.parametrize("games", [5 * 10**9, 10**20])
def test_too_many_games_is_refused_before_any_is_played(games: int) -> None:
    # 0.4 made every seed up front: NumPy's MemoryError, or its "Maximum allowed dimension"
    from fivecrowns.runner import TooManyGames

    with pytest.raises(TooManyGames, match=r"games [\d,]+ is too many for one run"):
        simulate_solitaire("greedy", games, seed=1)
