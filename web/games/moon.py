"""Moon's page parts for `moonshot serve` (found through the registry entry's `page`): the pieces
a hand is picked from, the example hand, the replay's steps (each play with the exact solver's
value of every legal move) and the play adapter.

Play a Moon hand: the batch engine plays one deal with the built-in strategies, and the person's
seat is a strategy that asks the page (prompts hold only what moon.views shows that seat).
Hints (bid, pass included, discard, trump and play): each option valued as `moonshot review` values
it (analysis/hints.py over moon_review.value), in the side's points with 95% intervals.

A game's page parts live in the web layer (web/games/<game>.py, named by the registry entry's
`page_module`), so they may build on web.play.common and on the game's analysis, and nothing below
the web imports them.
"""
from __future__ import annotations

import numpy as np

from moonshot.analysis.common import Setup
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.views import BID_VALUES
from moonshot.web.play import common

PIECE = "tile"                                    # what one piece of a hand is called
HAND_SIZE, EXAMPLE = 7, "6-6 6-5 6-4 6-2 5-5 3-3 1-1"   # the README's example hand
REPEATS = False                                   # a hand never holds two of one tile
FIXED_ORDERS = True                               # the seat orders do not depend on the table size
KEYS: tuple = ()                                  # no keys beyond the choices' and the hint's
ALWAYS_PARTNERS = (4,)                            # sizes always in partnerships, whatever the form says (MOON-10.1)


PIP_WORDS = ("blank", "one", "two", "three", "four", "five", "six")
TRUMP_WORDS = dominoes.TRUMP_WORDS
# the key that names each trump id 0..8 on the Play page
TRUMP_KEYS = ("0", "1", "2", "3", "4", "5", "6", "d", "n")


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
    return {"name": dominoes.tile_name(dominoes.tile_id(high, low)), "label": label, "kind": "tile",
            "ends": [high, low]}


def option_words(kind: str, option: str) -> str:
    """A reviewed option (HISTORY.md notation) as a player says it: a trump in words ("sixes"), a tile
    named ("six-five"), a bid as it is ("5", "pass")."""
    if kind == "trump":
        return TRUMP_WORDS[dominoes.parse_trump(option)]
    if kind in ("discard", "play"):
        return face(option)["label"]
    return option


def _bid_label(b: int) -> str:
    return "pass" if b == 0 else str(b)


def _tile(t: int) -> dict:
    """A tile as a choice's fields: the piece it is, its name as written (the pips, "6-5")."""
    name = dominoes.tile_name(int(t))
    return {"label": name, "piece": name, "option": name}


