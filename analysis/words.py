"""How moonshot words its numbers, written once for every verb, table and report.

One number style: probabilities as percentages, their changes in percentage points, other
values as plain numbers; the digits follow the interval's width (one significant digit of its
half-width), never scientific notation. A mean with no spread gets no zero-width interval but
"no spread in n": over many hands a value the rules or the table's symmetry fix (each deal has
exactly one seat out first), over a few a small sample; the table notes say which.

One rule for findings: a sentence picks a "most" or a "best", or calls an effect real, only where
the 95% intervals widened for the number of things compared (Bonferroni: each at 1 - 0.05/k)
separate it: the leader's widened interval clears every other one's, an effect's clears zero.
Otherwise it says nothing stands out and gives the range. Non-overlap of two intervals is a
conservative test of their difference whatever the correlation between them (seats of one game
are not independent), so a claim made here holds.

Kinds (the `kind` column of an estimates table, set where the metric is tallied):
"proportion" (Wilson interval), "share" (a mean of yes/no outcomes, e.g. averaged over sides),
"change" (a paired difference of yes/no outcomes) and "mean".
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

PERCENT_KINDS = ("proportion", "share")
CORRECTION = "Bonferroni"


# --------------------------------------------------------------------------------------------
# numbers
# --------------------------------------------------------------------------------------------

def _missing(x) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))


def decimals(half_width: float, most: int = 6) -> int:
    """Digits after the point that show an interval's half-width to one significant digit, or two
    when it starts with a 1 (a half-width of 1.1 shows as 1.1, not 1)."""
    if _missing(half_width) or half_width <= 0:
        return 2
    return int(min(max(-math.floor(math.log10(half_width / 2)), 0), most))


def plain(x, digits: int | None = None, signed: bool = False) -> str:
    """A number in text: fixed-point (never 1e-05), `digits` decimals or about three significant
    digits, thousands separated; '-' for a missing value."""
    if _missing(x):
        return "-"
    x = float(x)
    if x == 0:
        return "0"                      # an exact zero (no successes) needs no decimals
    if digits is None:
        digits = 0 if x == 0 or abs(x) >= 100 else min(6, 2 - math.floor(math.log10(abs(x))))
    text = f"{x:{'+' if signed else ''},.{digits}f}"
    zero = f"{0:.{digits}f}"
    return zero if text.lstrip("+-") == zero else text        # no "-0.00": a rounded zero has no sign


def _scale(kind: str) -> float:
    return 100.0 if kind in PERCENT_KINDS or kind == "change" else 1.0


def no_spread(row) -> bool:
    """A mean whose every value was the same: no interval to show (its lower and upper ends equal
    the estimate). Over many hands that is a value the rules or the table's symmetry fix; over a
    few it is a small sample."""
    lo, hi, est = row.get("ci_low"), row.get("ci_high"), row.get("estimate")
    if row.get("kind") == "proportion" or _missing(lo) or _missing(hi) or _missing(est):
        return False
    # A sum of squares minus the square of a sum leaves float noise of ~1e-8 relative in a half-width
    # whose true value is 0: an interval that narrow (relative to the value) is no interval.
    # About 0 the noise is absolute (a paired change of exactly 0 came out as [-2e-10, +2e-10], shown as
    # "0 pp [0.000000, 0.000000]"): 1e-9 of a chip, a point or a share is far below any digit shown.
    return bool(np.isclose(lo, est, rtol=1e-7, atol=1e-9) and np.isclose(hi, est, rtol=1e-7, atol=1e-9))


NO_SPREAD_NOTE = ("'no spread in n': every one of the n values was the same, so there is no interval to give. Over "
                  "many hands such a value is fixed by the rules or by the table's symmetry (e.g. something exactly "
                  "one seat gets in every hand, averaged over the seats, is the same on every deal); over a few "
                  "hands it is only a small sample.")


def any_no_spread(df: pd.DataFrame) -> bool:
    """Whether a long estimates table has a cell shown as 'no spread in n'."""
    if not {"estimate", "ci_low", "ci_high"} <= set(df.columns):
        return False
    return any(no_spread(row) for row in df.to_dict("records"))


def value(row, signed: bool | None = None, unit: str = "") -> str:
    """One estimate as text: '45.2% [44.9%, 45.5%]', '+4.1 pp [+3.2, +5.0]' (a change of a
    percentage), '9.27 [9.19, 9.35]', '-4.00 (no spread in 5)' or '7' (one value: no interval).
    `unit` follows plain numbers ('+0.20 chips [0.16, 0.23]')."""
    kind = row.get("kind", "mean")
    scale = _scale(kind)
    signed = kind == "change" if signed is None else signed
    est, lo, hi = (row.get(c) for c in ("estimate", "ci_low", "ci_high"))
    if _missing(est):
        return "-"
    mark = "%" if kind in PERCENT_KINDS else " pp" if kind == "change" else f" {unit}" if unit else ""
    if no_spread(row):
        return f"{plain(est * scale, None, signed)}{mark} (no spread in {int(row['n']):,})"
    if _missing(lo) or _missing(hi):                 # one value, no interval: its own digits, no trailing zeros
        shown = plain(est * scale, None, signed)
        return f"{shown.rstrip('0').rstrip('.') if '.' in shown else shown}{mark}"
    d = decimals(max(est - lo, hi - est) * scale)
    inner = "%" if kind in PERCENT_KINDS else ""
    return (f"{plain(est * scale, d, signed)}{mark} [{plain(lo * scale, d, signed)}{inner}, "
            f"{plain(hi * scale, d, signed)}{inner}]")


def say(row, signed: bool | None = None, unit: str = "") -> str:
    """`value` for sentences; a change of a percentage reads 'percentage points' in full."""
    text = value(row, signed, unit)
    return text.replace(" pp", " percentage points", 1) if row.get("kind") == "change" else text


def with_interval(row, name: str, signed: bool | None = True, unit: str = "") -> str:
    """Column `name` of `row` with its 95% interval ({name}_low, {name}_high) as `say` words it
    ('+3.1 points [+1.0, +5.2]'); one number where the row has no interval or it has no width."""
    lo, hi = row.get(f"{name}_low"), row.get(f"{name}_high")
    one = lo is None or hi is None or pd.isna(lo) or pd.isna(hi) or np.isclose(lo, hi, rtol=0, atol=1e-9)
    return say({"estimate": row[name], **({} if one else {"ci_low": lo, "ci_high": hi}), "kind": "mean"},
               signed=signed, unit=unit)


# --------------------------------------------------------------------------------------------
# findings: what may be called "most", "best" or real
# --------------------------------------------------------------------------------------------

def widen(k: int) -> float:
    """How much wider than a 95% interval one at the Bonferroni level for k comparisons is."""
    if k <= 1:
        return 1.0
    return NormalDist().inv_cdf(1 - 0.025 / k) / NormalDist().inv_cdf(0.975)


def _bounds(rows: pd.DataFrame, k: int) -> tuple[np.ndarray, np.ndarray]:
    f = widen(k)
    est = rows["estimate"].to_numpy(float)
    lo = est - (est - rows["ci_low"].to_numpy(float)) * f
    hi = est + (rows["ci_high"].to_numpy(float) - est) * f
    return np.where(np.isnan(lo), est, lo), np.where(np.isnan(hi), est, hi)


def widened(rows: pd.DataFrame, k: int) -> pd.DataFrame:
    """The rows with their 95% intervals widened to Bonferroni's for k comparisons (1 - 0.05/k): the
    intervals a finding's verdict is made on, and so the ones it quotes (one interval per effect)."""
    f = widen(k)
    est = rows["estimate"]
    return rows.assign(ci_low=est - (est - rows["ci_low"]) * f, ci_high=est + (rows["ci_high"] - est) * f)


