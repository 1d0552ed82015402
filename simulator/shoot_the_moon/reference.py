"""Shoot the Moon, one round at a time: the readable rules oracle (RULES.md §1).

Plain Python written to be checked against RULES.md line by line; the rule ids (STM-x.y,
A-STM-x) in the comments point there. The batch engine (engine.py) is tested against this file:
same deal, same choices -> same legal sets, trick winners and chips.

Vocabulary:
  card     an int card id from cards.py (numbered cards 0..47, Big Moons 48/49, Little Moons 50/51)
  trick    the cards played so far to the current trick, in play order (trick[0] is the lead)
  seat     0..players-1; with two players the dummy plays as seat `players` (= 2)
  side     an individual player, or a partnership (RULES.md C-4); chips are held per side
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from moonshot.simulator.errors import BadInput, IllegalMove
from moonshot.simulator.shoot_the_moon.cards import (
    DECK_SIZE, HAND_SIZE, MOON_SUIT, RED, TRICKS, card_name, dummy_seat, first_leader,
    hands_dealt, is_big, is_little, number, play_order, side_of_seats, suit, validate_table,
)
from moonshot.simulator.shoot_the_moon.rules import SUPPLY_CHIPS, Rules


# ---------------------------------------------------------------------------------------------
# Single rules, as functions of plain lists
# ---------------------------------------------------------------------------------------------

def is_moon(card: int) -> bool:
    """Big and Little Moons have no suit and no number (STM-1.1)."""
    return suit(card) == MOON_SUIT


def led_suit(trick: list[int]) -> int | None:
    """The suit the trick must follow, or None: nothing led yet, or a Moon card led (STM-4.4)."""
    if not trick or is_moon(trick[0]):
        return None
    return suit(trick[0])


def holds_suit(hand: list[int], s: int) -> bool:
    """Whether `hand` holds a numbered card of suit `s` (Moon cards never count as a suit)."""
    return any(suit(card) == s for card in hand)


def legal_plays(hand: list[int], trick: list[int], rules: Rules) -> list[int]:
    """The cards of `hand` that may be played onto `trick` (STM-4), in hand order."""
    s = led_suit(trick)
    if s is None:
        return list(hand)                      # STM-4.1 any lead; STM-4.4 a Moon lead sets no suit
    if not holds_suit(hand, s):
        return list(hand)                      # STM-4.3 void in the led suit: any card (STM-4.5)
    # STM-4.3: follow suit, or play a Moon card "at any time instead of a regular card".
    return [card for card in hand if suit(card) == s or is_moon(card)]


def is_revoke(hand: list[int], trick: list[int], card: int) -> bool:
    """STM-11.2: a numbered card of another suit played by someone able to follow suit."""
    s = led_suit(trick)
    return (s is not None and card in hand and holds_suit(hand, s)
            and not is_moon(card) and suit(card) != s)


def _highest(trick: list[int], positions: list[int]) -> int:
    """Position of the highest number among `positions`; the earliest card wins a tie (STM-5.2)."""
    return max(positions, key=lambda i: (number(trick[i]), -i))


def trick_winner(trick: list[int], rules: Rules) -> int:
    """Position (index into `trick`) of the winning card (STM-5: the first rule that matches)."""
    big_moons = [i for i, card in enumerate(trick) if is_big(card)]
    if big_moons:
        return big_moons[0]                    # STM-5.1 the first Big Moon played wins
    reds = [i for i, card in enumerate(trick) if suit(card) == RED]
    numbered = [i for i, card in enumerate(trick) if not is_moon(card)]
    if not numbered:
        raise ValueError(f"no card can win the trick {[card_name(c) for c in trick]} (STM-5.5)")
    if is_little(trick[0]):
        if rules.little_moon_lead_trumps and reds:
            return _highest(trick, reds)       # A-STM-7 variant: red still trumps a Little Moon lead
        return _highest(trick, numbered)       # STM-5.2 highest number of any colour, earliest on ties
    if reds:
        return _highest(trick, reds)           # STM-5.3 the highest red
    led = [i for i in numbered if suit(trick[i]) == suit(trick[0])]
    return _highest(trick, led)                # STM-5.4 the highest card of the led suit


def _apply_moon_delta(chips: int, delta: int, supply: int | None) -> tuple[int, int | None]:
    """Change `chips` by `delta`, never below 0 (STM-6.3); a gain is capped by a finite supply."""
    if supply is not None and delta > 0:
        delta = min(delta, supply)             # A-STM-5 finite40: a gain that cannot be paid is lost
    new = max(0, chips + delta)                # STM-6.3 an unpayable loss is forgiven
    if supply is not None:
        supply -= new - chips                  # STM-6.1 gains come from the supply, losses return
    return new, supply


def moon_chip_change(chips: int, trick: list[int], rules: Rules, supply: int | None = None) -> int:
    """The trick winner's chips after the trick's Moon cards (STM-6.1, A-STM-3).

    `supply` is the number of chips left in a finite 40-chip supply (stm.chip_supply=finite40),
    or None when the supply is unlimited.
    """
    steps = [+1 if is_big(card) else -1 for card in trick if is_moon(card)]
    if rules.moon_chip_netting == "net_per_trick":
        steps = [sum(steps)]                   # A-STM-3 default: net, then floor once
    # otherwise A-STM-3 sequential: each Moon card in play order, floored after each
    for delta in steps:
        chips, supply = _apply_moon_delta(chips, delta, supply)
    return chips


def trick_award(t: int) -> int:
    """STM-7.2: +1 for 1 or 3 tricks, +2 (in total) for all 5, else 0."""
    if t == TRICKS:
        return 2
    return 1 if t in (1, 3) else 0


def round_award(tricks_per_seat: list[int], side_of_seat: list[int], n_sides: int,
                rules: Rules) -> list[int]:
    """End-of-round chips per side (STM-7, A-STM-1).

    `tricks_per_seat[seat]` for every player seat in `side_of_seat`; a trailing dummy entry
    (two players) is ignored, since the dummy's tricks count for nobody (STM-10.5).
    """
    award = [0] * n_sides
    if rules.partnership_trick_count == "per_player":
        for seat, side in enumerate(side_of_seat):      # A-STM-1 variant: award each player, sum
            award[side] += trick_award(tricks_per_seat[seat])
        return award
    team_tricks = [0] * n_sides                         # A-STM-1 default: the team total
    for seat, side in enumerate(side_of_seat):
        team_tricks[side] += tricks_per_seat[seat]
    return [trick_award(t) for t in team_tricks]


def game_winner(chips: list[int], rules: Rules) -> int | None:
    """STM-9.2: the side with at least target_chips and strictly more than every other side."""
    best = max(chips)
    if best < rules.target_chips or chips.count(best) > 1:
        return None
    return chips.index(best)


def deal(rng: np.random.Generator, players: int) -> list[list[int]]:
    """STM-3.2/STM-10.1: 5 cards per hand from one shuffle; with two players the third hand is
    the dummy stack, top card first. The batch engine deals the same way from the same draw."""
    perm = rng.permutation(DECK_SIZE)
    return [[int(card) for card in perm[HAND_SIZE * h:HAND_SIZE * (h + 1)]]
            for h in range(hands_dealt(players))]


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------

class Hand:
    """The state of one hand, a round in STM's words (5 tricks), played card by card with `play`
    (Hand, as in the other games' references and in hand histories).

    During play: `hands` (cards left per seat; the dummy's is its stack, top first), `trick`,
    `order` (seats of the current trick in play order), `leader`, `chips` (per side, live),
    `plays`, `trick_winners`, `tricks_per_seat` (dummy included), `tricks` (per side).
    After the 5th trick (`done`): `moon_chips`, `round_chips`, `penalty`, `chips_after` (per
    side) and `annulled`, with chips_after == chips_before + moon_chips + round_chips - penalty.
    """

    def __init__(self, players: int, partners: bool, rules: Rules, dealer: int,
                 hands: list[list[int]], chips: list[int]):
        validate_table(players, partners)
        self.players = players
        self.partners = partners
        self.rules = rules
        self.dealer = dealer
        self.dummy = dummy_seat(players)                # None, or 2 with two players (STM-10)
        self.side_of_seat = side_of_seats(players, partners, rules)
        self.n_sides = max(self.side_of_seat) + 1
        self._check_input(hands, chips)

        self.dealt = [list(hand) for hand in hands]
        self.hands = [list(hand) for hand in hands]
        self.chips_before = list(chips)
        self.chips = list(chips)

        self.leader = first_leader(players, dealer)     # STM-4.1, STM-10.2
        self.order = play_order(players, dealer, self.leader)
        self.trick: list[int] = []
        self.plays: list[tuple[int, int]] = []
        self.trick_winners: list[int] = []
        self.tricks_per_seat = [0] * len(hands)
        self.tricks = [0] * self.n_sides
        self.revokes: list[tuple[int, bool]] = []       # (seat, detected) per revoke (STM-11)

        self.done = False
        self.annulled = False
        self.moon_chips: list[int] | None = None
        self.round_chips: list[int] | None = None
        self.penalty: list[int] | None = None
        self.chips_after: list[int] | None = None

    def _check_input(self, hands: list[list[int]], chips: list[int]) -> None:
        if not 0 <= self.dealer < self.players:
            raise BadInput(f"dealer {self.dealer} is not a seat; accepted: 0..{self.players - 1}")
        if len(hands) != hands_dealt(self.players):
            raise BadInput(f"{len(hands)} hands given; {self.players} players need "
                           f"{hands_dealt(self.players)}")
        cards = [card for hand in hands for card in hand]
        if any(len(hand) != HAND_SIZE for hand in hands):
            raise BadInput(f"every hand needs {HAND_SIZE} cards, got {[len(h) for h in hands]}")
        if any(not 0 <= card < DECK_SIZE for card in cards) or len(set(cards)) != len(cards):
            raise BadInput("hands must hold distinct card ids 0..51")
        if len(chips) != self.n_sides or any(c < 0 for c in chips):
            raise BadInput(f"chips must be {self.n_sides} non-negative counts (one per side), "
                           f"got {chips}")

    # --- whose turn, and what may be played ---------------------------------------------------

    def to_move(self) -> int:
        """The seat to play next (the dummy is seat `players`)."""
        self._check_not_done()
        return self.order[len(self.trick)]

    def chooser(self) -> int | None:
        """The seat that picks the next card: the mover, or for the dummy the non-dealer in
        open_hand_nondealer_chooses mode, and nobody (None) for the blind stack (A-STM-4)."""
        seat = self.to_move()
        if seat != self.dummy:
            return seat
        return None if self.rules.dummy_mode == "blind_stack" else 1 - self.dealer

    def legal(self) -> list[int]:
        """The cards the mover may play."""
        seat = self.to_move()
        hand = self.hands[seat]
        if seat == self.dummy and self.rules.dummy_mode == "blind_stack":
            return [hand[0]]                   # STM-10.2/10.3: the top card is turned, never illegal
        return legal_plays(hand, self.trick, self.rules)

    def revoke_cards(self) -> list[int]:
        """The cards the mover could revoke with (STM-11.2); empty unless the revoke model is on."""
        seat = self.to_move()
        if self.rules.revoke_model is None or seat == self.dummy:
            return []
        hand = self.hands[seat]
        return [card for card in hand if is_revoke(hand, self.trick, card)]

    def supply(self) -> int | None:
        """Chips left in a finite supply (A-STM-5 finite40), None when unlimited."""
        if self.rules.chip_supply == "unlimited":
            return None
        return max(0, SUPPLY_CHIPS - sum(self.chips))

    # --- playing ------------------------------------------------------------------------------

    def play(self, card: int, revoke_detected: bool = False) -> None:
        """Play `card` for the mover. An illegal card raises IllegalMove (a ValueError) unless it
        is a revoke under stm.revoke_model; `revoke_detected` then says whether the revoke is
        found out by the end of the round (STM-11.2)."""
        seat = self.to_move()
        if card not in self.legal():
            if card not in self.revoke_cards():
                raise IllegalMove(f"seat {seat} may not play {card_name(card)} onto "
                                  f"{[card_name(c) for c in self.trick]}; legal: "
                                  f"{[card_name(c) for c in self.legal()]}")
            self.revokes.append((seat, revoke_detected))
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.plays.append((seat, card))
        if len(self.trick) == len(self.order):
            self._end_trick()

    def _end_trick(self) -> None:
        winner = self.order[trick_winner(self.trick, self.rules)]
        self.trick_winners.append(winner)
        self.tricks_per_seat[winner] += 1
        if winner != self.dummy:                        # STM-6.4/STM-10.5: the dummy's effects are void
            side = self.side_of_seat[winner]
            self.tricks[side] += 1
            self.chips[side] = moon_chip_change(self.chips[side], self.trick, self.rules,
                                                self.supply())    # STM-6.1/6.2: to the winner's side
        self.leader = winner                            # STM-5.6 the winner leads next
        self.order = play_order(self.players, self.dealer, winner)
        self.trick = []
        if len(self.trick_winners) == TRICKS:
            self._end_round()

    def _end_round(self) -> None:
        moon = [after - before for after, before in zip(self.chips, self.chips_before)]
        revoking_sides = sorted({self.side_of_seat[seat] for seat, detected in self.revokes
                                 if detected})
        self.round_chips = [0] * self.n_sides
        self.penalty = [0] * self.n_sides
        if revoking_sides:
            # STM-11.3: the round is annulled, no STM-7 awards, Moon chip changes reversed
            # (A-STM-6; they stand with stm.revoke_keep_hand_chips), offending side pays 1.
            self.annulled = True
            if not self.rules.revoke_keep_hand_chips:
                self.chips = list(self.chips_before)
                moon = [0] * self.n_sides
            for side in revoking_sides:
                self.penalty[side] = min(1, self.chips[side])      # never below 0
                self.chips[side] -= self.penalty[side]
        else:
            self._pay_round_awards()
        self.moon_chips = moon
        self.chips_after = list(self.chips)
        self.done = True

    def _pay_round_awards(self) -> None:
        """STM-7. With a finite supply, sides are paid in seat order from the first leader (the
        dealer's left) while chips remain (A-STM-5)."""
        award = round_award(self.tricks_per_seat, self.side_of_seat, self.n_sides, self.rules)
        start = first_leader(self.players, self.dealer)
        paid: set[int] = set()
        for i in range(self.players):
            side = self.side_of_seat[(start + i) % self.players]
            if side in paid:
                continue
            paid.add(side)
            supply = self.supply()
            gain = award[side] if supply is None else min(award[side], supply)
            self.round_chips[side] = gain
            self.chips[side] += gain

    def _check_not_done(self) -> None:
        if self.done:
            raise IllegalMove("the round is over: 5 tricks have been played")


Chooser = Callable[[Hand, list[int]], int | tuple[int, bool]]


def play_hand(players: int, partners: bool, rules: Rules, dealer: int, hands: list[list[int]],
               chips: list[int], choose: Chooser) -> Hand:
    """Play a whole round; `choose(round, legal)` returns the card to play, or
    `(card, revoke_detected)` to revoke under stm.revoke_model (see Hand.revoke_cards)."""
    rnd = Hand(players, partners, rules, dealer, hands, chips)
    while not rnd.done:
        choice = choose(rnd, rnd.legal())
        card, detected = choice if isinstance(choice, tuple) else (choice, False)
        rnd.play(card, revoke_detected=detected)
    return rnd


# ---------------------------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------------------------

def hand_ends_game(rnd: Hand) -> int | None:
    """The side that wins the game at the end of this round, or None: play another round.

    STM-9.1 checks the end only at the end of a round. An annulled round (STM-11.3) is not one:
    the same dealer replays it, so it never ends the game, even where its revoke penalty left one
    side alone at the target; the chips it leaves are checked after the replay."""
    if not rnd.done:
        raise IllegalMove("the round is not over: the end of the game is checked after its 5th trick")
    return None if rnd.annulled else game_winner(rnd.chips_after, rnd.rules)


def play_game(players: int, partners: bool, rules: Rules, dealer: int, next_hands: Callable[[], list[list[int]]],
              choose: Chooser, chips: list[int] | None = None,
              max_rounds: int = 1000) -> tuple[list[Hand], int | None]:
    """Rounds until one ends the game (STM-9), at most max_rounds: (the rounds, the winning side or
    None). `next_hands()` deals each round; chips start at stm.starting_chips unless given."""
    n_sides = max(side_of_seats(players, partners, rules)) + 1
    chips = [rules.starting_chips] * n_sides if chips is None else list(chips)
    rounds: list[Hand] = []
    for _ in range(max_rounds):
        rnd = play_hand(players, partners, rules, dealer, next_hands(), chips, choose)
        rounds.append(rnd)
        winner = hand_ends_game(rnd)
        if winner is not None:
            return rounds, winner
        chips = rnd.chips_after
        if not rnd.annulled:                  # STM-8.1 the deal passes left; STM-11.3 the same dealer redeals
            dealer = (dealer + 1) % players
    return rounds, None
