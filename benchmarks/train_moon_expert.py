"""Fit Moon's `expert` player (strategies/moon_expert.py) from a seed and write its model file.

    python benchmarks/train_moon_expert.py [--seed 2026] [--rounds 2] [--play-hands 3p,4p] [--bid-deals N]
                                           [--out strategies/models/moon_expert.npz]

Each round:
  1. play decisions: hands played by the current player (threshold in round 0, then the expert as
     fitted so far: the states it reaches itself), a share of the decisions valued by `pimc` from the
     mover's own view (benchmarks/moon_expert_data.py); the play weights are refitted on every
     round's decisions so far, by the expected regret of a softmax over the legal tiles;
  2. the trick models: deals with seat 0 made to bid (a random level) in every allowed trump, its
     discard the expert's, everyone playing the new play weights; a multinomial logit of the tricks
     taken on the hand's tiles (before the widow and after the discard, 3 players; 4 players).
Everything is seeded from --seed; the same seed and sizes rebuild the same file.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.simulator.moon import engine  # noqa: E402
from moonshot.simulator.moon import tiles as dominoes  # noqa: E402
from moonshot.simulator.moon.rules import Rules  # noqa: E402
from moonshot.strategies import moon_expert as ex  # noqa: E402
from moonshot.strategies import moon_expert_bid as tm  # noqa: E402
from moonshot.strategies import moon_expert_play as mp  # noqa: E402
from moonshot.strategies.base import make_strategy  # noqa: E402
from moonshot.strategies.moon import FixedTrump  # noqa: E402

DECISIONS = ("bid", "discard", "trump", "play")


# ------------------------------------------------------------------------------------ play weights

def play_arrays(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features (n, 7, F), situation (n,), values (n, 7)) of recorded decisions (one table size)."""
    P = int(data["players"][0])
    view = SimpleNamespace(players=P, rules=Rules(), side_of_seat=np.array(dominoes.side_of_seats(P), dtype=np.int8),
                           legal=None, live=None, **{k: data[k] for k in (
                               "trick_no", "position", "hand", "live_bits", "legal_bits", "trump", "seat", "bidder",
                               "bid", "led_suit", "winning_seat", "winning_power", "tricks", "seen_bits",
                               "void_bits", "discard")})
    X, S = mp.play_features(view)
    return X, S, data["values"]


def fit_play(X, S, V, steps: int = 800, lr: float = 0.05, l2: float = 1e-4) -> np.ndarray:
    """(SITUATIONS, F) weights minimising the expected regret (best value less the tile's) of a
    softmax over the legal tiles; Adam, full batch (deterministic)."""
    legal = ~np.isnan(V)
    R = np.where(legal, np.nanmax(V, axis=1, keepdims=True) - V, 0.0)
    W = np.zeros((mp.SITUATIONS, mp.F))
    m1, m2 = np.zeros_like(W), np.zeros_like(W)
    n = len(X)
    for it in range(1, steps + 1):
        z = np.where(legal, np.einsum("njf,nf->nj", X, W[S]), -1e9)
        p = np.exp(z - z.max(axis=1, keepdims=True)) * legal
        p /= p.sum(axis=1, keepdims=True)
        er = (p * R).sum(axis=1)
        g = _by_row(S, np.einsum("nj,njf->nf", p * (R - er[:, None]), X), mp.SITUATIONS) / n + l2 * W
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        W -= lr * (m1 / (1 - 0.9 ** it)) / (np.sqrt(m2 / (1 - 0.999 ** it)) + 1e-8)
    return W.astype(np.float32)


def _by_row(rows: np.ndarray, values: np.ndarray, n_rows: int) -> np.ndarray:
    """(n_rows, k) the sums of values' (m, k) rows by their row index (np.add.at, faster)."""
    return np.stack([np.bincount(rows, weights=values[:, c], minlength=n_rows) for c in range(values.shape[1])],
                    axis=1)


def regret(X, S, V, W) -> float:
    """Mean loss (best value less the chosen tile's) of playing the argmax under W."""
    legal = ~np.isnan(V)
    pick = np.where(legal, np.einsum("njf,nf->nj", X, W[S]), -np.inf).argmax(axis=1)
    return float((np.nanmax(V, axis=1) - V[np.arange(len(V)), pick]).mean())


