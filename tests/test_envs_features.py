"""The solver features: exact against direct solver calls, blind to hidden cards."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns.envs.encoding import blocks, encode_observation, observation_size
from fivecrowns.envs.features import (
    BLOCKS,
    DEADWOOD_SCALE,
    feature_bounds,
    feature_size,
    fill_features,
    observation_features,
    round_features,
)
from fivecrowns.outs import discard_order
from fivecrowns.records import Phase
from fivecrowns.round import Round
from fivecrowns.rules import Rules
from helpers.engines import sized


def _dead(f: np.ndarray, name: str) -> int:
    """A deadwood feature back as the solver's int (-1 for 'does not apply')."""
    v = float(f[BLOCKS[name]][0])
    return -1 if v == -1.0 else round(v * DEADWOOD_SCALE)


def _outs(kept: np.ndarray, wild: int, decks: int, unseen: np.ndarray,
          now: int) -> tuple[float, float, float]:
    """(complete, improve, expected) of the kept hand, from draw_table directly."""
    table = fc.draw_table(kept, wild, decks=decks).astype(np.int64)
    seen = unseen.astype(np.int64) * (table >= 0)
    total = seen.sum()
    if total == 0:
        return 0.0, 0.0, now / DEADWOOD_SCALE
    return (seen[table == 0].sum() / total, seen[table < now].sum() / total,
            float((seen * table).sum()) / total / DEADWOOD_SCALE)


def _check(r: Round, p: int) -> None:
    """Features of player ``p`` against the solver and the round's own rules."""
    obs = r.observation(p)
    f = observation_features(obs)
    np.testing.assert_array_equal(f, round_features(r, p))
    low, high = feature_bounds()
    assert (f >= low).all() and (f <= high).all()
    hand = r.hand_counts(p)
    wild, decks = r.wild, r.rules.decks
    view = r.phase is Phase.DISCARD and r.current_player == p
    assert f[BLOCKS["view"]][0] == float(view)
    disc = f[BLOCKS["discard"]]
    if view:
        legal = [t for t in np.flatnonzero(hand).tolist()
                 if r.can_discard(fc.Card.from_index(t))]
        for t in range(56):
            if t in legal:
                rest = hand.copy()
                rest[t] -= 1
                assert round(float(disc[t]) * DEADWOOD_SCALE) == fc.deadwood(rest, wild,
                                                                             decks=decks)
            else:
                assert disc[t] == -1.0
        now = min(round(float(disc[t]) * DEADWOOD_SCALE) for t in legal)
        # the go-out actions are legal exactly when the least deadwood left is 0
        assert (now == 0) == any(r.can_discard(fc.Card.from_index(t), go_out=True)
                                 for t in legal)
        assert _dead(f, "take") == -1
        allowed = hand.copy()
        allowed[[t for t in range(56) if t not in legal]] = 0
        best = next(t for t in discard_order(allowed, wild)
                    if round(float(disc[t]) * DEADWOOD_SCALE) == now)
        kept = hand.copy()
        kept[best] -= 1
    else:
        assert (disc == -1.0).all()
        now = fc.deadwood(hand, wild, decks=decks)
        top = r.deck.top_discard_index
        if top is None or top < 0:
            assert _dead(f, "take") == -1
        elif r.phase is Phase.DRAW and r.current_player == p:
            # the current player: take it on a copy and ask the round what is legal
            other = r.clone()
            other.draw("discard")
            after = other.hand_counts(p)
            legal = [t for t in np.flatnonzero(after).tolist()
                     if other.can_discard(fc.Card.from_index(t))]
            rests = np.repeat(after[None, :], len(legal), axis=0)
            rests[np.arange(len(legal)), legal] -= 1
            assert _dead(f, "take") == int(fc.deadwood_many(rests, wild, decks=decks).min())
        else:
            # not to act: as if it were to draw now (docs/rules.rst, A round, 3)
            after = hand.copy()
            after[top] += 1
            barred = not r.rules.return_discard and after[top] < after.sum()
            legal = [t for t in np.flatnonzero(after).tolist() if not (barred and t == top)]
            rests = np.repeat(after[None, :], len(legal), axis=0)
            rests[np.arange(len(legal)), legal] -= 1
            assert _dead(f, "take") == int(fc.deadwood_many(rests, wild, decks=decks).min())
        kept = hand
    assert _dead(f, "now") == now
    want = _outs(kept, wild, decks, obs.unseen_counts, now)
    got = tuple(float(f[BLOCKS[name]][0]) for name in ("complete", "improve", "expected"))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("n, rules", [(2, Rules()), (3, Rules(return_discard=True)),
                                      (4, Rules(decks=4, max_turns=120))])
