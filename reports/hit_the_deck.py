"""The Hit the Deck report: headline odds and hand length, what each card is worth in the opening
hand, what quick hands at the slap are worth, seat advantage, strategy matches and a rules
what-if, with figures and CSV tables."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from moonshot.analysis import hit_the_deck as analysis
from moonshot.analysis.common import make_setup
from moonshot.reports.document import FLOOR, begin, finish, metric, points, share

WHATIF_RULES = ["htd.final_card_effects=resolve_then_score"]
STRONG = analysis.STRONG     # the search player in every seat in the strong-play section
# Each section's share of --hands (whole games cost far more than hands: a paired card-value game plays
# 11 arms at 5 tables, a tournament game 5 arms per pair), so the default report is a few minutes.
CARD_VALUE_SHARE = 1_000     # paired games per table: 200 at the default --hands
REACTION_SHARE = 200         # paired games per profile: 1,000
SEAT_SHARE = 100             # games: 2,000
MATCH_SHARE = 10             # deals per match and for the what-if: 20,000
TOURNAMENT_SHARE = 4_000     # games per pair: 50 (with rollout in 4 of its 10 pairs; benchmarks/report_bench.py)
# rollout plays out every option many times (its speed is in the README): these stay small
STRONG_SHARE = 20_000        # its card values: paired games = hands / 20,000 (10 at the default --hands)
STRONG_FLOOR = 10            # ... and no floor above 10: a paired game is 11 games with rollout in every seat
                             # (slow), and even 400 told no card's value apart from tactician's (README)
STRONG_MATCH_SHARE = 2_000   # its match against the default: deals = hands / 2,000 (100)


def _categories(ax, labels, d: pd.DataFrame, offset: float = 0.0, label: str | None = None,
                scale: float = 1.0, rotation: int = 30) -> None:
    """Categorical estimates as points with 95% error bars, the categories named on the x axis."""
    points(ax, np.arange(len(labels)) + offset, d, label=label, scale=scale)
    ax.set_xticks(np.arange(len(labels)), labels, rotation=rotation, ha="right" if rotation else "center")
    ax.axhline(0, color="#999", lw=0.8)


def card_value_figure(values: pd.DataFrame):
    """The card kinds down the side, each table size a row of its own inside a kind's band, the
    value across; the legend sits below the plots, never over an interval."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 6), sharey=True)
    labels = list(analysis.CARD_KINDS)
    y = np.arange(len(labels))[::-1]                  # the first kind on top
    for ax, name, label, scale in ((axes[0], "d_penalty", "change in penalty points that hand", 1.0),
                                   (axes[1], "d_win", "change in P(win the game) (percentage points)", 100.0)):
        d = metric(values, name)
        players = sorted(d["players"].unique())
        for i, p in enumerate(players):
            part = d[d["players"] == p].set_index("card").loc[labels].reset_index()
            points(ax, y - (i - (len(players) - 1) / 2) * 0.15, part, label=f"{p} players", scale=scale,
                   horizontal=True)
        ax.set_yticks(y, labels)
        ax.axvline(0, color="#999", lw=0.8)
        ax.set_xlabel(label)
    axes[0].set_ylabel("card swapped in for a number card")
    handles, names = axes[0].get_legend_handles_labels()
    fig.suptitle("What one more card of a kind in the opening hand is worth (95% intervals)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.legend(handles, names, loc="lower center", ncol=len(names), frameon=False)
    return fig


def reaction_figure(table: pd.DataFrame):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    profiles = list(analysis.REACTION_PROFILES)
    bottom = np.zeros(len(profiles))
    for cause in analysis.CAUSES:
        d = metric(table, f"cards_{cause}").set_index("profile").loc[profiles]
        axes[0].bar(profiles, d["estimate"], bottom=bottom, label=cause.replace("_", " "))
        bottom += d["estimate"].to_numpy()
    for x, total in enumerate(bottom):        # a zero total is a label, never an invisible bar
        axes[0].text(x, total + 0.05, f"{total:.1f}", ha="center", va="bottom", fontsize=8)
    axes[0].set_ylabel("penalty cards per hand (mean)")
    axes[0].set_xlabel("seat 0's reaction profile")
    axes[0].legend(title="cause")
    d = metric(table, "p_win").set_index("profile").loc[profiles].reset_index()
    _categories(axes[1], profiles, d, scale=100.0)
    axes[1].set_ylabel("P(seat 0 wins the game) (%)")
    axes[1].set_xlabel("seat 0's reaction profile")
    fig.suptitle("Quick hands at the slap: penalty cards and games won (95% intervals)")
    fig.tight_layout()
    return fig


TAIL = 0.97     # the length figure shows bins up to this share of hands, the longer ones as one bar


def length_figure(dist: pd.DataFrame):
    """Bins of 10 turns up to the one where 97% of hands have ended, then one bar for the longer
    hands (their tail is too thin to see bin by bin), its share written on it."""
    dist = dist.sort_values("turns")
    share = 100 * dist["share"].to_numpy()
    turns = dist["turns"].to_numpy()
    cut = min(int(np.searchsorted(np.cumsum(share), 100 * TAIL)) + 1, len(share) - 1)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.bar(turns[:cut], share[:cut], width=9, color="#2a6fbb")
    if cut < len(share):
        rest = share[cut:].sum()
        ax.bar(turns[cut], rest, width=9, color="#999")
        ax.text(turns[cut], rest, f"{rest:.2g}%\n{turns[cut]}+", ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.15 * share.max())
    ax.set_xlabel("turns in the hand (bins of 10; grey: that many or more)")
    ax.set_ylabel("share of hands (%)")
    ax.set_title("How long a hand lasts")
    fig.tight_layout()
    return fig


def seat_figure(positions: pd.DataFrame):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, name, label in ((axes[0], "p_out", "P(goes out first), first hand (%)"),
                            (axes[1], "p_win", "P(wins the game) (%)")):
        d = metric(positions, name)
        _categories(ax, [str(int(p)) for p in d["position"]], d, scale=100.0, rotation=0)
        ax.set_xlabel("position (0 plays first)")
        ax.set_ylabel(label)
    fig.tight_layout()
    return fig


def build_report(out: Path, hands: int, seed: int, jobs: int, quiet: bool = False, floor: int = FLOOR) -> Path:
    """The whole report; every section's sample is a share of `hands`, at least `floor`."""
    doc, base, step = begin(out, analysis.GAME, "Hit the Deck — strategy report",
                            "Four players, adult reaction profiles.", hands, seed, quiet, sections=9)
    head = doc.headline(step, base, hands, seed, jobs, "Headline: four players", "seats", "Per seat, one hand")
    doc.table("headline_hand", head.tables["hand"], "Hand length and blocked hands")
    doc.figure("hand_length", length_figure(head.tables["hand_length_distribution"]),
               "Turns per hand (HTD-6.5 counts each draw, cut, flip and play that does not follow its own draw).")
    doc.tables["hand_length_distribution"] = head.tables["hand_length_distribution"]

    games = share(hands, CARD_VALUE_SHARE, floor)
    step(f"card value: {games:,} paired games per table, 2-6 players")
    cv = analysis.card_value([make_setup(analysis.GAME, p) for p, _ in analysis.ALL_TABLES], games, seed, jobs)
    doc.section("Which cards are worth holding?", cv,
                ("card_value", card_value_figure(cv.tables["card_value"]),
                 "One more card of a kind in seat 0's opening hand, paired with the same deal as dealt."),
                [("card_value", "card_value", "Paired value of one more card, by table size")])

    games = share(hands, REACTION_SHARE, floor)
    step(f"reaction value: {games:,} paired games per profile")
    rv, rv2 = analysis.reaction_values([base, make_setup(analysis.GAME, 2)], games, seed, jobs)
    doc.section("How much is being quick at the slap worth?", rv,
                ("reaction_value", reaction_figure(rv.tables["reaction_value"]),
                 "Seat 0's profile changed, the other seats adult, the same deals."),
                [("reaction_value", "reaction_value", "Penalty cards by cause and games won, by profile")])
    doc.table("reaction_value_2p", rv2.tables["reaction_value"], "The same at two players")
    doc.found(rv2)

    games = share(hands, SEAT_SHARE, floor)
    step(f"seat advantage: {games:,} games")
    sa = analysis.seat_advantage(base, games, seed, jobs)
    doc.section("Does it pay to play first?", sa,
                ("seat_advantage", seat_figure(sa.tables["positions"]), "By position after the dealer."),
                [("seat_advantage", "positions", "By position after the dealer")])

    n_match = share(hands, MATCH_SHARE, floor)
    step(f"strategy matches: {n_match:,} deals each")
    doc.heading("Which playing style sheds best?")
    names = [s for s in ("tactician", "hold", "dump", "random") if s in _registered()]
    doc.matches(base, [(names[0], other) for other in names[1:]], n_match, seed, jobs)

    strong_n = share(hands, STRONG_MATCH_SHARE, floor)
    doc.strong_play(step, analysis.strong_play, base, share(hands, STRONG_SHARE, min(floor, STRONG_FLOOR)), seed, jobs,
                    STRONG, "paired games",
                    "card values", "One more card of a kind in seat 0's opening hand",
                    [("card_value", "card_value", "{lineups} by card kind, with the difference")],
                    [("d_penalty", "change in penalty points that hand", 1.0),
                     ("d_win", "change in P(win the game) (percentage points)", 100.0)],
                    f"; {strong_n:,} deals of {STRONG} against it", key="card", title="What one more card is worth",
                    size=(11, 5), upright=False, legend={"fontsize": 8})
    doc.matches(base, [(STRONG, base.seats.specs[0])], strong_n, seed, jobs)

    return finish(doc, step, base, seed, jobs, (tuple(dict.fromkeys((STRONG, "tactician", "hold", "dump", "random"))),
                                                share(hands, TOURNAMENT_SHARE, floor)),
                  (WHATIF_RULES, "whatif_final_card_effects", "Rules what-if: the last card's effects resolve before "
                   "scoring", n_match),
                  (share(hands, 2_000, floor), share(hands, 200, floor)), out)  # 29 slow rule changes


def _registered() -> dict:
    from moonshot.strategies.base import registered
    return registered(analysis.GAME)
