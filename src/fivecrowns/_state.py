"""Which engine runs: the compiled modules (``fivecrowns._round_state.RoundState``,
``fivecrowns._game_state.GameState``, the built-in policies ``_policies``, the runs
``_rollout`` and the vector environment's games ``_vecgames``) or their readable twins,
``fivecrowns._state_py.RoundState`` and ``fivecrowns._game_state_py.GameState`` (the
same classes in plain Python) with ``fivecrowns._engine_py``.

The compiled one unless it is not built or ``FIVECROWNS_IMPLEMENTATION=python`` asks for
the Python twins (the solver's switch: one variable chooses every twin).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from . import _game_state_py, _state_py, solver

__all__ = ["State", "GameState", "ENGINE_MODULES", "load_engine", "game_state_of",
           "rollout_core", "policies_core", "vector_core"]


#: The engine's compiled modules (setup.py's ``ENGINE_MODULES``).
ENGINE_MODULES = ("_round_state", "_game_state", "_policies", "_rollout", "_vecgames")


def load_engine() -> dict[str, Any] | None:
    """The engine's compiled modules by name, or None where the Python twins run: the
    solver's choice at import (``fivecrowns.solver.IMPLEMENTATION``: one switch, read
    once, there), or a build without the engine (or without part of it: the twins then
    run it all, never half of each)."""
    if solver.IMPLEMENTATION == "python":
        return None
    try:
        return {name: importlib.import_module(f"{__package__}.{name}")
                for name in ENGINE_MODULES}
    except ImportError as exc:  # a build whose solver compiled and whose engine did not
        warnings.warn(f"the compiled solver imported but the compiled engine did not "
                      f"({exc}): rounds, games and bots run on the pure-Python twins, "
                      f"which are much slower. Rebuild with FIVECROWNS_BUILD_EXTENSION=1 "
                      f"to see why.", RuntimeWarning, stacklevel=2)
        return None


_engine = load_engine()
_round_state: Any = None if _engine is None else _engine["_round_state"]
_game_state: Any = None if _engine is None else _engine["_game_state"]
#: The compiled runs (``play_rounds``, ``play_worlds``, whole games), or None.
rollout_core: Any = None if _engine is None else _engine["_rollout"]
#: The compiled built-in policies (``policy_action``, ``play_policies``), or None.
policies_core: Any = None if _engine is None else _engine["_policies"]
#: The compiled vector environment's games (``VectorGames``, ``encode_state``), or None.
vector_core: Any = None if _engine is None else _engine["_vecgames"]
#: The round state class in use.
State: Any = _state_py.RoundState if _round_state is None else _round_state.RoundState
#: The game state class in use (either twin's pickle loads as it).
GameState: Any = _game_state_py.GameState if _game_state is None else _game_state.GameState
_game_state_py.active = GameState


def game_state_of(value: object) -> Any:
    """``value``, a game state of either twin, as one of the twin in use (a pickle made
    beside a built core, loaded where the twins are chosen, holds the compiled one)."""
    if isinstance(value, GameState):
        return value
    if not isinstance(value, (_game_state_py.GameState,) + (
            () if _game_state is None else (_game_state.GameState,))):
        raise ValueError(f"a game state was expected, got {type(value).__name__}")
    return GameState.from_fields(value.fields())
