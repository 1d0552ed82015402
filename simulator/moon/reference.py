"""Moon, one hand at a time, in plain Python: the rules oracle and the replayer (RULES.md §2).

Each function names the rule it implements (MOON-x.y) or the ambiguity it settles (A-MOON-n).
Tiles, trumps and suits use the ids of :mod:`simulator.moon.tiles`. A bid is an int: ``PASS`` (0),
``min_bid``..7, or ``MOON`` (21).

Shape of a hand (:class:`Hand`): phases ``bidding`` -> (3 players with a widow) ``discard`` and
``trump`` in the order of moon.widow_timing -> ``play`` (7 tricks) -> ``done``. A thrown-in hand
(everyone passed, moon.all_pass=redeal) goes from ``bidding`` straight to ``done``.
:class:`Game` strings hands together up to the game's end (MOON-9, MOON-10.5).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from moonshot.simulator.errors import IllegalMove
from moonshot.simulator.moon.rules import Rules, tile_set_for
from moonshot.simulator.moon.tiles import (      # allowed_trumps (MOON-2.1) lives with the trump ids
    DOUBLES, DOUBLES_SUIT, HAND_SIZE, NOTRUMP, TRICKS, TRUMP_SUIT, TILE_SETS,
    allowed_trumps, ends, has_end, high_end, is_double, other_end, side_of_seats, tile_name, trump_name,
)

PASS = 0
MOON = 21                 # "shooting the moon": a contract to win all 7 tricks (MOON-4.3)
MAX_NUMBER_BID = 7

BIDDING, DISCARD, TRUMP, PLAY, DONE = "bidding", "discard", "trump", "play", "done"

# A play choice: a tile id, or (tile, called_end) for a lead whose suit the leader names
# (moon.lead_suit_rule=leader_calls_end, A-MOON-11).
Play = Union[int, tuple]


# ============================================================================ suits and ranking

# MOON-2.2
def is_trump(tile: int, trump: int) -> bool:
    if trump == NOTRUMP:
        return False
    if trump == DOUBLES:
        return is_double(tile)
    return has_end(tile, trump)


# MOON-2.3, A-MOON-5 (notrump_doubles=own_suit)
def suits(tile: int, trump: int, rules: Rules) -> frozenset[int]:
    """The suits this tile belongs to, i.e. the led suits it may (and must) follow."""
    if is_trump(tile, trump):
        return frozenset({TRUMP_SUIT})          # a trump belongs only to the trump suit
    if is_double(tile):
        if trump == NOTRUMP and rules.notrump_doubles == "own_suit":
            return frozenset({DOUBLES_SUIT})
        return frozenset({high_end(tile)})
    return frozenset(ends(tile))                # a non-double non-trump belongs to both its ends


# A-MOON-11
def needs_end_call(tile: int, trump: int, rules: Rules) -> bool:
    """Whether leading this tile requires the leader to name its suit (leader_calls_end only)."""
    return (rules.lead_suit_rule == "leader_calls_end"
            and not is_trump(tile, trump) and not is_double(tile))


# MOON-2.4, A-MOON-5, A-MOON-11
def led_suit(lead: int, trump: int, rules: Rules, called_end: int | None = None) -> int:
    """The suit a lead asks for: TRUMP_SUIT, the double's number (or DOUBLES_SUIT under own_suit
    in no-trump), else the higher end, or under leader_calls_end the end the leader named."""
    if is_trump(lead, trump):
        return TRUMP_SUIT
    if is_double(lead):
        if trump == NOTRUMP and rules.notrump_doubles == "own_suit":
            return DOUBLES_SUIT
        return high_end(lead)
    if rules.lead_suit_rule == "leader_calls_end":
        if called_end is None or not has_end(lead, called_end):
            raise ValueError(f"leading {tile_name(lead)} under leader_calls_end needs one of its ends "
                             f"called, got {called_end!r}")
        return called_end
    if called_end is not None and called_end != high_end(lead):
        raise ValueError(f"called end {called_end} given for {tile_name(lead)} under the higher_end rule")
    return high_end(lead)


# MOON-2.5, MOON-7.2, A-MOON-5 (notrump_doubles)
def rank(tile: int, suit: int, trump: int, rules: Rules) -> int:
    """Rank of ``tile`` inside ``suit`` (higher wins; unique within a suit), -1 if not in the suit.

    Number suit s (and the trump suit when trump = s): the double s-s ranks 8, the others
    1 + their other end (7 for s-6 down to 1 for s-0). In no-trump with notrump_doubles=low the
    double ranks 0 instead. The doubles (trump suit when trump = DOUBLES, or DOUBLES_SUIT):
    1 + the number, 6-6 highest.
    """
    if suit not in suits(tile, trump, rules):
        return -1
    if suit == DOUBLES_SUIT or (suit == TRUMP_SUIT and trump == DOUBLES):
        return 1 + high_end(tile)
    number = trump if suit == TRUMP_SUIT else suit
    if is_double(tile):
        return 0 if (trump == NOTRUMP and rules.notrump_doubles == "low") else 8
    return 1 + other_end(tile, number)


# ============================================================================ play

# MOON-6.1, MOON-6.3, A-MOON-10, A-MOON-11
def legal_plays(hand: Sequence[int], trick: Sequence[int], trump: int, rules: Rules,
                called_end: int | None = None, first_lead: bool = False) -> list[int]:
    """Tiles of ``hand`` that may be played to ``trick`` (tiles so far, lead first), ascending id.

    ``called_end``: the end named for the lead (leader_calls_end). ``first_lead``: this is the
    bidder's lead to the first trick (matters only with moon.first_lead_trump=true).
    """
    if not trick:
        if first_lead and rules.first_lead_trump:
            trumps = [t for t in hand if is_trump(t, trump)]
            if trumps:
                return sorted(trumps)
        return sorted(hand)
    led = led_suit(trick[0], trump, rules, called_end)
    following = [t for t in hand if led in suits(t, trump, rules)]
    return sorted(following) if following else sorted(hand)


# MOON-7.1, MOON-7.2
def trick_winner(trick: Sequence[int], trump: int, rules: Rules, called_end: int | None = None) -> int:
    """Position (0 = the leader) of the tile that wins the trick."""
    trumps = [i for i, t in enumerate(trick) if is_trump(t, trump)]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i], TRUMP_SUIT, trump, rules))
    led = led_suit(trick[0], trump, rules, called_end)
    following = [i for i, t in enumerate(trick) if led in suits(t, trump, rules)]
    return max(following, key=lambda i: rank(trick[i], led, trump, rules))


# ============================================================================ auction

# MOON-4.3, A-MOON-9, A-MOON-14, A-MOON-8
def legal_bids(high_bid: int, rules: Rules, forced: str | None = None) -> list[int]:
    """Calls open to a player when the high bid is ``high_bid`` (PASS if none yet), ascending.

    A number bid must exceed the high bid; 21 is always available unless
    moon.moon_bid_requires_prior_7 (then only over a 7). ``forced``: None (PASS allowed),
    ``"min"`` (exactly the minimum bid, moon.all_pass=force_last_min) or ``"bid"`` (any bid but no
    pass, moon.all_pass=force_dealer).
    """
    if forced == "min":
        return [rules.min_bid]
    calls = [] if forced == "bid" else [PASS]
    calls += [b for b in range(rules.min_bid, MAX_NUMBER_BID + 1) if b > high_bid]
    if high_bid < MOON and (not rules.moon_bid_requires_prior_7 or high_bid == MAX_NUMBER_BID):
        calls.append(MOON)
    return calls


@dataclass(frozen=True)
class AuctionState:
    to_move: int | None          # seat to call next; None once the auction is over
    legal: tuple[int, ...]       # the calls open to `to_move` (empty once over)
    high_bid: int                # PASS if nobody has bid
    bidder: int | None           # seat holding the high bid
    finished: bool

    @property
    def thrown_in(self) -> bool:  # MOON-4.6: everyone passed, nobody scores
        return self.finished and self.bidder is None


def dealer(players: int, first_bidder: int) -> int:
    """The dealer sits to the first bidder's right, so speaks last in the first round (MOON-4.1)."""
    return (first_bidder - 1) % players


