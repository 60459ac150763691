"""What both twins of the round state share (``_state_py.RoundState`` and the compiled
``_round_state.RoundState``): the limits of a state, the deck's arrays, the checks of a
state's fields before either twin takes them (``from_state``, ``from_fields``: a
pickle's), and the generator's snapshots that copies keep.

Private: the twins import these through :mod:`fivecrowns._state_py`, whose names they
were.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from .cards import N_TYPES
from .rules import deck_counts, sorted_deck

__all__ = ["DRAW", "DISCARD", "OVER", "MAX_HAND", "TURN_LIMIT", "full_counts", "_sorted_deck",
           "_ANY_RNG", "_ANY_SEED", "_check_dealt", "_check_seat", "_check_state",
           "_check_table", "_check_type", "_checked_fields", "_counts", "_from_snapshot",
           "_generator", "_snapshot", "_types"]

DRAW, DISCARD, OVER = 0, 1, 2

#: The largest hand the solver is asked about (fivecrowns._checks.MAX_HAND_SIZE).
MAX_HAND = 20
_MAX_PLAYERS = 14
# The largest turn (and reshuffle) count a state holds: the compiled twin counts them in a
# C int, and a round may play a final turn per player past it. Refused beyond by both
# twins; a longer max_turns is the same rule as this one (no round gets near either).
TURN_LIMIT = 2**31 - 1 - _MAX_PLAYERS
_SCORE_LIMIT = 2**31 - 1
_N_FIELDS = 23


def full_counts(decks: int) -> npt.NDArray[np.int64]:
    """Every card type's copies in the deck (:func:`fivecrowns.rules.deck_counts`), a
    fresh array the caller may change."""
    row = _FULL.get(decks)
    return np.array(deck_counts(decks), dtype=np.int64) if row is None else row.copy()


def _sorted_deck(decks: int) -> npt.NDArray[np.intp]:
    """Every card of the deck in type order (:func:`fivecrowns.rules.sorted_deck`): what
    the first shuffle permutes. Read only."""
    cards = _SORTED.get(decks)
    return np.array(sorted_deck(decks), dtype=np.intp) if cards is None else cards


# Built once for the game's decks: every new state asks for them
_FULL = {d: np.array(deck_counts(d), dtype=np.int64) for d in (2, 4)}
_SORTED = {d: np.array(sorted_deck(d), dtype=np.intp) for d in (2, 4)}
for _row in (*_FULL.values(), *_SORTED.values()):
    _row.flags.writeable = False


# -- shared by both twins -----------------------------------------------------------------

def _counts(types: list[int], dtype: Any = np.uint8) -> Any:
    return np.bincount(np.array(types, dtype=np.intp), minlength=N_TYPES).astype(dtype)


def _check_count(value: Any, name: str, least: int, most: int) -> int:
    """``value`` as an int ``least..most``, else ``TypeError``/``ValueError``: both twins
    refuse what the compiled one cannot hold (a C int) before converting it."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not least <= value <= most:
        raise ValueError(f"{name} must be {least}..{most}, got {int(value)}")
    return int(value)


def _check_table(n_players: Any, hand_size: Any, wild: Any, decks: Any,
                 max_turns: Any) -> None:
    # Every deal passes here: plain ints in range (the usual case) are taken in one test,
    # which keeps Round() at 0.4's cost; anything else gets the checks and their messages.
    if (int is type(n_players) is type(hand_size) is type(wild) is type(decks)
            is type(max_turns) and 1 <= n_players <= _MAX_PLAYERS
            and 1 <= hand_size < MAX_HAND and 3 <= wild <= 13 and (decks == 2 or decks == 4)
            and 1 <= max_turns <= TURN_LIMIT):
        return
    _check_count(n_players, "n_players", 1, _MAX_PLAYERS)
    if _check_count(decks, "decks", -2**63, 2**63) not in (2, 4):
        raise ValueError(f"decks must be 2 or 4, got {decks}")
    _check_count(hand_size, "hand_size", 1, MAX_HAND - 1)
    _check_count(wild, "wild", 3, 13)
    _check_count(max_turns, "max_turns", 1, TURN_LIMIT)


