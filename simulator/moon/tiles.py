"""Moon tiles: ids, the tile sets, notation (HISTORY.md), trump encoding, the trumps a bidder may
name, and per-tile lookup arrays (the rules tables are in engine/table.py).

Tile ids (int8, 0..27), chosen so that every tile set is a prefix of the id range:

    ids  0..20  the 21 tiles with both ends in 1..6, by (higher end, lower end) ascending:
                0=1-1, 1=2-1, 2=2-2, 3=3-1, 4=3-2, 5=3-3, 6=4-1, ..., 14=5-5, 15=6-1, ..., 20=6-6
                (id = h*(h-1)/2 + l-1 for 1 <= l <= h <= 6)
    id  21      0-0
    ids 22..27  the other blanks 1-0, 2-0, 3-0, 4-0, 5-0, 6-0 (id = 21 + h)

    no_blanks21 = ids 0..20   (A-MOON-2 variant: 3 players, no widow)
    keep00_22   = ids 0..21   (MOON-1.2: 3 players, 7 tiles each plus a one-tile widow)
    full28      = ids 0..27   (MOON-1.3: 4 players, 7 tiles each)

Notation: ``a-b`` with the higher end first (``6-4``, ``5-5``, ``0-0``); parsing accepts either
order. Trump ids: a number 0..6, ``DOUBLES`` = 7, ``NOTRUMP`` = 8 (names "0".."6", "doubles",
"notrump"). Suit ids (led suits and suit membership): a number 0..6, ``TRUMP_SUIT`` = 7 and
``DOUBLES_SUIT`` = 8 (only used by ``moon.notrump_doubles=own_suit``).
"""
from __future__ import annotations

import re

import numpy as np

from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.moon.rules import Rules, check_players, tile_set_for

N_TILES = 28
HAND_SIZE = 7            # MOON-3.1, MOON-3.2
TRICKS = 7               # MOON-7.3

DOUBLES = 7              # trump id: doubles are trump (MOON-2.1)
NOTRUMP = 8              # trump id: no-trump, "follow me" (MOON-2.1, A-MOON-5)
N_TRUMPS = 9
TRUMP_NAMES = ("0", "1", "2", "3", "4", "5", "6", "doubles", "notrump")        # in files (HISTORY.md)
TRUMP_WORDS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "doubles", "no trump")  # for people
_TRUMP_ALIASES = {"follow-me": NOTRUMP, "follow_me": NOTRUMP, "followme": NOTRUMP, "no-trump": NOTRUMP,
                  "no_trump": NOTRUMP, "double": DOUBLES, **{w: t for t, w in enumerate(TRUMP_WORDS)}}

TRUMP_SUIT = 7           # suit id of the trump suit (MOON-2.4: ledSuit = TRUMP)
DOUBLES_SUIT = 8         # suit id of the doubles in no-trump with moon.notrump_doubles=own_suit
N_SUITS = 9


def _ends_of_id(tile: int) -> tuple[int, int]:
    if tile < 21:
        high = 1
        while high * (high + 1) // 2 <= tile:
            high += 1
        return high, tile - high * (high - 1) // 2 + 1
    if tile == 21:
        return 0, 0
    return tile - 21, 0


TILES: tuple[tuple[int, int], ...] = tuple(_ends_of_id(t) for t in range(N_TILES))  # (higher, lower) per id
_ID_OF = {ends: t for t, ends in enumerate(TILES)}


def tile_id(a: int, b: int) -> int:
    """The id of the tile with ends a and b (either order)."""
    return _ID_OF[(max(a, b), min(a, b))]


def ends(tile: int) -> tuple[int, int]:
    """(higher end, lower end)."""
    return TILES[tile]


def high_end(tile: int) -> int:
    return TILES[tile][0]


def is_double(tile: int) -> bool:
    return TILES[tile][0] == TILES[tile][1]


def has_end(tile: int, number: int) -> bool:
    return number in TILES[tile]


def other_end(tile: int, number: int) -> int:
    """The end that is not ``number`` (for a double, ``number`` itself)."""
    high, low = TILES[tile]
    return low if high == number else high


def tile_name(tile: int) -> str:
    high, low = TILES[tile]
    return f"{high}-{low}"


# ---------------------------------------------------------------------------- tile sets

TILE_SETS: dict[str, np.ndarray] = {
    "no_blanks21": np.arange(21, dtype=np.int8),
    "keep00_22": np.arange(22, dtype=np.int8),
    "full28": np.arange(28, dtype=np.int8),
}
for _ids in TILE_SETS.values():
    _ids.setflags(write=False)

SET_DESCRIPTIONS = {
    "no_blanks21": "the 21-tile set (no_blanks21: every tile with a 0 removed, 0-0 too)",
    "keep00_22": "the 22-tile set (keep00_22: the blanks removed except 0-0)",
    "full28": "the full 28-tile double-six set (full28)",
}


def tile_set(players: int, rules: Rules) -> np.ndarray:
    """Ids of the tiles in play (read-only int8 array, ascending), MOON-1.2/1.3, A-MOON-2."""
    return TILE_SETS[tile_set_for(rules, players)]


