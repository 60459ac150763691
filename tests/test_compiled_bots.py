"""The built-in bots decide by the engine's compiled policies (fivecrowns._compiled_bots,
``_policies.observed_action``): the same choice as their own Python, the specification,
on every observation of whole games at every table size and rule, and on views built by
hand; the Python decides wherever the engine does not hold the view, and for other
options and subclasses."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from fivecrowns import ExpertBot, GreedyBot, Rules, StrongBot, _compiled_bots, player_action
from fivecrowns.game import Game
from fivecrowns.records import Observation, Phase
from helpers.engines import compiled_engine, python_bots

compiled_engine("_policies")  # skips on the Python twins (fails where the core is required)

BOTS = (GreedyBot, StrongBot, ExpertBot)
CODES = {GreedyBot: _compiled_bots.GREEDY, StrongBot: _compiled_bots.STRONG,
         ExpertBot: _compiled_bots.EXPERT}


def decide(bot: Any, obs: Observation) -> Any:
    return bot.choose_draw(obs) if obs.phase is Phase.DRAW else bot.choose_discard(obs)


def check(obs: Observation) -> int:
    """Every built-in bot's compiled choice is its Python choice for ``obs``; how many
    were made in C."""
    made = 0
    for cls in BOTS:
        with python_bots():
            want = decide(cls(), obs)
        made += _compiled_bots.compiled_action(CODES[cls], obs) is not None
        assert decide(cls(), obs) == want, (cls.__name__, obs)
    return made


@pytest.mark.parametrize("n_players, rules, rounds", [
    (2, Rules(), [1, 4, 9]),
    (3, Rules(return_discard=True), [2, 6, 11]),
    (4, Rules(decks=4), [1, 3, 7]),
    (6, Rules(max_turns=40), [5, 10]),
    (2, Rules(tie_break=True), [1, 2]),
])
def test_every_decision_of_whole_games_is_the_bots_own(n_players: int, rules: Rules,
                                                       rounds: list[int]) -> None:
    """Every observation a seat to move gets in games of the three bots: final turns,
    cards that must be kept, reshuffles, tie-break rounds (sudden death) included."""
    made = decisions = 0
    for seed in range(4):
        game = Game(n_players, rules=rules, rounds=rounds, seed=seed)
        bots = [BOTS[(q + seed) % 3]() for q in range(n_players)]
        while not game.is_over:
            seat = game.current_player
            obs = game.observation(seat)
            made += check(obs)
            decisions += 3
            game.apply_action(player_action(bots[seat], obs))
    assert made == decisions > 200   # every view of a game is one the engine holds


def _obs(**changes: Any) -> Observation:
    game = Game(3, rounds=[4], seed=11)
    for _ in range(5):
        game.apply_action(player_action(StrongBot(), game.observation(game.current_player)))
    return dataclasses.replace(game.observation(game.current_player), **changes)


def test_views_no_round_holds_are_decided_in_python() -> None:
    """A view built by hand that no round's table holds (a hand past its size, a count
    past the deck, a pile without a top card) goes to the bot's Python, which answers it
    as before."""
    base = _obs()
    counts = base.counts.copy()
    counts[0] += 3                                   # more copies than two decks hold
    odd = [_obs(counts=counts),
           _obs(hand_size=base.hand_size + 1),       # the hand is not that size
           _obs(wild=2),
           _obs(n_players=20, taken_counts=base.taken_counts * 7)]
    for obs in odd:
        for cls in BOTS:
            assert _compiled_bots.compiled_action(CODES[cls], obs) is None
            with python_bots():
                try:
                    want = decide(cls(), obs)
                except Exception as exc:  # the same refusal both ways
                    want = type(exc)
            try:
                got = decide(cls(), obs)
            except Exception as exc:
                got = type(exc)
            assert got == want
    assert check(base) == 3


def test_options_and_subclasses_decide_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the bots the engine's policies are (the classes themselves, StrongBot with its
    defaults) ask the engine."""
    class Careful(StrongBot):
        WILD_PENALTY = 1000.0

    def refuse(policy: int, obs: Observation) -> None:
        raise AssertionError("asked the engine")

    obs = _obs()
    monkeypatch.setattr(_compiled_bots, "compiled_action", refuse)
    for bot in (Careful(), StrongBot(lookahead=2), StrongBot(now_weight=0.5)):
        decide(bot, obs)
    with pytest.raises(AssertionError, match="asked the engine"):
        decide(StrongBot(), obs)


