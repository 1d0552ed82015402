"""Strong play, tournaments, card values and the rules lab spread their chunks over every --jobs
worker as one stream (analysis.common.run_many over simulator.runner.run_batch): the same numbers
for --jobs 1 and 2, and progress that counts games as they end. Tiny sizes, cheap players."""
from __future__ import annotations

import pandas as pd
import pytest

from moonshot.analysis import common, hit_the_deck, moon, rules_lab
from moonshot.analysis.common import Call, make_setup, run_many
from moonshot.analysis.tournament import tournament
from moonshot.simulator.games import GAMES


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def test_a_batch_gives_each_run_what_it_gives_alone():
    """Two runs of different sizes and chunks in one stream: each tally is its run's alone (joblib
    ships the chunk tasks to the workers by name, so they are a game module's)."""
    setups = [make_setup("moon", 3), make_setup("moon", 4)]
    calls = [Call(moon._seat_chunk, (setups[0],), 70, 30), Call(moon._seat_chunk, (setups[1],), 40, 20)]
    alone = [common.run(c.task, c.args, c.total, 1, 1, chunk=c.chunk) for c in calls]
    for jobs in (1, 2):
        for t, want in zip(run_many(calls, 1, jobs), alone):
            assert t.tables.keys() == want.tables.keys()
            for name in t.tables:
                same(t.get(name), want.get(name))


@pytest.fixture
def small_chunks(monkeypatch):
    """Heuristic players in chunks of a few games, so a tiny run has several chunks to share."""
    monkeypatch.setattr(common, "CHUNK", 6)


def test_a_tournament_is_the_same_for_any_jobs(small_chunks):
    setup = make_setup("shoot-the-moon", 3)
    runs = [tournament(setup, ["odd", "greedy", "random"], games=9, seed=5, jobs=j) for j in (1, 2)]
    same(runs[0].tables["ratings"], runs[1].tables["ratings"])
    same(runs[0].tables["pairs"], runs[1].tables["pairs"])


def test_card_values_are_the_same_for_any_jobs_and_count_games_as_they_end(small_chunks):
    setups = [make_setup("hit-the-deck", 2)]
    heard: list[int] = []
    one = hit_the_deck.card_value(setups, 8, 3, jobs=1, progress=heard.append)
    two = hit_the_deck.card_value(setups, 8, 3, jobs=2)
    same(one.tables["card_value"], two.tables["card_value"])
    # 8 games in chunks of 6 and 2: counted inside the chunks as their 11 arms' games end, not a chunk at a time
    assert sum(heard) == 8 and len(heard) > 2 and max(heard) < 6


def test_strong_play_is_the_same_for_any_jobs(monkeypatch):
    monkeypatch.setattr(moon, "SEARCH_CHUNK", 3)
    setup = make_setup("moon", 3)
    one, two = (moon.strong_play(setup, 7, 2, jobs=j, strong="pimc:worlds=2") for j in (1, 2))
    for name in ("by_bid", "by_trump_tiles"):
        same(one.tables[name], two.tables[name])
    assert set(one.tables["by_bid"]["strategy"]) >= {"pimc:worlds=2", GAMES["moon"].default_strategy}   # both lineups


@pytest.mark.parametrize("jobs, groups", [(1, 2), (2, 4), (8, 16)])
def test_the_lab_splits_its_comparisons_into_groups_by_jobs_only(jobs, groups):
    pairs = tuple((a, 0) for a in range(1, 30))
    split = rules_lab._groups(pairs, 1, jobs)
    assert len(split) == groups and sorted(p for g in split for p in g) == sorted(pairs)
    assert rules_lab._groups(pairs, 40, jobs) == [pairs]        # enough chunks already: no replays


def test_the_lab_is_the_same_in_groups_as_in_one(monkeypatch):
    """Whether its comparisons are played together or in groups (any --jobs): the same numbers."""
    setup = make_setup("shoot-the-moon", 3)
    args = dict(games=6, hands=40, seed=1, sets=["short=stm.target_chips=4", "long=stm.target_chips=9"])
    grouped = rules_lab.rules_lab(setup, jobs=2, **args)
    monkeypatch.setattr(rules_lab, "_groups", lambda pairs, chunks, jobs: [pairs])
    whole = rules_lab.rules_lab(setup, jobs=1, **args)
    same(grouped.tables["ranked"], whole.tables["ranked"])
