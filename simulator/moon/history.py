"""Hand histories for Moon (HISTORY.md): JSON lines out, a readable replay checked against reference.py."""
from __future__ import annotations

import json

import numpy as np

from moonshot.simulator.errors import BadInput, checked_replay
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon.engine import Result, Table
from moonshot.simulator.moon.rules import FLAGS, parse_rules
from moonshot.simulator.moon.tiles import (HAND_SIZE, N_TILES, TRICKS, TRUMP_NAMES, parse_tile, side_of_seats,
                                          tile_name, trump_name)
from moonshot.simulator.record_types import (PER_SIDE, SEAT, UNKNOWN, Const, Either, Int, List, Maybe, Row, Schema,
                                              Seating, Text, WholeGames, choice)

GAME = "moon"
_NAMES = np.array([tile_name(t) for t in range(N_TILES)] + [None], dtype=object)   # index -1 -> None
MOON_KEYS = ("first_bidder", "hands", "widow", "bids", "bidder", "bid", "discard", "trump", "plays",
             "trick_winners", "tricks", "score")


# ---------------------------------------------------------------------------- the record's keys (HISTORY.md)

TILE = Text("a tile like 6-4")
BID = Int(0, ref.MOON, what=f"a bid 0..{ref.MOON}")
SCHEMA = Schema(
    fields={"first_bidder": SEAT,
            "hands": List(List(TILE, n=HAND_SIZE), n=lambda t: t.players,
                          what=lambda t: f"{t.players} hands of {HAND_SIZE} tiles"),
            "widow": Maybe(TILE),
            "bids": List(Row(SEAT, Either(BID, Const("pass"))), most=32,
                         what="a list of at most 32 calls, each [seat, bid or \"pass\"]"),
            "bidder": Maybe(SEAT), "bid": Maybe(BID), "discard": Maybe(TILE),
            "trump": Maybe(choice(*TRUMP_NAMES)),
            "plays": List(Either(Row(SEAT, TILE), Row(SEAT, TILE, Maybe(Int(0, 6)))), most=lambda t: TRICKS * t.players,
                          what=lambda t: f"a list of at most {TRICKS * t.players} plays, each [seat, tile] "
                                         "(or [seat, tile, called end])"),
            "trick_winners": List(SEAT, most=TRICKS), "tricks": List(Int(0, TRICKS), n=lambda t: t.sides),
            "score": PER_SIDE},
    rules=lambda args, players: parse_rules(args, players), rules_dict=lambda rules, players: rules.as_dict(players),
    sides=lambda players, rules: [side_of_seats(players)])


def _ends(record: dict, t: Seating, carry) -> tuple[list, object]:
    """MOON-9.1, MOON-10.5, A-MOON-3 (a 21 that wins or loses at once), A-MOON-7 (the bidder's tie),
    A-MOON-18 (a side set twice in a row loses, 4 players): as reference.Game.finish_hand. `carry`
    is the side set on the game's last played hand (UNKNOWN: either outcome is allowed)."""
    bidder = record["bidder"]
    result = ref.score_hand(t.players, bidder, record["bid"], record["tricks"], t.rules)
    sides = side_of_seats(t.players)
    set_side = carry if bidder is None else None if result.made else sides[bidder]
    before = [None, set_side] if carry is UNKNOWN else [carry]        # thrown-in hands leave the run as it was
    outcomes = []
    for last in before:
        loses = result.loses_game
        if (t.rules.set_twice_loses_4p and t.players == 4 and bidder is not None and set_side is not None
                and set_side == last and loses is None):
            loses = set_side
        won = ref.game_winner(list(record["scores_after"]), t.rules, bidder, wins_game=result.wins_game,
                              loses_game=loses)
        outcomes.append(None if won is None else [won])
    return outcomes, set_side


WHOLE_GAMES = WholeGames(
    start=lambda t: [0] * t.sides, change=lambda r: list(r["score"]), ends=_ends,
    next_hand=lambda r, t: {"first_bidder": (r["first_bidder"] + 1) % t.players},   # MOON-4.1, thrown in too
    cap=400, rule=lambda r: "MOON-9")


