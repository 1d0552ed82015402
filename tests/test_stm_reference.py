"""The Shoot the Moon rules oracle (simulator/shoot_the_moon/reference.py) against RULES.md §1.

Test names carry the rule ids; the `A15_n` tests are the RULES.md §A.15 test vectors.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, strategies as st

from moonshot.simulator.errors import IllegalMove
from moonshot.simulator.shoot_the_moon.cards import (
    BIG_MOONS, LITTLE_MOONS, card_name, hands_dealt, is_little, parse_card, parse_cards,
    side_of_seats,
)
from moonshot.simulator.shoot_the_moon.reference import (
    Hand, deal, game_winner, legal_plays, moon_chip_change, play_game, play_hand, round_award,
    hand_ends_game, trick_winner,
)
from moonshot.simulator.shoot_the_moon.rules import SUPPLY_CHIPS, RevokeModel, Rules

DEFAULT = Rules()
SEQUENTIAL = Rules(moon_chip_netting="sequential")
FINITE = Rules(chip_supply="finite40")


def cards(text: str) -> list[int]:
    return parse_cards(text.split())


def names(card_ids) -> set[str]:
    return {card_name(c) for c in card_ids}


def split_hands(*texts: str) -> list[list[int]]:
    """Parse hands together, so the two BM (LM) names get the two different ids."""
    flat = parse_cards(" ".join(texts).split())
    return [flat[5 * i:5 * i + 5] for i in range(len(texts))]


def play_named(rnd: Hand, text: str, detected: bool = False) -> None:
    """Play the card called `text` from the mover's hand."""
    seat = rnd.to_move()
    card = next(c for c in rnd.hands[seat] if card_name(c) == text.upper())
    rnd.play(card, revoke_detected=detected)


def play_all(rnd: Hand, texts: str) -> Hand:
    for text in texts.split():
        play_named(rnd, text)
    return rnd


def in_hand_order(rnd: Hand, legal: list[int]) -> int:
    """Scripted chooser: every seat plays its hand from left to right."""
    return rnd.hands[rnd.to_move()][0]


# A 3-player deal, dealer 0 (so the play order of trick 1 is 1, 2, 0), each hand listed in the
# order it is played. Tricks: seat 1 (G12), seat 2 (G11), seat 0 (P12, LM in it), seat 0 (B12),
# seat 0 (P11): tricks per seat (3, 1, 1).
THREE = ("G2 G4 P12 B12 P11", "G12 G3 LM B1 P3", "G1 G11 P1 B2 P4")


def three_player_round(rules: Rules = DEFAULT, chips=(2, 2, 2), dealer: int = 0) -> Hand:
    """THREE rotated so that the same cards are played for any dealer."""
    hands = split_hands(*THREE)
    rotated = [hands[(seat - dealer) % 3] for seat in range(3)]
    return play_hand(3, False, rules, dealer, rotated, list(chips), in_hand_order)


# --- §A.15 test vectors -----------------------------------------------------------------------

def test_A15_1_red_trumps_when_void():
    assert trick_winner(cards("G7 P12 R2"), DEFAULT) == 2


def test_A15_2_follow_suit_or_moon():
    assert names(legal_plays(cards("G3 R9 LM"), cards("G7"), DEFAULT)) == {"G3", "LM"}


def test_A15_3_little_moon_lead_highest_number_earliest():
    assert trick_winner(cards("LM R12 B12 G11"), DEFAULT) == 1       # B's R12
    assert trick_winner(cards("LM B12 R12 G11"), DEFAULT) == 1       # C plays first: C's B12


def test_A15_4_two_big_moons_first_wins_and_gains_two():
    trick = cards("B3 BM BM")
    assert trick_winner(trick, DEFAULT) == 1
    assert moon_chip_change(2, trick, DEFAULT, None) == 4


def test_A15_5_big_and_little_moon_net_zero_at_zero():
    assert moon_chip_change(0, cards("G5 BM LM"), DEFAULT, None) == 0
    assert moon_chip_change(0, cards("G5 LM BM"), DEFAULT, None) == 0


