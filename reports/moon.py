"""The Moon (dominoes) report: bid success by hand class (when the player chose the bid, and every
bid forced on the same deals), the same under the pimc search player
(strong play), a trump x bid heat map for an example hand, calibration of the bidders, the widow's
value, seat advantage and game odds."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from moonshot.analysis import moon as analysis
from moonshot.analysis.moon_forced import CHOSEN, FORCED, TOTAL
from moonshot.reports.document import FLOOR, begin, finish, integer_ticks, metric, points, share
from moonshot.simulator.moon import tiles

EXAMPLE_HAND = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"
WHATIF_RULE = "moon.bid_success=strictly_greater"
STRONG = analysis.STRONG     # the search player in every seat in the strong-play section
DODGE = 0.15                 # bid_success: the x offset between neighbouring bids' points (trump counts are 1 apart)
STRONG_SHARE = 200           # the strong-play run: hands / 200 (1,000 hands at the default --hands)


def _per_trump_count(by_class: pd.DataFrame, name: str) -> pd.DataFrame:
    """P(make) (`name`) by bid and trump tiles held for hands that named a number suit (a doubles or
    no-trump contract has no "trump tiles" in that sense), its classes added up; cells of 30 hands or more."""
    from moonshot.analysis.stats import wilson
    d = by_class[by_class["trump_kind"] == "number"]
    if "doubles" in d.columns:
        d = d[d["doubles"].astype(str) != TOTAL]           # the classes only: a total row would count them twice
    d = metric(d, name)
    d = d.groupby(["bid", "trump_tiles"]).apply(
        lambda g: pd.Series({"made": (g["estimate"] * g["n"]).sum(), "n": g["n"].sum()}), include_groups=False
    ).reset_index()
    d = d[d["n"] >= 30]
    p, lo, hi = wilson(d["made"].to_numpy(), d["n"].to_numpy())
    return d.assign(estimate=p, ci_low=lo, ci_high=hi)


def _by_trumps_panel(ax, d: pd.DataFrame, bids: list, title: str) -> None:
    """One panel: each bid's points in its colour, at the same offset in every panel."""
    for bid, g in d.groupby("bid"):
        i = bids.index(bid)
        # dodged side by side, centred on the count: bids of the same count (4 and 5 at 3 trumps) never cover each other
        points(ax, g["trump_tiles"].to_numpy() + (i - (len(bids) - 1) / 2) * DODGE, g,
               label=f"bid {'21' if bid == 21 else bid}", color=plt.get_cmap("tab10")(i))
    ax.set_xlabel("tiles of the named number trump in the dealt hand (its double included)")
    ax.set_ylim(0, 102)
    integer_ticks(ax)
    ax.set_title(title)


