"""Narrower intervals for the same games: a control variate from the luck of the deal.

The covariate. Every hand of a whole game deals each seat a hand from a fresh shuffle, so the seats'
hands are exchangeable: any function f of one seat's hand has the same mean in every seat, whatever
happened before the deal. A seat's deal luck over a game,

    luck[seat] = sum over the game's hands of ( f(seat's hand) - mean of f over the other seats' hands ),

therefore has mean exactly 0 (each term has mean 0 given the past, and a game has at most max_hands
hands: optional stopping). f = weights . features (per-seat counts of each card or tile and a few shape
counts: suit lengths, doubles), the weights fitted by least squares on games of seeds no verb uses
(benchmarks/variance_bench.py fit, stored in variance_luck.json with the command and seed). A model
that fits a rule change or a table worse only helps less; the mean stays 0.

The estimate. For an outcome y per game (a paired difference of P(win), a skill edge) and covariates x
(the luck of the seats the outcome is about, in each arm), the games are split in two folds by their
index's parity; fold f's coefficient beta comes from the other fold's sums only (cross-fitting), and
its estimate is mean(y - beta . x) over fold f, with mean +- 1.96 SE from the residuals' variance. With
beta independent of the games it is applied to and E[x] = 0 exactly, the estimate is unbiased; coverage
is checked over many seeds in tests/test_variance.py. A fold with too few games keeps beta = 0 (the plain
estimate). Games whose deal this module has no features for (Hit the Deck: the slap races and draws, not
the deal, decide most of a hand's penalty points) get no covariate and keep the plain interval.

How much narrower, on seeds no fit saw, at equal games and at equal CPU time: benchmarks/variance_bench.py
(also in `make bench`; the CHANGELOG keeps the figures). The deal explains only part of a game's skill
edge, so no deal covariate reaches 2x; compare's per-deal differences are already paired on the deal,
which removes what it explains, so compare keeps its plain intervals.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from moonshot.analysis.stats import Z
from moonshot.simulator.runner import chunk_seeds, generators

FOLD = "fold"
WHATIF_NOTE = ("narrower: each seat's change in P(win) adjusted for the seat's luck of the deal in both rule sets (a "
               "control variate of mean exactly 0: each hand's features of its hand minus the other seats' mean, "
               "summed over the game; its coefficients fitted on the other half of the games), beside the plain "
               "estimate; ratio = the plain interval's width over the adjusted one's. Unbiased; the seats table "
               "and the findings keep the plain numbers.")
LAB_NOTE = ("narrower: the skill and random-edge changes adjusted for the strong seat's luck of the deal (a control "
            "variate of mean exactly 0: each hand's features of its hand minus the other seats' mean, summed over the "
            "game; its coefficient fitted on the other half of the games), beside the plain estimate; ratio = the "
            "plain interval's width over the adjusted one's. Unbiased; the ranked table and the findings keep the "
            "plain numbers.")
MIN_FOLD = 50                 # games a fold needs before its sums fit the other fold's coefficient
RIDGE = 1e-9                  # keeps a constant covariate (a fold where nothing varies) solvable
WEIGHTS = Path(__file__).with_name("variance_luck.json")


# --------------------------------------------------------------------------------------------
# per-seat hand features
# --------------------------------------------------------------------------------------------

def _counts(hands: np.ndarray, kinds: int) -> np.ndarray:
    """(n, P, kinds) how many of each card or tile each seat holds; hands (n, P, k)."""
    n, P, k = hands.shape
    cell = np.repeat(np.arange(n * P) * kinds, k) + hands.reshape(-1).astype(np.intp)
    return np.bincount(cell, minlength=n * P * kinds).reshape(n, P, kinds).astype(float)


def _moon_tables():
    from moonshot.simulator.moon import tiles
    ends = np.array([[tiles.has_end(t, k) for k in range(7)] for t in range(tiles.N_TILES)])
    return tiles.N_TILES, ends, np.array([tiles.is_double(t) for t in range(tiles.N_TILES)])


def moon_features(res, players: int) -> tuple[np.ndarray, int, np.ndarray]:
    """Moon: (tiles held (n, P, 7), 28 kinds counted one-hot, shape (n, P, 25): per pip the tiles with
    that end, the longest pip, doubles held, and squares)."""
    kinds, ends, double = _moon_tables()
    hands = np.asarray(res.hands)[:, :players].astype(np.intp)
    pip = ends[hands].sum(axis=2).astype(float)
    dbl = double[hands].sum(axis=2, keepdims=True).astype(float)
    longest = pip.max(axis=2, keepdims=True)
    return hands, kinds, np.concatenate([pip, longest, longest ** 2, pip ** 2, dbl, dbl ** 2, longest * dbl], axis=2)


def stm_features(res, players: int) -> tuple[np.ndarray, int, np.ndarray]:
    """Shoot the Moon: (cards held (n, P, 5), 52 kinds counted one-hot, shape (n, P, 21): per suit the
    cards held (Moons apart) and each suit's highest number, and squares)."""
    from moonshot.simulator.shoot_the_moon import cards
    hands = np.asarray(res.hands)[:, :players].astype(np.intp)
    suit, number = cards.SUIT[hands], cards.NUMBER[hands]
    suits = np.stack([(suit == k).sum(axis=2) for k in range(5)], axis=2).astype(float)
    high = np.stack([np.where(suit == k, number, 0).max(axis=2) for k in range(4)], axis=2).astype(float)
    return hands, cards.DECK_SIZE, np.concatenate([suits, suits ** 2, high, high ** 2,
                                                   suits.max(axis=2, keepdims=True)], axis=2)


# the games whose deal explains enough of a game to pay; a game not here gets no covariate. Each gives
# per hand (what each seat holds, how many kinds there are, shape features); the features are the
# one-hot counts of the kinds followed by the shape features.
FEATURES = {"moon": moon_features, "shoot-the-moon": stm_features}


@lru_cache(maxsize=None)
def _stored() -> dict:
    return json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}


