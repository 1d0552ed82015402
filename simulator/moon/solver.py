"""Exact Moon solver: the tricks the bidder's side takes from a position under best play by all.

Every hand is known (3 players with the widow already exchanged, or 4 in partnerships); the
bidder's side maximises its tricks and the defenders, together, minimise them (a zero-sum view of
MOON-8 / MOON-10.4: whatever the bid, more tricks never hurt the bidder's side). Rules in force are
the ``moon.*`` flags that change play: ``notrump_doubles`` (suits and ranks), ``lead_suit_rule``
(with ``leader_calls_end`` each (tile, end) lead is a separate move) and ``first_lead_trump``;
the trump itself decides which tiles are trumps.

How it searches
  * Null-window (boolean) alpha-beta on the trick count: ``_search(k)`` answers "can the bidder's
    side take at least k of the remaining tricks?"; the exact value comes from a few such tests
    (``_exact``), each reusing what the others stored.
  * A transposition table keyed on the remaining tiles (28 bits, with the hands fixed they say
    who holds what) and the leader, at trick boundaries only. It stores bounds on the tricks still
    to win (the tricks already taken are not part of the key), so positions reached by different
    play orders share one entry and every test tightens them.
  * Bounds at trick boundaries, before any search: the sure trumps (the highest trump left wins
    whatever trick it falls in, and so do the next ones while the same seat holds them) and the
    quick tricks the side on lead can cash at once (``_quick_tricks``); the last trick is
    settled directly, and the last two, when neither bound nor table settles them, by a plain
    minimax of their own (``_two_tricks``, stored in the table like a search's result).
  * Move ordering: a follower tries to win a trick an opponent is winning (cheapest winner first,
    winners no opponent still to play can beat before the others), and not to overtake a
    partner unless an opponent still to play could beat the partner and not the overtaker;
    leaders try their masters first (tiles nobody else can beat in the led suit; the cheapest
    first), then tiles only their partner can beat, then the rest (with 4 players the weakest
    first), and last the tiles an opponent can trump.
  * Equivalent tiles are searched once: tiles of one seat that belong only to one suit (trumps;
    doubles as the doubles suit under ``notrump_doubles=own_suit``), adjacent in rank with no
    tile held by another seat, or played to the current trick, ranked between them.
  * The inner loop is compiled with numba (``@njit(cache=True)``): positions are tile bit masks
    (int64; bit t = tile id t) and the rules are one int64 context array per (rules, trump,
    bidder) built from :func:`simulator.moon.engine.table.rules_tables` (which are built from the reference),
    so the solver cannot drift from the rules.

Public API
  ``solve(hands, trump, rules, bidder, leader, trick=(), called_end=None, first_lead=None)``
      -> :class:`Solution` (tricks, and the value of each legal move of the player to move)
  ``solve_deals(hands, trumps, rules, bidders, leaders)``: values of many whole deals at once.
  ``Solver``: owns a transposition table; ``solve`` and the batch kernels used by the search
      players (``values_batch``, ``moves_batch``) run on one.
  ``context(players, rules, trump, bidder)``: the compiled rules context.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from moonshot.simulator import cached_kernels
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine.table import rules_tables
from moonshot.simulator.moon.rules import Rules

cached_kernels.install()          # a process that finds the kernels in the cache only loads them (start-up)

# ---------------------------------------------------------------------------------------- context

# Layout of the int64 context array (one per players, rules, trump and bidder). Per-tile tables
# take N_TILES (28) entries each, per-suit ones N_SUITS (9); offsets 4..7 are spare.
MAX_TRUMPS = 8      # O_TORDER's entries: a trump suit has 7 tiles at most, and a -1 ends the list
O_P = 0            # players
O_FLT = 1          # 1: moon.first_lead_trump
O_TRUMPS = 2       # tile mask of the trumps
O_CALLS = 3        # 1: moon.lead_suit_rule=leader_calls_end
O_SIDE = 8         # 4 entries: 1 when the seat is on the bidder's side
O_SUIT = O_SIDE + 4                          # 9 entries: tile mask of each suit id (tiles.IN_SUIT): who may follow it
O_LED = O_SUIT + dominoes.N_SUITS            # 28 entries: suit a lead of the tile asks for (tiles.LED_SUIT)
O_NEEDS = O_LED + dominoes.N_TILES           # 28 entries: 1 when a lead of the tile needs an end called
O_HIGH = O_NEEDS + dominoes.N_TILES          # 28 entries: the tile's higher end
O_LOW = O_HIGH + dominoes.N_TILES            # 28 entries: the tile's lower end
O_ABOVE = O_LOW + dominoes.N_TILES           # 28 entries: tiles of its one-suit group ranked above (0 outside)
O_BELOW = O_ABOVE + dominoes.N_TILES         # 28 entries: tiles of its one-suit group ranked below
O_ORDER = O_BELOW + dominoes.N_TILES         # 28 entries: a tile's strength as a lead (ordering, cheap discards)
O_POWER = O_ORDER + dominoes.N_TILES         # 28 * 9: tiles.POWER[tile, led, trump] at tile * 9 + led (-1: loses)
O_TORDER = O_POWER + dominoes.N_TILES * dominoes.N_SUITS   # 8 entries: the trumps, highest first, then -1
O_BEATEN = O_TORDER + MAX_TRUMPS             # 28 entries: tiles of the tile's led suit that outrank it
CTX_SIZE = O_BEATEN + dominoes.N_TILES

# The work array: W_STAMP the table's current generation, W_NODES a node counter, then move
# buffers of SLOTS entries per ply (moves, then their ordering scores).
W_STAMP, W_NODES, W_BASE, SLOTS = 0, 1, 16, 32
MAX_PLY = 7 * 4 + 4
W_FRAMES = W_BASE + SLOTS * MAX_PLY          # then one search frame per ply (FRAME entries)
FRAME = 18          # entries of a search frame (the F_* fields by _search)
WORK_SIZE = W_FRAMES + FRAME * MAX_PLY
MOVE_END = 8        # a move is tile | (called end + 1) << MOVE_END (0: no end called)
MOVE_TILE = (1 << MOVE_END) - 1   # move & MOVE_TILE: the move's tile id
SCORES = 16         # a ply's buffer holds up to 16 moves, their ordering scores SCORES further on

# Move-ordering scores (_gen_moves), larger first; a lead scores its tile's lead strength
# (O_ORDER, 0..MAX_ORDER) up or down within its class's band, and the bands do not overlap.
MAX_ORDER = 24      # the largest lead strength (a power; checked by _base_context)
ORDER_MASTER = 70   # a lead nobody else can beat in its suit (cheapest first: 70..94)
ORDER_PARTNER = 40  # a lead only the partner can beat (strongest first: 40..64)
ORDER_PLAIN = 30    # with 4 players, any other lead, the weakest first (6..30; with 3, strongest
                    # first, 0..24, measured better for each table)
ORDER_RUFFED = -30  # a lead an opponent can trump: after every other lead (-30..-6; 4 players,
                    # random trump: fewer nodes; benchmarks/pimc_profile.py counts them)
ORDER_WIN = 100     # a follow that wins the trick for good (less its power: cheapest first)
ORDER_LOSE = 50     # a follow that loses (less its strength: cheapest discard first)
ORDER_OVERTAKEN = 20   # a winner an opponent still to play can beat comes after the safe winners
                       # (4 players, random trump: fewer nodes; 30 or 40 did worse)
UNKNOWN_TOP = -2    # _gen_moves: _top_after not asked yet

# Transposition table: one int64 entry per position,
#   key | lo << TT_LO | hi << TT_HI | packed move << TT_MOVE | stamp << TT_STAMP
TT_WAYS = 4         # an entry may sit in any of 4 slots from its hash (a full slot is rarely the only one)
HASH_MUL = 2654435761   # Knuth's multiplicative hash (2^32 / golden ratio): spreads nearby tile masks
TT_BITS = 16        # default table size, 2^16 entries (512 KiB): a 4-player deal's positions fit with few
                    # collisions, and the table stays in L2 (2^18 was slower, the same nodes)
LEADER_SHIFT = 28   # key = remaining tiles (28 bits, one per tile id) | leader << LEADER_SHIFT
TT_KEY = (1 << 30) - 1   # the key's bits: 28 tile bits and 2 leader bits
TT_LO = 32          # lower bound on the tricks still to win (0..7 fits 4 bits)
TT_HI = 36          # upper bound, 4 bits
TT_BOUND = 0xF      # mask of a 4-bit bound
TT_MOVE = 40        # the move that settled the position, packed in 8 bits (_pack_move)
TT_MOVE_BITS = 0xFF
TT_STAMP = 48       # the generation (deal) that wrote it: a stale stamp reads as an empty slot
STAMP_MAX = (1 << 15) - 1   # 48 + 15 bits: the entry stays a positive int64
PACKED_TILE = 5     # a packed move: tile + 1 in the low 5 bits (1..28; 0 means no move),
PACKED_TILE_MASK = (1 << PACKED_TILE) - 1   # the called end + 1 in the 3 bits above (0..7)


def _tile_mask(tiles) -> int:
    m = 0
    for t in tiles:
        m |= 1 << int(t)
    return m


@lru_cache(maxsize=256)
def _base_context(players: int, notrump_doubles: str, lead_suit_rule: str, first_lead_trump: bool,
                  trump: int) -> np.ndarray:
    tab = rules_tables(Rules(notrump_doubles=notrump_doubles))
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[O_P] = players
    ctx[O_FLT] = int(first_lead_trump)
    ctx[O_CALLS] = int(lead_suit_rule == "leader_calls_end")
    tiles = range(dominoes.N_TILES)
    ctx[O_TRUMPS] = _tile_mask(t for t in tiles if tab.IS_TRUMP[t, trump])
    for s in range(dominoes.N_SUITS):
        ctx[O_SUIT + s] = _tile_mask(t for t in tiles if tab.IN_SUIT[t, s, trump])
    group = np.full(dominoes.N_TILES, -1)
    for t in tiles:
        ctx[O_LED + t] = tab.LED_SUIT[t, trump]
        ctx[O_NEEDS + t] = int(ctx[O_CALLS] and tab.NEEDS_CALL[t, trump])
        ctx[O_HIGH + t] = dominoes.HIGH[t]
        ctx[O_LOW + t] = dominoes.LOW[t]
        ctx[O_ORDER + t] = tab.POWER[t, tab.LED_SUIT[t, trump], trump]
        for s in range(dominoes.N_SUITS):
            ctx[O_POWER + t * dominoes.N_SUITS + s] = tab.POWER[t, s, trump]
        # One-suit groups: every member belongs to that suit alone, so two members that no other
        # seat's tile separates in rank are interchangeable for the rest of the hand.
        if tab.IS_TRUMP[t, trump]:
            group[t] = dominoes.TRUMP_SUIT
        elif tab.IN_SUIT[t, dominoes.DOUBLES_SUIT, trump]:
            group[t] = dominoes.DOUBLES_SUIT
    trumps = sorted((t for t in tiles if tab.IS_TRUMP[t, trump]),
                    key=lambda t: -tab.RANK[t, dominoes.TRUMP_SUIT, trump])
    ctx[O_TORDER:O_TORDER + MAX_TRUMPS] = -1
    ctx[O_TORDER:O_TORDER + len(trumps)] = trumps
    for t in tiles:
        led = tab.LED_SUIT[t, trump]
        ctx[O_BEATEN + t] = _tile_mask(u for u in tiles if tab.RANK[u, led, trump] > tab.RANK[t, led, trump])
    for t in tiles:
        if group[t] < 0:
            continue
        g = group[t]
        r = tab.RANK[t, g, trump]
        ctx[O_ABOVE + t] = _tile_mask(u for u in tiles if group[u] == g and tab.RANK[u, g, trump] > r)
        ctx[O_BELOW + t] = _tile_mask(u for u in tiles if group[u] == g and tab.RANK[u, g, trump] < r)
    assert ctx[O_ORDER:O_ORDER + dominoes.N_TILES].max() <= MAX_ORDER    # _gen_moves' lead bands
    ctx.setflags(write=False)
    return ctx


def context(players: int, rules: Rules, trump: int, bidder: int) -> np.ndarray:
    """The int64 rules context of the compiled search for this table, trump and bidder."""
    base = _base_context(players, rules.notrump_doubles, rules.lead_suit_rule, bool(rules.first_lead_trump),
                         int(trump))
    ctx = base.copy()
    sides = dominoes.side_of_seats(players)
    for s in range(players):
        ctx[O_SIDE + s] = int(sides[s] == sides[bidder])
    return ctx


# ---------------------------------------------------------------------------------------- kernels

# The search's kernels allocate nothing, so they run without numba's reference counting: with it,
# every array handed from one kernel to another was incref'd and decref'd (atomic instructions),
# a good share of the search's time under perf. The batch entry points below allocate, so keep it.
# The search's helpers are inlined into it in numba's IR (inline="always"): faster again than
# calls, measured (benchmarks/solver_bench.py).
KERNEL = dict(cache=True, _nrt=False)


@intrinsic
def popcount(typingctx, m):
    """Set bits of an int64 mask (LLVM's ctpop: one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def low_index(typingctx, m):
    """Index of the lowest set bit of a non-zero int64 mask (LLVM's cttz: one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@njit(cache=True)
def _new_stamp(tt, work):
    """A fresh generation of the transposition table (a new deal: old entries no longer apply)."""
    work[W_STAMP] += 1
    if work[W_STAMP] > STAMP_MAX:
        tt[:] = 0
        work[W_STAMP] = 1


@njit(inline="always", **KERNEL)
def _seat(s, P):
    """Seat s (0 <= s < 2P) taken modulo P, without a division (a `% P` by the run-time player
    count compiled to an integer divide, the costliest instruction of a node)."""
    return s - P if s >= P else s


@njit(inline="always", **KERNEL)
def _slot(key, mask):
    return ((key * HASH_MUL) >> 11) & mask


@njit(inline="always", **KERNEL)
def _tt_get(tt, stamp, key):
    """(lo, hi, move) stored for key, or (-1, -1, -1); move -1 when none was stored."""
    mask = len(tt) - 1
    i = _slot(key, mask)
    for j in range(TT_WAYS):
        e = tt[(i + j) & mask]
        if (e >> TT_STAMP) == stamp and (e & TT_KEY) == key:
            return (e >> TT_LO) & TT_BOUND, (e >> TT_HI) & TT_BOUND, _unpack_move((e >> TT_MOVE) & TT_MOVE_BITS)
    return -1, -1, -1


@njit(inline="always", **KERNEL)
def _pack_move(mv):
    """A move in 8 bits: tile + 1 (5 bits) and the called end + 1 (3 bits); 0 for none."""
    if mv < 0:
        return 0
    return ((mv & MOVE_TILE) + 1) | ((mv >> MOVE_END) << PACKED_TILE)


@njit(inline="always", **KERNEL)
def _unpack_move(b):
    if b == 0:
        return -1
    return ((b & PACKED_TILE_MASK) - 1) | ((b >> PACKED_TILE) << MOVE_END)


@njit(inline="always", **KERNEL)
def _follows(ctx, h, led):
    """The tiles of hand h that may be played to a trick led in suit `led`."""
    f = h & ctx[O_SUIT + led]
    return f if f else h


@njit(inline="always", **KERNEL)
def _top_after(ctx, hands, mover, pos, led):
    """The highest power an opponent of the mover who plays to this trick after it can put on
    it (-1: none can follow or trump)."""
    P = ctx[O_P]
    top = -1
    for q in range(1, P - pos):
        s = _seat(mover + q, P)
        if ctx[O_SIDE + s] != ctx[O_SIDE + mover]:
            m = _follows(ctx, hands[s], led)
            while m:
                u = low_index(m)
                m &= m - 1
                top = max(top, ctx[O_POWER + u * dominoes.N_SUITS + led])
    return top


@njit(inline="always", **KERNEL)
def _can_ruff(ctx, hands, mover, t):
    """Could an opponent of the mover trump a lead of non-trump tile t (void in its suit and
    holding a trump)?"""
    if (ctx[O_TRUMPS] >> t) & 1:
        return False
    suit = ctx[O_SUIT + ctx[O_LED + t]]
    for s in range(ctx[O_P]):
        if ctx[O_SIDE + s] != ctx[O_SIDE + mover] and (hands[s] & suit) == 0 and hands[s] & ctx[O_TRUMPS]:
            return True
    return False


@njit(inline="always", **KERNEL)
def _gen_moves(ctx, work, hands, mover, pos, led, best, win, played, first, base, dedupe, order):
    """Write the mover's legal moves at work[base:] and return their count: equivalent tiles
    once (dedupe), and (order) sorted by a score kept at work[base + SCORES:], highest first:
    leading, masters first (the cheapest first), then tiles only the partner beats, then the
    rest (with 4 players the weakest first), and last those an opponent can trump; following,
    the cheapest tile that wins a trick an opponent is winning (one no opponent still to play
    can beat first), else the cheapest loser; a partner's winning tile is overtaken first only
    when an opponent still to play could beat it and the new winner cannot be beaten. Without
    order the moves come by ascending tile id, the higher end first for an end call."""
    h = hands[mover]
    if pos == 0:
        legal = h
        if first and ctx[O_FLT]:
            tr = h & ctx[O_TRUMPS]
            if tr:
                legal = tr
    else:
        f = h & ctx[O_SUIT + led]
        legal = f if f else h
        if (legal & (legal - 1)) == 0:     # one tile to follow with: nothing to weigh
            work[base] = low_index(legal)
            work[base + SCORES] = 0
            return 1
    others = ((hands[0] | hands[1] | hands[2] | hands[3]) ^ h) | played
    partner_wins = pos > 0 and ctx[O_SIDE + win] == ctx[O_SIDE + mover]
    top = UNKNOWN_TOP
    n = 0
    m = legal
    while m:
        t = low_index(m)
        m &= m - 1
        if dedupe:
            ab = ctx[O_ABOVE + t]
            above = ab & h
            skip = False
            while above:
                u = low_index(above)
                above &= above - 1
                if (ab & ctx[O_BELOW + u] & others) == 0:
                    skip = True
                    break
            if skip:
                continue
        if pos == 0:
            sc = ctx[O_ORDER + t]
            beaters = ctx[O_BEATEN + t] & others
            if _can_ruff(ctx, hands, mover, t):
                sc += ORDER_RUFFED                        # an opponent can trump it: last
            elif beaters == 0:
                sc = ORDER_MASTER + MAX_ORDER - sc        # a master (it wins): the cheapest first
            elif ctx[O_P] == 4 and (beaters & ~hands[(mover + 2) & 3]) == 0:
                sc += ORDER_PARTNER                       # only the partner can beat it
            elif ctx[O_P] == 4:
                sc = ORDER_PLAIN - sc                     # the weakest first
        else:
            p = ctx[O_POWER + t * dominoes.N_SUITS + led]
            if p > best:
                if top == UNKNOWN_TOP:
                    top = _top_after(ctx, hands, mover, pos, led)
                if partner_wins and not (top > best and p > top):
                    sc = -ORDER_WIN - p       # overtakes a partner and gains nothing: last
                elif p > top:
                    sc = ORDER_WIN - p        # no opponent still to play can beat it
                else:
                    sc = ORDER_WIN - ORDER_OVERTAKEN - p
            else:
                sc = ORDER_LOSE - ctx[O_ORDER + t]
        reps = 2 if (pos == 0 and ctx[O_NEEDS + t]) else 1
        for e in range(reps):
            if reps == 1:
                mv = t
            elif e == 0:
                mv = t | ((ctx[O_HIGH + t] + 1) << MOVE_END)
            else:
                mv = t | ((ctx[O_LOW + t] + 1) << MOVE_END)
            j = n
            if order:
                while j > 0 and work[base + SCORES + j - 1] < sc:
                    work[base + j] = work[base + j - 1]
                    work[base + SCORES + j] = work[base + SCORES + j - 1]
                    j -= 1
            work[base + j] = mv
            work[base + SCORES + j] = sc
            n += 1
    return n


@njit(inline="always", **KERNEL)
def _played(ctx, mv, mover, pos, led, best, win):
    """(led suit, winning power, winning seat) of the trick after `mover` plays move `mv` at
    position `pos` (a lead sets them; a follow beats the best so far or leaves it)."""
    t = mv & MOVE_TILE
    if pos == 0:
        end = (mv >> MOVE_END) - 1
        led = end if end >= 0 else ctx[O_LED + t]
        return led, ctx[O_POWER + t * dominoes.N_SUITS + led], mover
    p = ctx[O_POWER + t * dominoes.N_SUITS + led]
    if p > best:
        return led, p, mover
    return led, best, win


@njit(inline="always", **KERNEL)
def _to_front(work, base, cnt, move):
    """Put `move` first among the cnt moves at work[base:] (when it is there), the rest in order."""
    for i in range(cnt):
        if work[base + i] == move:
            for j in range(i, 0, -1):
                work[base + j] = work[base + j - 1]
            work[base] = move
            return


@njit(inline="always", **KERNEL)
def _last_trick(ctx, hands, leader):
    """Bidder-side tricks (0 or 1) of the last trick with every move forced (no end to call)."""
    P = ctx[O_P]
    t = low_index(hands[leader])
    led = ctx[O_LED + t]
    best = ctx[O_POWER + t * dominoes.N_SUITS + led]
    win = leader
    for k in range(1, P):
        s = _seat(leader + k, P)
        u = low_index(hands[s])
        p = ctx[O_POWER + u * dominoes.N_SUITS + led]
        if p > best:
            best = p
            win = s
    return ctx[O_SIDE + win]


@njit(inline="always", **KERNEL)
def _two_tricks_leaf(ctx, hands, leader, a, t1, t2, t3, led, k):
    """Does the bidder's side take at least k of the last two tricks when the first goes
    leader a, then t1, t2 (and t3 with 4 players)? `hands` already lack those tiles."""
    P = ctx[O_P]
    best = ctx[O_POWER + a * dominoes.N_SUITS + led]
    win = leader
    p = ctx[O_POWER + t1 * dominoes.N_SUITS + led]
    if p > best:
        best, win = p, _seat(leader + 1, P)
    p = ctx[O_POWER + t2 * dominoes.N_SUITS + led]
    if p > best:
        best, win = p, _seat(leader + 2, P)
    if P == 4:
        p = ctx[O_POWER + t3 * dominoes.N_SUITS + led]
        if p > best:
            win = _seat(leader + 3, P)
    return ctx[O_SIDE + win] + _last_trick(ctx, hands, win) >= k


@njit(**KERNEL)
def _two_tricks(ctx, hands, leader, k):
    """Can the bidder's side take at least k of the last two tricks (every hand holds two tiles;
    no end to call)? Plain minimax over the at most 2 x 2 x 2 x 2 ways to play the first of them:
    cheaper than the search's frames, move ordering and table for so few plays (many of the
    search's nodes have two tricks left)."""
    P = ctx[O_P]
    s1 = _seat(leader + 1, P)
    s2 = _seat(leader + 2, P)
    s3 = _seat(leader + 3, P)     # the leader again with 3 players (then unused)
    # a bidder-side seat needs one play that reaches k, a defender one that keeps it short
    max0 = ctx[O_SIDE + leader] == 1
    max1 = ctx[O_SIDE + s1] == 1
    max2 = ctx[O_SIDE + s2] == 1
    max3 = ctx[O_SIDE + s3] == 1
    m0 = hands[leader]
    while m0:
        a = low_index(m0)
        m0 &= m0 - 1
        led = ctx[O_LED + a]
        hands[leader] ^= 1 << a
        r1 = not max1
        m1 = _follows(ctx, hands[s1], led)
        while m1:
            t1 = low_index(m1)
            m1 &= m1 - 1
            hands[s1] ^= 1 << t1
            r2 = not max2
            m2 = _follows(ctx, hands[s2], led)
            while m2:
                t2 = low_index(m2)
                m2 &= m2 - 1
                hands[s2] ^= 1 << t2
                if P == 3:
                    r3 = _two_tricks_leaf(ctx, hands, leader, a, t1, t2, 0, led, k)
                else:
                    r3 = not max3
                    m3 = _follows(ctx, hands[s3], led)
                    while m3:
                        t3 = low_index(m3)
                        m3 &= m3 - 1
                        hands[s3] ^= 1 << t3
                        r = _two_tricks_leaf(ctx, hands, leader, a, t1, t2, t3, led, k)
                        hands[s3] ^= 1 << t3
                        if r == max3:
                            r3 = r
                            break
                hands[s2] ^= 1 << t2
                if r3 == max2:
                    r2 = r3
                    break
            hands[s1] ^= 1 << t1
            if r2 == max1:
                r1 = r2
                break
        hands[leader] ^= 1 << a
        if r1 == max0:
            return r1
    return not max0