def test_the_entrance_checks_its_arguments() -> None:
    """``observed_action`` refuses a policy it does not play and rows of another length;
    any other view it does not hold is -1 (the Python decides), never a read past a
    row: a fuzz of every field."""
    core = compiled_engine("_policies")
    row, unseen, none = np.zeros(56, np.uint8), np.ones(56, np.uint8), np.zeros(56, np.uint8)
    row[:3] = 1
    args = [row, 5, -1, -1, unseen, none, 50, 3, 5, 2, 3, 2, 0, -1, False, False]
    assert core.observed_action(2, *args) in (0, 1)
    with pytest.raises(ValueError, match="policy must be"):
        core.observed_action(1, *args)               # "random": not a bot's choice
    with pytest.raises(ValueError, match="56 counts"):
        core.observed_action(2, row[:55], *args[1:])
    rng = np.random.default_rng(7)
    answered = 0
    for _ in range(3000):
        fuzz = list(args)
        counts = (rng.integers(1, 3, 56) * (rng.random(56) < 0.12)).astype(np.uint8)
        fuzz[0], fuzz[4], fuzz[5] = counts, rng.integers(0, 2, 56).astype(np.uint8), \
            (rng.random(56) < 0.03).astype(np.uint8)
        for k in (1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13):
            if rng.random() < 0.1:
                fuzz[k] = int(rng.integers(-3, 130))
        if rng.random() < 0.5:
            fuzz[12] = 1                                 # the discard phase
            fuzz[3] = int(rng.choice(np.flatnonzero(counts))) if counts.any() else -1
        if rng.random() < 0.8:
            fuzz[10] = int(counts.sum()) - (fuzz[12] == 1)
        code = core.observed_action(int(rng.choice([0, 2, 3])), *fuzz)
        assert -1 <= code < 114
        answered += code >= 0
    assert answered > 100


def test_views_changed_at_random_are_decided_the_same() -> None:
    """Views no game reaches but the engine holds (unseen cards, the next player's picks,
    pile and deck sizes, a final turn, the card to keep, changed at random within the
    deck): the compiled choice is still the Python one."""
    rng = np.random.default_rng(2026)
    game = Game(4, rounds=[3, 8], seed=5)
    bots = [StrongBot(), ExpertBot(), GreedyBot(), StrongBot()]
    made = 0
    while not game.is_over:
        obs = game.observation(game.current_player)
        for _ in range(3):
            nxt = (obs.player + 1) % obs.n_players
            taken = [row.copy() for row in obs.taken_counts]
            if rng.random() < 0.5:
                taken[nxt] = (rng.random(56) < 0.05).astype(np.uint8)
            room = np.full(56, 2, np.int64)
            room[55] = 6
            room -= obs.counts.astype(np.int64) + taken[nxt]
            changes: dict[str, Any] = {     # the unseen copies: within what is left
                "unseen_counts": (rng.integers(0, 3, 56) % (np.maximum(room, 0) + 1)
                                  ).astype(np.uint8),
                "taken_counts": tuple(taken),
                "draw_size": int(rng.integers(0, 40)),
            }
            if rng.random() < 0.3:
                changes["went_out"] = (obs.player + 1) % obs.n_players
                changes["final_turn"] = True
            if rng.random() < 0.2:
                changes["return_discard"] = not obs.return_discard
            made += check(dataclasses.replace(obs, **changes))
        game.apply_action(player_action(bots[game.current_player], obs))
    assert made > 300
