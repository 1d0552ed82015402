"""Typed hand records (docs/hand-records.md): the plain text a person writes down after a hand,
read into HISTORY.md records and written back out.

A record is lines of `keyword value ...`; `game NAME` starts one. This module reads the lines every
game shares (game, hand, seed, players, sides, strategies, rules, the whole-games keys, extra) and
hands the rest to the game's `typed` module (simulator/<game>/typed.py, found through the
registry), which reads its own keywords, fills what the plays show of `?` pieces, derives what the
rules give (trick winners, scores) and writes its lines back. Pieces still unknown after that are
dealt from the unseen pieces by a fixed seed until the game's rules accept the hand, and listed
under the record's extra key `unknown`, so the writer writes them as `?` again.

A game's typed module offers:
  KEYS                      its keywords, in the writer's order; REPEATED: those that may span lines
  rules_dict(args, players) the record's `rules` object from k=v texts
  default_sides(players)    the `sides` a record has when it gives none
  read(lines, record)       fill the game's keys from {keyword: [[Token, ...] per line]}; returns
                            `at`: {(key, index): Token} naming where each move was read
  complete(record)          put the pieces the plays show into `?` places (in place)
  pieces(record)            every piece name of the deal's set, repeats included
  PIECE_KEYS                the keys holding dealt pieces (what the unseen pool is counted from)
  UNKNOWN_KEYS              the keys where `?` may stand (the dealt pieces, and e.g. Moon's discard)
  derive(record, at)        the keys the rules give (dict), raising TokenError at a move they refuse;
                            derive_keys: their names (never written: the rules give them)
  write(record)             the game's lines
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from moonshot.simulator import record_check
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.record_check import rule_text      # the typed modules write flags with it too
from moonshot.simulator.spec import optional

UNKNOWN = "?"
FILL_SEED = 27            # the fixed seed unknown pieces are dealt with: the same text, the same record
FILL_TRIES = 200          # deals of the unknown pieces tried before the record is refused
COMMON = ("hand", "seed", "players", "sides", "strategies", "rules", "game_id", "hand_in_game",
          "scores_before", "scores_after", "game_over", "winners")
AS_KEY = {"hand": "hand_id"}          # keywords that name a record key differently
WRITTEN_ELSEWHERE = {"game", "format", "hand_id", "unknown", *COMMON}
PLAIN_INTEGER = re.compile(r"-?[0-9]{1,18}")


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    col: int

    def part(self, start: int, text: str) -> "Token":
        """The piece of this word that starts `start` characters in (a message names it there)."""
        return Token(text, self.line, self.col + start)


class TokenError(Exception):
    """A token the record cannot take: why, and what is accepted there."""

    def __init__(self, token: Token, why: str, accepted: str):
        super().__init__(why)
        self.token, self.why, self.accepted = token, why, accepted


def tokens_of(text: str) -> list[list[Token]]:
    """The words of each line (1-based line and column), `#` to the line's end dropped."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        words, col = [], 0
        for part in line.split():
            col = line.index(part, col)
            words.append(Token(part, n, col + 1))
            col += len(part)
        if words:
            out.append(words)
    return out


def integer(token: Token, what: str, low: int | None = 0) -> int:
    """A whole number as written in plain digits (not "1_000", "+7", "١٢" or "1e3", which Python's
    int() would take or refuse unevenly), at most 18 of them."""
    value = int(token.text) if PLAIN_INTEGER.fullmatch(token.text) else None
    if value is None or (low is not None and value < low):
        raise TokenError(token, f"is not {what}", "an integer" + ("" if low is None else f" >= {low}"))
    return value


def one(lines: dict, key: str, default=None) -> list[Token] | None:
    """The tokens of a keyword that stands on one line only (None when absent)."""
    found = lines.get(key)
    if not found:
        return default
    if len(found) > 1:
        raise TokenError(found[1][0], f"repeats the {key} line", f"one {key} line per record")
    return found[0][1:]


