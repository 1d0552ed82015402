"""Issue 14's examples: findings never crown a winner from noise, values with no spread never read
as certainties, and every number has one style (percentages, percentage points, no 1e-05)."""
import re

import pandas as pd
import pytest

import moonshot
from moonshot.analysis.words import effects, say, shift, standing, stands_out, value, verdict, widen
from moonshot.reports.text import render_table


def rows(key, items, kind="proportion", n=20_000):
    return pd.DataFrame([{key: k, "metric": "m", "estimate": e, "ci_low": lo, "ci_high": hi, "n": n, "kind": kind}
                         for k, (e, lo, hi) in items])


# --- "most", "best", "worth": only where the corrected intervals separate ---------------------

def test_four_seats_within_noise_name_no_leader():
    seats = rows("seat", [(0, (0.252, 0.246, 0.258)), (1, (0.253, 0.247, 0.259)), (2, (0.248, 0.242, 0.254)),
                          (3, (0.247, 0.241, 0.253))])
    text = stands_out(seats, lambda r: f"seat {r['seat']}", "seat", "goes out first most often", "P(out first)")
    assert "No seat stands out" in text and "most often" not in text
    assert "24.7%" in text and "25.3%" in text and "Bonferroni-corrected for 4 seats" in text


def test_two_sides_with_overlapping_intervals_name_no_leader():
    sides = rows("side", [(0, (0.482, 0.439, 0.526)), (1, (0.518, 0.474, 0.561))], n=500)
    assert stands_out(sides, lambda r: f"side {r['side']}", "side", "wins most often", "P(win)").startswith(
        "No side stands out")


def test_equal_ratings_name_no_leader_and_a_clear_one_is_named():
    tied = rows("strategy", [("threshold", (246, 230, 262)), ("defend", (246, 230, 262)),
                             ("random", (-492, -510, -474))], kind="mean")
    assert stands_out(tied, lambda r: r["strategy"], "strategy", "rates highest", "rating").startswith(
        "No single strategy stands out in rating: threshold 246 [226, 266], defend 246 [226, 266] cannot be told")
    # the quoted intervals are the ones the verdict was made on: 16 x widen(3) = 20 either side
    clear = rows("strategy", [("pimc", (300, 280, 320)), ("threshold", (100, 80, 120)), ("random", (-400, -420, -380))],
                 kind="mean")
    assert stands_out(clear, lambda r: r["strategy"], "strategy", "rates highest", "rating").startswith(
        "pimc rates highest")


def test_the_correction_is_applied():
    # Separated at 95% (0.515 > 0.51) but not once widened for 6 comparisons.
    six = rows("seat", [(0, (0.53, 0.515, 0.545))] + [(i, (0.495, 0.48, 0.51)) for i in range(1, 6)])
    assert standing(six).leader is None
    assert standing(six.iloc[:2]).leader["seat"] == 0          # with two compared it does separate
    assert widen(1) == 1.0 and 1.27 < widen(4) < 1.28       # z(1 - 0.025/4) / z(0.975)


def test_card_values_name_the_clear_effects_first_and_call_the_rest_noise():
    cards = rows("card", [("number", (0.008, -0.027, 0.043)), ("Flip", (0.05, 0.035, 0.065)),
                          ("HTD-N", (0.045, 0.03, 0.06)), ("Cut", (0.004, -0.02, 0.028))], kind="change", n=2000)
    text = effects(cards, lambda r: r["card"], "card", "P(out first)")
    assert text.index("Flip") < text.index("HTD-N") < text.index("number")
    assert "not told from zero" in text and "most valuable" not in text
    assert "percentage points" in text


def test_a_change_that_includes_zero_is_not_called_worth():
    text = shift({"estimate": 0.012, "ci_low": -0.01, "ci_high": 0.034, "n": 4000, "kind": "change"}, "P(win)")
    assert "not told from zero" in text
    assert verdict({"estimate": 0.01, "ci_low": -0.01, "ci_high": 0.03, "n": 100}).startswith("the difference cannot")


# --- exact versus estimated ------------------------------------------------------------------

def test_values_with_no_spread_get_no_zero_width_interval():
    symmetric = {"estimate": 0.25, "ci_low": 0.25, "ci_high": 0.25, "n": 20_000, "kind": "share"}
    assert value(symmetric) == "25.0% (no spread in 20,000)"
    assert value({"estimate": -4.0, "ci_low": -4.0, "ci_high": -4.0, "n": 5, "kind": "mean"}) == \
        "-4.00 (no spread in 5)"
    assert "[" not in value({"estimate": 21.0, "ci_low": 21.0, "ci_high": 21.0, "n": 40, "kind": "mean"})
    assert value({"estimate": 7.0, "ci_low": float("nan"), "ci_high": float("nan"), "n": 1, "kind": "mean"}) == "7"


