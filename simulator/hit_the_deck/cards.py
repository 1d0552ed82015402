"""Hit the Deck card kinds, the deck (HTD-1), notation (HISTORY.md) and lookup arrays.

Copies of a kind are indistinguishable, so a card is its kind id (0..37):

* number card, colour c (R=0, G=1, B=2, Y=3), value v in 1..5: ``c*7 + (v-1)``
* Cut of colour c: ``c*7 + 5``; Flip of colour c: ``c*7 + 6``
* HTD-N(v): ``28 + (v-1)``; HTD-C(c): ``33 + c``; HTD-H: ``37``

Demand encoding (reference, engine and views alike): ``-1`` none, ``v-1`` (0..4) for Number(v),
``5 + c`` (5..8) for Colour(c).
"""
from __future__ import annotations

import re
from collections import Counter

import numpy as np

from moonshot.simulator.errors import BadInput, short

COLOURS = "RGBY"          # notation letters; htd.colours renames colours for display only (P8)
N_COLOURS = len(COLOURS)
N_VALUES = 5              # number cards and HTD-N cards come in values 1..5 (HTD-1.1)

# The kind layout (module docstring): each colour owns a run of KINDS_PER_COLOUR kinds, its five
# numbers then its Cut and its Flip; the colourless Hit the Deck cards follow the four runs.
KINDS_PER_COLOUR = N_VALUES + 2           # numbers 1..5, the Cut, the Flip
CUT_SLOT, FLIP_SLOT = N_VALUES, N_VALUES + 1     # where a colour's Cut and Flip sit in its run
HTD_N_BASE = N_COLOURS * KINDS_PER_COLOUR      # 28: HTD-N(1..5) right after the coloured runs
HTD_C_BASE = HTD_N_BASE + N_VALUES             # 33: HTD-C of each colour
HH = HTD_C_BASE + N_COLOURS                    # 37: HTD-H, the last kind
N_KINDS = HH + 1                               # 38
NONE = -1
# a chooser's answer "draw / keep the drawn card instead of playing": the column after the kinds
DRAW = N_KINDS
HAND_SIZE = 7             # cards dealt to each seat (HTD-2.2)

NUMBER, CUT, FLIP, HTD_N, HTD_C, HTD_H = range(6)      # CLASS values
# Demand codes: v - 1 (0..4) for Number(v), COLOUR_DEMAND + c (5..8) for Colour(c)
COLOUR_DEMAND = N_VALUES
N_DEMANDS = COLOUR_DEMAND + N_COLOURS           # 9 demand codes, so 38 + 9 = 47 legal-play situations

# Copies of each kind in the deck (HTD-1.1): 4 x 20 numbers + 2 x 4 Cuts + 1 x 4 Flips + one
# HTD-C per colour + HTD-H x 4 = 100, and one HTD-N per value htd.htd_number_values lists (10 by default)
NUMBER_COPIES, CUT_COPIES, FLIP_COPIES, HTD_C_COPIES, HH_COPIES = 4, 2, 1, 1, 4
DECK_SIZE = 110           # the whole deck under the default htd.htd_number_values
# points a Cut, a Flip or any Hit the Deck card counts in hand (a number counts its value, HTD-7.2)
WORD_PENALTY = 10

# Penalty draws (P7: each draw after any reshuffle)
SLAP_PENALTY_CARDS = 4    # the slowest hand in a slap race, or a forgotten shout that is noticed (A-HTD-7)
FALSE_SLAP_PENALTY_CARDS = 2   # a false slap on a card that has none (§C.14)


def number_card(colour: int, value: int) -> int:
    return colour * KINDS_PER_COLOUR + value - 1


def cut(colour: int) -> int:
    return colour * KINDS_PER_COLOUR + CUT_SLOT


def flip(colour: int) -> int:
    return colour * KINDS_PER_COLOUR + FLIP_SLOT


def htd_n(value: int) -> int:
    return HTD_N_BASE + value - 1


def htd_c(colour: int) -> int:
    return HTD_C_BASE + colour


def _class(kind: int) -> int:
    if kind < HTD_N_BASE:
        slot = kind % KINDS_PER_COLOUR
        return NUMBER if slot < N_VALUES else (CUT if slot == CUT_SLOT else FLIP)
    if kind < HTD_C_BASE:
        return HTD_N
    return HTD_C if kind < HH else HTD_H


def _colour(kind: int) -> int:
    return kind // KINDS_PER_COLOUR if kind < HTD_N_BASE else -1          # HTD cards have no colour (HTD-1.2)