@njit(inline="always", **KERNEL)
def _sure_trumps(ctx, hands):
    """(bidder side, defenders): tricks each side is sure of from its top trumps.

    The highest trump left wins whatever trick it is played to. So do the next ones down while
    they are held by the same seat as the top one (that seat plays them to different tricks)."""
    held = (hands[0] | hands[1] | hands[2] | hands[3]) & ctx[O_TRUMPS]
    if held == 0:
        return 0, 0
    owner = -1
    sure = 0
    for i in range(MAX_TRUMPS):
        t = ctx[O_TORDER + i]
        if t < 0:
            break
        if not (held >> t) & 1:
            continue
        if owner < 0:
            owner = 0
            while not (hands[owner] >> t) & 1:
                owner += 1
            sure = 1
        elif (hands[owner] >> t) & 1:
            sure += 1
        else:
            break
    if ctx[O_SIDE + owner]:
        return sure, 0
    return 0, sure


@njit(inline="always", **KERNEL)
def _quick_tricks(ctx, hands, leader):
    """Tricks the leader can cash now, one after another, whatever the others do (besides the
    sure trumps of either side): its non-trump tiles that outrank every tile the others hold in
    their led suit ("masters"). When the other side holds no trump each master wins in turn;
    otherwise only one is counted, and only a master whose suit every player of the other side
    either holds (so must follow, spending no trump) or cannot trump. (Not under
    leader_calls_end, where the leader's calls would have to be weighed too.)"""
    P = ctx[O_P]
    if ctx[O_CALLS]:
        return 0
    allm = hands[0] | hands[1] | hands[2] | hands[3]
    others = allm & ~hands[leader]
    side = ctx[O_SIDE + leader]
    their_trumps = 0
    for s in range(P):
        if ctx[O_SIDE + s] != side:
            their_trumps |= hands[s] & ctx[O_TRUMPS]
    q = 0
    m = hands[leader] & ~ctx[O_TRUMPS]
    while m:
        t = low_index(m)
        m &= m - 1
        if ctx[O_BEATEN + t] & others:
            continue
        if their_trumps == 0:
            q += 1
            continue
        suit = ctx[O_SUIT + ctx[O_LED + t]]
        ok = True
        for s in range(P):
            if ctx[O_SIDE + s] != side and (hands[s] & suit) == 0 and (hands[s] & ctx[O_TRUMPS]) != 0:
                ok = False
                break
        if ok:
            return 1
    return q


