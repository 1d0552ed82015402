"""Wall and CPU seconds of each game's default report, section by section (`make bench` runs it
through benchmarks/bench.py --reports; issue 29: Hit the Deck's at most 3 min on 2 cores, the others
at most 2, and Hit the Deck's tournament section, with `rollout`, at most 2).

    python benchmarks/report_bench.py                    # every game, --jobs 2, default --hands
    python benchmarks/report_bench.py moon --jobs 1 --hands 20000

Each report runs in a process of its own (as `moonshot report` does: workers started, kernels
loaded). CPU seconds count the report's process and its workers (psutil), so a machine shared with
other work shows what the report itself cost; the load average is printed beside them.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"hit-the-deck": 180.0}     # seconds on 2 cores; every other game's report: DEFAULT_TARGET
DEFAULT_TARGET = 120.0
TOURNAMENT_TARGET = 120.0


def cpu_seconds() -> float:
    """This process, its finished children and its living ones (joblib's workers)."""
    import psutil
    me = psutil.Process()
    t = me.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in me.children(recursive=True):
        try:
            c = child.cpu_times()
            total += c.user + c.system
        except psutil.Error:           # ended between the listing and the look
            pass
    return total


def one(game: str, hands: int | None, jobs: int) -> dict:
    """Build `game`'s report here; each section's (text, wall s, CPU s) and the totals."""
    from moonshot.reports.document import steps_heard
    from moonshot.simulator.games import get
    marks = []                          # (text, wall, cpu) at each section's start

    def hear(done: int, total: int, text: str) -> None:
        marks.append((text, time.perf_counter(), cpu_seconds()))
    t0, c0 = time.perf_counter(), cpu_seconds()
    with tempfile.TemporaryDirectory() as tmp, steps_heard(hear):
        get(game).build_report(Path(tmp) / "report", hands or 200_000, 2026, jobs, quiet=True)
    end = (None, time.perf_counter(), cpu_seconds())
    sections = [(text, w2 - w1, c2 - c1) for (text, w1, c1), (_, w2, c2) in zip(marks, marks[1:] + [end])]
    return {"game": game, "wall": end[1] - t0, "cpu": end[2] - c0, "sections": sections}


def run(game: str, hands: int | None, jobs: int) -> dict:
    """one() in a fresh process (the report's own start-up counted, as a user waits for it)."""
    args = [sys.executable, __file__, game, "--jobs", str(jobs), "--one"] + (["--hands", str(hands)] if hands else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def report_times(games=None, hands: int | None = None, jobs: int = 2) -> list[dict]:
    """Every game's report timed (printed as it goes), the tournament section picked out."""
    from moonshot.simulator.games import GAMES
    got = []
    for game in games or list(GAMES):
        load = os.getloadavg()[0]
        r = run(game, hands, jobs)
        target = TARGETS.get(game, DEFAULT_TARGET)
        print(f"  {game:<15} report --jobs {jobs}: {r['wall']:6.0f} s wall, {r['cpu']:6.0f} CPU-s "
              f"(target {target:.0f} s wall on 2 idle cores; load {load:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after)", flush=True)
        for text, wall, cpu in r["sections"]:
            mark = "   <- tournament, target %.0f s" % TOURNAMENT_TARGET if text.startswith("tournament") else ""
            print(f"      {wall:6.1f} s {cpu:6.1f} CPU-s  {text[:90]}{mark}", flush=True)
        got.append(r)
    return got


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*")
    parser.add_argument("--hands", type=int, default=None, help="the report's --hands (default: its own, 200,000)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.games[0], args.hands, args.jobs)))
        return
    print(f"Default reports, section by section (--jobs {args.jobs}):")
    report_times(args.games, args.hands, args.jobs)


if __name__ == "__main__":
    main()
