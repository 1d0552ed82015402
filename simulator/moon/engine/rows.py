"""Seat rows and bit masks: how the Moon engine holds hands and sets of slots.

A row is one seat's hand in one game, flat row r = game * P + seat. A row is kept as 8 int8
slots (the 7 tiles plus a -1 pad, or the bidder's widow in slot 7 until the discard), so it is
one uint64 word and gathering rows is a 1-D gather. Sets of slots are 7-bit masks (uint8),
sets of tiles 28-bit masks (uint32, bit t = tile t), sets of suits 9-bit masks (uint16).
"""
from __future__ import annotations

import sys

import numpy as np

from moonshot.simulator.batch import BIT_WORDS, BITS, uniform_table
from moonshot.simulator.moon import tiles

assert sys.byteorder == "little", "rows as words and the suit-mask bytes assume a little-endian machine"

HAND = tiles.HAND_SIZE
BITS7 = np.ascontiguousarray(BITS[:, :HAND])                          # slot mask -> (7,) bools
UNIFORM = uniform_table(HAND)     # (128, 420): UNIFORM[mask, r] uniform over the set slots, r in 0..419
UNIFORM_R = UNIFORM.shape[1]
UNIFORM_FLAT = UNIFORM.reshape(-1)                                    # index mask * UNIFORM_R + r
TILE_BIT = (np.uint32(1) << np.arange(tiles.N_TILES, dtype=np.uint32)).astype(np.uint32)   # tile -> its bit
SUIT_BIT = (1 << np.arange(tiles.N_SUITS)).astype(np.uint16)              # suit -> its bit
BITS9 = ((np.arange(512)[:, None] >> np.arange(tiles.N_SUITS)) & 1).astype(bool)          # suit mask -> (9,) bools


def padded(hands: np.ndarray) -> np.ndarray:
    """(n,P,7) or (R,7) tiles -> (R,8) int8 rows with slot 7 = -1."""
    rows7 = np.asarray(hands, dtype=np.int8).reshape(-1, HAND)
    rows8 = np.full((len(rows7), 8), -1, dtype=np.int8)
    rows8[:, :HAND] = rows7
    return rows8


def words(rows8: np.ndarray) -> np.ndarray:
    """(R,) uint64: the rows as words (a view: writing a word writes the row)."""
    return rows8.view(np.uint64).reshape(-1)


def rows_of(row_words: np.ndarray, idx: np.ndarray, width: int = HAND) -> np.ndarray:
    """Rows `idx` of the words -> (n,width) int8 (a view of the gathered words)."""
    return row_words[idx].view(np.int8).reshape(-1, 8)[:, :width]


def bools7(bits: np.ndarray) -> np.ndarray:
    """(n,) 7-bit slot masks -> (n,7) bool."""
    return BIT_WORDS[bits].view(np.bool_).reshape(-1, 8)[:, :HAND]


def bools28(bits: np.ndarray) -> np.ndarray:
    """(n,) uint32 tile masks -> (n,28) bool, one byte-table gather per 8 tiles."""
    b = np.ascontiguousarray(bits, dtype=np.uint32).view(np.uint8).reshape(-1, 4)
    return BIT_WORDS[b].view(np.bool_).reshape(-1, 32)[:, :tiles.N_TILES]


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view: strategies get the engine's own arrays without copies, and cannot change them."""
    v = a.view()
    v.flags.writeable = False
    return v
