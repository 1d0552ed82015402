"""Run until it can tell (`--until WIDTH`): play in rounds of whole chunks until every
headline interval is narrower than WIDTH, or the budget (the hands or games asked for, `--max-time`)
is spent.

Why the intervals stay valid: the rule stops on the intervals' width only, and a width is the
sample's spread over its size, which says nothing of where the estimate lies. This is Chow and
Robbins' fixed-width interval (1965): stopping at the first size where mean +- 1.96 SE is narrow
enough keeps its coverage at the nominal 95% as the width asked for shrinks. The coverage under
this very rule is checked by simulation in tests/test_until.py.

Why the numbers are the ones a fixed run gives: a round plays the next chunks by their index, with
the same seeds a run of the total would give them (runner.stream_seed), so stopping after N hands
gives exactly the numbers of `-n N` (N is a whole number of chunks unless the budget cut it). The
rounds' sizes follow from the intervals alone, so the same seed stops at the same N for any --jobs;
only `--max-time` depends on the machine's speed, and a run it stops says so.
"""
from __future__ import annotations

import inspect
import math
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import pandas as pd

from moonshot.analysis.words import widened
from moonshot.simulator.errors import BadInput

PERCENT = ("proportion", "share", "change")   # estimates read in percent: their widths are in percentage points
GROWTH = 8          # a round plays at most this many times the hands already played (an early spread is rough)
MARGIN = 1.1        # rounds aim this much past the projected size, so the last round rarely falls just short
BUDGET = {"hands": 10_000_000, "games": 100_000}      # the budget when --until is given without a count
FIRST = 2           # chunks in the first round: fixed, so the rounds (and the numbers) are the same for any --jobs


@dataclass(frozen=True)
class Until:
    """Play until every headline interval is narrower than `width` (in the unit the estimate reads in:
    percentage points for a rate or a change of one), at most the run's count and `max_time` seconds."""
    width: float
    max_time: float | None = None
    say: Callable[[str], None] | None = field(default=None, compare=False)   # hears a line after each round

    def __post_init__(self):
        if not _positive(self.width):
            raise BadInput(f"--until {self.width!r} is not accepted; accepted: a width above 0, in the unit the "
                           "effect reads in (percentage points for a rate)")
        if self.max_time is not None and not _positive(self.max_time):
            raise BadInput(f"--max-time {self.max_time!r} is not accepted; accepted: seconds above 0")


def _positive(x) -> bool:
    """A finite number above 0 (not a bool)."""
    return not isinstance(x, bool) and isinstance(x, (int, float)) and math.isfinite(x) and x > 0


def rule(width: float | None, max_time: float | None, say: Callable[[str], None] | None = None) -> Until | None:
    """The Until of --until/--max-time (None without --until), checked."""
    if width is None:
        if max_time is not None:
            raise BadInput(f"--max-time {max_time!r} without --until; accepted: --max-time with --until WIDTH")
        return None
    return Until(width, max_time, say)


def widths(rows: pd.DataFrame) -> np.ndarray:
    """Each row's 95% interval width (high - low) in the unit it reads in (percentage points for rates)."""
    scale = np.where(rows["kind"].isin(PERCENT), 100.0, 1.0)
    return (rows["ci_high"].to_numpy(dtype=float) - rows["ci_low"].to_numpy(dtype=float)) * scale


