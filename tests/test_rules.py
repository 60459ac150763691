"""rules.py: the Rules dataclass, its validation and its derived numbers."""

from __future__ import annotations

import pytest

from fivecrowns import Rules


def test_defaults_and_repr() -> None:
    r = Rules()
    assert (r.decks, r.max_turns, r.tie_break, r.return_discard) == (2, 1000, False, False)
    assert repr(r) == "Rules(decks=2, max_turns=1000, tie_break=False, return_discard=False)"
    assert (r.n_cards, r.max_players, r.jokers) == (116, 7, 6)
    assert (Rules(decks=4).n_cards, Rules(decks=4).max_players) == (232, 14)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"decks": 3}, ValueError, "decks must be 2 .* or 4"),
    ({"decks": True}, TypeError, "decks must be an int"),
    ({"max_turns": 0}, ValueError, "at least 1"),
    ({"tie_break": 1}, TypeError, "tie_break must be a bool"),
    ({"return_discard": "no"}, TypeError, "return_discard must be a bool, got str"),
])
def test_validation(kwargs: dict[str, object], exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_round_numbers() -> None:
    assert [Rules.hand_size(r) for r in (1, 11)] == [3, 13]
    assert Rules.wild_rank(4) == 6
    with pytest.raises(ValueError, match="1..11"):
        Rules.hand_size(12)
    with pytest.raises(TypeError):
        Rules.wild_rank("3")  # type: ignore[arg-type]
