"""Compatibility with fivecrowns 0.3: its records replay identically, and the same seeds
and players give the same games, totals and records.

The corpus, tests/data/compat_0.3.json, was written by 0.3 itself (commit 1ad0f08) with
benchmarks/make_compat_corpus.py; see that script for what it holds. Nothing here is
computed by the version under test and then compared with itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.game import Game
from fivecrowns.rules import Rules

CORPUS = json.loads((Path(__file__).parent / "data" / "compat_0.3.json").read_text())


def _has_rollout_engine() -> bool:
    from fivecrowns import rollout

    return getattr(rollout, "_core", None) is not None


def _skip_slow_experts(players: list[Any], slow: tuple[str, ...] = ("expert",)) -> None:
    """ExpertBot on the pure-Python solver takes minutes a round: its games are replayed
    from their records there (no bot needed), and played again only on the compiled
    core."""
    from fivecrowns import solver

    if solver.IMPLEMENTATION == "python" and any(k in str(p) for p in players for k in slow):
        pytest.skip(f"{' and '.join(slow)} games take too long on the pure-Python solver")


def make_bot(spec: str) -> Any:
    kind, *args = spec.split(":")
    if kind == "random":
        return fc.RandomBot(seed=int(args[0]))
    if kind == "search":
        return fc.SearchBot(int(args[0]), int(args[1]))
    return {"greedy": fc.GreedyBot, "strong": fc.StrongBot, "expert": fc.ExpertBot}[kind]()


ENTRANTS = {"random": fc.RandomBot, "greedy": fc.GreedyBot, "strong": fc.StrongBot,
            "expert": fc.ExpertBot}


def _id(entry: dict[str, Any]) -> str:
    players = entry.get("players") or entry.get("entrants") or [entry.get("player")]
    return f"{len(players)}p-{'-'.join(p.split(':')[0] for p in players)}-{entry['seed']}"


def test_the_corpus_covers_what_it_claims() -> None:
    games = CORPUS["games"]
    counts = {g["record"]["n_players"] for g in games}
    assert set(range(2, 8)) <= counts and max(counts) > 7
    assert any(g["record"]["tie_break_seats"] for g in games)
    assert any(g["reshuffles"] for g in games)
    assert any(g["hit_max_turns"] for g in games)
    assert any(g["rules"]["return_discard"] for g in games)
    kinds = {p.split(":")[0] for g in games for p in g["players"]}
    assert kinds == {"random", "greedy", "strong", "expert", "search"}
    assert {r["player"].split(":")[0] for r in CORPUS["rounds"]} >= {"random", "greedy",
                                                                     "strong", "expert"}


@pytest.mark.parametrize("entry", CORPUS["games"], ids=_id)
def test_a_0_3_record_replays_identically(entry: dict[str, Any]) -> None:
    game = Game.replay(entry["record"])
    assert game.record().to_dict() == entry["record"]
    assert game.result is not None and game.result.hit_max_turns == entry["hit_max_turns"]
    assert sum(r.reshuffles for r in game.result.rounds) == entry["reshuffles"]


@pytest.mark.parametrize("entry", CORPUS["games"], ids=_id)
def test_the_same_seed_and_players_give_the_0_3_game(entry: dict[str, Any]) -> None:
    if any(p.startswith("search") for p in entry["players"]) and not _has_rollout_engine():
        pytest.skip("SearchBot's worlds differ without the compiled rollout engine")
    _skip_slow_experts(entry["players"])
    res = fc.play_game([make_bot(p) for p in entry["players"]], seed=entry["seed"],
                       rules=Rules(**entry["rules"]), rounds=entry["rounds"],
                       first_dealer=entry["first_dealer"])
    assert res.record.to_dict() == entry["record"]
    assert res.hit_max_turns == entry["hit_max_turns"]


@pytest.mark.parametrize("entry", CORPUS["rounds"], ids=_id)
def test_a_one_player_round_plays_as_in_0_3(entry: dict[str, Any]) -> None:
    _skip_slow_experts([entry["player"]])
    r = fc.Round(1, entry["round_number"], seed=entry["seed"], rules=Rules(**entry["rules"]))
    bot = make_bot(entry["player"])
    actions = []
    while not r.is_over:
        obs = r.observation(0)
        if r.phase is fc.Phase.DRAW:
            a = fc.encode_draw(bot.choose_draw(obs))
        else:
            card, out = bot.choose_discard(obs)
            a = fc.encode_discard(card, go_out=out)
        r.apply_action(a)
        actions.append(a)
    assert r.result is not None
    assert actions == entry["actions"]
    assert (list(r.result.scores), r.result.turns, r.result.reshuffles,
            r.result.hit_max_turns) == (entry["scores"], entry["turns"],
                                        entry["reshuffles"], entry["hit_max_turns"])


@pytest.mark.parametrize("entry", CORPUS["simulations"], ids=_id)
def test_a_simulation_gives_the_0_3_scores_and_records(entry: dict[str, Any]) -> None:
    _skip_slow_experts([*entry["entrants"], entry["duplicate"]])
    records: list[dict[str, Any]] = []
    entrants = [ENTRANTS[e] for e in entry["entrants"]]
    kw: dict[str, Any] = dict(seed=entry["seed"], rules=Rules(**entry["rules"]),
                              rounds=entry["rounds"], on_record=records.append)
    rep: Any
    if entry["duplicate"] is None:
        rep = fc.simulate_games(entrants, entry["games"], **kw)
    else:  # 0.3's simulate_games(..., duplicate=reference)
        rep = fc.duplicate_match(entrants[0], ENTRANTS[entry["duplicate"]], entrants[1:],
                                 entry["games"], **kw)
    assert rep.scores.tolist() == entry["scores"]
    if entry["duplicate"] is not None:
        assert rep.reference_scores.tolist() == entry["reference_scores"]
    assert rep.hit_max_turns == entry["hit_max_turns"]
    assert [[" ".join(r["actions"]), r["totals"]] for r in records] == entry["records"]


@pytest.mark.parametrize("entry", CORPUS["play_games"], ids=lambda e: str(e["policy"]))
def test_play_games_gives_the_0_3_totals(entry: dict[str, Any]) -> None:
    if not _has_rollout_engine():  # its Python twin plays the same games, far slower
        _skip_slow_experts([entry["policy"]], ("expert", "strong"))
    totals = fc.play_games(entry["games"], seed=entry["seed"], n_players=entry["n_players"],
                           policy=entry["policy"], rules=Rules(**entry["rules"]),
                           rounds=entry["rounds"])
    assert np.asarray(totals).tolist() == entry["totals"]
