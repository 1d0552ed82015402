"""The hand picker of a game's explorer: the pieces a hand is picked from (HISTORY.md notation),
the example hand and the seat orders, from the game's page parts (its registry entry's `page`)."""
from __future__ import annotations

import importlib

from moonshot.simulator.games import Game


def picker(entry: Game) -> dict:
    page = entry.page
    return {"pieces": page.pieces(), "size": page.HAND_SIZE, "example": page.EXAMPLE, "repeats": page.REPEATS,
            "piece": page.PIECE, "extra_keys": page.KEYS, "seat_orders": seat_orders(entry),
            "fixed_orders": page.FIXED_ORDERS, "explorer": entry.hand_analyzer is not None}


def seat_orders(entry: Game) -> list[str]:
    return list(getattr(importlib.import_module(entry.analysis), "SEAT_ORDERS", ("first",)))
