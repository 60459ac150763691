"""The state under the OpenSpiel game: counts that copy in time independent of the history.

:class:`Core` holds a whole game as counts (the draw pile as a multiset of unseen cards,
the hands, the discard pile in order, the cards seen taken), the phase, the running
totals, and two things kept up to date move by move so that reading them costs no
replay: each player's observation vector (the layout of :mod:`fivecrowns.envs.encoding`)
and each player's information string. The strings are built in immutable chunks shared
between copies, so :meth:`Core.copy` costs the same at move 50 as at move 5,000, and a
copy holds only the last, short chunk of its own.

No framework is imported here; :mod:`fivecrowns.envs.openspiel` wraps a :class:`Core`
in a ``pyspiel.State``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import solver
from ..actions import ACTION_DISCARD, ACTION_GO_OUT, N_ACTIONS
from ..cards import JOKER_INDEX, N_TYPES, Card
from .encoding import _fill, blocks, observation_size
from .features import fill_features

__all__ = ["Config", "Core", "DEAL", "TURN_UP", "DRAW", "DRAW_CARD", "DISCARD", "OVER"]

# Phases of a state: chance deals, chance turns up the first discard, the player draws,
# chance gives the card drawn blind, the player discards, the game is over.
DEAL, TURN_UP, DRAW, DRAW_CARD, DISCARD, OVER = range(6)

CARDS = [str(Card.from_index(t)) for t in range(N_TYPES)]
# An information string's last chunk is sealed (shared from then on) past this length.
_CHUNK = 1024


class Config:
    """What every state of one game shares: the parameters and the encoding's offsets."""

    def __init__(self, n: int, n_rounds: int, decks: int, max_turns: int,
                 features: bool = False) -> None:
        self.n, self.n_rounds, self.decks, self.max_turns = n, n_rounds, decks, max_turns
        self.features = features
        full = np.full(N_TYPES, decks, dtype=np.int64)
        full[JOKER_INDEX] = 3 * decks
        full.flags.writeable = False
        self.full = full
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

    __slots__ = ("cfg", "totals", "k", "hand_size", "wild", "first", "stock", "stock_size",
                 "hands", "taken", "discard", "pile", "dealt", "phase", "current", "turn",
                 "just_taken", "went_out", "final_left", "scores", "done", "info", "obs",
                 "fresh",
                 "frozen")

    cfg: Config
    totals: list[int]
    k: int
    hand_size: int
    wild: int
    first: int
    stock: npt.NDArray[np.int64]
    stock_size: int
    hands: npt.NDArray[np.uint8]
    taken: npt.NDArray[np.int64]
    discard: npt.NDArray[np.int64]
    pile: list[int]
    dealt: int
    phase: int
    current: int
    turn: int
    just_taken: int
    went_out: int | None
    final_left: int
    scores: list[int | None]
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
        c.totals = [0] * cfg.n
        c.k = 0
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
        new.totals = self.totals[:]
        new.k = self.k
        new.hand_size = self.hand_size
        new.wild = self.wild
        new.first = self.first
        new.stock = self.stock.copy()
        new.stock_size = self.stock_size
        new.hands = self.hands.copy()
        new.taken = self.taken.copy()
        new.discard = self.discard.copy()
        new.pile = self.pile[:]
        new.dealt = self.dealt
        new.phase = self.phase
        new.current = self.current
        new.turn = self.turn
        new.just_taken = self.just_taken
        new.went_out = self.went_out
        new.final_left = self.final_left
        new.scores = self.scores[:]
        new.done = self.done[:]
        new.info = self.info[:]
        new.obs = self.obs.copy()
        new.fresh = self.fresh[:]
        new.frozen = False
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        return self if self.frozen else self.copy()

    def freeze(self) -> Core:
        """Make this state a prototype: read-only arrays, copied before any change."""
        for a in (self.stock, self.hands, self.taken, self.discard, self.obs):
            a.flags.writeable = False
        self.frozen = True
        return self

    # -- the rounds --

    def start_round(self) -> None:
        cfg = self.cfg
        n = cfg.n
        self.hand_size = self.wild = self.k + 3
        self.first = (self.k % n + 1) % n  # the dealer deals from their left
        self.stock = cfg.full.copy()
        self.stock_size = int(self.stock.sum())
        self.hands = np.zeros((n, N_TYPES), dtype=np.uint8)
        self.taken = np.zeros((n, N_TYPES), dtype=np.int64)
        self.discard = np.zeros(N_TYPES, dtype=np.int64)
        self.pile = []
        self.dealt = 0
        self.phase = DEAL
        self.current = self.first
        self.turn = 0
        self.just_taken = -1
        self.went_out = None
        self.final_left = 0
        self.scores = [None] * n
        self.public(f"round{self.k + 1}")
        self.refresh()

    def deadwood(self, row: npt.NDArray[np.uint8]) -> int:
        return int(solver.deadwood(row, self.wild, decks=self.cfg.decks))

    def end_round(self) -> None:
        for q in range(self.cfg.n):
            score = self.scores[q]
            self.totals[q] += self.deadwood(self.hands[q]) if score is None else score
        self.k += 1
        if self.k == self.cfg.n_rounds:
            self.phase = OVER
            self.refresh()
        else:
            self.start_round()

    # -- moves --

    def chance(self, a: int) -> None:
        """A card ``a`` leaves the draw pile (deal, turn-up or blind draw)."""
        if not 0 <= a < N_TYPES or not self.stock[a]:
            raise ValueError(f"chance outcome {a} is not a card left in the draw pile")
        cfg = self.cfg
        obs = self.obs
        self.stock[a] -= 1
        self.stock_size -= 1
        obs[:, cfg.draw] = self.stock_size
        phase = self.phase
        if phase == TURN_UP:
            self.pile.append(a)
            self.discard[a] += 1
            obs[:, cfg.top + a] = 1.0
            obs[:, cfg.disc + a] += 1.0
            obs[:, cfg.unseen + a] -= 1.0
            obs[:, cfg.phase] = 1.0
            self.public(f"up:{CARDS[a]}")
            self.phase = DRAW
            return
        q = (self.first + self.dealt) % cfg.n if phase == DEAL else self.current
        self.hands[q, a] += 1
        obs[q, cfg.hand + a] += 1.0
        obs[q, cfg.unseen + a] -= 1.0
        if phase == DEAL:
            self.private("d", q, a)
            self.dealt += 1
            if self.dealt == cfg.n * self.hand_size:
                self.phase = TURN_UP
        else:
            self.private("b", q, a)
            self.enter_discard(q)

    def draw_deck(self) -> None:
        """The player to act draws blind (the card is the next chance outcome)."""
        if not self.stock_size:
            self.reshuffle()
        self.public(f"{self.current}:deck")
        self.just_taken = -1
        self.phase = DRAW_CARD

    def take(self) -> None:
        """The player to act takes the top discard."""
        cfg = self.cfg
        obs = self.obs
        p = self.current
        t = self.pile.pop()
        self.discard[t] -= 1
        self.taken[p, t] += 1
        self.hands[p, t] += 1
        self.just_taken = t
        obs[:, cfg.top + t] = 0.0
        if self.pile:
            obs[:, cfg.top + self.pile[-1]] = 1.0
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
        p = self.current
        n = cfg.n
        if self.pile:
            obs[:, cfg.top + self.pile[-1]] = 0.0
        self.hands[p, t] -= 1
        self.pile.append(t)
        self.discard[t] += 1
        known = bool(self.taken[p, t])
        if known:
            self.taken[p, t] -= 1
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
        self.just_taken = -1
        self.turn += 1
        if self.went_out is None:
            if go_out:
                self.went_out = p
                self.scores[p] = 0
                self.final_left = n - 1
                obs[:, cfg.final] = 1.0
                for v in range(n):
                    obs[v, cfg.went[v][p]] = 1.0
            elif self.turn >= cfg.max_turns:
                self.end_round()
                return
        else:
            # docs/rules.rst, A round, 4: the final turn scores the hand kept.
            self.scores[p] = self.deadwood(self.hands[p])
            self.final_left -= 1
            if self.final_left == 0:
                self.end_round()
                return
        nxt = (p + 1) % n
        obs[:, cfg.phase + 1] = 0.0
        obs[:, cfg.phase] = 1.0
        for v in range(n):
            if v != p:
                obs[v, cfg.opp[v][p]] = self.hand_size
            obs[v, cfg.to_act[v][p]] = 0.0
            obs[v, cfg.to_act[v][nxt]] = 1.0
        self.current = nxt
        self.phase = DRAW

    def enter_discard(self, p: int) -> None:
        cfg = self.cfg
        obs = self.obs
        obs[:, cfg.phase] = 0.0
        obs[:, cfg.phase + 1] = 1.0
        for v in range(cfg.n):
            if v != p:  # the player to discard holds one card more
                obs[v, cfg.opp[v][p]] = self.hand_size + 1
        self.phase = DISCARD

    def reshuffle(self) -> None:
        """The discard pile but its top becomes the draw pile."""
        cfg = self.cfg
        top = self.pile[-1]
        moved = self.discard.copy()
        moved[top] -= 1
        self.stock += moved
        self.stock_size = int(self.stock.sum())
        self.discard[:] = 0
        self.discard[top] = 1
        self.pile = [top]
        obs = self.obs
        obs[:, cfg.disc:cfg.disc + N_TYPES] = self.discard
        obs[:, cfg.unseen:cfg.unseen + N_TYPES] += moved
        obs[:, cfg.draw] = self.stock_size
        self.public("reshuffle")

    # -- legality --

    def mask(self) -> npt.NDArray[np.bool_]:
        """The legal action codes of the player to act, as a (114,) bool array."""
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        decks = self.cfg.decks
        if self.phase == DRAW:
            mask[0] = self.stock_size > 0 or len(self.pile) > 1
            mask[1] = len(self.pile) > 0
        elif self.phase == DISCARD:
            row = self.hands[self.current]
            held = np.flatnonzero(row)
            kept = self.kept()
            if kept >= 0:
                held = held[held != kept]
            mask[ACTION_DISCARD + held] = True
            if solver.can_go_out(row, self.wild, decks=decks):
                batch = np.repeat(row.reshape(1, N_TYPES), held.size, axis=0)
                batch[np.arange(held.size), held] -= 1
                dead = solver.deadwood_many(batch, self.wild, decks=decks)
                mask[ACTION_GO_OUT + held[dead == 0]] = True
        return mask

    def is_legal(self, a: int) -> bool:
        """``self.mask()[a]`` for the player to act, with one solver call at most."""
        if self.phase == DRAW:
            return (a == 0 and (self.stock_size > 0 or len(self.pile) > 1)) \
                or (a == 1 and len(self.pile) > 0)
        if self.phase != DISCARD or not ACTION_DISCARD <= a < N_ACTIONS:
            return False
        go_out = a >= ACTION_GO_OUT
        t = a - (ACTION_GO_OUT if go_out else ACTION_DISCARD)
        row = self.hands[self.current]
        if not row[t] or t == self.kept():
            return False
        if go_out:
            row[t] -= 1
            dead = self.deadwood(row)
            row[t] += 1
            return dead == 0
        return True

    def kept(self) -> int:
        """The card type the player to discard may not discard, or -1: the card just
        taken from the discard pile, unless the hand holds nothing else
        (docs/rules.rst, A round, 3)."""
        t = self.just_taken
        if t < 0 or self.hands[self.current, t] == self.hand_size + 1:
            return -1
        return t

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

    def unseen(self, player: int) -> npt.NDArray[np.int64]:
        """The counts of the cards whose place ``player`` cannot know."""
        taken = self.taken
        return self.cfg.full - self.hands[player] - self.discard - taken.sum(axis=0) \
            + taken[player]

    def encode(self, player: int, out: npt.NDArray[np.float32] | None = None
               ) -> npt.NDArray[np.float32]:
        """``player``'s observation vector computed from the counts (what :meth:`vector`
        reads from the vectors kept up to date move by move)."""
        cfg = self.cfg
        if out is None:
            out = np.empty(cfg.size, dtype=np.float32)
        phase = 0 if self.phase in (DRAW, DRAW_CARD) else 1 if self.phase == DISCARD else -1
        top = self.pile[-1] if self.pile else -1
        rnd = min(self.k, cfg.n_rounds - 1) + 1
        _fill(out[:cfg.base], cfg.n, player, self.hands[player], top, self.discard,
              self.taken, self.unseen(player), self.hand_size, self.stock_size, rnd, rnd + 2,
              self.current, phase, self.went_out is not None, self.went_out, self.totals)
        if cfg.features:
            self.features_into(player, out[cfg.base:])
        return out

    def features_into(self, player: int, out: npt.NDArray[np.float32]) -> None:
        """The solver features of ``player``'s hand (:mod:`fivecrowns.envs.features`)."""
        view = player == self.current and self.phase == DISCARD
        fill_features(out, self.hands[player], wild=self.wild, decks=self.cfg.decks,
                      top=self.pile[-1] if self.pile else -1, unseen=self.unseen(player),
                      discard_view=view, must_keep=self.kept() if view else -1,
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
