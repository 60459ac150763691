"""LearnedBot: a policy learned by imitation of ExpertBot, played in NumPy.

The network scores each candidate move from what the solver says of the hand the move
leaves, and plays the best-scored one; it was fitted to ExpertBot's choices on decision
data from the compiled engine (:mod:`fivecrowns.decisions`) by
``examples/train_imitation.py``. Play needs NumPy only (no torch); the weights are a
small file shipped with the package (:data:`WEIGHTS`, with the command and seed that made
it), read when the first LearnedBot is made. Two sets ship (:data:`SHIPPED_WEIGHTS`):
0.5's, the default, fitted to ExpertBot's decisions at 2, 3, 4 and 6 players, and 0.4's,
fitted at four players alone (``LearnedBot(weights="0.4")``, ``learned:weights=0.4`` by
name), which the figures and records of 0.4 cite.

Candidates and their features
-----------------------------
Every input comes from the player's own view: its hand, the top discard, the cards it has
not seen (``Observation.unseen_counts``, which weigh every expectation: a blind draw meets
them uniformly as far as the player knows), the cards the next player was seen taking,
the table's public counters. The candidates of a decision are

- on the draw: *take the top discard* (the hand after the best discard allowed then) and
  *draw blind*;
- on the discard: each card type :func:`fivecrowns.outs.discard_order` tries (one wild
  stands for all its rank), but the card the rules keep.

For each, with K the hand of n cards the move leaves (for the blind draw, the hand now,
whose draw is still to come), :data:`CANDIDATE_FEATURES` in that order:

===============  ==========================================================================
feature          meaning
===============  ==========================================================================
``dead``         the deadwood of K (blind draw: the expected best-discard deadwood after
                 the draw)
``next``         the expected best-discard deadwood after one more blind draw from K
                 (blind draw: after two)
``out_next``     the chance that this draw lets the player go out
``improve``      the chance that one blind draw lowers K's deadwood (blind draw: the
                 hand's)
``next2``        the expected best-discard deadwood after two more blind draws (the
                 second from the unseen cards less the first; blind draw: ``next``)
``out_next2``    the chance of going out within those two draws
``wild``         the card thrown (taken, for the top discard) is a wild
``value``        its points, / 50
``unseen``       the unseen copies of its type, / the deck's copies
``feed_rank``    the next player was seen taking a card of its rank (discard only)
``feed_run``     ... a card within two ranks of it in its suit (discard only)
``deck``         1 for the blind draw
``pile``         1 for taking the top discard
``dead_rel``     ``dead`` less its least over the decision's candidates
``next_rel``     ``next`` less its least
``next2_rel``    ``next2`` less its least
===============  ==========================================================================

then the decision's context (the same for every candidate, :data:`CONTEXT_FEATURES`):
the hand size / 13, the draw pile's size / 100, the turn / 40, the players / 7, and the
player's running total less the least of the others', / 100. Deadwood is in points / 50.

Moves that are not learned
--------------------------
Where ExpertBot follows a fixed rule, so does LearnedBot, without asking the network
(its data would teach it nothing else there): it goes out whenever a discard allows it
(so does every bot of this package); on its final turn (someone went out) it discards
the card that leaves the least deadwood, and draws by the one-draw comparison of
StrongBot (the top discard if its best-discard deadwood is below the expected deadwood
of a blind draw); with one legal discard it makes it; it takes a wild or a top discard
that lets it go out; with an empty discard pile it draws blind and with nothing to draw
blind it takes the top discard.

Examples
--------
>>> from fivecrowns import LearnedBot, StrongBot, play_game
>>> result = play_game([LearnedBot(), StrongBot(), StrongBot()], seed=3, rounds=[1, 2, 3])
>>> len(result.totals), len(result.rounds)
(3, 3)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._npz import npz_array, npz_meta, open_npz, refusal
from ._rows import row_core
from ._state import policies_core as _engine
from .actions import (
    ACTION_DISCARD,
    ACTION_DRAW_DECK,
    ACTION_DRAW_DISCARD,
    ACTION_GO_OUT,
    Source,
)
from .bots import _allowed_order, _candidate_deadwoods, best_discard_choice
from .cards import N_TYPES, Card
from .deck import full_counts
from .envs.encoding import blocks
from .expert import _sums, _two_blind_draws
from .outs import discard_order
from .records import Observation, Phase
from .rules import Rules

# The compiled engine's sums where it is the engine in use; else (a pure-Python install, or
# FIVECROWNS_IMPLEMENTATION=python) ExpertBot's twin, the same sums.
_two_draw_sums = None if _engine is None else _engine.two_draw_sums

__all__ = ["LearnedBot", "CANDIDATE_FEATURES", "CONTEXT_FEATURES", "WEIGHTS",
           "SHIPPED_WEIGHTS", "decide",
           "observation_view", "recorded_view", "load_weights", "LearnedWeights"]

CANDIDATE_FEATURES = ("dead", "next", "out_next", "improve", "next2", "out_next2", "wild",
                      "value", "unseen", "feed_rank", "feed_run", "deck", "pile",
                      "dead_rel", "next_rel", "next2_rel")
CONTEXT_FEATURES = ("hand_size", "draw_size", "turn", "players", "total_gap")
#: The weight sets shipped with the package, by the release that made them (a name
#: ``LearnedBot(weights=...)`` and :func:`load_weights` take): ``"0.5"``, fitted to
#: ExpertBot's decisions at 2, 3, 4 and 6 players, and ``"0.4"``, at four players alone.
SHIPPED_WEIGHTS = {"0.5": "data/learned_bot_0.5.npz", "0.4": "data/learned_bot.npz"}
#: The default weights (a path inside the package): 0.5's.
WEIGHTS = SHIPPED_WEIGHTS["0.5"]
_N_CAND = len(CANDIDATE_FEATURES)
_N_IN = _N_CAND + len(CONTEXT_FEATURES)
_DEAD = 50.0
_N_RANKS = 11
_COPIES = {decks: full_counts(Rules(decks=decks)).astype(np.float64) for decks in (2, 4)}


def _two(row: npt.NDArray[np.uint8], wild: int, decks: int,
         unseen: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    if _two_draw_sums is not None:
        return _two_draw_sums(row, wild, decks, unseen)
    return _two_blind_draws(row, wild, decks, unseen)


def _kept_stats(row: npt.NDArray[np.uint8], dead: int, wild: int, decks: int,
                unseen: npt.NDArray[np.int64]) -> list[float]:
    """``dead``, ``next``, ``out_next``, ``improve``, ``next2``, ``out_next2`` of the kept
    hand ``row`` (n cards, deadwood ``dead``)."""
    table = row_core().draw_table_row(row, wild, decks)
    n, d, z = _sums(table, unseen)
    if d <= 0:  # nothing left to draw
        return [dead / _DEAD, dead / _DEAD, 0.0, 0.0, dead / _DEAD, 0.0]
    better = int(np.where((table >= 0) & (table < dead), unseen, 0).sum())
    n2, d2, z2 = _two(row, wild, decks, unseen)
    if d2 <= 0:
        n2, d2, z2 = n, d, z
    return [dead / _DEAD, n / d / _DEAD, z / d, better / d, n2 / d2 / _DEAD, z2 / d2]


def _card(t: int, wild: int, unseen: npt.NDArray[np.int64], copies: npt.NDArray[np.float64],
          next_taken: npt.NDArray[Any] | None) -> list[float]:
    """``wild``, ``value``, ``unseen``, ``feed_rank``, ``feed_run`` of card type ``t``."""
    card = Card.from_index(t)
    is_wild = card.is_wild(wild)
    feed_rank = feed_run = 0.0
    if next_taken is not None and t != N_TYPES - 1 and next_taken.any():
        rank, suit = t % _N_RANKS, t // _N_RANKS
        feed_rank = float(next_taken[rank::_N_RANKS][:5].sum() > 0)
        lo, hi = max(0, rank - 2), min(_N_RANKS, rank + 3)
        near = next_taken[suit * _N_RANKS + lo:suit * _N_RANKS + hi].sum() \
            - next_taken[t]
        feed_run = float(near > 0)
    value = 50 if t == N_TYPES - 1 else 20 if is_wild else t % _N_RANKS + 3
    return [float(is_wild), value / 50.0, unseen[t] / copies[t], feed_rank, feed_run]


def _relative(x: npt.NDArray[np.float64]) -> None:
    """Fill the ``*_rel`` columns: each candidate's value less the least."""
    for src, dst in ((0, 13), (1, 14), (4, 15)):
        x[:, dst] = x[:, src] - x[:, src].min()


