"""Hit the Deck's passes with one plain `tactician` in every seat, in one compiled call: rollout's
play-outs, and every hand so played (the engine's whole-batch player for it: fast.WHOLE_BATCH).

engine.resume.play_on plays a position on through FastRun, which goes back to Python every pass:
to ask the strategies (an EnginePlayView, the answer's legality check, Tactician.play's masks,
its tables, fill_rows), for numpy's log, cos and sin of the cuts' and slap races' uniforms, and
for each kernel call, whose arguments (the state's ~30 arrays in a namedtuple, the constants, the
buffers) take numba ~0.1 ms to unpack. Rollout's play-outs are a few hundred rows and ~90 passes,
so that was most of their time. Here _hand_loop runs FastRun's passes itself: the same kernels in
the same order, the tactician asked in place (_ask: the same rows in the same order, its own
compiled scorer _best_rows, so the same float32 scores), numpy's own float64 loops called through
their addresses (the same last bits), and the same noise: Tactician.best draws
rng.integers(0, 256, m) per question, one 32-bit draw per game with a choice (256 divides 2**32:
no draw is rejected), so the play-out's noise is one stream drawn ahead and the generator is left
where those calls would have left it. The same results bit for bit under every htd.* flag
(tests/test_htd_playout.py compares each play-out with FastRun's per-pass loop).
"""
from __future__ import annotations

import threading
from collections import namedtuple

import numba
import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.hit_the_deck import views
from moonshot.simulator.hit_the_deck.engine import fast, keyed_chance, kernels, numpy_loops
from moonshot.simulator.hit_the_deck.engine.cache_keys import depends_on
from moonshot.simulator.hit_the_deck.engine.hand import HandRun
from moonshot.simulator.hit_the_deck.engine.kernel_args import buffers, consts, mirrors_numpy
from moonshot.simulator.hit_the_deck.engine.numpy_loops import chance_scratch, cut_normals, loops, settle_races
from moonshot.simulator.hit_the_deck.engine.table import N_KINDS
from moonshot.simulator.hit_the_deck.views import lowest_index
from moonshot.strategies.hit_the_deck import NOISE, Games, Tactician, _best_rows

NOISE_RANGE = len(NOISE)      # Tactician.best's rng.integers(0, NOISE_RANGE, m)

# the tactician's Weights as _best_rows takes them, and the table's memory model
Tac = namedtuple("Tac", ("weights", "deck", "code", "param", "salt"))
# one question's games with a choice (m of them): their rows, seats, masks, demand, top card,
# drawn card, noise, the position in the question, and _best_rows' inputs and outputs
Work = namedtuple("Work", ("rows", "seats", "bits", "demand", "top", "drawn", "noise", "at", "hand", "unseen",
                           "known_top", "best", "score"))


def _tac(policy: Tactician, table) -> Tac:
    deck = policy.tables(table.rules, table.players)[6]
    code, param = kernels.memory_code(table.memory)
    return Tac(policy.weights(table.rules, table.players), np.ascontiguousarray(deck, dtype=np.float32), code, param,
               keyed_chance.RECALL_SALT)


def _work(n: int) -> Work:
    i64 = [np.zeros(n, np.int64) for _ in range(2)]
    return Work(*i64, np.zeros(n, np.uint64), *(np.zeros(n, np.int8) for _ in range(3)), np.zeros(n, np.int64),
                np.zeros(n, np.int64), np.zeros((n, N_KINDS), np.float32), np.zeros((n, N_KINDS), np.float32),
                np.zeros(n, np.int8), np.zeros(n, np.intp), np.zeros(n, np.float32))


@numba.njit(cache=True, nogil=True)
def _ask(s, t, w, rows, seats, bits, drawn, noise, pos, out):
    """Tactician.play for the games rows (seats, legal masks bits, drawn cards): out[i] its choice.
    The games with a choice take the next noise values in order (Tactician.best's draw); returns
    the position in `noise` after them."""
    m = 0
    for i in range(len(rows)):
        b = bits[i]
        out[i] = lowest_index(b) if b else 0
        if b & (b - np.uint64(1)):
            r = rows[i]
            w.rows[m], w.seats[m], w.bits[m], w.at[m] = r, seats[i], b, i
            w.demand[m] = s.demand[r]
            w.top[m] = s.disc[r, max(np.int64(s.sn[r]) - 1, 0)]
            w.drawn[m] = drawn[i]
            w.noise[m] = noise[pos + m]
            m += 1
    if m == 0:
        return pos
    kernels.hand_unseen_top_rows(s, w.rows[:m], w.seats[:m], t.deck, t.code, t.param, t.salt, w.hand[:m],
                                 w.unseen[:m], w.known_top[:m])
    _best_rows(t.weights, Games(w.hand[:m], w.unseen[:m], s.size, w.rows[:m], w.seats[:m], s.dirn, w.known_top[:m],
                                w.bits[:m], w.demand[:m], w.top[:m], w.drawn[:m], w.noise[:m]), w.best[:m], w.score[:m])
    for j in range(m):
        out[w.at[j]] = w.best[j]
    return pos + m


