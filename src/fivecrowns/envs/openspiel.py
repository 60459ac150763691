"""Five Crowns as an OpenSpiel game, ``"python_five_crowns"`` (needs ``fivecrowns[rl]``).

Importing this module registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("python_five_crowns", {"players": 3, "rounds": 2})`` makes one.

Parameters: ``players`` (2..7, or 14 with 4 decks; default 2), ``rounds`` (play rounds
1..``rounds``; default 11), ``decks`` (2 or 4; default 2) and ``max_turns`` (the turn
limit of one round, docs/rules.rst, A round, 6; default 1000).

The game is sequential, imperfect-information and general-sum, with **explicit chance**:
every card leaving the deck is a chance outcome. The deal (one card at a time, clockwise
from the dealer's left), the turned-up card and every blind draw are chance nodes whose
outcomes are the card types 0..55 weighted by how many of each are still unseen in the
draw pile, so determinisation, ISMCTS and sampling algorithms see the true distribution.
When the draw pile is empty, the discard pile but its top becomes the draw pile (no
chance node is needed: the next draw samples from it).

Player actions are the action codes of :mod:`fivecrowns.round` (0..113). The rules are
those of docs/rules.rst: a final turn scores the deadwood of the hand kept after the
discard, and a card just taken from the discard pile may not be discarded in the same
turn. The reward model is terminal (as OpenSpiel's MCTS requires): ``returns()`` are 0
until the game ends, then minus each player's game total; the running totals are part of
the observation.

Observation and information-state tensors are the vector of
:func:`fivecrowns.envs.encoding.encode_observation` (the same for both). The observation
string is a short public-plus-own-hand summary; the information-state string is exact:
the player's whole view of the game (public events, own cards as dealt and drawn).

Examples
--------
>>> import pyspiel
>>> import fivecrowns.envs.openspiel
>>> game = pyspiel.load_game("python_five_crowns", {"players": 2, "rounds": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 56)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from .. import solver
from ..cards import JOKER_INDEX, N_TYPES, Card
from ..round import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS, describe_action
from ..rules import DEFAULT_MAX_TURNS, Rules
from .encoding import _fill, blocks, observation_size

__all__ = ["GAME_NAME", "FiveCrownsGame", "FiveCrownsState", "resample", "make_resampler"]

#: The name the game is registered under.
GAME_NAME = "python_five_crowns"

_DEFAULTS = {"players": 2, "rounds": 11, "decks": 2, "max_turns": DEFAULT_MAX_TURNS}
_CARDS = [str(Card.from_index(t)) for t in range(N_TYPES)]

# Phases of a state.
_DEAL, _TURN_UP, _DRAW, _DRAW_CARD, _DISCARD, _OVER = range(6)
# Log entries: (kind, player, card); private kinds show the card to their player only.
_L_DEAL, _L_UP, _L_DECK, _L_BLIND, _L_TAKE, _L_DISCARD, _L_OUT, _L_RESHUFFLE, _L_ROUND = range(9)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Five Crowns (Python, fivecrowns)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=14,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def _config(params: dict[str, Any]) -> tuple[int, int, int, int]:
    n = int(params.get("players", _DEFAULTS["players"]))
    rounds = int(params.get("rounds", _DEFAULTS["rounds"]))
    decks = int(params.get("decks", _DEFAULTS["decks"]))
    max_turns = int(params.get("max_turns", _DEFAULTS["max_turns"]))
    rules = Rules(decks=decks, max_turns=max_turns)
    if not 2 <= n <= rules.max_players:
        raise ValueError(f"players must be 2..{rules.max_players} with {decks} decks, "
                         f"got {n}")
    if not 1 <= rounds <= 11:
        raise ValueError(f"rounds must be 1..11, got {rounds}")
    return n, rounds, decks, max_turns


class FiveCrownsGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(_DEFAULTS, **(params or {}))
        n, rounds, decks, max_turns = _config(params)
        sizes = [r + 2 for r in range(1, rounds + 1)]
        length = sum(n * h + 1 + 3 * max_turns + 3 * n for h in sizes)
        worst = float(sum(50 * (h + 1) for h in sizes))
        info = pyspiel.GameInfo(num_distinct_actions=N_ACTIONS, max_chance_outcomes=N_TYPES,
                                num_players=n, min_utility=-worst, max_utility=0.0,
                                utility_sum=None, max_game_length=length)
        super().__init__(_GAME_TYPE, info, params)
        self.n_players = n
        self.n_rounds = rounds
        self.decks = decks
        self.max_turns = max_turns
        full = np.full(N_TYPES, decks, dtype=np.int64)
        full[JOKER_INDEX] = 3 * decks
        self.full_counts = full

    def new_initial_state(self) -> FiveCrownsState:
        """The state before the first card is dealt."""
        return FiveCrownsState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        """The observer of both tensors (the encoding) and of both strings."""
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        private = iig_obs_type is None \
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        return _Observer(self, perfect_recall=perfect, private=private, params=params)


class FiveCrownsState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: the deck as a multiset of unseen cards, the piles and hands."""

    def __init__(self, game: FiveCrownsGame) -> None:
        super().__init__(game)
        n = game.n_players
        self._n = n
        self._n_rounds = game.n_rounds
        self._decks = game.decks
        self._max_turns = game.max_turns
        self._full = game.full_counts
        self._totals = [0] * n
        self._k = 0
        self._log: list[tuple[int, int, int]] = []
        self._start_round()

    # -- the round's bookkeeping --

    def _start_round(self) -> None:
        n = self._n
        self._hand_size = self._k + 3
        self._wild = self._k + 3
        self._dealer = self._k % n
        self._first = (self._dealer + 1) % n
        self._stock = self._full.copy()
        self._stock_size = int(self._stock.sum())
        self._hands = np.zeros((n, N_TYPES), dtype=np.uint8)
        self._taken = np.zeros((n, N_TYPES), dtype=np.int64)
        self._discard = np.zeros(N_TYPES, dtype=np.int64)
        self._pile: list[int] = []
        self._dealt = 0
        self._phase = _DEAL
        self._current = self._first
        self._turn = 0
        self._just_taken = -1
        self._went_out: int | None = None
        self._final_left = 0
        self._scores: list[int | None] = [None] * n
        self._log.append((_L_ROUND, -1, self._k))

    def _deadwood(self, row: npt.NDArray[np.uint8]) -> int:
        return int(solver.deadwood(row, self._wild, decks=self._decks))

    def _end_round(self, hit_max_turns: bool) -> None:
        for q in range(self._n):
            if self._scores[q] is None:
                self._scores[q] = self._deadwood(self._hands[q])
        for q in range(self._n):
            score = int(self._scores[q])  # type: ignore[arg-type]
            self._totals[q] += score
        self._k += 1
        if self._k == self._n_rounds:
            self._phase = _OVER
        else:
            self._start_round()

    # -- OpenSpiel API --

    def current_player(self) -> int:
        phase = self._phase
        if phase == _DRAW or phase == _DISCARD:
            return self._current
        if phase == _OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        stock = self._stock
        held = np.flatnonzero(stock)
        p = (stock[held] / self._stock_size).tolist()
        return list(zip(held.tolist(), p))

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._current or not (self._phase == _DRAW or self._phase == _DISCARD):
            return []
        return np.flatnonzero(self._mask()).tolist()

    def _mask(self) -> npt.NDArray[np.bool_]:
        """The legal action codes of the player to act, as a (114,) bool array."""
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        if self._phase == _DRAW:
            mask[0] = self._stock_size > 0 or len(self._pile) > 1
            mask[1] = len(self._pile) > 0
        elif self._phase == _DISCARD:
            row = self._hands[self._current]
            held = np.flatnonzero(row)
            if self._just_taken >= 0:
                held = held[held != self._just_taken]
            mask[ACTION_DISCARD + held] = True
            if solver.can_go_out(row, self._wild, decks=self._decks):
                batch = np.repeat(row.reshape(1, N_TYPES), held.size, axis=0)
                batch[np.arange(held.size), held] -= 1
                dead = solver.deadwood_many(batch, self._wild, decks=self._decks)
                mask[ACTION_GO_OUT + held[dead == 0]] = True
        return mask

    def _is_legal(self, a: int) -> bool:
        """``self._mask()[a]`` for the player to act, with one solver call at most."""
        if self._phase == _DRAW:
            return (a == 0 and (self._stock_size > 0 or len(self._pile) > 1)) \
                or (a == 1 and len(self._pile) > 0)
        if not ACTION_DISCARD <= a < N_ACTIONS:
            return False
        go_out = a >= ACTION_GO_OUT
        t = a - (ACTION_GO_OUT if go_out else ACTION_DISCARD)
        row = self._hands[self._current]
        if not row[t] or t == self._just_taken:
            return False
        if go_out:
            row[t] -= 1
            dead = self._deadwood(row)
            row[t] += 1
            return dead == 0
        return True

    def _apply_action(self, action: int) -> None:
        a = int(action)
        phase = self._phase
        if phase == _DEAL or phase == _TURN_UP or phase == _DRAW_CARD:
            if not 0 <= a < N_TYPES or not self._stock[a]:
                raise ValueError(f"chance outcome {a} is not a card left in the draw pile")
            self._stock[a] -= 1
            self._stock_size -= 1
            if phase == _DEAL:
                q = (self._first + self._dealt) % self._n
                self._hands[q, a] += 1
                self._log.append((_L_DEAL, q, a))
                self._dealt += 1
                if self._dealt == self._n * self._hand_size:
                    self._phase = _TURN_UP
            elif phase == _TURN_UP:
                self._pile.append(a)
                self._discard[a] += 1
                self._log.append((_L_UP, -1, a))
                self._phase = _DRAW
            else:
                self._hands[self._current, a] += 1
                self._log.append((_L_BLIND, self._current, a))
                self._phase = _DISCARD
            return
        if not self._is_legal(a):
            raise ValueError(f"action {a} ({_describe(a)}) is not legal now")
        p = self._current
        if phase == _DRAW:
            if a == 0:
                if not self._stock_size:
                    self._reshuffle()
                self._log.append((_L_DECK, p, -1))
                self._just_taken = -1
                self._phase = _DRAW_CARD
            else:
                t = self._pile.pop()
                self._discard[t] -= 1
                self._taken[p, t] += 1
                self._hands[p, t] += 1
                self._just_taken = t
                self._log.append((_L_TAKE, p, t))
                self._phase = _DISCARD
            return
        go_out = a >= ACTION_GO_OUT
        t = a - (ACTION_GO_OUT if go_out else ACTION_DISCARD)
        row = self._hands[p]
        row[t] -= 1
        self._pile.append(t)
        self._discard[t] += 1
        if self._taken[p, t]:
            self._taken[p, t] -= 1
        self._log.append((_L_OUT if go_out else _L_DISCARD, p, t))
        self._just_taken = -1
        self._turn += 1
        if self._went_out is None:
            if go_out:
                self._went_out = p
                self._scores[p] = 0
                self._final_left = self._n - 1
            elif self._turn >= self._max_turns:
                self._end_round(hit_max_turns=True)
                return
        else:
            # docs/rules.rst, A round, 4: the final turn scores the hand kept.
            self._scores[p] = self._deadwood(row)
            self._final_left -= 1
            if self._final_left == 0:
                self._end_round(hit_max_turns=False)
                return
        self._current = (p + 1) % self._n
        self._phase = _DRAW

    def _reshuffle(self) -> None:
        top = self._pile[-1]
        self._stock += self._discard
        self._stock[top] -= 1
        self._stock_size = int(self._stock.sum())
        self._discard[:] = 0
        self._discard[top] = 1
        self._pile = [top]
        self._log.append((_L_RESHUFFLE, -1, -1))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {_CARDS[action]}" if 0 <= action < N_TYPES else f"chance {action}"
        return _describe(action)

    def returns(self) -> list[float]:
        if self._phase != _OVER:
            return [0.0] * self._n
        return [float(-t) for t in self._totals]

    def __str__(self) -> str:
        hands = "; ".join(_text(self._hands[q]) for q in range(self._n))
        pile = " ".join(_CARDS[t] for t in self._pile)
        return (f"round {self._k + 1}/{self._n_rounds} phase {self._phase} "
                f"player {self._current} turn {self._turn} went_out {self._went_out} "
                f"taken {self._just_taken} totals {self._totals}\n"
                f"hands: {hands}\npile: {pile}\nstock: {_text(self._stock)}")

    # -- views --

    def hand_counts(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of ``player``'s hand as a (56,) ``uint8`` row."""
        return self._hands[player].copy()

    def encode(self, player: int, out: npt.NDArray[np.float32] | None = None
               ) -> npt.NDArray[np.float32]:
        """The observation vector of ``player`` (:mod:`fivecrowns.envs.encoding`)."""
        n = self._n
        taken = self._taken
        unseen = self._full - self._hands[player] - self._discard - taken.sum(axis=0) \
            + taken[player]
        phase = 0 if self._phase in (_DRAW, _DRAW_CARD) else \
            1 if self._phase == _DISCARD else -1
        top = self._pile[-1] if self._pile else -1
        rnd = min(self._k, self._n_rounds - 1) + 1
        return _fill(out, n, player, self._hands[player], top, self._discard, taken,
                     unseen, self._hand_size, self._stock_size, rnd, rnd + 2, self._current,
                     phase, self._went_out is not None, self._went_out, self._totals)

    def information_string(self, player: int) -> str:
        """The exact information state of ``player``: public events and own cards."""
        parts = [f"p{player} hand {_text(self._hands[player])} |"]
        for kind, q, card in self._log:
            if kind == _L_ROUND:
                parts.append(f"round{card + 1}")
            elif kind == _L_RESHUFFLE:
                parts.append("reshuffle")
            elif kind == _L_DEAL or kind == _L_BLIND:
                shown = _CARDS[card] if q == player and card >= 0 else "?"
                parts.append(f"{'d' if kind == _L_DEAL else 'b'}{q}:{shown}")
            elif kind == _L_DECK:
                parts.append(f"{q}:deck")
            elif kind == _L_UP:
                parts.append(f"up:{_CARDS[card]}")
            elif kind == _L_TAKE:
                parts.append(f"{q}:take:{_CARDS[card]}")
            else:
                parts.append(f"{q}:-{_CARDS[card]}{'*' if kind == _L_OUT else ''}")
        return " ".join(parts)

    def observation_string_of(self, player: int) -> str:
        """A short view of ``player``: own hand, then :meth:`public_string`."""
        return f"p{player} hand {_text(self._hands[player])} {self.public_string()}"

    def public_string(self) -> str:
        """What everyone sees now: the round, who acts, the top discard, sizes, totals."""
        top = _CARDS[self._pile[-1]] if self._pile else "-"
        return (f"round {min(self._k, self._n_rounds - 1) + 1} "
                f"to act {self.current_player()} top {top} discards {len(self._pile)} "
                f"stock {self._stock_size} out {self._went_out} totals {self._totals}")


def _describe(action: int) -> str:
    return describe_action(action) if 0 <= action < N_ACTIONS else str(action)


def _text(row: npt.NDArray[Any]) -> str:
    return " ".join(_CARDS[t] for t in np.flatnonzero(row).tolist() for _ in range(int(row[t])))


class _Observer:
    """PyObserver: the encoding as the tensor, the information or observation string."""

    def __init__(self, game: FiveCrownsGame, *, perfect_recall: bool, private: bool,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor = np.zeros(observation_size(game.n_players), dtype=np.float32)
        self.dict = {"observation": self.tensor}
        where = blocks(game.n_players)
        self._private_blocks = (where["hand"], where["unseen"])

    def set_from(self, state: FiveCrownsState, player: int) -> None:
        state.encode(player, self.tensor)
        if not self.private:  # a public observer: no own hand, nor what it implies
            for block in self._private_blocks:
                self.tensor[block] = 0.0

    def string_from(self, state: FiveCrownsState, player: int) -> str:
        if not self.private:
            return state.public_string()
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_string_of(player)


def resample(state: FiveCrownsState, player: int, *,
             rng: np.random.Generator) -> FiveCrownsState:
    """A state ``player`` cannot tell from ``state``: the cards the others hold unseen,
    dealt again uniformly from those cards and the draw pile.

    The others' information strings in the result hide their past private cards (their
    current hands stay visible to them). :func:`make_resampler` wraps this for ISMCTS.
    """
    new = copy.deepcopy(state)
    unknown = {q: new._hands[q].astype(np.int64) - new._taken[q]
               for q in range(new._n) if q != player}
    pool = new._stock.copy()
    for row in unknown.values():
        pool += row
    cards = np.repeat(np.arange(N_TYPES), pool)
    rng.shuffle(cards)
    at = 0
    for q, row in unknown.items():
        k = int(row.sum())
        counts = np.bincount(cards[at:at + k], minlength=N_TYPES)
        new._hands[q] = (new._taken[q] + counts).astype(np.uint8)
        at += k
    new._stock = np.bincount(cards[at:], minlength=N_TYPES).astype(np.int64)
    new._stock_size = int(new._stock.sum())
    new._log = [(kind, q, -1 if kind in (_L_DEAL, _L_BLIND) and q != player else card)
                for kind, q, card in new._log]
    return new


def make_resampler(seed: int) -> Callable[[FiveCrownsState, int], FiveCrownsState]:
    """A determinisation callback for ``ISMCTSBot.set_resampler``, seeded by ``seed``.

    Examples
    --------
    >>> import pyspiel
    >>> from open_spiel.python.algorithms import ismcts, mcts
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 2, "rounds": 1})
    >>> bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
    ...                        uct_c=2.0, max_simulations=5,
    ...                        random_state=np.random.RandomState(0))
    >>> bot.set_resampler(make_resampler(0))
    """
    rng = np.random.default_rng(seed)

    def resampler(state: FiveCrownsState, player: int) -> FiveCrownsState:
        return resample(state, player, rng=rng)

    return resampler


pyspiel.register_game(_GAME_TYPE, FiveCrownsGame)
