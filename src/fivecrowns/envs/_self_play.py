"""One game in which every seat is a learner's: the specification of the vector
environment's self-play mode (``FiveCrownsVectorEnv(..., self_play=True)``).

It is :class:`~fivecrowns.envs.FiveCrownsEnv` with no bots: the same deal from the same
episode seed (the game's seed is the first drawn from ``np_random(seed)``, as there), the
same observation vector and mask, the same illegal-action reward and turn limit. What
differs is whose turn a step is: the seat to move plays the action, and the observation
given back is the next seat to move's (once the episode has ended, by the game or a
limit, the mover's: :meth:`observe` gives any seat's). A step's
reward is the mover's; ``info["seat_rewards"]`` holds every seat's (minus its score of
each round the step ended), since a round that one seat ends scores them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.vector (the Gymnasium vector environment)"):
    from gymnasium.utils.seeding import np_random

from ..actions import N_ACTIONS
from ..game import Game
from ..records import Phase
from ..rules import Rules
from ._common import ILLEGAL_REWARD, Encoder, check_options, new_seed

__all__ = ["SelfPlayGame"]


class SelfPlayGame:
    """A game of ``n_players`` learners; the options are FiveCrownsEnv's."""

    def __init__(self, n_players: int, rounds: Sequence[int] | None = None, *,
                 rules: Rules | None = None, max_turns: int | None = None,
                 solver_features: bool = False, normalize: bool = False) -> None:
        self._rounds, self._rules = check_options(n_players, rounds, rules, None, max_turns,
                                                  ())
        self.n_players = n_players
        self.max_turns = max_turns
        self.solver_features = solver_features
        self._encode = Encoder(n_players, solver_features, normalize, self._rules.decks)
        #: A seat's observation space (FiveCrownsEnv's).
        self.observation_space = self._encode.space()
        self._game: Game | None = None
        self._turns = 0

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("call reset() before using the game")
        return self._game

    def reset(self, *, seed: int) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        rng, _ = np_random(seed)
        self._game = Game(self.n_players, seed=new_seed(rng), rules=self._rules,
                          rounds=self._rounds)
        self._turns = 0
        seat = self._game.current_player
        return self.observe(seat), self._info(seat)

    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        mask = (np.zeros(N_ACTIONS, dtype=np.int8) if game.is_over
                else game.legal_action_mask().view(np.int8))
        return {"observation": self._encode(game, seat), "action_mask": mask}

    def _info(self, seat: int) -> dict[str, Any]:
        return {"totals": self.game.totals, "seat": seat}

    def step(self, action: int) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool,
                                         dict[str, Any]]:
        """The seat to move plays ``action``; the next observation is the next mover's."""
        game = self.game
        if game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        actor = game.current_player
        rewards = np.zeros(self.n_players, dtype=np.float64)
        a = int(action)
        if not (0 <= a < N_ACTIONS and game.legal_action_mask()[a]):
            rewards[actor] = ILLEGAL_REWARD
            info = self._info(actor)
            info.update(illegal_action=a, actor=actor, seat_rewards=rewards)
            return self.observe(actor), float(rewards[actor]), True, False, info
        done = game.round_index
        was_draw = game.phase is Phase.DRAW
        game.apply_action(a, player=actor)
        if game.round_index > done:
            rewards -= np.asarray(game.results[-1].scores, dtype=np.float64)
        if not was_draw:
            self._turns += 1
        truncated = (self.max_turns is not None and self._turns >= self.max_turns
                     and not game.is_over)
        seat = actor if game.is_over or truncated else game.current_player
        info = self._info(seat)
        info.update(actor=actor, seat_rewards=rewards)
        return self.observe(seat), float(rewards[actor]), game.is_over, truncated, info
