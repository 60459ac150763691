"""The episodes of recorded decisions as Minari writes them: the work of
:func:`fivecrowns.decisions.to_minari`, a chunk of decisions at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from ._decisions_record import Decisions


def _chained(first: Decisions, rest: Iterator[Decisions]) -> Iterator[Decisions]:
    yield first
    yield from rest


def _episode_rows(chunk: Decisions) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The chunk's rows episode by episode (one seat in one game, decisions in order),
    and where each episode ends in them."""
    key = chunk.game.astype(np.int64) * 16 + chunk.player
    order = np.argsort(key, kind="stable")
    ends = np.append(np.flatnonzero(np.diff(key[order])) + 1, len(order)) if len(order) \
        else np.zeros(0, dtype=np.intp)
    return order, ends


def _episodes(chunk: Decisions) -> Iterator[tuple[npt.NDArray[Any], ...]]:
    """Each episode's observations (its last repeated), actions, rewards, terminations
    and masks (the last repeated): an EpisodeBuffer's fields."""
    obs = chunk.observations()
    order, ends = _episode_rows(chunk)
    for rows in np.split(order, ends[:-1]):
        term = np.zeros(len(rows), dtype=np.bool_)
        term[-1] = True
        yield (np.concatenate([obs[rows], obs[rows[-1:]]]),
               chunk.action[rows].astype(np.int64), chunk.reward[rows].astype(np.float64),
               term, np.concatenate([chunk.mask[rows], chunk.mask[rows[-1:]]]))


def _arrow_encoders() -> tuple[Any, Any, Any, Any] | None:
    """Minari's arrow column encoders, pyarrow's dataset module and the arrow storage
    class; None where this Minari has them elsewhere (its own route is taken then)."""
    try:
        import pyarrow as pa
        import pyarrow.dataset as pads
        from minari.dataset._storages.arrow_storage import (
            ArrowStorage,
            _encode_info,
            _encode_space,
        )
    except ImportError:
        return None
    return (pa, pads, (_encode_space, _encode_info), ArrowStorage)


def _write_arrow_chunk(storage: Any, chunk: Decisions, spaces: tuple[Any, Any],
                       encoders: Any, first_id: int) -> tuple[int, npt.NDArray[np.int64]]:
    """The chunk's episodes written in one call, as Minari's ArrowStorage.update_episodes
    writes each: a row per observation, the actions, rewards and flags padded with a zero
    row at each episode's end, partitioned by episode id. The episodes and their steps."""
    pa, pads, (encode_space, encode_info), arrow_storage = encoders
    if type(storage) is not arrow_storage:
        raise TypeError(f"expected Minari's arrow storage, got {type(storage).__name__}")
    order, ends = _episode_rows(chunk)
    n = len(ends)
    steps = np.diff(ends, prepend=0)
    if not n:
        return 0, steps
    # each episode's rows, then its last row again: the final observation, and the pad
    # row of the rest
    rows = np.insert(order, ends, order[ends - 1])
    pad = ends + np.arange(n)
    real = np.ones(len(rows), dtype=np.bool_)
    real[pad] = False
    actions = np.where(real, chunk.action[rows], 0).astype(np.int64)
    rewards = np.where(real, chunk.reward[rows], 0).astype(np.float64)
    terminations = np.zeros(len(rows), dtype=np.bool_)
    terminations[pad - 1] = True
    batch = pa.RecordBatch.from_pydict({
        "episode_id": np.repeat(np.arange(first_id, first_id + n, dtype=np.int32), steps + 1),
        "observations": encode_space(spaces[0], chunk.observations()[rows],
                                     jpeg_encoding=storage._jpeg_encoding),
        "actions": encode_space(spaces[1], actions, jpeg_encoding=storage._jpeg_encoding),
        "rewards": rewards,
        "terminations": terminations,
        "truncations": np.zeros(len(rows), dtype=np.bool_),
        "infos": encode_info({"action_mask": chunk.mask[rows]})})
    pads.write_dataset(batch, storage.data_path, format=storage.FORMAT,
                       partitioning=["episode_id"], existing_data_behavior="overwrite_or_ignore",
                       basename_template=f"part-{first_id}-{{i}}.arrow", max_partitions=n + 1,
                       preserve_order=True)
    return n, steps

