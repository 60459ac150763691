"""Confidence intervals for the simulators' reports: one for proportions, one for means."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["Z95", "wilson_interval", "mean_interval"]

#: The two-sided 95% normal quantile, used by every interval in fivecrowns.
Z95 = 1.959964


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default).

    ``successes`` may be fractional (a shared victory counts 1/k). Unlike the normal
    approximation, the interval stays honest at 0% and 100%.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> [round(x, 4) for x in wilson_interval(0, 200)]
    [0.0, 0.0188]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / trials + z * z / (4 * trials * trials)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def mean_interval(values: Sequence[float] | np.ndarray, *, floor: float | None = None,
                  z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` and its normal-approximation interval (95% by default).

    ``floor`` clips the interval's low end at a bound the values cannot go below (scores
    are never negative). One value gives a zero-width interval; none gives ``nan``.

    >>> m, (lo, hi) = mean_interval([1.0, 2.0, 3.0])
    >>> m, round(lo, 3), round(hi, 3)
    (2.0, 0.868, 3.132)
    >>> mean_interval([1.0, 2.0, 3.0], floor=1.0)[1][0]
    1.0
    """
    arr = np.asarray(values, dtype=np.float64)
    n = arr.size
    if n == 0:
        return math.nan, (math.nan, math.nan)
    mean = float(arr.mean())
    if n < 2:
        return mean, (mean, mean)
    half = z * float(arr.std(ddof=1)) / math.sqrt(n)
    lo = mean - half
    if floor is not None:
        lo = max(floor, lo)
    return mean, (lo, mean + half)


def _rate_text(rate: float, ci: tuple[float, float]) -> str:
    """A win rate and its interval as every table of fivecrowns prints them: percentages,
    e.g. ``" 24.70% ( 21.10.. 28.70%)"`` (fixed width, for columns)."""
    return f"{100 * rate:>7.2f}% ({100 * ci[0]:6.2f}..{100 * ci[1]:6.2f}%)"


def _mean_text(mean: float, ci: tuple[float, float]) -> str:
    """A mean score and its interval as the tables print them (fixed width)."""
    return f"{mean:>10.1f} ({ci[0]:7.1f}..{ci[1]:7.1f})"
