"""The built-in bots' decisions by the compiled policies (issue 37: the bots as thin
wrappers over the engine's policies).

``GreedyBot``, ``StrongBot`` and ``ExpertBot`` with their defaults ask
:func:`compiled_action` first: the engine's policy (``_policies.observed_action``) plays
their choice from the observation's fields, the same choice as their Python, which stays
their specification and runs where the compiled engine does not (the Python twins, a
``use_implementation("python")`` block, a subclass, other options, or a view no round's
table holds). The tests hold the two to the same answers on every observation of whole
games and on views built by hand (``tests/test_compiled_bots.py``).
"""

from __future__ import annotations

from typing import Any

from . import _state, solver
from .actions import Source
from .cards import Card
from .records import Observation, Phase
from .registry import engine_policies

__all__ = ["GREEDY", "STRONG", "EXPERT", "compiled_action", "compiled_draw",
           "compiled_discard"]

# The engine's numbers of the policies: the registry's (its entries' ``policy``).
GREEDY, STRONG, EXPERT = (engine_policies().index(name) for name in ("greedy", "strong",
                                                                      "expert"))


def compiled_action(policy: int, obs: Observation) -> int | None:
    """The action code the compiled ``policy`` plays for ``obs`` (0 a blind draw, 1 the
    top discard, ``2 + t`` a discard of type ``t``, ``58 + t`` going out with it), or None
    where the bot's Python decides (no compiled engine in use, or a view that the engine
    does not hold)."""
    core: Any = _state.policies_core
    if core is None or solver.active_implementation() != "compiled":
        return None
    if obs.phase is Phase.OVER or obs.current_player != obs.player:
        return None
    top = obs.top_discard
    kept = obs.must_keep
    drawn = obs.drawn
    n = obs.n_players
    taken = obs.taken_counts
    nxt = (obs.player + 1) % n if n > 0 else 0
    if len(taken) != n or nxt == obs.player:
        return None
    code: int = core.observed_action(
        policy, obs.counts, -1 if top is None else top.index,
        -1 if kept is None else kept.index, -1 if drawn is None else drawn.index,
        obs.unseen_counts, taken[nxt], obs.draw_size, obs.discard_size, obs.wild,
        obs.decks, obs.hand_size, n, 0 if obs.phase is Phase.DRAW else 1, -1 if obs.went_out is None
        else obs.went_out, bool(obs.sudden_death), bool(obs.return_discard))
    return None if code < 0 else code


def compiled_draw(policy: int, obs: Observation) -> Source | None:
    """:func:`compiled_action` as a bot's ``choose_draw`` answers, or None."""
    code = compiled_action(policy, obs)
    if code is None or code > 1:
        return None
    return Source.DISCARD if code == 1 else Source.DECK


def compiled_discard(policy: int, obs: Observation) -> tuple[Card, bool] | None:
    """:func:`compiled_action` as a bot's ``choose_discard`` answers, or None."""
    code = compiled_action(policy, obs)
    if code is None or code < 2:
        return None
    return (Card.from_index(code - 58), True) if code >= 58 else (Card.from_index(code - 2),
                                                                  False)