def weights(game: str) -> np.ndarray | None:
    entry = _stored().get(game)
    return None if entry is None else np.asarray(entry["weights"], dtype=float)


def relative(per_seat: np.ndarray) -> np.ndarray:
    """(n, P, ...): each seat's value minus the mean of the other seats' (mean 0 when seats are exchangeable)."""
    P = per_seat.shape[1]
    return (per_seat * P - per_seat.sum(axis=1, keepdims=True)) / (P - 1)


def _summed(game: str, g, n: int, players: int, each) -> np.ndarray | None:
    """Sum over the game's hands (GameResult.hand_log, keep_hands=True) of each(hands, kinds, shape),
    per game: None for a game with no features."""
    feature = FEATURES.get(game)
    if feature is None or not g.hand_log:
        return None
    total = None
    for active, res in g.hand_log:
        f = each(*feature(res, players))
        if total is None:
            total = np.zeros((n, *f.shape[1:]))
        total[np.asarray(active, dtype=np.intp)] += f         # a hand's games are distinct
    return total


def game_features(game: str, g, n: int, players: int) -> np.ndarray | None:
    """(n, P, k): each seat's features summed over the game's hands, relative to the other seats."""
    total = _summed(game, g, n, players, lambda hands, kinds, shape: np.concatenate([_counts(hands, kinds), shape], 2))
    return None if total is None else relative(total)


def luck(game: str, g, n: int, players: int, w: np.ndarray | None = None) -> np.ndarray | None:
    """(n, P) each seat's deal luck over the game (mean exactly 0, see the module docstring), or None
    when the game has no stored model: game_features @ w, each hand's one-hot part read off w."""
    w = weights(game) if w is None else w
    if w is None or game not in FEATURES:
        return None

    def score(hands, kinds, shape):
        if kinds + shape.shape[2] != len(w):
            raise ValueError(f"{game}'s stored luck weights do not fit its features; run variance_bench.py fit")
        return w[:kinds][hands].sum(axis=2) + shape @ w[kinds:]
    total = _summed(game, g, n, players, score)
    return None if total is None else relative(total)


def model(setup) -> np.ndarray | None:
    """The stored luck weights of `setup`'s game, or None (no features or no weights): whether a
    verb plays its games with keep_hands to compute the luck."""
    name = setup.entry.name
    return weights(name) if name in FEATURES else None


def seat_luck(setup, g, size: int) -> np.ndarray | None:
    """(size, P) every seat's deal luck over the games `g` (played with keep_hands), or None."""
    return luck(setup.entry.name, g, size, setup.table.players)


def tally_seats(tally, name: str, change: np.ndarray, lucks: list[np.ndarray]) -> None:
    """Per seat, the sums of a per-game change (n, P) with each arm's luck of that seat (n, P each)
    as covariates: tables `name`_<seat> keyed by fold."""
    change = np.asarray(getattr(change, "values", change), dtype=float)
    for seat in range(change.shape[1]):
        tally.add(f"{name}_{seat}", folds(len(change)), sums(change[:, seat], np.stack([x[:, seat] for x in lucks], 1)))


def row(a: dict, metric: str) -> dict:
    """A row of a `narrower` table: the adjusted change as the other tables give a change, and the
    plain interval's width over its own (`ratio`)."""
    return {"metric": metric, "estimate": a["estimate"], "n": a["n"], "ci_low": a["ci_low"], "ci_high": a["ci_high"],
            "kind": "change", "ratio": a["ratio"]}


def seat_rows(t, name: str, metric: str, plain: pd.DataFrame) -> pd.DataFrame | None:
    """The `narrower` table of a what-if: per seat of `plain` (the plain rows), the adjusted change,
    or None when the tally has no covariate sums."""
    rows = []
    for seat in plain["seat"]:
        if f"{name}_{int(seat)}" not in t.tables:
            return None
        a = adjusted(t.get(f"{name}_{int(seat)}"))
        if a["n"] != int(plain[plain["seat"] == seat]["n"].iloc[0]):
            return None         # a run store's chunks from before the covariate: not every game has it
        rows.append({"seat": int(seat), **row(a, metric)})
    return pd.DataFrame(rows) if rows else None


