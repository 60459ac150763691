"""rollout.Policy, the type of every policy argument, admits the spellings the registry
takes for a bot with a compiled policy (its name and its class's name), and the import
refuses a type that has drifted from the registry."""

from __future__ import annotations

import dataclasses
import typing
from typing import Literal

import numpy as np
import pytest

from fivecrowns import registry, rollout
from fivecrowns.round import Round


def test_policy_lists_each_policy_and_its_class_name() -> None:
    spelled = typing.get_args(rollout.Policy)
    classes = tuple(registry.parse_bot(p).cls.__name__ for p in rollout.POLICIES)
    assert classes == ("GreedyBot", "RandomBot", "StrongBot", "ExpertBot")
    assert spelled == rollout.POLICIES + classes
    assert [registry.engine_policy(s) for s in spelled] == list(rollout.POLICIES) * 2


@pytest.mark.parametrize("spelling", typing.get_args(rollout.Policy))
def test_every_spelling_of_the_type_plays_its_policy(spelling: rollout.Policy) -> None:
    canonical = registry.engine_policy(spelling)
    r = Round(3, 4, seed=11)
    a = rollout.play_out([r], policy=spelling, seed=2)
    b = rollout.play_out([r], policy=canonical, seed=2)  # type: ignore[arg-type]
    assert np.array_equal(a, b)


def test_the_check_passes_as_shipped() -> None:
    rollout._check_policy_type()


@pytest.mark.parametrize("drifted", [
    Literal["greedy", "random", "strong", "expert"],  # 0.5's type before: no class names
    Literal["greedy", "random", "strong", "expert",
            "GreedyBot", "RandomBot", "StrongBot"],
    Literal["random", "greedy", "strong", "expert",
            "RandomBot", "GreedyBot", "StrongBot", "ExpertBot"],  # not the engine's order
])
def test_a_type_that_drifted_from_the_registry_is_refused(
        monkeypatch: pytest.MonkeyPatch, drifted: object) -> None:
    monkeypatch.setattr(rollout, "Policy", drifted)
    with pytest.raises(ImportError, match="rollout.Policy names"):
        rollout._check_policy_type()


def test_a_registry_that_drifted_from_the_type_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.bot_entry("strong")
    monkeypatch.setitem(registry._REGISTRY, "strong",
                        dataclasses.replace(entry, target="fivecrowns.bots:StrongerBot"))
    with pytest.raises(ImportError, match="StrongerBot"):
        rollout._check_policy_type()
