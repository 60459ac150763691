"""The state under the OpenSpiel game: the one round state, with chance outcomes placed into
its draw pile, and what a whole game and its observers add.

:class:`Core` holds the round in play as the round state every simulator plays on
(``fivecrowns._state.State``: the compiled ``RoundState`` or its pure-Python twin), whose
moves are the rules of a turn (docs/rules.rst, A round). OpenSpiel's chance outcomes
become that state's own moves: the state is built with the whole deck as its draw pile
and empty hands, and a card ``t`` dealt, turned up or drawn blind is first moved to the
top of the draw pile (``stack(t)``), then dealt, turned up or drawn as in any round.

What :class:`Core` adds is its own: the phases of the chance nodes, the round number and
the running totals across rounds, and two things kept up to date move by move so that
reading them costs no replay: each player's observation vector (the layout of
:mod:`fivecrowns.envs.encoding`) and each player's information string. The strings are
built in immutable chunks shared between copies, so :meth:`Core.copy` costs the same at
move 50 as at move 5,000 (the round state copies in constant time too), and a copy holds
only the last, short chunk of its own.

No framework is imported here; :mod:`fivecrowns.envs.openspiel` wraps a :class:`Core`
in a ``pyspiel.State``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._game_state_py import OVER as _GAME_OVER
from .._game_state_py import ROUND as _ROUND
from .._state import GameState as _GameState
from .._state import State as _State
from .._state import game_state_of
from .._state_py import RoundState
from ..actions import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS
from ..cards import N_TYPES, Card
from ..rules import sorted_deck
from .encoding import _fill, blocks, observation_size
from .features import fill_features

__all__ = ["Config", "Core", "DEAL", "TURN_UP", "DRAW", "DRAW_CARD", "DISCARD", "OVER"]

# Phases of a state: chance deals, chance turns up the first discard, the player draws,
# chance gives the card drawn blind, the player discards, the game is over.
DEAL, TURN_UP, DRAW, DRAW_CARD, DISCARD, OVER = range(6)

CARDS = [str(Card.from_index(t)) for t in range(N_TYPES)]
# An information string's last chunk is sealed (shared from then on) past this length.
_CHUNK = 1024

# The round state reshuffles with a generator, but here the order of its draw pile is
# never seen: every card that leaves it is a chance outcome, stacked on top first. So
# every state shares this one, never advanced (a copy that shares a generator costs
# nothing), and a reshuffle uses a new generator of a fixed seed (the order it gives is
# the same on every run, so serialized states are too).
_IDLE = np.random.default_rng(0)
_RESHUFFLE_SEED = 0


class Config:
    """What every state of one game shares: the parameters and the encoding's offsets."""

    def __init__(self, n: int, n_rounds: int, decks: int, max_turns: int,
                 features: bool = False) -> None:
        self.n, self.n_rounds, self.decks, self.max_turns = n, n_rounds, decks, max_turns
        self.features = features
        # the unshuffled deck every round is dealt from (the chance outcomes pick cards)
        self.deck = list(sorted_deck(decks))
        self.base = observation_size(n)  # the solver features, if any, come after
        self.size = observation_size(n, features=features)
        b = blocks(n)
        self.hand, self.top = b["hand"].start, b["top_discard"].start
        self.disc, self.unseen = b["discard_pile"].start, b["unseen"].start
        self.draw, self.phase, self.final = b["draw_size"].start, b["phase"].start, \
            b["final_turn"].start
        # By viewer v and seat q: where q's hand size sits in v's vector (q's taken
        # counts follow it), where "q to act" and "q went out" are marked.
        self.opp = [[b["opponents"].start + 57 * ((q - v) % n - 1) for q in range(n)]
                    for v in range(n)]
        self.to_act = [[b["to_act"].start + (q - v) % n for q in range(n)] for v in range(n)]
        self.went = [[b["went_out"].start + (q - v) % n for q in range(n)] for v in range(n)]

    def __reduce__(self) -> tuple[Any, tuple[int, int, int, int, bool]]:
        return Config, (self.n, self.n_rounds, self.decks, self.max_turns, self.features)


