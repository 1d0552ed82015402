"""Estimates with honest intervals, from the sums a Tally keeps.

Proportions get a Wilson 95% interval; means (and paired differences, which are means of
per-deal differences) get mean +- 1.96 standard errors, and no interval (NaN, shown as "-") from
a single value. Which is which is declared where the
metric is tallied (simulator.runner.Tally: a boolean outcome is a proportion), never guessed
from its name: a summed table has ``<metric>__sq`` for a mean and no such column for a proportion.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

Z = 1.959963984540054


def wilson(successes: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + Z**2 / n
        centre = (p + Z**2 / (2 * n)) / denom
        half = Z * np.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / denom
    lo = np.where(successes == 0, 0.0, np.clip(centre - half, 0, 1))      # exact ends, no rounding dust
    hi = np.where(successes == n, 1.0, np.clip(centre + half, 0, 1))
    return p, lo, hi


def mean_ci(total: np.ndarray, total_sq: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    total = np.asarray(total, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(np.asarray(total_sq, dtype=float) / n - mean**2, 0) * n / np.maximum(n - 1, 1)
        half = Z * np.sqrt(var / n)
    half = np.where(n < 2, np.nan, half)        # one value says nothing of its spread: no interval
    return mean, mean - half, mean + half


def estimate(summed: pd.DataFrame, keys: list[str], metrics: list[str], n_col: str = "n") -> pd.DataFrame:
    """Long table: one row per key combination and metric, with estimate, n, ci_low, ci_high and
    kind (how to read the estimate: "proportion", "share", "change" or "mean"; analysis.words)."""
    rows = []
    for metric in metrics:
        n = summed[n_col].to_numpy()
        proportion = metric + "__sq" not in summed.columns          # see the module docstring
        if proportion:
            est, lo, hi = wilson(summed[metric].to_numpy(), n)
        else:
            est, lo, hi = mean_ci(summed[metric].to_numpy(), summed[metric + "__sq"].to_numpy(), n)
        part = summed[keys].copy()
        part["metric"] = metric
        part["estimate"] = est
        part["n"] = n.astype(np.int64)
        part["ci_low"] = lo
        part["ci_high"] = hi
        part["kind"] = ("proportion" if proportion else "share" if metric + "__share" in summed.columns
                        else "change" if metric + "__change" in summed.columns else "mean")
        if part["kind"].iloc[0] == "share":        # a share of yes/no outcomes lies in [0, 1], so does its interval
            part["ci_low"], part["ci_high"] = part["ci_low"].clip(0, 1), part["ci_high"].clip(0, 1)
        elif part["kind"].iloc[0] == "change":     # and a change of one in [-1, 1]
            part["ci_low"], part["ci_high"] = part["ci_low"].clip(-1, 1), part["ci_high"].clip(-1, 1)
        rows.append(part)
    return pd.concat(rows, ignore_index=True)
