"""Scale benchmark: a game's hands on 2 local Dask workers (``--scheduler local:2``) against
``--jobs 2`` (joblib's process pool): hands/s and peak memory of every process, at growing sizes
and, within one run, the peaks so far each time it passes 1e6, 1e7, ... hands, to show that
memory stays flat however many hands are played (issue 29 item 5: every game, 1e5 to 1e8).
Never part of the test suite.

    python benchmarks/scale.py                    # Shoot the Moon, 1e6 and 1e7 hands (a few minutes on 2 cores)
    python benchmarks/scale.py --full             # 1e6 and 1e8 hands (1e8 takes ~10-15 min per mode)
    python benchmarks/scale.py --hands 2e6 --modes dask
    python benchmarks/scale.py --game moon hit-the-deck --hands 1e5 1e6 1e7 --modes jobs

Each measurement is a fresh process running ``analysis.common.simulate`` (as ``moonshot simulate
shoot-the-moon -n N --seed 1`` does) while a thread samples the resident memory (RSS) of that
process and each of its children every 0.2 s (the game's default strategies and table). For Dask
the main process also hosts the scheduler and the nannies; the workers are its children. hands/s
is measured over the simulation only (the cluster's start-up, a few seconds, is shown apart);
/CPU-s is hands per CPU second of all those processes together, which other work on a shared
machine disturbs far less than wall time.
Needs the cluster extra (dask, psutil).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _role(proc) -> str:
    try:
        cmd = " ".join(proc.cmdline())
    except Exception:
        return "other"
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "forkserver" in cmd:
        return "forkserver"
    return "worker"


class Sampler(threading.Thread):
    """Peak RSS per process of this process tree, sampled every `every` seconds."""

    def __init__(self, every: float = 0.2):
        super().__init__(daemon=True)
        import psutil
        self.me = psutil.Process()
        self.every = every
        self.peaks: dict[int, tuple[str, int]] = {}
        self.cpu: dict[int, float] = {}       # user + system seconds per process, at the last sample
        self.stop = threading.Event()

    def sample(self) -> None:
        procs = [(self.me, "main")] + [(p, None) for p in self.me.children(recursive=True)]
        for proc, role in procs:
            try:
                rss = proc.memory_info().rss
                times = proc.cpu_times()
            except Exception:
                continue
            self.cpu[proc.pid] = times.user + times.system
            old = self.peaks.get(proc.pid)
            self.peaks[proc.pid] = (old[0] if old else role or _role(proc), max(rss, old[1] if old else 0))

    def run(self) -> None:
        while not self.stop.wait(self.every):
            self.sample()


def measure(mode: str, hands: int, seed: int, game: str = "shoot-the-moon") -> dict:
    """One run in this process: wall time, hands/s and peak memory per process."""
    from moonshot.analysis.common import make_setup, simulate
    from moonshot.reports.text import render
    from moonshot.simulator.cluster import scheduler
    setup = make_setup(game)
    sampler = Sampler()
    sampler.sample()
    sampler.start()
    done, marks, checkpoints = [0], {}, [10 ** k for k in range(6, 10) if 10 ** k < hands]

    def progress(n: int) -> None:       # the peaks so far, each time the run passes 1e6, 1e7, ... hands
        done[0] += n
        while checkpoints and done[0] >= checkpoints[0]:
            sampler.sample()
            marks[checkpoints.pop(0)] = _peaks(sampler)

    t0 = time.perf_counter()
    with scheduler("local:2" if mode == "dask" else None):
        sampler.sample()
        cpu0 = sum(sampler.cpu.values())
        t1 = time.perf_counter()
        result = simulate(setup, hands, None, seed, jobs=2, progress=progress)
        t2 = time.perf_counter()
        sampler.sample()
        cpu = sum(sampler.cpu.values()) - cpu0
    sampler.stop.set()
    sampler.join()
    marks[hands] = _peaks(sampler)
    return {"game": game, "mode": mode, "hands": hands, "startup_s": round(t1 - t0, 2), "run_s": round(t2 - t1, 2),
            "hands_per_s": round(hands / (t2 - t1)), "hands_per_cpu_s": round(hands / cpu),
            "peak_mib": marks[hands], "peaks_so_far": marks,
            "sha": __import__("hashlib").sha256(render(result, "json").encode()).hexdigest()[:16]}


def _peaks(sampler: Sampler) -> list[tuple[str, int]]:
    """(role, MiB) of the main process and each worker, peak so far, main first."""
    procs = sorted(((role, rss) for role, rss in sampler.peaks.values()
                    if role == "main" or (role == "worker" and rss > 50 * 2**20)),   # not short-lived helpers
                   key=lambda x: (x[0] != "main", -x[1]))
    return [(role, round(rss / 2**20)) for role, rss in procs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=float, nargs="+", help="sizes to run (default 1e6 1e7; --full: 1e6 1e8)")
    parser.add_argument("--full", action="store_true", help="run 1e8 hands (the issue's size)")
    parser.add_argument("--modes", nargs="+", default=["dask", "jobs"], choices=["dask", "jobs"])
    parser.add_argument("--repeat", type=int, default=1, help="runs per size and mode, interleaved")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", nargs="+", default=["shoot-the-moon"], help="games to run, one after the other")
    parser.add_argument("--one", nargs=2, metavar=("MODE", "HANDS"), help=argparse.SUPPRESS)   # a child's job
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(float(args.one[1])), args.seed, args.game[0])))
        return
    sizes = [int(h) for h in (args.hands or ([1e6, 1e8] if args.full else [1e6, 1e7]))]
    print(f"{'game':<16}{'mode':<22}{'hands':>13}{'hands/s':>11}{'/CPU-s':>10}{'run s':>9}{'start s':>9}   "
          f"peak RSS MiB per process")
    rows = []
    for game, hands in ((g, h) for g in args.game for h in sizes):
        for mode in args.modes * args.repeat:
            out = subprocess.run([sys.executable, __file__, "--one", mode, str(hands), "--seed", str(args.seed),
                                  "--game", game], check=True, capture_output=True, text=True, cwd=ROOT)
            row = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append(row)
            label = "2 Dask workers" if mode == "dask" else "--jobs 2 (loky)"
            peaks = ", ".join(f"{role} {mib}" for role, mib in row["peak_mib"])
            print(f"{game:<16}{label:<22}{hands:>13,}{row['hands_per_s']:>11,}{row['hands_per_cpu_s']:>10,}{row['run_s']:>9}"
                  f"{row['startup_s']:>9}   {peaks}", flush=True)
            for mark, peak in list(row["peaks_so_far"].items())[:-1]:
                print(f"{'':<38}{'peak so far at':>24} {int(mark):,} hands: "
                      + ", ".join(f"{role} {mib}" for role, mib in peak), flush=True)
    for game, hands in ((g, h) for g in args.game for h in sizes):
        shas = {r["sha"] for r in rows if r["hands"] == hands and r["game"] == game}
        print(f"{game} {hands:,} hands: {'the same numbers in every mode' if len(shas) == 1 else 'DIFFERENT numbers'}")


if __name__ == "__main__":
    main()
