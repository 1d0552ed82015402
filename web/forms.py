"""Reading a page's form into the library's arguments. Every bad value raises FieldError: the
library's (the CLI's) one-line BadInput message and the form field it belongs to, which the
page shows next to that field with HTTP 400.

The page may only name registered strategies (never `path/to/file.py:Class`) and never a path."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

from moonshot.analysis.common import Setup, make_setup
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.games import Game, get
from moonshot.simulator.runner import DEFAULT_SEED


class FieldError(BadInput):
    """A bad value of one field: the page shows `message` beside it (HTTP `status`: 400, or 404
    for something that does not exist, such as a forgotten run)."""

    def __init__(self, field: str, message: str, status: int = 400):
        super().__init__(message)
        self.field, self.status = field, status


@dataclass(frozen=True)
class Limits:
    """The server's caps (`moonshot serve --max-samples`, `--max-worlds`) and the defaults it fills in.
    `max_worlds` bounds what a page's strategies and hints search per decision (WORLD_PARAMETERS):
    the bots of a played hand are played again on every answer, so their cost is paid many times."""
    max_samples: int = 200_000
    default_samples: int = 20_000
    jobs: int = 1
    max_worlds: int = 128           # the Moon and Hit the Deck hints' own default


# A strategy's parameters that count the deals it searches per decision (pimc and rollout's worlds,
# montecarlo's samples): a decision's cost grows with them (CHANGELOG.md: what rollout:worlds=4096 took).
WORLD_PARAMETERS = ("worlds", "samples")


INT64 = (-2**63, 2**63 - 1)     # what the engines' numpy arrays and seeds hold
NOT_A_FORM = "the request is not a JSON object; accepted: the page's form as JSON"
MESSAGE_CAP = 400                # characters of a message sent back (the CLI's lines are shorter)


def json_form(raw: bytes) -> dict:
    """The page's form from a JSON body: an object whose numbers are finite and within int64.
    Python reads 1e400 as inf and 2**70 whole, where the engines' numpy arrays and int() would
    fail later as a 500; NaN and Infinity literals are not JSON at all."""
    def no_constant(name: str):
        raise ValueError(name)
    try:
        data = json.loads(raw, parse_constant=no_constant)
    except (ValueError, RecursionError):          # not JSON, too many digits, nested too deep
        raise FieldError("form", NOT_A_FORM) from None
    if not isinstance(data, dict):
        raise FieldError("form", NOT_A_FORM)
    for key, value in data.items():
        bounded(value, str(key)[:40])
    return data


def bounded(value, key: str) -> None:
    """FieldError naming `key` for a number in `value` (a list or object, at any depth) that is
    not finite or outside int64."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for v in value:
            bounded(v, key)
    elif isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
        raise FieldError(key, f"{key} {short(value)} is not accepted; accepted: a whole number from -2**63 to 2**63-1")
    elif isinstance(value, float) and not math.isfinite(value):
        raise FieldError(key, f"{key} {value} is not accepted; accepted: a finite number")