def test_A15_6_little_moon_at_zero_forgiven_then_three_tricks():
    rnd = three_player_round(chips=(0, 2, 2))
    assert rnd.trick_winners[2] == 0 and any(is_little(c) for _, c in rnd.plays[6:9])
    assert rnd.tricks == [3, 1, 1]
    assert rnd.moon_chips == [0, 0, 0]
    assert rnd.chips_after[0] == 1


def test_A15_6_little_moon_costs_a_chip_when_there_is_one():
    rnd = three_player_round(chips=(1, 2, 2))
    assert rnd.moon_chips == [-1, 0, 0]
    assert rnd.chips_after == [1, 3, 3]


def test_A15_7_round_awards():
    sides = [0, 1, 2, 3]
    assert round_award([3, 1, 1, 0], sides, 4, DEFAULT) == [1, 1, 1, 0]
    assert round_award([5, 0, 0, 0], sides, 4, DEFAULT) == [2, 0, 0, 0]
    assert round_award([2, 2, 1, 0], sides, 4, DEFAULT) == [0, 0, 1, 0]
    assert round_award([4, 1, 0, 0], sides, 4, DEFAULT) == [0, 1, 0, 0]


def test_A15_8_game_winner():
    assert game_winner([7, 7, 3], DEFAULT) is None
    assert game_winner([8, 7, 3], DEFAULT) == 0


def test_A15_9_two_players_dummy_wins_and_leads():
    # Dealer B = seat 1, non-dealer A = seat 0; the dummy is seat 2.
    hands = split_hands("G5 P3 G12 P12 P11", "G9 P5 G2 P1 P2", "R1 BM G1 B1 B2")
    rnd = Hand(2, False, DEFAULT, 1, hands, [2, 2])
    assert rnd.to_move() == 0
    play_named(rnd, "G5")
    assert rnd.to_move() == 1
    play_named(rnd, "G9")
    assert rnd.to_move() == 2
    assert names(rnd.legal()) == {"R1"}        # the top of the stack, though it does not follow
    play_named(rnd, "R1")
    assert rnd.trick_winners == [2]
    assert rnd.to_move() == 2                  # the dummy leads by turning its next card
    assert names(rnd.legal()) == {"BM"}
    assert rnd.order == [2, 0, 1]              # then A (non-dealer), then B (dealer)


# --- STM-4 legal plays ------------------------------------------------------------------------

def test_STM4_lead_anything():
    hand = cards("G3 R9 LM BM P1")
    assert legal_plays(hand, [], DEFAULT) == hand


def test_STM4_3_void_may_play_anything_not_forced_to_trump():
    hand = cards("G3 R9 BM")
    assert legal_plays(hand, cards("P7 P8"), DEFAULT) == hand


def test_STM4_3_big_moon_allowed_when_able_to_follow():
    assert names(legal_plays(cards("P3 R9 BM P12"), cards("P7"), DEFAULT)) == {"P3", "BM", "P12"}


def test_STM4_4_moon_lead_sets_no_suit_and_second_card_neither():
    hand = cards("G3 R9 P2")
    assert legal_plays(hand, cards("BM"), DEFAULT) == hand
    assert legal_plays(hand, cards("LM G7"), DEFAULT) == hand


# --- STM-5 trick winner -----------------------------------------------------------------------

def test_STM5_led_suit_wins_without_red():
    assert trick_winner(cards("G7 G9 P12 G8"), DEFAULT) == 1


def test_STM5_3_highest_red():
    assert trick_winner(cards("G7 R3 R11 G12"), DEFAULT) == 2


def test_STM5_1_big_moon_beats_red_and_little_moon_lead():
    assert trick_winner(cards("R12 G1 BM"), DEFAULT) == 2
    assert trick_winner(cards("LM R12 BM"), DEFAULT) == 2


def test_STM5_2_little_moon_never_wins_and_later_little_moon_is_a_discard():
    assert trick_winner(cards("LM LM G1"), DEFAULT) == 2
    assert trick_winner(cards("G5 LM G3"), DEFAULT) == 0


def test_A_STM_7_variant_red_still_trumps_little_moon_lead():
    variant = Rules(little_moon_lead_trumps=True)
    assert trick_winner(cards("LM B12 R2 G11"), variant) == 2
    assert trick_winner(cards("LM B12 R2 G11"), DEFAULT) == 1
    assert trick_winner(cards("LM B11 P12 G11"), variant) == 2      # no red: highest number


