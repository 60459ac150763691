"""Rollouts at C speed: rounds and whole games played to the end by a fixed policy.

The compiled rollout engine (``fivecrowns._rollout``) is a twin of
:class:`~fivecrowns.round.Round` and :class:`~fivecrowns.game.Game`: given the same deal
and the same deterministic policy it makes exactly the moves, and gives exactly the
scores, of the Python engine driven by the Python bot, but runs entirely in C with the
GIL released, over several threads if asked. A bot's decision loop (Monte Carlo
evaluation of a position, a policy's value over thousands of games) becomes one call.

- :func:`play_out`: rounds in any state (draw or discard phase, final turns...) played
  to the end; the rounds themselves are left untouched.
- :func:`play_games`: whole games dealt from seeds, their totals.
- :func:`play_out_actions`: the moves of one play-out, as action codes (for checking).
- :func:`deal_rounds`: fresh rounds dealt from a seed, ready for :func:`play_out`.
- :func:`play_worlds`: a search's inner loop: the worlds a player cannot tell apart
  sampled (:meth:`Round.determinize <fivecrowns.Round.determinize>`), each candidate
  move applied in each and played out, all in one call.

Policies
--------
The registry's bots with a compiled policy (:func:`fivecrowns.registry.engine_policy`):
every ``policy`` argument takes their names as a bot spec does (``"StrongBot"`` is
``"strong"``) and refuses the other bots (``"search"``, ``"learned"``) and unknown names.

``"greedy"``
    Exactly :class:`~fivecrowns.bots.GreedyBot`: take the top discard when the
    best-discard deadwood after taking it is below the deadwood now; discard the best
    discard (in :func:`fivecrowns.outs.discard_order`'s tie-break order; the next best
    when the rules keep the card just taken); go out when that leaves no deadwood.
``"strong"``
    Exactly :class:`~fivecrowns.bots.StrongBot` with its defaults (``lookahead=3``,
    ``now_weight=0.35``): the expected deadwood of a blind draw from the cards it has not
    seen (:func:`~fivecrowns.draw_table` weighted by the public ``unseen_counts``, which
    the engine tracks as :class:`~fivecrowns.public.PublicState` does), the look-ahead
    and the penalties, in the same floating-point operations in the same order, so the
    same moves.
``"expert"``
    Exactly :class:`~fivecrowns.expert.ExpertBot`: the two-draw comparison on the draw,
    every discard looked ahead one draw and the five best two draws, the penalties; all
    in integer arithmetic, as the bot's, so the same moves.
``"random"``
    A legal move uniformly at random: the draw pile or the discard pile, then a card type
    held (but one the rules keep), going out when that discard allows it, as
    :class:`~fivecrowns.bots.RandomBot` with ``go_out=1``. Its choices come from a
    generator of its own, seeded by the call's ``seed`` (``numpy.random.random_interval``
    on it, one call per choice), never from the deck's, so the deals and reshuffles stay
    those of the Python engine and every move can be replayed on a
    :class:`~fivecrowns.round.Round`. The choices are reproducible but are not
    RandomBot's: RandomBot draws them from its own generator with ``Generator.integers``.

Without the compiled core, or with ``FIVECROWNS_IMPLEMENTATION=python`` (the solver's
switch), every function here runs on the engine's pure-Python twin
(``fivecrowns._engine_py``: the Python engine and bots): the same answers, far slower,
except :func:`play_worlds`, which samples other worlds from the same distribution;
:data:`ROLLOUT_IMPLEMENTATION` says which runs.

Randomness is numpy's own: every shuffle is ``Generator.permutation`` computed on the
generator's bit generator, so a game dealt here from ``seed`` is the game
:func:`~fivecrowns.players.play_game` deals from ``seed``. A :class:`Round`'s generator is
copied, never advanced.

Examples
--------
>>> from fivecrowns import GreedyBot, Round, play_game
>>> from fivecrowns.rollout import play_games, play_out
>>> r = Round(3, round_number=4, seed=12)
>>> play_out([r]).shape
(1, 3)
>>> r.turn                      # untouched
0
>>> from fivecrowns.seeding import game_seeds
>>> totals = play_games(2, seed=5, n_players=3)
>>> res = play_game([GreedyBot()] * 3, seed=game_seeds(5, 2)[1])
>>> tuple(totals[1].tolist()) == res.totals
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from . import _engine_py, _rollout_inputs
from ._checks import check_int, default_threads
from ._rollout_inputs import (
    _GAMES_PER_PIECE,
    _RANDOM,
    _ROUNDS_PER_PIECE,
    _SERIAL_GAMES,
    _SERIAL_ROUNDS,
    _check_games,
    _check_worlds,
    _choices,
    _copy_bit_generator,
    _inference,
    _policy,
    _random_seed,
    _round_list,
    _seat_policies,
)
from ._state import State as _State
from ._state import rollout_core as _core
from ._state_checks import _check_dealt
from ._threads import run_threaded
from .registry import bot_entry, engine_policy
from .round import Round
from .rules import Rules
from .seeding import SeedLike, bot_seeds, game_seeds, game_seeds_range, int_seed

__all__ = ["ROLLOUT_IMPLEMENTATION", "POLICIES", "Policy", "play_out", "play_out_actions",
           "play_games", "deal_rounds", "play_worlds"]



#: Which engine runs the rollouts: ``"compiled"`` (``fivecrowns._rollout``) or
#: ``"python"`` (its twin, ``fivecrowns._engine_py``: the same moves and scores, slower;
#: :func:`play_worlds` samples other worlds from the same distribution).
ROLLOUT_IMPLEMENTATION = "python" if _core is None else "compiled"

#: The policies the engine plays, by name, in the order of the engine's numbers (its C
#: interface, stored in decision records): the registry's bots with a compiled policy
#: (:func:`fivecrowns.registry.engine_policies`). Every argument that names a policy takes
#: their names as the registry does (``"StrongBot"`` is ``"strong"``).
POLICIES = _rollout_inputs.POLICIES
#: A policy as an argument names it, for type checkers: the registry's names of the bots
#: with a compiled policy (:data:`POLICIES`), then their class names (``"StrongBot"``).
#: The registry also takes any case and spaces around a name (``" Strong "``), which no
#: ``Literal`` can list: such a name works but is typed as a ``str``.
Policy = Literal["greedy", "random", "strong", "expert",
                 "GreedyBot", "RandomBot", "StrongBot", "ExpertBot"]


def _check_policy_type() -> None:
    """Refuse the import when :data:`Policy` and the registry drift apart: the type must
    list each compiled policy's name and its class's name, in the engine's order, and the
    registry must take each as that policy."""
    classes = tuple(bot_entry(p).target.rpartition(":")[2] for p in POLICIES)
    spelled = get_args(Policy)
    if spelled != POLICIES + classes:
        raise ImportError(f"rollout.Policy names {spelled}, the registry's compiled "
                          f"policies are {POLICIES} (classes {classes})")
    for name, policy in zip(spelled, POLICIES + POLICIES):
        try:
            taken = engine_policy(name)
        except ValueError as exc:
            raise ImportError(f"rollout.Policy names {name!r}, which the registry refuses: "
                              f"{exc}") from None
        if taken != policy:
            raise ImportError(f"rollout.Policy: the registry takes {name!r} as {taken!r}, "
                              f"not {policy!r}")


_check_policy_type()

def _states(rounds: list[Round]) -> list[Any]:
    """The rounds' states, which the compiled engine reads itself (it takes nothing else
    of a round: a state was checked when it was made, by ``from_state``, ``from_fields``
    or the moves). A state of the pure-Python twin, from a pickle made without the
    compiled core, is rebuilt from its fields, which checks them."""
    assert _core is not None
    cls = _State
    return [st if type(st) is cls else cls.from_fields(st.fields())
            for st in (r._state for r in rounds)]


def _generators(states: list[Any]) -> list[np.random.BitGenerator]:
    """Copies of the states' generators (a copy of a state builds its own generator in
    the state of the round's, from the snapshot a clone keeps, without building the
    clone's own)."""
    return [st.copy().rng.bit_generator for st in states]


