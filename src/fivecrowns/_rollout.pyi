# Type stub of the compiled rollout engine (fivecrowns/_rollout.pyx). Callers use
# fivecrowns.rollout, which validates and packs the rounds.
from typing import Any

import numpy as np
import numpy.typing as npt

def permutation(generator: np.random.Generator, n: int) -> npt.NDArray[np.int64]: ...
def play_rounds(
    hands: npt.NDArray[np.uint8],
    draws: npt.NDArray[np.uint8],
    piles: npt.NDArray[np.uint8],
    states: npt.NDArray[np.int32],
    scores: npt.NDArray[np.int32],
    publics: npt.NDArray[np.int32],
    generators: list[np.random.BitGenerator],
    choices: list[np.random.BitGenerator] | None,
    policy: int,
    threads: int,
    trace: npt.NDArray[np.int16] | None = None,
    trace_len: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
def play_games(
    generators: list[np.random.BitGenerator],
    choices: list[np.random.BitGenerator] | None,
    n_players: int,
    decks: int,
    max_turns: int,
    return_discard: bool,
    rounds: npt.NDArray[np.int8],
    first_dealer: int,
    policy: int,
    threads: int,
) -> npt.NDArray[np.int64]: ...
def _rounds_range(*args: Any) -> None: ...
def _games_range(*args: Any) -> None: ...
