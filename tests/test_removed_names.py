"""The 0.1 names that 0.2.0 renamed are gone in 0.3 (CHANGELOG.md, 0.3.0 Breaking): the
top level raises ``AttributeError`` for them, as for any unknown name."""

from __future__ import annotations

import pytest

import fivecrowns as fc

#: removed name -> what replaces it (still there)
REMOVED = {
    "best_discard_many": "discard_deadwood_many",
    "to_counts": "hand_counts",
    "tournament": "simulate_games",
    "TournamentResult": "GamesReport",
    "EntrantStats": "EntrantReport",
    "solitaire_many": "simulate_solitaire",
    "SolitaireStats": "SolitaireReport",
    "SolitairePlay": "PlayRecord",
}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_name_is_gone_and_its_replacement_is_there(name: str) -> None:
    with pytest.raises(AttributeError, match=f"no attribute '{name}'"):
        getattr(fc, name)
    assert name not in fc.__all__
    assert REMOVED[name] in fc.__all__


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        fc.nonsense  # noqa: B018

