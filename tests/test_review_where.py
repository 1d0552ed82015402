"""`moonshot review` says where each decision was, as a player names it (issue 37 item 2), and its
default text is one line per decision: Moon's bids by their place in the auction and its plays by
trick and place in it, Shoot the Moon's plays the same way (the open dummy's card named), Hit the
Deck's decisions by the hand's turn (HTD-6.5's count, a drawn-card decision on its draw's turn),
each checked against the record itself; the text has one line per decision, no NaN, the errors
biggest loss first, and the option table only with --options."""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from moonshot import cli
from moonshot.analysis.result import Result
from moonshot.analysis.review import ERRORS, review
from moonshot.analysis.words import ordinal, trick_place
from moonshot.reports import review as pages
from tests.test_review import moon_records

WORLDS = 2          # the names do not depend on the values: the fewest worlds review takes


def _simulate(path, game, *args) -> list[dict]:
    try:
        cli.app(["simulate", game, "--hands", "1", "--history", str(path), "-q", "-f", "json",
                 "-o", str(path) + ".json", *args])
    except SystemExit as exc:
        assert not exc.code
    return [json.loads(line) for line in path.read_text().splitlines()]


def _run(args) -> None:
    try:
        cli.app(args)
    except SystemExit as exc:
        assert not exc.code


