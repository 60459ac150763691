"""Five Crowns as an OpenSpiel game, ``"python_five_crowns"`` (needs ``fivecrowns[rl]``).

Importing this module registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("python_five_crowns", {"players": 3, "rounds": 2})`` makes one.

Parameters: ``players`` (2..7, or 14 with 4 decks; default 2), ``rounds`` (play rounds
1..``rounds``; default 11), ``decks`` (2 or 4; default 2), ``max_turns`` (the turn
limit of one round, docs/rules.rst, A round, 6; default 1000) and ``solver_features``
(default ``False``: with ``True`` the tensors end with the 62 solver features of
:mod:`fivecrowns.envs.features`, as ``encode_observation(obs, features=True)``).

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
:func:`fivecrowns.envs.encoding.encode_observation` (the same for both; a public
observer zeroes the own hand, the unseen counts and the solver features). The observation
string is a short public-plus-own-hand summary; the information-state string is exact:
the player's whole view of the game (public events, own cards as dealt and drawn).

The round in play is the round state every simulator plays on (the compiled
``RoundState``, or its pure-Python twin under ``FIVECROWNS_IMPLEMENTATION=python``), so
the rules are those of :class:`~fivecrowns.round.Round` by construction: a chance
outcome is placed on top of that state's draw pile, then dealt, turned up or drawn by the
state's own move (:mod:`fivecrowns.envs._spiel_state`). Search copies states and reads
them all the time, so a state is built for it: ``clone()`` costs the same at any point of
a game (it never replays or copies the history, which OpenSpiel keeps).
Each player's tensor and information string are kept up to date move by move, so reading
them does no work (the solver features, which cost solver calls, are computed at the
first read after a move); ``observation_tensor`` and ``information_state_tensor`` return
the kept vector directly. ``resample_from_infostate`` draws a state the player cannot tell
from this one (:func:`resample`), so ``ISMCTSBot`` needs no set-up.

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

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._checks import check_seat
from .._deprecation import renamed_parameters
from .._optional import requires

with requires("rl", "fivecrowns.envs.openspiel (the OpenSpiel game)"):
    import pyspiel

from ..actions import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS, describe_action
from ..cards import N_TYPES
from ..rules import DEFAULT_MAX_TURNS, Rules
from ..seeding import SeedLike, make_rng
from ._spiel_state import CARDS as _CARDS
from ._spiel_state import DEAL as _DEAL
from ._spiel_state import DISCARD as _DISCARD
from ._spiel_state import DRAW as _DRAW
from ._spiel_state import DRAW_CARD as _DRAW_CARD
from ._spiel_state import OVER as _OVER
from ._spiel_state import TURN_UP as _TURN_UP
from ._spiel_state import Config, Core
from .encoding import blocks, observation_size

__all__ = ["GAME_NAME", "FiveCrownsGame", "FiveCrownsState", "resample", "make_resampler"]

#: The name the game is registered under.
GAME_NAME = "python_five_crowns"

_DEFAULTS: dict[str, Any] = {"players": 2, "rounds": 11, "decks": 2,
                             "max_turns": DEFAULT_MAX_TURNS, "solver_features": False}
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)

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


def _config(params: dict[str, Any]) -> tuple[int, int, int, int, bool]:
    features = params.get("solver_features", False)
    if not isinstance(features, bool):
        raise TypeError(f"solver_features must be a bool, got {type(features).__name__}")
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
    return n, rounds, decks, max_turns, features


class FiveCrownsGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(_DEFAULTS, **(params or {}))
        n, rounds, decks, max_turns, features = _config(params)
        sizes = [Rules.hand_size(r) for r in range(1, rounds + 1)]
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
        self.solver_features = features
        #: The state before the first deal, shared by new states until their first move.
        self.initial_core = Core.initial(Config(n, rounds, decks, max_turns,
                                                features)).freeze()

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


class _Before03:
    """An attribute of the states of fivecrowns 0.2, which kept the game in many
    attributes: setting it means ``deserialize_state`` was given such a state, which
    this state would silently ignore."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> None:
        raise AttributeError(self.name)

    def __set__(self, obj: object, value: object) -> None:
        raise ValueError(f"this state was serialized by fivecrowns 0.2 (it sets "
                         f"{self.name}), whose states this version cannot read: apply its "
                         f"history's actions to a new initial state instead")


