"""Rebuild strategies/models/stm_expert.npz (the Shoot the Moon `expert`) from a seed; issue 36.

    python benchmarks/train_stm_expert.py                  # the shipped model (seed 36), ~40 CPU-minutes, one core
    python benchmarks/train_stm_expert.py --tiny --out /tmp/m.npz   # a seconds-long run (the test's)

What it does, one process, deterministic for a seed:
1. Deals rounds at a mix of tables (4 players individual most, 2-6 players, partners, the dummy;
   chips at the start of the round varied) and plays them with a behaviour policy: `odd` in the
   first pass, then the expert fitted so far (DAgger: the expert's own positions get labels).
2. At a random share of the decisions with more than one legal card, the deciding seat's view gets
   the rollout player's value of every legal card (`RolloutPlay.values`: mean chips of its side
   over WORLDS dealt worlds, the same worlds for every card) and the expert's features of it.
3. Fits the weights by ridge regression: per decision, scores minus their mean over the legal
   cards against values minus theirs; one weight vector shared by every context plus one per
   context (the context's own weights shrunk harder), in closed form.
4. Prints each pass's mean loss against the labels (chips a decision, on held-out deals) beside
   `odd`'s, and writes the weights with the seed, passes and data sizes.

The held-out strength matches are benchmarks/expert_bench.py (other seeds than these).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np


from moonshot.simulator.shoot_the_moon.engine import Table, play  # noqa: E402
from moonshot.simulator.shoot_the_moon.rules import Rules  # noqa: E402
from moonshot.strategies import stm_expert as E  # noqa: E402
from moonshot.strategies.shoot_the_moon import OddPlanner  # noqa: E402
from moonshot.strategies.stm_search import RolloutPlay  # noqa: E402

SEED = 36
# (players, partners, share of the deals): 4 players individual is the main table
TABLES = ((4, False, 0.45), (3, False, 0.1), (5, False, 0.1), (6, False, 0.08), (4, True, 0.12), (6, True, 0.07),
          (2, False, 0.08))
FULL = dict(passes=3, deals=14_000, worlds=128, label=0.5, batch=1000)
TINY = dict(passes=2, deals=120, worlds=8, label=0.5, batch=60)
RIDGE_SHARED, RIDGE_CONTEXT = 1.0, 30.0      # per decision-weighted option: the contexts' own weights shrink more


class Collector:
    """Plays every seat with the behaviour policy and labels a share of the decisions."""

    def __init__(self, weights, worlds: int, label: float, label_rng: np.random.Generator):
        self.weights, self.label, self.rng = weights, label, label_rng
        self.rollout = RolloutPlay(worlds=worlds)
        self.odd = OddPlanner()
        self.rows: list[tuple] = []

    def play(self, view, rng):
        odd = self.odd.play(view, rng)
        act = odd if self.weights is None else E.choose(view, self.weights)
        legal = np.asarray(view.legal_bits)
        pick = (np.bitwise_count(legal) > 1) & (np.asarray(view.side) >= 0) & (self.rng.random(len(view)) < self.label)
        idx = np.flatnonzero(pick)
        for lo in range(0, len(idx), 256):          # the rollouts of 256 games at a time (memory)
            part = idx[lo:lo + 256]
            sub = view.take(part)
            x, ctx = E.features(sub)
            values = self.rollout.values(sub, self.rng)
            self.rows.append((x, ctx, legal[part], values.astype(np.float32), odd[part]))
        return act


def collect(weights, cfg: dict, seed_seq: np.random.SeedSequence) -> dict:
    """One pass of data: cfg['deals'] rounds over TABLES with the behaviour policy `weights` (None: odd)."""
    out: list[dict] = []
    for k, (players, partners, share) in enumerate(TABLES):
        deal_rng, play_rng, label_rng, chip_rng = (np.random.default_rng(s) for s in seed_seq.spawn(4))
        table = Table(players, partners, Rules())
        col = Collector(weights, cfg["worlds"], cfg["label"], label_rng)
        n_deals = max(1, int(round(cfg["deals"] * share)))
        for lo in range(0, n_deals, cfg["batch"]):
            n = min(cfg["batch"], n_deals - lo)
            # a quarter of the rounds start from other chips (a Little Moon cannot take a chip below 0)
            chips = np.full((n, table.n_sides), 2, dtype=np.int16)
            other = chip_rng.random(n) < 0.25
            chips[other] = chip_rng.integers(0, 7, (int(other.sum()), table.n_sides))
            play(table, n, [col] * players, deal_rng, play_rng, chips=chips)
        for x, ctx, legal, values, odd in col.rows:
            out.append(dict(x=x, ctx=ctx, legal=legal, values=values, odd=odd,
                            table=np.full(len(ctx), k, dtype=np.int8)))
    return {key: np.concatenate([o[key] for o in out]) for key in out[0]}


def join(a: dict | None, b: dict) -> dict:
    return b if a is None else {k: np.concatenate([a[k], b[k]]) for k in a}


def centred(data: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per decision, features and values minus their mean over the legal slots (0 where illegal)."""
    legal = E_BITS[data["legal"]]                                           # (M, 5)
    cnt = legal.sum(axis=1, keepdims=True)
    x = data["x"].astype(np.float64) * legal[:, :, None]
    v = np.where(legal, data["values"], 0.0).astype(np.float64)
    xc = (x - x.sum(axis=1, keepdims=True) / cnt[:, :, None]) * legal[:, :, None]
    vc = (v - v.sum(axis=1, keepdims=True) / cnt) * legal
    return xc, vc, legal