def test_ordinals_and_trick_places():
    assert [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th"]
    assert trick_place(0, 0) == "trick 1, lead" and trick_place(2, 1) == "trick 3, 2nd to play"
    assert trick_place(4, 5) == "trick 5, 6th to play"


@pytest.fixture(scope="module")
def moon_hand():
    """A three-player Moon hand with a contract (every trick played), and its review."""
    rec = next(r for r in moon_records("threshold", 4, 31) if r["bidder"] is not None)
    rec = dict(rec, hand_id=0)
    return rec, review([rec], worlds=WORLDS).tables["steps"]


def test_moon_names_bids_discard_trump_and_every_play(moon_hand):
    rec, steps = moon_hand
    P = rec["players"]
    bids = steps[steps["kind"] == "bid"]
    assert list(bids["where"]) == [f"bid, {ordinal(k + 1)} to speak" for k in range(len(rec["bids"]))]
    assert list(bids["seat"]) == [seat for seat, _ in rec["bids"]]
    assert list(steps.loc[steps["kind"] == "trump", "where"]) == ["trump"]
    assert list(steps.loc[steps["kind"] == "discard", "where"]) == (["discard"] if rec["widow"] is not None else [])
    plays = steps[steps["kind"] == "play"]
    assert len(plays) == len(rec["plays"]) == 7 * P
    assert list(plays["where"]) == [trick_place(i // P, i % P) for i in range(7 * P)]
    assert list(plays["seat"]) == [seat for seat, *_ in rec["plays"]]
    leads = plays[plays["where"].str.endswith(", lead")]
    assert list(leads["seat"]) == [rec["bidder"]] + list(rec["trick_winners"][:-1])     # who led each trick
    assert (steps["where"] != "").all()


def _stm_check(records, steps):
    rec = records[0]
    H, P = len(rec["hands"]), rec["players"]
    assert len(steps) > 0
    for row in steps.itertuples():
        place = trick_place(row.step // H, row.step % H)
        dummy = rec["plays"][row.step][0] == P
        assert row.where == place + (" (dummy)" if dummy else "")
    return steps["where"]


def test_shoot_the_moon_names_tricks_and_the_open_dummy(tmp_path):
    four = _simulate(tmp_path / "four.jsonl", "shoot-the-moon", "-p", "4")
    where = _stm_check(four, review(four, worlds=WORLDS).tables["steps"])
    assert where.str.endswith("4th to play").any() and where.str.endswith(", lead").sum() >= 4
    two = _simulate(tmp_path / "two.jsonl", "shoot-the-moon", "-p", "2", "-r",
                    "stm.dummy_mode=open_hand_nondealer_chooses")
    steps = review(two, worlds=WORLDS).tables["steps"]
    where = _stm_check(two, steps)
    assert where.str.endswith("(dummy)").sum() == sum(s == 2 for s, _ in two[0]["plays"]) > 0
    dealer = two[0]["dealer"]
    assert (steps.loc[where.str.endswith("(dummy)"), "seat"] == 1 - dealer).all()     # the non-dealer chooses


def _turns(record) -> list[tuple[int, int, str]]:
    """(turn, seat, event) of every event HTD-6.5 counts as a turn, counted here from the record: each
    draw, cut and flip, and each play that does not follow its own draw."""
    out, prev = [], None
    for ev in record["events"]:
        own_draw = prev is not None and prev[0] == "draw" and ev[0] == "play" and prev[1:3] == ev[1:3]
        if ev[0] in ("draw", "cut", "flip") or (ev[0] == "play" and not own_draw):
            out.append((len(out) + 1, ev[1], ev[0]))
        prev = ev
    return out


def test_hit_the_deck_counts_turns_and_a_drawn_card_shares_its_draws_turn(tmp_path):
    recs = _simulate(tmp_path / "htd.jsonl", "hit-the-deck", "-s", "random", "--seed", "3",
                     "-r", "htd.drawn_card_play=optional")
    steps = review(recs, worlds=WORLDS).tables["steps"]
    parsed = [re.fullmatch(r"turn (\d+): (.*)", w) for w in steps["where"]]
    assert all(parsed)
    turn = pd.Series([int(m.group(1)) for m in parsed], index=steps.index)
    what = pd.Series([m.group(2) for m in parsed], index=steps.index)
    assert set(what) <= {"play", "play the drawn card or keep it"}        # no voluntary draw under these rules
    assert turn.is_monotonic_increasing and turn.iloc[0] >= 1
    counted = _turns(recs[0])
    plays = what == "play"
    assert turn[plays].is_unique
    assert list(zip(turn[plays], steps.loc[plays, "seat"])) == [(t, s) for t, s, e in counted if e == "play"]
    drawn = ~plays
    assert drawn.sum() >= 1                                              # this seed holds one
    draws = {(t, s) for t, s, e in counted if e == "draw"}
    assert set(zip(turn[drawn], steps.loc[drawn, "seat"])) <= draws


def test_hit_the_deck_names_the_voluntary_draw(tmp_path):
    recs = _simulate(tmp_path / "vol.jsonl", "hit-the-deck", "-r", "htd.voluntary_draw=true")
    steps = review(recs, hand_ids=[0], seats=[0], worlds=WORLDS).tables["steps"]
    assert len(steps) and steps["where"].str.fullmatch(r"turn \d+: play or draw").all()


# ------------------------------------------------------------------------------------ the text

@pytest.fixture(scope="module")
def moon_file(tmp_path_factory, moon_hand):
    path = tmp_path_factory.mktemp("where") / "moon.jsonl"
    path.write_text(json.dumps(moon_hand[0]) + "\n")
    return path


def _text(capsys, path, *args) -> str:
    _run(["review", str(path), "--worlds", "8", "-q", *args])
    return capsys.readouterr().out


def _section(out: str, start: str, end: str) -> list[str]:
    lines = out.splitlines()
    first = next(i for i, x in enumerate(lines) if x.startswith(start))
    last = next(i for i, x in enumerate(lines) if i > first and x.startswith(end))
    return [x for x in lines[first + 1:last] if x.strip()]


def test_text_is_one_line_a_decision_then_errors_then_seats(capsys, moon_file):
    out = _text(capsys, moon_file)
    result = review(str(moon_file), worlds=8)
    steps = result.tables["steps"]
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)
    lines = _section(out, "Every decision, one a line", "Errors, biggest loss first")
    assert lines[0].split()[:2] == ["seat", "where"] and len(lines) == 1 + len(steps)
    for line, row in zip(lines[1:], steps.itertuples()):
        assert row.where in line and line.rstrip().endswith(row.verdict) and row.chosen in line
    forced = [x for x, v in zip(lines[1:], steps["verdict"]) if v == "forced"]
    assert forced and all(re.search(r"\d\s*\[", x) is None for x in forced)      # no loss shown when forced
    errors = _section(out, "Errors, biggest loss first", "Per seat")
    wrong = steps[steps["verdict"].isin(ERRORS)].sort_values("loss", ascending=False)
    assert len(errors) == (1 + len(wrong) if len(wrong) else 1)
    for line, row in zip(errors[1:], wrong.itertuples()):
        assert row.where in line and row.verdict in line
    assert out.index("What it found:") < out.index("Every decision") < out.index("Per seat")
    assert "Every option of every decision" not in out and "taken_by" not in out


def test_errors_are_listed_biggest_loss_first():
    """A handmade steps table: the errors come out biggest loss first, the rest left out, a forced
    decision blank."""
    steps = pd.DataFrame({"hand": 0, "seat": [0, 1, 0, 1], "step": range(4),
                          "where": ["bid, 1st to speak", "trick 1, lead", "trick 2, 2nd to play", "trick 3, lead"],
                          "kind": ["bid", "play", "play", "play"], "chosen": ["5", "6-6", "3-1", "2-2"],
                          "best": ["6", "6-5", "3-1", "2-2"], "loss": [0.8, 3.1, float("nan"), 1.9],
                          "loss_low": [0.6, 2.5, float("nan"), 1.6], "loss_high": [1.0, 3.7, float("nan"), 2.2],
                          "verdict": ["inaccuracy", "mistake", "forced", "mistake"], "valued_by": "points"})
    summary = pd.DataFrame({"seat": [0], "player": ["as played: x"], "unit": ["points"], "n": [3],
                            "metric": ["total_loss"], "estimate": [5.8], "ci_low": [4.7], "ci_high": [6.9],
                            "kind": ["mean"]})
    r = Result("Moon: review of 1 hand", {"game": "moon", "valued_by": "points"},
               {"steps": steps, "decisions": pd.DataFrame({"option": ["x"]}), "summary": summary})
    out = pages.text(r)
    errors = _section(out, "Errors, biggest loss first", "Per seat")
    order = ["trick 1, lead", "trick 3, lead", "bid, 1st to speak"]
    assert len(errors) == 4 and all(where in line for where, line in zip(order, errors[1:]))
    assert "3.1 [2.5, 3.7]" in errors[1]
    forced = next(x for x in out.splitlines() if "trick 2, 2nd to play" in x)
    assert forced.split()[-3:] == ["3-1", "3-1", "forced"] and "[" not in forced
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)


def test_options_flag_adds_the_option_table(capsys, moon_file):
    out = _text(capsys, moon_file, "--options")
    assert "Every option of every decision" in out and "yardsticks' choice" in out
    assert out.index("Per seat") < out.index("Every option of every decision")
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)


def test_reports_fold_the_option_table(capsys, moon_file):
    """Markdown and HTML show the decision lines and the errors first, the option table folded at the end."""
    out = _text(capsys, moon_file, "-f", "markdown")
    assert out.index("## Decisions") < out.index("## Errors, biggest loss first") < out.index("## Per seat") \
        < out.index("<details><summary>Every option of every decision") < out.index("</details>")
    assert "| seat | where | chosen | best | loss (points) | verdict |" in out
    assert "| hand | seat | step | where | kind | option |" in out
    page = pages.html(review(str(moon_file), worlds=4))
    assert "<details><summary>Every option of every decision" in page
