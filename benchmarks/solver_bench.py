"""Exact Moon solver throughput (one core): whole 7-trick deals solved per second (mean) and the
99th percentile time of one deal, 3 players (the 22-tile set less one tile, as after the widow
exchange) and 4 players (28 tiles), the bidder on lead; the trump drawn from those allowed, or
the bidder's best trump by the threshold estimate (as in play). Also the per-move values of the
first lead (what the search players ask for). Run alone:

    python benchmarks/solver_bench.py [deals] [repeats]

The machine is shared: each figure is the best of `repeats` runs (time per deal under the least
contention), the mean of the runs is printed beside it.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.simulator.moon import solver as S  # noqa: E402
from moonshot.simulator.moon.reference import allowed_trumps  # noqa: E402
from moonshot.simulator.moon.rules import Rules  # noqa: E402
from moonshot.strategies.moon import allowed_trumps as allowed_mask, best_trump  # noqa: E402


def deals(players: int, n: int, seed: int, trump_mode: str):
    rng = np.random.default_rng(seed)
    size = 22 if players == 3 else 28
    hands = np.stack([rng.permutation(size)[:7 * players].reshape(players, 7) for _ in range(n)]).astype(np.int8)
    if trump_mode == "random":
        allowed = np.array(allowed_trumps(players, Rules()))
        trumps = allowed[rng.integers(0, len(allowed), n)]
    else:
        trumps = best_trump(hands[:, 0], allowed_mask(players, Rules()))[0]
    return hands, trumps


def measure(players: int, n: int, repeats: int, trump_mode: str, moves: bool = False) -> dict:
    hands, trumps = deals(players, n, 2026 + players, trump_mode)
    solver = S.Solver()
    rules = Rules()
    S.solve_deals(hands[:2], trumps[:2], rules, 0, solver=solver)               # compile / load
    ctxs = [S.context(players, rules, int(t), 0) for t in trumps]
    masks = np.zeros((n, 4), dtype=np.int64)
    masks[:, :players] = (np.int64(1) << hands.astype(np.int64)).sum(axis=2)
    out = np.zeros(1, dtype=np.int64)
    mv, vals = np.zeros(16, dtype=np.int64), np.zeros((1, 16), dtype=np.int64)
    runs, per_deal = [], []
    for _ in range(repeats):
        times = np.empty(n)
        for i in range(n):
            h = masks[i:i + 1]
            t0 = time.perf_counter()
            if moves:
                S.moves_batch(ctxs[i], solver.tt, solver.work, h, 0, 0, 0, 0, 0, 0, True, mv, vals)
            else:
                S.values_batch(ctxs[i], solver.tt, solver.work, h, 0, 0, 0, 0, 0, 0, True, out)
            times[i] = time.perf_counter() - t0
        runs.append(times.sum())
        per_deal.append(times)
    best = int(np.argmin(runs))
    return {"deals_per_s": n / runs[best], "mean_runs_deals_per_s": n / np.mean(runs),
            "p99_ms": float(np.percentile(per_deal[best], 99) * 1e3),
            "max_ms": float(per_deal[best].max() * 1e3)}


def main(n: int = 2000, repeats: int = 3) -> None:
    print(f"Exact Moon solver, one core, {n} deals per run, best of {repeats} runs")
    for moves in (False, True):
        for trump_mode in ("random", "bidder"):
            for players in (3, 4):
                m = measure(players, n if not moves else n // 4, repeats, trump_mode, moves)
                what = "per-move values of the first lead" if moves else "value"
                print(f"  {players}p trump={trump_mode:6s} {what:34s}: {m['deals_per_s']:8.0f} deals/s "
                      f"(mean of runs {m['mean_runs_deals_per_s']:.0f}), p99 {m['p99_ms']:.2f} ms, "
                      f"max {m['max_ms']:.1f} ms", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
