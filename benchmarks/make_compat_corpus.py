"""Write tests/data/compat_0.3.json: games, rounds and simulations as fivecrowns 0.3 plays
them, for tests/test_compat.py to check that later versions play them identically.

Run it from a checkout of 0.3 (commit 1ad0f08), never from a later version: the corpus
is the old behaviour. ``PYTHONPATH=src python benchmarks/make_compat_corpus.py``.

What it holds (each entry names its players and arguments, so the test plays it again):

- ``games``: whole-game records (:meth:`GameRecord.to_dict`) of :func:`play_game` with
  every built-in bot (``random:<seed>``, ``greedy``, ``strong``, ``expert``,
  ``search:<seed>:<worlds>``), 2 to 7 players, party mode (``Rules(decks=4)``, 8 to 14
  players), ``tie_break``, ``return_discard``, ``max_turns``-limited rounds, reshuffles;
- ``rounds``: one-player rounds (a round takes 1 player; a game 2 or more): the moves
  and the result;
- ``simulations``: :func:`simulate_games` scores per game, duplicate matches' too;
- ``play_games``: the compiled engine's totals, per policy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import fivecrowns as fc
from fivecrowns.rules import Rules

DEFAULT = Rules()
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "compat_0.3.json"


def make_bot(spec: str) -> Any:
    kind, *args = spec.split(":")
    if kind == "random":
        return fc.RandomBot(seed=int(args[0]))
    if kind == "search":
        return fc.SearchBot(int(args[0]), int(args[1]))
    return {"greedy": fc.GreedyBot, "strong": fc.StrongBot, "expert": fc.ExpertBot}[kind]()


def rules_dict(rules: Rules) -> dict[str, Any]:
    return {"decks": rules.decks, "max_turns": rules.max_turns,
            "tie_break": rules.tie_break, "return_discard": rules.return_discard}


def game(players: list[str], seed: int, rules: Rules = DEFAULT,
         rounds: list[int] | None = None, first_dealer: int = 0) -> dict[str, Any]:
    res = fc.play_game([make_bot(p) for p in players], seed=seed, rules=rules,
                       rounds=rounds, first_dealer=first_dealer)
    return {"players": players, "seed": seed, "rules": rules_dict(rules), "rounds": rounds,
            "first_dealer": first_dealer, "record": res.record.to_dict(),
            "reshuffles": sum(r.reshuffles for r in res.rounds),
            "hit_max_turns": res.hit_max_turns}


def solo_round(player: str, seed: int, round_number: int, rules: Rules = DEFAULT
               ) -> dict[str, Any]:
    r = fc.Round(1, round_number, seed=seed, rules=rules)
    bot = make_bot(player)
    actions = []
    while not r.is_over:
        a = fc.player_action(bot, r.observation(0))
        r.apply_action(a)
        actions.append(a)
    res = r.result
    assert res is not None
    return {"player": player, "seed": seed, "round_number": round_number,
            "rules": rules_dict(rules), "actions": actions, "scores": list(res.scores),
            "turns": res.turns, "reshuffles": res.reshuffles,
            "hit_max_turns": res.hit_max_turns}


ENTRANTS = {"random": fc.RandomBot, "greedy": fc.GreedyBot, "strong": fc.StrongBot,
            "expert": fc.ExpertBot}


def simulation(entrants: list[str], games: int, seed: int, rules: Rules = DEFAULT,
               rounds: list[int] | None = None, duplicate: str | None = None
               ) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    if duplicate is not None:
        kw["duplicate"] = ENTRANTS[duplicate]
    records: list[dict[str, Any]] = []
    rep = fc.simulate_games([ENTRANTS[e] for e in entrants], games, seed=seed, rules=rules,
                            rounds=rounds, on_record=records.append, **kw)
    out: dict[str, Any] = {"entrants": entrants, "games": games, "seed": seed,
                           "rules": rules_dict(rules), "rounds": rounds,
                           "duplicate": duplicate,
                           "hit_max_turns": rep.hit_max_turns,
                           "records": [[" ".join(r["actions"]), r["totals"]]
                                       for r in records]}
    if duplicate is None:
        out["scores"] = rep.scores.tolist()
    else:
        out["scores"] = rep.scores.tolist()
        out["reference_scores"] = rep.reference_scores.tolist()
    return out


def main() -> None:
    games = []
    bots = ["greedy", "strong", "expert"]
    # 2..7 players, every bot, short and whole games, the first dealer moved
    for n in range(2, 8):
        players = [bots[i % 3] if i % 4 else f"random:{n}{i}" for i in range(n)]
        games.append(game(players, seed=100 + n, rounds=[n, 12 - n]))
    games.append(game(["strong", "expert", "greedy", "random:1"], seed=7))  # all 11 rounds
    games.append(game(["expert", "strong", "greedy"], seed=8, rounds=[11, 3],
                      first_dealer=2))
    # party mode: 8 and 14 players with 4 decks
    games.append(game(["strong", "greedy", "random:3", "expert"] * 2, seed=9,
                      rules=Rules(decks=4), rounds=[1, 6]))
    games.append(game(["greedy", "strong"] * 7, seed=10, rules=Rules(decks=4), rounds=[2]))
    # return_discard
    games.append(game(["strong", "greedy", "expert", "random:4"], seed=11,
                      rules=Rules(return_discard=True), rounds=[3, 7]))
    # max_turns: rounds stopped, with random bots also reshuffling
    games.append(game(["random:5", "random:6", "greedy"], seed=12,
                      rules=Rules(max_turns=60), rounds=[11, 10]))
    games.append(game(["random:7", "random:8"], seed=13, rules=Rules(max_turns=400),
                      rounds=[11]))
    # the first seeds (from 0) with a reshuffle, and with a round stopped by max_turns
    for players, rounds, rules, key in (
            (["random:{}", "random:{}"], [11], Rules(), "reshuffles"),
            (["random:{}", "greedy", "random:{}", "strong", "random:{}", "expert",
              "random:{}"], [11], Rules(), "reshuffles"),
            (["random:{}", "random:{}", "random:{}"], [11, 9], Rules(max_turns=45),
             "hit_max_turns")):
        for seed in range(2000):
            g = game([p.format(seed + i) for i, p in enumerate(players)], seed, rules,
                     rounds)
            if g[key]:
                games.append(g)
                break
        else:
            sys.exit(f"no {key} among seeds 0..1999 for {players}")
    # SearchBot (compiled play_worlds), a few worlds
    games.append(game(["search:1:4", "strong", "greedy"], seed=14, rounds=[2, 4]))
    # tie_break: the first seeds (from 0) whose games tie, with each kind of bot
    for players, rounds, rules in (
            (["greedy", "greedy"], [1], Rules(tie_break=True)),
            (["strong", "strong", "random:9"], [1], Rules(tie_break=True)),
            (["random:10", "random:11"], [1], Rules(tie_break=True, max_turns=3))):
        for seed in range(2000):
            g = game(players, seed, rules, rounds)
            if g["record"]["tie_break_seats"]:
                games.append(g)
                break
        else:
            sys.exit(f"no tie-break among seeds 0..1999 for {players}")
    rounds = [solo_round(p, seed=20 + i, round_number=1 + 3 * i)
              for i, p in enumerate(["random:12", "greedy", "strong", "expert"])]
    rounds.append(solo_round("random:13", seed=25, round_number=11,
                             rules=Rules(max_turns=300)))
    sims = [simulation(["strong", "greedy", "random"], 6, seed=1, rounds=[1, 5]),
            simulation(["expert", "strong"], 4, seed=2, rounds=[3, 9]),
            simulation(["greedy", "random", "greedy", "strong"], 4, seed=3, rounds=[2],
                       rules=Rules(return_discard=True, max_turns=30, tie_break=True)),
            simulation(["strong"] * 9, 2, seed=4, rounds=[1], rules=Rules(decks=4)),
            simulation(["expert", "strong", "strong"], 4, seed=5, rounds=[4, 8],
                       duplicate="strong"),
            simulation(["random", "greedy"], 6, seed=6, rounds=[1, 2], duplicate="greedy")]
    totals = []
    for policy, n, extra in (("greedy", 4, {}), ("strong", 3, {}), ("expert", 2,
                                                                     {"rounds": [1, 6]}),
                             ("random", 5, {"rules": Rules(max_turns=50)}),
                             (["expert", "strong", "greedy", "random"], 4, {"rounds": [2, 9]}),
                             ("strong", 9, {"rules": Rules(decks=4), "rounds": [3]})):
        t = fc.play_games(5, seed=17, n_players=n, policy=policy, **extra)
        totals.append({"policy": policy, "games": 5, "seed": 17, "n_players": n,
                       "rules": rules_dict(extra.get("rules", Rules())),
                       "rounds": extra.get("rounds"), "totals": t.tolist()})
    corpus = {"version": fc.__version__, "commit": "1ad0f08", "games": games,
              "rounds": rounds, "simulations": sims, "play_games": totals}
    OUT.write_text(json.dumps(corpus, separators=(",", ":")) + "\n")
    print(f"{OUT}: {OUT.stat().st_size} bytes, {len(games)} games, {len(rounds)} rounds, "
          f"{len(sims)} simulations, {len(totals)} play_games")
    print("reshuffles per game:", [g["reshuffles"] for g in games])
    print("max_turns hits per game:", [g["hit_max_turns"] for g in games])


if __name__ == "__main__":
    main()
