"""LearnedBot (fivecrowns.learned): its inputs from the player's own view, the same from a
recorded decision as from the live observation; its weights file; its play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fivecrowns
from fivecrowns import ExpertBot, Game, LearnedBot, Round, StrongBot, play_game, registry
from fivecrowns.actions import encode_discard, encode_draw
from fivecrowns.bots import unseen_counts
from fivecrowns.expert import _two_blind_draws
from fivecrowns.learned import (
    CANDIDATE_FEATURES,
    CONTEXT_FEATURES,
    SHIPPED_WEIGHTS,
    WEIGHTS,
    LearnedWeights,
    decide,
    load_weights,
    observation_view,
    recorded_view,
)
from fivecrowns.records import Phase
from fivecrowns.seeding import game_seeds
from helpers.engines import compiled_engine, sized

SHIPPED = Path(fivecrowns.__file__).parent / WEIGHTS


def test_recorded_decisions_give_the_live_inputs() -> None:
    # the training reads recorded encodings, the bot its live observations: the same
    # candidates and inputs, decision by decision
    decisions = pytest.importorskip("fivecrowns.decisions")
    compiled_engine()  # decision data is recorded by the compiled engine only
    d = decisions.record_decisions(2, seed=9, policy="expert", n_players=3)
    i = 0
    learned = 0
    for s in game_seeds(9, 2):
        game = Game(3, seed=s)
        bot = ExpertBot()
        while not game.is_over:
            obs = game.observation(game.current_player)
            live = decide(observation_view(obs))
            rec = decide(recorded_view(d.obs[i], d.mask[i], int(d.turn[i]), n_players=3))
            assert live[0] == rec[0], i
            if live[1] is None:
                assert rec[1] is None
            else:
                assert rec[1] is not None and np.array_equal(live[1], rec[1]), i
                learned += 1
            if game.phase is Phase.DRAW:
                game.apply_action(encode_draw(bot.choose_draw(obs)))
            else:
                card, out = bot.choose_discard(obs)
                game.apply_action(encode_discard(card, go_out=out))
            i += 1
    assert i == len(d) and learned > 100


def test_inputs_shape_and_the_expert_move_is_a_candidate() -> None:
    r = Round(4, round_number=9, seed=4)
    obs = r.observation(r.current_player)
    what, x = decide(observation_view(obs))
    assert x is not None and isinstance(what, list)
    assert x.shape == (2, len(CANDIDATE_FEATURES) + len(CONTEXT_FEATURES))
    assert np.isfinite(x).all()


def test_the_two_draw_sums_follow_the_engine_switch() -> None:
    # FIVECROWNS_IMPLEMENTATION=python (or a pure-Python install) runs ExpertBot's twin of
    # the sums, as it runs the rollout engine's
    from fivecrowns import learned, rollout

    assert (learned._two_draw_sums is None) == (rollout._core is None)


def test_same_inputs_without_the_compiled_two_draw_sums(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a pure-Python install has no _rollout: ExpertBot's own sums, the same inputs
    from fivecrowns import learned

    compiled_engine()  # on the twins there are no compiled sums to compare with
    views = []
    r = Round(4, round_number=8, seed=2)
    bot = ExpertBot()
    while not r.is_over and len(views) < 40:
        obs = r.observation(r.current_player)
        views.append(observation_view(obs))
        if r.phase is Phase.DRAW:
            r.apply_action(encode_draw(bot.choose_draw(obs)))
        else:
            card, out = bot.choose_discard(obs)
            r.apply_action(encode_discard(card, go_out=out))
    compiled = [decide(v) for v in views]
    monkeypatch.setattr(learned, "_two_draw_sums", None)
    for v, want in zip(views, compiled):
        got = decide(v)
        assert got[0] == want[0]
        assert (got[1] is None) == (want[1] is None)
        if got[1] is not None:
            assert np.array_equal(got[1], want[1])


def test_two_draw_sums_are_experts() -> None:
    rollout = pytest.importorskip("fivecrowns._policies")
    for s in range(sized(20, 6)):  # the twin's sums of 13 cards: seconds each
        r = Round(3, round_number=1 + s % 11, seed=s)
        obs = r.observation(r.current_player)
        row = np.array(obs.counts, dtype=np.uint8)
        u = unseen_counts(obs)
        assert rollout.two_draw_sums(row, obs.wild, 2, u) == _two_blind_draws(row, obs.wild,
                                                                               2, u)


def test_shipped_weights_are_small_and_say_how_they_were_made() -> None:
    assert SHIPPED.is_file() and SHIPPED.stat().st_size <= 1_000_000
    w = load_weights()
    assert "examples/train_imitation.py" in w.meta["command"]
    assert isinstance(w.meta["seed"], int)
    assert w.meta["features"] == list(CANDIDATE_FEATURES) + list(CONTEXT_FEATURES)


def test_both_shipped_sets_load_by_name_and_0_5_is_the_default() -> None:
    """0.5's weights (every table size) are the default; 0.4's stay by name, for the
    figures and records that cite them, through the registry too."""
    root = Path(fivecrowns.__file__).parent
    assert WEIGHTS == SHIPPED_WEIGHTS["0.5"] and set(SHIPPED_WEIGHTS) == {"0.4", "0.5"}
    new, old = load_weights(), load_weights("0.4")
    for name, w in (("0.5", new), ("0.4", old)):
        assert (root / SHIPPED_WEIGHTS[name]).stat().st_size <= 1_000_000
        same = load_weights(root / SHIPPED_WEIGHTS[name])
        assert all((a == b).all() for a, b in zip(w.layers[0], same.layers[0]))
    assert new.meta["players"] == [2, 3, 4, 6] and "--players 2,3,4,6" in new.meta["command"]
    assert "players" not in old.meta and old.meta["games"] == 2000 and old.meta["seed"] == 1
    assert not np.array_equal(new.layers[0][0], old.layers[0][0])
    assert LearnedBot()._net is LearnedBot(weights="0.5")._net  # read once a process
    bot = registry.parse_bot("learned:weights=0.4").factory()(0)
    assert isinstance(bot, LearnedBot) and bot._net is LearnedBot(weights="0.4")._net
    assert repr(bot) == "LearnedBot(weights='0.4')"
    with pytest.raises(OSError):
        LearnedBot(weights="0.3")  # not a shipped name: a file, and there is none


def test_plays_legal_games_by_name() -> None:
    spec = registry.parse_bot("learned")
    assert spec.cls is LearnedBot
    # a whole game takes minutes on the pure-Python twins: its first rounds there
    result = play_game([spec.factory()(0), StrongBot(), StrongBot()], seed=5,
                       rounds=sized(None, [1, 2]))
    assert len(result.totals) == 3 and min(result.totals) >= 0
    assert repr(LearnedBot()) == "LearnedBot()"


def test_deterministic_and_goes_out_when_it_can() -> None:
    rounds = sized([1, 2, 3], [1, 2])
    a = play_game([LearnedBot(), StrongBot()], seed=8, rounds=rounds)
    b = play_game([LearnedBot(), StrongBot()], seed=8, rounds=rounds)
    assert a.totals == b.totals
    # 5C 6C 7C drawn to four cards with KD: discarding KD goes out
    from fivecrowns import Observation, hand_counts
    from fivecrowns.cards import Card

    obs = Observation(player=0, counts=hand_counts("5C 6C 7C KD"), drawn=Card.parse("KD"),
                      top_discard=Card.parse("9S"), draw_size=50, discard_size=3,
                      round_number=1, hand_size=3, wild=3, n_players=2, dealer=1,
                      current_player=0, phase=Phase.DISCARD, turn=2, final_turn=False,
                      went_out=None, history=(),
                      unseen_counts=np.ones(56, dtype=np.uint8))
    card, out = LearnedBot().choose_discard(obs)
    assert (str(card), out) == ("KD", True)


def test_weights_round_trip_and_bad_files(tmp_path: Path) -> None:
    w = load_weights()
    path = tmp_path / "w.npz"
    LearnedWeights(w.mean, w.scale, w.layers, {"command": "x", "seed": 1}).save(path)
    again = load_weights(path)
    x = np.random.default_rng(0).normal(size=(5, w.mean.shape[0]))
    assert np.array_equal(again.scores(x), w.scores(x))
    assert LearnedBot(weights=str(path)).weights_path == str(path)
    np.savez(tmp_path / "bad.npz", a=np.zeros(2))
    with pytest.raises(ValueError, match="not LearnedBot weights"):
        load_weights(tmp_path / "bad.npz")
    np.savez(tmp_path / "short.npz", w0=np.zeros((3, 4)), b0=np.zeros(4), mean=np.zeros(3),
             scale=np.ones(3), meta=np.array(json.dumps({})))
    with pytest.raises(ValueError, match="inputs, LearnedBot has"):
        load_weights(tmp_path / "short.npz")


def _bad_weight_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Files that are not weights, and what the refusal must say each is."""
    w = dict(np.load(SHIPPED))
    files: dict[str, tuple[Path, str]] = {}

    def add(name: str, why: str, **arrays: object) -> Path:
        files[name] = (tmp / name, why)
        return tmp / name

    # the arrays of a decisions file (write_decisions' layout, written by hand: the
    # compiled engine that records them is not on every route)
    np.savez(add("dec.npz", "it is a decisions file, from write_decisions"),
             meta=np.array(json.dumps({"format": 1, "chunks": 1})),
             **{"c00000.action": np.zeros(3, np.int16)})
    np.save(add("array.npy", "a single NumPy array, an .npy"), np.zeros(3))
    add("garbage.npy", "not a zip archive").write_bytes(b"\x00\x01garbage" * 10)
    add("empty.npz", "an empty file").write_bytes(b"")
    add("cut.npz", "a damaged or truncated zip archive").write_bytes(
        SHIPPED.read_bytes()[:300])
    np.savez(add("pickled.npz", "its array 'mean' holds pickled Python objects"),
             **{**w, "mean": np.array([{}], dtype=object)})
    np.savez(add("meta.npz", "its 'meta' array is not a JSON object"),
             **{**w, "meta": np.array("{bad")})
    np.savez(add("chain.npz", "w1 (3, 3) and b1 (64,) do not take 64 inputs"),
             **{**w, "w1": np.zeros((3, 3))})
    np.savez(add("scale.npz", "a weight is not finite, or a scale is 0"),
             **{**w, "scale": np.zeros_like(w["scale"])})
    return files