# Fields of a search frame in the work array (one frame per ply).
F_LEADER, F_POS, F_LED, F_BEST, F_WIN, F_PLAYED, F_K, F_FIRST = 0, 1, 2, 3, 4, 5, 6, 7
F_MOVER, F_CNT, F_IDX, F_KEY, F_N, F_MAX, F_MOVE, F_CUT = 8, 9, 10, 11, 12, 13, 14, 15
F_SETTLED, F_HINT = 16, 17     # a boundary its parent already asked the bounds about; the table's move
ENTER, NEXT, DONE, RETURN = 0, 1, 2, 3
UNSETTLED = -1      # _settle: the bounds leave the question open


@njit(inline="always", **KERNEL)
def _store(tt, stamp, key, k, n, r, move):
    """Record in the table that the bidder's side can (r) or cannot take k of the n tricks left,
    with the move that settled it (-1: keep the stored one). The entry goes where the key is
    stored already, else in the first slot of an older stamp, else in the first slot."""
    mask = len(tt) - 1
    i = _slot(key, mask)
    at = -1
    free = -1
    for j in range(TT_WAYS):
        s = (i + j) & mask
        e = tt[s]
        if (e >> TT_STAMP) == stamp:
            if (e & TT_KEY) == key:
                at = s
                break
        elif free < 0:
            free = s
    if at >= 0:
        e = tt[at]
        lo, hi = (e >> TT_LO) & TT_BOUND, (e >> TT_HI) & TT_BOUND
        if move < 0:
            move = _unpack_move((e >> TT_MOVE) & TT_MOVE_BITS)
    else:
        lo, hi = 0, n
        at = free if free >= 0 else i
    if r:
        lo = max(lo, k)
    else:
        hi = min(hi, k - 1)
    tt[at] = key | (lo << TT_LO) | (hi << TT_HI) | (_pack_move(move) << TT_MOVE) | (stamp << TT_STAMP)


