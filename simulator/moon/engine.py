"""Vectorized Moon engine: N hands (or games) in lock-step as numpy arrays (RULES.md §2).

The loops run over phases, calls, tricks and seats, never over hands. Rules come from lookup
tables built cell by cell from reference.py (tiles.tables); tests replay whole hands through
reference.Hand and whole games through reference.Game.

Encodings (batch dimension first):
  hands     (N, P, 7) int8   tile ids (tiles.py) dealt to each seat, in deal order
  widow     (N,) int8        the widow tile (3 players, 22-tile set), else None
  calls     (N, C) int8      auction calls in speaking order: -1 no call, 0 pass, 3..7 or 21
  bidder    (N,) int8        seat of the contract, -1 when thrown in;  bid (N,) int8, 0 when thrown in
  trump     (N,) int8        0..6, DOUBLES=7, NOTRUMP=8; -1 when thrown in
  play_*    (N, 7P) int8     every play in order (seats, tiles); trick t is columns tP..tP+P-1
Engine-private, flat row r = n*P + seat:
  rows8     (N*P, 8) int8    a seat's 7 tiles plus a -1 pad, so a row is one uint64 word: gathering
                             rows is a 1-D gather (the bidder's widow rides in slot 7 until the discard)
  live      (N*P,) uint8     7-bit mask of unplayed slots
  masks     (N*P*8,) uint8   byte r*8+b: slot mask of the row's tiles in suit b under the game's
                             trump (b = 0..6 number suits; b = 7 the trump suit, or the doubles suit
                             in no-trump with moon.notrump_doubles=own_suit; both never occur together)
  play_tiles/play_seats (7P, N), led (7, N), winners (7, N): kept transposed, one contiguous row per step
Public results may be transposed views of those (shape (N, k), C-order storage (k, N)).
Strategies see the views of simulator.moon.views; the PlayView is lazy (EnginePlayView): only
the fields a strategy reads are built, and seen/void are brought up to date from the play record.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

import numpy as np

from simulator.errors import BadInput, IllegalMove
from simulator.moon import reference as ref
from simulator.moon import tiles as T
from simulator.moon.rules import Rules, tile_set_for, validate
from simulator.moon.views import BID_VALUES, MOON_BID, PASS, BidView, DiscardView, PlayView, TrumpView

HAND = T.HAND_SIZE          # 7
TRICKS = T.TRICKS           # 7
NOTRUMP = T.NOTRUMP
N_TRUMPS = T.N_TRUMPS       # 9
N_SUITS = T.N_SUITS         # 9
MAX_BID_COL = len(BID_VALUES)

assert sys.byteorder == "little", "the suit-mask bytes assume a little-endian machine"

# ---------------------------------------------------------------------------- bit tables

SLOT_BIT = (1 << np.arange(8)).astype(np.uint8)
CLEAR = (~SLOT_BIT).astype(np.uint8)                                  # CLEAR[slot]: mask without it
BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)  # mask -> (8,) bools
BITS7 = np.ascontiguousarray(BITS[:, :HAND])
BIT_WORDS = BITS.astype(np.uint8).view(np.uint64).reshape(-1)        # mask -> 8 bool bytes as one word
POPCOUNT = BITS.sum(axis=1).astype(np.int8)
LOWEST = np.array([(m & -m).bit_length() - 1 for m in range(256)], dtype=np.int8)   # -1 if empty
HIGHEST = np.array([m.bit_length() - 1 for m in range(256)], dtype=np.int8)
# UNIFORM[mask, r]: the (r mod popcount)-th set bit of a 7-bit mask; with r uniform on 0..419
# (420 = lcm(1..7)) an exactly uniform pick among the set bits (-1 for an empty mask).
UNIFORM_R = 420


def _uniform_table() -> np.ndarray:
    out = np.full((128, UNIFORM_R), -1, dtype=np.int8)
    r = np.arange(UNIFORM_R)
    for m in range(1, 128):
        bits = np.flatnonzero(BITS7[m])
        out[m] = bits[r % len(bits)]
    return out


UNIFORM = _uniform_table()
UNIFORM_FLAT = UNIFORM.reshape(-1)
TILE_BIT = (np.uint32(1) << np.arange(T.N_TILES, dtype=np.uint32)).astype(np.uint32)
SUIT_BIT = (1 << np.arange(N_SUITS)).astype(np.uint16)
BITS9 = ((np.arange(512)[:, None] >> np.arange(N_SUITS)) & 1).astype(bool)
SUIT_BYTE = np.minimum(np.arange(N_SUITS), 7).astype(np.intp)        # suit id -> byte of the suit masks

# Bids: BidView.legal columns are BID_VALUES = [pass, 3, 4, 5, 6, 7, 21].
BID_COL = np.full(MOON_BID + 1, -1, dtype=np.int8)
BID_COL[BID_VALUES] = np.arange(MAX_BID_COL)


def _bid_legal_bits(rules: Rules) -> np.ndarray:
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
class MoonTable:
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
        return T.TILE_SETS[self.tile_set_name]

    @cached_property
    def has_widow(self) -> bool:
        return len(self.tile_set) > HAND * self.players

    @cached_property
    def side_of_seat(self) -> np.ndarray:
        return np.array(T.side_of_seats(self.players), dtype=np.int8)

    @cached_property
    def n_sides(self) -> int:
        return int(self.side_of_seat.max()) + 1

    @cached_property
    def tables(self) -> T.Tables:
        return T.tables(self.rules)

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

    # ------------------------------------------------------------ engine tables (flat)

    @cached_property
    def bid_legal(self) -> np.ndarray:
        return _bid_legal_bits(self.rules).reshape(-1)        # index forced * 22 + high

    @cached_property
    def suit_words(self) -> np.ndarray:
        """(7, 9*28) uint64: for slot i, word[trump*28 + tile] has bit 8b+i set when the tile is in
        suit byte b (see the module docstring)."""
        tab = self.tables
        word = np.zeros((T.N_TILES, N_TRUMPS), dtype=np.uint64)
        for b in range(8):
            member = tab.IN_SUIT[:, b, :].copy()
            if b == 7:
                member |= tab.IN_SUIT[:, T.DOUBLES_SUIT, :]
                assert not (tab.IN_SUIT[:, 7, :] & tab.IN_SUIT[:, T.DOUBLES_SUIT, :]).any()
            word |= member.astype(np.uint64) << np.uint64(8 * b)
        flat = np.ascontiguousarray(word.T).reshape(-1)
        return np.stack([flat << np.uint64(i) for i in range(HAND)])

    @cached_property
    def led_flat(self) -> np.ndarray:
        return self.tables.LED_SUIT.astype(np.intp).reshape(-1)          # tile*9 + trump

    @cached_property
    def needs_call_flat(self) -> np.ndarray:
        return self.tables.NEEDS_CALL.reshape(-1)

    @cached_property
    def power_flat(self) -> np.ndarray:
        return self.tables.POWER.astype(np.int8).reshape(-1)             # tile*81 + led*9 + trump

    @cached_property
    def is_trump_flat(self) -> np.ndarray:
        return self.tables.IS_TRUMP.reshape(-1)                          # tile*9 + trump

    @cached_property
    def in_suit_flat(self) -> np.ndarray:
        return self.tables.IN_SUIT.reshape(-1)                           # tile*81 + suit*9 + trump


# ---------------------------------------------------------------------------- deal

def _shuffle(rng: np.random.Generator, n: int, pool: np.ndarray, k: int,
             cols: np.ndarray | None = None) -> np.ndarray:
    """(k, n) int8: the first k positions of a uniform random permutation of `pool` per game.

    Partial Fisher-Yates on a transposed deck (each swap touches contiguous rows); position i
    swaps with i + floor(u * (M - i)) for a 32-bit uniform u (multiply-shift: the bias is below
    M / 2**32). With `cols`, the random numbers of all n games are drawn but only games `cols`
    are shuffled: (k, len(cols)), each game's deal the same as in the full draw.
    """
    M = len(pool)
    steps = min(k, M - 1)
    raw = rng.bit_generator.random_raw((max(steps, 0) * n + 1) // 2).view(np.uint32)[:max(steps, 0) * n]
    raw = raw.reshape(max(steps, 0), n)
    if cols is not None:
        raw = raw[:, cols]
        n = len(cols)
    deck = np.empty((M, n), dtype=np.int8)
    deck[:] = np.asarray(pool, dtype=np.int8)[:, None]
    if steps <= 0 or n == 0:
        return deck[:k]
    flat = deck.reshape(-1)
    cols_u = np.arange(n, dtype=np.uint64)
    nn = np.uint64(n)
    for i in range(steps):
        j = (raw[i] * np.uint64(M - i)) >> np.uint64(32)                # 0 .. M-i-1
        idx = ((j + np.uint64(i)) * nn + cols_u).view(np.int64)
        top = deck[i].copy()
        deck[i] = flat[idx]
        flat[idx] = top
    return deck[:k]


def deal(rng: np.random.Generator, n: int, table: MoonTable,
         games: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """(hands (n,P,7) int8, widow (n,) int8 or None), the layout of reference.deal: seat s gets
    permutation positions 7s..7s+6, the widow is position 21 (MOON-3.1, MOON-3.2).

    With `games` (indices): the randomness of all n games is drawn but only those games are dealt
    and returned, each exactly as the full deal would give it (common random numbers, cheaply)."""
    P = table.players
    k = HAND * P + int(table.has_widow)
    deck = _shuffle(rng, n, table.tile_set, k, games)
    m = deck.shape[1]
    hands = np.ascontiguousarray(deck[:HAND * P].T).reshape(m, P, HAND)
    widow = deck[HAND * P].copy() if table.has_widow else None
    return hands, widow


def deal_with_hand(rng: np.random.Generator, n: int, table: MoonTable, seat: int,
                   hand: Sequence[int]) -> tuple[np.ndarray, np.ndarray | None]:
    """Deals in which `seat` holds exactly `hand` (7 tile ids, in that slot order) in every game;
    the other hands and the widow are dealt uniformly from the remaining tiles."""
    P = table.players
    hand = [int(t) for t in hand]
    in_set = set(int(t) for t in table.tile_set)
    if not 0 <= int(seat) < P:
        raise BadInput(f"seat {seat} does not exist; accepted: 0..{P - 1}")
    if len(hand) != HAND or len(set(hand)) != HAND or not set(hand) <= in_set:
        raise BadInput(f"hand {[T.tile_name(t) if 0 <= t < T.N_TILES else t for t in hand]} is not "
                       f"{HAND} different tiles of {T.SET_DESCRIPTIONS[table.tile_set_name]}; "
                       f"accepted: {HAND} different tiles of that set")
    pool = np.array(sorted(in_set - set(hand)), dtype=np.int8)
    rest = _shuffle(rng, n, pool, len(pool))                  # (M-7, n)
    hands = np.empty((n, P, HAND), dtype=np.int8)
    hands[:, seat] = np.array(hand, dtype=np.int8)
    pos = 0
    for s in range(P):
        if s == seat:
            continue
        hands[:, s] = rest[pos:pos + HAND].T
        pos += HAND
    widow = rest[pos].copy() if table.has_widow else None
    return hands, widow


# ---------------------------------------------------------------------------- strategies

def _groups(strategies: Sequence) -> list[tuple[object, np.ndarray]]:
    """[(strategy, the seats it plays)]: seats sharing one strategy object are served by one call."""
    groups: dict[int, tuple[object, list[int]]] = {}
    for seat, strat in enumerate(strategies):
        groups.setdefault(id(strat), (strat, []))[1].append(seat)
    return [(s, np.array(seats)) for s, seats in groups.values()]


def _name(strat) -> str:
    return getattr(strat, "spec", type(strat).__name__)


def _ask(groups, method: str, view, chooser: np.ndarray, rng, check, *extra) -> np.ndarray:
    """Each strategy answers `method` for the games where one of its seats is `chooser`."""
    if len(groups) == 1:
        strat = groups[0][0]
        return check(strat, view, getattr(strat, method)(view, rng, *extra), *extra)
    out = np.empty(len(chooser), dtype=np.intp)
    for strat, seats in groups:
        idx = np.flatnonzero(np.isin(chooser, seats))
        if len(idx):
            sub = view.take(idx)
            part = [e[idx] for e in extra]
            out[idx] = check(strat, sub, getattr(strat, method)(sub, rng, *part), *part)
    return out


def _as_choice(choice, n: int) -> np.ndarray | None:
    choice = np.asarray(choice)
    if choice.shape != (n,) or not np.issubdtype(choice.dtype, np.integer):
        return None
    return choice.astype(np.intp, copy=False)


def _illegal(strat, what: str, accepted: str) -> IllegalMove:
    return IllegalMove(f"strategy {_name(strat)!r} returned an illegal {what}; accepted: {accepted}")


def _check_bid(strat, view: BidView, choice) -> np.ndarray:
    c = _as_choice(choice, len(view))
    ok = c is not None
    if ok:
        ok = bool(((c >= 0) & (c <= MOON_BID)).all())
        if ok:
            col = BID_COL[c]
            ok = bool(((col >= 0) & ((view.legal_bits >> np.maximum(col, 0).astype(np.uint8)) & 1).astype(bool)).all())
    if not ok:
        raise _illegal(strat, "bid", "one bid value per game (0 = pass, 3..7 or 21) where view.legal "
                                     "(columns BID_VALUES) is True")
    return c


def _check_discard(strat, view: DiscardView, choice) -> np.ndarray:
    c = _as_choice(choice, len(view))
    if c is None or not bool(((c >= 0) & (c < view.hand.shape[1])).all()):
        raise _illegal(strat, "discard", f"one slot 0..{view.hand.shape[1] - 1} of view.hand per game")
    return c


def _check_trump(strat, view: TrumpView, choice) -> np.ndarray:
    c = _as_choice(choice, len(view))
    ok = c is not None and bool(((c >= 0) & (c < N_TRUMPS)).all())
    if ok:
        ok = bool(view.legal[np.arange(len(c)), c].all())
    if not ok:
        raise _illegal(strat, "trump", "one trump id 0..8 per game where view.legal is True "
                                       "(0..6, 7 = doubles, 8 = no-trump)")
    return c


def _check_play(strat, view: PlayView, choice) -> np.ndarray:
    c = _as_choice(choice, len(view))
    ok = c is not None and bool(((c >= 0) & (c < HAND)).all())
    if ok:
        ok = bool(((view.legal_bits >> c.astype(np.uint8)) & 1).all())
    if not ok:
        raise _illegal(strat, "play", "one tile slot 0..6 per game where view.legal is True")
    return c


def _check_end(strat, view: PlayView, choice, slot) -> np.ndarray:
    c = _as_choice(choice, len(view))
    ok = c is not None
    if ok:
        tile = view.hand[np.arange(len(view)), slot]
        ok = bool(((c == T.HIGH[tile]) | (c == T.LOW[tile])).all())
    if not ok:
        raise _illegal(strat, "end call", "one end number per game, either end of the led tile")
    return c


# ---------------------------------------------------------------------------- hands as words

def _padded(hands: np.ndarray) -> np.ndarray:
    """(n,P,7) or (R,7) tiles -> (R,8) int8 rows with slot 7 = -1: a row is one uint64 word, so
    gathering rows is one fast 1-D gather."""
    rows7 = np.asarray(hands, dtype=np.int8).reshape(-1, HAND)
    rows8 = np.full((len(rows7), 8), -1, dtype=np.int8)
    rows8[:, :HAND] = rows7
    return rows8


def _words(rows8: np.ndarray) -> np.ndarray:
    return rows8.view(np.uint64).reshape(-1)


def _rows_of(words: np.ndarray, idx: np.ndarray, width: int = HAND) -> np.ndarray:
    """Rows `idx` of padded words -> (n,width) int8 (a view of the gathered words)."""
    return words[idx].view(np.int8).reshape(-1, 8)[:, :width]


def _bools7(bits: np.ndarray) -> np.ndarray:
    """(n,) 7-bit masks -> (n,7) bool."""
    return BIT_WORDS[bits].view(np.bool_).reshape(-1, 8)[:, :HAND]


def _bools28(bits: np.ndarray) -> np.ndarray:
    """(n,) uint32 tile masks -> (n,28) bool, one byte-table gather per 8 tiles."""
    b = np.ascontiguousarray(bits, dtype=np.uint32).view(np.uint8).reshape(-1, 4)
    return BIT_WORDS[b].view(np.bool_).reshape(-1, 32)[:, :T.N_TILES]


def _ro(a: np.ndarray) -> np.ndarray:
    """A read-only view: strategies get the engine's own arrays without copies, and cannot change them."""
    v = a.view()
    v.flags.writeable = False
    return v