def test_bad_weight_files_say_what_they_are_in_one_line(tmp_path: Path) -> None:
    # a decisions file used to say "no 'mean is not a file in the archive'", a garbage
    # .npy NumPy's advice to load it with allow_pickle
    for name, (path, why) in _bad_weight_files(tmp_path).items():
        with pytest.raises(ValueError) as info:
            load_weights(path)
        message = str(info.value)
        assert message.startswith(f"{path}: not LearnedBot weights ("), (name, message)
        assert why in message and message.endswith(
            "; expected a weights file from LearnedWeights.save or "
            "examples/train_imitation.py"), (name, message)
        assert "\n" not in message and "pickle=" not in message, (name, message)
    with pytest.raises(FileNotFoundError):
        load_weights(tmp_path / "missing.npz")


def test_bad_weights_by_name_are_one_line_of_the_cli(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    from fivecrowns.cli import main

    path, _ = _bad_weight_files(tmp_path)["garbage.npy"]
    assert main(["simulate", "--games", "1", "--rounds", "1", "--quiet",
                 "--bots", f"learned:weights={path},greedy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"{path}: not LearnedBot weights (it is not a zip archive, as "
                        "every .npz is); expected a weights file from LearnedWeights.save "
                        "or examples/train_imitation.py"), err
    assert len(err.splitlines()) == 1


def test_plays_without_torch() -> None:
    code = ("import sys, fivecrowns\n"
            "from fivecrowns import LearnedBot, StrongBot, play_game\n"
            "play_game([LearnedBot(), StrongBot()], seed=1, rounds=[4])\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**__import__("os").environ, "PYTHONPATH": str(
                              Path(fivecrowns.__file__).resolve().parent.parent)})
    assert done.returncode == 0, done.stderr
