"""The records and events of a move, as the round states make them: the one support
both twins share (``_state_py.RoundState.play`` makes them in Python, the compiled
``_round_state.RoundState.play`` in C from the tables it takes here at import), and
``Round`` for the record of a move it finishes itself."""

from __future__ import annotations

from typing import Any

from .actions import _CARDS
from .records import Event, EventKind

__all__ = ["new_record", "TAKE_EVENTS", "DISCARD_EVENTS", "OUT_EVENTS", "BLIND_EVENTS",
           "RESHUFFLE_EVENT"]


def new_record(cls: type, fields: dict[str, Any]) -> Any:
    """A frozen dataclass ``cls`` holding ``fields`` (every field, in order), made
    without its ``__init__``: that sets each field through ``object.__setattr__``, and
    a move makes one record (the compiled round state makes the same in C)."""
    rec: Any = object.__new__(cls)
    rec.__dict__.update(fields)
    return rec


def _events(kind: EventKind) -> tuple[tuple[Event, ...], ...]:
    return tuple(tuple(Event(p, kind, c) for c in _CARDS) for p in range(14))


# Every public event a move makes, made once (events are immutable): a move appends one
# of these to the round's history. [player][card type], the blind draws' [player].
TAKE_EVENTS = _events(EventKind.DRAW_DISCARD)
DISCARD_EVENTS = _events(EventKind.DISCARD)
OUT_EVENTS = _events(EventKind.GO_OUT)
BLIND_EVENTS = tuple(Event(p, EventKind.DRAW_DECK, None) for p in range(14))
RESHUFFLE_EVENT = Event(-1, EventKind.RESHUFFLE, None)