class FiveCrownsState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: a :class:`~fivecrowns.envs._spiel_state.Core` of counts.

    OpenSpiel copies a Python state by making a new initial state and deep-copying its
    attributes; the one attribute here, the core, copies itself in time independent of
    the history (the history stays on OpenSpiel's side, and the information strings are
    built in immutable, shared chunks). A new state shares its game's initial core until its first
    move.
    """

    # every 0.2 state had these two
    _log = _Before03()
    _stock = _Before03()

    def __init__(self, game: FiveCrownsGame) -> None:
        super().__init__(game)
        self._c: Core = game.initial_core

    def _own(self) -> Core:
        """The core, copied first if it is the game's shared initial one."""
        c = self._c
        if c.frozen:
            c = self._c = c.copy()
        return c

    # -- OpenSpiel API --

    def current_player(self) -> int:
        c = self._c
        phase = c.phase
        if phase == _DRAW or phase == _DISCARD:
            return c.current
        if phase == _OVER:
            return _TERMINAL
        return _CHANCE

    def is_terminal(self) -> bool:
        return self._c.phase == _OVER

    # OpenSpiel's C++ State answers these two by calling back into Python several times
    # (current_player, is_terminal, _legal_actions): answered here directly, the same way.
    def is_chance_node(self) -> bool:
        phase = self._c.phase
        return phase == _DEAL or phase == _TURN_UP or phase == _DRAW_CARD

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), as OpenSpiel's
        ``State.legal_actions``: the outcomes at a chance node (for any ``player``), none
        at the end or for a player not to act."""
        c = self._c
        phase = c.phase
        if phase == _OVER:
            return []
        if phase == _DEAL or phase == _TURN_UP or phase == _DRAW_CARD:
            return np.flatnonzero(c.stock).tolist()  # whoever ``player`` is, as OpenSpiel
        if player is None or int(player) == c.current:
            return c.legal_actions()
        if int(player) < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._c
        stock = c.stock
        held = np.flatnonzero(stock)
        p = (stock[held] / c.stock_size).tolist()
        return list(zip(held.tolist(), p))

    def _legal_actions(self, player: int) -> list[int]:
        c = self._c
        if player != c.current:
            return []
        return c.legal_actions()

    def _apply_action(self, action: int) -> None:
        a = int(action)
        c = self._own()
        c.moved()  # before the move: a move that starts a round computes them again
        phase = c.phase
        if phase == _DEAL or phase == _TURN_UP or phase == _DRAW_CARD:
            c.chance(a)
        elif not c.is_legal(a):
            raise ValueError(f"action {a} ({_describe(a)}) is not legal now")
        elif phase == _DRAW:
            if a == 0:
                c.draw_deck()
            else:
                c.take()
        else:
            go_out = a >= ACTION_GO_OUT
            c.discard_card(a - (ACTION_GO_OUT if go_out else ACTION_DISCARD), go_out)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {_CARDS[action]}" if 0 <= action < N_TYPES else f"chance {action}"
        return _describe(action)

    def returns(self) -> list[float]:
        c = self._c
        if c.phase != _OVER:
            return [0.0] * c.cfg.n
        return [float(-t) for t in c.totals]

    def __str__(self) -> str:
        c = self._c
        hands = "; ".join(_text(row) for row in c.hands)
        pile = " ".join(map(_CARDS.__getitem__, c.pile))
        return (f"round {c.k + 1}/{c.cfg.n_rounds} phase {c.phase} "
                f"player {c.current} turn {c.turn} went_out {c.went_out} "
                f"taken {c.just_taken} totals {c.totals}\n"
                f"hands: {hands}\npile: {pile}\nstock: {c.stock_size} cards (the rest)")

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation vector (the encoding), as OpenSpiel's method.

        Read from the vector the state keeps up to date, without OpenSpiel's round trip
        through the observer (which builds a new initial state on every call to learn the
        tensor's size). ``player`` defaults to the player to act; a seat out of range
        raises ``pyspiel.SpielError`` as OpenSpiel does.
        """
        return self._c.vector(self._seat(player)).tolist()

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The same vector as :meth:`observation_tensor` (the encoding's counts; the
        order of events is in the exact information-state string)."""
        return self._c.vector(self._seat(player)).tolist()

    def _seat(self, player: int | None) -> int:
        n = self._c.cfg.n
        if player is None:
            player = self.current_player()
        if not 0 <= player < n:
            raise pyspiel.SpielError(f"player must be a seat 0..{n - 1}, got {player}")
        return int(player)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> FiveCrownsState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly (OpenSpiel's
        ``ResampleFromInfostate``, which ``ISMCTSBot`` calls): see :func:`resample`.

        The randomness comes from ``probability_sampler`` (a callable returning floats,
        such as ``pyspiel.UniformProbabilitySampler``): two of its values seed a NumPy
        generator, so a seeded sampler gives the same worlds in the same order.
        """
        if not callable(probability_sampler):
            raise TypeError(f"probability_sampler must be callable, got "
                            f"{type(probability_sampler).__name__}")
        bits = [int(np.float64(probability_sampler()).view(np.uint64)) for _ in range(2)]
        return resample(self, player_id, seed=np.random.default_rng(bits))

    # -- views --

    def hand_counts(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of ``player``'s hand as a (56,) ``uint8`` row."""
        return self._c.st.hand(player)

    def encode(self, player: int, out: npt.NDArray[np.float32] | None = None
               ) -> npt.NDArray[np.float32]:
        """The observation vector of ``player`` (:mod:`fivecrowns.envs.encoding`)."""
        row = self._c.vector(player)
        if out is None:
            return row.copy()
        out[:] = row
        return out

    def information_string(self, player: int) -> str:
        """The exact information state of ``player``: public events and own cards."""
        c = self._c
        return f"p{player} hand {_text(c.st.hand(player))} |{c.events(player)}"

    def observation_string_of(self, player: int) -> str:
        """A short view of ``player``: own hand, then :meth:`public_string`."""
        return f"p{player} hand {_text(self._c.st.hand(player))} {self.public_string()}"

    def public_string(self) -> str:
        """What everyone sees now: the round, who acts, the top discard, sizes, totals."""
        c = self._c
        top = c.st.top_discard
        return (f"round {min(c.k, c.cfg.n_rounds - 1) + 1} "
                f"to act {self.current_player()} top {_CARDS[top] if top >= 0 else '-'} "
                f"discards {c.st.n_pile} "
                f"stock {c.stock_size} out {c.went_out} totals {c.totals}")


# OpenSpiel's checks name every legal action at every step: named once here.
_ACTIONS = [describe_action(a) for a in range(N_ACTIONS)]
_TYPES = np.arange(N_TYPES)


def _describe(action: int) -> str:
    return _ACTIONS[action] if 0 <= action < N_ACTIONS else str(action)


def _text(row: npt.NDArray[Any]) -> str:
    return " ".join([_CARDS[t] for t in np.repeat(_TYPES, row).tolist()])


class _Observer:
    """PyObserver: the encoding as the tensor, the information or observation string."""

    def __init__(self, game: FiveCrownsGame, *, perfect_recall: bool, private: bool,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = perfect_recall
        self.private = private
        features = game.solver_features
        self.tensor = np.zeros(observation_size(game.n_players, features=features),
                               dtype=np.float32)
        self.dict = {"observation": self.tensor}
        where = blocks(game.n_players, features=features)
        # the solver features describe the own hand: private too
        self._private_blocks = [where[name] for name in ("hand", "unseen", "features")
                                if name in where]

    def set_from(self, state: FiveCrownsState, player: int) -> None:
        self.tensor[:] = state._c.vector(player)
        if not self.private:  # a public observer: no own hand, nor what it implies
            for block in self._private_blocks:
                self.tensor[block] = 0.0

    def string_from(self, state: FiveCrownsState, player: int) -> str:
        if not self.private:
            return state.public_string()
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_string_of(player)


@renamed_parameters(rng="seed")
def resample(state: FiveCrownsState, player: int, *, seed: SeedLike) -> FiveCrownsState:
    """A state ``player`` cannot tell from ``state``, drawn uniformly given what they know.

    The cards whose place ``player`` cannot know (the others' cards other than those
    seen taken from the discard pile and still held, and the draw pile) are dealt again
    uniformly at random to the same places, as :meth:`Round.determinize
    <fivecrowns.round.Round.determinize>` does; everything else stays. Like it, the
    draw is uniform given those counts and does not use what the history implies beyond
    them (after a reshuffle the draw pile holds only cards that were discarded).

    ``player``'s information string, tensors and legal actions are those of ``state``.
    The others' information strings become the public one (their past private cards
    hidden: they would not match the new hands), and the result's ``history()`` is
    ``state``'s (OpenSpiel keeps it; the cards it names for the others are not theirs).
    :meth:`FiveCrownsState.resample_from_infostate` and :func:`make_resampler` call this.
    ``seed`` (an int, a NumPy SeedSequence or a Generator, used and advanced; see
    :doc:`/conventions`) draws the new places.

    Examples
    --------
    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 3, "rounds": 1})
    >>> state = game.new_initial_state()
    >>> for card in range(10):              # 3 cards each, then the turned-up card
    ...     state.apply_action(card)
    >>> other = resample(state, 0, seed=1)
    >>> other.information_state_string(0) == state.information_state_string(0)
    True
    """
    n = state._c.cfg.n
    player = check_seat(player, n)
    new: FiveCrownsState = state.clone()
    c = new._own()
    st = c.st
    others = [q for q in range(n) if q != player]
    hands, taken = c.hands.astype(np.int64), c.taken.astype(np.int64)
    unknown = [hands[q] - taken[q] for q in others]
    pool = c.stock.astype(np.int64) + sum(unknown)
    cards = np.repeat(np.arange(N_TYPES), pool)
    rng = make_rng(seed)
    rng.shuffle(cards)
    at = 0
    for q, row in zip(others, unknown):
        k = int(row.sum())
        st.set_hand(q, taken[q] + np.bincount(cards[at:at + k], minlength=N_TYPES))
        c.forget(q)
        at += k
    st.set_draw_pile(cards[at:].tolist())  # in any order: each card leaving is stacked
    for q in others:
        c.encode(q, c.obs[q])
        c.fresh[q] = True
    return new


def make_resampler(seed: SeedLike) -> Callable[[FiveCrownsState, int], FiveCrownsState]:
    """A determinisation callback for ``ISMCTSBot.set_resampler``, seeded by ``seed``.

    ``ISMCTSBot`` needs none (it calls the state's ``resample_from_infostate``), but it
    passes that method a ``pyspiel.UniformProbabilitySampler`` seeded from the clock, so
    its worlds differ from run to run; this callback draws them from one generator seeded
    by ``seed``, for reproducible searches.

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
    rng = make_rng(seed)

    def resampler(state: FiveCrownsState, player: int) -> FiveCrownsState:
        return resample(state, player, seed=rng)

    return resampler


pyspiel.register_game(_GAME_TYPE, FiveCrownsGame)
