"""The deck's composition is written once in Python (fivecrowns.rules.deck_counts, and
sorted_deck, the order a deal shuffles), and every Python place that needs it agrees with
it; the compiled core, which writes it once more in its deal, deals the same cards."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conftest import compiled_rollout
from fivecrowns import _state_py, dealing, deck, public
from fivecrowns.cards import JOKER_INDEX, N_TYPES
from fivecrowns.envs import _spiel_state
from fivecrowns.rules import Rules, deck_counts, sorted_deck
from fivecrowns.solitaire import game as solitaire_game

ALL_DECKS = (1, 2, 3, 4)
GAME_DECKS = (2, 4)  # what Rules (and every state) takes


def _expected(decks: int) -> list[int]:
    # docs/rules.rst, Cards: per deck one of each of the 55 suited cards and 3 jokers
    return [decks] * JOKER_INDEX + [3 * decks]


@pytest.mark.parametrize("decks", ALL_DECKS)
def test_deck_counts_is_the_rules_deck(decks: int) -> None:
    counts = deck_counts(decks)
    assert list(counts) == _expected(decks)
    assert len(counts) == N_TYPES and sum(counts) == 58 * decks
    cards = sorted_deck(decks)
    assert list(cards) == sorted(cards)
    assert np.bincount(cards, minlength=N_TYPES).tolist() == list(counts)


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-2, ValueError),
                                        (2.0, TypeError), (True, TypeError),
                                        ("2", TypeError), (None, TypeError)])
def test_deck_counts_refuses_what_is_no_number_of_decks(bad: Any, error: type) -> None:
    with pytest.raises(error, match="decks must"):
        deck_counts(bad)
    with pytest.raises(error, match="decks must"):
        sorted_deck(bad)


def test_deck_counts_takes_numpy_integers() -> None:
    assert deck_counts(np.int64(4)) == deck_counts(4)
    assert sorted_deck(np.int8(2)) == sorted_deck(2)


@pytest.mark.parametrize("decks", ALL_DECKS)
def test_the_places_taking_a_number_of_decks_agree(decks: int) -> None:
    counts, cards = list(deck_counts(decks)), list(sorted_deck(decks))
    assert _state_py.full_counts(decks).tolist() == counts
    assert _state_py._sorted_deck(decks).tolist() == cards
    assert deck._sorted_deck(decks).tolist() == cards
    assert dealing._deck(decks).tolist() == cards
    assert _spiel_state.Config(2, 11, decks, 100).deck == cards


@pytest.mark.parametrize("decks", GAME_DECKS)
def test_the_places_taking_rules_agree(decks: int) -> None:
    counts, cards = list(deck_counts(decks)), list(sorted_deck(decks))
    r = Rules(decks=decks)
    assert (r.copies, r.jokers, r.n_cards) == (counts[0], counts[JOKER_INDEX], len(cards))
    assert deck.full_counts(r).tolist() == counts
    assert deck._SORTED[decks].tolist() == cards
    assert solitaire_game._deck(r).tolist() == cards
    no_hand = np.zeros(N_TYPES, dtype=np.uint8)
    assert public.PublicState(3, r).unseen(0, no_hand).tolist() == counts
    assert deck.Deck(seed=1, rules=r).draw_size == len(cards)


def test_the_state_twin_keeps_its_arrays_whole() -> None:
    # full_counts hands out a copy the state changes as cards are seen; the cache stays
    row = _state_py.full_counts(2)
    row[:] = 0
    assert _state_py.full_counts(2).tolist() == list(deck_counts(2))


def _all_cards(s: Any) -> list[int]:
    """The copies of each card type anywhere in a round state: hands, draw and discard."""
    total = s.hands().astype(np.int64).sum(axis=0)
    total += np.bincount(np.array(s.draw_pile() + s.discard_pile(), dtype=np.intp),
                         minlength=N_TYPES)
    return total.tolist()


@pytest.fixture(scope="module")
def compiled_state() -> Any:
    return compiled_rollout("_round_state").RoundState


@pytest.mark.parametrize("decks, n", [(2, 2), (2, 7), (4, 3), (4, 14)])
def test_the_compiled_deal_holds_the_deck(compiled_state: Any, decks: int, n: int) -> None:
    deal = (n, 9, 9, decks, 100, False, 0, False)
    c = compiled_state.deal(*deal, np.random.default_rng(5))
    assert _all_cards(c) == list(deck_counts(decks))
    # and shuffles the very order the Python twin shuffles (sorted_deck): the same seed,
    # the same cards in the same places
    p = _state_py.RoundState.deal(*deal, np.random.default_rng(5))
    assert (c.hands().tolist(), c.draw_pile(), c.discard_pile()) == \
        (p.hands().tolist(), p.draw_pile(), p.discard_pile())


@pytest.mark.parametrize("decks", GAME_DECKS)
def test_the_state_in_use_deals_the_deck(decks: int) -> None:
    from fivecrowns._state import State
    s = State.deal(4, 7, 7, decks, 100, False, 1, False, np.random.default_rng(3))
    assert _all_cards(s) == list(deck_counts(decks))
    assert s.hidden_counts().astype(np.int64).tolist() == \
        (np.array(deck_counts(decks)) - np.bincount(s.discard_pile(),
                                                    minlength=N_TYPES)).tolist()



@pytest.mark.parametrize("decks", GAME_DECKS)
def test_the_solvers_copy_checks_take_the_decks_counts(decks: int) -> None:
    # The solver's input checks (_checks, both twins raise through them), the file
    # scorer's row check (_batches._over) and the twin's draw table: a hand may hold
    # every copy deck_counts gives of a card, and no more
    import fivecrowns
    from fivecrowns import _batches, _checks, _solver_py
    limits = deck_counts(decks)
    assert _checks.copy_limits(decks).tolist() == list(limits)
    for t in (0, 17, 54, JOKER_INDEX):
        full = np.zeros(N_TYPES, dtype=np.uint8)
        full[t] = limits[t]
        _checks.check_row(full, decks)
        fivecrowns.deadwood(full, 13, decks=decks)
        assert fivecrowns.draw_table(full, 13, decks=decks)[t] == -1
        assert _solver_py.draw_table_row(full, 13, decks)[t] == -1
        one_less = full.copy()
        one_less[t] -= 1
        assert fivecrowns.draw_table(one_less, 13, decks=decks)[t] >= 0
        assert _solver_py.draw_table_row(one_less, 13, decks)[t] >= 0
        over = full.copy()
        over[t] += 1
        with pytest.raises(ValueError, match=f"{decks} decks hold only {limits[t]}$"):
            fivecrowns.deadwood(over, 13, decks=decks)
        batch = np.stack([full, over, full])
        assert _batches._over(batch, decks).tolist() == [False, True, False]
        with pytest.raises(ValueError, match=f"^hand 1: .* hold only {limits[t]}$"):
            fivecrowns.deadwood_many(batch, 13, decks=decks)
        wide = batch.astype(np.int16)
        wide[1, t] = max(limits) + 1
        with pytest.raises(ValueError, match=f"counts must be 0..{max(limits)} "):
            fivecrowns.deadwood_many(wide, 13, decks=decks)