# ------------------------------------------------------------------------------------ trick models

def collect_tricks(players: int, deals: int, expert, seed: int) -> dict[str, np.ndarray]:
    """Seat 0 bids (a random level) in every allowed trump on the same deals; its dealt hand, kept
    hand, trump and its side's tricks, everyone playing `expert`."""
    table = engine.Table(players, Rules())
    rng = np.random.default_rng(seed)
    hands, widow = engine.deal(rng, deals, table)
    levels = np.array([4, 5, 6, 7, 21])
    out = {k: [] for k in ("pre", "post", "trump", "tricks")}
    bidder = np.zeros(deals, dtype=np.int64)
    side = table.side_of_seat[0]
    for t in np.flatnonzero(table.allowed_trumps):
        bid = levels[rng.integers(0, len(levels), deals)]
        lineup = [FixedTrump(expert, int(t))] + [expert] * (players - 1)
        h7, disc, trump = engine.widow_and_trump(table, hands, widow, bidder, bid, lineup, rng)
        res = engine.play_tricks(table, h7, bidder, bid, trump, [expert] * players, rng, discard=disc)
        out["pre"].append(hands[:, 0])
        out["post"].append(h7[:, 0])
        out["trump"].append(np.full(deals, t))
        out["tricks"].append(res.tricks[:, side])
    return {k: np.concatenate(v) for k, v in out.items()}


def fit_tricks(hand: np.ndarray, trump: np.ndarray, tricks: np.ndarray, seed: int, steps: int = 3000,
               batch: int = 4096, lr: float = 3e-3) -> dict[str, np.ndarray]:
    """The trick model's weights (moon_expert_bid): maximum likelihood of the tricks taken, Adam on
    minibatches drawn from `seed`, the last 500 steps' weights averaged (all of them for fewer steps)."""
    rng = np.random.default_rng(seed)
    tail = min(500, steps)
    X = tm.design(hand, trump)
    Y = np.eye(tm.CLASSES, dtype=np.float32)[tricks]
    W = {"w1": rng.normal(0, 0.1, (tm.INPUTS, tm.HIDDEN)), "b1": np.zeros(tm.HIDDEN),
         "w2": rng.normal(0, 0.1, (tm.HIDDEN, tm.CLASSES)), "b2": np.zeros(tm.CLASSES)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in W.items()}
    average = {k: np.zeros_like(v) for k, v in W.items()}
    for it in range(1, steps + 1):
        rows = rng.integers(0, len(X), batch)
        x, y = X[rows], Y[rows]
        pre = x @ W["w1"] + W["b1"]
        h = np.maximum(pre, 0)
        z = h @ W["w2"] + W["b2"]
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        dz = (p - y) / batch
        dh = (dz @ W["w2"].T) * (pre > 0)
        grads = {"w1": x.T @ dh, "b1": dh.sum(axis=0), "w2": h.T @ dz, "b2": dz.sum(axis=0)}
        for k, g in grads.items():
            m1, m2 = moments[k]
            m1 *= 0.9
            m1 += 0.1 * g
            m2 *= 0.999
            m2 += 0.001 * g * g
            W[k] -= lr * (m1 / (1 - 0.9 ** it)) / (np.sqrt(m2 / (1 - 0.999 ** it)) + 1e-8)
            if it > steps - tail:
                average[k] += W[k] / tail
    return average


def log_loss(weights, hand: np.ndarray, trump: np.ndarray, tricks: np.ndarray) -> float:
    """Mean negative log-likelihood of the tricks taken under the trick model."""
    p = np.zeros((len(hand), tm.CLASSES))
    for t in np.unique(trump):
        r = trump == t
        p[r] = tm.chances(weights, hand[r], np.array([t]))[:, 0]
    return float(-np.log(p[np.arange(len(tricks)), tricks] + 1e-12).mean())


# ------------------------------------------------------------------------------------ the rounds

class Trainee:
    """The player being fitted: `chooser`'s bid, discard and trump, `player`'s play."""

    def __init__(self, chooser, player):
        self.chooser, self.player = chooser, player

    def __getattr__(self, name):             # bid, discard and trump
        return getattr(self.chooser, name)

    def play(self, view, rng):
        return self.player.play(view, rng)


