"""Five Crowns as a PettingZoo AEC environment (needs ``fivecrowns[rl]``).

It follows the conventions of PettingZoo's classic card games:

- agents ``player_0`` .. ``player_{n-1}`` (seats; seat 0 deals the first round);
- :meth:`raw_env.observe` returns ``{"observation": float32 vector, "action_mask": int8
  (114,)}``: the vector is :func:`fivecrowns.envs.encoding.encode_observation`'s, and the
  mask marks the legal action codes of :mod:`fivecrowns.round` (all zeros for an agent
  whose turn it is not);
- one episode is a whole game: 11 rounds, or the round numbers given as ``rounds``;
- **rewards** come at the end of each round: every agent receives minus its round score
  (lower totals win, so the sum of an agent's rewards is minus its game total);
- the episode terminates for every agent when the last round ends; with ``max_turns``
  it is truncated after that many turns (a turn is one agent's draw and discard);
- an illegal action ends the episode with reward ``-100`` for its agent (PettingZoo's
  ``TerminateIllegalWrapper``, applied by :func:`aec_env`).

Examples
--------
>>> from fivecrowns.envs import aec_env
>>> env = aec_env(num_players=2, rounds=[1])
>>> env.reset(seed=3)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     env.step(action)
>>> env.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Game
from ..round import N_ACTIONS, Phase
from ..rules import Rules
from ._common import (
    ILLEGAL_REWARD,
    check_options,
    empty_mask,
    new_seed,
    observation_bounds,
    render_game,
)
from .encoding import _encode

__all__ = ["aec_env", "raw_env"]


def aec_env(num_players: int = 4, rounds: Sequence[int] | None = None, *,
            rules: Rules | None = None, render_mode: str | None = None,
            max_turns: int | None = None) -> AECEnv:
    """A Five Crowns game as a PettingZoo AEC environment, wrapped as classic envs are.

    The wrappers are PettingZoo's ``TerminateIllegalWrapper`` (an illegal action ends the
    episode, reward -100 to its agent), ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper``. Parameters are those of :class:`raw_env`.
    """
    env: AECEnv = raw_env(num_players, rounds, rules=rules, render_mode=render_mode,
                          max_turns=max_turns)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=ILLEGAL_REWARD)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped AEC environment (see the module docstring).

    Parameters
    ----------
    num_players : int
        2 to 7 (14 with ``Rules(decks=4)``).
    rounds : sequence of int, optional
        Round numbers to play, in order (default 1..11), as in
        :class:`~fivecrowns.game.Game`.
    rules : Rules, optional
        Without the tie-break round (``Rules(tie_break=False)``, the default).
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the table as text (every hand shown).
    max_turns : int, optional
        Truncate the episode after this many turns in total.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "fivecrowns_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, num_players: int = 4, rounds: Sequence[int] | None = None, *,
                 rules: Rules | None = None, render_mode: str | None = None,
                 max_turns: int | None = None) -> None:
        EzPickle.__init__(self, num_players, rounds, rules=rules, render_mode=render_mode,
                          max_turns=max_turns)
        super().__init__()
        self._rounds, self._rules = check_options(num_players, rounds, rules, render_mode,
                                                  max_turns, self.metadata["render_modes"])
        self.n_players = num_players
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents = self.possible_agents[:]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(num_players)
        space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._game: Game | None = None
        self._turns = 0
        self.agent_selection = self.possible_agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The :class:`~fivecrowns.game.Game` being played (after :meth:`reset`)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; the same ``seed`` gives the same game."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._game = Game(self.n_players, seed=new_seed(self._rng), rules=self._rules,
                          rounds=self._rounds)
        self._turns = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._game.current_player]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        seat = self._index[agent]
        vec = _encode(game.observation(seat), None)
        if not game.is_over and seat == game.current_player:
            mask = game.legal_action_mask().view(np.int8)
        else:
            mask = empty_mask()
        return {"observation": vec, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        done = game.round_index
        game.apply_action(int(action))  # type: ignore[arg-type]
        if game.round_index > done:
            scores = game.results[-1].scores
            self.rewards = {a: -float(scores[self._index[a]]) for a in self.agents}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if game.is_over:
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"totals": game.totals}
        else:
            if game.phase is Phase.DRAW:
                self._turns += 1
                if self.max_turns is not None and self._turns >= self.max_turns:
                    for a in self.agents:
                        self.truncations[a] = True
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_game(self.game)

    def close(self) -> None:
        """Nothing to release; the environment can be reset and used again."""
