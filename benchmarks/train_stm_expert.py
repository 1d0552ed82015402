"""Rebuild strategies/models/stm_expert.npz (the Shoot the Moon `expert`) from a seed; issue 36.

    python benchmarks/train_stm_expert.py          # the shipped model (seed 36): ~15 CPU-minutes, one process
    python benchmarks/train_stm_expert.py --tiny --out /tmp/m.npz   # seconds (the test's configuration)

What it does, one process, deterministic for a seed (the same weights on the same machine and libraries):
1. Deals rounds at a mix of tables (4 players individual most, 2-6 players, partners, the dummy;
   a quarter of the rounds start from other chips) and plays them with a behaviour policy: `odd`
   in the first pass, then the expert fitted so far (DAgger: the expert's own positions get labels).
2. At half of the decisions with more than one legal card, the deciding seat's view gets the
   rollout player's value of every legal card (`RolloutPlay.values`: mean chips of its side over
   WORLDS dealt worlds, the same worlds for every card); the view's arrays are kept and the
   expert's features are computed from them (stm_expert.features_of).
3. Fits the network (stm_expert.Model: one hidden layer of ReLUs, its bias per context) by Adam on
   minibatches: per decision, scores minus their mean over the legal cards against the values
   minus theirs (squared error); `restarts` seeded starts, the one with the least held-out loss kept.
4. Prints each pass's held-out loss (mean chips a decision below the labels' best card, on other
   deals: `odd`'s beside it) and writes the model with the seed, the configuration and the data size.

The held-out strength matches and the speed are benchmarks/expert_bench.py (other seeds than these).
"""
from __future__ import annotations

import argparse
import os
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
TABLES = ((4, False, 0.40), (3, False, 0.12), (5, False, 0.10), (6, False, 0.08), (4, True, 0.13), (6, True, 0.09),
          (2, False, 0.08))
FULL = dict(passes=3, deals=40_000, worlds=128, label=0.5, batch=1000, hidden=8, epochs=8, restarts=3)
TINY = dict(passes=2, deals=120, worlds=8, label=0.5, batch=60, hidden=4, epochs=2, restarts=2)
BATCH, LEARNING_RATE, LR_DECAY = 2048, 3e-3, 0.7          # Adam's minibatch (decisions), step size, per-epoch decay


class Collector:
    """Plays every seat with the behaviour policy and labels a share of the decisions."""

    def __init__(self, model, worlds: int, label: float, label_rng: np.random.Generator):
        self.model, self.label, self.rng = model, label, label_rng
        self.rollout = RolloutPlay(worlds=worlds)
        self.odd = OddPlanner()
        self.rows: list[tuple] = []

    def play(self, view, rng):
        odd = self.odd.play(view, rng)
        act = odd if self.model is None else E.choose(view, self.model)
        legal = np.asarray(view.legal_bits)
        pick = (np.bitwise_count(legal) > 1) & (np.asarray(view.side) >= 0) & (self.rng.random(len(view)) < self.label)
        idx = np.flatnonzero(pick)
        for lo in range(0, len(idx), 256):          # the rollouts of 256 games at a time (memory)
            part = idx[lo:lo + 256]
            sub = view.take(part)
            values = self.rollout.values(sub, self.rng)
            self.rows.append((E.view_arrays(sub), view.trick_no, view.position, values.astype(np.float32), odd[part]))
        return act


def collect(model, cfg: dict, seed_seq: np.random.SeedSequence) -> list:
    """One pass of data: cfg['deals'] rounds over TABLES with the behaviour policy `model` (None: odd),
    as (table index, the views' arrays, trick, position, values, odd's choice) per labelled batch."""
    out: list = []
    for k, (players, partners, share) in enumerate(TABLES):
        deal_rng, play_rng, label_rng, chip_rng = (np.random.default_rng(s) for s in seed_seq.spawn(4))
        table = Table(players, partners, Rules())
        col = Collector(model, cfg["worlds"], cfg["label"], label_rng)
        n_deals = max(1, int(round(cfg["deals"] * share)))
        for lo in range(0, n_deals, cfg["batch"]):
            n = min(cfg["batch"], n_deals - lo)
            # a quarter of the rounds start from other chips (a Little Moon cannot take a chip below 0)
            chips = np.full((n, table.n_sides), 2, dtype=np.int16)
            other = chip_rng.random(n) < 0.25
            chips[other] = chip_rng.integers(0, 7, (int(other.sum()), table.n_sides))
            play(table, n, [col] * players, deal_rng, play_rng, chips=chips)
        out += [(k, *row) for row in col.rows]
    return out


def featurize(raw: list) -> dict:
    """The features of collected views (recomputed from their arrays) beside their labels."""
    out = []
    for k, arrays, trick_no, position, values, odd in raw:
        players, partners, _ = TABLES[k]
        x, ctx = E.features_of(arrays, Table(players, partners, Rules()), trick_no, position)
        out.append(dict(x=x, ctx=ctx, legal=arrays[1], values=values, odd=odd, table=np.full(len(ctx), k, np.int8)))
    return {key: np.concatenate([o[key] for o in out]) for key in out[0]}