@njit(inline="always", **KERNEL)
def _settle(ctx, tt, stamp, hands, leader, k, n, first):
    """At a trick boundary (0 < k <= n): does what is known without searching settle whether
    the bidder's side takes k of the n tricks left? -> (1, 0 or UNSETTLED, the table key (-1 on
    the hand's first lead, which is not stored), the table's move for the position or -1)."""
    calls = ctx[O_CALLS]
    key = -1
    hint = -1
    if n == 1 and calls == 0:
        return int(_last_trick(ctx, hands, leader) >= k), key, hint
    if not first:      # what earlier searches proved settles most positions: first
        key = (hands[0] | hands[1] | hands[2] | hands[3]) | (leader << LEADER_SHIFT)
        lo, hi, hint = _tt_get(tt, stamp, key)
        if lo >= 0:
            if lo >= k:
                return 1, key, hint
            if hi < k:
                return 0, key, hint
    sure_b, sure_d = _sure_trumps(ctx, hands)
    if sure_b >= k:
        return 1, key, hint
    if n - sure_d < k:
        return 0, key, hint
    # the tricks the side on lead can cash at once come on top of the sure trumps
    if not first:
        if ctx[O_SIDE + leader]:
            if k > sure_b and _quick_tricks(ctx, hands, leader) >= k - sure_b:
                return 1, key, hint
        elif k <= n - sure_d and _quick_tricks(ctx, hands, leader) > n - sure_d - k:
            return 0, key, hint
    if n == 2 and calls == 0:           # cheaper than searching it (and stored like a search)
        r = _two_tricks(ctx, hands, leader, k)
        _store(tt, stamp, key, k, n, r, -1)
        return int(r), key, hint
    return UNSETTLED, key, hint