@given(st.lists(st.integers(0, 51), min_size=3, max_size=7, unique=True))
def test_STM5_winner_properties(trick):
    pos = trick_winner(trick, DEFAULT)
    assert not is_little(trick[pos])                                  # STM-5.2
    bigs = [i for i, c in enumerate(trick) if c in BIG_MOONS]
    if bigs:
        assert pos == bigs[0]                                         # STM-5.1


# --- STM-6 Moon chips, A-STM-3 netting, A-STM-5 supply ----------------------------------------

def test_STM6_floor_forgives_debt():
    assert moon_chip_change(0, cards("G5 LM LM"), DEFAULT, None) == 0
    assert moon_chip_change(1, cards("G5 LM LM"), DEFAULT, None) == 0
    assert moon_chip_change(3, cards("G5 LM LM"), DEFAULT, None) == 1
    assert moon_chip_change(3, cards("G5 G6 G7"), DEFAULT, None) == 3


def test_A_STM_3_sequential_vs_net():
    little_first = cards("G5 LM BM")
    assert moon_chip_change(0, little_first, DEFAULT, None) == 0      # net: 0 + (1 - 1)
    assert moon_chip_change(0, little_first, SEQUENTIAL, None) == 1   # 0 -> 0 (floored) -> 1
    big_first = cards("G5 BM LM")
    assert moon_chip_change(0, big_first, SEQUENTIAL, None) == 0      # 0 -> 1 -> 0
    two_little = cards("LM BM LM G2")
    assert moon_chip_change(0, two_little, DEFAULT, None) == 0
    assert moon_chip_change(1, two_little, SEQUENTIAL, None) == 0     # 1 -> 0 -> 1 -> 0


def test_A_STM_5_finite_supply_caps_gains_not_losses():
    rules = FINITE
    assert moon_chip_change(5, cards("B3 BM BM"), rules, 1) == 6
    assert moon_chip_change(5, cards("B3 BM BM"), rules, 0) == 5
    assert moon_chip_change(5, cards("B3 BM BM"), rules, None) == 7
    assert moon_chip_change(5, cards("B3 LM"), rules, 0) == 4


def test_A_STM_5_sequential_with_finite_supply():
    # Sequential, empty supply: BM unpaid then LM costs 1; LM first returns a chip the BM regains.
    rules = dataclasses.replace(SEQUENTIAL, chip_supply="finite40")
    assert moon_chip_change(3, cards("G1 BM LM"), rules, 0) == 2
    assert moon_chip_change(3, cards("G1 LM BM"), rules, 0) == 3
    assert moon_chip_change(3, cards("G1 BM LM"), FINITE, 0) == 3     # net 0


# --- STM-7 and A-STM-1: round awards ----------------------------------------------------------

def test_A_STM_1_example_team_total_vs_per_player():
    # AC against BD: A=seat 0, B=1, C=2, D=3; tricks A=1, B=1, C=2, D=1.
    sides = side_of_seats(4, True, DEFAULT)
    assert sides == [0, 1, 0, 1]
    assert round_award([1, 1, 2, 1], sides, 2, DEFAULT) == [1, 0]
    assert round_award([1, 1, 2, 1], sides, 2, Rules(partnership_trick_count="per_player")) == [1, 2]


def test_STM7_team_shoots_the_moon_gets_two():
    sides = [0, 1, 0, 1]
    assert round_award([3, 0, 2, 0], sides, 2, DEFAULT) == [2, 0]
    assert round_award([3, 0, 2, 0], sides, 2, Rules(partnership_trick_count="per_player")) == [1, 0]


def test_A_STM_2_three_teams_of_two():
    rules = Rules(six_player_teams="three_teams_of_two")
    sides = side_of_seats(6, True, rules)
    assert sides == [0, 1, 2, 0, 1, 2]
    assert round_award([1, 1, 1, 1, 1, 0], sides, 3, rules) == [0, 0, 1]
    per_player = dataclasses.replace(rules, partnership_trick_count="per_player")
    assert round_award([1, 1, 1, 1, 1, 0], sides, 3, per_player) == [2, 2, 1]