def play_out(rounds: Sequence[Round], *, policy: Policy = "greedy",
             seed: SeedLike | None = None,
             threads: int | None = None) -> npt.NDArray[np.int32]:
    """Play each round to its end, every player following ``policy``; their scores.

    Parameters
    ----------
    rounds : sequence of Round
        Rounds in any state: the draw or the discard phase, final turns after someone
        went out, a tie-break round, or already over (its scores are returned). Every
        hidden card is fixed in a round (the draw pile's order and the generator that
        shuffles any reshuffle), so a play-out is determined. The rounds are not changed:
        their generators are copied, not advanced.
    policy : {"greedy", "random", "strong", "expert"}
        See the module's documentation. ``"greedy"`` (``"strong"``, ``"expert"``) gives
        the scores of ``r.clone()`` played to its end with a
        :class:`~fivecrowns.bots.GreedyBot` (:class:`~fivecrowns.bots.StrongBot`,
        :class:`~fivecrowns.expert.ExpertBot`) in every seat.
    seed : int, numpy SeedSequence or numpy Generator, optional
        The random policy's seed (required for it, ignored by the others): round
        ``i``'s choices come from ``default_rng(game_seeds(seed, len(rounds))[i])``.
    threads : int, optional
        Worker threads (the engine releases the GIL). Default: one for fewer than 64
        rounds, else one per available core. The result does not depend on it.

    Returns
    -------
    ndarray of shape (len(rounds), n_players), int32
        Round scores; players are the rounds' own (all rounds must have the same number
        of players). The rounds are read in pieces of a few hundred, so the call needs
        the result and a bounded working set besides the rounds themselves; Ctrl-C stops
        it within a piece.

    Raises
    ------
    TypeError
        ``rounds`` is not a sequence of Round, or a bad ``policy`` or ``threads`` type.
    ValueError
        An unknown policy, rounds with different numbers of players, or ``threads < 1``.

    Examples
    --------
    >>> from fivecrowns import GreedyBot, Round
    >>> rounds = [Round(4, round_number=k, seed=k) for k in range(1, 12)]
    >>> scores = play_out(rounds)
    >>> scores.shape, scores.dtype.name
    ((11, 4), 'int32')
    >>> bool((scores.min(axis=1) == 0).all())    # someone went out in every round
    True
    >>> def by_bots(r):
    ...     bot = GreedyBot()
    ...     while not r.is_over:
    ...         obs = r.observation(r.current_player)
    ...         if r.phase.value == "draw":
    ...             r.draw(bot.choose_draw(obs))
    ...         else:
    ...             card, out = bot.choose_discard(obs)
    ...             r.discard(card, go_out=out)
    ...     return list(r.result.scores)
    >>> scores[3].tolist() == by_bots(rounds[3].clone())
    True
    """
    rounds = _round_list(rounds)
    code = _policy(policy)
    n_threads = default_threads(threads, len(rounds), _SERIAL_ROUNDS)
    if not rounds:
        return np.zeros((0, 0), dtype=np.int32)
    players = {r.n_players for r in rounds}
    if len(players) > 1:
        raise ValueError(f"the rounds must all have the same number of players, got "
                         f"{sorted(players)}; play them out in groups")
    k = players.pop()
    random_seed = _random_seed(seed) if code == _RANDOM else 0
    core = _core
    if core is None:
        # each round read at one moment, whatever another thread does to it meanwhile
        rounds = [r.clone() for r in rounds]
        for r in rounds:
            _check_dealt(r._state)
        return _engine_py.play_out(rounds, POLICIES[code], None if code != _RANDOM else
                                   [np.random.PCG64(s)
                                    for s in game_seeds(random_seed, len(rounds))])
    out = np.empty((len(rounds), k), dtype=np.int32)
    states = _states(rounds)

    def piece(a: int, b: int) -> None:
        # Copies and generators made here, piece by piece: never for all the rounds at
        # once. Each round is read once, by its copy (one step, whatever another thread
        # does to the round meanwhile), and its generator is the copy's.
        copies = [st.copy() for st in states[a:b]]
        for i, c in enumerate(copies, a):
            if c.n_players != k:   # its rows would be left unfilled
                raise RuntimeError(f"rounds[{i}] became a round of {c.n_players} players "
                                   f"while play_out read the rounds (another thread)")
        generators = [c.rng.bit_generator for c in copies]
        choices = (None if code != _RANDOM else
                   [np.random.PCG64(s) for s in game_seeds_range(random_seed, a, b)])
        core._rounds_range(copies, core._bitgens(generators, b - a),
                           core._bitgens(choices, b - a), code, out[a:b], None, None,
                           0, b - a)

    run_threaded(piece, len(rounds), n_threads, _ROUNDS_PER_PIECE)
    return out


