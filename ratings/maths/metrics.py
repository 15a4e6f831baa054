"""Interval estimates shared by every metric: Wilson for proportions, percentile bootstrap otherwise (pure numpy)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Estimate:
    """A point value with a 95% interval and the count behind it (trials, or sample size); value None when undefined."""

    value: float | None
    low: float | None
    high: float | None
    n: int


def proportion(successes: int, trials: int, z: float = Z95) -> Estimate:
    """successes / trials with its Wilson interval; value None (interval (0, 1)) when there are no trials."""
    low, high = wilson_interval(successes, trials, z)
    return Estimate(successes / trials if trials > 0 else None, low, high, int(trials))


def percentile_interval(samples, level: float = 0.95) -> tuple[float | None, float | None]:
    """Central `level` interval of bootstrap samples, ignoring undefined (NaN) rounds."""
    values = np.asarray(samples, dtype=float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return (None, None)
    tail = 50.0 * (1.0 - level)
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return (float(low), float(high))


def bootstrap_mean(values, *, rng: np.random.Generator, rounds: int = 1000, level: float = 0.95) -> Estimate:
    """Mean of `values` with a percentile bootstrap interval (vectorised)."""
    return bootstrap_quantile(values, None, rng=rng, rounds=rounds, level=level)


def bootstrap_quantile(
    values, q: float | None, *, rng: np.random.Generator, rounds: int = 1000, level: float = 0.95
) -> Estimate:
    """The q-quantile (0..1; None for the mean) of `values` with a percentile bootstrap interval (vectorised)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return Estimate(None, None, None, 0)
    resamples = data[rng.integers(0, data.size, size=(rounds, data.size))]
    if q is None:
        value, samples = data.mean(), resamples.mean(axis=1)
    else:
        value, samples = np.quantile(data, q), np.quantile(resamples, q, axis=1)
    low, high = percentile_interval(samples, level)
    return Estimate(float(value), low, high, int(data.size))


def pearson(x, y) -> tuple[float | None, float | None]:
    """Pearson r and its two-sided p-value (t test with n − 2 degrees of freedom); (None, None) if undefined."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.shape != ys.shape or xs.size < 3:
        return (None, None)
    dx, dy = xs - xs.mean(), ys - ys.mean()
    denominator = math.sqrt(float(dx @ dx) * float(dy @ dy))
    if denominator == 0.0:
        return (None, None)
    r = max(-1.0, min(1.0, float(dx @ dy) / denominator))
    df = xs.size - 2
    if abs(r) == 1.0:
        return (r, 0.0)
    t_squared = r * r * df / (1.0 - r * r)
    # P(|T| > t) for Student's t with df degrees of freedom is I_{df/(df+t²)}(df/2, 1/2).
    return (r, _regularized_beta(df / 2.0, 0.5, df / (df + t_squared)))


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b) by the continued fraction of Numerical Recipes §6.4 (modified Lentz), to ~1e-15."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return result
