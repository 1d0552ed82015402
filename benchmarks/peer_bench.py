"""Hit the Deck against its peer, side by side in one run: whole processes on one core, ours
(`moonshot simulate hit-the-deck -p 4 -s random -j 1`) and OpenSpiel's C++ crazy_eights(players=4)
with uniform random bots through pyspiel.evaluate_bots (~82 decisions a game), interleaved, each
timed by its CPU time (user + system, the process's whole life: imports included). The machine is
shared, so the ratio of medians over interleaved repeats is what counts. Each repeat also times a
start-up process of each side (ours: 1 hand; the peer: 1 game), interleaved too: the hands-only
ratio counts the CPU time of the big run less that start-up (issue 29 item 4: 5x whole process,
4x hands only).

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
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
                   env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
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
    """Interleaved runs; {'ours': [hands/s], 'peer': [games/s], 'ratio': median ours / median peer,
    'ours_start', 'peer_start': [start-up CPU s], 'ours_hands', 'peer_hands': [hands/s less the
    median start-up], 'hands_ratio'}."""
    got: dict = {"ours": [], "peer": [], "ours_start": [], "peer_start": [], "cpu_ours": [], "cpu_peer": []}
    subprocess.run(ours_cmd(1000), check=True, stdout=subprocess.DEVNULL, cwd=ROOT)     # compile caches warm
    for i in range(repeats):
        cpu, wall = cpu_seconds(ours_cmd(hands))
        got["ours"].append(hands / cpu)
        got["cpu_ours"].append(cpu)
        got["ours_start"].append(cpu_seconds(ours_cmd(1))[0])
        line = (f"  repeat {i + 1}: moonshot {hands / cpu:>9,.0f} hands/s CPU ({wall:.1f} s wall, start-up "
                f"{got['ours_start'][-1]:.2f} s CPU)")
        if peer:
            cpu, wall = cpu_seconds([peer, "-c", PEER_CODE, str(games)])
            got["peer"].append(games / cpu)
            got["cpu_peer"].append(cpu)
            got["peer_start"].append(cpu_seconds([peer, "-c", PEER_CODE, "1"])[0])
            line += (f"   OpenSpiel {games / cpu:>9,.0f} games/s CPU ({wall:.1f} s wall, start-up "
                     f"{got['peer_start'][-1]:.2f} s CPU)")
        out(line)
    start = statistics.median(got["ours_start"])
    got["ours_hands"] = [hands / (cpu - start) for cpu in got["cpu_ours"]]
    if peer:
        got["ratio"] = statistics.median(got["ours"]) / statistics.median(got["peer"])
        start = statistics.median(got["peer_start"])
        got["peer_hands"] = [games / (cpu - start) for cpu in got["cpu_peer"]]
        got["hands_ratio"] = statistics.median(got["ours_hands"]) / statistics.median(got["peer_hands"])
    return got


def summary(got: dict) -> str:
    """The two ratios in one line (whole process; hands only, each side's start-up taken off)."""
    line = (f"median: moonshot {statistics.median(got['ours']):,.0f} hands/s whole process, "
            f"{statistics.median(got['ours_hands']):,.0f} hands only "
            f"(start-up {statistics.median(got['ours_start']):.2f} s)")
    if "ratio" in got:
        line += (f"; OpenSpiel {statistics.median(got['peer']):,.0f} games/s whole process, "
                 f"{statistics.median(got['peer_hands']):,.0f} games only (start-up "
                 f"{statistics.median(got['peer_start']):.2f} s): ratio {got['ratio']:.2f}x whole process "
                 f"(target 5x), {got['hands_ratio']:.2f}x hands only (target 4x)")
    return line


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
    print(summary(got) + f" (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