@dataclass
class Standing:
    """The outcome of comparing k estimates: the leader when its corrected interval clears every
    other one's (None otherwise), and the range of the estimates."""
    leader: pd.Series | None
    low: pd.Series
    high: pd.Series
    k: int
    tied_with_top: list[int]        # positions of the rows whose corrected interval meets the top's

    @property
    def correction(self) -> str:
        return f"95% intervals, {CORRECTION}-corrected for {self.k} compared"


def standing(rows: pd.DataFrame, higher: bool = True) -> Standing:
    """Whether one of `rows` (estimates of the same metric for k things) leads the others."""
    rows = rows.reset_index(drop=True)
    k = len(rows)
    lo, hi = _bounds(rows, k)
    est = rows["estimate"].to_numpy(float)
    top = int(np.argmax(est) if higher else np.argmin(est))
    others = np.arange(k) != top
    apart = lo[top] > hi if higher else hi[top] < lo           # clearly behind the top
    apart[top] = False
    clear = bool(apart[others].all())
    order = np.argsort(-est if higher else est, kind="stable")
    return Standing(rows.iloc[top] if k > 1 and clear else None, rows.iloc[int(np.argmin(est))],
                    rows.iloc[int(np.argmax(est))], k, [int(i) for i in order if not apart[i]])


