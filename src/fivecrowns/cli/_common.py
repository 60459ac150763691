"""What the commands share: argument types, errors, bot names, progress reports."""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from .. import registry
from .._optional import require
from ..cards import Card, Rank, format_cards
from ..rules import N_ROUNDS

PROG = "fivecrowns"

#: Seconds between two plain progress lines when standard error is not a terminal.
PROGRESS_INTERVAL = 5.0


class CommandError(Exception):
    """A problem with what the user asked for: reported on stderr with exit status 2."""


# --------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------


def symbols_ok(stream: TextIO) -> bool:
    """True if ``stream`` can print the suit symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♣♦♥♠★".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def cards_text(cards: Sequence[Card], symbols: bool) -> str:
    return format_cards(cards, symbols=symbols)


def card_text(card: Card, symbols: bool) -> str:
    return card.symbol if symbols else str(card)


def rank_label(rank: int) -> str:
    return Rank(rank).label


def hand_order(cards: Sequence[Card], wild: int) -> list[Card]:
    """Sorted by suit and rank, wilds last."""
    return sorted(cards, key=lambda c: (c.is_wild(wild), c.index))


# --------------------------------------------------------------------------------------------
# Argument types
# --------------------------------------------------------------------------------------------


def wild_arg(text: str) -> int:
    """``--wild``: a rank 3..13, or J, Q, K."""
    code = text.strip().upper()
    named = {"J": 11, "Q": 12, "K": 13}
    if code in named:
        return named[code]
    try:
        value = int(code)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a wild rank 3..13 (or J, Q, K), got {text!r}") from None
    if not 3 <= value <= 13:
        raise argparse.ArgumentTypeError(f"expected a wild rank 3..13 (or J, Q, K), got {text!r}")
    return value


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, "
                                         f"got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def seed_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer seed, "
                                         f"got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer seed, got {text!r}")
    return value


def decks_arg(text: str) -> int:
    if text.strip() not in ("2", "4"):
        raise argparse.ArgumentTypeError(f"expected 2 decks (standard) or 4 (party mode), "
                                         f"got {text!r}")
    return int(text)


def parse_rounds(text: str) -> list[int]:
    """``--rounds``: round numbers 1..11 as ``1,2,5`` or ranges ``1-3,9``.

    >>> parse_rounds("1-3,9")
    [1, 2, 3, 9]
    """
    out: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if m is None:
            raise argparse.ArgumentTypeError(
                f"expected round numbers 1..{N_ROUNDS} such as '1,2,5' or '1-3', got {text!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if not 1 <= lo <= hi <= N_ROUNDS:
            raise argparse.ArgumentTypeError(
                f"round numbers must be 1..{N_ROUNDS} (ranges ascending), got {part!r}")
        out.extend(range(lo, hi + 1))
    if not out:
        raise argparse.ArgumentTypeError("expected at least one round number")
    return out


def plan_text(rounds: Sequence[int] | None) -> str:
    """The rounds of a game as text: ``1-11``, ``1,2`` or ``3,5,9``.

    >>> plan_text(None), plan_text([1, 2]), plan_text([4, 5, 6]), plan_text([3, 5, 9])
    ('1-11', '1,2', '4-6', '3,5,9')
    """
    plan = list(range(1, N_ROUNDS + 1)) if rounds is None else list(rounds)
    consecutive = len(plan) > 2 and plan == list(range(plan[0], plan[-1] + 1))
    return f"{plan[0]}-{plan[-1]}" if consecutive else ",".join(map(str, plan))


def seconds(text: str) -> float:
    """A positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") \
            from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def add_ray_options(p: argparse.ArgumentParser) -> None:
    """``--ray-address`` and ``--ray-timeout`` (``--backend`` is the command's own)."""
    from ..distributed import RAY_CONNECT_TIMEOUT

    p.add_argument("--ray-address", metavar="ADDR",
                   help="the Ray cluster to join (with --backend ray; default: a local one)")
    p.add_argument("--ray-timeout", metavar="SECONDS", type=seconds, default=None,
                   help=f"give up on a Ray cluster whose address does not answer within "
                        f"SECONDS ({RAY_CONNECT_TIMEOUT:g})")


