"""The hand analyzer checks its own advice (issue 36 item 4): its top choices played again with the
search player in every seat on the first deals of the same sample, and a finding that names the
players behind every number and says when the search player disagrees."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import moonshot
from moonshot.analysis import hand_check
from moonshot.analysis.common import make_setup
from moonshot.analysis.words import widened
from moonshot.simulator.games import GAMES
from tests.test_cli import run

ISSUE_HAND = "6-6 6-5 6-3 5-5 4-4 2-1 0-0"      # 3 players, first to bid: threshold's table says bid 21 in sixes
STM_HAND = "R12 R7 BM G3 P5"


def _issue_hand(strategies=()):
    from moonshot.analysis.moon import analyze_hand
    return analyze_hand(make_setup("moon", strategies=strategies), ISSUE_HAND, "first", 3_000, 2026, check_samples=120)


@pytest.fixture(scope="module")
def issue_hand():
    """The issue's scenario: threshold in every seat (the default when it was written), seated by name."""
    return _issue_hand(("threshold",))


def test_the_issue_hand_is_not_told_to_bid_21_without_naming_the_disagreement(issue_hand):
    lead, main, check = issue_hand.findings[0], issue_hand.findings[1], issue_hand.findings[-1]
    assert "bid 21" in main and main.startswith("Against threshold defenders")        # the scenario of the issue
    # the first sentence, the one a person acts on, is not "bid 21": strong play overturns it
    assert lead.startswith("Against strong play (with pimc in every seat") and "rather than bid 21 in sixes" in lead
    # the check names the disagreement, with both players' words, or the table does not advise 21 at all
    assert check.startswith(("The search player disagrees", "The search player does not confirm")), check
    assert "advice to bid 21 in sixes holds against threshold defenders" in check
    assert "with pimc in every seat" in check
    rows = issue_hand.tables["check"]
    assert set(rows["strategy"]) == {"pimc"} and rows["choice"].iloc[0] == "bid 21 in sixes"
    assert "pass" in set(rows["choice"]) and (rows["n"] == 120).all()
    advice = rows[(rows["choice"] == "bid 21 in sixes") & (rows["metric"] == "p_make")].iloc[0]
    table = issue_hand.tables["trump_by_bid"]
    main_make = table[(table["trump"] == "sixes") & (table["bid"] == 21) & (table["metric"] == "p_make")].iloc[0]
    assert advice["ci_high"] < main_make["ci_low"]        # pimc's defence sets the 21 far more often than threshold's


def test_under_the_default_the_issue_hand_is_not_told_to_bid_21_without_naming_the_disagreement():
    """The issue's requirement with the game's default (the expert) in every seat: the table does not
    advise 21, or the check's sentence says the search player does not back it."""
    res = _issue_hand()
    main, check = [f for f in res.findings if not f.startswith("Against strong play")][0], res.findings[-1]
    assert main.startswith(f"Against {GAMES['moon'].default_strategy} defenders")
    if "bid 21" in main:
        assert check.startswith(("The search player disagrees", "The search player does not confirm")), check
        assert "with pimc in every seat" in check and "advice to bid 21 " in check


def test_the_check_plays_the_first_deals_of_the_main_sample():
    """Deals cut from the main chunks they fall in are the main sample's deals, whatever the geometry."""
    from moonshot.simulator.moon import engine, tiles
    from moonshot.simulator.runner import stream_seed
    table = make_setup("moon").table
    hand = tiles.parse_hand(ISSUE_HAND, 3, table.rules)

    def deal(i, n):
        return engine.deal_with_hand(np.random.default_rng(stream_seed(5, i, 0)), n, table, 0, hand)
    whole = [deal(i, n) for i, n in enumerate((7, 7, 6))]          # 20 deals in chunks of 7
    hands = np.concatenate([h for h, _ in whole])
    widow = np.concatenate([w for _, w in whole])
    got_hands, got_widow = hand_check.main_deals(deal, 5, 17, 7, 20)
    assert (got_hands == hands[5:17]).all() and (got_widow == widow[5:17]).all()


