"""The game state and its twin (fivecrowns._game_state.GameState, fivecrowns._game_state_py
.GameState) driven through the same games: every table size, plans of every length,
first dealers, ties played off and not, copies and pickles on the way; every answer of
both compared after every round, and both refuse the same bad input with the same
error. Then Game and its pickles on the state, and the state's fields fuzzed."""

from __future__ import annotations

import base64
import copy
import importlib.util
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import compiled_rollout
from fivecrowns import Game, Rules, _game_state_py
from fivecrowns._game_state_py import OVER, ROUND, TIE_BREAK

P = _game_state_py.GameState


@pytest.fixture(scope="module")
def C() -> Any:
    return compiled_rollout("_game_state").GameState


def everything(g: Any) -> tuple[Any, ...]:
    return (g.n_players, g.plan, g.first_dealer, g.tie_break, g.stage, g.is_over, g.k,
            g.totals, g.winners, g.tie_break_seats, g.seats, g.dealer, g.round_number,
            g.hand_size, g.wild, g.sudden_death, g.round_totals(), g.fields(), repr(g))


def outcome(call: Any, *args: Any) -> Any:
    try:
        return ("ok", call(*args))
    except (TypeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def drive(C: Any, n: int, plan: tuple[int, ...], first: int, tie_break: bool,
          rng: np.random.Generator, tie_prone: bool) -> list[tuple[Any, ...]]:
    """Both twins through one game; scores drawn so that ties are common when
    ``tie_prone``; a copy and a pickle of each replace it now and then."""
    a, b = P(n, plan, first, tie_break), C(n, plan, first, tie_break)
    seen = [everything(a)]
    assert everything(b) == seen[-1]
    while not a.is_over:
        m = len(a.seats)
        scores = [int(rng.integers(0, 3)) * 5 if tie_prone else int(rng.integers(0, 60))
                  for _ in range(m)]
        out = int(rng.integers(-1, m))
        if out >= 0 and a.stage == ROUND:
            scores[out] = 0
        assert a.end_round(scores, out) == b.end_round(scores, out)
        if rng.random() < 0.3:
            a, b = copy.copy(a), copy.deepcopy(b)
        if rng.random() < 0.3:  # a pickle loads as the twin in use: made each twin again
            a, b = P.from_fields(pickle.loads(pickle.dumps(a)).fields()), \
                C.from_fields(pickle.loads(pickle.dumps(b)).fields())
        seen.append(everything(a))
        assert everything(b) == seen[-1]
        assert P.from_fields(b.fields()) == a and C.from_fields(a.fields()) == b
        assert a == b and b == a and not a != b  # equal by value across the twins
    assert outcome(lambda: a.end_round([0] * len(a.seats), -1)) == \
        outcome(lambda: b.end_round([0] * len(b.seats), -1))
    return seen


@pytest.mark.parametrize("n", [2, 3, 4, 6, 7, 14])
@pytest.mark.parametrize("tie_break", [False, True])
def test_the_twins_play_the_same_games(C: Any, n: int, tie_break: bool) -> None:
    rng = np.random.default_rng(n * 2 + tie_break)
    stages = set()
    for game in range(40):
        plan = tuple(int(r) for r in rng.integers(1, 12, size=int(rng.integers(1, 12))))
        first = int(rng.integers(n))
        seen = drive(C, n, plan, first, tie_break, rng, tie_prone=game % 2 == 0)
        stages |= {s[4] for s in seen}
    # the games reach every stage the rules allow (ties are played off only when asked)
    assert stages == ({ROUND, TIE_BREAK, OVER} if tie_break else {ROUND, OVER})


def test_the_state_follows_the_rules_of_a_game() -> None:
    """docs/rules.rst, A game: the deal passes left, totals add up, a tie is played off
    between the tied seats, the first of them clockwise from the next dealer's left
    playing first, and the first out of it wins."""
    g = P(4, (3, 11), first_dealer=3, tie_break=True)
    assert (g.round_number, g.hand_size, g.wild, g.dealer) == (3, 5, 5, 3)
    assert g.end_round((10, 0, 10, 4), 1) == ROUND
    assert (g.round_number, g.hand_size, g.dealer, g.totals) == (11, 13, 0, (10, 0, 10, 4))
    assert g.end_round((0, 20, 0, 7), 0) == TIE_BREAK
    # totals (10, 20, 10, 11): seats 0 and 2 tie; the next dealer is seat 1, whose left
    # (seat 2) plays first, so local player 1 (seat 2) follows local dealer 0
    assert (g.seats, g.dealer, g.hand_size, g.sudden_death, g.round_number) == \
        ((0, 2), 0, 6, True, None)
    assert g.round_totals() == (10, 10)
    assert g.end_round((25, 0), 1) == OVER
    assert (g.winners, g.totals, g.tie_break_seats) == ((2,), (10, 20, 10, 11), (0, 2))
    shared = P(2, (1,), tie_break=True)
    shared.end_round((4, 4), -1)
    assert shared.end_round((3, 9), None) == OVER and shared.winners == (0, 1)
    plain = P(3, (1,))
    assert plain.end_round((2, 2, 5), -1) == OVER and plain.winners == (0, 1)
    assert (plain.round_number, plain.dealer, plain.seats) == (1, 0, (0, 1, 2))


BAD_ARGS = [
    (1, (1,), 0, False), (15, (1,), 0, False), (2.0, (1,), 0, False), (True, (1,), 0, False),
    (3, (), 0, False), (3, (0,), 0, False), (3, (12,), 0, False), (3, 5, 0, False),
    (3, ("3",), 0, False), (3, (1,), 3, False), (3, (1,), -1, False), (3, (1,), None, False),
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=repr)
def test_both_refuse_the_same_arguments(C: Any, args: tuple[Any, ...]) -> None:
    a, b = outcome(lambda: P(*args)), outcome(lambda: C(*args))
    assert a[0] != "ok" and a == b


@pytest.mark.parametrize("scores, out", [
    ((1, 2), -1), ((1, 2, 3, 4), -1), ((1, -2, 3), -1), ((1, 2**31, 3), -1),
    ((1, 2.0, 3), -1), ("abc", -1), (5, -1), ((1, 2, 3), 3), ((1, 2, 3), -2),
    ((1, 2, 3), 1.0), ((1, 2, 3), "0"), ((True, 2, 3), 0)])
def test_both_refuse_the_same_round_ends(C: Any, scores: Any, out: Any) -> None:
    a, b = P(3, (1, 2)), C(3, (1, 2))
    ra = outcome(lambda: a.end_round(scores, out))
    assert ra[0] != "ok" and ra == outcome(lambda: b.end_round(scores, out))
    assert everything(a) == everything(b) == everything(P(3, (1, 2)))  # nothing changed


def _mangled(fields: tuple[Any, ...], rng: np.random.Generator) -> tuple[Any, ...]:
    f = list(fields)
    i = int(rng.integers(len(f) + 1))
    nasty = [None, -1, 2**31, 2**64, 1.5, "x", (), (0,) * 15, (-1,), True, (2**40,), (0, 0)]
    if i == len(f):
        return tuple(f[:-1]) if rng.random() < 0.5 else tuple(f) + (0,)
    f[i] = nasty[int(rng.integers(len(nasty)))]
    return tuple(f)


def test_malformed_fields_are_refused_the_same_way_by_both(C: Any) -> None:
    rng = np.random.default_rng(7)
    refused = 0
    for case in range(1500):
        n = int(rng.integers(2, 7))
        g = P(n, tuple(int(r) for r in rng.integers(1, 12, size=int(rng.integers(1, 4)))),
              int(rng.integers(n)), bool(rng.random() < 0.5))
        for _ in range(int(rng.integers(0, 5))):
            if g.is_over:
                break
            g.end_round([int(rng.integers(0, 2)) * 5 for _ in g.seats],
                        int(rng.integers(-1, len(g.seats))))
        fields = _mangled(g.fields(), rng) if case % 4 else g.fields()
        a, b = outcome(P.from_fields, fields), outcome(C.from_fields, fields)
        assert a[0] in ("ok", "ValueError"), a
        assert (a[0], b[0]) in (("ok", "ok"), ("ValueError", "ValueError")), (fields, a, b)
        if a[0] == "ok":
            assert everything(a[1]) == everything(b[1])
        else:
            refused += 1
            assert a[1] == b[1]
    assert refused > 500


@given(st.lists(st.integers(0, 2**31 - 1), min_size=12, max_size=12), st.booleans())
@settings(max_examples=50, deadline=None)
def test_states_no_game_reaches_are_refused(totals: list[int], tie_break: bool) -> None:
    """A finished game whose winners are not its lowest totals, or a round in play after
    the plan, cannot be loaded."""
    plan = (1, 2)
    n = 3
    t = tuple(totals[:n])
    lowest = tuple(q for q in range(n) if t[q] == min(t))
    wrong = tuple(q for q in range(n) if q not in lowest)
    if wrong:
        with pytest.raises(ValueError, match="not a state a game reaches"):
            P.from_fields((n, plan, 0, tie_break, 2, t, OVER, (), wrong))
    with pytest.raises(ValueError, match="not a state a game reaches"):
        P.from_fields((n, plan, 0, tie_break, 2, t, ROUND, (), ()))


# -- Game on the state ------------------------------------------------------------------


def _play(g: Game, rng: np.random.Generator) -> None:
    while not g.is_over:
        acts = g.legal_actions()
        g.apply_action(acts[int(rng.integers(len(acts)))])


def test_a_game_keeps_its_plan_and_totals_in_the_state() -> None:
    g = Game(3, seed=4, rounds=[1, 2], first_dealer=1, rules=Rules(tie_break=True))
    assert (g.n_players, g.rounds, g.first_dealer) == (3, (1, 2), 1)
    for name in ("n_players", "rounds", "first_dealer"):
        with pytest.raises(AttributeError):
            setattr(g, name, 2)
    _play(g, np.random.default_rng(0))
    assert g.totals == g._g.totals and g.result is not None
    assert g.result.winners == g._g.winners and g._g.is_over


def test_a_game_pickled_before_the_state_loads_and_plays_on() -> None:
    """A pickle of 0.4's Game held its state in plain attributes: it loads as today's."""
    g = Game(2, seed=9, rounds=[1, 2, 3])
    rng = np.random.default_rng(3)
    while g.round_index < 1:
        acts = g.legal_actions()
        g.apply_action(acts[int(rng.integers(len(acts)))])
    today = g.__getstate__()
    gs = today.pop("_g")
    old = dict(today, n_players=2, rounds=(1, 2, 3), first_dealer=0,
               _totals=list(gs.totals), _tie_seats=(), _winners=(), _over=False)
    loaded = Game.__new__(Game)
    loaded.__setstate__(old)
    assert loaded._g == gs and loaded.totals == g.totals
    a, b = g.clone(), loaded
    _play(a, np.random.default_rng(5))
    _play(b, np.random.default_rng(5))
    assert a.result == b.result
    bad = dict(old, _totals=[1, 2, 3])
    with pytest.raises(ValueError, match="malformed game state"):
        Game.__new__(Game).__setstate__(bad)
    with pytest.raises(ValueError, match="lacks its state"):
        Game.__new__(Game).__setstate__({k: v for k, v in old.items() if k != "_over"})


def test_a_game_pickle_with_a_forged_state_is_refused() -> None:
    g = Game(2, seed=1, rounds=[1])
    state = g.__getstate__()
    state["_g"] = (2, (1,), 0, False)
    with pytest.raises(ValueError, match="holds a GameState"):
        Game.__new__(Game).__setstate__(state)


# -- what 0.4 pickled ---------------------------------------------------------------------

CORPUS = json.loads((Path(__file__).parent / "data" / "states_0.4.json").read_text())


def _replayed(entry: dict[str, Any]) -> Game:
    g = Game(entry["n_players"], seed=entry["seed"], rounds=entry["rounds"],
             rules=Rules(tie_break=entry["tie_break"]), first_dealer=entry["first_dealer"])
    rng = np.random.default_rng(entry["seed"])
    for _ in range(entry["moves"]):
        acts = g.legal_actions()
        g.apply_action(acts[int(rng.integers(len(acts)))])
    return g


@pytest.mark.parametrize("entry", CORPUS["games"],
                         ids=lambda e: f"{e['n_players']}p-{e['seed']}-{e['moves']}")
def test_a_game_pickled_by_0_4_loads_and_plays_on(entry: dict[str, Any]) -> None:
    if importlib.util.find_spec("fivecrowns._rollout") is None:
        pytest.skip("0.4 pickled the compiled engine's round state, by its class's name")
    old = pickle.loads(base64.b64decode(entry["pickle"]))
    same = _replayed(entry)
    assert (old.totals, old.is_over, old.tie_break_seats) == (
        tuple(entry["totals"]), entry["over"], tuple(entry["tie_break_seats"]))
    assert old._g == same._g and old.record() == same.record()
    assert old.round.history == same.round.history
    _play(old, np.random.default_rng(11))
    _play(same, np.random.default_rng(11))
    assert old.result == same.result


def test_a_pickle_loads_as_the_twin_in_use(C: Any) -> None:
    """A pickle names no twin: either twin's loads as the one in use, and a Game holding
    the other twin's state (pickled beside a built core, loaded where the twins are
    chosen, or the reverse) takes it as its own."""
    from fivecrowns import _state

    for twin in (P, C):
        g = twin(3, (1, 2), 1, True)
        g.end_round((3, 3, 9), -1)
        back = pickle.loads(pickle.dumps(g))
        assert type(back) is _state.GameState and back.fields() == g.fields()
        game = Game(3, seed=2, rounds=[1, 2], first_dealer=1, rules=Rules(tie_break=True))
        state = game.__getstate__()
        state["_g"] = twin(3, (1, 2), 1, True)
        loaded = Game.__new__(Game)
        loaded.__setstate__(state)
        assert type(loaded._g) is _state.GameState and loaded._g == game._g
