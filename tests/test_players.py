"""players.py: play_game, player_action, BotError for misbehaving players, and entrant
factories."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from fivecrowns import BotError
from fivecrowns.actions import Source, decode_action
from fivecrowns.bots import GreedyBot, RandomBot
from fivecrowns.cards import Card
from fivecrowns.players import Player, entrant_factory, play_game, player_action
from fivecrowns.records import Observation, Phase
from fivecrowns.round import Round

# -- misbehaving bots --

class Raiser:
    def choose_draw(self, obs: Observation) -> Source:
        raise RuntimeError("boom")

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        raise RuntimeError("boom")


class Cheater(GreedyBot):
    """Goes out whatever its hand."""

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        card, _ = super().choose_discard(obs)
        return card, True


class Phantom(GreedyBot):
    """Discards a card it does not hold."""

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        missing = int(np.flatnonzero(obs.counts == 0)[0])
        return Card.from_index(missing), False


class Returner(GreedyBot):
    """Takes every top discard and throws it straight back."""

    def choose_draw(self, obs: Observation) -> str:
        return "discard" if obs.top_discard is not None else "deck"

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        assert obs.drawn is not None
        return obs.drawn, False


class Sloppy(GreedyBot):
    def choose_discard(self, obs: Observation) -> Card:  # type: ignore[override]
        return super().choose_discard(obs)[0]


@pytest.mark.parametrize("bot, match", [
    (Raiser(), r"seed 77, round 1, turn 1, seat 1 \(Raiser\) raised RuntimeError: boom"),
    (Cheater(), r"seed 77, round 1, .* made an illegal move .*cannot go out discarding"),
    (Phantom(), r"seed 77, round 1, .* made an illegal move .*not in their hand"),
    (Sloppy(), r"seed 77, .* choose_discard must return \(card, go_out\)"),
    (Returner(), r"seed 77, .* illegal move .*it was just taken from the discard pile"),
])
def test_bot_errors_name_the_seed(bot: Player, match: str) -> None:
    with pytest.raises(BotError, match=match):
        play_game([GreedyBot(), bot], seed=77, rounds=[1, 2])


# -- player_action --

def test_player_action_is_the_bots_own_choice_in_either_phase() -> None:
    seen = {Phase.DRAW: 0, Phase.DISCARD: 0}
    for seed in range(6):
        r = Round(3, 4, seed=seed)
        bot = GreedyBot()
        while not r.is_over:
            obs = r.observation(r.current_player)
            kind, what, out = decode_action(player_action(bot, obs))
            if obs.phase is Phase.DRAW:
                assert (kind, what, out) == ("draw", Source(bot.choose_draw(obs)), False)
            else:
                card, going = bot.choose_discard(obs)
                assert (kind, what, out) == ("discard", Card.parse(str(card)), going)
            seen[obs.phase] += 1
            r.apply_action(player_action(bot, obs))
    assert min(seen.values()) > 10


class Texty(GreedyBot):
    """Answers in text and ints, as the Player protocol allows."""

    def choose_draw(self, obs: Observation) -> str:
        return "discard"

    def choose_discard(self, obs: Observation) -> tuple[str, int]:  # type: ignore[override]
        card, _ = super().choose_discard(obs)
        return str(card), 0


def test_player_action_takes_every_spelling_and_refuses_bad_answers() -> None:
    r = Round(2, 3, seed=1)
    assert player_action(Texty(), r.observation(r.current_player)) == 1
    r.apply_action(1)
    obs = r.observation(r.current_player)
    assert decode_action(player_action(Texty(), obs))[2] is False
    with pytest.raises(TypeError, match=r"choose_discard must return \(card, go_out\)"):
        player_action(Sloppy(), obs)

    class Misspelt(GreedyBot):
        def choose_discard(self, obs: Observation) -> tuple[str, bool]:  # type: ignore[override]
            return "5X", False

    with pytest.raises(ValueError, match="5X"):
        player_action(Misspelt(), obs)
    with pytest.raises(TypeError, match="obs must be an Observation, got str"):
        player_action(GreedyBot(), "obs")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is not a Player: it has no choose_discard"):
        player_action(object(), obs)  # type: ignore[arg-type]


def test_play_game_rejects_non_players() -> None:
    with pytest.raises(TypeError, match="is not a Player"):
        play_game([GreedyBot(), object()], seed=1)  # type: ignore[list-item]


# -- entrants --

class NoSeed:
    """A bot written as the docs show: no seed argument at all."""

    def choose_draw(self, obs: Observation) -> str:
        return "deck"

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        return obs.hand[-1] if obs.must_keep != obs.hand[-1] else obs.hand[0], False


def seeded_factory(seed: int) -> RandomBot:
    return RandomBot(seed=seed)


def positional_factory(s: int) -> RandomBot:
    return RandomBot(s)


def test_entrant_factory_calls_with_seed_or_nothing() -> None:
    assert isinstance(entrant_factory(NoSeed)(3), NoSeed)
    a, b = entrant_factory(RandomBot)(3), RandomBot(seed=3)
    assert a.rng.integers(1000) == b.rng.integers(1000)
    assert isinstance(entrant_factory(seeded_factory)(3), RandomBot)
    f = entrant_factory(NoSeed)
    assert isinstance(pickle.loads(pickle.dumps(f))(1), NoSeed)


@pytest.mark.parametrize("entrant, match", [
    (GreedyBot(), "an entrant must be a Player class or a picklable callable"),
    (positional_factory, "needs other arguments"),
    (lambda: object(), "returned <object object"),
])
def test_entrant_factory_rejects_anything_else(entrant: object, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        entrant_factory(entrant)(1)


def test_bot_classes_with_a_seed_get_one() -> None:
    bot = entrant_factory(RandomBot)(11)
    assert isinstance(bot, Player) and np.array_equal(
        bot.rng.integers(0, 100, 5), RandomBot(11).rng.integers(0, 100, 5))
    assert Source.DECK == 0