def _take(a: np.ndarray, idx: np.ndarray | None) -> np.ndarray:
    """Rows idx of a (n,...) array (np.take is much faster than fancy indexing for short rows)."""
    if idx is None:
        return a
    return a[idx] if a.ndim == 1 else np.take(a, idx, axis=0)


# ---------------------------------------------------------------------------- auction

@dataclass
class Auction:
    calls: np.ndarray        # (n, max_calls) int8 calls in speaking order: -1 no call, 0 pass, else the bid
    call_seats: np.ndarray   # (n, max_calls) int8 seat of each call, -1 no call
    legal_bits: np.ndarray   # (n, max_calls) uint8 BID_VALUES bit mask open to that call (0 no call)
    bidder: np.ndarray       # (n,) int8 -1 when thrown in (MOON-4.6)
    bid: np.ndarray          # (n,) int8 0 when thrown in

    @property
    def thrown_in(self) -> np.ndarray:
        return self.bidder < 0


def run_auction(table: MoonTable, hands: np.ndarray, first_bidder: np.ndarray, scores: np.ndarray | None,
                strategies: Sequence, rng: np.random.Generator) -> Auction:
    """The auction of MOON-4 and the variants A-MOON-8/9/14/16, as reference.auction_state:
    calls clockwise from first_bidder; single_round: one call each; open_until_passes: players
    who have not passed are asked again until all but the high bidder have passed; a 21 ends it
    at once; all passed: thrown in (redeal) or the last player is forced (force_last_min /
    force_dealer)."""
    return _auction(table, _words(_padded(hands)), len(hands), first_bidder, scores, _groups(strategies), rng)


