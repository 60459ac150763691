"""No input crashes the core: malformed pickles, field tuples and states fed through every
way into the round state and the compiled engine (``RoundState.from_fields`` and
``from_state``, unpickling a ``Round``, ``Round.from_state``, ``play_out``,
``play_worlds``, ``play_games``, ``clone``, the moves) give a ``ValueError`` or a
``TypeError`` and nothing else: no segfault, no endless loop, no ``OverflowError`` or
``IndexError``, and the same refusal from both twins of the state.

The random part runs in a child process (a crash there is a failed test, not a dead test
run) with a time limit (a loop that does not end is one too). Under the sanitizer build
(docs/development.rst, "The debug and sanitizer builds") the same test reports any read
past an array that happens to survive.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import fivecrowns as fc
from fivecrowns import Round, Rules, _state_py
from fivecrowns.rollout import play_games, play_out, play_worlds
from helpers.engines import ON_TWINS, sized

P = _state_py.RoundState
BIG = (2**31 - 1, 2**31, 2**63, -(2**31) - 1)
REFUSED = (ValueError, TypeError)


def _twins() -> list[Any]:
    """The state classes to check: the pure-Python one, and the compiled one if built."""
    classes: list[Any] = [P]
    try:
        from fivecrowns import _round_state  # type: ignore[attr-defined]
    except ImportError:
        return classes
    return classes + [_round_state.RoundState]


def _finished(seed: int = 3) -> Round:
    r = Round(3, 2, seed=seed)
    bot = fc.GreedyBot()
    while not r.is_over:
        obs = r.observation(r.current_player)
        if r.phase.value == "draw":
            r.draw(bot.choose_draw(obs))
        else:
            card, out = bot.choose_discard(obs)
            r.discard(card, go_out=out)
    return r


def _refusals(fields: tuple[Any, ...]) -> list[str]:
    """How each twin takes ``fields``: its refusal (type and message) or "ok"."""
    answers = []
    for cls in _twins():
        try:
            cls.from_fields(fields)
        except REFUSED as exc:
            answers.append(f"{type(exc).__name__}: {exc}")
        else:
            answers.append("ok")
    return answers


def _with(fields: tuple[Any, ...], **changes: Any) -> tuple[Any, ...]:
    names = ["n", "hand_size", "wild", "decks", "max_turns", "return_discard",
             "sudden_death", "hands", "public", "draw", "pile", "current", "phase", "turn",
             "taken", "went_out", "final_left", "scores", "hit", "reshuffles", "drawn",
             "rng", "snapshot"]
    out = list(fields)
    for name, value in changes.items():
        out[names.index(name)] = value
    return tuple(out)


# -- the cases of issues 37 and 40, one by one ---------------------------------------------

def test_a_short_public_tuple_is_refused_by_both_twins() -> None:
    fields = Round(3, 5, seed=7)._state.fields()
    for public in [fields[8][:2], (), (b"",) * 3, fields[8] + (b"",), None]:
        answers = _refusals(_with(fields, public=public))
        assert all(a.startswith(("ValueError", "TypeError")) for a in answers), answers
        assert len(set(answers)) == 1, answers


@pytest.mark.parametrize("phase", [0, 1])
def test_a_finished_round_set_back_in_play_is_refused(phase: int) -> None:
    """0.4: phase 0 made play_out loop for ever, phase 1 segfaulted (index -1)."""
    fields = _finished()._state.fields()
    answers = _refusals(_with(fields, phase=phase))
    assert all(a.startswith("ValueError") for a in answers) and len(set(answers)) == 1, \
        answers


def test_a_hand_too_big_for_the_hand_size_is_refused() -> None:
    r = Round(2, 1, seed=4)   # 3-card hands
    fields = r._state.fields()
    hands = bytearray(fields[7])
    draw = list(fields[9])
    for t in draw[:17]:       # 17 cards from the draw pile into player 0's hand: 20
        hands[t] += 1
    answers = _refusals(_with(fields, hands=bytes(hands), draw=draw[17:]))
    assert all(a.startswith("ValueError") for a in answers) and len(set(answers)) == 1, \
        answers


@pytest.mark.parametrize("name", ["turn", "reshuffles", "max_turns"])
def test_counts_past_a_c_int_are_refused_alike(name: str) -> None:
    """0.4: turn=2**31-1 wrapped to -2**31 in the compiled state and ended the round in
    the twin; past 2**31 the compiled one raised OverflowError."""
    fields = Round(3, 4, seed=2)._state.fields()
    # 0.4 kept a longer Rules.max_turns as 2**31 - 1: its pickles load, as the same rule
    for value in BIG[1:] if name == "max_turns" else BIG:
        answers = _refusals(_with(fields, **{name: value}))
        assert all(a.startswith("ValueError") for a in answers), (value, answers)
        assert len(set(answers)) == 1, answers


def test_a_0_4_state_with_the_longest_max_turns_loads() -> None:
    fields = _with(Round(3, 4, seed=2)._state.fields(), max_turns=2**31 - 1)
    for cls in _twins():
        assert cls.from_fields(fields).max_turns == _state_py.TURN_LIMIT


def test_round_from_state_refuses_a_turn_past_the_limit() -> None:
    r = Round(2, 1, seed=1)
    hands = [r.hand(0), r.hand(1)]
    draw, pile = r.deck.draw_pile(), r.deck.discard_pile()
    with pytest.raises(ValueError, match="turn"):
        Round.from_state(hands, draw, pile, current_player=1, round_number=1, seed=0,
                         turn=2**31 - 1, rules=Rules(max_turns=2**40))


def test_a_round_s_attributes_are_read_only_views_of_its_state() -> None:
    """0.4: r.wild = 0 then play_out(policy="strong") ended the process (SIGSEGV)."""
    r = Round(3, 5, seed=7)
    for name, value in [("wild", 0), ("hand_size", 40), ("n_players", 14), ("rules", None),
                        ("sudden_death", True), ("round_number", 9), ("dealer", 5),
                        ("totals", (1, 2, 3))]:
        with pytest.raises(AttributeError, match=f"Round.{name} is read-only"):
            setattr(r, name, value)
    assert (r.wild, r.hand_size, r.n_players) == (7, 7, 3)
    assert play_out([r], policy="strong").shape == (1, 3)


def test_play_games_takes_any_max_turns_that_rules_take() -> None:
    """0.4: OverflowError past 2**31 - 1, which Round and Game took."""
    rounds = [1, 2]
    base = play_games(2, seed=1, rounds=rounds, rules=Rules(max_turns=10**6))
    for huge in (2**31 - 1, 2**31, 2**70):
        got = play_games(2, seed=1, rounds=rounds, rules=Rules(max_turns=huge))
        assert np.array_equal(got, base)
    game = fc.play_game([fc.GreedyBot()] * 4, seed=fc.seeding.game_seeds(1, 2)[0],
                        rounds=rounds, rules=Rules(max_turns=2**70))
    assert game.totals == tuple(base[0].tolist())


@pytest.mark.parametrize("arg", ["tries", "replay_draws", "threads", "worlds"])
def test_play_worlds_refuses_counts_past_a_c_int(arg: str) -> None:
    r = Round(3, 3, seed=5)
    for value in (2**31, 2**63):
        with pytest.raises(ValueError, match=arg):
            play_worlds(r, [0], seed=1, **{"worlds": 2, arg: value})


def test_play_worlds_without_actions_returns_at_once() -> None:
    """0.4 played 2**31 worlds of nothing for minutes."""
    import time
    r = Round(3, 3, seed=5)
    start = time.perf_counter()
    out = play_worlds(r, [], worlds=2**31 - 1, seed=1)
    assert out.shape == (2**31 - 1, 0, 3) and out.dtype == np.int32
    assert time.perf_counter() - start < 1.0


def test_from_observation_refuses_more_players_than_the_rules_seat() -> None:
    """0.4: an Observation claiming 15 players raised IndexError."""
    import dataclasses
    obs = Round(3, 3, seed=5).observation(0)
    bad = dataclasses.replace(obs, n_players=15)
    with pytest.raises(ValueError, match="players"):
        Round.from_observation(bad, seed=0)


# -- a Round's pickle ----------------------------------------------------------------------

class _Fields:
    """Pickles as a round state made from ``fields`` (a malformed state's pickle)."""

    def __init__(self, cls: Any, fields: tuple[Any, ...]) -> None:
        self.cls, self.fields = cls, fields

    def __reduce__(self) -> tuple[Any, ...]:
        return self.cls.from_fields, (self.fields,)


class _AsRound:
    """Pickles as a Round whose pickle holds ``state``, as a Round's own pickle does."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        return object.__new__, (Round,), self.state


def _round_pickle(r: Round, fields: tuple[Any, ...]) -> bytes:
    """``r`` pickled with its state's fields replaced by ``fields``."""
    d = r.__getstate__()
    d["_state"] = _Fields(type(d["_state"]), fields)
    return pickle.dumps(_AsRound(d))


def test_a_round_pickle_with_a_malformed_state_is_refused_on_load() -> None:
    r = _finished()
    for change in [{"phase": 0}, {"phase": 1}, {"public": ()}, {"turn": 2**31 - 1}]:
        data = _round_pickle(r, _with(r._state.fields(), **change))
        with pytest.raises(ValueError):
            pickle.loads(data)


def test_a_round_pickle_whose_rules_disagree_with_its_state_is_refused() -> None:
    r = Round(3, 5, seed=7)
    data = pickle.dumps(r).replace(b"_rules", b"_ruler")  # no rules under the new name
    with pytest.raises(ValueError, match="rules"):
        pickle.loads(data)


def test_a_round_pickle_round_trips_and_plays_the_same() -> None:
    r = Round(4, 6, seed=11)
    for _ in range(9):
        r.apply_action(r.legal_actions()[-1 if r.phase.value == "discard" else 0])
    back = pickle.loads(pickle.dumps(r))
    assert (back.wild, back.hand_size, back.n_players, back.rules, back.dealer,
            back.round_number, back.totals) == (r.wild, r.hand_size, r.n_players, r.rules,
                                                r.dealer, r.round_number, r.totals)
    policy = sized("expert", "greedy")
    assert np.array_equal(play_out([back], policy=policy), play_out([r], policy=policy))


# -- random malformed input, in a child process ---------------------------------------------

_NASTY = [-1, 0, 1, 2, 3, 7, 13, 14, 15, 55, 56, 113, 114, 2**31 - 1, 2**31, 2**63, -2**63,
          1.5, None, "x", b"", True, (), [], [-1], [2**31], b"\x00" * 56, b"\xff" * 56]


def _fuzz(cases: int, seed: int) -> None:
    """Mutate the fields of states of every kind (fresh, mid-turn, final turns, over,
    mid-deal) and feed them to every entrance; raise AssertionError on any answer but
    success or a ValueError/TypeError that both twins give alike."""
    rng = np.random.default_rng(seed)
    bases = [_finished(s) for s in range(2)]
    for s in range(4):
        r = Round(int(rng.integers(1, 6)), int(rng.integers(1, 12)), seed=s,
                  rules=Rules(return_discard=bool(s % 2)), sudden_death=s == 3)
        for _ in range(int(rng.integers(0, 40))):
            if r.is_over:
                break
            acts = r.legal_actions()
            r.apply_action(acts[int(rng.integers(len(acts)))])
        bases.append(r)
    mid_deal = P.undealt(3, 4, 6, 2, 1000, False, 0, False, list(range(55)) * 2 + [55] * 6,
                         np.random.default_rng(0))
    mid_deal.deal_card(1)
    states = [r._state.fields() for r in bases] + [mid_deal.fields()]
    for case in range(cases):
        base = states[case % len(states)]
        fields = list(base)
        for _ in range(int(rng.integers(1, 4))):
            i = int(rng.integers(len(fields)))
            if i in (7, 8) and rng.random() < 0.5:  # bytes: flip or cut some
                value = fields[i]
                if isinstance(value, bytes) and value:
                    b = bytearray(value)
                    b[int(rng.integers(len(b)))] = int(rng.integers(256))
                    fields[i] = bytes(b)
                elif isinstance(value, tuple) and value:
                    fields[i] = value[:int(rng.integers(len(value)))]
                continue
            if i in (9, 10, 17) and rng.random() < 0.5 and isinstance(fields[i], list) \
                    and fields[i]:
                value = list(fields[i])
                value[int(rng.integers(len(value)))] = _NASTY[int(rng.integers(len(_NASTY)))]
                fields[i] = value
                continue
            if isinstance(fields[i], int) and rng.random() < 0.5:  # nearly right
                fields[i] = fields[i] + int(rng.integers(-2, 3))
            else:
                fields[i] = _NASTY[int(rng.integers(len(_NASTY)))]
        answers = _refusals(tuple(fields))
        assert len(set(answers)) == 1, (case, fields, answers)
        if answers[0] != "ok":
            continue
        _every_entrance(bases[case % len(bases)], tuple(fields), rng)


def _every_entrance(like: Round, fields: tuple[Any, ...], rng: np.random.Generator) -> None:
    """A round built around the accepted ``fields`` through every entrance: each call
    answers or refuses with ValueError/TypeError."""
    try:
        r = pickle.loads(_round_pickle(like, fields))
    except REFUSED:
        return
    # the twins' strong and expert policies take seconds a round: the compiled ones only
    slow = [] if ON_TWINS else [
        lambda: play_out([r], policy="strong"),
        lambda: play_out([r], policy="expert"),
        lambda: play_worlds(r, r.legal_actions(), worlds=2, seed=1, replay_draws=2,
                            discard_weight=0.5),
        lambda: play_worlds(r, r.legal_actions()[:1], worlds=2, seed=1, policy="expert"),
        lambda: play_worlds(r, r.legal_actions()[:2], worlds=2, seed=1, policy="greedy",
                            opponents="strong"),
    ]
    calls = slow + [
        lambda: play_out([r], policy="greedy"),
        lambda: play_out([r], policy="random", seed=1),
        lambda: fc.rollout.play_out_actions(r, policy="greedy"),
        lambda: play_worlds(r, r.legal_actions()[-1:], worlds=1, seed=1, policy="greedy"),
        lambda: r.clone(),
        lambda: r.observation(0),
        lambda: r.determinize(0, seed=1),
    ]
    if not ON_TWINS:  # the single Gymnasium env's opponents' entrance (compiled only)
        from fivecrowns import _policies as core  # type: ignore[attr-defined]
        policy = _NASTY[int(rng.integers(len(_NASTY)))] if rng.random() < 0.3 \
            else int(rng.integers(0, 5))
        chooser = np.random.PCG64(1) if policy == 4 or rng.random() < 0.2 else None
        calls.append(lambda: core.policy_action(r._state, policy, chooser))
        n = r.n_players
        policies = tuple(_pick(rng, int(rng.integers(0, 5)) if rng.random() < 0.8 else None)
                         for _ in range(n + int(rng.random() < 0.1)))
        choices = tuple(np.random.PCG64(q) if p == 4 or rng.random() < 0.1 else None
                        for q, p in enumerate(policies))
        stop = _pick(rng, int(rng.integers(-1, n)))
        c = r.clone()
        calls.append(lambda: core.play_policies(c._state, [], [], policies, choices, stop))
    for call in calls:
        try:
            call()
        except REFUSED:
            pass
    c = r.clone()
    for _ in range(200):     # the moves themselves, to the end
        acts = c.legal_actions()
        if not acts:
            break
        c.apply_action(acts[int(rng.integers(len(acts)))])


# The private engine class of the vector env: its arguments checked, never trusted.
_VECTOR_REFUSED = (ValueError, TypeError, OverflowError, IndexError, RuntimeError)


def _pick(rng: np.random.Generator, good: Any, nasty: float = 0.15) -> Any:
    return _NASTY[int(rng.integers(len(_NASTY)))] if rng.random() < nasty else good


def _fuzz_vector(cases: int, seed: int) -> None:
    """``_vecgames.VectorGames`` built from arguments that are often wrong, its games given
    generators, begun and stepped with actions and buffers that are often wrong: each call
    answers or refuses with an exception, and never touches memory it does not own."""
    from fivecrowns import _vecgames as core  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    for _ in range(cases):
        n = _pick(rng, int(rng.integers(1, 5)), 0.05)
        players = _pick(rng, int(rng.integers(2, 7)), 0.05)
        p = players if isinstance(players, int) and 2 <= players <= 14 else 3
        self_play = rng.random() < 0.25
        seats = [_pick(rng, -1 if self_play else int(rng.integers(0, p)), 0.05)
                 for _ in range(n if isinstance(n, int) and 0 < n < 10 else 2)]
        policies = [] if self_play else [_pick(rng, int(rng.integers(0, 5)), 0.05)
                                         for _ in range(p - 1 + int(rng.integers(-1, 2) *
                                                                    (rng.random() < 0.1)))]
        rounds = [_pick(rng, int(rng.integers(1, 12)), 0.05)
                  for _ in range(int(rng.integers(0, 4)) or 1)]
        features = bool(rng.random() < 0.3)
        size = 192 + 60 * p + (62 if features else 0)
        scale = None if rng.random() < 0.7 else np.ones(
            size + int(rng.integers(-1, 2)), np.float32)
        args = (n, players, seats, policies, _pick(rng, 2 if rng.random() < 0.8 else 4, 0.1),
                _pick(rng, int(rng.integers(1, 200)), 0.1), bool(rng.random() < 0.5), rounds,
                _pick(rng, int(rng.integers(0, 4)), 0.05),
                _pick(rng, int(rng.integers(0, 30)), 0.05), scale, features)
        try:
            games = core.VectorGames(*args)
        except _VECTOR_REFUSED:
            continue
        m, width = games.n, games.size
        derived = rng.random() < 0.4  # the engine derives the episodes' generators
        if derived:
            try:
                games.seed(_pick(rng, int(rng.integers(0, 2**63)), 0.2))
            except _VECTOR_REFUSED:
                derived = False
        for i in range(m + (1 if rng.random() < 0.1 else 0)):
            if derived and rng.random() < 0.8:
                continue
            wild = [np.random.PCG64(q) if rng.random() < 0.5 else None for q in range(p)]
            for choices in (wild, _choices(seats[i % m], policies, p)):
                try:  # often wrong at first, then as a RandomBot's seats want
                    games.provide(i, np.random.PCG64(i), choices)
                    break
                except _VECTOR_REFUSED:
                    pass
        obs, masks, seat_out = _buffers(rng, m, width, 0.1)
        if rng.random() < 0.1:   # a step before any deal: nothing on the table to move
            try:
                _single(rng, games, m, obs, masks) if rng.random() < 0.5 else \
                    _step(rng, games, m, p, obs, masks, seat_out, width)
            except _VECTOR_REFUSED:
                pass
        try:
            games.begin(obs, masks, seat_out, 0, m)
        except _VECTOR_REFUSED:
            continue
        for i in range(m):  # the second episodes' generators, as the env gives them
            if not derived:
                games.provide(i, np.random.PCG64(i), _choices(seats[i], policies, p))
        for _ in range(int(rng.integers(1, 40))):
            try:
                if rng.random() < 0.2:   # the single environment's entrances
                    _single(rng, games, m, obs, masks)
                    continue
                obs, masks, seat_out = _buffers(rng, m, width, 0.05)
                _step(rng, games, m, p, obs, masks, seat_out, width)
            except _VECTOR_REFUSED:
                break
            for i in range(m):  # the next episodes' generators, as the env gives them
                if not derived or rng.random() < 0.1:
                    games.provide(i, np.random.PCG64(i), _choices(seats[i], policies, p))


def _actions(rng: np.random.Generator, masks: Any) -> npt.NDArray[np.int64]:
    """A legal action of each game mostly, else any, at times one past an int32."""
    legal = [np.flatnonzero(row) for row in masks]
    actions = np.array([int(rng.choice(a)) if len(a) and rng.random() < 0.9
                        else int(rng.integers(-3, 120)) for a in legal], np.int64)
    if len(actions) and rng.random() < 0.05:
        actions[0] = [-2**63, 2**63 - 1, 2**31, -2**31 - 1][int(rng.integers(4))]
    return actions


def _step(rng: np.random.Generator, games: Any, m: int, p: int, obs: Any, masks: Any,
          seat_out: Any, width: int) -> None:
    """``VectorGames.step`` over every game, its buffers at times of a wrong size."""
    final_obs, final_masks, _ = _buffers(rng, m, width, 0.05)
    outs = [np.zeros(m, np.float64), np.zeros((m, p), np.float64), np.zeros(m, np.uint8),
            np.zeros(m, np.uint8), np.zeros(m, np.int32), np.zeros(m, np.int32)]
    games.step(_actions(rng, masks), obs, masks, *outs, seat_out, final_obs, final_masks,
               np.zeros(m, np.uint8), np.zeros((m, p), np.int64), 0, m)


def _single(rng: np.random.Generator, games: Any, m: int, obs: Any, masks: Any) -> None:
    """The single environment's ``play_one`` (or at times ``begin_one``) on one game,
    its row buffers at times of a wrong length."""
    i = int(rng.integers(0, m + 1)) if rng.random() < 0.1 else int(rng.integers(m))
    row = min(i, len(obs) - 1)
    cut = int(rng.random() < 0.05)
    if rng.random() < 0.1:
        games.begin_one(i, obs[row][cut:], masks[row])
    else:
        games.play_one(i, int(_actions(rng, masks[row:row + 1])[0]), obs[row],
                       masks[row][cut:])


def _buffers(rng: np.random.Generator, m: int, width: int, bad: float) -> list[Any]:
    """Observations, masks and seats for ``m`` games, a row too many or few at times."""
    rows = m + (int(rng.integers(-1, 2)) if rng.random() < bad else 0)
    return [np.zeros((rows, width), np.float32), np.zeros((rows, 114), np.int8),
            np.zeros(rows, np.int64)]


def _choices(seat: int, policies: list[Any], p: int) -> list[Any]:
    """A generator for each RandomBot's seat (engine number 4) of a game whose learner sits
    in ``seat``, None for the others."""
    others = iter(policies)
    return [None if (seat == -1 or q == seat) else
            (np.random.PCG64(q) if next(others, None) == 4 else None) for q in range(p)]


def test_malformed_input_through_every_entrance_in_a_child() -> None:
    cases = sized(3000, 200)
    tests = Path(__file__).resolve().parent
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tests)!r})
        import test_fuzz_entrances as t
        t._fuzz({cases}, 20261127)
        if not t.ON_TWINS:
            t._fuzz_vector({sized(1500, 0)}, 20261128)
        print("done")
    """)
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=sized(120, 600), env=env, cwd=tests)
    assert done.returncode == 0 and done.stdout.strip().endswith("done"), \
        f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


def test_play_games_refuses_bad_arguments_with_value_or_type_errors() -> None:
    for kwargs in [{"n_players": 15}, {"n_players": 2**31}, {"first_dealer": 2**31},
                   {"rounds": [12]}, {"rounds": [2**31]}, {"threads": 2**31},
                   {"policy": ["greedy"] * 3}, {"rules": "x"}]:
        with pytest.raises(REFUSED):
            play_games(1, seed=1, **kwargs)
    with pytest.raises(REFUSED):
        play_games(2**63, seed=1, threads=2**40)