E_BITS = ((np.arange(32)[:, None] >> np.arange(5)) & 1).astype(bool)


def scores(model: E.Model, x: np.ndarray, ctx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The model's hidden layer (M, 5, HD) and scores (M, 5), as the compiled loop computes them."""
    hidden = np.maximum(x @ model.w1 + model.b1[ctx][:, None, :], 0)
    return hidden, hidden @ model.w2


def fit(data: dict, cfg: dict, seed: int) -> E.Model:
    """The network fitted by Adam on minibatches: per decision, the scores minus their mean over
    the legal cards against the values minus theirs (squared error), from a seeded start."""
    rng = np.random.default_rng(seed)
    x, ctx = data["x"], data["ctx"]
    legal = E_BITS[data["legal"]].astype(np.float32)
    v = np.where(legal > 0, data["values"], 0).astype(np.float32)
    F, C, HD = E.N_FEATURES, E.N_CONTEXTS, cfg["hidden"]
    params = [rng.normal(0, 1 / np.sqrt(F), (F, HD)).astype(np.float32), np.zeros((C, HD), np.float32),
              rng.normal(0, 1 / np.sqrt(HD), HD).astype(np.float32)]
    moments = [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params]
    lr, step = LEARNING_RATE, 0
    for _ in range(cfg["epochs"]):
        order = rng.permutation(len(ctx))
        for lo in range(0, len(order), BATCH):
            idx = np.sort(order[lo:lo + BATCH])
            xb, cb, lb = x[idx], ctx[idx], legal[idx]
            hidden, s = scores(E.Model(*params), xb, cb)
            count = lb.sum(axis=1, keepdims=True)
            err = ((s - (s * lb).sum(axis=1, keepdims=True) / count)
                   - (v[idx] - (v[idx] * lb).sum(axis=1, keepdims=True) / count)) * lb
            g = 2 * err / len(idx)                                   # d loss / d score (already centred)
            gh = g[:, :, None] * params[2] * (hidden > 0)
            grads = [np.einsum("bkf,bkh->fh", xb, gh), np.zeros_like(params[1]), np.einsum("bkh,bk->h", hidden, g)]
            np.add.at(grads[1], cb, gh.sum(axis=1))
            step += 1
            for p, gp, m1, m2 in zip(params, grads, *moments):
                m1 *= 0.9
                m1 += 0.1 * gp
                m2 *= 0.999
                m2 += 0.001 * gp * gp
                p -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        lr *= LR_DECAY
    return E.Model(*params)


def loss(data: dict, model: E.Model) -> tuple[float, float, float]:
    """Mean chips a decision lost against the labels' best card: the expert's, odd's, and the
    share of decisions where the expert picks the labels' best."""
    legal = E_BITS[data["legal"]]
    v = np.where(legal, data["values"], -np.inf)
    pick = np.where(legal, scores(model, data["x"], data["ctx"])[1], -np.inf).argmax(axis=1)
    rows = np.arange(len(v))
    top = v.max(axis=1)
    return (float((top - v[rows, pick]).mean()), float((top - v[rows, data["odd"]]).mean()),
            float((v[rows, pick] == top).mean()))


def train(cfg: dict, seed: int, log=print) -> tuple[E.Model, dict]:
    """The passes of collect and fit; returns the weights and what to record beside them."""
    root = np.random.SeedSequence(seed)
    pass_seeds = root.spawn(cfg["passes"] + 1)
    held = featurize(collect(None, dict(cfg, deals=max(1, cfg["deals"] // 5)), pass_seeds[-1]))
    raw, model = [], None
    for p in range(cfg["passes"]):
        t0 = time.process_time()
        raw += collect(model, cfg, pass_seeds[p])
        data = featurize(raw)
        # a small network's fit depends on its start: the restart with the least loss on the held-out decisions
        fits = [fit(data, cfg, seed * 1000 + p * 10 + r) for r in range(cfg["restarts"])]
        model = min(fits, key=lambda m: loss(held, m)[0])
        lost, odd_lost, agree = loss(held, model)
        log(f"pass {p + 1}: {len(data['ctx']):,} labelled decisions, {time.process_time() - t0:.0f} CPU-s; held-out "
            f"({len(held['ctx']):,} decisions): expert loses {lost:.4f} chips a decision against the labels' best, "
            f"odd {odd_lost:.4f}; expert picks the best in {agree:.1%}")
    info = dict(decisions=len(data["ctx"]), held_out=len(held["ctx"]))
    return model, info


def save(path: Path, model: E.Model, cfg: dict, seed: int, info: dict) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, **model.fields(), seed=np.int64(seed), decisions=np.int64(info["decisions"]),
             **{k: np.int64(v) if isinstance(v, int) else np.float64(v) for k, v in cfg.items()})
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
    model, info = train(cfg, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save(args.out, model, cfg, args.seed, info)
    print(f"wrote {args.out} ({cfg}, seed {args.seed}) in {time.process_time() - t0:.0f} CPU-s")


if __name__ == "__main__":
    main()