def _auction(table: MoonTable, words: np.ndarray, N: int, first_bidder, scores, groups, rng) -> Auction:
    rules, P = table.rules, table.players
    C = table.max_calls
    scores = np.zeros((N, table.n_sides), dtype=np.int16) if scores is None else np.asarray(scores)
    calls = np.full((C, N), -1, dtype=np.int8)            # transposed while filling
    call_seats = np.full((C, N), -1, dtype=np.int8)
    legal_log = np.zeros((C, N), dtype=np.uint8)
    by_seat = np.full((N, P), -1, dtype=np.int8)
    by_seat_flat = by_seat.reshape(-1)
    high = np.zeros(N, dtype=np.intp)
    bidder = np.full(N, -1, dtype=np.intp)
    passed = np.zeros(N, dtype=np.intp)                    # bit per seat
    n_passed = np.zeros(N, dtype=np.intp)
    seat = np.asarray(first_bidder).astype(np.intp) % P
    act = None                                             # games still bidding (None = all)
    single = rules.auction == "single_round"
    may_force = rules.all_pass != "redeal"
    legal_table = table.bid_legal
    side_of = table.side_of_seat
    ar_P = np.arange(N) * P
    for pos in range(C):
        s, h = _take(seat, act), _take(high, act)
        bd, npass = _take(bidder, act), _take(n_passed, act)
        if may_force:
            forced = ((bd < 0) & (npass == P - 1)).astype(np.intp)
            legal = legal_table[forced * (MOON_BID + 1) + h]
        else:
            legal = legal_table[h]
        row = _take(ar_P, act) + s
        view = BidView(P, rules, pos, _ro(s), _rows_of(words, row), _take(by_seat, act).copy(), h.astype(np.int8),
                       _bools7(legal), _ro(_take(scores, act)), side_of[s], legal_bits=_ro(legal))
        choice = _ask(groups, "bid", view, s, rng, _check_bid)
        is_pass = choice == PASS
        by_seat_flat[row] = choice
        npass = npass + is_pass
        h = np.where(is_pass, h, choice)
        bd = np.where(is_pass, bd, s)
        pa = _take(passed, act) | (is_pass.astype(np.intp) << s)
        if single:
            end = (choice == MOON_BID) | (pos == P - 1)
            nxt = s + 1
            nxt[nxt == P] = 0
        else:
            end = (choice == MOON_BID) | (npass == P) | ((bd >= 0) & (npass == P - 1))
            nxt = (s + 1) % P
            for _ in range(P - 1):
                nxt = np.where((pa >> nxt) & 1, (nxt + 1) % P, nxt)
        if act is None:
            calls[pos], call_seats[pos], legal_log[pos] = choice, s, legal
            n_passed, high, bidder, passed, seat = npass, h, bd, pa, nxt
        else:
            calls[pos, act], call_seats[pos, act], legal_log[pos, act] = choice, s, legal
            n_passed[act], high[act], bidder[act], passed[act], seat[act] = npass, h, bd, pa, nxt
        if end.all():
            break
        if end.any():
            keep = np.flatnonzero(~end)
            act = keep if act is None else act[keep]
    bid = np.where(bidder >= 0, high, 0)
    return Auction(np.ascontiguousarray(calls.T), np.ascontiguousarray(call_seats.T),
                   np.ascontiguousarray(legal_log.T), bidder.astype(np.int8), bid.astype(np.int8))


