"""``fivecrowns play``: a game in the terminal against bots."""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Sequence
from typing import Any, TextIO

from ..bots import GreedyBot
from ..cards import Card
from ..errors import BotError
from ..game import Game
from ..registry import describe_bots
from ..rules import Rules
from ..seeding import play_seeds
from ..solver import best_discard, deadwood, solve
from . import _engine
from ._common import (
    PROG,
    CommandError,
    card_text,
    cards_text,
    hand_order,
    parse_bots,
    rank_label,
    symbols_ok,
)

__all__ = ["Quit", "cmd_play", "dealer_seat"]


class Quit(Exception):
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
            raise Quit
        return answer

    def cards(self, cards: Sequence[Card]) -> str:
        return cards_text(cards, self.symbols)

    def card(self, card: Card) -> str:
        return card_text(card, self.symbols)


_PLAY_HELP = """\
How to play: on your turn, draw from the deck (d) or take the top card of the discard pile
(p); just Enter does what the "Suggested" line says (the prompt shows its letter). Then
discard a card: type it (5C, 10H, QS, JK; suits C D H S T) or its
number in the list, or press Enter for the suggested discard. Add "out" (e.g. "KD out") to go
out: every other card must meld. Type q to quit."""


def dealer_seat(game: Game) -> int:
    """The seat of the current round's dealer.

    A tie-break round numbers its players 0.. in ``game.tie_break_seats`` order, so its
    dealer is a local number, not a seat.
    """
    dealer = game.round.dealer
    if game.round_number is None and game.tie_break_seats:
        return game.tie_break_seats[dealer]
    return dealer


def _human_turn(game: Any, seat: int, term: _Terminal) -> None:
    obs = game.observation(seat)
    wild = obs.wild
    hand = hand_order(obs.hand, wild)
    top = obs.top_discard
    term.say()
    term.say(f"Your hand ({len(hand)} cards, {rank_label(wild)}s and jokers wild): "
             f"{term.cards(hand)}")
    sol = solve(list(hand), wild, decks=obs.decks)
    for line in sol.describe(symbols=term.symbols).splitlines():
        term.say(f"    {line}")
    if obs.final_turn:
        term.say("Someone has gone out: this is your last turn.")
    top_text = term.card(top) if top is not None else "-"
    suggested = "deck"
    if top is None:
        term.say("Suggested: draw from the deck (the discard pile is empty).")
    else:  # GreedyBot's rule: take the card if it lowers the best discard
        with_top = best_discard(list(hand) + [top], wild, decks=obs.decks).deadwood
        if with_top < sol.deadwood:
            suggested = "discard"
            term.say(f"Suggested: take {top_text} (your best discard then leaves deadwood "
                     f"{with_top}).")
        else:
            term.say(f"Suggested: draw from the deck ({top_text} would leave deadwood "
                     f"{with_top} after your best discard, no better than {sol.deadwood} "
                     f"now).")
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
    hand = hand_order(obs.hand, wild)
    term.say(f"You {'drew' if source == 'deck' else 'took'} {term.card(rec.card)}.")
    term.say("  ".join(f"{i + 1}:{term.card(c)}" for i, c in enumerate(hand)))
    # GreedyBot's discard: the best allowed one, never the card just taken from the pile
    hint, _ = GreedyBot().choose_discard(obs)
    rest = list(hand)
    rest.remove(hint)
    hint_dead = deadwood(rest, wild, decks=obs.decks)
    can_out = hint_dead == 0
    term.say(f"Suggested discard: {term.card(hint)} (leaves deadwood {hint_dead}"
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
            card = hint
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
            game.discard(card, go_out=go_out, player=seat)
        except (ValueError, TypeError) as exc:
            term.say(f"You cannot do that: {exc}.")
            continue
        term.say(f"You discard {term.card(card)}{' and go out!' if go_out else '.'}")
        return


def _ask_bot(name: str, method: Any, obs: Any) -> Any:
    try:
        return method(obs)
    except Exception as exc:  # a user's bot may fail in any way
        raise BotError(f"{name}: {method.__name__} raised {type(exc).__name__}: {exc}") \
            from exc


def _bot_turn(game: Any, seat: int, bot: Any, name: str, term: _Terminal) -> None:
    obs = game.observation(seat)
    rec = game.draw(_ask_bot(name, bot.choose_draw, obs), player=seat)
    took = "" if int(rec.source) == 0 else f" takes {term.card(rec.card)} from the pile,"
    drew = " draws from the deck," if not took else took
    obs = game.observation(seat)
    card, go_out = _ask_bot(name, bot.choose_discard, obs)
    drec = game.discard(card, go_out=bool(go_out), player=seat)
    term.say(f"{name}{drew} discards {term.card(drec.card)}"
             f"{' and goes out!' if drec.go_out else '.'}")


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Play a game at the terminal: the person is seat 0, bots hold the others."""
    if args.list_bots:
        out.write(describe_bots() + "\n")
        return 0
    rules = Rules(decks=args.decks, tie_break=args.tie_break)
    n = args.players
    if not 2 <= n <= rules.max_players:
        raise CommandError(f"a game takes 2 to {rules.max_players} players with {args.decks} "
                           f"decks, got {n} (one player: use `{PROG} solitaire`)")
    names = parse_bots(args.bots or "greedy")
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise CommandError(f"--bots names {len(names)} bots, but {n} players need {n - 1} "
                           f"(or give one name for all)")
    factories = [spec.factory() for spec in names]
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    game = _engine.new_game(n, seed=seed, rules=rules, rounds=args.rounds)
    bot_seeds = play_seeds(seed, 0, n)
    bots = {s: factories[s - 1](bot_seeds[s]) for s in range(1, n)}
    short = {0: "You"} | {s: f"Player {s}" for s in range(1, n)}
    labels = {0: "You"} | {s: f"Player {s} ({names[s - 1].label})" for s in range(1, n)}
    term = _Terminal(inp, out, symbols_ok(out) and not args.ascii)
    term.say(f"Five Crowns: you are player 0 against {n - 1} bot(s); seed {seed} "
             f"(replay with --seed {seed}). Type h for help, q to quit.")
    shown = -1
    done = 0
    while not game.is_over:
        if game.round_index != shown:  # a new round (the tie-break counts after the last)
            shown = game.round_index
            if game.round_number is None:
                title = ("Tie-break round between "
                         + " and ".join(short[s] for s in game.tie_break_seats))
            else:
                title = f"Round {game.round_number}"
            rnd = game.round
            term.say()
            term.say(f"=== {title}: {rnd.hand_size} cards, {rank_label(rnd.wild)}s wild; "
                     f"dealer: {short[dealer_seat(game)]} ===")
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
                     + ", ".join(f"{short[s]} {res.scores[s]}" for s in range(n)))
            for s in range(n):
                hand = hand_order(res.final_hands[s], res.wild)
                term.say(f"    {labels[s]:<22} {term.cards(hand)}")
            term.say("Totals: " + ", ".join(f"{short[s]} {t}"
                                            for s, t in enumerate(game.totals)))
    result = game.result
    assert result is not None
    term.say()
    winners = [short[s] for s in result.winners]
    term.say("Game over. Final totals: "
             + ", ".join(f"{short[s]} {t}" for s, t in enumerate(result.totals)))
    verb = "win" if winners == ["You"] else ("wins" if len(winners) == 1 else "share the win")
    term.say(f"{' and '.join(winners)} {verb}!")
    return 0
