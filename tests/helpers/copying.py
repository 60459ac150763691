"""Copies of rounds and games, and what must be equal in a copy: shared by the tests of
copies (test_clones.py) and the state machines (test_state_machine.py)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from fivecrowns import Game, Round
from fivecrowns.actions import ACTION_DRAW_DECK, ACTION_GO_OUT
from fivecrowns.records import Observation
from fivecrowns.replay import parse_token

__all__ = ["GAME_COPIES", "ROUND_COPIES", "game_state", "obs_key", "patient_action",
           "replayed", "round_state"]

_OBS_FIELDS = tuple(f.name for f in dataclasses.fields(Observation))


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, tuple) and value and isinstance(value[0], np.ndarray):
        return tuple(_plain(v) for v in value)
    return value


def obs_key(obs: Observation) -> tuple[Any, ...]:
    """Every field of an observation, arrays as bytes: equal keys, equal observations."""
    return tuple(_plain(getattr(obs, name)) for name in _OBS_FIELDS)


def round_state(r: Round) -> dict[str, Any]:
    """Everything about a round: what each player sees, the legal moves, the result, and
    the hidden state that decides the future (hands, draw pile order, the deck's
    generator)."""
    return {
        "phase": r.phase, "current": r.current_player, "turn": r.turn,
        "went_out": r.went_out, "final_turn": r.final_turn, "result": r.result,
        "observations": [obs_key(r.observation(p)) for p in range(r.n_players)],
        "legal": r.legal_actions(),
        "hands": [r.hand_counts(p).tobytes() for p in range(r.n_players)],
        "draw_pile": r.deck.draw_pile(), "discard_pile": r.deck.discard_pile(),
        "reshuffles": r.deck.reshuffles, "rng": r.deck.rng.bit_generator.state,
    }


def game_state(g: Game) -> dict[str, Any]:
    """Everything about a game: its round's state (:func:`round_state`), seats, totals,
    results, record, and the game's own generator (which deals the next rounds)."""
    state = round_state(g.round)
    state.update(
        seats=g.round_seats, seat=g.current_player, over=g.is_over, totals=g.totals,
        results=g.results, result=g.result, record=g.record(), legal=g.legal_actions(),
        game_rng=g._rng.bit_generator.state,
        deck_is_game_rng=g.round.deck.rng is g._rng)
    return state


def replayed(g: Game) -> Game:
    """A new game playing the moves of ``g.record()`` again (``Game.replay`` wants a
    finished game; this one stops where ``g`` is)."""
    rec = g.record()
    new = Game(rec.n_players, seed=rec.seed, rules=rec.rules, rounds=rec.rounds,
               first_dealer=rec.first_dealer)
    for tokens in rec.actions:
        for token in tokens:
            new.apply_action(parse_token(token))
    return new


def _pickled(x: Any) -> Any:
    return pickle.loads(pickle.dumps(x))


#: The exact copies of a game, by name.
GAME_COPIES: dict[str, Callable[[Game], Game]] = {
    "clone": Game.clone, "copy": copy.copy, "deepcopy": copy.deepcopy,
    "pickle": _pickled, "replay": replayed,
}

#: The exact copies of a round, by name (see also ``Round.from_state``).
ROUND_COPIES: dict[str, Callable[[Round], Round]] = {
    "clone": Round.clone, "copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": _pickled,
}


def patient_action(legal: list[int], rng: np.random.Generator, *, go_out: bool,
                   from_deck: float = 0.85) -> int:
    """A random legal move that makes long rounds: mostly a draw from the deck (so the
    draw pile runs out and the deck is reshuffled), a random discard, and going out
    only when ``go_out`` allows it (then whenever it can)."""
    outs = [a for a in legal if a >= ACTION_GO_OUT]
    if go_out and outs:
        return outs[int(rng.integers(len(outs)))]
    if ACTION_DRAW_DECK in legal and rng.random() < from_deck:
        return ACTION_DRAW_DECK
    rest = [a for a in legal if a < ACTION_GO_OUT] or legal
    return rest[int(rng.integers(len(rest)))]