def _value(kind: int) -> int:
    if kind < HTD_N_BASE:
        slot = kind % KINDS_PER_COLOUR
        return slot + 1 if slot < N_VALUES else 0
    return kind - HTD_N_BASE + 1 if kind < HTD_C_BASE else 0


def name(kind: int) -> str:
    """HISTORY.md notation: ``R3``, ``RCUT``, ``YFLIP``, ``HN3``, ``HCG``, ``HH``."""
    if not 0 <= kind < N_KINDS:
        raise ValueError(f"no card kind {kind}")
    cls = _class(kind)
    if cls == NUMBER:
        return f"{COLOURS[_colour(kind)]}{_value(kind)}"
    if cls == CUT:
        return f"{COLOURS[_colour(kind)]}CUT"
    if cls == FLIP:
        return f"{COLOURS[_colour(kind)]}FLIP"
    if cls == HTD_N:
        return f"HN{_value(kind)}"
    if cls == HTD_C:
        return f"HC{COLOURS[kind - HTD_C_BASE]}"
    return "HH"


NAMES = tuple(name(k) for k in range(N_KINDS))
_BY_NAME = {n: k for k, n in enumerate(NAMES)}
ACCEPTED = "R1..R5, G1..G5, B1..B5, Y1..Y5, RCUT..YCUT, RFLIP..YFLIP, HN1..HN5, HCR/HCG/HCB/HCY, HH"


def parse_card(text: str) -> int:
    """A kind id from HISTORY.md notation (case-insensitive); BadInput for anything else."""
    if not isinstance(text, str):
        raise BadInput(f"card {short(text)} is not a string; accepted: {ACCEPTED}")
    kind = _BY_NAME.get(text.strip().upper())
    if kind is None:
        raise BadInput(f"unknown card {short(text)}; accepted: {ACCEPTED}")
    return kind


def deck_counts(rules) -> np.ndarray:
    """(38,) copies of each kind in the deck under ``rules`` (HTD-1.1, htd.htd_number_values): 110."""
    counts = np.zeros(N_KINDS, dtype=np.int16)
    for c in range(N_COLOURS):
        for v in range(1, N_VALUES + 1):
            counts[number_card(c, v)] = NUMBER_COPIES
        counts[cut(c)] = CUT_COPIES
        counts[flip(c)] = FLIP_COPIES
        counts[htd_c(c)] = HTD_C_COPIES            # htd.htd_colour_values: one per colour (M3)
    for v in rules.htd_number_values:
        counts[htd_n(v)] += 1
    counts[HH] = HH_COPIES
    return counts


def deck_list(rules) -> list[int]:
    """The deck as a sorted list of kind ids (110 entries)."""
    return [k for k, n in enumerate(deck_counts(rules).tolist()) for _ in range(n)]


def parse_hand(text: str, rules, size: int | None = None) -> list[int]:
    """Kinds from ``"R3 R5 G2 BCUT YFLIP HN3 HH"`` (spaces or commas); BadInput for an unknown
    card, more copies of a kind than the deck holds, or not exactly ``size`` cards."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    kinds = [parse_card(w) for w in words]
    counts = deck_counts(rules)
    for kind, n in Counter(kinds).items():
        if n > counts[kind]:
            raise BadInput(f"hand {short(text)} holds {n} x {NAMES[kind]}; the deck has {counts[kind]}")
    if size is not None and len(kinds) != size:
        raise BadInput(f"hand {short(text)} has {len(kinds)} cards; accepted: exactly {size} cards")
    return kinds


# Lookup arrays indexed by kind id.
COLOUR = np.array([_colour(k) for k in range(N_KINDS)], dtype=np.int8)
VALUE = np.array([_value(k) for k in range(N_KINDS)], dtype=np.int8)
CLASS = np.array([_class(k) for k in range(N_KINDS)], dtype=np.int8)
PENALTY = np.array([_value(k) if _class(k) == NUMBER else WORD_PENALTY for k in range(N_KINDS)], dtype=np.int8)
# §C.14 false-slap kind of a card event: 0 number, 1 word, 2 HTD-N or HTD-C, -1 HTD-H (it has a slap)
SLAP_KIND = np.array([{NUMBER: 0, CUT: 1, FLIP: 1, HTD_N: 2, HTD_C: 2, HTD_H: -1}[_class(k)]
                      for k in range(N_KINDS)], dtype=np.int8)


def demand_name(demand: int) -> str:
    """``none``, ``number 4``, ``colour G``: as a player says it (replays, the play page, errors)."""
    if demand < 0:
        return "none"
    if demand < COLOUR_DEMAND:
        return f"number {demand + 1}"
    return f"colour {COLOURS[demand - COLOUR_DEMAND]}"
