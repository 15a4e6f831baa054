"""Inter-annotator agreement (pure numpy): Cohen's kappa for two raters, Fleiss' kappa for many."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """Cohen's κ = (p_o − p_e) / (1 − p_e) for two raters labelling the same items; None if undefined."""
    if len(first) != len(second) or not first:
        return None
    categories = sorted(set(first) | set(second), key=repr)
    index = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)))
    for a, b in zip(first, second, strict=True):
        table[index[a], index[b]] += 1
    n = table.sum()
    observed = np.trace(table) / n
    expected = float((table.sum(axis=0) / n) @ (table.sum(axis=1) / n))
    return None if expected == 1 else float((observed - expected) / (1 - expected))


def fleiss_kappa(counts: np.ndarray) -> float | None:
    """Fleiss' κ from an items × categories matrix of rating counts (items may have different rater counts ≥ 2).

    P_i = (Σ_j n_ij² − n_i) / (n_i (n_i − 1)), P̄ = mean P_i, p_j = Σ_i n_ij / Σ_i n_i, P_e = Σ_j p_j²,
    κ = (P̄ − P_e) / (1 − P_e). None when fewer than one item has two raters or P_e = 1.
    """
    counts = np.asarray(counts, dtype=float)
    raters = counts.sum(axis=1)
    counts = counts[raters >= 2]
    raters = raters[raters >= 2]
    if counts.shape[0] == 0:
        return None
    agreement = ((counts**2).sum(axis=1) - raters) / (raters * (raters - 1))
    shares = counts.sum(axis=0) / raters.sum()
    chance = float((shares**2).sum())
    return None if chance == 1 else float((agreement.mean() - chance) / (1 - chance))


def label_counts(items: Sequence[Sequence[Hashable]], categories: Sequence[Hashable]) -> np.ndarray:
    """The items × categories count matrix for `fleiss_kappa` from each item's list of labels."""
    index = {c: i for i, c in enumerate(categories)}
    matrix = np.zeros((len(items), len(categories)))
    for row, labels in enumerate(items):
        for label in labels:
            matrix[row, index[label]] += 1
    return matrix
