"""The compiled rollout engine (fivecrowns.rollout) against the Python engine and bots:
the same shuffles, the same moves, the same scores. ``benchmarks/soak_rollout.py`` runs the same
comparison much longer."""

from __future__ import annotations

import numpy as np
import pytest

import fivecrowns
from fivecrowns import ExpertBot, GreedyBot, Round, Rules, StrongBot, play_game
from fivecrowns.rollout import deal_rounds, play_games, play_out, play_out_actions
from fivecrowns.seeding import game_seeds
from helpers.engines import compiled_engine

_rollout = compiled_engine()

from helpers.rollout_twins import (  # noqa: E402
    check_twin,
    greedy_prefix,
    random_prefix,
    varied_round,
)

# -- numpy's permutation ------------------------------------------------------------------

BIT_GENERATORS = [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64,
                  np.random.PCG64DXSM]


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda b: b.__name__)
def test_permutation_is_numpys(bit_generator: type) -> None:
    for seed in range(60):
        for n in (0, 1, 2, 3, 7, 56, 115, 116, 231, 232, 1000, 70_000):
            ours = np.random.Generator(bit_generator(seed))
            theirs = np.random.Generator(bit_generator(seed))
            ours.random(), theirs.random()  # not from a fresh state
            got = compiled_engine("_round_state").permutation(ours, n)
            assert got.tolist() == theirs.permutation(n).tolist(), (seed, n)
            # the same state after: the same stream from here on
            assert ours.bit_generator.random_raw(3).tolist() \
                == theirs.bit_generator.random_raw(3).tolist()


# -- rounds: every size, table and rule ---------------------------------------------------

@pytest.mark.parametrize("round_number", range(1, 12))
@pytest.mark.parametrize("n_players", range(2, 8))
def test_fresh_rounds_are_twins(round_number: int, n_players: int) -> None:
    for seed in range(4):
        rules = Rules(return_discard=bool(seed % 2))
        check_twin(Round(n_players, round_number, seed=seed + 100 * round_number,
                         rules=rules, dealer=seed % n_players))


@pytest.mark.parametrize("n_players", [2, 8, 11, 14])
def test_party_mode_rounds_are_twins(n_players: int) -> None:
    for round_number in range(1, 12):
        for return_discard in (False, True):
            rules = Rules(decks=4, return_discard=return_discard)
            check_twin(Round(n_players, round_number, seed=round_number, rules=rules))


def test_rounds_in_any_state_are_twins() -> None:
    """Rounds mid-way in either phase, long enough to reshuffle, on final turns, cut short
    by max_turns, and tie-break rounds; party mode and both return_discard rules."""
    reshuffled = 0
    for seed in range(600):
        reshuffled += check_twin(varied_round(seed)) > 0
    assert reshuffled >= 5  # the engine's own reshuffles were compared too


def test_reshuffles_in_the_engine() -> None:
    rng = np.random.default_rng(4)
    reshuffled = 0
    for seed in range(40):
        r = Round(2, 1, seed=seed)
        while r.deck.draw_size > 3:
            random_prefix(r, 1, rng)
        reshuffled += check_twin(r) > 0
    assert reshuffled >= 8


def test_final_turns_in_both_phases() -> None:
    rng = np.random.default_rng(5)
    for seed in range(60):
        r = greedy_prefix(Round(5, 1 + seed % 11, seed=seed))
        if r.is_over:
            continue
        assert r.final_turn
        check_twin(r)
        random_prefix(r, 1, rng)  # the discard phase of a final turn
        check_twin(r)


def test_max_turns_ends_rounds() -> None:
    stopped = 0
    for seed in range(30):
        r = Round(3, 11, seed=seed, rules=Rules(max_turns=1 + seed % 4))
        check_twin(r)
        for a in play_out_actions(r):
            r.apply_action(a)
        assert r.result is not None
        stopped += r.result.hit_max_turns
    assert stopped >= 20


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda b: b.__name__)
def test_rounds_shuffled_by_any_bit_generator(bit_generator: type) -> None:
    rng = np.random.default_rng(3)
    for seed in range(8):
        r = Round(2, 1, seed=np.random.Generator(bit_generator(seed)))
        while r.deck.draw_size > 2:
            random_prefix(r, 1, rng)
        check_twin(r)


