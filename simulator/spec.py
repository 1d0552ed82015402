"""A game's contract, written as types: every name shared code calls on a game (DESIGN.md, Layers).

A game is its registry entry (simulator.games.Game: its fields are typed there) and the parts the
entry names, each a module or object with the names below. Required parts: the rules module
(`Rules`), the engine (`Engine`), the history module (`History`), the analysis module (`Analysis`)
with its HOOKS (`Hooks`, plus `RulesLabHooks` where headline_names is set, `EveryTableHooks` where
an analysis runs on every table, `SlapRaceHooks` where the entry has the "profile" option), the page
module (`Page`) and the strategies' minimum (`Strategies`). Optional parts, whose absence a verb
says in one line (BadInput from `optional`): the review hook (`Review`), the report (`Report`), the
typed records module (`Typed`), the solver. Names a part may have beside its required ones are in
the *Extras protocols: shared code reads them with getattr and a default.

`problems(entry, strategies)` checks an entry against all of this and returns one line per missing
name, naming the game and the name (tests/test_game_spec.py runs it on every registered game and on
the tests' toy game). The protocols document and the check enforces; neither imports a layer above
this one (the parts are found through the entry's import paths, as the registry finds them).
"""
import importlib
import importlib.util
from types import FunctionType, ModuleType
from typing import Any, Protocol

from moonshot.simulator.errors import BadInput

MIN_RESULT_ARRAYS = 4   # a hand result's batch-first arrays: at least the deal, the plays, the outcome, the score


# ------------------------------------------------------------------------------------------ game modules

class Rules(Protocol):
    """simulator/<game>/rules.py."""
    FLAGS: tuple                    # the RULES.md §4 flags (simulator.flags.Flag), defaults and parsers


class RulesExtras(Protocol):
    ONLY_AT: dict                   # flag -> the tables it applies at (check_table)


class Table(Protocol):
    """What HOOKS.make_table returns, as shared code reads it."""
    players: int
    n_sides: int
    rules: Any                      # the rules in force, with as_dict() for histories


class Engine(Protocol):
    """simulator/<game>/engine (the Hooks' default play and play_games call these)."""
    def play(self, table, size: int, strategies, *rngs) -> Any: ...
    def play_games(self, table, size: int, strategies, *rngs, keep_hands: bool = False) -> Any: ...


class History(Protocol):
    """simulator/<game>/history.py: HISTORY.md lines and their replay."""
    def records(self, res, table, specs, seed: int, first_id: int) -> list: ...
    def replay(self, record: dict, path: str, line: int) -> str: ...


class HistoryExtras(Protocol):
    SCHEMA: dict                    # the game's own record fields -> type (record_check)
    WHOLE_GAMES: Any                # how a whole-games thread's scores follow (record_check)


class Hooks(Protocol):
    """The analysis module's HOOKS (analysis.common.Hooks gives defaults for most; a method left
    raising NotImplementedError there counts as missing)."""
    hands_word: str
    game_length_names: tuple
    game_extra_names: tuple
    game_unit: str
    side_outcome_names: tuple
    side_outcome_unit: str
    seat_outcome_names: tuple
    lower_is_better: tuple
    metric_words: dict
    words: dict
    headline_names: tuple
    lab_size: tuple
    lab_baseline: str
    def make_table(self, players: int, partners: bool, rule_args: tuple, profiles: tuple) -> Table: ...
    def table_meta(self, setup) -> dict: ...
    def play(self, setup, strategies, rngs: list, size: int, record: bool = False) -> Any: ...
    def play_games(self, setup, strategies, rngs: list, size: int, keep_hands: bool = False) -> Any: ...
    def start_score(self, setup) -> int: ...
    def hand_score(self, setup, res) -> Any: ...
    def game_length(self, g) -> dict: ...
    def wins(self, setup, g) -> Any: ...
    def unfinished(self, g) -> Any: ...
    def game_extras(self, g) -> dict: ...
    def tally_hands(self, setup, res, tally) -> None: ...
    def hand_tables(self, setup, t, res) -> None: ...
    def tally_games(self, setup, g, tally) -> None: ...
    def game_tables(self, setup, t, res) -> None: ...
    def whatif_tally(self, setup, res, tally, arm: str) -> None: ...
    def whatif_tables(self, t, res) -> None: ...
    def side_outcomes(self, setup, res) -> dict: ...
    def seat_outcomes(self, setup, res) -> dict: ...
    def hand_rows(self, setup, res) -> dict: ...      # simulate --save-hands: one row per hand


class RulesLabHooks(Protocol):
    """Required where headline_names is not empty (the rules lab refuses a game without them)."""
    def first_player(self, setup, g) -> Any: ...
    def headline(self, setup, res) -> dict: ...


class EveryTableHooks(Protocol):
    """Required where one of ANALYSES has every_table."""
    all_tables: tuple               # ((players, partners), ...)


class SlapRaceHooks(Protocol):
    """Required where the entry's options hold "profile"."""
    default_profile: str


