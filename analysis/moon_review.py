"""Moon's `moonshot review` hook: every bid, discard, trump and play of a recorded hand valued from
what the seat knew then (analysis/review.py does the rest).

The record is played again through the batch engine with its own choices, so each decision's view
is the one the seat's strategy was shown (simulator/moon/views.py: its tiles, the calls, the plays,
the voids shown). Each option is then valued with pimc's machinery (strategies/moon_search.py) on
worlds dealt from that view: the same worlds for every option, each solved exactly. A bid is valued
as winning the auction at it with the best of pimc's most promising trumps (its bidder's 7 kept by
the threshold players' keep value); a pass by the auction played on, the seats after it bidding as
the expert does and the deal solved exactly (analysis/moon_pass.py). A discard or a
trump is valued by the whole deal solved from the first lead (a discard with its best trump), a
play by the rest of the hand solved from it. A world's value is the margin of the hand's points: the
bidder side's points under the contract less the other side's (three players: the mean of the two
defenders', whose every trick is a point; pimc's outcome=margin); a defender's values are the same
with the sign turned, so every value reads "higher is better for the mover" and every trick
counts (the bidder's points alone would make most plays equal once a contract's fate is sealed).
The open-hands value is the exact solver's on the hands as dealt.

For hands of whole games (scores_before) each option also gets the mover's P(win the game): the
totals after the hand (a three-player defender pair's tricks split evenly between them) and then
continuations drawn from a fixed sample of threshold self-play hands; a pass continues from the
totals before the hand with a sampled hand in its place.
"""
from __future__ import annotations

import json
from dataclasses import fields
from functools import lru_cache

import numpy as np

from moonshot.analysis.luck import setup_of
from moonshot.analysis.moon_pass import pass_outcomes
from moonshot.analysis.review import Decision, Sizes, decision_rng
from moonshot.analysis.words import ordinal, trick_place
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import solver as moon_solver
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine import Table, play
from moonshot.simulator.moon.history import _rule_args
from moonshot.simulator.moon.rules import parse_rules, tile_set_for
from moonshot.simulator.moon.views import BID_VALUES, PASS, BidView, DiscardView, PlayView, TrumpView
from moonshot.strategies.base import make_strategy
from moonshot.strategies.moon_search import SEATS, TIE_BREAK, PimcMoon, _mask, bidder_points

UNIT = "points"
# A Moon hand moves 4 to 7 points (21 for a moon) to the bidder's side or away from it; a blunder costs
# the lowest bid under the default rules (a whole set contract), a mistake about a third of it.
SIZES = Sizes(0.5, 1.5, 4, "Moon points: 0.5, 1.5 and 4 (4: the lowest bid under the default rules, what a set "
              "contract of it costs)")
WORLDS = 128                              # the default worlds per decision (benchmarks/review_bench.py times a hand)
YARDSTICKS = ("threshold", "greedy")      # the built-in heuristics a seat's play is read against
HOW = ("Moon: each option valued by pimc's machinery from the seat's own view (worlds dealt consistent with its "
       "tiles, the plays and the voids shown), every world solved exactly; values are the bidder side's points for "
       "the hand less the other side's (three players: the mean of the two defenders'), with the sign turned for a "
       "defender, so higher is better for the mover; a bid is valued as winning the auction at it, a pass by the "
       "auction played on (the seats after it bid as the expert does) and the deal then solved.")
MARGIN = "margin"                         # how worlds are scored (strategies/moon_search.py's outcomes)
CONTINUATIONS = 256                       # continuations per P(win) value
SAMPLE_HANDS, SAMPLE_SEED = 4000, 27      # the fixed self-play sample they are drawn from
TRICKS = np.arange(dominoes.TRICKS + 1)


def _points(players, rules, bid, outcome) -> np.ndarray:
    """pimc's score of 0..7 bidder-side tricks without its tie-break (a hundredth of a point per
    trick is pimc's way to prefer more tricks, not points anyone scores)."""
    return np.round(bidder_points(players, rules, int(bid), outcome) - TIE_BREAK * TRICKS, 9)


