"""fivecrowns.rollout.play_worlds: sampled worlds that match the player's view, every move
played out in each, and each world's play-out that of the Python engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fivecrowns import Round, Rules
from fivecrowns.actions import ACTION_DRAW_DECK, ACTION_DRAW_DISCARD, encode_discard
from fivecrowns.records import EventKind, Phase
from fivecrowns.rollout import _inference, _states, play_out, play_out_actions, play_worlds
from helpers.engines import compiled_engine

_rollout = compiled_engine()

from helpers.playing import play_until  # noqa: E402
from helpers.rollout_twins import random_prefix, varied_round  # noqa: E402


def _worlds(r: Round, actions: list[int], worlds: int, seed: int,
            policy: int = 2, weight: float = 0.0, tries: int = 8,
            replay: int = 0, opponents: int | None = None) -> tuple[Any, Any, Any]:
    """The engine's scores and the worlds it sampled (hands, draw piles)."""
    last, kept, blind = _inference(r)
    world_hands = np.zeros((worlds, 14, 56), dtype=np.uint8)
    world_draws = np.zeros((worlds, 232), dtype=np.uint8)
    out = _rollout.play_worlds(_states([r])[0], r.current_player,
                               np.array(actions, dtype=np.int16), worlds, seed, policy,
                               policy if opponents is None else opponents, 1, last, kept,
                               weight, tries, blind, replay, world_hands, world_draws)
    return out, world_hands, world_draws


def _mid_round(seed: int, players: int = 4, round_number: int = 6,
               return_discard: bool = False) -> Round:
    """A round some random moves in, at a player's draw."""
    rng = np.random.default_rng(seed)
    r = Round(players, round_number, seed=seed, rules=Rules(return_discard=return_discard))
    random_prefix(r, int(rng.integers(4, 30)) * 2, rng)
    assert r.phase is Phase.DRAW and not r.is_over
    return r


def test_shape_seed_and_threads() -> None:
    r = _mid_round(1)
    a = play_worlds(r, [ACTION_DRAW_DECK, ACTION_DRAW_DISCARD], worlds=70, seed=5)
    assert a.shape == (70, 2, 4) and a.dtype == np.int32
    assert (a >= 0).all() and (a.min(axis=2) == 0).any()
    assert (play_worlds(r, [0, 1], worlds=70, seed=5, threads=2) == a).all()
    assert (play_worlds(r, [0, 1], worlds=70, seed=5, policy="strong") == a).all()
    assert not (play_worlds(r, [0, 1], worlds=70, seed=6) == a).all()
    # world w is world w whatever the count: a prefix of a longer call
    assert (play_worlds(r, [0, 1], worlds=20, seed=5) == a[:20]).all()
    # the round is only read
    assert r.phase is Phase.DRAW and len(r.history) == len(r.history)


