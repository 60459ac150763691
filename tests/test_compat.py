"""Compatibility with fivecrowns 0.3 and 0.4: their records replay identically, and the
same seeds and players give the same games, totals and records; 0.4's pickled rounds load
and play on, and its engine entrances and decision data give the same answers.

The corpora, tests/data/compat_0.3.json and compat_0.4.json, were written by those
versions themselves (commits 1ad0f08 and cc37e60) with benchmarks/make_compat_corpus.py;
see that script for what they hold. Nothing here is computed by the version under test and
then compared with itself.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns import registry
from fivecrowns.game import Game
from fivecrowns.rules import Rules

DATA = Path(__file__).parent / "data"
CORPORA = {v: json.loads((DATA / f"compat_{v}.json").read_text()) for v in ("0.3", "0.4")}
CORPUS_0_4 = CORPORA["0.4"]


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
    return registry.parse_bot(kind).cls()


def _id(entry: dict[str, Any]) -> str:
    players = entry.get("players") or entry.get("entrants") or [entry.get("player")]
    return f"{len(players)}p-{'-'.join(p.split(':')[0] for p in players)}-{entry['seed']}"


def _entries(key: str, ids: Any = _id) -> list[Any]:
    """Every corpus's entries under ``key``, each named by its version."""
    return [pytest.param(e, id=f"{v}-{ids(e)}") for v, c in CORPORA.items()
            for e in c.get(key, ())]


@pytest.mark.parametrize("version", list(CORPORA))
def test_the_corpus_covers_what_it_claims(version: str) -> None:
    corpus = CORPORA[version]
    assert corpus["version"].startswith(version)
    games = corpus["games"]
    counts = {g["record"]["n_players"] for g in games}
    assert set(range(2, 8)) <= counts and max(counts) > 7
    assert any(g["record"]["tie_break_seats"] for g in games)
    assert any(g["reshuffles"] for g in games)
    assert any(g["hit_max_turns"] for g in games)
    assert any(g["rules"]["return_discard"] for g in games)
    kinds = {p.split(":")[0] for g in games for p in g["players"]}
    assert kinds == {"random", "greedy", "strong", "expert", "search"}
    assert {r["player"].split(":")[0] for r in corpus["rounds"]} >= {"random", "greedy",
                                                                     "strong", "expert"}


@pytest.mark.parametrize("entry", _entries("games") + _entries("learned_games"))
def test_a_record_replays_identically(entry: dict[str, Any]) -> None:
    game = Game.replay(entry["record"])
    assert game.record().to_dict() == entry["record"]
    assert game.result is not None and game.result.hit_max_turns == entry["hit_max_turns"]
    assert sum(r.reshuffles for r in game.result.rounds) == entry["reshuffles"]


@pytest.mark.parametrize("entry", _entries("games"))
def test_the_same_seed_and_players_give_the_same_game(entry: dict[str, Any]) -> None:
    if any(p.startswith("search") for p in entry["players"]) and not _has_rollout_engine():
        pytest.skip("SearchBot's worlds differ without the compiled rollout engine")
    _skip_slow_experts(entry["players"])
    res = fc.play_game([make_bot(p) for p in entry["players"]], seed=entry["seed"],
                       rules=Rules(**entry["rules"]), rounds=entry["rounds"],
                       first_dealer=entry["first_dealer"])
    assert res.record.to_dict() == entry["record"]
    assert res.hit_max_turns == entry["hit_max_turns"]


@pytest.mark.parametrize("entry", _entries("rounds"))
def test_a_one_player_round_plays_as_before(entry: dict[str, Any]) -> None:
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


@pytest.mark.parametrize("entry", _entries("simulations"))
def test_a_simulation_gives_the_same_scores_and_records(entry: dict[str, Any]) -> None:
    _skip_slow_experts([*entry["entrants"], entry["duplicate"]])
    records: list[dict[str, Any]] = []
    entrants = entry["entrants"]  # the registry's names: the same games as their classes
    kw: dict[str, Any] = dict(seed=entry["seed"], rules=Rules(**entry["rules"]),
                              rounds=entry["rounds"], on_record=records.append)
    rep: Any
    if entry["duplicate"] is None:
        rep = fc.simulate_games(entrants, entry["games"], **kw)
    else:  # 0.3's simulate_games(..., duplicate=reference)
        rep = fc.duplicate_match(entrants[0], entry["duplicate"], entrants[1:],
                                 entry["games"], **kw)
    assert rep.scores.tolist() == entry["scores"]
    if entry["duplicate"] is not None:
        assert rep.reference_scores.tolist() == entry["reference_scores"]
    assert rep.hit_max_turns == entry["hit_max_turns"]
    assert [[" ".join(r["actions"]), r["totals"]] for r in records] == entry["records"]


@pytest.mark.parametrize("entry", _entries("play_games", lambda e: str(e["policy"])))
def test_play_games_gives_the_same_totals(entry: dict[str, Any]) -> None:
    if not _has_rollout_engine():  # its Python twin plays the same games, far slower
        _skip_slow_experts([entry["policy"]], ("expert", "strong"))
    totals = fc.play_games(entry["games"], seed=entry["seed"], n_players=entry["n_players"],
                           policy=entry["policy"], rules=Rules(**entry["rules"]),
                           rounds=entry["rounds"])
    assert np.asarray(totals).tolist() == entry["totals"]


