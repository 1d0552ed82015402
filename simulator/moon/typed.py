"""Moon's part of typed hand records (docs/hand-records.md; the shared part is simulator/records.py):
first_bidder, seat hands, widow, bids, discard, trump and plays, read and written back."""
from __future__ import annotations

from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon.rules import parse_rules
from moonshot.simulator.moon.tiles import (HAND_SIZE, TILE_SETS, TRUMP_NAMES, parse_tile, side_of_seats, tile_name,
                                           tile_set_for)
from moonshot.simulator.records import (UNKNOWN, TokenError, move_error, one, one_seat, piece, rule_text, seat_lines,
                                        seat_move, shown_in_slots)

KEYS = ("first_bidder", "seat", "widow", "bids", "discard", "trump", "plays")
REPEATED = {"seat", "bids", "plays"}
PIECE_KEYS = ("hands", "widow")
UNKNOWN_KEYS = ("hands", "widow", "discard")
derive_keys = ("bidder", "bid", "trick_winners", "tricks", "score")
TILE = 'a tile such as 6-4 (higher end first) or ?'


def rules_dict(args, players: int) -> dict:
    return parse_rules(list(args), players).as_dict(players)


def default_sides(players: int) -> list[int]:
    return side_of_seats(players)


def _tile(token):
    return piece(token, lambda t: tile_name(parse_tile(t)), TILE)


def read(lines: dict, record: dict) -> dict:
    players = record["players"]
    record["first_bidder"] = one_seat(lines, "first_bidder", f"first_bidder SEAT (0..{players - 1})")
    record["hands"], at = seat_lines(lines, players, HAND_SIZE, _tile)
    set_size = len(TILE_SETS[tile_set_for(_rules(record), players)])
    widow = one(lines, "widow")
    if widow is not None and len(widow) != 1:
        raise TokenError(lines["widow"][0][-1], "is not one widow tile", TILE)
    has_widow = set_size > players * HAND_SIZE
    record["widow"] = (_tile(widow[0]) if widow else UNKNOWN) if has_widow else None
    if widow and not has_widow:
        raise TokenError(widow[0], "is a widow, but this table deals none", "no widow line")
    record["bids"] = []
    for words in lines.get("bids", []):
        for token in words[1:]:
            seat, call = seat_move(token, players)
            if call.text != "pass" and not call.text.isdigit():
                raise TokenError(call, "is not a bid", "SEAT:pass or SEAT:N, e.g. 1:5")
            at[("bids", len(record["bids"]))] = token
            record["bids"].append([seat, "pass" if call.text == "pass" else int(call.text)])
    discard = one(lines, "discard")
    record["discard"] = _tile(discard[0]) if discard else None
    if discard:
        at[("discard", 0)] = discard[0]
    trump = one(lines, "trump")
    if trump:
        if trump[0].text not in TRUMP_NAMES:
            raise TokenError(trump[0], "is not a trump", " | ".join(TRUMP_NAMES))
        at[("trump", 0)] = trump[0]
    record["trump"] = trump[0].text if trump else None
    record["plays"] = []
    for words in lines.get("plays", []):
        for token in words[1:]:
            seat, move = seat_move(token, players)
            tile, slash, end = move.text.partition("/")
            play = [seat, _tile(move.part(0, tile))]
            if slash:
                if end != "-" and not (end.isdigit() and len(end) == 1):
                    raise TokenError(token, "names no end", "SEAT:TILE/END with an end 0..6 or -, e.g. 1:6-4/4")
                play.append(None if end == "-" else int(end))
            at[("plays", len(record["plays"]))] = token
            record["plays"].append(play)
    return at


def _rules(record: dict, players: int | None = None):
    return parse_rules([f"{k}={rule_text(v)}" for k, v in record["rules"].items()], players)


def complete(record: dict) -> None:
    """Every tile a seat played was dealt to it, except the widow the bidder took; the discard is
    the one tile of the set nobody played."""
    widow = record["widow"]
    for seat, hand in enumerate(record["hands"]):
        played = [p[1] for p in record["plays"] if p[0] == seat and p[1] != widow]
        shown_in_slots(hand, played)
    if record["discard"] == UNKNOWN:
        never = [t for t in pieces(record) if t not in {p[1] for p in record["plays"]}]
        if len(never) == 1:
            record["discard"] = never[0]


def pieces(record: dict) -> list[str]:
    rules = _rules(record)
    return [tile_name(int(t)) for t in TILE_SETS[tile_set_for(rules, record["players"])]]


def derive(record: dict, at: dict) -> dict:
    """Play the record through reference.Hand; the keys it gives, or TokenError at the refused move."""
    rules = _rules(record, record["players"])
    first = record["first_bidder"]
    if not 0 <= first < record["players"]:
        raise TokenError(at["game"], f"has first_bidder {first}, not a seat", f"0..{record['players'] - 1}")
    try:
        hand = ref.Hand([[parse_tile(t) for t in h] for h in record["hands"]],
                        None if record["widow"] is None else parse_tile(record["widow"]), first, rules)
    except (ValueError, BadInput) as exc:
        raise move_error(at.get(("hands", 0), at["game"]), exc, "a deal of the tile set: each tile once") from None

    def act(key: str, i: int, seat, choice) -> None:
        token = at.get((key, i), at["game"])
        if seat is not None and (hand.phase not in (ref.BIDDING, ref.PLAY) or hand.to_move() != seat):
            raise TokenError(token, f"comes out of turn (the {hand.phase} phase, seat {hand.to_move()} to move)",
                             "the moves in the order the rules give")
        try:
            hand.act(choice)
        except (ValueError, BadInput) as exc:
            raise move_error(token, exc) from None
    for i, (seat, call) in enumerate(record["bids"]):
        act("bids", i, seat, ref.PASS if call == "pass" else call)
    while hand.phase in (ref.DISCARD, ref.TRUMP):
        key = "discard" if hand.phase == ref.DISCARD else "trump"
        value = record[key]
        if value is None:
            raise TokenError(at["game"], f"lacks the {key} line the bidder's turn needs", f"{key} ...")
        act(key, 0, None, parse_tile(value) if key == "discard" else TRUMP_NAMES.index(value))
    for i, play in enumerate(record["plays"]):
        tile = parse_tile(play[1])
        act("plays", i, play[0], (tile, play[2]) if len(play) == 3 and play[2] is not None else tile)
    if hand.phase != ref.DONE:
        last = max([k for k in at if k[0] in ("plays", "bids")], default=None, key=lambda k: (k[0] == "plays", k[1]))
        raise TokenError(at.get(last, at["game"]), f"ends the record in the {hand.phase} phase",
                         "a whole hand: every bid, and all 7 tricks unless thrown in")
    given = hand.record()
    return {k: given[k] for k in derive_keys}


def write(record: dict) -> list[str]:
    out = [f"first_bidder {record['first_bidder']}"]
    out += [f"seat {s} " + " ".join(h) for s, h in enumerate(record["hands"])]
    if record["widow"] is not None:
        out.append(f"widow {record['widow']}")
    out.append("bids " + " ".join(f"{s}:{c}" for s, c in record["bids"]))
    if record["discard"] is not None:
        out.append(f"discard {record['discard']}")
    if record["trump"] is not None:
        out.append(f"trump {record['trump']}")
    P = record["players"]
    plays = [f"{p[0]}:{p[1]}" + (f"/{'-' if p[2] is None else p[2]}" if len(p) == 3 else "") for p in record["plays"]]
    out += ["plays " + " ".join(plays[i:i + P]) for i in range(0, len(plays), P)]
    return out
