"""Running fivecrowns on a Ray cluster (the ``fivecrowns[ray]`` extra).

Two things run on Ray:

* :func:`ray_map_chunks`, under every bulk simulation given ``backend="ray"``
  (:func:`fivecrowns.runner.run_in_order`): chunks of seeded work run as Ray tasks and come
  back in order, so the results are those of the local backend, bit for bit.
* :func:`score_dataset`: scores a Ray Dataset of hands with the compiled bulk functions,
  one zero-copy batch at a time.

Nothing here imports Ray until it is called; a plain install needs no Ray. A local Ray is
started on first use when none is running (``ray.init(num_cpus=...)``); to use a cluster,
pass its address, set ``RAY_ADDRESS``, or call ``ray.init(address=...)`` first (see the
"Scaling out" page of the documentation).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ._checks import check_decks, check_int, check_wild
from ._optional import require, requires

__all__ = ["ray_map_chunks", "ensure_ray", "ray_data", "score_dataset"]

T = TypeVar("T")
R = TypeVar("R")


#: What the ray extra is for, in MissingExtraError's message.
_RAY_WHAT = "backend='ray'"


def _ray() -> Any:
    return require("ray", "ray", _RAY_WHAT)


def ensure_ray(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """The ``ray`` module, connected: joins ``address`` or starts a local Ray if needed.

    When Ray is already initialised in this process it is used as it is (and ``address``
    is not looked at). Otherwise ``address`` (or the ``RAY_ADDRESS`` environment variable)
    names the cluster to join; with neither, a local Ray starts with ``num_cpus`` CPUs
    (default: all of this machine's).
    """
    ray = _ray()
    if ray.is_initialized():
        return ray
    if address is not None and not isinstance(address, str):
        raise TypeError(f"ray_address must be a str such as 'ray://host:10001' or 'auto', "
                        f"got {type(address).__name__}")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        if num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
    else:
        kwargs["address"] = address  # None: ray.init reads RAY_ADDRESS
        del kwargs["include_dashboard"]
    ray.init(**kwargs)
    return ray


def ray_data(address: str | None = None) -> Any:
    """``ray.data``, with Ray connected (:func:`ensure_ray`) and its context made.

    Making Ray Data's context warns about options of Ray's own that nobody here set; those
    warnings are not the caller's to act on, so they are silenced once, here.
    """
    ensure_ray(address)
    import warnings

    with requires("ray", _RAY_WHAT):
        import ray.data

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ray.data.DataContext.get_current()
    return ray.data


def _call_chunk(fn: Callable[[list[T]], list[R]], chunk: list[T]) -> list[R]:
    return fn(chunk)


_REMOTE: dict[int, Any] = {}  # ray.remote(_call_chunk) by max_retries, made once


def _remote_call(ray: Any, max_retries: int) -> Any:
    task = _REMOTE.get(max_retries)
    if task is None:
        # Application errors are not retried: only a dead worker or node is.
        task = ray.remote(max_retries=max_retries, retry_exceptions=False)(_call_chunk)
        _REMOTE[max_retries] = task
    return task


def _in_flight(ray: Any) -> int:
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
    except Exception:  # an older or remote client without cluster_resources
        cpus = 1
    return max(4, 4 * cpus)


def ray_map_chunks(fn: Callable[[list[T]], list[R]], chunks: Sequence[list[T]], *,
                   address: str | None = None, max_retries: int = 3,
                   num_cpus: int | None = None) -> Iterator[list[R]]:
    """Yield ``fn(chunk)`` for each chunk, in order, each computed as a Ray task.

    Parameters
    ----------
    fn : callable
        Takes a chunk (a list of items), returns a list of results; it must pickle
        (a module-level function or a ``functools.partial`` of one). It is shipped to the
        cluster once, not once per task.
    chunks : sequence of lists
    address : str, optional
        The cluster to join when Ray is not yet initialised in this process; by default
        ``RAY_ADDRESS`` if set, else a local Ray is started.
    max_retries : int
        How many times a task whose worker process (or node) died is run again. Every
        chunk carries its own seeds, so a retried chunk gives the same result. An
        exception raised by ``fn`` itself is not retried: it reaches the caller (as a
        ``RayTaskError`` that is also an instance of the original exception's class).
    num_cpus : int, optional
        CPUs of a local Ray started here (default: all).

    Yields
    ------
    list
        ``fn(chunk)``, in the chunks' order, each as soon as it and all before it are
        done. At most a few tasks per cluster CPU are in flight at a time, so a long
        list of chunks does not flood the object store. When the caller stops iterating
        (or an error is raised) no more chunks are sent; those in flight (a few per CPU)
        run to their end and their results are dropped.
    """
    max_retries = check_int(max_retries, "max_retries", 0)
    ray = ensure_ray(address, num_cpus=num_cpus)
    if not chunks:
        return
    task = _remote_call(ray, max_retries)
    fn_ref = ray.put(fn)
    window = _in_flight(ray)
    pending: deque[Any] = deque()
    todo = iter(chunks)
    try:
        for chunk in todo:
            pending.append(task.remote(fn_ref, chunk))
            if len(pending) >= window:
                break
        while pending:
            result = ray.get(pending.popleft())
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(task.remote(fn_ref, nxt))
            yield result
    finally:
        # The tasks in flight are not cancelled: ray.cancel on a task that is finishing at
        # that moment can abort the whole driver process (Ray 2.60's core worker fails a
        # check, "Tried to complete task that was not pending", seen in this project's CI).
        # Letting a few chunks finish costs seconds; losing the caller's process costs all.
        pending.clear()


# ---------------------------------------------------------------------------------------------
# Ray Data: bulk scoring

def score_dataset(ds: Any, *, wild: int | str, decks: int = 2, column: str | None = None,
                  discard: bool = False, batch_size: int | None = 65536) -> Any:
    """A Ray Dataset of hands with their scores added: ``deadwood`` (and ``discard_deadwood``).

    Each batch is scored on the cluster by the compiled bulk functions
    (:func:`fivecrowns.deadwood_many`, and the best-discard one with ``discard=True``) on
    zero-copy numpy views of the batch. The dataset is lazy: nothing runs until it is
    consumed (``ds.take``, ``ds.write_parquet``, ``ds.iter_batches``...).

    Parameters
    ----------
    ds : ray.data.Dataset
        Hands in one of three layouts: a text column (``"5C 7C JK"``, named by ``column``,
        default ``"hand"``); 56 integer count columns named by card code ``"3C"`` ..
        ``"KT"``, ``"JK"`` (:data:`fivecrowns.files.CARD_COLUMNS`); or a tensor column of
        shape (56,) (named by ``column``; ``ray.data.from_numpy`` calls it ``"data"``).
    wild : int or str
        The wild rank 3..13 of every hand, or the name of an integer column holding each
        hand's wild rank.
    decks : int
        2, or 4 for party-mode hands.
    column : str, optional
        The hand column, for the text and tensor layouts.
    discard : bool
        Also add ``discard_deadwood``: the deadwood after the best discard (hands of at
        least one card).
    batch_size : int or None
        Rows per batch (``None``: whole blocks).

    Returns
    -------
    ray.data.Dataset
        The same rows with an ``int32`` ``deadwood`` column (and ``discard_deadwood``).
        A hand the solver rejects (an unknown card, too many copies...) raises
        ``ValueError`` naming the problem when the dataset is consumed.
    """
    from ._batches import BatchScorer

    if not isinstance(wild, str):
        check_wild(wild)
    decks = check_decks(decks)
    scorer = BatchScorer(wild=wild, decks=decks, column=column, discard=discard,
                               strict=True)
    return ds.map_batches(scorer, batch_format="pyarrow", batch_size=batch_size,
                          zero_copy_batch=True)
