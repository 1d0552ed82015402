"""FastRun's passes in one compiled call when every seat plays `random` (one RandomPlay object).

FastRun goes back to Python every pass: to ask the strategy (an EnginePlayView, the answer's
check, RandomPlay's draw and _nth_set_bit), for numpy's log, cos and sin of the cuts' and races'
uniforms, and for each kernel call, whose arguments (the state's ~30 arrays in a namedtuple, the
constants, the buffers) numba unpacks on every call. A chunk of 65,536 hands takes ~260 passes,
~10% of the CPU time of `moonshot simulate hit-the-deck -s random`. Here _passes runs them: the
same kernels in the same order, RandomPlay's choice made in place (the same _nth_set_bit on the
same legal masks, its answers always legal), numpy's own loops for log, cos and sin
(numpy_loops.py: the same last bits), and the same uniforms: RandomPlay draws rng.random(m) for
each question of m games, one double each, so a pass's draws are the next m of one stream drawn
ahead, and the generator is left where those calls would have left it. It returns to Python where
FastRun.end_of_pass would compact the batch, so the batch and its results are the same.
"""
from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from moonshot.simulator.hit_the_deck.engine import kernels, numpy_loops
from moonshot.simulator.hit_the_deck.engine.cache_keys import depends_on
from moonshot.simulator.hit_the_deck.engine.state import DONE
from moonshot.strategies.hit_the_deck import RandomPlay, _nth_set_bit

# the pass's rows (FastRun.run's sel, ask_bits, counts), the answers and the drawn cards' question
Scratch = namedtuple("Scratch", ("sel", "ask_bits", "counts", "picked", "choice", "keep", "bits"))
MORE, FINISHED, COMPACT = 0, 1, 2           # why _passes returned: more uniforms, the hand's end, compaction
COMPACT_MIN = 256                           # HandRun.end_of_pass compacts batches above this many rows


def scratch(n: int) -> Scratch:
    return Scratch(np.zeros((4, n), np.int64), np.zeros(n, np.uint64), np.zeros(4, np.int64), np.zeros(n, np.int16),
                   np.zeros(n, np.intp), np.zeros(n, np.intp), np.zeros(n, np.uint64))


def random_player(groups):
    """The RandomPlay object when it plays every seat, else None."""
    return groups[0][0] if len(groups) == 1 and type(groups[0][0]) is RandomPlay else None


@numba.njit(cache=True, nogil=True, _nrt=False)
def _choose(bits, u, pos, picked, out):
    """RandomPlay.play for len(bits) games: u[pos:] its draws; returns the position after them."""
    m = len(bits)
    _nth_set_bit(bits, u[pos:pos + m], picked[:m])
    for i in range(m):
        out[i] = picked[i]
    return pos + m


@numba.njit(cache=True, nogil=True, _nrt=False)
def _passes(s, g, b, x, c, f, normal_cut, u, pos):
    """FastRun.run's passes (status MORE when fewer than two uniforms per row are left, FINISHED
    at the hand's end, COMPACT after a pass that leaves fewer than half the rows live); returns
    (position in u, status)."""
    sel, counts = x.sel, x.counts
    n = len(s.phase)
    while True:
        if len(u) - pos < 2 * n:
            return pos, MORE
        kernels.plan(s, g, sel, x.ask_bits, counts)
        nc, nf, na, nd = counts[0], counts[1], counts[2], counts[3]
        if not (nc or nf or na or nd):
            return pos, FINISHED
        if nc or nf:
            if normal_cut:
                numpy_loops.cut_normals(s, c, f, sel[0, :nc])
            else:
                c.z[:nc] = 0.0
            kernels.cuts_and_flips(s, g, b, sel[0, :nc], c.z[:nc], sel[1, :nf])
        if na or nd:
            pos = _choose(x.ask_bits[:na], u, pos, x.picked, x.choice)
            kernels.turns(s, g, b, sel[2, :na], x.choice[:na], sel[3, :nd])
            nw = b.n_wait[0]
            if nw:
                for i in range(nw):
                    x.bits[i] = kernels.DRAW_BIT | (np.uint64(1) << np.uint64(b.wait_card[i]))
                pos = _choose(x.bits[:nw], u, pos, x.picked, x.keep)
                kernels.drawn_answers(s, g, b, x.keep[:nw])
        if b.n_race[0]:
            numpy_loops.settle_races(s, g, b, c, f)
        if n > COMPACT_MIN:
            live = 0
            for r in range(n):
                live += s.phase[r] != DONE
            if live * 2 < n:
                return pos, COMPACT


for _caller in (_choose, _passes):
    depends_on(_caller, kernels.__name__, numpy_loops.__name__, RandomPlay.__module__)


def play(run, f: numpy_loops.Loops, g, b) -> None:
    """run (a FastRun after its opening) played to the end of its hands, every seat RandomPlay."""
    st, rng = run.st, run.rng
    n = len(st.gid)
    x, c = scratch(n), numpy_loops.chance_scratch(n, run.P)
    normal_cut = g.cut_mode == kernels.CUT_NORMAL
    start = rng.bit_generator.state           # the uniforms drawn ahead; the generator is rewound below
    u, pos, used = rng.random(8 * n), 0, 0
    while True:
        pos, status = _passes(kernels.arrays(st), g, b, x, c, f, normal_cut, u, pos)
        if status == FINISHED:
            break
        if status == COMPACT:
            run.end_of_pass()
        else:
            used += pos
            u, pos = np.concatenate([u[pos:], rng.random(4 * n)]), 0
    rng.bit_generator.state = start
    rng.random(used + pos)
