"""fivecrowns: an exact, fast Five Crowns solver and simulator.

The rules are those of docs/rules.rst. The solver finds the least deadwood of
any hand exactly; the simulators play rounds, games and solitaire with bots.

>>> import fivecrowns as fc
>>> fc.solve("5C 6C 7C 9D 9H 9S KH", wild=13).deadwood
0
"""

from __future__ import annotations

from ._version import VERSION
from .actions import N_ACTIONS, Source, decode_action, encode_discard, encode_draw
from .bots import GreedyBot, RandomBot, StrongBot
from .cards import (
    JOKER_INDEX,
    N_TYPES,
    Card,
    CardLike,
    HandLike,
    Rank,
    Suit,
    card_value,
    format_cards,
    from_counts,
    parse_cards,
)
from .dealing import random_hands
from .deck import Deck
from .duplicate import DuplicateReport
from .errors import (
    BadRowError,
    BotError,
    CardError,
    FiveCrownsError,
    GameInUseError,
    HandError,
    IllegalMoveError,
    Interrupted,
    MissingExtraError,
    ReplayError,
)
from .expert import ExpertBot
from .game import Game, GameResult
from .learned import LearnedBot
from .melds import Discard, Meld, MeldKind, Solution
from .players import Player, play_game, player_action
from .records import (
    DiscardRecord,
    DrawRecord,
    Event,
    EventKind,
    Observation,
    Phase,
    RoundResult,
)
from .replay import GameRecord
from .rollout import deal_rounds, play_games, play_out
from .round import Round
from .rules import N_ROUNDS, Rules
from .search import SearchBot
from .simulate import EntrantReport, GamesReport, duplicate_match, simulate_games
from .solitaire import (
    GreedySolitaire,
    PlannerSolitaire,
    PlayRecord,
    RandomSolitaire,
    Solitaire,
    SolitaireObservation,
    SolitaireReport,
    SolitaireResult,
    SolitaireStrategy,
    StrongSolitaire,
    play_solitaire,
    simulate_solitaire,
)
from .solver import (
    IMPLEMENTATION,
    MAX_HAND_SIZE,
    best_discard,
    can_go_out,
    deadwood,
    deadwood_many,
    discard_deadwood,
    discard_deadwood_many,
    draw_table,
    hand_counts,
    solve,
)

__version__ = VERSION

__all__ = [
    "__version__",
    "IMPLEMENTATION",
    # cards
    "Suit",
    "Rank",
    "Card",
    "CardLike",
    "HandLike",
    "N_TYPES",
    "JOKER_INDEX",
    "parse_cards",
    "format_cards",
    "from_counts",
    "card_value",
    # errors
    "FiveCrownsError",
    "CardError",
    "HandError",
    "IllegalMoveError",
    "GameInUseError",
    "ReplayError",
    "BotError",
    "MissingExtraError",
    "BadRowError",
    "Interrupted",
    # rules
    "Rules",
    "N_ROUNDS",
    # solver
    "Meld",
    "MeldKind",
    "Solution",
    "Discard",
    "MAX_HAND_SIZE",
    "solve",
    "deadwood",
    "best_discard",
    "can_go_out",
    "draw_table",
    "discard_deadwood",
    "deadwood_many",
    "discard_deadwood_many",
    "hand_counts",
    "random_hands",
    # deck, rounds and games
    "Deck",
    "Round",
    "RoundResult",
    "Observation",
    "Phase",
    "Source",
    "Event",
    "EventKind",
    "DrawRecord",
    "DiscardRecord",
    "N_ACTIONS",
    "encode_draw",
    "encode_discard",
    "decode_action",
    "Game",
    "GameResult",
    "GameRecord",
    # players and bots
    "Player",
    "play_game",
    "player_action",
    "simulate_games",
    "duplicate_match",
    "DuplicateReport",
    "GamesReport",
    "EntrantReport",
    "RandomBot",
    "GreedyBot",
    "StrongBot",
    "ExpertBot",
    "LearnedBot",
    "SearchBot",
    # rollouts in C
    "play_out",
    "play_games",
    "deal_rounds",
    # solitaire
    "Solitaire",
    "PlayRecord",
    "SolitaireResult",
    "SolitaireObservation",
    "SolitaireStrategy",
    "SolitaireReport",
    "RandomSolitaire",
    "GreedySolitaire",
    "StrongSolitaire",
    "PlannerSolitaire",
    "play_solitaire",
    "simulate_solitaire",
]