# ---------------------------------------------------------------------------- widow and trump

# LOW_BYTES[s]: the bytes below byte s of a word (the slots before slot s).
LOW_BYTES = np.array([(1 << (8 * s)) - 1 for s in range(8)], dtype=np.uint64)
TOP_BYTE = np.uint64(0xFF << 56)


def widow_and_trump(table: MoonTable, hands: np.ndarray, widow: np.ndarray | None, bidder: np.ndarray,
                    bid: np.ndarray, strategies: Sequence, rng: np.random.Generator,
                    scores: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MOON-5 / A-MOON-6: the bidder takes the widow (3 players, 22-tile set), discards one of the
    8 tiles and names trump (trump first with moon.widow_timing=trump_first); without a widow the
    bidder only names trump. Returns (hands after the discard (n,P,7), discard (n,) -1 if none,
    trump (n,) -1 when thrown in). The bidder's remaining tiles keep their slot order; a kept
    widow takes the freed slot at the end."""
    N, P = len(hands), table.players
    rows8, discard, trump = _widow_and_trump(table, _padded(hands), N, widow, bidder, bid, _groups(strategies),
                                             rng, scores)
    return np.ascontiguousarray(rows8[:, :HAND]).reshape(N, P, HAND), discard, trump


def _widow_and_trump(table: MoonTable, rows8: np.ndarray, N: int, widow, bidder, bid, groups, rng, scores):
    """As widow_and_trump on padded rows (changed in place); returns (rows8, discard, trump)."""
    rules, P = table.rules, table.players
    words = _words(rows8)
    discard = np.full(N, -1, dtype=np.int8)
    trump = np.full(N, -1, dtype=np.int8)
    bidder = np.asarray(bidder)
    everyone = bool((bidder >= 0).all())
    act = None if everyone else np.flatnonzero(bidder >= 0)
    if act is not None and len(act) == 0:
        return rows8, discard, trump
    m = N if act is None else len(act)
    scores = np.zeros((N, table.n_sides), dtype=np.int16) if scores is None else np.asarray(scores)
    b = _ro(_take(bidder, act).astype(np.intp))
    bd = _ro(_take(np.asarray(bid), act).astype(np.int8))
    sc = _ro(_take(scores, act))
    row = _take(np.arange(N) * P, act) + b
    allowed = np.broadcast_to(table.allowed_trumps, (m, N_TRUMPS))

    def ask_trump(hand):
        view = TrumpView(P, rules, b, hand, bd, allowed, sc)
        return _ask(groups, "trump", view, b, rng, _check_trump).astype(np.int8)

    def ask_discard(hand8, tr):
        view = DiscardView(P, rules, b, hand8, bd, tr, sc)
        return _ask(groups, "discard", view, b, rng, _check_discard)

    if table.has_widow:
        w = words[row]
        w = (w & ~TOP_BYTE) | (_take(np.asarray(widow), act).astype(np.uint8).astype(np.uint64) << np.uint64(56))
        hand8 = _ro(w.view(np.int8).reshape(m, 8))         # MOON-5.1: the widow in slot 7
        if rules.widow_timing == "trump_first":            # A-MOON-6
            tr = ask_trump(hand8)
            slot = ask_discard(hand8, _ro(tr))
        else:
            slot = ask_discard(hand8, np.full(m, -1, dtype=np.int8))
            tr = None
        d = hand8[np.arange(m), slot]
        low = LOW_BYTES[slot]
        w = (w & low) | ((w >> np.uint64(8)) & ~low) | TOP_BYTE    # drop the slot, keep the order
        words[row] = w
        if act is None:
            discard = d
        else:
            discard[act] = d
        if tr is None:
            tr = ask_trump(w.view(np.int8).reshape(m, 8)[:, :HAND])
    else:
        tr = ask_trump(_rows_of(words, row))
    if act is None:
        trump = tr
    else:
        trump[act] = tr
    return rows8, discard, trump


# ---------------------------------------------------------------------------- play

class _Play:
    """The full-batch arrays of the hands being played (engine-private; see the module docstring).

    play_tiles/play_seats are kept transposed (7P, N) so each step writes one contiguous row."""

    def __init__(self, table: MoonTable, rows8, N, bidder, bid, trump, scores, discard):
        P = table.players
        self.table, self.N, self.P = table, N, P
        self.rows8 = rows8
        self.words = self.rows8.view(np.uint64).reshape(-1)       # one word per row
        self.tiles_flat = self.rows8.reshape(-1)                  # slot i of row r at r*8 + i
        self.bidder, self.bid, self.trump_i = bidder, bid, trump
        self.trump = trump.astype(np.int8)
        self.scores, self.discard = scores, discard
        self.live = np.full(N * P, 127, dtype=np.uint8)
        self.play_tiles = np.full((TRICKS * P, N), -1, dtype=np.int8)
        self.play_seats = np.full((TRICKS * P, N), -1, dtype=np.int8)
        self.led = np.full((TRICKS, N), -1, dtype=np.int8)        # led suit of each trick
        self.winners = np.full((TRICKS, N), -1, dtype=np.int8)
        self.n_played = 0
        self._seen = np.zeros(N, dtype=np.uint32)                # caches, brought up to date on demand
        self._seen_upto = 0
        self._void = np.zeros(N * P, dtype=np.uint16)
        self._void_upto = 0

    def seen(self) -> np.ndarray:
        for j in range(self._seen_upto, self.n_played):
            self._seen |= TILE_BIT[self.play_tiles[j]]
        self._seen_upto = self.n_played
        return self._seen

    def void(self) -> np.ndarray:
        """(N*P,) uint16: suits each seat has shown it lacks (MOON-6.3: it did not follow; A-MOON-10:
        a bidder who must lead trump and does not)."""
        P, tab, rules = self.P, self.table, self.table.rules
        ar_P = np.arange(self.N) * P
        for j in range(self._void_upto, self.n_played):
            tile = self.play_tiles[j].astype(np.intp)
            seat = self.play_seats[j].astype(np.intp)
            if j % P:
                led = self.led[j // P].astype(np.intp)
                out = ~tab.in_suit_flat[(tile * N_SUITS + led) * N_TRUMPS + self.trump_i]
                self._void[ar_P + seat] |= np.where(out, SUIT_BIT[led], 0).astype(np.uint16)
            elif j == 0 and rules.first_lead_trump:
                out = ~tab.is_trump_flat[tile * N_TRUMPS + self.trump_i] & (self.trump_i != NOTRUMP)
                self._void[ar_P + seat] |= np.where(out, SUIT_BIT[T.TRUMP_SUIT], 0).astype(np.uint16)
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


class _Step:
    __slots__ = ("trick_no", "position", "seat", "row", "legal", "led", "win_seat", "win_power", "called")

    def __init__(self, trick_no, position, seat, row, legal, led, win_seat, win_power, called):
        self.trick_no, self.position, self.seat, self.row, self.legal = trick_no, position, seat, row, legal
        self.led, self.win_seat, self.win_power, self.called = led, win_seat, win_power, called


def _lazy(fn):
    return cached_property(fn)


class EnginePlayView(PlayView):
    """A PlayView whose arrays are built on first use from the engine's state (the same fields,
    same meaning). Valid while the strategy is being asked; take(idx) selects games cheaply."""

    def __new__(cls, *args, **kwargs):
        if kwargs and "st" not in kwargs:              # dataclasses.replace(view, ...): a plain PlayView
            return PlayView(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, st: _Play, step: _Step, idx: np.ndarray | None = None):
        table = st.table
        self.players, self.rules, self.tables = table.players, table.rules, table.tables
        self.trick_no, self.position = step.trick_no, step.position
        self.side_of_seat = table.side_of_seat
        self._st, self._step, self._idx = st, step, idx

    def _ref(self, a: np.ndarray) -> np.ndarray:
        """Select this view's games of an (N,...) array: for the full batch a read-only view, no copy
        (only arrays the engine does not change while the strategy may look go through here)."""
        if self._idx is None:
            return _ro(a)
        return a[self._idx] if a.ndim == 1 else np.take(a, self._idx, axis=0)

    def take(self, idx: np.ndarray) -> "EnginePlayView":
        idx = np.asarray(idx)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        return EnginePlayView(self._st, self._step, idx if self._idx is None else self._idx[idx])

    def __len__(self) -> int:
        return len(self.seat)

    def _trick_rows(self, a: np.ndarray) -> np.ndarray:
        P = self._st.P
        return self._ref(np.ascontiguousarray(a[self.trick_no * P:(self.trick_no + 1) * P].T))

    seat = _lazy(lambda self: self._ref(self._step.seat))
    _row = _lazy(lambda self: self._ref(self._step.row))
    side = _lazy(lambda self: self.side_of_seat[self.seat])
    hand = _lazy(lambda self: _rows_of(self._st.words, self._row))
    live_bits = _lazy(lambda self: self._st.live[self._row])
    live = _lazy(lambda self: _bools7(self.live_bits))
    legal_bits = _lazy(lambda self: self._ref(self._step.legal))
    legal = _lazy(lambda self: _bools7(self.legal_bits))
    trump = _lazy(lambda self: self._ref(self._st.trump))
    bidder = _lazy(lambda self: self._ref(self._st.bidder))
    bid = _lazy(lambda self: self._ref(self._st.bid))
    trick = _lazy(lambda self: self._trick_rows(self._st.play_tiles))
    trick_seats = _lazy(lambda self: self._trick_rows(self._st.play_seats))
    led_suit = _lazy(lambda self: self._ref(self._step.led))
    winning_seat = _lazy(lambda self: self._ref(self._step.win_seat))
    winning_power = _lazy(lambda self: self._ref(self._step.win_power))
    called_end = _lazy(lambda self: self._ref(self._step.called))
    tricks = _lazy(lambda self: self._ref(self._st.tricks(self.trick_no)))
    seen_bits = _lazy(lambda self: self._ref(self._st.seen().copy()))
    seen = _lazy(lambda self: _bools28(self.seen_bits))
    void_bits = _lazy(lambda self: self._ref(self._st.void().reshape(self._st.N, self._st.P).copy()))
    void = _lazy(lambda self: BITS9[self.void_bits])
    scores = _lazy(lambda self: self._ref(self._st.scores))
    discard = _lazy(lambda self: np.where(self.seat == self.bidder, self._ref(self._st.discard), -1).astype(np.int8))


@dataclass
class PlayResult:
    """Batch-first arrays; they may be transposed views (C-order (7P, n) storage seen as (n, 7P))."""
    tricks_seat: np.ndarray     # (n,P) int8 tricks won per seat
    tricks: np.ndarray          # (n,S) int8 tricks won per side
    play_seats: np.ndarray      # (n,7P) int8 seat of each play, in order
    play_tiles: np.ndarray      # (n,7P) int8 tile of each play
    called_ends: np.ndarray     # (n,7) int8 end named for each trick's lead (leader_calls_end), else -1
    trick_winners: np.ndarray   # (n,7) int8 seats
    legal_trace: list = field(default_factory=list)   # per step: (seat (n,), legal tiles (n,7), -1 = illegal)


def play_tricks(table: MoonTable, hands7: np.ndarray, bidder: np.ndarray, bid: np.ndarray, trump: np.ndarray,
                strategies: Sequence, rng: np.random.Generator, scores: np.ndarray | None = None,
                trace: bool = False, discard: np.ndarray | None = None) -> PlayResult:
    """Play the 7 tricks (MOON-6, MOON-7) of hands that have a contract (every bidder >= 0).

    The bidder leads the first trick (with moon.first_lead_trump a trump if it holds one); each
    trick's winner leads the next. `discard` (optional) is shown to the bidder as PlayView.discard.
    """
    return _play_tricks(table, _padded(hands7), len(hands7), bidder, bid, trump, _groups(strategies), rng,
                        scores, trace, discard)


def _play_tricks(table: MoonTable, rows8: np.ndarray, N: int, bidder, bid, trump, groups, rng, scores=None,
                 trace=False, discard=None) -> PlayResult:
    rules, P, S = table.rules, table.players, table.n_sides
    bidder = np.asarray(bidder).astype(np.intp)
    if N and bidder.min() < 0:
        raise ValueError("play_tricks needs a contract in every game (bidder >= 0)")
    trump_i = np.asarray(trump).astype(np.intp)
    if N and not table.allowed_trumps[trump_i].all():
        raise ValueError("play_tricks needs an allowed trump in every game")
    scores = np.zeros((N, S), dtype=np.int16) if scores is None else np.asarray(scores)
    discard = np.full(N, -1, dtype=np.int8) if discard is None else np.asarray(discard, dtype=np.int8)
    st = _Play(table, rows8, N, bidder.astype(np.int8), np.asarray(bid).astype(np.int8), trump_i, scores, discard)
    rows8, tiles_flat, live = st.rows8, st.tiles_flat, st.live
    play_tiles, play_seats = st.play_tiles, st.play_seats

    # Suit slot masks, 8 bytes per row (module docstring): masks[row*8 + suit byte].
    tr = np.repeat(trump_i * T.N_TILES, P)
    words = table.suit_words
    word = np.zeros(N * P, dtype=np.uint64)
    for i in range(HAND):
        tile_i = rows8[:, i].astype(np.intp)
        tile_i += tr
        word |= words[i][tile_i]
    masks = word.view(np.uint8)
    del tr, tile_i

    led_flat, power_flat = table.led_flat, table.power_flat
    calls = rules.lead_suit_rule == "leader_calls_end"
    next_seat = np.roll(np.arange(P), -1)
    ar_P = np.arange(N) * P
    called_ends = np.full((TRICKS, N), -1, dtype=np.int8)
    neg = np.full(N, -1, dtype=np.int8)
    legal_trace = []
    leader = bidder
    for t in range(TRICKS):
        seat = leader
        for k in range(P):
            j = t * P + k
            if k:
                seat = next_seat[seat]
            row = ar_P + seat
            row8 = row << 3
            mine = live[row]
            if k == 0:
                legal = mine
                if t == 0 and rules.first_lead_trump:     # A-MOON-10
                    trumps = masks[row8 + 7] & mine
                    trumps[trump_i == NOTRUMP] = 0          # byte 7 is the doubles suit in no-trump
                    legal = np.where(trumps, trumps, mine)
                step = _Step(t, k, seat, row, legal, neg, neg, neg, neg)
            else:
                on = masks[row8 + led_byte] & mine             # MOON-6.3: follow the led suit if able
                legal = np.where(on, on, mine)
                step = _Step(t, k, seat, row, legal, led8, win_seat, best, called8)
            if trace:
                legal_trace.append((seat.astype(np.int8),
                                    np.where(_bools7(legal), _rows_of(st.words, row), -1).astype(np.int8)))
            view = EnginePlayView(st, step)
            slot = _ask(groups, "play", view, seat, rng, _check_play)
            tile8 = tiles_flat[row8 + slot]
            tile = tile8.astype(np.intp)
            if k == 0:
                tt = tile * N_TRUMPS + trump_i
                led = led_flat[tt]                                  # MOON-2.4
                if calls:                                           # A-MOON-11
                    need = table.needs_call_flat[tt]
                    end = np.where(need, T.HIGH[tile], -1).astype(np.intp)
                    idx = np.flatnonzero(need)
                    if len(idx):
                        end[idx] = _call_ends(groups, view, seat, slot, idx, rng)
                    led = np.where(need, end, led)
                    called_ends[t] = end
                    called8 = called_ends[t]
                else:
                    called8 = neg
                led8 = led.astype(np.int8)
                st.led[t] = led8
                led_byte = SUIT_BYTE[led]
                base = led * N_TRUMPS + trump_i
                best = power_flat[tile * 81 + base]                 # MOON-7.1
                win_seat = seat.astype(np.int8)
            else:
                power = power_flat[tile * 81 + base]
                better = power > best
                best = np.where(better, power, best)
                win_seat = np.where(better, seat, win_seat).astype(np.int8)
            live[row] = mine & CLEAR[slot]
            play_tiles[j] = tile8
            play_seats[j] = seat
            st.n_played = j + 1
        st.winners[t] = win_seat                                    # MOON-7.3
        leader = win_seat.astype(np.intp)
    tricks_seat = np.empty((P, N), dtype=np.int8)
    for s in range(P):
        tricks_seat[s] = (st.winners == s).sum(axis=0)
    if S == P:
        tricks = tricks_seat.copy()
    else:
        tricks = np.zeros((S, N), dtype=np.int8)
        for s in range(P):
            tricks[table.side_of_seat[s]] += tricks_seat[s]
    # batch-first views of the transposed arrays (no copy)
    return PlayResult(tricks_seat.T, tricks.T, play_seats.T, play_tiles.T, called_ends.T, st.winners.T, legal_trace)


def _call_ends(groups, view: EnginePlayView, seat, slot, idx, rng) -> np.ndarray:
    """A-MOON-11: the leader names the suit of a non-double non-trump lead; a strategy without
    call_end names the higher end."""
    sub = view.take(idx)
    chooser, slots = seat[idx], slot[idx]
    out = T.HIGH[sub.hand[np.arange(len(idx)), slots]].astype(np.intp)
    for strat, seats in groups:
        mine = np.flatnonzero(np.isin(chooser, seats)) if len(groups) > 1 else np.arange(len(idx))
        if not len(mine) or not callable(getattr(strat, "call_end", None)):
            continue
        part = sub if len(groups) == 1 else sub.take(mine)
        out[mine] = _check_end(strat, part, strat.call_end(part, slots[mine], rng), slots[mine])
    return out


# ---------------------------------------------------------------------------- scoring

def score(table: MoonTable, bidder: np.ndarray, bid: np.ndarray, tricks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points (n,S) int16, made (n,) bool) as reference.score_hand (MOON-8, MOON-10.4, A-MOON-1/13/15).

    Thrown-in hands (bidder -1) score zero and have made False."""
    rules, P, S = table.rules, table.players, table.n_sides
    bidder = np.asarray(bidder).astype(np.intp)
    bid = np.asarray(bid).astype(np.int16)
    tricks = np.array(tricks, dtype=np.int16, order="C")     # a fresh C-order copy: written below
    n = len(bidder)
    played = bidder >= 0
    own = table.side_of_seat.astype(np.intp)[np.maximum(bidder, 0)]
    cell = np.arange(n) * S + own                          # flat index of the bidder's side
    pts = tricks                                           # a fresh contiguous copy (astype above)
    won = pts.reshape(-1)[cell]
    made = won > bid if rules.bid_success == "strictly_greater" else won >= bid
    made = np.where(bid == MOON_BID, won == TRICKS, made) & played
    if rules.scoring == "marks7":
        pts = np.array(np.broadcast_to((~made)[:, None], (n, S)), dtype=np.int16, order="C")
        pts.reshape(-1)[cell] = made
    else:
        gain = bid
        if P == 4 and rules.bidder_score_4p == "tricks_won":
            gain = np.where(bid == MOON_BID, bid, won)
        pts.reshape(-1)[cell] = np.where(made, gain, -bid)
    pts *= played[:, None]
    return pts, made