def test_STM7_ignores_trailing_dummy_entry():
    assert round_award([1, 0, 4], [0, 1], 2, DEFAULT) == [1, 0]


def test_STM7_round_scoring_through_round():
    rnd = three_player_round(chips=(2, 2, 2))
    assert rnd.done and not rnd.annulled
    assert rnd.trick_winners == [1, 2, 0, 0, 0]
    assert rnd.tricks == [3, 1, 1]
    assert rnd.moon_chips == [-1, 0, 0]        # seat 0 took the LM trick: 2 -> 1
    assert rnd.round_chips == [1, 1, 1]
    assert rnd.chips_after == [2, 3, 3]
    assert rnd.penalty == [0, 0, 0]


# --- A-STM-5 finite 40-chip supply through a round ---------------------------------------------

def test_A_STM_5_finite_supply_pays_from_the_dealers_left():
    # Dealer 0: (13, 13, 14) = 40 chips held; the LM trick returns one of seat 0's chips to the
    # supply, and only seat 1 (the first leader) can be paid its +1.
    rnd = three_player_round(FINITE, chips=(13, 13, 14), dealer=0)
    assert rnd.moon_chips == [-1, 0, 0]
    assert rnd.round_chips == [0, 1, 0]
    assert rnd.chips_after == [12, 14, 14]
    # Dealer 1: seat 1 takes the LM trick, and seat 2 is on the dealer's left.
    rnd = three_player_round(FINITE, chips=(13, 13, 14), dealer=1)
    assert rnd.moon_chips == [0, -1, 0]
    assert rnd.round_chips == [0, 0, 1]
    assert rnd.chips_after == [13, 12, 15]


def test_A_STM_5_unlimited_supply_is_a_score_counter():
    rnd = three_player_round(DEFAULT, chips=(20, 20, 20))
    assert rnd.chips_after == [20, 21, 21]
    assert sum(rnd.chips_after) > SUPPLY_CHIPS


# --- STM-10: two players and the dummy ---------------------------------------------------------

def test_STM10_5_dummy_tricks_and_moon_effects_count_for_nobody():
    # Dealer seat 1. The dummy wins trick 1 (R1 over A's G5 and B's LM) and trick 2 (its own
    # BM): both Moon effects are void. A then wins the last three tricks.
    hands = split_hands("G5 P3 G12 P12 P11", "LM P5 G2 P1 P2", "R1 BM G1 B1 B2")
    rnd = play_hand(2, False, DEFAULT, 1, hands, [1, 1], in_hand_order)
    assert rnd.trick_winners == [2, 2, 0, 0, 0]
    assert rnd.tricks_per_seat == [3, 0, 2]
    assert rnd.tricks == [3, 0]
    assert rnd.moon_chips == [0, 0]
    assert rnd.round_chips == [1, 0]
    assert rnd.chips_after == [2, 1]


def test_STM10_blind_dummy_turns_its_stack_in_order():
    hands = split_hands("G5 P3 G12 P12 P11", "LM P5 G2 P1 P2", "R1 BM G1 B1 B2")
    rnd = play_hand(2, False, DEFAULT, 1, hands, [1, 1], in_hand_order)
    assert [c for seat, c in rnd.plays if seat == 2] == hands[2]


def test_A_STM_4_open_hand_dummy_follows_suit_chosen_by_non_dealer():
    hands = split_hands("G5 P3 G12 P12 P11", "G9 P5 G2 P1 P2", "R1 G1 BM B1 B2")
    open_hand = Rules(dummy_mode="open_hand_nondealer_chooses")
    rnd = play_all(Hand(2, False, open_hand, 1, hands, [2, 2]), "G5 G9")
    assert rnd.to_move() == 2 and rnd.chooser() == 0
    assert names(rnd.legal()) == {"G1", "BM"}
    with pytest.raises(IllegalMove):
        play_named(rnd, "R1")
    blind = play_all(Hand(2, False, DEFAULT, 1, hands, [2, 2]), "G5 G9")
    assert blind.chooser() is None and names(blind.legal()) == {"R1"}


# --- STM-2.2 partnerships ---------------------------------------------------------------------

