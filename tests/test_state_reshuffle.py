"""``RoundState.reshuffle`` (the refill a blind draw makes first, called on its own by the
OpenSpiel state before a blind draw's chance node) and ``from_state``'s card just taken:
both twins alike."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from fivecrowns import _state_py
from fivecrowns._state import State as _State


def _emptied(cls: Any) -> Any:
    """A two-player round whose draw pile is played empty by blind draws."""
    s = cls.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(3))
    while s.n_draw:
        s.draw(False)
        s.discard(s.legal_actions()[0] - 2, False)
    return s


@pytest.mark.parametrize("cls", [_state_py.RoundState, _State])
def test_reshuffle_refills_as_a_blind_draw_would(cls: Any) -> None:
    a, b = _emptied(cls), _emptied(cls)
    pile = a.discard_pile()
    fresh = cls.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(3))
    with pytest.raises(ValueError, match="the draw pile holds 109 cards and the discard "
                                         "pile 1; expected 0 and at least 2"):
        fresh.reshuffle()
    a.reshuffle()
    assert a.discard_pile() == pile[-1:] and a.reshuffles == 1
    assert sorted(a.draw_pile()) == sorted(pile[:-1])
    card, reshuffled = b.draw(False)  # a blind draw that refills first ...
    assert reshuffled
    assert a.draw(False) == (card, False)  # ... draws what the refill put on top
    assert a.draw_pile() == b.draw_pile() and a.hands().tobytes() == b.hands().tobytes()
    with pytest.raises(ValueError, match="expected 0 and at least 2"):
        a.reshuffle()


@pytest.mark.parametrize("cls", [_state_py.RoundState, _State])
def test_the_card_just_taken_survives_a_pickle(cls: Any) -> None:
    s = cls.deal(2, 3, 3, 2, 1000, False, 0, False, np.random.default_rng(5))
    card, _ = s.draw(True)
    back = pickle.loads(pickle.dumps(s))
    assert s.taken == back.taken == card and back.must_keep() == s.must_keep() == card
