"""Shoot the Moon's part of typed hand records (docs/hand-records.md; the shared part is
simulator/records.py): dealer, chips before the round, seat hands (the dummy's stack as seat 2 with
two players), plays and the revokes that were caught."""
from __future__ import annotations

from moonshot.simulator.errors import BadInput
from moonshot.simulator.records import (TokenError, integer, move_error, one, one_seat, piece, rule_text, seat_lines,
                                        seat_move, shown_in_slots)
from moonshot.simulator.shoot_the_moon import reference as ref
from moonshot.simulator.shoot_the_moon.cards import DECK_SIZE, HAND_SIZE, card_name, hands_dealt, parse_card
from moonshot.simulator.shoot_the_moon.rules import parse_rules

KEYS = ("dealer", "chips_before", "seat", "plays", "detected_revokes")
REPEATED = {"seat", "plays"}
PIECE_KEYS = UNKNOWN_KEYS = ("hands",)
derive_keys = ("trick_winners", "chips_after", "tricks", "moon_chips", "round_chips", "annulled")
CARD = "a card R1..R12, G1..G12, P1..P12, B1..B12, BM, LM, or ?"


def rules_dict(args, players: int) -> dict:
    return parse_rules(list(args)).as_dict()


def default_sides(players: int) -> list[int]:
    return list(range(players))


def _card(token):
    return piece(token, lambda t: card_name(parse_card(t)), CARD)


def read(lines: dict, record: dict) -> dict:
    players = record["players"]
    record["dealer"] = one_seat(lines, "dealer", "dealer SEAT")
    chips = one(lines, "chips_before")
    sides = max(record["sides"]) + 1
    record["chips_before"] = ([integer(t, "a chip count") for t in chips] if chips
                              else [int(record["rules"]["stm.starting_chips"])] * sides)
    record["hands"], at = seat_lines(lines, hands_dealt(players), HAND_SIZE, _card)
    record["plays"] = []
    for words in lines.get("plays", []):
        for token in words[1:]:
            seat, move = seat_move(token, hands_dealt(players))
            at[("plays", len(record["plays"]))] = token
            record["plays"].append([seat, _card(move)])
    revokes = one(lines, "detected_revokes")
    if revokes is not None:
        record["detected_revokes"] = [integer(t, "a play index") for t in revokes]
    return at


def complete(record: dict) -> None:
    """Every card of a hand is played in the round's five tricks: a seat's unknown cards are the ones
    it played (the dummy's stack in the order it was played, top first)."""
    for seat, hand in enumerate(record["hands"]):
        shown_in_slots(hand, [c for s, c in record["plays"] if s == seat])


def pieces(record: dict) -> list[str]:
    return [card_name(c) for c in range(DECK_SIZE)]


def derive(record: dict, at: dict) -> dict:
    """Play the round through reference.Hand; the keys it gives, or TokenError at the refused play."""
    players = record["players"]
    rules = parse_rules([f"{k}={rule_text(v)}" for k, v in record["rules"].items()])
    taken: set[int] = set()
    hands = []
    try:
        for h in record["hands"]:
            hands.append([])
            for c in h:
                hands[-1].append(parse_card(c, taken))
                taken.add(hands[-1][-1])
        rnd = ref.Hand(players, len(set(record["sides"])) < players, rules, record["dealer"], hands,
                        record["chips_before"])
    except (BadInput, ValueError, IndexError) as exc:
        raise move_error(at.get(("hands", 0), at["game"]), exc, "a deal: 5 cards a hand, none twice") from None
    detected = set(record.get("detected_revokes", []))
    for i, (seat, name) in enumerate(record["plays"]):
        token = at.get(("plays", i), at["game"])
        if rnd.done or rnd.to_move() != seat:
            raise TokenError(token, "comes out of turn", "the plays in the order the rules give")
        card = parse_card(name)
        twin = {48: 49, 50: 51}.get(card)
        if twin is not None and card not in rnd.hands[seat]:
            card = twin                          # the two Big (Little) Moons share one name
        try:
            rnd.play(card, revoke_detected=i in detected)
        except (ValueError, BadInput) as exc:
            raise move_error(token, exc) from None
    if not rnd.done:
        raise TokenError(at.get(("plays", len(record["plays"]) - 1), at["game"]), "ends the record before the "
                         "round's end", "all 5 tricks")
    return {"trick_winners": list(rnd.trick_winners), "chips_after": list(rnd.chips_after),
            "tricks": list(rnd.tricks), "moon_chips": list(rnd.moon_chips), "round_chips": list(rnd.round_chips),
            "annulled": bool(rnd.annulled)}


def write(record: dict) -> list[str]:
    out = [f"dealer {record['dealer']}", "chips_before " + " ".join(str(c) for c in record["chips_before"])]
    out += [f"seat {s} " + " ".join(h) for s, h in enumerate(record["hands"])]
    plays = [f"{s}:{c}" for s, c in record["plays"]]
    n = hands_dealt(record["players"])
    out += ["plays " + " ".join(plays[i:i + n]) for i in range(0, len(plays), n)]
    if "detected_revokes" in record:
        out.append(" ".join(["detected_revokes", *(str(i) for i in record["detected_revokes"])]))
    return out
