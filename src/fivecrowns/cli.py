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
``play``
    Play a game in the terminal against bots.
``bench``
    The benchmark table of ``fivecrowns.bench``.

Every error is a message on stderr and exit status 2, never a traceback.

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
import importlib
import json
import os
import re
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, NoReturn, TextIO

import numpy as np

from . import __version__
from .cards import Card, Rank, format_cards, parse_cards
from .errors import FiveCrownsError
from .rules import N_ROUNDS, Rules
from .solver import best_discard, deadwood, solve

__all__ = ["main", "build_parser"]

PROG = "fivecrowns"


class CommandError(Exception):
    """A problem with what the user asked for: reported on stderr with exit status 2."""


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _symbols_ok(stream: TextIO) -> bool:
    """True if ``stream`` can print the suit symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♣♦♥♠★".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _cards_text(cards: Sequence[Card], symbols: bool) -> str:
    return format_cards(cards, symbols=symbols)


def _card_text(card: Card, symbols: bool) -> str:
    return card.symbol if symbols else str(card)


def _rank_label(rank: int) -> str:
    return Rank(rank).label


def _wild_arg(text: str) -> int:
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


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer seed, "
                                         f"got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer seed, got {text!r}")
    return value


def _decks(text: str) -> int:
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


def _show_progress(quiet: bool, stream: TextIO) -> bool:
    if quiet:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def _progress_bar(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], object]]:
    """``update(n)`` of a tqdm bar on stderr, or a no-op when disabled or tqdm is missing."""
    if not enabled:
        yield lambda n: None
        return
    try:
        from tqdm import tqdm
    except ImportError:
        yield lambda n: None
        return
    bar = tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)
    try:
        yield bar.update
    finally:
        bar.close()


# --------------------------------------------------------------------------------------------
# solve
# --------------------------------------------------------------------------------------------


def _cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    symbols = _symbols_ok(out) and not args.ascii
    hand = parse_cards(args.hand)
    if not hand:
        raise CommandError("the hand is empty: give cards such as \"3C 4C 5C JK 9D\"")
    wild = args.wild
    if args.discard:
        if len(hand) < 2:
            raise CommandError("--discard needs a hand of at least 2 cards (n + 1 after "
                               "drawing)")
        d = best_discard(hand, wild, decks=args.decks)
        lines = [f"discard {_card_text(d.card, symbols)}", d.solution.describe(symbols=symbols)]
        if d.deadwood == 0:
            lines.append("the rest all meld: this hand can go out")
    else:
        lines = [solve(hand, wild, decks=args.decks).describe(symbols=symbols)]
    print(f"hand  {_cards_text(hand, symbols)}   (wild rank {_rank_label(wild)}, and jokers)",
          file=out)
    print("\n".join(lines), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# solitaire
# --------------------------------------------------------------------------------------------


def _cmd_solitaire(args: argparse.Namespace, out: TextIO) -> int:
    from .solitaire import Solitaire, make_strategy, solitaire_many

    rules = Rules(decks=args.decks)
    if args.show:
        player = make_strategy(args.strategy)
        deal, own = np.random.SeedSequence(args.seed).spawn(2)  # as play_solitaire does
        game = Solitaire(deal, rules)
        rng = np.random.default_rng(own)
        print(f"seed {args.seed}, strategy {args.strategy}", file=out)
        print(game.describe(symbols=_symbols_ok(out) and not args.ascii), file=out)
        while not game.is_over:
            pile, discard = player.choose(game.observation(), rng)
            print(str(game.play(pile, discard)), file=out)
        result = game.result
        print(f"{'won' if result.won else 'lost'}: {result.piles_closed} piles closed in "
              f"{result.turns} turns", file=out)
        return 0
    stats = solitaire_many(args.strategy, args.games, args.seed, jobs=args.jobs, rules=rules,
                           progress=_show_progress(args.quiet, sys.stderr))
    print(stats.describe(), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# bench
# --------------------------------------------------------------------------------------------


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    try:
        report = importlib.import_module("fivecrowns.bench").report
    except (ImportError, AttributeError):
        print(f"{PROG} bench: the benchmark module (fivecrowns.bench) is not available in "
              f"this installation; run benchmarks/ from a source checkout instead",
              file=sys.stderr)
        return 1
    print(report(quick=args.quick), file=out)
    return 0


# --------------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------------

_ENGINE_MISSING = ("the game engine (fivecrowns.game, fivecrowns.players, fivecrowns.bots) is "
                   "not available in this installation")
_BOT_NAMES = ("random", "greedy", "strong")


def _bot_factory(name: str) -> Callable[[int], Any]:
    try:
        from . import bots
    except ImportError:
        raise CommandError(_ENGINE_MISSING) from None
    classes = {"random": "RandomBot", "greedy": "GreedyBot", "strong": "StrongBot"}
    key = name.strip().lower()
    key = key[:-3] if key.endswith("bot") and key[:-3] in classes else key
    if key not in classes:
        raise CommandError(f"unknown bot {name!r}: expected one of {', '.join(_BOT_NAMES)}")
    factory: Callable[[int], Any] = getattr(bots, classes[key])
    return factory


def _parse_bots(text: str | None, players: int | None, default: str = "greedy") -> list[str]:
    if text is None:
        if players is None:
            raise CommandError("give --players or --bots")
        return [default] * players
    names = [b for b in re.split(r"[,\s]+", text.strip()) if b]
    if not names:
        raise CommandError("--bots needs at least one bot name, e.g. greedy,strong")
    for name in names:
        if name.lower().removesuffix("bot") not in _BOT_NAMES:
            raise CommandError(f"unknown bot {name!r} in --bots: expected names from "
                               f"{', '.join(_BOT_NAMES)}, separated by commas")
    return [n.lower().removesuffix("bot") for n in names]


def _entrant_seeds(seed: int, game: int, k: int) -> list[int]:
    state = np.random.SeedSequence([seed, 7, game]).generate_state(k, dtype=np.uint64)
    return [int(s) >> 1 for s in state]


#: The lineup ``simulate`` plays when given neither --players nor --bots.
DEFAULT_LINEUP = ("strong", "greedy", "greedy", "random")


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.bots is None and args.players is None:
        names = list(DEFAULT_LINEUP)
    else:
        names = _parse_bots(args.bots, args.players)
    rules = Rules(decks=args.decks, tie_break=args.tie_break)
    if args.players is not None and args.bots is not None and args.players != len(names):
        raise CommandError(f"--players {args.players} does not match the {len(names)} bots "
                           f"of --bots {args.bots!r}")
    if not 2 <= len(names) <= rules.max_players:
        raise CommandError(f"a game takes 2 to {rules.max_players} players with {args.decks} "
                           f"decks, got {len(names)} (one player: use `{PROG} solitaire`)")
    try:
        from .simulate import simulate_games as tournament
    except ImportError:
        raise CommandError(_ENGINE_MISSING) from None
    factories = [_bot_factory(name) for name in names]
    labels = [f"{e + 1}:{name}" for e, name in enumerate(names)]
    sink: IO[str] | None = None
    if args.out is not None:
        try:
            sink = open(args.out, "w", encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write --out {args.out!r}: {exc.strerror}") from None
    try:
        with _progress_bar(args.games, "simulate",
                           _show_progress(args.quiet, sys.stderr)) as update:
            result = tournament(
                factories, args.games, seed=args.seed, jobs=args.jobs, progress=update,
                rules=rules, rounds=args.rounds, names=labels,
                on_record=None if sink is None else
                (lambda record: sink.write(json.dumps(record) + "\n")))
    finally:
        if sink is not None:
            sink.close()
    rounds = args.rounds or list(range(1, N_ROUNDS + 1))
    consecutive = len(rounds) > 2 and rounds == list(range(rounds[0], rounds[-1] + 1))
    plan = f"{rounds[0]}-{rounds[-1]}" if consecutive else ",".join(map(str, rounds))
    print(f"{args.games} games, {len(names)} players, seed {args.seed}, rounds {plan}; "
          f"seats rotate from game to game", file=out)
    print(f"{'entrant':<12} {'win rate':>9} {'(95% CI)':>17} {'mean score':>11} "
          f"{'(95% CI)':>17}", file=out)
    for e in result.entrants:
        (wlo, whi), (mlo, mhi) = e.win_ci, e.score_ci
        print(f"{e.name:<12} {100 * e.win_rate:>8.2f}% ({100 * wlo:6.2f}..{100 * whi:6.2f}%) "
              f"{e.mean_score:>11.1f} ({mlo:7.1f}..{mhi:7.1f})", file=out)
    print("win rate: mean share of victory (a tie for the lowest total shares it)", file=out)
    if result.hit_max_turns:
        print(f"{result.hit_max_turns} round(s) were stopped by the max_turns safety limit",
              file=out)
    if args.out is not None:
        print(f"wrote {args.games} game records to {args.out}", file=out)
    return 0


# --------------------------------------------------------------------------------------------
# play
# --------------------------------------------------------------------------------------------


class _Quit(Exception):
    """The person at the terminal asked to stop."""


class _Terminal:
    """Prompts on ``out``, reads lines from ``inp``; ``q`` quits, EOF quits."""

    def __init__(self, inp: TextIO, out: TextIO, symbols: bool) -> None:
        self.inp = inp
        self.out = out
        self.symbols = symbols

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        answer = line.strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise _Quit
        return answer

    def cards(self, cards: Sequence[Card]) -> str:
        return _cards_text(cards, self.symbols)

    def card(self, card: Card) -> str:
        return _card_text(card, self.symbols)


_PLAY_HELP = """\
How to play: on your turn, draw from the deck (d, or just Enter) or take the top card of the
discard pile (p). Then discard a card: type it (5C, 10H, QS, JK; suits C D H S T) or its
number in the list, or press Enter for the suggested discard. Add "out" (e.g. "KD out") to go
out: every other card must meld. Type q to quit."""


def _hand_order(cards: Sequence[Card], wild: int) -> list[Card]:
    """Sorted by suit and rank, wilds last."""
    return sorted(cards, key=lambda c: (c.is_wild(wild), c.index))


def _human_turn(game: Any, seat: int, term: _Terminal) -> None:
    obs = game.observation(seat)
    wild = obs.wild
    hand = _hand_order(obs.hand, wild)
    top = obs.top_discard
    term.say()
    term.say(f"Your hand ({len(hand)} cards, {_rank_label(wild)}s and jokers wild): "
             f"{term.cards(hand)}")
    sol = solve(list(hand), wild, decks=obs.decks)
    for line in sol.describe(symbols=term.symbols).splitlines():
        term.say(f"    {line}")
    if obs.final_turn:
        term.say("Someone has gone out: this is your last turn.")
    top_text = term.card(top) if top is not None else "-"
    suggested = "deck"
    if top is not None:  # GreedyBot's rule: take the card if it lowers the best discard
        with_top = best_discard(list(hand) + [top], wild, decks=obs.decks).deadwood
        if with_top < sol.deadwood:
            suggested = "discard"
            term.say(f"Suggested: take {top_text} (your best discard then leaves deadwood "
                     f"{with_top}).")
    while True:
        answer = term.ask(f"Draw from the deck [d] or take {top_text} from the pile [p]? "
                          f"(Enter = {'p' if suggested == 'discard' else 'd'}) ")
        choice = answer.lower()
        if choice == "":
            source = suggested
        elif choice in ("d", "deck"):
            source = "deck"
        elif choice in ("p", "pile", "t", "take", "discard"):
            source = "discard"
        elif choice in ("h", "help", "?"):
            term.say(_PLAY_HELP)
            continue
        else:
            term.say(f"{answer!r} is not a choice: type d for the deck, p for the discard "
                     f"pile, h for help or q to quit.")
            continue
        try:
            rec = game.draw(source, player=seat)
        except (ValueError, TypeError) as exc:
            term.say(f"You cannot do that: {exc}.")
            continue
        break
    obs = game.observation(seat)
    hand = _hand_order(obs.hand, wild)
    term.say(f"You {'drew' if source == 'deck' else 'took'} {term.card(rec.card)}.")
    term.say("  ".join(f"{i + 1}:{term.card(c)}" for i, c in enumerate(hand)))
    hint = best_discard(list(hand), wild, decks=obs.decks)
    can_out = hint.deadwood == 0
    term.say(f"Suggested discard: {term.card(hint.card)} (leaves deadwood {hint.deadwood}"
             f"{', and you can go out' if can_out else ''}).")
    while True:
        answer = term.ask("Discard which card? (card or number; add 'out' to go out; "
                          "Enter = suggested) ")
        words = answer.replace("!", " out ").split()
        go_out = any(w.lower() == "out" for w in words)
        words = [w for w in words if w.lower() != "out"]
        if [w.lower() for w in words] in (["h"], ["help"], ["?"]):
            term.say(_PLAY_HELP)
            continue
        if not words:
            card = hint.card
            if not answer.strip():
                go_out = can_out and not obs.final_turn
        elif len(words) == 1 and words[0].isdigit():
            k = int(words[0])
            if not 1 <= k <= len(hand):
                term.say(f"There is no card number {k}: choose 1..{len(hand)}.")
                continue
            card = hand[k - 1]
        elif len(words) == 1:
            try:
                card = Card.parse(words[0])
            except ValueError as exc:
                term.say(f"{exc}.")
                continue
        else:
            term.say(f"{answer!r}: give one card (e.g. 9H) or its number, optionally "
                     f"followed by 'out'.")
            continue
        if card not in hand:
            term.say(f"You do not hold {term.card(card)}.")
            continue
        rest = list(hand)
        rest.remove(card)
        rest_dead = deadwood(rest, wild, decks=obs.decks)
        if go_out and rest_dead:
            term.say(f"You cannot go out discarding {term.card(card)}: the other cards leave "
                     f"deadwood {rest_dead}.")
            continue
        if not go_out and rest_dead == 0 and not obs.final_turn:
            yes = term.ask("That discard lets you go out. Go out? [Y/n] ").lower()
            go_out = yes in ("", "y", "yes")
        try:
            game.discard(card, go_out, player=seat)
        except (ValueError, TypeError) as exc:
            term.say(f"You cannot do that: {exc}.")
            continue
        term.say(f"You discard {term.card(card)}{' and go out!' if go_out else '.'}")
        return


def _bot_turn(game: Any, seat: int, bot: Any, name: str, term: _Terminal) -> None:
    obs = game.observation(seat)
    rec = game.draw(bot.choose_draw(obs), player=seat)
    took = "" if int(rec.source) == 0 else f" takes {term.card(rec.card)} from the pile,"
    drew = " draws from the deck," if not took else took
    obs = game.observation(seat)
    card, go_out = bot.choose_discard(obs)
    drec = game.discard(card, bool(go_out), player=seat)
    term.say(f"{name}{drew} discards {term.card(drec.card)}"
             f"{' and goes out!' if drec.go_out else '.'}")


def _cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    try:
        from .game import Game
    except ImportError:
        raise CommandError(_ENGINE_MISSING) from None
    rules = Rules(decks=args.decks, tie_break=args.tie_break)
    n = args.players
    if not 2 <= n <= rules.max_players:
        raise CommandError(f"a game takes 2 to {rules.max_players} players with {args.decks} "
                           f"decks, got {n} (one player: use `{PROG} solitaire`)")
    names = _parse_bots(args.bots, None) if args.bots else ["greedy"]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise CommandError(f"--bots names {len(names)} bots, but {n} players need {n - 1} "
                           f"(or give one name for all)")
    factories = [_bot_factory(b) for b in names]
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    game = Game(n, seed=seed, rules=rules, rounds=args.rounds)
    bot_seeds = _entrant_seeds(seed, 0, n)
    bots = {s: factories[s - 1](bot_seeds[s]) for s in range(1, n)}
    labels = {0: "You"} | {s: f"Player {s} ({names[s - 1]})" for s in range(1, n)}
    term = _Terminal(inp, out, _symbols_ok(out) and not args.ascii)
    term.say(f"Five Crowns: you are player 0 against {n - 1} bot(s); seed {seed} "
             f"(replay with --seed {seed}). Type h for help, q to quit.")
    shown = -1
    done = 0
    while not game.is_over:
        if game.round_index != shown:
            shown = game.round_index
            rnd = game.round
            title = (f"Round {game.round_number}" if game.round_number is not None
                     else "Tie-break round")
            term.say()
            term.say(f"=== {title}: {rnd.hand_size} cards, {_rank_label(rnd.wild)}s wild; "
                     f"dealer: {labels[rnd.dealer].split(' (')[0]} ===")
        seat = game.current_player
        if seat == 0:
            _human_turn(game, seat, term)
        else:
            _bot_turn(game, seat, bots[seat], labels[seat], term)
        if len(game.results) > done:
            done = len(game.results)
            res = game.results[-1]
            term.say()
            term.say("Round over. Scores: "
                     + ", ".join(f"{labels[s].split(' (')[0]} {res.scores[s]}"
                                 for s in range(n)))
            for s in range(n):
                hand = _hand_order(res.final_hands[s], res.wild)
                term.say(f"    {labels[s]:<22} {term.cards(hand)}")
            term.say("Totals: " + ", ".join(f"{labels[s].split(' (')[0]} {t}"
                                            for s, t in enumerate(game.totals)))
    result = game.result
    assert result is not None
    term.say()
    winners = [labels[s].split(" (")[0] for s in result.winners]
    term.say("Game over. Final totals: "
             + ", ".join(f"{labels[s].split(' (')[0]} {t}" for s, t in enumerate(result.totals)))
    verb = "win" if winners == ["You"] else ("wins" if len(winners) == 1 else "share the win")
    term.say(f"{' and '.join(winners)} {verb}!")
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of :func:`main`."""
    parser = _Parser(prog=PROG, description="Five Crowns: an exact meld solver, solitaire "
                     "and game simulators, and a terminal game against bots.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", help="best melds and deadwood of a hand",
                       description="Lay out a hand in melds with the least deadwood.",
                       epilog='example: fivecrowns solve "3C 4C 5C JK 9D" --wild 7 --discard')
    p.add_argument("hand", help='the cards, e.g. "3C 4C 5C JK 9D" (suits C D H S T or '
                   '♣♦♥♠★, JK for a joker)')
    p.add_argument("--wild", type=_wild_arg, required=True,
                   help="the wild rank, 3..13 or J/Q/K (the hand size of the round)")
    p.add_argument("--decks", type=_decks, default=2, help="2 (default) or 4 for party mode")
    p.add_argument("--discard", action="store_true",
                   help="the hand is n + 1 cards after a draw: show the best discard")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = sub.add_parser("solitaire", help="simulate solitaire with a strategy",
                       description="Play many seeded games of solitaire (RULES.md) and report "
                       "the win rate with a 95% Wilson interval. Game i is dealt from seed "
                       "SEED + i.")
    p.add_argument("--games", type=_positive, default=1000, help="games to play (1000)")
    p.add_argument("--strategy", choices=["greedy", "strong", "random"], default="greedy",
                   help="the player (greedy)")
    p.add_argument("--seed", type=_seed, default=1, help="seed of the first game (1)")
    p.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    p.add_argument("--decks", type=_decks, default=2, help="2 (default) or 4")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--show", action="store_true",
                   help="play the single game of --seed and print every turn")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = sub.add_parser("simulate", help="simulate games between bots",
                       description="Play many seeded games between bots (seats rotate) and "
                       "report each entrant's win rate and mean score with 95% intervals.")
    p.add_argument("--games", type=_positive, default=1000, help="games to play (1000)")
    p.add_argument("--players", type=_positive, help="players per game (default: one per bot)")
    p.add_argument("--bots", help="comma-separated bots, one per player: random, greedy, "
                   "strong (default: greedy for every player given --players, else "
                   f"{','.join(DEFAULT_LINEUP)})")
    p.add_argument("--seed", type=_seed, default=1, help="tournament seed (1)")
    p.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    p.add_argument("--rounds", type=parse_rounds, help="rounds to play, e.g. 1-3,11 (all 11)")
    p.add_argument("--decks", type=_decks, default=2, help="2 (default) or 4")
    p.add_argument("--tie-break", action="store_true",
                   help="players tied for the lowest total play a 6-card round (6s wild); "
                        "by default they share the victory")
    p.add_argument("--out", metavar="FILE", help="write every game record as a JSON line")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play Five Crowns against bots. You are player 0.")
    p.add_argument("--players", type=_positive, default=3, help="players, you included (3)")
    p.add_argument("--bots", help="the bots: one name for all, or one per bot "
                   "(random, greedy, strong; default greedy)")
    p.add_argument("--seed", type=_seed, help="seed of the deal (default: a random one, shown)")
    p.add_argument("--rounds", type=parse_rounds, help="rounds to play, e.g. 1-3 (all 11)")
    p.add_argument("--decks", type=_decks, default=2, help="2 (default) or 4")
    p.add_argument("--tie-break", action="store_true",
                   help="players tied for the lowest total play a 6-card round (6s wild); "
                        "by default they share the victory")
    p.add_argument("--ascii", action="store_true", help="letters instead of suit symbols")

    p = sub.add_parser("bench", help="print the benchmark table",
                       description="Time the solver and print a small table.")
    p.add_argument("--quick", action="store_true", help="a short run")
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
    if args.command is None:
        parser.print_help(out)
        return 0
    try:
        if args.command == "solve":
            return _cmd_solve(args, out)
        if args.command == "solitaire":
            return _cmd_solitaire(args, out)
        if args.command == "simulate":
            return _cmd_simulate(args, out)
        if args.command == "play":
            return _cmd_play(args, out, sys.stdin)
        if args.command == "bench":
            return _cmd_bench(args, out)
        raise CommandError(f"unknown command {args.command!r}")  # pragma: no cover
    except (CommandError, FiveCrownsError, ValueError, TypeError) as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except _Quit:
        print("Goodbye.", file=out)
        return 0
    except EOFError:
        print("\nEnd of input: goodbye.", file=out)
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return 0


if __name__ == "__main__":  # python -m fivecrowns.cli
    raise SystemExit(main())
