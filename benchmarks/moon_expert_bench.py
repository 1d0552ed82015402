"""Moon's `expert` against the search player on deals no training run used (issue 36's targets).

    python benchmarks/moon_expert_bench.py [--deals 3000] [--bids 1000] [--seed 3601] [-j 2]

1. Paired matches, as `moonshot compare` plays them (analysis.common.match: the same deals, each side's
   seats in turn): pimc (A) against expert (B) at 3 and 4 players (targets: the interval of pimc minus
   expert at most 0.15 and 0.10 points a hand), and expert against threshold.
2. Bids: fresh deals, the first seat to speak with every bid open. pimc's choice is its own search's
   best (trump, bid) or pass (its bid_values: the bidder side's tricks in each world, the same worlds for
   every trump; passing valued at its min_gain). Its choice is "clear" where the best beats the runner-up
   by a paired 95% interval clear of zero (a hand it does not search, its estimate far short of any bid,
   is a clear pass). The share of the clear hands where the expert bids the same and, bidding, names the
   same trump (target 90%).
3. Speed: hands/s (CPU) of expert and threshold in every seat, 65,536-hand chunks, 3 and 4 players.
The training seeds (benchmarks/train_moon_expert.py, --seed 2026) derive from SeedSequence(2026); the
seeds here are others.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.analysis.common import make_setup, match  # noqa: E402
from moonshot.simulator.moon import engine  # noqa: E402
from moonshot.simulator.moon.engine.table import bid_legal_index  # noqa: E402
from moonshot.simulator.moon.engine.rows import BITS7  # noqa: E402
from moonshot.simulator.moon.views import BID_VALUES, PASS, BidView  # noqa: E402
from moonshot.strategies.base import make_strategy  # noqa: E402
from moonshot.strategies.moon_search import bidder_points  # noqa: E402

DECISIONS = ("bid", "discard", "trump", "play")


def paired(players: int, a: str, b: str, deals: int, seed: int, jobs: int) -> str:
    setup = make_setup("moon", players)
    t0 = time.perf_counter()
    res = match(setup, a, b, deals, None, seed, jobs)
    d = res.row("match", "d_points")
    return (f"{players}p {a} minus {b}: {d['estimate']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}] points a hand, "
            f"{deals:,} deals, seed {seed} ({time.perf_counter() - t0:.0f} s)")


def first_bids(players: int, hands: int, seed: int) -> tuple[BidView, engine.Table]:
    table = engine.Table(players)
    dealt, _ = engine.deal(np.random.default_rng(seed), hands, table)
    legal = np.broadcast_to(BITS7[table.bid_legal[bid_legal_index(0, 0)]][:len(BID_VALUES)],
                            (hands, len(BID_VALUES)))
    view = BidView(players, table.rules, 0, np.zeros(hands, dtype=np.int64), dealt[:, 0], np.full((hands, players), -1),
                   np.zeros(hands, dtype=np.int16), legal.copy(), np.zeros((hands, table.n_sides)),
                   np.zeros(hands, dtype=np.int64))
    return view, table


def pimc_choice(pimc, view: BidView, i: int, rng) -> tuple[int, int, bool]:
    """(bid, trump, clear) of pimc's search for row i (trump -1 when it passes)."""
    searched = pimc.bid_values(view, i, rng)
    if searched is None:
        return PASS, -1, True
    values, found = searched
    P, rules = view.players, view.rules
    caution = pimc.caution if pimc.caution >= 0 else (0 if P == 3 else 1)
    options = {(t, b): bidder_points(P, rules, b, pimc.outcome(P))[np.maximum(found[t] - caution, 0)]
               for t, b, _ in values}
    options[(-1, PASS)] = np.full(len(next(iter(found.values()))), float(pimc.min_gain))
    ranked = sorted(options, key=lambda k: -options[k].mean())
    best, second = options[ranked[0]], options[ranked[1]]
    diff = best - second
    clear = diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) > 0 if diff.std() > 0 else diff.mean() > 0
    t, b = ranked[0]
    return b, t, bool(clear)


def bid_agreement(players: int, hands: int, seed: int, spec: str = "expert") -> str:
    view, _ = first_bids(players, hands, seed)
    pimc = make_strategy("moon", "pimc", DECISIONS)
    expert = make_strategy("moon", spec, DECISIONS)
    rng = np.random.default_rng(seed + 1)
    bids = expert.bid(view, rng)
    _, trumps = expert.bid_values(view)
    number_bids = BID_VALUES[BID_VALUES != PASS]
    same = []
    for i in range(hands):
        b, t, clear = pimc_choice(pimc, view, i, rng)
        if not clear:
            continue
        if b == PASS:
            same.append(bids[i] == PASS)
        else:
            col = int(np.flatnonzero(number_bids == bids[i])[0]) if bids[i] != PASS else -1
            same.append(bids[i] == b and col >= 0 and trumps[i, col] == t)
    same = np.array(same)
    k, n = int(same.sum()), len(same)
    from moonshot.analysis.stats import wilson
    _, lo, hi = (float(x) for x in wilson(k, n))
    return (f"{players}p first bids: {spec}'s bid and trump equal pimc's on {k:,} of {n:,} hands where pimc's "
            f"choice is clear ({k / n:.1%} [{lo:.1%}, {hi:.1%}]), of {hands:,} dealt, seed {seed}")


def speed(players: int, spec: str, hands: int = 65536) -> float:
    table = engine.Table(players)
    s = make_strategy("moon", spec, DECISIONS)
    engine.play(table, 1000, [s] * players, np.random.default_rng(0), np.random.default_rng(0))
    c0 = time.process_time()
    engine.play(table, hands, [s] * players, np.random.default_rng(1), np.random.default_rng(2))
    return hands / (time.process_time() - c0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--bids", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=3601)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: matches, bids, speed")
    ap.add_argument("--bidder", default="expert", help="the bids part's player (e.g. expert:min_gain=1)")
    a = ap.parse_args(argv)
    skip = set(filter(None, a.skip.split(",")))
    if "speed" not in skip:
        for players in (3, 4):
            rates = {s: speed(players, s) for s in ("threshold", "expert")}
            print(f"{players}p hands/s (CPU, one core): expert {rates['expert']:,.0f}, "
                  f"threshold {rates['threshold']:,.0f} "
                  f"({rates['expert'] / rates['threshold']:.2f} of threshold's)", flush=True)
    if "bids" not in skip:
        for players in (3, 4):
            print(bid_agreement(players, a.bids, a.seed + players, a.bidder), flush=True)
    if "matches" not in skip:
        for players in (3, 4):
            print(paired(players, "pimc", "expert", a.deals, a.seed + 10 * players, a.jobs), flush=True)
            print(paired(players, "expert", "threshold", a.deals, a.seed + 10 * players, a.jobs), flush=True)


if __name__ == "__main__":
    main()
