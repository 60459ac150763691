"""What the rollout engine is given, checked: the policies' codes, the runs' arguments,
the pieces a run is cut into, and what a round's history says of the hands (for
:func:`~fivecrowns.rollout.play_worlds`). Private: :mod:`fivecrowns.rollout` and
:mod:`fivecrowns.decisions` build their calls of the engine from these.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ._checks import check_game, check_int
from .records import EventKind
from .registry import engine_policies, engine_policy
from .round import Round
from .rules import Rules
from .seeding import int_seed

# The compiled policies in the engine's order (fivecrowns.rollout.POLICIES, documented there)
POLICIES = engine_policies()
_RANDOM = POLICIES.index("random")
_MAX_PLAYERS = 14
# The largest count the engine takes (a C int): worlds, tries, replay_draws.
_INT_MAX = 2**31 - 1
# Rounds per call below which threads are not worth starting.
_SERIAL_ROUNDS = 64
_SERIAL_GAMES = 8
# Games (rounds) per piece of work, by policy: a piece's generators and packed rounds are
# all the memory a call needs besides its result, and Ctrl-C is seen between pieces, so
# a piece is kept to about a quarter of a second of one core (measured on the project's
# shared machine: 0.22 ms a greedy game, 0.85 ms a random one, 1.9 ms a strong one,
# 49 ms an expert one); with a policy per seat, the slowest seat's piece.
_GAMES_PER_PIECE = {"greedy": 1024, "random": 256, "strong": 128, "expert": 4}
_ROUNDS_PER_PIECE = 512


def _policy(policy: object) -> int:
    """The engine's number of the policy named ``policy`` (any name the registry takes for
    it), checked."""
    return POLICIES.index(engine_policy(policy))


def _seat_policies(policy: object, n_players: int) -> list[int]:
    """The policy codes of a sequence with one policy per seat, checked."""
    if isinstance(policy, (str, bytes)) or not isinstance(policy, Sequence):
        raise TypeError(f"policy must be a str or a sequence of str (one per seat), got "
                        f"{type(policy).__name__}")
    seats = list(policy)
    if len(seats) != n_players:
        raise ValueError(f"policy must name one policy per seat: {n_players} for "
                         f"n_players={n_players}, got {len(seats)}")
    return [POLICIES.index(engine_policy(p, what=f"policy[{q}]"))
            for q, p in enumerate(seats)]


def _choices(code: int, seed: object,
             seeds_of: Callable[[int], list[int]]) -> list[np.random.BitGenerator] | None:
    """The random policy's bit generators, one per seed of ``seeds_of(seed)`` (those of
    ``default_rng``); None for the other policies."""
    if code != _RANDOM:
        return None
    return [np.random.PCG64(s) for s in seeds_of(_random_seed(seed))]


def _random_seed(seed: object) -> int:
    if seed is None:
        raise TypeError("the random policy needs a seed= (an int, a numpy SeedSequence or "
                        "Generator) for its choices")
    return int_seed(seed)


def _round_list(rounds: object) -> list[Round]:
    if isinstance(rounds, Round):
        raise TypeError("rounds must be a sequence of Round; for one round pass [round]")
    if not isinstance(rounds, Sequence):
        raise TypeError(f"rounds must be a sequence of Round, got {type(rounds).__name__}")
    out = list(rounds)
    for i, r in enumerate(out):
        if not isinstance(r, Round):
            raise TypeError(f"rounds[{i}] must be a Round, got {type(r).__name__}")
    return out


_SEQUENCE = np.random.SeedSequence(0)


def _copy_bit_generator(bit_generator: np.random.BitGenerator) -> np.random.BitGenerator:
    """A copy of ``bit_generator``, state included (4 times cheaper than deepcopy)."""
    try:
        new = type(bit_generator)(_SEQUENCE)
        new.state = bit_generator.state
    except Exception:  # a bit generator of another kind
        return copy.deepcopy(bit_generator)
    return new


def _check_games(games: object, seed: object, n_players: int, rules: object,
                 rounds: Sequence[int] | None, first_dealer: object
                 ) -> tuple[int, int, Rules, npt.NDArray[np.int8], int]:
    """The checked arguments of a run of whole games (play_games, record_decisions):
    games, seed, rules, the round plan and the first dealer (a game's checks)."""
    games = check_int(games, "games", 0)
    rules_, plan, seed_, first = check_game(n_players, seed, rules, rounds, first_dealer)
    return games, seed_, rules_, np.array(plan, dtype=np.int8), first


def _inference(r: Round) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32],
                                   npt.NDArray[np.int32]]:
    """What the history says of each player's hand, as three rows over the seats: the
    card type of their latest move if it was a discard (not going out), the type the
    rules kept in their hand that turn (the card they had just taken, unless the rules
    let it go back), -1 where there is none; and how many blind draws they made."""
    last = np.full(_MAX_PLAYERS, -1, dtype=np.int32)
    kept = np.full(_MAX_PLAYERS, -1, dtype=np.int32)
    blind = np.zeros(_MAX_PLAYERS, dtype=np.int32)
    seen: set[int] = set()
    history = r.history
    for e in history:
        if e.kind is EventKind.DRAW_DECK:
            blind[e.player] += 1
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        if e.player < 0 or e.player in seen:
            continue
        seen.add(e.player)
        if e.kind is EventKind.DISCARD and e.card is not None:
            last[e.player] = e.card.index
            before = history[i - 1] if i > 0 else None
            if not r.rules.return_discard and before is not None and \
                    before.player == e.player and before.kind is EventKind.DRAW_DISCARD \
                    and before.card is not None:
                kept[e.player] = before.card.index
        if len(seen) == r.n_players:
            break
    return last, kept, blind



def _check_worlds(r: Round, actions: Sequence[int], worlds: object, seed: object,
                  discard_weight: object, tries: object, replay_draws: object,
                  deadline: object) -> tuple[int, int, int, int, list[int]]:
    """The checked arguments of :func:`~fivecrowns.rollout.play_worlds` on round ``r`` (a
    clone: one moment of the round): worlds, seed, tries, replay_draws and the actions'
    codes."""
    worlds = check_int(worlds, "worlds", 1, _INT_MAX)
    seed = int_seed(seed)
    if isinstance(discard_weight, bool) or not isinstance(discard_weight, (int, float)):
        raise TypeError(f"discard_weight must be a number, got "
                        f"{type(discard_weight).__name__}")
    if not discard_weight >= 0:
        raise ValueError(f"discard_weight must be 0 or more, got {discard_weight}")
    tries = check_int(tries, "tries", 1, _INT_MAX)
    replay_draws = check_int(replay_draws, "replay_draws", 0, _INT_MAX)
    if deadline is not None and (isinstance(deadline, bool)
                                 or not isinstance(deadline, (int, float))):
        raise TypeError(f"deadline must be a time.perf_counter() moment or None, got "
                        f"{type(deadline).__name__}")
    if r.is_over:
        raise ValueError("the round is over: there is no move to play")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, (Sequence, np.ndarray)):
        raise TypeError(f"actions must be a sequence of action codes, got "
                        f"{type(actions).__name__}")
    codes = []
    for i, a in enumerate(actions):
        check_int(a, f"actions[{i}]")
        if not r.can_apply_action(int(a)):
            raise ValueError(f"actions[{i}] = {int(a)} is not a legal move of player "
                             f"{r.current_player} now")
        codes.append(int(a))
    return worlds, seed, tries, replay_draws, codes
