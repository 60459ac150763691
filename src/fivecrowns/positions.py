"""Rounds from an explicit state, and samples of what one player cannot see.

:class:`RoundPositions` gives :class:`~fivecrowns.round.Round` its ``from_state``,
``from_observation`` and ``determinize`` (search bots build on them). They live here to
keep the state machine's module small, and as a base class so that this module needs
nothing from :mod:`fivecrowns.round`: ``round`` imports ``positions``, never the reverse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from . import solver
from ._checks import check_int, check_seat, check_table
from ._deprecation import renamed_parameters
from ._state import State
from ._state_py import RoundState
from .actions import (
    _CARDS,
    CardArg,
    card_index,
)
from .cards import N_TYPES, Card, HandLike, parse_cards
from .deck import full_counts
from .public import Frozen, PublicState, _TakenRows
from .records import Event, EventKind, Observation, Phase
from .rules import Rules
from .seeding import SeedLike, make_rng

__all__ = ["RoundPositions"]

_DRAW, _DISCARD, _OVER = Phase.DRAW, Phase.DISCARD, Phase.OVER

_R = TypeVar("_R", bound="RoundPositions")


class RoundPositions:
    """The base of :class:`~fivecrowns.round.Round`: rounds built from a given state.

    The declarations in its body (for type checkers only) are the part of a round's
    state these methods read and write; :class:`~fivecrowns.round.Round` defines them
    all, and mypy checks that its definitions agree.
    """

    if TYPE_CHECKING:  # for type checkers; at run time, Round's own attributes serve
        n_players: int
        hand_size: int
        wild: int
        sudden_death: bool
        _no_return: bool
        _state: RoundState
        _history: list[Event]
        _frozen: tuple[Any, int, Frozen] | None
        _taken_rows: _TakenRows | None

        @property
        def phase(self) -> Phase: ...

        def __init__(self, n_players: int, round_number: int | None = None, *,
                     seed: SeedLike, rules: Rules | None = None, dealer: int = 0,
                     hand_size: int | None = None, wild: int | None = None,
                     sudden_death: bool = False,
                     totals: tuple[int, ...] | None = None) -> None: ...

        def _check_player(self, player: int) -> int: ...

        def clone(self: _R) -> _R: ...

    @classmethod
    def from_state(cls: type[_R], hands: Sequence[HandLike | npt.NDArray[np.uint8]],
                   draw_pile: HandLike | Sequence[CardArg],
                   discard_pile: HandLike | Sequence[CardArg], *,
                   current_player: int, seed: SeedLike, phase: Phase | str = Phase.DRAW,
                   round_number: int | None = None, hand_size: int | None = None,
                   wild: int | None = None, dealer: int = 0, rules: Rules | None = None,
                   history: Sequence[Event] | None = None, turn: int | None = None,
                   went_out: int | None = None, drawn: CardArg | None = None,
                   taken: Sequence[HandLike | npt.NDArray[np.uint8]] | None = None,
                   sudden_death: bool = False,
                   totals: tuple[int, ...] | None = None) -> _R:
        """A round in an explicit state, every card placed by the caller.

        Parameters
        ----------
        hands : sequence of hands
            One per player (text, cards, or (56,) count rows): ``hand_size`` cards each,
            one more for ``current_player`` in the discard phase.
        draw_pile : cards
            Top card first (as :meth:`fivecrowns.Deck.draw_pile` lists it).
        discard_pile : cards
            Bottom card first, top card last.
        current_player : int
            Whose turn it is.
        seed : int, SeedSequence or Generator
            Drives every later reshuffle. Required.
        phase : Phase or str
            ``"draw"`` or ``"discard"`` (a round that is over has nothing left to play).
        round_number, hand_size, wild, dealer, rules, sudden_death, totals
            As for :class:`Round`.
        history : sequence of Event, optional
            The public history so far. When given, it is replayed and must agree with the
            discard pile (its order included), ``turn`` and ``went_out``; it also tells the
            cards each player is known to hold (``taken``) and, in the discard phase, the
            card just taken from the discard pile (which may not be thrown back).
            Without it the round's history starts empty.
        turn : int, optional
            Turns completed (default: the history's, else 0).
        went_out : int, optional
            The player who went out, if any (default: the history's); the players from
            them up to ``current_player`` have finished, and score the deadwood of their
            hand (the one who went out scores 0).
        drawn : card, optional
            In the discard phase, the card the current player drew (shown in their
            observation). Taken from the history when its last event took the top discard.
        taken : sequence of hands, optional
            For each player, the cards seen taken from the discard pile and not discarded
            since (default: the history's, else none).

        Raises
        ------
        ValueError
            Cards not conserved (every card of the deck exactly once over the hands and
            piles), wrong hand sizes, a history that disagrees with the piles, and other
            inconsistent values; the message names what is wrong.

        Examples
        --------
        >>> from fivecrowns import Round
        >>> from fivecrowns import hand_counts
        >>> from fivecrowns.deck import full_counts
        >>> hands = ["3C 4C 5C", "KD KD QH"]
        >>> left = full_counts(Rules()) - hand_counts("3C 4C 5C KD KD QH 9S")
        >>> rest = [Card.from_index(t) for t in range(56) for _ in range(left[t])]
        >>> r = Round.from_state(hands, rest, ["9S"], current_player=0, round_number=1,
        ...                      seed=1)
        >>> r.phase.value, r.deck.draw_size, str(r.deck.top_discard)
        ('draw', 109, '9S')
        >>> Round.from_state(hands, rest[1:], ["9S"], current_player=0, round_number=1,
        ...                  seed=1)
        Traceback (most recent call last):
        ...
        ValueError: the cards are not conserved: missing ... from the deck of 116 cards
        """
        hands = list(hands)
        rules = check_table(len(hands), rules, least=1, what="a round")
        n = len(hands)
        if round_number is not None and (hand_size is not None or wild is not None):
            raise ValueError("give either round_number or hand_size and wild, not both")
        # __init__ checks the sizes, the dealer and the rest, and sets every attribute;
        # the deal it makes is then replaced by the given state
        new = cls(n, round_number, seed=0, rules=rules, dealer=dealer, hand_size=hand_size,
                  wild=wild, sudden_death=sudden_death, totals=totals)
        cur = new._check_player(current_player)
        if isinstance(phase, str):
            try:
                phase = Phase(phase.strip().lower())
            except ValueError:
                raise ValueError(f"phase must be 'draw' or 'discard', got {phase!r}") \
                    from None
        if phase is not _DRAW and phase is not _DISCARD:
            raise ValueError(f"phase must be Phase.DRAW or Phase.DISCARD, got {phase!r}")
        if totals is not None and (len(totals) != n or not all(
                isinstance(t, (int, np.integer)) and not isinstance(t, bool)
                for t in totals)):
            raise ValueError(f"totals must be {n} ints, one per player, got {totals!r}")
        decks = rules.decks
        rows = [solver.hand_counts(h, decks=decks) for h in hands]
        for q, row in enumerate(rows):
            want = new.hand_size + (q == cur and phase is _DISCARD)
            got = int(row.sum())
            if got != want:
                why = " (the current player has drawn)" if want > new.hand_size else ""
                raise ValueError(f"player {q} holds {got} cards, expected {want}{why}")
        draw = _pile(draw_pile, "draw_pile")
        pile = _pile(discard_pile, "discard_pile")
        total = np.sum(rows, axis=0, dtype=np.int64) + np.bincount(
            np.array(draw + pile, dtype=np.intp), minlength=N_TYPES)
        diff = total - full_counts(rules)
        if diff.any():
            missing = [str(_CARDS[t]) for t in np.flatnonzero(diff < 0).tolist()
                       for _ in range(-int(diff[t]))]
            extra = [str(_CARDS[t]) for t in np.flatnonzero(diff > 0).tolist()
                     for _ in range(int(diff[t]))]
            parts = []
            if missing:
                parts.append(f"missing {' '.join(missing)}")
            if extra:
                parts.append(f"{' '.join(extra)} more often than the deck holds them")
            raise ValueError(f"the cards are not conserved: {'; '.join(parts)} "
                             f"from the deck of {rules.n_cards} cards")
        reshuffles = 0
        events: list[Event] = []
        taken_now = -1   # the card the current player just took from the discard pile
        if history is not None:
            replay = _Replay(history, n, rules)
            if replay.pile != pile:
                raise ValueError(f"the discard pile {_text(pile)} is not the one the "
                                 f"history leaves: {_text(replay.pile)}")
            if turn is not None and turn != replay.turns:
                raise ValueError(f"turn is {turn} but the history has {replay.turns} "
                                 f"completed turns")
            if went_out is not None and went_out != replay.went_out:
                raise ValueError(f"went_out is {went_out} but in the history "
                                 f"{replay.went_out} went out")
            turn, went_out, reshuffles = replay.turns, replay.went_out, replay.reshuffles
            public = replay.public
            if taken is not None and not np.array_equal(
                    np.array([solver.hand_counts(h, decks=decks) for h in taken]),
                    public.taken_counts):
                raise ValueError("taken does not match the cards the history shows taken "
                                 "from the discard pile")
            events = list(replay.events)
            last = events[-1] if events else None
            if phase is _DISCARD:
                if last is None or last.player != cur or last.kind not in (
                        EventKind.DRAW_DECK, EventKind.DRAW_DISCARD):
                    raise ValueError(f"in the discard phase the history must end with "
                                     f"player {cur}'s draw, got {last}")
                if last.kind is EventKind.DRAW_DISCARD:
                    assert last.card is not None
                    if drawn is not None and card_index(drawn) != last.card.index:
                        raise ValueError(f"drawn is {drawn} but the history shows player "
                                         f"{cur} taking {last.card}")
                    drawn = last.card
                    taken_now = last.card.index
            elif last is not None and last.kind in (EventKind.DRAW_DECK,
                                                    EventKind.DRAW_DISCARD):
                raise ValueError(f"in the draw phase the history cannot end with a draw, "
                                 f"got {last}")
        else:
            turn = 0 if turn is None else turn
            known = (np.zeros((n, N_TYPES), dtype=np.uint8) if taken is None
                     else np.array([solver.hand_counts(h, decks=decks) for h in taken]))
            if known.shape != (n, N_TYPES):
                raise ValueError(f"taken must hold one hand per player ({n}), "
                                 f"got {len(known)}")
            public = PublicState.from_counts(
                np.bincount(np.array(pile, dtype=np.intp), minlength=N_TYPES)
                .astype(np.uint8), known, rules)
        for q in range(n):
            short = np.flatnonzero(public.taken_counts[q] > rows[q])
            if short.size:
                raise ValueError(f"player {q} is known to hold {_text(short.tolist())} "
                                 f"(taken from the discard pile) but their hand does not")
        turn = check_int(turn, "turn", 0)
        final_left = 0
        if went_out is not None:
            out = new._check_player(went_out)
            if new.sudden_death:
                raise ValueError("in a sudden-death round the round ends when a player "
                                 "goes out, so went_out must be None")
            if out == cur:
                raise ValueError(f"player {cur} went out, so it cannot be their turn")
            final_left = (out - cur) % n
        elif turn >= rules.max_turns:
            raise ValueError(f"turn {turn} reaches Rules.max_turns ({rules.max_turns}): "
                             f"the round would be over")
        if drawn is not None:
            if phase is not _DISCARD:
                raise ValueError("drawn is only for the discard phase")
            d = card_index(drawn)
            if not rows[cur][d]:
                raise ValueError(f"drawn card {_CARDS[d]} is not in player {cur}'s hand")
        if phase is _DRAW and not draw and not pile:
            raise ValueError("both piles are empty: no card can be drawn")
        scores = [-1] * n
        if went_out is not None:
            scores[went_out] = 0
            for k in range(1, n - final_left):
                q = (went_out + k) % n
                scores[q] = int(solver.deadwood(rows[q], new.wild, decks=decks))
        new._state = State.from_state(
            np.array(rows), draw, pile, public.taken_counts, new.wild, new.hand_size,
            decks, new._state.max_turns, rules.return_discard, new.sudden_death, cur,
            0 if phase is _DRAW else 1, int(turn), taken_now,
            -1 if went_out is None else went_out, final_left, scores, reshuffles,
            make_rng(seed))
        new._history = events
        new._state.set_drawn(-1 if drawn is None else card_index(drawn))
        new._frozen = new._taken_rows = None
        return new

    @classmethod
    def from_observation(cls: type[_R], obs: Observation, *, seed: SeedLike,
                         rules: Rules | None = None) -> _R:
        """A round consistent with what ``obs.player`` sees, the rest sampled.

        The player's hand, the discard pile (in the order its history leaves), the cards
        each opponent is known to hold (``obs.taken_counts``), the sizes, history, phase
        and turn are those of ``obs``; the other cards (``obs.unseen_counts``) are dealt
        uniformly at random to the opponents' other places and the draw pile, as
        :meth:`determinize` does. The players who have finished the round score the
        deadwood of their sampled hands (0 for the one who went out).

        Parameters
        ----------
        obs : Observation
            Of a round that is not over.
        seed : int, SeedSequence or Generator
            Samples the hidden cards and drives the reshuffles of the new round.
        rules : Rules, optional
            Default ``Rules(decks=obs.decks, return_discard=obs.return_discard)``.

        Examples
        --------
        >>> from fivecrowns import Round
        >>> r = Round(3, round_number=4, seed=8)
        >>> s = Round.from_observation(r.observation(1), seed=0)
        >>> s.hand(1) == r.hand(1), s.history == r.history, s.deck.draw_size
        (True, True, 97)
        """
        if not isinstance(obs, Observation):
            raise TypeError(f"obs must be an Observation, got {type(obs).__name__}")
        if obs.phase is _OVER:
            raise ValueError("the observation is of a round that is over")
        if rules is None:
            rules = Rules(decks=obs.decks, return_discard=obs.return_discard)
        elif rules.decks != obs.decks or rules.return_discard != obs.return_discard:
            raise ValueError(f"rules {rules} disagree with the observation (decks "
                             f"{obs.decks}, return_discard {obs.return_discard})")
        n, p = obs.n_players, obs.player
        check_table(n, rules, least=1, what="a round",
                    note=" (the observation's n_players)")
        check_seat(p, n, "obs.player")
        check_seat(obs.current_player, n, "obs.current_player")
        if np.shape(obs.taken_counts) != (n, N_TYPES) or np.shape(obs.counts) != (N_TYPES,) \
                or np.shape(obs.unseen_counts) != (N_TYPES,):
            raise ValueError(f"the observation's counts are not those of {n} players: "
                             f"taken_counts {np.shape(obs.taken_counts)}, counts "
                             f"{np.shape(obs.counts)}, unseen_counts "
                             f"{np.shape(obs.unseen_counts)}")
        rng = make_rng(seed)
        pool = np.repeat(np.arange(N_TYPES), obs.unseen_counts)
        rng.shuffle(pool)
        hands: list[npt.NDArray[np.uint8]] = []
        i = 0
        for q in range(n):
            if q == p:
                hands.append(np.array(obs.counts, dtype=np.uint8))
                continue
            row = np.array(obs.taken_counts[q], dtype=np.uint8)
            m = obs.hand_size + (q == obs.current_player and obs.phase is _DISCARD) \
                - int(row.sum())
            if m < 0 or i + m > pool.size:
                raise ValueError("the observation's counts do not add up: its unseen "
                                 "cards cannot fill the other players' hands")
            row += np.bincount(pool[i:i + m], minlength=N_TYPES).astype(np.uint8)
            hands.append(row)
            i += m
        if pool.size - i != obs.draw_size:
            raise ValueError(f"the observation's counts do not add up: {pool.size - i} "
                             f"unseen cards are left for a draw pile of {obs.draw_size}")
        sizes: dict[str, Any] = (
            {"round_number": obs.round_number} if obs.round_number is not None
            else {"hand_size": obs.hand_size, "wild": obs.wild})
        return cls.from_state(
            hands, pool[i:].tolist(), _Replay(obs.history, n, rules).pile,
            current_player=obs.current_player, seed=_child(rng), phase=obs.phase,
            dealer=obs.dealer, rules=rules, history=obs.history, turn=obs.turn,
            went_out=obs.went_out, drawn=obs.drawn, sudden_death=obs.sudden_death,
            totals=obs.totals, **sizes)

    @renamed_parameters(rng="seed")
    def determinize(self: _R, player: int, seed: SeedLike) -> _R:
        """A copy of this round in which everything ``player`` cannot see is resampled.

        The cards of ``obs.unseen_counts`` (``obs = self.observation(player)``): the
        opponents' cards other than those seen taken from the discard pile and not
        discarded since, and the draw pile with its order, are dealt again uniformly at
        random to the same places. Everything else stays: the player's hand, the cards
        known to be held, the discard pile, sizes, history, phase, turn and the scores of
        players who have finished. The new round's deck draws its reshuffles from a
        generator taken from ``seed``, so a rollout samples those too. The player's
        observation of the copy equals their observation of this round.

        The sample is uniform given the observation's card counts. It does not use what
        the history implies beyond them: after a reshuffle the draw pile holds only cards
        that were in the discard pile, and a player who went out holds melds; like
        ``Observation.unseen_counts`` the sampling does not track those.

        Parameters
        ----------
        player : int
        seed : int, numpy SeedSequence or numpy Generator
            The randomness (see :doc:`/conventions`); a Generator is used and advanced.

        Examples
        --------
        >>> from fivecrowns import Round
        >>> r = Round(2, round_number=3, seed=4)
        >>> d = r.determinize(0, 7)
        >>> d.hand(0) == r.hand(0), d.hand(1) == r.hand(1), d.deck.draw_size
        (True, False, 105)
        """
        p = self._check_player(player)
        # Everything is read from the copy: one moment of the round, whatever another
        # thread does to it meanwhile (its hands are replaced only after they are read).
        new = self.clone()
        if new.phase is _OVER:
            raise ValueError("cannot determinize a round that is over: its hands are in "
                             "its result")
        rng = make_rng(seed)
        st = world = new._state
        pool = np.repeat(np.arange(N_TYPES), st.unseen(p))
        rng.shuffle(pool)
        known_rows = st.taken_counts()
        i = 0
        for q in range(self.n_players):
            if q == p:
                continue
            known = known_rows[q]
            m = int(st.hand(q).sum()) - int(known.sum())
            row = np.bincount(pool[i:i + m], minlength=N_TYPES).astype(np.uint8)
            row += known
            world.set_hand(q, row)
            if q == st.current and st.drawn >= 0 \
                    and new._history[-1].kind is EventKind.DRAW_DECK:
                world.set_drawn(int(pool[i + m - 1]))   # uniform over their unknown cards
            i += m
        world.set_draw_pile(pool[i:][::-1].tolist())
        world.set_rng(_child(rng))
        return new


def _pile(cards: HandLike | Sequence[CardArg], name: str) -> list[int]:
    """A pile given as text or a sequence of cards, as a list of type indices."""
    if isinstance(cards, str):
        return [c.index for c in parse_cards(cards)]
    if isinstance(cards, np.ndarray) and cards.ndim != 1:
        raise ValueError(f"{name} must be a sequence of cards, got an array of shape "
                         f"{cards.shape}")
    return [card_index(c) for c in cards]


def _text(types: Sequence[int]) -> str:
    return "[" + " ".join(str(_CARDS[t]) for t in types) + "]"


def _child(rng: np.random.Generator) -> np.random.Generator:
    """A new generator seeded from ``rng`` (and advancing it)."""
    return np.random.default_rng(int(rng.integers(2**63)))


class _Replay:
    """A public history replayed: the discard pile it leaves, the public counts, the
    turns completed, who went out and the reshuffles; an inconsistent history raises
    ``ValueError`` naming the event."""

    def __init__(self, history: Sequence[Event], n_players: int, rules: Rules) -> None:
        self.events = tuple(history)
        self.pile: list[int] = []
        self.public = PublicState(n_players, rules)
        self.turns = 0
        self.went_out: int | None = None
        self.reshuffles = 0
        pile, public = self.pile, self.public
        for i, ev in enumerate(self.events):
            if not isinstance(ev, Event):
                raise TypeError(f"history[{i}] must be an Event, got {type(ev).__name__}")
            kind, who, card = ev.kind, ev.player, ev.card
            needs_card = kind not in (EventKind.DRAW_DECK, EventKind.RESHUFFLE)
            if needs_card != isinstance(card, Card):
                raise ValueError(f"history[{i}] ({ev}): a {kind.value} event "
                                 f"{'needs a card' if needs_card else 'shows no card'}")
            public_event = kind in (EventKind.TURN_UP, EventKind.RESHUFFLE)
            if public_event != (who == -1) or not -1 <= who < n_players:
                raise ValueError(f"history[{i}] ({ev}): bad player {who} for a "
                                 f"{kind.value} event with {n_players} players")
            if (kind is EventKind.TURN_UP) != (i == 0):
                raise ValueError(f"history[{i}] ({ev}): the history must start with the "
                                 f"turned-up card, and only once")
            t = card.index if card is not None else -1
            if kind is EventKind.TURN_UP:
                pile.append(t)
                public.turn_up(t)
            elif kind is EventKind.DRAW_DISCARD:
                if not pile or pile[-1] != t:
                    raise ValueError(f"history[{i}] ({ev}): player {who} took {card} but "
                                     f"the top of the discard pile was "
                                     f"{_CARDS[pile[-1]] if pile else 'nothing'}")
                pile.pop()
                public.take(who, t)
            elif kind in (EventKind.DISCARD, EventKind.GO_OUT):
                pile.append(t)
                public.discard(who, t)
                self.turns += 1
                if kind is EventKind.GO_OUT and self.went_out is None:
                    self.went_out = who
            elif kind is EventKind.RESHUFFLE:
                if len(pile) < 2:
                    raise ValueError(f"history[{i}]: a reshuffle of a discard pile of "
                                     f"{len(pile)} card(s)")
                public.reshuffle(pile[-1])
                del pile[:-1]
                self.reshuffles += 1
