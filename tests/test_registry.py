"""The registry of bots by name, and bot specs with options (``search:worlds=256``)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from fivecrowns import registry
from fivecrowns.bots import GreedyBot, RandomBot, StrongBot
from fivecrowns.errors import BotError
from fivecrowns.expert import ExpertBot
from fivecrowns.search import SearchBot


def test_every_built_in_bot_is_registered() -> None:
    assert registry.bot_names()[:4] == ("random", "greedy", "strong", "search")
    for name, cls in (("random", RandomBot), ("greedy", GreedyBot), ("strong", StrongBot),
                      ("search", SearchBot)):
        spec = registry.parse_bot(name)
        assert spec.cls is cls and spec.options == () and spec.label == name
        assert isinstance(spec.factory()(5), cls)
        assert registry.parse_bot(cls.__name__).cls is cls  # StrongBot is strong


def test_expert_is_registered() -> None:
    spec = registry.parse_bot("expert")
    assert spec.cls is ExpertBot and spec.options == () and "expert" in registry.bot_names()
    assert registry.parse_bot("ExpertBot").cls is ExpertBot
    assert isinstance(spec.factory()(1), ExpertBot)
    assert registry.parse_bot("search:policy=expert").factory()(0).policy == "expert"


def test_options_are_converted_to_the_constructors_types() -> None:
    spec = registry.parse_bot("search:worlds=8:policy=greedy:confidence=0.5:time_limit=none")
    assert spec.options == (("worlds", 8), ("policy", "greedy"), ("confidence", 0.5),
                            ("time_limit", None))
    assert spec.label == "search:worlds=8:policy=greedy:confidence=0.5:time_limit=None"
    bot = spec.factory()(3)
    assert (bot.worlds, bot.policy, bot.confidence, bot.time_limit) == (8, "greedy", 0.5, None)
    assert registry.parse_bot("search:time_limit=0.25").options == (("time_limit", 0.25),)
    assert registry.parse_bot("search:discard-weight=1").options == (("discard_weight", 1.0),)
    strong = registry.parse_bot("strong:lookahead=1:now_weight=0.5").factory()(0)
    assert (strong.lookahead, strong.now_weight) == (1, 0.5)
    assert registry.parse_bot("random:go_out=0").factory()(1).go_out == 0.0


def test_factories_pickle_and_make_fresh_seeded_bots() -> None:
    factory = pickle.loads(pickle.dumps(registry.parse_bot("search:worlds=4").factory()))
    a, b = factory(1), factory(1)
    assert a is not b and a.worlds == 4 and factory.name == "search:worlds=4"
    assert a.rng.integers(1 << 30) == b.rng.integers(1 << 30)  # the seed is passed


@pytest.mark.parametrize("text, message", [
    ("search:wrlds=256", "unknown option 'wrlds' for bot 'search' (did you mean 'worlds'?); "
                         "options: worlds, candidates, objective, policy"),
    ("greedy:depth=2", "unknown option 'depth' for bot 'greedy': it takes no options"),
    ("search:worlds=many", "option 'worlds' of bot 'search' expects an int, got 'many'"),
    ("search:confidence=high", "option 'confidence' of bot 'search' expects a number, "
                               "got 'high'"),
    ("search:time_limit=soon", "expects a number or none, got 'soon'"),
    ("search:policy=bogus", "bot 'search:policy=bogus': policy must be one of"),
    ("search:worlds=0", "bot 'search:worlds=0': worlds must be at least 1, got 0"),
    ("search:worlds=2:worlds=3", "option 'worlds' given twice for bot 'search'"),
    ("search:256", "'256' is not an option key=value"),
    ("clever", "unknown bot 'clever': expected one of random, greedy, strong, search, "
                "expert"),
    ("clever:x=1", "unknown bot 'clever'"),
    (":x=1", "expected NAME[:key=value"),
    ("fivecrowns.bots:", "expected a bot name"),
    ("fivecrowns.bots:Nope", "module 'fivecrowns.bots' has no 'Nope'"),
    ("fivecrowns.bots:best_discard_choice", "is not a player"),
])
def test_bad_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        registry.parse_bot(text)
    assert message in str(info.value)


def test_a_class_of_your_own_takes_options(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fc_opt_bots.py").write_text(
        "from fivecrowns.bots import GreedyBot\n"
        "class Deep(GreedyBot):\n"
        "    def __init__(self, seed: int, depth: int = 1, wild: bool = False,\n"
        "                 note: str = '') -> None:\n"
        "        super().__init__()\n"
        "        self.depth, self.wild, self.note = depth, wild, note\n"
        "class Fails(GreedyBot):\n"
        "    def __init__(self, level=1):\n"
        "        raise RuntimeError('no table')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fc_opt_bots", raising=False)
    spec = registry.parse_bot("fc_opt_bots:Deep:depth=3:wild=yes:note=hi")
    bot = spec.factory()(2)
    assert (bot.depth, bot.wild, bot.note) == (3, True, "hi") and spec.label.startswith("Deep:")
    assert registry.bot_options("fc_opt_bots:Deep") == {
        "depth": "int = 1", "wild": "bool = False", "note": "str = ''"}
    with pytest.raises(ValueError, match="option 'wild' of bot 'Deep' expects true or false"):
        registry.parse_bot("fc_opt_bots:Deep:wild=maybe")
    # no annotation: the default's type
    with pytest.raises(ValueError, match="bot 'fc_opt_bots:Fails:level=2': no table"):
        registry.parse_bot("fc_opt_bots:Fails:level=2")
    with pytest.raises(BotError, match=r"bot 'Fails': Fails\(\) raised RuntimeError"):
        registry.parse_bot("fc_opt_bots:Fails").factory()(1)


def test_register_is_one_line_and_checked() -> None:
    registry.register("tmp_greedy_twin", "fivecrowns.bots:GreedyBot", "a test entry")
    try:
        assert registry.parse_bot("tmp_greedy_twin").cls is GreedyBot
        assert "tmp_greedy_twin" in registry.describe_bots()
        with pytest.raises(ValueError, match="already registered"):
            registry.register("tmp_greedy_twin", "fivecrowns.bots:GreedyBot", "again")
    finally:
        del registry._REGISTRY["tmp_greedy_twin"]
    with pytest.raises(ValueError, match="lower-case identifier"):
        registry.register("Bad Name", "fivecrowns.bots:GreedyBot", "x")
    with pytest.raises(ValueError, match="'module:Class'"):
        registry.register("nocolon", "fivecrowns.bots.GreedyBot", "x")


def test_describe_bots_lists_every_bot_and_option() -> None:
    text = registry.describe_bots()
    for name in registry.bot_names():
        assert f"\n{name} " in f"\n{text}"
    assert "worlds: int = 64" in text and "lookahead: int = 3" in text
