"""Hand histories for Hit the Deck (HISTORY.md): JSON lines out, and a replay checked event by event
against reference.py that reads as the hand went, one line per event."""
from __future__ import annotations

import json

from moonshot.simulator.errors import BadInput, checked_replay
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.profiles import PARAMS, PROFILES, Profile, parse_profile
from moonshot.simulator.hit_the_deck.rules import FLAGS, check_players, parse_rules, rule_args
from moonshot.simulator.record_types import (SCORE_MAX, SEAT, Bool, Either, Int, List, Map, Maybe, Num, Schema,
                                              Seating, Tagged, Text, WholeGames, choice)

GAME = "hit-the-deck"
HTD_KEYS = ("dealer", "hands", "draw_pile", "reaction", "events", "went_out", "score")


# ---------------------------------------------------------------------------- the record's keys (HISTORY.md)

PILE = 1_000                # cards in a pile or a cut: the deck is 110 (htd.colours may add colours)
EVENTS = 200_000            # events of a hand: htd.max_turns (at most 10,000 turns) ends it long before
CARD = Text("a card like R5, GCUT, BFLIP, HN3, HCR or HH")
EVENT = Tagged({"turn": (CARD,), "bury": (choice("draw", "discard"), Int(1, PILE), CARD),
                "play": (SEAT, CARD), "draw": (SEAT, Maybe(CARD)), "pass": (SEAT,),
                "cut": (SEAT, Int(0, PILE), Maybe(CARD)), "flip": (SEAT,), "reshuffle": (List(CARD, most=PILE),),
                "slap": (SEAT, Bool(), Maybe(List(Maybe(Num()), n=lambda t: t.players)), Maybe(SEAT)),
                "false_slap": (SEAT,), "penalty": (SEAT, choice("slap", "forgot", "false_slap"), Maybe(CARD)),
                "out": (SEAT,), "blocked": ()},
               "an event of HISTORY.md's table")
SCHEMA = Schema(
    fields={"dealer": SEAT,
            "hands": List(List(CARD, n=deck.HAND_SIZE), n=lambda t: t.players,
                          what=lambda t: f"{t.players} hands of {deck.HAND_SIZE} cards"),
            "draw_pile": List(CARD, most=PILE),
            "reaction": List(Map(Either(Num(), Text("a profile name", r"[a-z_]{1,32}")), most=32),
                             n=lambda t: t.players, what=lambda t: f"a list of {t.players} profiles, one per seat"),
            "events": List(EVENT, most=EVENTS), "went_out": Maybe(SEAT),
            "score": List(Int(0, SCORE_MAX), n=lambda t: t.players)},
    rules=lambda args, players: parse_rules(args, players), rules_dict=lambda rules, players: rules.as_dict(),
    sides=lambda players, rules: [list(range(players))])


def _ends(record: dict, t: Seating, carry) -> tuple[list, None]:
    """HTD-8: once a total reaches the target the lowest wins (A-HTD-8: a tie shared, or played on)."""
    return [ref.game_winners(record["scores_after"], t.rules)], None


WHOLE_GAMES = WholeGames(
    start=lambda t: [0] * t.players, change=lambda r: list(r["score"]), ends=_ends,
    next_hand=lambda r, t: {"dealer": ref.next_dealer(r["dealer"], r["went_out"], t.players, t.rules)},
    cap=1000, rule=lambda r: "HTD-8")


def records(result, table, specs, seed: int, first_id: int) -> list[str]:
    """One JSON line per hand of ``result`` (hand ids first_id, first_id + 1, ...): the common keys
    and the Hit the Deck keys of HISTORY.md. ``result`` is the engine's record-mode Result."""
    P = table.players
    common = {"game": GAME, "format": 1, "rules": table.rules.as_dict(), "seed": seed, "players": P,
              "sides": list(range(P)), "strategies": list(specs)}
    reaction = [p.as_dict() for p in table.profiles]
    dealer, went_out = [int(x) for x in result.dealer], [int(x) for x in result.went_out]
    score = [[int(x) for x in row] for row in result.score]
    out = []
    for i in range(len(dealer)):
        rec = {**common, "hand_id": first_id + i,
               "dealer": dealer[i],
               "hands": [[deck.NAMES[int(k)] for k in h] for h in result.hands[i]],
               "draw_pile": [deck.NAMES[int(k)] for k in result.draw_pile[i]],
               "reaction": reaction,
               "events": result.events[i],
               "went_out": None if went_out[i] < 0 else went_out[i],
               "score": score[i]}
        out.append(json.dumps(rec, separators=(",", ":")))
    return out