def _check_state(n: int, hand_size: int, decks: int, sudden_death: bool, current: Any,
                 phase: Any, turn: Any, taken: Any, went_out: Any, final_left: Any,
                 scores: Iterable[int], reshuffles: Any, rows: npt.NDArray[Any],
                 known: npt.NDArray[Any]) -> list[int]:
    """``RoundState.from_state``'s checks of the values but the cards' places: each in
    its range, and together a state that the moves can reach (the compiled moves trust
    it: a hand of the wrong size, a finished round in play or final turns that never end
    would make them read past an array or loop for ever); the scores as a list."""
    _check_count(current, "current", 0, n - 1)
    _check_count(phase, "phase", DRAW, OVER)
    _check_count(turn, "turn", 0, TURN_LIMIT)
    _check_count(reshuffles, "reshuffles", 0, TURN_LIMIT)
    _check_count(taken, "taken", -1, N_TYPES - 1)
    _check_count(went_out, "went_out", -1, n - 1)
    _check_count(final_left, "final_left", 0, max(0, n - 1))
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        raise TypeError(f"scores must be {n} ints, got {type(scores).__name__}")
    points = list(scores)
    if len(points) != n:
        raise ValueError(f"scores must be {n} ints, -1 or more, got {len(points)}")
    points = [_check_count(x, "a score", -1, _SCORE_LIMIT) for x in points]
    if (rows < 0).any() or (known < 0).any() or (known > rows).any():
        raise ValueError("hands and taken_counts must be counts, taken_counts within "
                         "hands")
    if n * hand_size + 1 > len(sorted_deck(decks)):
        raise ValueError(f"{n} hands of {hand_size} cards and a turned-up card need more "
                         f"than the {len(sorted_deck(decks))} cards of the deck")
    sizes = rows.sum(axis=1).tolist()
    # A deal in progress (RoundState.undealt, then deal_card: the OpenSpiel state's
    # chance nodes) has hands not yet full; nothing plays such a state out (_check_dealt).
    dealing = phase == DRAW and turn == 0 and went_out < 0 and taken < 0 and \
        max(sizes) <= hand_size and all(x < 0 for x in points)
    for q, size in enumerate(sizes):
        want = hand_size + (q == current and phase == DISCARD)
        if size != want and not dealing:
            raise ValueError(f"player {q} holds {size} cards; in phase {phase} with "
                             f"{hand_size}-card hands they hold {want}")
    if taken >= 0 and (phase != DISCARD or not rows[current, taken]):
        raise ValueError(f"taken ({taken}) must be -1 but in the discard phase, a card "
                         f"type the current player holds")
    scored = [q for q in range(n) if points[q] >= 0]
    if phase == OVER:
        if len(scored) != n or final_left:
            raise ValueError("a round that is over has every score and no final turn left")
    elif went_out < 0:
        if scored or final_left:
            raise ValueError("before anyone goes out no one has a score and no final "
                             "turn is left")
    else:
        # the final turns go clockwise from the one who went out: they and the players
        # after them have scored, the current player and the rest have not
        done = (current - went_out) % n
        if sudden_death or points[went_out] != 0 or final_left != n - done or \
                sorted(scored) != sorted((went_out + k) % n for k in range(done)):
            raise ValueError(f"the final turns after player {went_out} went out do not add "
                             f"up: current {current}, final_left {final_left}, scores "
                             f"{points}{' (sudden death ends the round)' if sudden_death else ''}")
    return points


def _check_dealt(state: Any) -> None:
    """Raise ``ValueError`` for a round whose deal is not finished: the policies play
    full hands (the compiled engine checks the same in C)."""
    sizes = state.hands().sum(axis=1)
    want = np.full(state.n_players, state.hand_size)
    if state.phase == DISCARD:
        want[state.current] += 1
    if not np.array_equal(sizes, want):
        raise ValueError("a round whose deal is not finished cannot be played out")


