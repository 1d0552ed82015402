"""Helpers shared by the batch engines (simulator.moon.engine, simulator.shoot_the_moon.engine).

Slot masks. A hand is a few fixed slots (7 tiles, 5 cards); a set of slots (legal, live, the
Big Moons...) is a small integer with bit i set for slot i, so the per-step rules are a few (n,)
operations and the tables below turn a mask into what a strategy needs with one gather.

Strategies. Seats that share one strategy object form a group and are asked together, once per
decision, for the games where one of their seats decides (`groups`, `ask`); every answer is
checked for shape and legality by the caller's `check`, which names the strategy when it fails.

Deals. `partial_shuffle` is the Fisher-Yates shuffle both engines deal with; each engine draws
its random offsets its own way (the draws fix the numbers a seed gives).

Game subsets. Functions that work on some games of a batch take `idx`: the indices of those
games, or None for every game (then `take` returns the array itself and `put` writes it whole,
no copies), so a full batch and a subset go through the same code.
"""
from __future__ import annotations

from math import lcm
from typing import Callable, Sequence

import numpy as np

from moonshot.simulator.errors import IllegalMove

# ---------------------------------------------------------------------------- slot masks (8 slots)

SLOT_BIT = (1 << np.arange(8)).astype(np.uint8)                       # SLOT_BIT[slot]: its bit
CLEAR = (~SLOT_BIT).astype(np.uint8)                                  # CLEAR[slot]: every other bit
BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)  # BITS[mask]: (8,) bools
BIT_WORDS = BITS.astype(np.uint8).view(np.uint64).reshape(-1)        # BITS[mask] as one uint64 word
POPCOUNT = BITS.sum(axis=1).astype(np.int8)                           # set bits
LOWEST = np.array([(m & -m).bit_length() - 1 for m in range(256)], dtype=np.int8)   # lowest set slot, -1 if none
HIGHEST = np.array([m.bit_length() - 1 for m in range(256)], dtype=np.int8)         # highest set slot, -1 if none


def uniform_table(width: int) -> np.ndarray:
    """UNIFORM[mask, r] for masks of `width` slots: the (r mod popcount)-th set slot, -1 for an
    empty mask. With r uniform on 0..R-1, R = lcm(1..width) (60 for 5 slots, 420 for 7), this
    is an exactly uniform pick among the set slots: (2**width, R) int8."""
    r = np.arange(lcm(*range(1, width + 1)))
    out = np.full((1 << width, len(r)), -1, dtype=np.int8)
    for m in range(1, 1 << width):
        slots = np.flatnonzero(BITS[m, :width])
        out[m] = slots[r % len(slots)]
    return out


# ---------------------------------------------------------------------------- strategies

def groups(strategies: Sequence) -> list[tuple[object, np.ndarray]]:
    """[(strategy, the seats it plays)]: seats sharing one strategy object are served by one call."""
    by_id: dict[int, tuple[object, list[int]]] = {}
    for seat, strat in enumerate(strategies):
        by_id.setdefault(id(strat), (strat, []))[1].append(seat)
    return [(s, np.array(seats)) for s, seats in by_id.values()]


def strategy_name(strat) -> str:
    """How errors name a strategy: its --strategy spec, else its class."""
    return getattr(strat, "spec", type(strat).__name__)


def illegal(strat, what: str, accepted: str) -> IllegalMove:
    return IllegalMove(f"strategy {strategy_name(strat)!r} returned an illegal {what}; accepted: {accepted}")


def as_choice(choice, n: int) -> np.ndarray | None:
    """A strategy's answer as an (n,) integer array (in its own dtype: checks on small integers
    are cheaper; the check returns intp), or None when it is not n integers."""
    choice = np.asarray(choice)
    if choice.shape != (n,) or not np.issubdtype(choice.dtype, np.integer):
        return None
    return choice


def ask(strategy_groups, method: str, view, chooser: np.ndarray, rng: np.random.Generator,
        check: Callable, *extra: np.ndarray) -> np.ndarray:
    """(n,) intp: each group answers `method(view, rng, *extra)` for the games where `chooser` is
    one of its seats (view.take / extra[idx] select them), and `check(strat, view, answer,
    *extra)` turns each answer into checked intp choices."""
    if len(strategy_groups) == 1:
        strat = strategy_groups[0][0]
        return check(strat, view, getattr(strat, method)(view, rng, *extra), *extra)
    out = np.empty(len(chooser), dtype=np.intp)
    for strat, seats in strategy_groups:
        idx = np.flatnonzero(np.isin(chooser, seats))
        if len(idx):
            sub = view.take(idx)
            part = [e[idx] for e in extra]
            out[idx] = check(strat, sub, getattr(strat, method)(sub, rng, *part), *part)
    return out


# ---------------------------------------------------------------------------- deals

SHUFFLE_BYTES = 416 * 1024   # decks shuffled together (8192 of 52 cards): they stay in a core's L2 cache


def partial_shuffle(pool: np.ndarray, n: int, steps: int, offsets: Callable[[int, int, int], np.ndarray],
                    k: int | None = None) -> np.ndarray:
    """(k, n) int8: the first k positions of `pool` (M items) after `steps` Fisher-Yates steps
    per game: step i swaps position i with position i + offset (uniform on 0..M-1-i for a
    uniform permutation). k defaults to `steps`.

    offsets(i, lo, hi) gives step i's offsets for games lo..hi-1, (hi - lo,) integers. Games are
    shuffled in blocks of SHUFFLE_BYTES of decks, kept transposed (M, games) so each step reads
    and writes contiguous rows, and everything a step makes stays in cache."""
    k = steps if k is None else k
    items = np.asarray(pool, dtype=np.int8)[:, None]
    block = max(1, SHUFFLE_BYTES // len(items))
    out = np.empty((k, n), dtype=np.int8)
    for lo in range(0, n, block):
        m = min(block, n - lo)
        deck = np.empty((len(items), m), dtype=np.int8)
        deck[:] = items
        flat = deck.reshape(-1)
        games = np.arange(m)
        for i in range(steps):
            target = offsets(i, lo, lo + m).astype(np.intp)     # flat index of the item swapped into row i
            target += i
            target *= m
            target += games
            top = deck[i].copy()
            deck[i] = flat[target]
            flat[target] = top
        out[:, lo:lo + m] = deck[:k]
    return out


# ---------------------------------------------------------------------------- game subsets

def take(a: np.ndarray, idx: np.ndarray | None) -> np.ndarray:
    """Games idx of a (n, ...) array; the array itself for idx None (np.take is much faster than
    fancy indexing for short rows)."""
    if idx is None:
        return a
    return a[idx] if a.ndim == 1 else np.take(a, idx, axis=0)


def put(out: np.ndarray, idx: np.ndarray | None, values) -> None:
    """out[idx] = values; the whole of out for idx None."""
    if idx is None:
        out[...] = values
    else:
        out[idx] = values


def rows_where(mask: np.ndarray) -> np.ndarray | None:
    """The games where mask holds, None when it holds for every game (see `take`)."""
    return None if mask.all() else np.flatnonzero(mask)


# ---------------------------------------------------------------------------- strategy views

class BatchView:
    """Base of every game's views (dataclasses, batch first): `take(idx)` is the same view for
    games idx only (the engine hands each strategy group its games); len() is the batch size."""

    def take(self, idx: np.ndarray):
        import dataclasses
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return type(self)(**{k: (v[idx] if isinstance(v, np.ndarray) else v) for k, v in values.items()})

    def __len__(self) -> int:
        return len(self.seat)
