"""Solver features: what the exact solver says about one player's own hand.

A strong human counts these at every turn; the observation encoding carries them when asked
(``encode_observation(obs, features=True)``, the ``solver_features=True`` option of the
Gymnasium and PettingZoo environments, and of the OpenSpiel game). They are computed from the
player's own hand, the wild rank, the top of the discard pile, the player's unseen cards
(``Observation.unseen_counts``) and the rule on the card just taken, so they never depend on
the opponents' hidden cards or on the draw pile's order.

**Two views.** The features describe the observer's own hand in one of two views:

- **the discard view**, when the observer is to act in its discard phase and holds n + 1
  cards: it has drawn and now chooses a discard;
- **the draw view** otherwise (n cards): its draw phase, and also any moment when it is not
  to act (the features then say what it would face if it were to draw now) or the round
  is over.

The *kept hand* K is the hand of n cards the features look ahead from: in the draw view the
hand itself; in the discard view the hand less its best legal discard (the least deadwood
left, ties broken as :func:`fivecrowns.best_discard` breaks them).

**Layout.** Deadwood values are divided by :data:`DEADWOOD_SCALE` (100), so
``value * 100`` gives the solver's integer back exactly; -1 marks an entry that does not
apply.

=============  ====  =====================================================================
name           size  contents
=============  ====  =====================================================================
``discard``    56    discard view: for each card type the player may discard now,
                     ``deadwood(hand - t)``; -1 for a type not held, for the card just
                     taken from the discard pile when the rules forbid throwing it back
                     (docs/rules.rst, A round, 3), and everywhere in the draw view
``take``       1     draw view: the least deadwood after taking the top discard and making
                     the best discard allowed (not the card just taken, unless
                     ``Rules.return_discard`` or the hand holds nothing else); -1 with no
                     top discard and in the discard view
``now``        1     ``deadwood(K)``: in the draw view the hand's deadwood; in the discard
                     view the least deadwood this discard can leave (0: the player can go
                     out)
``complete``   1     the share of the unseen cards whose blind draw lets K go out
                     (``draw_table(K)[t] == 0``): the number of such cards divided by the
                     number of unseen cards (the sum of the encoding's ``unseen`` block),
                     so the count is this share times that number
``improve``    1     the share of the unseen cards whose blind draw lowers K's
                     best-discard deadwood below ``deadwood(K)``
``expected``   1     the expected best-discard deadwood of K after one blind draw, each
                     card type weighted by its unseen count (``deadwood(K)`` if no card is
                     unseen)
``view``       1     1 in the discard view, 0 in the draw view
=============  ====  =====================================================================

Ranges: ``discard``, ``take``, ``now`` and ``expected`` are -1 or in ``[0, 7]`` (a hand of at
most 14 cards of at most 50 points); in practice below 1.5 (over 1,200,000 random hands
of 3, 8, 13 and 14 cards, wilds 3, 8 and K, the largest deadwood was 136).
``complete``, ``improve`` and ``view`` are in ``[0, 1]``. The unseen cards are those whose
place the player cannot know: the draw pile and the opponents' cards other than those seen
taken from the discard pile. A blind draw meets them uniformly as far as the player
knows, which is what the shares and the expectation assume.

Examples
--------
>>> from fivecrowns.round import Round
>>> r = Round(2, round_number=1, seed=4)
>>> f = observation_features(r.observation(1))
>>> f.shape == (feature_size(),), f.dtype.name
(True, 'float32')
>>> float(f[BLOCKS["view"]][0])        # player 1 is to draw
0.0
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import solver
from .._rows import row_core
from ..cards import N_TYPES
from ..deck import full_counts
from ..outs import discard_order
from ..records import Observation, Phase
from ..round import Round
from ..rules import Rules

__all__ = ["DEADWOOD_SCALE", "DEADWOOD_BOUND", "BLOCKS", "feature_size", "feature_bounds",
           "observation_features", "round_features", "fill_features"]

#: Deadwood features are the solver's deadwood divided by this.
DEADWOOD_SCALE = 100.0
#: An upper bound of every deadwood feature: 14 cards of at most 50 points, scaled.
DEADWOOD_BOUND = 14 * 50 / DEADWOOD_SCALE


def _layout() -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, size in (("discard", N_TYPES), ("take", 1), ("now", 1), ("complete", 1),
                       ("improve", 1), ("expected", 1), ("view", 1)):
        out[name] = slice(at, at + size)
        at += size
    return out


#: The slice of each named feature within the feature vector (see the module docstring).
BLOCKS: dict[str, slice] = _layout()
_SIZE = BLOCKS["view"].stop
_TAKE, _NOW, _COMPLETE, _IMPROVE, _EXPECTED, _VIEW = (
    BLOCKS[name].start for name in ("take", "now", "complete", "improve", "expected", "view"))
_UINT8 = np.dtype(np.uint8)


def feature_size() -> int:
    """Length of the feature vector (62).

    >>> feature_size()
    62
    """
    return _SIZE


def feature_bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """(low, high) of each feature (see Ranges in the module docstring)."""
    low = np.full(_SIZE, -1.0, dtype=np.float32)
    high = np.full(_SIZE, DEADWOOD_BOUND, dtype=np.float32)
    for name in ("complete", "improve", "view"):
        low[BLOCKS[name]] = 0.0
        high[BLOCKS[name]] = 1.0
    low[BLOCKS["expected"]] = 0.0
    low[BLOCKS["now"]] = 0.0
    return low, high


def _check_out(out: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
    if out is None:
        return np.empty(_SIZE, dtype=np.float32)
    if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (_SIZE,):
        raise ValueError(f"out must be a float32 array of shape ({_SIZE},), got "
                         f"{getattr(out, 'dtype', type(out).__name__)} "
                         f"{getattr(out, 'shape', '')}")
    return out


def observation_features(obs: Observation, *,
                         out: npt.NDArray[np.float32] | None = None
                         ) -> npt.NDArray[np.float32]:
    """The features of ``obs.player``'s hand (layout in the module docstring).

    Parameters
    ----------
    obs : Observation
        One player's view.
    out : ndarray, optional
        A ``float32`` array of :func:`feature_size` entries to fill instead of a new one
        (a view into a larger observation vector works).

    Returns
    -------
    ndarray
        ``float32``, shape ``(feature_size(),)``.

    Examples
    --------
    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=3, seed=1)
    >>> f = observation_features(r.observation(1))
    >>> from fivecrowns import deadwood
    >>> round(float(f[BLOCKS["now"]][0]) * DEADWOOD_SCALE) == deadwood(r.hand_counts(1), 5)
    True
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"obs must be an Observation, got {type(obs).__name__}")
    out = _check_out(out)
    _from_observation(obs, out)
    return out