def play_out_actions(round: Round, *, policy: Policy = "greedy",
                     seed: SeedLike | None = None) -> list[int]:
    """The moves of ``play_out([round], policy=policy, seed=seed)``, as action codes
    (:mod:`fivecrowns.actions`): for checking the engine against the Python one.

    Examples
    --------
    >>> from fivecrowns import Round
    >>> from fivecrowns.actions import describe_action
    >>> r = Round(2, round_number=1, seed=3)
    >>> moves = play_out_actions(r)
    >>> for a in moves:
    ...     _ = r.apply_action(a)
    >>> r.is_over
    True
    """
    (r,) = _round_list([round])
    code = _policy(policy)
    choices = _choices(code, seed, lambda s: game_seeds(s, 1))
    r = r.clone()  # one moment of the round, whatever another thread does to it
    core = _core
    if core is None:
        _check_dealt(r._state)
        return _engine_py.play_out_actions(r, POLICIES[code],
                                           None if choices is None else choices[0])
    room = 1024
    while True:  # the engine counts the moves past the room: then again, with room for all
        trace = np.zeros((1, room), dtype=np.int16)
        length = np.zeros(1, dtype=np.int32)
        copies = None if choices is None else [_copy_bit_generator(c) for c in choices]
        states = _states([r])
        core.play_rounds(states, _generators(states), copies, code, 1, trace, length)
        if length[0] <= room:
            return trace[0, :length[0]].tolist()
        room = int(length[0])


