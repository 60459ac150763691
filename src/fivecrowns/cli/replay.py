"""``fivecrowns replay``: a recorded game, turn by turn.

The records are the JSON lines of ``fivecrowns simulate --out``. The chosen record is first
replayed and checked move by move by the library (a record that does not replay is an
error), then played again here to show each turn: where the player drew from and the card
drawn, the discard, and each round's scores and totals.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from . import _engine
from ._common import CommandError, card_text, plan_text, rank_label, symbols_ok

__all__ = ["cmd_replay", "find_record"]


def _lines(path: str) -> Iterator[tuple[int, str]]:
    if path == "-":
        yield from enumerate(sys.stdin, start=1)
        return
    try:
        with open(path, encoding="utf-8") as f:
            yield from enumerate(f, start=1)
    except OSError as exc:
        raise CommandError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path!r} is not text (JSON lines): {exc.reason}") from None


def find_record(path: str, game: int | None, half: str | None = None) -> dict[str, Any]:
    """The JSON object of game ``game`` (its ``game`` field) in a JSON-lines file, or the
    first one when ``game`` is None; with ``half`` (``"bot"`` or ``"reference"``), the
    one of that half of a duplicate deal (the record's ``duplicate`` field), whose two
    records share their ``game``."""
    seen: list[int] = []
    halves = 0
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path}:{number}: expected a game record (a JSON object), "
                               f"got {type(data).__name__}")
        halves += "duplicate" in data
        if half is not None and data.get("duplicate") != half:
            continue
        if game is None or data.get("game") == game:
            return data
        if isinstance(data.get("game"), int):
            seen.append(data["game"])
    if half is not None and not halves:
        raise CommandError(f"--reference: {path!r} holds no duplicate match (its records "
                           f"are not from `fivecrowns simulate --duplicate`)")
    if game is None:
        raise CommandError(f"{path!r} holds no game record")
    found = f"games {min(seen)}..{max(seen)}" if seen else "no numbered games"
    raise CommandError(f"{path!r} has no record of game {game} ({found})")


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Show one recorded game turn by turn."""
    data = find_record(args.file, args.game,
                       "reference" if args.reference else None)
    record = _engine.read_record(data)  # replays and checks every move first
    symbols = symbols_ok(out) and not args.ascii
    players = data.get("players")
    n = record.n_players
    if not (isinstance(players, list) and len(players) == n):
        players = [f"player {s}" for s in range(n)]
    who = [f"seat {s} ({players[s]})" for s in range(n)]
    game = _engine.new_game(n, seed=record.seed, rules=record.rules, rounds=record.rounds,
                            first_dealer=record.first_dealer)
    number = data.get("game")
    half = {"bot": " (duplicate match: the bot's game; --reference shows the reference's)",
            "reference": " (duplicate match: the reference's game)"}.get(
                str(data.get("duplicate")), "")
    print(f"game {number if number is not None else '-'}{half}: {n} players, seed "
          f"{record.seed}, rounds {plan_text(record.rounds)} ({record.rules.decks} decks); "
          f"a lower score is better", file=out)
    for k, tokens in enumerate(record.actions):
        rnd = game.round
        if game.round_number is None:
            seats = game.tie_break_seats
            title = "Tie-break round between " + ", ".join(who[s] for s in seats)
            dealer = seats[rnd.dealer]
        else:
            title = f"Round {game.round_number}"
            dealer = rnd.dealer
        print(f"\n{title}: {rnd.hand_size} cards, {rank_label(rnd.wild)}s wild; "
              f"dealer {who[dealer]}", file=out)
        turn = ""
        for token in tokens:
            rec = _engine.apply_token(game, token)
            card = card_text(rec.card, symbols)
            if hasattr(rec, "source"):
                source = "the deck" if int(rec.source) == 0 else "the discard pile"
                again = " (the discard pile reshuffled)" if rec.reshuffled else ""
                turn = (f"  turn {rec.turn + 1:>3}  {who[rec.player]}: draws {card} from "
                        f"{source}{again}")
            else:
                out_text = " and goes out" if rec.go_out else ""
                print(f"{turn}, discards {card}{out_text}", file=out)
        result = game.results[k] if k < len(record.rounds) else None
        if result is not None:
            print("  scores  " + ", ".join(f"{who[s]} {v}" for s, v in enumerate(result.scores)),
                  file=out)
            totals = [sum(r.scores[s] for r in game.results[:k + 1]) for s in range(n)]
            print("  totals  " + ", ".join(f"{who[s]} {v}" for s, v in enumerate(totals)),
                  file=out)
    final = game.result
    assert final is not None
    winners = " and ".join(who[s] for s in final.winners)
    verb = "wins" if len(final.winners) == 1 else "share the win"
    print(f"\n{winners} {verb} with {min(final.totals)} "
          f"(totals {', '.join(map(str, final.totals))})", file=out)
    return 0
