"""Issue 40 item 1: how much narrower the deal-luck control variate (analysis/variance.py) makes the
intervals, on seeds no fit saw, at equal CPU time.

    python benchmarks/variance_bench.py fit              # the luck weights -> analysis/variance_luck.json
    python benchmarks/variance_bench.py [GAMES] [--games N] [--deals N]

Prints per game:
- lab: a rules lab of one rule change (`rules_lab --set`) on FRESH seeds: each skill/edge effect's plain
  95% half-width over the adjusted one, and that ratio at equal CPU time (divided by the square root of
  the time with the covariate over the time without; the lab with analysis.variance.FEATURES emptied);
- compare: strategy A against B per deal (hands), the cross-fitted R^2 of the per-deal paired difference
  on the deal's per-seat features and the width ratio 1/sqrt(1 - R^2) it would give (not built: about 1).
The fit plays games of the lab's skill lineup (the game's default strategy at seat 0, its lab baseline in
the others) on FIT_SEED, a seed no verb, test or benchmark run uses.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moonshot.analysis import variance  # noqa: E402
from moonshot.analysis.common import make_setup, match_lineups  # noqa: E402
from moonshot.simulator.runner import chunk_seeds, generators  # noqa: E402

FIT_SEED = 40_001
FIT_GAMES = 20_000
BENCH_SEEDS = (40_101, 40_102)
LAB_RULE = {"moon": "moon.widow=none", "shoot-the-moon": "stm.target_chips=5", "hit-the-deck": "htd.reaction=off"}
PAIRS = {"moon": ("expert", "threshold"), "shoot-the-moon": ("expert", "greedy"), "hit-the-deck": ("hold", "dump")}


def skill_games(game: str, n: int, seed: int, index: int = 0):
    """The lab's skill lineup at the default table: (seat 0's edge per game, its relative features)."""
    setup = make_setup(game).validate()
    edge, g = variance.skill_games(setup, n, seed, index)
    return edge, variance.game_features(game, g, n, setup.table.players)


def fit() -> None:
    stored = {}
    for game in variance.FEATURES:
        ys, xs = zip(*(skill_games(game, 2_000, FIT_SEED, i) for i in range(FIT_GAMES // 2_000)))
        y, x = np.concatenate(ys), np.concatenate(xs)[:, 0, :]
        xc = x - x.mean(axis=0)
        w = np.linalg.solve(xc.T @ xc + 1.0 * np.eye(x.shape[1]), xc.T @ (y - y.mean()))
        r2 = 1 - np.var((y - y.mean()) - xc @ w) / np.var(y)
        stored[game] = {"source": f"python benchmarks/variance_bench.py fit: {FIT_GAMES:,} games of the lab's skill "
                                  f"lineup at the default table, seed {FIT_SEED}, ridge 1; in-sample R^2 {r2:.3f}",
                        "weights": [round(float(v), 6) for v in w]}
        print(game, "in-sample R^2", round(r2, 3), flush=True)
    variance.WEIGHTS.write_text(json.dumps(stored, indent=1) + "\n")
    print("wrote", variance.WEIGHTS)


def lab_ratio(game: str, games: int, seed: int) -> list[str]:
    from moonshot.analysis.rules_lab import rules_lab
    if game not in variance.FEATURES:
        return [f"  lab: no luck model for {game} (its deal explains ~1% of a hand's result): ratio 1.00"]
    setup = make_setup(game)
    t0 = time.perf_counter()
    res = rules_lab(setup, games=games, hands=2_000, seed=seed, sets=["rule=" + LAB_RULE[game]])
    with_cv = time.perf_counter() - t0
    kept, variance.FEATURES = variance.FEATURES, {}
    try:
        t0 = time.perf_counter()
        rules_lab(setup, games=games, hands=2_000, seed=seed, sets=["rule=" + LAB_RULE[game]])
        without = time.perf_counter() - t0
    finally:
        variance.FEATURES = kept
    table = res.tables["narrower"]
    cost = np.sqrt(with_cv / without)
    half = (table["ci_high"] - table["ci_low"]) / 2
    return [f"  lab {LAB_RULE[game]} seed {seed} {r['metric']}: plain +-{h * r['ratio'] * 100:.2f} pp, adjusted "
            f"+-{h * 100:.2f} pp, ratio {r['ratio']:.3f}, at equal CPU {r['ratio'] / cost:.3f} "
            f"(time {with_cv:.1f} s vs {without:.1f} s)" for h, (_, r) in zip(half, table.iterrows())]


def _cv_r2(y: np.ndarray, x: np.ndarray) -> float:
    """Two-fold cross-fitted R^2 (each half's fit scored on the other half)."""
    h = len(y) // 2
    out = []
    for fit_part, test in ((slice(0, h), slice(h, None)), (slice(h, None), slice(0, h))):
        xm, ym = x[fit_part].mean(axis=0), y[fit_part].mean()
        xc = x[fit_part] - xm
        w = np.linalg.solve(xc.T @ xc + np.eye(x.shape[1]), xc.T @ (y[fit_part] - ym))
        out.append(1 - np.var(y[test] - ym - (x[test] - xm) @ w) / np.var(y[test]))
    return float(np.mean(out))


def compare_ratio(game: str, deals: int, seed: int) -> str:
    """Per deal: compare's paired difference (A minus B, averaged over the sides) against each seat's
    hand counts (one-hot per card, kind or tile) on the same deal."""
    setup = make_setup(game).validate()
    table, hooks = setup.table, setup.hooks
    a, b = PAIRS[game]
    lineups = match_lineups(table.side_of_seat[:table.players], table.n_sides, setup.strategy(a), setup.strategy(b))
    seeds = chunk_seeds(seed, 0, setup.entry.streams)
    outs, hands = [], None
    for k, lineup in enumerate(lineups):
        res = hooks.play(setup, lineup, generators(seeds), deals)
        hands = res if k == 0 else hands
        outs.append(next(iter(hooks.side_outcomes(setup, res).values())))
    base = outs[0].astype(float)
    d = np.mean([outs[1 + s][:, s] - base[:, s] for s in range(table.n_sides)], axis=0)
    held = np.asarray(hands.opening if hasattr(hands, "opening") else hands.hands)
    if held.ndim == 3 and not hasattr(hands, "opening"):
        held = variance._counts(held[:, :table.players], int(held.max()) + 1)
    x = held[:, :table.players].reshape(deals, -1).astype(float)
    x = x[:, x.std(axis=0) > 0]
    r2 = _cv_r2(d, x)
    return (f"  compare {a} vs {b}, {deals:,} deals seed {seed}: sd(d) {d.std():.3f}, cross-fitted R^2 {r2:.3f}, "
            f"width ratio {1 / np.sqrt(max(1 - r2, 1e-9)):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="*", default=["moon", "shoot-the-moon", "hit-the-deck"])
    ap.add_argument("--games", type=int, default=4_000)
    ap.add_argument("--deals", type=int, default=20_000)
    args = ap.parse_args()
    if args.what == ["fit"]:
        fit()
        return
    for game in args.what:
        print(game, flush=True)
        for seed in BENCH_SEEDS:
            for line in lab_ratio(game, args.games, seed):
                print(line, flush=True)
        print(compare_ratio(game, args.deals, BENCH_SEEDS[0]), flush=True)


if __name__ == "__main__":
    main()