def play_worlds(round: Round, actions: Sequence[int], *, worlds: int, seed: SeedLike,
                policy: Policy = "strong", opponents: Policy | None = None,
                threads: int | None = None, discard_weight: float = 0.0, tries: int = 8,
                replay_draws: int = 0) -> npt.NDArray[np.int32]:
    """The current player's candidate moves, each played out in the same sampled worlds.

    ``worlds`` times, everything the current player cannot see in ``round`` is
    resampled as :meth:`Round.determinize <fivecrowns.Round.determinize>` does (the
    opponents' cards other than those seen taken from the discard pile, and the draw
    pile's order, dealt again uniformly at random to the same places); in each world
    every action of ``actions`` is applied and the round played to its end by
    ``policy`` in every seat. Every action meets the same world, and the same
    reshuffles should the draw pile run out (common random numbers), so the difference
    between two moves is measured far more precisely than either's value.

    The worlds come from a generator of the engine's own (splitmix64) seeded by
    ``seed`` and the world's index: the result depends on ``seed`` alone, never on
    ``threads``, but the worlds are not those ``Round.determinize`` draws from the
    same seed (the distribution is the same).

    Parameters
    ----------
    round : Round
        Not over. It is only read. Its hidden cards may be anything consistent with
        the current player's view (for example
        :meth:`Round.from_observation <fivecrowns.Round.from_observation>`): all of
        them are resampled.
    actions : sequence of int
        Action codes (:mod:`fivecrowns.actions`), each legal now
        (``round.can_apply_action``).
    worlds : int
        How many worlds to sample (at least 1).
    seed : int, numpy SeedSequence or numpy Generator
        See :doc:`/conventions` (a SeedSequence or Generator gives an int,
        :func:`~fivecrowns.seeding.int_seed`).
    policy : {"greedy", "strong", "expert"}
        The current player's play after the action (the random policy is not offered:
        it would need a generator per world and move), and every other seat's unless
        ``opponents`` is given.
    opponents : {"greedy", "strong", "expert"}, optional
        The other seats' play, when it is not ``policy`` (a search that knows what
        it plays against: ``policy="expert", opponents="strong"``).
    threads : int, optional
        Default: one for fewer than 64 worlds, else one per available core.
    discard_weight : float
        How much the worlds take from the opponents' last discards (0, the default:
        nothing, the uniform sample of ``Round.determinize``). An opponent's last
        discard d tells what they kept: in a world where another natural card (not a
        wild, nor the card the rules kept in hand) would have left them ``r`` points
        less deadwood than d did, d was a poor discard. A sampled world is kept with
        probability ``exp(-discard_weight * r)`` (``r`` summed over the opponents),
        else sampled again, up to ``tries`` samples (the last one is kept).
    tries : int
        At least 1.
    replay_draws : int
        How organised the opponents' sampled hands are (0, the default: not at all,
        the uniform sample). A player who has drawn blind k times this round has kept
        the best of the cards they saw, so their hand is far better than a random one.
        With ``replay_draws`` > 0 each opponent's sampled cards then replay
        ``min(k, replay_draws)`` such draws: they take the draw pile's top card and give
        back the natural card (never a wild, nor a card seen taken) whose loss leaves the
        least deadwood; the cards given back are shuffled into the draw pile again.

    Returns
    -------
    ndarray of shape (worlds, len(actions), n_players), int32
        Round scores.

    Raises
    ------
    TypeError
        A bad type for any argument.
    ValueError
        A round that is over, an illegal action, ``worlds < 1`` or an unknown policy.

    Examples
    --------
    >>> from fivecrowns import Round
    >>> from fivecrowns.actions import ACTION_DRAW_DECK, ACTION_DRAW_DISCARD
    >>> r = Round(4, round_number=3, seed=1)
    >>> s = play_worlds(r, [ACTION_DRAW_DECK, ACTION_DRAW_DISCARD], worlds=8, seed=0)
    >>> s.shape
    (8, 2, 4)
    >>> mean = s[:, :, r.current_player].mean(axis=0)   # the mover's mean score per move
    >>> bool((play_worlds(r, [0, 1], worlds=8, seed=0, threads=2) == s).all())
    True
    """
    return _play_worlds(round, actions, worlds=worlds, seed=seed, policy=policy,
                        opponents=opponents, threads=threads,
                        discard_weight=discard_weight, tries=tries, replay_draws=replay_draws)