def test_features_match_the_solver_on_random_play(n: int, rules: Rules) -> None:
    rng = np.random.default_rng(n)
    took = going_out = 0
    # the features of every seat at every move: minutes a round of 13 cards on the
    # pure-Python solver, so the short rounds there
    for round_number in sized((1, 4, 8, 11), (1, 2, 3)):
        r = Round(n, round_number, seed=int(rng.integers(1 << 30)), rules=rules)
        while not r.is_over:
            for p in range(n):
                _check(r, p)
            acts = r.legal_actions()
            # take the top discard often, so the rule on the card taken is exercised
            a = 1 if 1 in acts and rng.random() < 0.5 else int(rng.choice(acts))
            took += a == 1
            going_out += a >= 58
            r.apply_action(a)
        for p in range(n):
            _check(r, p)
    assert took > 20 and going_out > 0


def test_hidden_cards_do_not_change_the_features() -> None:
    """Two worlds that differ only in what the player cannot see give equal features."""
    rng = np.random.default_rng(5)
    compared = 0
    for seed in range(4):
        r = Round(3, 5 + seed, seed=seed)
        while not r.is_over:
            if rng.random() < 0.3:
                for p in range(3):
                    other = r.determinize(p, int(rng.integers(1 << 30)))
                    assert any((other.hand_counts(q) != r.hand_counts(q)).any()
                               for q in range(3) if q != p) \
                        or other.deck.draw_pile != r.deck.draw_pile
                    np.testing.assert_array_equal(observation_features(r.observation(p)),
                                                  observation_features(other.observation(p)))
                    np.testing.assert_array_equal(round_features(r, p),
                                                  round_features(other, p))
                    compared += 1
            r.apply_action(int(rng.choice(r.legal_actions())))
    assert compared > 30


def test_encoding_with_features() -> None:
    r = Round(4, 7, seed=3, totals=(5, 0, 12, 40))
    r.draw("discard")
    obs = r.observation(r.current_player)
    vec = encode_observation(obs, features=True)
    size = observation_size(4)
    assert vec.shape == (observation_size(4, features=True),) == (size + feature_size(),)
    np.testing.assert_array_equal(vec[:size], encode_observation(obs))
    np.testing.assert_array_equal(vec[blocks(4, features=True)["features"]],
                                  observation_features(obs))
    b = blocks(4, features=True)
    assert vec[b["features.view"]].tolist() == [1.0]
    assert vec[b["features.discard"]].tolist() == vec[b["features"]][:56].tolist()
    out = np.full(vec.size, 9.0, dtype=np.float32)
    assert encode_observation(obs, out=out, features=True) is out
    np.testing.assert_array_equal(out, vec)
    with pytest.raises(ValueError, match=r"shape \(494,\)"):
        encode_observation(obs, out=np.zeros(size, dtype=np.float32), features=True)


def test_default_encoding_is_unchanged() -> None:
    """The default layout is 0.2's, entry for entry (a digest of the 0.2 encoding)."""
    rng = np.random.default_rng(0)
    r = Round(3, 6, seed=2, totals=(30, 12, 7))
    vecs = []
    for _ in range(40):
        vecs.append(encode_observation(r.observation(int(rng.integers(3)))))
        r.apply_action(int(rng.choice(r.legal_actions())))
    data = np.stack(vecs)
    assert data.shape == (40, 372)
    assert hashlib.sha256(data.tobytes()).hexdigest()[:16] == DIGEST_02


#: sha256 of the vectors above as encoded by fivecrowns 0.2 (before the features existed).
DIGEST_02 = "87c6c7080cf67f2a"


def test_fill_features_from_counts() -> None:
    r = Round(2, 3, seed=9)
    r.draw("deck")
    p = r.current_player
    obs = r.observation(p)
    out = np.zeros(feature_size(), dtype=np.float32)
    got = fill_features(out, r.hand_counts(p), wild=r.wild, decks=2,
                        top=r.deck.top_discard_index, unseen=obs.unseen_counts,
                        discard_view=True)
    assert got is out
    np.testing.assert_array_equal(out, observation_features(obs))
    with pytest.raises(ValueError, match="hand must be a uint8 array"):
        fill_features(out, np.zeros(56, dtype=np.int64), wild=5, decks=2, top=-1,
                      unseen=obs.unseen_counts, discard_view=False)
    with pytest.raises(ValueError, match="card types 0..55 or -1, got 56"):
        fill_features(out, r.hand_counts(p), wild=5, decks=2, top=56,
                      unseen=obs.unseen_counts, discard_view=False)
    with pytest.raises(ValueError, match=r"float32 array of shape \(62,\)"):
        fill_features(np.zeros(61, dtype=np.float32), r.hand_counts(p), wild=5, decks=2,
                      top=-1, unseen=obs.unseen_counts, discard_view=False)
    with pytest.raises(ValueError, match="wild"):
        fill_features(out, r.hand_counts(p), wild=2, decks=2, top=-1,
                      unseen=obs.unseen_counts, discard_view=False)
    too_many = obs.unseen_counts.copy()
    too_many[np.flatnonzero(r.hand_counts(p))[0]] += 2
    with pytest.raises(ValueError, match="unseen must count cards the deck has"):
        fill_features(out, r.hand_counts(p), wild=5, decks=2, top=-1, unseen=too_many,
                      discard_view=False)
    with pytest.raises(TypeError, match="must be an Observation"):
        observation_features(r)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a Round"):
        round_features(obs, 0)  # type: ignore[arg-type]

