"""The tournament's figure (analysis never draws: analysis.tournament computes the ratings)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from moonshot.analysis.result import Result  # noqa: E402


def ratings_figure(result: Result):
    """The ratings as points with 95% error bars (bigger points: more games behind them)."""
    d = result.tables["ratings"]
    d = d[d["metric"] == "rating"].sort_values("estimate")
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(d) + 1.5))
    y = np.arange(len(d))
    est = d["estimate"].to_numpy()
    err = [est - d["ci_low"].to_numpy(), d["ci_high"].to_numpy() - est]
    n = d["n"].to_numpy(dtype=float)
    ax.scatter(est, y, s=12 + 60 * np.sqrt(n / max(n.max(), 1)), zorder=3)
    ax.errorbar(est, y, xerr=err, fmt="none", capsize=3, lw=1)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, d["strategy"].tolist())
    ax.set_xlabel("rating (Elo scale; 0 = the field's average, +100 = wins about 64% against it)")
    ax.grid(alpha=0.3)
    ax.set_title("Bradley-Terry ratings with 95% intervals")
    fig.tight_layout()
    return fig
