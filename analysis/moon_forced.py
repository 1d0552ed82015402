"""Moon bid success as a player asks it: for a hand like mine, if I bid k, how often does it make
and what does it score?

bid-success's own tables (by_bid, by_class) answer another question: how often the contracts the
players chose made. They say who bids what (threshold bids 6 only with very strong hands), not
what a bid of 6 does for a given hand. Here every bid level of the rules is forced on the same
deals: one seat per deal is made the bidder at bid k with the others passing; it takes the widow,
discards and names trump by its own strategy's rule, and every seat plays its own strategy.
"""
from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np
import pandas as pd

from moonshot.analysis.result import Result
from moonshot.analysis.stats import estimate
from moonshot.analysis.words import CORRECTION, say, widened
from moonshot.simulator.moon import engine, tiles
from moonshot.simulator.runner import Tally, stream_seed
from moonshot.strategies.moon import IS_TRUMP

TRUMP_KINDS = ("number", "doubles", "no trump")      # the kind of trump a contract named
CLASS_KEYS = ["trump_kind", "trump_tiles", "doubles", "trump_double"]
METRICS = ["p_make_forced", "score_forced"]
FORCED_STREAM = 3           # runner.stream_seed: the forced play's own stream (0 deals, 1 play, 2 chance)
TRUMP_DOUBLE = np.array([tiles.tile_id(t, t) for t in range(7)] + [-1, -1])     # a number trump's double
TOTAL = "all"               # the doubles / trump double of a trump count's total row
CHOSEN = "when the player chose to bid k (who bids what)"
FORCED = "if this hand bids k (every bid forced on the same deals)"


