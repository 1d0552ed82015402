"""The pieces a page draws (static/pieces.js) and the explorer's hand picker, from the game's page
parts (its registry entry's `page`; web/ names no game).

A game's page module gives `face(name)`: one piece in HISTORY.md notation as a JSON-safe dict,
the shape static/pieces.js's drawPiece takes:
    name   the notation ("6-5", "R12", "BCUT")
    label  its accessible name in words ("six-five", "red rocket 12", "red Cut the Deck")
    kind   "card" or "tile"
    cards: colour (a CSS hex colour, the card's face), rank (the short text drawn big), suit (a short
           word drawn small), optionally mark (a small shape drawn in the corner: one of MARKS) and
           accent (a hex colour for the rank, where the rank itself names a colour; pieces.js draws it only
           where it reads on the face at 4.5:1, else in the ink)
    tiles: ends [a, b], the pips of each half (0..6)
and `pieces(players=None, rules=None)`: the pieces in play at that table under those rules (the
game's Rules), or with no arguments every piece the notation has."""
from __future__ import annotations

import importlib

from moonshot.simulator.games import Game

# The colours the games' cards are printed in, as drawn (dark enough for white text, but yellow,
# whose text pieces.js draws dark): one palette so that every game's red is the same red.
PALETTE = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f9c80e", "purple": "#6a1b9a",
           "orange": "#ef6c00", "black": "#263238"}
# The same colours as text on the black card (a Hit the Deck card that names a colour): tints that read on
# PALETTE["black"] at 5.7:1 or more (WCAG's 4.5:1 for small text), where the print colours reach 2.3-2.6:1.
ON_BLACK = {"red": "#ff8a80", "green": "#81c784", "blue": "#90caf9", "yellow": "#ffe082"}
MARKS = ("rocket", "crescent", "star", "disc")     # the shapes pieces.js can draw


def faces(entry: Game, names) -> dict[str, dict]:
    """name -> face of each piece named (HISTORY.md notation), as the game's page draws it; a game
    whose page has no face() gets its notation on a plain card."""
    face = getattr(entry.page, "face", None)
    plain = lambda n: {"name": n, "label": n, "kind": "card", "colour": PALETTE["black"], "rank": n, "suit": ""}  # noqa: E731
    return {n: face(n) if face else plain(n) for n in dict.fromkeys(names)}


def in_play(entry: Game, setup) -> list[str]:
    """The pieces in play at the table of `setup` (players and rules) in the picker's order."""
    table = setup.table
    return list(entry.page.pieces(table.players, table.rules))


def picker(entry: Game) -> dict:
    page = entry.page
    from moonshot.analysis.common import make_setup
    shown = in_play(entry, make_setup(entry.name))          # the default table's set; the page asks again on a change
    return {"pieces": shown, "faces": faces(entry, shown), "size": page.HAND_SIZE, "example": page.EXAMPLE,
            "repeats": page.REPEATS, "piece": page.PIECE, "extra_keys": page.KEYS, "seat_orders": seat_orders(entry),
            "fixed_orders": page.FIXED_ORDERS, "explorer": entry.hand_analyzer is not None, "check": check(entry),
            "partners": partner_sizes(entry), "always_partners": [p for p in getattr(page, "ALWAYS_PARTNERS", ())
                                                                  if p in entry.players]}


def partner_sizes(entry: Game) -> list[int]:
    """The table sizes that may be played in partnerships (--partners): the form's box is offered there only."""
    from moonshot.analysis.common import make_setup
    from moonshot.simulator.errors import BadInput
    sizes = []
    for players in entry.players:
        try:
            make_setup(entry.name, players, True)
            sizes.append(players)
        except BadInput:
            pass
    return sizes


def check(entry: Game) -> dict | None:
    """The explorer's check field (analysis.hand_check): the search player and its default deals by
    table size, or None where the game's hand analyzer has no check."""
    from moonshot.analysis.hand_check import PAGE_MAX, spec_of
    spec = spec_of(entry.hand_analyzer) if entry.hand_analyzer is not None else None
    if spec is None:
        return None
    return {"strong": spec.strong, "max": PAGE_MAX,
            "defaults": ", ".join(f"{d:,} at {p} players" for p, d in sorted(spec.deals.items()) if p in entry.players)}


def seat_orders(entry: Game) -> list[str]:
    return list(getattr(importlib.import_module(entry.analysis), "SEAT_ORDERS", ("first",)))
