"""A Round or a Game used from two threads at once is serialized or refused, never
corrupted (issue 37, item 4; docs/development.rst, Threads).

The races run in a child process with a time limit, so that a crash fails the test
instead of ending pytest: one thread moves a round (and starts it again, unpickling a
new deal into it, once it is over) while another copies it (``clone``,
``copy.deepcopy``, a pickle, ``determinize``) or runs ``play_worlds`` and ``play_out``
on it. Before the fix (0.5's tree before these tests) the compiled engine gave about
one clone in 900 whose history and state were of two moments (its public counts and
its history disagreed with its cards), the pure-Python twin one in 40 (some not even
a valid state); ``play_worlds`` failed with the compiled engine's own messages ("play_worlds:
action 5 is not legal now", the checks it makes on the state after the Python side had
checked another moment), and on the twin with ``IllegalMoveError`` from inside its
worlds. A game copied while moved gave copies whose record had one move more or less
than their round.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from fivecrowns import Game

# The child's twin: the one this run uses, and the pure-Python one.
TWINS = ("this run's", "python")
# Seconds each race runs in the child, and the time limit of the child.
RACE = 1.5
LIMIT = 120

CHILD = r"""
import copy, json, pickle, random, sys, threading, time
import numpy as np
import fivecrowns as fc
from fivecrowns import rollout
from fivecrowns.game import Game
from fivecrowns.records import EventKind

seconds = float(sys.argv[1])
sys.setswitchinterval(1e-6)   # switch threads as often as the interpreter can
DRAWS = (EventKind.DRAW_DECK, EventKind.DRAW_DISCARD)
DISCARDS = (EventKind.DISCARD, EventKind.GO_OUT)


def note_bad(what):
    out["n_bad"] += 1
    if len(out["bad"]) < 10:
        out["bad"].append(what)
    else:
        out["bad"].append("...")
        del out["bad"][10:-1]


def check_round(c):
    # a valid state (from_fields checks everything), its history of the same moment,
    # the counts its observations show those of its piles, its result there when over
    st = c._state
    type(st).from_fields(st.fields())
    h = c.history
    draws = sum(e.kind in DRAWS for e in h)
    discards = sum(e.kind in DISCARDS for e in h)
    assert discards == st.turn and draws == st.turn + (st.phase == 1), \
        ("history", draws, discards, st.turn, st.phase)
    obs = c.observation(0)
    pile = np.bincount(np.array([x.index for x in c.deck.discard_pile()], dtype=np.intp),
                       minlength=56)
    assert (obs.discard_counts == pile).all(), "observed discard counts"
    assert (c.result is not None) == c.is_over, "result"


def round_mover(holder):
    rng = random.Random(0)
    seed = 100
    while not stop.is_set():
        r = holder[0]
        if r.is_over:   # a new deal, unpickled into the same round
            seed += 1
            fresh = fc.Round(4, round_number=rng.randint(1, 11), seed=seed)
            r.__setstate__(dict(vars(fresh)))
            continue
        r.apply_action(rng.choice(r.legal_actions()))
        out["moves"] += 1


def copies(holder):
    r = holder[0]
    makers = [lambda: r.clone(), lambda: copy.deepcopy(r),
              lambda: pickle.loads(pickle.dumps(r)),
              lambda: r.determinize(r.current_player, 3)]
    end = time.monotonic() + seconds
    k = 0
    while time.monotonic() < end:
        k += 1
        try:
            c = makers[k % 4]()
        except ValueError as exc:   # determinize of a round that is over
            if "over" not in str(exc):
                note_bad(f"{type(exc).__name__}: {exc}")
            continue
        except Exception as exc:
            note_bad(f"{type(exc).__name__}: {exc}")
            continue
        out["made"] += 1
        try:
            check_round(c)
        except Exception as exc:
            note_bad(f"copy {k % 4}: {type(exc).__name__}: {exc}")


def worlds(holder):
    r = holder[0]
    n = 1 if rollout.ROLLOUT_IMPLEMENTATION == "python" else 32
    end = time.monotonic() + seconds
    while time.monotonic() < end or not out["made"] + out["refused"] + out["n_bad"]:
        acts = r.clone().legal_actions()[:3]
        try:
            if acts:
                s = rollout.play_worlds(r, acts, worlds=n, seed=1, policy="greedy")
                assert s.shape == (n, len(acts), 4) and (s >= 0).all(), s.shape
            s = rollout.play_out([r])
            assert s.shape == (1, 4) and (s >= 0).all(), s
            out["made"] += 1
        except ValueError as exc:
            # the round moved on since its legal actions were read: the entrance's own
            # refusal, naming the move or the round over
            msg = str(exc)
            if msg.startswith("actions[") or msg.startswith("the round is over"):
                out["refused"] += 1
            else:
                note_bad(f"{type(exc).__name__}: {exc}")
        except Exception as exc:
            note_bad(f"{type(exc).__name__}: {exc}")


def game_mover(holder):
    rng = random.Random(1)
    seed = 0
    while not stop.is_set():
        g = holder[0]
        if g.is_over:
            seed += 1
            holder[0] = Game(3, seed=seed, rounds=[1, 2])
            continue
        try:
            g.apply_action(rng.choice(g.legal_actions()))
            out["moves"] += 1
        except RuntimeError:   # refused: a copy is under way
            out["refused"] += 1