def one_seat(lines: dict, key: str, accepted: str) -> int:
    """The seat a one-seat keyword line names (the dealer, Moon's first bidder)."""
    found = one(lines, key)
    if not found or len(found) != 1:
        raise TokenError((lines.get(key) or lines["players"])[0][-1], f"needs one {key}", accepted)
    return integer(found[0], "a seat")


def seat_move(token: Token, players_with_dummy: int) -> tuple[int, Token]:
    """`SEAT:MOVE` -> (seat, the MOVE part), the notation of every game's plays and bids."""
    seat, sep, rest = token.text.partition(":")
    if not sep or not seat.isdigit() or int(seat) >= players_with_dummy or not rest:
        raise TokenError(token, "is not a seat's move",
                         f"SEAT:MOVE with a seat 0..{players_with_dummy - 1}, e.g. 1:6-4")
    return int(seat), token.part(len(seat) + 1, rest)


def piece(token: Token, parse, accepted: str) -> str:
    """A piece's name as the game writes it (`?` kept), or TokenError naming the notation."""
    if token.text == UNKNOWN:
        return UNKNOWN
    try:
        return parse(token.text)
    except BadInput:
        raise TokenError(token, "is not a piece of the game", accepted) from None


def seat_lines(lines: dict, seats: int, size: int, read_piece) -> tuple[list[list[str]], dict]:
    """The `seat S PIECE ...` lines: a hand per seat (all `?` for a seat with no line), and where."""
    hands: list = [None] * seats
    at = {}
    for words in lines.get("seat", []):
        if len(words) < 2:
            raise TokenError(words[0], "needs a seat and its pieces", "seat S PIECE ... (? for an unknown one)")
        s = integer(words[1], "a seat", 0)
        if s >= seats:
            raise TokenError(words[1], "is not a seat of this table", f"0..{seats - 1}")
        if hands[s] is not None:
            raise TokenError(words[1], "repeats a seat", "one seat line per seat")
        hands[s] = [read_piece(t) for t in words[2:]]
        if len(hands[s]) != size:
            raise TokenError(words[-1], f"ends a hand of {len(hands[s])} pieces",
                             f"{size} pieces (? for an unknown one)")
        at[("hands", s)] = words[1]
    return [h if h is not None else [UNKNOWN] * size for h in hands], at


def shown_in_slots(hand: list[str], shown: list[str]) -> None:
    """Put the pieces a seat showed (in the order shown) that its written hand lacks into its `?`
    places, in place: every piece a seat plays was in its hand (or came to it, which `shown` omits)."""
    missing = list(shown)
    for p in hand:
        if p in missing:
            missing.remove(p)
    slots = [i for i, p in enumerate(hand) if p == UNKNOWN]
    for i, p in zip(slots, missing):
        hand[i] = p


def move_error(token: Token, exc: Exception, accepted: str = "a legal move (RULES.md)") -> TokenError:
    return TokenError(token, f"is refused by the rules ({' '.join(str(exc).split())})", accepted)


# ---------------------------------------------------------------------------- reading

def parse(text: str, name: str = "record") -> list[dict]:
    """Every record of a typed file, checked by its game's rules; BadInput `name:line:col` otherwise."""
    from moonshot.simulator.histories import GameThreads
    blocks: list[list[list[Token]]] = []
    for words in tokens_of(text):
        if words[0].text == "game":
            blocks.append([])
        elif not blocks:
            raise _bad(name, TokenError(words[0], "comes before any game line", "a record starting with game NAME"))
        blocks[-1].append(words)
    if not blocks:
        raise BadInput(f"{name}: no record; accepted: a typed hand record (docs/hand-records.md) or JSON lines")
    games, out = GameThreads(), []
    for index, block in enumerate(blocks):
        try:
            record, entry, seating = _record(block, index)
        except TokenError as exc:
            raise _bad(name, exc) from None
        where = f"{name}:{block[0][0].line}"
        if record["hand_id"] in {r["hand_id"] for r in out}:
            raise BadInput(f"{where}: hand {record['hand_id']} is not accepted; accepted: a hand id unique within "
                           "the file (docs/hand-records.md)")
        games.check(record, entry, seating, where)      # a game's later hand typed alone starts its thread
        out.append(record)
    return out


