"""``fivecrowns simulate --duplicate BOT``: the reference bot, and the match's report."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, TextIO

from ..duplicate import DuplicateReport
from ..registry import BotSpec
from ..rules import N_ROUNDS
from ._common import CommandError, parse_bots, plan_text

__all__ = ["duplicate_reference", "report_duplicate", "duplicate_summary"]


def duplicate_reference(text: str) -> BotSpec:
    """The one bot of ``--duplicate`` (a name, ``module:Class``, with options)."""
    specs = parse_bots(text, "--duplicate")
    if len(specs) != 1:
        raise CommandError(f"--duplicate takes one reference bot, got {len(specs)} in "
                           f"{text!r} (the bot under test is the first of --bots)")
    return specs[0]


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
