"""The 0.1 names renamed in 0.2.0 still work from the top level, with a DeprecationWarning."""

from __future__ import annotations

import numpy as np
import pytest

import fivecrowns as fc
from fivecrowns._deprecated import RENAMED


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_old_name_warns_and_names_the_new_one(name: str) -> None:
    instead = RENAMED[name][0].split("(")[0].split(" ")[0]
    with pytest.warns(DeprecationWarning, match=f"fivecrowns.{name} was renamed.*{instead}"):
        obj = getattr(fc, name)
    assert obj is not None
    assert name not in fc.__all__


def test_old_names_do_what_the_new_ones_do() -> None:
    rows = fc.random_hands(20, 8, rng=1)
    with pytest.warns(DeprecationWarning):
        old = fc.best_discard_many(rows, 8)
    assert np.array_equal(old, fc.discard_deadwood_many(rows, 8))
    with pytest.warns(DeprecationWarning):
        assert fc.to_counts("3C 3C").tolist() == fc.hand_counts("3C 3C").tolist()
    with pytest.warns(DeprecationWarning):
        old_t = fc.tournament([fc.GreedyBot, fc.GreedyBot], 2, 5, rounds=[1])
    new_t = fc.simulate_games([fc.GreedyBot, fc.GreedyBot], 2, seed=5, rounds=[1])
    assert np.array_equal(old_t.scores, new_t.scores)
    with pytest.warns(DeprecationWarning):
        old_s = fc.solitaire_many("greedy", 2, 3)
    assert old_s.results == fc.simulate_solitaire("greedy", 2, seed=3).results
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="tqdm"):
        fc.solitaire_many("greedy", 2, 3, progress=True)


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        fc.nonsense  # noqa: B018
