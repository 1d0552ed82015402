"""The Moon (dominoes) report: bid success by hand class, the same under the pimc search player
(strong play), a trump x bid heat map for an example hand, calibration of the bidders, the widow's
value, seat advantage and game odds."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from moonshot.analysis import moon as analysis
from moonshot.analysis.common import run
from moonshot.analysis.result import Result
from moonshot.analysis.words import effects, say
from moonshot.analysis.stats import estimate
from moonshot.reports.document import (FLOOR, begin, change, integer_ticks, metric, pick, points, share,
                                      side_by_side, versus)

EXAMPLE_HAND = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"
WHATIF_RULE = "moon.bid_success=strictly_greater"
STRONG = "pimc"          # the search player (strategies/moon_search.py) at its default 32 worlds per decision
SEARCH_CHUNK = 250       # hands per chunk: about 13 s of pimc on a core, so --jobs share the strong-play run
STRONG_SHARE = 200       # the strong-play run: hands / 200 (1,000 hands at the default --hands, ~140 CPU-s)
MIN_N = 30               # a row gets a difference when both lineups have this many contracts in it


def bid_success_figure(by_class: pd.DataFrame):
    """P(make) by bid and trump tiles held, for hands that named a number suit as trump (a doubles
    or no-trump contract has no "trump tiles" in that sense, so it is left out of this figure)."""
    from moonshot.analysis.stats import wilson
    d = metric(by_class[by_class["trump_kind"] == "number"], "p_make")
    d = d.groupby(["bid", "trump_tiles"]).apply(
        lambda g: pd.Series({"made": (g["estimate"] * g["n"]).sum(), "n": g["n"].sum()}), include_groups=False
    ).reset_index()
    d = d[d["n"] >= 30]
    fig, ax = plt.subplots(figsize=(7, 4))
    bids = sorted(d["bid"].unique())
    for i, (bid, g) in enumerate(d.groupby("bid")):
        p, lo, hi = wilson(g["made"].to_numpy(), g["n"].to_numpy())
        cell = pd.DataFrame({"estimate": p, "ci_low": lo, "ci_high": hi, "n": g["n"].to_numpy()})
        points(ax, g["trump_tiles"].to_numpy() + (i - len(bids) / 2) * 0.08, cell,
               label=f"bid {'21' if bid == 21 else bid}")
    ax.set_xlabel("tiles of the named number trump in the dealt hand (its double included)")
    ax.set_ylabel("P(make) (%)")
    ax.set_ylim(0, 102)
    integer_ticks(ax)
    ax.legend()
    ax.set_title("How often a bid makes, by trumps held (95% intervals; bigger points = more hands)")
    fig.tight_layout()
    return fig


def hand_heatmap(grid: pd.DataFrame, hand: str):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, name, cmap, label in ((axes[0], "p_make", "RdYlGn", "P(make)"),
                                    (axes[1], "score", "RdYlGn", "expected score")):
        d = metric(grid, name)
        table = d.pivot(index="trump", columns="bid", values="estimate")
        order = [t for t in ["0", "1", "2", "3", "4", "5", "6", "doubles", "notrump"] if t in table.index]
        table = table.loc[order]
        vmax = 1 if name == "p_make" else max(abs(np.nanmin(table.to_numpy())), abs(np.nanmax(table.to_numpy())))
        im = ax.imshow(table.to_numpy(), cmap=cmap, aspect="auto", vmin=0 if name == "p_make" else -vmax, vmax=vmax)
        ax.set_xticks(range(len(table.columns)), table.columns)
        ax.set_yticks(range(len(table.index)), table.index)
        ax.set_xlabel("bid")
        ax.set_ylabel("trump")
        for (i, j), v in np.ndenumerate(table.to_numpy()):
            ax.text(j, i, f"{v:.2f}" if name == "p_make" else f"{v:+.1f}", ha="center", va="center", fontsize=7)
        fig.colorbar(im, ax=ax, label=label)
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


def bid_tables(setup, hands: int, seed: int, jobs: int) -> dict[str, pd.DataFrame]:
    """P(make) and the bidder side's points of setup's lineup by bid (and over every bid: "all") and
    by trump tiles held (number-suit contracts, every bid), from bid-success's chunks in
    search-sized pieces (the same seed and chunks give every lineup the same deals)."""
    t = run(analysis._bid_success_chunk, (setup,), hands, seed, jobs, chunk=SEARCH_CHUNK)
    bids = t.get("by_bid").astype({"bid": str})
    bids = pd.concat([bids, bids.drop(columns="bid").sum().to_frame().T.assign(bid="all")], ignore_index=True)
    cls = t.get("by_class")
    tiles = cls[cls["trump_kind"] == 0].groupby("trump_tiles", as_index=False)[["n", "p_make", "score",
                                                                                 "score__sq"]].sum()
    return {"by_bid": estimate(bids, ["bid"], ["p_make", "score"]),
            "by_trump_tiles": estimate(tiles, ["trump_tiles"], ["p_make", "score"])}


def strong_play(setup, hands: int, seed: int, jobs: int) -> Result:
    """Bid success with `pimc` in every seat beside the default lineup on the same deals."""
    base = setup.seats.specs[0]
    searcher = replace(setup, strategy_specs=(STRONG,)).validate()
    strong = bid_tables(searcher, hands, seed, jobs)
    heuristic = bid_tables(setup, hands, seed, jobs)
    res = Result("Moon: strong play", setup.meta(hands=hands, seed=seed))
    res.tables["by_bid"] = versus(STRONG, strong["by_bid"], base, heuristic["by_bid"], ["bid"], MIN_N)
    res.tables["by_trump_tiles"] = versus(STRONG, strong["by_trump_tiles"], base, heuristic["by_trump_tiles"],
                                          ["trump_tiles"], MIN_N)
    res.findings += strong_findings(res.tables["by_bid"], STRONG, base, hands)
    res.notes += [
        f"Every seat plays {STRONG} (it deals the hidden tiles {searcher.seats.strategies[0].worlds} ways consistent "
        "with what its seat has seen and solves each exactly, at every bid, discard, trump and play), and then every "
        f"seat plays {base}, on the same {hands:,} deals with the same first bidder; n counts contracts (a hand "
        "everybody passed is not in it). Each lineup bids on the hands it chooses, so a row holds "
        "different contracts under each; a difference row treats the two as independent samples (Newcombe's "
        "interval from the two Wilson intervals for P(make), the half-widths in quadrature for points) and its n is "
        f"the smaller of the two; a row gets one only when both lineups have at least {MIN_N} contracts in it.",
        "points: the bidder side's points on the contract. by trump tiles: number-suit contracts of every bid "
        "level, by the tiles of that trump in the bidder's dealt hand.",
        f"The report plays these {hands:,} hands in chunks of {SEARCH_CHUNK} so the jobs share them; "
        f"`moonshot analyze moon bid-success --strategy {STRONG}` runs it at any size, on a cluster with --scheduler."]
    return res


def strong_findings(by_bid: pd.DataFrame, strong: str, base: str, hands: int) -> list[str]:
    """Every contract under each lineup with the change, and the bid level whose P(make) changed
    most beyond its interval (if any)."""
    at = lambda m, s, bid="all": pick(by_bid, metric=m, strategy=s, bid=bid)  # noqa: E731
    n = lambda s: f"{int(at('p_make', s)['n']):,}"  # noqa: E731
    d = f"{strong} - {base}"
    out = [f"Contracts make {say(at('p_make', strong))} of the time (n = {n(strong)}) with {strong} in every seat "
           f"and {say(at('p_make', base))} (n = {n(base)}) with {base} on the same {hands:,} deals"
           f"{change(at('p_make', d))}; the bidder's side scores {say(at('score', strong), signed=True)} "
           f"and {say(at('score', base), signed=True)} points per contract{change(at('score', d))}."]
    diffs = metric(by_bid, "p_make")
    diffs = diffs[(diffs.strategy == d) & (diffs.bid != "all")]
    if len(diffs):
        out.append(f"By bid level, {strong} minus {base}: "
                   + effects(diffs, lambda r: f"bid {r['bid']}", "bid level", "P(make)"))
    return out


def strong_figure(by_bid: pd.DataFrame, strong: str, base: str):
    """P(make) and points by bid level, the heuristic lineup beside the search player."""
    rows = by_bid[by_bid["bid"] != "all"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, name, label, scale in ((axes[0], "p_make", "P(make) (%)", 100.0),
                                   (axes[1], "score", "bidder side's points per contract", 1.0)):
        side_by_side(ax, rows, "bid", name, (base, strong), scale)
        ax.set_xlabel("bid")
        ax.set_ylabel(label)
    axes[0].legend(title="every seat")
    fig.suptitle(f"Bid success: {base} against {strong} in every seat, same deals (95% intervals; "
                 "bigger points = more contracts)")
    fig.tight_layout()
    return fig


def build_report(out: Path, hands: int, seed: int, jobs: int, quiet: bool = False, floor: int = FLOOR) -> Path:
    """The whole report; every section's sample is a share of `hands`, at least `floor`."""
    doc, setup, step = begin(out, analysis.GAME, "Moon (dominoes) — bidding report", "Three players.", hands, seed, quiet,
                             sections=9)

    step(f"bid success: {hands:,} hands")
    bs = analysis.bid_success(setup, hands, seed, jobs)
    doc.heading("How often does a bid make?")
    doc.found(bs)
    doc.table("bid_success_by_bid", bs.tables["by_bid"], "Success rate and bidder's score by bid level")
    doc.figure("bid_success", bid_success_figure(bs.tables["by_class"]),
               "P(make) by bid level and the number of trumps in the bidder's dealt hand.")
    doc.table("bid_success_by_class", bs.tables["by_class"],
              "By hand class: trump tiles held, doubles held, trump double held")
    for note in bs.notes:
        doc.note(note)
    if "calibration" in bs.tables:
        doc.heading("Are the bidders calibrated?")
        doc.figure("calibration", calibration_figure(bs.tables["calibration"]),
                   "Each bidding strategy's predicted P(make) against the realised rate.")
        doc.table("calibration", bs.tables["calibration"], "Calibration by predicted decile")

    strong_hands = share(hands, STRONG_SHARE, floor)
    step(f"strong play: {strong_hands:,} hands with {STRONG} in every seat, the same deals with "
         f"{setup.seats.specs[0]}")
    sp = strong_play(setup, strong_hands, seed, jobs)
    doc.section(f"Strong play: bid success with {STRONG} in every seat", sp,
                ("strong_play", strong_figure(sp.tables["by_bid"], STRONG, setup.seats.specs[0]),
                 f"P(make) and the bidder's points by bid level: {setup.seats.specs[0]} and {STRONG} in every "
                 "seat on the same deals."),
                [("strong_play_by_bid", "by_bid", f"{setup.seats.specs[0]} and {STRONG} by bid level (all: every "
                  "contract), with the difference"),
                 ("strong_play_by_trump_tiles", "by_trump_tiles", "By trump tiles held (number-suit contracts)")])

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

    entrants = ("threshold", "greedy", "random")
    t_games = share(hands, 40, floor)
    step(f"tournament: {t_games:,} games a pair, {len(entrants)} strategies")
    doc.tournament(setup, entrants, t_games, seed, jobs)

    # A change the bidders meet on every contract (about -1.2 points per hand, 2,000 deals): a minimum
    # bid of 3 changed nothing, since threshold never bids under 4.
    step(f"rules what-if {WHATIF_RULE}: {widow_hands:,} hands")
    doc.whatif(setup, [WHATIF_RULE], "whatif_more_than_the_bid", "Rules what-if: a contract needs more tricks than "
               "its bid (A-MOON-1)", widow_hands, seed, jobs)

    from moonshot.reports.rules_lab import house_rules
    lab_games, lab_hands = share(hands, 200, floor), share(hands, 20, floor)     # 21 rule changes: ~1 min at the default
    step(f"house rules: {lab_games:,} games and {lab_hands:,} hands per rule change")
    house_rules(doc, setup, lab_games, lab_hands, seed, jobs)
    return doc.write(out)
