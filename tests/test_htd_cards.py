"""Hit the Deck kinds, deck, notation, rules flags and reaction profiles (RULES.md §3, §4; HISTORY.md)."""
from __future__ import annotations

import numpy as np
import pytest

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck.profiles import PARAMS, PROFILES, parse_profile, seat_profiles
from moonshot.simulator.hit_the_deck.rules import FLAGS, Rules, memory_model, parse_rules, rule_args

R = Rules()


# ---------------------------------------------------------------------------- kinds and notation

def test_kind_ids_follow_the_contract():
    assert deck.name(0) == "R1" and deck.name(4) == "R5" and deck.name(5) == "RCUT" and deck.name(6) == "RFLIP"
    assert deck.name(7) == "G1" and deck.name(12) == "GCUT" and deck.name(19) == "BCUT" and deck.name(26) == "YCUT"
    assert [deck.name(k) for k in range(28, 38)] == ["HN1", "HN2", "HN3", "HN4", "HN5",
                                                  "HCR", "HCG", "HCB", "HCY", "HH"]
    assert deck.DRAW == 38 and deck.N_KINDS == 38 and deck.NONE == -1


@pytest.mark.parametrize("kind", range(deck.N_KINDS))
def test_name_parse_round_trip(kind):
    assert deck.parse_card(deck.name(kind)) == kind
    assert deck.parse_card(deck.name(kind).lower()) == kind


@pytest.mark.parametrize("bad", ["R6", "R0", "PCUT", "HN6", "HCP", "H", "", "RFLIPS", "3"])
def test_parse_card_rejects(bad):
    with pytest.raises(BadInput, match="accepted"):
        deck.parse_card(bad)


def test_deck_composition():
    counts = deck.deck_counts(R)
    assert counts.shape == (38,) and counts.sum() == 110
    for c in range(4):
        assert all(counts[deck.number_card(c, v)] == 4 for v in range(1, 6))
        assert counts[deck.cut(c)] == 2 and counts[deck.flip(c)] == 1 and counts[deck.htd_c(c)] == 1
    assert [counts[deck.htd_n(v)] for v in range(1, 6)] == [2] * 5
    assert counts[deck.HH] == 4
    assert sum(counts[k] for k in range(28)) == 92
    assert len(deck.deck_list(R)) == 110


def test_htd_number_values_change_the_deck():
    r = parse_rules(["htd.htd_number_values=1,1,1,1,1,5,5,5,5,5"])
    counts = deck.deck_counts(r)
    assert counts[deck.htd_n(1)] == 5 and counts[deck.htd_n(5)] == 5 and counts[deck.htd_n(3)] == 0
    assert counts.sum() == 110


def test_lookup_arrays():
    r3, rcut, gflip = deck.parse_card("R3"), deck.parse_card("RCUT"), deck.parse_card("GFLIP")
    hn4, hcb = deck.parse_card("HN4"), deck.parse_card("HCB")
    assert deck.COLOUR[r3] == 0 and deck.VALUE[r3] == 3 and deck.CLASS[r3] == deck.NUMBER and deck.PENALTY[r3] == 3
    assert (deck.COLOUR[rcut] == 0 and deck.VALUE[rcut] == 0 and deck.CLASS[rcut] == deck.CUT
            and deck.PENALTY[rcut] == 10)
    assert deck.COLOUR[gflip] == 1 and deck.CLASS[gflip] == deck.FLIP
    assert deck.COLOUR[hn4] == -1 and deck.VALUE[hn4] == 4 and deck.CLASS[hn4] == deck.HTD_N and deck.PENALTY[hn4] == 10
    assert deck.COLOUR[hcb] == -1 and deck.CLASS[hcb] == deck.HTD_C and deck.PENALTY[deck.HH] == 10
    assert deck.CLASS[deck.HH] == deck.HTD_H and deck.COLOUR[deck.HH] == -1
    assert [deck.SLAP_KIND[k] for k in (r3, rcut, gflip, hn4, hcb, deck.HH)] == [0, 1, 1, 2, 2, -1]
    for arr in (deck.COLOUR, deck.VALUE, deck.CLASS, deck.PENALTY, deck.SLAP_KIND):
        assert arr.dtype == np.int8 and arr.shape == (38,)


