"""The hand loop on compiled kernels (kernels.py): HandRun's passes, with each pass's steps done
game by game in numba instead of as numpy operations over row subsets. What stays in Python per
pass: picking the rows by phase, asking the strategies (one call for the whole batch, as before),
and the slap races' reaction times (HandRun.race, numpy). Record mode runs HandRun itself."""
from __future__ import annotations

from typing import Callable

import numpy as np

from moonshot.simulator.hit_the_deck.engine import keyed_chance
from moonshot.simulator.hit_the_deck.engine import kernels
from moonshot.simulator.hit_the_deck.engine.hand import HandRun
from moonshot.simulator.hit_the_deck.engine.kernel_args import buffers, consts

# A player's type -> its whole-batch player, whole(run, player) -> played: the strategy modules fill
# it (strategies.hit_the_deck for `random`, strategies.htd_playout for `tactician`), so the engine
# gets its fast players without importing a strategy. None for a type: FastRun's own passes.
WHOLE_BATCH: dict[type, Callable[["FastRun", object], bool]] = {}


class FastRun(HandRun):
    """HandRun.run on kernels: the same passes, event order and chance draws (bit for bit)."""

    def run(self) -> None:
        self.opening()
        if self.hook is None and self.one_compiled_call():
            return
        st = self.st
        g = consts(self)
        n = len(st.gid)
        b = buffers(n, self.P, st.dstamp.dtype)
        sel, ask_bits, counts = np.zeros((4, n), np.int64), np.zeros(n, np.uint64), np.zeros(4, np.int64)
        normal_cut = g.cut_mode == kernels.CUT_NORMAL
        no_card = np.full(n, -1, dtype=np.int8)      # a turn's `drawn`: none (the view hands out copies)
        while True:
            s = kernels.arrays(st)
            kernels.plan(s, g, sel, ask_bits, counts)
            nc, nf, na, nd = counts.tolist()
            if not (nc or nf or na or nd):
                break
            if nc or nf:
                cut_rows, flip_rows = sel[0, :nc], sel[1, :nf]
                z = self.cut_normals(s, cut_rows) if normal_cut else np.zeros(nc)
                kernels.cuts_and_flips(s, g, b, cut_rows, z, flip_rows)
            if na or nd:
                ask = sel[2, :na].copy()            # the strategies' view keeps its rows
                choice = self.ask(ask, st.cur[ask], ask_bits[:na].copy(), no_card[:na]) \
                    if na else np.zeros(0, dtype=np.intp)
                kernels.turns(s, g, b, ask, choice, sel[3, :nd])
                if b.n_wait[0]:
                    w = int(b.n_wait[0])
                    rows, card = b.wait_row[:w], b.wait_card[:w].astype(np.int8)
                    keep = self.ask(rows, b.wait_seat[:w].astype(np.int8),
                                    kernels.DRAW_BIT | (np.uint64(1) << card.astype(np.uint64)), card)
                    kernels.drawn_answers(s, g, b, keep)
            if b.n_race[0]:
                self.settle_races(s, g, b)
            self.end_of_pass()
        st.retire(np.arange(len(st.gid)))

    def one_compiled_call(self) -> bool:
        """Plays the batch's passes in one compiled call where one player holds every seat and its
        strategy module handed the engine a whole-batch player for its type (WHOLE_BATCH: `random`'s
        compiled_run, the plain `tactician`'s htd_playout loop; the same numbers); False otherwise."""
        if len(self.groups) != 1:
            return False
        player = self.groups[0][0]
        whole = WHOLE_BATCH.get(type(player))          # the exact type: a subclass may play otherwise
        return whole is not None and whole(self, player)

    def cut_normals(self, s, rows: np.ndarray) -> np.ndarray:
        """The standard normal of each normal_half cut (numpy's log and cos, as HandRun.cut)."""
        U = np.empty((len(rows), 2))
        kernels.cut_uniforms(s, rows, U)
        z, _ = keyed_chance.normal_pair(U[:, 0], U[:, 1])
        return z

    def settle_races(self, s, g, b) -> None:
        """This pass's slap races: the uniforms compiled, their logs, cosines and sines numpy's (as
        in HandRun.race, to the last bit), the rest compiled (kernels.settle_races)."""
        m = int(b.n_race[0])
        U, tie = np.empty((m, kernels.RACE_SLOTS * self.P)), np.empty(m)
        kernels.race_uniforms(s, g, b, U, tie)
        angle = 2 * np.pi * U[:, 1::kernels.RACE_SLOTS]
        kernels.settle_races(s, g, b, U, np.log(U), np.cos(angle), np.sin(angle), tie)
