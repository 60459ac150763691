"""The one observation encoding shared by the PettingZoo, Gymnasium and OpenSpiel adapters.

:func:`encode_observation` turns what one player may know (a
:class:`~fivecrowns.round.Observation`) into a flat ``float32`` vector of
:func:`observation_size` entries. Every block is seen from the observer's seat: the
opponents come in play order after the observer (relative seat 1, 2, ...), and totals are
given relative to the observer's own. The layout, for ``n`` players:

=====================  ========  =================================================
block                  size      contents
=====================  ========  =================================================
``hand``               56        own hand: count of each card type (0..55)
``top_discard``        56        one-hot of the top card of the discard pile
``discard_pile``       56        counts of every card in the discard pile (top included)
``unseen``             56        counts of the cards whose place the player cannot know
``opponents``          57(n-1)   per opponent: hand size, then the cards it was seen
                                 taking from the discard pile and still holds (counts)
``draw_size``          1         cards in the draw pile
``round``              11        one-hot of the round number 1..11 (zeros for a round
                                 dealt with an explicit hand size)
``wild``               11        one-hot of the wild rank 3..13
``to_act``             n         one-hot of the relative seat to act
``phase``              2         one-hot: draw, discard (zeros once the round is over)
``final_turn``         1         1 once someone has gone out
``went_out``           n         one-hot of the relative seat that went out
``totals``             n-1       each opponent's running total minus the observer's
``features``           62        only with ``features=True``: the solver features of
                                 :mod:`fivecrowns.envs.features` (their own layout)
=====================  ========  =================================================

Card types are numbered as in docs/rules.rst, Card codes; counts and points are raw
(not scaled: :func:`observation_scale` gives the multipliers that bring every entry to
about [-1, 1]). The vector depends only on the observer's hand and public events: the
order of the draw pile and the other players' hidden cards never enter it.

The default encoding (``features=False``) is the same, entry for entry, as in 0.2; the
features are appended after ``totals``, so every other block keeps its place.

Examples
--------
>>> from fivecrowns.round import Round
>>> from fivecrowns.envs.encoding import encode_observation, observation_size, blocks
>>> r = Round(3, round_number=1, seed=4)
>>> vec = encode_observation(r.observation(0))
>>> vec.shape == (observation_size(3),), vec.dtype.name
(True, 'float32')
>>> int(vec[blocks(3)["hand"]].sum())   # three cards in round 1
3
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .._checks import check_int
from .._deprecation import keyword_only
from ..cards import N_TYPES
from ..deck import full_counts
from ..records import Observation, Phase
from ..rules import Rules
from .features import BLOCKS as _FEATURE_BLOCKS
from .features import _from_observation as _features_into
from .features import feature_size

__all__ = ["encode_observation", "observation_size", "blocks", "observation_scale",
           "TOTALS_SCALE"]

_N_ROUNDS = 11
_N_RANKS = 11  # 3..13
#: :func:`observation_scale` divides the relative totals by this: even with a random
#: player at the table the final totals are rarely 500 points apart (three GreedyBots and
#: a RandomBot, 150 games: 99% of the gaps under 434, the largest 494).
TOTALS_SCALE = 500.0
#: ... and the opponents' hand sizes by this: the most cards a hand holds (13 + 1 drawn).
_HAND_SCALE = 14.0


def _check_n(n_players: int) -> int:
    check_int(n_players, "n_players", 1)
    return int(n_players)


@keyword_only("features")
def observation_size(n_players: int, *, features: bool = False) -> int:
    """Length of the encoding for ``n_players`` players: ``192 + 60 * n_players``, and
    :func:`~fivecrowns.envs.features.feature_size` (62) more with ``features``.

    >>> observation_size(4), observation_size(4, features=True)
    (432, 494)
    """
    n_players = _check_n(n_players)
    return 4 * N_TYPES + 57 * (n_players - 1) + 1 + _N_ROUNDS + _N_RANKS + n_players \
        + 2 + 1 + n_players + (n_players - 1) + (feature_size() if features else 0)


@keyword_only("features")
def blocks(n_players: int, *, features: bool = False) -> dict[str, slice]:
    """The slice of each named block of the encoding (see the module docstring).

    With ``features``, the ``"features"`` block and each feature of
    :data:`fivecrowns.envs.features.BLOCKS` under its name prefixed ``"features."``.

    >>> b = blocks(2)
    >>> b["hand"], b["totals"]
    (slice(0, 56, None), slice(311, 312, None))
    >>> blocks(2, features=True)["features.now"]
    slice(369, 370, None)
    """
    n = _check_n(n_players)
    sizes = [("hand", N_TYPES), ("top_discard", N_TYPES), ("discard_pile", N_TYPES),
             ("unseen", N_TYPES), ("opponents", 57 * (n - 1)), ("draw_size", 1),
             ("round", _N_ROUNDS), ("wild", _N_RANKS), ("to_act", n), ("phase", 2),
             ("final_turn", 1), ("went_out", n), ("totals", n - 1)]
    if features:
        sizes.append(("features", feature_size()))
    out: dict[str, slice] = {}
    at = 0
    for name, size in sizes:
        out[name] = slice(at, at + size)
        at += size
    assert at == observation_size(n, features=features)
    if features:
        base = out["features"].start
        for name, part in _FEATURE_BLOCKS.items():
            out[f"features.{name}"] = slice(base + part.start, base + part.stop)
    return out


@keyword_only("features", "decks")
def observation_scale(n_players: int, *, features: bool = False,
                      decks: int = 2) -> npt.NDArray[np.float32]:
    """Multipliers that bring the encoding to about [-1, 1] (``vec * scale``).

    - card counts (``hand``, ``discard_pile``, ``unseen``, the opponents' taken cards):
      divided by the copies of that card type in the deck (2 per natural card, 6 jokers
      with two decks), so in [0, 1];
    - the opponents' hand sizes: divided by 14, in [0, 1];
    - ``draw_size``: divided by the number of cards (116, or 232 with four decks), in
      [0, 1];
    - ``totals``: divided by :data:`TOTALS_SCALE` (500); unbounded in principle, in
      practice within [-1, 1];
    - one-hot blocks and the solver features (already scaled): unchanged.

    Examples
    --------
    >>> s = observation_scale(2)
    >>> round(1 / float(s[blocks(2)["draw_size"]][0]))
    116
    """
    n = _check_n(n_players)
    copies = full_counts(Rules(decks=decks)).astype(np.float32)
    b = blocks(n, features=features)
    scale = np.ones(observation_size(n, features=features), dtype=np.float32)
    for name in ("hand", "discard_pile", "unseen"):
        scale[b[name]] = 1.0 / copies
    opp = scale[b["opponents"]].reshape(n - 1, 57)
    opp[:, 0] = 1.0 / _HAND_SCALE
    opp[:, 1:] = 1.0 / copies
    scale[b["draw_size"]] = 1.0 / int(copies.sum())
    scale[b["totals"]] = 1.0 / TOTALS_SCALE
    return scale


def encode_observation(obs: Observation, *, out: npt.NDArray[np.float32] | None = None,
                       features: bool = False) -> npt.NDArray[np.float32]:
    """The observation vector of ``obs`` (layout in the module docstring).

    Parameters
    ----------
    obs : Observation
        One player's view, from :meth:`Round.observation <fivecrowns.round.Round.observation>`
        or :meth:`Game.observation <fivecrowns.game.Game.observation>`.
    out : ndarray, optional
        A ``float32`` array of :func:`observation_size` entries to fill instead of a new one.
    features : bool
        Append the solver features of :mod:`fivecrowns.envs.features` (62 entries).

    Returns
    -------
    ndarray
        ``float32``, shape ``(observation_size(obs.n_players, features=features),)``.

    Examples
    --------
    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=3, seed=1)
    >>> vec = encode_observation(r.observation(1))
    >>> int(vec[blocks(2)["to_act"]].argmax())   # player 1 acts first: relative seat 0
    0
    >>> long = encode_observation(r.observation(1), features=True)
    >>> bool((long[:vec.size] == vec).all()), long.size - vec.size
    (True, 62)
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"obs must be an Observation, got {type(obs).__name__}")
    if out is not None:
        size = observation_size(obs.n_players, features=features)
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 \
                or out.shape != (size,):
            raise ValueError(f"out must be a float32 array of shape ({size},), got "
                             f"{getattr(out, 'dtype', type(out).__name__)} "
                             f"{getattr(out, 'shape', '')}")
    return _encode(obs, out, features)