def records(result: Result, table: Table, specs, seed: int, first_id: int) -> list[str]:
    """One JSON line per hand of `result` (hand ids first_id, first_id + 1, ...), with the common
    and Moon keys of HISTORY.md. Thrown-in hands have null bidder/bid/discard/trump, no plays or
    trick winners, and zero tricks and score (as reference.Hand.record)."""
    P = table.players
    common = {"game": GAME, "format": 1, "rules": table.rules.as_dict(P), "seed": seed, "players": P,
              "sides": table.side_of_seat.tolist(), "strategies": list(specs)}
    calls_rule = table.rules.lead_suit_rule == "leader_calls_end"
    hands = _NAMES[result.hands].tolist()
    widow = None if result.widow is None else _NAMES[result.widow].tolist()
    discard = _NAMES[result.discard].tolist()
    tiles = _NAMES[result.play_tiles].tolist()
    seats = result.play_seats.tolist()
    ends = result.called_ends.tolist()
    calls, call_seats = result.calls.tolist(), result.call_seats.tolist()
    bidder, bid, trump = result.bidder.tolist(), result.bid.tolist(), result.trump.tolist()
    first, winners = result.first_bidder.tolist(), result.trick_winners.tolist()
    tricks, score = result.tricks.tolist(), result.score.tolist()
    out = []
    for i in range(len(result.bidder)):
        played = bidder[i] >= 0
        plays = []
        if played:
            for j, (s, t) in enumerate(zip(seats[i], tiles[i])):
                if calls_rule and j % P == 0:
                    end = ends[i][j // P]
                    plays.append([s, t, None if end < 0 else end])
                else:
                    plays.append([s, t])
        rec = {**common, "hand_id": first_id + i,
               "first_bidder": first[i],
               "hands": hands[i],
               "widow": None if widow is None else widow[i],
               "bids": [[s, ref.bid_name(c)] for s, c in zip(call_seats[i], calls[i]) if c >= 0],
               "bidder": bidder[i] if played else None,
               "bid": bid[i] if played else None,
               "discard": discard[i],
               "trump": trump_name(trump[i]) if played else None,
               "plays": plays,
               "trick_winners": winners[i] if played else [],
               "tricks": tricks[i],
               "score": score[i]}
        out.append(json.dumps(rec, separators=(",", ":")))
    return out


# ---------------------------------------------------------------------------- replay

def _tile(text) -> int:
    if not isinstance(text, str):
        raise BadInput(f"tile {text!r} is not a string like \"6-4\"")
    return parse_tile(text)


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what} {value!r} is not an integer")
    return value


def _call(value) -> int:
    if value == "pass":
        return ref.PASS
    return _int(value, "bid")


def _rule_args(rules: dict) -> list[str]:
    if not isinstance(rules, dict):
        raise BadInput("rules is not an object")
    args = []
    for key, value in rules.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        args.append(f"{key}={text}")
    return args


def replay(record: dict, path: str = "history", line: int = 0) -> str:
    """The hand as a person reads it (deal, bidding, widow and discard, trump, each trick and its
    winner, score), checked move by move against reference.Hand. Any malformed or inconsistent
    record raises BadInput naming the file and line."""
    return checked_replay(GAME, _replay, record, path, line)