VIEWS = {"bid": BidView, "discard": DiscardView, "trump": TrumpView, "play": PlayView}


def where(kind: str, view) -> str:
    """The decision as a player names it: 'bid, 2nd to speak', 'discard', 'trump', 'trick 3, lead'."""
    if kind == "bid":
        return f"bid, {ordinal(view.position + 1)} to speak"
    if kind == "play":
        return trick_place(view.trick_no, view.position)
    return kind


# ------------------------------------------------------------------------------------ the record played again

def _copy(view, kind: str):
    """A plain view of the one row the engine showed (the engine's lazy views read live state)."""
    cls = VIEWS[kind]
    values = {}
    for f in fields(cls):
        v = getattr(view, f.name)
        values[f.name] = np.array(v) if isinstance(v, np.ndarray) else v
    return cls(**values)


class _Script:
    """Every seat of the record at once: answers the engine with the record's choices and keeps a
    copy of each view shown, with the hands as they stood (for the open-hands values)."""

    def __init__(self, record: dict):
        parse = lambda t: dominoes.parse_tiles(t)[0]          # noqa: E731
        self.calls = [0 if c == "pass" else int(c) for _, c in record["bids"]]
        self.discard_tile = None if record["discard"] is None else parse(record["discard"])
        self.trump_id = None if record["trump"] is None else dominoes.TRUMP_NAMES.index(record["trump"])
        self.plays = [(p[0], parse(p[1]), p[2] if len(p) > 2 else None) for p in record["plays"]]
        self.held = [[parse(t) for t in h] for h in record["hands"]]
        self.widow = None if record["widow"] is None else parse(record["widow"])
        self.shown: list[tuple[str, object, list, object]] = []     # (kind, view, hands then, choice)
        self._bids = self._played = 0

    def _keep(self, kind, view, choice):
        self.shown.append((kind, _copy(view, kind), [list(h) for h in self.held], choice))

    def bid(self, view, rng):
        call = self.calls[self._bids]
        self._bids += 1
        self._keep("bid", view, call)
        return np.array([call], dtype=np.int16)

    def discard(self, view, rng):
        seat = int(view.seat[0])
        hand8 = [int(t) for t in view.hand[0]]
        self._keep("discard", view, self.discard_tile)
        self.held[seat] = [t for t in hand8 if t != self.discard_tile]
        return np.array([hand8.index(self.discard_tile)])

    def trump(self, view, rng):
        self._keep("trump", view, self.trump_id)
        return np.array([self.trump_id])

    def play(self, view, rng):
        seat, tile, end = self.plays[self._played]
        self._played += 1
        self._keep("play", view, (tile, end))
        self.held[seat].remove(tile)
        hand, live = np.asarray(view.hand[0]), np.asarray(view.live[0])
        return np.array([int(np.flatnonzero((hand == tile) & live)[0])])

    def call_end(self, view, slot, rng):
        return np.array([self.plays[self._played - 1][2]])


def _rules(record):
    return parse_rules(_rule_args(record["rules"]), record["players"])


@lru_cache(maxsize=8)
def _shown(text: str):
    """The record's decisions as shown to each seat: [(kind, view, hands then, choice)] (cached by
    the record's text: decision_steps and decisions replay the same hand)."""
    record = json.loads(text)
    P = record["players"]
    table = Table(P, _rules(record))
    script = _Script(record)
    held = np.array([[dominoes.parse_tiles(t)[0] for t in h] for h in record["hands"]])[None]
    scores = record.get("scores_before")
    play(table, 1, [script] * P, None, np.random.default_rng(0), scores=None if scores is None else [scores],
         first_bidder=np.array([record["first_bidder"]]), hands=held,
         widow=None if script.widow is None else np.array([script.widow]))
    return script.shown, script.widow


def _record_key(record: dict) -> str:
    return json.dumps(record, sort_keys=True)