def _play_worlds(round: Round, actions: Sequence[int], *, worlds: int, seed: SeedLike,
                 policy: Policy = "strong", opponents: Policy | None = None,
                 threads: int | None = None, discard_weight: float = 0.0, tries: int = 8,
                 replay_draws: int = 0,
                 deadline: float | None = None) -> npt.NDArray[np.int32]:
    """:func:`play_worlds`, and for SearchBot's time limit a ``deadline`` (a moment of
    ``time.perf_counter()``): the pure-Python twin, whose worlds take up to seconds each,
    stops at its first move past it and returns only the worlds finished by then (perhaps
    none); the compiled engine, whose worlds take microseconds, plays them all (so it is
    not offered in the public signature: its answer would depend on the engine)."""
    (r,) = _round_list([round])
    code = POLICIES.index(engine_policy(policy, exclude=("random",), user="play_worlds"))
    others = code if opponents is None else POLICIES.index(engine_policy(
        opponents, what="opponents", exclude=("random",), user="play_worlds"))
    # Everything below reads one moment of the round (its checks, its history, its
    # state), whatever another thread does to it meanwhile.
    r = r.clone()
    worlds, seed, tries, replay_draws, codes = _check_worlds(
        r, actions, worlds, seed, discard_weight, tries, replay_draws, deadline)
    n_threads = default_threads(threads, int(worlds), _SERIAL_ROUNDS)
    if not codes:  # nothing to play in any world
        return np.zeros((worlds, 0, r.n_players), dtype=np.int32)
    core = _core
    if core is None:
        _check_dealt(r._state)
        return _engine_py.play_worlds(r, codes, int(worlds), np.random.default_rng(seed),
                                      POLICIES[code], None if deadline is None
                                      else float(deadline), opponents=POLICIES[others])
    last_discard, last_kept, blind = _inference(r)
    return core.play_worlds(_states([r])[0], r.current_player,
                            np.array(codes, dtype=np.int16), int(worlds),
                            seed % 2**64, code, others, n_threads, last_discard, last_kept,
                            float(discard_weight), int(tries), blind, int(replay_draws))


