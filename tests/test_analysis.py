"""The shared analysis layer: intervals declared where tallied, games-mode unfinished games,
the registry's counts and seats, the Moon hand analyzer's pass value, and joblib backends."""
import threading

import joblib
import numpy as np
import pytest

from moonshot.analysis.common import Setup, make_setup, match, simulate, whatif
from moonshot.analysis.stats import estimate
from moonshot.simulator.errors import BadInput
from moonshot.simulator.games import GAMES, get
from moonshot.simulator.runner import Tally, run_chunks


def test_a_boolean_metric_is_a_proportion_whatever_its_name():
    t = Tally()
    t.add("x", {"k": np.zeros(300, dtype=np.int8)}, {"with_make": np.arange(300) < 2, "score": np.ones(300)})
    table = estimate(t.get("x"), ["k"], ["with_make", "score"]).set_index("metric")
    assert table.loc["with_make", "ci_low"] > 0            # Wilson: never below 0, never collapsed
    assert table.loc["with_make", "ci_high"] < 0.03
    assert "with_make__sq" not in t.get("x").columns and "score__sq" in t.get("x").columns


def test_whatif_proportions_keep_their_wilson_interval():
    setup = make_setup("shoot-the-moon")
    w = whatif(setup, ["stm.moon_chip_netting=sequential"], 300, None, seed=1).tables["seats"]
    s = simulate(setup, 300, None, seed=1).tables["sides"]
    base = w[(w.metric == "base_p_shoot") & (w.seat == 0)].iloc[0]
    sim = s[(s.metric == "p_shoot") & (s.side == 0)].iloc[0]
    assert base["ci_low"] >= 0 and base["ci_high"] > base["estimate"]
    assert base["estimate"] == pytest.approx(sim["estimate"])
    assert base["ci_low"] == pytest.approx(sim["ci_low"]) and base["ci_high"] == pytest.approx(sim["ci_high"])


def test_games_mode_tables_report_unfinished_games():
    setup = make_setup("moon")
    m = match(setup, "threshold", "greedy", None, 20, seed=2).tables["match"]
    assert {"p_unfinished_a", "p_unfinished_b"} <= set(m.metric)
    w = whatif(setup, ["moon.min_bid=5"], None, 20, seed=2).tables["seats"]
    assert {"base_p_unfinished", "variant_p_unfinished", "d_unfinished"} <= set(w.metric)


def test_unfinished_games_are_worded_beside_the_win_they_make():
    """All-random Moon games often hit the cap and count as lost by every side: the finding says
    how often and how much of threshold's lead over random that makes ((u_B - u_A) / 3)."""
    from moonshot.analysis.moon import GAME_ODDS_PAIRS, game_odds
    res = match(make_setup("moon"), "threshold", "random", None, 150, seed=2)
    m = res.tables["match"].set_index("metric")
    said = res.findings[-1]
    assert m.loc["p_unfinished_b", "estimate"] > 0.4 and "with random (B) everywhere" in said
    part = -m.loc["d_unfinished", "estimate"] / 3
    assert f"+{100 * part:.0f}" in said or f"+{100 * part:.1f}" in said
    assert "comes from them" in said and "mostly" not in said            # about a quarter of +88 points
    odds = game_odds(make_setup("moon"), 40, seed=2)
    assert sum("unfinished" in f for f in odds.findings) == len(GAME_ODDS_PAIRS)
    assert all("everywhere" in f or "No game was left unfinished" in f for f in odds.findings)
    assert any("No game was left unfinished at the cap on game length (40 games)" in f for f in odds.findings)
    assert {"p_unfinished_a", "p_unfinished_b"} <= set(odds.tables["matchups"]["metric"])
    s = simulate(make_setup("moon", strategies=["random"]), None, 60, seed=2)
    assert any("left unfinished at the cap" in f for f in s.findings)
    w = whatif(make_setup("moon", strategies=["random"]), ["moon.min_bid=5"], None, 60, seed=2)
    assert any("left unfinished at the cap" in f for f in w.findings)


@pytest.mark.parametrize("game, name, games, table, metric", [
    ("shoot-the-moon", "chip-value", 300, "win_probability", "p_unfinished"),
    ("shoot-the-moon", "big-moon-value", 60, "by_holding", "p_unfinished"),
    ("shoot-the-moon", "big-moon-value", 60, "paired_value", "d_unfinished"),
    ("hit-the-deck", "card-value", 4, "card_value", "d_unfinished"),
    ("hit-the-deck", "reaction-value", 20, "reaction_value", "p_unfinished"),
    ("hit-the-deck", "seat-advantage", 40, "positions", "p_unfinished"),
])
def test_every_games_analysis_shows_unfinished_games_beside_its_wins(game, name, games, table, metric):
    from importlib import import_module
    spec = import_module(f"moonshot.analysis.{game.replace('-', '_')}").ANALYSES[name]
    setup = make_setup(game, 4 if game == "shoot-the-moon" else None)
    res = spec.run([setup] if spec.every_table else setup, games, 1, 1)
    assert metric in set(res.tables[table]["metric"])
    assert any("unfinished at the cap on game length" in f for f in res.findings)


