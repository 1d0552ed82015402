"""The types a hand record's fields are checked against (simulator/record_check.py reads and checks;
each game's history module declares its keys with these: its SCHEMA, field -> type, and its
WHOLE_GAMES hook). A type's `check` raises Wrong naming the field's path and what is accepted;
bounds may follow the record's table (its Seating: seats, sides, hands dealt)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

SCORE_MAX = 10_000          # |a game score|, chips or points: far past any target, inside the engines' int16
NAME = re.compile(r"[\w.]{1,64}")     # a rules flag's or a reaction parameter's name


@dataclass(frozen=True)
class Seating:
    """What a record's own keys say of its table, which other keys' lengths and ranges follow."""
    players: int
    sides: int                       # side count: max(sides) + 1
    hands: int                       # hands dealt (Shoot the Moon's dummy is one more with two players)
    rules: Any = None                # the game's Rules, as parsed from the record


class Wrong(Exception):
    """A value its place does not accept; `path` grows as the check unwinds ("[2]", then "plays[2]")."""

    def __init__(self, path: str, value, accepted: str):
        super().__init__(path)
        self.path, self.value, self.accepted = path, value, accepted

    def inside(self, step: str) -> "Wrong":
        self.path = step + self.path
        return self


Bound = int | Callable[[Seating], int]


def _at(bound: Bound, t: Seating) -> int:
    return bound(t) if callable(bound) else bound


class Type:
    """A field's type: `check` raises Wrong naming the path and what is accepted."""
    what: str | Callable[[Seating], str] = ""

    def says(self, t: Seating) -> str:
        return self.what(t) if callable(self.what) else self.what

    def check(self, value, t: Seating) -> None:
        raise NotImplementedError

    def fits(self, value, t: Seating) -> bool:
        try:
            self.check(value, t)
        except Wrong:
            return False
        return True


class Int(Type):
    """An integer lo..hi (bounds may follow the table); never a bool, a float or a string."""

    def __init__(self, lo: Bound, hi: Bound, what: str | Callable | None = None):
        self.lo, self.hi = lo, hi
        self.what = what or (lambda t: f"an integer {_at(lo, t)}..{_at(hi, t)}")

    def check(self, value, t):
        if type(value) is not int or not _at(self.lo, t) <= value <= _at(self.hi, t):
            raise Wrong("", value, self.says(t))


class Num(Type):
    """A finite number (an integer or a decimal), never a bool."""
    what = "a finite number"

    def check(self, value, t):
        if type(value) not in (int, float):
            raise Wrong("", value, self.says(t))


class Bool(Type):
    what = "true or false"

    def check(self, value, t):
        if type(value) is not bool:
            raise Wrong("", value, self.says(t))


class Text(Type):
    """A string of at most `most` characters matching `pattern` (or one of `choices`)."""

    def __init__(self, what: str, pattern: str = r"[A-Za-z0-9-]{1,8}", choices: tuple = ()):
        self.what, self.choices = what, choices
        self.pattern = re.compile(pattern)

    def check(self, value, t):
        if not isinstance(value, str) or not (value in self.choices if self.choices else self.pattern.fullmatch(value)):
            raise Wrong("", value, self.says(t))


def choice(*values: str) -> Text:
    return Text(" or ".join(values), choices=values)


class Const(Type):
    def __init__(self, value):
        self.value, self.what = value, json.dumps(value)

    def check(self, value, t):
        if type(value) is not type(self.value) or value != self.value:
            raise Wrong("", value, self.says(t))


class Maybe(Type):
    """The type, or null."""

    def __init__(self, inner: Type):
        self.inner = inner
        self.what = lambda t: f"{inner.says(t)}, or null"

    def check(self, value, t):
        if value is not None:
            if not self.inner.fits(value, t):
                raise Wrong("", value, self.says(t))


class Either(Type):
    def __init__(self, *types: Type, what: str | None = None):
        self.types = types
        self.what = what or (lambda t: " or ".join(x.says(t) for x in types))

    def check(self, value, t):
        if not any(x.fits(value, t) for x in self.types):
            raise Wrong("", value, self.says(t))


class List(Type):
    """A list of `n` (exactly) or at most `most` items, each of type `item`."""

    def __init__(self, item: Type, n: Bound | None = None, most: Bound | None = None, what=None):
        self.item, self.n, self.most = item, n, most
        self.what = what or (lambda t: f"a list of {_count(n, most, t)}: {item.says(t)}")

    def check(self, value, t):
        if not isinstance(value, list):
            raise Wrong("", value, self.says(t))
        if (self.n is not None and len(value) != _at(self.n, t)) or \
                (self.most is not None and len(value) > _at(self.most, t)):
            raise Wrong("", value, self.says(t) + f" ({len(value):,} given)")
        for i, item in enumerate(value):
            try:
                self.item.check(item, t)
            except Wrong as wrong:             # the path is built only for the value refused
                raise wrong.inside(f"[{i}]") from None