def _bad(name: str, exc: TokenError) -> BadInput:
    t = exc.token
    return BadInput(f"{name}:{t.line}:{t.col}: {short(t.text)} {exc.why}; accepted: {exc.accepted} "
                    "(docs/hand-records.md)")


def _record(block: list[list[Token]], index: int) -> tuple[dict, object, record_check.Seating]:
    from moonshot.simulator.games import GAMES
    head = block[0]
    if len(head) != 2 or head[1].text not in GAMES:
        raise TokenError(head[-1], "does not name a game", f"game {' | '.join(GAMES)}")
    game = GAMES[head[1].text]
    typed = optional(game, "typed")
    lines: dict[str, list[list[Token]]] = {}
    for words in block[1:]:
        key = words[0].text
        if key not in COMMON and key not in typed.KEYS and key != "extra":
            raise TokenError(words[0], "is not a keyword of a record", ", ".join((*COMMON, *typed.KEYS, "extra")))
        if lines.get(key) and key not in typed.REPEATED and key != "extra":
            raise TokenError(words[0], f"repeats the {key} line", f"one {key} line per record")
        lines.setdefault(key, []).append(words)
    players_line = one(lines, "players")
    if not players_line or len(players_line) != 1:
        raise TokenError(players_line[-1] if players_line else head[0], "needs one players line",
                         "players N (the table's seat count)")
    players = integer(players_line[0], "a seat count", 1)
    if players not in game.players:
        raise TokenError(players_line[0], f"is not a table size of {game.name}", ", ".join(map(str, game.players)))
    record = {"game": game.name, "format": 1}
    hand = one(lines, "hand")
    record["hand_id"] = integer(hand[0], "a hand id") if hand else index
    _numbers(lines, record, ("seed", "game_id", "hand_in_game"), low=0, single=True)
    record["players"] = players
    rules = one(lines, "rules", [])
    for token in rules:                                 # a flag's number in plain digits, as for any number
        value = token.text.partition("=")[2]
        if not value.isascii() or (re.fullmatch(r"[+-]?[0-9_]+", value) and not PLAIN_INTEGER.fullmatch(value)):
            raise TokenError(token, "is not a flag's value as written", "k=v with a number in plain digits (0-9)")
    try:
        record["rules"] = typed.rules_dict([t.text for t in rules], players)
    except BadInput as exc:
        raise TokenError(rules[0] if rules else players_line[0], f"gives rules the game refuses ({exc})",
                         "k=v flags of RULES.md §4") from None
    sides = one(lines, "sides")
    record["sides"] = [integer(t, "a side") for t in sides] if sides else typed.default_sides(players)
    strategies = one(lines, "strategies")
    if strategies is not None:
        record["strategies"] = [t.text for t in strategies]
    _numbers(lines, record, ("scores_before", "scores_after"), low=None, single=False)
    for key in ("game_over",):
        flag = one(lines, key)
        if flag is not None:
            if len(flag) != 1 or flag[0].text not in ("yes", "no"):
                raise TokenError(flag[0] if flag else lines[key][0][0], "is not yes or no", f"{key} yes | no")
            record[key] = flag[0].text == "yes"
    winners = one(lines, "winners")
    if winners is not None:
        record["winners"] = [integer(t, "a side") for t in winners]
    for words in lines.get("extra", []):
        if len(words) < 3:
            raise TokenError(words[0], "needs a key and a JSON value", "extra KEY JSON")
        try:
            record[words[1].text] = json.loads(" ".join(t.text for t in words[2:]))
        except json.JSONDecodeError:
            raise TokenError(words[2], "is not JSON", "extra KEY JSON") from None
    try:
        record_check.common(record, "record")           # e.g. strategies: person or a registered name
    except BadInput as exc:
        named = next((words[0] for key, found in lines.items() if key in str(exc) for words in found), head[1])
        raise TokenError(named, f"is refused ({str(exc).split(': ', 1)[-1]})", "HISTORY.md's common keys") from None
    at = typed.read(lines, record)
    at["game"] = head[1]
    _fill(typed, record, at)
    try:                                                # the checks of a JSON line: HISTORY.md's types, the rules
        _, seating = record_check.check(record, "record")
        game.replay(record, "record", head[0].line)
    except BadInput as exc:
        raise TokenError(head[1], f"gives a hand the history check refuses ({exc})", "a hand by the rules") from None
    return record, game, seating


