"""Hit the Deck's page parts for `moonshot serve` (found through the registry entry's `page`): the
pieces, the example hand, the replay's steps, the play adapter, the slap key and the reaction
profile fitted to a person's slaps.

Play a Hit the Deck hand: the reference engine (simulator/hit_the_deck/reference.py) plays one
deal; the person's turns and slaps are prompts, the other seats are the built-in strategies (shown
the batch PlayView built from the reference's view: their own hand and public counts; no memory of
the draw pile, htd.memory's known_draw is left unknown). The slap race is real: the page times
the person's slap from the moment it shows the Hit-the-Deck card, and the bots' latencies come
from the chance model (RandomChance) as in any simulated hand. Hints: each legal choice valued as
`moonshot review` values it (analysis/hints.py over hit_the_deck_review.decision) by the rollout
player's play-outs, in penalty points and P(win the game) with 95% intervals.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.reference_chance import RandomChance
from moonshot.simulator.hit_the_deck.views import batch_view
from moonshot.simulator.runner import chunk_rngs
from moonshot.web.pieces import ON_BLACK, PALETTE
from moonshot.web.play import common

SLAP_TIMEOUT = 3000.0      # ms: a slap not made by then counts as this slow
DRAW_LABEL = {True: "keep it (end the turn)", False: "draw a card"}

PIECE = "card"
HAND_SIZE, EXAMPLE = 7, "R3 R5 G2 BCUT YFLIP HN3 HH"   # the README's example hand
REPEATS = True                                    # the deck holds several of each card
FIXED_ORDERS = False                              # the seat orders follow the table size
KEYS = ((("S", "space"), "slaps"),)               # the play page's keys beyond the choices' and the hint's


COLOUR_WORDS = dict(zip(deck.COLOURS, ("red", "green", "blue", "yellow")))    # HTD-1.2's colours by notation letter


def pieces(players: int | None = None, rules=None) -> list[str]:
    """The card kinds in the deck: under `rules`, only the Hit the Deck with a Number values that
    htd.htd_number_values lists (M2); with no table, every kind."""
    if rules is None:
        return list(deck.NAMES)
    return [n for n, copies in zip(deck.NAMES, deck.deck_counts(rules).tolist()) if copies]


def face(name: str) -> dict:
    """One card as static/pieces.js draws it (web/pieces.py): "red 3", "red Cut the Deck", "Hit the
    Deck with a Number (3)"; the Hit the Deck cards have no colour (HTD-1.2) and are drawn black."""
    kind = deck.parse_card(name)
    card, cls = deck.NAMES[kind], int(deck.CLASS[kind])
    out = {"name": card, "kind": "card"}
    if cls in (deck.NUMBER, deck.CUT, deck.FLIP):
        colour = COLOUR_WORDS[card[0]]
        word = {deck.CUT: "Cut the Deck", deck.FLIP: "Flip the Deck"}.get(cls)
        return {**out, "label": f"{colour} {word or card[1:]}", "colour": PALETTE[colour], "rank": card[1:],
                "suit": colour}
    hit = {**out, "colour": PALETTE["black"], "suit": "HIT"}
    if cls == deck.HTD_N:
        return {**hit, "label": f"Hit the Deck with a Number ({card[2:]})", "rank": card[2:]}
    if cls == deck.HTD_C:
        colour = COLOUR_WORDS[card[2]]
        return {**hit, "label": f"Hit the Deck with a Colour ({colour})", "rank": colour, "accent": ON_BLACK[colour]}
    return {**hit, "label": "Hit the Deck with a Hand", "rank": "HAND"}


def steps(record: dict, shown: str) -> list[dict]:
    """The events of the hand in words (every card named: the replay shows every hand), each with
    its turn as its chapter (a turn: a draw, a cut, a flip or a play that is not of a card just drawn)."""
    out, turn = [], [0]

    def step(i: int, ev: list) -> None:
        h = box[0]
        if ev[0] in ("draw", "cut", "flip") or (ev[0] == "play" and not h._follows_own_draw()):
            turn[0] += 1
        out.append({"text": event_words(ev, h, common.person_seat(record), every_card=True),
                    "chapter": f"turn {turn[0]}"})
    box = [_replayed(record, step)]
    box[0].play()
    return out


