"""Round.from_state, Round.from_observation and Round.determinize: explicit states, and
sampling what one player cannot see."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from fivecrowns import GreedyBot, Observation, Phase, Player, RandomBot, Round, Rules
from fivecrowns.deck import full_counts
from fivecrowns.records import Event, EventKind
from helpers.playing import bot_move, play_until

#: Observation fields compared one by one (arrays with array_equal).
FIELDS = tuple(Observation.__dataclass_fields__)


def _states(seed: int, count: int) -> Iterator[Round]:
    """Rounds stopped at random moments of play: draw and discard phases, final turns,
    rounds past a reshuffle (random players that never go out), 1 to 5 players."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        n = int(rng.integers(1, 6))
        rnd = int(rng.integers(1, 12))
        rules = Rules(return_discard=bool(rng.integers(2)))
        r = Round(n, rnd, seed=int(rng.integers(2**31)), rules=rules,
                  dealer=int(rng.integers(n)))
        slow = rng.random() < 0.3
        bots: list[Player] = [RandomBot(seed=int(rng.integers(2**31)), go_out=0.0) if slow
                              else (GreedyBot() if rng.random() < 0.5 else
                                    RandomBot(seed=int(rng.integers(2**31))))
                              for _ in range(n)]
        stop = int(rng.integers(0, 300 if slow else 30))
        play_until(r, bots, moves=stop)
        if r.is_over:
            continue
        made += 1
        yield r


def _conserved(r: Round) -> bool:
    total = sum(r.hand_counts(q).astype(np.int64) for q in range(r.n_players))
    total = total + r.deck.draw_counts() + r.deck.discard_counts()
    return bool(np.array_equal(total, full_counts(r.rules)))


def _same_observation(a: Observation, b: Observation) -> list[str]:
    """The names of the fields that differ."""
    differ = []
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if name == "taken_counts":
            same = len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y))
        elif isinstance(x, np.ndarray):
            same = np.array_equal(x, y)
        else:
            same = x == y
        if not same:
            differ.append(name)
    return differ


def _play_out(r: Round) -> None:
    play_until(r, [GreedyBot() for _ in range(r.n_players)])


# -- determinize and from_observation: consistency --

@pytest.mark.parametrize("method", ["determinize", "from_observation"])
def test_samples_conserve_cards_and_match_the_observation(method: str) -> None:
    rng = np.random.default_rng(1)
    reshuffled = finals = discards = 0
    for r in _states(11, 120):
        reshuffled += r.deck.reshuffles > 0
        finals += r.final_turn
        discards += r.phase is Phase.DISCARD
        before = [r.observation(q) for q in range(r.n_players)]
        hands = [r.hand(q) for q in range(r.n_players)]
        for p in range(r.n_players):
            obs = r.observation(p)
            s = (r.determinize(p, rng) if method == "determinize"
                 else Round.from_observation(obs, seed=rng, rules=r.rules))
            assert _conserved(s)
            assert _same_observation(s.observation(p), obs) == []
            assert s.hand(p) == r.hand(p)
            for q in range(r.n_players):  # known cards stay where they are
                known = obs.taken_counts[q]
                assert (s.hand_counts(q) >= known).all()
                assert len(s.hand(q)) == len(r.hand(q))
            assert s.deck.discard_pile() == r.deck.discard_pile()
            assert (s.legal_actions() == r.legal_actions()) or p != r.current_player
            _play_out(s)  # the sample is a round that plays on to its end
        # the original is untouched
        assert [r.hand(q) for q in range(r.n_players)] == hands
        assert all(_same_observation(r.observation(q), b) == []
                   for q, b in enumerate(before))
    assert reshuffled and finals and discards   # the states cover those cases


def test_determinize_keeps_the_scores_of_finished_players() -> None:
    for r in _states(5, 200):
        if not r.final_turn or r.n_players < 3:
            continue
        d = r.determinize(r.current_player, 3)
        _play_out(d)
        real = r.clone()
        _play_out(real)
        assert d.result is not None and real.result is not None
        out = r.went_out
        assert out is not None
        done = [(out + k) % r.n_players for k in range(r.n_players)]
        done = done[:done.index(r.current_player)]
        assert [d.result.scores[q] for q in done] == [real.result.scores[q] for q in done]


def test_determinize_is_seed_deterministic() -> None:
    r = Round(4, round_number=7, seed=3)
    for _ in range(9):
        bot_move(r, [GreedyBot() for _ in range(4)])
    a, b, c = r.determinize(2, 42), r.determinize(2, 42), r.determinize(2, 43)
    assert [a.hand(q) for q in range(4)] == [b.hand(q) for q in range(4)]
    assert a.deck.draw_pile() == b.deck.draw_pile()
    assert a.deck.draw_pile() != c.deck.draw_pile()
    # the decks' generators come from the seed too: the same reshuffles
    assert (a.deck.rng.integers(2**31, size=4) == b.deck.rng.integers(2**31, size=4)).all()
    obs = r.observation(2)
    f, g = Round.from_observation(obs, seed=5), Round.from_observation(obs, seed=5)
    assert f.deck.draw_pile() == g.deck.draw_pile()
    assert [f.hand(q) for q in range(4)] == [g.hand(q) for q in range(4)]


