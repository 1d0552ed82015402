"""Training data for Moon's `expert` player (strategies/moon_expert.py), from a seed.

Play decisions: hands are played by a lineup (threshold, or the expert itself: DAgger), and a share of
the play decisions, each from the mover's own view, is valued by `pimc` (every legal tile's expected
score over its worlds, strategies/moon_search.py). What is kept is the view's raw arrays (so the
features can change without new labels) and the values from the mover's side (NaN where illegal).

Bid decisions need no search: a deal is played with seat 0 forced to bid (a random level, a given
trump), everyone playing the lineup's play; the bidder's tricks are the label
(benchmarks/train_moon_expert.py fits the trick model from them).
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.moon import engine
from moonshot.simulator.moon.rules import Rules
from moonshot.simulator.moon.views import PlayView
from moonshot.strategies.moon_search import PimcMoon

SEATS = 4          # raw arrays are padded to the largest table
SIDES = 3
RAW_FIELDS = ("trick_no", "position", "seat", "hand", "live_bits", "legal_bits", "trump", "bidder", "bid", "trick",
              "trick_seats", "led_suit", "winning_seat", "winning_power", "tricks", "seen_bits", "void_bits",
              "discard")


def _pad(a: np.ndarray, width: int, fill=-1) -> np.ndarray:
    out = np.full((len(a), width), fill, dtype=a.dtype)
    out[:, :a.shape[1]] = a
    return out


class PlayRecorder:
    """Plays as `base`; values a share `p` of the decisions that have a choice with `labeller` (pimc)."""

    def __init__(self, base, labeller: PimcMoon, p: float, rng: np.random.Generator):
        self.base, self.labeller, self.p, self.rng = base, labeller, p, rng
        self.rows: list[dict] = []

    def __getattr__(self, name):             # every other decision is the base player's
        return getattr(self.base, name)

    def play(self, view: PlayView, rng) -> np.ndarray:
        choice = self.base.play(view, rng)
        legal = np.asarray(view.legal)
        pick = np.flatnonzero((legal.sum(axis=1) > 1) & (self.rng.random(len(view)) < self.p))
        for i in pick:
            moves, score, mover_bids = self.labeller.move_values(view, int(i), self.rng)
            values = np.full(7, np.nan)
            hand, live = np.asarray(view.hand[i]), np.asarray(view.live[i])
            for (tile, _end), v in zip(moves, score):
                slot = np.flatnonzero((hand == tile) & live)[0]
                values[slot] = v if mover_bids else -v
            row = {"players": view.players, "values": values}
            for f in RAW_FIELDS:
                a = getattr(view, f)
                row[f] = np.asarray(a[i]) if isinstance(a, np.ndarray) else a
            self.rows.append(row)
        return choice


def stack(rows: list[dict]) -> dict[str, np.ndarray]:
    """The recorded rows as arrays (padded to 4 seats, 3 sides); {"values": empty} when none."""
    if not rows:
        return {"values": np.zeros((0, 7))}
    out = {}
    for key in ["players", "values", *RAW_FIELDS]:
        vals = [r[key] for r in rows]
        if key in ("trick", "trick_seats", "void_bits"):
            vals = [_pad(np.asarray(v)[None], SEATS, 0 if key == "void_bits" else -1)[0] for v in vals]
        elif key == "tricks":
            vals = [_pad(np.asarray(v)[None], SIDES, 0)[0] for v in vals]
        out[key] = np.array(vals)
    return out


def collect_play(players: int, hands: int, lineup_of, seed: int, p: float = 0.25, worlds: int = 32,
                 rules: Rules | None = None, batch: int = 64) -> dict[str, np.ndarray]:
    """Play `hands` hands in batches; value a share p of the play decisions with pimc."""
    table = engine.Table(players, rules or Rules())
    ss = np.random.SeedSequence(seed)
    rows: list[dict] = []
    for b, child in enumerate(ss.spawn((hands + batch - 1) // batch)):
        deal_rng, play_rng, label_rng = (np.random.default_rng(s) for s in child.spawn(3))
        base = lineup_of(players)
        rec = PlayRecorder(base, PimcMoon(worlds=worlds), p, label_rng)
        engine.play(table, min(batch, hands - b * batch), [rec] * players, deal_rng, play_rng)
        rows += rec.rows
    return stack(rows)


if __name__ == "__main__":
    import argparse
    import time
    from moonshot.strategies.base import make_strategy
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lineup", default="threshold")
    ap.add_argument("--p", type=float, default=0.25)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    t0 = time.process_time()
    data = collect_play(a.players, a.hands, lambda P: make_strategy("moon", a.lineup, ("bid", "discard", "trump",
                                                                                         "play")),
                        a.seed, a.p, a.worlds)
    np.savez_compressed(a.out, **data)
    print(f"{len(data['values'])} decisions from {a.hands} hands in {time.process_time() - t0:.0f} CPU-s -> {a.out}")
