"""Hit the Deck against its peer, side by side in one run: whole processes on one core, ours
(`moonshot simulate hit-the-deck -p 4 -s random -j 1`) and OpenSpiel's C++ crazy_eights(players=4)
with uniform random bots through pyspiel.evaluate_bots (~82 decisions a game), interleaved, each
timed by its CPU time (user + system, the process's whole life: imports included). The machine is
shared, so the ratio of medians over interleaved repeats is what counts.

    python benchmarks/peer_bench.py                         # 3 interleaved repeats
    python benchmarks/peer_bench.py --peer-python /tmp/ospiel/bin/python --repeats 5

OpenSpiel is not a dependency: it is looked for in --peer-python (default: $OPEN_SPIEL_PYTHON,
else this interpreter); without it only our side is timed.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOW_TO_GET = ("OpenSpiel is not importable there; for the comparison: python3 -m venv /tmp/ospiel && "
              "/tmp/ospiel/bin/pip install open-spiel, then --peer-python /tmp/ospiel/bin/python")
PEER_CODE = """
import sys, pyspiel
game = pyspiel.load_game("crazy_eights(players=4)")
bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(4)]
for i in range(int(sys.argv[1])):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
"""


def cpu_seconds(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process, start to end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def ours_cmd(hands: int) -> list[str]:
    moonshot = Path(sys.executable).with_name("moonshot")
    return [str(moonshot), "simulate", "hit-the-deck", "-p", "4", "-s", "random", "-j", "1", "-n", str(hands), "-q"]


def peer_python(given: str | None) -> str | None:
    py = given or os.environ.get("OPEN_SPIEL_PYTHON") or sys.executable
    ok = subprocess.run([py, "-c", "import pyspiel"], capture_output=True).returncode == 0
    return py if ok else None


def compare(hands: int, games: int, repeats: int, peer: str | None, out=print) -> dict:
    """Interleaved runs; {'ours': [hands/s], 'peer': [games/s], 'ratio': median ours / median peer}."""
    got: dict = {"ours": [], "peer": []}
    subprocess.run(ours_cmd(1000), check=True, stdout=subprocess.DEVNULL, cwd=ROOT)     # compile caches warm
    for i in range(repeats):
        cpu, wall = cpu_seconds(ours_cmd(hands))
        got["ours"].append(hands / cpu)
        line = f"  repeat {i + 1}: moonshot {hands / cpu:>9,.0f} hands/s CPU ({wall:.1f} s wall)"
        if peer:
            cpu, wall = cpu_seconds([peer, "-c", PEER_CODE, str(games)])
            got["peer"].append(games / cpu)
            line += f"   OpenSpiel {games / cpu:>9,.0f} games/s CPU ({wall:.1f} s wall)"
        out(line)
    if peer:
        got["ratio"] = statistics.median(got["ours"]) / statistics.median(got["peer"])
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--peer-python", default=None)
    args = ap.parse_args()
    peer = peer_python(args.peer_python)
    if not peer:
        print(HOW_TO_GET)
    print(f"Hit the Deck 4p random, whole process, one core: {args.hands:,} hands"
          + (f"; OpenSpiel crazy_eights(players=4), {args.games:,} games" if peer else ""))
    got = compare(args.hands, args.games, args.repeats, peer)
    line = f"median: moonshot {statistics.median(got['ours']):,.0f} hands/s"
    if peer:
        line += f", OpenSpiel {statistics.median(got['peer']):,.0f} games/s: ratio {got['ratio']:.2f}x (target 3x)"
    print(line)


if __name__ == "__main__":
    main()
