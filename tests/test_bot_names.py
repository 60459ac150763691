"""Bots by name wherever the engine takes a policy (issue 37, item 3): one name for one bot.

Every entrance that names a compiled policy (``rollout.play_out``, ``play_out_actions``,
``play_games`` and its seats, ``play_worlds``, ``fivecrowns.decisions``, SearchBot's
``policy``, the engine's Python twin) turns the name through
:func:`fivecrowns.registry.engine_policy`: it takes the registry's spellings
(``StrongBot`` is ``strong``), refuses an unknown name with one message, and a registered
bot without a compiled policy (``learned``, ``search``) with another. Each entrance is
checked on both engines (the compiled one and its pure-Python twin).

Every entrance that takes a player or an entrant (``simulate_games``, ``duplicate_match``,
``play_game``) takes a bot's registry spec too, and plays the same games with it as with
the class.
"""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fivecrowns import (
    GreedyBot,
    RandomBot,
    StrongBot,
    _bot_games,
    _engine_py,
    duplicate_match,
    play_game,
    registry,
    rollout,
    simulate_games,
)
from fivecrowns.actions import ACTION_DRAW_DECK, ACTION_DRAW_DISCARD
from fivecrowns.decisions import record_decisions, write_decisions
from fivecrowns.players import entrant_factory
from fivecrowns.round import Round
from fivecrowns.search import SearchBot
from fivecrowns.seeding import int_seed, play_seeds
from helpers.engines import ENGINES, engine

ALL = "greedy, random, strong, expert"


def _as_written(name: str) -> Any:
    """A policy as a user may write it (the signatures' type names the engine's spellings)."""
    return name


STRONG_BOT = _as_written("StrongBot")


def _refuses(call: Callable[[Any], object], what: str = "policy", taken: str = ALL,
             user: str = "the engine", non_str: str | None = None) -> None:
    """``call(name)`` refuses an unknown name, bots without a compiled policy and a name
    that is not a str (``non_str``: the message where a sequence of them is taken too),
    each with its one message, which lists the policies ``taken`` there."""
    for name, message in (
            ("best", f"{what} must be one of {taken}, got 'best'"),
            ("learned", f"{what} 'learned' is LearnedBot, which has no compiled policy: "
                        f"{user} plays {taken}"),
            ("LearnedBot", f"{what} 'LearnedBot' is LearnedBot, which has no compiled "
                           f"policy: {user} plays {taken}"),
            ("search", f"{what} 'search' is SearchBot, which has no compiled policy: "
                       f"{user} plays {taken}")):
        with pytest.raises(ValueError) as info:
            call(name)
        assert str(info.value) == message, name
    expected = non_str or f"{what} must be a str, one of {taken}; got int"
    with pytest.raises(TypeError) as type_info:
        call(3)
    assert str(type_info.value) == expected


@pytest.fixture(params=ENGINES)
def twin(request: pytest.FixtureRequest) -> Any:
    with engine(request.param) as ran:
        if not ran:
            pytest.skip("the compiled engine is not built")
        yield request.param


def _round() -> Round:
    r = Round(3, round_number=2, seed=11)
    r.apply_action(ACTION_DRAW_DECK)
    return r


# -- the registry's one function --------------------------------------------------------------

def test_engine_policy_takes_the_registrys_spellings() -> None:
    for written in ("strong", "StrongBot", " Strong ", "STRONGBOT", "strongbot"):
        assert registry.engine_policy(written) == "strong"
    assert registry.engine_policy("ExpertBot") == "expert"
    assert registry.engine_policy("RandomBot") == "random"
    _refuses(registry.engine_policy)
    with pytest.raises(ValueError, match="^policy 'RandomBot': play_worlds plays greedy, "
                                         "strong, expert, not random$"):
        registry.engine_policy("RandomBot", exclude=("random",), user="play_worlds")


