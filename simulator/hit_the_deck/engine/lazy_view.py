"""The PlayView the engine hands to strategies: the fields of views.PlayView, each built on first
use from the engine state (most strategies read only a few). Valid while the strategy is being
asked; take(idx) selects games without building anything."""
from __future__ import annotations

from functools import cached_property

import numpy as np

from moonshot.simulator.hit_the_deck.engine import keyed_chance, kernels
from moonshot.simulator.hit_the_deck.cards import DECK_SIZE as PILE
from moonshot.simulator.hit_the_deck.views import KNOWN_DEPTH, PlayView

_BIT_BYTES = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.uint8)   # byte -> 8 bools


def bools(bits: np.ndarray, width: int) -> np.ndarray:
    """(n,) uint64 masks -> (n, width) bool, bit k = column k."""
    b = np.ascontiguousarray(bits, dtype=np.uint64).view(np.uint8).reshape(-1, 8)
    return _BIT_BYTES[b].reshape(-1, 64)[:, :width].astype(bool)


def known_draw(st, rows: np.ndarray, seats: np.ndarray, depth: int = KNOWN_DEPTH) -> np.ndarray:
    """(n, 8) int8 the top of the draw pile as each seat's memory knows it (§C.10, htd.memory):
    a position is known when its card went public onto the discard pile and nothing since broke
    the pile's order (stamp >= 0); window(K) keeps the last K discards, p_recall(P) each seen
    card with probability P per seat (a fixed draw per card event and seat). Compiled
    (kernels.known_draw_rows); known_draw_numpy is the same in numpy operations. depth < 8: the
    first `depth` columns only, depth > 8 deeper ones too (each position's test is its own: the same values)."""
    code, param = kernels.memory_code(st.table.memory)
    out = np.full((len(rows), depth), -1, dtype=np.int8)
    if code < 0 or not len(rows) or not st.keeps_stamps:      # (no stamps kept: every seat `random`)
        return out
    kernels.known_draw_rows(kernels.arrays(st), np.ascontiguousarray(rows, dtype=np.int64),
                            np.ascontiguousarray(seats, dtype=np.int64), code, param, keyed_chance.RECALL_SALT, out)
    return out


