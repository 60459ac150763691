"""Adapters to game-AI frameworks: PettingZoo, Gymnasium and OpenSpiel.

They need the optional extra ``fivecrowns[rl]`` (``pip install "fivecrowns[rl]"``); the
core package needs only numpy. The names below import their framework on first use:

- :func:`aec_env`, :class:`raw_env`: a whole game as a PettingZoo AEC environment
  (:mod:`fivecrowns.envs.aec`);
- :class:`FiveCrownsEnv`: one seat against built-in bots as a Gymnasium environment
  (:mod:`fivecrowns.envs.gym`), registered as ``"fivecrowns/FiveCrowns-v0"`` when this
  package is imported with Gymnasium installed;
- :class:`FiveCrownsVectorEnv`: many such games stepped in one call, a Gymnasium vector
  environment (:mod:`fivecrowns.envs.vector`; ``gymnasium.make_vec(GYM_ID, num_envs=N,
  vectorization_mode="vector_entry_point")`` makes it), and :mod:`fivecrowns.envs.sb3` its
  Stable-Baselines3 adapter;
- :mod:`fivecrowns.envs.openspiel`: importing it registers the OpenSpiel game
  ``"python_five_crowns"``.

All three build their observations with :func:`encode_observation`
(:mod:`fivecrowns.envs.encoding`), which needs nothing but numpy; with ``features=True``
(the adapters' ``solver_features=True``) it appends the solver features of
:mod:`fivecrowns.envs.features`, and :func:`observation_scale` brings the vector to about
[-1, 1] (the adapters' ``normalize=True``).

Examples
--------
>>> import fivecrowns.envs as envs
>>> envs.observation_size(4)
432
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from .encoding import blocks, encode_observation, observation_scale, observation_size
from .features import feature_size, observation_features

if TYPE_CHECKING:
    from .aec import aec_env, raw_env
    from .gym import FiveCrownsEnv
    from .vector import FiveCrownsVectorEnv

__all__ = ["aec_env", "raw_env", "FiveCrownsEnv", "FiveCrownsVectorEnv", "GYM_ID",
           "encode_observation", "observation_size", "observation_scale", "blocks",
           "feature_size", "observation_features"]

#: The Gymnasium id of :class:`FiveCrownsEnv`.
GYM_ID = "fivecrowns/FiveCrowns-v0"

_LAZY = {"aec_env": "aec", "raw_env": "aec", "FiveCrownsEnv": "gym",
         "FiveCrownsVectorEnv": "vector"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _register_gym() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    from ._common import max_agent_steps

    if GYM_ID not in gymnasium.registry:
        # A time limit that cuts no game short: the most steps the agent can take in an
        # 11-round game under the default Rules (every round at Rules.max_turns, two
        # players). Pass max_episode_steps to gymnasium.make for a larger Rules.max_turns.
        gymnasium.register(id=GYM_ID, entry_point="fivecrowns.envs.gym:FiveCrownsEnv",
                           vector_entry_point="fivecrowns.envs.vector:FiveCrownsVectorEnv",
                           max_episode_steps=max_agent_steps())


_register_gym()
