"""Compiled (numba) steps of a hand, one game row at a time: the same rules, event order and chance
draws as hand.HandRun (which record mode runs, and which the parity tests replay against the
reference), so a fixed seed gives the same numbers bit for bit (tests/test_htd_kernels.py).

`s` is the State's arrays (ARRAYS, a namedtuple), `g` the table's constants (Consts), `b` the
per-pass buffers (Buffers). A pass gives every unfinished game one step, as in HandRun.run; a
landed card is resolved at once (games are independent and chance is per game, so it is the same
as resolving every landing at the end of the pass). The one thing left to numpy is a slap race's
reaction times: they need log/cos/sin, and numpy's vectorised ones differ from libm's in the last
bit now and then, which would change a close race. A race is queued in `b` and settled by
fast.FastRun with the same numpy code as HandRun.slap, then `settle_races` hands out the cards.
"""
from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from moonshot.simulator import cached_kernels
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.engine.keyed_chance import (FORGET_SLOT, NOTICE_SLOT, RACE_SLOT0, RACE_SLOTS,
                                                                 TIE_SLOT)

ARRAYS = ("hand", "hbits", "size", "draw", "dn", "disc", "sn", "dstamp", "sstamp", "seq", "demand", "dirn",
          "cur", "phase", "turns", "quiet", "key", "ctr", "out", "blocked", "maxed", "seen", "pen",
          "shouts", "lost", "forgot", "fslaps", "lacks", "fresh", "held")
Arrays = namedtuple("Arrays", ARRAYS)


def arrays(st) -> Arrays:
    """The State's arrays as the kernels take them, built once until one is replaced (State's
    __setattr__ drops them: compaction, a resumed position): small batches, such as rollout's
    play-outs, ask for them every pass and every view."""
    got = st.__dict__.get("kernel_arrays")
    if got is None:
        got = Arrays(*(getattr(st, name) for name in ARRAYS))
        st.__dict__["kernel_arrays"] = got
    return got
Consts = namedtuple("Consts", (
    "P", "max_turns", "voluntary", "optional", "cut_mode", "bottom", "bury_middle", "turn_consumed",
    "resolve_then_score", "p_notice", "no_false_slaps", "legal", "klass", "slap_kind", "demand_of",
    "next_phase", "off", "p_forget", "any_q", "cond_q", "q", "react", "judge_window"))
# per pass: queued slap races (row, shouter, chance counter, went out), the drawn cards waiting for
# a keep-or-play answer (htd.drawn_card_play=optional), scratch rows for pile moves
Buffers = namedtuple("Buffers", ("race_row", "race_seat", "race_ctr", "race_out", "n_race",
                                 "wait_row", "wait_seat", "wait_card", "n_wait", "tmp8", "tmp16", "tmp8b",
                                 "tmp16b", "hashes", "order", "lat"))

TURN, CUT, FLIP, DONE = 0, 1, 2, 3
SLAP, FORGOT, FALSE_SLAP = 0, 1, 2
CUT_NORMAL, CUT_UNIFORM, CUT_HALF = 0, 1, 2
PILE = cards.DECK_SIZE          # a pile's room: the whole deck can lie in one pile (state.PILE)
# HTD-6.4: a hand is blocked after 30 cut, flip or pass events with no card played, drawn or taken between
QUIET_LIMIT = 30
HH, FLIP_CLASS, DRAW, N_KINDS = cards.HH, cards.FLIP, cards.DRAW, cards.N_KINDS
CUT_SPREAD = 8            # a normal_half cut lifts n/2 cards give or take n/8 (A-HTD-6; HandRun.cut)
DRAW_BIT = np.uint64(1) << np.uint64(DRAW)
SLAP_CARDS, FALSE_SLAP_CARDS = cards.SLAP_PENALTY_CARDS, cards.FALSE_SLAP_PENALTY_CARDS

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0
_ONE = np.uint64(1)
cached_kernels.install()          # a process that finds these in the cache only loads them (start-up)

# no reference counting (_nrt=False): every step takes the state's ~50 arrays, and counting
# references to each on every call costs more than most steps do; the kernels allocate nothing
jit = numba.njit(cache=True, nogil=True, _nrt=False)
# the steps are inlined into the per-pass entry points: a call otherwise passes every array of
# the state, the constants and the buffers one by one, which costs more than most steps
# (the rare ones, reshuffles, pile moves, slaps and penalties, stay calls: inlining every step
# everywhere takes minutes to compile)
step = numba.njit(cache=True, nogil=True, _nrt=False, inline="always")


