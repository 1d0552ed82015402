"""Hit the Deck, one hand at a time, in plain Python: the rules oracle and the replayer (RULES.md §3).

Each function names the rule it implements (HTD-x.y), the ambiguity it settles (A-HTD-n) or the
pinned reading it follows (§C.16 Pn). Cards are kind ids of :mod:`simulator.hit_the_deck.cards`;
demands use the encoding there (-1 none, v-1 Number(v), 5+c Colour(c)).

A :class:`Hand` holds the state of HTD-3 (hands, draw and discard piles as lists with the top
first, direction, the seat to act, demand) and plays to the end, writing HISTORY.md events as it
goes. Choices come from a chooser ``choose(view, legal) -> kind or DRAW``; every random outcome from
a chance source (:mod:`simulator.hit_the_deck.reference_chance`), so one code path both generates hands and
replays recorded ones. :class:`Game` strings hands together to ``htd.target_score`` (HTD-8).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

import numpy as np

from moonshot.simulator.errors import BadInput, IllegalMove
from moonshot.simulator.hit_the_deck import cards as htd_cards
from moonshot.simulator.hit_the_deck.cards import (
    CLASS, COLOUR, CUT, DRAW, FLIP, HH, HTD_C, HTD_H, HTD_N, NAMES, NUMBER, PENALTY, SLAP_KIND, VALUE,
)
from moonshot.simulator.hit_the_deck.reference_chance import RandomChance, RecordedChance, cut_range
from moonshot.simulator.hit_the_deck.profiles import Profile
from moonshot.simulator.hit_the_deck.rules import Rules

QUIET_LIMIT = 30                       # HTD-6.4: cut/flip/pass events in one quiet stretch
NORMAL, DO_CUT, DO_FLIP, DO_SHOUT = "normal", "cut", "flip", "shout"   # what the seat to act must do


# ============================================================================ legal plays

def _kinds(hand) -> list[int]:
    """Kinds held: a list/tuple of kinds, or counts per kind (numpy array of 38, dict or Counter)."""
    if isinstance(hand, np.ndarray):
        return [k for k in range(htd_cards.N_KINDS) if hand[k] > 0]
    if isinstance(hand, dict):
        return [k for k, n in hand.items() if n > 0]
    return list(hand)


# HTD-3.1..3.3, A-HTD-5 (P1), A-HTD-1 (P2)
def can_play(kind: int, top: int, demand: int, rules: Rules, start_card_ignored: bool = False) -> bool:
    cls = CLASS[kind]
    if demand >= 5:                                    # Colour(c): numbers or word cards of c
        return cls in (NUMBER, CUT, FLIP) and COLOUR[kind] == demand - 5
    if demand >= 0:                                    # Number(v): number cards of value v only
        return cls == NUMBER and VALUE[kind] == demand + 1
    if cls in (HTD_N, HTD_C, HTD_H):                   # HTD cards go on anything without a demand
        return True
    top_cls = CLASS[top]
    if top_cls == HTD_H:
        return True
    if top_cls in (HTD_N, HTD_C):
        # HTD-3.1 invariant: only an ignored start card (P2) is an HTD-N/C on top with no demand
        if not start_card_ignored:
            raise ValueError(f"{NAMES[top]} on top with no demand: only an ignored start card may be")
        return True
    if COLOUR[kind] == COLOUR[top]:
        return True
    if cls == NUMBER:
        return top_cls == NUMBER and VALUE[kind] == VALUE[top]
    return rules.word_matches_word and cls == top_cls  # P1: Cut on Cut, Flip on Flip


def legal_plays(hand, top: int, demand: int, rules: Rules, start_card_ignored: bool = False) -> set[int]:
    """The kinds of ``hand`` that may be played (HTD-3); DRAW is never included here."""
    return {k for k in set(_kinds(hand)) if can_play(k, top, demand, rules, start_card_ignored)}


# HTD-1.4, HTD-7.2
def hand_points(hand) -> int:
    """HTD-1.4: numbers at face value, every other card 10."""
    if isinstance(hand, (np.ndarray, dict)):
        return sum(int(PENALTY[k]) * int(hand[k]) for k in _kinds(hand))
    return sum(int(PENALTY[k]) for k in hand)


def score_hand(hands, went_out: int | None) -> list[int]:
    """Points per seat this hand: 0 for the seat that went out, else its cards (HTD-7.2)."""
    return [0 if s == went_out else hand_points(h) for s, h in enumerate(hands)]


# HTD-4.3 step 1
def flip_piles(draw: list[int], discard: list[int]) -> tuple[list[int], list[int]]:
    """New (draw, discard), top first: the discard pile's oldest card becomes the draw top, the draw
    pile's old bottom card becomes the discard top."""
    return discard[::-1], draw[::-1]