def _replayed(record: dict, on_event) -> ref.Hand:
    """The record's hand set up in the reference engine (not yet played), telling `on_event` each event."""
    from moonshot.simulator.hit_the_deck.history import profile_from_entry
    from moonshot.simulator.hit_the_deck.rules import parse_rules, rule_args
    chance = ref.RecordedChance(record["events"])
    return ref.Hand(record["dealer"], [[deck.parse_card(c) for c in x] for x in record["hands"]],
                    [deck.parse_card(c) for c in record["draw_pile"]],
                    parse_rules(rule_args(record["rules"]), record["players"]),
                    tuple(profile_from_entry(e) for e in record["reaction"]), chance.choose, chance, on_event=on_event,
                    scores=record.get("scores_before"))


def tables(record: dict) -> list[dict]:
    """The table at the deal and after each event (every hand face up), for the Replay page: the
    record played again through the reference engine, which `moonshot replay` has checked it against."""
    you, box, slap = common.person_seat(record), [], [""]

    def shot(i: int, ev: list) -> None:
        if ev[0] in ("slap", "false_slap"):
            slap[0] = event_words(ev, box[0], you, every_card=True)
        out.append(table(box[0], you, shown=True, slap=slap[0]))
    h = _replayed(record, shot)
    box.append(h)
    out = [table(h, you, shown=True, words="the deal")]
    h.play()
    out[-1] = table(h, you, shown=True, words="blocked: nobody went out" if h.went_out is None else
                    f"{_who(h.went_out, you)} went out", tally=[f"{x} penalty points" for x in h.score], slap=slap[0])
    return out


def _who(s: int, you: int | None) -> str:
    return "you" if s == you else f"seat {s}"


def said(kind: int | str) -> str:
    """A card in a player's words ("red 3", "yellow Flip the Deck", "Hit the Deck with a Hand")."""
    return face(kind if isinstance(kind, str) else deck.name(int(kind)))["label"]


def demand_words(demand: int) -> str:
    """The demand as a player says it: "none", "a 4 of any colour", "any green card"."""
    if demand < 0:
        return "none"
    if demand < deck.COLOUR_DEMAND:
        return f"a {demand + 1} of any colour"
    return f"any {COLOUR_WORDS[deck.COLOURS[demand - deck.COLOUR_DEMAND]]} card"


def _direction(d: int) -> str:
    return "clockwise" if d > 0 else "counter-clockwise"


def event_words(ev: list, h: ref.Hand, you: int | None, every_card: bool = False) -> str:
    """One event in a player's words, as seat `you` sees it (the cards others draw are not named
    unless `every_card`: the replay, every hand face up), for the Play page's log and the table, the
    Replay page's steps; `h` is the reference hand just as the event is emitted. The notation stays
    in the history file (moonshot replay prints it)."""
    kind = ev[0]
    if every_card and kind in ("draw", "penalty") and len(ev) > 1:
        you_before, you = you, ev[1]                    # named as its drawer sees it, said of its seat
        text = event_words(ev, h, you)
        return text.replace("you draw", f"{_who(ev[1], you_before)} draws", 1) if ev[1] != you_before else text
    who = _who(ev[1], you) if len(ev) > 1 and isinstance(ev[1], int) else ""
    if kind == "play":
        return common.does(who, "play", "plays") + f" {said(ev[2])}"
    if kind == "draw":
        if ev[2] is None:
            return common.does(who, "draw", "draws") + " nothing: the draw pile is empty"
        return common.does(who, "draw", "draws") + (f" {said(ev[2])}" if ev[1] == you else " a card")
    if kind == "pass":
        return common.does(who, "end your turn", "ends the turn") + " without playing"
    if kind == "turn":
        return f"{said(ev[1])} is turned up"
    if kind == "bury":
        return f"{said(ev[3])} is buried in the {ev[1]} pile"
    if kind == "cut":
        if ev[3] is None:
            return common.does(who, "have", "has") + " nothing to cut: the turn is used up"
        return common.does(who, "cut", "cuts") + f" the deck {ev[2]} cards down: {said(ev[3])} is turned up"
    if kind == "flip":
        return common.does(who, "flip", "flips") + f" the deck: play now goes {_direction(-h.direction)}"
    if kind == "reshuffle":
        return f"the discard pile below its top card becomes the new draw pile ({len(ev[1])} cards, shuffled)"
    if kind == "slap":
        shouter, loser = who, None if ev[4] is None else _who(ev[4], you)
        if not ev[2]:
            return common.does(shouter, "forget", "forgets") + " to shout \u201cHit the Deck!\u201d: " + (
                "nobody notices" if loser is None else common.does(loser, "draw", "draws") + " 4 as a penalty")
        mine = ev[3][you] if you is not None and you < len(ev[3]) else None
        took = "" if mine is None else f" (your slap: {mine:.0f} ms)"
        return (common.does(shouter, "shout", "shouts") + " \u201cHit the Deck!\u201d: "
                + ("nobody draws" if loser is None else
                   common.does(loser, "slapped last and draw", "slapped last and draws") + " 4 as a penalty") + took)
    if kind == "false_slap":
        return (common.does(who, "slap", "slaps") + " when there is nothing to slap and "
                + ("draw" if who == "you" else "draws") + " 2")
    if kind == "penalty":
        if ev[1] != you:
            return ""                                  # the slap's line says it; the cards are not shown
        return f"you draw {said(ev[3])} (penalty)" if ev[3] is not None else "you draw nothing (penalty): no cards left"
    if kind == "out":
        return f"{who} went out: no cards left"
    if kind == "blocked":
        return "the hand is blocked: nobody can go on, and every seat scores the cards it holds"
    return kind


