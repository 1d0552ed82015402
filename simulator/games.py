"""The game registry: every game's parts by name, imported lazily.

Every verb of the CLI and every shared module finds a game here and never branches on its name.
A game is one package under ``simulator/`` with the same modules in each (``rules``, ``cards`` or
``tiles``, ``reference``, ``engine``, ``views``, ``history``), a strategies module, an analysis
module (its hooks for the shared verbs and its ``ANALYSES``) and a report builder. The package
declares its own :class:`Game` entry as ``GAME`` in its ``__init__.py``; the registry finds it
there, so adding a game touches no shared file.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from types import ModuleType

from moonshot.simulator.errors import BadInput


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game's entry, built with keywords only (a positional `2` says nothing of what it is)."""
    name: str                    # as typed on the command line and written in histories
    title: str                   # as printed in headers
    package: str                 # the rules package, e.g. "moonshot.simulator.moon"
    players: tuple[int, ...]     # the table sizes the rules allow
    default_players: int
    decisions: tuple[str, ...]   # the methods a strategy of this game implements
    default_strategy: str
    streams: int                 # random streams the engine takes: deal, play (and chance)
    strategies: tuple[str, ...]  # modules registering the built-in strategies (a search player's apart from
                                 # the heuristics it builds on, so neither imports the other back)
    analysis: str                # module with the game's hooks and ANALYSES
    report: str                  # module with build_report
    hand_notation: str           # what `moonshot hand GAME --hand` takes, for help and errors
    solver: str | None = None    # module with solve_position (exact play from open hands), if the game has one
    behaviour: int = 1           # bumped whenever the same seed would give other numbers (simulator/versions.py)
    listed: int = 99             # its place in lists (help, "accepted: ..."): the product's own order
    options: tuple[str, ...] = ()  # the game's own options beyond the shared ones: "profile" (--profile)
    review: str | None = None    # module with decisions(record, ...): `moonshot review`'s per-game hook
    page_module: str             # its parts of `moonshot serve`'s pages, in the web layer (web/games/<game>.py)

    @property
    def hand_analyzer(self):
        """The analysis module's analyze_hand (`moonshot hand`), or None when the game has none."""
        return getattr(importlib.import_module(self.analysis), "analyze_hand", None)

    def module(self, part: str) -> ModuleType:
        """One of the game package's modules: rules, engine, views, history, reference, ..."""
        return importlib.import_module(f"{self.package}.{part}")

    @property
    def page(self) -> ModuleType:
        """The game's page parts (`moonshot serve`; web/ names no game): PIECE, HAND_SIZE, EXAMPLE,
        REPEATS, FIXED_ORDERS and KEYS, pieces(players, rules) (the pieces in play; no arguments:
        every piece), face(name) (one piece as static/pieces.js draws it), steps(record, shown) for
        the Replay page, the play adapter ADAPTER (a web.play.common.Hand) and, where the game has
        one, profile(ms, seat)."""
        return importlib.import_module(self.page_module)

    @property
    def flags(self) -> tuple:
        return self.module("rules").FLAGS

    @property
    def hooks(self):
        """The game's analysis hooks (what to deal, how to play a chunk, what to tally)."""
        return importlib.import_module(self.analysis).HOOKS

    @property
    def analyses(self) -> dict:
        return importlib.import_module(self.analysis).ANALYSES

    def build_report(self, *args, **kwargs):
        return importlib.import_module(self.report).build_report(*args, **kwargs)

    def replay(self, record: dict, path: str, line: int) -> str:
        return self.module("history").replay(record, path, line)


def _declared() -> dict[str, Game]:
    """Every game package under simulator/ that declares a ``GAME`` entry in its __init__.py
    (which imports nothing heavy), in the order they are listed."""
    import moonshot.simulator as simulator
    found = {}
    for info in sorted(pkgutil.iter_modules(simulator.__path__), key=lambda m: m.name):
        if info.ispkg:
            game = getattr(importlib.import_module(f"{simulator.__name__}.{info.name}"), "GAME", None)
            if isinstance(game, Game):
                found[game.name] = game
    return dict(sorted(found.items(), key=lambda item: (item[1].listed, item[0])))


GAMES: dict[str, Game] = _declared()


def register(game: Game) -> Game:
    """Add a game declared outside simulator/ (a plugin, or a toy game in the tests)."""
    GAMES[game.name] = game
    return game


def get(name: str) -> Game:
    """The game called `name`; BadInput naming the accepted games otherwise."""
    game = GAMES.get(name)
    if game is None:
        raise BadInput(f"unknown game {name!r}; accepted: {', '.join(GAMES)}")
    return game


# Every game's built-in strategies by name (game -> name -> class), kept beside the games so a record's
# strategy names are checked where it is read (simulator/record_check.py) without the simulator
# importing a strategy: strategies.base.register fills it as each of an entry's strategy modules loads.
STRATEGIES: dict[str, dict[str, type]] = {}
_STRATEGIES_LOADED: set[str] = set()


def strategies_of(game: str) -> dict[str, type]:
    """The built-in strategies of `game` by name (importing its entry's strategy modules registers
    them; a module imported on its own before registers only its own)."""
    if game not in _STRATEGIES_LOADED and game in GAMES:
        for module in GAMES[game].strategies:
            importlib.import_module(module)
        _STRATEGIES_LOADED.add(game)
    return STRATEGIES.get(game, {})
