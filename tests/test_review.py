"""`moonshot review` (analysis/review.py) with Moon's hook (analysis/moon_review.py): the strongest
player's own decisions are rarely mistakes and random's mostly are, forced moves are forced, the
open-hands column is the minimax's, values come from the seat's view alone, the same review for
any --jobs, bad input ends in one line with nothing written, and whole games are valued by P(win)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from moonshot import cli
from moonshot.analysis.moon_review import MARGIN, _points
from moonshot.analysis import moon_review as mr
from moonshot.analysis.review import BEST, ERRORS, Judged, review
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine import Table, play
from moonshot.simulator.moon.history import records
from moonshot.simulator.moon.rules import Rules
from moonshot.simulator.moon.views import BID_VALUES, BidView
from moonshot.strategies.base import make_strategy
from tests.test_moon_solver import minimax

WORLDS = 16


def moon_records(spec: str, hands: int, seed: int, players: int = 3) -> list[dict]:
    """`hands` hands of `spec` in every seat, as the history records simulate --history writes."""
    table = Table(players, Rules())
    strat = make_strategy("moon", spec)
    res = play(table, hands, [strat] * players, np.random.default_rng(seed), np.random.default_rng(seed + 1))
    return [json.loads(line) for line in records(res, table, [spec] * players, seed, 0)]


def chosen(result):
    d = result.tables["decisions"]
    return d[d["chosen"]]


@pytest.fixture(scope="module")
def pimc_review():
    return review(moon_records("pimc", 3, 11), worlds=WORLDS)


def test_pimc_rarely_errs_and_forced_moves_are_forced(pimc_review):
    c = chosen(pimc_review)
    free = c[c["verdict"] != "forced"]
    assert len(free) >= 30
    assert (free["verdict"].isin(ERRORS)).mean() <= 0.05
    forced = c[c["verdict"] == "forced"]
    assert len(forced) > 0 and (forced["loss"] == 0).all()
    d = pimc_review.tables["decisions"]
    assert (d.groupby(["hand", "step"])["option"].count()[forced.set_index(["hand", "step"]).index] == 1).all()


def test_random_mostly_errs():
    """Where a decision has an error among its options at all (an option whose loss clears the
    inaccuracy size), random takes one most of the time; many of its decisions have none (equal
    tiles late in a hand, a contract already sealed), so over all of them its rate is lower (19%
    here at 16 worlds) but several times pimc's (at most 5%)."""
    r = review(moon_records("random", 2, 12), worlds=WORLDS)
    d = r.tables["decisions"]
    wrong = d.groupby(["hand", "step"])["verdict"].apply(lambda v: v.isin(ERRORS).any())
    c = chosen(r).set_index(["hand", "step"])
    free = c[c["verdict"] != "forced"]
    erred = free["verdict"].isin(ERRORS)
    assert erred[wrong[free.index]].mean() > 0.5 and erred.mean() > 0.15


def test_same_review_for_any_jobs():
    recs = moon_records("threshold", 1, 13)
    a = review(recs, seats=[0], worlds=8, jobs=1).tables["decisions"]
    b = review(recs, seats=[0], worlds=8, jobs=2).tables["decisions"]
    assert a.equals(b)