@intrinsic
def _prefetch(typingctx, arr, idx):
    """A hint to the CPU to fetch the cache line of arr[idx] for a write (llvm.prefetch): it
    changes no value. The passes visit tens of thousands of games whose rows lie far apart; the
    steps below ask for game i + AHEAD's lines while they play game i, so they wait less on memory
    (the turns run faster for it: benchmarks/htd_bench.py measures them)."""
    def codegen(context, builder, signature, args):
        aryty, idxty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        inds = cgutils.unpack_tuple(builder, args[1], count=len(idxty))
        inds = [context.cast(builder, x, t, types.intp) for x, t in zip(inds, idxty)]
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, inds, wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(1), i32(3), i32(1)])   # write, keep in all caches, data
        return context.get_dummy_value()
    return types.void(arr, idx), codegen


AHEAD = 8                 # games ahead to prefetch: enough to cover a memory fetch, few enough to stay in cache


# ---------------------------------------------------------------------------- chance (keyed_chance.py)
@step
def _hash(key, counter, slot):
    z = key ^ ((np.uint64(counter) << np.uint64(20)) | np.uint64(slot))
    z = z + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@step
def _uniform(s, r, c, slot):
    return (np.float64(_hash(s.key[r], c, slot) >> np.uint64(11)) + 0.5) * _TO_UNIT


@step
def _chance(s, r):
    c = s.ctr[r]
    s.ctr[r] = c + 1
    return c


# ---------------------------------------------------------------------------- hands and piles (state.py)
@step
def _give(s, r, seat, k):
    s.hand[r, seat, k] += 1
    s.hbits[r, seat] |= _ONE << np.uint64(k)
    s.size[r, seat] += 1
    s.fresh[r, seat] += 1


@step
def _take_card(s, r, seat, k):
    s.hand[r, seat, k] -= 1
    if s.held.shape[2] > 0 and s.held[r, seat, k] > 0:   # State.held, when kept
        s.held[r, seat, k] -= 1
    if s.hand[r, seat, k] == 0:
        s.hbits[r, seat] &= ~(_ONE << np.uint64(k))
    s.size[r, seat] -= 1


@step
def _stamps(s):
    """Whether the piles' stamps are kept (State: only when a strategy at the table may read them)."""
    return s.sstamp.shape[1] > 0


@step
def _top(s, r):
    return s.disc[r, max(s.sn[r] - 1, 0)]


@step
def _push_discard(s, r, k):
    n = s.sn[r]
    s.disc[r, n] = k
    if _stamps(s):
        s.sstamp[r, n] = s.seq[r]
    s.seq[r] += 1
    s.sn[r] = n + 1
    s.seen[r, k] += 1


@step
def _pop_draw(s, r):
    n = s.dn[r] - 1
    s.dn[r] = n
    return s.draw[r, n]


@jit
def _reshuffle(s, b, r):
    """HTD-6.1 when the draw pile is empty: the discard pile but its top, shuffled (State.reshuffle)."""
    if s.dn[r] != 0 or s.sn[r] <= 1:
        return
    c = _chance(s, r)
    m = s.sn[r] - 1
    h, order = b.hashes, b.order
    for i in range(m):                           # positions sorted by hash (a stable insertion sort)
        x = _hash(s.key[r], c, i)
        j = i
        while j > 0 and h[j - 1] > x:
            h[j], order[j] = h[j - 1], order[j - 1]
            j -= 1
        h[j], order[j] = x, i
    for i in range(m):
        s.draw[r, i] = s.disc[r, order[i]]
    if _stamps(s):
        for i in range(m):
            s.dstamp[r, i] = -1
        s.sstamp[r, 0] = s.sstamp[r, m]
    s.dn[r] = m
    s.disc[r, 0] = s.disc[r, m]
    s.sn[r] = 1