def one_line(message: str) -> str:
    """A message as sent back: one line, at most MESSAGE_CAP characters (messages quote values
    through errors.short; this bounds any that does not), its middle cut so that the end ("accepted:
    ...") stays."""
    line = " ".join(str(message).split())
    return line if len(line) <= MESSAGE_CAP else line[:MESSAGE_CAP // 2] + " ... " + line[-(MESSAGE_CAP // 2 - 5):]


def _list(form: dict, key: str) -> list[str]:
    value = form.get(key) or []
    if not isinstance(value, (str, list)) or not all(isinstance(v, (str, int))
                                                     for v in value if not isinstance(value, str)):
        raise FieldError(key, f"{key} {short(value)} is not accepted; accepted: a list of texts")
    values = [value] if isinstance(value, str) else value
    return [str(v).strip() for v in values if str(v).strip()]


def game_of(name: str):
    try:
        return get(name)
    except BadInput as exc:
        raise FieldError("game", str(exc)) from None


def integer(form: dict, key: str, default: int | None, lo: int, hi: int | None = None,
            what: str | None = None) -> int | None:
    raw = form.get(key)
    if raw is None or str(raw).strip() == "":
        return default
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = None
    if value is None or value < lo or value > (INT64[1] if hi is None else hi):
        accepted = f"an integer from {lo:,} to {hi:,}" if hi is not None else f"an integer >= {lo:,}"
        raise FieldError(key, f"{what or key} {short(str(raw))} is not accepted; accepted: {accepted}")
    return value


def strategies(game: str, specs: list[str], limits: Limits | None = None) -> list[str]:
    """Registered names only, with or without SEAT= and :k=v parameters; with `limits`, the worlds
    they search per decision at most limits.max_worlds."""
    from moonshot.strategies.base import registered
    known = registered(game)
    for spec in specs:
        seat, sep, rest = spec.partition("=")
        body = rest if sep and seat.strip().isdigit() else spec
        head, _, params = body.partition(":")
        if head.strip() not in known:
            raise FieldError("strategy", f"unknown strategy {short(head.strip())} for {game}; accepted here: "
                             f"{', '.join(sorted(known))} (files are not loaded from the page)")
        if limits is not None:
            _within_worlds(spec, params, limits.max_worlds)
    return specs


def _within_worlds(spec: str, params: str, cap: int) -> None:
    """FieldError for a WORLD_PARAMETERS value over `cap` (read as the strategy reads it, int(); a
    value it cannot read is left to its own check)."""
    for item in params.split(","):
        key, _, text = item.partition("=")
        if key.strip() not in WORLD_PARAMETERS:
            continue
        try:
            value = int(text.strip())
        except ValueError:
            continue
        if value > cap:
            shown = f"{value}" if value < 10**9 else "over 10**9"
            raise FieldError("strategy", f"strategy {short(spec)}: {key.strip()}={shown} is more than "
                             f"this server searches per decision; accepted: {key.strip()} from 1 to {cap:,} "
                             "(moonshot serve --max-worlds; the command line takes more)")


def worlds(form: dict, limits: Limits, key: str = "worlds") -> int | None:
    """A hint's worlds per decision (None: the game's default), 2..limits.max_worlds."""
    try:
        return integer(form, key, None, 2, max(2, limits.max_worlds), key)
    except FieldError as exc:
        raise FieldError(key, f"{exc} (this server's --max-worlds)") from None


def setup(form: dict, game: str, partners_ok: bool = True, limits: Limits | None = None) -> Setup:
    """The table, rules, strategies and profiles, checked one field at a time so that a bad value
    is reported beside its own field; with `limits`, the strategies' worlds within its cap."""
    entry = game_of(game)
    players = integer(form, "players", None, 1, 99, "--players")
    partners = bool(form.get("partners")) and partners_ok
    rules, profiles = _list(form, "rules"), _list(form, "profile")
    specs = strategies(game, _list(form, "strategy"), limits)
    steps = (("players", dict()), ("rules", dict(rules=rules)), ("strategy", dict(rules=rules, strategies=specs)),
             ("profile", dict(rules=rules, strategies=specs, profiles=profiles)))
    built = None
    for field, args in steps:
        try:
            built = make_setup(entry.name, players, partners, **args)
        except BadInput as exc:
            raise FieldError(field, str(exc)) from None
    return built


def samples(form: dict, limits: Limits, key: str = "samples") -> int:
    return integer(form, key, limits.default_samples, 1, limits.max_samples, f"--{key}")


UNTIL_MAX = 1_000.0       # the widest --until a page takes (in points or percentage points: wider says nothing)
MAX_TIME = 3_600.0        # seconds: a page's --max-time at most an hour


def number(form: dict, key: str, hi: float, what: str, accepted: str) -> float | None:
    """A number above 0 and at most `hi` (None where the field is blank); FieldError naming `what`
    and `accepted` otherwise."""
    raw = form.get(key)
    if raw is None or str(raw).strip() == "":
        return None
    try:
        value = float(str(raw).strip())
    except ValueError:
        value = math.nan
    if isinstance(raw, bool) or not (math.isfinite(value) and 0 < value <= hi):
        raise FieldError(key, f"{what} {short(str(raw))} is not accepted; accepted: {accepted}")
    return value


def until(form: dict):
    """The run-until rule of the fields `until` (a width) and `max_time` (seconds), as the CLI's
    --until and --max-time (analysis.until.Until), or None where `until` is blank: the count given
    is then the run's size, with it the budget."""
    from moonshot.analysis.until import Until
    width = number(form, "until", UNTIL_MAX, "--until", f"a width above 0 and at most {UNTIL_MAX:,.0f}, in the "
                   "unit the change reads in (percentage points for a rate, points for points); blank: play the "
                   "count given")
    seconds = number(form, "max_time", MAX_TIME, "--max-time", f"seconds above 0 and at most {MAX_TIME:,.0f}, with "
                     "--until; blank: no limit but the count")
    if width is None:
        if seconds is not None:
            raise FieldError("max_time", f"--max-time {short(str(form.get('max_time')))} without --until; accepted: "
                             "a max time only with an until width (or leave it blank)")
        return None
    return Until(width, seconds)


def seed(form: dict) -> int:
    return integer(form, "seed", DEFAULT_SEED, 0, 2**63 - 1, "--seed")


def field_of(message: str) -> str:
    """The form field a message from inside a run (after the form was read) most likely names."""
    lowered = message.lower()
    if "seat-order" in lowered:
        return "seat_order"
    if any(w in lowered for w in ("hand", "tile", "card")):
        return "hand"
    return "form"


@lru_cache(maxsize=32)
def info(g: Game) -> dict:
    """What a game's pages need to know about it, from its registry entry (drives the widgets).
    Cached per entry, not once at import: a game registered later (a plugin, the toy game of
    tests/) gets its own."""
    from moonshot.strategies.base import registered, rule_of_thumb
    return {
        "title": g.title, "players": list(g.players), "default_players": g.default_players,
        "default_strategy": g.default_strategy, "hand_notation": g.hand_notation,
        "strategies": {k: rule_of_thumb(v) for k, v in registered(g.name).items()},
        "flags": [_flag(f) for f in g.flags],
        "analyses": {k: a.help for k, a in g.analyses.items()},
        "has_profiles": "profile" in g.options,
        "partners": _takes_partners(g.name, g.players),
    }


def _takes_partners(game: str, sizes) -> bool:
    """Whether some table size of the game may be played in partnerships (a --partners table)."""
    for players in sizes:
        try:
            make_setup(game, players, True)
            return True
        except BadInput:
            pass
    return False


def _text(value) -> str:
    """A default as the command line writes it (R,G,B,Y, not a Python tuple): the field's value."""
    from moonshot.simulator.flags import as_text
    return as_text(value)


def _flag(f) -> dict:
    """A rules flag as the pages show it: its description, RULES.md id and values in words (visible
    text: a phone has no hover), and whether only whole games can show it."""
    default = _text(f.default)
    return {"name": f.name, "default": default, "accepted": f.accepted, "help": f.help, "rules_id": f.rules_id,
            "choices": [{"value": c, "words": f.words(c)} for c in _choices(f)],
            "default_words": f.words(default), "whole_games": f.whole_games, "needs": f.needs}


def _choices(flag) -> list[str]:
    """The values a select can offer: every comma-separated word of `accepted` that parses."""
    words = [w.strip().split(" ")[0] for w in flag.accepted.split(",")]
    good = []
    for w in words:
        try:
            flag.parse(w)
            good.append(w)
        except Exception:
            pass
    good = list(dict.fromkeys(good))
    return good if len(good) >= 2 else []
