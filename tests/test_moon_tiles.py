"""Moon tiles, tile sets, notation, rules flags and the lookup tables (RULES.md §2, §4; HISTORY.md)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine.table import TRUMP_POWER, rules_tables
from moonshot.simulator.moon.rules import FLAGS, Rules, parse_rules, tile_set_for
from moonshot.simulator.moon.tiles import DOUBLES, NOTRUMP, parse_hand, parse_tile, parse_trump, tile_name

VARIANTS = [Rules(notrump_doubles=v) for v in ("high", "own_suit", "low")]


def t(text: str) -> int:
    return parse_tile(text)


# ---------------------------------------------------------------------------- ids and notation

def test_id_order_is_documented_and_sets_are_prefixes():
    assert [tile_name(i) for i in range(6)] == ["1-1", "2-1", "2-2", "3-1", "3-2", "3-3"]
    assert tile_name(20) == "6-6" and tile_name(21) == "0-0"
    assert [tile_name(i) for i in range(22, 28)] == ["1-0", "2-0", "3-0", "4-0", "5-0", "6-0"]
    for h in range(1, 7):
        for low in range(1, h + 1):
            assert tiles.tile_id(h, low) == h * (h - 1) // 2 + low - 1
    assert len({tiles.ends(i) for i in range(28)}) == 28
    assert all(a >= b for a, b in tiles.TILES)


def test_tile_sets():
    s21, s22, s28 = (set(tiles.TILE_SETS[n].tolist()) for n in ("no_blanks21", "keep00_22", "full28"))
    assert (len(s21), len(s22), len(s28)) == (21, 22, 28)
    assert s21 < s22 < s28
    assert not any(0 in tiles.ends(x) for x in s21)                       # A-MOON-2 variant: no blanks
    assert {x for x in s22 if 0 in tiles.ends(x)} == {t("0-0")}            # MOON-1.2: 0-0 kept
    assert s28 == set(range(28))                                       # MOON-1.3


def test_notation_round_trip_and_either_order():
    for i in range(28):
        assert parse_tile(tile_name(i)) == i
    assert tile_name(t("4-6")) == "6-4"
    assert t("4-6") == t("6-4") == tiles.tile_id(4, 6)
    assert t(" 0-0 ") == 21


@pytest.mark.parametrize("bad", ["7-1", "6-", "66", "x", "6--4", "10-1", "6-4-2", ""])
def test_bad_tile(bad):
    with pytest.raises(BadInput) as e:
        parse_tile(bad)
    assert repr(bad) in str(e.value) and "0..6" in str(e.value)


def test_parse_hand_ok():
    hand = parse_hand("6-6 6-5 6-4 6-2 5-5 3-3 1-1", 3, Rules())
    assert [tile_name(x) for x in hand] == ["6-6", "6-5", "6-4", "6-2", "5-5", "3-3", "1-1"]
    assert parse_hand("6-6, 5-6,4-6 , 2-6 5-5,3-3 1-1", 3, Rules()) == hand
    assert tile_name(parse_hand("0-3 6-6 6-5 6-4 6-2 5-5 1-1", 4, Rules())[0]) == "3-0"


def test_parse_hand_errors():
    with pytest.raises(BadInput, match="'6-9'"):
        parse_hand("6-6 6-5 6-4 6-9 5-5 3-3 1-1", 3, Rules())
    with pytest.raises(BadInput, match="6-5 appears twice"):
        parse_hand("6-6 6-5 5-6 6-2 5-5 3-3 1-1", 3, Rules())
    with pytest.raises(BadInput) as e:
        parse_hand("0-3 6-5 6-4 6-2 5-5 3-3 1-1", 3, Rules())
    assert "3-0" in str(e.value) and "22-tile" in str(e.value)
    with pytest.raises(BadInput, match="21-tile"):
        parse_hand("0-0 6-5 6-4 6-2 5-5 3-3 1-1", 3, Rules(tile_set="no_blanks21"))
    with pytest.raises(BadInput, match="has 6 tiles; accepted: exactly 7"):
        parse_hand("6-6 6-5 6-4 6-2 5-5 3-3", 3, Rules())
    with pytest.raises(BadInput, match="has 8 tiles"):
        parse_hand("6-6 6-5 6-4 6-2 5-5 3-3 1-1 2-1", 3, Rules())


def test_trumps():
    assert [parse_trump(n) for n in ("0", "6", "doubles", "notrump", "Follow-Me", "NOTRUMP")] == \
        [0, 6, DOUBLES, NOTRUMP, NOTRUMP, NOTRUMP]
    assert [tiles.trump_name(x) for x in range(9)] == ["0", "1", "2", "3", "4", "5", "6", "doubles", "notrump"]
    with pytest.raises(BadInput, match="'7'.*accepted: 0, 1, 2, 3, 4, 5, 6, doubles, notrump"):
        parse_trump("7")
    assert parse_trump("doubles", 3, Rules()) == DOUBLES
    with pytest.raises(BadInput, match="'doubles'.*accepted: 0, 1, 2, 3, 4, 5, 6, notrump"):
        parse_trump("doubles", 4, Rules())                              # MOON-10.3
    assert parse_trump("doubles", 4, Rules(allow_doubles_trump_4p=True)) == DOUBLES   # A-MOON-12
    with pytest.raises(BadInput):
        parse_trump("doubles", 3, Rules(allow_doubles_trump=False))
    with pytest.raises(BadInput):
        parse_trump("0", 3, Rules(tile_set="no_blanks21"))


# ---------------------------------------------------------------------------- rules flags

EXPECTED_FLAGS = {
    "moon.tile_set": "default", "moon.bid_success": "at_least", "moon.moon_bid_scoring": "points",
    "moon.moon_bid_requires_prior_7": False, "moon.min_bid": 4, "moon.all_pass": "redeal",
    "moon.auction": "single_round", "moon.widow_timing": "widow_then_trump", "moon.widow": "exchange_any",
    "moon.allow_doubles_trump": True, "moon.allow_doubles_trump_4p": False, "moon.notrump_doubles": "high",
    "moon.lead_suit_rule": "higher_end", "moon.first_lead_trump": False, "moon.scoring": "points21",
    "moon.end_tie": "continue_until_unique_leader", "moon.bidder_score_4p": "tricks_won",
    "moon.set_twice_loses_4p": False,
}


def test_flags_match_rules_section_4():
    assert {f.name: f.default for f in FLAGS} == EXPECTED_FLAGS
    assert Rules().as_dict() == EXPECTED_FLAGS
    assert all(getattr(Rules(), f.field) == f.default for f in FLAGS)
    assert all(f.rules_id.startswith(("A-MOON-", "MOON-")) and f.help and f.accepted for f in FLAGS)
    assert Rules().as_dict(3)["moon.tile_set"] == "keep00_22"
    assert Rules().as_dict(4)["moon.tile_set"] == "full28"


def test_parse_rules():
    r = parse_rules(["min_bid=3", "moon.notrump_doubles=own_suit", "first_lead_trump=true"])
    assert (r.min_bid, r.notrump_doubles, r.first_lead_trump) == (3, "own_suit", True)
    assert parse_rules(["moon.min_bid=5"]).min_bid == 5
    with pytest.raises(BadInput, match="'6' for moon.min_bid; accepted: 3, 4, 5"):
        parse_rules(["moon.min_bid=6"])
    with pytest.raises(BadInput, match="'sometimes'.*accepted: redeal, force_last_min, force_dealer"):
        parse_rules(["all_pass=sometimes"])
    with pytest.raises(BadInput, match="unknown rule flag"):
        parse_rules(["moon.nonsense=1"])


def test_tile_set_by_player_count():
    assert tile_set_for(Rules(), 3) == "keep00_22"
    assert tile_set_for(Rules(), 4) == "full28"
    assert tile_set_for(Rules(widow="none"), 3) == "no_blanks21"
    assert tile_set_for(Rules(tile_set="no_blanks21"), 3) == "no_blanks21"
    assert tiles.widow_size(3, Rules()) == 1 and tiles.widow_size(4, Rules()) == 0
    assert tiles.widow_size(3, Rules(widow="none")) == 0
    with pytest.raises(BadInput) as e:
        tile_set_for(Rules(tile_set="full28"), 3)
    assert "full28" in str(e.value) and "keep00_22, no_blanks21" in str(e.value)
    with pytest.raises(BadInput, match="no_blanks21 cannot be used with 4 players; accepted .*full28"):
        tile_set_for(Rules(tile_set="no_blanks21"), 4)
    with pytest.raises(BadInput, match="keep00_22"):
        tile_set_for(Rules(tile_set="keep00_22"), 4)
    with pytest.raises(BadInput, match="moon.widow=none"):
        parse_rules(["tile_set=keep00_22", "widow=none"], players=3)
    with pytest.raises(BadInput, match="5.*accepted: 3 or 4"):
        tile_set_for(Rules(), 5)


def test_sides():
    assert tiles.side_of_seats(3) == [0, 1, 2]
    assert tiles.side_of_seats(4) == [0, 1, 0, 1]          # MOON-10.1: partners opposite


# ---------------------------------------------------------------------------- deal layout

@pytest.mark.parametrize("players,rules", [(3, Rules()), (3, Rules(widow="none")), (4, Rules())])
def test_deal_layout(players, rules):
    hands, widow = ref.deal(np.random.default_rng(7), players, rules)
    n = len(tiles.tile_set(players, rules))
    perm = np.random.default_rng(7).permutation(n)          # same as permuting the id prefix
    assert hands == [perm[7 * s: 7 * s + 7].tolist() for s in range(players)]
    assert widow == (int(perm[21]) if n == 22 else None)
    assert sorted(sum(hands, []) + ([] if widow is None else [widow])) == list(range(n))


# ---------------------------------------------------------------------------- lookup tables

@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.notrump_doubles)
def test_every_table_cell_matches_the_reference(rules):
    tab = rules_tables(rules)
    calls = Rules(notrump_doubles=rules.notrump_doubles, lead_suit_rule="leader_calls_end")
    assert tab.IS_TRUMP.shape == tab.LED_SUIT.shape == tab.NEEDS_CALL.shape == (28, 9)
    assert tab.IN_SUIT.shape == tab.RANK.shape == tab.POWER.shape == (28, 9, 9)
    for tile, trump in itertools.product(range(28), range(9)):
        assert tab.IS_TRUMP[tile, trump] == ref.is_trump(tile, trump)
        assert tab.LED_SUIT[tile, trump] == ref.led_suit(tile, trump, rules)
        assert tab.NEEDS_CALL[tile, trump] == ref.needs_end_call(tile, trump, calls)
        member = ref.suits(tile, trump, rules)
        for suit in range(9):
            assert tab.IN_SUIT[tile, suit, trump] == (suit in member)
            assert tab.RANK[tile, suit, trump] == ref.rank(tile, suit, trump, rules)
            assert (tab.RANK[tile, suit, trump] >= 0) == (suit in member)
            if ref.is_trump(tile, trump):
                power = TRUMP_POWER + ref.rank(tile, tiles.TRUMP_SUIT, trump, rules)
            else:
                power = ref.rank(tile, suit, trump, rules)
            assert tab.POWER[tile, suit, trump] == power


def test_tables_are_cached_and_read_only():
    assert rules_tables(Rules()) is rules_tables(Rules(min_bid=3))
    assert rules_tables(Rules()) is not rules_tables(Rules(notrump_doubles="low"))
    with pytest.raises(ValueError):
        rules_tables(Rules()).RANK[0, 0, 0] = 3


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.notrump_doubles)
def test_power_argmax_is_the_trick_winner(rules):
    rng = np.random.default_rng(3)
    tab = rules_tables(rules)
    for _ in range(3000):
        players = int(rng.integers(3, 5))
        trick = rng.choice(28, size=players, replace=False).tolist()
        trump = int(rng.integers(9))
        led = tab.LED_SUIT[trick[0], trump]
        # the led suit is always present (the lead itself), so the argmax is never -1
        assert int(np.argmax(tab.POWER[trick, led, trump])) == ref.trick_winner(trick, trump, rules)