def next_total(done: int, widest: float, width: float, chunk: int, budget: int) -> int:
    """The total to reach in the next round: where the widest interval is projected to be `width`
    wide (widths shrink as 1/sqrt(n)), in whole chunks, at least one chunk more and at most GROWTH
    times as many hands as played, never past the budget."""
    aim = min(max(projected(done, widest, width) * MARGIN, done + chunk), GROWTH * done)
    return int(min(budget, -(-int(aim) // chunk) * chunk))


@dataclass
class Stopped:
    """How a run under --until ended: the count played, the widest headline interval, and why."""
    played: int
    widest: float
    reason: str          # "width", "budget" or "time"
    rounds: int

    def meta(self, rule: Until, budget: int, what: str) -> dict:
        need = projected(self.played, self.widest, rule.width)
        return {"until": rule.width, "max_time": rule.max_time, "budget": budget, what: self.played,
                "stopped_by": self.reason, "widest_interval": round(float(self.widest), 6), "rounds": self.rounds,
                **({"projected_total": int(math.ceil(need))} if self.reason != "width" and np.isfinite(need) else {})}

    def said(self, rule: Until, what: str) -> str:
        if self.reason == "width":
            return (f"Played until every headline interval was narrower than {rule.width:g}: {self.played:,} {what} "
                    f"in {self.rounds} round(s), the widest {self.widest:.3g}.")
        why = "the budget" if self.reason == "budget" else f"--max-time {rule.max_time:g} s"
        need = projected(self.played, self.widest, rule.width)
        more = (f" At this spread, about {need:,.0f} {what} in all (about {need - self.played:,.0f} more) would make "
                f"it {rule.width:g} wide." if np.isfinite(need) else "")
        return (f"Stopped by {why} after {self.played:,} {what} ({self.rounds} round(s)) with the widest headline "
                f"interval {self.widest:.3g} wide, not yet narrower than {rule.width:g}: a difference smaller than "
                "that cannot be told at this size." + more)


def projected(done: int, widest: float, width: float) -> float:
    """The count at which the widest interval is projected to be `width` wide (widths shrink as 1/sqrt(n))."""
    return done * (widest / width) ** 2 if np.isfinite(widest) else float("inf")


def play_until(play: Callable[[int, int], None], widest: Callable[[], float], rule: Until, chunk: int, first: int,
               budget: int, say: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic,
               what: str = "hands") -> Stopped:
    """Rounds of `play(first_chunk_index, count)` until `widest()` (the widest headline interval of
    everything played so far) is under rule.width, or the budget or time is spent. `say` hears a
    line after each round: where it stands and how much more it expects to need."""
    start, done, rounds = clock(), 0, 0
    target = min(budget, max(chunk, -(-first // chunk) * chunk))
    while True:
        play(done // chunk, target - done)
        done, rounds = target, rounds + 1
        w = widest()
        if w < rule.width:
            return Stopped(done, w, "width", rounds)
        if done >= budget:
            return Stopped(done, w, "budget", rounds)
        spent = clock() - start
        if rule.max_time is not None and spent >= rule.max_time:
            return Stopped(done, w, "time", rounds)
        target = next_total(done, w, rule.width, chunk, budget)
        if say is not None:
            need = projected(done, w, rule.width)
            more = (f"about {need - done:,.0f} more {what} (about {spent / done * (need - done):,.0f} s at this speed)"
                    if np.isfinite(need) else "no estimate yet")
            say(f"--until {rule.width:g}: after {done:,} {what} the widest headline interval is {w:.3g}; {more}; "
                f"next round to {target:,}")


class FromChunk:
    """A chunk task with its chunk indices moved on by `first`: a round of play_until plays chunks
    first, first + 1, ... with the seeds a run of the whole total gives them."""

    def __init__(self, task: Callable, first: int):
        self.task, self.first = task, first
        self.__module__, self.__qualname__ = task.__module__, f"{task.__qualname__}@{first}"
        self.__signature__ = inspect.signature(task)       # so the runner still hands it progress steps

    def __call__(self, *args, **kw):
        *rest, index, size = args
        return self.task(*rest, index + self.first, size, **kw)


def said_to_stderr(quiet: bool) -> Callable[[str], None] | None:
    return None if quiet else (lambda line: print(f"moonshot: {line}", file=sys.stderr, flush=True))


def run_until(call, seed: int, jobs: int, progress, rule: Until, result_of: Callable, headline: Callable,
              what: str = "hands", corrected: bool = False, *, run_many: Callable):
    """A chunked run (an analysis.common.Call whose total is the budget, or a list of Calls with one
    total and chunk size, their tallies merged, as the rules lab's groups) played by play_until:
    `result_of(tally, n)` is the verb's Result of the n hands or games played, `headline(result)` its
    rows whose intervals must narrow, Bonferroni-corrected here for their number unless `corrected`
    (the rows are then as the findings quote them already; no rows: nothing to narrow). The Result
    says how the run ended (meta and a note). `run_many` is analysis.common's (passed in: common
    calls this module, so it may not import common back)."""
    from moonshot.simulator.runner import Tally
    calls = list(call) if isinstance(call, (list, tuple)) else [call]
    merged, state = Tally(), {"n": 0, "result": None}

    def play(first: int, count: int) -> None:     # chunk by chunk, in order: a fixed run's sums, to the last bit
        run_many([replace(c, task=FromChunk(c.task, first), total=count, chunk=c.size) for c in calls], seed, jobs,
                 progress, kept=merged.merge)
        state["n"] += count
        state["result"] = result_of(merged, state["n"])

    def widest() -> float:         # as the findings quote them: corrected for the effects compared
        rows = headline(state["result"])
        if corrected and not len(rows):
            return 0.0
        w = widths(widened(rows, len(rows)) if len(rows) > 1 and not corrected else rows)
        return float(np.nanmax(w)) if len(w) and not np.isnan(w).all() else float("inf")
    size, total = calls[0].size, calls[0].total
    stopped = play_until(play, widest, rule, size, FIRST * size, total, rule.say, what=what)
    res = state["result"]
    res.meta.update(stopped.meta(rule, total, what))
    res.notes.append(stopped.said(rule, what) + " " + NOTE)
    return res


NOTE = ("The rounds stop on the intervals' width alone, which does not depend on where the estimate lies, so the "
        "95% intervals keep their coverage under this stopping rule (Chow and Robbins' fixed-width intervals); the "
        "numbers are those of a fixed run of the same size and seed.")
