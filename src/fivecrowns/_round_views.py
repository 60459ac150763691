"""What a player of a :class:`~fivecrowns.round.Round` sees: ``Round.observation``, and
the public counts a round keeps a moment at a time for it (``Round._freeze``).

Written here as functions and set in ``Round``'s body as its methods (an observation, a
hot path of the environments, costs no call more); their home is
:class:`fivecrowns.round.Round`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .actions import _CARDS
from .public import Frozen, _TakenRows
from .records import Event, Observation, Phase

__all__ = ["Tracked", "ViewedRound", "freeze", "observation"]

_DRAW, _DISCARD, _OVER = Phase.DRAW, Phase.DISCARD, Phase.OVER
#: The state's phase numbers as Phases.
_PHASES = (_DRAW, _DISCARD, _OVER)
_UINT8 = np.dtype(np.uint8)
# Every field of an Observation, in order, but the three that it makes when first read
# from the round's frozen public counts, kept under "_tracked": observation() fills a copy.
_OBS_FIELDS: dict[str, Any] = dict.fromkeys(
    [name for name in Observation.__dataclass_fields__
     if name not in ("discard_counts", "taken_counts", "unseen_counts")] + ["_tracked"])
#: An observation's public counts and what they are of: (state, moment, counts).
Tracked = tuple[Any, int, Frozen]


class ViewedRound(Protocol):
    """What of a Round these read (Round defines it all)."""

    _state: Any
    _frozen: Tracked | None
    _taken_rows: _TakenRows | None
    _round_number: int | None
    _dealer: int
    _history: list[Event]
    _decks: int
    _totals: tuple[int, ...] | None
    _no_return: bool

    def _check_player(self, player: int) -> int: ...

    def _freeze(self, st: Any = None, moment: int = -1) -> Frozen: ...


def freeze(self: ViewedRound, st: Any = None, moment: int = -1) -> Frozen:
    """The public counts of state ``st`` (the round's) at ``moment`` (its
    ``3 * turn + phase``, which every move of a state increases), immutable
    (:meth:`fivecrowns.public.PublicState.freeze`'s form): made once a moment, the
    taken rows shared until they change.

    Kept with the state and the moment they belong to, never cleared by a move: a
    move is then one step of the state, and counts read while another thread moves
    (``moment`` read first) are never taken for a later moment's."""
    if st is None:
        st = self._state
        moment = 3 * st.turn + st.phase
    tracked = self._frozen
    if tracked is not None and tracked[0] is st and tracked[1] == moment:
        return tracked[2]
    pile, hidden, taken = st.public_bytes()
    rows = self._taken_rows
    if rows is None or rows.data != taken:
        rows = self._taken_rows = _TakenRows(taken)
    frozen = (pile, np.frombuffer(hidden, _UINT8), rows)
    self._frozen = (st, moment, frozen)
    return frozen

def observation(self: ViewedRound, player: int) -> Observation:
    """What ``player`` may know now: their own hand, the public piles and history,
    and the public card counts (see :class:`~fivecrowns.records.Observation`; those
    are made when first read, from the counts of this moment)."""
    st = self._state
    p = player if player.__class__ is int and 0 <= player < st.n_players \
        else self._check_player(player)
    counts = np.frombuffer(st.hand_bytes(p), _UINT8)   # read-only: quicker than setflags
    ph = st.phase
    turn = st.turn
    tracked = self._frozen
    d_tracked = (tracked[2] if tracked is not None and tracked[0] is st
                 and tracked[1] == 3 * turn + ph else self._freeze(st, 3 * turn + ph))
    phase = _PHASES[ph]
    own = p == st.current and phase is _DISCARD
    kept = st.must_keep() if own else -1
    top = st.top_discard
    went_out = st.went_out
    # A frozen dataclass: give it a whole __dict__ at once (see _record); filling a
    # copy of a dict that has every key already is cheaper than a 25-entry literal.
    d = _OBS_FIELDS.copy()
    d["player"] = p
    d["counts"] = counts
    drawn = st.drawn if own else -1
    d["drawn"] = _CARDS[drawn] if drawn >= 0 else None
    d["top_discard"] = _CARDS[top] if top >= 0 else None
    d["draw_size"] = st.n_draw
    d["discard_size"] = st.n_pile
    d["round_number"] = self._round_number
    d["hand_size"] = st.hand_size
    d["wild"] = st.wild
    d["n_players"] = st.n_players
    d["dealer"] = self._dealer
    d["current_player"] = st.current
    d["phase"] = phase
    d["turn"] = turn
    d["final_turn"] = went_out >= 0 and phase is not _OVER
    d["went_out"] = None if went_out < 0 else went_out
    d["history"] = tuple(self._history)
    d["decks"] = self._decks
    d["sudden_death"] = bool(st.sudden_death)
    d["totals"] = self._totals
    d["_tracked"] = d_tracked
    d["return_discard"] = not self._no_return
    d["must_keep"] = _CARDS[kept] if kept >= 0 else None
    obs = object.__new__(Observation)
    object.__setattr__(obs, "__dict__", d)
    return obs


# Their home: reprs, doctest and the docs see Round's methods
for _method, _name in ((freeze, "_freeze"), (observation, "observation")):
    _method.__module__, _method.__qualname__ = "fivecrowns.round", f"Round.{_name}"
