"""Hit the Deck's part of typed hand records (docs/hand-records.md; the shared part is
simulator/records.py): dealer, reaction profiles, seat hands, the draw pile and the events, one
token each (`3:R2` a play, `3:draw:BCUT`, `turn:G2`, ...; `-` where HISTORY.md has null)."""
from __future__ import annotations

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.history import profile_from_entry
from moonshot.simulator.hit_the_deck.profiles import parse_profile
from moonshot.simulator.hit_the_deck.rules import parse_rules, rule_args
from moonshot.simulator.records import (Token, TokenError, move_error, one, one_seat, piece, seat_lines,
                                        shown_in_slots)

KEYS = ("dealer", "reaction", "seat", "draw_pile", "events")
REPEATED = {"seat", "draw_pile", "events"}
PIECE_KEYS = UNKNOWN_KEYS = ("hands", "draw_pile")
derive_keys = ("went_out", "score")
CARD = "a card such as R3, BCUT, YFLIP, HN2, HCR, HH (? only in hands and the draw pile)"
EVENTS = ("SEAT:CARD (a play), SEAT:draw:CARD, SEAT:pass, SEAT:cut:K:CARD, SEAT:flip, turn:CARD, "
          "bury:PILE:POS:CARD, reshuffle:CARD,CARD,..., SEAT:slap:MS,MS,...:LOSER, SEAT:forgot:LOSER, "
          "SEAT:false_slap, SEAT:penalty:CAUSE:CARD, SEAT:out, blocked (- for none)")


def rules_dict(args, players: int) -> dict:
    return parse_rules(list(args), players).as_dict()


def default_sides(players: int) -> list[int]:
    return list(range(players))


def _name(text: str) -> str:
    return deck.NAMES[deck.parse_card(text)]


def read(lines: dict, record: dict) -> dict:
    players = record["players"]
    record["dealer"] = one_seat(lines, "dealer", "dealer SEAT")
    specs = one(lines, "reaction") or [Token(record["rules"]["htd.reaction"], 0, 0)] * players
    if len(specs) != players:
        raise TokenError(specs[-1], f"ends {len(specs)} reaction profiles", f"one per seat ({players})")
    try:
        record["reaction"] = [parse_profile(t.text).as_dict() for t in specs]
    except BadInput as exc:
        raise TokenError(specs[0], f"is not a reaction profile ({exc})", "adult, child, distracted, off") from None
    read_card = lambda t: piece(t, _name, CARD)             # noqa: E731
    record["hands"], at = seat_lines(lines, players, deck.HAND_SIZE, read_card)
    record["draw_pile"] = [read_card(t) for words in lines.get("draw_pile", []) for t in words[1:]]
    record["events"] = []
    for words in lines.get("events", []):
        for token in words[1:]:
            at[("events", len(record["events"]))] = token
            record["events"].append(_event(token, players))
    return at


def _event(token: Token, players: int) -> list:
    parts = token.text.split(":")
    head, rest = parts[0], parts[1:]

    def card(text: str, none=False):
        if none and text == "-":
            return None
        try:
            return _name(text)
        except BadInput:
            raise TokenError(token, f"names no card ({text!r})", CARD) from None

    def number(text: str, none=False):
        if none and text == "-":
            return None
        try:
            return float(text) if "." in text else int(text)
        except ValueError:
            raise TokenError(token, f"has {text!r} where a number belongs", EVENTS) from None
    try:
        if head == "turn" and len(rest) == 1:
            return ["turn", card(rest[0])]
        if head == "bury" and len(rest) == 3:
            return ["bury", rest[0], number(rest[1]), card(rest[2])]
        if head == "reshuffle" and len(rest) == 1:
            return ["reshuffle", [card(c) for c in rest[0].split(",")]]
        if head == "blocked" and not rest:
            return ["blocked"]
        seat = int(head)
        if not 0 <= seat < players:
            raise ValueError
        kind = rest[0] if len(rest) > 1 or rest[0] in ("pass", "flip", "false_slap", "out") else "play"
        args = rest[1:]
        shapes = {"play": 0, "draw": 1, "pass": 0, "cut": 2, "flip": 0, "slap": 2, "forgot": 1,
                  "false_slap": 0, "penalty": 2, "out": 0}
        if kind not in shapes or len(args) != shapes[kind]:
            raise ValueError
        if kind == "play":
            return ["play", seat, card(rest[0])]
        if kind in ("draw",):
            return ["draw", seat, card(args[0], none=True)]
        if kind == "cut":
            return ["cut", seat, number(args[0]), card(args[1], none=True)]
        if kind == "slap":
            return ["slap", seat, True, [number(x, none=True) for x in args[0].split(",")], number(args[1], none=True)]
        if kind == "forgot":
            return ["slap", seat, False, None, number(args[0], none=True)]
        if kind == "penalty":
            return ["penalty", seat, args[0], card(args[1], none=True)]
        return [kind, seat]
    except (ValueError, IndexError):
        raise TokenError(token, "is not an event", EVENTS) from None


