"""The library calls of the command line, one function each.

Every command reaches the simulators through these few functions, so that a renamed
library function is switched here and nowhere else: :func:`run_games` (many games between
bots), :func:`run_solitaire` (many games of solitaire), :func:`new_game` and
:func:`new_solitaire` (one game, move by move), :func:`read_record` and
:func:`apply_token` (the records of ``simulate --out``). Seeds are passed by keyword.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import numpy as np

from ..game import Game
from ..replay import GameRecord, parse_token
from ..rules import Rules
from ..runner import Backend
from ..seeding import solitaire_streams
from ..simulate import duplicate_match, simulate_games
from ..solitaire import Solitaire, simulate_solitaire
from ..solver import IMPLEMENTATION

_IMPLEMENTATION_VAR = "FIVECROWNS_IMPLEMENTATION"


@contextmanager
def same_solver_in_workers() -> Iterator[None]:
    """Worker processes that start afresh (spawn, forkserver, Ray) import fivecrowns again.
    When this process fell back to the pure-Python solver unasked, it has warned once
    already: ask for that solver in the workers' environment, so that they use it too and
    do not repeat the warning."""
    if IMPLEMENTATION != "python" or os.environ.get(_IMPLEMENTATION_VAR):
        yield
        return
    os.environ[_IMPLEMENTATION_VAR] = IMPLEMENTATION
    try:
        yield
    finally:
        os.environ.pop(_IMPLEMENTATION_VAR, None)


def run_games(entrants: Sequence[Callable[..., Any]], games: int, *, seed: int, jobs: int,
              progress: Callable[[int], Any], rules: Rules, rounds: Sequence[int] | None,
              names: Sequence[str], on_record: Callable[[dict[str, Any]], Any] | None,
              backend: str = "local", ray_address: str | None = None,
              duplicate: Callable[..., Any] | None = None) -> Any:
    """Many games between bots (``simulate``); returns the library's report, whose
    ``entrants`` have ``name``, ``games``, ``win_rate``, ``win_ci``, ``mean_score`` and
    ``score_ci``, and which counts ``hit_max_turns``. With ``duplicate`` (a reference
    bot), a duplicate match and its report (``gain``, ``gain_ci``, ``win_rate``,
    ``reference_win_rate``... and ``table()``)."""
    with same_solver_in_workers():
        if duplicate is not None:
            return duplicate_match(
                entrants[0], duplicate, entrants[1:], games, seed=seed, jobs=jobs,
                progress=progress, rules=rules, rounds=rounds,
                names=[names[0], getattr(duplicate, "name", "reference"), *names[1:]],
                on_record=on_record, backend=cast(Backend, backend),
                ray_address=ray_address)
        return simulate_games(entrants, games, seed=seed, jobs=jobs, progress=progress,
                              rules=rules, rounds=rounds, names=names, on_record=on_record,
                              backend=cast(Backend, backend), ray_address=ray_address)


def run_solitaire(strategy: str, games: int, *, seed: int, jobs: int,
                  progress: Callable[[int], Any], rules: Rules, backend: str = "local",
                  ray_address: str | None = None) -> Any:
    """Many games of solitaire (``solitaire``); returns the library's report, with
    ``games``, ``results``, ``win_rate``, ``win_ci``, ``mean_piles_closed``,
    ``piles_closed_ci``, ``mean_turns`` and ``turns_ci``."""
    with same_solver_in_workers():
        return simulate_solitaire(strategy, games, seed=seed, jobs=jobs, progress=progress,
                                  rules=rules, backend=backend,  # type: ignore[arg-type]
                                  ray_address=ray_address)


def new_game(n_players: int, *, seed: int, rules: Rules | None = None,
             rounds: Sequence[int] | None = None, first_dealer: int = 0) -> Game:
    """A game to play move by move (``play``, ``replay``)."""
    return Game(n_players, seed=seed, rules=rules, rounds=rounds, first_dealer=first_dealer)


def new_solitaire(seed: int, rules: Rules) -> tuple[Solitaire, np.random.Generator]:
    """The game of solitaire of ``seed`` and its strategy's generator, as
    ``play_solitaire`` makes them (``solitaire --show``)."""
    deal, rng = solitaire_streams(seed)
    return Solitaire(seed=deal, rules=rules), rng


def read_record(data: dict[str, Any]) -> GameRecord:
    """A game record from its JSON form, replayed and checked (raises ReplayError)."""
    record = GameRecord.from_dict(data)
    Game.replay(record)
    return record


def apply_token(game: Game, token: str) -> Any:
    """Make the move of a record's action token; returns the move's record."""
    return game.apply_action(parse_token(token))