def bid_success_figure(by_class: pd.DataFrame, forced: pd.DataFrame | None = None):
    """P(make) by bid and trump tiles held, for hands that named a number suit as trump: when the
    player chose to bid k (by_class, who bids what) and, given `forced` (if_bid_by_class), if this
    hand bids k (every bid forced on the same deals), side by side with one colour per bid."""
    chosen = _per_trump_count(by_class, "p_make")
    panels = [(chosen, "When the player chose to bid k:\nwho bids what (selection)")]
    if forced is not None:
        panels.append((_per_trump_count(forced, "p_make_forced"),
                       "If this hand bids k:\nevery bid forced on the same deals"))
    bids = sorted(set().union(*(d["bid"].unique() for d, _ in panels)))
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4.4 if forced is not None else 4),
                             sharex=True, sharey=True, squeeze=False)
    for ax, (d, title) in zip(axes[0], panels):
        _by_trumps_panel(ax, d, bids, title if forced is not None else
                         "When the player chose the bid: P(make) by trumps held (95% intervals)")
    axes[0][0].set_ylabel("P(make) (%)")
    if forced is None:
        axes[0][0].legend()
        fig.tight_layout()
        return fig
    handles = [plt.Line2D([], [], marker="o", ls="", color=plt.get_cmap("tab10")(i), label=f"bid {b}")
               for i, b in enumerate(bids)]
    fig.legend(handles=handles, loc="lower center", ncol=len(bids), frameon=False)
    fig.suptitle("P(make) by trumps held: two questions (95% intervals; bigger points = more hands)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def hand_heatmap(grid: pd.DataFrame, hand: str):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, name, cmap, label in ((axes[0], "p_make", "RdYlGn", "P(make)"),
                                    (axes[1], "score", "RdYlGn", "expected score")):
        d = metric(grid, name)
        table = d.pivot(index="trump", columns="bid", values="estimate")
        order = [t for t in tiles.TRUMP_WORDS if t in table.index]
        table = table.loc[order] * (100 if name == "p_make" else 1)          # P(make) in percent, as the tables say
        vmax = 100 if name == "p_make" else max(abs(np.nanmin(table.to_numpy())), abs(np.nanmax(table.to_numpy())))
        im = ax.imshow(table.to_numpy(), cmap=cmap, aspect="auto", vmin=0 if name == "p_make" else -vmax, vmax=vmax)
        ax.set_xticks(range(len(table.columns)), table.columns)
        ax.set_yticks(range(len(table.index)), table.index)
        ax.set_xlabel("bid")
        ax.set_ylabel("trump")
        for (i, j), v in np.ndenumerate(table.to_numpy()):
            ax.text(j, i, f"{v:.0f}%" if name == "p_make" else f"{v:+.1f}", ha="center", va="center", fontsize=7)
        fig.colorbar(im, ax=ax, label=label + (" (%)" if name == "p_make" else ""))
        ax.set_title(label)
    fig.suptitle(f"Bidding on {hand}")
    fig.tight_layout()
    return fig