def table(h: ref.Hand, you: int | None, shown: bool = False, words: str = "", tally: list[str] | None = None,
          slap: str = "") -> dict:
    """The Play and Replay pages' table of a hand (web.play.common.table), from the reference hand
    `h` as it stands: each seat's cards (`shown`: face up, else only the person's count), the
    discard pile's top with the draw pile's count in the middle, the demand and the direction, and
    the last slap's outcome where there was one."""
    # whose turn it is only while the person plays: an event is shown before the engine moves the turn on
    seats = [common.seat(s, _who(s, you), side=s, held=len(x), you=s == you, to_move=not shown and s == h.seat,
                         pieces=[deck.name(k) for k in sorted(x)] if shown else None,
                         tally=", ".join(w for w in ((tally or [""] * h.players)[s],
                                                     "dealer" if s == h.dealer else "") if w))
             for s, x in enumerate(h.hands)]
    top = [(None, deck.name(h.discard[0]))] if h.discard else []
    lines = [("demand", demand_words(h.demand)), ("direction", _direction(h.direction)),
             ("piles", f"draw {len(h.draw)}, discard {len(h.discard)}")] + ([("last slap", slap)] if slap else [])
    return common.table(PIECE, seats, top, words or f"demand: {demand_words(h.demand)}", lines, pile=len(h.draw))


def end_table(record: dict, you: int | None) -> dict:
    """The table as the hand ended, every hand face up as it is scored (kept on the Play page)."""
    return tables(record)[-1]


def result_sentence(record: dict, you: int | None) -> str:
    """The hand's outcome in a sentence from the record: who went out, then the penalty points, yours
    first: "Seat 2 went out; penalty points: you: 17, seat 1: 12, seat 2: 0."."""
    out = record["went_out"]
    head = ("Nobody went out: the hand is blocked" if out is None else
            f"{_who(out, you)[0].upper() + _who(out, you)[1:]} went out")
    order = sorted(range(len(record["score"])), key=lambda s: (s != you, s))
    return head + "; penalty points: " + ", ".join(f"{_who(s, you)}: {record['score'][s]}" for s in order) + "."


class PersonChance(RandomChance):
    """The chance model, except that the person's slap latency is the one the page measured,
    and the person never forgets to shout nor slaps falsely (the page has no button for those)."""

    def __init__(self, rng, rules, profiles, game: "HtdHand"):
        super().__init__(rng, rules, profiles)
        self.g = game

    def forgot(self, shouter: int) -> bool:
        drawn = super().forgot(shouter)               # the same draws as a simulated hand
        return False if shouter == self.g.seat else drawn

    def false_slap(self, seat: int, q: float) -> bool:
        drawn = super().false_slap(seat, q)
        return False if seat == self.g.seat else drawn

    def latencies(self, shouter: int, racers: list[int]) -> dict[int, float]:
        out = super().latencies(shouter, racers)
        if self.g.seat in racers:
            out[self.g.seat] = self.g.slap(shouter)
        return out


