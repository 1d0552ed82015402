"""Play hands on from a position in the middle (for search players' play-outs).

A position is what a hand looks like at some seat's turn: every hand, both piles in order, the
demand, the direction and whose turn it is. `position` builds the batch State for it and `play_on`
plays it to the end with the usual referee-checked hand loop (FastRun, the compiled HandRun with
the same numbers, less the opening card, which was turned long ago), so the play-outs follow
exactly the rules of every other hand.
"""
from __future__ import annotations

from collections import namedtuple
from typing import Sequence

import numpy as np
from numba import njit

from moonshot.simulator.batch import groups
from moonshot.simulator.hit_the_deck.engine import kernels
from moonshot.simulator.hit_the_deck.engine.fast import FastRun
from moonshot.simulator.hit_the_deck.engine.state import PILE, TURN, State
from moonshot.simulator.hit_the_deck.engine.table import Table


def position(table: Table, hand: np.ndarray, draw: np.ndarray, dn: np.ndarray, disc: np.ndarray,
             sn: np.ndarray, demand: np.ndarray, dirn: np.ndarray, cur: np.ndarray, seen: np.ndarray,
             scores: np.ndarray, keys: np.ndarray, known: np.ndarray | None = None) -> State:
    """The State of n hands at seat `cur`'s turn. hand (n,P,38) copies per kind; draw and disc
    (n,110) bottom first with dn, sn cards used; demand, dirn, cur (n,); seen (n,38) card events so
    far; scores (n,P) game totals; keys (n,) chance keys; known (n,110) bool: draw-pile places whose
    order went public (memory, §C.10, can recall them), default none."""
    n = len(hand)
    known = np.zeros((n, PILE), dtype=bool) if known is None else known
    one = np.zeros(n, dtype=np.int64)
    return worlds_position(table, hand[:, None], draw[:, None], disc[:, None], known, dn, sn, demand, dirn, seen,
                           scores, np.arange(n), one, cur, keys)


def worlds_position(table: Table, hands: np.ndarray, draw: np.ndarray, disc: np.ndarray, known: np.ndarray,
                    dn: np.ndarray, sn: np.ndarray, demand: np.ndarray, dirn: np.ndarray, seen: np.ndarray,
                    scores: np.ndarray, g: np.ndarray, w: np.ndarray, cur: np.ndarray, keys: np.ndarray) -> State:
    """position() of len(g) hands, row i world w[i] of game g[i] (deals of several worlds per game
    without gathering them first: htd_worlds.deal_worlds): hands (G,W,P,38), draw and disc
    (G,W,110), known (G,110) and dn, sn, demand, dirn (G,), seen (G,38), scores (G,P) per game;
    cur and keys (len(g),) per row."""
    m = len(g)
    st = State(table, np.zeros((m, table.players, 0), dtype=np.int8), np.zeros((m, 0), dtype=np.int8),
               np.zeros(m, dtype=np.int8), np.asarray(keys), np.asarray(scores)[g].astype(np.int16), False)
    g = np.ascontiguousarray(g, dtype=np.int64)
    _fill(Worlds(hands, draw, disc, known, np.asarray(dn), np.asarray(sn), np.asarray(demand), np.asarray(dirn),
                 np.asarray(seen)), g, np.ascontiguousarray(w, dtype=np.int64), np.asarray(cur), kernels.arrays(st))
    st.seq[:] = 1
    st.phase[:] = TURN
    return st


# worlds_position's per-game deals and facts, as _fill reads them
Worlds = namedtuple("Worlds", ("hands", "draw", "disc", "known", "dn", "sn", "demand", "dirn", "seen"))


@njit(cache=True)
def _fill(worlds, g, w, cur, o):
    """worlds_position's rows (row i: world w[i] of game g[i], seat cur[i] to play), written into a
    new State's arrays `o` (kernels.arrays) in place: the hands with their presence bits and sizes,
    both piles, the draw-pile places memory may recall (stamp 0) and the top of the discard pile
    (public: stamp 0)."""
    hands, draw, disc, known, dn, sn, demand, dirn, seen = worlds
    o_hand, o_hbits, o_size, o_draw, o_dn, o_disc, o_sn = o.hand, o.hbits, o.size, o.draw, o.dn, o.disc, o.sn
    o_dstamp, o_sstamp, o_demand, o_dirn, o_cur, o_seen = o.dstamp, o.sstamp, o.demand, o.dirn, o.cur, o.seen
    P, K = o_hand.shape[1], o_hand.shape[2]
    for i in range(len(g)):
        a, b = g[i], w[i]
        for p in range(P):
            bits = np.uint64(0)
            size = 0
            for k in range(K):
                c = hands[a, b, p, k]
                o_hand[i, p, k] = c
                size += c
                if c > 0:
                    bits |= np.uint64(1) << np.uint64(k)
            o_hbits[i, p] = bits
            o_size[i, p] = size
        for x in range(o_draw.shape[1]):
            o_draw[i, x] = draw[a, b, x]
            o_disc[i, x] = disc[a, b, x]
            if known[a, x]:
                o_dstamp[i, x] = 0                      # public once: memory may recall them
        o_dn[i] = dn[a]
        o_sn[i] = sn[a]
        o_sstamp[i, max(np.int64(sn[a]) - 1, 0)] = 0    # the top card is public
        o_demand[i] = demand[a]
        o_dirn[i] = dirn[a]
        o_cur[i] = cur[i]
        for k in range(K):
            o_seen[i, k] = seen[a, k]


class _OnFromPosition(FastRun):
    """The compiled hand loop without the opening: the position already has its top card and its turn."""

    def opening(self) -> None:
        pass


def play_on(table: Table, st: State, strategies: Sequence, rng: np.random.Generator) -> dict:
    """Plays every hand of `st` to its end: the per-hand results (State.res: score (n,P), went_out,
    turns, blocked, penalty...). Each answer is checked as in every hand (IllegalMove)."""
    if len(strategies) != table.players:
        raise ValueError(f"one strategy per seat needed: {table.players}")
    assert st.draw.shape[1] == PILE and st.disc.shape[1] == PILE
    _OnFromPosition(table, st, groups(strategies), rng).run()
    return st.res