@step
def _flip_piles(s, b, r):
    """HTD-4.3 step 1 (State.flip_piles; what lies beyond a pile's end is never read, so only
    the piles are moved)."""
    dn, sn = s.dn[r], s.sn[r]
    _reverse_swap(s.draw, s.disc, b.tmp8, b.tmp8b, r, dn, sn)
    if _stamps(s):
        _reverse_swap(s.dstamp, s.sstamp, b.tmp16, b.tmp16b, r, dn, sn)
    s.dn[r], s.sn[r] = sn, dn


@step
def _reverse_swap(draw, disc, old_d, old_s, r, dn, sn):
    """draw[r, :sn] = disc[r, :sn] reversed and disc[r, :dn] = draw[r, :dn] reversed (one array a
    loop: the copies vectorise)."""
    for i in range(dn):                           # (a loop: a slice copy would allocate)
        old_d[i] = draw[r, i]
    for i in range(sn):
        old_s[i] = disc[r, i]
    for i in range(sn):
        draw[r, i] = old_s[sn - 1 - i]
    for i in range(dn):
        disc[r, i] = old_d[dn - 1 - i]


@step
def _remove_from_draw(s, r, depth):
    """The card `depth` below the top, taken out; the cards above close up (State.remove_from_draw)."""
    at = s.dn[r] - 1 - depth
    k = s.draw[r, at]
    for i in range(at, s.dn[r] - 1):
        s.draw[r, i] = s.draw[r, i + 1]
    if _stamps(s):
        for i in range(at, s.dn[r] - 1):
            s.dstamp[r, i] = s.dstamp[r, i + 1]
    s.dn[r] -= 1
    return k


@jit
def _bury_discard_top(s, b, r, pos):
    """The discard pile's top card to `pos` places from the top (State.bury_top on the discard)."""
    size = s.sn[r]
    dest = size - 1 - pos
    old = b.tmp8
    for i in range(size):
        old[i] = s.disc[r, i]
    for i in range(size):
        s.disc[r, i] = old[i if i < dest else (size - 1 if i == dest else i - 1)]
    if _stamps(s):                                # only the top card's place stays known
        top = size - 1
        last = s.sstamp[r, top if top < dest else (size - 1 if top == dest else top - 1)]
        for i in range(size - 1):
            s.sstamp[r, i] = -1
        s.sstamp[r, top] = last


@step
def _reveal_top(s, r):
    at = s.sn[r] - 1
    if _stamps(s):
        s.sstamp[r, at] = s.seq[r]
    s.seq[r] += 1
    s.seen[r, s.disc[r, at]] += 1


# ---------------------------------------------------------------------------- bookkeeping (HandRun)
@step
def _nxt(s, g, r, seat):
    return (seat + s.dirn[r] + g.P) % g.P


@step
def _block(s, r, by_turns):
    s.blocked[r] = True
    s.maxed[r] |= by_turns
    s.phase[r] = DONE


@step
def _counted(s, g, r, quiet_step, got_card, turn, last_card):
    """HandRun.counted for one game: quiet_step 1 (cut, flip, pass), got_card 0/1 (draw) or -1
    (anything else); returns whether it still plays."""
    if quiet_step:
        s.quiet[r] += 1
    elif got_card == 0:
        pass
    else:
        s.quiet[r] = 0
    stop = s.quiet[r] >= QUIET_LIMIT
    maxed = False
    if turn:
        t = s.turns[r] + 1
        s.turns[r] = t
        maxed = t >= g.max_turns and not last_card
        stop = stop or maxed
    if stop:
        _block(s, r, maxed)
    return not stop


@step
def _take(s, b, r, seat):
    """One card from the draw pile (after any reshuffle) into the seat's hand, -1 for none."""
    if s.dn[r] == 0:
        _reshuffle(s, b, r)
    if s.dn[r] > 0:
        public = s.held.shape[2] > 0 and s.dstamp[r, s.dn[r] - 1] >= 0
        k = _pop_draw(s, r)
        _give(s, r, seat, k)
        if public:
            s.held[r, seat, k] += 1              # State.held, when kept
        return np.int64(k)
    return np.int64(-1)


@jit
def _penalty(s, b, r, seat, count, cause):
    """P7: `count` draws, each from the top after any reshuffle; a draw of nothing still counts."""
    for _ in range(count):
        k = _take(s, b, r, seat)
        if k >= 0:
            s.pen[r, seat, cause] += 1
            s.quiet[r] = 0