def demand_of(kind: int) -> int:
    """The demand an HTD-N or HTD-C sets (HTD-4.4, HTD-4.5); -1 for any other card."""
    if CLASS[kind] == HTD_N:
        return int(VALUE[kind]) - 1
    if CLASS[kind] == HTD_C:
        return 5 + kind - htd_cards.htd_c(0)
    return -1


def false_slap_q(profile: Profile, kind: int, rules: Rules) -> float:
    """§C.14 false-slap probability of a seat at a card event of ``kind`` (P5: announce factor)."""
    if profile.off:
        return 0.0
    sk = SLAP_KIND[kind]
    if sk == 2:
        return profile.q_htd * (rules.announce_factor if rules.announce_htd_cards else 1.0)
    return profile.q_word if sk == 1 else profile.q_number


def tied_for_last(latencies: dict[int, float], window: float) -> list[int]:
    """§C.14: the seats within ``window`` ms of the slowest, in seat order (too close to call)."""
    slowest = max(latencies.values())
    return sorted(s for s, x in latencies.items() if x >= slowest - window)


# ============================================================================ a hand

@dataclass(frozen=True)
class View:
    """What the seat to act sees (its own hand and public facts); the reference's PlayView."""
    seat: int
    players: int
    rules: Rules
    hand: tuple[int, ...]          # kinds, ascending
    drawn: int                     # -1, or the kind just drawn when the question is "play it or keep it"
    top: int
    demand: int
    direction: int
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]        # game totals before this hand
    draw_size: int
    discard_size: int
    seen: tuple[int, ...]          # per kind: cards played or exposed onto the discard pile this hand


class _HandOver(Exception):
    """Raised inside a Hand when the hand ends (out or blocked), to unwind the turn loop."""


Chooser = Callable[[View, frozenset], int]


