"""Luck and skill in `moonshot review` (analysis/luck.py, issue 37 item 3): result = expected + luck - loss
holds exactly for every seat of random hands of each game, the value path telescopes, a laydown dealt is
luck (Moon, Shoot the Moon, Hit the Deck) and a thrown trick is skill (Moon)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshot import cli
from moonshot.analysis import hit_the_deck_review as htd_review
from moonshot.analysis import luck
from moonshot.analysis.moon_review import SIZES
from moonshot.analysis.review import Decision, Judged, review
from moonshot.simulator.hit_the_deck import cards as htd_cards
from moonshot.simulator.hit_the_deck import reference as htd_ref
from moonshot.simulator.hit_the_deck.profiles import seat_profiles
from moonshot.simulator.hit_the_deck.reference_chance import RandomChance
from moonshot.simulator.hit_the_deck.rules import parse_rules as htd_rules
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.rules import Rules
from moonshot.simulator.shoot_the_moon import cards as stm_cards
from moonshot.simulator.shoot_the_moon import reference as stm_ref
from moonshot.simulator.shoot_the_moon.rules import parse_rules as stm_rules
from tests.test_review import moon_records
from tests.test_review_cards import _simulate

COMMON = ("game", "format", "rules", "seed", "players", "sides", "strategies")


def _gain(rows):
    """+1 where the unit is a gain, -1 for penalty points (the luck table's native unit is the game's)."""
    return np.where(rows["unit"] == "penalty points", -1.0, 1.0)


def _check_identity(result):
    """Every row: result = expected + luck - loss in the gain's sign (exactly, up to float rounding); each
    hand's value path starts at the expected, ends at the result, and its segments and losses add up to
    the hand's luck and loss; the 'all' rows are the sums of the hands'."""
    table, values = result.tables["luck"], result.tables["values"]
    assert list(table.columns) == luck.LUCK_COLUMNS and list(values.columns) == luck.VALUE_COLUMNS
    g = _gain(table)
    assert np.allclose(g * table["result"], g * table["expected"] + table["luck"] - table["loss"], rtol=0, atol=1e-9)
    assert np.allclose(table["adjusted"], table["result"] - g * table["luck"], rtol=0, atol=1e-9)
    hands = table[[not isinstance(h, str) for h in table["hand"]]]
    assert len(hands) and (hands["luck_low"] <= hands["luck"]).all() and (hands["luck"] <= hands["luck_high"]).all()
    for (hand, seat), path in values.groupby(["hand", "seat"], sort=False):
        row = hands[(hands["hand"] == hand) & (hands["seat"] == seat)].iloc[0]
        first, last = path.iloc[0], path.iloc[-1]
        assert (first["where"], first["step"], first["value"]) == ("dealt", -1, row["expected"])
        assert last["where"] == "result" and last["value"] == row["result"] and last["step"] > path["step"].iloc[-2]
        assert path["step"].is_monotonic_increasing
        assert np.isclose(path["luck"].sum(), row["luck"], atol=1e-9)
        assert np.isclose(path["loss"].sum(), row["loss"], atol=1e-9)
    for seat, mine in hands.groupby("seat"):
        total = table[(table["hand"] == luck.ALL) & (table["seat"] == seat)].iloc[0]
        for col in ("result", "expected", "luck", "loss", "adjusted"):
            assert np.isclose(total[col], mine[col].sum(), atol=1e-9)


# ------------------------------------------------------------------------------------ the identity

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(2, 6), st.integers(2, 4), st.integers(0, 10**6)), min_size=0, max_size=5),
       st.floats(-20, 20), st.floats(-5, 5))
def test_the_path_telescopes(decisions, result, start):
    """Any decisions (worlds x options of any values, any choice): the segments of the value path add
    up to result - expected + the summed loss, so result = expected + luck - loss."""
    judged = []
    for step, (worlds, options, seed) in enumerate(decisions):
        rng = np.random.default_rng(seed)
        d = Decision(0, 0, step, "play", [str(k) for k in range(options)], int(rng.integers(options)),
                     rng.normal(0, 3, (worlds, options)).round(1), "points")
        judged.append(Judged.of(d))
    points, end, loss = luck._path(judged, luck.Est(start, 0.1), result)
    luck_total = sum(p["luck"].m for p in points) + end.m
    assert np.isclose(result, start + luck_total - loss.m, atol=1e-9)
    split, adjusted = luck._split(result, luck.Est(start, 0.1), loss)
    assert np.isclose(split.m, luck_total, atol=1e-9) and np.isclose(adjusted.m, result - split.m, atol=1e-9)
    assert np.isclose(loss.m, sum(j.loss(j.decision.chosen).mean() for j in judged), atol=1e-9)


def test_identity_on_random_moon_hands():
    _check_identity(review(moon_records("random", 2, 21), worlds=4, seed=2))


@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_identity_on_random_card_hands(game, tmp_path):
    path = tmp_path / "h.jsonl"
    _simulate(path, game, 2, "random")
    _check_identity(review(str(path), worlds=4, seed=2))


def test_whole_games_get_a_row_per_game(tmp_path):
    """Whole-games records: a row per game and seat beside the file's total, in the hand's unit (not
    P(win)), the identity holding in each."""
    path = tmp_path / "g.jsonl"
    try:
        cli.app(["simulate", "shoot-the-moon", "--games", "2", "--seed", "9", "-s", "random", "--history", str(path),
                 "-q", "-f", "json", "-o", str(tmp_path / "g.json")])
    except SystemExit as exc:
        assert not exc.code
    r = review(str(path), seats=[1], worlds=2, seed=2)
    _check_identity(r)
    table = r.tables["luck"]
    games = table[table["hand"].astype(str).str.startswith("game ")]
    assert len(games) == 2 and (games["unit"] == "chips").all()
    assert np.isclose(games["result"].sum(), table[table["hand"] == luck.ALL]["result"].item())


# ------------------------------------------------------------------------------------ a laydown is luck

def _moon_record(hands, widow, first, players, acts):
    """A Moon record played through the reference: `acts(hand)` answers every question."""
    h = ref.Hand([list(x) for x in hands], widow, first, Rules())
    while h.phase != ref.DONE:
        h.act(acts(h))
    base = moon_records("threshold", 1, 14, players)[0]
    return {**{k: base[k] for k in COMMON}, "hand_id": 0, **h.record()}


def _row(result, seat, hand=0):
    t = result.tables["luck"]
    return t[(t["hand"] == hand) & (t["seat"] == seat)].iloc[0]


def test_a_moon_laydown_is_luck():
    """Four players, seat 0 dealt all seven sixes: it bids 21 and takes every trick whatever it plays.
    Its result is the deal's luck (clear of zero); its choices lose nothing."""
    sixes = tiles.parse_tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0")
    rest = [t for t in range(28) if t not in sixes]

    def acts(h):
        if h.phase == ref.BIDDING:
            return 21 if h.to_move() == 0 else ref.PASS
        return 6 if h.phase == ref.TRUMP else h.legal()[0]
    rec = _moon_record([sixes, rest[0:7], rest[7:14], rest[14:21]], None, 0, 4, acts)
    r = review([rec], seats=[0], worlds=8, seed=1)
    row = _row(r, 0)
    assert row["result"] == 21 and row["luck_low"] > 15 and abs(row["luck"] - (21 - row["expected"])) < 0.5
    assert abs(row["loss"]) < 0.1 and row["loss_low"] <= 0.1
    deal = r.tables["values"].iloc[1]         # the bid: the deal's segment is nearly all the luck
    assert deal["where"].startswith("bid") and deal["luck_low"] > 15