class Analysis(Protocol):
    """The entry's `analysis` module."""
    HOOKS: Hooks
    ANALYSES: dict                  # name -> analysis.common.Analysis


class AnalysisExtras(Protocol):
    def analyze_hand(self, setup, hand: str, *args, **kwargs) -> Any: ...   # `moonshot hand`

    """The entry's `page_module` (`moonshot serve`'s parts of the game: web/games/<game>.py for the built-in games)."""
class Page(Protocol):
    """The entry's `page` module (`moonshot serve`; web/ names no game)."""
    PIECE: str                      # "card" or "tile"
    HAND_SIZE: int
    EXAMPLE: str                    # an example hand in the game's notation
    REPEATS: bool                   # whether a hand may hold the same piece twice
    FIXED_ORDERS: bool
    KEYS: tuple                     # the hand picker's extra keys
    ADAPTER: type                   # the play adapter, a web.play.common.Hand
    def pieces(self, players=None, rules=None) -> list: ...
    def steps(self, record: dict, shown: str) -> list: ...


class PageExtras(Protocol):
    ALWAYS_PARTNERS: tuple          # table sizes always played in partnerships
    def face(self, name: str) -> dict: ...                   # without it: the notation on a plain card
    def tables(self, record: dict) -> list: ...              # the Replay page's drawn tables
    def decision_places(self, record: dict) -> list: ...     # decision step -> replay step
    def profile(self, ms, seat: int) -> Any: ...             # a reaction profile from timed answers
    def result_sentence(self, record: dict, you) -> str: ...  # the hand's end in words (Play, Replay)
    def end_table(self, record: dict, you) -> dict: ...       # the table as the hand ended (kept on the page)
    def option_words(self, kind: str, option: str) -> str: ...  # a reviewed option in words (else face's label)


class Sizes(Protocol):
    """analysis.review.Sizes: the verdicts' sizes in the review's unit, and why these."""
    inaccuracy: float
    mistake: float
    blunder: float
    why: str                        # the review's verdict note says it (never another game's words)


class Review(Protocol):
    """The entry's `review` module (analysis/review.py's docstring; analysis/luck.py)."""
    UNIT: str
    SIZES: Sizes
    HOW: str
    WORLDS: int
    def decisions(self, record: dict, seats: set, worlds: int, seed: int, progress=None, steps=None) -> list: ...
    def result(self, record: dict, seat: int) -> float: ...
    def results(self, table, res) -> tuple: ...
    def position(self, record: dict, seat: int) -> int: ...
    def setup(self, record: dict) -> Any: ...
    def step_count(self, record: dict) -> int: ...


class ReviewExtras(Protocol):
    HIGHER_BETTER: bool             # False where the unit is a cost (penalty points); True without it
    def decision_steps(self, record: dict, seats: set) -> list: ...
    def slaps(self, record: dict, seats: set) -> list: ...


class Report(Protocol):
    """The entry's `report` module."""
    def build_report(self, out, hands: int, seed: int, jobs: int, quiet: bool = False) -> Any: ...


class Typed(Protocol):
    """simulator/<game>/typed.py: typed hand records (simulator/records.py's docstring)."""
    KEYS: tuple
    REPEATED: set                   # the keys that may span lines
    PIECE_KEYS: tuple
    UNKNOWN_KEYS: tuple
    derive_keys: tuple              # the keys derive gives (never written: the rules give them)
    def rules_dict(self, args, players: int) -> dict: ...
    def default_sides(self, players: int) -> list: ...
    def read(self, lines: dict, record: dict) -> dict: ...
    def complete(self, record: dict) -> None: ...
    def pieces(self, record: dict) -> list: ...
    def derive(self, record: dict, at: dict) -> dict: ...
    def write(self, record: dict) -> list: ...


class Solver(Protocol):
    def solve_position(self, setup, *args, **kwargs) -> Any: ...


class Strategies(Protocol):
    """The strategies' minimum (strategies.base's registry for the game): "random" and the entry's
    default_strategy registered, each registered strategy with every one of the entry's decisions,
    and a hand's result with at least MIN_RESULT_ARRAYS batch-first numeric arrays."""
    random: type


# ------------------------------------------------------------------------------------------ checking

def members(proto: type) -> dict[str, bool]:
    """The names a protocol declares: name -> whether it is a method (else a data name)."""
    out: dict[str, bool] = {}
    for cls in reversed(proto.__mro__):
        if cls in (object, Protocol) or cls.__module__ == "typing":
            continue
        out.update(dict.fromkeys(getattr(cls, "__annotations__", {}), False))
        out.update({k: True for k, v in vars(cls).items() if isinstance(v, FunctionType) and not k.startswith("_")})
    return out


def _stub(value) -> bool:
    """A method declared but not written: its body only raises NotImplementedError."""
    code = getattr(getattr(value, "__func__", value), "__code__", None)
    return code is not None and code.co_names == ("NotImplementedError",)