def test_determinize_rejects_a_finished_round() -> None:
    r = Round(2, round_number=1, seed=0)
    _play_out(r)
    with pytest.raises(ValueError, match="over"):
        r.determinize(0, 1)
    with pytest.raises(ValueError, match="over"):
        Round.from_observation(r.observation(0), seed=1)


# -- determinize: the distribution --

def _places(r: Round, p: int) -> list[str]:
    return [f"hand{q}" for q in range(r.n_players) if q != p] + ["draw"]


@pytest.mark.parametrize("method", ["determinize", "from_observation"])
def test_each_unseen_card_lands_in_each_place_at_the_expected_rate(method: str) -> None:
    # a 4-player round where player 1 took a card from the discard pile: their other
    # slots, the other opponents' hands and the draw pile share the unseen cards
    r = Round(4, round_number=3, seed=17)
    bots: list[Player] = [GreedyBot() for _ in range(4)]
    while not r.observation(0).taken_counts[1].any():
        bot_move(r, bots)
        if r.is_over:  # pragma: no cover - the seed gives a take in the first lap
            raise AssertionError("pick another seed")
    while r.current_player != 0 or r.phase is not Phase.DRAW:
        bot_move(r, bots)
    p = 0
    obs = r.observation(p)
    unseen = obs.unseen_counts.astype(np.int64)
    total = int(unseen.sum())
    slots = [r.hand_counts(q).sum() - obs.taken_counts[q].sum() for q in (1, 2, 3)]
    slots.append(obs.draw_size)
    slots = np.array(slots, dtype=np.float64)
    assert slots.sum() == total
    n = 2000
    rng = np.random.default_rng(99)
    counts = np.zeros((4, 56), dtype=np.float64)   # copies of each type in each place
    top = np.zeros(56, dtype=np.float64)           # the draw pile's top card
    for _ in range(n):
        s = (r.determinize(p, rng) if method == "determinize"
             else Round.from_observation(obs, seed=rng))
        for k, q in enumerate((1, 2, 3)):
            counts[k] += s.hand_counts(q) - obs.taken_counts[q]
        counts[3] += s.deck.draw_counts()
        top[s.deck.draw_pile()[0].index] += 1
    expected = n * np.outer(slots / total, unseen)
    # each (place, card type) count: z-scores within the binomial bound (conservative:
    # the placements are hypergeometric, which varies less)
    var = n * np.outer(slots / total * (1 - slots / total), unseen)
    seen = unseen > 0
    z = (counts[:, seen] - expected[:, seen]) / np.sqrt(var[:, seen])
    assert np.abs(z).max() < 4.5
    # aggregated over card types: each place gets its share of the unseen cards exactly
    assert np.allclose(counts.sum(axis=1), n * slots)
    # the draw pile's top card: chi-square over the card types (df <= 55; 99.99%: ~105)
    e = n * unseen[seen] / total
    chi2 = float(((top[seen] - e) ** 2 / e).sum())
    assert chi2 < 105
    assert (top[~seen] == 0).all()


# -- from_state --

def _explicit(r: Round) -> dict[str, object]:
    """The arguments that rebuild ``r`` with from_state."""
    sizes: dict[str, object] = ({"round_number": r.round_number}
                                if r.round_number is not None
                                else {"hand_size": r.hand_size, "wild": r.wild})
    return dict(hands=[r.hand_counts(q) for q in range(r.n_players)],
                draw_pile=r.deck.draw_pile(), discard_pile=r.deck.discard_pile(),
                current_player=r.current_player, phase=r.phase, dealer=r.dealer,
                rules=r.rules, history=r.history, turn=r.turn, went_out=r.went_out,
                sudden_death=r.sudden_death, totals=r.totals, **sizes)


def test_from_state_rebuilds_a_round() -> None:
    for r in _states(23, 60):
        args = _explicit(r)
        obs = r.observation(r.current_player)
        s = Round.from_state(seed=0, drawn=obs.drawn, **args)  # type: ignore[arg-type]
        for q in range(r.n_players):
            assert _same_observation(s.observation(q), r.observation(q)) == []
        assert s.legal_actions() == r.legal_actions()
        if r.deck.draw_size > 60:   # no reshuffle ahead: the same play, the same result
            a, b = r.clone(), s
            _play_out(a)
            _play_out(b)
            assert a.result == b.result


