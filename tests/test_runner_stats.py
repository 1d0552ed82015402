"""Runner (chunks, seeds, merging) and the interval arithmetic."""
import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshot.analysis.common import Setup, simulate
from moonshot.analysis.stats import estimate, mean_ci, wilson
from moonshot.simulator.runner import Tally, chunk_rngs, chunk_sizes
from tests.budget import size


def test_chunk_sizes_cover_total():
    assert chunk_sizes(10, 4) == [4, 4, 2]
    assert chunk_sizes(8, 4) == [4, 4]
    assert sum(chunk_sizes(1_000_003)) == 1_000_003


def test_chunk_streams_do_not_depend_on_the_number_of_chunks():
    a = chunk_rngs(5, 3)[0].random(4)
    b = chunk_rngs(5, 3)[0].random(4)
    c = chunk_rngs(5, 4)[0].random(4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


@settings(max_examples=size(20, 400), deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 5), st.integers(0, 2), st.floats(-10, 10)), min_size=1, max_size=60))
def test_tally_matches_pandas_groupby(rows):
    k1, k2, x = (np.array(c) for c in zip(*rows))
    t = Tally()
    half = len(rows) // 2
    t.add("t", {"a": k1[:half], "b": k2[:half]}, {"x": x[:half]}) if half else None
    other = Tally()
    other.add("t", {"a": k1[half:], "b": k2[half:]}, {"x": x[half:]})
    t.merge(other)
    got = t.get("t").sort_values(["a", "b"]).reset_index(drop=True)
    want = (pd.DataFrame({"a": k1, "b": k2, "x": x}).groupby(["a", "b"])
            .agg(n=("x", "size"), x=("x", "sum")).reset_index())
    assert got["a"].tolist() == want["a"].tolist() and got["b"].tolist() == want["b"].tolist()
    assert got["n"].tolist() == want["n"].tolist()
    assert np.allclose(got["x"], want["x"])


def test_many_chunks_merge_like_one():
    rng = np.random.default_rng(4)
    keys, x = rng.integers(0, 3, 1000), rng.random(1000)
    whole = Tally()
    whole.add("t", {"k": keys}, {"x": x})
    parts = Tally()
    for lo in range(0, 1000, 100):                      # ten chunks, one key column
        part = Tally()
        part.add("t", {"k": keys[lo:lo + 100]}, {"x": x[lo:lo + 100]})
        parts.merge(part)
    a, b = whole.get("t"), parts.get("t")
    assert a["k"].tolist() == b["k"].tolist() and a["n"].tolist() == b["n"].tolist()
    assert np.allclose(a["x"], b["x"])


def test_wilson_known_values():
    p, lo, hi = wilson(np.array([50]), np.array([100]))
    assert abs(p[0] - 0.5) < 1e-12 and abs(lo[0] - 0.4038) < 1e-3 and abs(hi[0] - 0.5962) < 1e-3
    _, lo0, hi0 = wilson(np.array([0]), np.array([20]))
    assert lo0[0] == 0 and 0.15 < hi0[0] < 0.17


def test_mean_ci_covers_the_true_mean_about_95_percent():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(400):
        x = rng.normal(1.0, 2.0, 200)
        _, lo, hi = mean_ci(x.sum(), (x * x).sum(), 200)
        hits += lo <= 1.0 <= hi
    assert 360 <= hits <= 395


def test_estimate_long_table_has_n_and_interval():
    t = Tally()
    t.add("s", {"side": np.array([0, 0, 1, 1])}, {"p_odd": np.array([1, 0, 1, 1]), "chips": np.array([1, 3, 0, 2])})
    e = estimate(t.get("s"), ["side"], ["p_odd", "chips"])
    row = e[(e.side == 0) & (e.metric == "chips")].iloc[0]
    assert row.estimate == 2 and row.n == 2 and row.ci_low < 2 < row.ci_high


def test_same_seed_same_numbers_for_any_jobs():
    setup = Setup("shoot-the-moon", 3, False, (), ("greedy",))
    a = simulate(setup, 70_000, None, seed=11, jobs=1).tables["sides"]
    b = simulate(setup, 70_000, None, seed=11, jobs=2).tables["sides"]
    c = simulate(setup, 70_000, None, seed=12, jobs=1).tables["sides"]
    pd.testing.assert_frame_equal(a, b)
    assert not a["estimate"].equals(c["estimate"])