def lacking(obj, proto: type) -> list[str]:
    """The names of `proto` that `obj` lacks (or has as a stub, or has as a non-callable method)."""
    out = []
    for name, method in members(proto).items():
        value = getattr(obj, name, _MISSING)
        if value is _MISSING or (method and (not callable(value) or _stub(value))):
            out.append(name)
    return out


_MISSING = object()
OPTIONAL_PARTS = {"review": "review (`moonshot review`)", "report": "report (`moonshot report`)",
                  "typed": "typed hand records (docs/hand-records.md)", "solver": "exact solver"}


def _module(path: str | None) -> ModuleType | None:
    if path is None or importlib.util.find_spec(path) is None:
        return None
    return importlib.import_module(path)


def _part(entry, part: str) -> ModuleType | None:
    """The optional part's module, or None where the game has none (or it lacks its main name)."""
    if part == "typed":
        return _module(f"{entry.package}.typed")
    module = _module(getattr(entry, part))
    if part == "report" and module is not None and not hasattr(module, "build_report"):
        return None
    return module


def has(entry, part: str) -> bool:
    return _part(entry, part) is not None


def optional(entry, part: str) -> ModuleType:
    """An optional part of a game, or BadInput naming the game, the part and the games that have it."""
    module = _part(entry, part)
    if module is None:
        from moonshot.simulator.games import GAMES
        able = [g.name for g in GAMES.values() if has(g, part)]
        raise BadInput(f"{entry.name} has no {OPTIONAL_PARTS[part]} yet; accepted: {', '.join(able) or 'none'}")
    return module


def problems(entry, strategies: dict[str, type] | None = None) -> list[str]:
    """One line per name the game lacks: '<game>: <part> lacks <name>'. `strategies` is the game's
    strategy registry (strategies.base.registered(entry.name)); None skips that part."""
    out: list[str] = []

    def check(part: str, obj, *protos: type) -> None:
        for proto in protos:
            out.extend(f"{entry.name}: {part} lacks {name} ({proto.__name__})" for name in lacking(obj, proto))

    for part in ("rules", "engine", "history"):
        module = _module(f"{entry.package}.{part}")
        if module is None:
            out.append(f"{entry.name}: no {part} module ({entry.package}.{part})")
        else:
            check(part, module, {"rules": Rules, "engine": Engine, "history": History}[part])
    analysis = _module(entry.analysis)
    if analysis is None:
        out.append(f"{entry.name}: no analysis module ({entry.analysis})")
    else:
        check("analysis", analysis, Analysis)
        hooks = getattr(analysis, "HOOKS", None)
        if hooks is not None:
            check("HOOKS", hooks, Hooks)
            if getattr(hooks, "headline_names", ()):
                check("HOOKS", hooks, RulesLabHooks)
            if any(getattr(a, "every_table", False) for a in getattr(analysis, "ANALYSES", {}).values()):
                check("HOOKS", hooks, EveryTableHooks)
            if "profile" in entry.options:
                check("HOOKS", hooks, SlapRaceHooks)
    try:
        page = entry.page
    except ModuleNotFoundError:
        out.append(f"{entry.name}: no page module ({entry.page_module})")
    else:
        check("page", page, Page)
    for part, proto in (("review", Review), ("report", Report), ("typed", Typed), ("solver", Solver)):
        module = _part(entry, part)
        if module is not None:
            check(part, module, proto)
    if entry.review is not None and _part(entry, "review") is None:
        out.append(f"{entry.name}: no review module ({entry.review})")
    if entry.default_players not in entry.players:
        out.append(f"{entry.name}: default_players {entry.default_players} is not one of players {entry.players}")
    if strategies is not None:
        out += _strategy_problems(entry, strategies)
    return out


def _strategy_problems(entry, strategies: dict[str, type]) -> list[str]:
    out = [f"{entry.name}: strategies lack {name}" for name in ("random", entry.default_strategy)
           if name not in strategies]
    for name, cls in strategies.items():
        out += [f"{entry.name}: strategy {name} lacks {d} (the entry's decisions)" for d in entry.decisions
                if not callable(getattr(cls, d, None))]
    return list(dict.fromkeys(out))


def result_problems(entry, res, size: int) -> list[str]:
    """The hand result's minimum: at least MIN_RESULT_ARRAYS batch-first arrays of plain dtypes."""
    import numpy as np
    arrays = {k: v for k, v in vars(res).items() if isinstance(v, np.ndarray)}
    out = [] if len(arrays) >= MIN_RESULT_ARRAYS else [
        f"{entry.name}: its hand result has {len(arrays)} arrays ({', '.join(arrays)}); at least {MIN_RESULT_ARRAYS}"]
    out += [f"{entry.name}: result array {k} is {a.shape}, {a.dtype}; batch-first ({size}, ...) of a plain dtype"
            for k, a in arrays.items() if a.shape[:1] != (size,) or a.dtype.kind not in "biuf"]
    return out