def known_draw_numpy(st, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """known_draw in numpy operations over the rows (tests/test_htd_kernels.py compares them)."""
    kind, param = st.table.memory
    n = len(rows)
    out = np.full((n, KNOWN_DEPTH), -1, dtype=np.int8)
    if kind == "window" and param == 0:
        return out
    depth = np.arange(KNOWN_DEPTH)
    at = st.dn[rows][:, None].astype(np.intp) - 1 - depth[None, :]
    inside = at >= 0
    at = np.maximum(at, 0)
    stamp = st.dstamp[rows[:, None], at].astype(np.int64)
    known = inside & (stamp >= 0)
    if kind == "window":
        known &= stamp >= st.seq[rows][:, None].astype(np.int64) - int(param)
    elif kind == "p_recall":
        keys = keyed_chance.recall_keys(st.key[rows])[:, None]
        u = keyed_chance.uniform(keys, np.maximum(stamp, 0), seats.astype(np.uint64)[:, None])
        known &= u < float(param)
    out[known] = st.draw[rows[:, None], at][known]
    return out


class EnginePlayView(PlayView):
    """A PlayView over state rows `rows` (the deciding seats `seats`, legal masks `bits`)."""

    def __init__(self, table, st, rows, seats, bits, drawn):
        self.players, self.rules = table.players, table.rules
        self._st, self._rows, self._seats, self._bits, self._drawn = st, rows, seats, bits, drawn

    def take(self, idx: np.ndarray) -> "EnginePlayView":
        idx = np.asarray(idx)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        v = EnginePlayView.__new__(EnginePlayView)
        v.players, v.rules, v._st = self.players, self.rules, self._st
        v._rows, v._seats, v._bits, v._drawn = self._rows[idx], self._seats[idx], self._bits[idx], self._drawn[idx]
        return v

    def __len__(self) -> int:
        return len(self._rows)

    @cached_property
    def seat(self): return self._seats.copy()

    @cached_property
    def legal_bits(self): return self._bits

    @cached_property
    def legal(self): return bools(self._bits, 39)

    @cached_property
    def drawn(self): return self._drawn.copy()

    @cached_property
    def hand(self): return self._st.hand[self._rows, self._seats]

    @cached_property
    def top(self): return self._st.top(self._rows)

    @cached_property
    def demand(self): return self._st.demand[self._rows]

    @cached_property
    def direction(self): return self._st.dirn[self._rows]

    @cached_property
    def hand_sizes(self): return self._st.size[self._rows]

    @cached_property
    def scores(self): return self._st.scores[self._rows]

    @cached_property
    def draw_size(self): return self._st.dn[self._rows].astype(np.int16)

    @cached_property
    def discard_size(self): return self._st.sn[self._rows].astype(np.int16)

    @cached_property
    def seen(self): return self._st.seen[self._rows]

    @cached_property
    def known_draw(self): return known_draw(self._st, self._rows, self._seats)

    @cached_property
    def lacks(self):
        if self.rules.voluntary_draw:              # a draw may be by choice: it shows nothing
            return np.zeros((len(self._rows), self.players), dtype=np.uint64)
        return self._st.lacks[self._rows]

    @cached_property
    def fresh(self): return self._st.fresh[self._rows]

    @cached_property
    def held(self):
        if not self._st.held.shape[2]:             # not kept: no strategy at the table reads it
            return None
        if self._st.table.memory[0] != "perfect":
            return np.zeros((len(self._rows), self.players, self._st.held.shape[2]), dtype=np.int8)
        return self._st.held[self._rows]

    @cached_property
    def known_pile(self): return known_draw(self._st, self._rows, self._seats, depth=PILE)

    @cached_property
    def known_top(self):
        """(n,) int8 known_draw[:, 0] alone: the top of the draw pile as the seat's memory knows
        it, or -1 (the same test and recall draws as known_draw, one depth instead of eight)."""
        if "known_draw" in self.__dict__:
            return self.known_draw[:, 0]
        return known_draw(self._st, self._rows, self._seats, depth=1)[:, 0]

    @cached_property
    def _arrays(self):
        """(the state's Arrays, rows int64, seats int64, memory code, parameter) for fill_rows."""
        return (kernels.arrays(self._st), np.ascontiguousarray(self._rows, dtype=np.int64),
                np.ascontiguousarray(self._seats, dtype=np.int64), *kernels.memory_code(self._st.table.memory))

    def fill_rows(self, deck: np.ndarray, hand: np.ndarray, unseen: np.ndarray, lo: int = 0, hi: int | None = None):
        """Games lo..hi's hand and max(deck - hand - seen, 0) into the caller's (hi - lo, 38) float32
        arrays `hand` and `unseen`, read from the state rows in one compiled pass
        (kernels.hand_unseen_top_rows; whole numbers, so the same values as numpy's float32
        arithmetic), for a strategy that reads the state rows in place: returns (known_top
        (hi - lo,) int8, the state's hand sizes (R, P) int16 and directions (R,) int8, the games'
        rows (hi - lo,) int64 into them, their seats int64)."""
        s, rows, seats, code, param = self._arrays
        hi = len(rows) if hi is None else hi
        rows, seats = rows[lo:hi], seats[lo:hi]
        top = np.empty(hi - lo, dtype=np.int8)
        kernels.hand_unseen_top_rows(s, rows, seats, np.ascontiguousarray(deck, dtype=np.float32), code, param,
                                     keyed_chance.RECALL_SALT, hand, unseen, top)
        return top, self._st.size, self._st.dirn, rows, seats