def model_arrays(play: dict[int, np.ndarray], tricks: dict[str, tuple]) -> dict[str, np.ndarray]:
    arrays = {"format": np.array(ex.FORMAT)}
    for P, W in play.items():
        arrays[f"p{P}_play"] = W
    for key, weights in tricks.items():
        for part, w in weights.items():
            arrays[f"{key}_{part}"] = w.astype(np.float32)
    return arrays


def train(seed: int, rounds: int, play_hands: dict[int, int], bid_deals: int, worlds: int, share: float,
          trick_steps: int = 3000, log=print) -> dict[str, np.ndarray]:
    from moon_expert_data import collect_play
    threshold = make_strategy("moon", "threshold", DECISIONS)
    seeds = iter(np.random.SeedSequence(seed).generate_state(8 * rounds + 8))
    recorded: dict[int, list] = {P: [] for P in play_hands}
    play_w = {P: np.zeros((mp.SITUATIONS, mp.F), dtype=np.float32) for P in play_hands}
    tricks: dict[str, tuple] = {}
    expert = None
    for r in range(rounds):
        for P, hands in play_hands.items():
            t0 = time.process_time()
            lineup = threshold if expert is None else expert
            recorded[P].append(collect_play(P, hands, lambda _: lineup, int(next(seeds)), share, worlds))
            rounds_so_far = [d for d in recorded[P] if len(d["values"])]     # (a tiny run's player may pass every hand)
            X, S, V = play_arrays({k: np.concatenate([d[k] for d in rounds_so_far]) for k in rounds_so_far[0]})
            play_w[P] = fit_play(X, S, V)
            log(f"round {r}, {P} players: {len(X):,} play decisions valued by pimc; in-sample regret "
                f"{regret(X, S, V, play_w[P]):.4f} points a decision ({time.process_time() - t0:.0f} CPU-s)")
        # the trick models under the new play; the discard and trump the last round's (threshold's at first)
        plays = ex.ExpertMoon.with_model(ex.Model(model_arrays(play_w, tricks or _blank_tricks())))
        chooser = plays if tricks else threshold
        for P in play_hands:
            t0 = time.process_time()
            data = collect_tricks(P, bid_deals, Trainee(chooser, plays), int(next(seeds)))
            for stage in ("pre", "post") if P == 3 else ("post",):
                key = f"p{P}_{stage}"
                tricks[key] = fit_tricks(data[stage], data["trump"], data["tricks"], int(next(seeds)), trick_steps)
                log(f"round {r}, {P} players, trick model {stage}: {len(data['tricks']):,} hands, log loss "
                    f"{log_loss(tricks[key], data[stage], data['trump'], data['tricks']):.4f} "
                    f"({time.process_time() - t0:.0f} CPU-s)")
        expert = ex.ExpertMoon.with_model(ex.Model(model_arrays(play_w, tricks)))
    return model_arrays(play_w, tricks)


def _blank_tricks() -> dict[str, dict]:
    zero = {"w1": np.zeros((tm.INPUTS, tm.HIDDEN)), "b1": np.zeros(tm.HIDDEN), "w2": np.zeros((tm.HIDDEN, tm.CLASSES)),
            "b2": np.zeros(tm.CLASSES)}
    return {key: zero for key in ex.TRICK_MODELS}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--play-hands", default="3:16000,4:12000", help="hands played per round and table size")
    ap.add_argument("--bid-deals", type=int, default=60000, help="deals per round, table size and trump")
    ap.add_argument("--worlds", type=int, default=48, help="pimc's worlds for each valued decision")
    ap.add_argument("--share", type=float, default=0.5, help="share of the play decisions valued")
    ap.add_argument("--trick-steps", type=int, default=3000, help="minibatch steps fitting each trick model")
    ap.add_argument("--out", type=Path, default=ex.MODEL_PATH)
    a = ap.parse_args(argv)
    play_hands = {int(p): int(h) for p, h in (x.split(":") for x in a.play_hands.split(","))}
    t0 = time.process_time()
    arrays = train(a.seed, a.rounds, play_hands, a.bid_deals, a.worlds, a.share, a.trick_steps,
                   log=lambda text: print(text, flush=True))
    tmp = a.out.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(a.out)
    print(f"wrote {a.out} ({time.process_time() - t0:.0f} CPU-s)")


if __name__ == "__main__":
    main()