E_BITS = ((np.arange(32)[:, None] >> np.arange(5)) & 1).astype(bool)


def fit(data: dict) -> np.ndarray:
    """Ridge regression of centred values on centred features: weights[c] = shared + own[c]."""
    xc, vc, _ = centred(data)
    ctx = data["ctx"]
    F, C = E.N_FEATURES, E.N_CONTEXTS
    grams = np.zeros((C, F, F))
    rhs = np.zeros((C, F))
    for c in range(C):
        rows = ctx == c
        xr = xc[rows].reshape(-1, F)
        grams[c] = xr.T @ xr
        rhs[c] = xr.T @ vc[rows].reshape(-1)
    # unknowns: shared (F) then each context's own (F); normal equations of the stacked design
    D = F * (C + 1)
    A = np.zeros((D, D))
    b = np.zeros(D)
    A[:F, :F] = grams.sum(axis=0) + RIDGE_SHARED * np.eye(F)
    b[:F] = rhs.sum(axis=0)
    for c in range(C):
        s = slice(F * (c + 1), F * (c + 2))
        A[:F, s] = A[s, :F] = grams[c]
        A[s, s] = grams[c] + RIDGE_CONTEXT * np.eye(F)
        b[s] = rhs[c]
    sol = np.linalg.solve(A, b)
    return sol[:F][None, :] + sol[F:].reshape(C, F)


def loss(data: dict, weights: np.ndarray) -> tuple[float, float, float]:
    """Mean chips a decision lost against the labels' best card: the expert's, odd's, and the
    share of decisions where the expert picks the labels' best."""
    legal = E_BITS[data["legal"]]
    v = np.where(legal, data["values"], -np.inf)
    score = np.einsum("mkf,mf->mk", data["x"].astype(np.float64), weights[data["ctx"]])
    pick = np.where(legal, score, -np.inf).argmax(axis=1)
    rows = np.arange(len(v))
    top = v.max(axis=1)
    return (float((top - v[rows, pick]).mean()), float((top - v[rows, data["odd"]]).mean()),
            float((v[rows, pick] == top).mean()))


def train(cfg: dict, seed: int, log=print) -> tuple[np.ndarray, dict]:
    """The passes of collect and fit; returns the weights and what to record beside them."""
    root = np.random.SeedSequence(seed)
    pass_seeds = root.spawn(cfg["passes"] + 1)
    held = collect(None, dict(cfg, deals=max(1, cfg["deals"] // 5)), pass_seeds[-1])
    data, weights = None, None
    for p in range(cfg["passes"]):
        t0 = time.process_time()
        data = join(data, collect(weights, cfg, pass_seeds[p]))
        weights = fit(data)
        lost, odd_lost, agree = loss(held, weights)
        log(f"pass {p + 1}: {len(data['ctx']):,} labelled decisions, {time.process_time() - t0:.0f} CPU-s; held-out "
            f"({len(held['ctx']):,} decisions): expert loses {lost:.4f} chips a decision against the labels' best, "
            f"odd {odd_lost:.4f}; expert picks the best in {agree:.1%}")
    info = dict(decisions=len(data["ctx"]), held_out=len(held["ctx"]))
    return weights, info


def save(path: Path, weights: np.ndarray, cfg: dict, seed: int, info: dict) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, format=np.int64(E.MODEL_FORMAT), features=np.array(E.FEATURES), weights=weights,
             seed=np.int64(seed), passes=np.int64(cfg["passes"]), deals=np.int64(cfg["deals"]),
             worlds=np.int64(cfg["worlds"]), decisions=np.int64(info["decisions"]))
    os.replace(tmp, path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--tiny", action="store_true", help="a seconds-long configuration (tests)")
    ap.add_argument("--out", type=Path, default=E.MODEL_FILE)
    for key in FULL:
        ap.add_argument(f"--{key}", type=type(FULL[key]), default=None)
    args = ap.parse_args()
    cfg = dict(TINY if args.tiny else FULL)
    cfg.update({k: getattr(args, k) for k in FULL if getattr(args, k) is not None})
    t0 = time.process_time()
    weights, info = train(cfg, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save(args.out, weights, cfg, args.seed, info)
    print(f"wrote {args.out} ({cfg}, seed {args.seed}) in {time.process_time() - t0:.0f} CPU-s")


if __name__ == "__main__":
    main()