# ---------------------------------------------------------------------------- slaps (§C.14)
@jit
def _slap(s, g, b, r, shouter, went_out):
    """HandRun.slap up to the race: a forgotten shout is settled here, a race is queued."""
    c = _chance(s, r)
    s.shouts[r, shouter] += 1
    if not went_out and not g.off[shouter] and _uniform(s, r, c, FORGET_SLOT) < g.p_forget[shouter]:
        s.forgot[r, shouter] += 1
        if g.p_notice >= 1 or _uniform(s, r, c, NOTICE_SLOT) < g.p_notice:
            _penalty(s, b, r, shouter, SLAP_CARDS, FORGOT)
        return
    i = b.n_race[0]
    b.race_row[i], b.race_seat[i], b.race_ctr[i], b.race_out[i] = r, shouter, c, went_out
    b.n_race[0] = i + 1


# the reaction parameters a race reads, rows of Consts.react (HandRun.race reads them from table.reaction)
REACT = ("mu", "mu_self", "sigma", "sigma_self", "tau", "tau_self", "p_lapse", "lapse_mean", "move_mu", "move_sd")
MU, MU_SELF, SIGMA, SIGMA_SELF, TAU, TAU_SELF, P_LAPSE, LAPSE_MEAN, MOVE_MU, MOVE_SD = range(len(REACT))


@jit
def race_uniforms(s, g, b, U, tie):
    """The queued races' uniforms, as HandRun.race draws them: U[j, 5i + k] seat i's k-th, tie[j]
    the tie-break's."""
    for j in range(b.n_race[0]):
        r, c = b.race_row[j], b.race_ctr[j]
        for k in range(RACE_SLOTS * g.P):
            U[j, k] = _uniform(s, r, c, RACE_SLOT0 + k)
        tie[j] = _uniform(s, r, c, TIE_SLOT)


@jit
def settle_races(s, g, b, U, log_u, cos_u, sin_u, tie):
    """HandRun.race and the rest of HandRun.slap for the queued races: each racing seat's reaction
    time from its uniforms (log_u = numpy's log of U, cos_u and sin_u numpy's cos and sin of
    2 pi U at each seat's second slot: the functions whose last bit numba's may differ in; the
    rest is the same float64 arithmetic in the same order), the slowest hand down (ties within
    the judge's window broken by tie[j]) draws 4."""
    P = g.P
    n = b.n_race[0]
    for j in range(n):
        if j + AHEAD < n:                         # the loser's four cards come off the draw pile
            r2 = b.race_row[j + AHEAD]
            _prefetch(s.draw, (r2, max(s.dn[r2] - 1, 0)))
        r, shouter, out = b.race_row[j], b.race_seat[j], b.race_out[j]
        slowest = -np.inf
        for i in range(P):
            b.lat[i] = -np.inf
            if g.off[i] or (out and i == shouter):
                continue
            me = i == shouter
            mu = g.react[MU_SELF, i] if me else g.react[MU, i]
            sd = g.react[SIGMA_SELF, i] if me else g.react[SIGMA, i]
            tau = g.react[TAU_SELF, i] if me else g.react[TAU, i]
            at = RACE_SLOTS * i
            rad = np.sqrt(-2.0 * log_u[j, at])
            z1, z2 = rad * cos_u[j, i], rad * sin_u[j, i]
            d = mu + sd * z1 - tau * log_u[j, at + 2]
            d = d + (-g.react[LAPSE_MEAN, i] * log_u[j, at + 4] if U[j, at + 3] < g.react[P_LAPSE, i] else 0.0)
            move = max(0.0, g.react[MOVE_MU, i] + g.react[MOVE_SD, i] * z2)
            b.lat[i] = np.rint((d + move) * 100.0) / 100.0      # np.round(x, 2), as numpy and numba do it
            slowest = max(slowest, b.lat[i])
        count = 0
        for i in range(P):
            if b.lat[i] != -np.inf and b.lat[i] >= slowest - g.judge_window:
                count += 1
        if count == 0:
            continue
        pick = min(np.int64(tie[j] * count), count - 1)
        for i in range(P):
            if b.lat[i] != -np.inf and b.lat[i] >= slowest - g.judge_window:
                if pick == 0:
                    s.lost[r, i] += 1
                    _penalty(s, b, r, i, SLAP_CARDS, SLAP)
                    break
                pick -= 1
    b.n_race[0] = 0


