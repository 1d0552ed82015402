"""Shoot the Moon deck, notation (HISTORY.md) and the table layout (sides, play order).

Card ids (int8): numbered card = suit * 12 + (number - 1) with suits R=0, G=1, P=2, B=3
(ids 0..47); Big Moons 48, 49; Little Moons 50, 51.
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.shoot_the_moon.rules import Rules

SUITS = "RGPB"
RED = 0
MOON_SUIT = 4           # SUIT[] value of the two kinds of Moon card (they have no suit)
BIG_MOONS = (48, 49)
LITTLE_MOONS = (50, 51)
DECK_SIZE = 52
HAND_SIZE = 5
TRICKS = 5


def suit(card: int) -> int:
    return card // 12 if card < 48 else MOON_SUIT


def number(card: int) -> int:
    """1..12 for numbered cards, 0 for Moon cards."""
    return card % 12 + 1 if card < 48 else 0


def is_big(card: int) -> bool:
    return card in BIG_MOONS


def is_little(card: int) -> bool:
    return card in LITTLE_MOONS


def card_name(card: int) -> str:
    if card in BIG_MOONS:
        return "BM"
    if card in LITTLE_MOONS:
        return "LM"
    return f"{SUITS[suit(card)]}{number(card)}"


def parse_card(text: str, taken: set[int] | None = None) -> int:
    """Parse HISTORY.md notation; the two BM (LM) names map to ids 48/49 (50/51) in turn."""
    if not isinstance(text, str):
        raise BadInput(f"card {short(text)} is not a string; accepted: R1..R12, G1..G12, P1..P12, B1..B12, BM, LM")
    t = text.strip().upper()
    if t in ("BM", "LM"):
        pair = BIG_MOONS if t == "BM" else LITTLE_MOONS
        for c in pair:
            if taken is None or c not in taken:
                return c
        raise BadInput(f"card {short(text)} appears more than twice; the deck has two {t}")
    if len(t) >= 2 and t[0] in SUITS and t[1:].isdigit() and 1 <= int(t[1:]) <= 12:
        return SUITS.index(t[0]) * 12 + int(t[1:]) - 1
    raise BadInput(f"bad card {short(text)}; accepted: R1..R12, G1..G12, P1..P12, B1..B12, BM, LM")


def parse_cards(texts: list[str]) -> list[int]:
    taken: set[int] = set()
    out = []
    for t in texts:
        c = parse_card(t, taken)
        if c in taken:
            raise BadInput(f"card {short(t)} appears twice")
        taken.add(c)
        out.append(c)
    return out


# Lookup tables indexed by card id.
SUIT = np.array([suit(c) for c in range(DECK_SIZE)], dtype=np.int8)
NUMBER = np.array([number(c) for c in range(DECK_SIZE)], dtype=np.int8)
IS_BIG = np.array([is_big(c) for c in range(DECK_SIZE)])
IS_LITTLE = np.array([is_little(c) for c in range(DECK_SIZE)])
IS_MOON = IS_BIG | IS_LITTLE


def hands_dealt(players: int) -> int:
    """Hands dealt per round: one per player, plus the dummy with two players (STM-10.1)."""
    return 3 if players == 2 else players


def dummy_seat(players: int) -> int | None:
    """The dummy plays as seat index `players` (HISTORY.md); None when there is no dummy."""
    return players if players == 2 else None


def side_of_seats(players: int, partners: bool, rules: Rules) -> list[int]:
    """side[seat] for every player seat (STM-2.2); the dummy belongs to no side."""
    if not partners:
        return list(range(players))
    if players == 4:
        return [0, 1, 0, 1]
    if players == 6:
        if rules.six_player_teams == "three_teams_of_two":
            return [0, 1, 2, 0, 1, 2]
        return [0, 1, 0, 1, 0, 1]
    raise BadInput(f"--partners needs 4 or 6 players, got {players}")


def play_order(players: int, dealer: int, leader: int) -> list[int]:
    """Seats in the order they play a trick led by `leader` (STM-4.2, STM-10.2, STM-10.4)."""
    if players != 2:
        return [(leader + i) % players for i in range(players)]
    non_dealer, dummy = 1 - dealer, 2
    if leader == dummy:
        return [dummy, non_dealer, dealer]
    return [leader, 1 - leader, dummy]


def first_leader(players: int, dealer: int) -> int:
    """The player on the dealer's left leads (STM-4.1); with two players, the non-dealer."""
    return (dealer + 1) % players


def validate_table(players: int, partners: bool) -> None:
    if not 2 <= players <= 6:
        raise BadInput(f"--players {players} is out of range; accepted: 2..6")
    if partners and players not in (4, 6):
        raise BadInput(f"--partners needs 4 or 6 players, got {players}; accepted: --players 4 or 6")
