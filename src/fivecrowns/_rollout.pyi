# Type stub of the compiled runs of the engine (fivecrowns/_rollout.pyx). Callers use
# fivecrowns.rollout, which validates the arguments; the engine reads the round states.
from typing import Any

import numpy as np
import numpy.typing as npt

from ._round_state import RoundState as RoundState  # 0.4's pickles name it here

def play_rounds(
    states: list[RoundState],
    generators: list[np.random.BitGenerator],
    choices: list[np.random.BitGenerator] | None,
    policy: int,
    threads: int,
    trace: npt.NDArray[np.int16] | None = None,
    trace_len: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
def play_worlds(
    state: RoundState,
    player: int,
    actions: npt.NDArray[np.int16],
    worlds: int,
    seed: int,
    policy: int,
    opponents: int,
    threads: int,
    last_discard: npt.NDArray[np.int32],
    last_kept: npt.NDArray[np.int32],
    discard_weight: float,
    tries: int,
    blind: npt.NDArray[np.int32],
    cap: int,
    world_hands: npt.NDArray[np.uint8] | None = None,
    world_draws: npt.NDArray[np.uint8] | None = None,
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
# The addresses of bit generators' C structs, for the chunk workers (0 for None).
def _bitgens(
    generators: list[np.random.BitGenerator] | None, n: int
) -> npt.NDArray[np.uint64]: ...

# The chunk workers that play_rounds and play_games hand to threads (the GIL released).
def _rounds_range(
    states: list[RoundState],
    rngs: npt.NDArray[np.uint64],
    choices: npt.NDArray[np.uint64],
    policy: int,
    out: npt.NDArray[np.int32],
    trace: npt.NDArray[np.int16] | None,
    trace_len: npt.NDArray[np.int32] | None,
    start: int,
    stop: int,
) -> None: ...
def _worlds_range(
    round_state: RoundState,
    player: int,
    actions: npt.NDArray[np.int16],
    seed: int,
    policy: int,
    opponents: int,
    last_discard: npt.NDArray[np.int32],
    last_kept: npt.NDArray[np.int32],
    discard_weight: float,
    tries: int,
    blind: npt.NDArray[np.int32],
    cap: int,
    out: npt.NDArray[np.int32],
    world_hands: npt.NDArray[np.uint8] | None,
    world_draws: npt.NDArray[np.uint8] | None,
    start: int,
    stop: int,
) -> None: ...
def _games_range(
    rngs: npt.NDArray[np.uint64],
    choices: npt.NDArray[np.uint64],
    n_players: int,
    decks: int,
    max_turns: int,
    no_return: bool,
    rounds: npt.NDArray[np.int8],
    first_dealer: int,
    policy: int,
    out: npt.NDArray[np.int64],
    start: int,
    stop: int,
) -> None: ...
def _games_seated_range(
    rngs: npt.NDArray[np.uint64],
    choices: npt.NDArray[np.uint64],
    n_players: int,
    decks: int,
    max_turns: int,
    no_return: bool,
    rounds: npt.NDArray[np.int8],
    first_dealer: int,
    policies: npt.NDArray[np.int32],
    out: npt.NDArray[np.int64],
    start: int,
    stop: int,
) -> None: ...
def deal_hands(
    generator: np.random.Generator,
    deck: npt.NDArray[np.uint8],
    size: int,
    block: int,
    out: npt.NDArray[np.uint8],
) -> None: ...
def _decisions_range(
    rngs: npt.NDArray[np.uint64],
    choices: npt.NDArray[np.uint64],
    n_players: int,
    decks: int,
    max_turns: int,
    no_return: bool,
    rounds: npt.NDArray[np.int8],
    first_dealer: int,
    policies: npt.NDArray[np.int32],
    seats: npt.NDArray[np.uint8],
    info: npt.NDArray[np.int32],
    hand: npt.NDArray[np.uint8],
    pile: npt.NDArray[np.uint8],
    unseen: npt.NDArray[np.uint8],
    taken: npt.NDArray[np.uint8],
    outs: npt.NDArray[np.uint8],
    totals: npt.NDArray[np.int32],
    round_scores: npt.NDArray[np.int32],
    features: npt.NDArray[np.float32] | None,
    start: int,
    stop: int,
) -> tuple[int, int]: ...
# Whole games of built-in bots, logged (fivecrowns._bot_games).
def _logged_games_range(
    rngs: npt.NDArray[np.uint64],
    choices: npt.NDArray[np.uint64],
    n_players: int,
    decks: int,
    max_turns: int,
    no_return: bool,
    tie_break: bool,
    rounds: npt.NDArray[np.int8],
    first_dealer: int,
    policies: npt.NDArray[np.int32],
    log: npt.NDArray[np.int32],
    hands: npt.NDArray[np.uint8] | None,
    moves: list[npt.NDArray[np.int16] | None] | None,
    start: int,
    stop: int,
) -> None: ...
def _hands_cards(hands: npt.NDArray[np.uint8], k: int, cards: tuple[Any, ...]
                 ) -> tuple[tuple[Any, ...], ...]: ...
def _tokens(moves: npt.NDArray[np.int16], start: int, stop: int, tokens: tuple[str, ...]
            ) -> tuple[str, ...]: ...

