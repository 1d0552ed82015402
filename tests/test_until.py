"""--until (issue 40 item 2): rounds of whole chunks until every headline interval is narrower than
the width asked for, with intervals that keep their coverage under that stopping rule and the
numbers of a fixed run of the size it stopped at."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonshot.analysis.common import make_setup, match, whatif
from moonshot.analysis.until import GROWTH, Until, next_total, play_until
from moonshot.simulator.errors import BadInput
from tests.test_cli import run


def _replicate(rng, width: float) -> tuple[bool, int]:
    """One run of play_until on skewed draws (exponential, mean 1): whether the 95% interval at the
    stop covers the true mean, and the size it stopped at."""
    draws: list[np.ndarray] = []

    def play(first: int, count: int) -> None:
        draws.append(rng.exponential(1.0, count))

    def widest() -> float:
        x = np.concatenate(draws)
        return 2 * 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    stopped = play_until(play, widest, Until(width), chunk=20, first=40, budget=10**9)
    x = np.concatenate(draws)
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    assert stopped.reason == "width" and stopped.widest < width and stopped.played == len(x)
    return abs(x.mean() - 1.0) <= half, len(x)


def test_the_intervals_cover_at_the_nominal_rate_under_the_stopping_rule():
    """2,000 runs stopped by the rule: 95% coverage within its binomial noise (sd 0.5 pp)."""
    rng = np.random.default_rng(40)
    covered, sizes = zip(*(_replicate(rng, 0.2) for _ in range(2000)))
    assert 0.935 <= np.mean(covered) <= 0.965, np.mean(covered)
    assert 300 < np.median(sizes) < 600          # about (2 * 1.96 / 0.2)^2 = 384 draws, plus the last round's margin


@given(st.integers(1, 1000), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3), st.integers(1, 5000), st.integers(1, 10**7))
def test_a_round_plays_whole_chunks_onwards_within_the_budget(chunks, widest, width, chunk, budget):
    done = chunks * chunk                    # rounds before the last play whole chunks
    if done >= budget:
        return
    total = next_total(done, widest, width, chunk, budget)
    assert total <= budget and total <= GROWTH * done
    if total < budget:
        assert total % chunk == 0 and total >= min(done + chunk, GROWTH * done)


def test_a_whatif_until_gives_the_numbers_of_a_fixed_run_of_its_size():
    setup = make_setup("moon")
    said = []
    res = whatif(setup, ["moon.widow=none"], 200_000, None, 7, chunk=2_000, until=Until(0.4, say=said.append))
    n = res.meta["hands"]
    assert res.meta["stopped_by"] == "width" and res.meta["widest_interval"] < 0.4 and n % 2_000 == 0
    assert res.meta["rounds"] >= 2 and len(said) == res.meta["rounds"] - 1 and "more hands" in said[0]
    fixed = whatif(setup, ["moon.widow=none"], n, None, 7, chunk=2_000)
    assert fixed.tables["seats"].equals(res.tables["seats"]) and fixed.findings == res.findings


def test_a_budget_too_small_for_the_width_says_so():
    res = match(make_setup("shoot-the-moon", 3), "odd", "random", 3_000, None, 3, until=Until(1e-6))
    assert res.meta["stopped_by"] == "budget" and res.meta["hands"] == 3_000
    assert any("Stopped by the budget after 3,000 hands" in note and "cannot be told" in note for note in res.notes)


@pytest.mark.parametrize("width, max_time", [(0, None), (float("nan"), None), (-1, None), (1, 0), (True, None)])
def test_bad_widths_and_times_are_refused(width, max_time):
    with pytest.raises(BadInput, match="is not accepted; accepted"):
        Until(width, max_time)


def test_the_cli_refuses_a_bad_until_in_one_line(capsys):
    for args, said in ((["--until", "0"], "--until 0.0 is not accepted"),
                       (["--max-time", "5"], "--max-time 5.0 without --until")):
        code, out, err = run(["compare", "shoot-the-moon", "-s", "odd", "--vs", "random", *args], capsys)
        assert code == 2 and not out and said in err and len(err.strip().splitlines()) == 1


def test_the_library_takes_until_and_says_a_bad_one_in_its_own_words():
    import moonshot
    res = moonshot.whatif("moon", "moon.widow=none", hands=4_000, until=0.01)
    assert res.meta["stopped_by"] == "budget" and res.meta["hands"] == 4_000
    with pytest.raises(BadInput, match="max_time=5 without until="):
        moonshot.compare("moon", "expert", "threshold", max_time=5)
