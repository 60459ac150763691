"""The round state and its twin (fivecrowns._round_state.RoundState, fivecrowns._state_py
.RoundState) played move for move: every player count 1-7 and party mode to 14,
reshuffles, final turns, sudden death, max_turns, return_discard on and off, copies and
pickles in the middle; every answer of both compared after every move."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from conftest import compiled_rollout
from fivecrowns import _state_py

P = _state_py.RoundState


@pytest.fixture(scope="module")
def compiled_state() -> Any:
    return compiled_rollout("_round_state").RoundState


def everything(s: Any) -> tuple[Any, ...]:
    """Every answer a state gives, the generator's state included."""
    n = s.n_players
    return (s.n_players, s.hand_size, s.wild, s.decks, s.max_turns, s.return_discard,
            s.sudden_death, s.current, s.phase, s.turn, s.taken, s.drawn, s.went_out,
            s.final_left,
            s.hit_max_turns, s.reshuffles, s.n_draw, s.n_pile, s.top_discard, s.can_draw,
            s.scores, s.hands().tobytes(), s.draw_pile(), s.discard_pile(),
            s.public_bytes(), s.legal_actions(), s.legal_mask().tobytes(), s.must_keep(),
            [s.unseen(p).tobytes() for p in range(n)], s.draw_counts().tobytes(),
            s.pile_counts().tobytes(), s.taken_counts().tobytes(),
            s.hidden_counts().tobytes(), [s.hand_bytes(p) for p in range(n)],
            [s.check_draw(b) for b in (False, True)],
            [s.check_discard(t, g) for t in range(56) for g in (False, True)],
            s.rng.bit_generator.state)


