"""Write tests/data/compat_<version>.json: games, rounds and simulations as this version of
fivecrowns plays them, for tests/test_compat.py to check that later versions play them
identically.

Run it from a checkout of the version it records, never from a later one: the corpus is the
old behaviour. ``compat_0.3.json`` was written at commit 1ad0f08, ``compat_0.4.json`` at
cc37e60 (0.4's last commit), each with the compiled core built in place:
``python setup.py build_ext --inplace && PYTHONPATH=src python benchmarks/make_compat_corpus.py``.

What it holds (each entry names its players and arguments, so the test plays it again):

- ``games``: whole-game records (:meth:`GameRecord.to_dict`) of :func:`play_game` with
  every built-in bot (``random:<seed>``, ``greedy``, ``strong``, ``expert``,
  ``search:<seed>:<worlds>``), 2 to 7 players, party mode (``Rules(decks=4)``, 8 to 14
  players), ``tie_break``, ``return_discard``, ``max_turns``-limited rounds, reshuffles;
- ``rounds``: one-player rounds (a round takes 1 player; a game 2 or more): the moves
  and the result;
- ``simulations``: :func:`simulate_games` scores per game, duplicate matches' too;
- ``play_games``: the compiled engine's totals, per policy.

From 0.4 on, also (:func:`since_0_4`):

- ``learned_games``: records of games with LearnedBot (replayed from their records only:
  LearnedBot's shipped weights may be remade);
- ``pickles``: rounds pickled mid-play, with the moves StrongBot then makes and the result;
- ``play_out``: the compiled engine's moves for a round, per policy;
- ``play_worlds``: a search's values for every legal move of a position;
- ``decisions``: a digest of every array :func:`record_decisions` gives, and a small
  :func:`write_decisions` file (base64) for :func:`load_decisions`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import fivecrowns as fc
from fivecrowns.rules import Rules

DEFAULT = Rules()
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / f"compat_{'.'.join(fc.__version__.split('.')[:2])}.json"


def make_bot(spec: str) -> Any:
    kind, *args = spec.split(":")
    if kind == "random":
        return fc.RandomBot(seed=int(args[0]))
    if kind == "search":
        return fc.SearchBot(int(args[0]), int(args[1]))
    return {"greedy": fc.GreedyBot, "strong": fc.StrongBot, "expert": fc.ExpertBot,
            "learned": fc.LearnedBot}[kind]()


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


def digest(a: Any) -> str:
    """The dtype, shape and bytes of an array, as one hex digest."""
    import numpy as np

    a = np.ascontiguousarray(a)
    h = hashlib.sha256(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.tobytes())
    return h.hexdigest()


def play_some(r: Any, moves: int) -> int:
    """Up to ``moves`` of StrongBot's moves, stopping short of the round's end: how many."""
    bot = fc.StrongBot()
    for done in range(moves):
        r2 = r.clone()
        r2.apply_action(fc.player_action(bot, r2.observation(r2.current_player)))
        if r2.is_over:
            return done
        r.apply_action(fc.player_action(bot, r.observation(r.current_player)))
    return moves


def since_0_4() -> dict[str, Any]:
    """What 0.4 added: LearnedBot, pickled rounds, the engine's entrances, decision data."""
    from fivecrowns import decisions, rollout

    learned = [game(["learned", "strong", "expert", "greedy"], seed=30, rounds=[3, 10]),
               game(["learned", "learned"], seed=31, rounds=[5, 11])]
    pickles = []
    for seed, n, rnd, moves in ((40, 4, 5, 3), (41, 2, 11, 6), (42, 3, 1, 0), (43, 6, 8, 10),
                                 (44, 4, 7, 200)):
        r = fc.Round(n, rnd, seed=seed)
        moves = play_some(r, moves)
        bot = fc.StrongBot()
        blob = base64.b64encode(pickle.dumps(r)).decode()
        actions = []
        while not r.is_over:
            a = fc.player_action(bot, r.observation(r.current_player))
            r.apply_action(a)
            actions.append(a)
        assert r.result is not None
        pickles.append({"seed": seed, "n_players": n, "round_number": rnd, "moves": moves,
                        "pickle": blob, "actions": actions,
                        "scores": list(r.result.scores), "turns": r.result.turns})
    outs = []
    for seed, n, rnd, policy in ((50, 3, 4, "greedy"), (51, 4, 9, "strong"),
                                 (52, 2, 11, "expert"), (53, 5, 6, "random")):
        r = fc.Round(n, rnd, seed=seed)
        outs.append({"seed": seed, "n_players": n, "round_number": rnd, "policy": policy,
                     "play_seed": 7,
                     "actions": rollout.play_out_actions(r, policy=policy, seed=7)})
    worlds = []
    for seed, n, rnd, moves, policy in ((60, 4, 6, 9, "strong"), (61, 2, 10, 4, "greedy"),
                                        (62, 3, 3, 13, "expert")):
        r = fc.Round(n, rnd, seed=seed)
        moves = play_some(r, moves)
        legal = [int(a) for a in r.legal_actions()]
        values = rollout.play_worlds(r, legal, worlds=16, seed=seed, policy=policy)
        worlds.append({"seed": seed, "n_players": n, "round_number": rnd, "moves": moves,
                       "policy": policy, "worlds": 16, "actions": legal,
                       "values": values.tolist()})
    runs = []
    for games, seed, policy, n, features, rounds in ((3, 70, "expert", 4, True, None),
                                                    (2, 71, "strong", 2, False, [1, 11]),
                                                    (2, 72, ["greedy", "random", "strong"], 3,
                                                     True, [6])):
        d = decisions.record_decisions(games, seed=seed, policy=policy, n_players=n,
                                       features=features, rounds=rounds)
        arrays = {name: digest(getattr(d, name)) for name in
                  ("obs", "features", "mask", "action", "game", "round", "player", "turn",
                   "round_score", "game_total", "reward", "round_end", "episode_end")
                  if getattr(d, name) is not None}
        runs.append({"games": games, "seed": seed, "policy": policy, "n_players": n,
                     "features": features, "rounds": rounds, "decisions": len(d.action),
                     "digests": arrays})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.npz"
        decisions.write_decisions(path, 1, seed=73, policy="strong", n_players=2,
                                  rounds=[2], features=True)
        small = {"games": 1, "seed": 73, "policy": "strong", "n_players": 2, "rounds": [2],
                 "features": True, "npz": base64.b64encode(path.read_bytes()).decode()}
    return {"learned_games": learned, "pickles": pickles, "play_out": outs,
            "play_worlds": worlds, "decisions": runs, "decision_file": small}


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
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    corpus = {"version": fc.__version__, "commit": commit, "games": games,
              "rounds": rounds, "simulations": sims, "play_games": totals}
    if tuple(int(x) for x in fc.__version__.split(".")[:2]) >= (0, 4):
        corpus.update(since_0_4())
    OUT.write_text(json.dumps(corpus, separators=(",", ":")) + "\n")
    print(f"{OUT}: {OUT.stat().st_size} bytes, {len(games)} games, {len(rounds)} rounds, "
          f"{len(sims)} simulations, {len(totals)} play_games")
    print("reshuffles per game:", [g["reshuffles"] for g in games])
    print("max_turns hits per game:", [g["hit_max_turns"] for g in games])


if __name__ == "__main__":
    main()
