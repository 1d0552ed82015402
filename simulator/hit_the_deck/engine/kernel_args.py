"""What the compiled kernels (kernels.py) take from a hand run, for both compiled hand loops
(fast.FastRun and rollout's strategies/htd_playout.py): its constants (consts), the per-pass
buffers (buffers), and whether every method the kernels mirror is still the original
(mirrors_numpy)."""
from __future__ import annotations

import numpy as np

from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck.engine import kernels
from moonshot.simulator.hit_the_deck.engine.hand import DEMAND_OF, NEXT_PHASE, HandRun
from moonshot.simulator.hit_the_deck.engine.state import PILE, State

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
        off=run.off, p_forget=run.react["p_forget"], any_q=run.any_q, cond_q=run.cond_q, q=run.q,
        react=np.stack([run.react[name] for name in kernels.REACT]), judge_window=float(rules.judge_window))


def buffers(n: int, P: int, stamp) -> kernels.Buffers:
    """The per-pass buffers of n rows, P seats, `stamp` the piles' stamp dtype."""
    return kernels.Buffers(race_row=np.zeros(n, np.int64), race_seat=np.zeros(n, np.int64),
                           race_ctr=np.zeros(n, np.uint32), race_out=np.zeros(n, np.bool_),
                           n_race=np.zeros(1, np.int64), wait_row=np.zeros(n, np.int64),
                           wait_seat=np.zeros(n, np.int64), wait_card=np.zeros(n, np.int64),
                           n_wait=np.zeros(1, np.int64), tmp8=np.zeros(PILE, np.int8), tmp16=np.zeros(PILE, stamp),
                           tmp8b=np.zeros(PILE, np.int8), tmp16b=np.zeros(PILE, stamp),
                           hashes=np.zeros(PILE, np.uint64), order=np.zeros(PILE, np.int64), lat=np.zeros(P))
