"""The Replay page's work: read an uploaded history file as data (never a path), check every
record with the game's own replay (the same as `moonshot replay`), and cut each hand into steps
(one per move). For Moon every play step also carries the exact solver's value of each legal
move from the position before it: the bidder side's tricks under best play by all, with every
hand known (which the record holds)."""
from __future__ import annotations

from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import replayed

MAX_HANDS = 200        # hands shown from one file


def read(data: bytes, name: str) -> list[dict]:
    """Every hand of the file: {hand_id, game, text (the replay), steps}."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{name}: not UTF-8 text; accepted: a JSON-lines file written by --history") from None
    hands = []
    for record, entry, shown in replayed(text.splitlines(), name):      # checked as `moonshot replay` does
        hands.append({"hand_id": record.get("hand_id"), "game": entry.name, "text": shown,
                      "steps": steps(record, shown)})
        if len(hands) >= MAX_HANDS:
            break
    if not hands:
        raise BadInput(f"{name}: no hands; accepted: a JSON-lines file written by --history")
    return hands


def steps(record: dict, shown: str) -> list[dict]:
    """The hand's moves, one step each; `shown` is its replay text (Hit the Deck's steps are its
    event lines, with the table state each leaves)."""
    game = record["game"]
    if game == "moon":
        return moon_steps(record)
    if game == "shoot-the-moon":
        return [{"text": f"seat {s} plays {c}" if s < record["players"] else f"dummy plays {c}"}
                for s, c in record["plays"]]
    return [{"text": line.strip()} for line in shown.splitlines() if line.startswith("  turn ")]


def moon_steps(record: dict) -> list[dict]:
    from moonshot.simulator.moon import solver as moon_solver
    from moonshot.simulator.moon import tiles as dominoes
    from moonshot.simulator.moon.rules import parse_rules
    P = record["players"]
    args = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in record["rules"].items()]
    rules = parse_rules(args, P)
    out = [{"text": f"seat {s} {'passes' if b == 'pass' else f'bids {b}'}"} for s, b in record["bids"]]
    if record["bidder"] is None:
        return out + [{"text": "everyone passed: the hand is thrown in"}]
    held = [[dominoes.parse_tiles(t)[0] for t in h] for h in record["hands"]]
    bidder, trump = record["bidder"], dominoes.parse_trump(record["trump"], P, rules)
    if record.get("widow") is not None:
        held[bidder].append(dominoes.parse_tiles(record["widow"])[0])
        held[bidder].remove(dominoes.parse_tiles(record["discard"])[0])
        out.append({"text": f"seat {bidder} takes the widow {record['widow']} and discards {record['discard']}"})
    out.append({"text": f"trump: {record['trump']}"})
    leader, trick, called = bidder, [], None
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
                    "mover_side": "bidder's side" if bidder_side else "defenders"})
        held[seat].remove(tile)
        if not trick:
            called = end
        trick = trick + [tile]
        if len(trick) == P:
            leader = next(winners)
            out[-1]["text"] += f"  -> seat {leader} wins the trick"
            trick, called = [], None
    return out
