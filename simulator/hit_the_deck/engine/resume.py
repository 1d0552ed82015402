"""Play hands on from a position in the middle (for search players' play-outs).

A position is what a hand looks like at some seat's turn: every hand, both piles in order, the
demand, the direction and whose turn it is. `position` builds the batch State for it and `play_on`
plays it to the end with the usual referee-checked hand loop (FastRun, the compiled HandRun with
the same numbers, less the opening card, which was turned long ago), so the play-outs follow
exactly the rules of every other hand.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from moonshot.simulator.batch import groups
from moonshot.simulator.hit_the_deck.engine.fast import FastRun
from moonshot.simulator.hit_the_deck.engine.state import PILE, TURN, State
from moonshot.simulator.hit_the_deck.engine.table import KIND_BIT, N_KINDS, Table


def position(table: Table, hand: np.ndarray, draw: np.ndarray, dn: np.ndarray, disc: np.ndarray,
             sn: np.ndarray, demand: np.ndarray, dirn: np.ndarray, cur: np.ndarray, seen: np.ndarray,
             scores: np.ndarray, keys: np.ndarray, known: np.ndarray | None = None) -> State:
    """The State of n hands at seat `cur`'s turn. hand (n,P,38) copies per kind; draw and disc
    (n,110) bottom first with dn, sn cards used; demand, dirn, cur (n,); seen (n,38) card events so
    far; scores (n,P) game totals; keys (n,) chance keys; known (n,110) bool: draw-pile places whose
    order went public (memory, §C.10, can recall them), default none."""
    n, P = hand.shape[:2]
    st = State(table, np.zeros((n, P, 0), dtype=np.int8), np.zeros((n, 0), dtype=np.int8),
               np.zeros(n, dtype=np.int8), keys, np.asarray(scores, dtype=np.int16), False)
    st.hand = np.ascontiguousarray(hand, dtype=np.int8)
    st.hbits = np.zeros((n, P), dtype=np.uint64)
    for k in range(N_KINDS):
        st.hbits |= np.where(st.hand[:, :, k] > 0, KIND_BIT[k], np.uint64(0))
    st.size = st.hand.sum(axis=2, dtype=np.int16)
    st.draw, st.dn = np.ascontiguousarray(draw, dtype=np.int8), np.asarray(dn, dtype=np.int16).copy()
    st.disc, st.sn = np.ascontiguousarray(disc, dtype=np.int8), np.asarray(sn, dtype=np.int16).copy()
    st.seq[:] = 1
    if known is not None:
        st.dstamp[known] = 0                   # public once: memory may recall them
    st.sstamp[np.arange(n), np.maximum(st.sn - 1, 0)] = 0        # the top card is public
    st.demand = np.asarray(demand, dtype=np.int8).copy()
    st.dirn = np.asarray(dirn, dtype=np.int8).copy()
    st.cur = np.asarray(cur, dtype=np.int8).copy()
    st.phase[:] = TURN
    st.seen = np.asarray(seen, dtype=np.int16).copy()
    return st


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
