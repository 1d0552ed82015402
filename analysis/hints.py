"""The Play page's hint: the decision in front of the person valued exactly as `moonshot review`
values it afterwards.

Each game's page parts hand this module the Decision their review hook's position-level valuation
made from the seat's view (moon_review.value, shoot_the_moon_review.value, hit_the_deck_review.decision):
every legal option on the same sampled worlds, played out by the game's strongest player, in the
game's unit. The worlds come from review.decision_rng(SEED, hand id, step) with the hook's WORLDS,
the seed and worlds the Replay page's "Review this hand" uses (it sends no seed, so the route takes
the CLI's default; and "the game's default" worlds), so the hint's numbers are the review's for
that decision, which the hint's note says.
"""
from __future__ import annotations

import importlib
import math

import numpy as np

from moonshot.analysis.review import MAX_WORLDS, Judged, option_values
from moonshot.simulator.errors import BadInput
from moonshot.simulator.runner import DEFAULT_SEED

SEED = DEFAULT_SEED      # `moonshot review`'s default seed, which the Replay page's review also uses
HAND_ID = 0              # a hand played on the Play page is its history's hand 0


def worlds_for(review: str, worlds: int | None) -> int:
    """The worlds per decision: the review hook's default unless asked (2..MAX_WORLDS)."""
    if worlds is None:
        return importlib.import_module(review).WORLDS
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 2 <= worlds <= MAX_WORLDS:
        raise BadInput(f"worlds {worlds!r} is not accepted; accepted: an integer from 2 to {MAX_WORLDS}")
    return worlds


def _num(x) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def hint(decision, by: str, what: str, worlds: int) -> dict:
    """The hint's JSON: {by, unit, note, rows}, one row per legal option, best first then in order
    of value: {move, value, low, high, diff, diff_low, diff_high, best, verdict, p_win?, p_win_low?,
    p_win_high?}, the value with its 95% interval in the game's unit, the paired difference from the
    best option, the review's verdict of taking it ("cannot be told" where it cannot be told from the
    best), and the mover's P(win the game) with its interval where the decision has one. `best` (the
    star) is the option best by the valuation the verdict uses: P(win) for hands of whole games,
    the game's unit otherwise."""
    judged = Judged.of(decision)
    values = option_values(judged)
    gain = judged.gain.mean(axis=0) if judged.gain.shape[0] else np.zeros(len(values))
    order = sorted(range(len(values)), key=lambda k: (not values[k]["best"], -gain[k]))
    rows = []
    for k in order:
        v = values[k]
        row = {"move": v["option"], "value": _num(v["value"]), "low": _num(v["value_low"]),
               "high": _num(v["value_high"]), "diff": _num(v["diff"]), "diff_low": _num(v["diff_low"]),
               "diff_high": _num(v["diff_high"]), "best": bool(v["best"]), "verdict": v["verdict"]}
        if "p_win" in v:            # with its 95% interval, as the review's rows give it
            row.update(p_win=_num(v["p_win"]), p_win_low=_num(v["p_win_low"]), p_win_high=_num(v["p_win_high"]))
        rows.append(row)
    better = "higher" if decision.higher_better else "lower"
    favour = f"in your favour: negative is worse; {better} {decision.unit} is better"
    vs_best = (f"'vs best' is the paired difference from the best option ({favour})"
               if judged.valued_by == decision.unit else
               # whole games: the verdicts and the star go by P(win); the unit's difference stays the unit's
               f"the best (starred) is the option with the highest P(win the game), which the verdicts judge by; "
               f"'vs best' is the paired difference from the option best in {decision.unit} ({favour})")
    note = (f"{what} Each value is the mean over the same {worlds} worlds dealt from what your seat knows, with its "
            f"95% interval; {vs_best}; an option whose "
            f"verdict is 'cannot be told' cannot be told from the best on these worlds. These are the numbers "
            f"`moonshot review` gives this decision with its default seed ({SEED}) and worlds, as the Replay "
            f"page's \"Review this hand\" (the game's default worlds) does.")
    if decision.forced:
        note = "Only one legal option: nothing to weigh. " + note
    return {"by": by, "unit": decision.unit, "note": note, "rows": rows}