def test_the_policies_and_their_numbers_come_from_the_registry() -> None:
    # The numbers are the engine's C interface and stored in decision records: fixed.
    assert registry.engine_policies() == ("greedy", "random", "strong", "expert")
    # the type lists the policies first, then their class names (tests/test_policy_type.py)
    assert rollout.POLICIES == registry.engine_policies() == \
        typing.get_args(rollout.Policy)[:len(rollout.POLICIES)]
    played = {e.name: e.policy for e in map(registry.bot_entry, registry.bot_names())}
    assert played == {"random": 1, "greedy": 0, "strong": 2, "search": None, "expert": 3,
                      "learned": None}
    assert set(_engine_py.POLICY_BOTS) == {"greedy", "strong", "expert"}
    assert all(_engine_py.POLICY_BOTS[n] is registry.parse_bot(n).cls
               for n in _engine_py.POLICY_BOTS)
    with pytest.raises(ValueError, match="only the built-in bots have a compiled policy"):
        registry.register("tmp_compiled", "fivecrowns.bots:GreedyBot", "x", policy=4)
    assert "tmp_compiled" not in registry.bot_names()


# -- each entrance, on both engines -------------------------------------------------------------

def test_play_out(twin: str) -> None:
    r = _round()
    assert np.array_equal(rollout.play_out([r], policy=STRONG_BOT),
                          rollout.play_out([r], policy="strong"))
    assert np.array_equal(rollout.play_out([r], policy=_as_written(" RandomBot "), seed=3),
                          rollout.play_out([r], policy="random", seed=3))
    _refuses(lambda name: rollout.play_out([r], policy=name))


def test_play_out_actions(twin: str) -> None:
    r = _round()
    assert rollout.play_out_actions(r, policy=_as_written("GreedyBot")) == \
        rollout.play_out_actions(r, policy="greedy")
    _refuses(lambda name: rollout.play_out_actions(r, policy=name))


def test_play_games_and_its_seats(twin: str) -> None:
    kw: dict[str, Any] = {"seed": 4, "n_players": 2, "rounds": [1]}
    assert np.array_equal(rollout.play_games(2, policy=STRONG_BOT, **kw),
                          rollout.play_games(2, policy="strong", **kw))
    assert np.array_equal(
        rollout.play_games(2, policy=[STRONG_BOT, _as_written(" greedy")], **kw),
        rollout.play_games(2, policy=["strong", "greedy"], **kw))
    _refuses(lambda name: rollout.play_games(1, policy=name, **kw),
             non_str="policy must be a str or a sequence of str (one per seat), got int")
    _refuses(lambda name: rollout.play_games(1, policy=["strong", name], **kw), "policy[1]")


def test_play_worlds(twin: str) -> None:
    r = Round(2, round_number=1, seed=5)
    actions = [ACTION_DRAW_DECK, ACTION_DRAW_DISCARD]
    assert np.array_equal(rollout.play_worlds(r, actions, worlds=2, seed=0, policy=STRONG_BOT),
                          rollout.play_worlds(r, actions, worlds=2, seed=0, policy="strong"))
    _refuses(lambda name: rollout.play_worlds(r, actions, worlds=2, seed=0, policy=name),
             taken="greedy, strong, expert", user="play_worlds")
    # the random policy is the one the worlds do not play: the message names the others
    with pytest.raises(ValueError, match="^policy 'random': play_worlds plays greedy, strong, "
                                         "expert, not random$"):
        rollout.play_worlds(r, actions, worlds=2, seed=0, policy="random")


def test_decisions(twin: str, tmp_path: Path) -> None:
    # no game played: the arguments are checked the same way on both engines, and the
    # file's meta names the policies as the engine numbers them
    f = write_decisions(tmp_path / "d.npz", 0, seed=1, n_players=2,
                        policy=[_as_written("ExpertBot"), STRONG_BOT])
    with np.load(f.path) as data:
        assert json.loads(str(data["meta"].reshape(-1)[0]))["policy"] == ["expert", "strong"]
    _refuses(lambda name: record_decisions(0, seed=1, n_players=2, policy=name),
             non_str="policy must be a str or a sequence of str (one per seat), got int")
    _refuses(lambda name: record_decisions(0, seed=1, n_players=2, policy=[name, "strong"]),
             "policy[0]")


