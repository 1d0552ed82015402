"""Where Moon pimc's time goes (issue 29 item 3): plays search_bench's speed game (pimc in seat 0,
`threshold` in the others) once recording every exact-solver call pimc makes, then replays the
calls alone on one core (best of `repeats`) and checks they give the recorded values again:

  * the solver's share of pimc's game time, split into bidding (values_batch: whole deals, one
    per world and trump searched) and play (moves_batch: every distinct legal move in each world);
  * nodes searched per call (a play decision; in bidding, one trump on the race's first worlds or
    on the rest) and per world, and CPU nanoseconds per node;
  * how the null-window tests of a whole deal spend their nodes: the two a value needs whatever
    the first guess (k = value: "can", k = value + 1: "cannot") and the others.

    python benchmarks/pimc_profile.py [players] [hands] [repeats]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.simulator.moon import engine  # noqa: E402
from moonshot.simulator.moon import solver as S  # noqa: E402
from moonshot.strategies.base import make_strategy  # noqa: E402


def record(players: int, hands: int) -> tuple[list, float]:
    """pimc's solver calls in the speed game ((kind, ctx, hands, position args, result)), and the game's CPU time."""
    calls, batch = [], {"v": S.values_batch, "m": S.moves_batch}

    def values(ctx, tt, work, h, *args):
        batch["v"](ctx, tt, work, h, *args)
        calls.append(("v", ctx.copy(), h.copy(), args[:-1], args[-1].copy()))

    def moves(ctx, tt, work, h, *args):
        n = batch["m"](ctx, tt, work, h, *args)
        calls.append(("m", ctx.copy(), h.copy(), args[:-2], (n, args[-2].copy(), args[-1][:, :n].copy())))
        return n

    pimc = make_strategy("moon", "pimc", ("bid", "discard", "trump", "play"))
    thr = make_strategy("moon", "threshold", ("bid", "discard", "trump", "play"))
    table, lineup = engine.Table(players), [pimc] + [thr] * (players - 1)
    engine.play(table, 2, lineup, np.random.default_rng(0), np.random.default_rng(0))      # compile / load
    S.values_batch, S.moves_batch = values, moves
    try:
        c0 = time.process_time()
        engine.play(table, hands, lineup, np.random.default_rng(1), np.random.default_rng(2))
        return calls, time.process_time() - c0
    finally:
        S.values_batch, S.moves_batch = batch["v"], batch["m"]


def replay(calls: list, solver: S.Solver) -> dict:
    """CPU seconds and nodes per kind; raises if a value differs from the recording."""
    out = {k: [0.0, 0, 0, 0] for k in "vm"}          # seconds, nodes, calls, worlds
    for kind, ctx, hands, args, res in calls:
        n0, c0 = solver.nodes, time.process_time()
        if kind == "v":
            got = np.zeros(len(hands), dtype=np.int64)
            S.values_batch(ctx, solver.tt, solver.work, hands, *args, got)
            same = np.array_equal(got, res)
        else:
            mv, vals = np.zeros(S.SCORES, dtype=np.int64), np.zeros((len(hands), S.SCORES), dtype=np.int64)
            n = S.moves_batch(ctx, solver.tt, solver.work, hands, *args, mv, vals)
            same = n == res[0] and np.array_equal(mv[:n], res[1][:n]) and np.array_equal(vals[:, :n], res[2])
        if not same:
            raise AssertionError("a replayed solver call gave other values than recorded")
        t = out[kind]
        t[0] += time.process_time() - c0
        t[1] += solver.nodes - n0
        t[2] += 1
        t[3] += len(hands)
    return out


def test_split(calls: list, solver: S.Solver, limit: int = 200) -> dict:
    """Nodes of the whole-deal null-window tests (the first `limit` bidding calls), by test kind."""
    split = {"can (k = value)": 0, "cannot (k = value + 1)": 0, "other": 0}
    for kind, ctx, hands, args, res in [c for c in calls if c[0] == "v"][:limit]:
        leader, pos, led, best, win, played, first = args
        total = 0
        for w in range(len(hands)):
            S._new_stamp(solver.tt, solver.work)
            h = hands[w].copy()
            lo, hi = 0, S._tricks_left(ctx, h, leader)
            guess = S._guess(ctx, h) if w == 0 else (total + 3 * w) // w          # as values_batch
            while lo < hi:
                k = min(max(guess, lo + 1), hi)
                n0 = solver.nodes
                ok = S._search(ctx, solver.tt, solver.work, h, leader, pos, led, best, win, played, k, first, 0)
                name = "can (k = value)" if k == res[w] else "cannot (k = value + 1)" if k == res[w] + 1 else "other"
                split[name] += solver.nodes - n0
                lo, hi, guess = (k, hi, k + 1) if ok else (lo, k - 1, k - 1)
            total += lo
    return split


def main(players: int = 4, hands: int = 100, repeats: int = 3) -> None:
    calls, game_cpu = record(players, hands)
    solver = S.Solver(tt_bits=16)
    runs = [replay(calls, solver) for _ in range(repeats)]
    best = {k: min(r[k][0] for r in runs) for k in "vm"}
    print(f"Moon pimc, {players} players, {hands} hands: game {game_cpu:.2f} s CPU; solver calls replayed alone "
          f"(best of {repeats}): {best['v'] + best['m']:.2f} s")
    for kind, what in (("v", "bidding (whole deals)"), ("m", "play (every move)")):
        sec, nodes, n_calls, worlds = runs[0][kind]
        print(f"  {what:22s}: {best[kind]:.2f} s, {n_calls} calls, {worlds} worlds, {nodes / 1e6:.1f} M nodes: "
              f"{nodes / max(n_calls, 1):,.0f} a call, {nodes / max(worlds, 1):,.0f} a world, "
              f"{1e9 * best[kind] / max(nodes, 1):.0f} ns a node")
    split = test_split(calls, solver)
    total = sum(split.values())
    print("  whole-deal null-window tests' nodes: " + ", ".join(f"{k} {v / total:.0%}" for k, v in split.items()))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