def test_from_state_without_history() -> None:
    r = Round(3, round_number=2, seed=4)
    s = Round.from_state([r.hand(q) for q in range(3)], r.deck.draw_pile(),
                         r.deck.discard_pile(), current_player=1, round_number=2, seed=1,
                         taken=["", "", ""], totals=(5, 0, 10))
    assert s.history == () and s.turn == 0 and s.totals == (5, 0, 10)
    assert np.array_equal(s.observation(0).unseen_counts, r.observation(0).unseen_counts)
    _play_out(s)


def _base() -> dict[str, object]:
    return _explicit(Round(2, round_number=1, seed=2))


@pytest.mark.parametrize("change, message", [
    ({"draw_pile": ()}, "the cards are not conserved: missing"),
    ({"hands": ["3C 4C 5C", "3C 4C"]}, "player 1 holds 2 cards, expected 3"),
    ({"phase": "discard"}, r"player 1 holds 3 cards, expected 4 \(the current player"),
    ({"phase": "over"}, "phase must be Phase.DRAW or Phase.DISCARD"),
    ({"phase": "later"}, "phase must be 'draw' or 'discard'"),
    ({"current_player": 2}, "player must be a seat 0..1"),
    ({"turn": 3}, "turn is 3 but the history has 0 completed turns"),
    ({"went_out": 1}, "went_out is 1 but in the history None went out"),
    ({"history": ()}, "is not the one the history leaves"),
    ({"history": (Event(0, EventKind.DISCARD, None),)}, "a discard event needs a card"),
    ({"totals": (1,)}, "totals must be 2 ints"),
    ({"round_number": 1, "hand_size": 3}, "either round_number or hand_size"),
])
def test_from_state_errors(change: dict[str, object], message: str) -> None:
    args = _base()
    args.update(change)   # the sizes are checked before the cards are counted
    with pytest.raises(ValueError, match=message):
        Round.from_state(seed=0, **args)  # type: ignore[arg-type]


def test_from_state_checks_the_history_and_the_known_cards() -> None:
    r = Round(2, round_number=1, seed=2)
    r.draw("discard")
    card = r.hand(r.current_player)[0]
    for c in r.hand(r.current_player):
        if r.can_discard(c):
            card = c
            break
    r.discard(card)
    args = _explicit(r)
    hist = list(r.history)
    # a take of a card that was not on top
    bad = [hist[0], Event(hist[1].player, EventKind.DRAW_DISCARD, card)] + hist[2:]
    if bad[1].card != hist[1].card:
        with pytest.raises(ValueError, match="took"):
            Round.from_state(seed=0, **{**args, "history": bad})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="taken does not match"):
        Round.from_state(seed=0, taken=["", ""], **args)  # type: ignore[arg-type]
    # went_out must not be the current player
    args2 = _explicit(Round(3, round_number=1, seed=2))
    args2.update(history=None, went_out=0, current_player=0)
    with pytest.raises(ValueError, match="went out, so it cannot be their turn"):
        Round.from_state(seed=0, **args2)  # type: ignore[arg-type]
    args2.update(went_out=None, turn=5, rules=Rules(max_turns=5))
    with pytest.raises(ValueError, match="max_turns"):
        Round.from_state(seed=0, **args2)  # type: ignore[arg-type]


def test_from_state_final_turn_scores() -> None:
    # player 0 went out; player 1 has played their last turn; player 2 plays now
    hands = ["3C 4C 5C", "KD KH QS", "9D 9H 9S"]
    r0 = Round(3, round_number=1, seed=0)
    rest = full_counts(r0.rules).astype(np.int64)
    from fivecrowns import hand_counts
    rest -= hand_counts(" ".join(hands) + " 7T").astype(np.int64)
    draw = [int(t) for t in range(56) for _ in range(rest[t])]
    r = Round.from_state(hands, draw, ["7T"], current_player=2, round_number=1, seed=0,
                         went_out=0, turn=2)
    assert r.final_turn
    _play_out(r)
    assert r.result is not None
    assert r.result.scores[0] == 0 and r.result.scores[1] == 38


def test_samples_play_out_as_the_bots_play_them() -> None:
    # play_out (the compiled engine when built) reads every part of a sampled round:
    # its scores equal those of GreedyBots playing the round move by move
    from fivecrowns.rollout import play_out
    rng = np.random.default_rng(8)
    for r in _states(31, 40):
        p = int(rng.integers(r.n_players))
        samples = [r.determinize(p, rng),
                   Round.from_observation(r.observation(p), seed=rng, rules=r.rules)]
        scores = play_out(samples)
        for s, got in zip(samples, scores.tolist()):
            s = s.clone()
            _play_out(s)
            assert s.result is not None and tuple(got) == s.result.scores