class HtdHand(common.Hand):
    game = "hit-the-deck"

    def __init__(self, setup, seat: int, seed: int):
        super().__init__(setup, seat, seed)
        self.latencies: list[float] = []          # the person's slaps (ms), for the profile fit
        self._hand: ref.Hand | None = None
        self.step = self.steps = 0                # the decision being taken, the decisions so far (every seat's)
        self.last_slap = ""                       # the last slap's outcome in words, shown on the table

    def tiles(self, hand) -> list[str]:
        return [deck.name(int(k)) for k in hand]

    # ---------------------------------------------------------------- playing
    def deal_and_play(self) -> dict:
        setup = self.setup
        table = setup.table
        deal_rng, play_rng, chance_rng = chunk_rngs(self.seed, 0, setup.entry.streams)
        hands, draw = ref.deal(deal_rng, table.players, table.rules)
        dealer = int(deal_rng.integers(table.players))
        bots = setup.seats.strategies

        def choose(view: ref.View, legal) -> int:
            self.step, self.steps = self.steps, self.steps + 1     # every seat's decisions: the review's steps
            if view.seat == self.seat:
                return self.turn(view, legal)
            return int(bots[view.seat].play(batch_view(view, legal), play_rng)[0])

        chance = PersonChance(chance_rng, table.rules, table.profiles, self)
        self._hand = h = ref.Hand(dealer, hands, draw, table.rules, table.profiles, choose, chance,
                                  on_event=lambda i, ev: self.tell(ev))
        h.play()
        result = SimpleNamespace(dealer=np.array([h.dealer], np.int8), hands=np.array([h.dealt], np.int8),
                                 draw_pile=[h.initial_draw], events=[h.events],
                                 went_out=np.array([-1 if h.went_out is None else h.went_out], np.int8),
                                 score=np.array([h.score], np.int16))
        record = self.first_record(result)
        self.log.append(self.result_line(record))
        return record

    def tell(self, ev: list) -> None:
        """An event into the log in words (web/play's log; the notation stays in the history), and
        a slap's outcome kept for the table until the next."""
        words = event_words(ev, self._hand, self.seat)
        if words:
            self.log.append(words)
        if ev[0] in ("slap", "false_slap"):
            self.last_slap = words

    def ask(self, *args, **kwargs):
        """common.Hand.ask without its "title: label" log line: the events tell every move."""
        n = len(self.log)
        choice = super().ask(*args, **kwargs)
        del self.log[n:]
        return choice

    def facts(self, view) -> list[tuple[str, str]]:
        return [("top card", said(view.top)), ("demand", demand_words(view.demand)),
                ("direction", _direction(view.direction)),
                ("cards held", ", ".join(f"{_who(s, self.seat)}: {n}" for s, n in enumerate(view.hand_sizes))),
                ("draw pile", str(view.draw_size)), ("discard pile", str(view.discard_size))]

    def turn(self, view: ref.View, legal) -> int:
        kept = view.drawn >= 0
        choices = [{"value": int(k), "label": said(int(k)), "piece": deck.name(int(k)), "option": deck.name(int(k))}
                   if k != deck.DRAW else {"value": int(k), "label": DRAW_LABEL[kept], "key": "k" if kept else "d",
                                           "option": "keep" if kept else "draw"}
                   for k in sorted(legal)]
        title = f"You drew {said(view.drawn)}: play it?" if kept else "Your turn"
        return self.ask("play", title, view.hand, self.facts(view), choices,
                        hint=lambda: self.hint(view, legal), table=table(self._hand, self.seat, slap=self.last_slap))

    def slap(self, shouter: int) -> float:
        who = "you" if shouter == self.seat else f"seat {shouter}"
        prompt_facts = [("shouted by", who), ("how", "press S or the space bar, or click SLAP, as fast as you can")]
        ms = self.ask("slap", "Hit the Deck! Slap the pile", sorted(self._hand.hands[self.seat]), prompt_facts,
                      [{"value": "timed", "label": "SLAP"}],
                      table=table(self._hand, self.seat, words=f"Hit the Deck! shouted by {who}", slap=self.last_slap))
        ms = min(float(ms), SLAP_TIMEOUT)
        self.latencies.append(ms)
        return round(ms, 2)

    # ---------------------------------------------------------------- hints
    def hint(self, view: ref.View, legal) -> dict:
        """The choice valued as `moonshot review` values it (analysis.hints): each option played out to
        the hand's end by the tactician in every seat, slap races included (the rollout player's
        play-outs), on worlds dealt from this seat's view, in penalty points and P(win the game)."""
        from moonshot.analysis import hints
        from moonshot.analysis import hit_the_deck_review as review
        worlds = hints.worlds_for(self.setup.entry.review, getattr(self, "hint_worlds", None))
        d = review.decision(batch_view(view, legal), sorted(legal), hints.HAND_ID, self.step, worlds, hints.SEED,
                            False)
        return hints.hint(d, "rollout", "Each option's value is your penalty points for this hand (lower is better); "
                          "P(win) is your chance of winning the game from the scores before the hand (0 each here), "
                          "its later hands drawn from tactician self-play.", worlds)