def _replay(record: dict) -> str:
    if not isinstance(record, dict):
        raise BadInput("the record is not a JSON object")
    if record.get("game") != GAME:
        raise BadInput(f"game {record.get('game')!r} is not {GAME!r}")
    players = _int(record["players"], "players")
    rules = parse_rules(_rule_args(record["rules"]), players)
    sides = side_of_seats(players)
    if record.get("sides", sides) != sides:
        raise BadInput(f"sides {record.get('sides')} do not match {players} players; expected {sides}")
    first = _int(record["first_bidder"], "first_bidder")
    if not 0 <= first < players:
        raise BadInput(f"first_bidder {first} is not a seat 0..{players - 1}")
    if not isinstance(record["hands"], list):
        raise BadInput("hands is not a list")
    if len(record["hands"]) != players:
        raise BadInput(f"{len(record['hands'])} hands for {players} players")
    hands = [[_tile(t) for t in h] for h in record["hands"]]
    widow = None if record["widow"] is None else _tile(record["widow"])
    try:
        hand = ref.Hand(hands, widow, first, rules)
    except ValueError as exc:
        raise BadInput(str(exc)) from None

    who = (lambda s: f"seat {s} (team {sides[s]})") if players == 4 else (lambda s: f"seat {s}")
    out = [f"Moon hand {record.get('hand_id')}  ({players} players, first bidder seat {first}, "
           f"seed {record.get('seed')}, strategies {record.get('strategies')})"]
    changed = {f.name: v for f in FLAGS if (v := record["rules"].get(f.name)) is not None
               and f.name != "moon.tile_set" and v != f.default}
    out.append(f"  rules: tile set {rules.as_dict(players)['moon.tile_set']}"
               + (f"; changed from the defaults: {changed}" if changed else "; otherwise the defaults"))
    for seat, h in enumerate(hands):
        out.append(f"  {who(seat)} holds {' '.join(tile_name(t) for t in h)}")
    if widow is not None:
        out.append(f"  widow: {tile_name(widow)}")

    # MOON-4: the auction
    calls = []
    if not isinstance(record["bids"], list) or not isinstance(record["plays"], list):
        raise BadInput("bids and plays must be lists")
    for item in record["bids"]:
        if not isinstance(item, list) or len(item) != 2:
            raise BadInput(f"bid entry {item!r} is not [seat, bid]")
        seat, call = _int(item[0], "seat"), _call(item[1])
        _expect(hand, ref.BIDDING, seat, f"call {item[1]!r}")
        hand.act(call)
        calls.append(f"{who(seat)} {ref.bid_name(call)}")
    if hand.phase == ref.BIDDING:
        raise BadInput(f"the bidding stops early; seat {hand.to_move()} still has to call")
    out.append(f"  bidding: {', '.join(calls)}")
    if hand.thrown_in:
        out.append("  everyone passed: the hand is thrown in and nobody scores (MOON-4.6)")
    else:
        out.append(f"  {who(hand.bidder)} bids {hand.bid}")
        # MOON-5 / A-MOON-6: widow, discard and trump in the order the rules give
        while hand.phase in (ref.DISCARD, ref.TRUMP):
            if hand.phase == ref.DISCARD:
                if record["discard"] is None:
                    raise BadInput("the bidder took the widow but discard is null")
                tile = _tile(record["discard"])
                hand.act(tile)
                out.append(f"  {who(hand.bidder)} takes the widow {tile_name(widow)} and discards {tile_name(tile)}")
            else:
                name = record["trump"]
                if name not in TRUMP_NAMES:
                    raise BadInput(f"trump {name!r}; accepted: {', '.join(TRUMP_NAMES)}")
                hand.act(TRUMP_NAMES.index(name))
                out.append(f"  trump: {name}")
        # MOON-6, MOON-7: the tricks
        calls_rule = rules.lead_suit_rule == "leader_calls_end"
        trick: list[str] = []
        for item in record["plays"]:
            if not isinstance(item, list) or len(item) not in (2, 3):
                raise BadInput(f"play {item!r} is not [seat, tile] or [seat, tile, end]")
            seat, tile = _int(item[0], "seat"), _tile(item[1])
            lead = not hand.trick
            end = item[2] if len(item) == 3 else None
            if len(item) == 3 and not (calls_rule and lead):
                raise BadInput(f"play {item!r} names an end, but only leads under leader_calls_end do")
            _expect(hand, ref.PLAY, seat, f"play {item!r}")
            if end is not None:
                hand.act((tile, _int(end, "called end")))
            else:
                hand.act(tile)
            trick.append(f"{who(seat)} {tile_name(tile)}" + (f" (calls {end})" if end is not None else ""))
            if not hand.trick:
                n = len(hand.trick_winners)
                out.append(f"  trick {n}: {', '.join(trick)}  -> {who(hand.trick_winners[-1])} wins")
                trick = []
        if hand.phase != ref.DONE:
            raise BadInput(f"only {len(hand.plays)} plays; a hand has {7 * players}")
        res = hand.result
        verdict = "made" if res.made else "set"
        out.append(f"  tricks per {'team' if players == 4 else 'player'}: {hand.tricks}; "
                   f"the bid of {hand.bid} is {verdict}")
    if hand.phase != ref.DONE:
        raise BadInput("the hand is not finished")
    out.append(f"  score this hand: {list(hand.result.score)}"
               + (" (marks)" if rules.scoring == "marks7" else ""))
    # everything the file says must be what the rules give
    expected = hand.record()
    for key in MOON_KEYS:
        if key not in record:
            raise KeyError(key)
        if _norm(record[key]) != _norm(expected[key]):
            raise BadInput(f"{key} is {record[key]!r} but the rules give {expected[key]!r}")
    return "\n".join(out)


def _expect(hand: ref.Hand, phase: str, seat: int, what: str) -> None:
    if hand.phase != phase:
        raise BadInput(f"{what} by seat {seat} comes in the {hand.phase} phase")
    if hand.to_move() != seat:
        raise BadInput(f"{what} by seat {seat} is out of turn; seat {hand.to_move()} is to move")


def _norm(value):
    """Lists and tuples compare equal; tiles in either end order are normalised."""
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, str) and "-" in value:
        try:
            return tile_name(parse_tile(value))
        except BadInput:
            return value
    return value
