"""FastRun's passes in one compiled call when every seat plays `random` (one RandomPlay object;
strategies.hit_the_deck hands it to the engine as random's whole-batch player: fast.WHOLE_BATCH).

FastRun goes back to Python every pass: to ask the strategy (an EnginePlayView, the answer's
check, RandomPlay's draw and nth_set_bit), for numpy's log, cos and sin of the cuts' and races'
uniforms, and for each kernel call, whose arguments (the state's ~30 arrays in a namedtuple, the
constants, the buffers) numba unpacks on every call; and each pass visits a game once per stage
(the rows by phase, the cuts and flips, the turns, the races), with 65,536 games a chunk (~70 MB
of state) out of cache by the next stage. Here _passes runs the passes, each as one sweep over the
rows (_sweep): the same steps (kernels.py), RandomPlay's choice made in place (the same
nth_set_bit on the same legal masks, its answers always legal), numpy's own loops for log, cos
and sin (numpy_loops.py: the same last bits), and the same uniforms: RandomPlay draws
rng.random(m) for each question of m games, one double each, so a pass's draws are the next m of
one stream drawn ahead, and the generator is left where those calls would have left it. It
returns to Python where FastRun.end_of_pass would compact the batch, so the batch and its results
are the same. Not under htd.drawn_card_play=optional (FastRun's own loop plays those).
"""
from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from moonshot.simulator.hit_the_deck import views
from moonshot.simulator.hit_the_deck.engine import kernels, numpy_loops
from moonshot.simulator.hit_the_deck.engine.cache_keys import depends_on
from moonshot.simulator.hit_the_deck.engine.kernel_args import buffers, consts
from moonshot.simulator.hit_the_deck.engine.kernels import AHEAD, _prefetch
from moonshot.simulator.hit_the_deck.engine.state import CUT, DONE, FLIP, TURN
from moonshot.simulator.hit_the_deck.views import nth_set_bit

# a question's mask, RandomPlay's answer (picked) as the kernels take it (choice), a cut's row
Scratch = namedtuple("Scratch", ("bits", "picked", "choice", "one"))
MORE, FINISHED, COMPACT = 0, 1, 2           # why _passes returned: more uniforms, the hand's end, compaction
COMPACT_MIN = 256                           # HandRun.end_of_pass compacts batches above this many rows


def scratch() -> Scratch:
    return Scratch(np.zeros(1, np.uint64), np.zeros(1, np.int16), np.zeros(1, np.intp), np.zeros(1, np.int64))


@numba.njit(cache=True, nogil=True, _nrt=False)
def _choose(bits, u, pos, picked, out):
    """RandomPlay.play for len(bits) games: u[pos:] its draws; returns the position after them."""
    m = len(bits)
    nth_set_bit(bits, u[pos:pos + m], picked[:m])
    for i in range(m):
        out[i] = picked[i]
    return pos + m


