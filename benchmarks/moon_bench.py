"""Moon throughput (hands per second, one core): full hands (deal + auction + widow/trump + play +
score) with the registered strategies, and the hand analyzer's wall time (its main table only:
the search player's check of its advice is off, check_samples=0, so the figure stays comparable with
the earlier ones and does not time pimc).
Run by benchmarks/bench.py, or alone:

    python benchmarks/moon_bench.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT,):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from moonshot.simulator.runner import CHUNK  # noqa: E402

HANDS = 8 * CHUNK


def moon_batch(players: int = 3, flags: tuple[str, ...] = (), strategy: str = "random"):
    """fn(n): n full hands in chunks of CHUNK with the batch engine and a registered strategy."""
    from moonshot.simulator.moon.engine import Table, play
    from moonshot.simulator.moon.rules import parse_rules
    from moonshot.strategies.base import parse_seat_specs
    table = Table(players, parse_rules(list(flags)))
    seats = parse_seat_specs("moon", [strategy], players, default=strategy,
                             required=("bid", "discard", "trump", "play")).strategies
    deal_rng, play_rng = np.random.default_rng(1), np.random.default_rng(2)

    def run(n):
        for start in range(0, n, CHUNK):
            play(table, min(CHUNK, n - start), seats, deal_rng, play_rng)
    return run


def moon_reference(players: int = 3):
    """fn(n): n hands through reference.Hand with uniform random choices (for the speed-up ratio)."""
    from moonshot.simulator.moon import reference as ref
    from moonshot.simulator.moon.rules import Rules
    rules = Rules()
    rng = np.random.default_rng(5)

    def run(n):
        for _ in range(n):
            hands, widow = ref.deal(rng, players, rules)
            hand = ref.Hand(hands, widow, int(rng.integers(players)), rules)
            while hand.phase != ref.DONE:
                legal = hand.legal()
                hand.act(legal[int(rng.integers(len(legal)))])
    return run


def hand_analyzer_seconds(samples: int = 100_000, jobs: int = 2) -> float:
    """Wall time of `moonshot hand moon --hand ... --samples 100000 --jobs 2 --check-samples 0`
    (in-process): the main table without the search player's check."""
    import time
    from moonshot.analysis.common import make_setup
    from moonshot.analysis.moon import analyze_hand
    t0 = time.perf_counter()
    analyze_hand(make_setup("moon"), "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "first", samples, seed=1, jobs=jobs,
                 check_samples=0)
    return time.perf_counter() - t0


def benches(rate):
    """Yields (label, value) as each is measured on one core with `rate(fn, hands)` of bench.py
    (hands/s unless named), so a late failure does not hide the earlier figures."""
    for s in ("random", "threshold", "greedy", "expert"):
        yield f"moon 3p batch, {s}, full hands/s", rate(moon_batch(3, strategy=s), HANDS)
    yield "moon 4p batch, random, full hands/s", rate(moon_batch(4), HANDS)
    for s in ("threshold", "expert"):
        yield f"moon 4p batch, {s}, full hands/s", rate(moon_batch(4, strategy=s), HANDS)
    yield "moon 3p batch, montecarlo bidder, hands/s", rate(moon_batch(3, strategy="montecarlo"), 2_000, repeat=1)
    yield "moon 3p reference.Hand, random, hands/s", rate(moon_reference(3), 2_000, repeat=2)
    try:
        yield "moon hand analyzer, 100k deals/trump, 2 jobs, no check: seconds", hand_analyzer_seconds()
    except Exception as err:         # the analysis layer is not the engine: report, do not lose the rest
        print(f"  moon hand analyzer skipped: {type(err).__name__}: {err}")


if __name__ == "__main__":
    from benchmarks.bench import rate
    for label, value in benches(rate):
        print(f"  {label:<48} {value:>12,.0f}")