def test_a_zero_width_table_cell_comes_with_its_note():
    r = moonshot.compare("hit-the-deck", "tactician", "dump", hands=300, seed=3)
    text = render_table(r)
    assert "(no spread in 300)" in text and "'no spread in n'" in text
    assert not re.search(r"(\d+\.\d+) \[\1, \1\]", text)            # no 'x [x, x]'


# --- one number style --------------------------------------------------------------------------

@pytest.mark.parametrize("row, want", [
    ({"estimate": -0.000341, "ci_low": -0.0005, "ci_high": -0.0002, "n": 9, "kind": "mean"}, "-0.0003"),
    ({"estimate": 8.54e-06, "ci_low": -0.01, "ci_high": 0.01, "n": 9, "kind": "mean"}, "0.000 [-0.010, 0.010]"),
    ({"estimate": -0.0004, "ci_low": -0.003, "ci_high": 0.002, "n": 9, "kind": "mean"}, "0.000 [-0.003, 0.002]"),
    ({"estimate": 0.0412, "ci_low": 0.031, "ci_high": 0.051, "n": 9, "kind": "change"}, "+4.1 pp [+3.1, +5.1]"),
    ({"estimate": 0.4467, "ci_low": 0.443, "ci_high": 0.450, "n": 9, "kind": "share"}, "44.7% [44.3%, 45.0%]"),
    ({"estimate": 0.3823, "ci_low": 0.37, "ci_high": 0.395, "n": 9, "kind": "proportion"}, "38.2% [37.0%, 39.5%]"),
    ({"estimate": 246.2, "ci_low": 230.1, "ci_high": 262.3, "n": 9, "kind": "mean"}, "246 [230, 262]"),
])
def test_one_number_style(row, want):
    assert value(row).startswith(want)
    assert "e-" not in value(row) and "-0.00 " not in value(row)


def test_percentage_point_changes_read_in_full_in_sentences():
    assert say({"estimate": -0.562, "ci_low": -0.579, "ci_high": -0.546, "n": 4000, "kind": "change"}) == \
        "-56.2 percentage points [-57.9, -54.6]"


def test_compare_and_whatif_tables_show_percentages_and_points():
    text = render_table(moonshot.compare("shoot-the-moon", "odd", "greedy", hands=2000, seed=1))
    assert re.search(r"A: P\(odd\)\s+\d+\.\d%", text) and re.search(r"change: P\(odd\)\s+[+-]\d+(\.\d)? pp", text)
    text = render_table(moonshot.whatif("shoot-the-moon", {"stm.little_moon_lead_trumps": True}, hands=2000, seed=1))
    assert " pp" in text and not re.search(r"change: P\(\w+\)\s+0\.\d{4}", text)


def test_real_findings_crown_no_seat_from_noise():
    r = moonshot.simulate("hit-the-deck", hands=3000, seed=5)
    assert not any("most often" in f for f in r.findings)
    assert any(f.startswith("No seat stands out in P(out first)") for f in r.findings)


def test_a_standing_names_the_group_at_the_top_when_the_rest_are_clearly_behind():
    three = rows("strategy", [("threshold", (321, 309, 333)), ("greedy", (318, 307, 330)),
                              ("random", (-640, -663, -617))], kind="mean")
    text = stands_out(three, lambda r: r["strategy"], "strategy", "rates highest", "rating")
    assert text.startswith("No single strategy stands out in rating: threshold 321 [306, 336], greedy 318")
    assert "every other strategy is clearly behind threshold" in text and "strategys" not in text


def test_no_spread_tolerates_rounding_and_shares_stay_in_range():
    third = {"estimate": 0.3333333333333322, "ci_low": 0.33333333066277054, "ci_high": 0.33333333600389387,
             "n": 300, "kind": "share"}                     # as a real tournament's B column gave it
    assert value(third) == "33.3% (no spread in 300)"
    from moonshot.analysis.stats import estimate
    summed = pd.DataFrame({"k": [0], "n": [200], "x": [0.6], "x__sq": [0.36], "x__share": [0.0]})
    row = estimate(summed, ["k"], ["x"]).iloc[0]
    assert row["kind"] == "share" and row["ci_low"] >= 0
