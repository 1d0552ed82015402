"""Issue 36 item 3: a number is only as good as the players behind it, so every finding of every
verb says which players it holds for, in words written from the seats' specs (never per game): the
game's default when nothing is chosen, the chosen strategy when one is. Tiny sizes: the words, not
the numbers, are under test."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from moonshot.analysis.common import analysis_setups, make_setup, match, run_analysis, simulate, whatif
from moonshot.analysis.hand_check import analyze as analyze_hand
from moonshot.analysis.rules_lab import rules_lab
from moonshot.analysis.tournament import tournament
from moonshot.analysis.words import for_players, lineup
from moonshot.reports.text import render_table
from moonshot.simulator.games import GAMES

SEED = 7
HANDS = {"moon": "6-6 6-5 6-3 5-5 4-4 2-1 0-0", "shoot-the-moon": "R12 R7 BM G3 P5",
         "hit-the-deck": "R3 R5 G2 BCUT YFLIP HN3 HH"}
# each analysis at a size that runs in a second or two (the words, not the numbers, are tested)
SIZES = {"card-value": 4, "reaction-value": 20, "big-moon-value": 20, "chip-value": 60, "game-odds": 10}
CHOSEN = {"moon": "threshold:margin=1", "shoot-the-moon": "greedy", "hit-the-deck": "dump"}
TABLES = {"hit-the-deck": 3}       # a smaller table where the default's is slow at any size
WHATIF = {"moon": "moon.bid_success=strictly_greater", "shoot-the-moon": "stm.little_moon_lead_trumps=true",
          "hit-the-deck": "htd.voluntary_draw=true"}


def said_for(findings: list[str], name: str) -> None:
    assert findings
    for f in findings:
        assert name in f, f


# --- the words -------------------------------------------------------------------------------

def test_a_lineup_is_said_from_the_seats_specs():
    assert lineup(["threshold"] * 3) == "threshold in every seat"
    assert lineup(["random", "threshold", "threshold"]) == "seat 0 random, the others threshold"
    assert lineup(["odd", "greedy", "odd", "greedy"]) == "seats 0 and 2 odd, seats 1 and 3 greedy"
    assert lineup(["a", "b", "c", "c"]) == "seat 0 a, seat 1 b, the others c"
    assert lineup(["a", "b"]) == "seat 0 a, seat 1 b"


def test_the_words_follow_the_games_default():
    for game in GAMES:
        setup = make_setup(game)
        assert lineup(setup.seats.specs) == f"{GAMES[game].default_strategy} in every seat"


def test_a_finding_says_its_players_once():
    said = for_players("A game lasts 3 hands on average.", "threshold in every seat")
    assert said == "A game lasts 3 hands on average (players: threshold in every seat)."
    assert for_players(said, "threshold in every seat") == said
    assert for_players("no stop", "x in every seat") == "no stop (players: x in every seat)"


# --- every verb, every game ------------------------------------------------------------------

@pytest.mark.parametrize("game", list(GAMES))
def test_simulate_compare_and_whatif_name_their_players(game):
    setup = make_setup(game, TABLES.get(game))
    default = GAMES[game].default_strategy
    said_for(simulate(setup, 200, None, SEED).findings, f"{default} in every seat")
    said_for(simulate(setup, None, 10, SEED).findings, f"{default} in every seat")
    chosen = make_setup(game, TABLES.get(game), strategies=[CHOSEN[game]])
    said_for(simulate(chosen, 200, None, SEED).findings, f"{CHOSEN[game]} in every seat")
    said_for(match(setup, "random", default, 100, None, SEED).findings[:1], "random (A) against")
    w = whatif(setup, [WHATIF[game]], 200, None, SEED)
    said_for(w.findings, f"{default} in every seat, under both rule sets")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_analysis_names_its_players(game):
    entry = GAMES[game]
    for chosen in (None, CHOSEN[game]):
        base = make_setup(game, TABLES.get(game), strategies=[chosen] if chosen else [])
        name = chosen or entry.default_strategy
        for analysis, spec in entry.analyses.items():
            setups = analysis_setups(spec, base, players_given=True)
            res = run_analysis(spec, setups, SIZES.get(analysis, 200), SEED, 1, None)
            if analysis == "game-odds":           # the built-in match-ups are its players, each named
                said_for(res.findings, " against ")
                continue
            said_for(res.findings, name)
            said_for(res.findings, f"{name} in every seat")


def test_a_mixed_lineup_is_named_seat_by_seat():
    setup = make_setup("shoot-the-moon", 4, strategies=["1=random"])
    others = f"seat 1 random, the others {GAMES['shoot-the-moon'].default_strategy}"    # the default fills the rest
    said_for(simulate(setup, 200, None, SEED).findings, others)
    res = run_analysis(GAMES["shoot-the-moon"].analyses["hand-odds"], [setup], 300, SEED, 1, None)
    said_for(res.findings, others)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_hand_analyzer_names_its_players(game):
    setup = make_setup(game, TABLES.get(game))
    default = GAMES[game].default_strategy
    res = analyze_hand(GAMES[game].hand_analyzer, setup, HANDS[game], "first", 200, SEED, 1, check_samples=0)
    said_for(res.findings, f"{default} in every seat")
    assert res.findings[0].startswith(f"Against {default} ")
    chosen = make_setup(game, TABLES.get(game), strategies=[CHOSEN[game]])
    res = analyze_hand(GAMES[game].hand_analyzer, chosen, HANDS[game], "first", 200, SEED, 1, check_samples=0)
    said_for(res.findings, f"{CHOSEN[game]} in every seat")


def test_tournament_and_rules_lab_name_their_players():
    setup = make_setup("moon")
    res = tournament(setup, ["threshold", "greedy", "random"], 10, SEED)
    said_for(res.findings, "threshold")
    assert all("each pair of threshold, greedy and random" in f or "played identically" in f for f in res.findings)
    lab = rules_lab(make_setup("shoot-the-moon", 4), games=40, hands=300, seed=SEED,
                    sets=["short=stm.target_chips=4", "lm=stm.little_moon_lead_trumps=true"])
    default = GAMES["shoot-the-moon"].default_strategy
    said_for(lab.findings, default)
    for f in lab.findings:
        if "skill (" in f and "changes" in f:            # the skill measure's own players, beside the table's
            assert f"one {default} among greedy players" in f, f


# --- the random player in the hand analyzer (a view built outside the engine) ----------------

def test_the_moon_hand_analyzer_takes_a_random_seat():
    """The outbid step's BidView is built by hand; it carries the bit masks strategies read
    (RandomMoon.bid read legal_bits, None there: AttributeError)."""
    setup = make_setup("moon", strategies=["1=random"])
    res = analyze_hand(GAMES["moon"].hand_analyzer, setup, HANDS["moon"], "first", 300, SEED, 1, check_samples=0)
    outbid = res.tables["outbid"]
    assert len(outbid) and outbid["estimate"].between(0, 1).all()
    assert f"this hand played by {GAMES['moon'].default_strategy}" in res.findings[0] and "random" in res.findings[0]
    from moonshot.analysis.moon import bid_bits
    legal = np.array([[True] * 7, [False, True, False, False, False, False, True]])
    assert bid_bits(legal).tolist() == [127, 2 + 64]


# --- the strategies' lines under a result ----------------------------------------------------

def test_the_strategy_lines_say_where_a_table_has_other_players():
    setup = make_setup("shoot-the-moon", 4)
    res = analyze_hand(GAMES["shoot-the-moon"].hand_analyzer, setup, HANDS["shoot-the-moon"], "first", 300, SEED, 1,
                       check_samples=40)
    text = render_table(res)
    assert "every number is under these players unless its table or finding names others" in text
    assert "table check: its strategy column names each row's players (rollout: rollout in every seat, on the " \
           "first 40 deals)" in text
    assert f"  seats 0, 1, 2, 3: {GAMES['shoot-the-moon'].default_strategy}" in text
    assert "  seat 1: random" in render_table(simulate(make_setup("moon", strategies=["1=random"]), 100, None, SEED))


@pytest.mark.parametrize("game, n, players, strong", [("moon", 40, None, "pimc:worlds=2"),
                                                      ("shoot-the-moon", 40, 4, "rollout:worlds=2")])
def test_strong_play_names_both_lineups(game, n, players, strong):
    """A search player in every seat beside the default lineup: each finding says both."""
    setup = make_setup(game, players)
    res = importlib.import_module(GAMES[game].analysis).strong_play(setup, n, SEED, strong=strong)
    said_for(res.findings, f"{strong} in every seat")
    said_for(res.findings, f"with {GAMES[game].default_strategy} in every seat")