def test_STM2_partners_share_chips_and_tricks():
    # 4 players in partnership, dealer 3: seat 2's BM wins trick 1 for side {0, 2}.
    hands = split_hands("G1 P2 B2 G4 R12", "G2 P3 B3 G5 R2", "BM P12 B1 G6 R3", "G3 P1 B12 G12 R1")
    rnd = play_hand(4, True, DEFAULT, 3, hands, [2, 2], in_hand_order)
    assert rnd.trick_winners == [2, 2, 3, 3, 0]
    assert rnd.tricks_per_seat == [1, 0, 2, 2]
    assert rnd.tricks == [3, 2]
    assert rnd.moon_chips == [1, 0]
    assert rnd.round_chips == [1, 0]
    assert rnd.chips_after == [4, 2]


# --- STM-11 revokes ---------------------------------------------------------------------------

REVOKE = Rules(revoke_model=RevokeModel(0.05, 0.5))
# Same deal as THREE; in trick 1 seat 2 revokes with B2 although it holds G1 and G11.
REVOKE_PLAYS = ("G12", "B2", "G2", "G3", "G11", "G4", "P1", "P12", "LM", "B12", "B1", "G1",
                "P11", "P3", "P4")


def revoke_round(rules: Rules, chips, detected: bool) -> Hand:
    rnd = Hand(3, False, rules, 0, split_hands(*THREE), list(chips))
    for text in REVOKE_PLAYS:
        play_named(rnd, text, detected=detected and text == "B2")
    return rnd


def test_STM11_1_revoke_is_illegal_without_the_model():
    rnd = play_all(Hand(3, False, DEFAULT, 0, split_hands(*THREE), [2, 2, 2]), "G12")
    with pytest.raises(ValueError):
        play_named(rnd, "B2")
    assert rnd.plays == [(1, parse_card("G12"))]


def test_STM11_3_detected_revoke_annuls_round_and_costs_a_chip():
    rnd = revoke_round(REVOKE, (1, 2, 2), detected=True)
    assert rnd.annulled
    assert rnd.revokes == [(2, True)]
    assert rnd.trick_winners == [1, 2, 0, 0, 0] and rnd.tricks == [3, 1, 1]
    assert rnd.round_chips == [0, 0, 0]
    assert rnd.moon_chips == [0, 0, 0]        # seat 0's LM loss is reversed
    assert rnd.penalty == [0, 0, 1]
    assert rnd.chips_after == [1, 2, 1]


def test_A_STM_6_keep_hand_chips_variant():
    rules = dataclasses.replace(REVOKE, revoke_keep_hand_chips=True)
    rnd = revoke_round(rules, (1, 2, 2), detected=True)
    assert rnd.annulled
    assert rnd.moon_chips == [-1, 0, 0]
    assert rnd.round_chips == [0, 0, 0]
    assert rnd.chips_after == [0, 2, 1]


def test_STM11_undetected_revoke_stands():
    rnd = revoke_round(REVOKE, (1, 2, 2), detected=False)
    assert not rnd.annulled and rnd.revokes == [(2, False)]
    assert rnd.chips_after == [1, 3, 3]


def test_STM11_3_penalty_never_below_zero():
    rnd = revoke_round(REVOKE, (1, 2, 0), detected=True)
    assert rnd.penalty == [0, 0, 0]
    assert rnd.chips_after == [1, 2, 0]


def test_STM11_penalty_is_per_side_once():
    # 4 players in partnership: seats 1 and 3 (side 1) both revoke in trick 1, both detected.
    hands = split_hands("G1 P2 B2 G4 R12", "G2 P3 B3 G5 R2", "BM P12 B1 G6 R3", "G3 P1 B12 G12 R1")
    rnd = Hand(4, True, REVOKE, 3, hands, [2, 2])
    play_named(rnd, "G1")
    play_named(rnd, "P3", detected=True)
    play_named(rnd, "BM")
    play_named(rnd, "P1", detected=True)
    while not rnd.done:
        rnd.play(rnd.legal()[0])
    assert rnd.annulled
    assert rnd.penalty == [0, 1]
    assert rnd.chips_after == [2, 1]