def instant_results(table: MoonTable, bidder: np.ndarray, bid: np.ndarray, made: np.ndarray):
    """(wins_game, loses_game) (n,) side or -1: moon.moon_bid_scoring instant variants (A-MOON-3)."""
    n = len(bidder)
    wins = np.full(n, -1, dtype=np.int8)
    loses = np.full(n, -1, dtype=np.int8)
    mode = table.rules.moon_bid_scoring
    if mode == "points":
        return wins, loses
    bidder = np.asarray(bidder).astype(np.intp)
    moon = (np.asarray(bid) == MOON_BID) & (bidder >= 0)
    own = table.side_of_seat[np.maximum(bidder, 0)]
    wins = np.where(moon & made, own, -1).astype(np.int8)
    if mode == "instant_win_or_loss":
        loses = np.where(moon & ~made, own, -1).astype(np.int8)
    return wins, loses


def game_winner(table: MoonTable, scores: np.ndarray, bidder: np.ndarray, wins: np.ndarray,
                loses: np.ndarray) -> np.ndarray:
    """(n,) winning side or -1, as reference.game_winner (MOON-9.1, MOON-10.5, A-MOON-3/7)."""
    rules, S = table.rules, table.n_sides
    n = len(scores)
    ar = np.arange(n)
    scores = np.asarray(scores)
    top = scores.max(axis=1)
    leaders = scores == top[:, None]
    n_lead = leaders.sum(axis=1)
    target = ref.target_score(rules)
    out = np.where((top >= target) & (n_lead == 1), scores.argmax(axis=1), -1)
    if rules.end_tie == "bidder_goes_out":
        bidder = np.asarray(bidder).astype(np.intp)
        bside = table.side_of_seat.astype(np.intp)[np.maximum(bidder, 0)]
        tie = (top >= target) & (n_lead > 1) & (bidder >= 0) & leaders[ar, bside]
        out = np.where(tie, bside, out)
    loses = np.asarray(loses).astype(np.intp)
    if (loses >= 0).any():
        best = np.full(n, np.iinfo(np.int32).min, dtype=np.int64)
        pick = np.full(n, -1, dtype=np.intp)
        for k in range(1, S):
            side = (loses + k) % S
            v = scores[ar, side]
            better = v > best                      # ties keep the first clockwise from the loser
            best = np.where(better, v, best)
            pick = np.where(better, side, pick)
        out = np.where(loses >= 0, pick, out)
    wins = np.asarray(wins)
    out = np.where(wins >= 0, wins, out)
    return out.astype(np.int8)