ADAPTER = HtdHand


def profile(ms, seat: int) -> dict:
    """The play page's reaction profile from the slaps it timed (`ms`, over one or more hands);
    BadInput naming what is accepted for anything else, or below 3 slaps."""
    if not isinstance(ms, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                           and 0 <= x <= SLAP_TIMEOUT for x in ms):
        raise BadInput(f"slap times {str(ms)[:60]!r} are not accepted; accepted: a list of milliseconds "
                       f"from 0 to {SLAP_TIMEOUT:.0f}")
    fitted = fit_profile([float(x) for x in ms[-200:]], seat)
    if fitted is None:
        raise BadInput(f"{len(ms)} slap(s) so far; accepted: at least 3 to fit a profile")
    return fitted


def fit_profile(ms: list[float], seat: int, least: int = 3) -> dict | None:
    """A person's reaction profile fitted to their slaps (ex-Gaussian moments: mean mu + tau,
    variance sigma^2 + tau^2, third central moment 2 tau^3), as a --profile spec; None below
    `least` slaps."""
    if len(ms) < least:
        return None
    x = np.asarray(ms, dtype=float)
    mean, var = float(x.mean()), float(x.var(ddof=1)) if len(x) > 1 else 0.0
    m3 = float(((x - mean) ** 3).mean())
    tau = min(max(math.copysign(abs(m3 / 2) ** (1 / 3), m3), 1.0), math.sqrt(max(var, 1.0)) * 0.95)
    sigma = math.sqrt(max(var - tau * tau, 1.0))
    mu = mean - tau
    spec = f"{seat}=adult:mu={mu:.0f},sigma={sigma:.0f},tau={tau:.0f},move_mu=0,move_sd=0"
    return {"slaps": len(ms), "mu": round(mu), "sigma": round(sigma), "tau": round(tau), "spec": f"--profile {spec}",
            "note": "mu, sigma and tau fitted to your slaps from the card appearing to your key press (that time "
                    "already includes your reach, so move_mu and move_sd are 0); the other parameters stay adult's"}


def decision_places(record: dict) -> list[int]:
    """The Replay page's step of each decision (every seat's, in the order the review counts them):
    how many events came before its question, so the step shown next is the move it chose. By the
    count, never by the cards' names (a drawn card's draw names the card its play names)."""
    from moonshot.simulator.hit_the_deck.history import profile_from_entry
    from moonshot.simulator.hit_the_deck.rules import parse_rules, rule_args
    at: list[int] = []
    box: list[ref.Hand] = []
    chance = ref.RecordedChance(record["events"])

    def choose(view, legal) -> int:
        at.append(len(box[0].events))
        return chance.choose(view, legal)

    box.append(ref.Hand(record["dealer"], [[deck.parse_card(c) for c in x] for x in record["hands"]],
                        [deck.parse_card(c) for c in record["draw_pile"]],
                        parse_rules(rule_args(record["rules"]), record["players"]),
                        tuple(profile_from_entry(e) for e in record["reaction"]), choose, chance,
                        scores=record.get("scores_before")))
    box[0].play()
    return at