def _seat_of(kind, view) -> int:
    return int(view.seat[0])


def decision_steps(record: dict, seats: set[int]) -> list[int]:
    """The steps (0, 1, ... over every seat's decisions in order) of `seats`' decisions."""
    shown, _ = _shown(_record_key(record))
    return [k for k, (kind, view, _, _) in enumerate(shown) if _seat_of(kind, view) in seats]


def decisions(record: dict, seats: set[int], worlds: int, seed: int, progress=None, steps=None) -> list[Decision]:
    """Every decision of `seats` in the record (only `steps` when given), each option valued on the
    same `worlds` worlds from the seat's view (review.py's hook interface)."""
    shown, widow = _shown(_record_key(record))
    wanted = set(decision_steps(record, seats) if steps is None else steps)
    rules = _rules(record)
    discard = None if record["discard"] is None else dominoes.parse_tiles(record["discard"])[0]
    out = []
    for step, (kind, view, held, choice) in enumerate(shown):
        if step not in wanted:
            continue
        out.append(value(kind, view, record["players"], rules, record["hand_id"], step, worlds, seed, choice,
                         record.get("scores_before"), discard, held, widow))
        if progress is not None:
            progress(1)
    return out


# ------------------------------------------------------------------------------------ the seat's result (luck)

def result(record: dict, seat: int) -> float:
    """The seat's result in the hand as its options are valued: the bidder side's margin (its points
    less the other side's, three players: the mean of the two defenders'), sign turned for a
    defender; 0 for a hand thrown in (analysis/luck.py's end point)."""
    bidder = record["bidder"]
    if bidder is None:
        return 0.0
    sides = dominoes.side_of_seats(record["players"])
    tricks = sum(sides[w] == sides[bidder] for w in record["trick_winners"])
    margin = _points(record["players"], _rules(record), record["bid"], MARGIN)[tricks]
    return float(margin if sides[seat] == sides[bidder] else -margin)


def results(table, res) -> tuple[np.ndarray, np.ndarray]:
    """(hands, players) each seat's result (as `result`) in a batch of the engine's hands, and each
    hand's first bidder (position 0)."""
    P, bids = table.players, [b for b in BID_VALUES if b != PASS]
    margins = np.zeros((max(bids) + 1, dominoes.TRICKS + 1))
    for b in bids:
        margins[b] = _points(P, table.rules, b, MARGIN)
    played = res.bidder >= 0
    rows = np.arange(len(played))
    bside = np.asarray(table.side_of_seat)[np.maximum(res.bidder, 0)]
    margin = np.where(played, margins[np.where(played, res.bid, bids[0]), res.tricks[rows, bside]], 0.0)
    own = np.asarray(table.side_of_seat)[None, :P] == bside[:, None]
    return np.where(own, 1.0, -1.0) * margin[:, None], res.first_bidder


def position(record: dict, seat: int) -> int:
    """The seat's place in the auction (0: the first to speak)."""
    return (seat - int(record["first_bidder"])) % int(record["players"])


def setup(record: dict):
    """The record's table (players, rules) with the default players: its expected result's table."""
    return setup_of("moon", int(record["players"]), _rules(record))


def step_count(record: dict) -> int:
    """The hand's steps (every seat's decisions, forced ones too): one past its last move."""
    return len(_shown(_record_key(record))[0])


def value(kind: str, view, players: int, rules, hand_id: int, step: int, worlds: int, seed: int, choice=None,
          scores_before=None, discard=None, held=None, widow=None) -> Decision:
    """One decision (`kind`: bid, discard, trump or play) valued from the seat's view alone on
    `worlds` worlds of decision_rng(seed, hand_id, step): the review's valuation of it, and the
    Play page's hint (which knows no `choice` yet and no hands but its own: `held`, the hands as
    they stood, gives the open-hands values, None leaves them out). `scores_before`: the game's
    scores before the hand (whole games: P(win) too); `discard`: the bidder's own discard, known
    to it when it names trump after discarding."""
    valuer = _Valuer(hand_id, players, rules, worlds, decision_rng(seed, hand_id, step), held, widow,
                     scores_before, discard)
    return getattr(valuer, kind)(view, choice, step)