def test_STM9_1_an_annulled_round_never_ends_the_game():
    # Seat 2's detected revoke costs side 2 a chip: (7, 6, 7) -> (7, 6, 6) leaves side 0 alone at 7.
    rnd = revoke_round(REVOKE, (7, 6, 7), detected=True)
    assert rnd.annulled and rnd.chips_after == [7, 6, 6]
    assert game_winner(rnd.chips_after, REVOKE) == 0         # the chips alone would end it...
    assert hand_ends_game(rnd) is None                       # ...but the round is replayed (STM-11.3)
    completed = revoke_round(REVOKE, (7, 6, 7), detected=False)
    assert completed.chips_after == [7, 7, 8] and hand_ends_game(completed) == 2
    with pytest.raises(IllegalMove):
        hand_ends_game(Hand(3, False, REVOKE, 0, split_hands(*THREE), [7, 6, 7]))


def test_STM9_1_the_game_goes_on_to_the_replay():
    rng = np.random.default_rng(4)
    deals = iter([split_hands(*THREE)] + [deal(rng, 3) for _ in range(100)])
    script = list(REVOKE_PLAYS)

    def choose(rnd: Hand, legal: list[int]):
        if script:                                            # round 1: the scripted revoke, detected
            text = script.pop(0)
            return next(c for c in rnd.hands[rnd.to_move()] if card_name(c) == text), text == "B2"
        return legal[0]

    rounds, winner = play_game(3, False, REVOKE, 0, lambda: next(deals), choose, chips=[7, 6, 7])
    assert rounds[0].annulled and rounds[0].chips_after == [7, 6, 6]
    assert len(rounds) >= 2
    assert rounds[1].dealer == 0 and rounds[1].chips_before == [7, 6, 6]     # same dealer, the chips kept
    assert winner is not None and winner == hand_ends_game(rounds[-1]) and not rounds[-1].annulled


def test_STM11_what_is_not_a_revoke():
    rnd = play_all(Hand(3, False, REVOKE, 0, split_hands(*THREE), [2, 2, 2]), "G12")
    assert names(rnd.revoke_cards()) == {"P1", "B2", "P4"}
    with pytest.raises(IllegalMove):
        rnd.play(parse_card("R5"))              # not in the hand
    # A void player and a Moon lead leave nothing to revoke.
    void = Hand(3, False, REVOKE, 0, split_hands(*THREE), [2, 2, 2])
    for text in REVOKE_PLAYS[:11]:
        play_named(void, text)
    assert void.to_move() == 2 and void.revoke_cards() == []          # seat 2 has no blue left
    moon_lead = Hand(3, False, REVOKE, 0, split_hands("G2 G4 P12 B12 P11", "LM G3 G12 B1 P3",
                                                       "G1 G11 P1 B2 P4"), [2, 2, 2])
    play_named(moon_lead, "LM")
    assert moon_lead.revoke_cards() == []
    blind_dummy = Hand(2, False, REVOKE, 1, split_hands("G5 P3 G12 P12 P11", "G9 P5 G2 P1 P2",
                                                         "R1 BM G1 B1 B2"), [2, 2])
    play_all(blind_dummy, "G5 G9")
    assert blind_dummy.revoke_cards() == []     # the dummy never revokes
    open_dummy = Hand(2, False, dataclasses.replace(REVOKE, dummy_mode="open_hand_nondealer_chooses"),
                       1, split_hands("G5 P3 G12 P12 P11", "G9 P5 G2 P1 P2", "R1 BM G1 B1 B2"), [2, 2])
    play_all(open_dummy, "G5 G9")
    with pytest.raises(IllegalMove):
        play_named(open_dummy, "R1")


# --- Round (hand) bookkeeping ------------------------------------------------------------------------

def test_round_rejects_bad_input_and_play_after_the_end():
    with pytest.raises(ValueError):
        Hand(3, False, DEFAULT, 0, split_hands(*THREE)[:2], [2, 2, 2])
    dup = split_hands(*THREE)
    dup[1][0] = dup[0][0]
    with pytest.raises(ValueError):
        Hand(3, False, DEFAULT, 0, dup, [2, 2, 2])
    with pytest.raises(ValueError):
        Hand(3, False, DEFAULT, 0, split_hands(*THREE), [2, 2])
    rnd = three_player_round()
    with pytest.raises(IllegalMove):
        rnd.play(rnd.dealt[0][0])


