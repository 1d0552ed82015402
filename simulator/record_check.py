"""Every hand record's fields checked against HISTORY.md's types, in one place: `moonshot replay`,
`moonshot record`, the review, the Replay page and the library all read records through here
(simulator/histories.replayed; typed records through simulator/records.parse).

A record's line is read with bounds (its length, nesting depth, an integer's digits, finite numbers
only), then each key is checked against a small declarative type: the keys every game shares
(COMMON, below) and the game's own (its history module's SCHEMA: field -> type). Ints are ints
(not floats such as -0.0, not bools, not strings), lists are lists of their length, seats are
seats of the record's table. A wrong value is one BadInput line naming the field and what is
accepted; the game's replay then checks the hand against its rules, and histories.GameThreads the
whole-games keys against the rules (each game's WHOLE_GAMES hook, declared here).
"""
from __future__ import annotations

import json
import math
import re

from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.games import strategies_of
from moonshot.simulator.record_types import (PER_SIDE, SCALAR, SIDE, Bool, Const, Int, List, Map, Schema, Seating,
                                             Type, WholeGames, Wrong)

MAX_LINE = 16 * 2 ** 20     # characters of one record's line (a 10,000-turn Hit the Deck hand is well under 1 MiB)
MAX_DEPTH = 32              # nesting of lists and objects (HISTORY.md's keys go 4 deep)
MAX_DIGITS = 40             # digits of one integer (a seed of 128 bits has 39)
ID_MAX = 2 ** 63 - 1        # hand_id, game_id: what an int64 column holds
SEED_MAX = 2 ** 128 - 1
STRATEGY_SPEC = re.compile(r"^[\w .:=,/\\+\-()\[\]@~]{1,200}$")     # no markup character: pages show specs
PERSON = "person"           # the play page's seat (web/play/common.PERSON)
HISTORY = "HISTORY.md"


# ---------------------------------------------------------------------------- reading a line

def _refuse_constant(name: str):
    raise _Unreadable(f"{name} is not a number a record may hold; accepted: finite numbers")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"an integer of {len(text.lstrip('-')):,} digits; accepted: at most {MAX_DIGITS} digits")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Unreadable(f"{short(text)} is not a finite number; accepted: finite numbers")
    return value


class _Unreadable(Exception):
    """A value JSON allows but a record never holds (a reason; the caller names where)."""


def load(line: str, where: str) -> dict:
    """One JSON line as a record (a JSON object), or BadInput naming `where` and what is accepted:
    no NaN or Infinity, no integer over MAX_DIGITS digits, nesting at most MAX_DEPTH deep."""
    if len(line) > MAX_LINE:
        raise BadInput(f"{where}: a line of {len(line):,} characters; accepted: at most {MAX_LINE:,} per hand "
                       f"(JSON lines as in {HISTORY})")
    try:
        record = json.loads(line, parse_constant=_refuse_constant, parse_int=_integer, parse_float=_real)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{where}: not JSON ({exc.msg}); accepted: JSON lines as in {HISTORY}") from None
    except RecursionError:
        raise BadInput(f"{where}: values nested too deep; accepted: at most {MAX_DEPTH} levels ({HISTORY})") from None
    except _Unreadable as exc:
        raise BadInput(f"{where}: {exc} ({HISTORY})") from None
    if not isinstance(record, dict):
        raise BadInput(f"{where}: not a JSON object; accepted: JSON lines as in {HISTORY}")
    _nesting(record, where)
    return record


def _nesting(record: dict, where: str) -> None:
    """BadInput when lists and objects nest more than MAX_DEPTH deep (walked without recursion: a
    record's values meet recursive code later, its comparisons, json.dumps and repr among them)."""
    stack = [(record, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadInput(f"{where}: values nested more than {MAX_DEPTH} deep; accepted: at most {MAX_DEPTH} "
                           f"levels ({HISTORY})")
        stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)
                     if isinstance(v, (list, dict)))


# ---------------------------------------------------------------------------- the shared keys

GAME_KEYS = ("game_id", "hand_in_game", "scores_before", "scores_after", "game_over")
WHOLE = {"game_id": Int(0, ID_MAX), "hand_in_game": Int(0, 10 ** 6), "scores_before": PER_SIDE,
         "scores_after": PER_SIDE, "game_over": Bool()}
WINNERS = List(SIDE, most=lambda t: t.sides, what=lambda t: f"a list of sides 0..{t.sides - 1}, each once")


def rule_text(value) -> str:
    """A flag's value as k=v text reads it back."""
    if value is None:
        return "off"
    return str(value).lower() if isinstance(value, bool) else str(value)


def check(record: dict, where: str):
    """(the game's registry entry, the record's Seating) when every key has its HISTORY.md type,
    else BadInput: `where: key value is not accepted; accepted: ...`."""
    return _named(_check, record, where)


def common(record: dict, where: str):
    """The registry entry, the keys every game shares checked (a typed record before its game's keys)."""
    return _named(_common, record, where)[0]