@step
def _false_slaps(s, g, b, r, card, actor):
    """HandRun.false_slaps: one chance event, seats from the actor's left in order."""
    kind = g.slap_kind[card]
    if kind < 0 or g.no_false_slaps:
        return
    c = _chance(s, r)
    if _uniform(s, r, c, 0) < g.any_q[actor, kind]:
        _false_slappers(s, g, b, r, actor, kind, c)


@jit
def _false_slappers(s, g, b, r, actor, kind, c):
    none_yet = True
    slapped = 0
    for j in range(1, g.P):
        seat = (actor + j) % g.P
        p = g.cond_q[actor, kind, j] if none_yet else g.q[seat, kind]
        if _uniform(s, r, c, j) < p:
            none_yet = False
            slapped |= 1 << j
    for j in range(1, g.P):
        if slapped & (1 << j):
            who = (actor + j) % g.P
            s.fslaps[r, who] += 1
            _penalty(s, b, r, who, FALSE_SLAP_CARDS, FALSE_SLAP)


# ---------------------------------------------------------------------------- landing (HandRun.resolve)
@step
def _land(s, g, b, r, card, actor, x, played):
    if card == HH:
        # HTD-4.6 / HTD-5.3, A-HTD-2
        nxt = x
        if g.turn_consumed and not played:
            nxt = _nxt(s, g, r, x)
        s.demand[r], s.cur[r], s.phase[r] = -1, nxt, TURN
        _slap(s, g, b, r, actor if played else x, False)
        return
    _false_slaps(s, g, b, r, card, actor)
    s.demand[r] = g.demand_of[card]
    s.cur[r] = x
    s.phase[r] = g.next_phase[card]


@step
def _situation(s, r):
    d = s.demand[r]
    return N_KINDS + d if d >= 0 else _top(s, r)


@step
def _play(s, g, b, r, seat, card, after_draw):
    """HTD-3.7, HTD-7.1, A-HTD-3 (HandRun.play)."""
    _take_card(s, r, seat, card)
    if after_draw and s.fresh[r, seat] > 0:
        s.fresh[r, seat] -= 1                   # the card just drawn (State.fresh)
    _push_discard(s, r, card)
    s.demand[r] = -1
    last = s.size[r, seat] == 0
    if not _counted(s, g, r, False, -1, not after_draw, last):
        return
    if last:
        if g.resolve_then_score and card == HH:
            _slap(s, g, b, r, seat, True)       # P4
        s.out[r] = seat
        s.phase[r] = DONE
        return
    _land(s, g, b, r, card, seat, _nxt(s, g, r, seat), True)


@step
def _draw_turn(s, g, b, r):
    """HandRun.draw_turn for one game: draw; play a legal drawn card (or queue the question
    under htd.drawn_card_play=optional), else pass."""
    seat = s.cur[r]
    card = _take(s, b, r, seat)
    if not _counted(s, g, r, False, 1 if card >= 0 else 0, True, False):
        return
    playable = card >= 0 and (g.legal[_situation(s, r)] & (_ONE << np.uint64(max(card, 0)))) != 0
    if playable and g.optional:
        i = b.n_wait[0]
        b.wait_row[i], b.wait_seat[i], b.wait_card[i] = r, seat, card
        b.n_wait[0] = i + 1
        return
    _after_draw(s, g, b, r, seat, card, playable)


@step
def _no_legal_turn(s, g, b, r):
    """Nothing legal: the seat shows it lacks these (State.showed_lack), then draws."""
    seat = s.cur[r]
    mask = g.legal[_situation(s, r)]
    if s.fresh[r, seat] == 0:
        s.lacks[r, seat] |= mask
    else:
        s.lacks[r, seat] = mask
    s.fresh[r, seat] = 0
    _draw_turn(s, g, b, r)


@step
def _after_draw(s, g, b, r, seat, card, play):
    if play:
        _play(s, g, b, r, seat, card, True)
        return
    if _counted(s, g, r, True, -1, False, False):
        s.cur[r] = _nxt(s, g, r, seat)          # an unmet demand passes on
        s.phase[r] = TURN


