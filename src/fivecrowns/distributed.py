"""Running fivecrowns on a Ray cluster (the ``fivecrowns[ray]`` extra).

Nothing here is imported unless a caller asks for ``backend="ray"``; a plain install needs
no Ray.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["ray_map_chunks"]

T = TypeVar("T")
R = TypeVar("R")


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'fivecrowns[ray]'") from None
    return ray


def ray_map_chunks(fn: Callable[[list[T]], list[R]], chunks: list[list[T]], *,
                   address: str | None = None, max_retries: int = 3) -> Iterator[list[R]]:
    """Yield ``fn(chunk)`` for each chunk, in order, each computed as a Ray task.

    Joins the cluster at ``address``, or starts a local Ray when none is running. A task
    whose worker dies is retried up to ``max_retries`` times; since every chunk carries its
    own seeds, a retried chunk gives the same result.
    """
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(max_retries=max_retries)(fn)
    refs = [task.remote(chunk) for chunk in chunks]
    for ref in refs:
        yield ray.get(ref)
