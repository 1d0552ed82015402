"""`moonshot review`'s speed: seconds to review one whole hand (every seat, every decision) at the
game's default worlds, for each game whose review hook exists (the others are skipped, and said so).

    python benchmarks/review_bench.py [--hands 3]

The hands are the game's default strategy's (`simulate --history`); the cost of a review depends on
the decisions a hand has, not on who made them. Each hand is reviewed with jobs 1 and jobs 2 (a
review's decisions spread over the workers); the first review of a process (imports, compiled
caches, the workers' start) is left out.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGETS = {"moon": 10.0, "shoot-the-moon": 5.0, "hit-the-deck": 30.0}     # issue 27's seconds per hand, 2 cores


def review_speeds(hands: int = 3):
    """(game, jobs, median s, max s, decisions per hand) for each game with a review hook."""
    from moonshot.analysis.review import review
    from moonshot.simulator.games import GAMES
    for game in GAMES.values():
        if game.review is None:
            print(f"  {game.name}: no review hook yet, skipped")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "h.jsonl"
            subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", game.name, "--hands", str(hands + 1),
                            "--history", str(path), "--quiet"], check=True, stdout=subprocess.DEVNULL)
            ids = [int(line.split('"hand_id":')[1].split(",")[0]) for line in path.read_text().splitlines()]
            for jobs in (1, 2):
                review(path, hand_ids=[ids[0]], jobs=jobs)                     # warm-up (and the workers)
                times, decisions = [], []
                for h in ids[1:hands + 1]:
                    t0 = time.perf_counter()
                    r = review(path, hand_ids=[h], jobs=jobs)
                    times.append(time.perf_counter() - t0)
                    decisions.append(r.meta["decisions"])
                yield game.name, jobs, statistics.median(times), max(times), statistics.mean(decisions)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    print(f"moonshot review, one whole hand at the game's default worlds (median and max of {args.hands} hands):")
    for game, jobs, med, top, decisions in review_speeds(args.hands):
        print(f"  {game:<15} jobs {jobs}: {med:6.2f} s median, {top:6.2f} s max per hand ({decisions:.0f} decisions; "
              f"target {TARGETS.get(game, float('nan')):g} s)")


if __name__ == "__main__":
    main()