def event_text(ev: list) -> str:
    """One event as its token (the inverse of _event)."""
    none = lambda x: "-" if x is None else str(x)           # noqa: E731
    kind = ev[0]
    if kind == "turn":
        return f"turn:{ev[1]}"
    if kind == "bury":
        return f"bury:{ev[1]}:{ev[2]}:{ev[3]}"
    if kind == "reshuffle":
        return "reshuffle:" + ",".join(ev[1])
    if kind == "blocked":
        return "blocked"
    if kind == "play":
        return f"{ev[1]}:{ev[2]}"
    if kind == "draw":
        return f"{ev[1]}:draw:{none(ev[2])}"
    if kind == "cut":
        return f"{ev[1]}:cut:{ev[2]}:{none(ev[3])}"
    if kind == "slap":
        if not ev[2]:
            return f"{ev[1]}:forgot:{none(ev[4])}"
        return f"{ev[1]}:slap:{','.join(none(x) for x in ev[3])}:{none(ev[4])}"
    if kind == "penalty":
        return f"{ev[1]}:penalty:{ev[2]}:{none(ev[3])}"
    return f"{ev[1]}:{kind}"


def complete(record: dict) -> None:
    """A seat's unknown cards are the ones it played beyond those it drew (draws and penalties name
    their cards: a record's events hold no `?`)."""
    events = record["events"]
    for seat, hand in enumerate(record["hands"]):
        played = [e[2] for e in events if e[0] == "play" and e[1] == seat]
        for e in events:
            got = e[2] if e[0] == "draw" else e[3] if e[0] == "penalty" else None
            if e[1:2] == [seat] and got is not None and got in played:
                played.remove(got)
        shown_in_slots(hand, played)


def pieces(record: dict) -> list[str]:
    rules = parse_rules(rule_args(record["rules"]), record["players"])
    return [deck.NAMES[k] for k in deck.deck_list(rules)]


def derive(record: dict, at: dict) -> dict:
    """Replay the hand with reference.replay_hand; went_out and score, or TokenError at the first
    event the rules do not give."""
    recorded = record["events"]

    def on_event(i: int, ev: list) -> None:
        if i >= len(recorded) or recorded[i] != ev:
            token = at.get(("events", min(i, len(recorded) - 1)), at["game"])
            raise TokenError(token, f"is not what the rules give as event #{i} ({event_text(ev)})"
                             if i < len(recorded) else f"ends the events early (the rules go on: {event_text(ev)})",
                             "the events as the rules give them")
    try:
        rules = parse_rules(rule_args(record["rules"]), record["players"])
        profiles = tuple(profile_from_entry(e) for e in record["reaction"])
        if not 0 <= record["dealer"] < record["players"]:
            raise BadInput(f"dealer {record['dealer']} is not a seat")
        hand = ref.replay_hand(record, rules, profiles, on_event=on_event)
    except (BadInput, ValueError, IndexError, KeyError) as exc:
        raise move_error(at.get(("hands", 0), at["game"]), exc, "a deal and events by the rules") from None
    if len(recorded) > len(hand.events):
        raise TokenError(at[("events", len(hand.events))], "comes after the hand ended", "no more events")
    return {"went_out": hand.went_out, "score": list(hand.score)}


def write(record: dict) -> list[str]:
    out = [f"dealer {record['dealer']}",
           "reaction " + " ".join(profile_from_entry(e).spec() for e in record["reaction"])]
    out += [f"seat {s} " + " ".join(h) for s, h in enumerate(record["hands"])]
    pile = record["draw_pile"]
    out += ["draw_pile " + " ".join(pile[i:i + 20]) for i in range(0, len(pile), 20)]
    line: list[str] = []
    for i, ev in enumerate(record["events"]):
        before = record["events"][i - 1] if i else None
        after_own_draw = before is not None and before[0] == "draw" and before[1:2] == ev[1:2]
        if line and ev[0] in ("play", "draw", "cut", "flip", "turn") and not after_own_draw:
            out.append("events " + " ".join(line))
            line = []
        line.append(event_text(ev))
    if line:
        out.append("events " + " ".join(line))
    return out
