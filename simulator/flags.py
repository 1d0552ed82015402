"""Rules-variant flags shared by every game: declaration, parsing of ``k=v`` and listing.

Each game's ``rules.py`` declares its RULES.md §4 flags as a tuple of :class:`Flag` and a frozen
dataclass with one field per flag (the field name is the flag name without the game prefix).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from moonshot.simulator.errors import BadInput, short


@dataclass(frozen=True)
class Flag:
    name: str                 # full RULES.md name, e.g. "stm.moon_chip_netting"
    default: Any
    accepted: str             # human description of the accepted values
    rules_id: str             # RULES.md ambiguity/rule id
    help: str
    parse: Callable[[str], Any]
    sweep: tuple[str, ...] = ()   # values a rules sweep tries where `accepted` lists none (ranges, free text)
    needs: str = ""               # why it may never change play on its own (e.g. it needs another flag on)
    # each value a player can pick, as written and in a player's words: (("strictly_greater",
    # "only more tricks than the bid make it"), ...); the pages show the words, never only the name
    value_words: tuple[tuple[str, str], ...] = ()
    # True when it changes only how a game ends or goes on (the target, a tie at the end, who deals
    # next): single hands never show it, only whole games (the what-if page counts games for it)
    whole_games: bool = False

    @property
    def field(self) -> str:
        return self.name.split(".", 1)[1]

    def alternatives(self) -> list[str]:
        """The values a rules sweep tries instead of the default: `sweep`, or else every value
        `accepted` lists (comma-separated) that parses, the default left out."""
        texts = self.sweep or tuple(t.strip() for t in self.accepted.split(", "))
        out = []
        for text in texts:
            try:
                value = self.parse(text)
            except (ValueError, TypeError):
                continue                       # a description ("an integer 1..1000"), not a value
            if value != self.default and text not in out:
                out.append(text)
        return out

    def words(self, text: str) -> str:
        """A value (as written in --rule flag=VALUE) in a player's words, or "" when none are declared."""
        return dict(self.value_words).get(text, "")


def one_of(name: str, values: tuple[str, ...], rules_id: str, help: str, words: tuple[str, ...] = (),
           **extra) -> Flag:
    """A flag taking one of ``values``, the first being the default (values are written once);
    ``words``: each value in a player's words, in the same order."""
    return Flag(name, values[0], ", ".join(values), rules_id, help, choice(*values),
                value_words=_paired(name, values, words), **extra)


def switch(name: str, default: bool, rules_id: str, help: str, words: tuple[str, str] = (), **extra) -> Flag:
    """A true/false flag; ``words``: what true and what false mean, in a player's words."""
    return Flag(name, default, "true, false", rules_id, help, boolean,
                value_words=_paired(name, ("true", "false"), words), **extra)


def _paired(name: str, values: tuple[str, ...], words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    if words and len(words) != len(values):
        raise ValueError(f"{name}: {len(words)} value words for {len(values)} values")
    return tuple(zip(values, words))


def whole_number(name: str, default: int, lo: int, hi: int | None, rules_id: str, help: str, **extra) -> Flag:
    """An integer flag in lo..hi (no upper bound when hi is None)."""
    accepted = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
    return Flag(name, default, accepted, rules_id, help, integer(lo, hi), **extra)


def choice(*values: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in values:
            raise ValueError
        return text
    return parse


def integer(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:     # int() takes "1_000" and
            raise ValueError                                                    # other scripts' digits
        value = int(text)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError
        return value
    return parse


def boolean(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError


def apply_rule_args(rules: Any, flags: Sequence[Flag], args: Sequence[str]) -> Any:
    """Return ``rules`` with each ``"k=v"`` of ``args`` applied; BadInput names any bad k or v."""
    by_name = {f.name: f for f in flags}
    prefix = flags[0].name.split(".", 1)[0] + "."
    changes: dict[str, Any] = {}
    for arg in args:
        key, sep, text = arg.partition("=")
        key, text = key.strip(), text.strip()
        if not sep:
            raise BadInput(f"rule {short(arg)} is not of the form flag=value, "
                           f"e.g. {flags[0].name}={as_text(flags[0].default)}")
        if key not in by_name and prefix + key in by_name:
            key = prefix + key
        flag = by_name.get(key)
        if flag is None:
            raise BadInput(f"unknown rule flag {short(key)}; accepted: {', '.join(sorted(by_name))}")
        try:
            value = flag.parse(text)
        except (ValueError, TypeError):
            raise BadInput(f"bad value {short(text)} for {flag.name}; accepted: {flag.accepted}") from None
        if flag.field in changes and changes[flag.field] != value:
            raise BadInput(f"{flag.name} is given twice with different values ({as_text(changes[flag.field])} "
                           f"and {as_text(value)}); accepted: one value per flag")
        changes[flag.field] = value
    return dataclasses.replace(rules, **changes)


def whole_games_only(flags: Sequence[Flag], args: Sequence[str]) -> list[str]:
    """The full names of the flags among ``"k=v"`` args that only whole games can show (Flag.whole_games)."""
    by_name = {f.name: f for f in flags}
    prefix = flags[0].name.split(".", 1)[0] + "." if flags else ""
    keys = [arg.partition("=")[0].strip() for arg in args]
    found = [by_name.get(k) or by_name.get(prefix + k) for k in keys]
    return list(dict.fromkeys(f.name for f in found if f is not None and f.whole_games))


def as_text(value: Any) -> str:
    """A flag value as it is written in --rule flag=VALUE (what a player reads: never a Python tuple
    or True): a tuple comma-separated, a switch true/false, no value "off"."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return ",".join(as_text(v) for v in value)
    return str(format_value(value))


def format_value(value: Any) -> Any:
    """JSON-friendly form of a flag value (used in hand histories and reports)."""
    if dataclasses.is_dataclass(value):
        return str(value)
    return value


def rules_dict(rules: Any, flags: Sequence[Flag]) -> dict[str, Any]:
    """Every flag keyed by its full RULES.md name, as HISTORY.md asks."""
    return {f.name: format_value(getattr(rules, f.field)) for f in flags}


def changed_flags(rules: Any, flags: Sequence[Flag]) -> dict[str, Any]:
    return {f.name: format_value(getattr(rules, f.field)) for f in flags
            if getattr(rules, f.field) != f.default}


def check_table(flags: Sequence[Flag], only_at: dict, args: Sequence[str], players: int, partners: bool) -> None:
    """BadInput for a flag in `args` that does not apply at this table: `only_at` maps a flag name
    to (the tables it applies to, in words; predicate(players, partners))."""
    prefix = flags[0].name.split(".", 1)[0] + "."
    for arg in args:
        key = arg.partition("=")[0].strip()
        key = key if key.startswith(prefix) else prefix + key
        if key in only_at:
            where, applies = only_at[key]
            if not applies(players, partners):
                table = f"{players} players" + (" in partnerships" if partners else "")
                raise BadInput(f"{key} does not apply at {table}; it applies to {where}")
