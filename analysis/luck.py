"""Luck and skill of a reviewed seat: GNU Backgammon's split of a result, made exact by
telescoping.

For one seat in one hand, in the hand's unit (Moon points, Shoot the Moon chips, Hit the Deck penalty
points; whole-games records too: a game's luck is the sum over its hands) and in the "gain" sign (the
value for points and chips, minus the value for penalty points), with the seat's decisions k = 1..K
that have outcomes (a forced decision is valued on no worlds: it is part of the luck around it):
- expected E: the seat's mean result before the deal at its position (from the dealer, or the first
  bidder), under the hand's rules and table, with the game's default players in every seat: SAMPLE
  hands simulated through the registry (the seed derived from the review's), with a 95% interval;
- Q_k: the mean over the decision's worlds of the chosen option's value; loss_k: its leave-one-out
  loss (analysis/review.py's Judged, in the hand's unit even where the verdicts use P(win));
  V_k = Q_k + loss_k, the value of the position as the review's best play would take it;
- luck, in segments: the deal V_1 - E (with the others' moves before the seat's first decision),
  between decisions V_{k+1} - Q_k (the others' moves, the draws, the widow, forced moves, Hit the Deck's
  slap races: reactions, not decisions), the end R - Q_K, where R is the seat's result in the record;
- so, exactly: R = E + luck - loss, with loss = the sum of loss_k (skill), and the luck-adjusted
  result R - luck = E - loss.

Intervals: each decision deals its own worlds and the expected its own hands, so their variances add
(as the review's total loss does). A segment V_{k+1} - Q_k joins two decisions: the variance of each.
The totals use the telescoped form (luck = R - E + the sum of the losses), so luck, loss and the
adjusted result get the expected's variance plus the losses'. The approximation: V_k and Q_k come from
the same worlds (V_k is Q_k plus the loss), so a segment's interval holds V_k's noise that the total's
cancels; the segments' intervals do not add up to the total's. A total over several hands takes the
expected's interval from the same simulated hands at every position it counts (not as independent).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from moonshot.analysis.common import Setup, make_setup
from moonshot.analysis.stats import Z
from moonshot.analysis.words import lineup, say, with_interval
from moonshot.simulator.flags import changed_flags
from moonshot.simulator.games import get
from moonshot.simulator.runner import stream_seed

SAMPLE = 20_000            # hands behind each expected result (played once per process and table)
LUCK_CHUNK = 2**31 - 37    # the chunk index of the expected's streams: one no run of hands reaches
ALL = "all"                # the hand column of a seat's total over the file
LUCK_COLUMNS = ["hand", "seat", "unit", "result", "expected", "expected_low", "expected_high", "luck", "luck_low",
                "luck_high", "loss", "loss_low", "loss_high", "adjusted", "adjusted_low", "adjusted_high"]
NOTE = ("Luck and skill (tables luck and values), in the hand's unit (a game's: the sum over its hands): the seat's "
        f"expected result is its mean over {SAMPLE:,} hands at its position with the game's default players in every "
        "seat; at each decision the position's value is the chosen option's mean value plus the decision's loss; "
        "luck is every change of value the seat did not choose (the deal, the others' moves, draws, the widow, Hit the "
        "Deck's slap races, which are reactions, not decisions), skill the sum of its losses, so result = expected + "
        "luck - loss exactly (penalty points counted as negative gains: luck > 0 is points kept off the seat) and the "
        "luck-adjusted result, the result with the luck taken out, is the expected less the loss. Intervals: the "
        "decisions' worlds and the expected's hands are independent, so their variances add.")
VALUE_COLUMNS = ["hand", "seat", "step", "where", "value", "value_low", "value_high", "luck", "luck_low",
                 "luck_high", "loss", "loss_low", "loss_high"]


@dataclass(frozen=True)
class Est:
    """A mean and the variance of its estimate (gain sign)."""
    m: float
    v: float = 0.0

    def __add__(self, o: "Est") -> "Est":
        return Est(self.m + o.m, self.v + o.v)

    def __sub__(self, o: "Est") -> "Est":
        return Est(self.m - o.m, self.v + o.v)

    def cols(self, name: str, sign: int = 1) -> dict:
        """{name, name_low, name_high} with its 95% interval, times `sign` (the native unit)."""
        half = Z * np.sqrt(self.v)
        lo, hi = sorted(((self.m - half) * sign + 0.0, (self.m + half) * sign + 0.0))      # + 0.0: no -0.0
        return {name: self.m * sign + 0.0, f"{name}_low": lo, f"{name}_high": hi}


def _mean(x: np.ndarray) -> Est:
    """The mean of per-world values and its variance (sd^2 / W; none from fewer than two)."""
    x = np.asarray(x, dtype=float)
    return Est(float(x.mean()), float(x.var(ddof=1)) / len(x) if len(x) > 1 else 0.0)


# ------------------------------------------------------------------------------------ the expected result

def _arg(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return "off" if value is None else str(value)


def setup_of(game: str, players: int, rules, partners: bool = False, profiles=()) -> Setup:
    """A record's table with the game's default players (its hook's `setup`): the rules as the flags
    changed from the defaults (a record names every flag, some of which apply only at other tables)."""
    args = [f"{k}={_arg(v)}" for k, v in changed_flags(rules, get(game).flags).items()]
    return make_setup(game, players, partners, args, (), profiles)


@lru_cache(maxsize=32)
def position_gains(setup, seed: int) -> np.ndarray:
    """(SAMPLE, players) each position's result in gain sign (position 0: the dealer, or the first
    bidder, as the game's hook names it) in SAMPLE hands of `setup` with its default players, one
    batch through the game's hooks (cached: the review of a whole evening simulates each table once)."""
    entry = setup.entry
    hook = importlib.import_module(entry.review)
    rngs = [np.random.default_rng(stream_seed(seed, LUCK_CHUNK, k)) for k in range(entry.streams)]
    res = setup.hooks.play(setup, setup.seats.strategies, rngs, SAMPLE)
    values, first = hook.results(setup.table, res)
    P = values.shape[1]
    seats = (np.asarray(first, dtype=np.int64)[:, None] + np.arange(P)) % P
    return sign_of(hook) * np.take_along_axis(np.asarray(values, dtype=float), seats, axis=1)


def higher_better(game: str) -> bool:
    """Whether the game's hand unit is a gain (points, chips) rather than a cost (penalty points)."""
    return sign_of(importlib.import_module(get(game).review)) > 0


def sign_of(hook) -> int:
    """+1 where the hook's unit is a gain (points, chips), -1 where it is a cost (penalty points)."""
    return 1 if getattr(hook, "HIGHER_BETTER", True) else -1


def expected(counts: dict, seed: int) -> Est:
    """The summed expected result of a set of (hand, seat)s: counts {(setup, position): how many}.
    The positions of one table share its simulated hands, so each table's sum is taken hand by hand."""
    total = Est(0.0)
    by_setup: dict = {}
    for (setup, pos), n in counts.items():
        by_setup.setdefault(setup, {})[pos] = n
    for setup, weights in by_setup.items():
        gains = position_gains(setup, seed)
        y = sum(n * gains[:, pos] for pos, n in weights.items())
        total = total + _mean(y)
    return total


# ------------------------------------------------------------------------------------ one seat in one hand

def _path(judged: list, start: Est, result: float) -> tuple[list[dict], Est, Est]:
    """The seat's value path through one hand (gain sign): one point per decision with outcomes,
    each {step, where, value (Q_k), luck (the segment before it), loss}, then the end's segment;
    returns (points, the end segment, the summed loss)."""
    points, before, loss = [], start, Est(0.0)
    for j in judged:
        d = j.decision
        if d.forced or len(j.gain) == 0:
            continue
        chosen, lost = j.gain[:, d.chosen], j.loss(d.chosen)
        q, k = _mean(chosen), _mean(lost)
        points.append({"step": d.step, "where": d.where, "value": q, "luck": _mean(chosen + lost) - before,
                       "loss": k})
        before, loss = q, loss + k
    return points, Est(result) - before, loss


def _split(result: float, exp: Est, loss: Est) -> tuple[Est, Est]:
    """(luck, adjusted) of a result: luck = R - E + loss, adjusted = E - loss, each with the
    expected's variance plus the losses' (the telescoped form)."""
    luck = Est(result - exp.m + loss.m, exp.v + loss.v)
    return luck, Est(exp.m - loss.m, exp.v + loss.v)


def _row(hand, seat: int, unit: str, sign: int, result: float, exp: Est, loss: Est) -> dict:
    luck, adjusted = _split(result, exp, loss)
    return {"hand": hand, "seat": seat, "unit": unit, "result": result * sign, **exp.cols("expected", sign),
            **luck.cols("luck"), **loss.cols("loss"), **adjusted.cols("adjusted", sign)}


def tables(judged: list, work: list, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`judged`: the review's Judged decisions, each judged in the hand's unit (whole games too). The
    review's "luck" table (one row per hand and seat, then each seat's total over the file,
    hand "all", and per game "game N" where the records say which game a hand belongs to) and its
    "values" table (each seat's value path through each hand, one row a point).

    luck: hand, seat, unit, result, expected (+ _low/_high), luck, loss, adjusted (each + _low/_high):
    result, expected and adjusted in the hand's unit as the game counts it (Hit the Deck: penalty
    points, lower is better); luck and loss in that unit with the gain's sign (luck > 0 helped the
    seat, loss > 0 is what its choices cost); result = expected + luck - loss in the gain's sign.

    values: hand, seat, step, where, value (+ _low/_high), luck (+), loss (+): the first row step -1,
    where "dealt", value the expected result (luck and loss 0); one row per decision of the seat that
    has outcomes (forced ones have none), step and where the decision's, value Q_k (the chosen option's
    mean value, in the unit as the game counts it), luck the segment before it, loss its loss; the last
    row where "result", step the hand's step count (one past its last move, HISTORY order as the
    review counts steps), value the seat's result (exact), luck the end's segment, loss 0."""
    by_hand: dict = {}
    for j in judged:
        by_hand.setdefault((j.decision.hand_id, j.decision.seat), []).append(j)
    luck_rows, value_rows, totals = [], [], {}
    for review_module, record, seats in work:
        hook = importlib.import_module(review_module)
        sign, setup, hand = sign_of(hook), hook.setup(record), int(record["hand_id"])
        steps = hook.step_count(record)      # one past the hand's last move
        for seat in sorted(seats):
            pos = hook.position(record, seat)
            exp = expected({(setup, pos): 1}, seed)
            result = sign * float(hook.result(record, seat))
            mine = sorted(by_hand.get((hand, seat), []), key=lambda j: j.decision.step)
            points, end, loss = _path(mine, exp, result)
            luck_rows.append(_row(hand, seat, hook.UNIT, sign, result, exp, loss))
            zero = Est(0.0).cols("luck") | Est(0.0).cols("loss")
            value_rows.append({"hand": hand, "seat": seat, "step": -1, "where": "dealt", **exp.cols("value", sign),
                               **zero})
            value_rows += [{"hand": hand, "seat": seat, "step": p["step"], "where": p["where"],
                            **p["value"].cols("value", sign), **p["luck"].cols("luck"), **p["loss"].cols("loss")}
                           for p in points]
            value_rows.append({"hand": hand, "seat": seat, "step": steps, "where": "result",
                               **Est(result).cols("value", sign), **end.cols("luck"), **Est(0.0).cols("loss")})
            groups = [ALL] + ([f"game {record['game_id']}"] if "game_id" in record else [])
            for group in groups:
                t = totals.setdefault((seat, group), {"unit": hook.UNIT, "sign": sign, "result": 0.0,
                                                      "loss": Est(0.0), "counts": {}})
                t["result"] += result
                t["loss"] = t["loss"] + loss
                t["counts"][setup, pos] = t["counts"].get((setup, pos), 0) + 1
    for (seat, group), t in sorted(totals.items(), key=lambda kv: (kv[0][1] != ALL, kv[0])):
        luck_rows.append(_row(group, seat, t["unit"], t["sign"], t["result"], expected(t["counts"], seed),
                              t["loss"]))
    return pd.DataFrame(luck_rows, columns=LUCK_COLUMNS), pd.DataFrame(value_rows, columns=VALUE_COLUMNS)


# ------------------------------------------------------------------------------------ in words

def luck_words(row) -> str:
    """'+3.1 [+1.0, +5.2] points (the cards helped)': a seat's luck, said no more strongly than its
    interval allows."""
    why = ("the cards and the others' play helped" if row["luck_low"] > 0 else
           "the cards and the others' play went against it" if row["luck_high"] < 0 else "not told from zero")
    return f"{with_interval(row, 'luck', unit=row['unit'])} ({why})"


def findings(luck: pd.DataFrame, work: list) -> list[str]:
    """Per seat, over the file's hands: its result against the expected one with the default players,
    its luck, what its choices cost and its luck-adjusted result, each with its 95% interval."""
    out = []
    setups = [importlib.import_module(r).setup(record) for r, record, _ in work]
    players = "; ".join(dict.fromkeys(lineup(s.seats.specs) for s in setups))
    single = luck[[not isinstance(h, str) for h in luck["hand"]]]
    gain = all(sign_of(importlib.import_module(r)) > 0 for r, _, _ in work)   # a cost reads unsigned
    for _, row in luck[luck["hand"] == ALL].iterrows():
        unit, hands = row["unit"], int((single["seat"] == row["seat"]).sum())
        cost = ("its choices cost " + with_interval(row, "loss", signed=False, unit=unit) +
                (" (skill: clear of zero)" if row["loss_low"] > 0 else " (not told from zero)"))
        out.append(f"Seat {row['seat']}, luck and skill over {hands} hand{'s' * (hands != 1)}: it scored "
                   f"{say({'estimate': row['result'], 'kind': 'mean'}, gain, unit)} against "
                   f"{with_interval(row, 'expected', gain, unit)} "
                   f"expected with {players}; luck {luck_words(row)}; {cost}; luck-adjusted result "
                   f"{with_interval(row, 'adjusted', gain, unit)}.")
    return out
