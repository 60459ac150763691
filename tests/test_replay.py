"""replay.py: action tokens, the JSON game record, its format version, and replaying."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecrowns import ReplayError, Rules
from fivecrowns.bots import GreedyBot, RandomBot
from fivecrowns.game import Game
from fivecrowns.players import play_game
from fivecrowns.replay import RECORD_FORMAT, GameRecord, action_token, parse_token

DATA = Path(__file__).parent / "data"


def greedy(n: int) -> list[GreedyBot]:
    return [GreedyBot() for _ in range(n)]


# -- records --

def test_tokens() -> None:
    for a in range(114):
        assert parse_token(action_token(a)) == a
    for bad in ("", "x", "5X", "!", 5):
        with pytest.raises(ReplayError):
            parse_token(bad)  # type: ignore[arg-type]


@settings(deadline=None)
@given(seed=st.integers(0, 2**40), n=st.integers(2, 4),
       rounds=st.lists(st.integers(1, 3), min_size=1, max_size=2), random=st.booleans())
def test_record_json_replays_identically(seed: int, n: int, rounds: list[int],
                                         random: bool) -> None:
    rules = Rules(max_turns=30, tie_break=bool(seed % 2))
    bots: list[Any] = [RandomBot(seed + i) for i in range(n)] if random else greedy(n)
    res = play_game(bots, seed=seed, rounds=rounds, rules=rules)
    text = res.record.to_json()
    again = GameRecord.from_json(text)
    assert again == res.record
    game = Game.replay(text)
    assert game.result == res
    assert game.record() == res.record


def known_records() -> list[dict[str, Any]]:
    return json.loads((DATA / "known_games_records.json").read_text())["games"]


@pytest.mark.parametrize("entry", known_records(), ids=lambda e: f"seed{e['record']['seed']}")
def test_known_records_replay_and_regenerate(entry: dict[str, Any]) -> None:
    """Pinned greedy games: the same seed must give the same game on every platform."""
    rec = GameRecord.from_dict(entry["record"])
    game = Game.replay(rec)
    assert game.result is not None and game.result.totals == rec.totals
    res = play_game(greedy(rec.n_players), seed=rec.seed, rules=rec.rules,
                    rounds=rec.rounds, first_dealer=rec.first_dealer)
    assert res.record == rec


def edited(record: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(record))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value(target[path[-1]]) if callable(value) else value
    return data


@pytest.fixture(scope="module")
def good_record() -> dict[str, Any]:
    return play_game(greedy(3), seed=12, rounds=[1, 2]).record.to_dict()


@pytest.mark.parametrize("path, value, match", [
    (["format"], "chess", "not a fivecrowns game record"),
    (["version"], 99, "format version 99: this fivecrowns reads format version 2"),
    (["version"], 1, "format version 1: this fivecrowns reads format version 2"),
    (["seed"], "12", "'seed' must be a int"),
    (["rules"], {"decks": 3}, "rules .* are invalid"),
    (["n_players"], 1, "cannot start a game"),
    (["totals"], lambda t: [t[0] + 1] + t[1:], "totals .* differ from the replay's"),
    (["round_scores", 0], lambda s: [s[0] + 5] + s[1:], "round scores .* differ"),
    (["winners"], [2, 1], "winners .* differ"),
    (["actions", 0], lambda a: "KS " + a, "move 1 of round 1 .* is illegal: player 1 must "
     "draw before discarding"),
    (["actions", 0], lambda a: a.rsplit(" ", 2)[0], "end before the round does"),
    (["actions", 0], lambda a: a + " deck", "ended after move"),
    (["actions", 1], lambda a: a + " deck", "the game is over"),
    (["actions"], lambda a: a[:1], "before the game is over"),
    (["actions", 0], lambda a: "deck 5X " + a, "cannot read recorded action '5X'"),
    (["actions"], "deck", "must be a list"),
])
def test_corrupted_records_raise(good_record: dict[str, Any], path: list[Any], value: Any,
                                 match: str) -> None:
    bad = edited(good_record, path, value)
    with pytest.raises(ReplayError, match=match):
        Game.replay(bad)
    with pytest.raises(ReplayError, match=match):
        Game.replay(json.dumps(bad))


def test_edited_seed_or_move_raises(good_record: dict[str, Any]) -> None:
    with pytest.raises(ReplayError):
        Game.replay(edited(good_record, ["seed"], 13))
    assert Game.replay(good_record).result is not None
    with pytest.raises(ReplayError, match="not valid JSON"):
        Game.replay("{not json")
    with pytest.raises(ReplayError, match="must be a JSON object"):
        Game.replay("[1, 2]")
    with pytest.raises(ReplayError, match="has no 'totals' field"):
        Game.replay({k: v for k, v in good_record.items() if k != "totals"})




def test_format_version_and_rules_are_recorded() -> None:
    rules = Rules(return_discard=True, max_turns=50)
    data = play_game(greedy(2), seed=1, rounds=[1], rules=rules).record.to_dict()
    assert data["version"] == RECORD_FORMAT == 2
    assert data["rules"] == {"decks": 2, "max_turns": 50, "tie_break": False,
                             "return_discard": True}
    assert Game.replay(data).rules == rules
