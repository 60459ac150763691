# Type stub of the compiled rollout engine (fivecrowns/_rollout.pyx). Callers use
# fivecrowns.rollout, which validates the arguments; the engine reads the round states.
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

def permutation(generator: np.random.Generator, n: int) -> npt.NDArray[np.int64]: ...
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
def two_draw_sums(
    row: npt.NDArray[np.uint8], wild: int, decks: int, unseen: npt.NDArray[np.int64]
) -> tuple[int, int, int]: ...
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

# One round's state and moves (fivecrowns._state_py.RoundState is its documented twin:
# the same methods, the same answers). Card types 0..55, phases 0 draw / 1 discard /
# 2 over, -1 for a player, card or score that is not there.
CHECK_CODES: dict[str, int]
#: The largest turn count and max_turns a state holds (a C int, with room for the final
#: turns); shared with the twin (fivecrowns._state_py.TURN_LIMIT).
TURN_LIMIT: int

@disjoint_base
class RoundState:
    @staticmethod
    def deal(n_players: int, hand_size: int, wild: int, decks: int, max_turns: int,
             return_discard: bool, dealer: int, sudden_death: bool,
             rng: np.random.Generator) -> RoundState: ...
    @staticmethod
    def undealt(n_players: int, hand_size: int, wild: int, decks: int, max_turns: int,
                return_discard: bool, dealer: int, sudden_death: bool,
                draw_pile: Iterable[int], rng: np.random.Generator) -> RoundState: ...
    @staticmethod
    def from_state(hands: Any, draw_pile: Iterable[int], discard_pile: Iterable[int],
                   taken_counts: Any, wild: int, hand_size: int, decks: int,
                   max_turns: int, return_discard: bool, sudden_death: bool, current: int,
                   phase: int, turn: int, taken: int, went_out: int, final_left: int,
                   scores: Iterable[int], reshuffles: int,
                   rng: np.random.Generator) -> RoundState: ...
    @staticmethod
    def from_fields(fields: tuple[Any, ...]) -> RoundState: ...
    # the deal a card at a time, and chance outcomes placed on the draw pile
    def deal_card(self, player: int) -> int: ...
    def turn_up(self) -> int: ...
    def stack(self, t: int) -> None: ...
    # moves
    def check_draw(self, from_pile: bool) -> int: ...
    def reshuffle(self) -> None: ...
    def draw(self, from_pile: bool) -> tuple[int, bool]: ...
    def check_discard(self, t: int, go_out: bool) -> int: ...
    def discard(self, t: int, go_out: bool) -> bool: ...
    def play(self, action: int, history: list[Any]) -> Any: ...
    @property
    def drawn(self) -> int: ...
    def set_drawn(self, t: int) -> None: ...
    def deadwood_without(self, t: int) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def must_keep(self) -> int: ...
    # fields
    @property
    def n_players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def wild(self) -> int: ...
    @property
    def decks(self) -> int: ...
    @property
    def max_turns(self) -> int: ...
    @property
    def return_discard(self) -> bool: ...
    @property
    def sudden_death(self) -> bool: ...
    @property
    def current(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def taken(self) -> int: ...
    @property
    def went_out(self) -> int: ...
    @property
    def final_left(self) -> int: ...
    @property
    def hit_max_turns(self) -> bool: ...
    @property
    def reshuffles(self) -> int: ...
    @property
    def n_draw(self) -> int: ...
    @property
    def n_pile(self) -> int: ...
    @property
    def top_discard(self) -> int: ...
    @property
    def can_draw(self) -> bool: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def rng(self) -> np.random.Generator: ...
    # read access
    def hand(self, player: int) -> npt.NDArray[np.uint8]: ...
    def hand_bytes(self, player: int) -> bytes: ...
    def hands(self) -> npt.NDArray[np.uint8]: ...
    def draw_pile(self) -> list[int]: ...
    def discard_pile(self) -> list[int]: ...
    def draw_counts(self) -> npt.NDArray[np.uint8]: ...
    def pile_counts(self) -> npt.NDArray[np.uint8]: ...
    def hidden_counts(self) -> npt.NDArray[np.uint8]: ...
    def taken_counts(self) -> npt.NDArray[np.uint8]: ...
    def public_bytes(self) -> tuple[bytes, bytes, bytes]: ...
    def unseen(self, player: int) -> npt.NDArray[np.uint8]: ...
    # sampled worlds
    def set_hand(self, player: int, row: Any) -> None: ...
    def set_draw_pile(self, cards: Iterable[int]) -> None: ...
    def set_rng(self, rng: np.random.Generator) -> None: ...
    # copies and pickles
    def copy(self) -> RoundState: ...
    def copy_with(self, rng: np.random.Generator) -> RoundState: ...
    def copy_at(self, history: list[Any],
                share_rng: bool = ...) -> tuple[RoundState, list[Any]]: ...
    def __copy__(self) -> RoundState: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> RoundState: ...
    def fields(self) -> tuple[Any, ...]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

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
    def __reduce__(self) -> Any: ...

def _episode_seed(run_seed: int, i: int, k: int) -> int: ...
def _pcg64_raw(seed: int, n: int, halves: bool = ...) -> list[int]: ...
def policy_action(state: RoundState, policy: int,
                  choices: np.random.BitGenerator | None = ...) -> int: ...
