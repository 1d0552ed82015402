"""Moon on the command line: simulate, the hand analyzer, analyses, histories and bad input."""
import json

import pytest

from moonshot.simulator.games import GAMES
from tests.test_cli import run


def test_simulate_moon_hands_and_games(capsys):
    code, out, _ = run(["simulate", "moon", "-n", "3000", "-f", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    made = [r for r in data["tables"]["contracts"] if r["metric"] == "p_make"]
    assert made and all(0 <= r["ci_low"] <= r["estimate"] <= r["ci_high"] <= 1 for r in made)
    code, out, _ = run(["simulate", "moon", "--games", "200", "-p", "4", "-f", "json"], capsys)
    wins = [r["estimate"] for r in json.loads(out)["tables"]["games"]]
    assert len(wins) == 2 and abs(sum(wins) - 1) < 0.02              # two teams; a game may not finish


def test_hand_analyzer_table(capsys):
    code, out, _ = run(["hand", "moon", "--hand", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "--samples", "3000",
                        "--seat-order", "first", "--check-samples", "0", "-f", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    grid = data["tables"]["trump_by_bid"]
    trumps = {r["trump"] for r in grid}
    assert trumps == {"blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "doubles", "no trump"}
    six = {(r["bid"], r["metric"]): r["estimate"] for r in grid if r["trump"] == "sixes"}
    assert six[(4, "p_make")] >= six[(5, "p_make")] >= six[(6, "p_make")] >= six[(7, "p_make")]
    assert six[(7, "p_make")] > 0.95                 # four sixes with 6-6 and three doubles: a near-certain 7
    best = data["tables"]["best_bid"][0]
    assert best["trump"] == "sixes" and best["bid"] == 21
    outbid = {r["bid"]: r["estimate"] for r in data["tables"]["outbid"]}
    assert outbid[4] >= outbid[5] >= outbid[6] >= outbid[7]
    assert outbid[21] == 0                           # speaking first, nobody can bid over a 21


@pytest.mark.parametrize("hand,needle", [
    ("6-6 6-5 6-4 6-2 5-5 3-3", "7"),                       # six tiles
    ("6-6 6-5 6-4 6-2 5-5 3-3 3-3", "twice"),
    ("6-6 6-5 6-4 6-2 5-5 3-3 0-3", "3-0 is not in the 22-tile set"),
    ("6-6 6-5 6-4 6-2 5-5 3-3 7-1", "7-1"),
    ("6-6 6-5 6-4 6-2 5-5 3-3 banana", "banana"),
])
def test_malformed_hands_are_one_line_errors(hand, needle, capsys):
    code, out, err = run(["hand", "moon", "--hand", hand, "--samples", "100"], capsys)
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args,needle", [
    (["hand", "moon", "--hand", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "--seat-order", "early"], "--seat-order"),
    (["simulate", "moon", "-p", "5"], "5"),
    (["simulate", "moon", "-p", "3", "--partners"], "--partners"),
    (["simulate", "moon", "-r", "moon.min_bid=9"], "moon.min_bid"),
    (["simulate", "moon", "-r", "moon.tile_set=full28"], "full28"),
    (["simulate", "moon", "-s", "threshold:margin=abc"], "margin"),
    (["analyze", "moon", "widow-value", "-p", "4", "-n", "100"], "widow"),
    (["hand", "shoot-the-moon", "--hand", "R1 R2"], "moon"),
])
def test_moon_bad_input(args, needle, capsys):
    code, out, err = run(args, capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_moon_history_and_replay(tmp_path, capsys):
    hist = tmp_path / "m.jsonl"
    code, _, _ = run(["simulate", "moon", "-n", "20", "--history", hist, "-q", "-f", "json"], capsys)
    assert code == 0
    records = [json.loads(line) for line in hist.read_text().splitlines()]
    assert len(records) == 20 and records[0]["game"] == "moon"
    played = next(r for r in records if r["bidder"] is not None)
    code, out, _ = run(["replay", hist, "--hand-id", played["hand_id"]], capsys)
    assert code == 0 and out.count("trick") >= 7


@pytest.mark.parametrize("analysis", ["bid-success", "widow-value", "seat-advantage"])
def test_moon_analyses(analysis, capsys):
    code, out, _ = run(["analyze", "moon", analysis, "-n", "4000", "-f", "json"], capsys)
    assert code == 0
    tables = json.loads(out)["tables"]
    assert tables and all(r["n"] > 0 for rows in tables.values() for r in rows if "n" in r)


def test_bid_success_calibration_and_classes(capsys):
    code, out, _ = run(["analyze", "moon", "bid-success", "-n", "20000", "-f", "json"], capsys)
    tables = json.loads(out)["tables"]
    cal = [r for r in tables["calibration"] if r["metric"] == "p_make"]
    assert cal and all(r["strategy"] == GAMES["moon"].default_strategy for r in cal)   # the bidder in every seat
    by_class = [r for r in tables["by_class"] if r["metric"] == "p_make" and r["bid"] == 5 and r["n"] > 300]
    more_trumps = sorted(by_class, key=lambda r: r["trump_tiles"])
    assert more_trumps[-1]["estimate"] > more_trumps[0]["estimate"]    # more trumps, more makes


def test_moon_compare_and_whatif(capsys):
    code, out, _ = run(["compare", "moon", "-s", "threshold", "--vs", "random", "-n", "3000", "-f", "json"], capsys)
    rows = {r["metric"]: r for r in json.loads(out)["tables"]["match"]}
    assert rows["d_score"]["ci_low"] > 0
    code, out, _ = run(["whatif", "moon", "-r", "moon.min_bid=3", "-n", "3000", "-s", "threshold:margin=1.5",
                        "-f", "json"], capsys)
    rows = {(r["seat"], r["metric"]): r for r in json.loads(out)["tables"]["seats"]}
    assert rows[(0, "d_thrown_in")]["estimate"] < 0        # a lower minimum bid throws in fewer hands




def test_solve_prints_best_play_and_json_carries_integer_tricks(capsys):
    hands = "6-6 6-5 4-1 3-3 / 5-5 5-2 5-3 1-1 / 6-4 4-4 3-1 2-2"
    code, out, err = run(["solve", "moon", "-p", "3", "--hands", hands, "--trump", "6", "-f", "json"], capsys)
    assert code == 0, err
    sol = json.loads(out)["tables"]["solution"][0]
    assert isinstance(sol["tricks"], int) and 0 <= sol["tricks"] <= 4
    moves = json.loads(out)["tables"]["moves"]
    assert max(m["tricks"] for m in moves) == sol["tricks"]          # the bidder leads: its best move
    code, _, err = run(["solve", "shoot-the-moon", "--hands", "R1", "--trump", "6"], capsys)
    assert code == 2 and "no solver for shoot-the-moon" in err


def test_tournament_ranks_every_entrant(capsys):
    code, out, err = run(["tournament", "moon", "-s", "threshold", "-s", "random", "--games", "40", "-f", "json",
                          "-q"], capsys)
    assert code == 0, err
    ratings = json.loads(out)["tables"]["ratings"]
    assert {r["strategy"] for r in ratings} == {"threshold", "random"}
    code, _, err = run(["tournament", "moon", "-s", "threshold", "--games", "10"], capsys)
    assert code == 2 and "at least two" in err