# ---------------------------------------------------------------------------- Cut and Flip
@step
def _cut(s, g, b, r, z):
    """HTD-4.2, A-HTD-6 (HandRun.cut); z: the standard normal of a normal_half cut (from numpy)."""
    seat = s.cur[r]
    if s.dn[r] == 0:
        _reshuffle(s, b, r)
    after = _nxt(s, g, r, seat)
    if s.dn[r] == 0:                              # step 5: the Cut only uses up the turn
        if _counted(s, g, r, True, -1, True, False):
            s.cur[r], s.phase[r] = after, TURN
        return
    n = np.int64(s.dn[r])
    lo, hi = (1, n) if g.bottom else (0, n - 1)
    if g.cut_mode == CUT_HALF:
        k = max(1, n // 2)
    else:
        c = _chance(s, r)
        if g.cut_mode == CUT_UNIFORM:
            k = lo + min(np.int64(_uniform(s, r, c, 0) * (hi - lo + 1)), hi - lo)
        else:
            k = np.int64(np.rint(n / 2 + n / CUT_SPREAD * z))
    k = min(max(k, lo), hi)
    card = _remove_from_draw(s, r, k - 1 if g.bottom else k)
    _push_discard(s, r, card)
    if _counted(s, g, r, True, -1, True, False):
        _land(s, g, b, r, card, seat, after, False)


@step
def _flip(s, g, b, r):
    """HTD-4.3, HTD-5.2, P3 (HandRun.flip)."""
    seat = s.cur[r]
    if s.dn[r] == 0:                              # step 6: HTD-6 first
        _reshuffle(s, b, r)
    if not _counted(s, g, r, True, -1, True, False):
        return
    _flip_piles(s, b, r)
    s.dirn[r] = -s.dirn[r]
    if s.sn[r] == 0:                              # step 6: start the discard pile
        _push_discard(s, r, _pop_draw(s, r))
    else:
        _reveal_top(s, r)
    left = s.sn[r] - 1                            # step 5: a Flip turned up by a Flip is buried
    while g.klass[_top(s, r)] == FLIP_CLASS and left > 0:
        left -= 1
        n = np.int64(s.sn[r] - 1)
        if g.bury_middle:
            pos = max(1, n // 2)
        else:
            c = _chance(s, r)
            pos = min(np.int64(_uniform(s, r, c, 0) * n) + 1, n)
        _bury_discard_top(s, b, r, pos)
        _reveal_top(s, r)
    x = _nxt(s, g, r, seat)
    top = _top(s, r)
    if g.klass[top] == FLIP_CLASS:                # not carried out: a normal turn on it
        _false_slaps(s, g, b, r, top, seat)
        s.demand[r], s.cur[r], s.phase[r] = -1, x, TURN
    else:
        _land(s, g, b, r, top, seat, x, False)


# ---------------------------------------------------------------------------- one pass
@jit
def cuts_and_flips(s, g, b, cut_rows, z, flip_rows):
    n = len(cut_rows)
    for i in range(n):
        if i + AHEAD < n:                         # the lifted card, the pile it lands on
            r2 = cut_rows[i + AHEAD]
            half = s.dn[r2] // 2
            _prefetch(s.draw, (r2, half))
            _prefetch(s.disc, (r2, s.sn[r2]))
            if _stamps(s):
                _prefetch(s.dstamp, (r2, half))
                _prefetch(s.sstamp, (r2, s.sn[r2]))
        _cut(s, g, b, cut_rows[i], z[i])
    n = len(flip_rows)
    for i in range(n):
        if i + AHEAD < n:                         # both piles change places
            r2 = flip_rows[i + AHEAD]
            _prefetch(s.draw, (r2, 0))
            _prefetch(s.disc, (r2, 0))
            if _stamps(s):
                _prefetch(s.dstamp, (r2, 0))
                _prefetch(s.sstamp, (r2, 0))
        _flip(s, g, b, flip_rows[i])


@jit
def plan(s, g, sel, ask_bits, counts):
    """One pass's rows by phase, and the legal cards of each turn's seat (HandRun.run's row
    selection and HandRun.turn's legal masks, in one sweep): sel[0, :] the Cut rows, sel[1, :] the
    Flip rows, sel[2, :] the turns with a legal card (their masks in ask_bits, DRAW too under
    htd.voluntary_draw), sel[3, :] the turns with none; counts[0..3] how many of each."""
    nc = nf = na = nd = 0
    n = len(s.phase)
    for r in range(n):
        if r + AHEAD < n:                         # the discard pile's top card decides what is legal
            r2 = r + AHEAD
            _prefetch(s.disc, (r2, max(s.sn[r2] - 1, 0)))
        ph = s.phase[r]
        if ph == CUT:
            sel[0, nc] = r
            nc += 1
        elif ph == FLIP:
            sel[1, nf] = r
            nf += 1
        elif ph == TURN:
            bits = s.hbits[r, s.cur[r]] & g.legal[_situation(s, r)]
            if bits != 0:
                if g.voluntary:
                    bits |= DRAW_BIT
                sel[2, na] = r
                ask_bits[na] = bits
                na += 1
            else:
                sel[3, nd] = r
                nd += 1
    counts[0], counts[1], counts[2], counts[3] = nc, nf, na, nd


@jit
def cut_uniforms(s, rows, U):
    """The two uniforms of each normal_half cut (FastRun turns them into the standard normal):
    its chance counter is the next one, or the one after when the cut reshuffles first."""
    for i in range(len(rows)):
        r = rows[i]
        c = s.ctr[r] + (1 if s.dn[r] == 0 and s.sn[r] > 1 else 0)
        U[i, 0] = _uniform(s, r, c, 0)
        U[i, 1] = _uniform(s, r, c, 1)


@jit
def turns(s, g, b, ask_rows, choice, no_legal_rows):
    """The answers to this pass's question (a card, or DRAW), then the draw turns: games with
    nothing legal first, then those that chose to draw (HandRun.turn's order)."""
    n = len(ask_rows)
    for i in range(n):
        if i + AHEAD < n:                         # the hand, the pile top and the seen count the card will touch
            r2 = ask_rows[i + AHEAD]
            seat2 = s.cur[r2]
            sn2 = s.sn[r2]
            _prefetch(s.hand, (r2, seat2, 0))
            _prefetch(s.disc, (r2, sn2))
            if _stamps(s):
                _prefetch(s.sstamp, (r2, sn2))
            _prefetch(s.seen, (r2, max(choice[i + AHEAD], 0) % N_KINDS))
        if choice[i] != DRAW:
            r = ask_rows[i]
            _play(s, g, b, r, s.cur[r], choice[i], False)
    m = len(no_legal_rows)
    for i in range(m):
        if i + AHEAD < m:                         # the draw pile's top, the hand, the discard pile
            r2 = no_legal_rows[i + AHEAD]
            _prefetch(s.draw, (r2, max(s.dn[r2] - 1, 0)))
            _prefetch(s.hand, (r2, s.cur[r2], 0))
            _prefetch(s.disc, (r2, s.sn[r2]))
        _no_legal_turn(s, g, b, no_legal_rows[i])
    for i in range(len(ask_rows)):
        if choice[i] == DRAW:
            _draw_turn(s, g, b, ask_rows[i])


@jit
def drawn_answers(s, g, b, keep_or_play):
    """htd.drawn_card_play=optional: the queued drawn cards, played or kept (DRAW)."""
    for i in range(b.n_wait[0]):
        _after_draw(s, g, b, b.wait_row[i], b.wait_seat[i], b.wait_card[i], keep_or_play[i] != DRAW)
    b.n_wait[0] = 0


MEMORY_KINDS = {"perfect": 0, "window": 1, "p_recall": 2}     # htd.memory's models, as known_draw_rows takes them


def memory_code(memory: tuple) -> tuple[int, float]:
    """htd.memory's (kind, parameter) as the kernels take them: MEMORY_KINDS' code, or -1 for
    window(0), which remembers nothing."""
    kind, param = memory
    return (-1 if kind == "window" and param == 0 else MEMORY_KINDS[kind]), float(param or 0)


@jit
def _remembers(s, r, at, seat, kind, param, recall_salt):
    """Whether the seat's memory (kind 0 perfect, 1 window(param), 2 p_recall(param)) holds the
    draw-pile card at `at` of row r: a card from a discard, recent enough, recalled by its key."""
    stamp = np.int64(s.dstamp[r, at])
    if stamp < 0:
        return False
    if kind == 1 and stamp < np.int64(s.seq[r]) - np.int64(param):
        return False
    if kind == 2:
        key = _hash(s.key[r] ^ recall_salt, 0, 0)           # keyed_chance.recall_keys
        u = (np.float64(_hash(key, stamp, seat) >> np.uint64(11)) + 0.5) * _TO_UNIT
        return u < param
    return True


@jit
def known_draw_rows(s, rows, seats, kind, param, recall_salt, out):
    """lazy_view.known_draw for each row: out[i, d] the card d below the top of the draw pile
    when the seat's memory knows it, else -1 (the same test and the same recall draws)."""
    for i in range(len(rows)):
        r = rows[i]
        top = np.int64(s.dn[r]) - 1
        for d in range(out.shape[1]):
            at = top - d
            out[i, d] = s.draw[r, at] if at >= 0 and _remembers(s, r, at, seats[i], kind, param, recall_salt) else -1


@jit
def shuffle_decks(raw, deck, decks):
    """decks (n, M) int8: engine.hands.shuffled_decks's Fisher-Yates (the same swaps), one game per
    row. It fills the caller's array: a kernel that allocates needs numba's runtime, and loading one
    from the cache brings in numba's array and string modules (time in every start-up:
    benchmarks/startup_bench.py)."""
    n, M = decks.shape
    for g in range(n):
        for i in range(M):
            decks[g, i] = deck[i]
        for i in range(M - 1):
            j = np.int64((np.uint64(raw[i, g]) * np.uint64(M - i)) >> np.uint64(32)) + i
            decks[g, i], decks[g, j] = decks[g, j], decks[g, i]


@jit
def all_legal(bits, choice):
    """Whether every choice[i] is 0..DRAW with bit choice[i] set in bits[i] (hand._check, one
    sweep: the numpy form took six passes over each pass's answers)."""
    for i in range(len(choice)):
        c = choice[i]
        if c < 0 or c > DRAW or (bits[i] >> np.uint64(c)) & _ONE == 0:
            return False
    return True


@jit
def hand_points(hand, rows, penalty, out):
    """out[i, p] = the penalty points of seat p's hand in state row rows[i] (HTD-1.4, HTD-7.2;
    State.retire: numpy's integer matrix product has no fast path)."""
    for i in range(len(rows)):
        for p in range(hand.shape[1]):
            total = 0
            for k in range(hand.shape[2]):
                total += hand[rows[i], p, k] * penalty[k]
            out[i, p] = total


@jit
def count_kinds(hands, out):
    """out[i, k] += copies of kind k in hands[i] ((m, cards) kinds -> (m, 38) counts)."""
    for i in range(hands.shape[0]):
        for j in range(hands.shape[1]):
            out[i, hands[i, j]] += 1


@jit
def hand_unseen_top_rows(s, rows, seats, deck, kind, param, recall_salt, hand_out, unseen_out, top_out):
    """For each row i, in one pass over the state rows (lazy_view.EnginePlayView.hand_unseen: no
    (n, 38) gathers of hand and seen first): hand_out[i] = the seat's hand as float32,
    unseen_out[i] = max(deck - that hand - seen, 0) (the cards the seat has not seen; whole
    numbers, so the same values as float32 operations on the gathered rows), and top_out[i] =
    known_draw_rows's depth 0 (kind < 0: nothing known). The rows ahead are prefetched."""
    n = len(rows)
    K = s.hand.shape[2]
    for i in range(n):
        if i + 2 * AHEAD < n:
            _prefetch(s.dn, (rows[i + 2 * AHEAD],))
        if i + AHEAD < n:
            ra = rows[i + AHEAD]
            _prefetch(s.seen, (ra, 0))
            _prefetch(s.hand, (ra, seats[i + AHEAD], 0))
            if kind >= 0:
                at = max(np.int64(s.dn[ra]) - 1, 0)
                _prefetch(s.dstamp, (ra, at))
                _prefetch(s.draw, (ra, at))
        r, p = rows[i], seats[i]
        for k in range(K):
            h = np.float32(s.hand[r, p, k])
            hand_out[i, k] = h
            u = deck[k] - h - np.float32(s.seen[r, k])
            unseen_out[i, k] = u if u > 0 else np.float32(0.0)
        top_out[i] = -1
        if kind < 0:
            continue
        at = np.int64(s.dn[r]) - 1
        if at >= 0 and _remembers(s, r, at, p, kind, param, recall_salt):
            top_out[i] = s.draw[r, at]
