"""The Moon reference engine against RULES.md §2 (Game B), incl. every §B.14 test vector."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshot.simulator.errors import IllegalMove
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine.table import rules_tables
from moonshot.simulator.moon.reference import (
    BIDDING, DISCARD, DONE, MOON, PASS, PLAY, TRUMP, Game, Hand, auction_state, bid_made, game_winner,
    is_trump, led_suit, legal_bids, legal_plays, score_hand, suits, trick_winner,
)
from moonshot.simulator.moon.rules import Rules
from moonshot.simulator.moon.tiles import DOUBLES, DOUBLES_SUIT, NOTRUMP, TRUMP_SUIT, parse_tile, tile_name
from tests.budget import size

R = Rules()


def t(text: str) -> int:
    return parse_tile(text)


def ts(text: str) -> list[int]:
    return dominoes.parse_tiles(text)


def names(tiles) -> list[str]:
    return [tile_name(x) for x in tiles]


# ============================================================================ §B.14 test vectors

def test_vector_1_trump_tile_is_not_a_six():
    # T=3, lead 6-2 (suit 6). B holds {6-3, 5-1, 4-2}: 6-3 is trump, not a six: every tile legal.
    assert led_suit(t("6-2"), 3, R) == 6
    hand = ts("6-3 5-1 4-2")
    assert sorted(legal_plays(hand, [t("6-2")], 3, R)) == sorted(hand)
    # If B plays 6-3 it wins unless C plays a higher trump.
    assert trick_winner(ts("6-2 6-3 6-5"), 3, R) == 1
    assert trick_winner(ts("6-2 6-3 3-3"), 3, R) == 2          # 3-3 tops the trump suit
    assert trick_winner(ts("6-2 6-3 4-3"), 3, R) == 1          # 3-6 outranks 3-4


def test_vector_2_doubles_trump():
    # T=DOUBLES, lead 4-2 (suit 4). C holds {4-4, 6-4, 2-1}: only 6-4 is legal.
    assert led_suit(t("4-2"), DOUBLES, R) == 4
    assert legal_plays(ts("4-4 6-4 2-1"), [t("4-2")], DOUBLES, R) == [t("6-4")]
    assert trick_winner(ts("4-2 6-4 5-4"), DOUBLES, R) == 1
    # A player with no 4s plays 0-0 (a trump) and wins.
    assert t("0-0") in legal_plays(ts("0-0 6-5 3-1"), [t("4-2")], DOUBLES, R)
    assert trick_winner(ts("4-2 6-4 0-0"), DOUBLES, R) == 2


def test_vector_3_notrump_doubles():
    # T=NOTRUMP, lead 5-3 (suit 5). Trick 5-3, 6-5, 5-5: 5-5 wins.
    assert led_suit(t("5-3"), NOTRUMP, R) == 5
    assert trick_winner(ts("5-3 6-5 5-5"), NOTRUMP, R) == 2
    # With own_suit, a player holding {5-5, 6-5} must play 6-5.
    own = Rules(notrump_doubles="own_suit")
    assert legal_plays(ts("5-5 6-5"), [t("5-3")], NOTRUMP, own) == [t("6-5")]
    assert trick_winner(ts("5-3 6-5 5-5"), NOTRUMP, own) == 1
    assert led_suit(t("5-5"), NOTRUMP, own) == DOUBLES_SUIT
    assert legal_plays(ts("6-6 6-5 2-1"), [t("5-5")], NOTRUMP, own) == [t("6-6")]
    assert trick_winner(ts("5-5 1-1 6-6"), NOTRUMP, own) == 2          # 6-6 down: ranked by pip
    # low: each double ranks lowest in its number suit.
    low = Rules(notrump_doubles="low")
    assert legal_plays(ts("5-5 6-5 2-1"), [t("5-3")], NOTRUMP, low) == sorted(ts("6-5 5-5"))
    assert trick_winner(ts("5-3 6-5 5-5"), NOTRUMP, low) == 1
    assert trick_winner(ts("5-5 5-1 6-2"), NOTRUMP, low) == 1


def test_vector_4_zero_trump():
    # 22-tile set, T=0. Lead 6-5. B has no sixes and plays 0-0: B wins.
    assert is_trump(t("0-0"), 0)
    assert t("0-0") in legal_plays(ts("0-0 4-3 2-1"), [t("6-5")], 0, R)
    assert trick_winner(ts("6-5 0-0 6-6"), 0, R) == 1


def test_vector_5_trump_not_in_led_suit():
    # T=2, lead 5-5 (suit 5). A holds {5-2, 6-5}: only 6-5 (5-2 is trump).
    assert led_suit(t("5-5"), 2, R) == 5
    assert legal_plays(ts("5-2 6-5"), [t("5-5")], 2, R) == [t("6-5")]


def test_vector_6_bid_5_scoring():
    assert score_hand(3, 0, 5, [6, 1, 0], R).score == (5, 1, 0)
    assert score_hand(3, 0, 5, [4, 2, 1], R).score == (-5, 2, 1)


def test_vector_7_bid_21_scoring():
    assert score_hand(3, 0, MOON, [7, 0, 0], R).score == (21, 0, 0)
    assert score_hand(3, 0, MOON, [6, 1, 0], R).score == (-21, 1, 0)


def test_vector_8_auction():
    # First bidder P1: P1 bids 5, so P2 may only bid 6, 7, 21 or pass.
    s = auction_state([(1, 5)], 3, 1, R)
    assert s.to_move == 2 and s.legal == (PASS, 6, 7, MOON)
    # If P2 bids 21 the auction ends at once and P0 never bids.
    s = auction_state([(1, 5), (2, MOON)], 3, 1, R)
    assert s.finished and s.to_move is None and (s.bidder, s.high_bid) == (2, MOON)
    hand = Hand(*ref.deal(np.random.default_rng(0), 3, R), 1, R)
    hand.act(5)
    with pytest.raises(IllegalMove, match="illegal bidding choice 5 by seat 2; accepted: pass, 6, 7, 21"):
        hand.act(5)
    hand.act(MOON)
    assert hand.phase == DISCARD and hand.to_move() == 2 and hand.bids == [(1, 5), (2, MOON)]


# ============================================================================ suits and ranking

def test_trump_suit_sizes_moon_2_6():
    s22 = dominoes.TILE_SETS["keep00_22"].tolist()
    count = {trump: sum(is_trump(x, trump) for x in s22) for trump in range(9)}
    assert count[0] == 1
    assert all(count[n] == 6 for n in range(1, 7))
    assert count[DOUBLES] == 7
    assert count[NOTRUMP] == 0
    assert all(sum(is_trump(x, n) for x in range(28)) == 7 for n in range(7))    # 28-tile set


def test_suit_ranking_moon_2_5():
    s22 = dominoes.TILE_SETS["keep00_22"].tolist()

    def order(suit, trump, rules=R):
        members = [x for x in s22 if suit in suits(x, trump, rules)]
        return names(sorted(members, key=lambda x: -ref.rank(x, suit, trump, rules)))

    # the 2 suit: 2-2, 2-6, 2-5, 2-4, 2-3, 2-1 (written higher end first)
    assert order(2, NOTRUMP) == ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    assert order(TRUMP_SUIT, 2) == ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]      # trump n: same rule
    assert order(TRUMP_SUIT, DOUBLES) == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    assert order(2, DOUBLES) == ["6-2", "5-2", "4-2", "3-2", "2-1"]
    assert order(2, 5) == ["2-2", "6-2", "4-2", "3-2", "2-1"]                       # 5-2 is trump
    assert order(0, 3) == ["0-0"]
    # 28-tile set: the blanks rank lowest (other end 0)
    assert names(sorted([x for x in range(28) if 2 in suits(x, NOTRUMP, R)],
                        key=lambda x: -ref.rank(x, 2, NOTRUMP, R)))[-1] == "2-0"


def test_suit_membership_moon_2_3():
    assert suits(t("5-3"), NOTRUMP, R) == {5, 3}
    assert suits(t("5-3"), 3, R) == {TRUMP_SUIT}          # a trump belongs only to the trump suit
    assert suits(t("4-4"), 2, R) == {4}
    assert suits(t("4-4"), DOUBLES, R) == {TRUMP_SUIT}
    assert suits(t("4-4"), NOTRUMP, Rules(notrump_doubles="own_suit")) == {DOUBLES_SUIT}
    assert suits(t("4-4"), 4, Rules(notrump_doubles="own_suit")) == {TRUMP_SUIT}


def test_s1_examples_moon_6_4():
    # (a) 5 and 3 not trump: the holder of 5-3 with no other 5s or 3s must play it on 3-2 or 5-1.
    hand = ts("5-3 6-6 2-1 4-4")
    for trump in (NOTRUMP, 6, 1, 2, 4, DOUBLES):
        for lead in ("3-2", "5-1"):
            if is_trump(t(lead), trump):
                continue
            assert legal_plays(hand, [t(lead)], trump, R) == [t("5-3")], (lead, trump)
    # (b) T = DOUBLES and 4-2 led: 4-4 may not be played while holding another 4 ...
    assert legal_plays(ts("4-4 4-1 6-6"), [t("4-2")], DOUBLES, R) == [t("4-1")]
    # ... but with no other 4 the player cannot follow and may play anything, 4-4 included.
    assert legal_plays(ts("4-4 6-6 3-1"), [t("4-2")], DOUBLES, R) == ts("3-1 4-4 6-6")


def test_trump_lead_must_be_followed_with_trump():
    assert led_suit(t("6-4"), 4, R) == TRUMP_SUIT
    assert legal_plays(ts("4-1 6-5 6-6"), [t("6-4")], 4, R) == [t("4-1")]
    assert legal_plays(ts("3-1 6-5"), [t("6-4")], 4, R) == ts("3-1 6-5")
    assert led_suit(t("6-6"), DOUBLES, R) == TRUMP_SUIT


def test_leader_calls_end_a_moon_11():
    calls = Rules(lead_suit_rule="leader_calls_end")
    assert led_suit(t("6-2"), NOTRUMP, calls, called_end=2) == 2
    assert legal_plays(ts("2-1 6-5"), [t("6-2")], NOTRUMP, calls, called_end=2) == [t("2-1")]
    assert legal_plays(ts("2-1 6-5"), [t("6-2")], NOTRUMP, calls, called_end=6) == [t("6-5")]
    assert trick_winner(ts("6-2 6-5 2-1"), NOTRUMP, calls, called_end=2) == 0
    assert trick_winner(ts("6-2 6-5 2-1"), NOTRUMP, calls, called_end=6) == 1
    assert led_suit(t("5-5"), 3, calls) == 5                  # doubles and trumps need no call
    assert led_suit(t("5-3"), 3, calls) == TRUMP_SUIT
    with pytest.raises(ValueError):
        led_suit(t("6-2"), NOTRUMP, calls)
    with pytest.raises(ValueError):
        led_suit(t("6-2"), NOTRUMP, calls, called_end=4)


# ============================================================================ auction

def test_legal_bids():
    assert legal_bids(PASS, R) == [PASS, 4, 5, 6, 7, MOON]
    assert legal_bids(7, R) == [PASS, MOON]
    assert legal_bids(PASS, Rules(min_bid=3)) == [PASS, 3, 4, 5, 6, 7, MOON]
    assert legal_bids(PASS, Rules(min_bid=5)) == [PASS, 5, 6, 7, MOON]
    prior7 = Rules(moon_bid_requires_prior_7=True)             # A-MOON-9
    assert legal_bids(PASS, prior7) == [PASS, 4, 5, 6, 7]
    assert legal_bids(6, prior7) == [PASS, 7]
    assert legal_bids(7, prior7) == [PASS, MOON]
    assert legal_bids(PASS, R, forced="min") == [4]
    assert legal_bids(PASS, R, forced="bid") == [4, 5, 6, 7, MOON]


def test_single_round_auction():
    s = auction_state([], 3, 2, R)
    assert (s.to_move, s.legal) == (2, (PASS, 4, 5, 6, 7, MOON))
    s = auction_state([(2, 4), (0, PASS)], 3, 2, R)
    assert (s.to_move, s.legal) == (1, (PASS, 5, 6, 7, MOON))
    s = auction_state([(2, 4), (0, PASS), (1, PASS)], 3, 2, R)
    assert s.finished and (s.bidder, s.high_bid) == (2, 4)
    s = auction_state([(0, 6), (1, 7), (2, PASS), (3, PASS)], 4, 0, R)
    assert s.finished and (s.bidder, s.high_bid) == (1, 7)
    s = auction_state([(3, MOON)], 4, 3, R)                    # 21 ends it at once (MOON-4.4)
    assert s.finished and (s.bidder, s.high_bid) == (3, MOON)


def test_all_pass_variants_a_moon_8():
    passes = [(1, PASS), (2, PASS)]
    s = auction_state(passes + [(0, PASS)], 3, 1, R)
    assert s.thrown_in                                        # MOON-4.6
    assert auction_state(passes, 3, 1, R).legal == (PASS, 4, 5, 6, 7, MOON)
    s = auction_state(passes, 3, 1, Rules(all_pass="force_last_min"))
    assert (s.to_move, s.legal) == (0, (4,))
    assert auction_state(passes, 3, 1, Rules(all_pass="force_last_min", min_bid=3)).legal == (3,)
    s = auction_state(passes, 3, 1, Rules(all_pass="force_dealer"))
    assert s.to_move == ref.dealer(3, 1) == 0 and s.legal == (4, 5, 6, 7, MOON)
    s = auction_state([(1, PASS), (2, PASS), (3, PASS)], 4, 1, Rules(all_pass="force_last_min"))
    assert (s.to_move, s.legal) == (0, (4,))                  # S1: "if three pass, the fourth must bid 4"
    # not forced once someone has bid
    assert auction_state([(1, 4), (2, PASS)], 3, 1, Rules(all_pass="force_last_min")).legal == \
        (PASS, 5, 6, 7, MOON)


def test_thrown_in_hand_scores_nothing():
    hand = Hand(*ref.deal(np.random.default_rng(1), 3, R), 0, R)
    for _ in range(3):
        hand.act(PASS)
    assert hand.phase == DONE and hand.thrown_in and hand.result.score == (0, 0, 0)
    assert hand.result.made is None and hand.to_move() is None and hand.legal() == []
    rec = hand.record()
    assert rec["bidder"] is None and rec["trump"] is None and rec["bids"] == [[0, "pass"], [1, "pass"], [2, "pass"]]


def test_open_until_passes_auction_a_moon_16():
    rules = Rules(auction="open_until_passes")
    s = auction_state([(0, 4), (1, 5), (2, PASS)], 3, 0, rules)
    assert (s.to_move, s.legal) == (0, (PASS, 6, 7, MOON))     # P0 is asked again
    s = auction_state([(0, 4), (1, 5), (2, PASS), (0, 6)], 3, 0, rules)
    assert (s.to_move, s.legal) == (1, (PASS, 7, MOON))        # P2 passed: skipped for good
    s = auction_state([(0, 4), (1, 5), (2, PASS), (0, 6), (1, PASS)], 3, 0, rules)
    assert s.finished and (s.bidder, s.high_bid) == (0, 6)
    s = auction_state([(0, 4), (1, PASS), (2, PASS)], 3, 0, rules)
    assert s.finished and (s.bidder, s.high_bid) == (0, 4)
    s = auction_state([(0, PASS), (1, PASS), (2, PASS)], 3, 0, rules)
    assert s.thrown_in
    s = auction_state([(0, 7), (1, MOON)], 3, 0, rules)
    assert s.finished and s.bidder == 1
    s = auction_state([(1, PASS), (2, PASS), (3, 5), (0, 6), (3, 7)], 4, 1, rules)
    assert (s.to_move, s.legal) == (0, (PASS, MOON))
    s = auction_state([(0, PASS), (1, PASS)], 3, 0, Rules(auction="open_until_passes", all_pass="force_dealer"))
    assert (s.to_move, s.legal) == (2, (4, 5, 6, 7, MOON))


def test_forced_bid_recorded_as_the_seats_call():
    rules = Rules(all_pass="force_last_min")
    hand = Hand(*ref.deal(np.random.default_rng(2), 3, rules), 1, rules)
    hand.act(PASS)
    hand.act(PASS)
    assert hand.to_move() == 0 and hand.legal() == [4]
    hand.act(4)
    assert (hand.bidder, hand.bid, hand.phase) == (0, 4, DISCARD)
    assert hand.record()["bids"] == [[1, "pass"], [2, "pass"], [0, 4]]


# ============================================================================ widow, trump, lead

def _fixed_hand(rules: Rules, first_bidder: int = 0) -> Hand:
    hands = [ts("6-6 6-5 6-4 6-2 5-5 3-3 1-1"), ts("6-3 6-1 5-4 5-3 5-2 4-4 4-3"),
             ts("5-1 4-2 4-1 3-2 3-1 2-2 2-1")]
    return Hand(hands, t("0-0"), first_bidder, rules)


def test_widow_then_trump_moon_5():
    hand = _fixed_hand(R)
    hand.act(6), hand.act(PASS), hand.act(PASS)
    assert hand.phase == DISCARD and hand.to_move() == 0
    assert names(hand.legal()) == names(sorted(ts("6-6 6-5 6-4 6-2 5-5 3-3 1-1 0-0")))
    hand.act(t("0-0"))                                         # the widow itself may be discarded
    assert hand.phase == TRUMP and hand.legal() == [0, 1, 2, 3, 4, 5, 6, DOUBLES, NOTRUMP]
    hand.act(6)
    assert hand.phase == PLAY and hand.to_move() == 0 and len(hand.held[0]) == 7
    assert hand.record()["discard"] == "0-0" and hand.record()["widow"] == "0-0"


def test_trump_first_a_moon_6():
    rules = Rules(widow_timing="trump_first")
    hand = _fixed_hand(rules)
    hand.act(5), hand.act(PASS), hand.act(PASS)
    assert hand.phase == TRUMP and len(hand.held[0]) == 7
    hand.act(NOTRUMP)
    assert hand.phase == DISCARD and len(hand.held[0]) == 8
    hand.act(t("1-1"))
    assert hand.phase == PLAY and hand.trump == NOTRUMP and hand.discard == t("1-1")


def test_no_widow_variants_and_4p_trumps():
    rules = Rules(widow="none")
    hands, widow = ref.deal(np.random.default_rng(3), 3, rules)
    assert widow is None
    hand = Hand(hands, widow, 0, rules)
    hand.act(4), hand.act(PASS), hand.act(PASS)
    assert hand.phase == TRUMP
    assert hand.legal() == [1, 2, 3, 4, 5, 6, DOUBLES, NOTRUMP]        # no 0 in the 21-tile set
    assert ref.allowed_trumps(3, Rules(allow_doubles_trump=False)) == [0, 1, 2, 3, 4, 5, 6, NOTRUMP]
    assert ref.allowed_trumps(4, R) == [0, 1, 2, 3, 4, 5, 6, NOTRUMP]                     # MOON-10.3
    assert ref.allowed_trumps(4, Rules(allow_doubles_trump_4p=True)) == [0, 1, 2, 3, 4, 5, 6, DOUBLES, NOTRUMP]


def test_first_lead_trump_a_moon_10():
    rules = Rules(first_lead_trump=True)
    hand = _fixed_hand(rules)
    hand.act(5), hand.act(PASS), hand.act(PASS), hand.act(t("1-1")), hand.act(5)
    assert hand.legal() == ts("5-5 6-5")                        # must lead a trump
    assert legal_plays(ts("6-6 4-2"), [], 5, rules, first_lead=True) == ts("4-2 6-6")   # holds none
    default = _fixed_hand(R)
    default.act(5), default.act(PASS), default.act(PASS), default.act(t("1-1")), default.act(5)
    assert len(default.legal()) == 7


def test_leader_calls_end_in_a_hand():
    rules = Rules(lead_suit_rule="leader_calls_end")
    hand = _fixed_hand(rules)
    hand.act(5), hand.act(PASS), hand.act(PASS), hand.act(t("0-0")), hand.act(3)
    # trumps (3s) and doubles need no call; 6-5, 6-4, 6-2 are offered calling either end
    assert hand.legal() == [t("1-1"), t("3-3"), t("5-5"), (t("6-2"), 6), (t("6-2"), 2), (t("6-4"), 6),
                            (t("6-4"), 4), (t("6-5"), 6), (t("6-5"), 5), t("6-6")]
    with pytest.raises(IllegalMove, match="accepted: 1-1, 3-3, 5-5, 6-2 calling 6, 6-2 calling 2"):
        hand.act(t("6-4"))
    hand.act((t("6-4"), 4))
    assert hand.legal() == [t("4-4"), t("5-4")]                # P1 must follow fours
    hand.act(t("4-4"))
    assert hand.legal() == sorted(ts("4-2 4-1"))
    hand.act(t("4-1"))
    assert hand.trick_winners == [1]
    assert hand.record()["plays"] == [[0, "6-4", 4], [1, "4-4"], [2, "4-1"]]


# ============================================================================ scoring and game end

def test_success_test_a_moon_1():
    assert bid_made(5, 5, R) and bid_made(5, 7, R) and not bid_made(5, 4, R)
    gt = Rules(bid_success="strictly_greater")
    assert not bid_made(5, 5, gt) and bid_made(5, 6, gt) and not bid_made(7, 7, gt)
    assert bid_made(MOON, 7, R) and not bid_made(MOON, 6, R) and bid_made(MOON, 7, gt)
    assert score_hand(3, 1, 5, [1, 5, 1], gt).score == (1, -5, 1)


def test_three_player_scoring_moon_8():
    assert score_hand(3, 2, 4, [1, 2, 4], R).score == (1, 2, 4)
    assert score_hand(3, 2, 7, [0, 0, 7], R).score == (0, 0, 7)           # overtricks nothing extra
    assert score_hand(3, 1, 6, [3, 3, 1], R) == ref.HandScore((3, -6, 1), False)
    assert score_hand(3, 0, MOON, [5, 1, 1], R).score == (-21, 1, 1)      # A-MOON-4
    assert score_hand(3, 0, 4, [4, 2, 1], R).score == (4, 2, 1)           # exactly the bid makes it


def test_four_player_scoring_moon_10_4():
    assert score_hand(4, 2, 4, [5, 2], R).score == (5, 2)                  # tricks won
    assert score_hand(4, 3, 5, [3, 4], R).score == (3, -5)
    assert score_hand(4, 1, 4, [2, 5], Rules(bidder_score_4p="bid")).score == (2, 4)
    assert score_hand(4, 0, MOON, [7, 0], R).score == (21, 0)
    assert score_hand(4, 1, MOON, [1, 6], R).score == (1, -21)
    assert score_hand(4, 1, 4, [3, 4], Rules(bid_success="strictly_greater")).score == (3, -4)


def test_marks_scoring_a_moon_15():
    marks = Rules(scoring="marks7")
    assert score_hand(3, 0, 5, [5, 1, 1], marks).score == (1, 0, 0)
    assert score_hand(3, 0, 5, [4, 2, 1], marks).score == (0, 1, 1)
    assert score_hand(4, 1, 5, [1, 6], marks).score == (0, 1)
    assert score_hand(4, 1, 5, [3, 4], marks).score == (1, 0)
    assert game_winner([7, 3, 6], marks) == 0
    assert game_winner([6, 3, 6], marks) is None
    assert game_winner([20, 3, 6], R) is None


def test_instant_moon_variants_a_moon_3():
    win = Rules(moon_bid_scoring="instant_win")
    s = score_hand(3, 1, MOON, [0, 7, 0], win)
    assert s.score == (0, 21, 0) and s.wins_game == 1 and s.loses_game is None
    assert game_winner([-30, -9, 5], win, 1, wins_game=s.wins_game) == 1
    s = score_hand(3, 1, MOON, [1, 6, 0], win)
    assert s.score == (1, -21, 0) and s.wins_game is None and s.loses_game is None
    both = Rules(moon_bid_scoring="instant_win_or_loss")
    s = score_hand(3, 1, MOON, [1, 6, 0], both)
    assert s.loses_game == 1
    assert game_winner([3, -21, 3], both, 1, loses_game=1) == 2          # tie: first clockwise from 1
    assert game_winner([4, -21, 3], both, 1, loses_game=1) == 0
    s = score_hand(4, 3, MOON, [1, 6], both)
    assert s.loses_game == 1 and game_winner([1, -15], both, 3, loses_game=1) == 0
    assert score_hand(3, 1, 7, [0, 6, 1], both).loses_game is None       # only a 21 bid


def test_game_winner_moon_9_1():
    assert game_winner([21, 20, 3], R) == 0
    assert game_winner([22, 25, 3], R) == 1
    assert game_winner([21, 21, 3], R, 0) is None                         # tied: play on
    assert game_winner([25, 25], R, 1) is None
    bgo = Rules(end_tie="bidder_goes_out")                                # A-MOON-7
    assert game_winner([21, 21, 3], bgo, 1) == 1
    assert game_winner([21, 21, 3], bgo, 2) is None                       # bidder not among the leaders
    assert game_winner([21, 21, 3], bgo, None) is None
    assert game_winner([24, 24], bgo, 3) == 1                             # seat 3 is team 1
    assert game_winner([24, 24], bgo, 2) == 0


def test_set_twice_loses_4p_a_moon_18():
    rules = Rules(set_twice_loses_4p=True)

    def finished(bidder, bid, tricks):
        hand = Hand(*ref.deal(np.random.default_rng(0), 4, rules), bidder, rules)
        hand.phase, hand.bidder, hand.bid = DONE, bidder, bid
        hand.result = score_hand(4, bidder, bid, tricks, rules)
        return hand

    def thrown_in():
        hand = Hand(*ref.deal(np.random.default_rng(0), 4, rules), 0, rules)
        hand.phase, hand.result = DONE, score_hand(4, None, None, [0, 0], rules)
        return hand

    game = Game(4, rules, np.random.default_rng(0), first_bidder=0)
    assert game.finish_hand(finished(1, 5, [3, 4])) is None               # team 1 set once
    assert game.finish_hand(thrown_in()) is None                          # neither breaks nor extends
    assert game.finish_hand(finished(3, 4, [4, 3])) == 0                  # team 1 set again: loses
    game = Game(4, rules, np.random.default_rng(0), first_bidder=0)
    game.finish_hand(finished(1, 5, [3, 4]))
    game.finish_hand(finished(0, 4, [5, 2]))                              # a made hand breaks the run
    assert game.finish_hand(finished(3, 4, [4, 3])) is None
    plain = Game(4, R, np.random.default_rng(0), first_bidder=0)
    plain.finish_hand(finished(1, 5, [3, 4]))
    assert plain.finish_hand(finished(3, 4, [4, 3])) is None


def test_game_rotates_first_bidder_and_keeps_totals():
    game = Game(3, R, np.random.default_rng(5))
    first = game.first_bidder
    hand = game.new_hand()
    assert hand.first_bidder == first and hand.to_move() == first
    for _ in range(3):
        hand.act(PASS)
    assert game.finish_hand(hand) is None
    assert game.first_bidder == (first + 1) % 3 and game.scores == [0, 0, 0]


def test_illegal_choices_raise():
    hand = _fixed_hand(R)
    with pytest.raises(IllegalMove, match="accepted: pass, 4, 5, 6, 7, 21"):
        hand.act(3)
    hand.act(4), hand.act(PASS), hand.act(PASS)
    with pytest.raises(IllegalMove, match="6-3"):
        hand.act(t("6-3"))                                   # not in the bidder's hand
    hand.act(t("1-1"))
    with pytest.raises(IllegalMove):
        hand.act(9)
    with pytest.raises(IllegalMove, match="'spades'"):
        hand.act("spades")


def test_hand_rejects_a_bad_deal():
    hands, widow = ref.deal(np.random.default_rng(0), 3, R)
    with pytest.raises(ValueError):
        Hand(hands, None, 0, R)                                # the 22-tile set needs its widow
    with pytest.raises(ValueError):
        Hand([hands[0], hands[1], hands[1]], widow, 0, R)


@settings(max_examples=size(100, 3_000), deadline=None)
@given(trick=st.lists(st.integers(0, 27), min_size=3, max_size=4, unique=True),
       trump=st.integers(0, 8), variant=st.sampled_from(["high", "own_suit", "low"]))
def test_trick_winner_properties(trick, trump, variant):
    rules = Rules(notrump_doubles=variant)
    win = trick[trick_winner(trick, trump, rules)]
    led = led_suit(trick[0], trump, rules)
    trumps = [x for x in trick if is_trump(x, trump)]
    if trumps:                                                 # MOON-7.1: the highest trump wins
        assert is_trump(win, trump)
        assert all(ref.rank(win, TRUMP_SUIT, trump, rules) >= ref.rank(x, TRUMP_SUIT, trump, rules) for x in trumps)
    else:                                                      # else the highest of the led suit
        assert led in suits(win, trump, rules)
        assert all(ref.rank(win, led, trump, rules) > ref.rank(x, led, trump, rules) for x in trick if x != win)


# ============================================================================ random full hands

RANDOM_VARIANTS = [
    (3, R), (4, R),
    (3, Rules(widow="none", all_pass="force_dealer", first_lead_trump=True)),
    (3, Rules(widow_timing="trump_first", notrump_doubles="own_suit", lead_suit_rule="leader_calls_end",
              auction="open_until_passes", min_bid=3, bid_success="strictly_greater")),
    (4, Rules(allow_doubles_trump_4p=True, notrump_doubles="low", bidder_score_4p="bid",
              all_pass="force_last_min", moon_bid_requires_prior_7=True)),
    (4, Rules(lead_suit_rule="leader_calls_end", auction="open_until_passes", scoring="marks7",
              moon_bid_scoring="instant_win_or_loss", min_bid=5)),
]


def _check_random_hand(players: int, rules: Rules, rng: np.random.Generator) -> Hand:
    sides = dominoes.side_of_seats(players)
    hands, widow = ref.deal(rng, players, rules)
    hand = Hand(hands, widow, int(rng.integers(players)), rules)
    tab = rules_tables(rules)
    lead_seat = lead_call = None
    while hand.phase != DONE:
        legal = hand.legal()
        assert legal, hand.phase
        seat = hand.to_move()
        if hand.phase == PLAY:
            held = list(hand.held[seat])
            tiles = sorted({c[0] if isinstance(c, tuple) else c for c in legal})
            assert set(tiles) <= set(held)
            if hand.trick:
                # MOON-6.3 restated with the lookup tables: follow the led suit when able
                led = lead_call if lead_call is not None else int(tab.LED_SUIT[hand.trick[0], hand.trump])
                able = [x for x in held if tab.IN_SUIT[x, led, hand.trump]]
                assert tiles == sorted(able or held)
        choice = legal[int(rng.integers(len(legal)))]
        if hand.phase == PLAY and not hand.trick:
            lead_seat = seat
            lead_call = choice[1] if isinstance(choice, tuple) else None
        trick_before = list(hand.trick) + [choice[0] if isinstance(choice, tuple) else choice]
        n_won = len(hand.trick_winners)
        hand.act(choice)
        if len(hand.trick_winners) > n_won:
            # the tables' argmax agrees with the reference trick winner
            led = lead_call if lead_call is not None else int(tab.LED_SUIT[trick_before[0], hand.trump])
            pos = int(np.argmax(tab.POWER[trick_before, led, hand.trump]))
            assert hand.trick_winners[-1] == (lead_seat + pos) % players
    if hand.thrown_in:
        assert hand.result.score == (0,) * len(hand.tricks) and hand.plays == []
        return hand
    # 7 tricks, every tile played once, the discard and the widow accounted for
    assert len(hand.trick_winners) == 7 and sum(hand.tricks) == 7
    assert len(hand.plays) == 7 * players
    played = [tile for _, tile, _ in hand.plays]
    assert len(set(played)) == len(played)
    out = [] if hand.discard is None else [hand.discard]
    dealt = [x for h in hand.dealt for x in h] + ([] if hand.widow is None else [hand.widow])
    assert sorted(played + out) == sorted(dealt)
    assert all(not h for h in hand.held)
    # each player played 7 tiles, in clockwise order from each trick's leader
    for k in range(7):
        seats = [s for s, _, _ in hand.plays[k * players:(k + 1) * players]]
        leader = hand.bidder if k == 0 else hand.trick_winners[k - 1]
        assert seats == [(leader + i) % players for i in range(players)]
    # scores as specified (MOON-8, MOON-10.4, A-MOON-15), restated independently
    own, bid, won = sides[hand.bidder], hand.bid, hand.tricks[sides[hand.bidder]]
    made = won == 7 if bid == MOON else (won > bid if rules.bid_success == "strictly_greater" else won >= bid)
    assert hand.result.made == made
    for side, score in enumerate(hand.result.score):
        if rules.scoring == "marks7":
            expected = int(made) if side == own else int(not made)
        elif side != own:
            expected = hand.tricks[side]
        elif not made:
            expected = -bid
        elif players == 4 and bid != MOON and rules.bidder_score_4p == "tricks_won":
            expected = won
        else:
            expected = bid
        assert score == expected, (side, hand.record())
    return hand


@pytest.mark.parametrize("players,rules", RANDOM_VARIANTS)
def test_random_full_hands(players, rules):
    rng = np.random.default_rng(20240 + players)
    outcomes = set()
    for _ in range(150):
        hand = _check_random_hand(players, rules, rng)
        outcomes.add("thrown" if hand.thrown_in else hand.result.made)
        rec = hand.record()
        assert set(rec) >= {"first_bidder", "hands", "widow", "bids", "bidder", "bid", "discard", "trump",
                            "plays", "trick_winners", "tricks", "score"}
    assert {True, False} <= outcomes


def test_random_games_end():
    rng = np.random.default_rng(11)
    for players in (3, 4):
        rules = Rules()
        game = Game(players, rules, rng)
        while game.winner is None:
            assert game.hands_played < 500
            hand = game.new_hand()
            while hand.phase != DONE:
                legal = hand.legal()
                # cautious random bidders (the lowest bid or pass) so that scores climb
                if hand.phase == BIDDING:
                    legal = legal[:2]
                hand.act(legal[int(rng.integers(len(legal)))])
            game.finish_hand(hand)
        top = max(game.scores)
        assert game.scores[game.winner] == top >= 21 and game.scores.count(top) == 1