def test_parse_hand():
    assert deck.parse_hand("R3 R5 G2 BCUT YFLIP HN3 HH", R, size=7) == [2, 4, 8, 19, 27, 30, 37]
    assert deck.parse_hand("r3,  hh", R) == [2, 37]
    with pytest.raises(BadInput, match="exactly 7"):
        deck.parse_hand("R3 R5", R, size=7)
    with pytest.raises(BadInput, match="unknown card 'X9'"):
        deck.parse_hand("R3 X9", R)
    with pytest.raises(BadInput, match="deck has 1"):
        deck.parse_hand("RFLIP RFLIP", R)
    with pytest.raises(BadInput, match="deck has 4"):
        deck.parse_hand("HH HH HH HH HH", R)


def test_demand_names():
    assert deck.demand_name(-1) == "none" and deck.demand_name(3) == "number 4" and deck.demand_name(6) == "colour G"


# ---------------------------------------------------------------------------- rules flags

def test_flags_cover_the_dataclass_in_table_order():
    names = [f.name for f in FLAGS]
    assert names[0] == "htd.colours" and names[-1] == "htd.reaction"
    assert [f.field for f in FLAGS] == list(Rules.__dataclass_fields__)
    for f in FLAGS:
        assert getattr(R, f.field) == f.default


def test_as_dict_round_trips():
    d = R.as_dict()
    assert d["htd.htd_number_values"] == "1,1,2,2,3,3,4,4,5,5" and d["htd.colours"] == "R,G,B,Y"
    assert parse_rules(rule_args(d)) == R
    odd = parse_rules(["colours=Red,Green,Blue,Yellow", "memory=window(5)", "judge_window=12.5",
                       "p_notice=0.9", "announce_htd_cards=true", "reaction=child:mu=400"])
    assert parse_rules(rule_args(odd.as_dict())) == odd


@pytest.mark.parametrize("arg, field, value", [
    ("htd.colours=[R,G,B,Y]", "colours", ("R", "G", "B", "Y")),
    ("htd.htd_number_values=5,4,3,2,1,1,2,3,4,5", "htd_number_values", (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)),
    ("htd.htd_colour_values=one_per_colour", "htd_colour_values", "one_per_colour"),
    ("htd.start_card=first_player_plays_normally", "start_card", "first_player_plays_normally"),
    ("htd.word_matches_word=true", "word_matches_word", True),
    ("htd.voluntary_draw=true", "voluntary_draw", True),
    ("htd.drawn_card_play=optional", "drawn_card_play", "optional"),
    ("htd.cut_depth=uniform", "cut_depth", "uniform"),
    ("htd.cut_depth=exact_half", "cut_depth", "exact_half"),
    ("htd.cut_exposed=top_of_remainder", "cut_exposed", "top_of_remainder"),
    ("htd.bury_position=exact_middle", "bury_position", "exact_middle"),
    ("htd.exposed_hand_card=shouter_turn_consumed", "exposed_hand_card", "shouter_turn_consumed"),
    ("htd.final_card_effects=resolve_then_score", "final_card_effects", "resolve_then_score"),
    ("htd.target_score=50", "target_score", 50),
    ("htd.winner_tie=play_another_hand", "winner_tie", "play_another_hand"),
    ("htd.blocked_hand=score_all", "blocked_hand", "score_all"),
    ("htd.max_turns=100", "max_turns", 100),
    ("htd.dealer_rotation=went_out_player_deals", "dealer_rotation", "went_out_player_deals"),
    ("htd.dealer_rotation=fixed", "dealer_rotation", "fixed"),
    ("htd.memory=window(8)", "memory", "window(8)"),
    ("htd.memory=p_recall(0.5)", "memory", "p_recall(0.5)"),
    ("htd.p_notice=0.9", "p_notice", 0.9),
    ("htd.judge_window=0", "judge_window", 0),
    ("htd.announce_factor=0.5", "announce_factor", 0.5),
    ("htd.announce_htd_cards=true", "announce_htd_cards", True),
    ("htd.reaction=child", "reaction", "child"),
    ("reaction=off", "reaction", "off"),
])
def test_every_flag_parses(arg, field, value):
    assert getattr(parse_rules([arg]), field) == value


