"""`moonshot review`'s hooks for the card games (issue 27): Shoot the Moon (analysis/shoot_the_moon_review.py)
and Hit the Deck (analysis/hit_the_deck_review.py). Values come from the seat's own view (swapping cards it
cannot see changes none), the strongest player's own choices are rarely mistakes and random's far more often,
forced moves cost nothing, the same seed gives the same values however the decisions are split, and the
P(win) valuation of whole games can rank the options otherwise than the unit."""
import copy
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonshot import cli
from moonshot.analysis import hit_the_deck_review as htd_review
from moonshot.analysis import shoot_the_moon_review as stm_review
from moonshot.analysis.review import ERRORS, review, whole_result
from moonshot.simulator.shoot_the_moon import cards as stm_deck

# worlds of the error-rate test: each game's default (Shoot the Moon 64, Hit the Deck 128: at 32 a Hit the
# Deck hand's penalty points are too noisy to grade most of random's losses, 7% errors against 13% at 128)
WORLDS = {"shoot-the-moon": None, "hit-the-deck": None}

# Found in a 3-player odd self-play game (seed 21, game 59: its 8th round, written here as its game's first
# line so that the record stands alone): seat 2 has 6 chips of the 7 it needs and leads R7; seat 1 (5 chips)
# takes the trick with R10 for the most chips, but dropping its Little Moon on seat 2's trick (-1 chip for
# seat 2) keeps seat 2 from winning the game.
STM_LAST_ROUNDS = json.loads(
    '{"game": "shoot-the-moon", "format": 1, "rules": {"stm.partnership_trick_count": "team_total", '
    '"stm.six_player_teams": "two_teams_of_three", "stm.moon_chip_netting": "net_per_trick", "stm.chip_supply": '
    '"unlimited", "stm.dummy_mode": "blind_stack", "stm.little_moon_lead_trumps": false, "stm.target_chips": 7, '
    '"stm.starting_chips": 2, "stm.revoke_model": "off", "stm.revoke_keep_hand_chips": false}, "seed": 21, '
    '"players": 3, "sides": [0, 1, 2], "strategies": ["odd", "odd", "odd"], "hand_id": 590007, "dealer": 1, '
    '"hands": [["B2", "G5", "P7", "P9", "G11"], ["LM", "G6", "P6", "R2", "R10"], ["G2", "G7", "R1", "R4", "R7"]], '
    '"plays": [[2, "R7"], [0, "B2"], [1, "R10"], [1, "LM"], [2, "G2"], [0, "G5"], [0, "P7"], [1, "P6"], '
    '[2, "R1"], [2, "G7"], [0, "G11"], [1, "G6"], [0, "P9"], [1, "R2"], [2, "R4"]], "trick_winners": '
    '[1, 0, 2, 0, 2], "chips_before": [2, 5, 6], "chips_after": [1, 6, 6], "tricks": [2, 1, 2], "moon_chips": '
    '[-1, 0, 0], "round_chips": [0, 1, 0], "annulled": false, "scores_before": [2, 5, 6], "scores_after": '
    '[1, 6, 6], "game_id": 59, "hand_in_game": 7, "game_over": false}')


