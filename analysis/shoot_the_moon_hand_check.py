"""Shoot the Moon's hand-analyzer check (analysis/hand_check.py): the hand analyzer gives a hand's
odds and chips, not a choice, so its check is that value itself: the first deals of the same
sample played again with rollout in every seat and with the table's players, paired deal by deal.

shoot_the_moon.py imports this module, so its deal and per-round measures come in as arguments
(the layout allows no import circle).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from moonshot.analysis.common import Setup, run
from moonshot.analysis.hand_check import Spec, every_seat, main_deals, seated
from moonshot.analysis.result import Result, pick
from moonshot.analysis.stats import estimate
from moonshot.analysis.words import clear_of_zero, say, value
from moonshot.simulator.runner import Tally, chunk_rngs, difference, stream_seed
from moonshot.simulator.shoot_the_moon.engine import play

# rollout in every seat is slow, and slower at 5-6 players: these deals keep the check well under a
# minute on two cores (benchmarks/search_bench.py measures rollout's speed).
SPEC = Spec(strong="rollout", deals={2: 4_000, 3: 4_000, 4: 4_000, 5: 3_000, 6: 3_000}, chunk=250)
STREAM = 3             # the check's play stream of its chunk (0, 1: the main chunk's deal and play)
MEASURES = ("chips", "p_odd", "p_shoot")


def _check_chunk(setup: Setup, strong: Setup, hand: tuple[int, ...], position: int, main_chunk: int, samples: int,
                 chunk: int, deal_with_hand, round_metrics, seed: int, index: int, size: int,
                 progress=None) -> Tally:
    """Deals index*chunk.. of the main sample played by the table's players, then by `strong`'s,
    with the same play stream (paired); seat 0's side's chips, P(odd) and P(shoot)."""
    table = setup.table
    start = index * chunk

    def deal(i: int, n: int):           # main chunk i's deals, as shoot_the_moon._hand_chunk deals them
        return (deal_with_hand(chunk_rngs(seed, i)[0], n, table, list(hand)),)
    hands, = main_deals(deal, start, start + size, main_chunk, samples)
    dealer = np.full(size, (-1 - position) % table.players, dtype=np.int8)
    side = np.full(size, table.side_of_seat[0])
    outs = []
    for k, lineup in enumerate((setup.seats.strategies, strong.seats.strategies)):
        res = play(table, size, lineup, None, np.random.default_rng(stream_seed(seed, index, STREAM)), hands=hands,
                   dealer=dealer)
        m = round_metrics(res, side)
        outs.append({name: m[name] for name in MEASURES})
        if progress is not None:
            progress(k + 1, 2)
    tally = Tally()
    for k, out in enumerate(outs):
        tally.add("lineups", {"strategy": np.full(size, k)}, out)
    tally.add("versus", {"strategy": np.full(size, 2)},
              {name: difference(outs[1][name], outs[0][name]) for name in MEASURES})
    return tally


def check_value(res: Result, setup: Setup, hand: tuple[int, ...], position: int, samples: int, deals: int,
                seed: int, jobs: int, progress, main_chunk: int, deal_with_hand, round_metrics) -> None:
    """Adds the table 'check', its finding and note to the hand analyzer's result `res` (nothing
    when the table's players are already the search player in every seat)."""
    if set(setup.seats.specs) == {SPEC.strong}:
        res.notes.append(f"No check: the table's players are already {SPEC.strong} in every seat.")
        if progress is not None:
            progress(deals)                 # the deals a progress bar counted for the check
        return
    strong = replace(setup, strategy_specs=(SPEC.strong,)).validate()
    t = run(_check_chunk, (setup, strong, hand, position, main_chunk, samples, SPEC.chunk, deal_with_hand,
                           round_metrics), deals, seed, jobs, progress, chunk=SPEC.chunk)
    base = ", ".join(dict.fromkeys(setup.seats.specs))
    names = [base, SPEC.strong, f"{SPEC.strong} - {base}"]
    check = pd.concat([estimate(t.get("lineups"), ["strategy"], list(MEASURES)),
                       estimate(t.get("versus"), ["strategy"], list(MEASURES))], ignore_index=True)
    check = check.sort_values("strategy", kind="stable", ignore_index=True)
    check["strategy"] = [names[int(k)] for k in check["strategy"]]
    res.tables["check"] = check
    res.meta.update(check_strategy=SPEC.strong, check_samples=deals)
    at = lambda who, metric: pick(check, strategy=who, metric=metric)  # noqa: E731
    checked = every_seat(SPEC.strong)
    players = seated(setup.seats.specs, setup.table.side_of_seat)
    d = at(names[2], "chips")
    told = clear_of_zero(pd.DataFrame([dict(d)]))[0]
    res.findings.append(
        f"The search player's check: {checked}, on the first {deals:,} of these deals, this hand's side wins "
        f"{say(at(SPEC.strong, 'chips'), signed=True, unit='chips')} with P(odd) {value(at(SPEC.strong, 'p_odd'))} "
        f"and P(shoot) {value(at(SPEC.strong, 'p_shoot'))}, and {players} "
        f"{say(at(base, 'chips'), signed=True, unit='chips')} on the same deals; the difference, "
        f"{say(d, signed=True, unit='chips')}, "
        + (f"is clear of zero, so the numbers above hold {players}, not {checked}." if told else
           "cannot be told from zero at this sample size, so the search player does not change them measurably."))
    res.notes.append(
        f"check: the first {deals:,} deals of the same sample played again {checked} and with the table's players, "
        f"the same deals and random streams for both (a paired difference, row '{names[2]}'); their own streams, "
        "not the main table's, so the table's players' numbers there are a second measurement, not a subset.")