# MOON-4.2..4.6, A-MOON-8, A-MOON-16
def auction_state(bids: Sequence[tuple[int, int]], players: int, first_bidder: int,
                  rules: Rules) -> AuctionState:
    """Replay the calls ``bids`` (a list of (seat, call)) and say what happens next.

    single_round (MOON-4.2): each player calls once, clockwise from the first bidder.
    open_until_passes (A-MOON-16): clockwise, skipping players who passed, until every player but
    the high bidder has passed. Either way a 21 ends the auction at once (MOON-4.4). When every
    player but the last to speak has passed with no bid, moon.all_pass decides: redeal lets the
    last pass too (thrown in, MOON-4.6); force_last_min makes the last player bid exactly the
    minimum; force_dealer makes the last player (the dealer) bid, any bid (A-MOON-8).
    """
    high, bidder, passed = PASS, None, set()
    for seat, call in bids:
        if call == PASS:
            passed.add(seat)
        else:
            high, bidder = call, seat

    def over() -> AuctionState:
        return AuctionState(None, (), high, bidder, True)

    if high == MOON:
        return over()
    if rules.auction == "single_round":
        if len(bids) == players:
            return over()
        seat = (first_bidder + len(bids)) % players
    else:
        if len(passed) == players or (bidder is not None and len(passed) == players - 1):
            return over()
        seat = first_bidder if not bids else (bids[-1][0] + 1) % players
        while seat in passed:
            seat = (seat + 1) % players
    forced = None
    if bidder is None and len(passed) == players - 1 and rules.all_pass != "redeal":
        forced = "min" if rules.all_pass == "force_last_min" else "bid"
    return AuctionState(seat, tuple(legal_bids(high, rules, forced)), high, bidder, False)


