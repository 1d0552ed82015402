"""The rules lab in pictures and in a report: every rule change's paired effect with its corrected
interval, one panel per measure, and the "House rules" section every game's report has."""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from moonshot.analysis.words import PERCENT_KINDS
from moonshot.reports.glossary import label

COLUMNS = 3


def rules_lab_figure(result):
    """One panel per measure: each rule's change from the defaults (percentage points for
    probabilities) with its Bonferroni-corrected interval, rules in rank order, top first."""
    ranked = result.tables["ranked"]
    game = result.meta.get("game")
    metrics = [m for m in dict.fromkeys(ranked["metric"]) if m != "effect_size"]
    rules = list(dict.fromkeys(ranked["rule"]))
    rows = math.ceil(len(metrics) / COLUMNS)
    fig, axes = plt.subplots(rows, COLUMNS, figsize=(4.3 * COLUMNS, rows * (1.2 + 0.22 * len(rules))),
                             sharey=True, squeeze=False, layout="constrained")    # room for the suptitle at any height
    y = np.arange(len(rules))
    for ax, name in zip(axes.flat, metrics):
        d = ranked[ranked["metric"] == name].set_index("rule").reindex(rules)
        percent = d["kind"].iloc[0] in (*PERCENT_KINDS, "change")
        scale = 100.0 if percent else 1.0
        est = d["estimate"].to_numpy(float) * scale
        lo, hi = d["ci_low"].to_numpy(float) * scale, d["ci_high"].to_numpy(float) * scale
        err = np.nan_to_num(np.stack([est - lo, hi - est]))
        ax.errorbar(est, y, xerr=err, fmt="o", ms=3, capsize=2, lw=1)
        ax.axvline(0, color="#999", lw=0.8)
        ax.set_title(label(game, name) + (" (percentage points)" if percent else ""), fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_yticks(y, rules, fontsize=7)
    axes[0, 0].invert_yaxis()      # once: the panels share y, so inverting each row's would undo it on every second row
    for ax in list(axes.flat)[len(metrics):]:
        ax.set_visible(False)
    k = result.meta.get("corrected_for", "?")
    fig.suptitle(f"{result.title}: each rule's change from the defaults (95% intervals, Bonferroni-corrected for "
                 f"{k} rule changes)", fontsize=10)
    return fig


def house_rules(doc, setup, games: int, hands: int, seed: int, jobs: int) -> None:
    """A report's "House rules" section: the rules lab on the report's table (every flag that applies,
    each alternative value), its ranked table, figure, never-fired list and findings."""
    from moonshot.analysis.rules_lab import rules_lab
    res = rules_lab(setup, games, hands, seed, jobs)
    figure, tables = None, []
    if "never_fired" in res.tables:
        tables.append(("house_rules_never_fired", "never_fired", "Rule changes under which no game or hand came out "
                       "differently (not 'no effect': the situation never came up)"))
    if "ranked" in res.tables:
        figure = ("house_rules", rules_lab_figure(res), "Each rule change against the defaults on the same games and "
                  "deals; rules in rank order, top first.")
        tables.insert(0, ("house_rules", "ranked", f"Rule changes ranked by effect size ({games:,} games and "
                          f"{hands:,} hands each; intervals Bonferroni-corrected)"))
    doc.section("House rules: which ones matter?", res, figure, tables)
