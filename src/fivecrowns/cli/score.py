"""``fivecrowns score IN OUT --wild K``: score every hand of a file (fivecrowns.files)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from ..errors import BadRowError
from ._common import (
    CommandError,
    add_ray_options,
    check_backend,
    decks_arg,
    positive,
    progress,
    wild_arg,
)


def add_parser(command: Any) -> None:
    """Declare the ``score`` subcommand with ``command(name, **kwargs)``."""
    p = command("score", help="score the hands of a Parquet, CSV or .npy file",
                description="Read hands from IN (Parquet, CSV or .npy: a text column of "
                "hands, 56 count columns named 3C..KT and JK, or an (N, 56) uint8 array), "
                "and write OUT with the same rows and their deadwood added. The file is "
                "read in batches, so memory stays flat however large it is.",
                epilog="example: fivecrowns score hands.parquet scored.parquet --wild K "
                       "--discard")
    p.add_argument("src", metavar="IN", help="the hands (.parquet, .csv or .npy)")
    p.add_argument("dst", metavar="OUT", help="where the scored rows go (.parquet, .csv or "
                   ".npy; written to OUT.part, then renamed)")
    p.add_argument("--wild", required=True, type=_wild,
                   help="the wild rank of every hand (3..13 or J/Q/K; a number is always a "
                        "rank), or the name of a column holding each row's")
    p.add_argument("--column", help="the text column of hands (default 'hand'; without "
                   "one, the 56 count columns)")
    p.add_argument("--decks", type=decks_arg, default=2, help="2 (default) or 4")
    p.add_argument("--discard", action="store_true",
                   help="also score discard_deadwood, the deadwood after the best discard")
    p.add_argument("--skip-bad", metavar="PATH",
                   help="write bad rows (with an 'error' column) to PATH and go on; by "
                        "default the first bad row is an error naming it")
    p.add_argument("--batch-size", type=positive, default=65536,
                   help="rows per batch (65536): memory grows with it, not with the file")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="score here (default) or on Ray Data (pip install 'fivecrowns[ray]')")
    add_ray_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress report on standard error")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with the summary instead of a line")


def _wild(text: str) -> int | str:
    """``--wild``: a number is a rank, checked as ``solve --wild`` checks it; J, Q or K is a
    rank too; any other text names a column (score_file says so if there is no such one)."""
    if text.strip().lstrip("+-").isdigit():
        return wild_arg(text)
    try:
        return wild_arg(text)
    except argparse.ArgumentTypeError:
        return text


def _check_paths(src: str, dst: str, skip: str | None) -> None:
    """The checks score_file makes of its paths, in the command's words: IN, OUT and
    ``--skip-bad`` (the library's name them ``src``, ``dst`` and ``skip_bad``)."""
    from ..files import FORMATS

    named = [("IN", src), ("OUT", dst)] + ([("--skip-bad", skip)] if skip is not None else [])
    for name, path in named:
        if Path(path).suffix.lower() not in FORMATS:
            raise CommandError(f"{name} {path!r} must end in .parquet, .csv or .npy")
    if skip is not None and Path(skip).suffix.lower() == ".npy":
        raise CommandError(f"--skip-bad {skip!r} must be a .parquet or .csv file (it keeps "
                           f"the bad rows with an 'error' column), not .npy")
    where = [(name, Path(text).resolve()) for name, text in named]
    for i, (name, here) in enumerate(where):
        for other, there in where[:i]:
            if here == there:
                raise CommandError(f"{other} and {name} are the same file ({str(here)!r}): "
                                   f"give {name} a file of its own")


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``fivecrowns score``."""
    check_backend(args.backend, args.ray_address, args.ray_timeout)
    _check_paths(args.src, args.dst, args.skip_bad)
    if args.column is not None and Path(args.src).suffix.lower() == ".npy":
        raise CommandError(f"--column names a text column of hands, and a .npy input has no "
                           f"columns (it is an (N, 56) array of card counts): drop "
                           f"--column {args.column}")
    from ..files import count_rows, score_file

    try:
        total = count_rows(args.src)
        with progress(total, "score", quiet=args.quiet, unit="hand") as update:
            summary = score_file(args.src, args.dst, wild=args.wild, decks=args.decks,
                                 column=args.column, discard=args.discard,
                                 batch_size=args.batch_size, skip_bad=args.skip_bad,
                                 progress=update, backend=args.backend,
                                 ray_address=args.ray_address)
    except BadRowError as exc:  # the API's message speaks Python: say it in the CLI's words
        where = f"line {exc.line}" if exc.line is not None else f"row {exc.row + 1} (from 1)"
        raise CommandError(f"{Path(exc.path).name}: {where}: {exc.problem} (add --skip-bad "
                           f"PATH to set bad rows aside)") from None
    except ImportError as exc:  # a MissingExtraError names the extra; others, one line too
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print(json.dumps({"src": summary.src, "dst": summary.dst, "rows": summary.rows,
                          "scored": summary.scored, "skipped": summary.skipped,
                          "skip_bad": summary.skip_bad, "seconds": summary.seconds}), file=out)
    else:
        print(summary, file=out)
    return 0