class Core:
    """One state of the game (see the module docstring). ``frozen`` marks a shared
    prototype: it is copied before its first change, and copying it returns it."""

    __slots__ = ("cfg", "game", "st", "dealt", "phase", "done", "info", "obs", "fresh",
                 "frozen")

    cfg: Config
    game: Any  # the game state (fivecrowns._state.GameState): plan, dealers, totals
    st: RoundState  # or the compiled twin (fivecrowns._state.State)
    dealt: int
    phase: int
    done: list[tuple[str, ...]]
    info: list[str]
    obs: npt.NDArray[np.float32]
    fresh: list[bool]
    frozen: bool

    @classmethod
    def initial(cls, cfg: Config) -> Core:
        """The state before the first card of the first round is dealt."""
        c = cls.__new__(cls)
        c.cfg = cfg
        c.game = _GameState(cfg.n, range(1, cfg.n_rounds + 1))
        # Information strings of each seat, then the public one (every private card
        # hidden): " token" pieces, the sealed chunks in ``done``, the last in ``info``.
        c.done = [()] * (cfg.n + 1)
        c.info = [""] * (cfg.n + 1)
        c.obs = np.zeros((cfg.n, cfg.size), dtype=np.float32)
        c.fresh = [False] * cfg.n
        c.frozen = False
        c.start_round()
        return c

    def copy(self) -> Core:
        """An independent copy (the strings and the config are immutable: shared)."""
        new = Core.__new__(Core)
        new.cfg = self.cfg
        new.game = self.game.copy()
        new.st = self.st.copy_with(_IDLE)
        new.dealt = self.dealt
        new.phase = self.phase
        new.done = self.done[:]
        new.info = self.info[:]
        new.obs = self.obs.copy()
        new.fresh = self.fresh[:]
        new.frozen = False
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        return self if self.frozen else self.copy()

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickle (``deserialize_state``), also a state pickled by fivecrowns 0.3, whose
        core kept the round as counts of its own: its cards are put into a round state."""
        slots = state[1]
        if "stock" in slots:
            slots = _from_0_3(slots)
        if "game" not in slots:  # 0.4 and before: the totals and the round's index
            slots = _with_game_state(slots)
        else:
            try:
                slots = dict(slots, game=game_state_of(slots["game"]))
            except ValueError:
                raise ValueError(f"an OpenSpiel state's pickle holds a GameState, got "
                                 f"{type(slots['game']).__name__}") from None
        for name in Core.__slots__:
            setattr(self, name, slots[name])

    def freeze(self) -> Core:
        """Make this state a prototype: read-only vectors, copied before any change."""
        self.obs.flags.writeable = False
        self.frozen = True
        return self

    # -- the round state, read --

    @property
    def hands(self) -> npt.NDArray[np.uint8]:
        """A copy of every hand, (n, 56) counts."""
        return self.st.hands()

    @property
    def taken(self) -> npt.NDArray[np.uint8]:
        """A copy of the cards each player was seen taking and still holds, (n, 56)."""
        return self.st.taken_counts()

    @property
    def stock(self) -> npt.NDArray[np.uint8]:
        """A copy of the draw pile's counts (the chance outcomes of a card leaving it)."""
        return self.st.draw_counts()

    @property
    def stock_size(self) -> int:
        return self.st.n_draw

    @property
    def pile(self) -> list[int]:
        """The discard pile, bottom card first."""
        return self.st.discard_pile()

    @property
    def current(self) -> int:
        return self.st.current

    @property
    def turn(self) -> int:
        return self.st.turn

    @property
    def just_taken(self) -> int:
        """The card type just taken from the discard pile, or -1."""
        return self.st.taken

    @property
    def went_out(self) -> int | None:
        q: int = self.st.went_out
        return None if q < 0 else q

    @property
    def scores(self) -> list[int | None]:
        """This round's scores so far (None: not scored yet)."""
        return [None if s < 0 else s for s in self.st.scores]

    def kept(self) -> int:
        """The card type the player to discard may not discard, or -1 (docs/rules.rst,
        A round, 3)."""
        return self.st.must_keep()

    # -- the rounds --

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's total of the rounds ended so far."""
        totals: tuple[int, ...] = self.game.totals
        return totals

    @property
    def k(self) -> int:
        """How many rounds have ended."""
        k: int = self.game.k
        return k

    def start_round(self) -> None:
        cfg, g = self.cfg, self.game
        # the dealer deals from their left, who plays first
        self.st = _State.undealt(cfg.n, g.hand_size, g.wild, cfg.decks, cfg.max_turns,
                                 False, g.dealer, False, cfg.deck, _IDLE)
        self.dealt = 0
        self.phase = DEAL
        self.public(f"round{g.round_number}")
        self.refresh()

    def end_round(self) -> None:
        st = self.st
        if self.game.end_round(st.scores, st.went_out) == _GAME_OVER:
            self.phase = OVER
            self.refresh()
        else:
            self.start_round()

    # -- moves --

    def chance(self, a: int) -> None:
        """A card ``a`` leaves the draw pile (deal, turn-up or blind draw)."""
        st = self.st
        try:
            if not 0 <= a < N_TYPES:
                raise ValueError
            st.stack(a)
        except ValueError:
            raise ValueError(f"chance outcome {a} is not a card left in the draw pile") \
                from None
        cfg = self.cfg
        obs = self.obs
        phase = self.phase
        if phase == TURN_UP:
            st.turn_up()
            obs[:, cfg.draw] = st.n_draw
            obs[:, cfg.top + a] = 1.0
            obs[:, cfg.disc + a] += 1.0
            obs[:, cfg.unseen + a] -= 1.0
            obs[:, cfg.phase] = 1.0
            self.public(f"up:{CARDS[a]}")
            self.phase = DRAW
            return
        if phase == DEAL:
            q = (st.current + self.dealt) % cfg.n
            st.deal_card(q)
        else:
            q = st.current
            st.draw(False)
        obs[:, cfg.draw] = st.n_draw
        obs[q, cfg.hand + a] += 1.0
        obs[q, cfg.unseen + a] -= 1.0
        if phase == DEAL:
            self.private("d", q, a)
            self.dealt += 1
            if self.dealt == cfg.n * st.hand_size:
                self.phase = TURN_UP
        else:
            self.private("b", q, a)
            self.enter_discard(q)

    def draw_deck(self) -> None:
        """The player to act draws blind (the card is the next chance outcome)."""
        if not self.st.n_draw:
            self.reshuffle()
        self.public(f"{self.st.current}:deck")
        self.phase = DRAW_CARD

    def take(self) -> None:
        """The player to act takes the top discard."""
        cfg = self.cfg
        obs = self.obs
        st = self.st
        p = st.current
        t = st.draw(True)[0]
        obs[:, cfg.top + t] = 0.0
        top = st.top_discard
        if top >= 0:
            obs[:, cfg.top + top] = 1.0
        obs[:, cfg.disc + t] -= 1.0
        obs[p, cfg.hand + t] += 1.0
        for v in range(cfg.n):
            if v != p:  # their unseen count stays: one less discarded, one more known
                obs[v, cfg.opp[v][p] + 1 + t] += 1.0
        self.public(f"{p}:take:{CARDS[t]}")
        self.enter_discard(p)

    def discard_card(self, t: int, go_out: bool) -> None:
        """The player to act discards a card of type ``t`` (going out if ``go_out``)."""
        cfg = self.cfg
        obs = self.obs
        st = self.st
        p = st.current
        n = cfg.n
        top = st.top_discard
        if top >= 0:
            obs[:, cfg.top + top] = 0.0
        # whether p was seen taking this card: the other players' vectors keep it
        v = (p + 1) % n
        known = obs[v, cfg.opp[v][p] + 1 + t] > 0.0
        out_before = st.went_out
        over = st.discard(t, go_out)
        obs[:, cfg.top + t] = 1.0
        obs[:, cfg.disc + t] += 1.0
        obs[p, cfg.hand + t] -= 1.0
        for v in range(n):
            if v != p:  # a card seen taken leaves the known ones, else the unseen ones
                if known:
                    obs[v, cfg.opp[v][p] + 1 + t] -= 1.0
                else:
                    obs[v, cfg.unseen + t] -= 1.0
        self.public(f"{p}:-{CARDS[t]}{'*' if go_out else ''}")
        if over:
            self.end_round()
            return
        if out_before < 0 and go_out:
            obs[:, cfg.final] = 1.0
            for v in range(n):
                obs[v, cfg.went[v][p]] = 1.0
        nxt = st.current
        size = st.hand_size
        obs[:, cfg.phase + 1] = 0.0
        obs[:, cfg.phase] = 1.0
        for v in range(n):
            if v != p:
                obs[v, cfg.opp[v][p]] = size
            obs[v, cfg.to_act[v][p]] = 0.0
            obs[v, cfg.to_act[v][nxt]] = 1.0
        self.phase = DRAW

    def enter_discard(self, p: int) -> None:
        cfg = self.cfg
        obs = self.obs
        obs[:, cfg.phase] = 0.0
        obs[:, cfg.phase + 1] = 1.0
        size = self.st.hand_size + 1
        for v in range(cfg.n):
            if v != p:  # the player to discard holds one card more
                obs[v, cfg.opp[v][p]] = size
        self.phase = DISCARD

    def reshuffle(self) -> None:
        """The round state refills its empty draw pile (docs/rules.rst, A round, 5)."""
        cfg = self.cfg
        st = self.st
        before = st.pile_counts()
        st.set_rng(np.random.default_rng(_RESHUFFLE_SEED))
        st.reshuffle()
        st.set_rng(_IDLE)
        after = st.pile_counts()
        obs = self.obs
        obs[:, cfg.disc:cfg.disc + N_TYPES] = after
        obs[:, cfg.unseen:cfg.unseen + N_TYPES] += before - after
        obs[:, cfg.draw] = st.n_draw
        self.public("reshuffle")

    # -- legality --

    def legal_actions(self) -> list[int]:
        """The legal action codes of the player to act, ascending."""
        if self.phase == DRAW or self.phase == DISCARD:
            return self.st.legal_actions()
        return []

    def is_legal(self, a: int) -> bool:
        """Whether the player to act may play action code ``a`` (one solver call at
        most)."""
        if self.phase == DRAW:
            return (a == 0 or a == 1) and not self.st.check_draw(a == 1)
        if self.phase != DISCARD or not ACTION_DISCARD <= a < N_ACTIONS:
            return False
        go_out = a >= ACTION_GO_OUT
        return not self.st.check_discard(a - (ACTION_GO_OUT if go_out else ACTION_DISCARD),
                                         go_out)

    # -- what a player knows --

    def public(self, token: str) -> None:
        """Append an event every player sees to every information string."""
        token = " " + token
        info = self.info
        for i in range(len(info)):
            if len(info[i]) >= _CHUNK:
                self.seal(i)
            info[i] += token

    def private(self, kind: str, q: int, card: int) -> None:
        """Append a card only seat ``q`` sees: shown to ``q``, ``?`` to everyone else."""
        hidden = f" {kind}{q}:?"
        info = self.info
        for i in range(len(info)):
            if len(info[i]) >= _CHUNK:
                self.seal(i)
            info[i] += hidden
        info[q] = info[q][:-1] + CARDS[card]

    def seal(self, i: int) -> None:
        """Move information string ``i``'s last chunk to its shared, sealed ones."""
        self.done[i] += (self.info[i],)
        self.info[i] = ""

    def events(self, i: int) -> str:
        """Information string ``i`` (a seat, or ``n`` for the public one): " token"s."""
        return "".join(self.done[i]) + self.info[i]

    def forget(self, q: int) -> None:
        """Seat ``q``'s information string becomes the public one (its cards hidden)."""
        n = self.cfg.n
        self.done[q] = self.done[n]
        self.info[q] = self.info[n]

    def encode(self, player: int, out: npt.NDArray[np.float32] | None = None
               ) -> npt.NDArray[np.float32]:
        """``player``'s observation vector computed from the counts (what :meth:`vector`
        reads from the vectors kept up to date move by move)."""
        cfg = self.cfg
        st = self.st
        if out is None:
            out = np.empty(cfg.size, dtype=np.float32)
        phase = 0 if self.phase in (DRAW, DRAW_CARD) else 1 if self.phase == DISCARD else -1
        rnd = min(self.k, cfg.n_rounds - 1) + 1
        _fill(out[:cfg.base], cfg.n, player, st.hand(player), st.top_discard,
              st.pile_counts(), st.taken_counts(), st.unseen(player), st.hand_size,
              st.n_draw, rnd, st.wild, st.current, phase, st.went_out >= 0,
              self.went_out, self.totals)
        if cfg.features:
            self.features_into(player, out[cfg.base:])
        return out

    def features_into(self, player: int, out: npt.NDArray[np.float32]) -> None:
        """The solver features of ``player``'s hand (:mod:`fivecrowns.envs.features`)."""
        st = self.st
        view = player == st.current and self.phase == DISCARD
        fill_features(out, st.hand(player), wild=st.wild, decks=self.cfg.decks,
                      top=st.top_discard, unseen=st.unseen(player),
                      discard_view=view, must_keep=st.must_keep() if view else -1,
                      return_discard=False)

    def vector(self, player: int) -> npt.NDArray[np.float32]:
        """``player``'s observation vector (a row of :attr:`obs`: not to be changed).

        The encoding proper is kept up to date move by move; the solver features, when
        the game has them, are computed at the first read after a move (they cost solver
        calls, and a move changes them for nearly every player).
        """
        if not self.fresh[player]:
            cfg = self.cfg
            self.features_into(player, self.obs[player, cfg.base:])
            self.fresh[player] = True
        return self.obs[player]

    def moved(self) -> None:
        """Mark the solver features out of date (after any move)."""
        if self.cfg.features:
            self.fresh = [False] * self.cfg.n

    def refresh(self) -> None:
        """Compute every observation vector again from the counts."""
        for v in range(self.cfg.n):
            self.encode(v, self.obs[v])
        self.fresh = [True] * self.cfg.n