def test_search_bots_rollout_policy(twin: str) -> None:
    bot = SearchBot(seed=0, worlds=2, policy="ExpertBot")
    assert bot.policy == "expert" and "policy='expert'" in repr(bot)
    assert registry.parse_bot("search:policy=StrongBot").factory()(0).policy == "strong"
    r = _round()
    obs = r.observation(r.current_player)
    assert SearchBot(seed=1, worlds=2, policy=" GreedyBot").choose_discard(obs) == \
        SearchBot(seed=1, worlds=2, policy="greedy").choose_discard(obs)
    _refuses(lambda name: SearchBot(seed=0, policy=name), taken="greedy, strong, expert",
             user="SearchBot")
    with pytest.raises(ValueError, match="^policy 'random': SearchBot plays greedy, strong, "
                                         "expert, not random$"):
        SearchBot(seed=0, policy="random")
    with pytest.raises(ValueError, match="^bot 'search:policy=learned': policy 'learned' is "
                                         "LearnedBot, which has no compiled policy"):
        registry.parse_bot("search:policy=learned")


def test_the_python_twins_own_entrances() -> None:
    r = _round()
    assert np.array_equal(_engine_py.play_out([r], STRONG_BOT), _engine_py.play_out([r], "strong"))
    _refuses(lambda name: _engine_py.play_out([r], name))
    seeds = [7]
    kw: dict[str, Any] = {"n_players": 2, "rules": r.rules, "plan": [1], "first_dealer": 0}
    assert np.array_equal(_engine_py.play_games(seeds, policies=["StrongBot", "greedy"], **kw),
                          _engine_py.play_games(seeds, policies=["strong", "greedy"], **kw))
    _refuses(lambda name: _engine_py.play_games(seeds, policies=[name, "greedy"], **kw),
             "policies[0]")


# -- bots by name where a player or an entrant is taken ---------------------------------------
# simulate_games, duplicate_match and play_game take a bot's registry spec wherever they
# take a player class, a factory or a player: the same games as with the class (or the
# player the spec makes), the registry's label as the bot's name, the registry's one
# message for an unknown name.

def _unknown_message(name: str) -> str:
    with pytest.raises(ValueError) as info:
        registry.parse_bot(name)
    return str(info.value)


def _same_games(a: Any, b: Any) -> None:
    assert a.seeds == b.seeds and a.hit_max_turns == b.hit_max_turns
    assert a.scores.tolist() == b.scores.tolist() and a.wins.tolist() == b.wins.tolist()


# module:Class and an option: the Python route; the built-in names: the engine's route
NAMED = ["strong", "GreedyBot", " random ", "fivecrowns.bots:GreedyBot", "strong:lookahead=1"]
CLASSES: list[Any] = [StrongBot, GreedyBot, RandomBot, GreedyBot,
                      functools.partial(StrongBot, lookahead=1)]
LABELS = ["strong", "greedy", "random", "GreedyBot", "strong:lookahead=1"]


def test_simulate_games_by_name(twin: str) -> None:
    kw: dict[str, Any] = {"seed": 2, "rounds": [1, 2]}
    records: dict[str, list[dict[str, Any]]] = {"names": [], "classes": []}
    by_name = simulate_games(NAMED, 5, on_record=records["names"].append, **kw)
    by_class = simulate_games(CLASSES, 5, on_record=records["classes"].append, **kw)
    _same_games(by_name, by_class)
    assert [e.name for e in by_name.entrants] == LABELS
    assert records["names"][1]["players"] == [*LABELS[1:], LABELS[0]]  # seats rotate
    assert [{**r, "players": None} for r in records["names"]] == \
        [{**r, "players": None} for r in records["classes"]]
    # the built-in bots by name stay on the engine's route (one look into the factory)
    for name, cls in zip(NAMED[:3], CLASSES[:3]):
        assert _bot_games.entrant_policy(entrant_factory(name)) == \
            _bot_games.entrant_policy(cls) is not None
    with pytest.raises(ValueError) as info:
        simulate_games(["strong", "strnog"], 1, seed=0)
    assert str(info.value) == _unknown_message("strnog")
    # a str is one spec, not a sequence of one-letter entrants
    with pytest.raises(TypeError, match="^entrants must be a sequence of entrants \\(one a "
                                        "seat\\), got str 'strong'$"):
        simulate_games("strong", 1, seed=0)