# ---------------------------------------------------------------------------- replay

def replay(record: dict, path: str = "history", line: int = 0) -> str:
    """The hand as a person reads it, one line per event, checked event by event against
    reference.Hand. A malformed record, or one that breaks the rules, raises BadInput naming
    ``path:line`` and the first event that is wrong."""
    return checked_replay(GAME, _replay, record, path, line)


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what} {value!r} is not an integer")
    return value


def _cards(value, what: str) -> list[int]:
    if not isinstance(value, list):
        raise BadInput(f"{what} is not a list of cards")
    return [deck.parse_card(c) for c in value]


def profile_from_entry(entry) -> Profile:
    """A profile from a record's ``reaction`` entry; every P9 parameter must be there."""
    if not isinstance(entry, dict) or entry.get("profile") not in PROFILES:
        raise BadInput(f"reaction entry {entry!r} does not name a profile ({', '.join(PROFILES)})")
    if entry["profile"] == "off":
        if len(entry) != 1:
            raise BadInput(f"reaction entry {entry!r}: an off seat is just {{\"profile\": \"off\"}}")
        return PROFILES["off"]
    missing = [p for p in PARAMS if p not in entry]
    if missing or len(entry) != len(PARAMS) + 1:
        raise BadInput(f"reaction entry {entry!r} must hold exactly the parameters {', '.join(PARAMS)}")
    return parse_profile(entry["profile"] + ":" + ",".join(f"{p}={entry[p]!r}" for p in PARAMS))


def _replay(record: dict) -> str:
    if not isinstance(record, dict):
        raise BadInput("the record is not a JSON object")
    if record.get("game") != GAME:
        raise BadInput(f"game {record.get('game')!r} is not {GAME!r}")
    if record.get("format") != 1:
        raise BadInput(f"format {record.get('format')!r} is not 1")
    for key in HTD_KEYS + ("rules", "players"):
        if key not in record:
            raise BadInput(f"the key {key!r} is missing")
    players = _int(record["players"], "players")
    check_players(players)
    rules = parse_rules(rule_args(record["rules"]), players)
    if record.get("sides", list(range(players))) != list(range(players)):
        raise BadInput(f"sides {record.get('sides')!r}; every player is a side: {list(range(players))}")
    dealer = _int(record["dealer"], "dealer")
    if not 0 <= dealer < players:
        raise BadInput(f"dealer {dealer} is not a seat 0..{players - 1}")
    if not isinstance(record["hands"], list) or len(record["hands"]) != players:
        raise BadInput(f"hands must list {players} hands")
    hands = [_cards(h, f"hand {s}") for s, h in enumerate(record["hands"])]
    if any(len(h) != deck.HAND_SIZE for h in hands):
        raise BadInput(f"hands of {[len(h) for h in hands]} cards; each seat is dealt {deck.HAND_SIZE}")
    draw_pile = _cards(record["draw_pile"], "draw_pile")
    if not isinstance(record["reaction"], list) or len(record["reaction"]) != players:
        raise BadInput(f"reaction must list {players} entries")
    profiles = tuple(profile_from_entry(e) for e in record["reaction"])
    recorded = record["events"]
    if not isinstance(recorded, list):
        raise BadInput("events is not a list")

    out = [f"Hit the Deck hand {record.get('hand_id')}  ({players} players, dealer seat {dealer}, "
           f"seed {record.get('seed')}, strategies {record.get('strategies')})"]
    changed = {f.name: v for f in FLAGS if (v := rules.as_dict()[f.name]) != _default_text(f)}
    out.append("  rules: " + (f"changed from the defaults: {changed}" if changed else "the defaults"))
    for seat, h in enumerate(hands):
        out.append(f"  seat {seat} ({profiles[seat].spec()}) holds {' '.join(deck.NAMES[k] for k in h)}")
    out.append(f"  draw pile, top first: {' '.join(deck.NAMES[k] for k in draw_pile)}")

    turns = [0]
    hand_box: list[ref.Hand] = []

    def on_event(i: int, ev: list) -> None:
        mine = recorded[i] if i < len(recorded) else None
        if mine != ev:
            shown = "missing (the events stop)" if i >= len(recorded) else repr(mine)
            raise BadInput(f"event #{i} is {shown}, but the rules give {ev!r}")
        h = hand_box[0]
        if ev[0] in ("draw", "cut", "flip") or (ev[0] == "play" and not h._follows_own_draw()):
            turns[0] += 1
        out.append(f"  turn {turns[0]:<4} {describe(ev, h)}")

    chance = ref.RecordedChance(recorded)             # the recorded choices and chance outcomes
    try:
        hand = ref.Hand(dealer, hands, draw_pile, rules, profiles, chance.choose, chance, on_event=on_event)
    except BadInput as exc:
        raise BadInput(f"deal: {exc}") from None
    hand_box.append(hand)
    hand.play()
    if len(recorded) > len(hand.events):
        raise BadInput(f"event #{len(hand.events)} {recorded[len(hand.events)]!r} comes after the hand "
                       f"ended")
    if record["went_out"] != hand.went_out:
        raise BadInput(f"went_out is {record['went_out']!r} but the rules give {hand.went_out!r}")
    if record["score"] != hand.score:
        raise BadInput(f"score is {record['score']!r} but the rules give {hand.score!r}")
    out.append(f"  {'seat %d went out' % hand.went_out if hand.went_out is not None else 'blocked hand'}; "
               f"score this hand: {hand.score}")
    return "\n".join(out)


