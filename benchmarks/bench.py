"""Throughput benchmarks (hands per second), run by `make bench`; never part of the test suite.

    python benchmarks/bench.py              # engines, one core
    python benchmarks/bench.py --cli        # also the end-to-end CLI run of the issue (10M hands, 2 jobs)
    python benchmarks/bench.py --no-search  # without the Moon solver and the search players
    python benchmarks/bench.py --no-reports # without the default reports' wall and CPU times (minutes)

It also prints the two speed ratios of issue 17: Shoot the Moon's batch engine against a compiled
scalar loop of the same round (benchmarks/stm_yardstick.py), and Hit the Deck's whole process
against OpenSpiel's crazy_eights (benchmarks/peer_bench.py; OpenSpiel from $OPEN_SPIEL_PYTHON).

The paired strength matches of the search players take minutes: benchmarks/search_bench.py.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core per benchmark, as in the CLI's workers
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))          # the other benchmark scripts

from moonshot.simulator.runner import CHUNK  # noqa: E402


def rate(fn, hands: int, repeat: int = 3) -> float:
    fn(CHUNK // 8)                       # warm-up: imports, caches, tables
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(hands)
        best = max(best, hands / (time.perf_counter() - t0))
    return best


def stm_batch(strategy: str, players: int = 4, partners: bool = False):
    from moonshot.simulator.shoot_the_moon.engine import Table, play
    from moonshot.simulator.shoot_the_moon.rules import Rules
    from moonshot.strategies.base import parse_seat_specs
    table = Table(players, partners, Rules())
    seats = parse_seat_specs("shoot-the-moon", [strategy], players, default=strategy).strategies
    rng = np.random.default_rng(1)

    def run(n):
        for start in range(0, n, CHUNK):
            play(table, min(CHUNK, n - start), seats, rng, rng)     # deal, dealer, round from 2 chips
    return run


def stm_reference(players: int = 4):
    from moonshot.simulator.shoot_the_moon import reference as ref
    from moonshot.simulator.shoot_the_moon.rules import Rules
    rules = Rules()
    rng = np.random.default_rng(1)

    def run(n):
        for _ in range(n):
            hands = ref.deal(rng, players)
            ref.play_hand(players, False, rules, int(rng.integers(players)), hands, [2] * players,
                           lambda rnd, legal: legal[int(rng.integers(len(legal)))])
    return run


def moon_benches():
    """(label, value) pairs of benchmarks/moon_bench.py, yielded as they are measured."""
    try:
        from benchmarks.moon_bench import benches
    except ImportError:
        return iter(())
    return benches(rate)


def htd_benches():
    from benchmarks.htd_bench import benches
    return benches(rate)


def peer_ratio() -> None:
    """Hit the Deck against OpenSpiel's C++ crazy_eights(players=4), whole processes, interleaved
    (benchmarks/peer_bench.py; skipped, saying how to get it, when OpenSpiel is not importable)."""
    import peer_bench
    peer = peer_bench.peer_python(None)
    print("Hit the Deck 4p random, whole process (moonshot simulate ... -j 1) against OpenSpiel "
          "crazy_eights(players=4):")
    if not peer:
        print("  " + peer_bench.HOW_TO_GET + " (or set OPEN_SPIEL_PYTHON)")
    got = peer_bench.compare(1_000_000, 200_000, 3, peer)       # issue 29's sizes
    print(f"  {peer_bench.summary(got)} (load {os.getloadavg()[0]:.1f})")
    return got.get("ratio"), got


def cli_run(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (GiB, largest process) of one CLI run."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "moonshot.cli", *args], check=True, stdout=subprocess.DEVNULL,
                   cwd=Path(__file__).resolve().parents[1])
    wall = time.perf_counter() - t0
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, peak_kib / 2**20


def search_benches() -> None:
    """The exact Moon solver (whole deals solved per second, p99) and the search players."""
    import search_bench
    import solver_bench
    print("Exact Moon solver, one core, whole 7-trick deals (best of 2 runs of 1,000):")
    for trump_mode in ("bidder", "random"):
        for players in (3, 4):
            m = solver_bench.measure(players, 1000, 2, trump_mode)
            print(f"  {players}p trump={trump_mode:<6} {m['deals_per_s']:>10,.0f} deals/s  p99 {m['p99_ms']:.2f} ms")
    print("Search players, one core (CPU time):")
    search_bench.pimc_speed(3, 300)        # hands differ a lot in cost (a bid searched or not):
    search_bench.pimc_speed(4, 200)        # a few hundred give a steady figure
    search_bench.rollout_speed(1000)
    search_bench.htd_rollout_speed(256)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=8 * CHUNK)
    parser.add_argument("--cli", action="store_true", help="also time the 10M-hand CLI run (about 30 s)")
    parser.add_argument("--no-search", action="store_true", help="skip the solver and search players (about 40 s)")
    parser.add_argument("--no-reports", action="store_true", help="skip the default reports on --jobs 2 (minutes)")
    args = parser.parse_args()
    from startup_bench import print_startups
    print_startups()
    print("Shoot the Moon, 4 players individual, one core (batch engine, hands/s):")
    rates = {}
    for strategy in ("random", "greedy", "odd", "expert"):
        rates[strategy] = rate(stm_batch(strategy), args.hands)
        print(f"  batch  {strategy:<8} {rates[strategy]:>12,.0f} hands/s")
    ref_rate = rate(stm_reference(), 3_000, repeat=2)
    print(f"  reference random   {ref_rate:>12,.0f} hands/s")
    print(f"  batch/reference (random): {rates['random'] / ref_rate:,.0f}x")
    print("Shoot the Moon random, batch engine against a compiled scalar loop of the same round (one process):")
    import stm_yardstick
    stm = {}
    ratio = stm_yardstick.compare(args.hands, medians=stm)
    print(f"  median: batch engine {stm['ours']:,.0f} rounds/s, compiled scalar loop {stm['yardstick']:,.0f}: "
          f"ratio {ratio:.2f} (target 0.78; load {os.getloadavg()[0]:.1f})")
    peer, got = peer_ratio()
    print("Issue 17's two ratios (CPU time, side by side in one run):")
    print("  Hit the Deck / OpenSpiel crazy_eights(4): "
          + (f"{peer:.2f}x whole process, {got['hands_ratio']:.2f}x hands only  (moonshot "
             f"{statistics.median(got['ours']):,.0f} hands/s, OpenSpiel {statistics.median(got['peer']):,.0f} "
             f"games/s; targets 5x and 4x)" if peer else "OpenSpiel not found"))
    print(f"  Shoot the Moon batch / compiled scalar loop: {ratio:.2f}  (batch {stm['ours']:,.0f} rounds/s, "
          f"loop {stm['yardstick']:,.0f}; target 0.78)  load {os.getloadavg()[0]:.1f}")
    for label, value in moon_benches():
        print(f"  {label:<40} {value:>12,.0f}")
    for label, value in htd_benches():
        print(f"  {label:<52} {value:>12,.2f}" if " / " in label else f"  {label:<52} {value:>12,.1f}")
    # moonshot review's speed (a hand on one core, a 200-hand session on 2): benchmarks/review_bench.py,
    # which `make bench` runs after this script
    if not args.no_search:
        search_benches()
    if not args.no_reports:              # issue 29: every game's default report and its tournament section
        from report_bench import report_times
        print("Default reports, --jobs 2, section by section (benchmarks/report_bench.py):")
        report_times(jobs=2)
    if args.cli:
        wall, peak = cli_run(["simulate", "shoot-the-moon", "--hands", "10000000", "--strategy", "odd",
                              "--jobs", "2", "--quiet"])
        print(f"moonshot simulate shoot-the-moon --hands 10000000 --strategy odd --jobs 2: "
              f"{wall:.1f} s wall, peak memory {peak:.2f} GiB (largest process)")


if __name__ == "__main__":
    main()