def test_duplicate_match_by_name(twin: str) -> None:
    kw: dict[str, Any] = {"seed": 1, "rounds": [1, 2]}
    by_name = duplicate_match("StrongBot", "random", ["greedy", "strong:lookahead=1"], 4, **kw)
    by_class = duplicate_match(StrongBot, RandomBot,
                               [GreedyBot, functools.partial(StrongBot, lookahead=1)], 4, **kw)
    assert (by_name.bot, by_name.reference, by_name.field) == \
        ("strong", "random", ("greedy", "strong:lookahead=1"))
    assert by_name.seeds == by_class.seeds
    assert (by_name.gain, by_name.gain_ci) == (by_class.gain, by_class.gain_ci)
    assert by_name.scores.tolist() == by_class.scores.tolist()
    assert by_name.reference_scores.tolist() == by_class.reference_scores.tolist()
    for where in ({"bot": "strnog"}, {"reference": "strnog"}, {"field": ["strnog"]}):
        args: dict[str, Any] = {"bot": "strong", "reference": "greedy", "field": ["random"],
                                **where}
        with pytest.raises(ValueError) as info:
            duplicate_match(args["bot"], args["reference"], args["field"], 1, seed=0)
        assert str(info.value) == _unknown_message("strnog"), where


def test_play_game_by_name(twin: str) -> None:
    kw: dict[str, Any] = {"seed": 5, "rounds": [1, 2]}
    own = play_seeds(5, 0, 3)  # the seeds `fivecrowns play` gives its bots
    assert play_game(["random", "StrongBot", "greedy"], **kw) == \
        play_game([RandomBot(seed=own[0]), StrongBot(), GreedyBot()], **kw)
    # a name beside a player object, off the engine's route (an option), its own seed
    mixed = play_game([GreedyBot(), "strong:lookahead=1", "random"], **kw)
    assert mixed == play_game([GreedyBot(), StrongBot(lookahead=1),
                               RandomBot(seed=own[2])], **kw)
    # a Generator gives one int: the game deals from it and the bots are seeded from it
    seed = int_seed(np.random.default_rng(8))
    got = play_game(["random", "greedy"], seed=np.random.default_rng(8), rounds=[1, 2])
    assert got.seed == seed
    assert got == play_game([RandomBot(seed=play_seeds(seed, 0, 2)[0]), GreedyBot()],
                            seed=seed, rounds=[1, 2])
    with pytest.raises(ValueError) as info:
        play_game(["greedy", "strnog"], **kw)
    assert str(info.value) == _unknown_message("strnog")
    with pytest.raises(TypeError, match="^players must be a sequence of players or bot "
                                        "names \\(one a seat\\), got str 'greedy'$"):
        play_game("greedy", **kw)
    # a class where a player goes: said at once, not at its first move
    with pytest.raises(TypeError, match="^players\\[1\\] is the class GreedyBot, not a "
                                        "player: give an instance \\(GreedyBot\\(...\\)\\) "
                                        "or a bot's name$"):
        play_game([GreedyBot(), GreedyBot], **kw)  # type: ignore[list-item]


def test_a_spec_with_its_defaults_is_seen_as_its_class() -> None:
    # what decides the simulators' blocks of engine games (2.2x the time for
    # "strong:lookahead=3" when it was not seen as StrongBot); each game still checks
    # its players, so a wrong guess would only be slower, never other games
    for spec, cls in (("strong:lookahead=3:now_weight=0.35", StrongBot),
                      ("random:go_out=1", RandomBot)):
        assert _bot_games.entrant_policy(registry.parse_bot(spec).factory()) == \
            _bot_games.entrant_policy(cls) is not None, spec
    for spec in ("strong:lookahead=2", "random:go_out=0.5", "search", "learned"):
        assert _bot_games.entrant_policy(registry.parse_bot(spec).factory()) is None, spec
