"""Pieces the PettingZoo and Gymnasium adapters share (no framework imported here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._bot_games import _RANDOM_BOT, seat_policy
from .._checks import check_int
from .._state import vector_core as _core
from ..actions import N_ACTIONS
from ..game import Game
from ..registry import parse_bot
from ..rules import N_ROUNDS, Rules
from ..seeding import make_rng
from .encoding import _encode, blocks, observation_scale, observation_size
from .features import feature_bounds

#: The reward of an illegal action, which also ends the episode.
ILLEGAL_REWARD = -100.0
#: Bounds of the observation vector's entries other than the relative totals.
_HIGH = 1000.0
#: Bounds of the relative totals.
_TOTALS = 1_000_000.0


def check_options(num_players: int, rounds: Sequence[int] | None, rules: Rules | None,
                  render_mode: str | None, max_turns: int | None,
                  render_modes: Sequence[str]) -> tuple[tuple[int, ...] | None, Rules]:
    """Validate the options common to the adapters; return (rounds, rules)."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if rules.tie_break:
        raise ValueError("the environments play without the tie-break round: "
                         "pass Rules(tie_break=False)")
    num_players = check_int(num_players, "num_players")
    if not 2 <= num_players <= rules.max_players:
        raise ValueError(f"num_players must be 2..{rules.max_players}, got {num_players}")
    plan = None if rounds is None else tuple(rounds)
    if plan is not None:
        Game(num_players, seed=0, rules=rules, rounds=plan)  # validates the rounds
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode must be None or one of {list(render_modes)}, "
                         f"got {render_mode!r}")
    if max_turns is not None and (isinstance(max_turns, bool)
                                  or not isinstance(max_turns, int) or max_turns < 1):
        raise ValueError(f"max_turns must be None or a positive int, got {max_turns!r}")
    return plan, rules