def _numbers(lines: dict, record: dict, keys: tuple, low, single: bool) -> None:
    for key in keys:
        words = one(lines, key)
        if words is None:
            continue
        if single and len(words) != 1:
            raise TokenError(words[-1] if words else lines[key][0][0], f"is not one {key}", f"{key} N")
        values = [integer(t, f"a {key} value", low) for t in words]
        record[AS_KEY.get(key, key)] = values[0] if single else values


# ---------------------------------------------------------------------------- unknown pieces

def _places(record: dict, keys: tuple) -> list[list]:
    """Where `?` stands among the dealt pieces: [key], [key, i] or [key, seat, i]."""
    out = []
    for key in keys:
        value = record.get(key)
        if value == UNKNOWN:
            out.append([key])
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if item == UNKNOWN:
                    out.append([key, i])
                elif isinstance(item, list):
                    out.extend([key, i, j] for j, piece in enumerate(item) if piece == UNKNOWN)
    return out


def _put(record: dict, place: list, piece: str) -> None:
    if len(place) == 1:
        record[place[0]] = piece
    else:
        box = record[place[0]]
        for step in place[1:-1]:
            box = box[step]
        box[place[-1]] = piece


def _get(record: dict, place: list):
    value = record[place[0]]
    for step in place[1:]:
        value = value[step]
    return value


def _fill(typed, record: dict, at: dict) -> None:
    """Derive the rules' keys; where pieces are `?`, first put what the plays show, then deal the
    rest from the unseen pieces (fixed seed) until the rules accept the hand. `unknown` lists them."""
    places = _places(record, typed.UNKNOWN_KEYS)
    if not places:
        record.update(typed.derive(record, at))
        return
    typed.complete(record)
    shown = [p for p in places if _get(record, p) != UNKNOWN]
    open_ = [p for p in places if _get(record, p) == UNKNOWN]
    every = typed.pieces(record)
    unseen = list(every)
    for p in _all_places(record, typed.PIECE_KEYS):
        if _get(record, p) != UNKNOWN:
            if _get(record, p) in unseen:
                unseen.remove(_get(record, p))
    rng = random.Random(FILL_SEED)
    dealt = [p for p in open_ if p[0] in typed.PIECE_KEYS]    # from the unseen pieces, each once
    moves = [p for p in open_ if p[0] not in typed.PIECE_KEYS]  # a move's piece (a discard): any, the rules judge
    if len(unseen) < len(dealt):
        raise TokenError(at["game"], f"leaves {len(dealt)} unknown pieces but only {len(unseen)} unseen",
                         "no more ? than pieces nobody showed")
    errors: list[TokenError] = []
    for _ in range(FILL_TRIES if open_ else 1):
        for p, piece_ in zip(dealt + moves, rng.sample(unseen, len(dealt)) + [rng.choice(every) for _ in moves]):
            _put(record, p, piece_)
        try:
            record.update(typed.derive(record, at))
            record["unknown"] = places
            return
        except TokenError as exc:
            errors.append(exc)
    # the deal that went furthest names the first move no deal of the unknown pieces allows
    far = max(errors, key=lambda e: (e.token.line, e.token.col))
    if len({(e.token, e.why) for e in errors}) == 1:
        raise far
    raise TokenError(far.token, f"{far.why}, with every deal of the {len(open_)} unknown pieces tried "
                                f"({len(shown)} more were read from the plays)",
                     far.accepted + "; or write more of the ? pieces")


