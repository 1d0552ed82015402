"""Output in players' words: text and HTML name no internal column, class or constant (they stay in
JSON/CSV/Parquet, which the glossary explains), and a column of zeros is left out with a note."""
import json
import re

import pytest

from moonshot.analysis.common import make_setup, match
from moonshot.reports.text import render
from tests.test_cli import run

INTERNAL = re.compile(r"(?<![\w.=-])(?:[abd]_\*|[abd]_[a-z]+|p_win|p_unfinished\w*|expected_score)\b")


@pytest.fixture(scope="module")
def a_match():
    return match(make_setup("moon"), "greedy", "random", None, 30, 2026)


def test_text_and_html_name_no_metric_while_json_keeps_them(a_match):
    shown = render(a_match, "table").split("\nGlossary:")[0]         # the glossary pairs each header with its name
    assert not INTERNAL.findall(shown.replace("p_pass", "").replace("p_moon", ""))    # strategy parameters stay
    assert not INTERNAL.findall(a_match._repr_html_().replace("p_pass", "").replace("p_moon", ""))
    assert {"a_win", "d_win", "p_unfinished_a"} <= {r["metric"] for r in json.loads(render(a_match, "json"))[
        "tables"]["match"]}


def test_a_column_of_zeros_is_left_out_with_a_note(a_match):
    rows = a_match.tables["match"]
    zero = rows[rows["metric"] == "p_unfinished_a"]
    assert (zero[["estimate", "ci_low", "ci_high"]] == 0).all(axis=None)    # greedy finishes every game
    text = render(a_match, "table")
    table = text.split("match  (")[1].split("What it found")[0]
    assert "P(unfinished), A" not in table and "P(unfinished), B" in table
    assert "P(unfinished), A is 0 in every row, so left out of the table" in text


def test_rules_show_values_as_they_are_typed(capsys):
    code, out, _ = run(["rules", "hit-the-deck"], capsys)
    assert code == 0 and "(default R,G,B,Y; M4)" in out and "('R'" not in out and "(1, 1" not in out
    code, _, err = run(["simulate", "hit-the-deck", "-n", "10", "--rule", ""], capsys)
    assert code == 2 and "e.g. htd.colours=R,G,B,Y" in err


def test_strategies_say_constants_as_their_values(capsys):
    code, out, _ = run(["strategies", "hit-the-deck"], capsys)
    assert code == 0 and "ENDGAME" not in out and "within 40 points of the target" in out


def test_a_replay_says_the_demand_as_a_player_does(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    assert run(["simulate", "hit-the-deck", "-n", "30", "--history", hist, "-q"], capsys)[0] == 0
    code, out, _ = run(["replay", hist], capsys)
    assert code == 0 and "demand number " in out and "Number(" not in out and "Colour(" not in out


def test_a_change_of_exactly_zero_with_float_noise_reads_as_no_spread():
    from moonshot.analysis.words import value
    noisy = {"estimate": 0.0, "ci_low": -2e-10, "ci_high": 2e-10, "n": 50_000, "kind": "change"}
    assert value(noisy) == "0 pp (no spread in 50,000)"
    small = {"estimate": 1e-4, "ci_low": 5e-5, "ci_high": 1.5e-4, "n": 100, "kind": "mean"}
    assert "no spread" not in value(small)                  # a real interval, however small, stays