@pytest.mark.parametrize("arg", [
    "htd.colours=R,G,B", "htd.colours=R,R,B,Y", "htd.htd_number_values=1,2,3",
    "htd.htd_number_values=0,1,1,2,2,3,3,4,4,5",
    "htd.htd_colour_values=two_red", "htd.start_card=skip", "htd.word_matches_word=maybe",
    "htd.voluntary_draw=2", "htd.drawn_card_play=never", "htd.cut_depth=deep", "htd.cut_exposed=top",
    "htd.bury_position=bottom", "htd.exposed_hand_card=x", "htd.final_card_effects=x",
    "htd.target_score=ten", "htd.target_score=0", "htd.winner_tie=x", "htd.blocked_hand=redeal",
    "htd.max_turns=99", "htd.dealer_rotation=right", "htd.memory=window(-1)", "htd.memory=p_recall(1.5)",
    "htd.memory=goldfish", "htd.p_notice=1.1", "htd.p_notice=-0.1", "htd.judge_window=-1",
    "htd.judge_window=nan", "htd.announce_factor=2", "htd.announce_htd_cards=x", "htd.reaction=robot",
    "htd.reaction=adult:speed=1",
])
def test_bad_flag_values_name_the_value_and_the_accepted(arg):
    flag, _, text = arg.partition("=")
    with pytest.raises(BadInput) as exc:
        parse_rules([arg])
    msg = str(exc.value)
    assert repr(text) in msg and flag in msg and "accepted" in msg and "\n" not in msg


def test_unknown_flag_and_players():
    with pytest.raises(BadInput, match="unknown rule flag 'htd.nope'"):
        parse_rules(["htd.nope=1"])
    with pytest.raises(BadInput, match="2..6"):
        parse_rules([], players=7)
    assert parse_rules([], players=2) == R


def test_memory_model():
    assert memory_model("perfect") == ("perfect", None)
    assert memory_model("window(3)") == ("window", 3)
    assert memory_model("p_recall(0.25)") == ("p_recall", 0.25)


# ---------------------------------------------------------------------------- profiles

def test_profiles_table():
    a = PROFILES["adult"]
    assert (a.mu, a.sigma, a.tau, a.mu_self, a.move_mu, a.p_lapse, a.lapse_mean, a.p_forget) == \
        (300, 40, 80, 50, 200, 0.02, 800, 0.05)
    assert (a.q_htd, a.q_word, a.q_number) == (0.03, 0.005, 0.002)
    c = PROFILES["child"]
    assert (c.mu, c.tau_self, c.move_mu, c.p_forget, c.q_htd) == (420, 100, 280, 0.15, 0.10)
    d = PROFILES["distracted"]
    assert (d.tau, d.p_lapse, d.lapse_mean, d.q_number) == (200, 0.10, 1500, 0.005)
    assert PROFILES["off"].off and not a.off
    assert PROFILES["off"].as_dict() == {"profile": "off"}
    assert list(a.as_dict()) == ["profile", *PARAMS] and a.as_dict()["mu"] == 300


def test_parse_profile():
    p = parse_profile("adult:mu=250,tau=60")
    assert p.name == "adult" and p.mu == 250 and p.tau == 60 and p.sigma == 40
    assert parse_profile(p.spec()) == p and parse_profile("child") == PROFILES["child"]
    with pytest.raises(BadInput, match="unknown reaction profile 'robot'"):
        parse_profile("robot")
    with pytest.raises(BadInput, match="unknown profile parameter 'speed'"):
        parse_profile("adult:speed=3")
    with pytest.raises(BadInput, match="bad value '1.5' for profile parameter p_forget"):
        parse_profile("adult:p_forget=1.5")
    with pytest.raises(BadInput, match="bad value '-3'"):
        parse_profile("adult:mu=-3")
    for text in ("1_000", "1e3", "70000", "inf", "\u0661\u0662"):     # plain digits, at most a minute (issue 38)
        with pytest.raises(BadInput, match="accepted: a number 0..60,000"):
            parse_profile(f"adult:mu={text}")
    assert parse_profile("adult:p_forget=.5").p_forget == 0.5 and parse_profile("adult:mu=60000").mu == 60_000
    with pytest.raises(BadInput, match="off takes no parameters"):
        parse_profile("off:mu=3")


def test_seat_profiles():
    ps = seat_profiles(["2=child"], 4)
    assert ps == (PROFILES["adult"], PROFILES["adult"], PROFILES["child"], PROFILES["adult"])
    ps = seat_profiles(["1=adult:mu=250,tau=60"], 3)
    assert ps[1].mu == 250 and ps[1].tau == 60 and ps[0] == PROFILES["adult"]
    assert seat_profiles(["0=off", "child"], 2) == (PROFILES["off"], PROFILES["child"])
    assert seat_profiles([], 3, default="distracted") == (PROFILES["distracted"],) * 3
    with pytest.raises(BadInput, match="seat 5"):
        seat_profiles(["5=child"], 4)
    with pytest.raises(BadInput, match="unknown reaction profile"):
        seat_profiles(["1=kid"], 4)