class Hand:
    """One hand from the deal to ``out`` or ``blocked`` (HTD-2..HTD-7).

    ``hands``: kinds per seat as dealt; ``draw_pile``: the undealt cards, top first, before the
    start card is turned. ``on_event(index, event)`` is called after each event is written (the
    replayer compares it with the record there). Call :meth:`play` once.
    """

    def __init__(self, dealer: int, hands, draw_pile, rules: Rules, profiles, chooser: Chooser,
                 chance, scores=None, on_event: Callable[[int, list], None] | None = None) -> None:
        self.players = len(hands)
        if not 2 <= self.players <= 6 or not 0 <= dealer < self.players or len(profiles) != self.players:
            raise BadInput(f"{self.players} hands, dealer {dealer}, {len(profiles)} profiles; accepted: "
                           "2..6 hands, a dealer seat among them, one profile per seat")
        everything = Counter(k for h in hands for k in h) + Counter(draw_pile)
        deck = htd_cards.deck_counts(rules)
        if any(everything[k] != deck[k] for k in range(htd_cards.N_KINDS)):
            raise BadInput("the hands and draw pile are not the 110-card deck of the rules")
        self.dealer, self.rules, self.profiles = dealer, rules, tuple(profiles)
        self.dealt = [list(h) for h in hands]
        self.initial_draw = list(draw_pile)
        self.hands = [list(h) for h in hands]
        self.draw = list(draw_pile)                # top first
        self.discard: list[int] = []               # top first
        self.direction = 1
        self.demand = -1
        self.start_ignored = False                 # P2: the ignored start card is still on top
        self.seat, self.todo = (dealer + 1) % self.players, NORMAL
        self.chooser, self.chance, self.on_event = chooser, chance, on_event
        self.scores = tuple(scores) if scores is not None else (0,) * self.players
        self.events: list[list] = []
        self.turns = 0                             # HTD-6.5
        self.quiet = 0                             # HTD-6.4
        self.seen = [0] * htd_cards.N_KINDS
        self.went_out: int | None = None
        self.blocked = False
        self.score: list[int] | None = None
        if hasattr(chance, "bind"):
            chance.bind(self)

    # ------------------------------------------------------------------ bookkeeping

    @property
    def top(self) -> int:
        return self.discard[0]

    def next_seat(self, seat: int, direction: int | None = None) -> int:
        return (seat + (self.direction if direction is None else direction)) % self.players

    def _emit(self, *event) -> None:
        ev = list(event)
        self.events.append(ev)
        if self.on_event is not None:
            self.on_event(len(self.events) - 1, ev)
        kind = ev[0]
        # HTD-6.4: cards played, drawn into a hand or taken as penalties break a quiet stretch
        if (kind in ("play", "draw", "penalty") and ev[-1] is not None):
            self.quiet = 0
        elif kind in ("cut", "flip", "pass"):
            self.quiet += 1
        # HTD-6.5: draw, cut, flip, and a play that does not follow its own draw
        if kind in ("draw", "cut", "flip") or (kind == "play" and not self._follows_own_draw()):
            self.turns += 1
            last_card = kind == "play" and not self.hands[ev[1]]
            if self.turns >= self.rules.max_turns and not last_card:
                self._block()
        if self.quiet >= QUIET_LIMIT:
            self._block()

    def _follows_own_draw(self) -> bool:
        if len(self.events) < 2:
            return False
        prev, ev = self.events[-2], self.events[-1]
        return prev[0] == "draw" and prev[1] == ev[1] and prev[2] == ev[2]

    def _block(self) -> None:
        self.events.append(["blocked"])
        if self.on_event is not None:
            self.on_event(len(self.events) - 1, ["blocked"])
        self.blocked = True
        raise _HandOver

    def _put_on_discard(self, kind: int) -> None:
        self.discard.insert(0, kind)
        self.seen[kind] += 1
        self.start_ignored = False

    # HTD-6.1: keep the top discard card, shuffle the rest into the draw pile
    def _refill(self) -> None:
        if self.draw or len(self.discard) < 2:
            return                                 # a reshuffle is written only when it moves a card
        rest = self.discard[1:]
        order = self.chance.reshuffle(list(rest))
        if sorted(order) != sorted(rest):
            raise BadInput(f"reshuffle {[NAMES[k] for k in order]} is not the discard pile below the top "
                           f"({len(rest)} cards: {' '.join(sorted(NAMES[k] for k in rest))})")
        self.draw, self.discard = list(order), self.discard[:1]
        self._emit("reshuffle", [NAMES[k] for k in order])

    def _take(self) -> int | None:
        """The top card of the draw pile after any reshuffle, or None (HTD-6.2)."""
        self._refill()
        return self.draw.pop(0) if self.draw else None

    # ------------------------------------------------------------------ the hand

    def play(self, start: bool = True) -> "Hand":
        """Play to the end; ``start=False`` continues from the state as set (hand-made positions)."""
        try:
            if start:
                self._start()
            while True:
                todo, self.todo = self.todo, NORMAL
                {NORMAL: self._turn, DO_CUT: self._cut, DO_FLIP: self._flip,
                 DO_SHOUT: self._exposed_hh}[todo](self.seat)
        except _HandOver:
            pass
        self.score = score_hand(self.hands, self.went_out)
        return self

    # HTD-2.3, HTD-5.4, A-HTD-1
    def _start(self) -> None:
        while True:
            card = self.draw.pop(0)
            self._put_on_discard(card)
            self._emit("turn", NAMES[card])
            if card != HH:
                break
            self._bury_top("draw")                 # an opening HTD-H is always buried
        first = (self.dealer + 1) % self.players
        if self.rules.start_card == "first_player_plays_normally":
            self._false_slaps(self.dealer, card)
            self.start_ignored = True              # P2: no effect, no demand
            self.seat, self.todo = first, NORMAL
        else:
            self._expose(first, actor=self.dealer)  # as if the dealer had just played it

    # A-HTD-9: bury the top discard card into ``pile`` at 1..n (n = that pile's size before it)
    def _bury_top(self, pile: str) -> None:
        card = self.discard.pop(0)
        target = self.draw if pile == "draw" else self.discard
        n = len(target)
        pos = self.chance.bury_position(pile, n)
        if isinstance(pos, bool) or not isinstance(pos, int) or not 1 <= pos <= max(n, 1):
            raise BadInput(f"bury position {pos!r} into a {pile} pile of {n}; accepted: 1..{n}")
        target.insert(pos, card)
        self._emit("bury", pile, pos, NAMES[card])

    # HTD-5.1 (and HTD-3.7 for a played card): the top card acts on X, the next to act
    def _expose(self, x: int, actor: int) -> None:
        card = self.top
        cls = CLASS[card]
        if cls == HTD_H:                           # HTD-5.3: X shouts, then (A-HTD-2) plays
            self.seat, self.todo = x, DO_SHOUT
            return
        self._false_slaps(actor, card)
        self.demand = demand_of(card)              # HTD-4.4, HTD-4.5 (-1 for other cards)
        self.seat = x
        self.todo = {CUT: DO_CUT, FLIP: DO_FLIP}.get(cls, NORMAL)

    # HTD-3.5, HTD-3.6, A-HTD-4
    def _turn(self, seat: int) -> None:
        hand = self.hands[seat]
        legal = legal_plays(hand, self.top, self.demand, self.rules, self.start_ignored)
        choice = DRAW
        if legal:
            options = frozenset(legal | ({DRAW} if self.rules.voluntary_draw else set()))
            choice = self._ask(seat, options, -1)
        if choice != DRAW:
            self._play(seat, choice)
            return
        card = self._take()
        if card is not None:
            hand.append(card)
        self._emit("draw", seat, None if card is None else NAMES[card])
        if card is not None and can_play(card, self.top, self.demand, self.rules, self.start_ignored):
            keep = False
            if self.rules.drawn_card_play == "optional":
                keep = self._ask(seat, frozenset({card, DRAW}), card) == DRAW
            if not keep:
                self._play(seat, card)
                return
        self._emit("pass", seat)                   # an unmet demand passes on (HTD-3.6)
        self.seat, self.todo = self.next_seat(seat), NORMAL

    def _ask(self, seat: int, options: frozenset, drawn: int) -> int:
        view = View(seat, self.players, self.rules, tuple(sorted(self.hands[seat])), drawn, self.top,
                    self.demand, self.direction, tuple(len(h) for h in self.hands), self.scores,
                    len(self.draw), len(self.discard), tuple(self.seen))
        choice = self.chooser(view, options)
        if choice not in options:
            shown = NAMES[choice] if isinstance(choice, int) and 0 <= choice < htd_cards.N_KINDS else repr(choice)
            raise IllegalMove(f"event #{len(self.events)}: seat {seat} chose {shown}, not legal on "
                              f"{NAMES[self.top]} (demand {htd_cards.demand_name(self.demand)}); legal: "
                              f"{', '.join(sorted('draw' if k == DRAW else NAMES[k] for k in options))}")
        return int(choice)

    # HTD-3.7, HTD-4, HTD-7.1, A-HTD-3
    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self._put_on_discard(card)
        self.demand = -1                           # HTD-3.4: any legal play meets the demand
        self._emit("play", seat, NAMES[card])
        nxt = self.next_seat(seat)
        if not self.hands[seat]:                   # going out: no effect, no false slaps
            if card == HH and self.rules.final_card_effects == "resolve_then_score":
                self._slap(seat, went_out=True)    # P4
            self.went_out = seat
            self._emit("out", seat)
            raise _HandOver
        if card == HH:                             # HTD-4.6: slap, then N plays any card
            self._slap(seat)
            self.seat, self.todo = nxt, NORMAL
            return
        self._expose(nxt, actor=seat)

    # HTD-4.2, A-HTD-6
    def _cut(self, seat: int) -> None:
        self._refill()
        after = self.next_seat(seat)
        if not self.draw:                          # HTD-4.2 step 5: the Cut only uses up the turn
            self._emit("cut", seat, 0, None)
            self.seat, self.todo = after, NORMAL
            return
        n = len(self.draw)
        k = self.chance.cut_depth(n)
        lo, hi = cut_range(n, self.rules)
        if isinstance(k, bool) or not isinstance(k, int) or not lo <= k <= hi:
            raise BadInput(f"cut depth {k!r} for a draw pile of {n}; accepted: {lo}..{hi} "
                           f"(htd.cut_exposed={self.rules.cut_exposed})")
        card = self.draw.pop(k - 1 if self.rules.cut_exposed == "bottom_of_lifted" else k)
        self._put_on_discard(card)
        self._emit("cut", seat, k, NAMES[card])
        self._expose(after, actor=seat)

    # HTD-4.3, HTD-5.2, P3
    def _flip(self, seat: int) -> None:
        self._refill()                             # step 6: HTD-6 first when the draw pile is empty
        self._emit("flip", seat)
        self.draw, self.discard = flip_piles(self.draw, self.discard)
        self.direction = -self.direction
        self.start_ignored = False
        if not self.discard:                       # step 6: start the discard pile
            card = self.draw.pop(0)
            self._put_on_discard(card)
            self._emit("turn", NAMES[card])
        else:
            self.seen[self.top] += 1
        # step 5: a Flip turned up by a Flip is buried, at most once per card under it
        for _ in range(len(self.discard) - 1):
            if CLASS[self.top] != FLIP:
                break
            self._bury_top("discard")
            self.seen[self.top] += 1
        x = self.next_seat(seat)
        if CLASS[self.top] == FLIP:                # still a Flip: not carried out, a normal turn on it
            self._false_slaps(seat, self.top)
            self.demand, self.seat, self.todo = -1, x, NORMAL
        else:
            self._expose(x, actor=seat)

    # HTD-5.3, A-HTD-2
    def _exposed_hh(self, seat: int) -> None:
        self._slap(seat)
        self.demand = -1
        if self.rules.exposed_hand_card == "shouter_turn_consumed":
            self.seat = self.next_seat(seat)
        self.todo = NORMAL

    # §C.14, P4, P6, P7, A-HTD-7
    def _slap(self, shouter: int, went_out: bool = False) -> None:
        off = [p.off for p in self.profiles]
        racers = [i for i in range(self.players) if not off[i] and not (went_out and i == shouter)]
        forgot = False
        if not off[shouter] and not went_out:
            forgot = self.chance.forgot(shouter)
        if forgot:
            loser = shouter if self.chance.noticed(shouter) else None
            self._emit("slap", shouter, False, None, loser)
            cause = "forgot"
        else:
            latencies = self.chance.latencies(shouter, racers) if racers else {}
            if sorted(latencies) != racers:
                raise BadInput(f"slap latencies for seats {sorted(latencies)}; the racing seats are {racers}")
            loser = None
            if racers:
                tied = tied_for_last(latencies, self.rules.judge_window)
                loser = self.chance.loser(tied)
                if loser not in tied:
                    raise BadInput(f"slap loser {loser!r} is not among the seats too close to call "
                                   f"{tied} (latencies {latencies}, window {self.rules.judge_window} ms)")
            self._emit("slap", shouter, True, [latencies.get(i) for i in range(self.players)], loser)
            cause = "slap"
        if loser is not None:
            self._penalty(loser, cause, 4)

    def _penalty(self, seat: int, cause: str, count: int) -> None:
        for _ in range(count):                     # P7: each draw after any reshuffle; HTD-6.2
            card = self._take()
            if card is not None:
                self.hands[seat].append(card)
            self._emit("penalty", seat, cause, None if card is None else NAMES[card])

    # §C.14 false slaps: every seat but the actor, clockwise from the actor's left
    def _false_slaps(self, actor: int, card: int) -> None:
        if CLASS[card] == HTD_H:
            return                                 # it has its own slap
        for step in range(1, self.players):
            seat = (actor + step) % self.players
            q = false_slap_q(self.profiles[seat], card, self.rules)
            if q > 0 and self.chance.false_slap(seat, q):
                self._emit("false_slap", seat)
                self._penalty(seat, "false_slap", 2)

    # ------------------------------------------------------------------ results

    def record(self) -> dict:
        """The Hit the Deck keys of a HISTORY.md record (the common keys are the caller's)."""
        return {"dealer": self.dealer,
                "hands": [[NAMES[k] for k in h] for h in self.dealt],
                "draw_pile": [NAMES[k] for k in self.initial_draw],
                "reaction": [p.as_dict() for p in self.profiles],
                "events": self.events,
                "went_out": self.went_out,
                "score": self.score}

    def check_cards(self) -> None:
        """Card conservation: hands and piles hold exactly the deck (a test aid)."""
        now = Counter(k for h in self.hands for k in h) + Counter(self.draw) + Counter(self.discard)
        deck = htd_cards.deck_counts(self.rules)
        assert all(now[k] == deck[k] for k in range(htd_cards.N_KINDS)), "cards lost or created"