def _candidates(view: _View, order: list[int] | None = None
                ) -> tuple[list[int], npt.NDArray[np.float64]]:
    """The candidate moves of a decision the network makes (``order``: the discards),
    and their inputs: a ``(candidates, len(CANDIDATE_FEATURES) +
    len(CONTEXT_FEATURES))`` array."""
    row = view.row.copy()
    wild, decks, unseen = view.wild, view.decks, view.unseen
    copies = _COPIES[decks]
    if order is not None:
        deads = _candidate_deadwoods(row, wild, decks, order).tolist()
        x = np.zeros((len(order), _N_IN))
        for i, t in enumerate(order):
            row[t] -= 1
            x[i, 0:6] = _kept_stats(row, deads[i], wild, decks, unseen)
            row[t] += 1
            x[i, 6:11] = _card(t, wild, unseen, copies, view.next_taken)
        actions = [ACTION_DISCARD + t for t in order]
    else:
        top = view.top
        x = np.zeros((2, _N_IN))
        # draw blind: the hand now, its draw to come
        now = row_core().deadwood_row(row, wild, decks)
        stats = _kept_stats(row, now, wild, decks, unseen)
        x[0, 0:6] = [stats[1], stats[4], stats[5], stats[3], stats[4], stats[5]]
        x[0, 11] = 1.0
        # take the top discard, then the best discard allowed
        row[top] += 1
        taken, t = best_discard_choice(row, wild, decks)
        if t == top and not view.return_discard:
            allowed = _allowed_order(row, wild, t)
            if allowed:
                deads = _candidate_deadwoods(row, wild, decks, allowed)
                k = int(np.argmin(deads))
                taken, t = int(deads[k]), allowed[k]
        row[t] -= 1
        x[1, 0:6] = _kept_stats(row, taken, wild, decks, unseen)
        x[1, 6:11] = _card(top, wild, unseen, copies, None)
        x[1, 12] = 1.0
        actions = [ACTION_DRAW_DECK, ACTION_DRAW_DISCARD]
    _relative(x)
    x[:, _N_CAND:] = view.context
    return actions, x