# ---------------------------------------------------------------------------- a hand, a game

@dataclass
class HandResult:
    """One hand per game (all arrays batch first). Thrown-in hands (bidder -1): no discard, trump
    -1, plays/trick winners -1, zero tricks and score."""
    hands: np.ndarray           # (n,P,7) int8 as dealt
    widow: np.ndarray | None    # (n,) int8, None without a widow
    first_bidder: np.ndarray    # (n,) int8
    calls: np.ndarray           # (n,C) int8 calls in speaking order (-1 none, 0 pass)
    call_seats: np.ndarray      # (n,C) int8
    bid_legal: np.ndarray       # (n,C) uint8 BID_VALUES bit mask open to each call
    bidder: np.ndarray          # (n,) int8, -1 thrown in
    bid: np.ndarray             # (n,) int8, 0 thrown in
    discard: np.ndarray         # (n,) int8 tile, -1 none
    trump: np.ndarray           # (n,) int8, -1 thrown in
    hands7: np.ndarray          # (n,P,7) int8 the hands played (the bidder's after the discard)
    play_seats: np.ndarray      # (n,7P) int8
    play_tiles: np.ndarray      # (n,7P) int8
    called_ends: np.ndarray     # (n,7) int8, -1 when no end was called
    trick_winners: np.ndarray   # (n,7) int8
    tricks_seat: np.ndarray     # (n,P) int8
    tricks: np.ndarray          # (n,S) int8
    score: np.ndarray           # (n,S) int16 points (or marks) this hand
    made: np.ndarray            # (n,) bool (False when thrown in)
    wins_game: np.ndarray       # (n,) int8 side winning at once (instant 21 variants), -1
    loses_game: np.ndarray      # (n,) int8 side losing at once (instant_win_or_loss), -1
    legal_trace: list = field(default_factory=list)   # with trace: per play step (seat, legal tiles);
    #                                                     rows of thrown-in hands are -1

    @property
    def thrown_in(self) -> np.ndarray:
        return self.bidder < 0

    def __len__(self) -> int:
        return len(self.bidder)


