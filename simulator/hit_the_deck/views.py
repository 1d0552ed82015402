"""What a Hit the Deck strategy is shown at each decision: one batch observation, PlayView.

Strategies never see the engine state, only this view: their own hand, public counts and piles,
and what their memory tells them about the draw pile (RULES.md §C.10). Every array has the batch
first (n games, each at one seat's decision). A strategy answers

    play(view: PlayView, rng) -> (n,) ints: a card kind k with view.legal[:, k] True,
                                 or DRAW (38) where view.legal[:, DRAW] is True

Card kinds are those of simulator.hit_the_deck.cards (0..37). The engine checks every answer and
names the strategy in an IllegalMove otherwise.

Two kinds of decision share the view:
  * a turn (drawn == -1): play a legal card; DRAW is legal only under htd.voluntary_draw=true,
    and then means "draw one card instead" (the drawn card may then be played, see below);
  * after a draw (drawn >= 0, htd.drawn_card_play=optional, the drawn card is legal): play the
    drawn card (column `drawn`, the only legal card column) or DRAW = keep it and end the turn.

Demand encoding (engine, views, reference alike): -1 none, v-1 (0..4) for Number(v),
5+c (5..8) for Colour(c).
"""
from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from moonshot.simulator.batch import BatchView
from moonshot.simulator.hit_the_deck import cards

DRAW = cards.DRAW           # the answer "draw" (turn) or "keep the drawn card" (after a draw)
N_CHOICES = DRAW + 1        # columns of PlayView.legal: the kinds, then DRAW
KNOWN_DEPTH = 8     # columns of PlayView.known_draw


@dataclass
class PlayView(BatchView):
    players: int
    rules: object               # simulator.hit_the_deck.rules.Rules
    seat: np.ndarray            # (n,) int8 the seat to move
    hand: np.ndarray            # (n,38) int8 copies of each kind in the mover's hand
    legal: np.ndarray           # (n,39) bool: column k = play kind k; column DRAW (38) = draw
                                # (htd.voluntary_draw) or keep the drawn card (drawn_card_play=optional)
    drawn: np.ndarray           # (n,) int8 -1, or the kind just drawn when the question is "play it or keep it"
    top: np.ndarray             # (n,) int8 kind on top of the discard pile
    demand: np.ndarray          # (n,) int8 -1 none, v-1 Number(v), 5+c Colour(c)
    direction: np.ndarray       # (n,) int8 +1 clockwise, -1 counter-clockwise
    hand_sizes: np.ndarray      # (n,players) int16 every seat's card count (public)
    scores: np.ndarray          # (n,players) int16 game totals before this hand
    draw_size: np.ndarray       # (n,) int16 cards in the draw pile
    discard_size: np.ndarray    # (n,) int16 cards in the discard pile
    known_draw: np.ndarray      # (n,8) int8 the top 8 of the draw pile (column 0 = the top) as this
                                # seat's memory knows them (htd.memory, §C.10): the kind, or -1 unknown;
                                # -1 also past the end of the pile. Never more than the seat may know.
    seen: np.ndarray            # (n,38) int16 card events this hand by kind: each time a card went
                                # public onto the discard pile (played, or exposed: start card, cut,
                                # a top revealed by a flip or a burial). A card that comes back through
                                # a Flip or reshuffle and goes public again counts again.
    # added by the batch engine (None when a view is built by hand):
    legal_bits: np.ndarray = None   # (n,) uint64 the same as legal: bit k = column k (bit 38 = DRAW)
    lacks: np.ndarray = None    # (n,players) uint64 bit k: the seat showed it holds no card of kind k
                                # when it last had to draw (nothing legal: the top card and demand were
                                # public), for all but its `fresh` newest cards; 0 under
                                # htd.voluntary_draw, where a draw shows nothing
    fresh: np.ndarray = None    # (n,players) int16 cards each seat has taken (drawn, penalties) since then
    known_pile: np.ndarray = None   # (n,110) int8 known_draw at every depth of the pile (a search
                                # player's deal; known_draw is its first 8 columns)
    held: np.ndarray = None     # (n,players,38) int8 copies each seat is known to hold: cards it drew
                                # from draw-pile places whose cards had gone public (§C.10.2: the
                                # order after a Flip), less one per copy of that kind it played since;
                                # under htd.memory=perfect only (zeros otherwise: with window(K) or
                                # p_recall the seats would remember different draws); kept only for
                                # a table where a strategy says it reads it (reads_held = True)


# ---------------------------------------------------------------------------- choosing among set bits