def _context(hand_size: int, draw_size: int, turn: int, n_players: int,
             gap: float) -> tuple[float, float, float, float, float]:
    return (hand_size / 13.0, draw_size / 100.0, turn / 40.0, n_players / 7.0, gap / 100.0)


@dataclass
class _View:
    """What a decision needs of the player's view (from an Observation, or from a
    recorded decision's encoding)."""

    row: npt.NDArray[np.uint8]
    wild: int
    decks: int
    unseen: npt.NDArray[np.int64]
    top: int
    kept: int
    discard_phase: bool
    return_discard: bool
    next_taken: npt.NDArray[Any] | None
    last_turn: bool
    drawable: bool
    context: tuple[float, float, float, float, float]


def observation_view(obs: Observation) -> _View:
    """The view of the player to act in ``obs``: what :func:`decide` reads."""
    nxt = (obs.player + 1) % obs.n_players
    taken = obs.taken_counts[nxt] if nxt != obs.player and obs.taken_counts else None
    gap = 0.0
    if obs.totals is not None and len(obs.totals) > 1:
        gap = obs.totals[obs.player] - min(t for q, t in enumerate(obs.totals)
                                           if q != obs.player)
    return _View(np.array(obs.counts, dtype=np.uint8), obs.wild, obs.decks,
                 obs.unseen_counts.astype(np.int64),
                 -1 if obs.top_discard is None else obs.top_discard.index,
                 -1 if obs.must_keep is None else obs.must_keep.index,
                 obs.phase is Phase.DISCARD, obs.return_discard, taken,
                 obs.final_turn or (obs.sudden_death and obs.went_out is not None),
                 obs.draw_size > 0 or obs.discard_size > 1,
                 _context(obs.hand_size, obs.draw_size, obs.turn, obs.n_players, gap))


def recorded_view(obs: npt.NDArray[np.integer], mask: npt.NDArray[np.bool_], turn: int, *,
                  n_players: int, decks: int = 2, return_discard: bool = False) -> _View:
    """The view of a recorded decision (:class:`fivecrowns.decisions.Decisions`: a row
    of ``obs`` and of ``mask``, and ``turn``): what :func:`decide` reads, from the
    shared encoding and the legal moves only."""
    b = blocks(n_players)
    row = obs[b["hand"]].astype(np.uint8)
    top_row = obs[b["top_discard"]]
    top = int(top_row.argmax()) if top_row.any() else -1
    phase = obs[b["phase"]]
    discard_phase = bool(phase[1])
    kept = -1
    if discard_phase:
        barred = np.flatnonzero((row > 0) & ~mask[ACTION_DISCARD:ACTION_DISCARD + N_TYPES])
        kept = int(barred[0]) if len(barred) else -1
    opp = obs[b["opponents"]]
    hand_size = int(opp[0])
    rel = obs[b["totals"]]
    gap = float(-rel.min()) if len(rel) else 0.0
    draw_size = int(obs[b["draw_size"]][0])
    pile = int(obs[b["discard_pile"]].sum())
    went_out = bool(obs[b["went_out"]].any())
    return _View(row, int(obs[b["wild"]].argmax()) + 3, decks,
                 obs[b["unseen"]].astype(np.int64), top, kept, discard_phase,
                 return_discard, opp[1:57] if n_players > 1 else None, went_out,
                 draw_size > 0 or pile > 1,
                 _context(hand_size, draw_size, int(turn), n_players, gap))