def test_checks_its_input() -> None:
    r = _mid_round(2)
    with pytest.raises(ValueError, match="legal"):
        play_worlds(r, [encode_discard("3C")], worlds=4, seed=0)
    with pytest.raises(ValueError, match="worlds"):
        play_worlds(r, [0], worlds=0, seed=0)
    with pytest.raises(TypeError, match="worlds"):
        play_worlds(r, [0], worlds=2.0, seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="random"):
        play_worlds(r, [0], worlds=2, seed=0, policy="random")
    with pytest.raises(ValueError, match="policy"):
        play_worlds(r, [0], worlds=2, seed=0, policy="perfect")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        play_worlds(r, [0], worlds=2, seed=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"actions\[0\]"):
        play_worlds(r, ["deck"], worlds=2, seed=0)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="sequence"):
        play_worlds(r, 0, worlds=2, seed=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Round"):
        play_worlds([r], [0], worlds=2, seed=0)  # type: ignore[arg-type]
    over = Round(2, 1, seed=0)
    random_prefix(over, 10_000, np.random.default_rng(0))
    assert over.is_over
    with pytest.raises(ValueError, match="over"):
        play_worlds(over, [0], worlds=2, seed=0)


def _mixed_rounds(n: int) -> Iterator[tuple[int, Round]]:
    """``n`` seeds and their rounds some moves in: 2 to 4 players, every round number,
    the discard's return allowed or not."""
    for seed in range(n):
        yield seed, _mid_round(seed, players=2 + seed % 3, round_number=1 + seed % 11,
                               return_discard=bool(seed % 2))


INFERENCE = [(0.0, 0), (1.5, 0), (0.0, 6), (0.7, 20)]


@pytest.mark.parametrize("weight, replay", INFERENCE)
@pytest.mark.parametrize("seed", range(40))
def test_each_world_matches_the_players_view(seed: int, weight: float, replay: int) -> None:
    r = varied_round(seed)
    if r.is_over:
        return
    p = r.current_player
    actions = r.legal_actions()[:3]
    _, hands, draws = _worlds(r, actions, 30, seed, weight=weight, replay=replay)
    n = r.n_players
    known = r._state.taken_counts()
    before = np.zeros(56, dtype=np.int64)
    for q in range(n):
        if q != p:
            before += r.hand_counts(q)
    before += r.deck.draw_counts()
    obs = r.observation(p)
    for w in range(30):
        assert (hands[w, p] == r.hand_counts(p)).all(), "the player's own hand stays"
        after = np.bincount(draws[w, :r.deck.draw_size], minlength=56).astype(np.int64)
        for q in range(n):
            assert hands[w, q].sum() == r.hand_counts(q).sum(), "every hand keeps its size"
            assert (hands[w, q] >= known[q]).all(), "cards seen taken stay with the taker"
            if q != p:
                after += hands[w, q]
        assert (after == before).all(), "the hidden cards are conserved"
        # the player cannot tell the world from the round
        world = _rebuild(r, hands[w], draws[w])
        mine = world.observation(p)
        assert (np.asarray(mine.counts) == np.asarray(obs.counts)).all()
        assert mine.history == obs.history
        assert (mine.unseen_counts == obs.unseen_counts).all()


def _rebuild(r: Round, hands: Any, draw: Any) -> Round:
    """``r`` with the hands and draw pile of a sampled world."""
    world = r.clone()
    for q in range(r.n_players):
        world._state.set_hand(q, hands[q])
    # the engine's draw pile lists the top card last
    world._state.set_draw_pile(draw[:r.deck.draw_size][::-1].tolist())
    world._state.set_rng(np.random.default_rng(0))
    return world


def test_unseen_cards_land_everywhere_uniformly() -> None:
    # 3 players, round 1: each unseen card type must land in each hidden place (the two
    # opponents' hands, the draw pile) in proportion to that place's size
    r = Round(3, 1, seed=4)
    p = r.current_player
    worlds = 6000
    _, hands, draws = _worlds(r, [ACTION_DRAW_DECK], worlds, 9)
    unseen = r.observation(p).unseen_counts.astype(np.float64)
    total = unseen.sum()
    for q in range(3):
        if q == p:
            continue
        share = hands[:, q].sum(axis=0) / worlds
        expected = unseen * r.hand_counts(q).sum() / total
        assert np.abs(share - expected).max() < 0.02, q
    pile = np.zeros(56)
    for w in range(worlds):
        pile += np.bincount(draws[w, :r.deck.draw_size], minlength=56)
    assert np.abs(pile / worlds - unseen * r.deck.draw_size / total).max() < 0.03
    # and the top of the draw pile is uniform over the unseen cards
    tops = np.bincount(draws[:, r.deck.draw_size - 1], minlength=56) / worlds
    assert np.abs(tops - unseen / total).max() < 0.012


@pytest.mark.parametrize("weight, replay", INFERENCE[::3])
@pytest.mark.parametrize("policy, code", [("greedy", 0), ("strong", 2)])
def test_every_world_plays_out_as_the_python_engine(policy: str, code: int, weight: float,
                                                    replay: int) -> None:
    # a world's play-out is play_out of that world with the action made, as long as no
    # reshuffle is needed (the engine's worlds reshuffle with a generator of their own)
    compared = 0
    for seed, r in _mixed_rounds(16):
        actions = r.legal_actions()
        scores, hands, draws = _worlds(r, actions, 8, seed, code, weight=weight,
                                       replay=replay)
        for w in range(8):
            for a, action in enumerate(actions):
                world = _rebuild(r, hands[w], draws[w])
                world.apply_action(action)
                if not world.is_over:
                    twin = world.clone()
                    expect = play_out([twin], policy=policy)[0]  # type: ignore[arg-type]
                    played = twin.clone()
                    for m in play_out_actions(played, policy=policy):  # type: ignore[arg-type]
                        played.apply_action(m)
                    if any(e.kind is EventKind.RESHUFFLE for e in played.history[
                            len(world.history):]):
                        continue
                else:
                    assert world.result is not None
                    expect = np.array(world.result.scores)
                assert scores[w, a].tolist() == expect.tolist(), (seed, w, action)
                compared += 1
    assert compared > 200


@pytest.mark.parametrize("policy, code, opponents, other", [
    ("greedy", 0, "strong", 2), ("strong", 2, "greedy", 0)])
def test_the_opponents_play_their_own_policy(policy: str, code: int, opponents: str,
                                             other: int) -> None:
    # each world played out with the mover's bot in its seat and the opponents' in the
    # others: the Python bots, seat by seat, as the specification
    from fivecrowns._engine_py import POLICY_BOTS, _play_round
    compared = 0
    for seed, r in _mixed_rounds(12):
        p = r.current_player
        actions = r.legal_actions()[:3]
        scores, hands, draws = _worlds(r, actions, 4, seed, code, opponents=other)
        for w in range(4):
            for a, action in enumerate(actions):
                world = _rebuild(r, hands[w], draws[w])
                world.apply_action(action)
                start = len(world.history)
                seats = [POLICY_BOTS[policy if q == p else opponents]()
                         for q in range(r.n_players)]
                _play_round(world, seats)
                if any(e.kind is EventKind.RESHUFFLE for e in world.history[start:]):
                    continue
                assert world.result is not None
                assert scores[w, a].tolist() == list(world.result.scores), (seed, w, action)
                compared += 1
    assert compared > 60
    # opponents like the mover: the same worlds as without them, and through the API
    r = _mid_round(3)
    same = play_worlds(r, [0, 1], worlds=40, seed=2, policy=policy, opponents=policy)
    assert (same == play_worlds(r, [0, 1], worlds=40, seed=2, policy=policy)).all()
    mixed = play_worlds(r, [0, 1], worlds=40, seed=2, policy=policy, opponents=opponents)
    assert (mixed == _worlds(r, [0, 1], 40, 2, code, opponents=other)[0]).all()
    assert not (mixed == same).all()


def test_the_python_twin_seats_the_opponents_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # the twin plays its worlds with the Python bots: spy on which bot moves in which seat
    from fivecrowns import _engine_py
    r = _mid_round(5, players=3, round_number=2)
    p = r.current_player
    seen: list[list[str]] = []
    play_round = _engine_py._play_round

    def spy(world: Round, players: Any, deadline: Any = None) -> Any:
        seen.append([type(b).__name__ for b in players])
        return play_round(world, players, deadline)
    monkeypatch.setattr(_engine_py, "_play_round", spy)
    _engine_py.play_worlds(r, [0, 1], 2, np.random.default_rng(0), "greedy",
                           opponents="strong")
    expect = ["GreedyBot" if q == p else "StrongBot" for q in range(3)]
    assert seen == [expect] * 4


def test_opponents_are_checked() -> None:
    r = _mid_round(2)
    with pytest.raises(ValueError, match="opponents"):
        play_worlds(r, [0], worlds=2, seed=0, opponents="random")
    with pytest.raises(ValueError, match="opponents"):
        play_worlds(r, [0], worlds=2, seed=0, opponents="perfect")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        play_worlds(r, [0], worlds=2, seed=0, opponents=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy"):
        _worlds(r, [0], 2, 0, 2, opponents=1)  # the engine's own check: random's code


def _played(seed: int) -> Round:
    """A 4-player round StrongBots have played some turns into, at a player's draw."""
    from fivecrowns import StrongBot
    rng = np.random.default_rng(seed)
    r = Round(4, int(rng.integers(7, 12)), seed=seed)
    return play_until(r, [StrongBot()] * 4, stop=lambda r: r.went_out is not None,
                      moves=int(rng.integers(4, 16)) * 2)


def _opponent_deadwood(r: Round, hands: Any) -> float:
    from fivecrowns import deadwood
    p = r.current_player
    return float(np.mean([deadwood(hands[w, q], r.wild) for w in range(hands.shape[0])
                          for q in range(r.n_players) if q != p]))


def test_replayed_draws_organise_the_opponents_hands() -> None:
    # StrongBots' hands some turns in are far better than random ones: replaying their
    # blind draws brings the sampled deadwood down towards the truth
    from fivecrowns import deadwood
    truth, uniform, replayed = [], [], []
    for seed in range(60):
        r = _played(seed)
        if r.is_over or r.went_out is not None or r.phase is not Phase.DRAW:
            continue
        p = r.current_player
        truth.append(np.mean([deadwood(r.hand_counts(q), r.wild) for q in range(4)
                              if q != p]))
        uniform.append(_opponent_deadwood(r, _worlds(r, [0], 20, seed)[1]))
        replayed.append(_opponent_deadwood(r, _worlds(r, [0], 20, seed, replay=12)[1]))
    assert len(truth) >= 10
    assert np.mean(replayed) < np.mean(uniform) - 5
    assert np.mean(truth) < np.mean(uniform) - 5


def _regret(r: Round, hands: Any) -> float:
    """Mean over the worlds of the deadwood the opponents' last discards cost them."""
    from fivecrowns import deadwood
    from fivecrowns.cards import Card
    last, kept, _ = _inference(r)
    total = 0
    for w in range(hands.shape[0]):
        for q in range(r.n_players):
            d = int(last[q])
            if q == r.current_player or d < 0:
                continue
            row = hands[w, q].copy()
            now = deadwood(row, r.wild)
            row[d] += 1
            options = [now]
            for t in np.flatnonzero(row).tolist():
                if t != d and t != kept[q] and not Card.from_index(t).is_wild(r.wild):
                    row[t] -= 1
                    options.append(deadwood(row, r.wild))
                    row[t] += 1
            total += now - min(options)
    return total / hands.shape[0]


def test_discard_weight_favours_worlds_where_the_last_discards_were_good() -> None:
    plain, weighted = 0.0, 0.0
    for seed in range(30):
        r = _played(seed)
        if r.is_over or r.went_out is not None:
            continue
        plain += _regret(r, _worlds(r, [r.legal_actions()[0]], 20, seed)[1])
        weighted += _regret(r, _worlds(r, [r.legal_actions()[0]], 20, seed, weight=1.0,
                                       tries=300)[1])
    assert plain > 0
    assert weighted < 0.5 * plain


def test_play_worlds_works_in_pieces_a_ctrl_c_can_stop_between(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Python sees a Ctrl-C between pieces only: 0.4 played 16,384 worlds a piece (over a
    minute of expert play-outs)."""
    pieces: list[tuple[int, int]] = []
    run = _rollout.run_threaded

    def recording(work: Any, n: int, threads: int, most: int = 1 << 14) -> None:
        def piece(a: int, b: int) -> None:
            pieces.append((a, b))
            work(a, b)
        run(piece, n, threads, most)

    monkeypatch.setattr(_rollout, "run_threaded", recording)
    r = Round(3, 2, seed=4)
    actions = r.legal_actions()
    out = play_worlds(r, actions, worlds=40, seed=3, policy="expert")
    assert max(b - a for a, b in pieces) * len(actions) <= 64
    monkeypatch.undo()
    assert np.array_equal(out, play_worlds(r, actions, worlds=40, seed=3, policy="expert"))