@njit(**KERNEL)
def _search(ctx, tt, work, hands, leader, pos, led, best, win, played, k, first, ply0):
    """Can the bidder's side take at least k of the remaining tricks (the current one included)?

    The trick in progress: `leader` led, `pos` tiles played (`played` their mask), `led` the led
    suit, `best`/`win` the winning power and seat so far. `first`: the hand's first lead
    (moon.first_lead_trump). An AND/OR search with an explicit stack of frames in `work` (numba
    caches recursive functions badly); moves of ply p live at W_BASE + p * SLOTS. Hands are
    changed in place and restored."""
    P = ctx[O_P]
    stamp = work[W_STAMP]
    ply = ply0
    f = W_FRAMES + ply * FRAME
    work[f + F_LEADER] = leader
    work[f + F_POS] = pos
    work[f + F_LED] = led
    work[f + F_BEST] = best
    work[f + F_WIN] = win
    work[f + F_PLAYED] = played
    work[f + F_K] = k
    work[f + F_FIRST] = first
    work[f + F_SETTLED] = 0
    work[f + F_N] = popcount(hands[_seat(leader + P - 1, P)])
    state = ENTER
    r = False
    while True:
        f = W_FRAMES + ply * FRAME
        if state == ENTER:
            leader = work[f + F_LEADER]
            pos = work[f + F_POS]
            k = work[f + F_K]
            first = work[f + F_FIRST]
            n = work[f + F_N]             # tricks left, the one in progress included
            if work[f + F_SETTLED]:       # a trick boundary its parent counted and asked already
                key = work[f + F_KEY]
                hint = work[f + F_HINT]
            else:
                if k <= 0:
                    r = True
                    state = RETURN
                    continue
                if k > n:
                    r = False
                    state = RETURN
                    continue
                work[W_NODES] += 1
                key = -1
                hint = -1
                if pos == 0:
                    settled, key, hint = _settle(ctx, tt, stamp, hands, leader, k, n, first)
                    if settled != UNSETTLED:
                        r = settled == 1
                        state = RETURN
                        continue
            mover = _seat(leader + pos, P)
            led = work[f + F_LED]
            base = W_BASE + ply * SLOTS
            cnt = _gen_moves(ctx, work, hands, mover, pos, led, work[f + F_BEST], work[f + F_WIN],
                             work[f + F_PLAYED], first, base, True, True)
            if hint >= 0:
                _to_front(work, base, cnt, hint)
            work[f + F_MOVER] = mover
            work[f + F_CNT] = cnt
            work[f + F_IDX] = 0
            work[f + F_KEY] = key
            work[f + F_MAX] = ctx[O_SIDE + mover]
            work[f + F_CUT] = -1
            state = NEXT
        elif state == NEXT:
            idx = work[f + F_IDX]
            if idx >= work[f + F_CNT]:
                r = work[f + F_MAX] == 0
                state = DONE
                continue
            mv = work[W_BASE + ply * SLOTS + idx]
            work[f + F_MOVE] = mv
            t = mv & MOVE_TILE
            bit = 1 << t
            mover = work[f + F_MOVER]
            hands[mover] ^= bit
            leader = work[f + F_LEADER]
            pos = work[f + F_POS]
            c = f + FRAME
            led2, best2, win2 = _played(ctx, mv, mover, pos, work[f + F_LED], work[f + F_BEST], work[f + F_WIN])
            if pos == P - 1:
                # the trick is complete: ask the bounds about the next one here, and enter it
                # (a frame) only when they leave it open (most boundaries never need one)
                k2 = work[f + F_K] - ctx[O_SIDE + win2]
                n2 = work[f + F_N] - 1
                key2 = -1
                hint2 = -1
                if k2 <= 0:
                    settled = 1
                elif k2 > n2:
                    settled = 0
                else:
                    work[W_NODES] += 1
                    settled, key2, hint2 = _settle(ctx, tt, stamp, hands, win2, k2, n2, False)
                if settled != UNSETTLED:
                    hands[mover] ^= bit
                    if (settled == 1) == (work[f + F_MAX] == 1):
                        work[f + F_CUT] = mv
                        r = settled == 1
                        state = DONE
                    else:
                        work[f + F_IDX] += 1
                    continue
                work[c + F_LEADER] = win2
                work[c + F_POS] = 0
                work[c + F_LED] = 0
                work[c + F_BEST] = 0
                work[c + F_WIN] = 0
                work[c + F_PLAYED] = 0
                work[c + F_K] = k2
                work[c + F_N] = n2
                work[c + F_KEY] = key2
                work[c + F_HINT] = hint2
                work[c + F_SETTLED] = 1
            else:
                work[c + F_SETTLED] = 0
                work[c + F_N] = work[f + F_N]
                work[c + F_LEADER] = leader
                work[c + F_POS] = pos + 1
                work[c + F_LED] = led2
                work[c + F_BEST] = best2
                work[c + F_WIN] = win2
                work[c + F_PLAYED] = work[f + F_PLAYED] | bit
                work[c + F_K] = work[f + F_K]
            work[c + F_FIRST] = 0
            ply += 1
            state = ENTER
        elif state == DONE:
            key = work[f + F_KEY]
            if key >= 0:
                _store(tt, stamp, key, work[f + F_K], work[f + F_N], r, work[f + F_CUT])
            state = RETURN
        else:  # RETURN: hand r to the parent frame
            if ply == ply0:
                return r
            ply -= 1
            f = W_FRAMES + ply * FRAME
            hands[work[f + F_MOVER]] ^= 1 << (work[f + F_MOVE] & MOVE_TILE)
            if r == (work[f + F_MAX] == 1):
                work[f + F_CUT] = work[f + F_MOVE]       # the move that settled it: tried first next time
                state = DONE
            else:
                work[f + F_IDX] += 1
                state = NEXT