class Human(common.Person):
    """The person's seat as a Moon strategy: every decision becomes a prompt. The log X
    (MoonHand.tell_move, every seat's moves as they are made); the prompts hold what the seat may know."""

    @common.decision
    def bid(self, view, rng):
        g, P, me = self.g, view.players, self.g.seat
        facts = [("bids so far", ", ".join(f"{_name(s, me, P)}: {c}" for s, c in g.calls) or "none yet")]
        choices = [{"value": int(b), "label": _bid_label(int(b)), "key": "p" if b == 0 else str(int(b)),
                    "option": _bid_label(int(b))} for b, ok in zip(BID_VALUES, view.legal[0]) if ok]
        shown = table(P, me, [7] * P, to_move=me, bids=g.calls, words="the auction")
        return g.ask("bid", "Your bid", view.hand[0], facts, choices, hint=lambda: g.bid_hint(view), table=shown)

    @common.decision
    def discard(self, view, rng):
        widow = dominoes.tile_name(int(view.hand[0][7]))
        facts = [("contract", f"you bid {int(view.bid[0])}"), ("widow", f"{widow} (taken into your hand)")]
        choices = [{"value": i, **_tile(t)} for i, t in enumerate(view.hand[0])]
        named = int(view.trump[0])                     # trump comes first under moon.widow_timing=trump_first
        shown = self._contract(view, 8, named if named >= 0 else None,
                               f"the widow {widow} joined your hand: discard one")
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
        # MOON-5.2: trump, once declared, stands; the page asks again before it is named
        facts = [("contract", f"you bid {int(view.bid[0])}")]
        choices = [{"value": int(t), "label": TRUMP_WORDS[t], "key": TRUMP_KEYS[t],
                    "option": dominoes.trump_name(int(t)),
                    "confirm": f"Name {TRUMP_WORDS[t]} as trump? Once named, trump stands for the hand (MOON-5.2)."}
                   for t in np.flatnonzero(view.legal[0])]
        return self.g.ask("trump", "Name trump", view.hand[0], facts, choices,
                          table=self._contract(view, len(view.hand[0])), hint=lambda: self.g.trump_hint(view))

    @common.decision
    def play(self, view, rng):
        P, me = view.players, self.g.seat
        hand = [t for t, live in zip(view.hand[0], view.live[0]) if live]
        trick = [f"{_name(int(s), me, P)}: {dominoes.tile_name(int(t))}"
                 for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        played = [dominoes.tile_name(t) for t in np.flatnonzero(view.seen[0])]
        facts = [("trump", TRUMP_WORDS[int(view.trump[0])]),
                 ("contract", f"{_name(int(view.bidder[0]), me, P)} bid {int(view.bid[0])}"),
                 ("tricks won", _by_side([int(v) for v in view.tricks[0]], P, me)),
                 ("trick", f"{int(view.trick_no) + 1} of 7"),
                 ("this trick", ", ".join(trick) or "you lead"),
                 ("played before", " ".join(played) or "nothing yet")]
        choices = [{"value": int(i), **_tile(view.hand[0][i])} for i in np.flatnonzero(view.legal[0])]
        return self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view),
                          table=self._play_table(view))

    def _play_table(self, view) -> dict:
        P, me, no = view.players, self.g.seat, int(view.trick_no)
        trick = [(int(s), dominoes.tile_name(int(t))) for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        held = [7 - no - any(s == x for x, _ in trick) for s in range(P)]
        return table(P, me, held, to_move=me, leader=trick[0][0] if trick else me, trick=trick, bids=self.g.calls,
                     bidder=int(view.bidder[0]), bid=int(view.bid[0]), trump=int(view.trump[0]),
                     tricks=[int(v) for v in view.tricks[0]], trick_no=no, last=self.g.last_trick())

    @common.decision
    def call_end(self, view, slot, rng):
        tile = int(view.hand[0][slot[0]])
        choices = [{"value": int(e), "label": f"call {TRUMP_WORDS[int(e)]}", "key": str(int(e))}
                   for e in dominoes.ends(tile)]
        return self.g.ask("call", f"Which end of {dominoes.tile_name(tile)} do you call?", view.hand[0], [], choices,
                          table=self._play_table(view))


def _name(s: int, you: int | None, players: int = 3) -> str:
    """A seat as the person reads it: "you", "seat 2 (partner)" at a 4-player table, "seat 1"."""
    if s == you:
        return "you"
    partner = players == 4 and you is not None and s == (you + 2) % 4
    return f"seat {s}" + (" (partner)" if partner else "")


def _trump_words(trump: int) -> str:
    return TRUMP_WORDS[trump]


def _side_name(side: int, players: int, you: int | None) -> str:
    """A side as the person reads it: a seat (3 players), or at 4 "your side" / "the other side"
    (in a replay with no person: "seats 0 and 2")."""
    seats = [s for s, k in enumerate(dominoes.side_of_seats(players)) if k == side]
    if len(seats) == 1:
        return _name(seats[0], you, players)
    if you is None:
        return f"seats {seats[0]} and {seats[1]}"
    return "your side" if you in seats else "the other side"


def _by_side(counts: list[int], players: int, you: int | None) -> str:
    return ", ".join(f"{_side_name(k, players, you)}: {n}" for k, n in enumerate(counts))


def _points(n: int) -> str:
    return f"{n:+d} point{'' if abs(n) == 1 else 's'}" if n else "0 points"


def result_sentence(record: dict, you: int | None) -> str:
    """The hand's outcome in a sentence, from the record's own numbers: "You bid 5 and took 6
    tricks: +5 points (made); seat 1 took 1 trick: +1 point; ..."."""
    P = record["players"]
    if record["bidder"] is None:
        return "Everyone passed: the hand was thrown in and nobody scores."
    sides, tricks, score = dominoes.side_of_seats(P), record["tricks"], record["score"]
    b, k = record["bidder"], dominoes.side_of_seats(P)[record["bidder"]]
    who = _name(b, you, P)
    took = "took" if P == 3 else f"{_side_name(k, P, you)} took"
    first = (f"{who[0].upper() + who[1:]} bid {record['bid']} and {took} {common.count(tricks[k], 'trick')}: "
             f"{_points(score[k])} ({'made' if score[k] > 0 else 'set'})")
    others = sorted((s for s in range(len(score)) if s != k), key=lambda s: (you is None or sides[you] != s, s))
    rest = [f"{_side_name(s, P, you)} took {common.count(tricks[s], 'trick')}: {_points(score[s])}" for s in others]
    return "; ".join([first] + rest) + "."


def end_table(record: dict, you: int | None) -> dict:
    """The table as the hand ended, from its record: the last trick in the middle with its winner,
    the one before it on request, the tricks each side took (a thrown-in hand: your tiles face up)."""
    P = record["players"]
    bids = [(s, _bid_label(0) if b == "pass" else str(b)) for s, b in record["bids"]]
    if record["bidder"] is None:
        held = [list(h) if s == you else 7 for s, h in enumerate(record["hands"])]
        return table(P, you, held, bids=bids, words="everyone passed: the hand is thrown in")
    plays, winners = [(p[0], p[1]) for p in record["plays"]], record["trick_winners"]
    w = winners[-1]
    won = [0] * (max(dominoes.side_of_seats(P)) + 1)
    for x in winners:
        won[dominoes.side_of_seats(P)[x]] += 1
    trump = dominoes.parse_trump(record["trump"])
    last = (plays[-2 * P:-P], winners[-2]) if len(winners) > 1 else None
    return table(P, you, [0] * P, trick=plays[-P:], bids=bids, bidder=record["bidder"], bid=record["bid"], trump=trump,
                 tricks=won, trick_no=6, words=common.does(_name(w, you, P), "win", "wins") + " the last trick",
                 last=last)


def table(P: int, you: int | None, held: list, *, to_move: int | None = None, leader: int | None = None,
          trick=(), bids=(), bidder: int | None = None, bid: int | None = None, trump: int | None = None,
          tricks: list[int] | None = None, trick_no: int | None = None, words: str = "",
          last: tuple[list, int] | None = None) -> dict:
    """The Play and Replay pages' table of a Moon hand (web.play.common.table): `held` per seat is a
    count, or the tiles' names where they are shown face up (the replay); `trick` (seat, tile) in
    play order; `bids` (seat, call) in the auction's order; `tricks` won by side; `last` the trick
    before this one ((seat, tile) in play order, its winner), which the page shows on request."""
    sides = dominoes.side_of_seats(P)
    seats = []
    for s in range(P):
        shown = held[s] if isinstance(held[s], list) else None
        tally = "" if tricks is None else common.count(tricks[sides[s]], "trick")
        if tally and P == 4:
            tally += f" ({_side_name(sides[s], P, you)})"
        seats.append(common.seat(s, _name(s, you, P), side=sides[s], held=len(shown) if shown is not None else held[s],
                                 you=s == you, leads=s == leader, to_move=s == to_move, pieces=shown, tally=tally))
    lines = []
    if bidder is not None:
        lines.append(("contract", f"{_name(bidder, you, P)} bid {bid}"))
    if trump is not None:
        lines.append(("trump", _trump_words(trump)))
    if trick_no is not None:
        lines.append(("trick", f"{min(trick_no, 6) + 1} of 7"))
    if not words and leader is not None and not trick:
        words = common.does(_name(leader, you, P), "lead", "leads")
    auction = [f"{_name(s, you, P)}: {c}" for s, c in bids]
    out = common.table(PIECE, seats, list(trick), words, lines, auction)
    out["last"] = None if not last else {
        "pieces": [{"seat": s, "piece": t} for s, t in last[0]], "words": f"{_name(last[1], you, P)} won it",
        "faces": common.faces("moon", [t for _, t in last[0]])}     # the prompt's faces are the table's and hand's
    return out


class MoonHand(common.Hand):
    human = Human
    game = "moon"

    def __init__(self, setup: Setup, seat: int, seed: int):
        super().__init__(setup, seat, seed)
        self.calls: list[tuple[int, str]] = []     # the auction so far, every seat's call in order
        self.plays: list[tuple[int, str]] = []     # every tile played so far: (seat, tile) in order
        self.winners: list[int] = []               # each finished trick's winner
        self.step = self.steps = 0     # the decision being taken and the decisions so far, every seat's
                                       # counted (the review's steps)
        self.discarded: int | None = None          # the person's own discard, which its trump hint knows

    def tiles(self, hand) -> list[str]:
        return [dominoes.tile_name(int(t)) for t in hand]

    def ask(self, *args, **kwargs):
        """common.Hand.ask, without its "title: label" log line: every move, the person's too, is
        told by `tell_move` in the table's words."""
        n = len(self.log)
        choice = super().ask(*args, **kwargs)
        del self.log[n:]
        return choice

    def deal_and_play(self) -> dict:
        """common.Hand's one hand, every seat's strategy wrapped to count the decisions and tell the
        log every move (_Counted); the last trick's winner and the hand's result close the log."""
        from moonshot.simulator.runner import chunk_rngs
        setup, counted = self.setup, {}
        strategies = [counted.setdefault(id(s), _Counted(s, self)) for s in setup.seats.strategies]
        strategies[self.seat] = _Counted(self.human(self), self)
        res = setup.hooks.play(setup, strategies, chunk_rngs(self.seed, 0, setup.entry.streams), 1)
        record = self.first_record(res)
        P = record["players"]
        if record["trick_winners"]:
            w = record["trick_winners"][-1]
            self.log.append(common.does(_name(w, self.seat, P), "win", "wins") + " trick 7")
        self.log.append(self.result_line(record))
        return record

    # ---------------------------------------------------------------- the log, every seat's moves
    def last_trick(self) -> tuple[list, int] | None:
        """The last finished trick ((seat, tile) in play order) and its winner, or None before one."""
        if not self.winners:
            return None
        P = self.setup.players
        done = len(self.winners)
        return self.plays[(done - 1) * P:done * P], self.winners[-1]

    def tell_before(self, kind: str, view) -> None:
        """What the table saw before this move: who won the trick just ended (the seat leading now),
        the end the leader called (seen by the second player: the view's called_end)."""
        if kind != "play":
            return
        P, me = view.players, self.seat
        seat, pos, no = int(view.seat[0]), int(view.position), int(view.trick_no)
        if pos == 0 and no > len(self.winners):
            self.winners.append(seat)
            self.log.append(common.does(_name(seat, me, P), "win", "wins") + f" trick {no}")
        called = getattr(view, "called_end", None)
        if pos == 1 and called is not None and int(called[0]) >= 0 and "calling" not in self.log[-1]:
            self.log[-1] += f", calling {TRUMP_WORDS[int(called[0])]}"

    def tell_move(self, kind: str, view, out) -> None:
        """One move in words for the log, as every seat saw it (a discard stays face down but the
        bidder's own), in the order made; the auction's calls also for the table's auction line."""
        P, me, seat = view.players, self.seat, int(view.seat[0])
        who, choice = _name(seat, me, P), int(np.asarray(out)[0])
        if kind == "bid":
            call = _bid_label(choice)
            self.calls.append((seat, call))
            self.log.append(common.does(who, "pass", "passes") if call == "pass" else
                            common.does(who, "bid", "bids") + f" {call}")
        elif kind == "discard":
            if seat == me:
                self.log.append(f"you take the widow {dominoes.tile_name(int(view.hand[0][7]))} and discard "
                                f"{dominoes.tile_name(int(view.hand[0][choice]))}")
            else:
                self.log.append(f"{who} takes the widow and discards a tile face down")
        elif kind == "trump":
            self.log.append(common.does(who, "name", "names") + f" {TRUMP_WORDS[choice]} as trump")
        elif kind == "play":
            tile = dominoes.tile_name(int(view.hand[0][choice]))
            lead = int(view.position) == 0
            self.plays.append((seat, tile))
            self.log.append((f"trick {int(view.trick_no) + 1}: " if lead else "")
                            + common.does(who, "lead" if lead else "play", "leads" if lead else "plays") + f" {tile}")

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
           "valued by the auction played on (the seats after you bid as the expert does), then the deal solved. "
           "The hand explorer's 'passing scores' is another measure: your side's own points (not less the others'), "
           "over deals of your hand before anyone has bid, played out by the table's strategies.",
    "discard": "Each discard's value is your side's points for the hand less the other side's (three players: the "
               "mean of the two defenders'), naming the best trump after it.",
    "trump": "Each trump's value is your side's points for the hand less the other side's (three players: the mean "
             "of the two defenders').",
    "play": "Each play's value is your side's points for the hand less the other side's (three players: the mean "
            "of the two defenders'), the rest of the hand played out by best play in every world."}


