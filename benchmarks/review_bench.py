"""`moonshot review`'s speed against issue 37's targets, run by `make bench`; never part of the tests.

    python benchmarks/review_bench.py [--hands 8] [--session 200] [--session-games moon,...] [--jobs 2]

1. One whole hand, one core: for each game with a review hook, `--hands` hands of the game's default
   strategies (simulate's history, seed 2026) reviewed one at a time in this process with jobs 1, every
   seat (what `moonshot review FILE --hand-id H` reviews in a simulated history: no seat was a person's),
   at the game's default worlds. The first review of the process (imports, compiled caches) is left out.
   Target: <= 2 s wall a hand in every game.
2. A session: `--session` hands (200) of each of `--session-games` (every game by default) in one
   history, reviewed whole by the CLI as a player runs it (`moonshot review FILE --jobs 2 --quiet
   --format json`, stdout discarded): wall time of the whole process, interpreter start, the workers'
   start and the compiled caches' loading included. Target: <= 3 min on 2 cores.

Every line also gives the CPU seconds spent (the session's: the CLI process and its workers) and the
machine's load (1-minute average) when it was measured: the targets are for an otherwise idle machine,
and on a busy one the CPU time divided by the cores is the floor the wall time would reach there.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core per process, as in the CLI's workers

HAND_TARGET, SESSION_TARGET = 2.0, 180.0                 # issue 37 item 6: seconds
SEED = 2026
ROOT = Path(__file__).resolve().parents[1]


def _load() -> float:
    return os.getloadavg()[0]


def history(game: str, hands: int, path: Path) -> list[int]:
    """`hands` hands of the game's default strategies written to `path` (simulate --history); their ids."""
    from moonshot.analysis.common import make_setup, simulate
    from moonshot.simulator.games import get
    lines: list[str] = []
    simulate(make_setup(game, get(game).default_players, False), hands, None, SEED, on_records=lines.extend)
    path.write_text("".join(line.rstrip("\n") + "\n" for line in lines))
    return [json.loads(line)["hand_id"] for line in lines]


def games() -> list:
    from moonshot.simulator.games import GAMES
    return list(GAMES.values())


def hand_speeds(hands: int = 8):
    """Per game with a review hook: (game, [wall s per hand], [decisions per hand], CPU s in all, load);
    the others are named as skipped."""
    from moonshot.analysis.review import review
    for game in games():
        if game.review is None:
            print(f"  {game.name}: no review hook yet, skipped")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "h.jsonl"
            ids = history(game.name, hands + 1, path)
            review(path, hand_ids=[ids[0]])                               # warm-up: imports, compiled caches
            times, decisions = [], []
            cpu = time.process_time()
            for h in ids[1:]:
                t0 = time.perf_counter()
                r = review(path, hand_ids=[h])
                times.append(time.perf_counter() - t0)
                decisions.append(r.meta["decisions"])
            yield game.name, times, decisions, time.process_time() - cpu, _load()


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def session_speed(game: str, hands: int = 200, jobs: int = 2) -> tuple[float, float, int, float]:
    """(wall s, CPU s of the process and its workers, decisions, load) of `moonshot review` over a
    `hands`-hand history on `jobs` workers."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.jsonl"
        history(game, hands, path)
        t0, cpu = time.perf_counter(), _children_cpu()
        out = subprocess.run([sys.executable, "-m", "moonshot.cli", "review", str(path), "--jobs", str(jobs),
                              "--quiet", "--format", "json"], check=True, capture_output=True, cwd=ROOT)
        wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu
    return wall, cpu, json.loads(out.stdout)["meta"]["decisions"], _load()


def hands_line(hands: int) -> None:
    from moonshot.simulator.games import get
    print(f"moonshot review, one whole hand on one core (jobs 1), every seat, the game's default worlds "
          f"({hands} hands of the default strategies, seed {SEED}; target {HAND_TARGET:g} s a hand):")
    for game, times, decisions, cpu, load in hand_speeds(hands):
        worlds = getattr(__import__(get(game).review, fromlist=["WORLDS"]), "WORLDS", None)
        top = max(times)
        print(f"  {game:<15} {statistics.median(times):5.2f} s median, {top:5.2f} s max a hand "
              f"({statistics.mean(decisions):.0f} decisions a hand, {worlds} worlds; "
              f"{sum(times) / sum(decisions) * 1000:.0f} ms a decision; CPU {cpu / len(times):.2f} s a hand) "
              f"{'met' if top <= HAND_TARGET else 'MISSED'}  load {load:.1f}")


def session_lines(hands: int, which: str, jobs: int) -> None:
    names = [g.strip() for g in which.split(",") if g.strip()] or [g.name for g in games() if g.review is not None]
    print(f"moonshot review FILE --jobs {jobs}, a {hands}-hand session of the default strategies (the CLI, "
          f"whole process; target {SESSION_TARGET:g} s):")
    for game in names:
        wall, cpu, decisions, load = session_speed(game, hands, jobs)
        print(f"  {game:<15} {wall:6.1f} s wall ({decisions:,} decisions; CPU {cpu:.0f} s, workers' included) "
              f"{'met' if wall <= SESSION_TARGET else 'MISSED'}  load {load:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=8, help="hands timed per game, one at a time (default 8)")
    parser.add_argument("--session", type=int, default=200, help="hands in the session (default 200; 0: skip)")
    parser.add_argument("--session-games", default="", help="games of the session, comma-separated (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="the session's workers (default 2)")
    args = parser.parse_args()
    if args.hands > 0:
        hands_line(args.hands)
    if args.session > 0:
        session_lines(args.session, args.session_games, args.jobs)


if __name__ == "__main__":
    main()
