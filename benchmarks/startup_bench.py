"""Whole-process start-up of `moonshot simulate GAME -n 10000` per game, the figure of issue 29
(target: at most 1.5 s once the kernels are compiled). Wall time of a fresh process, median of 3,
and its CPU time (user + system), which other work on a shared machine disturbs far less; 10,000
hands are a fraction of one chunk, so this is nearly all imports and loading the compiled code.

    python benchmarks/startup_bench.py
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

MOONSHOT = Path(sys.executable).with_name("moonshot")


def startup(game: str, runs: int = 3) -> tuple[float, float]:
    """Median (wall, CPU) seconds of `moonshot simulate GAME -n 10000 -q` in a fresh process."""
    took, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([str(MOONSHOT), "simulate", game, "-n", "10000", "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        took.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(took), statistics.median(cpu)


def startups(runs: int = 3):
    """(game, (median wall, median CPU seconds)) per game; the first, untimed run compiles whatever
    is not cached."""
    from moonshot.simulator.games import GAMES
    for game in GAMES:
        startup(game, runs=1)
        yield game, startup(game, runs)


def serve_ready(port: int = 8765, limit: float = 60.0) -> float:
    """Seconds from launching `moonshot serve` to its first answered request (the home page);
    issue 29's target is 5 s once the kernels are compiled."""
    import urllib.request
    t0 = time.perf_counter()
    server = subprocess.Popen([str(MOONSHOT), "serve", "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - t0 < limit:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=limit) as answer:
                    answer.read()
                return time.perf_counter() - t0
            except OSError:                       # not listening yet
                time.sleep(0.05)
        raise TimeoutError(f"moonshot serve did not answer within {limit:.0f} s")
    finally:
        server.terminate()
        server.wait()


def print_startups() -> None:
    print("Start-up: moonshot simulate GAME -n 10000, whole process, median of 3 (target 1.5 s):")
    for game, (took, cpu) in startups():
        print(f"  {game:<15} {took:5.2f} s wall, {cpu:5.2f} s CPU  (load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"  moonshot serve to its first answered request: {serve_ready():.2f} s (target 5 s)")


if __name__ == "__main__":
    print_startups()