def test_a_shoot_the_moon_laydown_is_luck(tmp_path):
    """Seat 0 leads the first trick holding both Big Moons and the three top rockets: it takes all five
    tricks (a shoot, +2 chips, and +1 for each Big Moon) whatever it plays: luck clear of zero."""
    base = _simulate(tmp_path / "s.jsonl", "shoot-the-moon", 1, "random")[0]
    rules = stm_rules()
    mine = [stm_cards.parse_card(c) for c in ("BM", "R12", "R11", "R10")] + [49]      # the second Big Moon
    rest = [c for c in np.random.default_rng(3).permutation(52).tolist() if c not in mine]
    rnd = stm_ref.Hand(4, False, rules, 3, [mine, rest[0:5], rest[5:10], rest[10:15]], [2, 2, 2, 2])
    while not rnd.done:
        rnd.play(rnd.legal()[0])
    names = stm_cards.card_name
    rec = {**{k: base[k] for k in COMMON}, "hand_id": 0, "dealer": 3,
           "hands": [[names(c) for c in h] for h in rnd.dealt],
           "plays": [[s, names(c)] for s, c in rnd.plays], "trick_winners": rnd.trick_winners,
           "chips_before": rnd.chips_before, "chips_after": rnd.chips_after, "tricks": rnd.tricks,
           "moon_chips": rnd.moon_chips, "round_chips": rnd.round_chips, "annulled": rnd.annulled}
    assert rnd.trick_winners == [0] * 5
    r = review([rec], seats=[0], worlds=8, seed=1)
    _check_identity(r)
    row = _row(r, 0)
    assert row["result"] >= 2 and row["luck_low"] > 1 and abs(row["loss"]) < 0.2


