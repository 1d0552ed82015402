"""The hand analyzer checks its own advice (`moonshot hand --check-samples N`).

The main table of `moonshot hand` is a big sample under the table's strategies; its advice holds
for those players only. The check plays the table's top choices again with the game's search
player in every seat, on the first N deals of the same sample (dealt again from the main chunks'
deal streams, so they are those very deals), and one finding says whether the search player
agrees, with both numbers, their intervals and the players each holds for.

No winner's curse: the checked choices are picked on the main table's values (its strategies'
play); the check's values are measured afresh, with other players and their own random streams,
and are never used to pick what is checked. Within the check, the choices are compared by paired
differences on the same deals, Bonferroni-corrected for how many are compared, and a sentence
names a "best" only where that interval clears zero. (The deals are shared with the main table,
so a deal's luck is too; the main table's pick rests on 100,000 deals by default, of which the
check's few hundred move its values by a negligible share.)

This module holds what the games share; analysis/moon_hand_check.py and
analysis/shoot_the_moon_hand_check.py play their game's check.
"""
from __future__ import annotations

import numbers
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from moonshot.analysis.words import CORRECTION, listed, lineup, say, widened
from moonshot.simulator.errors import BadInput, short

OPTION = "--check-samples"
MAX_DEALS = 10_000_000_000     # as inputs.MAX_COUNT: the check's deals are the first of --samples anyway
PAGE_MAX = 2_000               # the page's cap (search players are slow: benchmarks/search_bench.py)


@dataclass(frozen=True)
class Spec:
    """A game's check: its search player, the default deals by table size (well under a minute on
    two cores at the search player's measured speed) and the deals per chunk (small, so --jobs
    share a check; fixed, so the numbers are the same for any --jobs)."""
    strong: str
    deals: dict[int, int]
    chunk: int

    def default(self, players: int) -> int:
        return self.deals.get(players, min(self.deals.values()))