def test_open_hands_column_is_the_minimax(pimc_review):
    """The last two tricks' plays: each option's open-hands value is the bidder side's tricks by
    the tests' own minimax (turned into the hand's points) with every hand as it then stood."""
    rec = moon_records("pimc", 3, 11)
    checked = 0
    for r in rec:
        if r["bidder"] is None:
            continue
        d = pimc_review.tables["decisions"]
        d = d[(d["hand"] == r["hand_id"]) & (d["kind"] == "play")]
        held = [set(tiles.parse_tiles(" ".join(h))) for h in r["hands"]]
        bidder, trump = r["bidder"], tiles.TRUMP_NAMES.index(r["trump"])
        if r["widow"] is not None:
            held[bidder] = (held[bidder] | {tiles.parse_tiles(r["widow"])[0]}) - {tiles.parse_tiles(r["discard"])[0]}
        P, rules = r["players"], Rules()
        side = {s for s in range(P) if tiles.side_of_seats(P)[s] == tiles.side_of_seats(P)[bidder]}
        steps = sorted(d["step"].unique())
        plays = r["plays"]
        offset = len(r["bids"]) + (2 if r["widow"] is not None else 1)
        leader, trick, won = bidder, [], 0
        for i, (seat, tile) in enumerate(plays):
            t = tiles.parse_tiles(tile)[0]
            step = offset + i
            if i >= len(plays) - 2 * P and step in steps:
                hands = tuple(frozenset(h) for h in held)
                _, values = minimax(hands, trump, rules, side, leader, tuple(trick))
                rows = d[(d["step"] == step) & (d["verdict"] != "forced")]
                points = _points(P, rules, r["bid"], MARGIN)        # the hand's margin for 0..7 tricks
                for _, row in rows.iterrows():
                    move = tiles.parse_tiles(row["option"])[0]
                    sign = 1 if seat in side else -1
                    assert row["open_value"] == pytest.approx(sign * points[won + values[move]])
                    checked += 1
            held[seat].discard(t)
            trick.append(t)
            if len(trick) == P:
                winner = r["trick_winners"][i // P]
                won += winner in side
                leader, trick = winner, []
    assert checked >= 4


def thrown_in(hands, widow, first=0, players=3):
    """A record where everyone passes (MOON-4.6): the deal alone, no plays."""
    rules = Rules()
    h = ref.Hand([list(x) for x in hands], widow, first, rules)
    for _ in range(players):
        h.act(ref.PASS)
    base = moon_records("threshold", 1, 14)[0]
    keep = {k: base[k] for k in ("game", "format", "rules", "seed", "players", "sides", "strategies")}
    return {**keep, "hand_id": 0, **h.record()}


def test_values_come_from_the_seat_view_alone():
    """Seat 0's bid: its values stay the same whichever way the tiles it cannot see lie among the
    other seats and the widow."""
    rng = np.random.default_rng(5)
    perm = [int(t) for t in rng.permutation(22)]
    hands, widow = [perm[0:7], perm[7:14], perm[14:21]], perm[21]
    swapped = [perm[0:7], perm[14:21], [widow] + perm[8:14]], perm[7]
    values = []
    for h, w in ((hands, widow), swapped):
        d = review([thrown_in(h, w)], seats=[0], worlds=WORLDS).tables["decisions"]
        values.append(d[d["step"] == 0][["option", "value", "diff_low", "diff_high", "loss"]])
    assert values[0].equals(values[1])


def lock_record():
    """Seat 0 holds six sixes and the 5-5 and plays sixes as trump: whatever it plays it takes
    every trick, so no plan of its own loses anything."""
    rules = Rules()
    lock = tiles.parse_tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5")
    rest = [t for t in range(22) if t not in lock]
    hands = [lock, rest[0:7], rest[7:14]]
    h = ref.Hand([list(x) for x in hands], rest[14], 0, rules)
    h.act(7)
    h.act(ref.PASS)
    h.act(ref.PASS)
    while h.phase != ref.DONE:
        if h.phase == ref.DISCARD:
            h.act(rest[14])
        elif h.phase == ref.TRUMP:
            h.act(6)
        else:
            h.act(h.legal()[0])
    base = moon_records("threshold", 1, 14)[0]
    keep = {k: base[k] for k in ("game", "format", "rules", "seed", "players", "sides", "strategies")}
    return {**keep, "hand_id": 0, **h.record()}


def test_lock_hand_loses_nothing():
    r = review([lock_record()], seats=[0], worlds=WORLDS)
    d = r.tables["decisions"]
    plays = d[(d["kind"] == "play") & (d["verdict"] != "forced")]
    assert len(plays) >= 6
    assert (plays["loss"] == 0).all() and (plays["value"] == 7).all()
    assert (plays["open_value"] == 7).all()


@pytest.mark.parametrize("args", [["--seat", "5"], ["--hand-id", "9"], ["--worlds", "1"]])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, capsys, args):
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in moon_records("threshold", 1, 15)) + "\n")
    out = tmp_path / "rep"
    code = 0
    try:
        cli.app(["review", str(path), *args, "--out", str(out), "-q"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()


def test_another_game_mixed_in_is_refused(tmp_path):
    from moonshot.simulator.errors import BadInput
    moon = moon_records("threshold", 1, 16)
    other = dict(moon[0], game="shoot-the-moon")
    with pytest.raises(BadInput):
        review(moon + [other], worlds=4)


def test_whole_games_are_judged_by_p_win():
    """Seat 2 at 0 points against 14 and 20: a bid of 5 is worth most points this hand, but only
    a made 21 gives it a real chance at the game, and the review judges by P(win) and says so."""
    rec = moon_records("pimc", 12, 40)[0]
    before = [14, 20, 0]
    after = [b + s for b, s in zip(before, rec["score"])]
    winner = ref.game_winner(after, Rules(), rec["bidder"])
    # a later hand of a game (the first starts from the rules' starting scores, 0 each)
    rec = dict(rec, game_id=0, hand_in_game=5, scores_before=before, scores_after=after, game_over=winner is not None,
               **({"winners": [winner]} if winner is not None else {}))
    r = review([rec], seats=[2], worlds=WORLDS)
    d = r.tables["decisions"]
    bid = d[(d["kind"] == "bid") & (d["step"] == 1)].set_index("option")
    assert bid["value"].idxmax() == "5" and bid["p_win"].idxmax() == "21"
    assert bid.loc["21", "best"] and not bid.loc["5", "best"] and (bid["valued_by"] == "P(win)").all()
    assert r.meta["valued_by"] == "P(win)" and any("P(win)" in note for note in r.notes)


def test_a_play_is_valued_from_the_view_alone():
    """A mid-hand play: moving unplayed tiles between the two other seats (each where that seat has
    shown no void) changes the open-hands values at most, never the values or the yardsticks."""
    rec = next(r for r in moon_records("pimc", 3, 11) if r["bidder"] is not None)
    shown, widow = mr._shown(mr._record_key(rec))
    rules, checked = Rules(), 0
    for step, (kind, view, held, choice) in enumerate(shown):
        if kind != "play" or view.trick_no not in (1, 2) or np.asarray(view.legal[0]).sum() < 2:
            continue
        seat, trump = int(view.seat[0]), int(view.trump[0])
        a, b = [s for s in range(3) if s != seat]
        void = np.asarray(view.void[0])
        fits = [(x, y) for x in held[a] for y in held[b]
                if not any(void[b][u] for u in ref.suits(x, trump, rules))
                and not any(void[a][u] for u in ref.suits(y, trump, rules))]
        if not fits:
            continue
        x, y = fits[0]
        moved = [list(h) for h in held]
        moved[a][moved[a].index(x)], moved[b][moved[b].index(y)] = y, x
        got = [mr.value("play", view, 3, rules, rec["hand_id"], step, WORLDS, 1, choice, rec.get("scores_before"),
                        held=h, widow=widow) for h in (held, moved)]
        assert np.array_equal(got[0].outcomes, got[1].outcomes) and got[0].yardstick == got[1].yardstick
        checked += 1
    assert checked >= 2


def test_review_report_and_text_formats(tmp_path, capsys):
    """--out DIR writes the report folder with its figure; -f markdown prints the tables as
    Markdown; --out FILE.html writes one page."""
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in moon_records("threshold", 1, 15)) + "\n")
    for args in (["--out", str(tmp_path / "rep")], ["-f", "markdown"], ["--out", str(tmp_path / "r.html")]):
        code = 0
        try:
            cli.app(["review", str(path), "--seat", "0", "--worlds", "4", "-q", *args])
        except SystemExit as exc:
            code = exc.code
        assert not code
    out = capsys.readouterr().out
    assert (tmp_path / "rep" / "figures" / "loss.png").exists() and (tmp_path / "rep" / "report.md").exists()
    assert "| hand | seat | step | where | kind | option |" in out
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>")