def check_backend(backend: str, ray_address: str | None,
                  ray_timeout: float | None = None) -> None:
    """``--backend``/``--ray-address``/``--ray-timeout``: the address and timeout only with
    Ray, Ray installed, and the cluster's address answering within the timeout (Ray itself
    would retry an unreachable one for many minutes)."""
    for flag, value in (("--ray-address", ray_address), ("--ray-timeout", ray_timeout)):
        if value is not None and backend != "ray":
            raise CommandError(f"{flag} needs --backend ray")
    if backend == "ray":  # looked for only: importing Ray takes seconds
        require("ray", "ray", "--backend ray", load=False)
        from ..distributed import RAY_CONNECT_TIMEOUT, check_reachable

        try:
            check_reachable(ray_address, timeout=ray_timeout or RAY_CONNECT_TIMEOUT)
        except ConnectionError as exc:
            hint = " (--ray-timeout sets how long to wait)" if "no answer" in str(exc) else ""
            raise CommandError(f"{exc}{hint}") from None


# --------------------------------------------------------------------------------------------
# Bots
# --------------------------------------------------------------------------------------------

def bot_names() -> tuple[str, ...]:
    """The registered bots' names (:func:`fivecrowns.registry.bot_names`)."""
    return registry.bot_names()


def bot_factory(spec: str) -> registry.BotFactory:
    """The factory of a ``--bots`` entry: a registered name or ``module:Class``, with
    options (:func:`fivecrowns.registry.parse_bot`)."""
    return registry.parse_bot(spec).factory()


def parse_bots(text: str, option: str = "--bots") -> list[registry.BotSpec]:
    """The entries of ``--bots``, separated by commas (or spaces), each parsed by
    :func:`fivecrowns.registry.parse_bot` (a name, ``module:Class``, options after
    ``:``)."""
    entries = text.split(",")
    names = [b for entry in entries for b in entry.split()]
    if not names:
        raise CommandError(f"{option} needs at least one bot, e.g. greedy,strong (names: "
                           f"{', '.join(bot_names())}, or module:Class)")
    empty = [i for i, entry in enumerate(entries, start=1) if not entry.strip()]
    if empty:  # 'strong,,greedy' would quietly seat one player fewer
        raise CommandError(f"{option} {text!r}: entry {empty[0]} of {len(entries)} is empty "
                           f"(two commas in a row, or one at an end): name one bot for every "
                           f"seat")
    specs = []
    for name in names:
        try:
            specs.append(registry.parse_bot(name))
        except ValueError as exc:
            raise CommandError(f"{option}: {exc}") from None
    return specs


# --------------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------------


class _Lines:
    """Progress as a plain line on ``stream`` at most every ``interval`` seconds."""

    def __init__(self, total: int | None, label: str, unit: str, stream: TextIO, interval: float,
                 clock: Callable[[], float]) -> None:
        self.total, self.label, self.unit = total, label, unit
        self.stream, self.interval, self.clock = stream, interval, clock
        self.done = 0
        self.start = self.last = clock()
        self.shown = -1

    def line(self, now: float) -> None:
        if self.total is None:  # a total nobody knows in advance (a CSV file's rows)
            done = f"{self.done} {self.unit}s"
        else:
            share = 100 * self.done // self.total if self.total else 100
            done = f"{self.done}/{self.total} {self.unit}s ({share}%)"
        print(f"{self.label}: {done}, {now - self.start:.1f} s", file=self.stream, flush=True)
        self.last = now
        self.shown = self.done

    def update(self, n: int) -> None:
        self.done += n
        now = self.clock()
        if now - self.last >= self.interval:
            self.line(now)

    def close(self) -> None:
        if 0 <= self.shown != self.done:  # a run long enough to report ends with a line
            self.line(self.clock())


@contextmanager
def progress(total: int | None, label: str, *, quiet: bool, unit: str = "game",
             stream: TextIO | None = None, interval: float | None = None,
             clock: Callable[[], float] = time.monotonic) -> Iterator[Callable[[int], object]]:
    """``update(n)`` reporting progress on ``stream`` (standard error).

    A tqdm bar when the stream is a terminal; otherwise a plain line at most every
    ``interval`` seconds (:data:`PROGRESS_INTERVAL`), and a last one at the end if any was
    printed; nothing when ``quiet``. ``total`` is ``None`` when it is not known in advance.
    """
    stream = sys.stderr if stream is None else stream
    if quiet:
        yield lambda n: None
        return
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        from tqdm import tqdm

        bar = tqdm(total=total, desc=label, unit=unit, file=stream, leave=False)
        try:
            yield bar.update
        finally:
            bar.close()
        return
    lines = _Lines(total, label, unit, stream,
                   PROGRESS_INTERVAL if interval is None else interval, clock)
    try:
        yield lines.update
    finally:
        lines.close()
