"""Game records: the moves and results of a game as JSON, and the action tokens they use.

A :class:`GameRecord` (from :meth:`fivecrowns.Game.record`, or ``result.record`` of
:func:`fivecrowns.play_game`) holds everything needed to play a game again:
:meth:`fivecrowns.Game.replay` replays it move by move and checks every score, so an
edited or corrupted record raises :class:`~fivecrowns.ReplayError`.

Each move is a short token (:func:`action_token`): ``deck``, ``pile``, a card such as
``5C`` for a discard, or ``5C!`` for a discard going out. A record carries the version of
its format (:data:`RECORD_FORMAT`); records of another version are refused, since the
same moves under other rules would not give the same game.

>>> action_token(0), action_token(1), action_token(60)
('deck', 'pile', '5C!')
>>> RECORD_FORMAT
2
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .actions import (
    ACTION_DISCARD,
    ACTION_DRAW_DECK,
    ACTION_DRAW_DISCARD,
    ACTION_GO_OUT,
    N_ACTIONS,
    encode_discard,
)
from .cards import Card
from .errors import CardError, ReplayError
from .rules import Rules

__all__ = ["GameRecord", "RECORD_FORMAT", "RECORD_KIND", "action_token", "action_tokens",
           "parse_token"]

#: The version of the game record format, the ``version`` field of a record. Format 2
#: (fivecrowns 0.2) scores a final turn by the hand kept after the player's own discard,
#: forbids throwing back a card just taken from the discard pile unless
#: ``rules.return_discard``, and records that rule.
RECORD_FORMAT = 2
#: The ``format`` field of every JSON game record.
RECORD_KIND = "fivecrowns-game"


def _token(action: int) -> str:
    if action == ACTION_DRAW_DECK:
        return "deck"
    if action == ACTION_DRAW_DISCARD:
        return "pile"
    if ACTION_DISCARD <= action < ACTION_GO_OUT:
        return str(Card.from_index(action - ACTION_DISCARD))
    return str(Card.from_index(action - ACTION_GO_OUT)) + "!"


_TOKENS = tuple(_token(a) for a in range(N_ACTIONS))


def action_token(action: int) -> str:
    """The text of an action in a record: ``deck``, ``pile``, ``5C`` or ``5C!`` (out).

    >>> action_token(0), action_token(1), action_token(2), action_token(58 + 55)
    ('deck', 'pile', '3C', 'JK!')
    """
    return _TOKENS[action]


def action_tokens(actions: Iterable[int]) -> tuple[str, ...]:
    """The tokens of a run of action codes (a round's, in a record), as
    :func:`action_token` gives each.

    >>> action_tokens([0, 4, 60])
    ('deck', '5C', '5C!')
    """
    return tuple(map(_TOKENS.__getitem__, actions))


def parse_token(token: str) -> int:
    """The action code of a record token (see :func:`action_token`).

    >>> parse_token("pile"), parse_token("10H!")
    (1, 87)
    """
    if not isinstance(token, str):
        raise ReplayError(f"a recorded action must be a str such as 'deck', 'pile', '5C' or "
                          f"'5C!', got {type(token).__name__} {token!r}")
    if token == "deck":
        return ACTION_DRAW_DECK
    if token == "pile":
        return ACTION_DRAW_DISCARD
    out = token.endswith("!")
    try:
        card = Card.parse(token[:-1] if out else token)
    except CardError:
        raise ReplayError(f"cannot read recorded action {token!r}: expected 'deck', 'pile', "
                          f"a card such as '5C', or a card and '!' for going out") from None
    return encode_discard(card, go_out=out)


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game, and the results to check it against.

    Attributes
    ----------
    n_players, seed : int
    rules : Rules
    rounds : tuple of int
        The round numbers played, in order.
    first_dealer : int
        Dealer of the first round; the deal passes left (``+1``) each round.
    actions : tuple of tuple of str
        The action tokens of each round (see :func:`action_token`); after the rounds, the
        tie-break round's when one was played.
    round_scores : tuple of tuple of int
        Each round's scores by seat (the tie-break round's not included).
    totals, winners : tuple of int
    tie_break_seats : tuple of int
        The seats that played a tie-break round (empty if none).
    """

    n_players: int
    seed: int
    rules: Rules
    rounds: tuple[int, ...]
    first_dealer: int
    actions: tuple[tuple[str, ...], ...]
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break_seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "format": RECORD_KIND,
            "version": RECORD_FORMAT,
            "n_players": self.n_players,
            "seed": self.seed,
            "rules": {"decks": self.rules.decks, "max_turns": self.rules.max_turns,
                      "tie_break": self.rules.tie_break,
                      "return_discard": self.rules.return_discard},
            "rounds": list(self.rounds),
            "first_dealer": self.first_dealer,
            "actions": [" ".join(a) for a in self.actions],
            "round_scores": [list(s) for s in self.round_scores],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "tie_break_seats": list(self.tie_break_seats),
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text.

        >>> from fivecrowns.players import play_game
        >>> from fivecrowns.bots import GreedyBot
        >>> rec = play_game([GreedyBot(), GreedyBot()], seed=3, rounds=[1]).record
        >>> GameRecord.from_json(rec.to_json()) == rec
        True
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record from :meth:`to_dict`'s form.

        Raises
        ------
        ReplayError
            If it is malformed, or of a format version other than :data:`RECORD_FORMAT`.
        """
        if not isinstance(data, dict):
            raise ReplayError(f"a game record must be a JSON object, got {type(data).__name__}")
        if data.get("format") != RECORD_KIND:
            raise ReplayError(f"not a fivecrowns game record: 'format' is "
                              f"{data.get('format')!r}, expected {RECORD_KIND!r}")
        if data.get("version") != RECORD_FORMAT:
            raise ReplayError(f"cannot replay a game record of format version "
                              f"{data.get('version')!r}: this fivecrowns reads format "
                              f"version {RECORD_FORMAT} only (the rules changed between "
                              f"versions, so the same moves would not give the same game)")

        def field(name: str, kind: type) -> Any:
            if name not in data:
                raise ReplayError(f"the game record has no {name!r} field")
            value = data[name]
            if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
                raise ReplayError(f"the game record's {name!r} must be a {kind.__name__}, "
                                  f"got {type(value).__name__} {value!r}")
            return value

        def int_list(name: str) -> tuple[int, ...]:
            value = field(name, list)
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise ReplayError(f"the game record's {name!r} must be a list of ints, "
                                  f"got {value!r}")
            return tuple(value)

        rules_data = field("rules", dict)
        try:
            rules = Rules(**rules_data)
        except (TypeError, ValueError) as exc:
            raise ReplayError(f"the game record's rules {rules_data!r} are invalid: {exc}") \
                from None
        actions = field("actions", list)
        if not all(isinstance(a, str) for a in actions):
            raise ReplayError("the game record's 'actions' must be a list of strings, one "
                              "per round")
        scores = field("round_scores", list)
        if not all(isinstance(s, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in s) for s in scores):
            raise ReplayError("the game record's 'round_scores' must be a list of lists of "
                              "ints")
        return cls(
            n_players=field("n_players", int), seed=field("seed", int), rules=rules,
            rounds=int_list("rounds"), first_dealer=field("first_dealer", int),
            actions=tuple(tuple(a.split()) for a in actions),
            round_scores=tuple(tuple(s) for s in scores), totals=int_list("totals"),
            winners=int_list("winners"), tie_break_seats=int_list("tie_break_seats"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record from JSON text; raises ReplayError if it is malformed."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise ReplayError(f"the game record is not valid JSON: {exc}") from None
        return cls.from_dict(data)
