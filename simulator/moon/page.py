"""Moon's page parts for `moonshot serve` (found through the registry entry's `page`): the pieces
a hand is picked from, the example hand, the replay's steps (each play with the exact solver's
value of every legal move) and the play adapter.

Play a Moon hand: the batch engine plays one deal with the built-in strategies, and the person's
seat is a strategy that asks the page (prompts hold only what moon.views shows that seat).
Hints (bid, pass included, discard, trump and play): each option valued as `moonshot review` values
it (analysis/hints.py over moon_review.value), in the side's points with 95% intervals.

This module imports web.play.common, the play base every game shares: a game's page parts are the
web layer's plug-in that lives with the game, and only the web layer imports them (nothing in
simulator/ does), so the engines still import nothing of the web.
"""
from __future__ import annotations

import numpy as np

from moonshot.analysis.common import Setup
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.views import BID_VALUES
from moonshot.web.play import common

TRUMPS = [dominoes.trump_name(t) for t in range(9)]

PIECE = "tile"                                    # what one piece of a hand is called
HAND_SIZE, EXAMPLE = 7, "6-6 6-5 6-4 6-2 5-5 3-3 1-1"   # the README's example hand
REPEATS = False                                   # a hand never holds two of one tile
FIXED_ORDERS = True                               # the seat orders do not depend on the table size
KEYS: tuple = ()                                  # no keys beyond the choices' and the hint's


PIP_WORDS = ("blank", "one", "two", "three", "four", "five", "six")


def pieces(players: int | None = None, rules=None) -> list[str]:
    """The tiles in play, highest first: at `players` under `rules` the tile set they deal (22 tiles
    at 3 players, 21 with moon.tile_set=no_blanks21 or moon.widow=none, 28 at 4: MOON-1.2, MOON-1.3,
    A-MOON-2); with no table, all 28."""
    ids = range(dominoes.N_TILES) if players is None else dominoes.tile_set(players, rules)
    return sorted((dominoes.tile_name(int(i)) for i in ids), key=lambda s: (-int(s[0]), -int(s[2])))


def face(name: str) -> dict:
    """One tile as static/pieces.js draws it (web/pieces.py): its two ends' pips, named in words
    ("six-five", "double blank")."""
    high, low = dominoes.ends(dominoes.parse_tile(name))
    label = f"double {PIP_WORDS[high]}" if high == low else f"{PIP_WORDS[high]}-{PIP_WORDS[low]}"
    return {"name": dominoes.tile_name(dominoes.tile_id(high, low)), "label": label, "kind": "tile", "ends": [high, low]}


def _bid_label(b: int) -> str:
    return "pass" if b == 0 else str(b)