def play_games(games: int, *, seed: SeedLike, n_players: int = 4,
               policy: Policy | Sequence[Policy] = "greedy", rules: Rules | None = None,
               rounds: Sequence[int] | None = None,
               first_dealer: int = 0, threads: int | None = None) -> npt.NDArray[np.int64]:
    """Play ``games`` whole games with ``policy`` in every seat (or one per seat); their
    totals.

    Game ``g`` is dealt from ``game_seeds(seed, games)[g]`` (:mod:`fivecrowns.seeding`),
    exactly as :func:`~fivecrowns.simulate.simulate_games` deals it: with
    ``policy="greedy"`` its totals are those of ``play_game([GreedyBot()] * n_players,
    seed=game_seeds(seed, games)[g], rules=rules, rounds=rounds,
    first_dealer=first_dealer).totals``.

    Parameters
    ----------
    games : int
        How many games (0 or more).
    seed : int, numpy SeedSequence or numpy Generator
        The run's seed. Keyword-only and required (a SeedSequence or Generator gives
        an int, :func:`~fivecrowns.seeding.int_seed`).
    n_players : int
        2 to ``rules.max_players``.
    policy : {"greedy", "random", "strong", "expert"} or sequence of them
        ``"strong"`` gives the totals of ``play_game([StrongBot()] * n_players, ...)``.
        A sequence gives seat ``q`` (player ``q`` of every round, whoever deals) the
        policy ``policy[q]``: ``["expert", "strong", "strong"]`` gives the totals of
        ``play_game([ExpertBot(), StrongBot(), StrongBot()], ...)``, so a duplicate
        match of policies runs at C speed. The random policy's choices in game ``g``
        come from ``default_rng(bot_seeds(seed, g, 1)[0])`` (one generator for every
        seat it plays).
    rules : Rules, optional
        Every field is honoured. With ``tie_break`` a tied game ends with a tie-break
        round, which names the winner but changes no total, so it is not played here.
    rounds : sequence of int, optional
        Round numbers 1..11 to play, in order (default all 11).
    first_dealer : int
        The first round's dealer.
    threads : int, optional
        Worker threads; default one for fewer than 8 games, else one per core. The
        result does not depend on it.

    Returns
    -------
    ndarray of shape (games, n_players), int64

    Notes
    -----
    The games are played in pieces of a few hundred, each piece's generators made when
    it starts: memory is the result (8 bytes a player and game) and a working set that
    does not grow with ``games``. Ctrl-C stops the call within a piece (a fraction of a
    second): no worker thread is left running.

    Examples
    --------
    >>> totals = play_games(4, seed=1, rounds=[1, 2, 3])
    >>> totals.shape, bool((totals >= 0).all())
    ((4, 4), True)
    >>> bool((play_games(4, seed=1, rounds=[1, 2, 3], threads=2) == totals).all())
    True
    >>> play_games(2, seed=1, n_players=2, policy=["expert", "strong"], rounds=[1, 2]).shape
    (2, 2)
    """
    games, seed, rules, plan, first_dealer = _check_games(games, seed, n_players, rules,
                                                          rounds, first_dealer)
    seats = None if isinstance(policy, str) else _seat_policies(policy, n_players)
    code = _policy(policy) if seats is None else (_RANDOM if _RANDOM in seats else 0)
    n_threads = default_threads(threads, games, _SERIAL_GAMES)
    core = _core
    if core is None:
        names = [POLICIES[c] for c in (seats or [code] * n_players)]
        return _engine_py.play_games(
            game_seeds(seed, games), n_players=n_players, policies=names, rules=rules,
            plan=plan.tolist(), first_dealer=first_dealer,
            choices=None if code != _RANDOM else
            [np.random.PCG64(bot_seeds(seed, g, 1)[0]) for g in range(games)])
    out = np.zeros((games, n_players), dtype=np.int64)
    decks, max_turns, no_return = rules.decks, rules.max_turns, not rules.return_discard
    policies = None if seats is None else np.array(seats, dtype=np.int32)
    piece_games = (_GAMES_PER_PIECE[POLICIES[code]] if seats is None
                   else min(_GAMES_PER_PIECE[POLICIES[c]] for c in seats))

    def piece(a: int, b: int) -> None:
        # The generators of this piece's games only (about 700 bytes a game): made here,
        # from the seeds game_seeds(seed, games)[a:b], so memory does not grow with games.
        # default_rng(s)'s bit generator: only the C engine uses it.
        generators = [np.random.PCG64(s) for s in game_seeds_range(seed, a, b)]
        choices = (None if code != _RANDOM else
                   [np.random.PCG64(bot_seeds(seed, g, 1)[0]) for g in range(a, b)])
        rngs, picks = core._bitgens(generators, b - a), core._bitgens(choices, b - a)
        if policies is None:
            core._games_range(rngs, picks, n_players, decks, max_turns, no_return, plan,
                              first_dealer, code, out[a:b], 0, b - a)
        else:
            core._games_seated_range(rngs, picks, n_players, decks, max_turns, no_return,
                                     plan, first_dealer, policies, out[a:b], 0, b - a)

    run_threaded(piece, games, n_threads, piece_games)
    return out


def deal_rounds(n: int, *, seed: SeedLike, n_players: int = 4, round_number: int = 11,
                rules: Rules | None = None, dealer: int = 0) -> list[Round]:
    """``n`` fresh rounds, round ``i`` dealt from ``game_seeds(seed, n)[i]``.

    Examples
    --------
    >>> rounds = deal_rounds(3, seed=2, n_players=2, round_number=1)
    >>> [r.hand_size for r in rounds], play_out(rounds).shape
    ([3, 3, 3], (3, 2))
    """
    n = check_int(n, "n", 0)
    return [Round(n_players, round_number, seed=s, rules=rules, dealer=dealer)
            for s in game_seeds(int_seed(seed), n)]
