"""What a Moon strategy is shown at each decision: batch observations, one per phase.

Strategies never see the engine state, only these views (their own tiles, public calls and
plays, scores). Every array has the batch first (n games, all at the same decision point).
A strategy answers:

    bid(view: BidView, rng)         -> (n,) bid values: 0 = pass, else a value in BID_VALUES
    discard(view: DiscardView, rng) -> (n,) slot 0..7 of the 8-tile hand (3 players, widow taken)
    trump(view: TrumpView, rng)     -> (n,) trump id 0..8 (tiles.DOUBLES = 7, tiles.NOTRUMP = 8)
    play(view: PlayView, rng)       -> (n,) slot 0..6 of the 7-tile hand
    call_end(view: PlayView, slot, rng) -> (n,) end number  (optional; only under
                                       moon.lead_suit_rule=leader_calls_end, for leads that need it;
                                       without it the engine calls the higher end)

Each answer must be legal (see the `legal*` fields); the engine checks and names the strategy
in the error otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moonshot.simulator.batch import BatchView

PASS = 0
MOON_BID = 21
BID_VALUES = np.array([PASS, 3, 4, 5, 6, 7, MOON_BID], dtype=np.int8)   # column order of BidView.legal


@dataclass
class BidView(BatchView):
    players: int
    rules: object              # simulator.moon.rules.Rules
    position: int              # 0 = first to speak this hand
    seat: np.ndarray           # (n,) seat to speak
    hand: np.ndarray           # (n,7) its tile ids
    bids: np.ndarray           # (n,players) calls so far by seat: -1 not yet spoken, 0 pass, else the bid
    high_bid: np.ndarray       # (n,) highest bid so far, 0 if none
    legal: np.ndarray          # (n,7) bool over BID_VALUES (pass first; pass is illegal when forced)
    scores: np.ndarray         # (n,sides) game scores before this hand
    side: np.ndarray           # (n,) the speaker's side
    # added by the batch engine (None when a view is built by hand):
    legal_bits: np.ndarray = None   # (n,) uint8 the same as legal, bit i = column i of BID_VALUES


@dataclass
class DiscardView(BatchView):
    players: int
    rules: object
    seat: np.ndarray           # (n,) the bidder
    hand: np.ndarray           # (n,8) the 7 dealt tiles in slots 0..6, the widow in slot 7
    bid: np.ndarray            # (n,)
    trump: np.ndarray          # (n,) already declared (moon.widow_timing=trump_first), else -1
    scores: np.ndarray


@dataclass
class TrumpView(BatchView):
    players: int
    rules: object
    seat: np.ndarray           # (n,) the bidder
    hand: np.ndarray           # (n,k) its tiles: 7 after the discard, or 8 (widow in slot 7) if trump comes first
    bid: np.ndarray            # (n,)
    legal: np.ndarray          # (n,9) bool over trump ids 0..8
    scores: np.ndarray


@dataclass
class PlayView(BatchView):
    players: int
    rules: object
    tables: object             # simulator.moon.engine.table.Tables for these rules (POWER, IN_SUIT, ...)
    trick_no: int              # 0..6
    position: int              # 0 = leading
    seat: np.ndarray           # (n,) mover
    side: np.ndarray           # (n,) mover's side
    hand: np.ndarray           # (n,7) mover's tiles (fixed slots; see live)
    live: np.ndarray           # (n,7) bool, not yet played
    legal: np.ndarray          # (n,7) bool
    trump: np.ndarray          # (n,) trump id
    bidder: np.ndarray         # (n,) seat of the bidder
    bid: np.ndarray            # (n,)
    trick: np.ndarray          # (n,players) tiles played to this trick in order, -1 = not yet
    trick_seats: np.ndarray    # (n,players) who played them, -1 = not yet
    led_suit: np.ndarray       # (n,) suit id of the trick (0..6, 7 trump, 8 doubles), -1 when leading
    winning_seat: np.ndarray   # (n,) seat currently winning the trick, -1 when leading
    winning_power: np.ndarray  # (n,) tables.POWER of the winning tile, -1 when leading
    tricks: np.ndarray         # (n,sides) tricks won so far this hand
    seen: np.ndarray           # (n,28) bool: tiles played so far this hand (public)
    void: np.ndarray           # (n,players,9) bool: seat has shown it holds no tile of that suit (public)
    scores: np.ndarray         # (n,sides) game scores before this hand
    side_of_seat: np.ndarray   # (players,) side index per seat
    # added by the batch engine (None when a view is built by hand):
    legal_bits: np.ndarray = None  # (n,) uint8 the same as legal as a 7-bit slot mask (bit i = slot i)
    live_bits: np.ndarray = None   # (n,) uint8 the same as live as a 7-bit slot mask
    called_end: np.ndarray = None  # (n,) int8 end the leader named (moon.lead_suit_rule=leader_calls_end), else -1
    seen_bits: np.ndarray = None   # (n,) uint32 the same as seen, bit t = tile t
    void_bits: np.ndarray = None   # (n,players) uint16 the same as void, bit s = suit s
    discard: np.ndarray = None     # (n,) int8 the tile the mover discarded when the mover is the bidder
                                   # (only the bidder knows it), else -1
