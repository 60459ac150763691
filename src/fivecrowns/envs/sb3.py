"""The vector environment as a Stable-Baselines3 ``VecEnv`` (needs ``stable-baselines3``,
which the ``train`` extra brings).

:func:`to_sb3` wraps a :class:`~fivecrowns.envs.vector.FiveCrownsVectorEnv` so that
Stable-Baselines3's algorithms, and sb3-contrib's ``MaskablePPO`` with its action masks,
train on it unchanged: no per-game Python environment, no subprocesses.

>>> from fivecrowns.envs.vector import FiveCrownsVectorEnv
>>> from fivecrowns.envs.sb3 import to_sb3
>>> venv = to_sb3(FiveCrownsVectorEnv(2, opponents=("greedy",), rounds=[1]), seed=3)
>>> obs = venv.reset()
>>> obs["action_mask"].shape, len(venv.env_method("action_masks"))
((2, 114), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("train", "fivecrowns.envs.sb3 (the Stable-Baselines3 adapter)"):
    from stable_baselines3.common.vec_env import VecEnv

from .vector import FiveCrownsVectorEnv

__all__ = ["FiveCrownsVecEnv", "to_sb3"]


class FiveCrownsVecEnv(VecEnv):
    """A :class:`~fivecrowns.envs.vector.FiveCrownsVectorEnv` with Stable-Baselines3's
    ``VecEnv`` interface (make it with :func:`to_sb3`).

    ``step_wait`` gives rewards as float32, ``dones`` as termination or truncation, and
    per game an info dict with ``terminal_observation`` (the ended episode's last
    observation) and ``TimeLimit.truncated`` where an episode ended, as SB3 expects.
    ``env_method("action_masks")`` gives every game's mask, what sb3-contrib's
    ``get_action_masks`` asks for.
    """

    def __init__(self, env: FiveCrownsVectorEnv, seed: int | None = None) -> None:
        if not isinstance(env, FiveCrownsVectorEnv):
            raise TypeError(f"env must be a FiveCrownsVectorEnv, got {type(env).__name__}")
        self.env = env  # before VecEnv.__init__, which reads render_mode through get_attr
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._first_seed = seed
        self._actions: npt.NDArray[Any] | None = None

    def reset(self) -> dict[str, npt.NDArray[Any]]:
        # VecEnv.seed(s) asks for seeds s, s+1... per game; the vector env derives every
        # game's deals from one seed, the first
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None \
            else self._first_seed
        obs, _ = self.env.reset(seed=seed)
        self._first_seed = None
        self._reset_seeds()
        self._reset_options()
        return {k: v.copy() for k, v in obs.items()}

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() must come before step_wait()")
        obs, rewards, terminated, truncated, infos = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            final = infos["final_obs"][i]
            out[i] = {"terminal_observation": {k: v.copy() for k, v in final.items()},
                      "TimeLimit.truncated": bool(truncated[i] and not terminated[i])}
        return ({k: v.copy() for k, v in obs.items()}, rewards.astype(np.float32), dones,
                out)

    def close(self) -> None:
        self.env.close()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions, ``(num_envs, 114)`` bool."""
        return self.env.action_masks().copy()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the games of a FiveCrownsVecEnv share their settings: "
                             f"cannot set {attr_name!r} per game")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        raise AttributeError(f"FiveCrownsVecEnv has no per-game method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.env, attr_name)

    def get_images(self) -> Sequence[None]:
        return [None] * self.num_envs

    def _get_indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def to_sb3(env: FiveCrownsVectorEnv, *, seed: int | None = None) -> FiveCrownsVecEnv:
    """``env`` as a Stable-Baselines3 ``VecEnv``; ``seed`` is its first reset's (SB3's
    ``VecEnv.seed`` sets a later one)."""
    return FiveCrownsVecEnv(env, seed)
