"""Dealing Moon hands (MOON-3.1, MOON-3.2): a whole deal per game, or deals around a known hand."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from moonshot.simulator.batch import partial_shuffle
from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine.table import HAND, Table


def shuffle(rng: np.random.Generator, n: int, pool: np.ndarray, k: int,
            games: np.ndarray | None = None) -> np.ndarray:
    """(k, n) int8: the first k positions of a uniform random permutation of `pool` per game.

    Step i of the Fisher-Yates shuffle swaps position i with i + floor(u * (M - i)) for a 32-bit
    uniform u (multiply-shift: the bias is below M / 2**32). With `games`, the random numbers of
    all n games are drawn but only those games are shuffled: (k, len(games)), each game's deal
    the same as in the full draw (common random numbers, cheaply)."""
    M = len(pool)
    steps = max(min(k, M - 1), 0)                     # the last position has nothing left to swap with
    u = rng.bit_generator.random_raw((steps * n + 1) // 2).view(np.uint32)[:steps * n].reshape(steps, n)
    if games is not None:
        u = u[:, games]

    def offsets(i, lo, hi):
        off = u[i, lo:hi] * np.uint64(M - i)
        off >>= np.uint64(32)                                         # 0 .. M-i-1
        return off
    return partial_shuffle(pool, u.shape[1], steps, offsets, k)


def deal(rng: np.random.Generator, n: int, table: Table,
         games: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """(hands (n,P,7) int8, widow (n,) int8 or None), the layout of reference.deal: seat s gets
    permutation positions 7s..7s+6, the widow is position 21 (MOON-3.1, MOON-3.2).

    With `games` (indices): the randomness of all n games is drawn but only those games are dealt
    and returned, each exactly as the full deal would give it (see `shuffle`)."""
    P = table.players
    k = HAND * P + int(table.has_widow)
    deck = shuffle(rng, n, table.tile_set, k, games)
    m = deck.shape[1]
    hands = np.ascontiguousarray(deck[:HAND * P].T).reshape(m, P, HAND)
    widow = deck[HAND * P].copy() if table.has_widow else None
    return hands, widow


def deal_with_hand(rng: np.random.Generator, n: int, table: Table, seat: int,
                   hand: Sequence[int]) -> tuple[np.ndarray, np.ndarray | None]:
    """Deals in which `seat` holds exactly `hand` (7 tile ids, in that slot order) in every game;
    the other hands and the widow are dealt uniformly from the remaining tiles."""
    P = table.players
    hand = [int(t) for t in hand]
    in_set = set(int(t) for t in table.tile_set)
    if not 0 <= int(seat) < P:
        raise BadInput(f"seat {seat} does not exist; accepted: 0..{P - 1}")
    if len(hand) != HAND or len(set(hand)) != HAND or not set(hand) <= in_set:
        raise BadInput(f"hand {[tiles.tile_name(t) if 0 <= t < tiles.N_TILES else t for t in hand]} is not "
                       f"{HAND} different tiles of {tiles.SET_DESCRIPTIONS[table.tile_set_name]}; "
                       f"accepted: {HAND} different tiles of that set")
    pool = np.array(sorted(in_set - set(hand)), dtype=np.int8)
    rest = shuffle(rng, n, pool, len(pool))                  # (M-7, n)
    hands = np.empty((n, P, HAND), dtype=np.int8)
    hands[:, seat] = np.array(hand, dtype=np.int8)
    others = [s for s in range(P) if s != seat]
    for i, s in enumerate(others):
        hands[:, s] = rest[HAND * i:HAND * (i + 1)].T
    widow = rest[HAND * len(others)].copy() if table.has_widow else None
    return hands, widow