def game_copies(holder):
    end = time.monotonic() + seconds
    k = 0
    while time.monotonic() < end:
        g = holder[0]
        k += 1
        try:
            c = (g.clone() if k % 3 == 0 else copy.deepcopy(g) if k % 3 == 1
                 else pickle.loads(pickle.dumps(g)))
        except RuntimeError:   # refused: a move is under way
            out["refused"] += 1
            continue
        out["made"] += 1
        try:
            rec = c.record()
            moves = sum(e.kind in DRAWS + DISCARDS for e in c.round.history)
            if not c.is_over:
                assert len(rec.actions[-1]) == moves, ("record", len(rec.actions[-1]), moves)
                assert c.round_index == len(rec.round_scores) == len(c.results)
            assert list(c.totals) == [sum(s) for s in zip(*([r.scores for r in c.results]
                                                            or [[0] * 3]))], "totals"
            check_round(c.round)
        except Exception as exc:
            note_bad(f"{type(exc).__name__}: {exc}")


counts = {}
for kind in sys.argv[2:]:
    out = {"made": 0, "moves": 0, "refused": 0, "n_bad": 0, "bad": []}
    stop = threading.Event()
    if kind == "game":
        holder = [Game(3, seed=0, rounds=[1, 2])]
        mover, reader = game_mover, game_copies
    else:
        holder = [fc.Round(4, round_number=11, seed=1)]
        mover, reader = round_mover, copies if kind == "copies" else worlds
    t = threading.Thread(target=mover, args=(holder,))
    t.start()
    try:
        reader(holder)
    except Exception as exc:
        note_bad(f"the reader: {type(exc).__name__}: {exc}")
    finally:
        stop.set()
        t.join()
    counts[kind] = out
print(json.dumps(counts))
"""


KINDS = ("copies", "worlds", "game")
_RACES: dict[str, dict[str, dict[str, object]]] = {}


def race(kind: str, twin: str) -> dict[str, object]:
    """The counts of the race ``kind`` on ``twin``: every race of a twin runs in one
    child process (its imports are most of its time), the first time one is asked for."""
    if twin not in _RACES:
        env = dict(os.environ)
        if twin == "python":
            env["FIVECROWNS_IMPLEMENTATION"] = "python"
        try:
            done = subprocess.run([sys.executable, "-c", CHILD, str(RACE), *KINDS],
                                  env=env, capture_output=True, text=True, timeout=LIMIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the races did not finish within {LIMIT} s")
        assert done.returncode == 0, (
            f"the races' child ended with code {done.returncode} (a negative code is a "
            f"signal: {-done.returncode} is SIGSEGV's 11):\n{done.stderr[-3000:]}")
        _RACES[twin] = json.loads(done.stdout.strip().splitlines()[-1])
    return _RACES[twin][kind]


@pytest.mark.slow  # the races run in a child process, seconds each
@pytest.mark.parametrize("twin", TWINS)
def test_copies_of_a_round_being_moved_are_each_of_one_moment(twin: str) -> None:
    counts = race("copies", twin)
    assert counts["bad"] == [], counts
    assert counts["made"] and counts["moves"], counts   # the race ran


@pytest.mark.slow  # the races run in a child process, seconds each
@pytest.mark.parametrize("twin", TWINS)
def test_play_worlds_and_play_out_on_a_round_being_moved(twin: str) -> None:
    """Each call answers for one moment of the round, or refuses the actions that are no
    longer legal with its own message: never the engine's inner checks, never a crash."""
    counts = race("worlds", twin)
    assert counts["bad"] == [], counts
    assert counts["made"] or counts["refused"], counts   # the race ran


@pytest.mark.slow  # the races run in a child process, seconds each
@pytest.mark.parametrize("twin", TWINS)
def test_copies_of_a_game_being_moved_are_whole_or_refused(twin: str) -> None:
    counts = race("game", twin)
    assert counts["bad"] == [], counts
    assert counts["made"] and counts["moves"], counts


class _Blocking:
    """An attribute whose deep copy waits until it is let go: a copy of the game that
    holds it stays under way meanwhile."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.go = threading.Event()

    def __deepcopy__(self, memo: dict[int, object]) -> _Blocking:
        self.entered.set()
        assert self.go.wait(30)
        return self


def test_a_game_being_copied_refuses_another_thread_and_is_unchanged() -> None:
    from fivecrowns.game import GameInUseError  # here: the races run on older trees too

    g = Game(2, seed=4, rounds=[1])
    g.note = _Blocking()   # type: ignore[attr-defined]
    g.apply_action(g.legal_actions()[0])
    before = g.record()
    copied: list[Game] = []
    t = threading.Thread(target=lambda: copied.append(g.clone()))
    t.start()
    try:
        assert g.note.entered.wait(30)   # type: ignore[attr-defined]
        action = g.legal_actions()[0]
        with pytest.raises(GameInUseError, match="another thread is moving, copying"):
            g.apply_action(action)
        with pytest.raises(GameInUseError):
            g.clone()
        with pytest.raises(RuntimeError):   # GameInUseError is a RuntimeError
            g.draw("deck")
        assert g.record() == before
    finally:
        g.note.go.set()   # type: ignore[attr-defined]
        t.join()
    assert copied and copied[0].record() == before
    g.apply_action(action)   # free again
    assert len(g.record().actions[-1]) == 2
