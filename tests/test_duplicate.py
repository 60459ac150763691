"""Duplicate matches: ``duplicate_match(bot, reference, field, games)`` and the paired gain.

The gain is checked against a hand computation from two ordinary simulations with the
same seed; the pairing (same deals, same seeds, same seats) against bots whose gain over
themselves must be exactly 0; the seats against the game records; the backends against
each other.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import statistics
from typing import Any

import numpy as np
import pytest

from fivecrowns import DuplicateReport, duplicate_match, simulate_games
from fivecrowns.bots import GreedyBot, RandomBot, StrongBot
from fivecrowns.duplicate import edges, paired_gain, paired_gains
from fivecrowns.game import Game
from fivecrowns.stats import Z95


def _hand_gain(bot: np.ndarray, ref: np.ndarray) -> tuple[float, float, float]:
    """The gain and its 95% interval, written out: each deal's (field mean - bot) less
    (field mean - reference), their mean and mean +- Z95 * stdev / sqrt(n)."""
    gains = []
    for b, r in zip(bot.tolist(), ref.tolist()):
        k = len(b)
        bot_edge = sum(b[1:]) / (k - 1) - b[0]
        ref_edge = sum(r[1:]) / (k - 1) - r[0]
        gains.append(bot_edge - ref_edge)
    mean = sum(gains) / len(gains)
    half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains))
    return mean, mean - half, mean + half


def test_simulate_games_with_duplicate_is_deprecated_and_still_the_match() -> None:
    with pytest.warns(DeprecationWarning, match=r"simulate_games\(\.\.\., duplicate=reference\) "
                      r"is deprecated .* use duplicate_match\(bot, reference, field, games"):
        old = simulate_games([GreedyBot, RandomBot], 4, seed=2, rounds=[1],
                             names=["g", "r"], duplicate=StrongBot)
    new = duplicate_match(GreedyBot, StrongBot, [RandomBot], 4, seed=2, rounds=[1],
                          names=["g", "StrongBot", "r"])
    assert isinstance(old, DuplicateReport) and old.table() == new.table()
    assert old.gains.tolist() == new.gains.tolist()


def test_gain_is_the_hand_computation_on_two_ordinary_runs() -> None:
    lineup = [GreedyBot, RandomBot, GreedyBot]
    report = duplicate_match(GreedyBot, StrongBot, lineup[1:], 9, seed=4, rounds=[1, 2])
    assert isinstance(report, DuplicateReport)
    # the two games of each deal are those of two ordinary simulations with the same seed
    bot_run = simulate_games(lineup, 9, seed=4, rounds=[1, 2])
    ref_run = simulate_games([StrongBot, *lineup[1:]], 9, seed=4, rounds=[1, 2])
    assert report.seeds == bot_run.seeds == ref_run.seeds
    assert report.scores.tolist() == bot_run.scores.tolist()
    assert report.reference_scores.tolist() == ref_run.scores.tolist()
    assert report.wins.tolist() == bot_run.wins.tolist()
    assert report.reference_wins.tolist() == ref_run.wins.tolist()
    assert report.hit_max_turns == bot_run.hit_max_turns + ref_run.hit_max_turns
    gain, lo, hi = _hand_gain(bot_run.scores, ref_run.scores)
    assert report.gain == pytest.approx(gain, abs=1e-12)
    assert report.gain_ci == pytest.approx((lo, hi), abs=1e-9)
    assert lo < hi  # the deals differ: a real interval
    assert report.gains.mean() == pytest.approx(gain, abs=1e-12)
    # the win rates and mean scores are the bot's and the reference's own
    assert report.win_rate == bot_run.entrants[0].win_rate
    assert report.win_ci == bot_run.entrants[0].win_ci
    assert report.reference_win_rate == ref_run.entrants[0].win_rate
    assert report.reference_win_ci == ref_run.entrants[0].win_ci
    assert report.mean_score == bot_run.entrants[0].mean_score
    assert report.reference_mean_score == ref_run.entrants[0].mean_score
    assert (report.bot, report.reference, report.field, report.games) == \
        ("GreedyBot", "StrongBot", ("RandomBot", "GreedyBot"), 9)


def test_heads_up_gain_is_the_difference_of_margins() -> None:
    report = duplicate_match(StrongBot, RandomBot, [GreedyBot], 8, seed=2, rounds=[1, 2, 3])
    s, r = report.scores, report.reference_scores
    by_hand = ((s[:, 1] - s[:, 0]) - (r[:, 1] - r[:, 0])).astype(float)
    assert report.gains.tolist() == by_hand.tolist()
    assert report.gain > 0  # StrongBot beats RandomBot by far


@pytest.mark.parametrize("bot", [StrongBot, RandomBot])
def test_a_bot_against_itself_gains_exactly_nothing(bot: Any) -> None:
    """The same bot with the same seed on the same deal plays the same game: every gain
    is 0, whatever the field (a seeded RandomBot in it too)."""
    report = duplicate_match(bot, bot, [RandomBot, GreedyBot], 6, seed=7, rounds=[1, 2])
    assert report.scores.tolist() == report.reference_scores.tolist()
    assert report.gains.tolist() == [0.0] * 6
    assert report.gain == 0.0 and report.gain_ci == (0.0, 0.0)
    assert report.win_rate == report.reference_win_rate


def test_seats_rotate_and_both_games_of_a_deal_share_it() -> None:
    records: list[dict[str, Any]] = []
    report = duplicate_match(GreedyBot, StrongBot, [StrongBot, RandomBot], 6, seed=3,
                             rounds=[1], names=["bot", "StrongBot", "s", "r"],
                             on_record=records.append)
    assert len(records) == 12
    seats = []
    for g in range(6):
        mine, theirs = records[2 * g], records[2 * g + 1]
        assert (mine["game"], theirs["game"]) == (g, g)
        assert (mine["duplicate"], theirs["duplicate"]) == ("bot", "reference")
        assert mine["seed"] == theirs["seed"] == report.seeds[g]
        seat = mine["players"].index("bot")
        assert theirs["players"][seat] == "StrongBot"
        # the field sits where it sat
        assert [p for i, p in enumerate(mine["players"]) if i != seat] == \
            [p for i, p in enumerate(theirs["players"]) if i != seat]
        assert seat == (-g) % 3
        seats.append(seat)
        # both records replay on that seed's deal
        a, b = Game.replay(mine), Game.replay(theirs)
        assert list(a.totals) == mine["totals"] and list(b.totals) == theirs["totals"]
    assert sorted(set(seats)) == [0, 1, 2]  # the bot sat in every seat


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return [str(value.dtype), value.shape, value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _match(backend: str, jobs: int) -> tuple[DuplicateReport, list[str], int]:
    records: list[str] = []
    done: list[int] = []
    report = duplicate_match(GreedyBot, StrongBot, [RandomBot, StrongBot], 20, seed=11,
                             jobs=jobs, rounds=[1, 2], backend=backend,  # type: ignore[arg-type]
                             progress=done.append,
                             on_record=lambda r: records.append(json.dumps(r, sort_keys=True)))
    return report, records, sum(done)


def test_same_results_with_one_or_two_jobs() -> None:
    base, records, done = _match("local", 1)
    assert done == 20 and len(records) == 40
    report, recs, done = _match("local", 2)
    assert _plain(report) == _plain(base) and recs == records and done == 20
    assert report.table() == base.table()


def test_same_results_on_ray(ray_session: Any) -> None:
    base, records, _ = _match("local", 1)
    for jobs in (1, 2):
        report, recs, done = _match("ray", jobs)
        assert _plain(report) == _plain(base), f"report differs on ray with jobs={jobs}"
        assert recs == records and done == 20


def test_report_is_frozen_pickles_and_prints() -> None:
    report = duplicate_match(GreedyBot, StrongBot, [RandomBot], 4, seed=1, rounds=[1],
                             names=["greedy", "StrongBot", "random"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.gain = 0.0  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(report))
    assert _plain(again) == _plain(report)
    text = report.table()
    lo, hi = report.gain_ci
    assert "greedy against StrongBot" in text and "field random" in text
    assert f"gain {report.gain:+.2f} points a game (95% CI {lo:+.2f}..{hi:+.2f})" in text
    assert "StrongBot (reference)" in text and "4 deals" in text


def test_names_of_partials() -> None:
    import functools

    report = duplicate_match(functools.partial(StrongBot, lookahead=1),
                             functools.partial(RandomBot), [GreedyBot], 2, seed=1, rounds=[1])
    assert (report.bot, report.reference) == ("StrongBot", "RandomBot")


def test_errors() -> None:
    with pytest.raises(ValueError, match="field must hold 1 or more entrants"):
        duplicate_match(GreedyBot, StrongBot, [], 2, seed=1)
    with pytest.raises(TypeError, match="field must be a sequence of entrants, got type"):
        duplicate_match(GreedyBot, StrongBot, GreedyBot, 2, seed=1)
    with pytest.raises(ValueError, match="2 to 7 entrants, got 8"):
        duplicate_match(GreedyBot, StrongBot, [GreedyBot] * 7, 2, seed=1)
    with pytest.raises(TypeError, match="an entrant must be a Player class"):
        duplicate_match(GreedyBot, 3, [GreedyBot], 2, seed=1)
    with pytest.raises(ValueError, match="games must be at least 1"):
        duplicate_match(GreedyBot, StrongBot, [GreedyBot], 0, seed=1)
    with pytest.raises(ValueError, match="names has 2 entries for the bot, the reference "
                                         "and 1 in the field"):
        duplicate_match(GreedyBot, StrongBot, [GreedyBot], 2, seed=1, names=["a", "b"])
    with pytest.raises(ValueError, match=r"same shape .* got \(2, 3\) and \(2, 2\)"):
        paired_gains(np.zeros((2, 3)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="at least 2 entrants, got shape"):
        edges(np.zeros((3, 1)))


def test_paired_gain_of_arrays() -> None:
    gain, (lo, hi) = paired_gain([[10, 20, 30], [5, 5, 5]], [[20, 20, 30], [5, 5, 8]])
    # edges: bot 15, 0; reference 5, 1.5; gains 10, -1.5
    assert gain == pytest.approx(4.25)
    half = Z95 * statistics.stdev([10.0, -1.5]) / math.sqrt(2)
    assert (lo, hi) == pytest.approx((4.25 - half, 4.25 + half))


def test_every_table_gives_win_rates_in_percent_and_intervals_on_mean_scores(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One convention: win rates in percent in every table (the API's reports and the
    command line's), mean scores with their 95% interval, the duplicate table included."""
    import re

    from conftest import run_cli
    from fivecrowns import duplicate_match
    from fivecrowns.stats import mean_interval

    match = duplicate_match(GreedyBot, StrongBot, [RandomBot], 6, seed=1, rounds=[1, 2])
    games = simulate_games([GreedyBot, RandomBot], 6, seed=1, rounds=[1, 2])
    assert match.score_ci == mean_interval(match.scores[:, 0], floor=0.0)[1]
    assert match.reference_score_ci == \
        mean_interval(match.reference_scores[:, 0], floor=0.0)[1]
    assert match.score_ci[0] <= match.mean_score <= match.score_ci[1]
    code, cli_games, _ = run_cli(capsys, "simulate", "--games", "6", "--bots", "greedy,random",
                                 "--rounds", "1-2", "--quiet")
    assert code == 0
    rate = r"\d+\.\d\d% \( *\d+\.\d\d\.\. *\d+\.\d\d%\)"
    mean = r"\d+\.\d \( *\d+\.\d\.\. *\d+\.\d\)"
    row = re.compile(rf"^\S.* +{rate} +{mean}$")
    for text, rows in ((match.table(), 2), (games.table(), 2), (cli_games, 2)):
        assert "win rate (95% CI)" in text and "mean score (95% CI)" in text
        assert len([line for line in text.splitlines() if row.match(line)]) == rows, text
    wlo, whi = match.win_ci
    slo, shi = match.score_ci
    assert (f"{100 * match.win_rate:.2f}% ({100 * wlo:6.2f}..{100 * whi:6.2f}%)"
            in match.table())
    assert f"{match.mean_score:.1f} ({slo:7.1f}..{shi:7.1f})" in match.table()
