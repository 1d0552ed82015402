"""The game registry: every game's parts by name, imported lazily.

Every verb of the CLI and every shared module finds a game here and never branches on its name.
A game is one package under ``simulator/`` with the same modules in each (``rules``, ``cards`` or
``tiles``, ``reference``, ``engine``, ``views``, ``history``), a strategies module, an analysis
module (its hooks for the shared verbs and its ``ANALYSES``) and a report builder, plus one
:class:`Game` entry below. Adding a game is that package plus one entry.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from moonshot.simulator.errors import BadInput


@dataclass(frozen=True)
class Game:
    name: str                    # as typed on the command line and written in histories
    title: str                   # as printed in headers
    package: str                 # the rules package, e.g. "moonshot.simulator.moon"
    players: tuple[int, ...]     # the table sizes the rules allow
    default_players: int
    decisions: tuple[str, ...]   # the methods a strategy of this game implements
    default_strategy: str
    streams: int                 # random streams the engine takes: deal, play (and chance)
    strategies: str              # module registering the built-in strategies
    analysis: str                # module with the game's hooks and ANALYSES
    report: str                  # module with build_report
    hand_notation: str           # what `moonshot hand GAME --hand` takes, for help and errors
    solver: str | None = None    # module with solve_position (exact play from open hands), if the game has one
    behaviour: int = 1           # bumped whenever the same seed would give other numbers (simulator/versions.py)

    def module(self, part: str) -> ModuleType:
        """One of the game package's modules: rules, engine, views, history, reference, ..."""
        return importlib.import_module(f"{self.package}.{part}")

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


GAMES: dict[str, Game] = {g.name: g for g in (
    Game("shoot-the-moon", "Shoot the Moon", "moonshot.simulator.shoot_the_moon", (2, 3, 4, 5, 6), 4, ("play",), "odd", 2,
         "moonshot.strategies.shoot_the_moon", "moonshot.analysis.shoot_the_moon", "moonshot.reports.shoot_the_moon",
         'five cards, e.g. "R12 R7 BM G3 P5"'),
    Game("moon", "Moon", "moonshot.simulator.moon", (3, 4), 3, ("bid", "discard", "trump", "play"), "threshold", 2,
         "moonshot.strategies.moon", "moonshot.analysis.moon", "moonshot.reports.moon", 'seven tiles, e.g. "6-6 6-5 6-4 6-2 5-5 3-3 1-1"',
         solver="moonshot.analysis.moon_solve"),
    Game("hit-the-deck", "Hit the Deck", "moonshot.simulator.hit_the_deck", (2, 3, 4, 5, 6), 4, ("play",), "tactician", 3,
         "moonshot.strategies.hit_the_deck", "moonshot.analysis.hit_the_deck", "moonshot.reports.hit_the_deck",
         'seven cards, e.g. "R3 R5 G2 BCUT YFLIP HN3 HH"'),
)}


def get(name: str) -> Game:
    """The game called `name`; BadInput naming the accepted games otherwise."""
    game = GAMES.get(name)
    if game is None:
        raise BadInput(f"unknown game {name!r}; accepted: {', '.join(GAMES)}")
    return game
