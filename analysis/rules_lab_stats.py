"""The rules lab's estimators beyond plain means: measures of the arms' P(win) by position or seat
from their co-moments (the spread over positions, the weakest seat's P(win), with delta-method
intervals), and effect sizes with the ranks they allow. Split from analysis/rules_lab.py."""
from __future__ import annotations

import numpy as np
import pandas as pd

from moonshot.analysis.stats import Z, wilson
from moonshot.analysis.words import widened


def moments_of(x: np.ndarray) -> dict[str, np.ndarray]:
    """Every pair's products of the (n, k) yes/no columns: their co-moments, tallied."""
    k = x.shape[1]
    return {f"m{i}_{j}": x[:, i] & x[:, j] for i in range(k) for j in range(i, k)}



def delta(moments: pd.DataFrame, P: int, pick, metric: str, level_kind: str) -> tuple[list[dict], np.ndarray]:
    """A combination of the P yes/no columns of each arm (variant first, then base; `pick(p)` its
    weights from the arm's rates, the columns taken as found) under base and variant, and its paired
    change with a delta-method interval from the columns' co-moments; a `level_kind` "proportion"
    level (one column) gets Wilson's interval. Also the rates (variant's, then base's)."""
    n = float(moments["n"].iloc[0])
    k = 2 * P
    second = np.zeros((k, k))
    for i in range(k):
        for j in range(i, k):
            second[i, j] = second[j, i] = moments[f"m{i}_{j}"].iloc[0] / n
    p = np.diag(second).copy()
    cov = (second - np.outer(p, p)) * n / max(n - 1, 1)
    weights = {}
    for name, part in (("variant", slice(0, P)), ("base", slice(P, k))):
        weights[name] = np.zeros(k)
        weights[name][part] = pick(p[part])
    weights["d"] = weights["variant"] - weights["base"]
    rows = []
    for name in ("base", "variant", "d"):
        c = weights[name]
        est = float(c @ p)
        half = Z * np.sqrt(max(float(c @ cov @ c), 0.0) / n) if n > 1 else np.nan
        low, high, kind = est - half, est + half, "change"
        if name != "d" and level_kind == "proportion":
            _, low, high = (float(x) for x in wilson(est * n, n))
            kind = level_kind
        rows.append({"metric": f"d_{metric}" if name == "d" else f"{name}_{metric}", "estimate": est, "n": int(n),
                     "ci_low": low, "ci_high": high, "kind": kind})
    return rows, p


def _high_minus_low(p: np.ndarray) -> np.ndarray:
    c = np.zeros(len(p))
    c[int(np.argmax(p))] += 1
    c[int(np.argmin(p))] -= 1
    return c


def _lowest(p: np.ndarray) -> np.ndarray:
    return (np.arange(len(p)) == int(np.argmin(p))).astype(float)


def spread(moments: pd.DataFrame, P: int) -> list[dict]:
    """The spread of P(win) over positions (highest minus lowest) under base and variant, and its
    paired change, with delta-method intervals from the positions' co-moments (the highest and
    lowest positions taken as found)."""
    return delta(moments, P, _high_minus_low, "spread", "change")[0]


def weakest(moments: pd.DataFrame, P: int) -> tuple[list[dict], np.ndarray]:
    """The weakest seat's P(win) (the lowest of any seat, taken as found in each arm: a handicapped
    seat stays in its seat, so this sees what the positions' spread averages away) under base and
    variant (Wilson intervals) and its paired change (delta method); and each seat's P(win) under
    the base."""
    rows, p = delta(moments, P, _lowest, "weakest", "proportion")
    return rows, p[P:]



def effect_sizes(table: pd.DataFrame, names: list[str], k: int) -> pd.DataFrame:
    """Per rule (estimate, ci_low, ci_high): its largest change in standard deviations of the
    measure (pooled over base and variant, a standardized effect), counting only changes whose
    interval, Bonferroni-corrected for k comparisons, excludes zero (0 where none does); and the
    interval of that largest size: from each measure's corrected interval of |change| / SD (0 at
    the low end where it spans zero), the highest low end and the highest high end, which hold the
    largest |change| whenever every measure's interval holds its own."""
    sizes = {}
    for rule, rows in table.groupby("rule", sort=False):
        best, low, high = 0.0, 0.0, 0.0
        for name in names:
            d = rows[rows["metric"] == name]
            if d.empty:
                continue
            base_name = name[2:]
            levels = rows[rows["metric"].isin([f"base_{base_name}", f"base_p_{base_name}",
                                               f"variant_{base_name}", f"variant_p_{base_name}"])]
            sd = np.sqrt(np.mean([sd_of(r) ** 2 for _, r in levels.iterrows()])) if len(levels) else np.nan
            if not sd > 0:
                continue
            row = widened(d, k).iloc[0]
            lo, hi = sorted((abs(float(row["ci_low"])), abs(float(row["ci_high"]))))
            spans = row["ci_low"] <= 0 <= row["ci_high"]
            low, high = max(low, 0.0 if spans else lo / sd), max(high, hi / sd)
            if not spans:
                best = max(best, abs(float(row["estimate"])) / sd)
        sizes[rule] = (best, low, high)
    return pd.DataFrame.from_dict(sizes, orient="index", columns=["estimate", "ci_low", "ci_high"])


def shared_ranks(sizes: pd.DataFrame) -> pd.Series:
    """Ranks by the findings rule: a rule's rank is 1 + the number of rules whose effect size is
    clearly larger (their interval's low end above its high end), so rules whose intervals cannot
    order them share a rank."""
    low, high = sizes["ci_low"].to_numpy(float), sizes["ci_high"].to_numpy(float)
    return pd.Series(1 + (low[None, :] > high[:, None]).sum(axis=1), index=sizes.index)


def sd_of(row) -> float:
    """The per-game (per-hand) standard deviation behind an estimate row."""
    if row["kind"] == "proportion":
        return float(np.sqrt(row["estimate"] * (1 - row["estimate"])))
    if not np.isfinite(row["ci_high"]) or row["n"] < 2:
        return 0.0
    return float((row["ci_high"] - row["ci_low"]) / 2 / Z * np.sqrt(row["n"]))