def test_a_finished_round_gives_its_scores() -> None:
    r = Round(3, 2, seed=1)
    for a in play_out_actions(r):
        r.apply_action(a)
    assert r.result is not None
    assert play_out([r])[0].tolist() == list(r.result.scores)
    assert play_out_actions(r) == []


# -- the strong policy ----------------------------------------------------------------------

def test_strong_rounds_are_twins() -> None:
    """StrongBot's floating-point expectations and penalties, reproduced operation by
    operation: the same moves in rounds of every kind."""
    reshuffled = 0
    for seed in range(250):
        reshuffled += check_twin(varied_round(seed), "strong") > 0
    assert reshuffled >= 1


def test_strong_games_are_play_game_twins() -> None:
    for rules in (Rules(), Rules(return_discard=True)):
        totals = play_games(2, seed=7, n_players=3, policy="strong", rules=rules)
        for g, game_seed in enumerate(game_seeds(7, 2)):
            res = play_game([StrongBot()] * 3, seed=game_seed, rules=rules)
            assert tuple(totals[g].tolist()) == res.totals


# -- the expert policy ----------------------------------------------------------------------

@pytest.mark.slow
def test_expert_rounds_are_twins() -> None:
    """ExpertBot's integer comparisons (two draws on the draw and on the best discards,
    the discard scores' fixed point): the same moves in rounds of every kind (the soak
    runs thousands more: ``benchmarks/soak_rollout.py``)."""
    reshuffled = 0
    for seed in range(300):
        reshuffled += check_twin(varied_round(seed), "expert") > 0
    assert reshuffled >= 5


@pytest.mark.parametrize("n_players", [2, 4, 7])
def test_fresh_expert_rounds_are_twins(n_players: int) -> None:
    for round_number in range(1, 12):
        for return_discard in (False, True):
            check_twin(Round(n_players, round_number, seed=round_number + 50 * n_players,
                             rules=Rules(return_discard=return_discard)), "expert")


def test_expert_party_rounds_are_twins() -> None:
    for round_number in (1, 6, 11):
        check_twin(Round(12, round_number, seed=round_number, rules=Rules(decks=4)),
                   "expert")


def test_expert_games_are_play_game_twins() -> None:
    for rules in (Rules(), Rules(return_discard=True)):
        totals = play_games(2, seed=7, n_players=3, policy="expert", rules=rules)
        for g, game_seed in enumerate(game_seeds(7, 2)):
            res = play_game([ExpertBot()] * 3, seed=game_seed, rules=rules)
            assert tuple(totals[g].tolist()) == res.totals


# -- one policy per seat ------------------------------------------------------------------

@pytest.mark.parametrize("seats", [
    ["expert", "strong", "strong", "strong"],
    ["strong", "expert"],
    ["greedy", "expert", "strong"],
    ["strong", "greedy", "expert", "greedy", "expert"],
])
def test_seat_policies_are_play_game_twins(seats: list[str]) -> None:
    n = len(seats)
    for rules, dealer in ((Rules(), 0), (Rules(return_discard=True, tie_break=True), n - 1)):
        totals = play_games(4, seed=n, n_players=n, policy=seats,  # type: ignore[arg-type]
                            rules=rules, first_dealer=dealer)
        for g, game_seed in enumerate(game_seeds(n, 4)):
            # the registry's bots by name (deterministic: their seeds do not matter)
            res = play_game(seats, seed=game_seed, rules=rules,
                            first_dealer=dealer)
            assert tuple(totals[g].tolist()) == res.totals, (seats, g)