def _simulate(path, game, n, strategy, *extra):
    try:
        cli.app(["simulate", game, "--hands", str(n), "--seed", "9", "-s", strategy, "--history", str(path), "-q",
                 "-f", "json", "-o", str(path) + ".json", *extra])
    except SystemExit as exc:
        assert not exc.code
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Histories: each game played by its strongest player (rollout) and by random."""
    d = tmp_path_factory.mktemp("review_cards")
    sizes = {("shoot-the-moon", "rollout"): 12, ("shoot-the-moon", "random"): 12, ("hit-the-deck", "rollout"): 4,
             ("hit-the-deck", "random"): 10}
    return {(game, s): (d / f"{game}-{s}.jsonl", _simulate(d / f"{game}-{s}.jsonl", game, n, s))
            for (game, s), n in sizes.items()}


def _chosen(result):
    rows = result.tables["decisions"]
    return rows[rows["chosen"]]


# ------------------------------------------------------------------------------------ mistakes

@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_rollout_rarely_errs_and_random_errs_far_more(game, played):
    rates = {}
    for strategy in ("rollout", "random"):
        chosen = _chosen(review(str(played[game, strategy][0]), worlds=WORLDS[game], seed=3))
        free = chosen[chosen["verdict"] != "forced"]
        assert len(free) >= 40
        rates[strategy] = (free["verdict"].isin(ERRORS).mean(), (free["verdict"] == "best").mean())
    assert rates["rollout"][0] <= 0.05, rates
    # random's choices are mistakes several times as often, and the best option (a tie counts as the
    # best) in well under half of its free decisions: many of its choices are ties or too close to tell
    # on these worlds, so "most of random's decisions are mistakes" does not hold (see the report)
    assert rates["random"][0] >= max(3 * rates["rollout"][0], 0.1), rates
    assert rates["random"][1] < 0.5, rates


@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_forced_moves_are_marked_forced_and_cost_nothing(game, played):
    hook = {"shoot-the-moon": stm_review, "hit-the-deck": htd_review}[game]
    record = played[game, "random"][1][0]
    found = hook.decisions(record, set(range(record["players"])), 4, 1)
    forced = [d for d in found if d.forced]
    assert forced and all(d.outcomes.shape == (0, 1) and d.chosen == 0 for d in forced)
    chosen = _chosen(review(str(played[game, "random"][0]), hand_ids=[record["hand_id"]], worlds=4, seed=1))
    rows = chosen[chosen["verdict"] == "forced"]
    assert len(rows) == len(forced) and (rows["loss"] == 0).all()


# ------------------------------------------------------------------------------------ the seat's view

def _stm_swap(record, step):
    """The record with two unseen cards of one suit (or two Moon cards) swapped between two other
    seats at `step` (neither played before it), its plays cut after `step`: no shown void changes."""
    mover = record["plays"][step][0]
    played = {(s, c) for s, c in record["plays"][:step]}
    others = [s for s in range(record["players"]) if s != mover]
    suit = lambda c: min(stm_deck.SUIT[stm_deck.parse_card(c)], 4)      # noqa: E731 (Moons alike)
    for a in others:
        for b in others:
            for i, x in enumerate(record["hands"][a]):
                for j, y in enumerate(record["hands"][b]):
                    if a < b and x != y and suit(x) == suit(y) and (a, x) not in played and (b, y) not in played:
                        out = copy.deepcopy(record)
                        out["hands"][a][i], out["hands"][b][j] = y, x
                        out["plays"] = out["plays"][:step + 1]
                        return out
    return None


def test_stm_values_read_no_unseen_card(played):
    checked = 0
    for record in played["shoot-the-moon", "rollout"][1]:
        for step in (6, 9, 12):
            swapped = _stm_swap(record, step)
            mover = record["plays"][step][0]
            if swapped is None or swapped["hands"] == record["hands"]:
                continue
            a = stm_review.decisions(record, {mover}, 16, 5, steps=[step])
            b = stm_review.decisions(swapped, {mover}, 16, 5, steps=[step])
            assert len(a) == len(b) == 1
            assert np.array_equal(a[0].outcomes, b[0].outcomes) and a[0].options == b[0].options
            checked += not a[0].forced
    assert checked >= 5


def test_htd_values_read_no_unseen_card(played):
    checked = 0
    for record in played["hit-the-deck", "rollout"][1]:
        step, view, options, _ = htd_review.positions(record, stop=1)[0]
        mover = int(view.seat[0])
        a, b = [s for s in range(record["players"]) if s != mover][:2]
        swapped = copy.deepcopy(record)
        i = next(i for i, x in enumerate(record["hands"][a]) if x not in record["hands"][b])
        swapped["hands"][a][i], swapped["hands"][b][0] = record["hands"][b][0], record["hands"][a][i]
        one = htd_review.decisions(record, {mover}, 16, 5, steps=[step])
        two = htd_review.decisions(swapped, {mover}, 16, 5, steps=[step])
        assert one[0].options == two[0].options
        assert np.array_equal(one[0].outcomes, two[0].outcomes)
        checked += len(options) > 1
    assert checked >= 2


# ------------------------------------------------------------------------------------ same seed, same values

@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_same_seed_same_values_however_split(game, played):
    """A worker valuing one step (--jobs) gets the numbers of the whole hand's run."""
    hook = {"shoot-the-moon": stm_review, "hit-the-deck": htd_review}[game]
    record = played[game, "rollout"][1][1]
    seats = {0, 1}
    whole = hook.decisions(record, seats, 8, 7)
    assert [d.step for d in whole] == hook.decision_steps(record, seats)
    again = hook.decisions(record, seats, 8, 7)
    for d in whole[::3]:
        alone = hook.decisions(record, seats, 8, 7, steps=[d.step])
        assert len(alone) == 1 and np.array_equal(alone[0].outcomes, d.outcomes)
    assert all(np.array_equal(x.outcomes, y.outcomes) for x, y in zip(whole, again))
    other = hook.decisions(record, seats, 8, 8)
    assert any(not np.array_equal(x.outcomes, y.outcomes) for x, y in zip(whole, other) if not x.forced)