def test_a_hit_the_deck_run_of_luck_is_luck(tmp_path):
    """Two players: seat 0 (first to play) holds seven reds of 1 and 2 on a red start card, and each card
    seat 1 draws matches nothing: seat 0 plays out in seven turns. Its 0 penalty points against the
    expected ones are luck (the deal and seat 1's draws), clear of zero; its choices (the 2s first, so that
    a hand caught short holds 1s) cannot be told to cost anything."""
    base = _simulate(tmp_path / "h.jsonl", "hit-the-deck", 1, "random", "-p", "2")[0]
    rules = htd_rules([], 2)
    card = htd_cards.parse_card
    hands = [[card(c) for c in "R1 R1 R1 R1 R2 R2 R2".split()], [card(c) for c in "G3 G4 G5 B3 B4 B5 Y3".split()]]
    top = [card(c) for c in "R3 G4 B3 Y4 G5 B4 Y5".split()]
    counts = htd_cards.deck_counts(rules)
    rest = [k for k in range(htd_cards.N_KINDS) for _ in range(counts[k])]
    for c in [x for h in hands for x in h] + top:
        rest.remove(c)
    rng = np.random.default_rng(4)
    pile = top + [rest[i] for i in rng.permutation(len(rest))]
    profiles = seat_profiles(["adult"], 2)
    hand = htd_ref.Hand(1, hands, pile, rules, profiles, lambda view, legal: max(legal),       # the 2s first
                        RandomChance(rng, rules, profiles)).play()
    rec = {**{k: base[k] for k in COMMON}, "hand_id": 0, **hand.record()}
    assert rec["went_out"] == 0
    r = review([rec], seats=[0], worlds=8, seed=1)
    _check_identity(r)
    row = _row(r, 0)
    # its whole result: 0 penalty points less the other seat's; its choices' cost not told from zero
    assert row["result"] == -rec["score"][1] < 0 and row["luck_low"] > 1 and row["loss_low"] <= 0
    assert htd_review.result(rec, 1) == rec["score"][1] > 0


# ------------------------------------------------------------------------------------ a thrown trick is skill

# Hand 3 of twelve expert self-play hands (three players, seed 31): seat 2 bid 5 in threes. At trick 2, last
# to play on 0-0 and 5-1, it can take the trick with 3-1 (a trump) but plays 1-1 (THROWN); every move after
# that is the exact solver's with the hands open, so nothing after the throw is luck. RIGHT: as played.
MOON_DEAL = {"hand_id": 3, "first_bidder": 1, "hands": [["2-1", "3-2", "4-1", "6-5", "0-0", "6-2", "3-3"],
             ["4-2", "5-4", "5-5", "6-6", "4-4", "5-1", "6-1"], ["3-1", "6-3", "1-1", "4-3", "5-3", "2-2", "6-4"]],
             "widow": "5-2", "bids": [[1, 4], [2, 5], [0, "pass"]], "bidder": 2, "bid": 5, "discard": "6-4",
             "trump": "3"}
THROWN = {"plays": [[2, "6-3"], [0, "3-3"], [1, "4-2"], [0, "0-0"], [1, "5-1"], [2, "1-1"], [0, "3-2"], [1, "4-4"],
                    [2, "4-3"], [2, "2-2"], [0, "2-1"], [1, "5-4"], [2, "3-1"], [0, "4-1"], [1, "5-5"], [2, "5-2"],
                    [0, "6-5"], [1, "6-1"], [0, "6-2"], [1, "6-6"], [2, "5-3"]],
          "trick_winners": [0, 0, 2, 2, 2, 0, 2], "tricks": [3, 0, 4], "score": [3, 0, -5]}
RIGHT = {"plays": [[2, "6-3"], [0, "3-3"], [1, "4-2"], [0, "0-0"], [1, "5-1"], [2, "3-1"], [2, "1-1"], [0, "2-1"],
                   [1, "6-1"], [2, "2-2"], [0, "6-2"], [1, "4-4"], [2, "4-3"], [0, "3-2"], [1, "5-4"], [2, "5-2"],
                   [0, "6-5"], [1, "5-5"], [1, "6-6"], [2, "5-3"], [0, "4-1"]],
         "trick_winners": [0, 2, 2, 2, 2, 1, 2], "tricks": [1, 1, 5], "score": [1, 1, 5]}