def _count(value) -> int:
    """A --check-samples value: a whole number from 0 (BadInput otherwise)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 0 <= value <= MAX_DEALS:
        raise BadInput(f"{OPTION} {short(value)} is not accepted; accepted: 0 (no check) or a count of deals "
                       f"from 1 to {MAX_DEALS:,} (the check plays at most --samples)")
    return int(value)


def check_deals(value, samples: int, spec: Spec, players: int) -> int:
    """The deals the check plays: `value` (None: the game's default), at most the main sample's
    `samples` (the check's deals are its first ones); 0 turns the check off."""
    return min(spec.default(players) if value is None else _count(value), samples)


def spec_of(analyzer) -> Spec | None:
    """The check of a game's analyze_hand (its module's HAND_CHECK), or None."""
    return getattr(sys.modules[analyzer.__module__], "HAND_CHECK", None)


def planned(analyzer, value, samples: int, players: int) -> int:
    """The deals the check of `analyzer` (a game's analyze_hand) will play: what a progress bar adds
    to --samples. BadInput for a bad value, or a check asked of a game whose analyzer has none."""
    spec = spec_of(analyzer)
    if spec is not None:
        return check_deals(value, samples, spec, players)
    if value is not None and _count(value):
        raise BadInput(f"{OPTION} {short(value)}: this game's hand analyzer has no search-player check yet; "
                       f"accepted: 0, or leave {OPTION} out")
    return 0


def analyze(analyzer, setup, hand: str, seat_order: str, samples: int, seed: int, jobs: int, progress=None,
            check_samples=None):
    """`moonshot hand`'s run (CLI, library and page): the game's analyze_hand, with its check where it
    has one (`check_samples`: None for the default, 0 for none)."""
    planned(analyzer, check_samples, samples, setup.players)
    extra = {"check_samples": check_samples} if spec_of(analyzer) is not None else {}
    return analyzer(setup, hand, seat_order, samples, seed, jobs, progress=progress, **extra)


def main_deals(deal: Callable[[int, int], tuple], start: int, stop: int, chunk: int, samples: int) -> tuple:
    """Deals start..stop-1 of the main table's sample of `samples` deals in chunks of `chunk`:
    deal(i, size) deals main chunk i as the main table does (a tuple of arrays, batch first, or
    None), and the rows wanted are cut out of each chunk they fall in."""
    parts = []
    for i in range(start // chunk, (stop - 1) // chunk + 1):
        size = min(chunk, samples - i * chunk)
        lo, hi = max(start - i * chunk, 0), min(stop - i * chunk, size)
        parts.append([None if a is None else a[lo:hi] for a in deal(i, size)])
    return tuple(None if p[0] is None else np.concatenate(p) for p in zip(*parts))


# --------------------------------------------------------------------------------------------
# the players each number holds for
# --------------------------------------------------------------------------------------------

def seated(specs: Sequence[str], side_of_seat, noun: str = "opponents", seat: int = 0) -> str:
    """Who a number of seat `seat`'s hand holds against, from the seats' specs: 'against threshold
    defenders (threshold in every seat)', or 'against greedy defenders (this hand played by
    threshold, its partner by random)' when the seats differ."""
    specs = list(specs)
    mine = side_of_seat[seat]
    opponents = [s for k, s in enumerate(specs) if side_of_seat[k] != mine]
    partners = [s for k, s in enumerate(specs) if side_of_seat[k] == mine and k != seat]
    if len(set(specs)) == 1:
        return f"against {specs[0]} {noun} ({lineup(specs)})"
    partner = f", its partner by {listed(partners)}" if partners else ""
    return f"against {listed(opponents)} {noun} (this hand played by {specs[seat]}{partner})"


def every_seat(spec: str) -> str:
    """'with pimc in every seat' (words.lineup)."""
    return f"with {lineup([spec])}"


# --------------------------------------------------------------------------------------------
# the check's sentence for an analyzer that advises a choice
# --------------------------------------------------------------------------------------------

def _flipped(row) -> dict:
    """A paired difference a - b as b - a."""
    return {**dict(row), "estimate": -row["estimate"], "ci_low": -row["ci_high"], "ci_high": -row["ci_low"]}


def overturned(diffs: pd.DataFrame) -> dict | None:
    """The checked choice the search player clearly prefers to the advice (its paired difference's
    interval, corrected for the choices compared, clears zero; the one ahead by most), else None."""
    if not len(diffs):
        return None
    wide = widened(diffs.reset_index(drop=True), len(diffs))
    ahead = wide[wide["ci_low"] > 0]
    return dict(ahead.sort_values("estimate", ascending=False, kind="stable").iloc[0]) if len(ahead) else None


def lead_sentence(row: dict, advice: str, checked: str, table_players: str, deals: int, unit: str) -> str:
    """The hand's advice when the search player overturns the table's: a person acts on the first
    sentence, so it names the choice that holds against strong play."""
    return (f"Against strong play ({checked}, on the first {deals:,} deals), {row['choice']} rather than {advice}: "
            f"it scores {say(row, signed=True, unit=unit)} more on the same deals (the interval corrected for the "
            f"choices compared); the table's advice to {advice} holds {table_players} only.")


def advice_sentence(scores: pd.DataFrame, diffs: pd.DataFrame, advice: str, passing: str | None, checked: str,
                    table_players: str, deals: int, unit: str, extra: Callable[[str], str] = lambda name: "") -> str:
    """One sentence: does the search player agree with the advice?

    `scores`: the check's value of each checked choice (column `choice`, estimate and interval);
    `diffs`: each other choice's paired difference from the advice (choice minus advice) on the
    same deals. `checked` names the check's players ('with pimc in every seat'), `table_players`
    the main table's ('against threshold defenders ...'); `extra(choice)` may add a choice's
    other number (its P(make)). A choice is called better or worse than the advice only where
    its difference's interval, corrected for the choices compared, clears zero; the intervals
    quoted are those."""
    k = len(diffs)
    note = f"{CORRECTION}-corrected for the {k} choices compared with it" if k > 1 else "95% interval"

    def valued(name: str) -> str:
        row = scores[scores["choice"] == name].iloc[0]
        return f"{name} scores {say(row, signed=True, unit=unit)}{extra(name)}"
    where = f"{checked}, on the first {deals:,} of these deals"
    if not k:
        return f"The search player's check: {where}, {valued(advice)}; the advice holds {table_players}."
    wide = widened(diffs.reset_index(drop=True), k)
    ahead = wide[wide["ci_low"] > 0]            # clearly better than the advice (the one ahead by most is named)
    best = (ahead if len(ahead) else wide).sort_values("estimate", ascending=False, kind="stable").iloc[0]
    pass_said = (f"; passing scores {say(scores[scores['choice'] == passing].iloc[0], signed=True, unit=unit)}"
                 if passing is not None and passing not in (advice, best["choice"]) else "")
    if best["estimate"] > 0:          # a checked choice scores more than the advice under the search player
        if len(ahead):
            return (f"The search player disagrees: {where}, {valued(advice)} and {valued(best['choice'])}, "
                    f"{say(best, signed=True, unit=unit)} more on the same deals ({note}){pass_said}; so the advice "
                    f"to {advice} holds {table_players}, not {checked}.")
        return (f"The search player does not confirm the advice: {where}, {valued(advice)} and "
                f"{valued(best['choice'])}, a difference of {say(best, signed=True, unit=unit)} ({note}) that cannot "
                f"be told from zero at this sample size{pass_said}; so the advice to {advice} holds {table_players}, "
                f"and {checked} it may not.")
    tied = wide[wide["ci_high"] >= 0]
    if len(tied):
        names = "; ".join(f"{r['choice']} {say(r, signed=True, unit=unit)}" for _, r in tied.iterrows())
        some = "one" if len(tied) == 1 else f"{len(tied)}"
        return (f"The search player ranks no checked choice above the advice but cannot tell it from {some} of the "
                f"{k} others: "
                f"{where}, {valued(advice)}, and {'this choice differs' if len(tied) == 1 else 'these choices differ'} "
                f"from it by amounts not told from zero ({note}): {names}{pass_said}; so the advice holds "
                f"{table_players}, and {checked} another choice may do as well.")
    return (f"The search player agrees: {where}, {valued(advice)}, ahead of every other checked choice (of the "
            f"nearest, {best['choice']}, by {say(_flipped(best), signed=True, unit=unit)}, {note}){pass_said}.")
