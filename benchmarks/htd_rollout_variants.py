"""Hit the Deck rollout variants on the same deals, compared deal by deal.

Each variant plays as analysis.common.match plays it against `tactician` (the same chunk seeds, the
tactician everywhere, then the variant in each seat in turn; match_metrics' per-deal difference in
penalty points per hand), and the per-deal differences are kept: two variants' differences on the
same deals are paired (the tactician-only lineup is the same for both), so new against old is
their difference deal by deal, with its 95% interval. Chunks already played are read back from
OUT, so a run can be extended with more chunks.

    python benchmarks/htd_rollout_variants.py OUT FIRST_CHUNK LAST_CHUNK SPEC [SPEC ...]   # play
    python benchmarks/htd_rollout_variants.py OUT - - SPEC [SPEC ...]                      # report
"""
from __future__ import annotations

import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.analysis.common import make_setup, match_lineups, match_metrics  # noqa: E402
from moonshot.simulator.runner import chunk_seeds, generators  # noqa: E402

GAME, SEED, CHUNK = "hit-the-deck", 2026, 64


def _name(spec: str) -> str:
    return spec.replace(":", "_").replace(",", "_").replace("=", "")


def play_chunk(args) -> None:
    out, index, specs = args
    setup = make_setup(GAME, 4)
    seeds = chunk_seeds(SEED, index, setup.entry.streams)
    tac = setup.strategy("tactician")
    base = None
    for spec in specs:
        path = Path(out) / f"{_name(spec)}.{index}.npy"
        if path.exists():
            continue
        c0 = time.process_time()
        outs = []
        for k, lineup in enumerate(match_lineups(setup.table.side_of_seat[:setup.table.players], setup.table.n_sides,
                                                 setup.strategy(spec), tac)):
            if k == 0 and base is not None:
                outs.append(base)
                continue
            outs.append(setup.hooks.side_outcomes(setup, setup.hooks.play(setup, lineup, generators(seeds), CHUNK))
                        ["penalty"])
        base = outs[0]
        d = match_metrics("penalty", outs)["d_penalty"]
        np.save(path, np.concatenate([[time.process_time() - c0], d]))


def interval(x: np.ndarray) -> str:
    m, h = x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]"


def report(out: str, specs: list[str]) -> None:
    got = {}
    for spec in specs:
        files = {int(p.name.split(".")[-2]): np.load(p) for p in Path(out).glob(f"{_name(spec)}.*.npy")}
        got[spec] = files
    common = sorted(set.intersection(*(set(f) for f in got.values())))
    print(f"{len(common)} chunks of {CHUNK} deals = {len(common) * CHUNK} deals (4 players, seed {SEED}); "
          f"penalty points per hand, lower is better")
    d = {spec: np.concatenate([got[spec][i][1:] for i in common]) for spec in specs}
    for spec in specs:
        cpu = sum(got[spec][i][0] for i in common)
        print(f"  {spec} - tactician: {interval(d[spec])}  ({cpu:.0f} s CPU)")
    for spec in specs[1:]:
        diff = d[spec] - d[specs[0]]
        print(f"  {spec} - {specs[0]}: {interval(diff)}; deals where they differ: {np.mean(diff != 0):.0%}")


if __name__ == "__main__":
    out, lo, hi, *specs = sys.argv[1:]
    Path(out).mkdir(parents=True, exist_ok=True)
    if lo != "-":
        with Pool(2) as pool:
            pool.map(play_chunk, [(out, i, specs) for i in range(int(lo), int(hi))], chunksize=1)
    report(out, specs)
