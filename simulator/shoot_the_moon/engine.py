"""Vectorized Shoot the Moon engine: N rounds (or games) in lock-step as numpy arrays.

The loops run over tricks and seats, never over hands. Rules come from lookup tables indexed by
card id (cards.py); tests check them, and whole rounds, against reference.py. The entry points
are `play` (one round per deal, dealt here or given) and `play_games` (whole games); strategies
see views.PlayView. Every round is played by one trick loop, `play_on`, from a RoundState: a
fresh one (play_hand) or one `resume`d after the plays of a record (the rollout search player
plays its sampled worlds on from the middle of a trick that way). Bit tables, strategy groups
and the shuffle are shared (simulator.batch).

Encodings used throughout (batch dimension first; see RoundState):
  hands   (N, H, 5) int8   card ids dealt to each hand; H = players, or 3 with the 2-player dummy
  live    (N*H,)    uint8  5-bit mask of unplayed slots, flat row n*H + seat
  trick   (N, H)    int8   cards of the current trick in play order, -1 = not yet played
  seen    (N, 52)   bool   cards played so far this round (public)
  chips   (N, S)    int16  chips per side;  tricks (N, S) int8 tricks per side this round
  dealer, leader (N,)      seats; the dummy is seat `players` (= 2)
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

import numba
import numpy as np

from moonshot.simulator import cached_kernels, stopping
from moonshot.simulator.batch import SLOT_BIT, as_choice, ask, groups, illegal, partial_shuffle, uniform_table
from moonshot.simulator.shoot_the_moon import cards
from moonshot.simulator.shoot_the_moon.rules import SUPPLY_CHIPS, Rules
from moonshot.simulator.shoot_the_moon.views import BITS5, LEAD_BIG, LEAD_CLASS, LEAD_LITTLE, PlayView  # noqa: F401


cached_kernels.install()          # a process that finds the kernels in the cache only loads them (start-up)

# Strength tiers: a card's strength is its tier plus its number (1..12), so any card of a higher
# tier beats every card of a lower one and the number orders cards within a tier.
BIG_MOON_STRENGTH = 100     # above every numbered card: the first Big Moon wins (STM-5.1)
TRUMP_TIER = 50             # red rockets, above the led suit
LED_SUIT_TIER = 20          # the led suit, above plain numbers (a Little Moon lead's numbers) and off-suit
NEVER_WINS = -1             # a Little Moon
OFF_SUIT = 0                # neither trump nor the led suit: can win no trick
N_LEAD_CLASSES = LEAD_LITTLE + 1    # what a trick's lead asks for: a suit (0..3), a Big or a Little Moon
TOP_NUMBER = 12


def strength_table(rules: Rules) -> np.ndarray:
    """STRENGTH[lead_class, card]: the highest strength in a trick wins, ties to the earliest card.

    STM-5.1 first Big Moon wins; STM-5.2 after a Little Moon lead the highest number wins
    regardless of colour (A-STM-7: unless stm.little_moon_lead_trumps); STM-5.3 highest red;
    STM-5.4 highest of the led suit. Little Moons and off-suit cards never win.
    """
    table = np.full((N_LEAD_CLASSES, cards.DECK_SIZE), NEVER_WINS, dtype=np.int16)
    for lead in range(N_LEAD_CLASSES):
        for card in range(cards.DECK_SIZE):
            if cards.IS_BIG[card]:
                s = BIG_MOON_STRENGTH
            elif cards.IS_LITTLE[card]:
                s = NEVER_WINS
            elif lead == LEAD_LITTLE and not rules.little_moon_lead_trumps:
                s = int(cards.NUMBER[card])
            elif cards.SUIT[card] == cards.RED:
                s = TRUMP_TIER + int(cards.NUMBER[card])
            elif lead == LEAD_LITTLE:   # red still trumps; otherwise the highest number wins
                s = int(cards.NUMBER[card])
            elif cards.SUIT[card] == lead:
                s = LED_SUIT_TIER + int(cards.NUMBER[card])
            else:
                s = OFF_SUIT
            table[lead, card] = s
    return table


@dataclass(frozen=True)
class Table:
    """Who sits where: player count, partnerships, rules, and the derived seat tables."""
    players: int
    partners: bool
    rules: Rules

    @cached_property
    def hands_dealt(self) -> int:
        return cards.hands_dealt(self.players)

    @cached_property
    def dummy(self) -> int | None:
        return cards.dummy_seat(self.players)

    @cached_property
    def side_of_seat(self) -> np.ndarray:
        """(H,) side index per seat, -1 for the dummy."""
        sides = cards.side_of_seats(self.players, self.partners, self.rules)
        return np.array(sides + [-1] * (self.hands_dealt - self.players), dtype=np.int8)

    @cached_property
    def n_sides(self) -> int:
        return int(self.side_of_seat.max()) + 1

    @cached_property
    def order(self) -> np.ndarray:
        """ORDER[dealer, leader, position] -> seat (STM-4.2, STM-10.2/10.4)."""
        H = self.hands_dealt
        t = np.zeros((self.players, H, H), dtype=np.int8)
        for d in range(self.players):
            for lead in range(H):
                t[d, lead] = cards.play_order(self.players, d, lead)
        return t

    @cached_property
    def strength(self) -> np.ndarray:
        return strength_table(self.rules)


# Hands are kept as 5 slots; sets of slots (legal, live, Big Moons...) as 5-bit masks (uint8,
# simulator.batch), so the per-step rules are a few (N,) operations. Player hands are sorted by
# DISCARD_VALUE, so the lowest set bit of a mask is its cheapest card and the highest its most valuable.
UNIFORM = uniform_table(cards.HAND_SIZE)        # (32, 60): UNIFORM[mask, r] uniform over the set slots, r in 0..59
UNIFORM_R = UNIFORM.shape[1]
UNIFORM_FLAT = UNIFORM.reshape(-1)          # index mask * UNIFORM_R + r
MOON_DELTA = (cards.IS_BIG.astype(np.int8) - cards.IS_LITTLE)           # a card's part in a trick's Moon chips
RED_BIT = np.where(np.arange(cards.DECK_SIZE) < 12, 1 << np.arange(cards.DECK_SIZE) % 16, 0).astype(np.uint16)
# Discard order, lowest first: Little Moon, numbers (off-suit before red), Big Moon last.
DISCARD_VALUE = np.where(cards.IS_LITTLE, 0,
                         np.where(cards.IS_BIG, BIG_MOON_STRENGTH,
                                  cards.NUMBER + TOP_NUMBER * (cards.SUIT == cards.RED))).astype(np.int16)


# Per-card feature bits, one byte per feature: suit 0..3, Moon (4), Big Moon (5), Little Moon (6).
_FEATURES = np.stack([cards.SUIT == s for s in range(5)] + [cards.IS_BIG, cards.IS_LITTLE], axis=1)
FEATURE_WORD = (_FEATURES.astype(np.uint64) << (8 * np.arange(7, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
F_MOON, F_BIG, F_LITTLE = 4, 5, 6


def feature_masks(rows: np.ndarray) -> np.ndarray:
    """(M,5) card ids -> (M,8) uint8: column f is the slot mask of the cards having feature f."""
    word = np.zeros(len(rows), dtype=np.uint64)
    _feature_words(np.ascontiguousarray(rows), FEATURE_WORD, word)
    return word.view(np.uint8).reshape(len(rows), 8)


@numba.njit(cache=True, nogil=True)
def _feature_words(rows, feature_word, word):
    """word[r] |= FEATURE_WORD[card in slot i] << i over the slots (feature_masks, compiled)."""
    for r in range(rows.shape[0]):
        w = np.uint64(0)
        for i in range(rows.shape[1]):
            w |= feature_word[rows[r, i]] << np.uint64(i)
        word[r] = w


class TrickInPlay:
    """The trick being played, as the rules need it after each card: what a follower must match
    (`follow`, `moon_lead`), who is winning (`win_seat`, `best` strength) and its Moon cards."""

    def __init__(self, leader: np.ndarray, strength_flat: np.ndarray):
        N = len(leader)
        self.strength_flat = strength_flat
        self.best = np.zeros(N, dtype=np.int16)
        self.win_seat = leader.copy()
        self.moon_delta = np.zeros(N, dtype=np.int8)     # Big Moons minus Little Moons in the trick
        self.has_moon = np.zeros(N, dtype=bool)
        self.lead_class = self.follow = self.moon_lead = None

    def add(self, k: int, seat: np.ndarray, card: np.ndarray) -> None:
        """Card `card` (N,) played by `seat` at position k."""
        self.has_moon |= cards.IS_MOON[card]
        self.moon_delta += MOON_DELTA[card]
        if k == 0:
            self.lead_class = LEAD_CLASS[card]
            self.follow = cards.SUIT[card].astype(np.intp)
            self.moon_lead = cards.IS_MOON[card]
            self.best = self.strength_flat[self.lead_class * cards.DECK_SIZE + card]
        else:
            s = self.strength_flat[self.lead_class * cards.DECK_SIZE + card]
            better = s > self.best                      # ties go to the earlier card (STM-5.2)
            self.best = np.where(better, s, self.best)
            self.win_seat = np.where(better, seat, self.win_seat)

    def take(self, games: np.ndarray) -> "TrickInPlay":
        """The same trick for rows games (row i is game games[i])."""
        out = TrickInPlay.__new__(TrickInPlay)
        out.strength_flat = self.strength_flat
        for name in ("best", "win_seat", "moon_delta", "has_moon", "lead_class", "follow", "moon_lead"):
            value = getattr(self, name)
            setattr(out, name, None if value is None else value[games])
        return out


class RoundState:
    """The full-batch arrays of a round in progress (engine-private; strategies see PlayView).

    Every game of the batch stands at the same point: `position` cards into trick `trick_no`,
    which `leader` led (`current` holds that trick's progress). A new state is a round about to
    start; `resume` builds one after the plays of a record. `play_on` plays a state to the end."""

    def __init__(self, table: Table, hands: np.ndarray, dealer: np.ndarray, chips: np.ndarray):
        N, H, _ = hands.shape
        self.table, self.N, self.H = table, N, H
        self.row0 = np.arange(N) * H                         # flat row of each game's seat 0
        self.side0 = np.arange(N) * table.n_sides            # flat index of each game's side 0 in tricks
        self.hands = hands                                   # (N,H,5) int8
        self.rows = hands.reshape(N * H, cards.HAND_SIZE)        # hand of flat row n*H+seat
        self.live = np.full(N * H, 31, dtype=np.uint8)       # unplayed slots per flat row
        masks = feature_masks(self.rows)
        self.masks_flat = masks.reshape(-1)                  # feature f of row r at r*8 + f
        self.big_bits = masks[:, F_BIG].copy()
        self.little_bits = masks[:, F_LITTLE].copy()
        padded = np.zeros((N * H, 8), dtype=np.int8)         # 8 bytes a hand: one uint64 gather fetches it
        padded[:, :cards.HAND_SIZE] = self.rows
        self.words = padded.view(np.uint64).ravel()
        self.cards_flat = padded.reshape(-1)                 # slot i of row r at r*8 + i
        self.play_seats = np.full((N, cards.TRICKS * H), -1, dtype=np.int8)   # every play so far, in order;
        self.play_cards = np.full((N, cards.TRICKS * H), -1, dtype=np.int8)   # -1 = not yet played
        self.n_played = 0
        self.reds_played = np.zeros(N, dtype=np.uint16)     # bit r: red card number r+1 has been played
        # bit r: this hand was dealt red number r+1 (its own knowledge)
        self.red_dealt = np.zeros(N * H, dtype=np.uint16)
        for i in range(cards.HAND_SIZE):
            self.red_dealt |= RED_BIT[self.rows[:, i]]
        self.trick = np.full((N, H), -1, dtype=np.int8)      # current trick, play order
        self.trick_no, self.position = 0, 0
        self.leader = ((dealer + 1) % table.players).astype(np.intp)   # STM-4.1, STM-10.2: dealer's left
        self.current: TrickInPlay | None = None
        self.tricks = np.zeros((N, table.n_sides), dtype=np.int8)
        self.tricks_seat = np.zeros(N * H, dtype=np.int8)   # flat row n*H+seat, the dummy's too
        self.winners = np.full((N, cards.TRICKS), -1, dtype=np.int8)
        self.chips = chips.astype(np.int16, copy=True)
        self.chips_before = self.chips.copy()               # at the start of play (or of the resumed play)
        self.dealer = dealer
        self.revoked = np.zeros((N, table.n_sides), dtype=bool)     # side made a revoke that will be detected
        self.revoke_detected = (np.zeros((N, cards.TRICKS * H), dtype=bool)
                                if table.rules.revoke_model is not None else None)

    def with_hands(self, games: np.ndarray, hands: np.ndarray, live: np.ndarray) -> "RoundState":
        """The same point of the round dealt other ways: row i is game games[i] (its plays, trick,
        tricks, chips...) with hands[i] and live[i]. A search's worlds of one game share its
        record, so it is replayed once per game (resume) and copied to every world here."""
        def rows(a):               # np.take: much faster than fancy indexing for short rows
            return np.take(a, games, axis=0)
        st = RoundState(self.table, hands, self.dealer[games], rows(self.chips))
        st.live[:] = live.reshape(-1)
        for name in ("play_seats", "play_cards", "reds_played", "trick", "leader", "tricks", "winners",
                     "chips_before", "revoked"):
            setattr(st, name, rows(getattr(self, name)))
        st.tricks_seat = rows(self.tricks_seat.reshape(self.N, self.H)).reshape(-1)
        if self.revoke_detected is not None:
            st.revoke_detected = rows(self.revoke_detected)
        st.n_played, st.trick_no, st.position = self.n_played, self.trick_no, self.position
        st.current = None if self.current is None else self.current.take(games)
        return st

    def start_trick(self) -> None:
        self.trick[:] = -1
        self.current = TrickInPlay(self.leader, self.table.strength.reshape(-1))

    def record(self, seat: np.ndarray, card: np.ndarray) -> None:
        """The next card of the trick in progress: on the table, on record, in the trick's state."""
        k = self.position
        self.trick[:, k] = card
        self.play_seats[:, self.n_played] = seat
        self.play_cards[:, self.n_played] = card
        self.n_played += 1
        self.position += 1
        self.reds_played |= RED_BIT[card]
        self.current.add(k, seat, card)

    def play_slots(self, k: int, seat: np.ndarray, row: np.ndarray, mine: np.ndarray, slot: np.ndarray) -> None:
        """Each game's seat plays its card in `slot`: out of the hand (`mine`, its unplayed slots),
        then record(seat, card), compiled (_play_slots: the same arrays, values and dtypes)."""
        cur = self.current
        if k == 0:
            cur.lead_class = np.empty(self.N, dtype=LEAD_CLASS.dtype)
            cur.follow = np.empty(self.N, dtype=np.intp)
            cur.moon_lead = np.empty(self.N, dtype=bool)
            cur.best = np.empty(self.N, dtype=self.table.strength.dtype)
        _play_slots(k, self.n_played, Plays(row, np.asarray(slot, dtype=np.intp), seat, mine),
                    OnRecord(self.cards_flat, self.live, self.trick, self.play_seats, self.play_cards,
                             self.reds_played),
                    TrickArrays(cur.has_moon, cur.moon_delta, cur.lead_class, cur.follow, cur.moon_lead, cur.best,
                                cur.win_seat, cur.strength_flat), CARD_TABLES)
        self.n_played += 1
        self.position += 1

    def score_trick(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished trick counts for its winner, who leads next. Returns the winning side (N,)
        and whether it is a side (False for the dummy, whose tricks count for nobody: STM-6.4)."""
        win_seat = self.current.win_seat
        self.tricks_seat[self.row0 + win_seat] += 1
        win_side = self.table.side_of_seat[win_seat]
        has_side = win_side >= 0
        self.tricks.reshape(-1)[self.side0 + np.maximum(win_side, 0)] += has_side
        self.winners[:, self.trick_no] = win_seat
        self.leader = win_seat
        self.trick_no += 1
        self.position = 0
        return win_side, has_side


@dataclass
class Result:
    """Per-round outcome arrays (batch first); the record fields are filled when asked for."""
    tricks_seat: np.ndarray    # (N,H) int8 tricks won by each seat (dummy last)
    tricks: np.ndarray         # (N,S) int8 tricks per side
    moon_chips: np.ndarray     # (N,S) int16 net chip change from Moon cards (after floors)
    round_chips: np.ndarray    # (N,S) int16 STM-7 award (as paid, under chip_supply=finite40)
    penalty: np.ndarray        # (N,S) int16 revoke penalty paid (STM-11.3)
    chips_before: np.ndarray   # (N,S) int16 when play began: the round's start, or where a resumed round went on
    chips_after: np.ndarray    # (N,S) int16
    annulled: np.ndarray       # (N,) bool round annulled by a detected revoke
    hands: np.ndarray          # (N,H,5) the deal (player hands sorted, the dummy in stack order)
    dealer: np.ndarray         # (N,)
    play_seats: np.ndarray     # (N, 5H) seat of each play, in order
    play_cards: np.ndarray     # (N, 5H) card of each play
    trick_winners: np.ndarray  # (N,5) seats
    revoke_detected: np.ndarray | None = None   # (N, 5H) play was a revoke that gets detected
    legal_trace: list = field(default_factory=list)  # per step: (seat (N,), legal cards (N,5), -1 = not legal)


def deal(rng: np.random.Generator, n: int, hands_dealt: int) -> np.ndarray:
    """(n, hands_dealt, 5) int8: partial Fisher-Yates shuffle of 52 cards, hand h = cards 5h..5h+4.

    The same layout as reference.deal, which uses a full permutation (the same distribution).
    """
    k = cards.HAND_SIZE * hands_dealt
    left = (cards.DECK_SIZE - np.arange(k, dtype=np.float32))[:, None]   # cards not yet placed before step i
    offsets = np.minimum((rng.random((k, n), dtype=np.float32) * left).astype(np.int16), (left - 1).astype(np.int16))
    deck = partial_shuffle(np.arange(cards.DECK_SIZE), n, k, lambda i, lo, hi: offsets[i, lo:hi])     # (k, n)
    return np.ascontiguousarray(deck.T).reshape(n, hands_dealt, cards.HAND_SIZE)




def sort_hands(hands: np.ndarray, players: int) -> np.ndarray:
    """Player hands sorted by discard value (cheapest first); the dummy stack keeps its order."""
    out = np.array(hands, order="C")               # a copy, in the given dtype
    _sort_player_hands(out, players, DISCARD_VALUE)
    return out


@numba.njit(cache=True, nogil=True)
def _sort_player_hands(hands, players, discard_value):
    """Each player hand in place by discard value * 64 + card (unique per card, so one order
    whatever the sort), cheapest first: an optimal 5-element sorting network (9 compare-exchanges,
    no branches to mispredict)."""
    for n in range(hands.shape[0]):
        for h in range(players):
            c0, c1, c2, c3, c4 = hands[n, h, 0], hands[n, h, 1], hands[n, h, 2], hands[n, h, 3], hands[n, h, 4]
            k0 = np.int16(discard_value[c0] * 64 + c0)
            k1 = np.int16(discard_value[c1] * 64 + c1)
            k2 = np.int16(discard_value[c2] * 64 + c2)
            k3 = np.int16(discard_value[c3] * 64 + c3)
            k4 = np.int16(discard_value[c4] * 64 + c4)
            k0, k1 = min(k0, k1), max(k0, k1)
            k3, k4 = min(k3, k4), max(k3, k4)
            k2, k4 = min(k2, k4), max(k2, k4)
            k2, k3 = min(k2, k3), max(k2, k3)
            k0, k3 = min(k0, k3), max(k0, k3)
            k0, k2 = min(k0, k2), max(k0, k2)
            k1, k4 = min(k1, k4), max(k1, k4)
            k1, k3 = min(k1, k3), max(k1, k3)
            k1, k2 = min(k1, k2), max(k1, k2)
            hands[n, h, 0], hands[n, h, 1], hands[n, h, 2] = k0 & 63, k1 & 63, k2 & 63
            hands[n, h, 3], hands[n, h, 4] = k3 & 63, k4 & 63


def _check_play(strat, view: PlayView, choice) -> np.ndarray:
    """A strategy's choice must be one legal slot per game; anything else names the strategy."""
    c = as_choice(choice, len(view))
    ok = c is not None and bool(((c >= 0) & (c < cards.HAND_SIZE)).all())
    if ok:
        ok = bool(((view.legal_bits >> c.astype(np.uint8)) & 1).all())
    if not ok:
        raise illegal(strat, "play", "one card slot 0..4 per game where view.legal is True")
    return c.astype(np.intp)


def play(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator | None,
         play_rng: np.random.Generator, hands: np.ndarray | None = None, dealer: np.ndarray | None = None,
         chips: np.ndarray | None = None, trace: bool = False) -> Result:
    """One round per game: deal (unless `hands` given), a random dealer (unless `dealer` given;
    STM-3.2: the first dealer is random), both from deal_rng, then play it from `chips`
    (default: every side's starting chips)."""
    if hands is None:
        hands = deal(deal_rng, n, table.hands_dealt)
    elif hands.shape != (n, table.hands_dealt, cards.HAND_SIZE):
        raise ValueError(f"hands must have shape {(n, table.hands_dealt, cards.HAND_SIZE)}, got {hands.shape}")
    if dealer is None:
        dealer = deal_rng.integers(0, table.players, n).astype(np.int8)
    if chips is None:
        chips = np.full((n, table.n_sides), table.rules.starting_chips, dtype=np.int16)
    return play_hand(table, hands, dealer, chips, strategies, play_rng, trace)


def play_hand(table: Table, hands: np.ndarray, dealer: np.ndarray, chips: np.ndarray,
               strategies: Sequence, rng: np.random.Generator, trace: bool = False) -> Result:
    """Play one 5-trick round for each of N deals. `strategies[seat]` plays each player seat."""
    st = RoundState(table, sort_hands(hands, table.players), dealer, chips)
    return play_on(table, st, strategies, rng, trace=trace)


def resume(table: Table, hands: np.ndarray, live: np.ndarray, dealer: np.ndarray, chips: np.ndarray,
           play_seats: np.ndarray, play_cards: np.ndarray) -> RoundState:
    """The round of each game after the plays on record, every game after the same number of plays.

    hands (N,H,5): player hands sorted as the engine keeps them (sort_hands), the blind dummy in
    stack order, any card in played slots; live (N,H) their unplayed slots; chips (N,S) each
    side's chips now (Moon chips of the finished tricks included: they are not replayed);
    play_seats/play_cards (N,j) the plays so far in order. Trick winners, tricks and the trick
    in progress are replayed from the record."""
    st = RoundState(table, hands, dealer, chips)
    st.live[:] = live.reshape(-1)
    for j in range(play_seats.shape[1]):
        if st.position == 0:
            st.start_trick()
        st.record(play_seats[:, j].astype(np.intp), play_cards[:, j])
        if st.position == st.H:
            st.score_trick()
    return st


def play_on(table: Table, st: RoundState, strategies: Sequence, rng: np.random.Generator,
            first_slot: np.ndarray | None = None, trace: bool = False) -> Result:
    """Play every game of `st` from where it stands to the end of the round: a round from its
    start (play_hand) or one resumed mid-trick (resume, e.g. by a search player). The seat to
    move plays `first_slot` (N,) when given (a search trying a card); otherwise, and after it,
    `strategies[seat]` choose."""
    rules = table.rules
    P, H = table.players, table.hands_dealt
    ar_H = st.row0
    order_flat = table.order.reshape(-1).astype(np.intp)
    dealer_base = st.dealer.astype(np.intp) * H
    strategy_groups = groups(strategies)
    dummy = table.dummy
    blind_dummy = dummy is not None and rules.dummy_mode == "blind_stack"
    revoke = rules.revoke_model
    side_of = table.side_of_seat
    legal_trace = []

    for t in range(st.trick_no, cards.TRICKS):
        stopping.check()           # a cancelled run ends here (a search player's chunk lasts seconds)
        if st.position == 0:
            st.start_trick()
        cur = st.current
        order_base = (dealer_base + st.leader) * H
        for k in range(st.position, H):
            # STM-4.3: follow the led suit or play a Moon card; STM-4.4: anything after a Moon lead
            seat, row, mine, legal, on_suit, moons = _turn(order_flat, order_base, k, ar_H, st.live, st.masks_flat,
                                                           cur.follow if k else ar_H, cur.moon_lead if k else _NO_LEAD)
            if dummy is not None:
                is_dummy = seat == dummy
                chooser = np.where(is_dummy, 1 - st.dealer, seat)   # the open dummy is played by the non-dealer
                if blind_dummy:   # STM-10.3: the dummy turns up its next stack card, never following suit
                    legal = np.where(is_dummy, np.uint8(1 << t), legal)
            else:
                chooser = seat
            if trace:
                legal_trace.append((seat.copy(), np.where(BITS5[legal], st.rows[row], -1)))
            if first_slot is not None:
                slot, first_slot = np.asarray(first_slot, dtype=np.intp), None
            else:
                step = {"seat": seat, "row": row, "legal": legal, "best": cur.best, "win_seat": cur.win_seat}
                view = PlayView(table, t, k, st, step)
                if blind_dummy:
                    slot = np.full(st.N, t, dtype=np.intp)
                    human = np.flatnonzero(~is_dummy)
                    if len(human):
                        slot[human] = ask(strategy_groups, "play", view.take(human), chooser[human], rng,
                                          _check_play)
                else:
                    slot = ask(strategy_groups, "play", view, chooser, rng, _check_play)
            if revoke is not None and k > 0:
                slot, detected = _apply_revokes(revoke, rng, mine, on_suit, moons, cur.moon_lead, slot, seat, P,
                                                side_of)
                st.revoked[detected, side_of[seat[detected]]] = True
                st.revoke_detected[detected, st.n_played] = True
            st.play_slots(k, seat, row, mine, slot)
        win_side, has_side = st.score_trick()
        _pay_moon_chips(st, cur, win_side, has_side, rules)
    return _round_result(table, st, legal_trace)


_NO_LEAD = np.zeros(1, dtype=bool)
DECK = cards.DECK_SIZE


@numba.njit(cache=True, nogil=True)
def _turn(order_flat, order_base, k, row0, live, masks_flat, follow, moon_lead):
    """Play position k of the trick in every game: the seat to play, its flat row, its unplayed
    slots, its legal slots (all of them on the lead or after a Moon lead; else the led suit and the
    Moon cards, or anything when it has none of the suit) and, for the revoke model, its on-suit and
    Moon slots. play_on's numpy steps, game by game."""
    N = len(row0)
    seat = np.empty(N, dtype=np.intp)
    row = np.empty(N, dtype=np.intp)
    mine = np.empty(N, dtype=np.uint8)
    legal = np.empty(N, dtype=np.uint8)
    on_suit = np.zeros(N, dtype=np.uint8)
    moons = np.zeros(N, dtype=np.uint8)
    for i in range(N):
        s = order_flat[order_base[i] + k]
        r = row0[i] + s
        m = live[r]
        seat[i], row[i], mine[i] = s, r, m
        if k == 0:
            legal[i] = m
            continue
        on = masks_flat[r * 8 + follow[i]] & m
        mo = masks_flat[r * 8 + F_MOON] & m
        on_suit[i], moons[i] = on, mo
        legal[i] = m if on == 0 or moon_lead[i] else on | mo
    return seat, row, mine, legal, on_suit, moons


# _play_slots' arguments by what they are: this step's plays (each game's state row, the card's slot in the
# hand, the seat, its unplayed slots), the round's arrays on record, the trick in play's, and the card tables
Plays = namedtuple("Plays", ("row", "slot", "seat", "mine"))
OnRecord = namedtuple("OnRecord", ("cards_flat", "live", "trick", "play_seats", "play_cards", "reds_played"))
TrickArrays = namedtuple("TrickArrays", ("has_moon", "moon_delta", "lead_class", "follow", "moon_lead", "best",
                                         "win_seat", "strength_flat"))
CardTables = namedtuple("CardTables", ("red_bit", "is_moon", "moon_delta", "lead_class", "suit", "slot_bit"))


CARD_TABLES = CardTables(RED_BIT, cards.IS_MOON, MOON_DELTA, LEAD_CLASS, cards.SUIT, SLOT_BIT)


@numba.njit(cache=True, nogil=True)
def _play_slots(k, n_played, plays, rec, tr, ct):
    """RoundState.play_slots game by game: the card leaves the hand and goes on record and into
    the trick (RoundState.record and TrickInPlay.add, whose numpy steps these are)."""
    row, slot, seat, mine = plays.row, plays.slot, plays.seat, plays.mine
    cards_flat, live, trick, play_seats, play_cards, reds_played = (rec.cards_flat, rec.live, rec.trick, rec.play_seats,
                                                                    rec.play_cards, rec.reds_played)
    has_moon, moon_delta, lead_class, follow, moon_lead, best, win_seat, strength_flat = (
        tr.has_moon, tr.moon_delta, tr.lead_class, tr.follow, tr.moon_lead, tr.best, tr.win_seat, tr.strength_flat)
    red_bit, is_moon, moon_delta_of, lead_class_of, suit, slot_bit = (ct.red_bit, ct.is_moon, ct.moon_delta,
                                                                      ct.lead_class, ct.suit, ct.slot_bit)
    for i in range(len(row)):
        card = cards_flat[row[i] * 8 + slot[i]]
        live[row[i]] = mine[i] & ~slot_bit[slot[i]]
        trick[i, k] = card
        play_seats[i, n_played] = seat[i]
        play_cards[i, n_played] = card
        reds_played[i] |= red_bit[card]
        has_moon[i] |= is_moon[card]
        moon_delta[i] += moon_delta_of[card]
        if k == 0:
            lc = lead_class_of[card]
            lead_class[i], follow[i], moon_lead[i] = lc, suit[card], is_moon[card]
            best[i] = strength_flat[lc * DECK + card]
        else:
            s = strength_flat[lead_class[i] * DECK + card]
            if s > best[i]:                      # ties go to the earlier card (STM-5.2)
                best[i] = s
                win_seat[i] = seat[i]


def _pay_moon_chips(st: RoundState, trick: TrickInPlay, win_side, has_side, rules: Rules) -> None:
    """STM-6.1: the winning side takes the trick's Moon chips (none when the dummy wins it)."""
    moon_rows = np.flatnonzero(trick.has_moon & has_side)
    if len(moon_rows) == 0:
        return
    ws = win_side[moon_rows]
    old = st.chips[moon_rows, ws]
    finite = rules.chip_supply == "finite40"
    if rules.moon_chip_netting == "net_per_trick" and not finite:
        new = np.maximum(0, old + trick.moon_delta[moon_rows])          # STM-6.1: net, then the floor
    else:
        new = _moon_chips(old, st.trick[moon_rows], st.chips[moon_rows], rules.moon_chip_netting, finite)
    st.chips[moon_rows, ws] = new


def _round_result(table: Table, st: RoundState, legal_trace: list) -> Result:
    """STM-7 the end-of-round award, STM-11.3 annulled rounds, as a Result."""
    rules = table.rules
    N, S = st.N, table.n_sides
    tricks_seat = st.tricks_seat.reshape(N, st.H)
    chips, chips_before = st.chips, st.chips_before
    moon_chips = chips - chips_before                 # Moon cards are the only chip changes in a round
    round_chips = _round_award(tricks_seat, st.tricks, table)
    if rules.chip_supply == "finite40":
        round_chips = _pay_from_supply(round_chips, chips, (st.dealer + 1) % table.players, table)
    annulled = st.revoked.any(axis=1)
    penalty = np.zeros((N, S), dtype=np.int16)
    if annulled.any():
        # STM-11.3 / A-STM-6: annulled round: no award, Moon chips reversed unless kept, offender -1.
        round_chips[annulled] = 0
        if not rules.revoke_keep_hand_chips:
            chips[annulled] = chips_before[annulled]
            moon_chips[annulled] = 0
        penalty[annulled] = np.minimum(chips[annulled], st.revoked[annulled])
        chips[annulled] -= penalty[annulled]
    result = Result(tricks_seat, st.tricks, moon_chips, round_chips.astype(np.int16), penalty,
                    chips_before, (chips + round_chips).astype(np.int16), annulled, st.hands, st.dealer,
                    st.play_seats, st.play_cards, st.winners, st.revoke_detected)
    result.legal_trace = legal_trace
    return result


def _apply_revokes(revoke, rng, mine, on_suit, moons, moon_lead, slot, seat, players, side_of):
    """STM-11.2: a player able to follow suit plays an off-suit numbered card with p_revoke.

    Returns the slots actually played and the games whose revoke will be detected."""
    off_suit = mine & ~on_suit & ~moons
    u = rng.random((len(slot), 2))
    r = rng.integers(0, UNIFORM_R, len(slot))
    eligible = (on_suit != 0) & ~moon_lead & (off_suit != 0) & (seat < players)   # the dummy never revokes
    does = eligible & (u[:, 0] < revoke.p_revoke)
    slot = np.where(does, UNIFORM[off_suit, r], slot)
    return slot, np.flatnonzero(does & (u[:, 1] < revoke.p_detect))


def _moon_chips(chips, trick, all_chips, netting, finite):
    """STM-6.1 / A-STM-3: the winning side's chips after the trick's Moon cards (never below 0)."""
    big = cards.IS_BIG[trick]
    little = cards.IS_LITTLE[trick]
    chips = chips.astype(np.int16)
    supply = np.maximum(0, SUPPLY_CHIPS - all_chips.sum(axis=1)) if finite else None
    if netting == "net_per_trick":
        delta = big.sum(axis=1) - little.sum(axis=1)
        if finite:
            delta = np.minimum(delta, supply)
        return np.maximum(0, chips + delta)
    for k in range(trick.shape[1]):
        step = big[:, k].astype(np.int16) - little[:, k]
        if finite:
            step = np.minimum(step, supply)
        new = np.maximum(0, chips + step)
        if finite:
            supply = supply - (new - chips)
        chips = new
    return chips


AWARD = np.array([0, 1, 0, 1, 0, 2], dtype=np.int16)   # STM-7.2 by tricks won


def _round_award(tricks_seat, tricks, table: Table) -> np.ndarray:
    if table.partners and table.rules.partnership_trick_count == "per_player":
        per_seat = AWARD[tricks_seat[:, :table.players]]
        out = np.zeros(tricks.shape, dtype=np.int16)
        for seat in range(table.players):
            out[:, table.side_of_seat[seat]] += per_seat[:, seat]
        return out
    return AWARD[tricks]


def _pay_from_supply(award, chips, first, table: Table) -> np.ndarray:
    """finite40: awards are paid side by side from the dealer's left while the supply lasts."""
    supply = SUPPLY_CHIPS - chips.sum(axis=1)
    paid = np.zeros_like(award)
    N = len(award)
    ar = np.arange(N)
    done = np.zeros((N, table.n_sides), dtype=bool)
    for i in range(table.players):
        side = table.side_of_seat[(first + i) % table.players]
        fresh = ~done[ar, side]
        pay = np.where(fresh, np.minimum(award[ar, side], np.maximum(supply, 0)), 0)
        paid[ar, side] += pay
        supply = supply - pay
        done[ar, side] = True
    return paid


@dataclass
class GameResult:
    winner: np.ndarray        # (N,) winning side
    rounds: np.ndarray        # (N,) rounds played (annulled ones included)
    chips: np.ndarray         # (N,S) final chips
    supply_short: np.ndarray  # (N,) a real 40-chip supply would have run out at some point
    first_round: Result       # the opening round of every game
    hand_log: list = field(default_factory=list)   # with keep_hands: [(game indices, Result)] per round


def game_winner(chips: np.ndarray, target: int, annulled: np.ndarray | None = None) -> np.ndarray:
    """STM-9.2: side with >= target and strictly more than every other side, else -1.

    STM-9.1 checks only at the end of a completed round: a round annulled for a revoke is replayed
    (STM-11.3), so it never ends the game (-1), even where its penalty chip left one side alone at
    the target; the check comes again after the replay."""
    top = chips.max(axis=1)
    unique = (chips == top[:, None]).sum(axis=1) == 1
    ends = (top >= target) & unique
    if annulled is not None:
        ends &= ~annulled
    return np.where(ends, chips.argmax(axis=1), -1)


def play_games(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator,
               play_rng: np.random.Generator, chips0: np.ndarray | None = None,
               first_hands: np.ndarray | None = None, dealer0: np.ndarray | None = None,
               max_rounds: int = 1000, keep_hands: bool = False) -> GameResult:
    """Play N games to the end (STM-9). Deals come from deal_rng for all N games every round,
    finished or not, so two runs that differ only in play see the same deals (common random numbers).
    `keep_hands` keeps every round's Result with the games that played it (games-mode histories)."""
    S = table.n_sides
    H = table.hands_dealt
    chips = np.full((n, S), table.rules.starting_chips, dtype=np.int16) if chips0 is None else chips0.astype(np.int16)
    dealer = deal_rng.integers(0, table.players, n).astype(np.int8) if dealer0 is None else dealer0
    winner = np.full(n, -1, dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int32)
    short = np.zeros(n, dtype=bool)
    first = None
    log = []
    for r in range(max_rounds):
        hands = deal(deal_rng, n, H)
        if r == 0 and first_hands is not None:
            hands = first_hands
        active = np.flatnonzero(winner < 0)
        if len(active) == 0:
            break
        res = play_hand(table, hands[active], dealer[active], chips[active], strategies, play_rng)
        if r == 0:
            first = res
        if keep_hands:
            log.append((active, res))
        chips[active] = res.chips_after
        short[active] |= res.chips_after.sum(axis=1) > SUPPLY_CHIPS
        rounds[active] += 1
        # STM-8.1 the deal passes left; STM-11.3 the same dealer redeals an annulled round.
        dealer[active] = np.where(res.annulled, dealer[active], (dealer[active] + 1) % table.players)
        winner[active] = game_winner(res.chips_after, table.rules.target_chips, res.annulled)
        stopping.games_done(np.count_nonzero(winner >= 0), n)     # a run's count, and its cancel (no number changes)
    return GameResult(winner, rounds, chips, short, first, log)

