"""Hit the Deck throughput and memory (one core): full hands (deal, opening card, turns, slaps,
scoring) with the batch engine, `random` play, the default (adult) profile, in chunks of 65,536.

    python benchmarks/htd_bench.py                  # 4 players: hands/s, several repeats
    python benchmarks/htd_bench.py --players 6 --repeats 5
    python benchmarks/htd_bench.py --memory         # peak RSS at 1e5 and 1e6 hands (fresh processes)

The machine is shared, so each repeat reports wall-clock and CPU-time rates (CPU time is what the
engine costs; wall time also counts other people's work); read the best and the median.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHUNK = 65_536


def htd_batch(players: int = 4, flags: tuple[str, ...] = (), strategy: str = "random", chunk: int = CHUNK):
    """fn(n): n hands in chunks of `chunk` with the batch engine and a registered strategy."""
    from moonshot.simulator.hit_the_deck.engine import Table, play
    from moonshot.simulator.hit_the_deck.rules import parse_rules
    from moonshot.strategies.base import parse_seat_specs
    table = Table(players, parse_rules(list(flags), players))
    seats = parse_seat_specs("hit-the-deck", [strategy], players, default=strategy).strategies
    rngs = [np.random.default_rng(i) for i in (1, 2, 3)]

    def run(n):
        maxed = 0
        for start in range(0, n, chunk):
            maxed += play(table, min(chunk, n - start), seats, *rngs).max_turns_hit
        return maxed
    return run


def rates(fn, hands: int, repeats: int) -> list[tuple[float, float]]:
    """[(wall hands/s, CPU hands/s)] per repeat, after one small warm-up."""
    fn(1000)
    out = []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn(hands)
        out.append((hands / (time.perf_counter() - w), hands / (time.process_time() - c)))
    return out


def peak_rss_mb(n: int, players: int, chunk: int) -> float:
    """Peak resident memory (MB) of a fresh process playing n hands in chunks of `chunk`."""
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from benchmarks.htd_bench import htd_batch; "
            f"import resource; htd_batch({players}, chunk={chunk})({n}); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def benches(rate):
    """(label, value) pairs for benchmarks/bench.py's `rate(fn, hands)` (hands/s)."""
    random4 = rate(htd_batch(4), 4 * CHUNK)
    yield "hit-the-deck 4p batch, random, full hands/s", random4
    yield "hit-the-deck 2p batch, random, full hands/s", rate(htd_batch(2), 2 * CHUNK)
    yield "hit-the-deck 6p batch, random, full hands/s", rate(htd_batch(6), 2 * CHUNK)
    tactician4 = rate(htd_batch(4, strategy="tactician"), 2 * CHUNK)
    yield "hit-the-deck 4p batch, tactician, full hands/s", tactician4
    yield "hit-the-deck 4p tactician / random (target 0.5)", tactician4 / random4
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "moonshot.cli", "hand", "hit-the-deck",
                    "--hand", "R3 R5 G2 BCUT YFLIP HN3 HH", "-p", "4", "--samples", "100000", "-j", "2", "-q"],
                   check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    yield "hit-the-deck hand analyzer, 100k deals, 2 jobs: seconds", time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=4 * CHUNK)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=CHUNK)
    ap.add_argument("--memory", action="store_true", help="peak RSS at 1e5, 1e6 and 1e7 hands instead")
    args = ap.parse_args()
    if args.memory:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"this process before any hand: {base:.0f} MB")
        for n in (100_000, 1_000_000, 10_000_000):
            print(f"{n:>9,} hands, chunks of {args.chunk:,}: "
                  f"peak RSS {peak_rss_mb(n, args.players, args.chunk):.0f} MB", flush=True)
        print(f"  100,000 hands in one chunk: peak RSS {peak_rss_mb(100_000, args.players, 100_000):.0f} MB")
        return
    fn = htd_batch(args.players, chunk=args.chunk)
    print(f"{args.players} players, random play, adult profile, {args.hands:,} hands in chunks of {args.chunk:,}")
    got = rates(fn, args.hands, args.repeats)
    for wall, cpu in got:
        print(f"  {wall:>9,.0f} hands/s wall   {cpu:>9,.0f} hands/s CPU", flush=True)
    walls, cpus = sorted(w for w, _ in got), sorted(c for _, c in got)
    print(f"best {walls[-1]:,.0f} wall / {cpus[-1]:,.0f} CPU; median {walls[len(walls) // 2]:,.0f} wall / "
          f"{cpus[len(cpus) // 2]:,.0f} CPU hands/s")


if __name__ == "__main__":
    main()
