"""Strong play: a search player in every seat beside the default lineup, on the same deals.

Each game's analysis module measures one of its tables twice (its `strong_play`): with the search
player in every seat, then with the setup's own lineup, from the same seed and chunks, so both
lineups meet the same deals. `versus` puts the two long estimate tables into one with their
difference (analysis.result.pick reads one row of it for the findings). Nothing here draws: the
reports chart these tables (reports.document.side_by_side).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np
import pandas as pd

from moonshot.analysis.common import Call, Setup, run_many
from moonshot.simulator.runner import Tally
from moonshot.analysis.result import Result
from moonshot.analysis.words import PERCENT_KINDS

MIN_N = 30          # a row gets a difference when both lineups have this many (contracts, deals, games) in it
# A lineup's measure: its chunked runs, and how its tables are read from their tallies (in that order)
Measure = Callable[[Setup], tuple[list[Call], Callable[[list[Tally]], dict[str, pd.DataFrame]]]]


def difference(first: pd.DataFrame, second: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """first - second for every key combination and metric the two long estimate tables share,
    taken as independent samples: each side's distance from its estimate to its 95% limits, added
    in quadrature (Newcombe's interval from two Wilson intervals for proportions; for means, whose
    intervals are symmetric, it is the Wald interval of a difference). n is the smaller sample."""
    both = first.merge(second, on=[*keys, "metric", "kind"], suffixes=("_1", "_2"))
    d = both["estimate_1"] - both["estimate_2"]
    down = np.hypot(both["estimate_1"] - both["ci_low_1"], both["ci_high_2"] - both["estimate_2"])
    up = np.hypot(both["ci_high_1"] - both["estimate_1"], both["estimate_2"] - both["ci_low_2"])
    percent = both["kind"].isin(PERCENT_KINDS)          # a difference of two percentages is in percentage points
    return both[keys].assign(metric=both["metric"], estimate=d, n=np.minimum(both["n_1"], both["n_2"]),
                             ci_low=d - down, ci_high=d + up, kind=np.where(percent, "change", both["kind"]))


def versus(strong: str, strong_table: pd.DataFrame, base: str, base_table: pd.DataFrame, keys: list[str],
           min_n: int = MIN_N) -> pd.DataFrame:
    """One long table of two lineups: `base`'s rows, `strong`'s rows and, where both have at least
    `min_n` in the row, their difference (strategy "strong - base"); rows in key order, numbers
    first ("all"/"any" rows last)."""
    diff = difference(strong_table, base_table, keys)
    big = diff.groupby(keys)["n"].transform("min") >= min_n
    table = pd.concat([base_table.assign(strategy=base), strong_table.assign(strategy=strong),
                       diff[big].assign(strategy=f"{strong} - {base}")], ignore_index=True)
    table = table.sort_values(keys, kind="stable", key=lambda c: pd.to_numeric(c, errors="coerce"),
                              na_position="last")
    return table[[*keys, "strategy", "metric", "estimate", "n", "ci_low", "ci_high", "kind"]].reset_index(drop=True)


def in_every_seat(setup: Setup, strong: str) -> Setup:
    """The setup with `strong` in every seat (the same table and rules)."""
    return replace(setup, strategy_specs=(strong,)).validate()


def lineups(setup: Setup, strong: str, measure: Measure, keys: dict[str, list[str]], title: str, meta: dict,
            seed: int, jobs: int, min_n: int = MIN_N) -> Result:
    """`measure`'s tables with `strong` in every seat beside setup's own lineup (the search player
    first, then the default, each from the same seed and chunks): a Result holding, for each table
    named in `keys` (its key columns), the `versus` table of the two. Both lineups' chunks go to the
    workers as one stream (analysis.common.run_many), so the fast lineup's chunks fill the time the
    search player's last ones leave. The caller words it."""
    plans = [measure(in_every_seat(setup, strong)), measure(setup)]
    tallies = run_many([c for calls, _ in plans for c in calls], seed, jobs)
    (strong_calls, read_strong), (_, read_base) = plans
    strong_tables, base_tables = read_strong(tallies[:len(strong_calls)]), read_base(tallies[len(strong_calls):])
    res = Result(title, meta)
    base = setup.seats.specs[0]
    for name, key in keys.items():
        res.tables[name] = versus(strong, strong_tables[name], base, base_tables[name], key, min_n)
    return res