def test_a_change_made_mostly_of_unfinished_games_says_so():
    from moonshot.analysis.common import unfinished_words

    def row(est, lo, hi):
        return {"estimate": est, "ci_low": lo, "ci_high": hi, "n": 1000, "kind": "change"}
    rates = {"A": {"estimate": 0.0, "ci_low": 0.0, "ci_high": 0.004, "n": 1000, "kind": "proportion"}}
    mostly = unfinished_words(row(0.10, 0.08, 0.12), row(-0.27, -0.30, -0.24), 3, rates)
    partly = unfinished_words(row(0.30, 0.28, 0.32), row(-0.27, -0.30, -0.24), 3, rates)
    assert "mostly unfinished games" in mostly and "comes from them" in partly and "mostly" not in partly


def test_a_match_counts_the_deals_its_strategies_told_apart():
    same = match(make_setup("moon"), "threshold", "threshold:margin=0", 300, None, seed=1)
    other = match(make_setup("moon"), "threshold", "greedy", 300, None, seed=1)
    assert same.meta["deals_with_different_outcomes"] == 0
    assert "played identically on every deal" in same.findings[0]
    assert 0 < other.meta["deals_with_different_outcomes"] <= 300
    with pytest.raises(BadInput, match="against itself"):
        match(make_setup("moon"), "greedy", "greedy", 10, None, seed=1)


@pytest.mark.parametrize("strategies", [("threshold",), ()])      # threshold by name, and the default (the expert)
def test_threshold_bids_21_on_a_laydown(strategies):
    from moonshot.simulator.moon import engine
    from moonshot.simulator.moon import tiles
    setup = make_setup("moon", strategies=strategies)
    hand = [tiles.parse_tile(x) for x in "6-6 6-5 6-4 6-3 6-2 6-1 5-5".split()]
    hands, widow = engine.deal_with_hand(np.random.default_rng(1), 200, setup.table, 0, hand)
    res = engine.play(setup.table, 200, setup.seats.strategies, None, np.random.default_rng(2),
                       first_bidder=np.zeros(200), hands=hands, widow=widow)
    assert (res.calls[:, 0] == 21).all()


def test_hand_analyzer_weighs_bidding_against_passing():
    from moonshot.analysis.moon import analyze_hand
    setup = make_setup("moon")
    weak = analyze_hand(setup, "0-0 6-1 2-1 3-2 4-3 5-4 3-1", "first", 2000, seed=3, check_samples=0)
    best = weak.tables["best_bid"].iloc[0]
    assert best["choice"] == "pass" and best["pass_score"] > best["expected_score"]
    strong = analyze_hand(setup, "6-6 6-5 6-4 6-3 6-2 6-1 5-5", "first", 2000, seed=3, check_samples=0)
    assert strong.tables["best_bid"].iloc[0]["choice"] == "bid"


def test_a_configured_joblib_backend_runs_every_chunk_even_at_one_job():
    threads = []

    def task(seed, index, size):
        threads.append(threading.current_thread().name)
        return Tally()
    run_chunks(task, (), 6, 1, jobs=1, chunk=2)
    assert set(threads) == {"MainThread"}
    threads.clear()
    with joblib.parallel_config(backend="threading", n_jobs=2):
        run_chunks(task, (), 6, 1, jobs=1, chunk=2)
    assert len(threads) == 3 and "MainThread" not in threads


def test_registry_names_every_part_of_every_game():
    for game in GAMES.values():
        assert game.flags and game.decisions and game.default_players in game.players
        assert callable(game.module("history").replay)
    with pytest.raises(BadInput, match="unknown game 'chess'; accepted: shoot-the-moon, moon"):
        get("chess")


def test_setups_are_plain_data_and_check_their_values():
    with pytest.raises(BadInput):
        Setup("moon", 5).validate()
    with pytest.raises(BadInput, match="profile"):
        make_setup("moon", profiles=["child"])


def test_hand_analyzer_shows_the_open_hands_rate_beside_the_simulated_one():
    from moonshot.analysis.moon import OPEN_DEALS, analyze_hand
    grid = analyze_hand(make_setup("moon"), "6-6 6-5 6-4 6-3 6-2 6-1 5-5", "first", 800, seed=4,
                        check_samples=0).tables["trump_by_bid"]
    open_rows = grid[grid.metric == "p_make_open"]
    assert len(open_rows) == len(grid[grid.metric == "p_make"]) and (open_rows["n"] <= OPEN_DEALS[3]).all()
    sixes = open_rows[(open_rows.trump == "sixes") & (open_rows.bid == 4)].iloc[0]
    assert sixes["estimate"] == 1.0          # six trumps with the double and 5-5: no defence takes four tricks


@pytest.mark.parametrize("game", GAMES)
def test_histories_number_hands_in_order_whatever_the_chunk(game):
    """Hand ids run 0, 1, 2, ... across chunks of any size (they were numbered from the default
    chunk size, leaving gaps when a run used smaller chunks, as runs with a search player do)."""
    import json
    lines = []
    simulate(make_setup(game), 25, None, seed=3, on_records=lines.extend, chunk=10)
    assert [json.loads(line)["hand_id"] for line in lines] == list(range(25))


def test_a_search_player_sets_smaller_chunks():
    """A run with pimc or rollout at the table (or in a match) splits into the player's own
    chunk size, so a few thousand hands still spread over every job; other runs keep CHUNK."""
    from moonshot.simulator.runner import CHUNK
    assert make_setup("moon").chunk() == CHUNK
    assert make_setup("moon", strategies=("1=pimc",)).chunk() == 256
    assert make_setup("moon").chunk(("pimc", "threshold")) == 256
    assert make_setup("shoot-the-moon", strategies=("rollout",)).chunk() == 1024
