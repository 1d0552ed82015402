"""Moon's hand-analyzer check (analysis/hand_check.py): the main table's best (trump, bid) choices
and passing, each played again with pimc in every seat on the first deals of the same sample.

Each checked bid is played at its own level: the main table scores every level from one play at
the lowest bid (its strategies play the same whatever the bid), but pimc plays for the contract it
holds, so a 21 is played for all seven tricks. moon.py imports this module, so its Passer wrapper
comes in as an argument (the layout allows no import circle).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from moonshot.analysis.common import Setup, run
from moonshot.analysis.hand_check import (Spec, advice_sentence, every_seat, lead_sentence, main_deals, overturned,
                                          seated)
from moonshot.analysis.result import Result, pick
from moonshot.analysis.stats import estimate
from moonshot.analysis.words import value
from moonshot.simulator.moon import engine, tiles
from moonshot.simulator.runner import Tally, stream_seed
from moonshot.strategies.moon import FixedTrump

# pimc is slow, and slower at 4 players than at 3: these deals keep the check well under a minute on
# two cores (benchmarks/search_bench.py measures pimc's speed).
SPEC = Spec(strong="pimc", deals={3: 200, 4: 100}, chunk=20)
TOP = 3                # the main table's best (trump, bid) choices checked, beside passing
STREAM = 3             # the check's play stream of its chunk (0-2: the main chunk's deal, play, outbid)
PASS = (-1, 0)         # the (trump, bid) that stands for passing


def choice_name(choice: tuple[int, int]) -> str:
    """(trump, bid) as a player says it: "bid 5 in sixes", or "pass"."""
    t, b = choice
    return "pass" if t < 0 else tiles.contract_words(b, t)


def _check_chunk(setup: Setup, strong: Setup, hand: tuple[int, ...], order: int, choices: tuple, main_chunk: int,
                 samples: int, chunk: int, passer, seed: int, index: int, size: int, progress=None) -> Tally:
    """Deals index*chunk.. of the main sample, each checked choice played on them with `strong`'s
    players (the same play stream for every choice: paired); `progress(done, of)` hears each choice."""
    table = setup.table
    P, ours = table.players, table.side_of_seat[0]
    start = index * chunk

    def deal(i: int, n: int):           # main chunk i's deals, as moon._hand_chunk deals them
        return engine.deal_with_hand(np.random.default_rng(stream_seed(seed, i, 0)), n, table, 0, list(hand))
    hands, widow = main_deals(deal, start, start + size, main_chunk, samples)
    players = list(strong.seats.strategies)
    bidder = np.zeros(size, dtype=np.int64)
    tally, first = Tally(), None
    for k, (t, b) in enumerate(choices):
        rng = np.random.default_rng(stream_seed(seed, index, STREAM))
        key = {"choice": np.full(size, k)}
        if t < 0:
            passed = engine.play(table, size, [passer(players[0])] + players[1:], None, rng,
                                 first_bidder=np.full(size, (-order) % P), hands=hands, widow=widow)
            points = passed.score[:, ours].astype(float)
        else:
            bid = np.full(size, b)
            h7, _, trump = engine.widow_and_trump(table, hands, widow, bidder, bid,
                                                  [FixedTrump(players[0], t)] + players[1:], rng)
            tricks = engine.play_tricks(table, h7, bidder, bid, trump, players, rng).tricks
            score, made = engine.score(table, bidder, bid, tricks)
            points = score[:, ours].astype(float)
            tally.add("make", key, {"p_make": made})
        tally.add("score", key, {"score": points})
        if first is None:
            first = points
        else:
            tally.add("versus", key, {"d_score": points - first})
        if progress is not None:
            progress(k + 1, len(choices))
    return tally


def checked_choices(scores: pd.DataFrame, trump_of: dict, bid_it: bool) -> list[tuple[int, int]]:
    """The advice first (the best bid, or passing), then the main table's next best bids, then
    passing: TOP bids in all."""
    ranked = scores.sort_values("estimate", ascending=False, kind="stable").head(TOP)
    bids = [(trump_of[r["trump"]], int(r["bid"])) for _, r in ranked.iterrows()]
    return bids + [PASS] if bid_it else [PASS] + bids


def check_advice(res: Result, setup: Setup, hand: tuple[int, ...], order: int, scores: pd.DataFrame,
                 trump_of: dict, bid_it: bool, samples: int, deals: int, seed: int, jobs: int, progress,
                 main_chunk: int, passer) -> None:
    """Adds the table 'check', its finding and notes to the hand analyzer's result `res`."""
    strong = replace(setup, strategy_specs=(SPEC.strong,)).validate()
    choices = tuple(checked_choices(scores, trump_of, bid_it))
    t = run(_check_chunk, (setup, strong, hand, order, choices, main_chunk, samples, SPEC.chunk, passer), deals,
            seed, jobs, progress, chunk=SPEC.chunk)
    names = [choice_name(c) for c in choices]
    parts = [estimate(t.get("score"), ["choice"], ["score"]), estimate(t.get("make"), ["choice"], ["p_make"]),
             estimate(t.get("versus"), ["choice"], ["d_score"])]
    check = pd.concat(parts, ignore_index=True).sort_values("choice", kind="stable", ignore_index=True)
    check["choice"] = [names[int(k)] for k in check["choice"]]
    check.insert(1, "strategy", SPEC.strong)
    res.tables["check"] = check
    res.meta.update(check_strategy=SPEC.strong, check_samples=deals)
    checked = every_seat(SPEC.strong)

    def make(name: str) -> str:
        row = pick(check, choice=name, metric="p_make")
        return "" if row is None else f" with P(make) {value(row)}"
    table_players = seated(setup.seats.specs, setup.table.side_of_seat, "defenders")
    diffs = check[check["metric"] == "d_score"]
    res.findings.append(advice_sentence(check[check["metric"] == "score"], diffs, names[0], "pass", checked,
                                        table_players, deals, "points", make))
    better = overturned(diffs)
    if better is not None:          # the advice a person acts on leads: the one that holds against strong play
        res.findings.insert(0, lead_sentence(better, names[0], checked, table_players, deals, "points"))
    res.notes.append(
        f"check: the main table's {TOP} best bids (by expected points) and passing, each played again {checked} "
        f"on the first {deals:,} deals of the same sample, the bid played at its own level (pimc plays for the "
        "contract it holds; the main table scores every level from one play). 'change: points' there is the "
        f"choice's points less the advice's ({names[0]}) on the same deals. The choices are picked on the main "
        "table and measured here with other players and their own random streams, so the check's values carry "
        "no winner's curse; the check's own comparison is by those paired differences, corrected for the "
        "choices compared.")
