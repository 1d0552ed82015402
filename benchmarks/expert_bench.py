"""The Shoot the Moon expert's held-out figures (issue 36): strength against the search player and the
default, and speed against the default. Never part of the test suite; run alone (one process).

    python benchmarks/expert_bench.py                       # the issue's figures (~3 CPU-minutes)
    python benchmarks/expert_bench.py --deals 3000 --seed 3601 --model /tmp/other.npz   # another model file

Strength: analysis.common.match (what `moonshot compare` runs), the same deals for both strategies,
seats rotated, the paired difference A minus B in chips per round with its 95% interval:
  * rollout (A) against expert (B), 4 players, on --deals deals (issue 36's target: the interval's
    upper end <= 0.03), the same as
      moonshot compare shoot-the-moon -p 4 --strategy rollout --vs expert -n 3000 --seed 3601 -j 1
  * expert (A) against odd (B) at every table (--odd-deals deals each).
The deals come from the match seeds (chunk seeds of --seed), never from the training script's
SeedSequence(36) streams, so every figure is on deals the model was not fitted on.
Speed: rounds per second of the batch engine with expert (and odd) in every seat, 4 players, one
core, the best of three (benchmarks/bench.py's measure, as `make bench` prints odd's); with
--speed-tables also at 2, 3 and 6 players. The machine's other work moves these by +-10%: run alone.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core, as in the CLI's workers
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import rate, stm_batch  # noqa: E402
from moonshot.analysis.common import make_setup, match  # noqa: E402

TABLES = ((2, False), (3, False), (4, False), (4, True), (5, False), (6, False), (6, True))


def margin(players: int, partners: bool, a: str, b: str, deals: int, seed: int) -> tuple[float, float, float]:
    c0 = time.process_time()
    res = match(make_setup("shoot-the-moon", players, partners), a, b, hands=deals, games=None, seed=seed)
    d = res.tables["match"].set_index("metric").loc["d_chips"]
    print(f"  {players}p{' partners' if partners else ''}: {a} (A) vs {b} (B), {deals:,} deals, seed {seed}: A minus B "
          f"{d['estimate']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}] chips per round "
          f"({time.process_time() - c0:.0f} CPU-s)", flush=True)
    return d["estimate"], d["ci_low"], d["ci_high"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=3000, help="deals of the rollout match (4 players)")
    ap.add_argument("--odd-deals", type=int, default=20_000, help="deals of each expert vs odd match")
    ap.add_argument("--seed", type=int, default=3601)
    ap.add_argument("--model", default="", help="another model file (default: the shipped one)")
    ap.add_argument("--speed-rounds", type=int, default=400_000)
    ap.add_argument("--no-rollout", action="store_true", help="skip the rollout match (the slow part)")
    ap.add_argument("--rollout-vs-odd", action="store_true", help="also rollout against odd on the same deals")
    ap.add_argument("--speed-tables", action="store_true", help="also the speed at 2, 3 and 6 players (6 partners)")
    args = ap.parse_args()
    if args.model:          # the expert reads its file from here (no strategy parameter names a file)
        from moonshot.strategies.stm_expert import MODEL_ENV
        os.environ[MODEL_ENV] = str(Path(args.model).resolve())
    expert = "expert"
    print("Shoot the Moon expert, held-out matches (chips per round, 95% intervals)")
    if not args.no_rollout:
        margin(4, False, "rollout", expert, args.deals, args.seed)
        if args.rollout_vs_odd:
            margin(4, False, "rollout", "odd", args.deals, args.seed)
    for players, partners in TABLES:
        margin(players, partners, expert, "odd", args.odd_deals, args.seed + 1)
    print(f"Speed, 4 players, every seat the same strategy, one core ({args.speed_rounds:,} rounds, best of 3):")
    rates = {name: rate(stm_batch(spec), args.speed_rounds) for name, spec in (("odd", "odd"), ("expert", expert))}
    print(f"  odd {rates['odd']:,.0f} rounds/s, expert {rates['expert']:,.0f} rounds/s: expert / odd = "
          f"{rates['expert'] / rates['odd']:.2f} (issue 36: at least 0.5)  load {os.getloadavg()[0]:.1f}")
    if args.speed_tables:
        for players, partners in ((2, False), (3, False), (6, False), (6, True)):
            r = {name: rate(stm_batch(spec, players, partners), args.speed_rounds // 2) for name, spec in
                 (("odd", "odd"), ("expert", expert))}
            print(f"  {players}p{' partners' if partners else ''}: odd {r['odd']:,.0f}, expert {r['expert']:,.0f} "
                  f"rounds/s: expert / odd = {r['expert'] / r['odd']:.2f}", flush=True)


if __name__ == "__main__":
    main()