def _at(options: list, choice) -> int:
    """The chosen option's index (0 where nothing is chosen yet: a hint)."""
    return 0 if choice is None else options.index(choice)


# ------------------------------------------------------------------------------------ valuing options

class _Valuer:
    """One decision's options valued on one set of worlds (pimc's machinery), plus open-hands
    values and, for whole games, P(win)."""

    def __init__(self, hand_id, players, rules, worlds, rng, held, widow, scores_before, discard):
        self.hand_id, self.rules, self.rng, self.held, self.widow = hand_id, rules, rng, held, widow
        self.before, self.own_discard = scores_before, discard
        self.P = players
        self.pimc = PimcMoon(worlds=worlds)
        self.worlds = worlds
        self.n_widow = len(dominoes.TILE_SETS[tile_set_for(rules, self.P)]) - self.P * dominoes.HAND_SIZE
        self.outcome = MARGIN

    def _decision(self, view, kind, step, options, chosen, tricks, sign, bid, bidder, open_tricks, yard, rows=None,
                  passing=None):
        """A Decision from bidder-side tricks per world and option (None for a pass column, whose
        outcomes are `passing`: the auction played on, analysis/moon_pass.py)."""
        W, K = self.worlds, len(options)
        seat = int(view.seat[0])
        if K == 1:
            whole = np.zeros((0, 1)) if self.before is not None else None
            return Decision(self.hand_id, seat, step, kind, options, 0, np.zeros((0, 1)), UNIT,
                            win=whole, open_values=[np.nan], yardstick={n: 0 for n in yard}, sizes=SIZES,
                            where=where(kind, view))
        outcomes = np.zeros((W, K))
        opens = []
        for k in range(K):
            b = bid[k] if isinstance(bid, list) else bid
            if tricks[k] is None:
                opens.append(np.nan)             # the others' bids after a pass are not known open-handed
                outcomes[:, k] = passing if passing is not None else 0.0
                continue
            pts = _points(self.P, self.rules, b, self.outcome)
            outcomes[:, k] = sign * pts[tricks[k]]
            opens.append(float(sign * pts[open_tricks[k]]) if open_tricks[k] is not None else np.nan)
        win = None
        if self.before is not None:
            win = np.zeros((W, K))
            for k in range(K):
                b = bid[k] if isinstance(bid, list) else bid
                win[:, k] = [self._p_win(seat, bidder, b, t) for t in
                             (tricks[k] if tricks[k] is not None else [None] * W)]
        return Decision(self.hand_id, seat, step, kind, options, chosen, outcomes, UNIT, win=win,
                        open_values=opens, yardstick=yard, sizes=SIZES, where=where(kind, view))

    # --- whole games

    def _p_win(self, seat, bidder, bid, tricks) -> float:
        side = dominoes.side_of_seats(self.P)[seat]
        before = tuple(self.before)
        if tricks is None:                        # a pass: a sampled hand in this one's place
            return _continue(self.P, self.rules, before, None, None, None)[side]
        return _continue(self.P, self.rules, before, int(bidder), int(bid), int(tricks))[side]

    # --- yardsticks

    def _yardstick(self, kind, view, to_option) -> dict[str, int]:
        out = {}
        for name in YARDSTICKS:
            strat = make_strategy("moon", name)
            rng = np.random.default_rng(self.rng.integers(2**63))
            if kind == "play":
                slot = int(strat.play(view, rng)[0])
                tile = int(view.hand[0][slot])
                end = None
                if view.rules.lead_suit_rule == "leader_calls_end" and view.position == 0 and \
                        ref.needs_end_call(tile, int(view.trump[0]), view.rules):
                    end = int(strat.call_end(view, np.array([slot]), rng)[0]) if hasattr(strat, "call_end") \
                        else dominoes.HIGH[tile]
                k = to_option((tile, end))
            else:
                k = to_option(int(getattr(strat, kind)(view, rng)[0]))
            if k is not None:
                out[name] = k
        return out

    # --- the decisions

    def bid(self, view: BidView, call, step) -> Decision:
        P, rules, pimc = self.P, self.rules, self.pimc
        seat = int(view.seat[0])
        legal = [int(b) for b, ok in zip(BID_VALUES, view.legal[0]) if ok]
        options = ["pass" if b == PASS else str(b) for b in legal]
        yard = self._yardstick("bid", view, lambda b: legal.index(b) if b in legal else None)
        if len(legal) == 1:
            return self._decision(view, "bid", step, options, 0, [None], 1, 0, seat, [None], yard)
        hand = [int(t) for t in view.hand[0]]
        mask = np.zeros(dominoes.N_TRUMPS, dtype=bool)
        mask[ref.allowed_trumps(P, rules)] = True
        hands, aside = pimc._others_worlds(self.rng, P, rules, seat, _mask(hand), self.n_widow)
        found = pimc._race_trumps(P, rules, seat, hand, hands, aside, self.n_widow,
                                  pimc._trump_order(np.array(hand), mask)[:pimc.n_trumps])
        opened = self._open_bid_tricks(seat, hand, mask) if self.held is not None else None
        tricks, opens, passing = [], [], None
        for b in legal:
            if b == PASS:
                tricks.append(None)
                opens.append(None)
                hands[:, seat] = _mask(hand)
                passing = pass_outcomes(P, rules, view, hands, aside, pimc,
                                        lambda bid: _points(P, rules, bid, self.outcome))
                continue
            pts = _points(P, rules, b, self.outcome)
            # every world solved exactly, as the notes say: no pimc `caution` (its four-player bidding
            # counts a trick fewer, which made a lock 21 a blunder)
            t_best = max(found, key=lambda t: pts[found[t]].mean())
            tricks.append(found[t_best])
            opens.append(None if opened is None else max(opened.values(), key=lambda t: pts[t]))
        return self._decision(view, "bid", step, options, _at(legal, call), tricks, 1, legal, seat, opens, yard,
                              passing=passing)

    def _open_bid_tricks(self, seat, hand, mask) -> dict[int, int]:
        """{trump: the bidder's tricks} with every hand as dealt, the widow taken (keep value)."""
        deal = np.zeros((1, SEATS), dtype=np.int64)
        for s, h in enumerate(self.held):
            deal[0, s] = _mask(h)
        aside = np.array([0 if self.widow is None else 1 << self.widow], dtype=np.int64)
        out = {}
        for t in np.flatnonzero(mask):
            deal[0, seat] = self.pimc._bidder_hands(hand, aside, int(t), self.n_widow)[0]
            out[int(t)] = int(self.pimc._values(self.P, self.rules, int(t), seat, deal, seat, True)[0])
        return out

    def _deal_tricks(self, seat, others, mine: int, trump) -> np.ndarray:
        hands = others.copy()
        hands[:, seat] = mine
        return self.pimc._values(self.P, self.rules, int(trump), seat, hands, seat, True)

    def _actual_others(self, seat) -> np.ndarray | None:
        if self.held is None:                    # a hint: no other hand is known
            return None
        deal = np.zeros((1, SEATS), dtype=np.int64)
        for s, h in enumerate(self.held):
            if s != seat:
                deal[0, s] = _mask(h)
        return deal

    def discard(self, view: DiscardView, tile, step) -> Decision:
        P, rules, pimc = self.P, self.rules, self.pimc
        seat, bid = int(view.seat[0]), int(view.bid[0])
        hand8 = [int(t) for t in view.hand[0]]
        named = int(view.trump[0])
        allowed = ref.allowed_trumps(P, rules)
        mask = np.zeros(dominoes.N_TRUMPS, dtype=bool)
        mask[allowed] = True
        trumps = [named] if named >= 0 else pimc._trump_order(np.array(hand8), mask)[:pimc.n_trumps]
        hands, _ = pimc._others_worlds(self.rng, P, rules, seat, _mask(hand8), 0)
        actual = self._actual_others(seat)
        pts = _points(P, rules, bid, self.outcome)
        tricks, opens = [], []
        for slot in range(len(hand8)):
            mine = _mask(np.delete(hand8, slot))
            per = {t: self._deal_tricks(seat, hands, mine, t) for t in trumps}
            tricks.append(per[max(per, key=lambda t: pts[per[t]].mean())])
            opens.append(None if actual is None else max((int(self._deal_tricks(seat, actual, mine, t)[0]) for t in
                                                          ([named] if named >= 0 else allowed)), key=lambda x: pts[x]))
        options = [dominoes.tile_name(t) for t in hand8]
        yard = self._yardstick("discard", view, lambda s: s)
        return self._decision(view, "discard", step, options, _at(hand8, tile), tricks, 1, bid, seat, opens, yard)

    def trump(self, view: TrumpView, trump, step) -> Decision:
        P, rules, pimc = self.P, self.rules, self.pimc
        seat, bid = int(view.seat[0]), int(view.bid[0])
        legal = [int(t) for t in np.flatnonzero(view.legal[0])]
        hand = [int(t) for t in view.hand[0]]
        options = [dominoes.trump_name(t) for t in legal]
        yard = self._yardstick("trump", view, lambda t: legal.index(t) if t in legal else None)
        if len(legal) == 1:
            return self._decision(view, "trump", step, options, 0, [None], 1, bid, seat, [None], yard)
        known = _mask(hand)
        own = self.own_discard
        if len(hand) == dominoes.HAND_SIZE and own is not None:
            known |= 1 << own                                          # the bidder knows its own discard
        pool_aside = 0 if (len(hand) > dominoes.HAND_SIZE or own is not None) else self.n_widow
        hands, _ = pimc._others_worlds(self.rng, P, rules, seat, known, pool_aside)
        actual = self._actual_others(seat)
        tricks, opens = [], []
        for t in legal:
            if len(hand) > dominoes.HAND_SIZE:         # trump first: the 8th tile dropped by keep value
                aside = np.full(self.worlds, 1 << hand[-1], dtype=np.int64)
                mine = int(pimc._bidder_hands(hand[:-1], aside[:1], t, 1)[0])
            else:
                mine = _mask(hand)
            tricks.append(self._deal_tricks(seat, hands, mine, t))
            opens.append(None if actual is None else int(self._deal_tricks(seat, actual, mine, t)[0]))
        return self._decision(view, "trump", step, options, _at(legal, trump), tricks, 1, bid, seat, opens, yard)

    def play(self, view: PlayView, choice, step) -> Decision:
        P, rules = self.P, self.rules
        seat, bidder, trump = int(view.seat[0]), int(view.bidder[0]), int(view.trump[0])
        sides = dominoes.side_of_seats(P)
        sign = 1 if sides[seat] == sides[bidder] else -1
        calls = rules.lead_suit_rule == "leader_calls_end" and view.position == 0
        slots = np.flatnonzero(np.asarray(view.legal[0]))

        def label(m):
            return dominoes.tile_name(m[0]) + (f" calling {m[1]}" if m[1] is not None else "")
        if len(slots) == 1 and not calls:
            only = (int(view.hand[0][slots[0]]), None)
            return self._decision(view, "play", step, [label(only)], 0, [None], sign, int(view.bid[0]), bidder,
                                  [None], {n: 0 for n in YARDSTICKS})
        moves, tricks, _ = self.pimc.move_outcomes(view, 0, self.rng)
        moves = [(int(t), None if e is None else int(e)) for t, e in moves]
        index = {m: k for k, m in enumerate(moves)}

        def to_option(m):
            return index.get(m, index.get((m[0], None)))
        yard = self._yardstick("play", view, to_option)
        done = int(view.tricks[0][sides[bidder]])
        trick = [int(x) for x in view.trick[0] if x >= 0]
        leader = (seat - int(view.position)) % P
        called = None if view.called_end is None or int(view.called_end[0]) < 0 else int(view.called_end[0])
        first = view.trick_no == 0 and view.position == 0
        exact = {}
        if self.held is not None:
            sol = moon_solver.solve(self.held, trump, rules, bidder, leader, trick, called, first_lead=first)
            exact = {(m if isinstance(m, tuple) else (m, None)): v for m, v in sol.moves}
        opens = [min(done + exact[m], dominoes.TRICKS) if m in exact else None for m in moves]
        return self._decision(view, "play", step, [label(m) for m in moves], 0 if choice is None else to_option(choice),
                              [tricks[:, k] for k in range(len(moves))], sign, int(view.bid[0]), bidder, opens, yard)


