"""The Moon table: who sits where, the rules in force, and the lookup tables the engine gathers from.

The rules tables are Tables (below: built cell by cell from reference.py). The engine reads them
as flat 1-D arrays, one gather per step; the flat index of a cell is spelled out here, once:

  (tile, trump)          tile_trump(tile, trump) = tile * N_TRUMPS + trump
                         -> led_flat (the led suit), is_trump_flat, needs_call_flat
  (tile, suit, trump)    tile * TILE_STRIDE + suit_trump(suit, trump), TILE_STRIDE = 9 * 9 = 81
                         -> power_flat (trick-winning strength), in_suit_flat (may follow that suit)
                         (the play loop computes suit_trump once per trick and adds the tile part per play)
  (forced, high bid)     bid_legal_index(forced, high) = forced * (MOON_BID + 1) + high -> bid_legal
  (slot, trump, tile)    suit_words[slot][trump * N_TILES + tile] -> the tile's suit bits for that slot
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.rules import Rules, tile_set_for, validate
from moonshot.simulator.moon.views import BID_VALUES, MOON_BID

HAND = tiles.HAND_SIZE          # 7 tiles a seat
TRICKS = tiles.TRICKS           # 7 tricks a hand
N_TRUMPS = tiles.N_TRUMPS       # 9: trumps 0..6, DOUBLES = 7, NOTRUMP = 8
N_SUITS = tiles.N_SUITS         # 9: number suits 0..6, TRUMP_SUIT = 7, DOUBLES_SUIT = 8
TILE_STRIDE = N_SUITS * N_TRUMPS     # 81: one tile's block of a flat (tile, suit, trump) table
NOTRUMP = tiles.NOTRUMP


def tile_trump(tile, trump):
    """Flat index of a (tile, trump) table cell."""
    return tile * N_TRUMPS + trump


def suit_trump(suit, trump):
    """The (suit, trump) part of a flat (tile, suit, trump) index: add tile * TILE_STRIDE."""
    return suit * N_TRUMPS + trump


# ---------------------------------------------------------------------------- the rules tables

@dataclass(frozen=True)
class Tables:
    """Read-only lookup tables for the batch engine, built cell by cell from the reference functions.

    IS_TRUMP[tile, trump]        bool  reference.is_trump
    LED_SUIT[tile, trump]        int8  reference.led_suit with the higher-end rule: 0..6, TRUMP_SUIT=7,
                                       DOUBLES_SUIT=8. Under moon.lead_suit_rule=leader_calls_end a lead
                                       with NEEDS_CALL set has the called end as its suit instead.
    NEEDS_CALL[tile, trump]      bool  reference.needs_end_call under leader_calls_end (non-double, non-trump)
    IN_SUIT[tile, suit, trump]   bool  suit in reference.suits: may this tile follow that led suit
    RANK[tile, suit, trump]      int8  reference.rank: rank inside the suit, higher wins, -1 if not in it
    POWER[tile, led, trump]      int8  trick-winning strength when ``led`` is the led suit: 16 + trump rank
                                       for a trump, RANK for a tile of the led suit, -1 otherwise; the
                                       trick winner is the argmax (MOON-7.1; never tied, MOON-7.2)
    """
    notrump_doubles: str
    IS_TRUMP: np.ndarray
    LED_SUIT: np.ndarray
    NEEDS_CALL: np.ndarray
    IN_SUIT: np.ndarray
    RANK: np.ndarray
    POWER: np.ndarray


TRUMP_POWER = 16         # POWER offset of a trump: above every non-trump rank


def rules_tables(rules: Rules) -> Tables:
    """The lookup tables for ``rules``; only moon.notrump_doubles changes them (cached per value)."""
    return _tables(rules.notrump_doubles)


@lru_cache(maxsize=None)
def _tables(notrump_doubles: str) -> Tables:
    rules = Rules(notrump_doubles=notrump_doubles)
    calls = Rules(notrump_doubles=notrump_doubles, lead_suit_rule="leader_calls_end")
    is_trump = np.zeros((tiles.N_TILES, N_TRUMPS), dtype=bool)
    led = np.zeros((tiles.N_TILES, N_TRUMPS), dtype=np.int8)
    needs_call = np.zeros((tiles.N_TILES, N_TRUMPS), dtype=bool)
    in_suit = np.zeros((tiles.N_TILES, N_SUITS, N_TRUMPS), dtype=bool)
    rank = np.full((tiles.N_TILES, N_SUITS, N_TRUMPS), -1, dtype=np.int8)
    power = np.full((tiles.N_TILES, N_SUITS, N_TRUMPS), -1, dtype=np.int8)
    for tile in range(tiles.N_TILES):
        for trump in range(N_TRUMPS):
            is_trump[tile, trump] = ref.is_trump(tile, trump)
            led[tile, trump] = ref.led_suit(tile, trump, rules)
            needs_call[tile, trump] = ref.needs_end_call(tile, trump, calls)
            member = ref.suits(tile, trump, rules)
            for suit in range(N_SUITS):
                in_suit[tile, suit, trump] = suit in member
                rank[tile, suit, trump] = ref.rank(tile, suit, trump, rules)
                if is_trump[tile, trump]:
                    power[tile, suit, trump] = TRUMP_POWER + ref.rank(tile, tiles.TRUMP_SUIT, trump, rules)
                elif suit in member:
                    power[tile, suit, trump] = ref.rank(tile, suit, trump, rules)
    for array in (is_trump, led, needs_call, in_suit, rank, power):
        array.setflags(write=False)
    return Tables(notrump_doubles, is_trump, led, needs_call, in_suit, rank, power)


# ---------------------------------------------------------------------------- bids

# BidView.legal columns are BID_VALUES = [pass, 3, 4, 5, 6, 7, 21]; BID_COL[bid value] is its column.
BID_COL = np.full(MOON_BID + 1, -1, dtype=np.int8)
BID_COL[BID_VALUES] = np.arange(len(BID_VALUES))


def bid_legal_index(forced, high):
    """Flat index of Table.bid_legal: forced 0/1 (the last player must call), high bid so far."""
    return forced * (MOON_BID + 1) + high


def bid_legal_bits(rules: Rules) -> np.ndarray:
    """LEGAL[forced, high]: BID_VALUES bit mask of the calls open (reference.legal_bids).

    forced 0 = none, 1 = moon.all_pass's forced call (force_last_min / force_dealer)."""
    out = np.zeros((2, MOON_BID + 1), dtype=np.uint8)
    forced_kind = "min" if rules.all_pass == "force_last_min" else "bid"
    for forced in (0, 1):
        for high in range(MOON_BID + 1):
            if high not in BID_VALUES:
                continue
            calls = ref.legal_bids(high, rules, forced_kind if forced else None)
            out[forced, high] = sum(1 << int(BID_COL[c]) for c in calls)
    return out


