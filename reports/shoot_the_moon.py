"""The Shoot the Moon strategy report: headline odds, what a Big Moon is worth (and the same under
the rollout search player: strong play), chip value, odds by hand feature, strategy matches and a
rules what-if, with figures and CSV tables."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from moonshot.analysis import shoot_the_moon as analysis
from moonshot.reports.document import FLOOR, begin, finish, integer_ticks, metric, points, share

# The what-if plays a change that shows at any report size; red trumping a Little Moon lead (A-STM-7)
# moved chips too little to read.
WHATIF_RULES = ["stm.revoke_model=on"]
STRONG = analysis.STRONG     # the search player in every seat in the strong-play section
STRONG_SHARE = 100           # the strong-play run: hands / 100 (2,000 deals at the default --hands)


def big_moon_figure(paired: pd.DataFrame):
    """The tables down the side (their names read level), the value across: chips, then P(win)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    rows = paired[paired["big_before"] == "any"]
    for ax, name, label, scale in ((axes[0], "d_chips", "chips gained that round", 1.0),
                                   (axes[1], "d_win", "gain in P(win the game) (percentage points)", 100.0)):
        d = metric(rows, name)
        y = np.arange(len(d))[::-1]                   # the first table on top
        points(ax, y, d, color="#e58e26", scale=scale, horizontal=True)
        ax.set_yticks(y, d["table"])
        ax.set_xlabel(label)
        ax.axvline(0, color="#444", lw=0.8)
    fig.suptitle("What a Big Moon is worth, by table (95% intervals)")
    fig.tight_layout()
    return fig


def chip_heatmap(win: pd.DataFrame, target: int):
    win = win[win["metric"] == "p_win"]          # the table also holds p_unfinished
    grid = win.pivot(index="ours", columns="theirs", values="estimate")
    half = win.assign(h=(win["ci_high"] - win["ci_low"]) / 2).pivot(index="ours", columns="theirs", values="h")
    fig, ax = plt.subplots(figsize=(7.4, 6))
    im = ax.imshow(grid.to_numpy(), origin="lower", cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(grid.columns)), grid.columns)
    ax.set_yticks(range(len(grid.index)), grid.index)
    ax.set_xlabel("every other side's chips")
    ax.set_ylabel("our chips")
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        if not np.isnan(v):      # each cell: P(win) and the half-width of its 95% interval
            ax.text(j, i, f"{100 * v:.0f}%\n±{100 * half.to_numpy()[i, j]:.0f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im, ax=ax, label="P(we win the game)")
    ax.set_title(f"P(win) from each chips-vs-chips state (first to {target}); ± = 95% interval")
    fig.tight_layout()
    return fig


def odds_figure(tables: dict[str, pd.DataFrame]):
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.4), sharey=True)
    for ax, feature in zip(axes, analysis.FEATURES):
        df = tables[feature]
        for name, color, label in (("p_odd", "#2a6fbb", "P(odd tricks)"), ("p_shoot", "#c0392b", "P(shoot)")):
            d = metric(df, name)
            d = d[d["n"] >= 30]
            points(ax, d[feature], d, label=label, color=color)
        ax.set_xlabel(feature.replace("_", " ") + (" (card number)" if feature == "highest_red" else " (cards)"))
        integer_ticks(ax)
    axes[0].set_ylabel("probability (%)")
    axes[0].legend()
    fig.suptitle("Odds by hand feature (seat 0's hand; 95% intervals; bigger points = more hands)")
    fig.tight_layout()
    return fig