@given(st.integers(1, 9), st.integers(1, 40), st.data())
def test_main_deals_cuts_any_range_of_any_chunking(chunk, samples, data):
    start = data.draw(st.integers(0, samples - 1))
    stop = data.draw(st.integers(start + 1, samples))
    deal = lambda i, n: (np.arange(i * chunk, i * chunk + n), None)        # noqa: E731 - deal j is j
    rows, nothing = hand_check.main_deals(deal, start, stop, chunk, samples)
    assert rows.tolist() == list(range(start, stop)) and nothing is None


def test_the_check_sentence_is_in_the_cli_output_and_names_the_players(capsys):
    code, out, err = run(["hand", "moon", "--hand", ISSUE_HAND, "--samples", "300", "--check-samples", "12", "-q",
                          "-s", "threshold"], capsys)
    assert code == 0, err
    found = out.split("What it found:")[1]
    assert "Against threshold defenders (threshold in every seat)" in found and "with pimc in every seat" in found
    assert "The search player" in found and "on the first 12 of these deals" in found and "\ncheck  (" in out
    code, out, err = run(["hand", "shoot-the-moon", "--hand", STM_HAND, "--samples", "600", "--check-samples", "300",
                          "-s", "greedy", "-q"], capsys)
    assert code == 0, err
    found = out.split("What it found:")[1]
    assert "Against greedy opponents (greedy in every seat), this hand's side" in found
    assert "The search player's check: with rollout in every seat, on the first 300 of these deals" in found


def test_no_check_with_zero_and_the_main_table_is_unchanged(capsys):
    args = ["hand", "shoot-the-moon", "--hand", STM_HAND, "--samples", "500", "-f", "json", "-q"]
    import json
    off = json.loads(run(args + ["--check-samples", "0"], capsys)[1])
    on = json.loads(run(args + ["--check-samples", "50"], capsys)[1])
    assert "check" not in off["tables"] and "check" in on["tables"]
    assert off["tables"]["hand"] == on["tables"]["hand"] and off["findings"][0] == on["findings"][0]