# ============================================================================ scoring

# MOON-8.1, MOON-8.2, MOON-10.4, A-MOON-1
def bid_made(bid: int, tricks: int, rules: Rules) -> bool:
    if bid == MOON:
        return tricks == TRICKS
    if rules.bid_success == "strictly_greater":
        return tricks > bid
    return tricks >= bid


@dataclass(frozen=True)
class HandScore:
    score: tuple[int, ...]        # per side: points (or marks with moon.scoring=marks7) this hand
    made: bool | None             # whether the contract was made; None when the hand was thrown in
    wins_game: int | None = None  # side that wins the game at once (a made 21, A-MOON-3)
    loses_game: int | None = None  # side that loses the game at once (a failed 21, instant_win_or_loss)


# MOON-8, MOON-10.4, A-MOON-3, A-MOON-4, A-MOON-13, A-MOON-15
def score_hand(players: int, bidder: int | None, bid: int | None, tricks: Sequence[int],
               rules: Rules) -> HandScore:
    """Score one hand. ``tricks`` is per side (per seat with 3 players, per team with 4);
    ``bidder``/``bid`` are None for a thrown-in hand (nobody scores, MOON-4.6).

    Points (DEFAULT). 3 players: the bidder +bid if made, -bid if not (MOON-8.1, 8.2); each other
    player +1 per trick whatever the outcome (MOON-8.3, A-MOON-4). 4 players: the bidding team
    scores the tricks it won if made (the bid with bidder_score_4p=bid), -bid if not; the other
    team +1 per trick (MOON-10.4). A 21 bid is +21/-21 for the bidding side in both.
    Marks (marks7, A-MOON-15): made: the bidding side 1 mark; set: every other side 1 mark (a 21
    bid included: no source gives it more).
    moon_bid_scoring (A-MOON-3): the hand is scored the same way, and instant_win also marks a
    made 21 as winning the game; instant_win_or_loss also marks a failed 21 as losing it.
    """
    sides = side_of_seats(players)
    n_sides = max(sides) + 1
    if bidder is None or bid is None:
        return HandScore((0,) * n_sides, None)
    own = sides[bidder]
    made = bid_made(bid, tricks[own], rules)
    score = [0] * n_sides
    if rules.scoring == "marks7":
        for side in range(n_sides):
            score[side] = int(side == own) if made else int(side != own)
    else:
        for side in range(n_sides):
            if side != own:
                score[side] = tricks[side]
        if not made:
            score[own] = -bid
        elif players == 4 and bid != MOON and rules.bidder_score_4p == "tricks_won":
            score[own] = tricks[own]
        else:
            score[own] = bid
    wins = loses = None
    if bid == MOON and rules.moon_bid_scoring != "points":
        if made:
            wins = own
        elif rules.moon_bid_scoring == "instant_win_or_loss":
            loses = own
    return HandScore(tuple(score), made, wins, loses)