# ---------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class Table:
    """Who sits where and the rules in force, plus the derived lookup tables (cached)."""
    players: int
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        validate(self.rules, self.players)            # BadInput for a bad combination

    @cached_property
    def tile_set_name(self) -> str:
        return tile_set_for(self.rules, self.players)

    @cached_property
    def tile_set(self) -> np.ndarray:
        return tiles.TILE_SETS[self.tile_set_name]

    @cached_property
    def has_widow(self) -> bool:
        return len(self.tile_set) > HAND * self.players

    @cached_property
    def side_of_seat(self) -> np.ndarray:
        return np.array(tiles.side_of_seats(self.players), dtype=np.int8)

    @cached_property
    def n_sides(self) -> int:
        return int(self.side_of_seat.max()) + 1

    @cached_property
    def tables(self) -> Tables:
        return rules_tables(self.rules)

    @cached_property
    def allowed_trumps(self) -> np.ndarray:
        mask = np.zeros(N_TRUMPS, dtype=bool)
        mask[ref.allowed_trumps(self.players, self.rules)] = True
        mask.setflags(write=False)
        return mask

    @cached_property
    def max_calls(self) -> int:
        """Most calls an auction can take: one per player, or (open auction) every player's pass
        plus every possible raise (min_bid..7 and 21)."""
        if self.rules.auction == "single_round":
            return self.players
        return self.players + (7 - self.rules.min_bid + 1) + 1

    # ------------------------------------------------------------ flat tables (module docstring)

    @cached_property
    def bid_legal(self) -> np.ndarray:
        return bid_legal_bits(self.rules).reshape(-1)

    @cached_property
    def suit_words(self) -> np.ndarray:
        """(7, 9*28) uint64: for slot i, word[trump*28 + tile] has bit 8b+i set when the tile is in
        suit byte b (the suit masks of tricks.py: b = 0..6 number suits; b = 7 the trump suit, or
        the doubles suit in no-trump with moon.notrump_doubles=own_suit; both never occur together)."""
        tab = self.tables
        word = np.zeros((tiles.N_TILES, N_TRUMPS), dtype=np.uint64)
        for b in range(8):
            member = tab.IN_SUIT[:, b, :].copy()
            if b == 7:
                member |= tab.IN_SUIT[:, tiles.DOUBLES_SUIT, :]
                assert not (tab.IN_SUIT[:, 7, :] & tab.IN_SUIT[:, tiles.DOUBLES_SUIT, :]).any()
            word |= member.astype(np.uint64) << np.uint64(8 * b)
        flat = np.ascontiguousarray(word.T).reshape(-1)
        return np.stack([flat << np.uint64(i) for i in range(HAND)])

    @cached_property
    def led_flat(self) -> np.ndarray:
        return self.tables.LED_SUIT.astype(np.intp).reshape(-1)

    @cached_property
    def needs_call_flat(self) -> np.ndarray:
        return self.tables.NEEDS_CALL.reshape(-1)

    @cached_property
    def is_trump_flat(self) -> np.ndarray:
        return self.tables.IS_TRUMP.reshape(-1)

    @cached_property
    def power_flat(self) -> np.ndarray:
        return self.tables.POWER.astype(np.int8).reshape(-1)

    @cached_property
    def in_suit_flat(self) -> np.ndarray:
        return self.tables.IN_SUIT.reshape(-1)