@numba.njit(cache=True, nogil=True, _nrt=False)
def _sweep(s, g, b, x, c, f, normal_cut, u, pos):
    """One of FastRun.run's passes in one sweep over the rows, each game's step, its choice and
    its slap race in turn (FastRun stages them: all cuts and flips, the question, the turns, the
    races): games are independent and their chance is keyed per game, and the choices take the
    uniforms in the same order (the asking games in row order), so the numbers are the same; a
    row's cache lines are fetched once a pass instead of once per stage. Not under
    htd.drawn_card_play=optional (its question comes after every game's turn). Returns (position
    in u, whether any game moved)."""
    n = len(s.phase)
    moved = False
    for r in range(n):
        if r + AHEAD < n:                         # what the game AHEAD rows on will touch
            r2 = r + AHEAD
            ph2 = s.phase[r2]
            if ph2 == TURN:
                _prefetch(s.disc, (r2, max(s.sn[r2] - 1, 0)))
                _prefetch(s.hand, (r2, s.cur[r2], 0))
                _prefetch(s.draw, (r2, max(s.dn[r2] - 1, 0)))
                _prefetch(s.seen, (r2, 0))
            elif ph2 == CUT:
                _prefetch(s.draw, (r2, s.dn[r2] // 2))
                _prefetch(s.disc, (r2, s.sn[r2]))
            elif ph2 == FLIP:
                _prefetch(s.draw, (r2, 0))
                _prefetch(s.disc, (r2, 0))
        ph = s.phase[r]
        if ph == DONE:
            continue
        moved = True
        if ph == TURN:
            bits = s.hbits[r, s.cur[r]] & g.legal[kernels._situation(s, r)]
            if bits == 0:
                kernels._no_legal_turn(s, g, b, r)
            else:
                if g.voluntary:
                    bits |= kernels.DRAW_BIT
                x.bits[0] = bits
                pos = _choose(x.bits[:1], u, pos, x.picked, x.choice)
                if x.choice[0] == kernels.DRAW:
                    kernels._draw_turn(s, g, b, r)
                else:
                    kernels._play(s, g, b, r, s.cur[r], x.choice[0], False)
        elif ph == CUT:
            x.one[0] = r
            if normal_cut:
                numpy_loops.cut_normals(s, c, f, x.one)
            else:
                c.z[0] = 0.0
            kernels._cut(s, g, b, r, c.z[0])
        else:
            kernels._flip(s, g, b, r)
        if b.n_race[0]:                           # (one at most: a step lands one card)
            numpy_loops.settle_races(s, g, b, c, f)
    return pos, moved


@numba.njit(cache=True, nogil=True, _nrt=False)
def _passes(s, g, b, x, c, f, normal_cut, u, pos):
    """FastRun.run's passes (status MORE when fewer than two uniforms per row are left, FINISHED
    at the hand's end, COMPACT after a pass that leaves fewer than half the rows live); returns
    (position in u, status)."""
    n = len(s.phase)
    while True:
        if len(u) - pos < 2 * n:
            return pos, MORE
        pos, moved = _sweep(s, g, b, x, c, f, normal_cut, u, pos)
        if not moved:
            return pos, FINISHED
        if n > COMPACT_MIN:
            live = 0
            for r in range(n):
                live += s.phase[r] != DONE
            if live * 2 < n:
                return pos, COMPACT


for _caller in (_choose, _sweep, _passes):
    depends_on(_caller, kernels.__name__, numpy_loops.__name__, views.__name__)


def whole_batch(run, player) -> bool:
    """Plays `run` (a FastRun after its opening, `player` a RandomPlay in every seat) to the end of
    its hands in one compiled call (the same numbers as its passes); False where it cannot: under
    htd.drawn_card_play=optional, or without numpy's loops."""
    f = numpy_loops.loops()
    if run.rules.drawn_card_play == "optional" or f is None:
        return False
    st = run.st
    play(run, f, consts(run), buffers(len(st.gid), run.P, st.dstamp.dtype))
    st.retire(np.arange(len(st.gid)))
    return True


def play(run, f: numpy_loops.Loops, g, b) -> None:
    """run (a FastRun after its opening) played to the end of its hands, every seat RandomPlay."""
    st, rng = run.st, run.rng
    n = len(st.gid)
    x, c = scratch(), numpy_loops.chance_scratch(1, run.P)
    normal_cut = g.cut_mode == kernels.CUT_NORMAL
    start = rng.bit_generator.state           # the uniforms drawn ahead; the generator is rewound below
    u = rng.random(8 * n)
    pos, used = 0, 0
    while True:
        pos, status = _passes(kernels.arrays(st), g, b, x, c, f, normal_cut, u, pos)
        if status == FINISHED:
            break
        if status == COMPACT:
            run.end_of_pass()
        else:                                 # the unused ones to the front, the rest drawn anew
            used += pos
            left = len(u) - pos
            u[:left] = u[pos:]
            rng.random(out=u[left:])
            pos = 0
    rng.bit_generator.state = start
    used += pos
    if type(rng.bit_generator) is np.random.PCG64 and not start["has_uint32"]:
        rng.bit_generator.advance(used)       # one step a double: where drawing them leaves it
    else:
        rng.random(used)