def tables() -> list[tuple[int, int, int, int, bool, bool]]:
    """(players, decks, hand size, max_turns, return_discard, sudden_death) to play."""
    out = []
    for n in range(1, 8):
        out.append((n, 2, 3 + n, 400, n % 2 == 0, False))
    for n in (2, 8, 11, 14):
        out.append((n, 4, min(13, 231 // n), 600, n % 2 == 1, False))
    out += [(3, 2, 6, 300, False, True), (4, 2, 13, 9, False, False),
            (2, 2, 3, 2000, True, False)]
    return out


def move(legal: list[int], rng: np.random.Generator) -> int:
    """A random legal move that makes long rounds: mostly blind draws (so the deck is
    reshuffled), going out now and then."""
    outs = [a for a in legal if a >= 58]
    if outs and rng.random() < 0.2:
        return outs[int(rng.integers(len(outs)))]
    if 0 in legal and rng.random() < 0.85:
        return 0
    rest = [a for a in legal if a < 58] or legal
    return rest[int(rng.integers(len(rest)))]


@pytest.mark.parametrize("table", tables())
def test_both_play_every_move_alike(compiled_state: Any,
                                    table: tuple[int, int, int, int, bool, bool]) -> None:
    n, decks, size, max_turns, back, sudden = table
    seed = 31 * n + decks + size
    a = compiled_state.deal(n, size, size, decks, max_turns, back, seed % n, sudden,
                            np.random.default_rng(seed))
    b = P.deal(n, size, size, decks, max_turns, back, seed % n, sudden,
               np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    moves = 0
    history_a: list[Any] = []
    history_b: list[Any] = []
    while a.phase != 2:
        assert everything(a) == everything(b), moves
        # the plain fields (what pickles hold) rebuild the same state, in either twin
        assert everything(P.from_fields(a.fields())) == everything(a), moves
        assert everything(compiled_state.from_fields(b.fields())) == everything(b), moves
        action = move(a.legal_actions(), rng)
        if moves % 37 == 5:
            a, b = pickle.loads(pickle.dumps(a)), copy.copy(b)
        elif moves % 37 == 20:
            a, b = a.copy(), pickle.loads(pickle.dumps(b))
        if moves % 3 == 0:   # the move with its events and record (Round's)
            made = a.play(action, history_a), b.play(action, history_b)
            assert [vars(r) if r is not None else None for r in made] == [
                vars(made[1]) if made[1] is not None else None] * 2, moves
            assert history_a == history_b, moves
        elif action < 2:
            assert a.draw(action == 1) == b.draw(action == 1)
        else:
            t, out = (action - 2) % 56, action >= 58
            assert a.discard(t, out) == b.discard(t, out)
        moves += 1
    assert everything(a) == everything(b)
    assert a.legal_actions() == [] and not a.legal_mask().any()
    if n * size * 3 < 58 * decks and not sudden and max_turns > 100:
        assert a.reshuffles > 0 or a.went_out >= 0


def test_a_round_dealt_card_by_card_is_the_round_dealt(compiled_state: Any) -> None:
    """undealt + stack + deal_card + turn_up places chance outcomes into the draw pile:
    dealing the outcomes of a shuffled deal gives the state deal gives."""
    for cls in (compiled_state, P):
        dealt = cls.deal(3, 5, 5, 2, 1000, False, 2, False, np.random.default_rng(4))
        order = dealt.discard_pile()
        hands = dealt.hands()
        s = cls.undealt(3, 5, 5, 2, 1000, False, 2, False,
                        sorted(dealt.draw_pile() + order
                               + [t for q in range(3) for t in np.repeat(
                                   np.arange(56), hands[q]).tolist()]),
                        np.random.default_rng(0))
        assert s.current == 0 and s.n_pile == 0 and not s.hands().any()
        for q in range(3):
            for t in np.repeat(np.arange(56), hands[q]).tolist():
                s.stack(t)
                assert s.deal_card(q) == t
        s.stack(order[0])
        assert s.turn_up() == order[0]
        assert s.hands().tobytes() == hands.tobytes()
        assert s.public_bytes() == dealt.public_bytes()
        assert sorted(s.draw_pile()) == sorted(dealt.draw_pile())
        with pytest.raises(ValueError, match="no card of type 55"):
            emptied = cls.undealt(1, 3, 3, 2, 10, False, 0, False, [1, 2, 3],
                                  np.random.default_rng(0))
            emptied.stack(55)


def test_stack_keeps_the_other_cards_in_order(compiled_state: Any) -> None:
    for cls in (compiled_state, P):
        s = cls.undealt(2, 3, 3, 2, 10, False, 0, False, [0, 1, 2, 1, 3],
                        np.random.default_rng(0))
        s.stack(1)
        assert s.draw_pile() == [1, 0, 2, 1, 3]
        s.stack(3)
        assert s.draw_pile() == [3, 1, 0, 2, 1]


def test_bad_arguments_are_refused_alike(compiled_state: Any) -> None:
    rng = np.random.default_rng(0)
    for cls in (compiled_state, P):
        s = cls.deal(2, 3, 3, 2, 10, False, 0, False, np.random.default_rng(1))
        calls: list[tuple[Any, tuple[Any, ...], str]] = [
            (s.check_discard, (56, False), "card type must be 0..55"),
            (s.check_discard, (-1, False), "card type must be 0..55"),
            (s.hand, (2,), "player must be a seat 0..1"),
            (s.unseen, (-1,), "player must be a seat"),
            (s.discard, (0, False), "illegal discard"),
            (s.deal_card, (5,), "player must be a seat"),
            (s.set_draw_pile, ([60],), "outside 0..55"),
            (s.set_draw_pile, ([0, 0, 0],), "more cards of type 0"),
            (s.set_hand, (0, np.zeros(55)), "56 counts"),
            (cls.deal, (15, 3, 3, 2, 10, False, 0, False, rng), "n_players"),
            (cls.deal, (2, 3, 3, 3, 10, False, 0, False, rng), "decks"),
            (cls.deal, (2, 3, 2, 2, 10, False, 0, False, rng), "wild"),
            (cls.deal, (2, 20, 3, 2, 10, False, 0, False, rng), "hand_size"),
            (cls.deal, (7, 19, 3, 2, 10, False, 0, False, rng), "more than the 116"),
            (cls.deal, (2, 3, 3, 2, 10, False, 2, False, rng), "dealer"),
        ]
        for call, args, match in calls:
            with pytest.raises(ValueError, match=match):
                call(*args)
        with pytest.raises(TypeError, match="numpy Generator"):
            cls.deal(2, 3, 3, 2, 10, False, 0, False, 5)
        s.draw(False)
        with pytest.raises(ValueError, match="illegal draw"):
            s.draw(True)


@pytest.mark.parametrize("kind", [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
                                  np.random.Philox, np.random.SFC64])
def test_a_copy_draws_what_the_original_would_have(compiled_state: Any, kind: Any) -> None:
    """A copy keeps a snapshot of the generator: whatever then happens to the original
    generator, the copy's reshuffles are those the original would have made (a copy of
    a copy too, and for every kind of bit generator)."""
    for cls in (compiled_state, P):
        rng = np.random.Generator(kind(9))
        rng.integers(0, 10, dtype=np.uint32)   # half a 64-bit draw left for the next
        s = cls.deal(1, 3, 3, 2, 1000, True, 0, False, rng)
        c = s.copy().copy()
        rng.random(10)   # the caller advances the shared generator
        while not c.reshuffles:
            c.draw(False)
            c.discard(int(np.flatnonzero(c.hand(0))[0]), False)
        again = np.random.Generator(kind(9))
        again.integers(0, 10, dtype=np.uint32)
        d = cls.deal(1, 3, 3, 2, 1000, True, 0, False, again)
        while not d.reshuffles:
            d.draw(False)
            d.discard(int(np.flatnonzero(d.hand(0))[0]), False)
        assert c.draw_pile() == d.draw_pile()
        # (pickled: MT19937's state holds an array)
        assert pickle.dumps(c.rng.bit_generator.state) == pickle.dumps(
            d.rng.bit_generator.state)
        assert type(c.rng.bit_generator) is kind
        assert s.rng is rng and c.copy_with(rng).rng is rng


def test_play_makes_the_move_its_events_and_its_record(compiled_state: Any) -> None:
    """play is draw or discard, plus the public events it appends and the record it
    returns: the records are the dataclasses' own (equal, hashed, pickled, shown alike),
    a refused move changes nothing, and the round's last move returns None."""
    from fivecrowns.actions import Source
    from fivecrowns.records import DiscardRecord, DrawRecord, Event, EventKind
    for cls in (compiled_state, P):
        s = cls.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(8))
        history: list[Any] = []
        before = everything(s)
        for bad in (2, 58, -1, 114, 2**20):
            with pytest.raises(ValueError):
                s.play(bad, history)
            assert everything(s) == before and history == []
        top = s.top_discard
        rec = s.play(1, history)
        card = s.hand(1)  # the player at the dealer's left took the top discard
        assert card[top] >= 1 and s.drawn == top and s.must_keep() == top
        want = DrawRecord(1, Source.DISCARD, _card(top), 0, False)
        assert rec == want and vars(rec) == vars(want) and hash(rec) == hash(want)
        assert pickle.loads(pickle.dumps(rec)) == want and repr(rec) == repr(want)
        assert history == [Event(1, EventKind.DRAW_DISCARD, _card(top))]
        with pytest.raises(ValueError):
            s.play(2 + top, history)          # the card just taken stays this turn
        other = next(t for t in range(56) if s.hand(1)[t] and t != top)
        rec = s.play(2 + other, history)
        want_discard = DiscardRecord(1, _card(other), False, 0, False, None)
        assert rec == want_discard and vars(rec) == vars(want_discard)
        assert history[-1] == Event(1, EventKind.DISCARD, _card(other)) and s.drawn == -1
        rec = s.play(0, history)
        assert rec.source is Source.DECK and history[-1] == Event(0, EventKind.DRAW_DECK, None)
        assert s.drawn == rec.card.index
    for cls in (compiled_state, P):   # the last move: None, its events appended
        s = cls.deal(2, 3, 3, 2, 1, False, 0, False, np.random.default_rng(8))
        history = []
        s.play(0, history)
        t = next(t for t in range(56) if s.hand(1)[t])
        assert s.play(2 + t, history) is None and s.phase == 2 and len(history) == 2


def _card(t: int) -> Any:
    from fivecrowns.actions import _CARDS
    return _CARDS[t]


def test_set_drawn_is_checked(compiled_state: Any) -> None:
    for cls in (compiled_state, P):
        s = cls.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(8))
        with pytest.raises(ValueError, match="cannot have drawn"):
            s.set_drawn(s.top_discard)     # the draw phase
        t, _ = s.draw(False)
        absent = next(u for u in range(55) if not s.hand(1)[u])
        for bad, match in ((absent, "cannot have drawn"), (56, "0..55"), (-2, "0..55")):
            with pytest.raises(ValueError, match=match):
                s.set_drawn(bad)
        s.set_drawn(-1)
        assert s.drawn == -1
        s.set_drawn(t)
        assert s.drawn == t and P.from_fields(s.fields()).drawn == t