# ------------------------------------------------------------------------------------ yardsticks, slaps

def test_yardsticks_name_the_heuristics_and_odd_reads_its_own_play(tmp_path):
    records = _simulate(tmp_path / "odd.jsonl", "shoot-the-moon", 3, "odd")
    for record in records:
        for d in stm_review.decisions(record, {0, 1, 2, 3}, 2, 1):
            assert set(d.yardstick) == {"odd", "greedy"} and d.yardstick["odd"] == d.chosen


def test_slaps_are_timed_against_the_profile(played):
    record = next(r for r in played["hit-the-deck", "random"][1] if any(e[0] == "slap" for e in r["events"]))
    rows = htd_review.slaps(record, {0, 1, 2, 3})
    races = [e for e in record["events"] if e[0] == "slap" and e[2]]
    assert len([r for r in rows if r["ms"] is not None]) == sum(x is not None for e in races for x in e[3])
    adult = 300 + 80 + 200 + 0.02 * 800          # mu + tau + move_mu + p_lapse * lapse_mean (RULES.md §C.14)
    assert all(r["profile_ms"] == adult for r in rows if r["role"] == "racer")
    assert {r["drew_4"] for r in rows} <= {True, False}
    assert sum(r["drew_4"] for r in rows if r["ms"] is not None) == sum(e[4] is not None for e in races)


# ------------------------------------------------------------------------------------ P(win)

def _clears(x) -> bool:
    return x.mean() - 1.96 * x.std(ddof=1) / np.sqrt(len(x)) > 0


def test_stm_best_by_p_win_differs_from_best_by_chips():
    # 256 worlds: with uniform worlds (issue 36) R10's edge in chips is 0.21 (0.33 before), which 64 do not separate
    d = stm_review.decisions(STM_LAST_ROUNDS, {1}, 256, 1, steps=[2])[0]
    assert d.options == ["LM", "R2", "R10"] and d.chosen == 2
    by_chips, by_win = int(np.argmax(d.outcomes.mean(axis=0))), int(np.argmax(d.win.mean(axis=0)))
    assert (d.options[by_chips], d.options[by_win]) == ("R10", "LM")
    assert _clears(d.outcomes[:, by_chips] - d.outcomes[:, by_win]) and _clears(d.win[:, by_win] - d.win[:, by_chips])
    rows = review(STM_LAST_ROUNDS, seats=[1], worlds=64, seed=1).tables["decisions"]
    step = rows[rows["step"] == 2]
    assert (step["valued_by"] == "P(win)").all()
    assert step.loc[step["best"], "option"].tolist() == ["LM"]
    assert step.loc[step["chosen"], "verdict"].item() in ("mistake", "blunder")


