"""A comparison whose measures point different ways says so (issue 40, item 4): a finding must not
pick one measure."""
from __future__ import annotations

import numpy as np

import moonshot


def test_a_match_whose_measures_disagree_names_both():
    """hold against dump: dump keeps fewer penalty points a hand, hold goes out first more often;
    the findings say both, and that the answer depends on the measure."""
    found = moonshot.compare("hit-the-deck", "hold", "dump", hands=5_000, seed=4).findings
    assert "B does better" in found[0] and "penalty points" in found[0]
    assert any("P(going out first)" in f and "A does better" in f and "do not agree" in f for f in found[1:])


def test_a_match_whose_measures_agree_says_it_once():
    found = moonshot.compare("shoot-the-moon", "expert", "random", hands=3_000, seed=4).findings
    assert "A does better" in found[0] and not any("do not agree" in f for f in found)


def test_a_moon_whatif_reports_make_rates_by_bid_under_each_rule_set():
    """'Without the widow, do bids make less often?': the what-if answers with the game's own measure,
    contracts made by bid under each rule set and the change, beside the points."""
    r = moonshot.whatif("moon", ["moon.widow=none"], hands=4_000, seed=2)
    c = r.tables["contracts"]
    made = c[(c["metric"] == "p_make") & (c["bid"] == "all")].set_index("rules")
    assert set(made.index) == {"base", "variant", "variant - base"}
    d = made.loc["variant - base"]
    assert np.isclose(d["estimate"], made.loc["variant", "estimate"] - made.loc["base", "estimate"])
    assert d["ci_low"] < d["estimate"] < d["ci_high"]
    assert any(f.startswith("Contracts make") and "under the variant" in f for f in r.findings)


def test_a_child_among_adults_hears_her_own_chance_first():
    """'My 8-year-old plays three adults: what's her chance?' (issue 40): the findings lead with the seat
    unlike the others, its P(win) and the others', and name the profiles among the players."""
    r = moonshot.simulate("hit-the-deck", games=300, seed=3, profile=["0=child"])
    first = r.findings[0]
    assert first.startswith("Seat 0 (tactician, reaction profile child) wins") and "the other seats" in first
    assert "reaction profiles seat 0 child, the others adult" in first
    assert not moonshot.simulate("hit-the-deck", games=100, seed=3).findings[0].startswith("Seat ")
