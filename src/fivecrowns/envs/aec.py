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
- an illegal action ends the episode with reward ``-100`` for its agent, as PettingZoo's
  ``TerminateIllegalWrapper`` would; the environment also enforces the call order and the
  action space itself (see :func:`aec_env`), without PettingZoo's wrappers.

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

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.aec (the PettingZoo environment)"):
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger

from ..actions import N_ACTIONS
from ..game import Game
from ..records import Phase
from ..rules import Rules
from ._common import ILLEGAL_REWARD, Encoder, check_options, empty_mask, new_seed, render_game

__all__ = ["aec_env", "raw_env"]


def aec_env(num_players: int = 4, rounds: Sequence[int] | None = None, *,
            rules: Rules | None = None, render_mode: str | None = None,
            max_turns: int | None = None, solver_features: bool = False,
            normalize: bool = False) -> AECEnv:
    """A Five Crowns game as a PettingZoo AEC environment, with the guarantees of the
    wrappers PettingZoo's classic envs use. Parameters are those of :class:`raw_env`.

    PettingZoo's classic card games wrap their env in ``TerminateIllegalWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``; together those cost more
    per step than the whole game, so :class:`raw_env` gives the same guarantees itself
    and this function returns it unwrapped:

    - an illegal action ends the episode: every agent is terminated and truncated, and the
      agent that played it receives -100, as with ``TerminateIllegalWrapper``;
    - an action outside ``Discrete(114)`` raises ``AssertionError`` (as
      ``AssertOutOfBoundsWrapper`` does);
    - before :meth:`~raw_env.reset`, ``step``, ``observe``, ``render`` and ``agent_iter``
      raise ``AssertionError`` and ``agents``, ``rewards``, ``terminations``,
      ``truncations``, ``infos`` and ``agent_selection`` raise ``AttributeError``; a loop
      over ``agent_iter()`` must step each agent; a step after every agent is done only
      warns (as ``OrderEnforcingWrapper`` does).

    Wrapping the result in PettingZoo's wrappers still works, and changes nothing but the
    speed.
    """
    return raw_env(num_players, rounds, rules=rules, render_mode=render_mode,
                   max_turns=max_turns, solver_features=solver_features, normalize=normalize)


