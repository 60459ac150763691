# Type stub of the compiled vector environment's games (fivecrowns/_vecgames.pyx).
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ._round_state import RoundState

def encode_state(state: RoundState, player: int, out: npt.NDArray[np.float32],
                 round_number: int, totals: Any) -> None: ...

@disjoint_base
class VectorGames:
    """The compiled games of ``envs.vector.FiveCrownsVectorEnv``."""

    @property
    def n(self) -> int: ...
    @property
    def size(self) -> int: ...
    def __new__(cls, n: int, n_players: int, seats: Sequence[int], policies: Sequence[int],
                decks: int, max_turns: int, return_discard: bool, rounds: Sequence[int],
                agent_turns: int, max_steps: int,
                scale: npt.NDArray[np.float32] | None,
                features: bool = ...) -> VectorGames: ...
    def provide(self, i: int, rng: np.random.BitGenerator,
                choices: Sequence[np.random.BitGenerator | None]) -> None: ...
    def seed(self, run_seed: int) -> None: ...
    def begin(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8],
              seats: npt.NDArray[np.int64], start: int, stop: int) -> None: ...
    def step(self, actions: npt.NDArray[np.int64], obs: npt.NDArray[np.float32],
             masks: npt.NDArray[np.int8], rewards: npt.NDArray[np.float64],
             seat_rewards: npt.NDArray[np.float64], terms: npt.NDArray[np.uint8],
             truncs: npt.NDArray[np.uint8], illegal: npt.NDArray[np.int32],
             actors: npt.NDArray[np.int32], seats: npt.NDArray[np.int64],
             final_obs: npt.NDArray[np.float32], final_masks: npt.NDArray[np.int8],
             ended: npt.NDArray[np.uint8], totals: npt.NDArray[np.int64], start: int,
             stop: int) -> None: ...
    def totals(self, i: int) -> tuple[int, ...]: ...
    def begin_one(self, i: int, obs: npt.NDArray[np.float32],
                  mask: npt.NDArray[np.int8]) -> None: ...
    def play_one(self, i: int, action: int, obs: npt.NDArray[np.float32],
                 mask: npt.NDArray[np.int8]) -> tuple[float, bool, bool, bool]: ...
    def __reduce__(self) -> Any: ...

def _episode_seed(run_seed: int, i: int, k: int) -> int: ...
def _pcg64_raw(seed: int, n: int, halves: bool = ...) -> list[int]: ...