THROW_STEP = 10           # 3 bids, the discard, the trump, then the sixth play


def test_a_thrown_trick_is_skill_not_luck():
    """The throw's loss is clear of the mistake size and counted as skill; the luck after it is nothing
    (every later move is best play), the luck before it is the same as in the hand played right, and the
    result is lower than the right one's by about the throw's loss."""
    base = {k: moon_records("threshold", 1, 14)[0][k] for k in COMMON}
    got = {}
    for name, plays in (("thrown", THROWN), ("right", RIGHT)):
        r = review([{**base, **MOON_DEAL, **plays}], seats=[2], worlds=16, seed=5)
        _check_identity(r)
        got[name] = (_row(r, 2, 3), r.tables["values"].set_index("step"))
    (thrown, path), (right, right_path) = got["thrown"], got["right"]
    throw = path.loc[THROW_STEP]
    assert throw["loss_low"] > SIZES.mistake and thrown["loss_low"] > SIZES.mistake
    after = path[(path.index > THROW_STEP)]
    assert (after["luck"].abs() < 0.1).all()
    before = path[path.index <= THROW_STEP]
    assert np.allclose(before["luck"], right_path.loc[before.index, "luck"])
    assert right_path.loc[THROW_STEP, "loss"] == 0
    assert abs((right["result"] - thrown["result"]) - throw["loss"]) < 1


@pytest.mark.parametrize("game", ["moon", "shoot-the-moon", "hit-the-deck"])
def test_the_expected_is_in_the_results_unit(game, monkeypatch):
    """Each hook's batch results (the expected's sample) equal its record result, seat by seat, on the
    same hands written as records; positions count from the hand's dealer or first bidder; a record of
    the default table gets the default table's expected (its every flag named changes nothing)."""
    import importlib
    import json
    from moonshot.analysis.common import make_setup
    from moonshot.simulator.runner import chunk_rngs
    setup = make_setup(game, strategies=("random",))
    res = setup.hooks.play(setup, setup.seats.strategies, chunk_rngs(5, 0, setup.entry.streams), 12, record=True)
    records = [json.loads(x) for x in setup.entry.module("history").records(res, setup.table, setup.seats.specs, 5, 0)]
    hook = importlib.import_module(setup.entry.review)
    values, first = hook.results(setup.table, res)
    for i, rec in enumerate(records):
        assert [hook.result(rec, s) for s in range(setup.players)] == values[i].tolist()
        assert [hook.position(rec, s) for s in range(setup.players)] == [(s - first[i]) % setup.players
                                                                          for s in range(setup.players)]
    monkeypatch.setattr(luck, "SAMPLE", 300)          # a seed of its own: no other test reads these
    default = luck.position_gains(make_setup(game), 987)
    assert default.shape == (300, setup.players) and np.array_equal(luck.position_gains(hook.setup(records[0]), 987),
                                                                    default)


# ------------------------------------------------------------------------------------ words

@pytest.mark.parametrize("low,high,words", [(1.0, 5.2, "(the cards and the others' play helped)"),
                                            (-1.0, 5.2, "(not told from zero)"),
                                            (-5.0, -0.5, "(the cards and the others' play went against it)")])
def test_luck_is_said_no_more_strongly_than_its_interval(low, high, words):
    row = {"luck": (low + high) / 2, "luck_low": low, "luck_high": high, "unit": "points"}
    assert luck.luck_words(row).endswith(words) and "points [" in luck.luck_words(row)


def test_the_text_shows_luck_per_seat_and_hand():
    """The terminal's text: a luck section with one short line per seat (several hands), each hand's row
    and the totals, the glossary's definitions, the findings' sentence; no NaN anywhere."""
    import re
    from moonshot.reports import review as pages
    r = review(moon_records("random", 2, 21), worlds=4, seed=2)
    out = pages.text(r)
    section = out[out.index("Luck and skill, in points"):out.index("(every option of every decision")]
    assert sum(line.strip().startswith("seat ") for line in section.splitlines()) == 3
    assert sum(line.strip().startswith("all ") for line in section.splitlines()) == 3
    assert "luck-adjusted: the result with the luck taken out" in out and "expected: the seat's mean result" in out
    assert sum("luck and skill over 2 hands" in f for f in r.findings) == 3
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)
    md = pages.markdown(r)
    assert "## Luck and skill" in md and "| hand | seat | result | expected | luck | loss | luck-adjusted |" in md
