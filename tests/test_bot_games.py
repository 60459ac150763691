"""Games of built-in bots on the compiled engine (fivecrowns._bot_games): the same
results, records and generators as the Python route, move for move.

Every test plays the same games both ways: ``play_game`` (the compiled route wherever
every seat is a built-in bot) and ``players._play_on_game`` (the bots' own methods on
``Game``), over many seeds, player counts and rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fivecrowns import (
    ExpertBot,
    GreedyBot,
    RandomBot,
    Rules,
    StrongBot,
    _bot_games,
    play_game,
    registry,
)
from fivecrowns.game import Game
from fivecrowns.players import _play_on_game
from fivecrowns.seeding import game_seeds
from helpers.engines import compiled_engine
from helpers.engines import python_bots as bots_in_python

compiled_engine()  # skips the module on the Python twin (fails where the core is required)
assert _bot_games.available()


def lineup(kinds: list[str], seed: int) -> list[object]:
    """The registry's bots of ``kinds``, each made with its own seed."""
    return [registry.parse_bot(k).factory()(seed * 31 + q) for q, k in enumerate(kinds)]


def both(kinds: list[str], seed: int, **kw: object) -> None:
    compiled_bots, python_bots = lineup(kinds, seed), lineup(kinds, seed)
    assert _bot_games.seat_policies(compiled_bots) is not None
    got = play_game(compiled_bots, seed=seed, **kw)  # type: ignore[arg-type]
    with bots_in_python():  # the bots' own Python: the specification
        want = _play_on_game(python_bots, seed=seed, **kw)  # type: ignore[arg-type]
    assert got == want
    assert got.record.to_dict() == want.record.to_dict()
    Game.replay(got.record)
    for a, b in zip(compiled_bots, python_bots):  # RandomBot's generator where Python left it
        if isinstance(a, RandomBot):
            assert a.rng.bit_generator.state == b.rng.bit_generator.state  # type: ignore[attr-defined]


@pytest.mark.parametrize("n", range(2, 8))
def test_every_player_count(n: int) -> None:
    kinds = ["random", "greedy", "strong", "expert"]
    for seed in range(3):
        both([kinds[(q + seed) % 4] for q in range(n)], seed, rounds=[1 + seed, 12 - n])


@pytest.mark.parametrize("kind", ["random", "greedy", "strong"])
def test_one_bot_in_every_seat_whole_games(kind: str) -> None:
    for seed in game_seeds(4, 3):
        both([kind] * 4, seed)


def test_party_mode() -> None:
    for seed in range(2):
        both(["greedy", "strong", "random"] * 3, seed, rules=Rules(decks=4), rounds=[2, 7])
    both(["greedy", "random"] * 7, 5, rules=Rules(decks=4), rounds=[1])


def test_return_discard_and_first_dealer() -> None:
    for seed in range(4):
        both(["strong", "random", "greedy", "expert"], seed, rounds=[3, 6],
             rules=Rules(return_discard=True), first_dealer=seed % 4)


def test_max_turns_and_reshuffles() -> None:
    hits = reshuffles = 0
    for seed in range(12):
        kinds = ["random"] * 7 if seed % 2 else ["random", "random"]
        rules = Rules(max_turns=100 + 10 * seed)
        both(kinds, seed, rounds=[11, 10], rules=rules)
        res = play_game(lineup(kinds, seed), seed=seed, rounds=[11, 10],  # type: ignore[arg-type]
                        rules=rules)
        hits += res.hit_max_turns
        reshuffles += sum(r.reshuffles for r in res.rounds)
    assert hits and reshuffles


def test_tie_breaks() -> None:
    played = 0
    for seed in range(60):
        kinds = [["greedy", "greedy"], ["strong", "random", "expert"],
                 ["random", "random"]][seed % 3]
        rules = Rules(tie_break=True, max_turns=3 if seed % 3 == 2 else 1000)
        both(kinds, seed, rounds=[1], rules=rules, first_dealer=seed % len(kinds))
        played += bool(play_game(lineup(kinds, seed), seed=seed, rounds=[1],  # type: ignore[arg-type]
                                 rules=rules, first_dealer=seed % len(kinds)).tie_break_seats)
    assert played >= 5


def test_the_same_bot_in_several_seats_shares_its_generator() -> None:
    a, b = RandomBot(seed=3), RandomBot(seed=3)
    got = play_game([a, GreedyBot(), a], seed=8, rounds=[2, 3])
    want = _play_on_game([b, GreedyBot(), b], seed=8, rounds=[2, 3])
    assert got == want and a.rng.bit_generator.state == b.rng.bit_generator.state