def decide(view: _View) -> tuple[int, None] | tuple[list[int], npt.NDArray[np.float64]]:
    """A decision of LearnedBot: ``(action, None)`` where the move is not learned (see
    the module docstring), else the candidate actions and their inputs for the network
    (:func:`candidates`)."""
    row, wild, decks = view.row, view.wild, view.decks
    if not view.discard_phase:
        if view.top < 0:
            return ACTION_DRAW_DECK, None
        if not view.drawable or Card.from_index(view.top).is_wild(wild):
            return ACTION_DRAW_DISCARD, None
        if view.last_turn:
            return _one_draw(view), None
        actions, x = _candidates(view)
        if x[1, 0] == 0.0:  # the top discard lets the hand go out
            return ACTION_DRAW_DISCARD, None
        return actions, x
    order = _discard_order(row, wild, view.kept)
    dead = _candidate_deadwoods(row, wild, decks, order)
    best = int(np.argmin(dead))
    if dead[best] == 0:
        return ACTION_GO_OUT + order[best], None
    if len(order) == 1 or view.last_turn:
        return ACTION_DISCARD + order[best], None
    return _candidates(view, order)


def _discard_order(row: npt.NDArray[np.uint8], wild: int, kept: int) -> list[int]:
    """The discards worth trying: :func:`discard_order`'s, but the card the rules keep
    (ExpertBot's candidates)."""
    order = discard_order(row, wild)
    if kept >= 0 and order == [kept]:
        order = _allowed_order(row, wild, kept)
    return [t for t in order if t != kept]


def _one_draw(view: _View) -> int:
    """StrongBot's one-draw comparison: take the top discard if its best-discard
    deadwood is below a blind draw's expected one."""
    row, wild, decks, top = view.row.copy(), view.wild, view.decks, view.top
    row[top] += 1
    taken, t = best_discard_choice(row, wild, decks)
    if t == top and not view.return_discard:
        order = _allowed_order(row, wild, t)
        if order:
            taken = int(_candidate_deadwoods(row, wild, decks, order).min())
    row[top] -= 1
    n, d, _ = _sums(row_core().draw_table_row(row, wild, decks), view.unseen)
    if d <= 0:
        return ACTION_DRAW_DISCARD if taken < row_core().deadwood_row(row, wild, decks) \
            else ACTION_DRAW_DECK
    return ACTION_DRAW_DISCARD if taken * d < n else ACTION_DRAW_DECK