def _from_observation(obs: Observation, out: npt.NDArray[np.float32]) -> None:
    view = obs.phase is Phase.DISCARD and obs.current_player == obs.player
    top = -1 if obs.top_discard is None else obs.top_discard.index
    kept = -1 if obs.must_keep is None else obs.must_keep.index
    _fill(out, np.array(obs.counts, dtype=np.uint8), obs.wild, obs.decks, top,
          obs.unseen_counts, view, kept, obs.return_discard)


def round_features(rnd: Round, player: int, *,
                   out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """``observation_features(rnd.observation(player))``, without making the observation.

    Examples
    --------
    >>> from fivecrowns.round import Round
    >>> r = Round(3, round_number=5, seed=2)
    >>> bool((round_features(r, 2) == observation_features(r.observation(2))).all())
    True
    """
    if not isinstance(rnd, Round):
        raise TypeError(f"rnd must be a Round, got {type(rnd).__name__}")
    p = rnd._check_player(player)
    out = _check_out(out)
    st = rnd._state
    view = p == st.current and st.phase == 1
    _fill(out, st.hand(p), rnd.wild, rnd._decks, st.top_discard, st.unseen(p), view,
          st.must_keep() if view else -1, not rnd._no_return)
    return out


def fill_features(out: npt.NDArray[np.float32], hand: npt.NDArray[np.uint8], *, wild: int,
                  decks: int, top: int, unseen: npt.NDArray[np.integer],
                  discard_view: bool, must_keep: int = -1,
                  return_discard: bool = False) -> npt.NDArray[np.float32]:
    """Fill ``out`` from counts an adapter keeps itself (the other two functions call this).

    Parameters
    ----------
    out : ndarray
        ``float32``, :func:`feature_size` entries.
    hand : ndarray
        The player's hand, a (56,) ``uint8`` row (n + 1 cards in the discard view).
    wild, decks : int
    top : int
        The top discard's card type, or -1 for an empty discard pile.
    unseen : ndarray
        (56,) counts of the player's unseen cards (``Observation.unseen_counts``): none
        of a type the hand holds every copy of.
    discard_view : bool
        The player is to discard (see the module docstring).
    must_keep : int
        In the discard view, the card type that may not be discarded, or -1.
    return_discard : bool
        ``Rules.return_discard`` (used for ``take``).
    """
    out = _check_out(out)
    if not isinstance(hand, np.ndarray) or hand.dtype != _UINT8 or hand.shape != (N_TYPES,):
        raise ValueError(f"hand must be a uint8 array of shape ({N_TYPES},), got "
                         f"{getattr(hand, 'dtype', type(hand).__name__)} "
                         f"{getattr(hand, 'shape', '')}")
    if not isinstance(unseen, np.ndarray) or unseen.shape != (N_TYPES,):
        raise ValueError(f"unseen must be an array of shape ({N_TYPES},), got "
                         f"{getattr(unseen, 'shape', type(unseen).__name__)}")
    if not -1 <= top < N_TYPES or not -1 <= must_keep < N_TYPES:
        raise ValueError(f"top and must_keep must be card types 0..55 or -1, got "
                         f"{top} and {must_keep}")
    solver.deadwood(hand, wild, decks=decks)  # checks the hand's counts, wild and decks
    if (unseen < 0).any() or (unseen.astype(np.int64) + hand > full_counts(
            Rules(decks=decks))).any():
        raise ValueError("unseen must count cards the deck has beside the hand: at most "
                         "the deck's copies of each type less the hand's, none negative")
    _fill(out, hand.copy(), wild, decks, top, unseen, bool(discard_view), must_keep,
          bool(return_discard))
    return out


def _least(row: npt.NDArray[np.uint8], wild: int, decks: int, types: list[int]) -> list[int]:
    """``deadwood(row - t)`` for each type of ``types`` (``row`` is restored)."""
    # one call a type: for the dozen types of a hand this is quicker than a batched call
    dead = row_core().deadwood_row
    out = []
    for t in types:
        row[t] -= 1
        out.append(dead(row, wild, decks))
        row[t] += 1
    return out


def _fill(out: npt.NDArray[np.float32], row: npt.NDArray[np.uint8], wild: int, decks: int,
          top: int, unseen: npt.NDArray[np.integer], view: bool, kept: int,
          return_discard: bool) -> None:
    """The features of the hand ``row`` (a private copy: it is modified)."""
    core = row_core()
    out[:] = -1.0
    if view:
        held = row.nonzero()[0].tolist()
        if kept >= 0:
            held.remove(kept)
        deads = _least(row, wild, decks, held)
        out[held] = np.array(deads, dtype=np.float64) / DEADWOOD_SCALE
        now = min(deads)
        # the kept hand: the first best discard in best_discard's order
        allowed = row.copy()
        if kept >= 0:
            allowed[kept] = 0
        best = dict(zip(held, deads))
        b = next(t for t in discard_order(allowed, wild) + held if best[t] == now)
        row[b] -= 1
        out[_VIEW] = 1.0
    else:
        now = core.deadwood_row(row, wild, decks)
        if top >= 0:
            row[top] += 1
            take, t = core.best_discard_row(row, wild, decks)
            # docs/rules.rst, A round, 3: the card taken may not go straight back, nor an
            # identical copy, unless the hand holds nothing else
            if t == top and not return_discard and row[top] != row.sum():
                others = [u for u in row.nonzero()[0].tolist() if u != top]
                take = min(_least(row, wild, decks, others))
            out[_TAKE] = take / DEADWOOD_SCALE
            row[top] -= 1
        out[_VIEW] = 0.0
    out[_NOW] = now / DEADWOOD_SCALE
    table = core.draw_table_row(row, wild, decks)
    # table is -1 only for a type the hand holds every copy of, which is then not unseen:
    # the unseen counts weigh the drawable types as they are
    weights = unseen.astype(np.int32)
    total = int(weights.sum())
    if total > 0:
        out[_COMPLETE] = int(weights @ (table == 0)) / total
        out[_IMPROVE] = int(weights @ (table < now)) / total
        out[_EXPECTED] = int(weights @ table) / total / DEADWOOD_SCALE
    else:
        out[_COMPLETE] = out[_IMPROVE] = 0.0
        out[_EXPECTED] = now / DEADWOOD_SCALE