# Masks are read 13 bits at a time (bits 0..38 in three chunks) through these tables:
CHUNK = 13
POP13 = np.array([bin(b).count("1") for b in range(1 << CHUNK)], dtype=np.int16)     # set bits
# SELECT13[chunk * 13 + r]: position of the r-th set bit (0-based) of the chunk, 0 when none
SELECT13 = np.zeros((1 << CHUNK) * CHUNK, dtype=np.int16)
for _b in range(1, 1 << CHUNK):
    _set = [i for i in range(CHUNK) if _b >> i & 1]
    SELECT13[_b * CHUNK:_b * CHUNK + len(_set)] = _set
_MASK13 = np.uint64((1 << CHUNK) - 1)


def bits_of(legal: np.ndarray) -> np.ndarray:
    """(n,39) bool -> (n,) uint64 with bit k set for column k (as PlayView.legal_bits)."""
    weights = np.uint64(1) << np.arange(legal.shape[1], dtype=np.uint64)
    return (legal.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def _chunks(bits: np.ndarray) -> list[np.ndarray]:
    bits = np.asarray(bits, dtype=np.uint64)
    return [((bits >> np.uint64(CHUNK * j)) & _MASK13).astype(np.intp) for j in range(3)]


def count_bits(bits: np.ndarray) -> np.ndarray:
    """(n,) uint64 -> (n,) int16 number of set bits among bits 0..38."""
    a, b, c = _chunks(bits)
    return POP13[a] + POP13[b] + POP13[c]


def nth_bit(bits: np.ndarray, r: np.ndarray) -> np.ndarray:
    """(n,) uint64 masks, (n,) ranks -> (n,) int16 the position of the r-th set bit (0-based);
    r must be below the mask's count of set bits (bits 0..38 only)."""
    chunks = _chunks(bits)
    rem = np.asarray(r, dtype=np.int16)
    out = np.zeros(len(rem), dtype=np.int16)
    done = np.zeros(len(rem), dtype=bool)
    for j, ch in enumerate(chunks):
        c = POP13[ch]
        here = ~done & (rem < c)
        pos = SELECT13[ch * CHUNK + np.clip(rem, 0, CHUNK - 1)] + CHUNK * j
        out = np.where(here, pos, out)
        done |= here
        rem = rem - c
    return out


def batch_view(view, legal) -> PlayView:
    """The reference engine's view of one decision (reference.View) as a one-row batch PlayView, what
    strategies take: the Play page's bots and the review see a reference-played hand through it."""
    counts = np.zeros((1, cards.N_KINDS), dtype=np.int8)
    for k in view.hand:
        counts[0, k] += 1
    mask = np.zeros((1, N_CHOICES), dtype=bool)
    for k in legal:
        mask[0, k] = True
    one = lambda v, t: np.array([v], dtype=t)          # noqa: E731
    return PlayView(players=view.players, rules=view.rules, seat=one(view.seat, np.int8), hand=counts, legal=mask,
                    drawn=one(view.drawn, np.int8), top=one(view.top, np.int8), demand=one(view.demand, np.int8),
                    direction=one(view.direction, np.int8), hand_sizes=np.array([view.hand_sizes], np.int16),
                    scores=np.array([view.scores], np.int16), draw_size=one(view.draw_size, np.int16),
                    discard_size=one(view.discard_size, np.int16),
                    known_draw=np.full((1, KNOWN_DEPTH), -1, np.int8), seen=np.array([view.seen], np.int16))


# ---------------------------------------------------------------------------- compiled bit helpers
# (the random player's choice, and the kernels and the tactician's loops that read legal masks)

@numba.njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Set bits of a uint64 (the SWAR count: no loop over the bits)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True, nogil=True, inline="always")
def lowest_index(b):
    """The number of the lowest set bit of a nonzero uint64 (the count of the zeros below it)."""
    return popcount((b & (~b + np.uint64(1))) - np.uint64(1))


@numba.njit(cache=True, nogil=True)
def nth_set_bit(bits, u, out):
    """out[i]: set bit number min(floor(u[i] * count), count - 1) of bits[i] (bits 0..38), as
    count_bits and nth_bit (compiled: the random player's whole cost was these table lookups)."""
    for i in range(len(bits)):
        b = bits[i] & np.uint64((1 << N_CHOICES) - 1)
        count = popcount(b)
        r = min(np.int16(u[i] * count), count - 1)
        for _ in range(r):                     # drop the r lowest set bits
            b &= b - np.uint64(1)
        out[i] = lowest_index(b)              # the lowest one left
