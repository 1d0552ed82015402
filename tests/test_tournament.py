"""Round robins with Bradley-Terry ratings (analysis/tournament.py), on small counts."""
from __future__ import annotations

import numpy as np
import pytest

from moonshot.analysis.common import make_setup
from moonshot.analysis.tournament import ELO, bradley_terry, tournament
from moonshot.reports.tournament import ratings_figure
from moonshot.simulator.errors import BadInput


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_bradley_terry_recovers_known_strengths(sides):
    """Expected win counts under known strengths give those strengths back (the prior aside),
    with pairs observed one way round only."""
    theta = np.array([0.8, 0.1, -0.3, -0.6])
    K, n = len(theta), 1e7
    wins, games = np.zeros((K, K)), np.zeros((K, K))
    for i in range(K):
        for j in range(i + 1, K):
            p = 1 / (1 + (sides - 1) * np.exp(theta[j] - theta[i]))
            wins[i, j], games[i, j] = n * p, n
    est, cov = bradley_terry(wins, games, sides)
    assert np.allclose(est, theta - theta.mean(), atol=1e-4)
    assert np.allclose(cov, cov.T) and np.allclose(cov.sum(axis=1), 0, atol=1e-9)
    assert (np.diag(cov) > 0).all() and (np.sqrt(np.diag(cov)) < 1e-2).all()


def test_a_clean_sweep_has_a_finite_rating():
    wins = np.array([[0.0, 50.0], [0.0, 0.0]])
    games = np.array([[0.0, 50.0], [0.0, 0.0]])
    est, cov = bradley_terry(wins, games)
    assert est[0] - est[1] == pytest.approx(np.log(50.5 / 0.5)) and np.isfinite(cov).all()


def test_shoot_the_moon_tournament():
    setup = make_setup("shoot-the-moon", 3)
    specs = ["random", "greedy", "odd"]
    res = tournament(setup, specs, games=60, seed=4)
    r = res.tables["ratings"]
    assert sorted(r["strategy"]) == sorted(specs)
    assert abs(r["estimate"].sum()) < 1e-6
    assert ((r["ci_low"] < r["estimate"]) & (r["estimate"] < r["ci_high"])).all()
    pairs = res.tables["pairs"]
    assert len(pairs) == 3 * 6 and set(pairs["metric"]) == {"a_win", "b_win", "d_win", "p_unfinished_a",
                                                            "p_unfinished_b", "d_unfinished"}
    assert res.meta["entrants"] == specs and "strategies" not in res.meta
    again = tournament(setup, specs, games=60, seed=4)
    assert np.allclose(again.tables["ratings"]["estimate"], r["estimate"])
    assert ratings_figure(res) is not None


def test_moon_tournament_puts_threshold_above_random():
    res = tournament(make_setup("moon", 3), ["random", "threshold"], games=40, seed=2)
    r = res.tables["ratings"].set_index("strategy")
    assert r.loc["threshold", "estimate"] > r.loc["random", "estimate"]
    assert r.loc["threshold", "estimate"] == pytest.approx(-r.loc["random", "estimate"])
    assert abs(r.loc["threshold", "estimate"]) < 20 * ELO


def test_two_names_for_one_player_are_rated_once():
    """threshold:margin=0 is threshold: their match differs on no deal, so they are one entrant."""
    specs = ["threshold", "random", "threshold:margin=0", "greedy"]
    res = tournament(make_setup("moon", 3), specs, games=30, seed=2)
    r = res.tables["ratings"]
    assert list(r["strategy"].sort_values()) == ["greedy", "random", "threshold = threshold:margin=0"]
    assert abs(r["estimate"].sum()) < 1e-6 and (r["n"] == 30 * 2).all()
    assert any("threshold and threshold:margin=0 played identically on every deal" in f for f in res.findings)
    assert len(res.tables["pairs"]) == 6 * 6                     # every pair is still played and shown


def test_unfinished_games_are_shown_beside_the_wins():
    """All-random Moon games often hit the cap on hands; the tournament says how often."""
    res = tournament(make_setup("moon", 3), ["threshold", "random"], games=60, seed=2)
    pairs = res.tables["pairs"].set_index("metric")
    assert pairs.loc["p_unfinished_b", "estimate"] > 0.3 and pairs.loc["p_unfinished_a", "estimate"] == 0
    assert any("unfinished at the cap on game length" in f and "(random)" in f for f in res.findings)


def test_progress_counts_every_game():
    done = []
    tournament(make_setup("shoot-the-moon", 4), ["random", "greedy", "odd"], games=30, seed=1, progress=done.append)
    assert sum(done) == 3 * 30


@pytest.mark.parametrize("specs, fragment", [
    (["odd"], "at least two strategies"),
    (["odd", "odd"], "named twice"),
    (["odd", "nosuch"], "unknown strategy 'nosuch'"),
])
def test_bad_entrants(specs, fragment):
    with pytest.raises(BadInput, match=fragment):
        tournament(make_setup("shoot-the-moon", 4), specs, games=10, seed=1)