def _all_places(record: dict, keys: tuple) -> list[list]:
    out = []
    for key in keys:
        value = record.get(key)
        if isinstance(value, str):
            out.append([key])
        elif isinstance(value, list):
            for i, item in enumerate(value):
                out.extend([key, i, j] for j in range(len(item))) if isinstance(item, list) else out.append([key, i])
    return out


# ---------------------------------------------------------------------------- writing

def write(record: dict) -> str:
    """The typed text of one record; parse(write(r)) == [r] for any record the rules accept."""
    from moonshot.simulator.games import get
    game = get(record["game"])
    typed = optional(game, "typed")
    shown = json.loads(json.dumps(record))          # `?` put back where pieces were unknown
    for place in record.get("unknown", []):
        _put(shown, place, UNKNOWN)
    out = [f"game {game.name}", f"hand {record['hand_id']}"]
    for key in ("seed", "game_id", "hand_in_game"):
        if key in record:
            out.append(f"{key} {record[key]}")
    out.append(f"players {record['players']}")
    if record.get("sides") != typed.default_sides(record["players"]):
        out.append("sides " + " ".join(str(s) for s in record["sides"]))
    if "strategies" in record:
        out.append("strategies " + " ".join(record["strategies"]))
    default = typed.rules_dict([], record["players"])
    changed = [f"{k}={rule_text(v)}" for k, v in record["rules"].items() if default.get(k) != v]
    if changed:
        out.append("rules " + " ".join(changed))
    for key in ("scores_before", "scores_after"):
        if key in record:
            out.append(f"{key} " + " ".join(str(x) for x in record[key]))
    if "game_over" in record:
        out.append(f"game_over {'yes' if record['game_over'] else 'no'}")
    if "winners" in record:
        out.append("winners " + " ".join(str(x) for x in record["winners"]))
    out += typed.write(shown)
    written = {*WRITTEN_ELSEWHERE, *typed.KEYS, *typed.UNKNOWN_KEYS, *typed.PIECE_KEYS, *typed.derive_keys}
    for key, value in record.items():
        if key not in written:
            out.append(f"extra {key} {json.dumps(value, separators=(',', ':'))}")
    return "\n".join(out) + "\n"


def write_all(records: list[dict]) -> str:
    return "\n".join(write(r) for r in records)


# ---------------------------------------------------------------------------- files

def is_typed(text: str) -> bool:
    """A typed record's first word is `game`; a history's first character is `{`."""
    for words in tokens_of(text):
        return words[0].text == "game"
    return False


def history_lines(text: str, name: str) -> list[str]:
    """A history file's JSON lines: the text itself, or a typed record's records as JSON lines
    (checked as they are read; BadInput `name:line:col`). For readers built on histories.replayed."""
    if is_typed(text):
        return [json.dumps(r, separators=(",", ":")) for r in parse(text, name)]
    return text.splitlines()


def read_records(path) -> list[dict]:
    """The checked records of a history file: JSON lines (HISTORY.md) or typed records
    (docs/hand-records.md), told apart by their first word. BadInput names the file and place."""
    from moonshot.simulator.histories import replayed
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {path} ({type(exc).__name__}); accepted: a history file "
                       "(JSON lines or a typed hand record)") from None
    found = parse(text, str(path)) if is_typed(text) else [r for r, _, _ in replayed(text.splitlines(), str(path))]
    if not found:
        raise BadInput(f"{path}: no hands; accepted: a history with at least one hand (JSON lines or typed records)")
    return found