@dataclass(frozen=True)
class LearnedWeights:
    """A scoring network: ``score = w2 . relu(w1 . relu(w0 . z + b0) + b1) + b2`` with
    ``z = (x - mean) / scale``, and where it came from (``meta``: the command, seed,
    data and measured result)."""

    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    layers: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...]
    meta: dict[str, Any]

    def scores(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
        """The candidates' scores (higher is better), rows of ``x`` as :func:`candidates`
        gives them."""
        h = (x.astype(np.float32) - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays: dict[str, Any] = {"mean": self.mean, "scale": self.scale,
                                  "meta": np.array(json.dumps(self.meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        np.savez_compressed(path, **arrays)


def load_weights(path: str | os.PathLike[str] | None = None) -> LearnedWeights:
    """Weights from ``path`` (a file :meth:`LearnedWeights.save` wrote, or the name of a
    shipped set in :data:`SHIPPED_WEIGHTS`: such a name is never read as a file), or the
    default shipped ones.

    >>> load_weights().meta["players"], "players" in load_weights("0.4").meta
    ([2, 3, 4, 6], False)

    Raises
    ------
    ValueError
        The file holds no weights of this layout: one line saying what it is instead
        (a decisions file, a single array, not an ``.npz``...) and what was expected.
        Nothing in the file is unpickled.
    OSError
        The file cannot be opened (no such file...).
    """
    if path is None or (isinstance(path, str) and path in SHIPPED_WEIGHTS):
        inside = WEIGHTS if path is None else SHIPPED_WEIGHTS[path]
        with resources.as_file(resources.files("fivecrowns") / inside) as shipped:
            return _read(Path(shipped))
    return _read(Path(path))


_WEIGHTS = "LearnedBot weights"
_FROM_SAVE = "a weights file from LearnedWeights.save or examples/train_imitation.py"


def _read(path: Path) -> LearnedWeights:
    def refuse(why: str) -> ValueError:
        return refusal(path, _WEIGHTS, why, _FROM_SAVE)

    def array(name: str) -> npt.NDArray[np.float32]:
        a = npz_array(data, name, path, _WEIGHTS, _FROM_SAVE)
        if a.dtype.kind not in "fiu":
            raise refuse(f"its array {name!r} is not numbers")
        return a.astype(np.float32)

    with open_npz(path, _WEIGHTS, _FROM_SAVE) as data:
        if "meta" in data.files and "mean" not in data.files \
                and any(f.startswith("c00000.") for f in data.files):
            raise refuse("it is a decisions file, from write_decisions")
        meta = npz_meta(data, path, _WEIGHTS, _FROM_SAVE)
        mean, scale = array("mean"), array("scale")
        layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
        while f"w{len(layers)}" in data.files:
            i = len(layers)
            layers.append((array(f"w{i}"), array(f"b{i}")))
    if not layers:
        raise refuse("no array 'w0'")
    first = layers[0][0]
    if first.ndim == 2 and first.shape[0] != _N_IN:
        raise ValueError(f"{path}: weights for {first.shape[0]} inputs, LearnedBot has "
                         f"{_N_IN}")
    if mean.shape != (_N_IN,) or scale.shape != (_N_IN,):
        raise refuse(f"mean {mean.shape} and scale {scale.shape} are not of {_N_IN} inputs")
    width = _N_IN
    for i, (w, b) in enumerate(layers):
        last = i == len(layers) - 1
        if w.ndim != 2 or w.shape[0] != width or b.shape != w.shape[1:] \
                or (last and w.shape[1] != 1):
            raise refuse(f"w{i} {w.shape} and b{i} {b.shape} do not take {width} inputs"
                         + (" to 1 score" if last else ""))
        width = w.shape[1]
    if not (np.isfinite(mean).all() and np.isfinite(scale).all() and (scale != 0).all()
            and all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in layers)):
        raise refuse("a weight is not finite, or a scale is 0")
    return LearnedWeights(mean, scale, tuple(layers), meta)


_SHIPPED: dict[str, LearnedWeights] = {}


def _shipped(name: str) -> LearnedWeights:
    """A shipped weight set, read once per process."""
    if name not in _SHIPPED:
        _SHIPPED[name] = load_weights(name)
    return _SHIPPED[name]


class LearnedBot:
    """The policy learned from ExpertBot's decisions (see the module), in NumPy.

    Parameters
    ----------
    weights : str, optional
        A weights file (``LearnedWeights.save``), or the name of a shipped set
        (:data:`SHIPPED_WEIGHTS`: ``"0.5"``, the default, or ``"0.4"``), read once per
        process when the first bot with it is made. The bot is deterministic: it takes
        no seed.
    """

    name = "LearnedBot"

    def __init__(self, weights: str | None = None) -> None:
        self.weights_path = weights
        if weights is None or weights in SHIPPED_WEIGHTS:
            self._net = _shipped("0.5" if weights is None else weights)
        else:
            self._net = load_weights(weights)

    def _act(self, obs: Observation) -> int:
        what, x = decide(observation_view(obs))
        if x is None:
            assert isinstance(what, int)
            return what
        assert isinstance(what, list)
        return self._pick(what, x)

    def _pick(self, actions: list[int], x: npt.NDArray[np.float64]) -> int:
        """The network's choice among the candidates ``actions`` (inputs ``x``): the
        best-scored one (a subclass may sample instead)."""
        return actions[int(np.argmax(self._net.scores(x)))]

    def choose_draw(self, obs: Observation) -> Source:
        """Take the top discard or draw blind (see the module)."""
        return Source(self._act(obs))

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible; else the best-scored discard (see the module)."""
        code = self._act(obs)
        if code >= ACTION_GO_OUT:
            return Card.from_index(code - ACTION_GO_OUT), True
        return Card.from_index(code - ACTION_DISCARD), False

    def __repr__(self) -> str:
        return "LearnedBot()" if self.weights_path is None else \
            f"LearnedBot(weights={self.weights_path!r})"