def calibration_figure(cal: pd.DataFrame):
    fig, ax = plt.subplots(figsize=(5, 4.6))
    ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--", label="perfect")
    for spec, g in cal.groupby("strategy"):
        pred = metric(g, "predicted").set_index("decile")
        real = metric(g, "p_make").set_index("decile")
        real = real[real["n"] >= 20]
        pred = pred.loc[real.index]
        points(ax, pred["estimate"].to_numpy() * 100, real, label=spec)
    ax.plot([0, 100], [0, 100], color="#999", lw=1, ls="--")
    ax.set_xlabel("predicted P(make) (bidder's own estimate, %)")
    ax.set_ylabel("realised P(make) (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("Calibration of the bidders")
    fig.tight_layout()
    return fig


def seat_figure(positions: pd.DataFrame):
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for ax, name, label, scale in ((axes[0], "p_bidder", "P(wins the auction) (%)", 100.0),
                                   (axes[1], "score", "points per hand", 1.0)):
        d = metric(positions, name)
        x = np.arange(len(d))
        points(ax, x, d, color="#2a6fbb", scale=scale)
        ax.set_xticks(x, d["position"])
        ax.set_xlabel("position in the auction")
        ax.set_ylabel(label)
    fig.suptitle("Speaking first, middle or last in the auction (95% intervals)")
    fig.tight_layout()
    return fig


def build_report(out: Path, hands: int, seed: int, jobs: int, quiet: bool = False, floor: int = FLOOR) -> Path:
    """The whole report; every section's sample is a share of `hands`, at least `floor`."""
    doc, setup, step = begin(out, analysis.GAME, "Moon (dominoes) — bidding report", "Three players.", hands, seed,
                             quiet, sections=9)

    step(f"bid success: {hands:,} hands")
    bs = analysis.bid_success(setup, hands, seed, jobs)
    doc.heading("How often does a bid make?")
    doc.found(bs)
    captions = {"by_bid": f"By bid level, {CHOSEN}", "if_bid": f"By bid level, {FORCED}",
                "by_class": f"By hand class, {CHOSEN}", "if_bid_by_class": f"By hand class, {FORCED}"}
    doc.table("bid_success_by_bid", bs.tables["by_bid"], captions["by_bid"] + ": success rate and bidder's score")
    doc.table("bid_success_if_bid", bs.tables["if_bid"], captions["if_bid"] + ": every hand dealt, success rate "
              "and the forced bidder's score")
    doc.figure("bid_success", bid_success_figure(bs.tables["by_class"], bs.tables["if_bid_by_class"]),
               "P(make) by bid level and the number of trumps in the bidder's dealt hand, two questions. Left, "
               f"{CHOSEN}: a high bid's rate is that of the hands whose player bid it, not what bidding higher "
               f"does. Right, {FORCED}.")
    doc.table("bid_success_by_class", bs.tables["by_class"], captions["by_class"] + ": trump tiles held, doubles "
              "held, trump double held")
    doc.table("bid_success_if_bid_by_class", bs.tables["if_bid_by_class"], captions["if_bid_by_class"] + ", with "
              "a total row per trump kind and count")
    for note in bs.notes:       # the notes name each table's question: here the tables by what they hold
        doc.note(note, {"by_bid": "by bid level", "by_class": "by hand class", "if_bid": "by bid level, every hand",
                        "if_bid_by_class": "by hand class, every hand"})
    if "calibration" in bs.tables:
        doc.heading("Are the bidders calibrated?")
        doc.figure("calibration", calibration_figure(bs.tables["calibration"]),
                   "Each bidding strategy's predicted P(make) against the realised rate.")
        doc.table("calibration", bs.tables["calibration"], "Calibration by predicted decile")

    doc.strong_play(step, analysis.strong_play, setup, share(hands, STRONG_SHARE, floor), seed, jobs, STRONG, "hands",
                    "bid success", "P(make) and the bidder's points by bid level",
                    [("by_bid", "by_bid", "{lineups} by bid level, " + CHOSEN + "; all: every contract; with the "
                      "difference"),
                     ("by_trump_tiles", "by_trump_tiles", "By trump tiles held (number-suit contracts)")],
                    [("p_make", "P(make) (%)", 100.0), ("score", "bidder side's points per contract", 1.0)],
                    key="bid", drop="all", title="Bid success", xlabel="bid", aside="; bigger points = more contracts")

    samples = share(hands, 4, floor)
    step(f"example hand {EXAMPLE_HAND}: {samples:,} deals per trump")
    h = analysis.analyze_hand(setup, EXAMPLE_HAND, "first", samples, seed, jobs)
    doc.heading(f"One hand: {EXAMPLE_HAND}")
    doc.found(h)
    doc.figure("example_hand", hand_heatmap(h.tables["trump_by_bid"], EXAMPLE_HAND),
               "P(make) and expected score of every trump and bid for the example hand, bidding first.")
    doc.table("example_hand_best", h.tables["best_bid"], "The best bid by expected score")
    doc.table("example_hand_outbid", h.tables["outbid"], "Chance another player takes the contract at that bid")
    doc.table("example_hand_grid", h.tables["trump_by_bid"], "Every trump and bid")

    widow_hands = share(hands, 2, floor)
    step(f"widow value: {widow_hands:,} paired hands")
    w = analysis.widow_value(setup, widow_hands, seed, jobs)
    doc.section("What is the widow worth?", w, None,
                [("widow_overall", "overall", "Bidder with the widow against keeping its dealt seven"),
                 ("widow_by_bid", "by_bid", "By bid level")])

    step(f"seat advantage: {hands:,} hands")
    sa = analysis.seat_advantage(setup, hands, seed, jobs)
    doc.section("Does it pay to bid first, middle or last?", sa,
                ("seat_advantage", seat_figure(sa.tables["positions"]), "By position in the auction."),
                [("seat_advantage", "positions", "By position in the auction")], notes=False)

    games = share(hands, 40, floor)
    step(f"game odds: {games:,} games per match-up")
    go = analysis.game_odds(setup, games, seed, jobs)
    doc.section("Who wins the game to 21?", go, None,
                [("game_odds", "matchups", "Strategy match-ups, same deals, seats rotated")], notes=1)

    # The what-if is a change the bidders meet on every contract, so it shows at any report size: a
    # minimum bid of 3 changed nothing, since threshold never bids under 4. The house rules play 21
    # rule changes (benchmarks/report_bench.py times each section).
    return finish(doc, step, setup, seed, jobs, (("expert", "threshold", "greedy", "random"), share(hands, 40, floor)),
                  ([WHATIF_RULE], "whatif_more_than_the_bid", "Rules what-if: a contract needs more tricks than its "
                   "bid (A-MOON-1)", widow_hands), (share(hands, 200, floor), share(hands, 20, floor)), out)