@njit(**KERNEL)
def _exact(ctx, tt, work, hands, leader, pos, led, best, win, played, first, ply, lo, hi, guess):
    """The exact value in [lo, hi] by null-window tests, starting at `guess`."""
    while lo < hi:
        k = guess
        if k <= lo:
            k = lo + 1
        if k > hi:
            k = hi
        if _search(ctx, tt, work, hands, leader, pos, led, best, win, played, k, first, ply):
            lo = k
            guess = k + 1
        else:
            hi = k - 1
            guess = k - 1
    return lo


@njit(**KERNEL)
def _tricks_left(ctx, hands, leader):
    P = ctx[O_P]
    return popcount(hands[(leader + P - 1) % P])


@njit(**KERNEL)
def _guess(ctx, hands):
    """A first guess of the bidder side's tricks: its share of the trumps, plus one (a first test
    that fails is cheaper than one that succeeds: measured, fewer nodes on 4-player deals with
    the bidder's trump)."""
    P = ctx[O_P]
    mine = 0
    total = 0
    for s in range(P):
        tr = popcount(hands[s] & ctx[O_TRUMPS])
        total += tr
        if ctx[O_SIDE + s]:
            mine += tr
    n = popcount(hands[0] | hands[1] | hands[2] | hands[3]) // P
    if total == 0:
        return min((n + 1) // 2 + 1, n)
    return min((n * mine + total // 2) // total + 1, n)


@njit(**KERNEL)
def _value(ctx, tt, work, hands, leader, pos, led, best, win, played, first, guess=-1):
    """Exact bidder-side tricks from this position (the trick in progress included); the
    search starts from `guess` (-1: from the tiles held)."""
    n = _tricks_left(ctx, hands, leader)
    if guess < 0:
        guess = _guess(ctx, hands)
    return _exact(ctx, tt, work, hands, leader, pos, led, best, win, played, first, 0, 0, n, guess)


@njit(**KERNEL)
def _root_moves(ctx, tt, work, hands, leader, pos, led, best, win, played, first, moves, values):
    """Every legal move of the player to move (ascending tile id; for an end call the higher end
    first) in `moves`, and the bidder side's tricks after it under best play in `values`.
    Returns the number of moves. Tiles equivalent to one already solved take its value."""
    P = ctx[O_P]
    mover = (leader + pos) % P
    base = W_BASE
    n_all = _gen_moves(ctx, work, hands, mover, pos, led, best, win, played, first, base, False, False)
    for i in range(n_all):
        moves[i] = work[base + i]
    n_keep = _gen_moves(ctx, work, hands, mover, pos, led, best, win, played, first, base, True, False)
    keep = 0
    for i in range(n_keep):
        keep |= 1 << (work[base + i] & MOVE_TILE)
    n = _tricks_left(ctx, hands, leader)
    guess = _guess(ctx, hands)
    for i in range(n_all):
        mv = moves[i]
        t = mv & MOVE_TILE
        if not (keep >> t) & 1:
            values[i] = -1
            continue
        bit = 1 << t
        hands[mover] ^= bit
        led2, best2, win2 = _played(ctx, mv, mover, pos, led, best, win)
        if pos == P - 1:
            won = ctx[O_SIDE + win2]
            v = won + _exact(ctx, tt, work, hands, win2, 0, 0, 0, 0, 0, False, 1, 0, n - 1, guess - won)
        else:
            v = _exact(ctx, tt, work, hands, leader, pos + 1, led2, best2, win2, played | bit, False, 1, 0, n,
                       guess)
        hands[mover] ^= bit
        values[i] = v
        guess = v
    # a skipped tile is worth what the nearest kept tile above it in its group is worth
    for i in range(n_all):
        if values[i] >= 0:
            continue
        t = moves[i] & MOVE_TILE
        above = ctx[O_ABOVE + t] & keep
        # the lowest-ranked kept tile above t: its own BELOW mask holds no other kept tile above t
        rep = -1
        m = above
        while m:
            u = low_index(m)
            m &= m - 1
            if (ctx[O_BELOW + u] & above) == 0:
                rep = u
                break
        for j in range(n_all):
            if (moves[j] & MOVE_TILE) == rep:
                values[i] = values[j]
                break
    return n_all


@njit(cache=True, nogil=True)       # touches only arrays: a job thread's search lets the page's requests run
def values_batch(ctx, tt, work, hands, leader, pos, led, best, win, played, first, out):
    """Exact values of W positions that differ only in the hands (hands (W, 4)); out (W,)."""
    h = np.zeros(4, dtype=np.int64)
    total = 0
    for w in range(hands.shape[0]):
        _new_stamp(tt, work)
        for s in range(4):
            h[s] = hands[w, s]
        # worlds of one decision are alike: start the next a little above their mean so far
        guess = -1 if w == 0 else (total + 3 * w) // w
        out[w] = _value(ctx, tt, work, h, leader, pos, led, best, win, played, first, guess)
        total += out[w]


@njit(cache=True, nogil=True)
def moves_batch(ctx, tt, work, hands, leader, pos, led, best, win, played, first, moves, values):
    """_root_moves for W positions differing only in the other seats' hands (the mover's hand,
    hence its moves, is the same in each): moves (16,), values (W, 16). Returns the move count."""
    h = np.zeros(4, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    n = 0
    for w in range(hands.shape[0]):
        _new_stamp(tt, work)
        for s in range(4):
            h[s] = hands[w, s]
        n = _root_moves(ctx, tt, work, h, leader, pos, led, best, win, played, first, moves, vals)
        for i in range(n):
            values[w, i] = vals[i]
    return n


@njit(cache=True)
def _deals_batch(ctxs, tt, work, hands, leaders, first, out):
    """Exact values of N positions at a trick boundary, each with its own context row."""
    h = np.zeros(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        _new_stamp(tt, work)
        for s in range(4):
            h[s] = hands[i, s]
        out[i] = _value(ctxs[i], tt, work, h, leaders[i], 0, 0, 0, leaders[i], 0, first)


# ---------------------------------------------------------------------------------------- Python API

@dataclass(frozen=True)
class Solution:
    """The bidder side's tricks still to win under best play (the trick in progress included),
    and for each legal move of the player to move (a tile id, or (tile, called end) for a lead
    under leader_calls_end) the same count after that move."""
    tricks: int
    moves: tuple[tuple[object, int], ...]
    nodes: int

    def value(self, move) -> int:
        return dict(self.moves)[move]


class Solver:
    """A transposition table and work buffers for the compiled search (one per process/thread)."""

    def __init__(self, tt_bits: int = TT_BITS):
        self.tt = np.zeros(1 << tt_bits, dtype=np.int64)
        self.work = np.zeros(WORK_SIZE, dtype=np.int64)

    @property
    def nodes(self) -> int:
        return int(self.work[W_NODES])

    def solve(self, hands: Sequence[Sequence[int]], trump: int, rules: Rules = Rules(), bidder: int = 0,
              leader: int = 0, trick: Sequence[int] = (), called_end: int | None = None,
              first_lead: bool | None = None, moves: bool = True) -> Solution:
        """Solve one position. `hands`: each seat's tiles now (seats that already played to the
        trick in progress hold one fewer); `trick`: the tiles played to it, the leader's first;
        `called_end`: the end named for that lead (leader_calls_end); `first_lead`: the hand's
        first lead (moon.first_lead_trump applies), by default when no trick is in progress and
        every hand holds 7 tiles. `moves=False` skips the per-move values."""
        P = len(hands)
        state = position(hands, trump, rules, bidder, leader, trick, called_end, first_lead)
        ctx, h, pos, led, best, win, played, first = state
        _new_stamp(self.tt, self.work)
        self.work[W_NODES] = 0
        if not moves:
            v = _value(ctx, self.tt, self.work, h, leader, pos, led, best, win, played, first)
            return Solution(int(v), (), self.nodes)
        mv = np.zeros(16, dtype=np.int64)
        vals = np.zeros(16, dtype=np.int64)
        n = _root_moves(ctx, self.tt, self.work, h, leader, pos, led, best, win, played, first, mv, vals)
        mover_side = ctx[O_SIDE + (leader + pos) % P]
        out = tuple((decode_move(int(m)), int(v)) for m, v in zip(mv[:n], vals[:n]))
        best_v = max(v for _, v in out) if mover_side else min(v for _, v in out)
        return Solution(int(best_v), out, self.nodes)


def decode_move(move: int):
    """A kernel move -> a tile id, or (tile, called end)."""
    end = (move >> MOVE_END) - 1
    tile = move & MOVE_TILE
    return (tile, end) if end >= 0 else tile


def position(hands, trump, rules, bidder, leader, trick=(), called_end=None, first_lead=None):
    """Check a position and return the kernel's arguments:
    (ctx, hands (4,) int64, pos, led, best, win, played, first)."""
    P = len(hands)
    if P not in (3, 4):
        raise ValueError(f"Moon is played by 3 or 4, got {P} hands")
    if not (0 <= bidder < P and 0 <= leader < P):
        raise ValueError(f"bidder {bidder} and leader {leader} must be seats 0..{P - 1}")
    if trump not in range(dominoes.N_TRUMPS):
        raise ValueError(f"trump {trump} is not a trump id 0..8")
    trick = [int(t) for t in trick]
    if len(trick) >= P:
        raise ValueError(f"a trick in progress has at most {P - 1} tiles, got {len(trick)}")
    held = [int(t) for h in hands for t in h]
    if len(set(held + trick)) != len(held) + len(trick) or not all(0 <= t < dominoes.N_TILES for t in held + trick):
        raise ValueError("every tile must be a tile id 0..27 held or played once")
    n = len(hands[(leader + P - 1) % P])
    for k in range(P):
        s = (leader + k) % P
        want = n - 1 if k < len(trick) else n
        if len(hands[s]) != want:
            raise ValueError(f"seat {s} holds {len(hands[s])} tiles; with {len(trick)} played to the trick led "
                             f"by seat {leader} it should hold {want}")
    if n == 0:
        raise ValueError("no tiles left to play")
    if n > dominoes.HAND_SIZE:
        raise ValueError(f"at most {dominoes.HAND_SIZE} tiles a hand")
    ctx = context(P, rules, trump, bidder)
    h = np.zeros(4, dtype=np.int64)
    for s in range(P):
        h[s] = _tile_mask(hands[s])
    pos, led, best, win, played = len(trick), 0, 0, leader, _tile_mask(trick)
    if trick:
        lead = trick[0]
        if ctx[O_NEEDS + lead]:
            if called_end not in (dominoes.HIGH[lead], dominoes.LOW[lead]):
                raise ValueError(f"the lead {dominoes.tile_name(lead)} needs its called end, got {called_end!r}")
            led = int(called_end)
        else:
            led = int(ctx[O_LED + lead])
        best = -1
        for k, t in enumerate(trick):
            p = int(ctx[O_POWER + t * dominoes.N_SUITS + led])
            if p > best:
                best, win = p, (leader + k) % P
    if first_lead is None:
        first_lead = not trick and all(len(hh) == dominoes.HAND_SIZE for hh in hands)
    return ctx, h, pos, led, best, win, played, bool(first_lead)


def solve_deals(hands, trumps, rules: Rules = Rules(), bidders=0, leaders=None, first_lead: bool = True,
                solver: Solver | None = None) -> np.ndarray:
    """Bidder-side tricks under best play for N whole deals at once (no trick in progress):
    hands (N, P, k) tile ids, trumps (N,), bidders (N,) or one seat, leaders (default: the
    bidders). `first_lead`: the leads are the hands' first (moon.first_lead_trump). -> (N,) int8."""
    hands = np.asarray(hands)
    N, P = hands.shape[:2]
    trumps = np.broadcast_to(np.asarray(trumps), (N,))
    bidders = np.broadcast_to(np.asarray(bidders), (N,))
    leaders = bidders if leaders is None else np.broadcast_to(np.asarray(leaders), (N,))
    ctxs = np.stack([context(P, rules, int(t), int(b)) for t, b in zip(trumps, bidders)]) if N else \
        np.zeros((0, CTX_SIZE), dtype=np.int64)
    masks = np.zeros((N, 4), dtype=np.int64)
    bits = np.int64(1) << hands.astype(np.int64)
    masks[:, :P] = bits.sum(axis=2)
    solver = solver or default_solver()
    out = np.zeros(N, dtype=np.int64)
    _deals_batch(ctxs, solver.tt, solver.work, masks, leaders.astype(np.int64), bool(first_lead), out)
    return out.astype(np.int8)


_DEFAULT: Solver | None = None


def default_solver() -> Solver:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT


def solve(hands: Sequence[Sequence[int]], trump: int, rules: Rules = Rules(), bidder: int = 0, leader: int = 0,
          trick: Sequence[int] = (), called_end: int | None = None, first_lead: bool | None = None,
          moves: bool = True) -> Solution:
    """Solve one position with the process's default Solver (see Solver.solve)."""
    return default_solver().solve(hands, trump, rules, bidder, leader, trick, called_end, first_lead, moves)
