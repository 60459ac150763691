"""The 0.1 names that 0.2.0 renamed: each still works from the top level for one release,
with a ``DeprecationWarning`` that names what to write instead (see CHANGELOG.md, 0.2.0)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["RENAMED", "lookup"]


def _tournament(bot_factories: Any, games: int, seed: int, **kwargs: Any) -> Any:
    from .simulate import simulate_games

    return simulate_games(bot_factories, games, seed=seed, **kwargs)


def _solitaire_many(strategy: Any, games: int, seed: int = 0, **kwargs: Any) -> Any:
    from .solitaire import simulate_solitaire

    if isinstance(kwargs.get("progress"), bool):
        raise TypeError("progress is a callable (called with the games just finished) or "
                        "None since 0.2.0: pass progress=tqdm(total=games).update")
    return simulate_solitaire(strategy, games, seed=seed, **kwargs)


def _to_counts(hand: Any) -> Any:
    from .cards import _to_counts as raw

    return raw(hand)


def _attr(module: str, name: str) -> Callable[[], Any]:
    def get() -> Any:
        import importlib

        return getattr(importlib.import_module(f"fivecrowns.{module}"), name)
    return get


#: old name -> (what to write instead, how to get the object)
RENAMED: dict[str, tuple[str, Callable[[], Any]]] = {
    "best_discard_many": ("discard_deadwood_many", _attr("solver", "discard_deadwood_many")),
    "to_counts": ("hand_counts (it also checks the hand)", lambda: _to_counts),
    "tournament": ("simulate_games(entrants, games, seed=...)", lambda: _tournament),
    "TournamentResult": ("GamesReport", _attr("simulate", "GamesReport")),
    "EntrantStats": ("EntrantReport", _attr("simulate", "EntrantReport")),
    "solitaire_many": ("simulate_solitaire(strategy, games, seed=...)",
                       lambda: _solitaire_many),
    "SolitaireStats": ("SolitaireReport", _attr("solitaire", "SolitaireReport")),
    "SolitairePlay": ("PlayRecord", _attr("solitaire", "PlayRecord")),
}


def lookup(name: str) -> Any:
    """The object behind a renamed top-level name, with a ``DeprecationWarning``."""
    instead, get = RENAMED[name]
    warnings.warn(f"fivecrowns.{name} was renamed in 0.2.0 and will be removed in 0.3: use "
                  f"fivecrowns.{instead}", DeprecationWarning, stacklevel=3)
    return get()