def test_htd_best_by_p_win_differs_from_best_by_points():
    """Seat 3 (50 points) trails seat 1 (26) late in a hand that ends the game (htd.target_score=1, so the
    lowest total after it wins): BFLIP keeps its points lowest (about 3 against 9 for B5), but only a
    big swing can still win, and B5, which keeps the hand going, wins more often. (Hand 7 of 12 random
    self-play hands, seed 9, with these totals and target; its events cut after the decision.)"""
    record = json.loads((Path(__file__).parent / "golden" / "htd_review_behind.json").read_text())
    d = htd_review.decisions(record, {3}, 4096, 1, steps=[25])[0]
    assert d.options == ["B5", "BFLIP"] and not d.higher_better
    by_points, by_win = int(np.argmin(d.outcomes.mean(axis=0))), int(np.argmax(d.win.mean(axis=0)))
    assert (d.options[by_points], d.options[by_win]) == ("BFLIP", "B5")
    assert _clears(d.outcomes[:, by_win] - d.outcomes[:, by_points]) and _clears(d.win[:, by_win] - d.win[:, by_points])


def test_a_total_loss_does_not_drift_as_worlds_grow(tmp_path):
    """The winner's curse: measured against the best of noisy means on the same worlds, the total loss
    of six random Hit the Deck hands (all seats) was 151 points at 128 worlds against 123 at 2,048
    (gap 28 > 20.5 allowed); against the best of the other worlds (leave one out) the totals agree
    within their intervals (119 and 107)."""
    path = tmp_path / "h.jsonl"
    _simulate(path, "hit-the-deck", 6, "random")
    totals = []
    for worlds in (128, 2048):
        s = review(str(path), worlds=worlds, seed=3).tables["summary"]
        seats = s[(s["metric"] == "total_loss") & s["player"].str.startswith("as played")]
        totals.append((seats["estimate"].sum(), np.sqrt((((seats["ci_high"] - seats["ci_low"]) / 3.92) ** 2).sum())))
    (small, se_small), (big, se_big) = totals
    assert abs(small - big) <= 1.96 * np.hypot(se_small, se_big), totals


@given(st.lists(st.integers(-3, 3), min_size=2, max_size=6))
def test_a_sides_whole_result_counts_what_the_others_lose(gains):
    """Issue 37 item 0: the unit is the side's whole result, its own less the others' mean: a chip
    another side loses (or a penalty point it takes) counts for the mover; the results sum to zero."""
    g = np.array(gains, dtype=float)
    each = np.array([whole_result(g, s) for s in range(len(g))])
    assert abs(each.sum()) < 1e-9
    others_lose = g.copy()
    others_lose[1] -= 1                        # another side loses a chip (a Little Moon on its trick)
    assert whole_result(others_lose, 0) == pytest.approx(whole_result(g, 0) + 1 / (len(g) - 1))


@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_change_from_best_has_one_sign_in_every_game(game, played):
    """Issue 37 item 0: 'change from best' is in the mover's favour everywhere, so a worse option
    reads negative in chips and in penalty points alike (it read +3 penalty points for a worse card)."""
    rows = review(str(played[game, "random"][0]), hand_ids=[0], worlds=WORLDS[game], seed=3).tables["decisions"]
    cost = -1 if game == "hit-the-deck" else 1
    for _, d in rows.groupby(["hand", "seat", "step"]):
        best = d[d["best"]].iloc[0]
        assert best["diff"] == 0
        worse = cost * (d["value"] - best["value"]) < -1e-9
        assert (d.loc[worse, "diff"] < 0).all()
