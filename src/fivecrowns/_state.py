"""Which states run: the compiled ``fivecrowns._rollout.RoundState`` and ``GameState`` or
their readable twins, ``fivecrowns._state_py.RoundState`` and
``fivecrowns._game_state_py.GameState`` (the same classes in plain Python).

The compiled one unless it is not built or ``FIVECROWNS_IMPLEMENTATION=python`` asks for
the Python twins (the solver's switch: one variable chooses every twin).
"""

from __future__ import annotations

import os
from typing import Any

from . import _game_state_py, _state_py

__all__ = ["State", "GameState", "load_rollout", "rollout_core"]


def load_rollout() -> Any:
    """The compiled engine (``fivecrowns._rollout``), or None where the Python twins run."""
    if os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower() == "python":
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
#: The game state class in use.
GameState: Any = _game_state_py.GameState if rollout_core is None else rollout_core.GameState
