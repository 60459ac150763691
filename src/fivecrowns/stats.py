"""Confidence intervals for the simulators' reports."""

from __future__ import annotations

import math

__all__ = ["wilson_interval"]


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
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

