"""Moon expert's trick model: P(the hand's side takes 0..7 tricks) for a hand and a trump.

A small network over the hand's tiles by their role under the trump and two joint counts. Its
first layer is a sum of rows (one per tile's role and per count: the inputs are one-hot), so a
hand costs nine row additions, a ReLU and a 32 x 8 product; one compiled pass values every hand
of a batch under each trump (and, for the discard, each of the eight hands it can keep).

Roles (ROLE[trump, tile], an index into a family's 28 rows): under a number trump t the trumps by
rank (double first) then the other 21 tiles with their numbers renumbered 0..5 in order (every
number trump is the same game up to that renumbering); under doubles the doubles by rank then the
others; in no-trump the tile itself. Counts: (trumps held, how many of the top trumps held in an
unbroken run) and (off-suit doubles held, trumps held in pairs).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.solver import KERNEL, popcount
from moonshot.strategies.moon import IS_TRUMP

N_TILES, N_TRUMPS, TRICKS = dominoes.N_TILES, dominoes.N_TRUMPS, dominoes.TRICKS
CLASSES = TRICKS + 1            # 0..7 tricks
FAMILIES = 3                    # a number trump, doubles, no-trump: the tiles' roles differ
ROLE_ROWS = FAMILIES * 28
RUN_ROWS = 8 * 8                # (trumps held 0..7) x (top trumps held in a run 0..7)
DOUBLE_ROWS = 5 * 4             # (off-suit doubles 0..4+) x (trumps held // 2)
INPUTS = ROLE_ROWS + RUN_ROWS + DOUBLE_ROWS
HIDDEN = 32


def _roles() -> np.ndarray:
    out = np.zeros((N_TRUMPS, N_TILES), dtype=np.int64)
    for tile in range(N_TILES):
        a, b = dominoes.TILES[tile]
        for t in range(7):
            if t in (a, b):
                other = a if b == t else b
                out[t, tile] = 0 if a == b else 1 + sum(1 for o in range(6, other, -1) if o != t)
            else:
                ra, rb = (p - (p > t) for p in (a, b))
                out[t, tile] = 7 + ra * (ra + 1) // 2 + rb
        out[dominoes.DOUBLES, tile] = 6 - a if a == b else 7 + a * (a - 1) // 2 + b
        out[dominoes.NOTRUMP, tile] = a * (a + 1) // 2 + b
    family = np.array([0] * 7 + [1, 2])
    return out + 28 * family[:, None]


ROLE = _roles()                                                  # (9, 28)
OFF_DOUBLE = (dominoes.IS_DOUBLE[:, None] & ~IS_TRUMP).astype(np.int64)


# TRUMP_BIT[t, tile]: the tile's bit by rank among the trumps of t (0 if not a trump), for the run count
TRUMP_BIT = np.where(IS_TRUMP.T, np.int64(1) << (ROLE % 28), 0).astype(np.int64)      # (9, 28)


@njit(cache=True, inline="always")
def _counts(hand, k, skip, t, trump_bit, off_double):
    """The two count rows of the hand's first k tiles but slot `skip` (-1: none) under trump t
    (no branch per tile: this runs for every hand, trump and kept hand)."""
    held = 0
    n_double = 0
    for j in range(k):
        keep = j != skip
        held |= trump_bit[t, hand[j]] * keep
        n_double += off_double[hand[j], t] * keep
    n_trump = popcount(held)
    run = popcount(held ^ (held + 1)) - 1            # the top trumps held in an unbroken run
    return ROLE_ROWS + n_trump * 8 + run, ROLE_ROWS + RUN_ROWS + min(n_double, 4) * 4 + min(n_trump // 2, 3)


# The kernels allocate nothing (scratch comes from the caller), so they run as the solver's do, without
# numba's reference counting (KERNEL).


@njit(fastmath=True, **KERNEL)        # finite sums only: the row additions and products vectorize
def values(hands, skip, trumps, points, role, trump_bit, off_double, w1, b1, w2t, b2, out, scratch):
    """out[i, a, d, b] = the expected outcome of hand i less its slot skip[i, a, d] (-1: none) under
    trump trumps[i, a] and scoring points[i or 0, b] (outcome by tricks 0..7). The first layer of
    all the hand's tiles is summed once per trump; each kept hand takes its dropped tile's row off.
    w2t is the second layer transposed (classes, hidden): each class's sum runs over contiguous memory.
    The network runs in single precision (float32 weights): twice the lanes per vector instruction;
    scratch is (3, max(hidden, classes)) float32."""
    n, width = hands.shape
    H = w1.shape[1]
    zero = np.float32(0.0)
    base, hidden, p = scratch[0], scratch[1], scratch[2]
    for i in range(n):
        pts = points[min(i, points.shape[0] - 1)]
        for a in range(trumps.shape[1]):
            t = trumps[i, a]
            for h in range(H):
                base[h] = b1[h]
            for j in range(width):
                r = role[t, hands[i, j]]
                for h in range(H):
                    base[h] += w1[r, h]
            for d in range(skip.shape[2]):
                s = skip[i, a, d]
                r1, r2 = _counts(hands[i], width, s, t, trump_bit, off_double)
                r0 = role[t, hands[i, s]] if s >= 0 else r1
                drop = np.float32(1.0) if s >= 0 else zero      # no branch inside the row sums
                for h in range(H):
                    v = base[h] + w1[r1, h] + w1[r2, h] - drop * w1[r0, h]
                    hidden[h] = max(v, zero)
                top = np.float32(-1e30)
                for c in range(CLASSES):
                    v = b2[c]
                    for h in range(H):
                        v += hidden[h] * w2t[c, h]
                    p[c] = v
                    top = max(top, v)
                total = zero
                for c in range(CLASSES):
                    p[c] = np.exp(p[c] - top)
                    total += p[c]
                for b in range(pts.shape[0]):
                    v = 0.0
                    for c in range(CLASSES):
                        v += p[c] * pts[b, c]
                    out[i, a, d, b] = v / total


def design(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """(n, INPUTS) float32 one-hot rows of the inputs (training: the first layer is this times w1)."""
    n, k = hand.shape
    rows = np.zeros((n, k + 2), dtype=np.int64)
    _design_rows(hand.astype(np.int64), trump.astype(np.int64), ROLE, TRUMP_BIT, OFF_DOUBLE, rows)
    X = np.zeros((n, INPUTS), dtype=np.float32)
    np.add.at(X, (np.arange(n)[:, None], rows), 1.0)
    return X


@njit(**KERNEL)
def _design_rows(hand, trump, role, trump_bit, off_double, rows):
    k = hand.shape[1]
    for i in range(hand.shape[0]):
        for j in range(k):
            rows[i, j] = role[trump[i], hand[i, j]]
        rows[i, k], rows[i, k + 1] = _counts(hand[i], k, -1, trump[i], trump_bit, off_double)


def expected(weights: dict, hands: np.ndarray, trumps: np.ndarray, points: np.ndarray,
             skip: np.ndarray | None = None) -> np.ndarray:
    """(n, T, D, B) expected outcome: hands (n, k) under each trump (T,) or each game's own trumps
    (n, T), less the slot skip[i, a, d] (-1 or None: keep every tile), for each scoring row of points
    ((n or 1, B, 8): the outcome by tricks)."""
    n = len(hands)
    trumps = np.ascontiguousarray(np.broadcast_to(np.asarray(trumps, dtype=np.int64), (n, np.shape(trumps)[-1])))
    skip = np.full((n, trumps.shape[1], 1), -1, dtype=np.int64) if skip is None else \
        np.ascontiguousarray(skip, dtype=np.int64)
    out = np.zeros((n, trumps.shape[1], skip.shape[2], points.shape[1]))
    H = np.shape(weights["b1"])[0]
    values(np.ascontiguousarray(hands, dtype=np.int64), skip, trumps,
           np.ascontiguousarray(points, dtype=np.float64), ROLE, TRUMP_BIT, OFF_DOUBLE,
           *(np.ascontiguousarray(weights[k], dtype=np.float32) for k in ("w1", "b1")),
           np.ascontiguousarray(weights["w2"].T, dtype=np.float32), np.asarray(weights["b2"], dtype=np.float32), out,
           np.zeros((3, max(H, CLASSES)), dtype=np.float32))
    return out


def chances(weights: dict, hands: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """(n, T, 8) P(0..7 tricks) under each trump: `expected` with one scoring row per trick count."""
    return expected(weights, hands, trumps, np.eye(CLASSES)[None])[:, :, 0]


def lowest_slots(values: np.ndarray, k: int) -> np.ndarray:
    """(n, T, k) the slots of the k lowest of values (n, T, m), lowest first, the earlier slot first
    on a tie: np.argsort(values, axis=2, kind="stable")[:, :, :k] without sorting all m."""
    out = np.empty(values.shape[:2] + (k,), dtype=np.int64)
    _lowest_slots(values, out)
    return out


@njit(**KERNEL)
def _lowest_slots(values, out):
    n, T, m = values.shape
    k = out.shape[2]
    for i in range(n):
        for a in range(T):
            row = values[i, a]
            filled = 0
            for j in range(m):
                v = row[j]
                if filled == k and v >= row[out[i, a, k - 1]]:
                    continue
                pos = min(filled, k - 1)            # insert after every kept slot of a value <= v
                while pos > 0 and row[out[i, a, pos - 1]] > v:
                    out[i, a, pos] = out[i, a, pos - 1]
                    pos -= 1
                out[i, a, pos] = j
                filled = min(filled + 1, k)