# What 0.4 added (benchmarks/make_compat_corpus.py, since_0_4).

def _position(entry: dict[str, Any]) -> fc.Round:
    """The corpus's round after its ``moves`` StrongBot moves."""
    r = fc.Round(entry["n_players"], entry["round_number"], seed=entry["seed"])
    bot = fc.StrongBot()
    for _ in range(entry.get("moves", 0)):
        r.apply_action(fc.player_action(bot, r.observation(r.current_player)))
    assert not r.is_over
    return r


def _digest(a: Any) -> str:
    a = np.ascontiguousarray(a)
    h = hashlib.sha256(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.tobytes())
    return h.hexdigest()


def test_the_0_4_corpus_has_learned_games_and_unfinished_pickles() -> None:
    assert all(any(p == "learned" for p in g["players"]) for g in CORPUS_0_4["learned_games"])
    assert all(p["actions"] for p in CORPUS_0_4["pickles"])
    assert {e["policy"] for e in CORPUS_0_4["play_out"]} == {"greedy", "strong", "expert",
                                                            "random"}


def _pos_id(entry: dict[str, Any]) -> str:
    return f"{entry['n_players']}p-round{entry['round_number']}-{entry['seed']}"


@pytest.mark.parametrize("entry", CORPUS_0_4["pickles"], ids=_pos_id)
def test_a_0_4_round_pickle_loads_and_plays_on(entry: dict[str, Any]) -> None:
    if importlib.util.find_spec("fivecrowns._rollout") is None:
        pytest.skip("0.4 pickled the compiled engine's round state, by its class's name")
    r = pickle.loads(base64.b64decode(entry["pickle"]))
    assert isinstance(r, fc.Round) and not r.is_over
    # the pickle is the round the seed deals, after the same moves
    same = _position(entry)
    assert [r.hand(p) for p in range(r.n_players)] == [same.hand(p)
                                                       for p in range(same.n_players)]
    assert (r.deck.draw_pile(), r.deck.discard_pile(), r.history) == (
        same.deck.draw_pile(), same.deck.discard_pile(), same.history)
    bot = fc.StrongBot()
    actions = []
    while not r.is_over:
        a = fc.player_action(bot, r.observation(r.current_player))
        r.apply_action(a)
        actions.append(a)
    assert r.result is not None
    assert (actions, list(r.result.scores), r.result.turns) == (
        entry["actions"], entry["scores"], entry["turns"])


@pytest.mark.parametrize("entry", CORPUS_0_4["play_out"], ids=lambda e: e["policy"])
def test_play_out_makes_the_0_4_moves(entry: dict[str, Any]) -> None:
    from fivecrowns import rollout

    if not _has_rollout_engine():
        _skip_slow_experts([entry["policy"]])
    r = fc.Round(entry["n_players"], entry["round_number"], seed=entry["seed"])
    assert rollout.play_out_actions(r, policy=entry["policy"],
                                    seed=entry["play_seed"]) == entry["actions"]


@pytest.mark.parametrize("entry", CORPUS_0_4["play_worlds"], ids=lambda e: e["policy"])
def test_play_worlds_gives_the_0_4_values(entry: dict[str, Any]) -> None:
    from fivecrowns import rollout

    if not _has_rollout_engine():
        pytest.skip("play_worlds' worlds differ without the compiled rollout engine")
    r = _position(entry)
    assert [int(a) for a in r.legal_actions()] == entry["actions"]
    values = rollout.play_worlds(r, entry["actions"], worlds=entry["worlds"],
                                 seed=entry["seed"], policy=entry["policy"])
    assert np.asarray(values).tolist() == entry["values"]


@pytest.mark.parametrize("entry", CORPUS_0_4["decisions"], ids=lambda e: str(e["policy"]))
def test_record_decisions_gives_the_0_4_data(entry: dict[str, Any]) -> None:
    from fivecrowns import decisions

    if not _has_rollout_engine():
        pytest.skip("record_decisions runs on the compiled engine only")
    d = decisions.record_decisions(entry["games"], seed=entry["seed"], policy=entry["policy"],
                                   n_players=entry["n_players"], features=entry["features"],
                                   rounds=entry["rounds"])
    assert len(d.action) == entry["decisions"]
    assert {name: _digest(getattr(d, name)) for name in entry["digests"]} == entry["digests"]


def test_a_0_4_decision_file_loads(tmp_path: Path) -> None:
    from fivecrowns import decisions

    entry = CORPUS_0_4["decision_file"]
    path = tmp_path / "small.npz"
    path.write_bytes(base64.b64decode(entry["npz"]))
    d = decisions.load_decisions(path)
    assert d.n_players == entry["n_players"] and d.features is not None
    assert set(d.game.tolist()) == {0} and set(d.round.tolist()) == set(entry["rounds"])
    if _has_rollout_engine():
        fresh = decisions.record_decisions(entry["games"], seed=entry["seed"],
                                           policy=entry["policy"],
                                           n_players=entry["n_players"],
                                           features=entry["features"], rounds=entry["rounds"])
        for name in ("obs", "features", "mask", "action", "turn", "reward", "episode_end"):
            np.testing.assert_array_equal(getattr(d, name), getattr(fresh, name), err_msg=name)