def _from_0_3(old: dict[str, Any]) -> dict[str, Any]:
    """The slots of a :class:`Core` from those of fivecrowns 0.3's, which kept the round
    as counts (the draw pile as a multiset) beside the same strings and vectors."""
    cfg: Config = old["cfg"]
    phase = old["phase"]
    went_out, scores = old["went_out"], old["scores"]
    # the round state's phase: a chance node waits on the player's draw, the deal on
    # the first player's; after the last round the state keeps the last one's cards
    st_phase = 2 if phase == OVER else 1 if phase == DISCARD else 0
    st = _State.from_state(
        old["hands"], np.repeat(np.arange(N_TYPES), old["stock"]).tolist(), old["pile"],
        old["taken"], old["wild"], old["hand_size"], cfg.decks, cfg.max_turns, False,
        False, old["current"], st_phase, old["turn"], old["just_taken"],
        -1 if went_out is None else went_out, old["final_left"],
        [-1 if s is None else s for s in scores], 0, _IDLE).copy_with(_IDLE)
    return {"cfg": cfg, "totals": old["totals"], "k": old["k"], "st": st,
            "dealt": old["dealt"], "phase": phase, "done": old["done"], "info": old["info"],
            "obs": old["obs"], "fresh": old["fresh"], "frozen": False}


def _with_game_state(old: dict[str, Any]) -> dict[str, Any]:
    """The slots of a :class:`Core` pickled before the game state (0.4 and before): its
    running totals and round index become a game state (checked as any: a malformed one
    is a ``ValueError``)."""
    cfg: Config = old["cfg"]
    k, totals = old["k"], tuple(old["totals"])
    over = isinstance(k, int) and k >= cfg.n_rounds
    lowest = min(totals) if totals else 0
    winners = tuple(q for q, t in enumerate(totals) if t == lowest) if over else ()
    new = {name: value for name, value in old.items() if name not in ("k", "totals")}
    new["game"] = _GameState.from_fields(
        (cfg.n, tuple(range(1, cfg.n_rounds + 1)), 0, False, k, totals,
         _GAME_OVER if over else _ROUND, (), winners))
    return new
