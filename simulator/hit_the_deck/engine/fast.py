"""The hand loop on compiled kernels (kernels.py): HandRun's passes, with each pass's steps done
game by game in numba instead of as numpy operations over row subsets. What stays in Python per
pass: picking the rows by phase, asking the strategies (one call for the whole batch, as before),
and the slap races' reaction times (HandRun.race, numpy). Record mode runs HandRun itself."""
from __future__ import annotations

import numpy as np

from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck.engine import keyed_chance
from moonshot.simulator.hit_the_deck.engine import kernels
from moonshot.simulator.hit_the_deck.engine.hand import DEMAND_OF, NEXT_PHASE, HandRun
from moonshot.simulator.hit_the_deck.engine.state import CUT, FLIP, PILE, TURN, State

CUT_MODES = {"normal_half": kernels.CUT_NORMAL, "uniform": kernels.CUT_UNIFORM, "exact_half": kernels.CUT_HALF}
# the methods the kernels mirror: where one is replaced (a test's probe, a subclass) the kernels
# would silently skip the replacement, so play() runs HandRun instead
MIRRORED = [(cls, name, getattr(cls, name)) for cls, names in (
    (State, ("give", "take_card", "top", "push_discard", "pop_draw", "reshuffle", "flip_piles", "remove_from_draw",
             "bury_top", "reveal_top", "chance", "uniform")),
    (HandRun, ("nxt", "end", "block", "counted", "land", "resolve", "turn", "draw_turn", "take", "play", "cut",
               "flip", "bury", "slap", "penalty", "false_slaps"))) for name in names]


def mirrors_numpy() -> bool:
    """Whether every method the kernels mirror is the original."""
    return all(getattr(cls, name) is f for cls, name, f in MIRRORED)


def consts(run: HandRun) -> kernels.Consts:
    rules = run.rules
    return kernels.Consts(
        P=run.P, max_turns=int(rules.max_turns), voluntary=bool(rules.voluntary_draw),
        optional=rules.drawn_card_play == "optional", cut_mode=CUT_MODES[rules.cut_depth],
        bottom=rules.cut_exposed == "bottom_of_lifted", bury_middle=run.bury_middle,
        turn_consumed=rules.exposed_hand_card == "shouter_turn_consumed",
        resolve_then_score=rules.final_card_effects == "resolve_then_score", p_notice=float(rules.p_notice),
        no_false_slaps=bool(run.no_false_slaps), legal=run.legal, klass=deck.CLASS.astype(np.int8),
        slap_kind=deck.SLAP_KIND.astype(np.int8), demand_of=DEMAND_OF, next_phase=NEXT_PHASE,
        off=run.off, p_forget=run.react["p_forget"], any_q=run.any_q, cond_q=run.cond_q, q=run.q)


class FastRun(HandRun):
    """HandRun.run on kernels: the same passes, event order and chance draws (bit for bit)."""

    def run(self) -> None:
        self.opening()
        st = self.st
        g = consts(self)
        n = len(st.gid)
        b = kernels.Buffers(race_row=np.zeros(n, np.int64), race_seat=np.zeros(n, np.int64),
                      race_ctr=np.zeros(n, np.uint32), race_out=np.zeros(n, np.bool_), n_race=np.zeros(1, np.int64),
                      wait_row=np.zeros(n, np.int64), wait_seat=np.zeros(n, np.int64),
                      wait_card=np.zeros(n, np.int64), n_wait=np.zeros(1, np.int64),
                      tmp8=np.zeros(PILE, np.int8), tmp16=np.zeros(PILE, st.dstamp.dtype),
                      tmp8b=np.zeros(PILE, np.int8), tmp16b=np.zeros(PILE, st.dstamp.dtype),
                      hashes=np.zeros(PILE, np.uint64), order=np.zeros(PILE, np.int64))
        normal_cut = g.cut_mode == kernels.CUT_NORMAL
        while True:
            s = kernels.Arrays(*(getattr(st, name) for name in kernels.ARRAYS))
            phase = st.phase
            cut_rows, flip_rows = np.flatnonzero(phase == CUT), np.flatnonzero(phase == FLIP)
            turn_rows = np.flatnonzero(phase == TURN)
            if not (len(turn_rows) or len(cut_rows) or len(flip_rows)):
                break
            if len(cut_rows) or len(flip_rows):
                z = self.cut_normals(cut_rows) if normal_cut else np.zeros(len(cut_rows))
                kernels.cuts_and_flips(s, g, b, cut_rows, z, flip_rows)
            if len(turn_rows):
                bits = np.empty(len(turn_rows), dtype=np.uint64)
                kernels.legal_plays(s, g, turn_rows, bits)
                has = bits != 0
                ask = turn_rows[has]
                choice = self.ask(ask, st.cur[ask], bits[has], np.full(len(ask), -1, dtype=np.int8)) \
                    if len(ask) else np.zeros(0, dtype=np.intp)
                kernels.turns(s, g, b, ask, choice, turn_rows[~has])
                if b.n_wait[0]:
                    w = int(b.n_wait[0])
                    rows, card = b.wait_row[:w], b.wait_card[:w].astype(np.int8)
                    keep = self.ask(rows, b.wait_seat[:w].astype(np.int8),
                                    kernels.DRAW_BIT | (np.uint64(1) << card.astype(np.uint64)), card)
                    kernels.drawn_answers(s, g, b, keep)
            if b.n_race[0]:
                m = int(b.n_race[0])
                loser, _, _ = self.race(b.race_row[:m], b.race_seat[:m], b.race_ctr[:m], b.race_out[:m])
                kernels.settle_races(s, b, loser)
            self.end_of_pass()
        st.retire(np.arange(len(st.gid)))

    def cut_normals(self, rows: np.ndarray) -> np.ndarray:
        """The standard normal of each normal_half cut (numpy's log and cos, as HandRun.cut): its
        chance counter is the next one, or the one after when the cut reshuffles first."""
        st = self.st
        c = st.ctr[rows] + ((st.dn[rows] == 0) & (st.sn[rows] > 1))
        z, _ = keyed_chance.normal_pair(st.uniform(rows, c, 0), st.uniform(rows, c, 1))
        return z
