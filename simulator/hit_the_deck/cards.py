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

from moonshot.simulator.errors import BadInput

COLOURS = "RGBY"          # notation letters; htd.colours renames colours for display only (P8)
N_KINDS = 38
NONE = -1
DRAW = 38                 # a chooser's answer "draw / keep the drawn card instead of playing"
DECK_SIZE = 110
HAND_SIZE = 7

NUMBER, CUT, FLIP, HTD_N, HTD_C, HTD_H = range(6)      # CLASS values
HH = 37
NO_DEMAND = -1


def number_card(colour: int, value: int) -> int:
    return colour * 7 + value - 1


def cut(colour: int) -> int:
    return colour * 7 + 5


def flip(colour: int) -> int:
    return colour * 7 + 6


def htd_n(value: int) -> int:
    return 28 + value - 1


def htd_c(colour: int) -> int:
    return 33 + colour


def _class(kind: int) -> int:
    if kind < 28:
        return (NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, CUT, FLIP)[kind % 7]
    if kind < 33:
        return HTD_N
    return HTD_C if kind < 37 else HTD_H


def _colour(kind: int) -> int:
    return kind // 7 if kind < 28 else -1          # HTD cards have no colour (HTD-1.2)


def _value(kind: int) -> int:
    if kind < 28:
        return kind % 7 + 1 if kind % 7 < 5 else 0
    return kind - 27 if kind < 33 else 0


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
        return f"HC{COLOURS[kind - 33]}"
    return "HH"


NAMES = tuple(name(k) for k in range(N_KINDS))
_BY_NAME = {n: k for k, n in enumerate(NAMES)}
ACCEPTED = "R1..R5, G1..G5, B1..B5, Y1..Y5, RCUT..YCUT, RFLIP..YFLIP, HN1..HN5, HCR/HCG/HCB/HCY, HH"


def parse_card(text: str) -> int:
    """A kind id from HISTORY.md notation (case-insensitive); BadInput for anything else."""
    if not isinstance(text, str):
        raise BadInput(f"card {text!r} is not a string; accepted: {ACCEPTED}")
    kind = _BY_NAME.get(text.strip().upper())
    if kind is None:
        raise BadInput(f"unknown card {text!r}; accepted: {ACCEPTED}")
    return kind


def deck_counts(rules) -> np.ndarray:
    """(38,) copies of each kind in the deck under ``rules`` (HTD-1.1, htd.htd_number_values): 110."""
    counts = np.zeros(N_KINDS, dtype=np.int16)
    for c in range(4):
        for v in range(1, 6):
            counts[number_card(c, v)] = 4
        counts[cut(c)] = 2
        counts[flip(c)] = 1
        counts[htd_c(c)] = 1                       # htd.htd_colour_values: one per colour (M3)
    for v in rules.htd_number_values:
        counts[htd_n(v)] += 1
    counts[HH] = 4
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
            raise BadInput(f"hand {text!r} holds {n} x {NAMES[kind]}; the deck has {counts[kind]}")
    if size is not None and len(kinds) != size:
        raise BadInput(f"hand {text!r} has {len(kinds)} cards; accepted: exactly {size} cards")
    return kinds


# Lookup arrays indexed by kind id.
COLOUR = np.array([_colour(k) for k in range(N_KINDS)], dtype=np.int8)
VALUE = np.array([_value(k) for k in range(N_KINDS)], dtype=np.int8)
CLASS = np.array([_class(k) for k in range(N_KINDS)], dtype=np.int8)
PENALTY = np.array([_value(k) if _class(k) == NUMBER else 10 for k in range(N_KINDS)], dtype=np.int8)
# §C.14 false-slap kind of a card event: 0 number, 1 word, 2 HTD-N or HTD-C, -1 HTD-H (it has a slap)
SLAP_KIND = np.array([{NUMBER: 0, CUT: 1, FLIP: 1, HTD_N: 2, HTD_C: 2, HTD_H: -1}[_class(k)]
                      for k in range(N_KINDS)], dtype=np.int8)


def demand_name(demand: int) -> str:
    """``none``, ``Number(4)``, ``Colour(G)``."""
    if demand < 0:
        return "none"
    if demand < 5:
        return f"Number({demand + 1})"
    return f"Colour({COLOURS[demand - 5]})"