# ------------------------------------------------------------------------------------ whole games

@lru_cache(maxsize=16)
def _sample(players: int, rules) -> tuple[np.ndarray, np.ndarray]:
    """A fixed sample of threshold self-play hands (the same in every process): each side's score,
    and the side winning (or losing) the game outright (-1 none)."""
    table = Table(players, rules)
    rng = np.random.default_rng(SAMPLE_SEED)
    strat = make_strategy("moon", "threshold")
    res = play(table, SAMPLE_HANDS, [strat] * players, rng, np.random.default_rng(SAMPLE_SEED + 1))
    return res.score.astype(float), np.stack([res.wins_game, res.loses_game, res.bidder], axis=1)


def _hand_score(players, rules, bidder, bid, tricks) -> tuple[np.ndarray, object]:
    """Each side's score for the hand from the bidder side's tricks (a three-player defender pair's
    split evenly), and the HandScore's outright result."""
    sides = dominoes.side_of_seats(players)
    n_sides = max(sides) + 1
    per_side = [0.0] * n_sides
    own = sides[bidder]
    for s in range(n_sides):
        per_side[s] = tricks if s == own else (dominoes.TRICKS - tricks) / (n_sides - 1)
    res = ref.score_hand(players, bidder, bid, [int(round(x)) for x in per_side], rules)
    score = [float(res.score[own]) if s == own else (per_side[s] if rules.scoring != "marks7" else res.score[s])
             for s in range(n_sides)]
    return np.array(score), res


