"""The deal-luck control variate (analysis/variance.py): mean exactly 0, unbiased intervals that cover at
the nominal rate, narrower where the deal explains something, and the lab's plain numbers unchanged."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from moonshot.analysis import variance
from moonshot.analysis.common import make_setup
from moonshot.simulator.runner import Tally, chunk_seeds, generators
from tests.budget import size


@settings(max_examples=size(30, 300), deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 20), st.integers(2, 6)), elements=st.floats(-50, 50)))
def test_each_seat_relative_to_the_others_sums_to_zero(per_seat):
    rel = variance.relative(per_seat)
    assert np.allclose(rel.sum(axis=1), 0, atol=1e-9)
    assert np.allclose(rel[:, 0], per_seat[:, 0] - per_seat[:, 1:].mean(axis=1))


def _adjusted(y, x):
    t = Tally()
    t.add("cv", variance.folds(len(y)), variance.sums(y, x))
    return variance.adjusted(t.get("cv"))


def test_the_adjusted_interval_covers_about_95_percent_and_is_narrower_with_a_good_covariate():
    rng = np.random.default_rng(0)
    hits, ratios = 0, []
    for _ in range(400):
        x = rng.normal(0, 1, (300, 2))                    # mean exactly 0, as the luck's is
        y = 0.3 + x @ [0.8, -0.4] + rng.normal(0, 0.6, 300)
        a = _adjusted(y, x)
        hits += a["ci_low"] <= 0.3 <= a["ci_high"]
        ratios.append(a["ratio"])
    assert 360 <= hits <= 395
    assert np.median(ratios) > 1.4                      # sqrt(1.16/0.36) = 1.8 at best


def test_a_useless_covariate_costs_almost_nothing_and_a_tiny_sample_fits_nothing():
    rng = np.random.default_rng(1)
    y, x = rng.normal(1, 1, 2000), rng.normal(0, 1, (2000, 1))
    assert 0.97 < _adjusted(y, x)["ratio"] < 1.01
    small = _adjusted(y[:40], x[:40])                   # folds of 20 < MIN_FOLD: the plain estimate
    assert small["estimate"] == pytest.approx(y[:40].mean()) and small["ratio"] == pytest.approx(1.0)


def _skill_games(game: str, n: int, seed: int, index: int, rules=()):
    setup = make_setup(game, rules=rules).validate()
    edge, g = variance.skill_games(setup, n, seed, index)
    return edge, variance.luck(game, g, n, setup.table.players)


@pytest.mark.parametrize("game,rules", [("moon", ()), ("moon", ("moon.tile_set=no_blanks21",)),
                                        ("shoot-the-moon", ()), ("shoot-the-moon", ("stm.target_chips=5",))])
def test_every_seats_luck_has_mean_zero(game, rules):
    luck = np.concatenate([_skill_games(game, 1_000, 77, i, rules)[1] for i in range(2)])
    mean, se = luck.mean(axis=0), luck.std(axis=0) / np.sqrt(len(luck))
    assert np.all(np.abs(mean) < 4 * se), (mean, se)
    assert luck.std() > 0


def test_adjusted_intervals_of_real_games_cover_and_are_narrower():
    """Moon's skill edge (the lab's skill lineup) in samples of 250 games: the adjusted interval covers
    the edge of all the games pooled about 95% of the time, and is narrower than the plain one."""
    played = [_skill_games("moon", 5_000, 4_040, i) for i in range(size(3, 15))]
    edge, luck = np.concatenate([p[0] for p in played]), np.concatenate([p[1] for p in played])
    truth = edge.mean()
    samples = len(edge) // 250
    hits, ratios = 0, []
    for y, x in zip(np.split(edge, samples), np.split(luck, samples)):
        a = _adjusted(y, x[:, :1])
        hits += a["ci_low"] <= truth <= a["ci_high"]
        ratios.append(a["ratio"])
    assert hits >= samples * 0.85
    assert np.mean(ratios) > 1.05


def test_a_game_without_a_luck_model_gets_no_covariate():
    assert "hit-the-deck" not in variance.FEATURES
    setup = make_setup("hit-the-deck").validate()
    g = setup.hooks.play_games(setup, setup.seats.strategies, generators(chunk_seeds(3, 0, setup.entry.streams)), 20,
                               keep_hands=True)
    assert variance.luck("hit-the-deck", g, 20, setup.players) is None


def test_the_lab_adds_narrower_rows_and_keeps_its_plain_numbers(monkeypatch):
    from moonshot.analysis.rules_lab import rules_lab
    kw = dict(games=1_000, hands=1_000, seed=11, sets=["w=moon.widow=none"])
    res = rules_lab(make_setup("moon"), **kw)
    narrower = res.tables["narrower"]
    assert list(narrower["metric"]) == ["d_skill", "d_random_edge"]
    skill = narrower.iloc[0]
    assert skill["n"] == 1_000 and skill["ratio"] > 1.0 and skill["ci_low"] < skill["estimate"] < skill["ci_high"]
    assert any("narrower:" in n for n in res.notes)
    monkeypatch.setattr(variance, "FEATURES", {})
    plain = rules_lab(make_setup("moon"), **kw)
    assert "narrower" not in plain.tables
    assert res.tables["ranked"].equals(plain.tables["ranked"])
    assert list(narrower.columns) == ["rule", "metric", "estimate", "n", "ci_low", "ci_high", "kind", "ratio"]


def test_a_whatif_of_whole_games_adds_narrower_rows_and_keeps_its_plain_numbers(monkeypatch):
    from moonshot.analysis.common import whatif
    res = whatif(make_setup("shoot-the-moon"), ["stm.target_chips=5"], None, 1_000, 5)
    narrower = res.tables["narrower"]
    assert list(narrower["seat"]) == [0, 1, 2, 3] and (narrower["n"] == 1_000).all()
    assert (narrower["ratio"] > 1.0).all()
    monkeypatch.setattr(variance, "FEATURES", {})
    plain = whatif(make_setup("shoot-the-moon"), ["stm.target_chips=5"], None, 1_000, 5)
    assert "narrower" not in plain.tables
    assert res.tables["seats"].equals(plain.tables["seats"])
    d_win = plain.tables["seats"].query("metric == 'd_win'")
    half = (d_win["ci_high"] - d_win["ci_low"]).to_numpy() / (narrower["ci_high"] - narrower["ci_low"]).to_numpy()
    assert np.allclose(half, narrower["ratio"])          # the ratio is the plain interval's width over this one's


@pytest.mark.parametrize("game", sorted(variance.FEATURES))
def test_the_luck_is_the_stored_weights_on_the_summed_features(game):
    setup = make_setup(game).validate()
    g = setup.hooks.play_games(setup, setup.seats.strategies, generators(chunk_seeds(9, 0, setup.entry.streams)), 300,
                               keep_hands=True)
    feats = variance.game_features(game, g, 300, setup.players)
    assert feats.shape[2] == len(variance.weights(game))
    assert np.allclose(variance.luck(game, g, 300, setup.players), feats @ variance.weights(game))
    assert np.allclose(feats.sum(axis=1), 0)


def _paired_games(game: str, rule: str, n: int, seed: int, index: int):
    """Seat 0's change in P(win) under `rule` on the same seeds, and both arms' luck of seat 0."""
    out = []
    for rules in ((), (rule,)):
        setup = make_setup(game, rules=rules).validate()
        g = setup.hooks.play_games(setup, setup.seats.strategies,
                                   generators(chunk_seeds(seed, index, setup.entry.streams)), n, keep_hands=True)
        out.append((setup.hooks.wins(setup, g)[:, setup.table.side_of_seat[0]], variance.seat_luck(setup, g, n)[:, 0]))
    (wb, lb), (wv, lv) = out
    return wv.astype(float) - wb, np.stack([lv, lb], axis=1)


def test_adjusted_paired_changes_of_real_games_cover():
    """A what-if's change (Shoot the Moon, first to 5 chips) in samples of 250 games: the adjusted
    interval covers the change of all the games pooled about 95% of the time."""
    played = [_paired_games("shoot-the-moon", "stm.target_chips=5", 4_000, 4_041, i) for i in range(size(3, 20))]
    d, x = np.concatenate([p[0] for p in played]), np.concatenate([p[1] for p in played])
    samples = len(d) // 250
    hits = sum(a["ci_low"] <= d.mean() <= a["ci_high"]
               for a in (_adjusted(y, c) for y, c in zip(np.split(d, samples), np.split(x, samples))))
    assert hits >= samples * 0.85