def trump_tiles_held(hands7: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Tiles of the declared trump in each hand (its double included)."""
    return IS_TRUMP[hands7, np.maximum(trump, 0)[:, None]].sum(axis=1)


def hand_class(dealt: np.ndarray, trump: np.ndarray) -> dict[str, np.ndarray]:
    """The class of a bidder's dealt hand (before the widow) under the trump it named: the kind of
    trump (TRUMP_KINDS index), tiles of that trump held, doubles held, the trump's double held."""
    return {"trump_kind": np.where(trump < tiles.DOUBLES, 0, trump - tiles.DOUBLES + 1),
            "trump_tiles": trump_tiles_held(dealt, trump), "doubles": tiles.IS_DOUBLE[dealt].sum(axis=1),
            "trump_double": (dealt == TRUMP_DOUBLE[trump][:, None]).any(axis=1)}


def reads_bid(strategies: Sequence) -> bool:
    """Whether a seat's discard, trump or play may depend on the contract's level (view.bid). A
    strategy that does not declare ``reads_bid = False`` is taken to read it (pimc does: it values
    every play by the points the contract scores)."""
    return any(getattr(s, "reads_bid", True) for s in strategies)


def forced_bids(table, strategies: Sequence, hands: np.ndarray, widow, bidder: np.ndarray, levels,
                play_seed) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """Each bid k of `levels` forced on the same deals: seat `bidder` (n,) is the bidder at k and the
    others pass; it takes the widow, discards and names trump with its own strategy's rule, and every
    seat plays its own. Yields (k, trump named (n,), made (n,), the bidder side's points (n,)).

    When no seat's choices read the bid (reads_bid), each deal is played once and scored at every
    level, as the hand analyzer does; otherwise each level is played from a fresh generator of
    `play_seed` (common random numbers)."""
    n = len(bidder)
    side = table.side_of_seat[bidder]
    once = not reads_bid(strategies)
    played = None
    for k in levels:
        if played is None or not once:
            rng = np.random.default_rng(play_seed)
            bid = np.full(n, table.rules.min_bid if once else k)
            h7, discard, trump = engine.widow_and_trump(table, hands, widow, bidder, bid, strategies, rng)
            tricks = engine.play_tricks(table, h7, bidder, bid, trump, strategies, rng, discard=discard).tricks
            played = trump, tricks
        trump, tricks = played
        points, made = engine.score(table, bidder, np.full(n, k), tricks)
        yield k, trump, made, points[np.arange(n), side]


def forced_chunk(setup, levels, seed: int, index: int, size: int) -> Tally:
    """Every bid of `levels` forced on bid-success's deals (the deal stream of the same chunk): deal
    i makes seat i mod P the bidder, so every seat (and its strategy) bids its share."""
    table = setup.table
    hands, widow = engine.deal(np.random.default_rng(stream_seed(seed, index, 0)), size, table)
    bidder = np.arange(size) % table.players
    dealt = hands[np.arange(size), bidder]
    tally = Tally()
    for k, trump, made, points in forced_bids(table, setup.seats.strategies, hands, widow, bidder,
                                              levels, stream_seed(seed, index, FORCED_STREAM)):
        bid = np.full(size, k)
        metrics = {"p_make_forced": made, "score_forced": points.astype(float)}
        tally.add("if_bid", {"bid": bid}, metrics)
        tally.add("if_class", {"bid": bid, **hand_class(dealt, trump)}, metrics)
    return tally


def per_trump_count(summed: pd.DataFrame) -> pd.DataFrame:
    """A class tally's sums added up over doubles and trump double: one row per bid, trump kind and count."""
    sums = [c for c in summed.columns if c not in ["bid", *CLASS_KEYS]]
    return summed.groupby(["bid", "trump_kind", "trump_tiles"], as_index=False)[sums].sum()


def add_forced(t: Tally, res: Result, setup) -> None:
    """bid-success's forced tables, findings and notes from its tally (forced_chunk's tables beside
    the chosen contracts' by_class): if_bid (by bid, every hand dealt) and if_bid_by_class (by hand
    class, then bid; a total row per trump kind and count, with doubles and trump double "all")."""
    once = not reads_bid(setup.seats.strategies)
    cls = t.get("if_class")
    totals = per_trump_count(cls)
    cls = cls.astype({"doubles": str, "trump_double": int}).astype({"trump_double": str})
    both = pd.concat([cls, totals.assign(doubles=TOTAL, trump_double=TOTAL)], ignore_index=True)
    both = both.sort_values([*CLASS_KEYS, "bid"], kind="stable", ignore_index=True)    # "all" after the digits
    by_class = estimate(both, [*CLASS_KEYS, "bid"], METRICS)
    res.tables["if_bid"] = estimate(t.get("if_bid"), ["bid"], METRICS)
    res.tables["if_bid_by_class"] = by_class.assign(trump_kind=[TRUMP_KINDS[int(k)] for k in by_class["trump_kind"]])
    res.findings += _findings(res.tables["if_bid"], estimate(per_trump_count(t.get("by_class")), ["bid", "trump_kind",
                              "trump_tiles"], ["p_make"]), estimate(totals, ["bid", "trump_kind", "trump_tiles"],
                              ["p_make_forced"]), once)
    res.notes += _notes(once, setup.players)


def _apart(a, b) -> bool:
    return a["ci_low"] > b["ci_high"] or b["ci_low"] > a["ci_high"]


def _findings(if_bid: pd.DataFrame, chosen: pd.DataFrame, forced: pd.DataFrame, once: bool) -> list[str]:
    """Every forced bid's P(make) and points, and for the number-suit trump count most contracts were
    bid on, the chosen rate beside the forced one at each bid (the same class, two questions)."""
    make = if_bid[if_bid["metric"] == "p_make_forced"]
    pts = if_bid[if_bid["metric"] == "score_forced"].set_index("bid")
    out = [f"If this hand bids k (every bid forced on the same {int(make['n'].iloc[0]):,} deals, every hand "
           "dealt, whether or not its player would bid): " + "; ".join(
               f"bid {int(r['bid'])} makes {say(r)} and scores {say(pts.loc[r['bid']], signed=True)} points"
               for _, r in make.iterrows()) + "."
           + (" Each deal is played once and scored at every bid, so these rates can only fall as the bid "
              "rises." if once else "")]
    number = lambda d: d[d["trump_kind"] == 0]                     # noqa: E731
    chosen, forced = number(chosen), number(forced)
    if not len(chosen):
        return out
    count = int(chosen.groupby("trump_tiles")["n"].sum().idxmax())
    chosen = chosen[chosen["trump_tiles"] == count]
    forced = forced[forced["trump_tiles"] == count].set_index("bid")
    chosen = chosen[chosen["bid"].isin(forced.index)].reset_index(drop=True)
    if not len(chosen):
        return out
    # Told apart only where the intervals widened for the bids compared (Bonferroni) do not overlap.
    k = len(chosen)
    pairs = [(c, forced.loc[c["bid"]]) for _, c in chosen.iterrows()]
    wide = [(widened(pd.DataFrame([c]), k).iloc[0], widened(pd.DataFrame([f]), k).iloc[0]) for c, f in pairs]
    parts = [f"bid {int(c['bid'])}: {say(c)} (n = {int(c['n']):,}) chosen, {say(f)} forced"
             + ("" if _apart(*w) else " (not told apart)") for (c, f), w in zip(pairs, wide)]
    out.append(f"Hands holding {count} tiles of the number suit they named as trump (the count most contracts "
               "were bid on), P(make) when the player chose the bid beside the same bid forced: "
               + "; ".join(parts) + f". Told apart where the 95% intervals, {CORRECTION}-corrected for {k} bids, do "
               "not overlap; the chosen rate is that of the hands whose player bid k (selection), the forced one "
               "that of every hand with that many trumps.")
    return out


def _notes(once: bool, players: int) -> list[str]:
    """How to read the two pairs of tables."""
    return [
        f"by_bid and by_class answer '{CHOSEN}': they hold the contracts the players' auction produced. A high "
        "bid's rate is that of the hands whose player bid it (a heuristic bids high only with very strong hands), "
        "not what bidding higher does; the rates can rise with the bid for that reason alone.",
        f"if_bid and if_bid_by_class answer '{FORCED}': on the same deals, seat i mod {players} of deal i is "
        "made the bidder at each bid the rules score (the lowest bid to 7, and 21) with the others passing, so "
        "every hand dealt counts, whether or not its player would bid. The forced bidder takes the widow (where "
        "there is one), discards and names trump by its own strategy's rule, as it would after winning the "
        "auction; the class is its dealt hand under the trump it named; points are its side's. A total row per "
        "trump kind and count has doubles and trump double 'all'.",
        ("Every seat's play ignores the bid's level (its strategy declares it), so each deal is played once and "
         "scored at every bid: a forced rate can only fall as the bid rises." if once else
         "A seat's strategy may read the bid's level in its discard, trump or play (it does not declare that it "
         "ignores it), so each bid is played separately on the same deals with the same random numbers."),
    ]