def _named(run, record, where: str):
    try:
        return run(record)
    except Wrong as exc:
        raise BadInput(f"{where}: {exc.path} {short(exc.value)} is not accepted; accepted: {exc.accepted} "
                       f"({HISTORY})") from None
    except BadInput as exc:
        raise BadInput(f"{where}: {exc}") from None


def _common(record: dict):
    from moonshot.simulator.games import GAMES
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise Wrong("game", name, f"one of {', '.join(GAMES)}")
    entry = GAMES[name]
    schema = getattr(entry.module("history"), "SCHEMA", None)
    _need(record, "format", Const(1), None)
    _need(record, "hand_id", Int(0, ID_MAX, what="an integer >= 0, unique within the file"), None)
    if schema is None:                    # a game that declares no schema: the shared keys it has
        players = _need(record, "players", Int(1, 64), None) if "players" in record else 0
        if "rules" in record:
            _need(record, "rules", Map(SCALAR), None)
        seating, rules = Seating(players, players, players), None
    else:
        players = _need(record, "players", Int(min(entry.players), max(entry.players),
                                                what=f"a seat count: {', '.join(map(str, entry.players))}"), None)
        if players not in entry.players:
            raise Wrong("players", players, f"a table size of {entry.name}: {', '.join(map(str, entry.players))}")
        rules = _rules(record, schema, players)
        seating = Seating(players, players, schema.hands(players), rules)
    if "sides" in record or schema is not None:
        sides = _need(record, "sides", List(Int(0, players - 1), n=players), seating)
        if schema is not None and sides not in (allowed := schema.sides(players, rules)):
            raise Wrong("sides", sides, " or ".join(map(str, allowed)) + f" at {players} players")
        seating = Seating(players, max(sides, default=-1) + 1, seating.hands, rules)
    if "seed" in record:
        _need(record, "seed", Int(0, SEED_MAX, what="the run's seed, an integer >= 0"), seating)
    if "strategies" in record:
        _strategies(record, entry, seating if "players" in record else None)
    return entry, seating, schema


def _check(record: dict):
    entry, seating, schema = _common(record)
    if any(k in record for k in (*GAME_KEYS, "winners")):
        for key, kind in WHOLE.items():
            _need(record, key, kind, seating, "a whole-games line's key")
        if record["game_over"]:
            _need(record, "winners", WINNERS, seating, "the game's last hand (game_over) names its winners")
        elif "winners" in record:
            raise Wrong("winners", record["winners"], "winners on the game's last hand (game_over true) only")
    if schema is not None:
        for key, kind in schema.fields.items():
            if key in record or key not in schema.optional:
                _need(record, key, kind, seating)
    return entry, seating


def _need(record: dict, key: str, kind: Type, seating: Seating | None, why: str = ""):
    if key not in record:
        raise BadInput(f"the key {key!r} is missing; accepted: every key {HISTORY} lists"
                       + (f" ({why})" if why else ""))
    try:
        kind.check(record[key], seating or Seating(0, 0, 0))
    except Wrong as wrong:
        raise wrong.inside(key) from None
    return record[key]


def _rules(record: dict, schema: Schema, players: int):
    """The record's Rules: every value of its `rules` object as the game writes it (an integer flag's
    value an integer, not "7" or "1_000"), the flags parsed by the game's own rules."""
    given = _need(record, "rules", Map(SCALAR), None)
    defaults = schema.rules_dict(schema.rules([], players), players)
    for key, value in given.items():          # each value of the kind the game writes, before parsing
        want = defaults.get(key)
        kind = float if type(want) is float else type(want)
        if want is not None and not (type(value) is kind or (kind is float and type(value) is int)):
            raise Wrong(f"rules.{key}", value, f"a {kind.__name__} (as the game writes the flag)")
    try:
        rules = schema.rules([f"{k}={rule_text(v)}" for k, v in given.items()], players)
        written = schema.rules_dict(rules, players)
    except BadInput as exc:
        raise Wrong("rules", given, f"RULES.md §4 flags ({' '.join(str(exc).split())})") from None
    for key, value in given.items():
        want = written.get(key)
        same = (type(value) in (int, float) and value == want) if type(want) is float else \
            (type(value) is type(want) and value == want)
        if not same:
            raise Wrong(f"rules.{key}", value, f"{json.dumps(want)} (as the game writes the flag)")
    return rules


def _strategies(record: dict, entry, seating: Seating | None) -> None:
    known = {PERSON, *strategies_of(entry.name)}
    accepted = (f"a spec per seat: {', '.join(sorted(known))} (with :k=v), or path/to/file.py:Class, without "
                "markup characters")
    specs = record["strategies"]
    if not isinstance(specs, list) or (seating is not None and len(specs) != seating.players):
        raise Wrong("strategies", specs, accepted)
    for i, spec in enumerate(specs):
        head = spec.split(":", 1)[0].strip() if isinstance(spec, str) else ""
        if not (isinstance(spec, str) and STRATEGY_SPEC.match(spec) and (head in known or head.endswith(".py"))):
            raise Wrong(f"strategies[{i}]", spec, accepted)


def whole_games(entry) -> WholeGames | None:
    return getattr(entry.module("history"), "WHOLE_GAMES", None)