def max_agent_steps(n_players: int = 2, rules: Rules | None = None,
                    n_rounds: int = N_ROUNDS) -> int:
    """The most steps one seat can take in a game: no game, however long, takes more.

    A round ends at the latest when ``rules.max_turns`` turns have been played
    (docs/rules.rst, A round, 6), or, when someone goes out on the last of them, after the
    other ``n - 1`` players' final turns: at most ``max_turns + n - 1`` turns. A seat plays
    every ``n``-th of them, so at most ``ceil((max_turns + n - 1) / n)`` turns of two steps
    (a draw and a discard) a round. That is largest for two players, so the default
    (``n_players=2``) bounds every game of ``n_rounds`` rounds under these rules.
    Games between players that go out take a few dozen turns a round, far below it.

    >>> max_agent_steps()   # 11 rounds, Rules().max_turns = 1000
    11022
    """
    rules = Rules() if rules is None else rules
    turns = -(-(rules.max_turns + n_players - 1) // n_players)
    return 2 * turns * n_rounds


def observation_bounds(n: int, features: bool = False, normalize: bool = False,
                       decks: int = 2) -> tuple[npt.NDArray[np.float32],
                                                npt.NDArray[np.float32]]:
    """(low, high) of the observation vector for ``n`` players.

    Raw, every count is at most ``_HIGH``; scaled (``normalize``), every entry but the
    relative totals is in [0, 1] (see :func:`~fivecrowns.envs.encoding.observation_scale`).
    """
    size = observation_size(n, features=features)
    low = np.zeros(size, dtype=np.float32)
    b = blocks(n, features=features)
    if normalize:
        high = np.ones(size, dtype=np.float32)
        scale = observation_scale(n, features=features, decks=decks)
        high[b["totals"]] = _TOTALS * scale[b["totals"]]
        low[b["totals"]] = -high[b["totals"]]
    else:
        high = np.full(size, _HIGH, dtype=np.float32)
        low[b["totals"]] = -_TOTALS
        high[b["totals"]] = _TOTALS
    if features:
        low[b["features"]], high[b["features"]] = feature_bounds()
    return low, high


class Encoder:
    """The observation vector of one seat of a game, with the adapters' options.

    Parameters
    ----------
    n : int
        Players.
    features : bool
        Append the solver features (:mod:`fivecrowns.envs.features`).
    normalize : bool
        Scale to about [-1, 1] (:func:`~fivecrowns.envs.encoding.observation_scale`).
    decks : int
        The game's decks (the scale of the card counts depends on it).
    """

    __slots__ = ("features", "scale", "low", "high")

    def __init__(self, n: int, features: bool, normalize: bool, decks: int) -> None:
        for name, flag in (("solver_features", features), ("normalize", normalize)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
        self.features = features
        self.scale = observation_scale(n, features=features, decks=decks) if normalize else None
        self.low, self.high = observation_bounds(n, features, normalize, decks)

    def __call__(self, game: Game, seat: int) -> npt.NDArray[np.float32]:
        rnd = game.round
        local = game._local(seat)
        if _core is not None and not self.features and local is not None:
            # the same vector from the round's compiled state, no observation made
            vec = np.empty(192 + 60 * rnd.n_players, dtype=np.float32)
            number = rnd.round_number
            _core.encode_state(rnd._state, local, vec, -1 if number is None else number,
                               rnd.totals)
        else:
            vec = _encode(game.observation(seat), None, self.features)
        if self.scale is not None:
            vec *= self.scale
        return vec

    def space(self) -> Any:
        """The environments' observation space: a ``gymnasium.spaces.Dict`` of the
        vector (within :attr:`low`..:attr:`high`) and the action mask (Gymnasium is
        imported here, so that this module stays free of it)."""
        from gymnasium import spaces

        return spaces.Dict({
            "observation": spaces.Box(low=self.low, high=self.high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
        })


def new_seed(rng: np.random.Generator) -> int:
    """A game seed (63 bits) drawn from the environment's generator."""
    return int(rng.integers(0, 2**63 - 1))


def compiled_policies(opponents: Sequence[object]) -> list[int] | None:
    """The engine's policy of each opponent, in order, or None when one is a bot the
    engine does not play."""
    policies = []
    for opponent in opponents:
        if not isinstance(opponent, str):  # a player object: played in Python
            return None
        code = seat_policy(parse_bot(opponent).factory()(0))
        if code is None:
            return None
        policies.append(code)
    return policies


def episode_seeds(rng: np.random.Generator, opponents: int) -> tuple[int, tuple[int, ...]]:
    """The seeds ``FiveCrownsEnv.reset`` draws from its generator: the game's, then one per
    opponent in seat order, drawn whether it is used or not, so that the stream of seeds
    does not depend on which bots are random."""
    game = new_seed(rng)
    return game, tuple(new_seed(rng) for _ in range(opponents))


def episode_generators(seeds: tuple[int, tuple[int, ...]], seat: int,
                       policies: Sequence[int], n_players: int
                       ) -> tuple[np.random.BitGenerator, list[Any]]:
    """The generators the engine plays an episode with, from its ``seeds``
    (:func:`episode_seeds`) as ``FiveCrownsEnv`` makes its game and bots from them: the
    game's (``Game``'s ``default_rng``), and by seat (``choices``) a RandomBot opponent's
    own (None for the other seats; ``policies``: the opponents', the seats but ``seat``
    in order)."""
    game_seed, bot_seeds = seeds
    choices: list[Any] = [None] * n_players
    others = [q for q in range(n_players) if q != seat]
    for q, policy, bot_seed in zip(others, policies, bot_seeds):
        if policy == _RANDOM_BOT:
            choices[q] = make_rng(bot_seed).bit_generator
    return np.random.PCG64(game_seed), choices


def empty_mask() -> npt.NDArray[np.int8]:
    return np.zeros(N_ACTIONS, dtype=np.int8)


def render_game(game: Game) -> str:
    """A text view of a game for ``render_mode="ansi"`` (returned) and ``"human"``
    (printed): public state and every hand."""
    rnd = game.round
    obs = rnd.observation(0)
    top = "-" if obs.top_discard is None else str(obs.top_discard)
    lines = [f"round {rnd.round_number} (wild {rnd.wild}), turn {rnd.turn}, "
             f"{rnd.phase.value}: player_{game.current_player}; top discard {top}, "
             f"draw pile {obs.draw_size}; totals {list(game.totals)}"]
    for seat in range(game.n_players):
        hand = " ".join(str(c) for c in rnd.hand(seat))
        lines.append(f"  player_{seat}: {hand}")
    return "\n".join(lines)