# ------------------------------------------------------------------------------------ the play-out

# the compiled hand loop's scratch: the pass's rows (FastRun.run's sel, ask_bits, counts), the
# answers and the drawn cards' question (the cuts' and races' is numpy_loops.Chance)
Scratch = namedtuple("Scratch", ("sel", "ask_bits", "counts", "choice", "keep", "seat", "bits", "drawn"))


def _scratch(n: int) -> Scratch:
    f = np.zeros
    return Scratch(f((4, n), np.int64), f(n, np.uint64), f(4, np.int64), f(n, np.intp), f(n, np.intp), f(n, np.int64),
                   f(n, np.uint64), f(n, np.int8))


@numba.njit(cache=True, nogil=True)
def _hand_loop(s, g, b, t, w, x, c, f, normal_cut, forced, use_forced, noise, pos):
    """FastRun.run's passes from a position (a new hand's too: FastRun.one_compiled_call), every
    question answered by the tactician (_ask), the first by `forced` when use_forced. Stops when
    fewer than two noise values per turn of the pass are left (returns (pos, 0): called again with
    more; plan only reads the state), at the hand's end ((pos, 1)), or when the first question is
    not every game's ((pos, 2))."""
    sel, counts = x.sel, x.counts
    while True:
        kernels.plan(s, g, sel, x.ask_bits, counts)
        nc, nf, na, nd = counts[0], counts[1], counts[2], counts[3]
        if not (nc or nf or na or nd):
            return pos, 1
        if len(noise) - pos < 2 * (na + nd):      # a turn asks at most twice (its card, a drawn card)
            return pos, 0
        if nc or nf:
            if normal_cut:
                cut_normals(s, c, f, sel[0, :nc])
            else:
                c.z[:nc] = 0.0
            kernels.cuts_and_flips(s, g, b, sel[0, :nc], c.z[:nc], sel[1, :nf])
        if na:
            ask = sel[2, :na]
            if use_forced:
                if na != len(forced):
                    return pos, 2
                x.choice[:na] = forced
                use_forced = False
            else:
                for i in range(na):
                    x.seat[i] = s.cur[ask[i]]
                    x.drawn[i] = -1
                pos = _ask(s, t, w, ask, x.seat[:na], x.ask_bits[:na], x.drawn[:na], noise, pos, x.choice)
        if na or nd:
            kernels.turns(s, g, b, sel[2, :na], x.choice[:na], sel[3, :nd])
            nw = b.n_wait[0]
            if nw:
                for i in range(nw):
                    card = b.wait_card[i]
                    x.seat[i] = b.wait_seat[i]
                    x.bits[i] = kernels.DRAW_BIT | (np.uint64(1) << np.uint64(card))
                    x.drawn[i] = card
                pos = _ask(s, t, w, b.wait_row[:nw], x.seat[:nw], x.bits[:nw], x.drawn[:nw], noise, pos, x.keep)
                kernels.drawn_answers(s, g, b, x.keep[:nw])
        if b.n_race[0]:
            settle_races(s, g, b, c, f)


# the compiled loop holds its own copy of every kernel it calls: its cache is stale when they change
depends_on(_hand_loop, kernels.__name__, numpy_loops.__name__, "moonshot.strategies.hit_the_deck", views.__name__)
depends_on(_ask, kernels.__name__, "moonshot.strategies.hit_the_deck", views.__name__)


_CONSTS: dict = {}
_SCRATCH = threading.local()    # per thread: the server plays several runs at once, each in a thread
KEPT_ROWS = 1 << 15             # a batch of at most this many rows (rollout's) reuses its thread's buffers


