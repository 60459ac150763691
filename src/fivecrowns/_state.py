"""Which states run: the compiled ``fivecrowns._rollout.RoundState`` and ``GameState`` or
their readable twins, ``fivecrowns._state_py.RoundState`` and
``fivecrowns._game_state_py.GameState`` (the same classes in plain Python).

The compiled one unless it is not built or ``FIVECROWNS_IMPLEMENTATION=python`` asks for
the Python twins (the solver's switch: one variable chooses every twin).
"""

from __future__ import annotations

from typing import Any

from . import _game_state_py, _state_py, solver

__all__ = ["State", "GameState", "load_rollout", "game_state_of", "rollout_core"]


def load_rollout() -> Any:
    """The compiled engine (``fivecrowns._rollout``), or None where the Python twins run:
    the solver's choice at import (``fivecrowns.solver.IMPLEMENTATION``: one switch, read
    once, there), or a build without the engine."""
    if solver.IMPLEMENTATION == "python":
        return None
    try:
        from . import _rollout
    except ImportError:  # a pure-Python install
        return None
    return _rollout


#: The compiled engine in use, or None.
rollout_core: Any = load_rollout()
#: The round state class in use.
State: Any = _state_py.RoundState if rollout_core is None else rollout_core.RoundState
#: The game state class in use (either twin's pickle loads as it).
GameState: Any = _game_state_py.GameState if rollout_core is None else rollout_core.GameState
_game_state_py.active = GameState


def game_state_of(value: object) -> Any:
    """``value``, a game state of either twin, as one of the twin in use (a pickle made
    beside a built core, loaded where the twins are chosen, holds the compiled one)."""
    if isinstance(value, GameState):
        return value
    if not isinstance(value, (_game_state_py.GameState,) + (
            () if rollout_core is None else (rollout_core.GameState,))):
        raise ValueError(f"a game state was expected, got {type(value).__name__}")
    return GameState.from_fields(value.fields())