@lru_cache(maxsize=4096)
def _continue(players, rules, before: tuple, bidder, bid, tricks) -> np.ndarray:
    """Each side's chance to win the game: the hand's totals (a sampled hand for a pass, bidder None),
    then sampled hands until someone wins (CONTINUATIONS of them, at most 60 hands each)."""
    scores, outright = _sample(players, rules)
    n_sides = scores.shape[1]
    key = [int(x * 2) + 10_000 for x in before] + [0 if bidder is None else bidder + 1, bid or 0,
                                                    0 if tricks is None else tricks + 1]
    rng = np.random.default_rng([SAMPLE_SEED, *key])        # the same continuations in every process
    wins = np.zeros(n_sides)
    for _ in range(CONTINUATIONS):
        totals = np.array(before, dtype=float)
        winner = None
        if bidder is not None:
            hand, res = _hand_score(players, rules, bidder, bid, tricks)
            totals += hand
            winner = ref.game_winner(list(totals), rules, bidder, wins_game=res.wins_game,
                                     loses_game=res.loses_game)
        for _ in range(60):
            if winner is not None:
                break
            k = int(rng.integers(len(scores)))
            totals += scores[k]
            w, lose, b = (int(x) for x in outright[k])
            winner = ref.game_winner(list(totals), rules, b if b >= 0 else None,
                                     wins_game=w if w >= 0 else None, loses_game=lose if lose >= 0 else None)
        if winner is not None:
            wins[winner] += 1
    return wins / CONTINUATIONS