def _scratch_for(n: int, P: int, stamp) -> tuple:
    """The hand loop's buffers for n rows. A search player's batches (a decision's play-outs, a few
    hundred to a few thousand rows, where ~50 small arrays each call cost more than their use) keep
    their thread's buffers from call to call, grown when a larger batch comes; the kernels index them
    by their own counts, never by their length. A whole chunk of hands (up to 65,536 rows: tens of
    MB) gets its own. Every entry is written before it is read but the pass counters, zeroed here."""
    key = (P, np.dtype(stamp))
    kept = _SCRATCH.__dict__.setdefault("by_key", {})
    got = kept.get(key)
    if n > KEPT_ROWS:
        got = (n, buffers(n, P, stamp), _work(n), _scratch(n), chance_scratch(n, P))
    elif got is None or got[0] < n:
        cap = min(max(n, 2 * got[0] if got else 0), KEPT_ROWS)
        got = (cap, buffers(cap, P, stamp), _work(cap), _scratch(cap), chance_scratch(cap, P))
        kept[key] = got
    b = got[1]
    b.n_race[0] = b.n_wait[0] = 0
    return got[1:]


def fits(policy, table, st) -> bool:
    """Whether play_out can stand in for play_on: a plain Tactician in every seat, the kernels'
    mirrored methods untouched (FastRun's own condition), no record kept, numpy's loops found."""
    return type(policy) is Tactician and mirrors_numpy() and not st.log.on and loops() is not None


def whole_batch(run, policy: Tactician) -> bool:
    """The engine's whole-batch player for a plain tactician in every seat (fast.WHOLE_BATCH):
    play_out on the batch, the same numbers as FastRun's passes; False where it does not fit."""
    if not fits(policy, run.t, run.st):
        return False
    play_out(run.t, run.st, policy, None, run.rng)
    return True


fast.WHOLE_BATCH[Tactician] = whole_batch


def _consts(table, policy: Tactician, st):
    """The table's kernel constants and the tactician's tables (kept per table and player)."""
    key = (id(table), id(policy))
    got = _CONSTS.get(key)
    if got is None or got[0] is not table or got[1] is not policy:
        if len(_CONSTS) > 64:
            _CONSTS.clear()
        got = (table, policy, consts(HandRun(table, st, [], None)), _tac(policy, table))
        _CONSTS[key] = got
    return got[2], got[3]


def play_out(table, st, policy: Tactician, first: np.ndarray | None, rng: np.random.Generator) -> dict:
    """resume.play_on(table, st, [policy] * P, rng) with `first` (or None) answering the first
    question, as htd_search._FirstForced does: the same results (st.res) and the generator left
    in the same state. Only where fits(policy, table, st)."""
    n, P = len(st.gid), table.players
    g, t = _consts(table, policy, st)
    b, w, x, c = _scratch_for(n, P, st.dstamp.dtype)
    forced = np.zeros(0, np.intp) if first is None else np.ascontiguousarray(first, dtype=np.intp)
    use = first is not None
    # the tactician's noise, drawn ahead; the generator is then rewound and moved on by what was used
    start = rng.bit_generator.state
    noise, pos, used = rng.integers(0, NOISE_RANGE, 32 * n), 0, 0
    normal_cut = g.cut_mode == kernels.CUT_NORMAL
    s = kernels.arrays(st)
    while True:
        pos, status = _hand_loop(s, g, b, t, w, x, c, loops(), normal_cut, forced, use, noise, pos)
        stopping.check()
        if status == 1:
            break
        if status == 2:
            raise AssertionError("htd rollout: the first question must be every play-out's")
        use = False
        used += pos
        noise, pos = np.concatenate([noise[pos:], rng.integers(0, NOISE_RANGE, 16 * n)]), 0
    st.retire(np.arange(n))
    _move_on(rng, start, used + pos)
    return st.res


def _move_on(rng: np.random.Generator, start: dict, draws: int) -> None:
    """Sets the generator to where `draws` draws of rng.integers(0, NOISE_RANGE) from state `start`
    leave it. Each such draw is one 32-bit output (no draw is rejected); PCG64 serves them as the
    halves of its 64-bit outputs, low half first, the high one kept for the next (has_uint32), so
    the state is reached by a jump (advance) and one 64-bit output instead of drawing them all
    again. Other bit generators draw them again."""
    bg = rng.bit_generator
    if type(bg) is not np.random.PCG64:
        bg.state = start
        rng.integers(0, NOISE_RANGE, draws)
        return
    state = dict(start)
    left = draws
    if state["has_uint32"] and left:           # the kept high half is the first draw
        state["has_uint32"], left = 0, left - 1
    bg.state = state
    words = (left + 1) // 2
    if words:
        bg.advance(words - 1)
        last = int(bg.random_raw())
        state = bg.state
        state["has_uint32"], state["uinteger"] = left % 2, last >> 32
        bg.state = state
