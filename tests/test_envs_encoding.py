"""The observation encoding shared by the adapters: layout, bookkeeping, no leaks."""

from __future__ import annotations

import numpy as np
import pytest

from fivecrowns.bots import discard_pile_counts, picked_up, unseen_counts
from fivecrowns.envs.encoding import blocks, encode_observation, observation_size
from fivecrowns.round import Round
from fivecrowns.rules import Rules


def test_sizes_and_blocks() -> None:
    for n in (2, 4, 7, 14):
        b = blocks(n)
        assert b["totals"].stop == observation_size(n) == 192 + 60 * n
    with pytest.raises(ValueError, match="at least 1"):
        observation_size(0)
    with pytest.raises(TypeError, match="must be an int"):
        observation_size("4")  # type: ignore[arg-type]


def test_rejects_bad_arguments() -> None:
    with pytest.raises(TypeError, match="must be an Observation"):
        encode_observation(np.zeros(3))  # type: ignore[arg-type]
    obs = Round(2, round_number=1, seed=0).observation(0)
    with pytest.raises(ValueError, match=r"float32 array of shape \(312,\)"):
        encode_observation(obs, out=np.zeros(312))
    out = np.full(312, 7.0, dtype=np.float32)
    assert encode_observation(obs, out=out) is out
    np.testing.assert_array_equal(out, encode_observation(obs))


def test_blocks_hold_what_they_say() -> None:
    r = Round(3, round_number=4, seed=11, totals=(10, 25, 3))
    b = blocks(3)
    vec = encode_observation(r.observation(2))
    assert vec[b["hand"]].tolist() == r.hand_counts(2).tolist()
    assert int(vec[b["top_discard"]].argmax()) == r.deck.top_discard_index
    assert vec[b["discard_pile"]].sum() == 1
    assert vec[b["draw_size"]][0] == r.deck.draw_size
    assert vec[b["round"]].argmax() == 3 and vec[b["wild"]].argmax() == 6 - 3
    assert vec[b["to_act"]].argmax() == (r.current_player - 2) % 3
    assert vec[b["phase"]].tolist() == [1.0, 0.0]
    assert vec[b["totals"]].tolist() == [10 - 3, 25 - 3]  # seats 0 then 1 after seat 2
    opp = vec[b["opponents"]].reshape(2, 57)
    assert opp[:, 0].tolist() == [6, 6]
    # every card is somewhere: hand + discard pile + unseen + taken = the deck
    assert vec[b["hand"]].sum() + vec[b["discard_pile"]].sum() + vec[b["unseen"]].sum() \
        == 116


def test_public_counts_match_a_full_scan() -> None:
    """The discard pile, taken and unseen blocks equal bots' history scans, reshuffles too."""
    rng = np.random.default_rng(3)
    reshuffled = False
    b = blocks(4)
    for seed in range(2):
        r = Round(4, 1, seed=seed, rules=Rules(max_turns=700))
        while not r.is_over:
            for p in (r.turn % 4,):
                obs = r.observation(p)
                vec = encode_observation(obs)
                assert vec[b["discard_pile"]].tolist() == discard_pile_counts(obs).tolist()
                opp = vec[b["opponents"]].reshape(3, 57)
                taken = picked_up(obs)
                for i in range(3):
                    assert opp[i, 1:].tolist() == taken[(p + 1 + i) % 4].tolist()
                assert vec[b["unseen"]].tolist() == unseen_counts(obs).tolist()
            acts = [a for a in r.legal_actions() if a < 58]  # nobody goes out
            r.apply_action(acts[int(rng.integers(len(acts)))])
        reshuffled |= r.deck.reshuffles > 0
    assert reshuffled, "no reshuffle was exercised"


def _swap_hidden(r: Round, player: int, rng: np.random.Generator) -> Round:
    """The same public history, other hidden cards: a card an opponent holds unseen is
    swapped with a draw-pile card of another type, and the draw pile is reordered."""
    other = r.clone()
    taken = picked_up(other.observation(player))
    pile = other._state.draw_pile()
    for q in range(other.n_players):
        if q == player:
            continue
        row = other.hand_counts(q)
        free = np.flatnonzero(row.astype(np.int64) - taken[q] > 0)
        for t in free.tolist():
            k = next((i for i, c in enumerate(pile) if c != t), None)
            if k is not None:
                row[t] -= 1
                row[pile[k]] += 1
                pile[k] = t
                break
        other._state.set_hand(q, row)
    rng.shuffle(pile)
    other._state.set_draw_pile(pile)
    return other


def test_hidden_cards_do_not_leak() -> None:
    rng = np.random.default_rng(0)
    r = Round(4, 6, seed=8)
    for step in range(60):
        if step % 5 == 0:
            for p in range(4):
                other = _swap_hidden(r, p, rng)
                assert any((other.hand_counts(q) != r.hand_counts(q)).any()
                           for q in range(4) if q != p)
                a = encode_observation(r.observation(p))
                b = encode_observation(other.observation(p))
                np.testing.assert_array_equal(a, b)
        acts = r.legal_actions()
        r.apply_action(acts[int(rng.integers(len(acts)))])
        if r.is_over:
            break


@pytest.mark.parametrize(("n", "decks"), [(1, 2), (2, 2), (4, 2), (7, 2), (9, 4)])
def test_the_encoding_from_the_compiled_state_is_the_encoding(n: int, decks: int) -> None:
    """The environments encode a round's compiled state directly (``encode_state``): the
    same vector as ``encode_observation`` in every phase, with takes, final turns, the
    round over, totals and tie-break rounds (no round number)."""
    from fivecrowns import Game
    from fivecrowns._state import vector_core as _rollout
    from fivecrowns.envs._common import Encoder

    if _rollout is None:
        pytest.skip("the round state is the Python twin here")
    rng = np.random.default_rng(n)
    for k, rnd in enumerate([Round(n, min(3 + n, 11), seed=n, rules=Rules(decks=decks)),
                             Round(n, seed=n + 1, hand_size=6, wild=6, sudden_death=True,
                                   totals=tuple(range(5, 5 + n)), rules=Rules(decks=decks))]):
        while True:
            for p in range(n):
                want = encode_observation(rnd.observation(p))
                got = np.empty_like(want)
                number = -1 if rnd.round_number is None else rnd.round_number
                _rollout.encode_state(rnd._state, p, got, number, rnd.totals)
                np.testing.assert_array_equal(got, want, err_msg=f"{k} {rnd}")
            if rnd.is_over:
                break
            acts = rnd.legal_actions()
            outs = [a for a in acts if a >= 58]
            rnd.apply_action(outs[0] if outs and rng.random() < 0.5
                             else acts[int(rng.integers(len(acts)))])
    game = Game(max(n, 2), seed=3, rules=Rules(decks=decks, tie_break=True), rounds=[1])
    encoder = Encoder(game.n_players, False, False, decks)
    while not game.is_over:
        for seat in game.round_seats:
            np.testing.assert_array_equal(encoder(game, seat), encode_observation(
                game.observation(seat)))
        acts = game.legal_actions()
        game.apply_action(acts[int(rng.integers(len(acts)))])