def _default_text(flag) -> object:
    value = flag.default
    return ",".join(str(v) for v in value) if isinstance(value, tuple) else value


def describe(ev: list, h: ref.Hand, seat: int | None = None) -> str:
    """One event in words, with the table state it leaves where that helps (`h`, the reference hand
    that played it, just after it). With `seat`, as that seat sees it: the cards the other seats
    draw, as a draw or a penalty, are not named (the web app's Play page)."""
    kind = ev[0]
    at = {"draw": 2, "penalty": 3}.get(kind)          # where the event names the card taken
    if seat is not None and at is not None and ev[1] != seat and ev[at] is not None:
        ev = [*ev[:at], "a card", *ev[at + 1:]]
    top = deck.NAMES[h.discard[0]] if h.discard else "-"
    state = f"(top {top}, demand {deck.demand_name(h.demand)}, dir {h.direction:+d})"
    if kind == "play":
        card = deck.parse_card(ev[2])
        demand = ref.demand_of(card)
        return (f"seat {ev[1]} plays {ev[2]:<6}(top {ev[2]}, demand {deck.demand_name(demand)}, "
                f"dir {h.direction:+d})")
    if kind == "draw":
        return f"seat {ev[1]} draws {ev[2] if ev[2] is not None else 'nothing (no cards left)'}"
    if kind == "pass":
        return f"seat {ev[1]} passes {state}"
    if kind == "turn":
        return f"{ev[1]} is turned up {state}"
    if kind == "bury":
        return f"{ev[3]} is buried in the {ev[1]} pile at position {ev[2]}"
    if kind == "cut":
        if ev[3] is None:
            return f"seat {ev[1]} has nothing to cut; the turn is used up"
        return f"seat {ev[1]} cuts {ev[2]} cards: {ev[3]} is exposed {state}"
    if kind == "flip":
        return f"seat {ev[1]} flips the deck; direction now {-h.direction:+d}"
    if kind == "reshuffle":
        return f"the discard pile below the top is reshuffled into a draw pile of {len(ev[1])} cards"
    if kind == "slap":
        if not ev[2]:
            return (f"seat {ev[1]} forgets to shout; " +
                    (f"seat {ev[4]} draws 4" if ev[4] is not None else "nobody notices"))
        lat = ", ".join(f"{s}: {x:.0f} ms" for s, x in enumerate(ev[3]) if x is not None)
        return (f"seat {ev[1]} shouts \"Hit the deck with a hand!\"; hands down {{{lat}}}; " +
                (f"seat {ev[4]} is last and draws 4" if ev[4] is not None else "nobody draws"))
    if kind == "false_slap":
        return f"seat {ev[1]} slaps falsely and draws 2"
    if kind == "penalty":
        return f"seat {ev[1]} draws {ev[3] if ev[3] is not None else 'nothing'} ({ev[2]} penalty)"
    if kind == "out":
        return f"seat {ev[1]} has no cards left: out"
    if kind == "blocked":
        return "the hand is blocked (HTD-6.4 / HTD-6.5): every seat scores its hand"
    return repr(ev)
