"""The pieces a hand is picked from, per game, in HISTORY.md notation (the picker's buttons)."""
from __future__ import annotations

import importlib

from moonshot.simulator.games import GAMES

# game -> (hand size, example hand): the examples are the README's
EXAMPLES = {"shoot-the-moon": (5, "R12 R7 BM G3 P5"), "moon": (7, "6-6 6-5 6-4 6-2 5-5 3-3 1-1"),
            "hit-the-deck": (7, "R3 R5 G2 BCUT YFLIP HN3 HH")}
REPEATS = {"shoot-the-moon": True, "moon": False, "hit-the-deck": True}   # may a hand hold two of one name


def pieces(game: str) -> list[str]:
    if game == "moon":
        from moonshot.simulator.moon import tiles as dominoes
        return sorted((dominoes.tile_name(i) for i in range(dominoes.N_TILES)), key=lambda s: (-int(s[0]), -int(s[2])))
    if game == "shoot-the-moon":
        from moonshot.simulator.shoot_the_moon import cards as deck
        return list(dict.fromkeys(deck.card_name(i) for i in range(deck.DECK_SIZE)))
    from moonshot.simulator.hit_the_deck import cards
    return list(cards.NAMES)


def seat_orders(game: str) -> list[str]:
    return list(importlib.import_module(GAMES[game].analysis).SEAT_ORDERS)


def picker(game: str) -> dict:
    size, example = EXAMPLES[game]
    return {"pieces": pieces(game), "size": size, "example": example, "repeats": REPEATS[game],
            "seat_orders": seat_orders(game), "fixed_orders": game == "moon"}
