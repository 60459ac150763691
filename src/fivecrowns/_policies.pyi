# Type stub of the compiled built-in policies (fivecrowns/_policies.pyx).
from typing import Any

import numpy as np
import numpy.typing as npt

from ._round_state import RoundState

def two_draw_sums(
    row: npt.NDArray[np.uint8], wild: int, decks: int, unseen: npt.NDArray[np.int64]
) -> tuple[int, int, int]: ...
def policy_action(state: RoundState, policy: int,
                  choices: np.random.BitGenerator | None = ...) -> int: ...
def play_policies(state: RoundState, history: list[Any], actions: list[int],
                  policies: tuple[int | None, ...],
                  choices: tuple[np.random.BitGenerator | None, ...], stop: int,
                  first: int = ...) -> int: ...

def observed_action(policy: int, counts: npt.NDArray[np.uint8], top: int, kept: int,
                    drawn: int, unseen: npt.NDArray[np.uint8],
                    next_taken: npt.NDArray[np.uint8], draw_size: int, discard_size: int,
                    wild: int, decks: int, hand_size: int, n_players: int, phase: int,
                    went_out: int, sudden_death: bool, return_discard: bool) -> int: ...