#: Attributes that exist only after reset(): reading one before is an AttributeError.
_AFTER_RESET = frozenset({"rewards", "terminations", "truncations", "infos",
                          "agent_selection", "num_agents", "agents", "_cumulative_rewards"})


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The AEC environment (see the module docstring and :func:`aec_env`).

    It enforces the call order, rejects actions outside the action space and ends the
    episode on an illegal action itself, as PettingZoo's standard wrappers would.

    Parameters
    ----------
    num_players : int
        2 to 7 (14 with ``Rules(decks=4)``).
    rounds : sequence of int, optional
        Round numbers to play, in order (default 1..11), as in
        :class:`~fivecrowns.game.Game`.
    rules : Rules, optional
        Without the tie-break round (``Rules(tie_break=False)``, the default).
    render_mode : {None, "ansi", "human"}
        ``"ansi"``: :meth:`render` returns the table as text (every hand shown);
        ``"human"``: it prints that text on standard output and returns None, as
        PettingZoo's classic games do.
    max_turns : int, optional
        Truncate the episode after this many turns in total.
    solver_features : bool
        Append the solver features of :mod:`fivecrowns.envs.features` (62 entries, about
        the observing agent's own hand) to each observation vector.
    normalize : bool
        Scale the observation vector to about [-1, 1]
        (:func:`~fivecrowns.envs.encoding.observation_scale`).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "fivecrowns_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, num_players: int = 4, rounds: Sequence[int] | None = None, *,
                 rules: Rules | None = None, render_mode: str | None = None,
                 max_turns: int | None = None, solver_features: bool = False,
                 normalize: bool = False) -> None:
        EzPickle.__init__(self, num_players, rounds, rules=rules, render_mode=render_mode,
                          max_turns=max_turns, solver_features=solver_features,
                          normalize=normalize)
        super().__init__()
        self._rounds, self._rules = check_options(num_players, rounds, rules, render_mode,
                                                  max_turns, self.metadata["render_modes"])
        self.n_players = num_players
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.solver_features = solver_features
        self.normalize = normalize
        self._encode = Encoder(num_players, solver_features, normalize, self._rules.decks)
        space = spaces.Dict({
            "observation": spaces.Box(low=self._encode.low, high=self._encode.high,
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._game: Game | None = None
        self._turns = 0
        #: The action mask last observed by the agent to act, until its step.
        self._mask: npt.NDArray[np.int8] | None = None
        #: step() or reset() was called since agent_iter() last yielded an agent.
        self._has_updated = False

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails: the per-agent dicts before reset().
        if name in _AFTER_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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
        self._mask = None
        self._has_updated = True
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._game.current_player]

    def _legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        game = self._game
        assert game is not None
        if not game.is_over and seat == game.current_player:
            return game.legal_action_mask().view(np.int8)
        return empty_mask()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        game = self._game
        if game is None:
            raise AssertionError("reset() needs to be called before observe.")
        seat = self._index[agent]
        vec = self._encode(game, seat)
        mask = self._legal_mask(seat)
        if agent == self.agent_selection:
            self._mask = mask
        return {"observation": vec, "action_mask": mask}

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """Yield the agent to act (``agent_selection``) until every agent is done; step it
        before asking for the next one."""
        if self._game is None:
            raise AssertionError("reset() needs to be called before agent_iter().")
        return _AgentIter(self, max_iter)

    def step(self, action: int | None) -> None:
        game = self._game
        if game is None:
            raise AssertionError("reset() needs to be called before step.")
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        if not ((type(action) is int and 0 <= action < N_ACTIONS)
                or (action is None and dead) or self.action_spaces[agent].contains(action)):
            raise AssertionError(f"action {action!r} is not in the action space "
                                 f"Discrete({N_ACTIONS})")
        mask = self._mask
        self._mask = None
        if dead:
            self._was_dead_step(action)
            return
        a = int(action)  # type: ignore[arg-type]
        if mask is None:
            mask = self._legal_mask(self._index[agent])
        if not mask[a]:
            self._illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        done = game.round_index
        game.apply_action(a)
        if game.round_index > done:
            scores = game.results[-1].scores
            self.rewards = rewards = {b: -float(scores[self._index[b]]) for b in self.agents}
            cumulative = self._cumulative_rewards
            for b, r in rewards.items():
                cumulative[b] += r
        else:
            # zero rewards would add nothing to the cumulative ones (_accumulate_rewards)
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if game.is_over:
            for b in self.agents:
                self.terminations[b] = True
                self.infos[b] = {"totals": game.totals}
        else:
            if game.phase is Phase.DRAW:
                self._turns += 1
                if self.max_turns is not None and self._turns >= self.max_turns:
                    for b in self.agents:
                        self.truncations[b] = True
            self.agent_selection = self.possible_agents[game.current_player]

    def _illegal(self, agent: str) -> None:
        """End the episode as PettingZoo's ``TerminateIllegalWrapper`` does."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(ILLEGAL_REWARD)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        if self._game is None:
            raise AssertionError("reset() needs to be called before render.")
        if self.render_mode is None:
            return None
        text = render_game(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; the environment can be reset and used again."""


class _AgentIter:
    """``agent_iter()``'s iterator: the agent to act, as long as agents remain; each must
    be stepped (or the env reset) before the next is asked for (as PettingZoo's
    ``OrderEnforcingWrapper`` requires)."""

    __slots__ = ("env", "left")

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env = env
        self.left = max_iter

    def __iter__(self) -> _AgentIter:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        if not env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        return env.agent_selection