def _encode(obs: Observation, out: npt.NDArray[np.float32] | None,
            features: bool = False) -> npt.NDArray[np.float32]:
    n = obs.n_players
    if features:
        size = 192 + 60 * n
        if out is None:
            out = np.empty(size + feature_size(), dtype=np.float32)
        _encode(obs, out[:size])
        _features_into(obs, out[size:])
        return out
    phase = 0 if obs.phase is Phase.DRAW else 1 if obs.phase is Phase.DISCARD else -1
    top = -1 if obs.top_discard is None else obs.top_discard.index
    return _fill(out, n, obs.player, obs.counts, top, obs.discard_counts, obs.taken_counts,
                 obs.unseen_counts,
                 obs.hand_size, obs.draw_size, obs.round_number, obs.wild,
                 obs.current_player, phase, obs.final_turn, obs.went_out, obs.totals)


_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _order(n: int, player: int) -> tuple[int, ...]:
    """The opponents' seats in play order after ``player``."""
    key = (n, player)
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = tuple((player + i) % n for i in range(1, n))
    return order


def _fill(out: npt.NDArray[np.float32] | None, n: int, player: int, hand: npt.NDArray,
          top: int, discard: npt.NDArray, taken: npt.NDArray | Sequence[npt.NDArray],
          unseen: npt.NDArray,
          hand_size: int, draw_size: int, round_number: int | None, wild: int,
          current: int, phase: int, final_turn: bool, went_out: int | None,
          totals: tuple[int, ...] | list[int] | None) -> npt.NDArray[np.float32]:
    """Write the encoding from its parts (the adapters that keep their own state call this).

    ``taken`` is (n, 56) by absolute seat (an array, or a sequence of rows);
    ``hand_size`` the hand size between turns (the player to act holds one more in the
    discard phase); ``phase`` 0 draw, 1 discard, -1 over; ``top`` -1 for an empty discard
    pile.
    """
    if out is None:
        out = np.zeros(192 + 60 * n, dtype=np.float32)
    else:
        out.fill(0.0)
    out[0:56] = hand
    if top >= 0:
        out[56 + top] = 1.0
    out[112:168] = discard
    out[168:224] = unseen
    order = _order(n, player)
    grown = current if phase == 1 else -1  # holds one card more than between turns
    at = 224
    for q in order:  # per opponent: hand size, then the cards seen taken
        out[at] = hand_size + 1 if q == grown else hand_size
        out[at + 1:at + 57] = taken[q]
        at += 57
    out[at] = draw_size
    at += 1
    if round_number is not None:
        out[at + round_number - 1] = 1.0
    at += _N_ROUNDS
    out[at + wild - 3] = 1.0
    at += _N_RANKS
    out[at + (current - player) % n] = 1.0
    at += n
    if phase >= 0:
        out[at + phase] = 1.0
    at += 2
    if final_turn:
        out[at] = 1.0
    at += 1
    if went_out is not None:
        out[at + (went_out - player) % n] = 1.0
    at += n
    if totals is not None:
        own = totals[player]
        for q in order:
            out[at] = totals[q] - own
            at += 1
    return out