def widow_size(players: int, rules: Rules) -> int:
    """1 with three players and the 22-tile set (MOON-3.1), else 0."""
    return len(tile_set(players, rules)) - players * HAND_SIZE


def side_of_seats(players: int) -> list[int]:
    """side[seat]: each player alone with 3 (MOON-8), partners opposite with 4 (MOON-10.1)."""
    check_players(players)
    return [0, 1, 2] if players == 3 else [0, 1, 0, 1]


# ---------------------------------------------------------------------------- parsing

_TILE_RE = re.compile(r"([0-9])-([0-9])")


def parse_tile(text: str) -> int:
    """``"6-4"`` or ``"4-6"`` -> id of 6-4. BadInput for anything else."""
    m = _TILE_RE.fullmatch(text.strip())
    if not m or int(m.group(1)) > 6 or int(m.group(2)) > 6:
        raise BadInput(f"bad tile {short(text)}; accepted: a-b with both ends 0..6, e.g. 6-4 or 5-5")
    return tile_id(int(m.group(1)), int(m.group(2)))


def parse_tiles(text: str) -> list[int]:
    """Tiles separated by spaces and/or commas, in the order given (no checks beyond each tile)."""
    return [parse_tile(t) for t in text.replace(",", " ").split()]


def parse_hand(text: str, players: int, rules: Rules) -> list[int]:
    """A dealt hand such as ``"6-6 6-5 6-4 6-2 5-5 3-3 1-1"`` (commas allowed): 7 distinct tiles of
    the set in use. BadInput names the malformed tile, the duplicate, the tile outside the set, or
    the wrong count."""
    set_name = tile_set_for(rules, players)
    in_set = set(int(t) for t in TILE_SETS[set_name])
    hand: list[int] = []
    for word in text.replace(",", " ").split():
        tile = parse_tile(word)
        if tile in hand:
            raise BadInput(f"tile {tile_name(tile)} appears twice in hand {short(text)}; accepted: "
                           f"{HAND_SIZE} different tiles")
        if tile not in in_set:
            raise BadInput(f"tile {tile_name(tile)} is not in {SET_DESCRIPTIONS[set_name]} used with "
                           f"{players} players; accepted: tiles of that set")
        hand.append(tile)
    if len(hand) != HAND_SIZE:
        raise BadInput(f"hand {short(text)} has {len(hand)} tiles; accepted: exactly {HAND_SIZE} tiles, "
                       f"e.g. \"6-6 6-5 6-4 6-2 5-5 3-3 1-1\"")
    return hand


def trump_name(trump: int) -> str:
    """The trump as files write it: "0".."6", "doubles", "notrump"."""
    return TRUMP_NAMES[trump]


def trump_words(trump: int) -> str:
    """The trump as a player says it: "blanks".."sixes", "doubles", "no trump"."""
    return TRUMP_WORDS[trump]


def contract_words(bid: int, trump: int) -> str:
    """A contract as a player says it: "bid 5 in sixes", "bid 6 at no trump"."""
    return f"bid {bid} {'at' if trump == NOTRUMP else 'in'} {TRUMP_WORDS[trump]}"


# MOON-2.1, MOON-2.6, MOON-10.3, A-MOON-12
def allowed_trumps(players: int, rules: Rules) -> list[int]:
    """Trumps the bidder may name: each number that occurs in the tile set, doubles (3p unless
    moon.allow_doubles_trump=false; 4p only with moon.allow_doubles_trump_4p=true), no-trump.

    A number absent from the set (0 in the 21-tile set) is not offered: it would have no trumps.
    """
    numbers = sorted({end for t in TILE_SETS[tile_set_for(rules, players)] for end in ends(int(t))})
    doubles = rules.allow_doubles_trump if players == 3 else rules.allow_doubles_trump_4p
    return numbers + ([DOUBLES] if doubles else []) + [NOTRUMP]


def parse_trump(text: str, players: int | None = None, rules: Rules | None = None) -> int:
    """``"0"``..``"6"``, ``"doubles"``, ``"notrump"`` (also "follow-me" and the words "blanks".."sixes",
    "no trump") -> trump id.

    With ``players`` and ``rules`` the trump must also be one the bidder may name (MOON-2.1,
    MOON-10.3, A-MOON-12)."""
    key = text.strip().lower()
    if key in TRUMP_NAMES:
        trump = TRUMP_NAMES.index(key)
    elif key in _TRUMP_ALIASES:
        trump = _TRUMP_ALIASES[key]
    else:
        raise BadInput(f"bad trump {short(text)}; accepted: {', '.join(TRUMP_NAMES)} (or in words: "
                       f"{', '.join(TRUMP_WORDS)})")
    if players is not None and rules is not None:
        allowed = allowed_trumps(players, rules)
        if trump not in allowed:
            raise BadInput(f"trump {short(text)} is not allowed with {players} players and these rules; "
                           f"accepted: {', '.join(trump_name(t) for t in allowed)}")
    return trump


# ---------------------------------------------------------------------------- per-tile arrays

HIGH = np.array([t[0] for t in TILES], dtype=np.int8)
LOW = np.array([t[1] for t in TILES], dtype=np.int8)
IS_DOUBLE = HIGH == LOW