def _count(n, most, t) -> str:
    return str(_at(n, t)) if n is not None else f"at most {_at(most, t):,}" if most is not None else "any length"


class Row(Type):
    """A fixed-length list, each place its own type: [seat, card]."""

    def __init__(self, *items: Type, what: str | None = None):
        self.items = items
        self.what = what or (lambda t: "[" + ", ".join(x.says(t) for x in items) + "]")

    def check(self, value, t):
        if not isinstance(value, list) or len(value) != len(self.items):
            raise Wrong("", value, self.says(t))
        for i, (item, kind) in enumerate(zip(value, self.items)):
            try:
                kind.check(item, t)
            except Wrong as wrong:
                raise wrong.inside(f"[{i}]") from None


class Tagged(Type):
    """A list whose first item names its kind, the rest typed by kind: Hit the Deck's events."""

    def __init__(self, kinds: dict[str, tuple[Type, ...]], what: str):
        self.kinds = {k: Row(Const(k), *rest) for k, rest in kinds.items()}
        self.what = what

    def check(self, value, t):
        kind = value[0] if isinstance(value, list) and value and isinstance(value[0], str) else None
        if kind not in self.kinds:
            raise Wrong("", value, f"{self.says(t)}: a list starting with one of {', '.join(self.kinds)}")
        row = self.kinds[kind]
        if len(value) != len(row.items):
            raise Wrong("", value, row.says(t))
        row.check(value, t)


class Map(Type):
    """A JSON object of at most `most` keys (short names), each value of type `value`."""

    def __init__(self, value: Type, most: int = 64, what: str | None = None):
        self.value, self.most = value, most
        self.what = what or (lambda t: f"an object of at most {most} keys, each {value.says(t)}")

    def check(self, value, t):
        if not isinstance(value, dict) or len(value) > self.most:
            raise Wrong("", value, self.says(t))
        for key, item in value.items():
            if not NAME.fullmatch(key):
                raise Wrong(" key", key, "a flag or parameter name")
            try:
                self.value.check(item, t)
            except Wrong as wrong:
                raise wrong.inside(f".{key}") from None


SEAT = Int(0, lambda t: t.players - 1, what=lambda t: f"a seat 0..{t.players - 1}")
SIDE = Int(0, lambda t: t.sides - 1, what=lambda t: f"a side 0..{t.sides - 1}")
SCORE = Int(-SCORE_MAX, SCORE_MAX, what=f"an integer score -{SCORE_MAX:,}..{SCORE_MAX:,}")
PER_SIDE = List(SCORE, lambda t: t.sides, what=lambda t: f"a list of {t.sides} integers, one per side")
SCALAR = Either(Num(), Bool(), Const(None), Text("text", r"[^<>&\"'`]{0,200}"),
                what="a number, true, false, null or text of at most 200 characters")


# ---------------------------------------------------------------------------- a game's declaration

@dataclass(frozen=True)
class Schema:
    """A game's record keys (HISTORY.md) as types, and how its table follows from a record."""
    fields: dict[str, Type]                         # the game's keys: required unless optional
    rules: Callable[[list[str], int], Any]          # the Rules from a record's k=v texts and seat count
    rules_dict: Callable[[Any, int], dict]          # the Rules as the game writes them in a record
    sides: Callable[[int, Any], list[list[int]]]    # the `sides` lists a table of that size may have
    hands: Callable[[int], int] = lambda players: players   # hands dealt
    optional: frozenset = frozenset()


UNKNOWN = object()      # what a game's hand before this one left unknown (a later hand read alone)


@dataclass(frozen=True)
class WholeGames:
    """What a game's whole-games keys follow from (HISTORY.md "Whole games"), by its rules."""
    start: Callable[[Seating], list[int]]           # every side's score before the game's first hand
    change: Callable[[dict], list[int]]             # a (checked) hand's change to each side's score
    # the outcomes the rules allow after the hand (None: play on; else the winning sides, sorted),
    # given what the game's hands before left (`carry`: None at the start, UNKNOWN when not read),
    # and what this hand leaves for the next
    ends: Callable[[dict, Seating, Any], tuple[list, Any]]
    next_hand: Callable[[dict, Seating], dict]      # keys the game's next hand must have (whose deal)
    cap: int                                        # the engine's cap on a game's hands (winners [] there)
    rule: Callable[[dict], str]                     # the rules' ids for the end of the game after the hand
    same: tuple[tuple[str, str], ...] = ()          # keys equal to the scores (Shoot the Moon's chips)