def test_a_lock_moon_is_valued_as_solved_at_four_players():
    """Four players, all seven sixes: every world solves a bid of 21 in sixes to all seven tricks, so
    the bid is worth 21 points in every world (no pimc caution taking a trick off) and is the best,
    never an error."""
    table = Table(4, Rules())
    hand = np.array([[tiles.parse_tile(x) for x in "6-6 6-5 6-4 6-3 6-2 6-1 6-0".split()]], dtype=np.int8)
    view = BidView(4, table.rules, 0, np.zeros(1, dtype=np.int64), hand, np.full((1, 4), -1),
                   np.zeros(1, dtype=np.int16), np.ones((1, len(BID_VALUES)), dtype=bool), np.zeros((1, 2)),
                   np.zeros(1, dtype=np.int64))
    d = mr.value("bid", view, 4, table.rules, 0, 0, WORLDS, 1, choice=21)
    k = d.options.index("21")
    assert (d.outcomes[:, k] == 21).all()
    assert Judged.of(d).verdict(k)[0] == BEST


def test_the_kinds_table_splits_each_seats_errors_by_decision():
    """A whole evening's questions: per seat, each kind's decisions with a choice and errors add up to
    the seat's own row of the summary, and its error rate is the mean of that kind's losses."""
    r = review(moon_records("random", 2, 12), worlds=8)
    kinds, summary, steps = r.tables["kinds"], r.tables["summary"], r.tables["steps"]
    own = summary[(summary["metric"] == "total_loss") & summary["player"].str.startswith("as played")]
    for _, row in own.iterrows():
        mine = kinds[kinds["seat"] == row["seat"]]
        assert mine["n"].sum() == row["n"]
        for col in ("inaccuracies", "mistakes", "blunders"):
            assert mine[col].sum() == row[col]
    free = steps[steps["verdict"] != "forced"]
    for (seat, kind), losses in free.groupby(["seat", "kind"])["loss"]:
        got = kinds[(kinds["seat"] == seat) & (kinds["decision"] == kind)]["estimate"].item()
        assert np.isclose(got, losses.mean())