class _Counted:
    """A seat's strategy as the hand's engine asks it, counting every seat's bids, discards, trumps
    and plays in order (the review's steps, which seed the hint's worlds: analysis.review.decision_rng),
    telling the hand's log each move as it is made (MoonHand.tell_before / tell_move) and noting the person's
    discard; everything else is the strategy's own."""

    def __init__(self, strategy, hand: MoonHand):
        self._strategy, self._hand = strategy, hand

    def __getattr__(self, name):
        return getattr(self._strategy, name)

    def _decide(self, kind: str, view, rng):
        if not len(view):
            return getattr(self._strategy, kind)(view, rng)
        self._hand.step = self._hand.steps
        self._hand.steps = self._hand.step + len(view)
        self._hand.tell_before(kind, view)
        out = getattr(self._strategy, kind)(view, rng)
        if kind == "discard" and int(view.seat[0]) == self._hand.seat:
            self._hand.discarded = int(view.hand[0][int(out[0])])
        self._hand.tell_move(kind, view, out)
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
    out.append({"text": f"trump: {TRUMP_WORDS[trump]}", "chapter": "the auction",
                "table": table(P, you, names(), **contract, trump=trump, leader=bidder, to_move=bidder,
                               trick_no=0)})
    leader, trick, called, last = bidder, [], None, None
    won = [0] * (max(dominoes.side_of_seats(P)) + 1)
    winners = iter(record["trick_winners"])
    for i, play in enumerate(record["plays"]):
        seat, tile = play[0], dominoes.parse_tiles(play[1])[0]
        end = play[2] if len(play) > 2 else None
        first = i == 0
        sol = moon_solver.solve(held, trump, rules, bidder, leader, trick, called, first_lead=first)
        bidder_side = dominoes.side_of_seats(P)[seat] == dominoes.side_of_seats(P)[bidder]
        values = [{"move": (dominoes.tile_name(m[0]) + f" calling {m[1]}" if isinstance(m, tuple)
                            else dominoes.tile_name(m)),
                   "tricks": int(v), "best": int(v) == sol.tricks} for m, v in sol.moves]
        chosen = (tile, end) if any(isinstance(m, tuple) for m, _ in sol.moves) and end is not None else tile
        played_value = dict(sol.moves).get(chosen)
        calling = f" calling {TRUMP_WORDS[end]}" if end is not None else ""
        out.append({"text": f"seat {seat} plays {play[1]}{calling}",
                    "values": values, "best_tricks": sol.tricks, "played_tricks": played_value,
                    "mover_side": "bidder's side" if bidder_side else "defenders", "chapter": f"trick {i // P + 1}"})
        held[seat].remove(tile)
        if not trick:
            called = end
        trick = trick + [tile]
        shown = [(s, t) for s, t, *_ in record["plays"][i + 1 - len(trick):i + 1]]
        words, no, to_move = "", i // P, (seat + 1) % P
        if len(trick) == P:
            leader = next(winners)
            won[dominoes.side_of_seats(P)[leader]] += 1
            out[-1]["text"] += f"  -> seat {leader} wins the trick"
            # the next trick's table (its number, its leader to move): "trick 3" opens on "3 of 7"
            who, done = _name(leader, you, P), i + 1 == len(record["plays"])
            leads = common.does(who, "lead", "leads").split()[-1]
            words = common.does(who, "win", "wins") + (" the trick" if done
                                                       else f" trick {no + 1} and {leads} trick {no + 2}")
            no, to_move = (no, None) if done else (no + 1, leader)
            trick, called = [], None
        out[-1]["table"] = table(P, you, names(), **contract, trump=trump, leader=shown[0][0], trick=shown,
                                 tricks=list(won), trick_no=no, words=words, to_move=to_move, last=last)
        if words:
            last = (shown, leader)
    return out