# ============================================================================ dealing and games

def deal(rng: np.random.Generator, players: int, rules: Rules) -> tuple[list[list[int]], list[int]]:
    """Shuffle the deck; seat s gets cards 7s..7s+6, the rest is the draw pile, top first (HTD-2.2)."""
    deck = htd_cards.deck_list(rules)
    order = rng.permutation(len(deck))
    cards = [deck[i] for i in order]
    hands = [cards[htd_cards.HAND_SIZE * s: htd_cards.HAND_SIZE * (s + 1)] for s in range(players)]
    return hands, cards[htd_cards.HAND_SIZE * players:]


def play_hand(dealer: int, hands, draw_pile, rules: Rules, profiles, chooser: Chooser,
              rng: np.random.Generator, scores=None) -> Hand:
    """Play one hand with every chance outcome drawn from ``rng`` (RandomChance)."""
    return Hand(dealer, hands, draw_pile, rules, profiles, chooser,
                RandomChance(rng, rules, tuple(profiles)), scores).play()


def replay_hand(record: dict, rules: Rules, profiles, on_event=None) -> Hand:
    """Replay a recorded hand (HISTORY.md keys ``dealer``, ``hands``, ``draw_pile``, ``events``) with
    its recorded choices and chance outcomes; ``on_event`` sees each event as the rules give it."""
    rec = RecordedChance(record["events"])
    hands = [[htd_cards.parse_card(c) for c in h] for h in record["hands"]]
    draw_pile = [htd_cards.parse_card(c) for c in record["draw_pile"]]
    return Hand(record["dealer"], hands, draw_pile, rules, profiles, rec.choose, rec,
                on_event=on_event).play()