def first_up(text: str) -> str:
    """A sentence's first word capitalised, unless it is a name as typed (a strategy: `tactician`)."""
    return text[:1].upper() + text[1:] if " " in text else text


def plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def stands_out(rows: pd.DataFrame, name, noun: str, leads: str, measure: str, higher: bool = True) -> str:
    """A sentence on k estimates of one measure: '<Name> <leads>: <value> (...)' when one leads, else
    'No <noun> stands out in <measure> at this sample size: ...' with the range. `name(row)` names a
    thing ('seat 2'); `leads` says what leading means ('goes out first most often')."""
    s = standing(rows, higher)
    note = f"{CORRECTION}-corrected for {s.k} {plural(noun)}"
    wide = widened(rows.reset_index(drop=True), s.k)          # the intervals the verdict is made on, quoted

    def shown(r) -> pd.Series:
        return wide.loc[r.name] if r.name in wide.index else r
    if s.leader is not None:
        return (f"{first_up(name(s.leader))} {leads}: {say(shown(s.leader))} (its interval, {note}, clears every "
                f"other {noun}'s).")
    top = s.high if higher else s.low
    tied = wide.iloc[s.tied_with_top]
    if len(tied) < s.k:            # some are clearly behind: name the ones the top cannot be told from
        names = ", ".join(f"{name(r)} {value(r)}" for _, r in tied.iterrows())
        return (f"No single {noun} stands out in {measure}: {names} cannot be told apart at the top ({note}); "
                f"every other {noun} is clearly behind {name(top)}.")
    if s.low["estimate"] == s.high["estimate"]:          # all alike: a tie names every one of them
        return (f"No {noun} stands out in {measure} at this sample size: all {s.k} {plural(noun)} "
                f"({', '.join(name(r) for _, r in wide.iterrows())}) stand at {value(shown(s.low))} ({note}).")
    return (f"No {noun} stands out in {measure} at this sample size: the {s.k} {plural(noun)} run from "
            f"{value(shown(s.low))} ({name(s.low)}) to {value(shown(s.high))} ({name(s.high)}), and their intervals "
            f"({note}) overlap.")


def spans(rows: pd.DataFrame, name, noun: str, what: str) -> str:
    """The range of one measure over k things, not a trend read from its two ends: '<what> runs from
    <lowest> (<name>) to <highest> (<name>)' with the intervals corrected for k, and whether those
    two can be told apart (a tie names every one of the things)."""
    rows = widened(rows.reset_index(drop=True), len(rows))
    note = f"{CORRECTION}-corrected for {len(rows)} {plural(noun)}"
    est = rows["estimate"].to_numpy(float)
    low, high = rows.iloc[int(np.argmin(est))], rows.iloc[int(np.argmax(est))]
    if est.min() == est.max():
        return (f"{first_up(what)} is {value(low)} for every {noun} ({', '.join(name(r) for _, r in rows.iterrows())}; "
                f"{note}).")
    apart = low["ci_high"] < high["ci_low"]
    return (f"{first_up(what)} runs from {value(low)} ({name(low)}) to {value(high)} ({name(high)}) ({note}): "
            + ("those two can be told apart." if apart
               else "their intervals overlap, so no difference is told apart at this sample size."))


def clear_of_zero(rows: pd.DataFrame, k: int | None = None) -> np.ndarray:
    """Which estimates' corrected intervals exclude zero (k compared: len(rows) by default)."""
    lo, hi = _bounds(rows, k or len(rows))
    return (lo > 0) | (hi < 0)


def effects(rows: pd.DataFrame, name, noun: str, what: str, k: int | None = None) -> str:
    """Effects whose corrected intervals exclude zero first, largest first; then the ones that
    cannot be told from zero. `what` names the measure ('P(win)'), `noun` the things ('card'); k
    the number compared (the rows by default). The intervals quoted are the corrected ones."""
    k = k or len(rows)
    rows = widened(rows.reset_index(drop=True), k)
    real = clear_of_zero(rows, 1)
    order = np.argsort(-np.abs(rows["estimate"].to_numpy(float)), kind="stable")
    shown = [f"{name(rows.iloc[i])} {say(rows.iloc[i], signed=True)}" for i in order if real[i]]
    rest = [name(rows.iloc[i]) for i in order if not real[i]]
    note = f"({CORRECTION}-corrected for {k} {plural(noun)})"
    if not shown:
        return (f"No {noun} changes {what} measurably at this sample size {note}: the changes run from "
                f"{value(rows.loc[rows['estimate'].idxmin()], signed=True)} to "
                f"{value(rows.loc[rows['estimate'].idxmax()], signed=True)}.")
    tail = f"; {', '.join(rest)}: not told from zero" if rest else ""
    return f"{first_up(what)} changes measurably with: {'; '.join(shown)} {note}{tail}."


