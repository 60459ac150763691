"""``fivecrowns simulate --duplicate BOT``: the reference bot, and the match's report."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..duplicate import DuplicateReport
from ..registry import BotSpec
from ..rules import N_ROUNDS
from ._common import CommandError, parse_bots, plan_text

__all__ = ["duplicate_reference", "report_duplicate", "duplicate_summary"]


def duplicate_reference(text: str, lineup: Sequence[BotSpec] = (),
                        default_lineup: bool = False) -> BotSpec:
    """The one bot of ``--duplicate`` (a name, ``module:Class``, with options); refused
    when it is the bot under test, ``lineup[0]``, itself: both games of every deal would be
    the same, and the gain 0."""
    specs = parse_bots(text, "--duplicate")
    if len(specs) != 1:
        raise CommandError(f"--duplicate takes one reference bot, got {len(specs)} in "
                           f"{text!r} (the bot under test is the first of --bots)")
    reference = specs[0]
    if lineup and (reference.cls, dict(reference.options)) == (lineup[0].cls,
                                                            dict(lineup[0].options)):
        where = ("the first of the default line-up" if default_lineup else
                 "the first of --bots")
        raise CommandError(
            f"--duplicate {text} is the bot under test itself ({lineup[0].label}, {where}): "
            f"both games of every deal would be the same and the gain 0; put the bot to "
            f"measure first in --bots, e.g. --bots search,strong,strong,strong --duplicate "
            f"strong")
    return reference


def uneven_seats_note(deals: int, seats: int, stream: TextIO | None = None) -> None:
    """A note on standard error when ``deals`` is no multiple of ``seats``: the bot under
    test then sits in some seats once more than in others."""
    if deals % seats:
        even = deals + seats - deals % seats
        print(f"note: {deals} deals for {seats} seats: the bot under test sits in some seats "
              f"once more than in others; a multiple of {seats} (e.g. --games {even}) "
              f"rotates it through every seat equally", file=stream or sys.stderr)


def _ci(pair: Sequence[float]) -> list[float]:
    return [float(pair[0]), float(pair[1])]


def duplicate_summary(args: argparse.Namespace, names: Sequence[object],
                      result: DuplicateReport) -> dict[str, Any]:
    """The JSON summary of a duplicate match (``--json``)."""
    return {
        "command": "simulate", "mode": "duplicate", "games": result.games,
        "players": len(names), "seed": args.seed,
        "rounds": args.rounds or list(range(1, N_ROUNDS + 1)), "decks": args.decks,
        "tie_break": args.tie_break, "lower_score_is_better": True,
        "bot": result.bot, "reference": result.reference, "field": list(result.field),
        "gain": float(result.gain), "gain_ci": _ci(result.gain_ci),
        "win_rate": float(result.win_rate), "win_ci": _ci(result.win_ci),
        "reference_win_rate": float(result.reference_win_rate),
        "reference_win_ci": _ci(result.reference_win_ci),
        "mean_score": float(result.mean_score), "score_ci": _ci(result.score_ci),
        "reference_mean_score": float(result.reference_mean_score),
        "reference_score_ci": _ci(result.reference_score_ci),
        "hit_max_turns": int(result.hit_max_turns),
    }


def report_duplicate(args: argparse.Namespace, names: Sequence[object],
                     result: DuplicateReport, out: TextIO, table_out: TextIO, *,
                     partial: bool = False) -> int:
    """Print the match's summary (JSON on ``out``, or the table on ``table_out``); a
    ``partial`` one (Ctrl-C) writes no line about the records."""
    if args.json:
        print(json.dumps(duplicate_summary(args, names, result)), file=out)
        return 0
    print(f"{result.games} deals, {len(names)} players, seed {args.seed}, rounds "
          f"{plan_text(args.rounds)}; seats rotate from deal to deal; a lower score is "
          f"better", file=table_out)
    print(result.table(), file=table_out)
    if args.out is not None and args.out != "-" and not partial:
        print(f"wrote {2 * result.games} game records to {args.out} (two per deal)",
              file=table_out)
    return 0