def play_hands(table: MoonTable, n: int, strategies: Sequence, deal_rng: np.random.Generator | None,
               play_rng: np.random.Generator, scores: np.ndarray | None = None,
               first_bidder: np.ndarray | None = None, hands: np.ndarray | None = None,
               widow: np.ndarray | None = None, trace: bool = False) -> HandResult:
    """One whole hand per game: deal (unless `hands` given), auction, widow/trump, play, score.

    `first_bidder` defaults to a random seat per game (deal_rng); `scores` (game totals before
    the hand) are only shown to the strategies. Thrown-in hands are not played."""
    P, S = table.players, table.n_sides
    if hands is None:
        hands, widow = deal(deal_rng, n, table)
    else:
        hands = np.asarray(hands, dtype=np.int8)
        if hands.shape != (n, P, HAND):
            raise ValueError(f"hands must have shape {(n, P, HAND)}, got {hands.shape}")
        if table.has_widow and widow is None:
            raise ValueError("this table has a widow: pass widow with hands")
        widow = np.asarray(widow, dtype=np.int8) if table.has_widow else None
    if first_bidder is None:
        first_bidder = deal_rng.integers(0, P, n)
    first_bidder = np.broadcast_to(np.asarray(first_bidder), (n,)).astype(np.int8)
    scores = np.zeros((n, S), dtype=np.int16) if scores is None else np.asarray(scores)
    groups = _groups(strategies)
    rows8 = _padded(hands)
    auc = _auction(table, _words(rows8), n, first_bidder, scores, groups, play_rng)
    rows8, discard, trump = _widow_and_trump(table, rows8, n, widow, auc.bidder, auc.bid, groups, play_rng, scores)
    played = np.flatnonzero(auc.bidder >= 0)
    everyone = len(played) == n
    trace_out = []
    if everyone:
        res = _play_tricks(table, rows8, n, auc.bidder, auc.bid, trump, groups, play_rng, scores, trace, discard)
        play_seats, play_tiles, called_ends = res.play_seats, res.play_tiles, res.called_ends
        winners, tricks_seat, tricks = res.trick_winners, res.tricks_seat, res.tricks
        trace_out = res.legal_trace
    else:                                # thrown-in hands are not played: their rows are -1 / 0
        m = len(played)
        parts = {"play_seats": (TRICKS * P, -1), "play_tiles": (TRICKS * P, -1), "called_ends": (TRICKS, -1),
                 "trick_winners": (TRICKS, -1), "tricks_seat": (P, 0), "tricks": (S, 0)}
        if m:
            sub8 = np.take(rows8.reshape(n, P * 8), played, axis=0).reshape(-1, 8)
            res = _play_tricks(table, sub8, m, auc.bidder[played], auc.bid[played], trump[played], groups,
                               play_rng, np.take(scores, played, axis=0), trace, discard[played])
        inv = np.full(n, m, dtype=np.intp)         # column of each game in the played results; m = filler
        inv[played] = np.arange(m)
        full = {}
        for k, (rows, fill) in parts.items():
            ext = np.full((rows, m + 1), fill, dtype=np.int8)
            if m:
                ext[:, :m] = getattr(res, k).T
            full[k] = np.take(ext, inv, axis=1).T
        if m:
            for seat_t, legal_t in res.legal_trace:
                s_full = np.full(n, -1, dtype=np.int8)
                l_full = np.full((n, HAND), -1, dtype=np.int8)
                s_full[played], l_full[played] = seat_t, legal_t
                trace_out.append((s_full, l_full))
        play_seats, play_tiles, called_ends = full["play_seats"], full["play_tiles"], full["called_ends"]
        winners, tricks_seat, tricks = full["trick_winners"], full["tricks_seat"], full["tricks"]
    points, made = score(table, auc.bidder, auc.bid, tricks)
    wins, loses = instant_results(table, auc.bidder, auc.bid, made)
    hands7 = rows8[:, :HAND].reshape(n, P, HAND)
    return HandResult(hands, widow, first_bidder, auc.calls, auc.call_seats, auc.legal_bits, auc.bidder, auc.bid,
                      discard, trump, hands7, play_seats, play_tiles, called_ends, winners, tricks_seat, tricks,
                      points, made, wins, loses, trace_out)


