"""Write tests/data/states_0.4.json: games and OpenSpiel states pickled by 0.4, for
tests/test_game_state_twins.py and tests/test_envs_openspiel.py to load with later
versions (whose game state is no longer kept in plain attributes).

Run it with 0.4 on the path, never a later version: a checkout of 0.4's last commit
(cc37e60) with its compiled core built in place, then from this tree
``PYTHONPATH=/path/to/0.4/src python benchmarks/make_state_corpus.py`` (the OpenSpiel
part needs ``open_spiel``; the file was written that way, in the venv of 0.5's work).
Each entry names the seed and the moves that made it, so the test plays the same moves
on a new game and compares.

- ``games``: :class:`~fivecrowns.Game` pickles (base64) after ``moves`` random legal
  moves (``numpy.random.default_rng(seed)`` choosing), mid-round, after some rounds, in a
  tie-break round and over;
- ``openspiel``: ``python_five_crowns`` states (``serialize_state``) after ``moves``
  random legal actions, with the game's parameters.
"""

from __future__ import annotations

import base64
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

import fivecrowns as fc

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "states_0.4.json"


def game_entry(n: int, seed: int, rounds: list[int], moves: int, tie_break: bool,
               first_dealer: int) -> dict[str, Any]:
    g = fc.Game(n, seed=seed, rounds=rounds, rules=fc.Rules(tie_break=tie_break),
                first_dealer=first_dealer)
    rng = np.random.default_rng(seed)
    done = 0
    while not g.is_over and done < moves:
        acts = g.legal_actions()
        g.apply_action(acts[int(rng.integers(len(acts)))])
        done += 1
    return {"n_players": n, "seed": seed, "rounds": rounds, "moves": done,
            "tie_break": tie_break, "first_dealer": first_dealer,
            "totals": list(g.totals), "over": g.is_over,
            "tie_break_seats": list(g.tie_break_seats),
            "pickle": base64.b64encode(pickle.dumps(g)).decode()}


def tie_break_game(n: int, rounds: list[int], in_play: bool) -> dict[str, Any]:
    """The first seed whose random game goes to a tie-break, pickled in the tie-break
    round (three moves into it) or after it."""
    for seed in range(2000):
        probe = fc.Game(n, seed=seed, rounds=rounds, rules=fc.Rules(tie_break=True))
        rng = np.random.default_rng(seed)
        moves = 0
        while not probe.is_over and not probe.tie_break_seats:
            acts = probe.legal_actions()
            probe.apply_action(acts[int(rng.integers(len(acts)))])
            moves += 1
        if probe.tie_break_seats:
            return game_entry(n, seed, rounds, moves + 3 if in_play else 10**6, True, 0)
    raise RuntimeError("no tie-break in 2,000 seeds")


def spiel_entries() -> list[dict[str, Any]]:
    import pyspiel

    from fivecrowns.envs import openspiel  # noqa: F401 (registers the game)

    out = []
    for players, rounds, moves, seed in ((2, 2, 40, 1), (3, 3, 150, 2), (2, 1, 10**5, 3),
                                         (4, 2, 90, 4)):
        game = pyspiel.load_game("python_five_crowns",
                                 {"players": players, "rounds": rounds})
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        done = 0
        while not state.is_terminal() and done < moves:
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
            done += 1
        out.append({"players": players, "rounds": rounds, "moves": done, "seed": seed,
                    "state": state.serialize()})
    return out


def main() -> None:
    if "_g" in fc.Game(2, seed=0).__dict__:
        sys.exit("run this with 0.4 on the path: this fivecrowns keeps a game state")
    games = [game_entry(3, 5, [1, 2, 3], 25, False, 1),
             game_entry(2, 6, [4, 1], 10**6, False, 0),
             game_entry(4, 7, [2, 3, 4], 120, True, 2),
             tie_break_game(2, [1], in_play=True),
             tie_break_game(3, [1], in_play=False)]
    corpus: dict[str, Any] = {"written_by": "0.4 (cc37e60)", "games": games}
    try:
        corpus["openspiel"] = spiel_entries()
    except ImportError as exc:
        sys.exit(f"open_spiel is needed for the OpenSpiel states: {exc}")
    OUT.write_text(json.dumps(corpus, indent=1) + "\n")
    print(f"wrote {OUT}: {len(games)} games, {len(corpus['openspiel'])} OpenSpiel states")


if __name__ == "__main__":
    main()
