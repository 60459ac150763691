"""Typical use of fivecrowns, type-checked by mypy --strict against the INSTALLED package.

``.ci/run`` runs ``mypy --strict typing/usage_check.py`` from outside the source tree, so
mypy reads the wheel's ``py.typed`` modules and ``_solver.pyi``: if a public signature or
the compiled core's stub stops matching this use, CI fails. The file also runs
(``python typing/usage_check.py``) to check that the annotated types are the real ones.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import fivecrowns as fc
from fivecrowns import _solver


def public_api() -> None:
    hand: tuple[fc.Card, ...] = fc.parse_cards("5C 7C JK 9D 9H 9S 4H KD")
    dead: int = fc.deadwood(hand, wild=13)
    solution: fc.Solution = fc.solve("5C 7C JK 9D 9H 9S 4H KD", wild=fc.Rank.KING)
    melds: tuple[fc.Meld, ...] = solution.melds
    kinds: list[fc.MeldKind] = [m.kind for m in melds]
    discard: fc.Discard = fc.best_discard("3S 4S 5S KD KH 8C JK", wild=8)
    card: fc.Card = discard.card
    out: bool = fc.can_go_out("3H 4H 5H 9C", wild=4)
    table: npt.NDArray[np.int32] = fc.draw_table("5C 6C 9D QD", wild=13)
    row: npt.NDArray[np.uint8] = fc.hand_counts(hand)
    batch = np.stack([row, row])
    many: npt.NDArray[np.int32] = fc.deadwood_many(batch, wild=13, threads=1)
    many2: npt.NDArray[np.int32] = fc.discard_deadwood_many(["5C 6C 7C KD"], wild="K")
    after: int = fc.discard_deadwood("5C 6C 7C KD", wild=13)
    dealt: npt.NDArray[np.uint8] = fc.random_hands(4, 13, seed=1)
    py: fc.solver.Implementation = fc.solver.implementation("python")
    name: str = py.name
    assert after == 0 and dealt.shape == (4, 56) and name == "python"
    rules: fc.Rules = fc.Rules(decks=4)
    value: int = fc.card_value(card, 13)
    text: str = fc.format_cards(fc.from_counts(row), symbols=True)
    assert dead == solution.deadwood == 4 and out and value >= 0 and text
    assert kinds and table.shape == (56,) and many.tolist() == [4, 4] and many2.tolist() == [0]
    assert rules.n_cards == 232


def simulations() -> None:
    """Each simulator's one return type (the duplicate match has its own entry point)."""
    games: fc.GamesReport = fc.simulate_games([fc.GreedyBot, fc.RandomBot], 2, seed=1,
                                              rounds=[1])
    match: fc.DuplicateReport = fc.duplicate_match(fc.StrongBot, fc.GreedyBot,
                                                   [fc.RandomBot], 2, seed=1, rounds=[1])
    bot: fc.SearchBot = fc.SearchBot(seed=1, worlds=4)
    assert games.scores.shape == (2, 2) and match.games == 2 and bot.worlds == 4
    # a policy by the registry's class name as well as by its own (rollout.Policy)
    totals: npt.NDArray[np.int64] = fc.play_games(2, seed=1, policy="StrongBot",
                                                  rounds=[1])
    seats: npt.NDArray[np.int64] = fc.play_games(1, seed=1, n_players=2, rounds=[1],
                                                 policy=["ExpertBot", "greedy"])
    scores: npt.NDArray[np.int32] = fc.play_out([fc.Round(3, 1, seed=1)], policy="StrongBot",
                                                seed=1)
    assert totals.shape == (2, 4) and seats.shape == (1, 2) and scores.shape == (1, 3)


def compiled_core() -> None:
    """The compiled core's entry points, as fivecrowns.solver calls them."""
    row = fc.hand_counts("5C 6C 7C 9D 9H")
    dead: int = _solver.deadwood_row(row, 13, 2)
    plan: tuple[int, list[tuple[int, int, int]], list[int]] = _solver.plan_row(row, 13, 2)
    best: tuple[int, int] = _solver.best_discard_row(row, 13, 2)
    table: npt.NDArray[np.int32] = _solver.draw_table_row(row, 13, 2)
    counts = np.stack([row, row])
    wilds = np.full(2, 13, dtype=np.int8)
    many: npt.NDArray[np.int32] = _solver.deadwood_many(counts, wilds, 2, 1)
    many2: npt.NDArray[np.int32] = _solver.discard_deadwood_many(counts, wilds, 2, 1)
    after: int = _solver.discard_deadwood_row(row, 13, 2)
    assert after == 9
    assert dead == plan[0] == 18 and best[0] == 9 and table.dtype == np.int32
    assert many.tolist() == [18, 18] and many2.dtype == np.int32


if __name__ == "__main__":
    public_api()
    simulations()
    compiled_core()
    print("usage_check: ok")