@dataclass
class GameResult:
    winner: np.ndarray          # (n,) int8 winning side, -1 when unfinished after max_hands
    hands: np.ndarray           # (n,) int16 hands played (thrown-in hands included)
    scores: np.ndarray          # (n,S) int16 final totals
    thrown_in: np.ndarray       # (n,) int16 hands thrown in
    contracts: np.ndarray       # (n,S) int16 hands in which the side held the contract
    made: np.ndarray            # (n,S) int16 contracts made by the side
    moon_bids: np.ndarray       # (n,S) int16 21 contracts by the side
    first_bidder: np.ndarray    # (n,) int8 first bidder of the first hand
    first_hand: HandResult | None = None     # the opening hand of every game
    hand_log: list = field(default_factory=list)  # with keep_hands: [(game indices, HandResult)] per hand


def play_games(table: MoonTable, n: int, strategies: Sequence, deal_rng: np.random.Generator,
               play_rng: np.random.Generator, max_hands: int = 400, keep_hands: bool = False) -> GameResult:
    """Whole games (MOON-4.1, MOON-9.1, MOON-10.5, A-MOON-3/7/15/18), as reference.Game.

    The first bidder is random (deal_rng), then moves left every hand, thrown-in hands included.
    Every hand's deal is drawn for all n games, finished or not (only the active ones are
    shuffled), so two runs that differ only in play see the same deals. Finished games are inert: each hand is played by the active games only.
    """
    P, S = table.players, table.n_sides
    rules = table.rules
    first = deal_rng.integers(0, P, n).astype(np.int8)
    first0 = first.copy()
    scores = np.zeros((n, S), dtype=np.int16)
    winner = np.full(n, -1, dtype=np.int8)
    n_hands = np.zeros(n, dtype=np.int16)
    thrown = np.zeros(n, dtype=np.int16)
    contracts = np.zeros((n, S), dtype=np.int16)
    made_n = np.zeros((n, S), dtype=np.int16)
    moons = np.zeros((n, S), dtype=np.int16)
    last_set = np.full(n, -1, dtype=np.int8)
    set_twice = rules.set_twice_loses_4p and P == 4
    side_of = table.side_of_seat
    first_hand = None
    log = []
    for h in range(max_hands):
        active = np.flatnonzero(winner < 0)
        if len(active) == 0:
            break
        idx = None if len(active) == n else active
        hands, widow = deal(deal_rng, n, table, idx)          # drawn for all n games, dealt for the active

        def sel(a):
            return _take(a, idx)

        res = play_hands(table, len(active), strategies, None, play_rng, scores=sel(scores),
                         first_bidder=sel(first), hands=hands, widow=widow)
        if h == 0:
            first_hand = res
        if keep_hands:
            log.append((active, res))
        played = res.bidder >= 0
        own = side_of[np.maximum(res.bidder, 0)].astype(np.intp)
        new_scores = sel(scores) + res.score
        scores[active] = new_scores
        n_hands[active] += 1
        thrown[active] += ~played
        rows = np.flatnonzero(played)
        ga = active[rows]
        contracts[ga, own[rows]] += 1
        made_n[ga, own[rows]] += res.made[rows]
        moons[ga, own[rows]] += res.bid[rows] == MOON_BID
        loses = res.loses_game.copy()
        if set_twice:
            set_side = np.where(played & ~res.made, own, -1).astype(np.int8)
            prev = sel(last_set)
            twice = (set_side >= 0) & (set_side == prev) & (loses < 0)
            loses = np.where(twice, set_side, loses)
            last_set[active] = np.where(played, set_side, prev)
        first[active] = (sel(first) + 1) % P
        winner[active] = game_winner(table, new_scores, res.bidder, res.wins_game, loses)
    return GameResult(winner, n_hands, scores, thrown, contracts, made_n, moons, first0, first_hand, log)