def tricks_figure(dist: pd.DataFrame):
    d = dist[dist["side"] == 0]
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    est = 100 * d["estimate"].to_numpy()
    err = [est - 100 * d["ci_low"].to_numpy(), 100 * d["ci_high"].to_numpy() - est]
    colors = ["#2a6fbb" if t in (1, 3) else "#e58e26" if t == 5 else "#999" for t in d["tricks"]]
    ax.bar(d["tricks"], est, yerr=err, capsize=3, color=colors)
    # a share too small to show as a bar (5 tricks: rare) gets a dot of its colour on top, so
    # the orange the title names can be seen
    tiny = est < 0.03 * max(est)
    ax.scatter(d["tricks"].to_numpy()[tiny], est[tiny], s=36, color=np.asarray(colors)[tiny], zorder=3)
    for t, v, top in zip(d["tricks"], est, est + err[1]):       # each share written on: 5 tricks is a sliver
        ax.text(t, top, f"{v:.2g}%", ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.15 * max(est + err[1]))
    ax.set_xlabel("tricks won in a round")
    ax.set_ylabel("share of rounds (%)")
    integer_ticks(ax)
    ax.set_title("Trick count of one seat (blue: +1 chip, orange: +2)")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def build_report(out: Path, hands: int, seed: int, jobs: int, quiet: bool = False, floor: int = FLOOR) -> Path:
    """The whole report; every section's sample is a share of `hands`, at least `floor`."""
    doc, base, step = begin(out, analysis.GAME, "Shoot the Moon — strategy report",
                            "Four players, each for themselves.", hands, seed, quiet, sections=9)
    head = doc.headline(step, base, hands, seed, jobs, "Headline: four players, each for themselves", "sides",
                        "Per side, one round from 2 chips each")
    doc.figure("tricks_distribution", tricks_figure(head.tables["tricks_distribution"]),
               "How many tricks one seat takes in a round.")
    doc.tables["tricks_distribution"] = head.tables["tricks_distribution"]

    deals = share(hands, 10, floor)
    step(f"Big Moon value: {deals:,} paired deals (whole games) per table, 7 tables")
    bmv = analysis.big_moon_value([replace(base, players=p, partners=part) for p, part in analysis.ALL_TABLES],
                                  deals, seed, jobs)
    doc.section("What is a Big Moon worth?", bmv,
                ("big_moon_value", big_moon_figure(bmv.tables["paired_value"]),
                 "Paired value of one Big Moon swapped into seat 0's opening hand, by table."),
                [("big_moon_paired", "paired_value", "Same deals with and without the swapped-in Big Moon: "
                  "paired differences"),
                 ("big_moon_by_holding", "by_holding", "Seat 0's round and game outcome by the Moon cards in its "
                  "opening hand")])

    doc.strong_play(step, analysis.strong_play, base, share(hands, STRONG_SHARE, floor), seed, jobs, STRONG,
                    "paired deals (whole games)", "a Big Moon's value",
                    f"Paired value of a Big Moon swapped into seat 0's hand at {base.label}",
                    [("big_moon", "paired_value", "{lineups} by Big Moons held before the swap (any: every hand), "
                      "with the difference")], [("d_chips", "chips gained that round (chips)", 1.0),
                                                ("d_win", "gain in P(win the game) (percentage points)", 100.0)],
                    key="big_before", title="What a Big Moon is worth", xlabel="Big Moons held before the swap",
                    zero=True)

    games = share(hands, 4, floor)
    step(f"chip value: {games:,} games from every chips state")
    cv = analysis.chip_value(base, games, seed, jobs)
    doc.section("What is one chip worth in games won?", cv,
                ("chip_value", chip_heatmap(cv.tables["win_probability"], base.table.rules.target_chips),
                 "P(win) for a side holding `our chips` while every other side holds `their chips` (4 players)."),
                [("chip_win_probability", "win_probability", "P(win) by chips state"),
                 ("chip_one_more", "one_more_chip", "Gain in P(win) from one more chip")])

    step(f"hand odds: {hands:,} rounds")
    odds = analysis.hand_odds(base, hands, seed, jobs)
    doc.heading("Which hands make an odd number of tricks?")
    doc.found(odds)
    doc.figure("hand_odds", odds_figure(odds.tables), "P(odd) and P(shoot the moon) by hand feature.")
    for name in analysis.FEATURES:
        doc.table(f"odds_{name}", odds.tables[name], f"By {name.replace('_', ' ')}")

    n_match = share(hands, 4, floor)
    step(f"strategy matches: {n_match:,} deals each")
    doc.heading("Which playing style wins more chips?")
    doc.matches(base, (("expert", "odd"), ("odd", "random"), ("odd", "greedy"), ("greedy", "random")), n_match, seed,
                jobs)

    return finish(doc, step, base, seed, jobs, (("expert", "odd", "greedy", "random"), share(hands, 40, floor)),
                  (WHATIF_RULES, "whatif_revokes", "Rules what-if: players sometimes fail to follow suit, and are "
                   "sometimes caught (STM-11)", n_match),
                  (share(hands, 100, floor), share(hands, 10, floor)), out)     # 10 rule changes
