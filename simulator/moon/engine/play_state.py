"""What the trick-play loop keeps between steps, and the lazy PlayView strategies see over it.

PlayState holds the batch arrays of the hands being played (flat row r = game * P + seat):
  rows8      (N*P, 8) int8    the seats' tiles (rows.py); words is the same memory as uint64
  live       (N*P,) uint8     7-bit mask of unplayed slots
  play_tiles/play_seats (7P, N) int8  every play so far, kept transposed: one contiguous row per step
  led, winners (7, N) int8    the led suit and the winning seat of each trick
Public results are transposed views of these (shape (N, k), C-order storage (k, N)).
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine.rows import BITS9, SUIT_BIT, TILE_BIT, bools7, bools28, read_only, rows_of
from moonshot.simulator.moon.engine.table import NOTRUMP, TILE_STRIDE, TRICKS, Table, suit_trump, tile_trump
from moonshot.simulator.moon.views import PlayView


class PlayState:
    """The arrays of the hands being played; seen() and void() are brought up to date on demand."""

    def __init__(self, table: Table, rows8, bidder, bid, trump, scores, discard):
        P, N = table.players, len(bidder)
        self.table, self.N, self.P = table, N, P
        self.rows8 = rows8
        self.words = rows8.view(np.uint64).reshape(-1)            # one word per row
        self.tiles_flat = rows8.reshape(-1)                       # slot i of row r at r*8 + i
        self.bidder, self.bid = bidder.astype(np.int8), bid
        self.trump_i = trump                                      # intp, for indexing
        self.trump = trump.astype(np.int8)
        self.scores, self.discard = scores, discard
        self.live = np.full(N * P, 127, dtype=np.uint8)
        self.play_tiles = np.full((TRICKS * P, N), -1, dtype=np.int8)
        self.play_seats = np.full((TRICKS * P, N), -1, dtype=np.int8)
        self.led = np.full((TRICKS, N), -1, dtype=np.int8)
        self.winners = np.full((TRICKS, N), -1, dtype=np.int8)
        self.n_played = 0
        self._seen = np.zeros(N, dtype=np.uint32)                 # tile mask of the plays before _seen_upto
        self._seen_upto = 0
        self._void = np.zeros(N * P, dtype=np.uint16)             # suit mask per row, up to _void_upto
        self._void_upto = 0

    def seen(self) -> np.ndarray:
        """(N,) uint32: tiles played so far this hand."""
        for j in range(self._seen_upto, self.n_played):
            self._seen |= TILE_BIT[self.play_tiles[j]]
        self._seen_upto = self.n_played
        return self._seen

    def void(self) -> np.ndarray:
        """(N*P,) uint16: suits each seat has shown it lacks (MOON-6.3: it did not follow; A-MOON-10:
        a bidder who must lead trump and does not)."""
        P, tab, rules = self.P, self.table, self.table.rules
        row_base = np.arange(self.N) * P
        for j in range(self._void_upto, self.n_played):
            tile = self.play_tiles[j].astype(np.intp)
            seat = self.play_seats[j].astype(np.intp)
            if j % P:
                led = self.led[j // P].astype(np.intp)
                out = ~tab.in_suit_flat[tile * TILE_STRIDE + suit_trump(led, self.trump_i)]
                self._void[row_base + seat] |= np.where(out, SUIT_BIT[led], 0).astype(np.uint16)
            elif j == 0 and rules.first_lead_trump:
                out = ~tab.is_trump_flat[tile_trump(tile, self.trump_i)] & (self.trump_i != NOTRUMP)
                self._void[row_base + seat] |= np.where(out, SUIT_BIT[tiles.TRUMP_SUIT], 0).astype(np.uint16)
        self._void_upto = self.n_played
        return self._void

    def tricks(self, trick_no: int) -> np.ndarray:
        """(N,S) int8 tricks won per side before trick `trick_no`."""
        S = self.table.n_sides
        out = np.zeros((self.N, S), dtype=np.int8)
        if trick_no:
            sides = self.table.side_of_seat[self.winners[:trick_no]]
            for s in range(S):
                out[:, s] = (sides == s).sum(axis=0)
        return out


class Step:
    """The play step being asked: (N,) arrays of the mover and of the trick so far (-1 when leading)."""
    __slots__ = ("trick_no", "position", "seat", "row", "legal", "led", "win_seat", "win_power", "called")

    def __init__(self, trick_no, position, seat, row, legal, led, win_seat, win_power, called):
        self.trick_no, self.position, self.seat, self.row, self.legal = trick_no, position, seat, row, legal
        self.led, self.win_seat, self.win_power, self.called = led, win_seat, win_power, called


class LazyPlayView(PlayView):
    """A PlayView whose fields are built on first use from the play state (the same fields, the
    same meaning; see views.PlayView). Valid while the strategy is being asked; take(idx) selects
    games cheaply. Build a views.PlayView to change fields (dataclasses.replace needs its __init__)."""

    def __init__(self, st: PlayState, step: Step, idx: np.ndarray | None = None):
        table = st.table
        self.players, self.rules, self.tables = table.players, table.rules, table.tables
        self.trick_no, self.position = step.trick_no, step.position
        self.side_of_seat = table.side_of_seat
        self._st, self._step, self._idx = st, step, idx

    def _ref(self, a: np.ndarray) -> np.ndarray:
        """This view's games of an (N,...) array: for the full batch a read-only view, no copy
        (only arrays the engine does not change while the strategy may look go through here)."""
        if self._idx is None:
            return read_only(a)
        return a[self._idx] if a.ndim == 1 else np.take(a, self._idx, axis=0)

    def take(self, idx: np.ndarray) -> "LazyPlayView":
        idx = np.asarray(idx)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        return LazyPlayView(self._st, self._step, idx if self._idx is None else self._idx[idx])

    def __len__(self) -> int:
        return len(self.seat)

    def _trick_rows(self, a: np.ndarray) -> np.ndarray:
        P = self._st.P
        return self._ref(np.ascontiguousarray(a[self.trick_no * P:(self.trick_no + 1) * P].T))

    seat = cached_property(lambda self: self._ref(self._step.seat))
    _row = cached_property(lambda self: self._ref(self._step.row))
    side = cached_property(lambda self: self.side_of_seat[self.seat])
    hand = cached_property(lambda self: rows_of(self._st.words, self._row))
    live_bits = cached_property(lambda self: self._st.live[self._row])
    live = cached_property(lambda self: bools7(self.live_bits))
    legal_bits = cached_property(lambda self: self._ref(self._step.legal))
    legal = cached_property(lambda self: bools7(self.legal_bits))
    trump = cached_property(lambda self: self._ref(self._st.trump))
    bidder = cached_property(lambda self: self._ref(self._st.bidder))
    bid = cached_property(lambda self: self._ref(self._st.bid))
    trick = cached_property(lambda self: self._trick_rows(self._st.play_tiles))
    trick_seats = cached_property(lambda self: self._trick_rows(self._st.play_seats))
    led_suit = cached_property(lambda self: self._ref(self._step.led))
    winning_seat = cached_property(lambda self: self._ref(self._step.win_seat))
    winning_power = cached_property(lambda self: self._ref(self._step.win_power))
    called_end = cached_property(lambda self: self._ref(self._step.called))
    tricks = cached_property(lambda self: self._ref(self._st.tricks(self.trick_no)))
    seen_bits = cached_property(lambda self: self._ref(self._st.seen().copy()))
    seen = cached_property(lambda self: bools28(self.seen_bits))
    void_bits = cached_property(lambda self: self._ref(self._st.void().reshape(self._st.N, self._st.P).copy()))
    void = cached_property(lambda self: BITS9[self.void_bits])
    scores = cached_property(lambda self: self._ref(self._st.scores))
    discard = cached_property(
        lambda self: np.where(self.seat == self.bidder, self._ref(self._st.discard), -1).astype(np.int8))