def shift(row, what: str, k: int = 1, unit: str = "", named: bool = True) -> str:
    """'<what> by <value>' for a paired change, saying when its interval (corrected for k such
    statements, and quoted so) does not exclude zero: a change that cannot be told from noise is
    called that. `named=False` leaves naming the correction to the sentence around it."""
    row = widened(pd.DataFrame([dict(row)]), k).iloc[0]
    text = f"{what} by {say(row, signed=True, unit=unit)}"
    note = f", {CORRECTION}-corrected for {k}" if k > 1 and named else ""
    if clear_of_zero(pd.DataFrame([dict(row)]), 1)[0]:
        return text + (f" ({note[2:]})" if note else "")
    return text + f" (not told from zero at this sample size{note})"


def change(row) -> str:
    """' (change X)' after a sentence's two values, for their difference row, saying when it cannot
    be told from zero; '' when there is none (too few in it)."""
    if row is None:
        return ""
    noise = "" if clear_of_zero(pd.DataFrame([dict(row)]))[0] else ", not told from zero at this sample size"
    return f" (change {say(row, signed=True)}{noise})"

def verdict(row, better_when_higher: bool = True, a: str = "A", b: str = "B") -> str:
    """For a paired difference a - b: which does better, or that the difference is noise."""
    if no_spread(row) and row["estimate"] == 0:
        return f"{a} and {b} played identically on every deal"
    if row["ci_low"] > 0 or row["ci_high"] < 0:
        ahead = (row["ci_low"] > 0) == better_when_higher
        return f"{a if ahead else b} does better"
    return "the difference cannot be told from noise at this sample size"


# --------------------------------------------------------------------------------------------
# players: a number is only as good as the players behind it, so every finding names them
# --------------------------------------------------------------------------------------------

def listed(items) -> str:
    """'a', 'a and b', 'a, b and c' (each item once, in order)."""
    items = [str(x) for x in dict.fromkeys(items)]
    return " and ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " and " + items[-1]


def lineup(specs) -> str:
    """The seats' players in words, from their specs (so the words follow a game's default):
    'threshold in every seat', 'seat 0 random, the others threshold', 'seats 0 and 2 greedy, seats
    1 and 3 odd'. The spec that holds more seats than any other, and two or more, is 'the others'."""
    specs = [str(s) for s in specs]
    seats: dict[str, list[int]] = {}
    for seat, spec in enumerate(specs):
        seats.setdefault(spec, []).append(seat)
    if len(seats) == 1:
        return f"{specs[0]} in every seat"
    sizes = sorted((len(v) for v in seats.values()), reverse=True)
    most = max(seats, key=lambda s: len(seats[s])) if sizes[0] >= 2 and sizes[0] > sizes[1] else None
    parts = [f"seat{'s' if len(at) > 1 else ''} {listed(at)} {spec}" for spec, at in seats.items() if spec != most]
    return ", ".join(parts) + (f", the others {most}" if most else "")


def for_players(sentence: str, players: str) -> str:
    """A finding with the players it holds for, before its last full stop: '... (players: threshold
    in every seat).' A sentence that already says `players` is left as it is."""
    if players in sentence:
        return sentence
    body = sentence.rstrip()
    stop = body.endswith(".")
    return f"{body[:-1] if stop else body} (players: {players}){'.' if stop else ''}"


def all_for_players(findings: list[str], players: str) -> list[str]:
    """Every finding of a result with the players it holds for (for_players)."""
    return [for_players(f, players) for f in findings]


# --------------------------------------------------------------------------------------------
# places: where a decision was, as a player says it
# --------------------------------------------------------------------------------------------

def ordinal(k: int) -> str:
    """'1st', '2nd', '3rd', '4th', ... '11th', '12th', '13th', '21st'."""
    k = int(k)
    end = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{end}"


def trick_place(trick_no: int, position: int) -> str:
    """A play's place from 0-based counts: 'trick 3, lead' (position 0), 'trick 3, 2nd to play' (position 1)."""
    return f"trick {int(trick_no) + 1}, " + ("lead" if int(position) == 0 else f"{ordinal(int(position) + 1)} to play")