# --------------------------------------------------------------------------------------------
# the cross-fitted estimate from tallied sums
# --------------------------------------------------------------------------------------------

def folds(n: int) -> dict[str, np.ndarray]:
    """The tally key: game i of a chunk in fold i % 2 (chunks are even-sized but the last)."""
    return {FOLD: (np.arange(n) % 2).astype(np.int8)}


def sums(y: np.ndarray, x: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns whose sums (per fold) the estimate needs: y, x_i, x_i*x_j, x_i*y (x (n, k))."""
    y = np.asarray(getattr(y, "values", y), dtype=float)
    x = np.asarray(x, dtype=float).reshape(len(y), -1)
    k = x.shape[1]
    out = {"y": y, **{f"x{i}": x[:, i] for i in range(k)}, **{f"x{i}y": x[:, i] * y for i in range(k)}}
    out.update({f"x{i}x{j}": x[:, i] * x[:, j] for i in range(k) for j in range(i, k)})
    return out


def _moments(row: pd.Series, k: int) -> tuple[float, float, float, np.ndarray, np.ndarray, np.ndarray]:
    """n, mean y, var y, mean x, cov(x, y), cov(x) of one fold (divisor n)."""
    n = float(row["n"])
    my = row["y"] / n
    vy = row["y__sq"] / n - my ** 2
    mx = np.array([row[f"x{i}"] for i in range(k)]) / n
    cxy = np.array([row[f"x{i}y"] for i in range(k)]) / n - mx * my
    cxx = np.empty((k, k))
    for i in range(k):
        for j in range(i, k):
            cxx[i, j] = cxx[j, i] = row[f"x{i}x{j}"] / n - mx[i] * mx[j]
    return n, my, vy, mx, cxy, cxx


def adjusted(summed: pd.DataFrame) -> dict[str, float]:
    """The cross-fitted control-variate estimate of E[y] from the per-fold sums (a table keyed by
    FOLD, columns from `sums`): estimate, ci_low, ci_high, n, and the plain estimate's half-width over
    this one's (`ratio`). A fold with fewer than MIN_FOLD games, or a single fold, fits nothing."""
    k = sum(1 for c in summed.columns if c.startswith("x") and c[1:].isdigit())
    rows = {int(f): summed.loc[f] for f in summed.index}
    m = {f: _moments(r, k) for f, r in rows.items()}
    n_all = sum(v[0] for v in m.values())
    total = resid_var = plain_sum = plain_sq = 0.0
    fitted = False
    for f, (n, my, vy, mx, cxy, cxx) in m.items():
        other = m.get(1 - f)
        beta = np.zeros(k)
        if other is not None and other[0] >= MIN_FOLD and n >= MIN_FOLD:
            beta = np.linalg.solve(other[5] + RIDGE * np.eye(k), other[4])
            fitted = True
        total += n * (my - beta @ mx)                       # E[x] = 0 exactly: no centring by the sample
        # variance of r = y - beta.x about its own mean, then about 0-centred x: the same SE formula
        # as mean_ci (divisor n - 1)
        v = vy - 2 * beta @ cxy + beta @ cxx @ beta
        resid_var += n * max(v, 0.0) * n / max(n - 1, 1)
        plain_sum += n * my
        plain_sq += n * (vy + my ** 2)
    est = total / n_all
    half = Z * np.sqrt(resid_var) / n_all
    plain_var = (plain_sq / n_all - (plain_sum / n_all) ** 2) * n_all / max(n_all - 1, 1)
    plain_half = Z * np.sqrt(max(plain_var, 0.0) / n_all)
    if not fitted:              # nothing fitted: the plain estimate and interval, exactly
        est, half = plain_sum / n_all, plain_half
    if n_all < 2:
        half = plain_half = np.nan
    return {"estimate": est, "ci_low": est - half, "ci_high": est + half, "n": int(n_all),
            "ratio": plain_half / half if half > 0 else np.nan}


def skill_games(setup, n: int, seed: int, index: int = 0):
    """The lab's skill lineup on chunk `index`'s streams (the game's default strategy in seat 0, the
    lab's baseline in the others): (seat 0's win less the others' mean win, per game; the games)."""
    hooks, table = setup.hooks, setup.table
    P = table.players
    lineup = [setup.strategy(setup.entry.default_strategy)] + [setup.strategy(hooks.lab_baseline)] * (P - 1)
    g = hooks.play_games(setup, lineup, generators(chunk_seeds(seed, index, setup.entry.streams)), n,
                         keep_hands=True)
    wins = hooks.wins(setup, g)[:, table.side_of_seat[:P]].astype(float)
    return wins[:, 0] - wins[:, 1:].mean(axis=1), g
