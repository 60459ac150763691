"""actions.py: the action codes, their text, and the argument types of moves."""

from __future__ import annotations

import numpy as np
import pytest

from fivecrowns import CardError, IllegalMoveError
from fivecrowns.actions import (
    ACTION_DISCARD,
    ACTION_DRAW_DECK,
    ACTION_DRAW_DISCARD,
    ACTION_GO_OUT,
    N_ACTIONS,
    Source,
    card_index,
    decode_action,
    describe_action,
    encode_discard,
    encode_draw,
)
from fivecrowns.cards import Card


def test_action_encoding_round_trips() -> None:
    assert N_ACTIONS == 114 == ACTION_GO_OUT + 56 and ACTION_DISCARD == 2
    assert encode_draw(Source.DECK) == ACTION_DRAW_DECK
    assert encode_draw("discard") == ACTION_DRAW_DISCARD == encode_draw(1)
    for t in range(56):
        for out in (False, True):
            a = encode_discard(t, go_out=out)
            assert decode_action(a) == ("discard", Card.from_index(t), out)
            assert decode_action(np.int64(a)) == decode_action(a)
    assert describe_action(0) == "deck" and describe_action(58) == "-3C out"
    with pytest.raises(IllegalMoveError, match="0..113"):
        decode_action(114)
    with pytest.raises(TypeError):
        decode_action(True)


def test_card_index_takes_cards_text_and_ints() -> None:
    assert card_index("JK") == 55 == card_index(np.uint8(55)) == card_index(Card.parse("JK"))
    with pytest.raises(CardError, match="0..55"):
        card_index(56)
    with pytest.raises(TypeError, match="a card must be"):
        card_index(2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad, exc", [("hand", ValueError), (2, TypeError), (True, TypeError),
                                      (None, TypeError)])
def test_bad_sources(bad: object, exc: type) -> None:
    with pytest.raises(exc, match="a draw source must be"):
        encode_draw(bad)  # type: ignore[arg-type]


def test_old_module_paths_still_work() -> None:
    import fivecrowns.round as old

    assert old.Source is Source and old.encode_draw is encode_draw
    assert old.N_ACTIONS == N_ACTIONS