def test_deal_uses_one_permutation():
    hands = deal(np.random.default_rng(7), 2)
    perm = np.random.default_rng(7).permutation(52)
    assert hands == [list(perm[0:5]), list(perm[5:10]), list(perm[10:15])]
    assert all(type(c) is int for hand in hands for c in hand)
    assert len(deal(np.random.default_rng(7), 5)) == 5


# --- Random full rounds: invariants -----------------------------------------------------------

TABLES = [
    (2, False, DEFAULT),
    (2, False, Rules(dummy_mode="open_hand_nondealer_chooses", moon_chip_netting="sequential")),
    (3, False, DEFAULT),
    (3, False, Rules(chip_supply="finite40", starting_chips=12)),
    (4, False, Rules(little_moon_lead_trumps=True)),
    (4, True, DEFAULT),
    (4, True, Rules(partnership_trick_count="per_player", revoke_model=RevokeModel(0.2, 0.5))),
    (5, False, Rules(revoke_model=RevokeModel(0.2, 0.5), revoke_keep_hand_chips=True)),
    (6, False, Rules(chip_supply="finite40", starting_chips=6, moon_chip_netting="sequential")),
    (6, True, DEFAULT),
    (6, True, Rules(six_player_teams="three_teams_of_two", chip_supply="finite40")),
]


def random_chooser(rng: np.random.Generator, rules: Rules):
    def choose(rnd: Hand, legal: list[int]):
        revokes = rnd.revoke_cards()
        if revokes and rng.random() < rules.revoke_model.p_revoke:
            return int(rng.choice(revokes)), bool(rng.random() < rules.revoke_model.p_detect)
        return int(rng.choice(legal))
    return choose


def check_round(rnd: Hand, players: int) -> None:
    n_hands = hands_dealt(players)
    dummy = 2 if players == 2 else None
    assert len(rnd.trick_winners) == 5 and len(rnd.plays) == 5 * n_hands
    for seat in range(n_hands):
        played = [c for s, c in rnd.plays if s == seat]
        assert sorted(played) == sorted(rnd.dealt[seat])          # each card once, by its owner
        if seat == dummy and rnd.rules.dummy_mode == "blind_stack":
            assert played == rnd.dealt[seat]                      # turned in stack order
    for k in range(5):
        trick = rnd.plays[k * n_hands:(k + 1) * n_hands]
        leader = trick[0][0]
        expected_leader = (rnd.dealer + 1) % players if k == 0 else rnd.trick_winners[k - 1]
        assert leader == expected_leader
        assert len({s for s, _ in trick}) == n_hands
        winning_card = dict(trick)[rnd.trick_winners[k]]
        assert winning_card not in LITTLE_MOONS
    dummy_tricks = rnd.tricks_per_seat[dummy] if dummy is not None else 0
    assert sum(rnd.tricks) == 5 - dummy_tricks
    assert all(c >= 0 for c in rnd.chips_after)
    assert rnd.chips_after == [b + m + r - p for b, m, r, p in
                               zip(rnd.chips_before, rnd.moon_chips, rnd.round_chips, rnd.penalty)]
    assert rnd.annulled == any(detected for _, detected in rnd.revokes)
    if rnd.annulled:
        assert rnd.round_chips == [0] * rnd.n_sides
    if rnd.rules.chip_supply == "finite40":
        assert sum(rnd.chips_after) <= SUPPLY_CHIPS


@pytest.mark.parametrize("players,partners,rules", TABLES,
                         ids=[f"{p}p{'-partners' if q else ''}-{i}" for i, (p, q, _) in enumerate(TABLES)])
def test_random_rounds_keep_invariants(players, partners, rules):
    rng = np.random.default_rng(1000 + players)
    choose = random_chooser(rng, rules)
    n_sides = len(set(side_of_seats(players, partners, rules)))
    chips = [rules.starting_chips] * n_sides
    dealer = 0
    for _ in range(300):
        rnd = play_hand(players, partners, rules, dealer, deal(rng, players), chips, choose)
        check_round(rnd, players)
        chips = rnd.chips_after
        if hand_ends_game(rnd) is not None:                      # STM-9: a new game
            chips = [rules.starting_chips] * n_sides
        if not rnd.annulled:
            dealer = (dealer + 1) % players                       # STM-8.1 (STM-11.3: same dealer)
