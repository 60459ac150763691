"""What :class:`~fivecrowns.round.Round` does at its edges, apart from the moves: a new
round's arguments checked, the sentence of a refused move, a pickle's round checked, a
deep copy that keeps a shared generator shared. Private: :mod:`fivecrowns.round` calls
these (and keeps every name it had).
"""

from __future__ import annotations

from typing import Any

from . import _state, _state_checks, _state_py
from ._checks import check_int, check_seat, check_table, is_int
from .actions import _CARDS
from .errors import IllegalMoveError
from .rules import Rules
from .solver import MAX_HAND_SIZE

__all__ = ["round_table", "refuse", "pickled_round", "deep_copied"]

# The round state in use (compiled, or its twin).
_State = _state.State
# The largest max_turns the state holds (a C int, with room for the final turns); a
# longer Rules.max_turns is the same rule: no round gets near it.
_TURN_LIMIT = _state_checks.TURN_LIMIT
_CODES = _state_py.CHECK_CODES


def round_table(n_players: int, round_number: int | None, rules: Rules | None, dealer: int,
                hand_size: int | None, wild: int | None) -> tuple[Rules, int, int, int]:
    """A new Round's arguments, checked: its rules, hand size, wild rank and dealer."""
    rules = check_table(n_players, rules, least=1, what="a round")
    if round_number is not None:
        if hand_size is not None or wild is not None:
            raise ValueError("give either round_number or hand_size and wild, not both")
        hand_size = Rules.hand_size(round_number)
        wild = Rules.wild_rank(round_number)
    else:
        if hand_size is None or wild is None:
            raise ValueError("give a round_number 1..11, or both hand_size and wild")
        hand_size, wild = check_int(hand_size, "hand_size"), check_int(wild, "wild")
        if not 3 <= wild <= 13:
            raise ValueError(f"wild must be a rank 3..13, got {wild}")
        if not 1 <= hand_size <= MAX_HAND_SIZE - 1:
            raise ValueError(f"hand_size must be 1..{MAX_HAND_SIZE - 1}, got {hand_size}")
        if n_players * hand_size + 1 > rules.n_cards:
            raise ValueError(f"{n_players} hands of {hand_size} cards and a turned-up "
                             f"card need more than the {rules.n_cards} cards of the deck")
    dealer = check_seat(dealer, n_players, "dealer")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    return rules, hand_size, wild, dealer


def refuse(code: int, t: int, st: Any, hand_size: int) -> None:
    """Raise the IllegalMoveError of a check code of the round's state ``st`` (turn and
    player checked before): the sentences of :class:`~fivecrowns.round.Round`'s refusals."""
    if not code:
        return
    p = st.current
    if code == _CODES["DRAWN"]:
        raise IllegalMoveError(f"player {p} has already drawn this turn and must "
                               f"discard")
    if code == _CODES["PILE_EMPTY"]:
        raise IllegalMoveError("cannot take from the discard pile: it is empty")
    if code == _CODES["DECK_EMPTY"]:
        raise IllegalMoveError("cannot draw from the deck: the draw pile is empty and "
                               "the discard pile has no card to reshuffle below its top")
    if code == _CODES["UNDRAWN"]:
        raise IllegalMoveError(f"player {p} must draw before discarding")
    if code == _CODES["NOT_HELD"]:
        raise IllegalMoveError(f"player {p} cannot discard {_CARDS[t]}: it is not in "
                               f"their hand")
    if code == _CODES["MUST_KEEP"]:
        raise IllegalMoveError(
            f"player {p} cannot discard {_CARDS[t]}: it was just taken from the "
            f"discard pile, and a card taken from the discard pile may not be "
            f"discarded again in the same turn (Rules.return_discard is off)")
    if code == _CODES["NOT_OUT"]:
        raise IllegalMoveError(
            f"player {p} cannot go out discarding {_CARDS[t]}: the other "
            f"{hand_size} cards leave deadwood {st.deadwood_without(t)}, "
            f"not 0")
    raise AssertionError(f"unknown check code {code}")  # pragma: no cover


def pickled_round(state: Any) -> dict[str, Any]:
    """The attributes of a Round from its pickle's ``state``, checked: the round state was
    checked as it loaded (``from_fields``), and the rest must agree with it. A 0.4 pickle
    keeps these attributes under their public names."""
    if not isinstance(state, dict):
        raise ValueError(f"a Round's pickle holds a dict, got {type(state).__name__}")
    d = dict(state)
    for name in ("rules", "round_number", "dealer", "totals"):
        if name in d:
            d["_" + name] = d.pop(name)
    for name in ("n_players", "hand_size", "wild", "sudden_death"):
        d.pop(name, None)
    st = d.get("_state")
    # the compiled class may load where the twins run (FIVECROWNS_IMPLEMENTATION=python)
    compiled = type(st).__module__ == "fivecrowns._rollout" and \
        type(st).__name__ == "RoundState"
    if not (compiled or isinstance(st, (_State, _state_py.RoundState))):
        raise ValueError(f"a Round's pickle holds no round state, got "
                         f"{type(st).__name__}")
    if not isinstance(st, _State):  # pickled on the other twin
        assert st is not None
        d["_state"] = st = _State.from_fields(st.fields())
    rules = d.get("_rules")
    if not isinstance(rules, Rules) or rules.decks != st.decks or \
            rules.return_discard != st.return_discard or \
            min(rules.max_turns, _TURN_LIMIT) != st.max_turns:
        raise ValueError(f"a Round's pickle holds rules {rules!r} that disagree with "
                         f"its state")
    if d.get("_round_number") is not None and (
            d["_round_number"] not in range(1, 12)
            or Rules.hand_size(d["_round_number"]) != st.hand_size):
        raise ValueError("a Round's pickle holds a round number that disagrees with "
                         "its state")
    dealer: Any = d.get("_dealer")  # checked just below
    if not is_int(dealer) or not 0 <= dealer < st.n_players:
        raise ValueError(f"a Round's pickle holds a bad dealer: {dealer!r}")
    if not isinstance(d.get("_history"), list):
        raise ValueError("a Round's pickle holds no history list")
    d["_decks"], d["_no_return"] = st.decks, not st.return_discard
    d["_frozen"] = d["_taken_rows"] = None
    return d


def deep_copied(attributes: dict[str, Any], memo: dict[int, Any]) -> dict[str, Any]:
    """The attributes of a deep copy of the Round whose ``attributes`` these are.

    Through the memo: a generator the deck shares with what is copied along (the game's,
    in a Game) must stay shared in the copy, or a reshuffle would advance only one of the
    two and the copy's next deal would differ. The copy's own is a copy of the moment the
    state is copied at (another thread may be moving the round), and the memo names it
    for whatever else shares the generator."""
    d = dict(attributes)
    source = d["_state"]
    shared = source.rng
    state, d["_history"] = source.copy_at(d["_history"])
    twin = memo.get(id(shared))
    if twin is None:
        memo[id(shared)] = state.rng
        memo.setdefault(id(memo), []).append(shared)  # alive while named by id
    else:
        state.set_rng(twin)
    d["_state"] = state
    d["_frozen"] = None
    return d