class Lazy(GreedyBot):
    pass


@pytest.mark.parametrize("bot", [StrongBot(lookahead=2), StrongBot(now_weight=0.5),
                                 RandomBot(seed=1, go_out=0.5), Lazy()],
                         ids=["lookahead", "now_weight", "go_out", "subclass"])
def test_other_bots_take_the_python_route(bot: object) -> None:
    assert _bot_games.seat_policy(bot) is None
    res = play_game([bot, GreedyBot()], seed=2, rounds=[1])  # type: ignore[list-item]
    assert res.record.n_players == 2


def test_a_changed_class_constant_takes_the_python_route() -> None:
    bot = ExpertBot()
    bot.OUT_BONUS = 10  # type: ignore[misc]
    assert _bot_games.seat_policy(bot) is None
    assert _bot_games.seat_policy(ExpertBot()) is not None


def test_bad_arguments_give_the_games_errors() -> None:
    for kw, exc in (({"seed": -1}, ValueError), ({"seed": 1.5}, TypeError),
                    ({"seed": 1, "rounds": []}, ValueError),
                    ({"seed": 1, "first_dealer": 5}, ValueError),
                    ({"seed": 1, "rounds": [12]}, ValueError)):
        with pytest.raises(exc) as compiled:
            play_game([GreedyBot(), GreedyBot()], **kw)  # type: ignore[arg-type]
        with pytest.raises(exc) as python:
            _play_on_game([GreedyBot(), GreedyBot()], **kw)  # type: ignore[arg-type]
        assert str(compiled.value) == str(python.value)


def test_a_numpy_seed() -> None:
    both(["greedy", "random"], np.int64(7), rounds=[1, 2])  # type: ignore[arg-type]


# -- simulate_games and duplicate matches: blocks of games on the engine ----------------

def simulate_both(monkeypatch: pytest.MonkeyPatch, entrants: list[object], games: int,
                  **kw: object) -> None:
    from fivecrowns import duplicate_match, simulate_games

    def run() -> tuple[object, list[dict[str, object]], list[int]]:
        records: list[dict[str, object]] = []
        ticks: list[int] = []
        opts: Any = dict(kw, seed=5, on_record=records.append, progress=ticks.append)
        reference = opts.pop("duplicate", None)
        if reference is None:
            rep = simulate_games(entrants, games, **opts)
        else:
            rep = duplicate_match(entrants[0], reference, entrants[1:], games, **opts)
        return rep, records, ticks

    got, got_records, got_ticks = run()
    with monkeypatch.context() as m:
        m.setattr(_bot_games, "available", lambda: False)
        want, want_records, want_ticks = run()
    assert got_records == want_records
    assert np.array_equal(got.scores, want.scores)  # type: ignore[attr-defined]
    assert np.array_equal(got.wins, want.wins)  # type: ignore[attr-defined]
    assert got.hit_max_turns == want.hit_max_turns  # type: ignore[attr-defined]
    if kw.get("duplicate") is not None:
        assert np.array_equal(got.reference_scores, want.reference_scores)  # type: ignore[attr-defined]
    assert sum(got_ticks) == sum(want_ticks) == games


def test_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    simulate_both(monkeypatch, [RandomBot, GreedyBot, StrongBot], 9, rounds=[1, 6])
    simulate_both(monkeypatch, [StrongBot, RandomBot], 6, rounds=[2],
                  rules=Rules(tie_break=True, return_discard=True, max_turns=20))
    simulate_both(monkeypatch, [GreedyBot, RandomBot] * 4, 3, rounds=[3],
                  rules=Rules(decks=4))


def test_duplicate_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    simulate_both(monkeypatch, [StrongBot, GreedyBot, RandomBot], 6, rounds=[1, 4],
                  duplicate=RandomBot)


def odd_lazy(seed: int) -> object:
    """A built-in bot in even games' seeds, a custom one in odd: blocks that mix the
    engine's games and the Python route's."""
    return Lazy() if seed % 2 else GreedyBot()


def test_a_custom_bot_in_some_games(monkeypatch: pytest.MonkeyPatch) -> None:
    simulate_both(monkeypatch, [odd_lazy, RandomBot, StrongBot], 12, rounds=[2, 3])
