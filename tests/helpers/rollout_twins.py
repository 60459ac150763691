"""What the rollout engine is checked against: rounds played by the Python engine and
bots, and rounds brought to every kind of state first. Shared by ``test_rollout.py`` and
the longer ``benchmarks/soak_rollout.py``."""

from __future__ import annotations

import pickle

import numpy as np

from fivecrowns import GreedyBot, Player, Round, Rules, registry
from fivecrowns.actions import encode_discard, encode_draw
from fivecrowns.records import Phase
from fivecrowns.rollout import play_out, play_out_actions
from helpers.engines import python_bots
from helpers.playing import play_until

__all__ = ["policy_bot", "by_bots", "random_prefix", "greedy_prefix", "varied_round",
           "check_twin"]


def policy_bot(policy: str) -> Player:
    """The Python bot of a deterministic policy of the engine (``greedy``, ``strong``,
    ``expert``): the registry's class of that name, with its defaults."""
    # the random policy draws from the engine's generator, not from a bot's: no twin here
    registry.engine_policy(policy, exclude=("random",), user="policy_bot")
    player: Player = registry.parse_bot(policy).cls()
    return player


def by_bots(r: Round, policy: str = "greedy") -> tuple[list[int], list[int]]:
    """Play ``r`` (changed) to its end with the policy's bot in every seat:
    (scores, moves)."""
    bot = policy_bot(policy)
    moves: list[int] = []
    with python_bots():  # the bots' own Python: the specification
        _play_by(r, bot, moves)
    assert r.result is not None
    return list(r.result.scores), moves


def _play_by(r: Round, bot: Player, moves: list[int]) -> None:
    while not r.is_over:
        obs = r.observation(r.current_player)
        if r.phase is Phase.DRAW:
            source = bot.choose_draw(obs)
            moves.append(encode_draw(source))
            r.draw(source)
        else:
            card, out = bot.choose_discard(obs)
            moves.append(encode_discard(card, go_out=out))
            r.discard(card, go_out=out)


def random_prefix(r: Round, moves: int, rng: np.random.Generator) -> Round:
    """Make up to ``moves`` uniformly random legal moves (never going out); returns ``r``."""
    for _ in range(moves):
        if r.is_over:
            break
        legal = [a for a in r.legal_actions() if a < 58]
        r.apply_action(int(legal[int(rng.integers(len(legal)))]))
    return r


def greedy_prefix(r: Round) -> Round:
    """Play greedily until someone has gone out (a final turn is next); returns ``r``."""
    return play_until(r, [GreedyBot()] * r.n_players, stop=lambda r: r.went_out is not None)


def varied_round(seed: int) -> Round:
    """A round of random size, table and rules, brought to a random kind of state."""
    rng = np.random.default_rng([seed, 99])
    party = rng.random() < 0.2
    decks = 4 if party else 2
    n_players = int(rng.integers(2, 15 if party else 8))
    size_cap = min(11, (58 * decks - 1) // n_players - 2)
    round_number = int(rng.integers(1, size_cap + 1))
    kind = int(rng.integers(0, 6))
    max_turns = int(rng.integers(1, 40)) if kind == 5 else 1000
    rules = Rules(decks=decks, return_discard=bool(rng.random() < 0.5), max_turns=max_turns)
    r = Round(n_players, round_number, seed=seed, rules=rules,
              dealer=int(rng.integers(n_players)))
    if kind == 1:  # somewhere in the middle, either phase
        random_prefix(r, int(rng.integers(1, 40)), rng)
    elif kind == 2:  # long enough that the draw pile runs out: reshuffles
        random_prefix(r, int(rng.integers(150, 400)), rng)
    elif kind == 3:  # final turns
        greedy_prefix(r)
        random_prefix(r, int(rng.integers(0, 2 * n_players)), rng)
    elif kind == 4:  # a tie-break round: the first to go out ends it
        r = Round(n_players, seed=seed, rules=rules, hand_size=6, wild=6, sudden_death=True,
                  dealer=int(rng.integers(n_players)))
        random_prefix(r, int(rng.integers(0, 10)), rng)
    return r


def check_twin(r: Round, policy: str = "greedy") -> int:
    """Check the engine against the bots on ``r`` (left untouched); the reshuffles the
    play-out made."""
    before = (r.turn, r.phase, pickle.dumps(r.deck.rng.bit_generator.state),
              r.deck.draw_size)
    scores = play_out([r], policy=policy)[0].tolist()  # type: ignore[arg-type]
    moves = play_out_actions(r, policy=policy)  # type: ignore[arg-type]
    assert (r.turn, r.phase, pickle.dumps(r.deck.rng.bit_generator.state),
            r.deck.draw_size) == before
    twin = r.clone()
    start = twin.deck.reshuffles
    want_scores, want_moves = by_bots(twin, policy)
    assert moves == want_moves, (r, moves, want_moves)
    assert scores == want_scores, (r, scores, want_scores)
    return twin.deck.reshuffles - start