def _checked_fields(fields: Any) -> tuple[Any, ...]:
    """Raise ``ValueError``/``TypeError`` unless ``fields`` has the form of
    :meth:`RoundState.fields` (a pickle's): the checks before ``from_state`` takes the
    values, which checks them (``from_fields`` is an entrance like any other)."""
    if not isinstance(fields, tuple) or len(fields) != _N_FIELDS:
        size = len(fields) if isinstance(fields, tuple) else "?"
        raise ValueError(f"a round state's fields are a tuple of {_N_FIELDS} values, got "
                         f"{type(fields).__name__} of {size}")
    max_turns = fields[4]
    if isinstance(max_turns, int) and TURN_LIMIT < max_turns <= _SCORE_LIMIT:
        # 0.4 held a longer Rules.max_turns as 2**31 - 1: the same rule as TURN_LIMIT
        fields = fields[:4] + (TURN_LIMIT,) + fields[5:]
    n, hands, public = fields[0], fields[7], fields[8]
    n = _check_count(n, "n_players", 1, _MAX_PLAYERS)
    if not isinstance(hands, bytes) or len(hands) != n * N_TYPES:
        raise ValueError(f"the hands must be {n * N_TYPES} bytes")
    if not isinstance(public, tuple) or len(public) != 3 or \
            not all(isinstance(b, bytes) for b in public) or \
            [len(b) for b in public] != [N_TYPES, N_TYPES, n * N_TYPES]:
        raise ValueError(f"the public counts must be 3 bytes objects of {N_TYPES}, "
                         f"{N_TYPES} and {n * N_TYPES} bytes")
    for i, name in ((9, "draw_pile"), (10, "discard_pile"), (17, "scores")):
        if not isinstance(fields[i], (list, tuple)):
            raise TypeError(f"{name} must be a list, got {type(fields[i]).__name__}")
    for i, name in ((5, "return_discard"), (6, "sudden_death"), (18, "hit_max_turns")):
        if not isinstance(fields[i], (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {type(fields[i]).__name__}")
    _check_count(fields[20], "drawn", -1, N_TYPES - 1)
    rng, snapshot = fields[21], fields[22]
    if rng is not None:
        _generator(rng)
    else:
        try:
            _from_snapshot(snapshot)
        except Exception as exc:  # whatever a malformed snapshot raises
            raise ValueError(f"the generator's snapshot is malformed: {exc}") from None
    return fields


def _check_seat(seat: int, n_players: int, name: str) -> int:
    if not 0 <= seat < n_players:
        raise ValueError(f"{name} must be a seat 0..{n_players - 1}, got {seat}")
    return int(seat)


def _check_type(t: int) -> None:
    if not 0 <= t < N_TYPES:
        raise ValueError(f"a card type must be 0..55, got {t}")


def _types(cards: Iterable[int], name: str) -> list[int]:
    """``cards`` as a list of card types 0..55."""
    out = [int(t) for t in cards]
    bad = [t for t in out if not 0 <= t < N_TYPES]
    if bad:
        raise ValueError(f"{name} holds card types outside 0..55: {bad}")
    return out


def _generator(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    return rng


_ANY_SEED = np.random.SeedSequence(0)
_ANY_RNG = np.random.default_rng(0)
_PLAIN_BITS = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64,
               np.random.MT19937)


def _snapshot(rng: np.random.Generator) -> tuple[Any, Any]:
    """What :func:`_from_snapshot` needs for a generator in ``rng``'s state now: its bit
    generator's type and state (plain values), or, for a bit generator of another kind,
    a deep copy of the generator."""
    bits = rng.bit_generator
    kind = type(bits)
    if kind in _PLAIN_BITS:
        return kind, bits.state
    return None, copy.deepcopy(rng)


def _from_snapshot(snapshot: tuple[Any, Any]) -> np.random.Generator:
    """A new generator in the state of ``snapshot``."""
    kind, state = snapshot
    if kind is None:
        return copy.deepcopy(state)
    bits = kind(_ANY_SEED)
    bits.state = state
    return np.random.Generator(bits)