def target_score(rules: Rules) -> int:
    """21 points (MOON-9.1, MOON-10.5) or 7 marks (A-MOON-15)."""
    return 7 if rules.scoring == "marks7" else 21


# MOON-9.1, MOON-10.5, A-MOON-7, A-MOON-3, A-MOON-18
def game_winner(scores: Sequence[int], rules: Rules, bidder: int | None = None, *,
                wins_game: int | None = None, loses_game: int | None = None) -> int | None:
    """The side that has won the game after a hand, or None to play on.

    ``scores``: game totals per side after the hand (3 sides: seats; 2 sides: teams {0,2}, {1,3}).
    ``bidder``: the seat of that hand's bidder (None if thrown in). ``wins_game``/``loses_game``:
    a side that won or lost outright (HandScore fields; the Game adds set-twice losses).

    Outright results come first: a winner wins; a loser's opponents win (with 3 players the
    opponent with the higher total, a tie going to the first one clockwise from the loser).
    Otherwise MOON-9.1: some total >= the target and a single highest total: that side wins.
    A tie for the highest total plays on, except with end_tie=bidder_goes_out when the bidder's
    side is one of the tied leaders: the bidder's side wins.
    """
    n_sides = len(scores)
    if wins_game is not None:
        return wins_game
    if loses_game is not None:
        others = [(loses_game + k) % n_sides for k in range(1, n_sides)]
        return max(others, key=lambda side: scores[side])      # max keeps the first of equals
    top = max(scores)
    if top < target_score(rules):
        return None
    leaders = [side for side, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return leaders[0]
    if rules.end_tie == "bidder_goes_out" and bidder is not None and bidder % n_sides in leaders:
        return bidder % n_sides     # a seat's side: the seat itself (3p) or seat % 2 (4p)
    return None


# ============================================================================ deal

# MOON-3.1, MOON-3.2, C-2
def deal(rng: np.random.Generator, players: int, rules: Rules) -> tuple[list[list[int]], int | None]:
    """Deal one hand: ``perm = rng.permutation(TILE_SETS[set])``, one call, nothing else drawn.

    Seat s (absolute seat number, whoever bids first) gets ``perm[7*s : 7*s + 7]`` in that order;
    with the 22-tile set the widow is ``perm[21]``, otherwise there is none. Because each set is
    the id range 0..n-1, ``rng.permutation(n)`` gives the same tiles.
    """
    perm = rng.permutation(TILE_SETS[tile_set_for(rules, players)])
    hands = [[int(t) for t in perm[HAND_SIZE * s: HAND_SIZE * (s + 1)]] for s in range(players)]
    widow = int(perm[HAND_SIZE * players]) if len(perm) > HAND_SIZE * players else None
    return hands, widow


# ============================================================================ one hand

def bid_name(bid: int | None):
    return "pass" if bid == PASS else bid


class Hand:
    """One hand's state with explicit phases; ``to_move()``, ``legal()`` and ``act(choice)``.

    Choices per phase: bidding: a bid int (PASS = 0); discard: a tile id; trump: a trump id;
    play: a tile id, or ``(tile, called_end)`` for a lead that needs its suit named
    (leader_calls_end). ``legal()`` lists them in ascending order (tiles by id; for an end call the
    higher end first).
    """

    def __init__(self, hands: Sequence[Sequence[int]], widow: int | None, first_bidder: int,
                 rules: Rules) -> None:
        self.players = players = len(hands)
        self.rules = rules
        set_name = tile_set_for(rules, players)
        dealt = [int(t) for h in hands for t in h] + ([] if widow is None else [int(widow)])
        if (any(len(h) != HAND_SIZE for h in hands)
                or sorted(dealt) != sorted(int(t) for t in TILE_SETS[set_name])):
            raise ValueError(f"hands and widow are not a deal of the {set_name} set")
        self.sides = side_of_seats(players)
        self.first_bidder = first_bidder
        self.dealt = tuple(tuple(int(t) for t in h) for h in hands)
        self.widow = None if widow is None else int(widow)
        self.held = [list(h) for h in self.dealt]          # tiles still in each hand
        self.bids: list[tuple[int, int]] = []              # (seat, call) in order
        self.phase = BIDDING
        self.bidder: int | None = None
        self.bid: int | None = None
        self.discard: int | None = None
        self.trump: int | None = None
        self.plays: list[tuple[int, int, int | None]] = []  # (seat, tile, called end or None)
        self.leader: int | None = None                     # leader of the trick in progress
        self.trick: list[int] = []                         # tiles of the trick in progress, lead first
        self.called_end: int | None = None                 # end named for the current lead
        self.trick_winners: list[int] = []
        self.tricks = [0] * (max(self.sides) + 1)          # tricks won per side
        self.result: HandScore | None = None
        self._auction = auction_state(self.bids, players, first_bidder, rules)

    # ---------------------------------------------------------------- queries

    @property
    def thrown_in(self) -> bool:
        return self.phase == DONE and self.bidder is None

    def to_move(self) -> int | None:
        if self.phase == BIDDING:
            return self._auction.to_move
        if self.phase in (DISCARD, TRUMP):
            return self.bidder
        if self.phase == PLAY:
            return (self.leader + len(self.trick)) % self.players
        return None

    def legal(self) -> list:
        if self.phase == BIDDING:
            return list(self._auction.legal)
        if self.phase == DISCARD:
            return sorted(self.held[self.bidder])                      # MOON-5.1: any one tile
        if self.phase == TRUMP:
            return allowed_trumps(self.players, self.rules)
        if self.phase == PLAY:
            tiles = legal_plays(self.held[self.to_move()], self.trick, self.trump, self.rules,
                                self.called_end, first_lead=not self.plays)
            if self.trick:
                return tiles
            choices: list = []
            for tile in tiles:
                if needs_end_call(tile, self.trump, self.rules):
                    choices += [(tile, end) for end in ends(tile)]
                else:
                    choices.append(tile)
            return choices
        return []

    # ---------------------------------------------------------------- acting

    def act(self, choice) -> None:
        legal = self.legal()
        try:
            choice = tuple(int(x) for x in choice) if isinstance(choice, (tuple, list)) else int(choice)
        except (TypeError, ValueError):
            choice = repr(choice)       # not a choice of any phase: reported below
        if choice not in legal:
            raise IllegalMove(f"illegal {self.phase} choice {self._describe(choice)} by seat "
                              f"{self.to_move()}; accepted: "
                              f"{', '.join(str(self._describe(c)) for c in legal) or 'nothing (hand over)'}")
        seat = self.to_move()
        if self.phase == BIDDING:
            self._bid(seat, choice)
        elif self.phase == DISCARD:
            self.held[seat].remove(choice)
            self.discard = choice
            self._after_widow_or_trump()
        elif self.phase == TRUMP:
            self.trump = choice
            self._after_widow_or_trump()
        else:
            self._play(seat, choice)

    # MOON-4.2..4.6, MOON-5.1, A-MOON-6
    def _bid(self, seat: int, call: int) -> None:
        self.bids.append((seat, call))
        self._auction = auction_state(self.bids, self.players, self.first_bidder, self.rules)
        if not self._auction.finished:
            return
        if self._auction.bidder is None:
            self.phase = DONE
            self.result = score_hand(self.players, None, None, self.tricks, self.rules)
            return
        self.bidder, self.bid = self._auction.bidder, self._auction.high_bid
        if self.widow is not None and self.rules.widow_timing == "widow_then_trump":
            self._take_widow()
        else:
            self.phase = TRUMP

    def _take_widow(self) -> None:
        self.held[self.bidder].append(self.widow)   # MOON-5.1: 8 tiles, then one discard
        self.phase = DISCARD

    # MOON-5.2, A-MOON-6
    def _after_widow_or_trump(self) -> None:
        if self.trump is None:
            self.phase = TRUMP
        elif self.widow is not None and self.discard is None:
            self._take_widow()
        else:
            self.phase = PLAY                       # MOON-6.1: the bidder leads
            self.leader = self.bidder

    # MOON-6, MOON-7
    def _play(self, seat: int, choice: Play) -> None:
        tile, end = choice if isinstance(choice, tuple) else (choice, None)
        self.held[seat].remove(tile)
        if not self.trick:
            self.called_end = end
        self.trick.append(tile)
        self.plays.append((seat, tile, end))
        if len(self.trick) < self.players:
            return
        winner = (self.leader + trick_winner(self.trick, self.trump, self.rules, self.called_end)) % self.players
        self.trick_winners.append(winner)
        self.tricks[self.sides[winner]] += 1
        self.leader, self.trick, self.called_end = winner, [], None   # MOON-7.3
        if len(self.trick_winners) == TRICKS:
            self.phase = DONE
            self.result = score_hand(self.players, self.bidder, self.bid, self.tricks, self.rules)

    # ---------------------------------------------------------------- output

    def _describe(self, choice):
        if self.phase == BIDDING:
            return bid_name(choice)
        if self.phase == TRUMP:
            return trump_name(choice) if isinstance(choice, int) and 0 <= choice <= NOTRUMP else choice
        if isinstance(choice, tuple) and len(choice) == 2 and 0 <= choice[0] < 28:
            return f"{tile_name(choice[0])} calling {choice[1]}"
        if isinstance(choice, int) and 0 <= choice < 28:
            return tile_name(choice)
        return repr(choice)

    def record(self) -> dict:
        """The Moon keys of a HISTORY.md hand record (tiles and trump in notation)."""
        calls = self.rules.lead_suit_rule == "leader_calls_end"
        plays = []
        for i, (seat, tile, end) in enumerate(self.plays):
            lead = i % self.players == 0
            plays.append([seat, tile_name(tile), end] if (calls and lead) else [seat, tile_name(tile)])
        return {
            "first_bidder": self.first_bidder,
            "hands": [[tile_name(t) for t in h] for h in self.dealt],
            "widow": None if self.widow is None else tile_name(self.widow),
            "bids": [[seat, bid_name(call)] for seat, call in self.bids],
            "bidder": self.bidder,
            "bid": self.bid,
            "discard": None if self.discard is None else tile_name(self.discard),
            "trump": None if self.trump is None else trump_name(self.trump),
            "plays": plays,
            "trick_winners": list(self.trick_winners),
            "tricks": list(self.tricks),
            "score": None if self.result is None else list(self.result.score),
        }


# ============================================================================ a whole game

class Game:
    """Hands until the game is decided (MOON-4.1, MOON-9.1, MOON-10.5, A-MOON-3, A-MOON-18).

    The first bidder of the first hand is ``rng.integers(players)`` unless given; it then moves
    one seat left every hand, thrown-in hands included (MOON-4.1, MOON-4.6). Each hand is dealt
    with :func:`deal` from the same ``rng``.
    """

    def __init__(self, players: int, rules: Rules, rng: np.random.Generator,
                 first_bidder: int | None = None) -> None:
        tile_set_for(rules, players)
        self.players, self.rules, self.rng = players, rules, rng
        self.sides = side_of_seats(players)
        self.first_bidder = int(rng.integers(players)) if first_bidder is None else first_bidder
        self.scores = [0] * (max(self.sides) + 1)
        self.hands_played = 0
        self.winner: int | None = None
        self._set_last_hand: int | None = None    # side set on the previous played hand (A-MOON-18)

    def new_hand(self) -> Hand:
        hands, widow = deal(self.rng, self.players, self.rules)
        return Hand(hands, widow, self.first_bidder, self.rules)

    def finish_hand(self, hand: Hand) -> int | None:
        """Add a finished hand's score; return the winning side, or None to play on."""
        if hand.phase != DONE or self.winner is not None:
            raise ValueError("finish_hand needs a finished hand of an undecided game")
        result = hand.result
        self.scores = [a + b for a, b in zip(self.scores, result.score)]
        loses = result.loses_game
        if not hand.thrown_in:
            set_side = None if result.made else self.sides[hand.bidder]
            # A-MOON-18: thrown-in hands neither break nor extend a run of sets
            if (self.rules.set_twice_loses_4p and self.players == 4 and set_side is not None
                    and set_side == self._set_last_hand and loses is None):
                loses = set_side
            self._set_last_hand = set_side
        self.hands_played += 1
        self.first_bidder = (self.first_bidder + 1) % self.players
        self.winner = game_winner(self.scores, self.rules, hand.bidder,
                                  wins_game=result.wins_game, loses_game=loses)
        return self.winner
