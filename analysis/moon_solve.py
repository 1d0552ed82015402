"""`moonshot solve moon`: the tricks the bidder's side takes from a position with every hand known,
under best play by all (the defenders together minimising), and the value of each legal first move.

    solve_position(setup, "6-6 6-5 4-1 3-3 / 5-5 5-2 5-3 1-1 / 6-4 4-4 3-1 2-2", "6", bidder=0, leader=0)

One hand per seat, separated by "/", each of the same size 1..7 (the hands of a hand in progress
at a trick boundary; with 3 players the widow is already exchanged). The numbers are exact
(simulator.moon.solver), so the tables carry plain values, not estimates.
"""
from __future__ import annotations

import pandas as pd

from moonshot.analysis.result import Result
from moonshot.simulator.versions import behaviour, package_version
from moonshot.simulator.errors import BadInput
from moonshot.simulator.flags import changed_flags
from moonshot.simulator.moon import solver
from moonshot.simulator.moon import tiles

GAME = "moon"


def parse_hands(text: str, players: int, tile_set: str) -> list[list[int]]:
    """Hands "a-b c-d / e-f g-h / ..." -> one list of tile ids per seat; BadInput names the bad
    value (tile, count, duplicate, tile outside the set) and what is accepted."""
    example = " / ".join(["6-6 6-5"] + ["5-5 5-2", "6-4 4-4", "3-3 2-1"][:players - 1])
    parts = text.split("/")
    if len(parts) != players:
        raise BadInput(f"hands {text!r} give {len(parts)} hand(s); accepted: {players} hands (one per seat) "
                       f"separated by '/', e.g. \"{example}\"")
    in_set = set(int(t) for t in tiles.TILE_SETS[tile_set])
    hands, seen = [], {}
    for seat, part in enumerate(parts):
        hand = tiles.parse_tiles(part)
        for tile in hand:
            if tile in seen:
                where = "twice in" if seen[tile] == seat else f"in seat {seen[tile]}'s hand and in"
                raise BadInput(f"tile {tiles.tile_name(tile)} appears {where} seat {seat}'s hand; accepted: each tile "
                               f"in at most one hand, once")
            if tile not in in_set:
                raise BadInput(f"tile {tiles.tile_name(tile)} (seat {seat}) is not in "
                               f"{tiles.SET_DESCRIPTIONS[tile_set]} used with {players} players; "
                               "accepted: tiles of that set")
            seen[tile] = seat
        hands.append(hand)
    sizes = [len(h) for h in hands]
    if not 1 <= sizes[0] <= tiles.HAND_SIZE or len(set(sizes)) != 1:
        raise BadInput(f"hands {text!r} hold {', '.join(map(str, sizes))} tiles; accepted: every hand the same "
                       f"size, 1..{tiles.HAND_SIZE} tiles")
    return hands


def _seat(name: str, value, players: int) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        seat = -1
    if seat < 0 or seat >= players or (isinstance(value, float) and value != seat):
        raise BadInput(f"{name} {value!r} is not a seat; accepted: 0..{players - 1}")
    return seat


def move_name(move) -> str:
    if isinstance(move, tuple):
        return f"{tiles.tile_name(move[0])} calling {move[1]}"
    return tiles.tile_name(move)


def solve_position(setup, hands_text: str, trump_text: str, bidder: int = 0, leader: int = 0) -> Result:
    """The bidder side's tricks under best play from the given hands, and each legal move of the
    leader with the bidder side's tricks after it (tables `solution` and `moves`)."""
    if setup.game != GAME:
        raise BadInput(f"solve works for moon only, not {setup.game!r}; accepted: moon")
    setup.validate()
    table = setup.table
    P, rules = table.players, table.rules
    hands = parse_hands(hands_text, P, table.tile_set_name)
    trump = tiles.parse_trump(trump_text, P, rules)
    bidder = _seat("bidder", bidder, P)
    leader = _seat("leader", leader, P)
    size = len(hands[0])
    first = size == tiles.HAND_SIZE and leader == bidder        # the bidder's opening lead (A-MOON-10)
    sol = solver.solve(hands, trump, rules, bidder, leader, first_lead=first)

    sides = tiles.side_of_seats(P)
    partners = [s for s in range(P) if sides[s] == sides[bidder]]
    side_name = "+".join(map(str, partners))
    mover_on_bidder_side = sides[leader] == sides[bidder]
    rows = [{"move": move_name(m), "tricks": v, "defenders_tricks": size - v,
             "best": v == sol.tricks} for m, v in sol.moves]
    moves = pd.DataFrame(rows, columns=["move", "tricks", "defenders_tricks", "best"])
    moves = moves.sort_values("tricks", ascending=not mover_on_bidder_side, kind="stable").reset_index(drop=True)
    solution = pd.DataFrame([{"bidder": bidder, "bidder_side": side_name, "trump": tiles.trump_words(trump),
                              "leader": leader, "tricks_to_play": size, "tricks": sol.tricks,
                              "defenders_tricks": size - sol.tricks}])
    res = Result(f"Moon: best play ({P} players, {tiles.trump_words(trump)} trump)", {
        "game": GAME, "version": package_version(), "behaviour": behaviour(GAME), "players": P,
        "rules_changed": changed_flags(rules, setup.entry.flags),
        "hands": [" ".join(tiles.tile_name(t) for t in h) for h in hands], "trump": tiles.trump_name(trump),
        "bidder": bidder, "leader": leader, "first_lead": first})
    res.tables["solution"] = solution
    res.tables["moves"] = moves
    best = [move_name(m) for m, v in sol.moves if v == sol.tricks]
    res.findings.append(f"With best play by everyone the bidder's side (seat{'s' if len(partners) > 1 else ''} "
                        f"{side_name}) takes {sol.tricks} of the {size} tricks; seat {leader} leads "
                        f"{' or '.join(best)} to get that.")
    res.notes.append("Exact (a complete search, no sampling): every hand is known and each side plays its best, the "
                     "defenders together against the bidder's side. tricks: the bidder side's tricks from here "
                     "after that move, with best play after it; best marks the leader's best moves.")
    if first and rules.first_lead_trump:
        res.notes.append("moon.first_lead_trump: this is the bidder's opening lead, so a trump must be led if held.")
    return res
