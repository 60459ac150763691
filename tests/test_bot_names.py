"""Bots by name wherever the engine takes a policy (issue 37, item 3): one name for one bot.

Every entrance that names a compiled policy (``rollout.play_out``, ``play_out_actions``,
``play_games`` and its seats, ``play_worlds``, ``fivecrowns.decisions``, SearchBot's
``policy``, the engine's Python twin) turns the name through
:func:`fivecrowns.registry.engine_policy`: it takes the registry's spellings
(``StrongBot`` is ``strong``), refuses an unknown name with one message, and a registered
bot without a compiled policy (``learned``, ``search``) with another. Each entrance is
checked on both engines (the compiled one and its pure-Python twin).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fivecrowns import _engine_py, registry, rollout
from fivecrowns.actions import ACTION_DRAW_DECK, ACTION_DRAW_DISCARD
from fivecrowns.decisions import record_decisions, write_decisions
from fivecrowns.round import Round
from fivecrowns.search import SearchBot
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
    assert rollout.POLICIES == registry.engine_policies() == typing.get_args(rollout.Policy)
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