def _first_bid_view(players: int, hand: str, position: int, bids: list[int]) -> BidView:
    table = Table(players, Rules())
    tiles_ = np.array([[tiles.parse_tile(x) for x in hand.split()]], dtype=np.int8)
    return BidView(players, table.rules, position, np.array([position]), tiles_, np.array([bids]),
                   np.array([max(bids + [0])], dtype=np.int16), np.ones((1, len(BID_VALUES)), dtype=bool),
                   np.zeros((1, table.n_sides)), np.zeros(1, dtype=np.int64))


def test_a_pass_is_valued_by_the_auction_played_on():
    """A pass is not 0: with the auction played on (the seats after it bidding as the expert) a weak
    first hand's pass costs points on average, as the defenders of someone else's contract; the
    last to speak passing after three passes throws the hand in (a redeal under the default rules):
    0 in every world."""
    weak = "2-1 3-1 4-1 5-2 4-3 5-3 3-2"
    d = mr.value("bid", _first_bid_view(3, weak, 0, [-1, -1, -1]), 3, Rules(), 0, 0, WORLDS, 1, choice=0)
    passing = d.outcomes[:, d.options.index("pass")]
    assert passing.mean() < -0.5 and (passing != 0).any()
    last = mr.value("bid", _first_bid_view(4, weak, 3, [0, 0, 0, -1]), 4, Rules(), 0, 0, WORLDS, 1, choice=0)
    assert (last.outcomes[:, last.options.index("pass")] == 0).all()


def test_a_seat_played_by_two_players_in_one_file_gets_a_summary_row_and_sentence_each():
    """Issue 37 item 4: per player as the file names them (its records' strategies), not the first hand's."""
    others = [{**r, "hand_id": 10 + i} for i, r in enumerate(moon_records("greedy", 2, 5))]
    records = moon_records("random", 2, 1) + others
    res = review(records, seats=[0], worlds=8)
    played = res.tables["summary"]
    played = played[(played["metric"] == "total_loss") & played["player"].str.startswith("as played")]
    assert sorted(played["player"]) == ["as played: greedy", "as played: random"]
    said = [f for f in res.findings if f.startswith("Seat 0 (as played")]
    assert len(said) == 2 and {s.split(")")[0] for s in said} == {"Seat 0 (as played: greedy",
                                                                  "Seat 0 (as played: random"}