def test_seat_policies_with_one_policy_are_the_single_policy() -> None:
    for policy in ("greedy", "strong", "expert"):
        one = play_games(6, seed=4, n_players=3, policy=policy, rounds=[1, 5, 9])
        seated = play_games(6, seed=4, n_players=3, policy=[policy] * 3,  # type: ignore[list-item]
                            rounds=[1, 5, 9])
        assert (one == seated).all()
    # the random policy in a seat: its own generator as with one policy; legal and
    # reproducible
    mixed = ["random", "expert", "strong"]
    a = play_games(10, seed=2, n_players=3, policy=mixed,  # type: ignore[arg-type]
                   rules=Rules(max_turns=80), threads=1)
    b = play_games(10, seed=2, n_players=3, policy=mixed,  # type: ignore[arg-type]
                   rules=Rules(max_turns=80), threads=2)
    assert (a == b).all() and a.shape == (10, 3)
    assert (play_games(10, seed=2, n_players=3, policy=["random"] * 3,  # type: ignore[list-item]
                       rules=Rules(max_turns=80))
            == play_games(10, seed=2, n_players=3, policy="random",
                          rules=Rules(max_turns=80))).all()


def test_seat_policies_are_checked() -> None:
    with pytest.raises(ValueError, match=r"one policy per seat: 4 for n_players=4, got 3"):
        play_games(1, seed=0, policy=["expert", "strong", "strong"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"policy\[1\] must be one of greedy, random, "
                                         r"strong, expert, got 'best'"):
        play_games(1, seed=0, n_players=2, policy=["strong", "best"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"policy\[0\] must be a str"):
        play_games(1, seed=0, n_players=2, policy=[3, "strong"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="policy must be a str or a sequence of str"):
        play_games(1, seed=0, n_players=2, policy=b"strong")  # type: ignore[arg-type]


# -- the random policy ----------------------------------------------------------------------

def test_random_policy_plays_legal_moves_reproducibly() -> None:
    for seed in range(150):
        r = varied_round(seed)
        moves = play_out_actions(r, policy="random", seed=seed)
        assert moves == play_out_actions(r, policy="random", seed=seed)
        scores = play_out([r], policy="random", seed=seed)[0].tolist()
        twin = r.clone()
        for a in moves:
            twin.apply_action(a)  # raises if the engine made an illegal move
        assert twin.is_over and twin.result is not None
        assert scores == list(twin.result.scores)


def test_long_play_outs_are_listed_whole() -> None:
    rules = Rules(max_turns=1500)
    moves = play_out_actions(Round(2, 11, seed=16, rules=rules), policy="random", seed=16)
    assert len(moves) > 1024  # more than the first room for moves: listed again, whole
    r = Round(2, 11, seed=16, rules=rules)
    for a in moves:
        r.apply_action(a)
    assert r.result is not None
    assert list(r.result.scores) == play_out([Round(2, 11, seed=16, rules=rules)],
                                             policy="random", seed=16)[0].tolist()


# -- whole games --------------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 7])
def test_games_are_play_game_twins(n_players: int) -> None:
    totals = play_games(3, seed=n_players, n_players=n_players)
    for g, game_seed in enumerate(game_seeds(n_players, 3)):
        res = play_game([GreedyBot()] * n_players, seed=game_seed)
        assert tuple(totals[g].tolist()) == res.totals


@pytest.mark.parametrize("rules", [Rules(return_discard=True), Rules(tie_break=True),
                                   Rules(max_turns=12), Rules(decks=4)],
                         ids=["return_discard", "tie_break", "max_turns", "party"])
def test_games_under_other_rules(rules: Rules) -> None:
    n = 9 if rules.decks == 4 else 4
    totals = play_games(2, seed=3, n_players=n, rules=rules, rounds=[1, 6, 11, 2],
                        first_dealer=2)
    for g, game_seed in enumerate(game_seeds(3, 2)):
        res = play_game([GreedyBot()] * n, seed=game_seed, rules=rules,
                        rounds=[1, 6, 11, 2], first_dealer=2)
        assert tuple(totals[g].tolist()) == res.totals


def test_random_games_are_reproducible() -> None:
    a = play_games(20, seed=8, n_players=3, policy="random", rules=Rules(max_turns=60))
    b = play_games(20, seed=8, n_players=3, policy="random", rules=Rules(max_turns=60))
    assert (a == b).all() and a.dtype == np.int64 and a.shape == (20, 3)


# -- threads ------------------------------------------------------------------------------

def test_threads_give_the_same_answers() -> None:
    for policy in ("greedy", "random", "strong", "expert"):
        one = play_games(40, seed=2, policy=policy, rounds=[1, 2, 3], threads=1)
        assert (play_games(40, seed=2, policy=policy, rounds=[1, 2, 3], threads=2)
                == one).all()
        assert (play_games(40, seed=2, policy=policy, rounds=[1, 2, 3], threads=3)
                == one).all()
    rounds = [varied_round(s) for s in range(120) if varied_round(s).n_players == 3]
    assert (play_out(rounds, threads=2) == play_out(rounds, threads=1)).all()
    assert (play_out(rounds, policy="random", seed=1, threads=2)
            == play_out(rounds, policy="random", seed=1, threads=1)).all()


def test_deal_rounds() -> None:
    rounds = deal_rounds(4, seed=6, n_players=3, round_number=2)
    assert [r.hand_size for r in rounds] == [4] * 4
    assert rounds[1].hand(0) == Round(3, 2, seed=game_seeds(6, 4)[1]).hand(0)
    assert play_out(rounds).shape == (4, 3)


def test_top_level_names() -> None:
    assert fivecrowns.play_out is play_out
    assert fivecrowns.play_games is play_games
    assert fivecrowns.deal_rounds is deal_rounds


# -- errors -------------------------------------------------------------------------------

def test_bad_arguments() -> None:
    r = Round(2, 1, seed=0)
    with pytest.raises(ValueError,
                       match="policy must be one of greedy, random, strong, expert, got 'best'"):
        play_out([r], policy="best")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the random policy needs a seed"):
        play_out([r], policy="random")
    with pytest.raises(TypeError, match="policy must be a str"):
        play_games(1, seed=0, policy=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="for one round pass"):
        play_out(r)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rounds\[1\] must be a Round, got int"):
        play_out([r, 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"same number of players, got \[2, 3\]"):
        play_out([r, Round(3, 1, seed=0)])
    with pytest.raises(ValueError, match="threads must be at least 1, got 0"):
        play_out([r], threads=0)
    with pytest.raises(TypeError, match="threads must be an int or None, got float"):
        play_games(1, seed=0, threads=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games must be at least 0, got -1"):
        play_games(-1, seed=0)
    with pytest.raises(ValueError, match="seed must be a non-negative int, got -3"):
        play_games(1, seed=-3)
    with pytest.raises(TypeError, match="seed is required"):
        play_games(1, seed=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int, a numpy.random.SeedSequence"):
        play_games(1, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a game takes 2 to 7 players"):
        play_games(1, seed=0, n_players=8)
    with pytest.raises(ValueError, match="round must be 1..11, got 12"):
        play_games(1, seed=0, rounds=[1, 12])
    with pytest.raises(ValueError, match="first_dealer must be a seat 0..3"):
        play_games(1, seed=0, first_dealer=4)
    assert play_out([]).shape == (0, 0)
    assert play_games(0, seed=1).shape == (0, 4)


def test_no_pyx_sets_its_own_cython_directives() -> None:
    """setup.py is the directives' one home: a header in a .pyx would override the debug
    build's bounds checks there (0.4's _rollout.pyx and _textcounts.pyx did)."""
    from pathlib import Path
    src = Path(__file__).resolve().parents[1] / "src" / "fivecrowns"
    pyx = sorted(src.glob("*.pyx"))
    if not pyx:
        pytest.skip("no .pyx sources beside the tests")
    headers = {p.name: [line for line in p.read_text(encoding="utf-8").splitlines()
                        if line.startswith("# cython:")] for p in pyx}
    assert {name: h for name, h in headers.items() if h} == {}