def game_winners(scores, rules: Rules) -> list[int] | None:
    """HTD-8: once a total reaches the target, the seats with the lowest total win (A-HTD-8 shared);
    None to play on (below target, or a tie under winner_tie=play_another_hand)."""
    if max(scores) < rules.target_score:
        return None
    low = min(scores)
    winners = [s for s, x in enumerate(scores) if x == low]
    if len(winners) > 1 and rules.winner_tie == "play_another_hand":
        return None
    return winners


def next_dealer(dealer: int, went_out: int | None, players: int, rules: Rules) -> int:
    """htd.dealer_rotation (M7): left, fixed, or the seat that went out (left after a blocked hand)."""
    if rules.dealer_rotation == "fixed":
        return dealer
    if rules.dealer_rotation == "went_out_player_deals" and went_out is not None:
        return went_out
    return (dealer + 1) % players


class Game:
    """Hands to ``htd.target_score`` (HTD-8). The first dealer is ``rng.integers(players)`` unless
    given (HTD-2.2); each hand is dealt and played with the same ``rng``."""

    def __init__(self, players: int, rules: Rules, profiles, chooser: Chooser, rng: np.random.Generator,
                 dealer: int | None = None) -> None:
        self.players, self.rules, self.profiles = players, rules, tuple(profiles)
        self.chooser, self.rng = chooser, rng
        self.dealer = int(rng.integers(players)) if dealer is None else dealer
        self.scores = [0] * players
        self.hands: list[Hand] = []
        self.winners: list[int] | None = None

    def play_hand(self) -> Hand:
        hands, draw_pile = deal(self.rng, self.players, self.rules)
        hand = play_hand(self.dealer, hands, draw_pile, self.rules, self.profiles, self.chooser,
                         self.rng, self.scores)
        self.hands.append(hand)
        self.scores = [a + b for a, b in zip(self.scores, hand.score)]
        self.dealer = next_dealer(self.dealer, hand.went_out, self.players, self.rules)
        self.winners = game_winners(self.scores, self.rules)
        return hand

    def play(self, max_hands: int = 10_000) -> list[int]:
        while self.winners is None:
            if len(self.hands) >= max_hands:
                raise RuntimeError(f"no winner after {max_hands} hands")
            self.play_hand()
        return self.winners