@pytest.mark.parametrize("value, words", [
    ("-1", "--check-samples -1 is not accepted; accepted: 0 (no check) or a count of deals"),
    ("abc", "'abc' is not a valid int"),
    ("1.5", "'1.5' is not a valid int"),
    ("99999999999", "--check-samples 99999999999 is not accepted"),
])
def test_bad_check_samples_are_one_line_and_exit_2(value, words, capsys):
    code, out, err = run(["hand", "moon", "--hand", ISSUE_HAND, "--samples", "10", "--check-samples", value], capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and not out


def test_a_game_without_a_check_refuses_one_in_one_line(capsys):
    code, _, err = run(["hand", "hit-the-deck", "--hand", "R3 R5 G2 BCUT YFLIP HN3 HH", "--samples", "10",
                        "--check-samples", "5"], capsys)
    assert code == 2 and "has no search-player check" in err and len(err.strip().splitlines()) == 1


def test_the_library_takes_check_samples_and_refuses_bad_ones_in_its_own_words():
    r = moonshot.hand("shoot-the-moon", STM_HAND, samples=300, check_samples=40, seed=3)
    assert r.meta["check_samples"] == 40 and r.findings[-1].startswith("The search player's check")
    with pytest.raises(moonshot.BadInput, match=r"^check_samples=-1 is not accepted"):
        moonshot.hand("moon", ISSUE_HAND, samples=10, check_samples=-1)
    with pytest.raises(moonshot.BadInput, match="check_samples='many' is not accepted"):
        moonshot.hand("moon", ISSUE_HAND, samples=10, check_samples="many")


def test_the_check_gives_the_same_numbers_for_any_jobs():
    from moonshot.analysis.shoot_the_moon import analyze_hand
    setup = make_setup("shoot-the-moon")
    one = analyze_hand(setup, STM_HAND, "first", 700, 9, jobs=1, check_samples=600)
    two = analyze_hand(setup, STM_HAND, "first", 700, 9, jobs=2, check_samples=600)
    pd.testing.assert_frame_equal(one.tables["check"], two.tables["check"])
    assert one.findings == two.findings


# ------------------------------------------------------------------------------ the players' words

def test_the_players_are_named_from_the_seats_specs():
    moon4 = make_setup("moon", 4).table.side_of_seat
    assert hand_check.seated(("threshold",) * 3, np.arange(3), "defenders") == \
        "against threshold defenders (threshold in every seat)"
    assert hand_check.seated(("greedy", "threshold", "random", "threshold"), moon4, "defenders") == \
        "against threshold defenders (this hand played by greedy, its partner by random)"
    assert hand_check.every_seat("rollout") == "with rollout in every seat"


# ------------------------------------------------------------------------------ the check's sentence

def _rows(values: dict[str, tuple[float, float]]) -> pd.DataFrame:
    """Estimates (mean, half-width) by choice."""
    return pd.DataFrame([{"choice": c, "metric": "score", "estimate": m, "ci_low": m - h, "ci_high": m + h, "n": 100,
                          "kind": "mean"} for c, (m, h) in values.items()])


def _say(scores: dict, diffs: dict) -> str:
    return hand_check.advice_sentence(_rows(scores), _rows(diffs), "bid 21 in sixes", "pass",
                                      "with pimc in every seat", "against threshold defenders", 100, "points")


def test_the_sentence_follows_the_intervals():
    scores = {"bid 21 in sixes": (-2, 3), "bid 6 in sixes": (5, 0.5), "pass": (1.6, 0.2)}
    said = _say(scores, {"bid 6 in sixes": (7, 2), "pass": (3.6, 3)})
    assert said.startswith("The search player disagrees") and "not with pimc in every seat" in said
    assert "passing scores +1.6" in said
    said = _say(scores, {"bid 6 in sixes": (1, 2), "pass": (0.5, 3)})
    assert said.startswith("The search player does not confirm") and "cannot be told from zero" in said
    said = _say(scores, {"bid 6 in sixes": (-7, 2), "pass": (-0.5, 3)})
    assert said.startswith("The search player ranks no checked choice above the advice but cannot tell it from one "
                           "of the 2 others")
    assert "(Bonferroni-corrected for the 2 choices compared with it): pass 0 points [-4, +3]" in said
    assert "bid 6 in sixes -7" not in said
    said = _say(scores, {"bid 6 in sixes": (-7, 2), "pass": (-5, 1)})
    assert said.startswith("The search player agrees") and "the nearest, pass, by +5" in said


@given(st.lists(st.tuples(st.floats(-20, 20), st.floats(0.01, 10)), min_size=1, max_size=4))
def test_a_verdict_is_never_more_than_its_corrected_intervals(diffs):
    names = [f"bid {4 + i} in sixes" for i in range(len(diffs))]
    table = dict(zip(names, diffs))
    said = _say({"bid 21 in sixes": (0, 1), **{n: (0, 1) for n in names}, "pass": (0, 1)}, table)
    wide = widened(_rows(table), len(table))
    if said.startswith("The search player disagrees"):
        assert (wide["ci_low"] > 0).any()
    if said.startswith("The search player agrees"):
        assert (wide["ci_high"] < 0).all()
    if (wide["ci_low"] > 0).any():
        assert said.startswith("The search player disagrees")


def test_a_clear_overturn_leads_the_findings_with_the_choice_that_holds_against_strong_play():
    """A person acts on the first sentence: where the search player clearly prefers another checked
    choice, that choice is the advice said first; where its interval spans zero, nothing is overturned."""
    clear = _rows({"bid 6 in sixes": (7, 2), "pass": (3.6, 3)})
    better = hand_check.overturned(clear)
    assert better["choice"] == "bid 6 in sixes"
    said = hand_check.lead_sentence(better, "bid 21 in sixes", "with pimc in every seat",
                                    "against expert defenders", 200, "points")
    assert said.startswith("Against strong play (with pimc in every seat, on the first 200 deals), bid 6 in sixes "
                           "rather than bid 21 in sixes")
    assert "holds against expert defenders only" in said
    assert hand_check.overturned(_rows({"bid 6 in sixes": (1, 2), "pass": (0.5, 3)})) is None
    assert hand_check.overturned(_rows({})) is None
