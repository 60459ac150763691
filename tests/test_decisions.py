"""Decision data (fivecrowns.decisions) against the Python engine and bots: the same
observations, masks and moves, step by step; the file format, rewards and checks."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fivecrowns import Game, Rules, rollout
from fivecrowns.actions import encode_discard, encode_draw
from fivecrowns.envs.encoding import encode_observation, observation_size
from fivecrowns.records import Phase
from fivecrowns.seeding import game_seeds

if rollout.ROLLOUT_IMPLEMENTATION != "compiled":  # FIVECROWNS_IMPLEMENTATION=python, or none
    pytest.skip("decision data is recorded by the compiled engine", allow_module_level=True)

from fivecrowns.decisions import (
    Decisions,
    iter_decisions,
    load_decisions,
    record_decisions,
    write_decisions,
)
from helpers.rollout_twins import policy_bot


def replay(d: Decisions, games: int, seed: int, policies: list[str], seats: set[int],
           features: bool, rules: Rules | None = None,
           rounds: list[int] | None = None) -> int:
    """Play each game with the Python bots and check every recorded decision against the
    Python engine's observation, mask and the bot's move; the decisions checked."""
    i = 0
    for g, s in enumerate(game_seeds(seed, games)):
        game = Game(len(policies), seed=s, rules=rules, rounds=rounds)
        bots = [policy_bot(p) for p in policies]
        while not game.is_over:
            p = game.current_player
            obs = game.observation(p)
            if game.phase is Phase.DRAW:
                action = encode_draw(bots[p].choose_draw(obs))
            else:
                card, out = bots[p].choose_discard(obs)
                action = encode_discard(card, go_out=out)
            if p in seats:
                want = encode_observation(obs, features=features)
                assert (d.observations()[i] == want).all() if features else \
                    (d.obs[i].astype(np.float32) == want).all(), (g, i)
                assert (d.mask[i] == game.legal_action_mask()).all(), (g, i)
                assert int(d.action[i]) == action, (g, i)
                assert (int(d.game[i]), int(d.player[i]), int(d.round[i]),
                        int(d.turn[i])) == (g, p, game.round_number, obs.turn)
                i += 1
            game.apply_action(action)
        assert game.result is not None
        for q in seats:  # every episode's rewards sum to minus the player's total
            rows = (d.game == g) & (d.player == q)
            assert -float(d.reward[rows].sum()) == game.result.totals[q]
            assert (d.game_total[rows] == game.result.totals[q]).all()
            assert int(d.episode_end[rows].sum()) == 1 and d.episode_end[rows][-1]
    assert i == len(d)
    return i


@pytest.mark.parametrize("policy,n_players", [("greedy", 2), ("strong", 3), ("expert", 4),
                                              ("expert", 2)])
def test_decisions_are_the_python_bots(policy: str, n_players: int) -> None:
    d = record_decisions(2, seed=11, policy=policy, n_players=n_players,  # type: ignore[arg-type]
                         threads=2)
    assert replay(d, 2, 11, [policy] * n_players, set(range(n_players)), False) > 100
    # the solver features, computed in the engine, are envs.features' to the bit
    f = record_decisions(2, seed=11, policy=policy, n_players=n_players,  # type: ignore[arg-type]
                         features=True)
    assert f.features is not None and (f.obs == d.obs).all()
    replay(f, 2, 11, [policy] * n_players, set(range(n_players)), True)


def test_seat_policies_chosen_seats_and_features() -> None:
    policies = ["expert", "strong", "greedy"]
    d = record_decisions(2, seed=3, policy=policies, n_players=3,  # type: ignore[arg-type]
                         seats=[0, 2], features=True, rounds=[1, 6, 11])
    assert set(d.player.tolist()) == {0, 2}
    replay(d, 2, 3, policies, {0, 2}, True, rounds=[1, 6, 11])


def test_rules_party_mode_and_no_return() -> None:
    for seed, back in ((5, True), (6, False)):
        rules = Rules(decks=4, return_discard=back)
        d = record_decisions(1, seed=seed, policy="expert", n_players=8, rules=rules,
                             rounds=[3, 11], features=True)
        replay(d, 1, seed, ["expert"] * 8, set(range(8)), True, rules=rules, rounds=[3, 11])


def test_max_turns_rounds_still_score() -> None:
    rules = Rules(max_turns=3)
    d = record_decisions(3, seed=2, policy="greedy", n_players=4, rules=rules,
                         features=True)
    replay(d, 3, 2, ["greedy"] * 4, set(range(4)), True, rules=rules)


def test_same_decisions_whatever_the_threads_and_chunks(tmp_path: Path) -> None:
    one = record_decisions(9, seed=4, policy="strong", n_players=3, threads=1)
    two = record_decisions(9, seed=4, policy="strong", n_players=3, threads=2)
    f = write_decisions(tmp_path / "d.npz", 9, seed=4, policy="strong", n_players=3,
                        chunk_games=4, compress=False)
    assert f.chunks == 3 and f.games == 9 and f.decisions == len(one)
    back = load_decisions(f.path)
    assert [len(c) for c in iter_decisions(f.path)] == [
        int((one.game // 4 == c).sum()) for c in range(3)]
    for x in (two, back):
        for name in ("obs", "mask", "action", "game", "reward", "episode_end"):
            assert (getattr(x, name) == getattr(one, name)).all(), name
    assert back.features is None
    (last,) = iter_decisions(f.path, chunks=[2])
    assert (last.action == one.action[one.game >= 8]).all()
    with pytest.raises(ValueError, match="chunks must be chunk numbers 0..2, got 3"):
        list(iter_decisions(f.path, chunks=[3]))
    with np.load(f.path) as raw:  # plain npz: any array by name
        assert raw["c00000.action"].tolist() == one.action[one.game < 4].tolist()
    assert not (tmp_path / "d.npz.part").exists()


def test_random_policy_is_reproducible() -> None:
    a = record_decisions(3, seed=8, policy="random", n_players=2)
    b = record_decisions(3, seed=8, policy="random", n_players=2, threads=2)
    assert (a.action == b.action).all()
    assert bool(a.mask[np.arange(len(a)), a.action].all())


def test_observations_hold_the_players_own_cards() -> None:
    # the observations equal encode_observation's (the twin tests above), whose tests
    # show it holds nothing hidden; here the hand block holds the player's own hand: n
    # cards to draw, n + 1 to discard
    d = record_decisions(2, seed=6, policy="expert", n_players=4)
    hand = d.obs[:, :56].sum(axis=1)
    size = d.round.astype(np.int64) + 2
    phase = d.obs[:, 4 * 56 + 3 * 57 + 1 + 11 + 11 + 4:][:, :2].argmax(axis=1)
    assert (hand == size + phase).all()
    assert d.obs.shape[1] == observation_size(4)


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="games must be an int"):
        record_decisions("3", seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy must be one of"):
        record_decisions(1, seed=1, policy="best")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"seats\[0\] must be a seat 0..3, got 4"):
        record_decisions(1, seed=1, seats=[4])
    with pytest.raises(ValueError, match="at least one seat"):
        record_decisions(1, seed=1, seats=[])
    with pytest.raises(TypeError, match="features must be a bool"):
        record_decisions(1, seed=1, features=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk_games must be at least 1"):
        write_decisions("x.npz", 1, seed=1, chunk_games=0)


def test_not_a_decisions_file(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, a=np.zeros(3))
    with pytest.raises(ValueError, match="not a decisions file"):
        load_decisions(path)


def test_bad_decision_files_say_what_they_are_in_one_line(tmp_path: Path) -> None:
    # a garbage .npy used to give NumPy's advice to load it with allow_pickle
    good = write_decisions(tmp_path / "d.npz", 2, seed=1, policy="greedy", n_players=2)
    files = {"garbage.npy": "it is not a zip archive, as every .npz is",
             "array.npy": "it is a single NumPy array, an .npy, not an .npz archive",
             "cut.npz": "a damaged or truncated zip archive",
             "weights.npz": "it holds LearnedBot weights"}
    (tmp_path / "garbage.npy").write_bytes(b"\x00\x01garbage" * 10)
    np.save(tmp_path / "array.npy", np.zeros(3))
    (tmp_path / "cut.npz").write_bytes(Path(good.path).read_bytes()[:300])
    from fivecrowns.learned import load_weights

    load_weights().save(tmp_path / "weights.npz")
    for name, why in files.items():
        path = tmp_path / name
        with pytest.raises(ValueError) as info:
            load_decisions(path)
        assert str(info.value) == (f"{path}: not a decisions file ({why}); expected a file "
                                   "from write_decisions"), name


class _CtrlC:
    """A progress callback that raises KeyboardInterrupt, as Ctrl-C would, once ``after``
    games are finished (it is called after each chunk is written)."""

    def __init__(self, after: int) -> None:
        self.after, self.done = after, 0

    def __call__(self, games: int) -> None:
        self.done += games
        if self.done >= self.after:
            raise KeyboardInterrupt


def test_ctrl_c_keeps_the_finished_chunks_in_a_valid_part(tmp_path: Path) -> None:
    # it used to delete them, where simulate --out keeps its finished games
    from fivecrowns.errors import Interrupted

    path = tmp_path / "d.npz"
    path.write_bytes(b"an older run")
    # a bare KeyboardInterrupt must not escape: it would stop the test session
    with pytest.raises(KeyboardInterrupt) as stop:
        write_decisions(path, 7, seed=3, policy="greedy", n_players=2, chunk_games=2,
                        progress=_CtrlC(4))
    assert isinstance(stop.value, Interrupted)
    assert str(stop.value) == "interrupted after 4 finished game(s)"
    kept = stop.value.partial
    assert kept is not None and kept.path == str(path) + ".part"
    assert (kept.games, kept.chunks) == (4, 2)
    assert path.read_bytes() == b"an older run"  # the name holds only whole runs
    back, want = load_decisions(kept.path), record_decisions(4, seed=3, policy="greedy",
                                                            n_players=2)
    assert len(back) == kept.decisions == len(want)
    for name in ("obs", "mask", "action", "game", "reward", "episode_end"):
        assert (getattr(back, name) == getattr(want, name)).all(), name
    with np.load(kept.path) as raw:
        meta = json.loads(str(raw["meta"].reshape(-1)[0]))
    assert (meta["games"], meta["planned_games"], meta["chunks"]) == (4, 7, 2)


def test_ctrl_c_before_a_chunk_is_done_leaves_nothing(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import fivecrowns.decisions as decisions
    from fivecrowns.errors import Interrupted

    def interrupted(*args: object) -> Iterator[Decisions]:
        raise KeyboardInterrupt
        yield  # a generator, as _chunks

    monkeypatch.setattr(decisions, "_chunks", interrupted)
    with pytest.raises(KeyboardInterrupt) as stop:
        write_decisions(tmp_path / "d.npz", 3, seed=1, policy="greedy", n_players=2)
    assert isinstance(stop.value, Interrupted) and stop.value.partial is None
    assert list(tmp_path.iterdir()) == []


def test_bad_destinations_are_refused_before_playing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # a missing folder used to be a raw FileNotFoundError naming "nodir/x.npz.part" (after
    # the games were played), x.txt silently an npz
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as info:
        write_decisions("nodir/x.npz", 1, seed=1)
    assert str(info.value) == (f"cannot write 'nodir/x.npz': no such folder "
                               f"{str(tmp_path / 'nodir')!r}")
    with pytest.raises(ValueError, match=r"path 'x\.txt' must end in \.npz"):
        write_decisions("x.txt", 1, seed=1)
    (tmp_path / "dir.npz").mkdir()
    with pytest.raises(IsADirectoryError, match="cannot write 'dir.npz': it is a folder"):
        write_decisions("dir.npz", 1, seed=1)
    with pytest.raises(TypeError, match="path must be a str or path-like, got int"):
        write_decisions(3, 1, seed=1)  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.npz"]
    assert write_decisions("X.NPZ", 1, seed=1, policy="greedy", n_players=2).games == 1


def _minari() -> Any:
    try:
        import minari
    except ImportError as exc:  # the CI step that installs the extra requires it
        if os.environ.get("FIVECROWNS_REQUIRE_TRAIN") == "1":
            pytest.fail(f"needs the fivecrowns[minari] extra: {exc}", pytrace=False)
        pytest.skip(f"needs the fivecrowns[minari] extra: {exc}")
    return minari


def test_minari_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _minari()
    from fivecrowns.decisions import to_minari

    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    d = record_decisions(2, seed=1, policy="greedy", n_players=2)
    # no metadata given: to_minari's own, and no warning (there were six of Minari's)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = to_minari(d, "fivecrowns/greedy-test-v0")
    assert ds.total_episodes == 4 and ds.total_steps == len(d)
    assert "2-player games" in ds.storage.metadata["description"]
    episodes = list(ds.iterate_episodes())
    first = episodes[0]
    rows = (d.game == 0) & (d.player == 0)
    assert (first.actions == d.action[rows]).all()
    assert first.observations.shape == (int(rows.sum()) + 1, d.obs.shape[1])
    assert float(sum(e.rewards.sum() for e in episodes)) == float(d.reward.sum())
    assert (first.infos["action_mask"][:-1] == d.mask[rows]).all()
    # The dataset's size (a walk of its whole folder) is measured a few times, not after
    # each episode (time as the square of the episodes: 2.4 times the recording's time
    # for 43,806 decisions)
    from minari.dataset.minari_storage import MinariStorage

    sizes: list[float] = []
    measure = MinariStorage.get_size
    monkeypatch.setattr(MinariStorage, "get_size",
                        lambda self: sizes.append(measure(self)) or sizes[-1])
    twelve = to_minari(record_decisions(4, seed=2, policy="greedy", n_players=3),
                       "fivecrowns/twelve-v0")
    assert twelve.total_episodes == 12 and len(sizes) <= 3, sizes
    # from a file, chunk by chunk: the same episodes
    f = write_decisions(tmp_path / "d.npz", 2, seed=1, policy="greedy", n_players=2,
                        chunk_games=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = to_minari(f.path, "fivecrowns/greedy-file-v0", description="the same",
                          author="me", author_email="me@example.org")
    assert again.total_episodes == 4 and again.total_steps == len(d)
    assert again.storage.metadata["author"] == {"me"}
    for a, b in zip(again.iterate_episodes(), episodes):
        assert a.id == b.id and (a.observations == b.observations).all()
    with pytest.raises(TypeError, match="decisions must be Decisions or a path"):
        to_minari(3, "fivecrowns/x-v0")  # type: ignore[arg-type]


def test_minari_export_is_minaris_own_dataset(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The arrow route writes a chunk's episodes at once: the dataset must be the one
    Minari's create_dataset_from_buffers makes of the same episodes, episode by episode,
    field by field (a Minari release that changes its layout fails here)."""
    minari = _minari()
    import gymnasium as gym
    from minari.data_collector import EpisodeBuffer

    from fivecrowns.decisions import _episodes, to_minari

    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    d = record_decisions(3, seed=4, policy=["strong", "random", "greedy"], n_players=3,
                         seats=[0, 2], features=True)
    f = write_decisions(tmp_path / "d.npz", 3, seed=4, policy=["strong", "random", "greedy"],
                        n_players=3, seats=[0, 2], features=True, chunk_games=2)
    ours = to_minari(f.path, "fivecrowns/ours-v0")
    buffers = [EpisodeBuffer(observations=o, actions=a, rewards=r, terminations=t,
                             truncations=np.zeros_like(t), infos={"action_mask": m})
               for o, a, r, t, m in _episodes(d)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = minari.create_dataset_from_buffers(
            "fivecrowns/theirs-v0", buffers, observation_space=gym.spaces.Box(
                -np.inf, np.inf, shape=(d.observations().shape[1],), dtype=np.float32),
            action_space=gym.spaces.Discrete(114), data_format="arrow")
    assert (ours.total_episodes, ours.total_steps) == (theirs.total_episodes,
                                                       theirs.total_steps) == (6, len(d))
    for a, b in zip(ours.iterate_episodes(), theirs.iterate_episodes(), strict=True):
        assert a.id == b.id
        for name in ("observations", "actions", "rewards", "terminations", "truncations"):
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), name
        assert (a.infos["action_mask"] == b.infos["action_mask"]).all()
    ids = range(6)
    assert list(ours.storage.get_episode_metadata(ids)) == list(
        theirs.storage.get_episode_metadata(ids))
    assert ours.storage.metadata["dataset_size"] == theirs.storage.metadata["dataset_size"]
    loaded = minari.load_dataset("fivecrowns/ours-v0")
    assert loaded.total_steps == len(d) and len(list(loaded.sample_episodes(2))) == 2


def test_recording_without_the_compiled_engine_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import fivecrowns._decisions_record as recording
    import fivecrowns.decisions as decisions

    monkeypatch.setattr(recording, "_core", None)  # the engine the recording plays on
    with pytest.raises(RuntimeError, match="needs fivecrowns' compiled engine"):
        decisions.record_decisions(1, seed=1)