class Human(common.Person):
    """The person's seat as a Moon strategy: every decision becomes a prompt."""

    @common.decision
    def bid(self, view, rng):
        calls = view.bids[0]
        facts = [("your seat", str(self.g.seat)), ("bids so far", ", ".join(
            f"seat {s}: {_bid_label(int(c))}" for s, c in enumerate(calls) if c >= 0) or "none yet")]
        choices = [{"value": int(b), "label": _bid_label(int(b))} for b, ok in zip(BID_VALUES, view.legal[0]) if ok]
        P, me = view.players, self.g.seat
        order = [(me - view.position + i) % P for i in range(P)]          # the auction goes clockwise
        self.g.calls = [(s, _bid_label(int(calls[s]))) for s in order if calls[s] >= 0]
        shown = table(P, me, [7] * P, to_move=me, bids=self.g.calls, words="the auction")
        self.g.log.extend(f"seat {s} {'passes' if c == 'pass' else f'bids {c}'}" for s, c in self.g.calls[self.g.told:])
        self.g.told = len(self.g.calls) + 1            # and the person's own call, which the prompt logs
        call = self.g.ask("bid", "Your bid", view.hand[0], facts, choices, hint=lambda: self.g.bid_hint(view),
                          table=shown)
        self.g.calls.append((me, _bid_label(int(call))))
        return call

    @common.decision
    def discard(self, view, rng):
        facts = [("contract", f"you bid {int(view.bid[0])}"), ("widow", f"{dominoes.tile_name(int(view.hand[0][7]))} "
                                                                          "(taken into your hand)")]
        choices = [{"value": i, "label": dominoes.tile_name(int(t))} for i, t in enumerate(view.hand[0])]
        named = int(view.trump[0])                     # trump comes first under moon.widow_timing=trump_first
        shown = self._contract(view, 8, named if named >= 0 else None,
                               f"the widow {dominoes.tile_name(int(view.hand[0][7]))} joined your hand: discard one")
        return self.g.ask("discard", "Discard one tile", view.hand[0], facts, choices, table=shown,
                          hint=lambda: self.g.discard_hint(view))

    def _contract(self, view, mine: int, trump: int | None = None, words: str = "you won the auction") -> dict:
        """The table after the auction, before the play: the bidder (the person) holds `mine` tiles."""
        P, me = view.players, self.g.seat
        held = [mine if s == me else 7 for s in range(P)]
        return table(P, me, held, to_move=me, bids=self.g.calls, bidder=me, bid=int(view.bid[0]), trump=trump,
                     words=words)

    @common.decision
    def trump(self, view, rng):
        facts = [("contract", f"you bid {int(view.bid[0])}")]
        choices = [{"value": int(t), "label": TRUMPS[int(t)]} for t in np.flatnonzero(view.legal[0])]
        return self.g.ask("trump", "Name trump", view.hand[0], facts, choices,
                          table=self._contract(view, len(view.hand[0])), hint=lambda: self.g.trump_hint(view))

    @common.decision
    def play(self, view, rng):
        hand = [t for t, live in zip(view.hand[0], view.live[0]) if live]
        trick = [f"seat {int(s)}: {dominoes.tile_name(int(t))}" for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        played = [dominoes.tile_name(t) for t in np.flatnonzero(view.seen[0])]
        facts = [("trump", TRUMPS[int(view.trump[0])]),
                 ("contract", f"seat {int(view.bidder[0])} bid {int(view.bid[0])}"),
                 ("tricks won by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.tricks[0]))),
                 ("your side", str(int(view.side[0]))), ("trick", f"{int(view.trick_no) + 1} of 7"),
                 ("this trick", ", ".join(trick) or "you lead"),
                 ("played before", " ".join(played) or "nothing yet")]
        choices = [{"value": int(i), "label": dominoes.tile_name(int(view.hand[0][i]))} for i in np.flatnonzero(view.legal[0])]
        self.tell(view)
        slot = self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view),
                          table=self._play_table(view))
        self.g.seen_then = {int(t) for t in np.flatnonzero(view.seen[0])} | {int(view.hand[0][slot])}
        return slot

    def tell(self, view) -> None:
        """The log, in words, of the tiles played since the person's last: those after it in the last
        trick (the view does not say which seat played which: named together), who won that trick,
        and this trick's plays before the person's."""
        me, no = self.g.seat, int(view.trick_no)
        trick = [(int(s), int(t)) for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        if no > 0:
            then = sorted({int(t) for t in np.flatnonzero(view.seen[0])} - self.g.seen_then - {t for _, t in trick})
            if len(then) == 1:                         # one play after the person's: the next seat's
                self.g.log.append(f"seat {(me + 1) % view.players} plays {dominoes.tile_name(then[0])}")
            elif then:
                self.g.log.append("then " + ", ".join(dominoes.tile_name(t) for t in then))
            leader = trick[0][0] if trick else me
            self.g.log.append(f"{_name(leader, me)} won trick {no}")
        elif not self.g.seen_then:
            self.g.log.append(f"{_name(int(view.bidder[0]), me)} won the auction at {int(view.bid[0])}; trump "
                              f"{_trump_words(int(view.trump[0]))}")
        self.g.log.extend(f"seat {s} plays {dominoes.tile_name(t)}" for s, t in trick)

    def _play_table(self, view) -> dict:
        P, me, no = view.players, self.g.seat, int(view.trick_no)
        trick = [(int(s), dominoes.tile_name(int(t))) for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        held = [7 - no - any(s == x for x, _ in trick) for s in range(P)]
        won = (int(view.bidder[0]), str(int(view.bid[0])))
        bids = self.g.calls + ([] if won in self.g.calls else [(won[0], f"won the auction at {won[1]}")])
        return table(P, me, held, to_move=me, leader=trick[0][0] if trick else me, trick=trick, bids=bids,
                     bidder=int(view.bidder[0]), bid=int(view.bid[0]), trump=int(view.trump[0]),
                     tricks=[int(v) for v in view.tricks[0]], trick_no=no)

    @common.decision
    def call_end(self, view, slot, rng):
        tile = int(view.hand[0][slot[0]])
        choices = [{"value": int(e), "label": f"call {int(e)}s"} for e in dominoes.ends(tile)]
        return self.g.ask("call", f"Which end of {dominoes.tile_name(tile)} do you call?", view.hand[0], [], choices,
                          table=self._play_table(view))


def _name(s: int, you: int | None) -> str:
    return "you" if s == you else f"seat {s}"


TRUMP_WORDS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "doubles", "no trump")


def _trump_words(trump: int) -> str:
    return TRUMP_WORDS[trump]


def table(P: int, you: int | None, held: list, *, to_move: int | None = None, leader: int | None = None,
          trick=(), bids=(), bidder: int | None = None, bid: int | None = None, trump: int | None = None,
          tricks: list[int] | None = None, trick_no: int | None = None, words: str = "") -> dict:
    """The Play and Replay pages' table of a Moon hand (web.play.common.table): `held` per seat is a
    count, or the tiles' names where they are shown face up (the replay); `trick` (seat, tile) in
    play order; `bids` (seat, call) in the auction's order; `tricks` won by side."""
    sides = dominoes.side_of_seats(P)
    seats = []
    for s in range(P):
        shown = held[s] if isinstance(held[s], list) else None
        tally = "" if tricks is None else f"{tricks[sides[s]]} trick{'s' if tricks[sides[s]] != 1 else ''}"
        seats.append(common.seat(s, _name(s, you), side=sides[s], held=len(shown) if shown is not None else held[s],
                                 you=s == you, leads=s == leader, to_move=s == to_move, pieces=shown,
                                 tally=tally + (f" (side {sides[s]})" if tally and P == 4 else "")))
    lines = []
    if bidder is not None:
        lines.append(("contract", f"{_name(bidder, you)} bid {bid}"))
    if trump is not None:
        lines.append(("trump", _trump_words(trump)))
    if trick_no is not None:
        lines.append(("trick", f"{min(trick_no, 6) + 1} of 7"))
    if not words and leader is not None and not trick:
        words = f"{_name(leader, you)} to lead"
    return common.table(PIECE, seats, list(trick), words, lines, [f"{_name(s, you)}: {c}" for s, c in bids])


class MoonHand(common.Hand):
    human = Human
    game = "moon"

    def __init__(self, setup: Setup, seat: int, seed: int):
        super().__init__(setup, seat, seed)
        self.calls: list[tuple[int, str]] = []     # the auction as the person's last bid prompt saw it
        self.seen_then: set[int] = set()           # the tiles seen played once the person's last play was made
        self.step = self.steps = 0     # the decision being taken and the decisions so far, every seat's
                                       # counted (the review's steps)
        self.discarded: int | None = None          # the person's own discard, which its trump hint knows

    def tiles(self, hand) -> list[str]:
        return [dominoes.tile_name(int(t)) for t in hand]

    def deal_and_play(self) -> dict:
        """common.Hand's one hand, every seat's strategy wrapped to count the decisions (_Counted)."""
        from moonshot.simulator.runner import chunk_rngs
        setup, counted = self.setup, {}
        strategies = [counted.setdefault(id(s), _Counted(s, self)) for s in setup.seats.strategies]
        strategies[self.seat] = _Counted(self.human(self), self)
        res = setup.hooks.play(setup, strategies, chunk_rngs(self.seed, 0, setup.entry.streams), 1)
        return self.first_record(res)

    # ---------------------------------------------------------------- hints
    def bid_hint(self, view) -> dict:
        return self._hint("bid", view)

    def discard_hint(self, view) -> dict:
        return self._hint("discard", view)

    def trump_hint(self, view) -> dict:
        return self._hint("trump", view)

    def hint(self, view) -> dict:
        return self._hint("play", view)

    def _hint(self, kind: str, view) -> dict:
        """The decision valued as `moonshot review` values it (analysis.hints): pimc's machinery on
        worlds dealt from this seat's view, every world solved exactly, in the side's points."""
        from moonshot.analysis import hints, moon_review
        worlds = hints.worlds_for(self.setup.entry.review, getattr(self, "hint_worlds", None))
        d = moon_review.value(kind, moon_review._copy(view, kind), view.players, view.rules, hints.HAND_ID,
                              self.step, worlds, hints.SEED, discard=self.discarded)
        return hints.hint(d, "pimc", HINT_WORDS[kind], worlds)


HINT_WORDS = {
    "bid": "Each bid's value is your side's points for the hand less the other side's (three players: the mean of "
           "the two defenders') if you win the auction at it, playing the best of the trumps pimc races; a pass is "
           "valued by the auction played on (the seats after you bid as the expert does), then the deal solved.",
    "discard": "Each discard's value is your side's points for the hand less the other side's (three players: the "
               "mean of the two defenders'), naming the best trump after it.",
    "trump": "Each trump's value is your side's points for the hand less the other side's (three players: the mean "
             "of the two defenders').",
    "play": "Each play's value is your side's points for the hand less the other side's (three players: the mean "
            "of the two defenders'), the rest of the hand played out by best play in every world."}


class _Counted:
    """A seat's strategy as the hand's engine asks it, counting every seat's bids, discards, trumps
    and plays in order (the review's steps, which seed the hint's worlds: analysis.review.decision_rng)
    and noting the person's discard; everything else is the strategy's own."""

    def __init__(self, strategy, hand: MoonHand):
        self._strategy, self._hand = strategy, hand

    def __getattr__(self, name):
        return getattr(self._strategy, name)

    def _decide(self, kind: str, view, rng):
        if len(view):
            self._hand.step = self._hand.steps
            self._hand.steps = self._hand.step + len(view)
        out = getattr(self._strategy, kind)(view, rng)
        if kind == "discard" and len(view) and int(view.seat[0]) == self._hand.seat:
            self._hand.discarded = int(view.hand[0][int(out[0])])
        return out

    def bid(self, view, rng):
        return self._decide("bid", view, rng)

    def discard(self, view, rng):
        return self._decide("discard", view, rng)

    def trump(self, view, rng):
        return self._decide("trump", view, rng)

    def play(self, view, rng):
        return self._decide("play", view, rng)


ADAPTER = MoonHand


def steps(record: dict, shown: str) -> list[dict]:
    """The hand's moves, one step each; every play carries the exact solver's value of each legal
    move from the position before it: the bidder side's tricks under best play by all, with every
    hand known (which the record holds)."""
    return common.without_tables(_steps(record))


def tables(record: dict) -> list[dict]:
    """The table at the deal and after each step (every hand face up), for the Replay page."""
    return common.tables_of(_steps(record))


def _steps(record: dict) -> list[dict]:
    """The steps, each with the table it leaves (the first also with the deal's as `before`)."""
    from moonshot.simulator.moon import solver as moon_solver
    from moonshot.simulator.moon.rules import parse_rules
    P = record["players"]
    args = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in record["rules"].items()]
    rules = parse_rules(args, P)
    you = common.person_seat(record)
    held = [[dominoes.parse_tiles(t)[0] for t in h] for h in record["hands"]]
    names = lambda: [[dominoes.tile_name(t) for t in h] for h in held]          # noqa: E731
    bids = [(s, _bid_label(0) if b == "pass" else str(b)) for s, b in record["bids"]]
    before = table(P, you, names(), to_move=bids[0][0] if bids else None, words="the deal")
    out = [{"text": f"seat {s} {'passes' if b == 'pass' else f'bids {b}'}",
            "table": table(P, you, names(), bids=bids[:i + 1], words="the auction"), "chapter": "the auction"}
           for i, (s, b) in enumerate(record["bids"])]
    if out:
        out[0]["before"] = before
    if record["bidder"] is None:
        return out + [{"text": "everyone passed: the hand is thrown in", "chapter": "the auction",
                       "table": table(P, you, names(), bids=bids, words="thrown in")}]
    bidder, bid, trump = record["bidder"], record["bid"], dominoes.parse_trump(record["trump"], P, rules)
    contract = dict(bids=bids, bidder=bidder, bid=bid)
    if record.get("widow") is not None:
        held[bidder].append(dominoes.parse_tiles(record["widow"])[0])
        held[bidder].remove(dominoes.parse_tiles(record["discard"])[0])
        out.append({"text": f"seat {bidder} takes the widow {record['widow']} and discards {record['discard']}",
                    "table": table(P, you, names(), **contract, words=f"the widow was {record['widow']}"),
                    "chapter": "the auction"})
    out.append({"text": f"trump: {record['trump']}", "chapter": "the auction",
                "table": table(P, you, names(), **contract, trump=trump, leader=bidder, trick_no=0)})
    leader, trick, called = bidder, [], None
    won = [0] * (max(dominoes.side_of_seats(P)) + 1)
    winners = iter(record["trick_winners"])
    for i, play in enumerate(record["plays"]):
        seat, tile = play[0], dominoes.parse_tiles(play[1])[0]
        end = play[2] if len(play) > 2 else None
        first = i == 0
        sol = moon_solver.solve(held, trump, rules, bidder, leader, trick, called, first_lead=first)
        bidder_side = dominoes.side_of_seats(P)[seat] == dominoes.side_of_seats(P)[bidder]
        values = [{"move": dominoes.tile_name(m[0]) + f" calling {m[1]}" if isinstance(m, tuple) else dominoes.tile_name(m),
                   "tricks": int(v), "best": int(v) == sol.tricks} for m, v in sol.moves]
        chosen = (tile, end) if any(isinstance(m, tuple) for m, _ in sol.moves) and end is not None else tile
        played_value = dict(sol.moves).get(chosen)
        out.append({"text": f"seat {seat} plays {play[1]}" + (f" calling {end}" if end is not None else ""),
                    "values": values, "best_tricks": sol.tricks, "played_tricks": played_value,
                    "mover_side": "bidder's side" if bidder_side else "defenders", "chapter": f"trick {i // P + 1}"})
        held[seat].remove(tile)
        if not trick:
            called = end
        trick = trick + [tile]
        shown = [(s, t) for s, t, *_ in record["plays"][i + 1 - len(trick):i + 1]]
        words = ""
        if len(trick) == P:
            leader = next(winners)
            won[dominoes.side_of_seats(P)[leader]] += 1
            out[-1]["text"] += f"  -> seat {leader} wins the trick"
            words = f"{_name(leader, you)} win{'' if leader == you else 's'} the trick"
            trick, called = [], None
        out[-1]["table"] = table(P, you, names(), **contract, trump=trump, leader=shown[0][0], trick=shown,
                                 tricks=list(won), trick_no=i // P, words=words,
                                 to_move=None if words else (seat + 1) % P)
    return out
