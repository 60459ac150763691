"""The ``fivecrowns`` command line.

Subcommands:

``solve``
    Best melds of a hand, drawn with card symbols, and its deadwood; ``--discard`` shows
    the best discard of a hand of n + 1 cards.
``solitaire``
    Simulate many games of solitaire with a strategy; win rate with a 95% interval.
``simulate``
    Simulate many games between bots; win rates and mean scores with 95% intervals,
    optionally every game record as JSON lines.
``replay``
    Show a recorded game turn by turn, from the JSON lines of ``simulate --out``.
``score``
    Score every hand of a Parquet, CSV or ``.npy`` file into another file.
``play``
    Play a game in the terminal against bots.
``bench``
    The benchmark table of ``fivecrowns.bench``.

Results go to standard output; progress, warnings and errors to standard error. Every
error is a one-line message on stderr and exit status 2, never a traceback.

Examples
--------
>>> from fivecrowns.cli import main
>>> main(["solve", "5C 6C 7C 9D 9H 9S KH", "--wild", "12", "--ascii"])
hand  5C 6C 7C 9D 9H 9S KH   (wild rank Q, and jokers)
run   5C 6C 7C
book  9D 9H 9S
left  KH
deadwood 13
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any, NoReturn, TextIO

from ..cards import parse_cards
from ..duplicate import DuplicateReport
from ..errors import BotError, FiveCrownsError, Interrupted
from ..registry import BotSpec, describe_bots
from ..rules import N_ROUNDS, Rules
from ..runner import TooManyGames
from ..solitaire import STRATEGIES
from ..solver import best_discard, solve
from . import _common, _engine
from ._common import (
    PROG,
    CommandError,
    bot_names,
    card_text,
    cards_text,
    check_backend,
    decks_arg,
    non_negative,
    parse_bots,
    parse_rounds,
    plan_text,
    positive,
    rank_label,
    seed_arg,
    symbols_ok,
    wild_arg,
)
from .duplicate import (
    duplicate_reference,
    duplicate_summary,
    report_duplicate,
    uneven_seats_note,
)

__all__ = ["main", "build_parser", "parse_rounds"]


def _version() -> str:
    try:
        return version("fivecrowns")
    except PackageNotFoundError:  # a source tree on the path, not installed
        return "unknown"


# --------------------------------------------------------------------------------------------
# solve
# --------------------------------------------------------------------------------------------


def _cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    symbols = symbols_ok(out) and not args.ascii
    hand = parse_cards(" ".join(args.hand))
    if not hand:
        raise CommandError("the hand is empty: give cards such as \"3C 4C 5C JK 9D\"")
    wild = args.wild
    if args.discard:
        if len(hand) < 2:
            raise CommandError("--discard needs a hand of at least 2 cards (n + 1 after "
                               "drawing)")
        d = best_discard(hand, wild, decks=args.decks)
        lines = [f"discard {card_text(d.card, symbols)}", d.solution.describe(symbols=symbols)]
        if d.deadwood == 0:
            lines.append("the rest all meld: this hand can go out")
    else:
        lines = [solve(hand, wild, decks=args.decks).describe(symbols=symbols)]
    print(f"hand  {cards_text(hand, symbols)}   (wild rank {rank_label(wild)}, and jokers)",
          file=out)
    print("\n".join(lines), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# solitaire
# --------------------------------------------------------------------------------------------


def _ci(pair: Sequence[float]) -> list[float]:
    return [float(pair[0]), float(pair[1])]


def _solitaire_summary(args: argparse.Namespace, stats: Any) -> dict[str, Any]:
    results = stats.results
    return {
        "command": "solitaire", "strategy": args.strategy, "games": int(stats.games),
        "seed": args.seed, "decks": args.decks, "wins": int(sum(r.won for r in results)),
        "win_rate": float(stats.win_rate), "win_ci": _ci(stats.win_ci),
        "mean_piles_closed": float(stats.mean_piles_closed),
        "piles_closed_ci": _ci(stats.piles_closed_ci),
        "mean_turns": float(stats.mean_turns), "turns_ci": _ci(stats.turns_ci),
    }


def _solitaire_table(s: dict[str, Any]) -> str:
    (lo, hi), (plo, phi), (tlo, thi) = s["win_ci"], s["piles_closed_ci"], s["turns_ci"]
    return "\n".join([
        f"strategy      {s['strategy']}",
        f"games         {s['games']} (seed {s['seed']})",
        f"wins          {s['wins']}",
        f"win rate      {100 * s['win_rate']:.2f}%  (95% CI {100 * lo:.2f}% .. {100 * hi:.2f}%)",
        f"piles closed  {s['mean_piles_closed']:.3f} mean  (95% CI {plo:.3f} .. {phi:.3f})",
        f"turns         {s['mean_turns']:.2f} mean  (95% CI {tlo:.2f} .. {thi:.2f})",
    ])


def _cmd_solitaire(args: argparse.Namespace, out: TextIO) -> int:
    check_backend(args.backend, args.ray_address, args.ray_timeout)
    rules = Rules(decks=args.decks)
    if args.show:
        if args.json:
            raise CommandError("--json summarises many games; --show prints one")
        from ..solitaire import make_strategy

        player = make_strategy(args.strategy)
        game, rng = _engine.new_solitaire(args.seed, rules)
        print(f"seed {args.seed}, strategy {args.strategy}", file=out)
        print(game.describe(symbols=symbols_ok(out) and not args.ascii), file=out)
        while not game.is_over:
            pile, discard = player.choose(game.observation(), rng)
            print(str(game.play(pile, discard)), file=out)
        result = game.result
        print(f"{'won' if result.won else 'lost'}: {result.piles_closed} piles closed in "
              f"{result.turns} turns", file=out)
        return 0
    with _common.progress(args.games, f"solitaire {args.strategy}", quiet=args.quiet) as update:
        stats = _engine.run_solitaire(args.strategy, args.games, seed=args.seed, jobs=args.jobs,
                                      progress=update, rules=rules, backend=args.backend,
                                      ray_address=args.ray_address)
    summary = _solitaire_summary(args, stats)
    if args.json:
        print(json.dumps(summary), file=out)
    else:
        print(_solitaire_table(summary), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# bench
# --------------------------------------------------------------------------------------------


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        from ..bench import report_data

        data = report_data(quick=args.quick)
        print(json.dumps({"command": "bench", "quick": args.quick, "title": data["title"],
                          "rows": data["rows"]}), file=out)
        return 0
    from ..bench import report

    print(report(quick=args.quick), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------------

#: The lineup ``simulate`` plays when given neither --players nor --bots.
DEFAULT_LINEUP = ("strong", "greedy", "greedy", "random")


class _RecordSink:
    """Writes game records as JSON lines to ``--out``; a failed write is a CommandError.

    A regular file is written as ``FILE.part`` and renamed ``FILE`` when every game is
    done, so an interrupted run never leaves a file that looks complete; its ``.part`` is
    kept (every line in it is a whole game) and named on standard error. Anything else
    (a pipe, a device) is written directly: it cannot be renamed onto.
    """

    def __init__(self, target: str) -> None:
        self.target = target
        self.lines = 0
        self.part: str | None = None
        self.stream: IO[str]
        if target == "-":
            self.stream = sys.stdout
            return
        try:
            if os.path.exists(target) and not os.path.isfile(target):
                self.stream = open(target, "w", encoding="utf-8")
                return
            if os.path.isfile(target):  # --out overwrites: an older run's file goes now
                open(target, "w").close()
            self.part = target + ".part"
            self.stream = open(self.part, "w", encoding="utf-8")
        except OSError as exc:
            raise self._error(exc) from None

    def _error(self, exc: OSError) -> CommandError:
        reason = exc.strerror or str(exc)
        return CommandError(f"cannot write --out {self.target!r}: {reason}")

    def write(self, record: dict[str, Any]) -> None:
        try:
            self.stream.write(json.dumps(record) + "\n")
            self.stream.flush()  # a full disk shows at the first game, not at the end
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._error(exc) from None
        self.lines += 1

    def close(self, done: bool) -> None:
        """Close the file; rename it ``FILE`` if the run is ``done``."""
        if self.stream is sys.stdout:
            return
        try:
            self.stream.close()
            if done and self.part is not None:
                os.replace(self.part, self.target)
        except OSError as exc:
            raise self._error(exc) from None
        if not done and self.part is not None:
            print(f"{PROG} simulate: the run did not finish: {self.lines} game record(s) kept in "
                  f"{self.part}", file=sys.stderr)


def _lineup(args: argparse.Namespace, rules: Rules) -> list[BotSpec]:
    if args.bots is None:
        names = list(DEFAULT_LINEUP) if args.players is None else ["greedy"] * args.players
        specs = parse_bots(",".join(names))
    else:
        specs = parse_bots(args.bots)
        if len(specs) == 1:  # one name fills every seat, as in `play`
            specs = specs * (len(DEFAULT_LINEUP) if args.players is None else args.players)
        elif args.players is not None and args.players != len(specs):
            raise CommandError(f"--players {args.players} does not match the {len(specs)} "
                               f"bots of --bots {args.bots!r} (give one name for every seat, "
                               f"or one per seat)")
    if not 2 <= len(specs) <= rules.max_players:
        raise CommandError(f"a game takes 2 to {rules.max_players} players with {args.decks} "
                           f"decks, got {len(specs)} (one player: use `{PROG} solitaire`)")
    return specs


def _games_summary(args: argparse.Namespace, names: Sequence[object],
                   result: Any) -> dict[str, Any]:
    return {
        "command": "simulate", "games": args.games, "players": len(names), "seed": args.seed,
        "rounds": args.rounds or list(range(1, N_ROUNDS + 1)), "decks": args.decks,
        "tie_break": args.tie_break, "lower_score_is_better": True,
        "entrants": [{"name": e.name, "games": int(e.games), "win_rate": float(e.win_rate),
                      "win_ci": _ci(e.win_ci), "mean_score": float(e.mean_score),
                      "score_ci": _ci(e.score_ci)} for e in result.entrants],
        "hit_max_turns": int(result.hit_max_turns),
    }


def _print_games_table(args: argparse.Namespace, names: Sequence[object], result: Any,
                       out: TextIO) -> None:
    print(f"{args.games} games, {len(names)} players, seed {args.seed}, rounds "
          f"{plan_text(args.rounds)}; seats rotate from game to game; a lower score is better",
          file=out)
    print(result.table(), file=out)


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.list_bots:
        print(describe_bots(), file=out)
        return 0
    check_backend(args.backend, args.ray_address, args.ray_timeout)
    if args.out == "-" and args.json:
        raise CommandError("--out - and --json both write to standard output: choose one")
    rules = Rules(decks=args.decks, tie_break=args.tie_break)
    lineup = _lineup(args, rules)
    reference = None
    if args.duplicate is not None:
        reference = duplicate_reference(args.duplicate, lineup, args.bots is None)
        uneven_seats_note(args.games, len(lineup))
    factories = [spec.factory() for spec in lineup]
    labels = [f"{e + 1}:{spec.label}" for e, spec in enumerate(lineup)]
    # With the records on stdout, the table goes to stderr so that stdout stays JSON lines.
    table_out = sys.stderr if args.out == "-" else out
    sink = None if args.out is None else _RecordSink(args.out)
    done = False
    try:
        with _common.progress(args.games, "simulate", quiet=args.quiet,
                              unit="game" if reference is None else "deal") as update:
            result = _engine.run_games(
                factories, args.games, seed=args.seed, jobs=args.jobs, progress=update,
                rules=rules, rounds=args.rounds, names=labels,
                on_record=None if sink is None else sink.write, backend=args.backend,
                ray_address=args.ray_address,
                duplicate=None if reference is None else reference.factory())
        done = True
    except Interrupted as stop:  # Ctrl-C: the games finished are still worth their table
        if stop.partial is not None:
            _report_games(args, lineup, stop.partial, out, table_out, partial=True)
        raise
    finally:
        if sink is not None:
            sink.close(done)
    return _report_games(args, lineup, result, out, table_out)


def _report_games(args: argparse.Namespace, lineup: Sequence[BotSpec], result: Any,
                  out: TextIO, table_out: TextIO, *, partial: bool = False) -> int:
    """Print a simulation's table or JSON summary; a ``partial`` one (Ctrl-C) says so and
    counts only the games (or deals) finished."""
    duplicate = isinstance(result, DuplicateReport)
    if partial:
        finished = len(result.seeds)
        print(f"PARTIAL RESULTS: interrupted after {finished} of {args.games} "
              f"{'deals' if duplicate else 'games'}", file=sys.stderr if args.json else table_out)
        args = argparse.Namespace(**{**vars(args), "games": finished})
    if args.json:
        summary = (duplicate_summary if duplicate else _games_summary)(args, lineup, result)
        print(json.dumps({**summary, "partial": True} if partial else summary), file=out)
        return 0
    if duplicate:
        return report_duplicate(args, lineup, result, out, table_out, partial=partial)
    _print_games_table(args, lineup, result, table_out)
    if args.out is not None and args.out != "-" and not partial:
        print(f"wrote {args.games} game records to {args.out}", file=table_out)
    return 0


# --------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors say how to get help."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n"
                     f"(run `{self.prog} --help` for help)\n")


class _MainParser(_Parser):
    """The top-level parser: an option a subcommand does not know is that subcommand's
    error, with its usage (argparse would report it with the top-level usage)."""

    commands: dict[str, _Parser]

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if getattr(parsed, "command", None) == "solve":  # cards after an option: the hand's
            cards = [e for e in extras if not e.startswith("-")]
            parsed.hand += cards
            extras = [e for e in extras if e.startswith("-")]
        if extras:
            command = self.commands.get(getattr(parsed, "command", None) or "", self)
            command.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


_RULES = "docs/rules.rst"


def _run_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--jobs", type=positive, default=1, help="worker processes (1)")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help=f"run the {what} in local worker processes (default) or on a Ray "
                        f"cluster (pip install 'fivecrowns[ray]')")
    _common.add_ray_options(p)
    p.add_argument("--quiet", action="store_true",
                   help="no progress report on standard error")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with the summary instead of the table")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of :func:`main`."""
    parser = _MainParser(prog=PROG, description="Five Crowns: an exact meld solver, "
                         "solitaire and game simulators, and a terminal game against bots.")
    parser.commands = {}
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        p = sub.add_parser(name, **kwargs)
        parser.commands[name] = p
        p.add_argument("--traceback", action="store_true",
                       help="on an error, print the whole traceback instead of one line (for "
                            "authors of bots: where their code raised)")
        return p

    p = command("solve", help="best melds and deadwood of a hand",
                description="Lay out a hand in melds with the least deadwood.",
                epilog="example: fivecrowns solve 3C 4C 5C JK 9D --wild 7 --discard")
    p.add_argument("hand", nargs="+", help='the cards, e.g. 3C 4C 5C JK 9D or "3C 4C 5C JK '
                   '9D" (suits C D H S T or ♣♦♥♠★, JK for a joker)')
    p.add_argument("--wild", type=wild_arg, required=True,
                   help="the wild rank, 3..13 or J/Q/K (the hand size of the round)")
    p.add_argument("--decks", type=decks_arg, default=2, help="2 (default) or 4 for party mode")
    p.add_argument("--discard", action="store_true",
                   help="the hand is n + 1 cards after a draw: show the best discard")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = command("solitaire", help="simulate solitaire with a strategy",
                description=f"Play many seeded games of solitaire ({_RULES}, Solitaire) and "
                "report the win rate with a 95% Wilson interval. Game i is dealt from seed "
                "game_seeds(SEED, GAMES)[i] (fivecrowns.seeding), as in simulate.")
    p.add_argument("--games", type=positive, default=1000, help="games to play (1000)")
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default="greedy",
                   help="the player (greedy)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the run's seed (1)")
    p.add_argument("--decks", type=decks_arg, default=2, help="2 (default) or 4")
    _run_options(p, "games")
    p.add_argument("--show", action="store_true",
                   help="play the single game of --seed and print every turn")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = command("simulate", help="simulate games between bots",
                description="Play many seeded games between bots (seats rotate) and report "
                "each entrant's win rate and mean score (lower is better) with 95% "
                "intervals.")
    p.add_argument("--games", type=positive, default=1000, help="games to play (1000)")
    p.add_argument("--players", type=positive, help="players per game (default: one per bot)")
    p.add_argument("--bots", help=f"comma-separated bots, one per seat, or one name for "
                   f"every seat (--players of them, {len(DEFAULT_LINEUP)} by default): "
                   f"{', '.join(bot_names())}, or module:Class for a class of your own (a "
                   f"dotted module name, e.g. examples.custom_bot:WildHunter), each with "
                   f"options after colons, e.g. search:worlds=256 (see --list-bots; default: "
                   f"greedy for every player given --players, else {','.join(DEFAULT_LINEUP)})")
    p.add_argument("--duplicate", metavar="BOT",
                   help="a duplicate match: every deal is played twice, the second time with "
                        "BOT in the seat of the first bot of --bots (the bot under test); "
                        "reports its paired gain over BOT in points a game (--games counts "
                        "deals), e.g. --bots search,strong,strong,strong --duplicate strong")
    p.add_argument("--list-bots", action="store_true",
                   help="list the bots and their options, and exit")
    p.add_argument("--seed", type=seed_arg, default=1, help="simulation seed (1)")
    p.add_argument("--rounds", type=parse_rounds, help="rounds to play, e.g. 1-3,11 (all 11)")
    p.add_argument("--decks", type=decks_arg, default=2, help="2 (default) or 4")
    p.add_argument("--tie-break", action="store_true",
                   help="players tied for the lowest total play a 6-card round (6s wild); "
                        "by default they share the victory")
    p.add_argument("--out", metavar="FILE",
                   help="write every game record as a JSON line to FILE (- for standard "
                        "output; the table then goes to standard error)")
    _run_options(p, "games")

    p = command("replay", help="show a recorded game turn by turn",
                description="Replay a game recorded by `fivecrowns simulate --out FILE`, "
                "checking every move, and show it turn by turn.")
    p.add_argument("file", metavar="FILE", help="JSON lines of game records (- for "
                   "standard input)")
    p.add_argument("--game", type=non_negative, metavar="N",
                   help="the record whose 'game' number is N (default: the first)")
    p.add_argument("--reference", action="store_true",
                   help="of a duplicate match's deal, show the reference's game (default: "
                        "the bot's)")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    from .score import add_parser as add_score

    add_score(command)

    p = command("play", help="play a game in the terminal against bots",
                description="Play Five Crowns against bots. You are player 0.")
    p.add_argument("--players", type=positive, default=3, help="players, you included (3)")
    p.add_argument("--bots", help=f"the bots: one name for all, or one per bot, "
                   f"comma-separated ({', '.join(bot_names())}, or module:Class, each with "
                   f"options after colons, e.g. search:worlds=64; default greedy)")
    p.add_argument("--list-bots", action="store_true",
                   help="list the bots and their options, and exit")
    p.add_argument("--seed", type=seed_arg,
                   help="seed of the deal (default: a random one, shown)")
    p.add_argument("--rounds", type=parse_rounds, help="rounds to play, e.g. 1-3 (all 11)")
    p.add_argument("--decks", type=decks_arg, default=2, help="2 (default) or 4")
    p.add_argument("--tie-break", action="store_true",
                   help="players tied for the lowest total play a 6-card round (6s wild); "
                        "by default they share the victory")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = command("bench", help="print the benchmark table",
                description="Time the solver and print a small table.")
    p.add_argument("--quick", action="store_true", help="a short run")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with the rows instead of the table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 for any error).

    Examples
    --------
    >>> main(["solve", "3C 4C", "--wild", "20"])
    2
    """
    parser = build_parser()
    out = sys.stdout
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:  # a usage error, as argparse's own: the help, on stderr
        parser.print_help(sys.stderr)
        print(f"{PROG}: error: choose a command (run `{PROG} COMMAND --help` for its "
              f"options)", file=sys.stderr)
        return 2
    try:
        if args.command == "solve":
            return _cmd_solve(args, out)
        if args.command == "solitaire":
            return _cmd_solitaire(args, out)
        if args.command == "simulate":
            return _cmd_simulate(args, out)
        if args.command == "replay":
            from .replay import cmd_replay

            return cmd_replay(args, out)
        if args.command == "score":
            from .score import cmd_score

            return cmd_score(args, out)
        if args.command == "play":
            from .play import Quit, cmd_play

            try:
                return cmd_play(args, out, sys.stdin)
            except Quit:
                print("Goodbye.", file=out)
                return 0
        if args.command == "bench":
            return _cmd_bench(args, out)
        raise CommandError(f"unknown command {args.command!r}")  # pragma: no cover
    except (CommandError, FiveCrownsError, ValueError, TypeError) as exc:
        if args.traceback:
            traceback.print_exception(exc, file=sys.stderr)
        # a bot's own failure is its author's to debug: say how to see where it raised
        hint = " (--traceback shows where)" if isinstance(exc, BotError) and \
            not args.traceback else ""
        text = exc.message("--games") if isinstance(exc, TooManyGames) else str(exc)
        print(f"{PROG} {args.command}: error: {text}{hint}", file=sys.stderr)
        return 2
    except EOFError:
        print("\nEnd of input: goodbye.", file=out)
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
