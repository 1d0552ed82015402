"""Moon, the Texas trick-taking domino game (three players, or four in partnerships), RULES.md §2.

``rules``     the ``moon.*`` variant flags (RULES.md §4) as a frozen dataclass
``tiles``     tile ids, the 21/22/28-tile sets, notation, trump encoding, batch lookup tables
``reference`` the one-hand-at-a-time rules oracle (auction, widow, trump, play, scoring)
"""
from moonshot.simulator.games import Game

GAME = Game(name="moon", title="Moon", package=__name__, players=(3, 4), default_players=3,
            decisions=("bid", "discard", "trump", "play"), default_strategy="expert", streams=2,
            strategies=("moonshot.strategies.moon", "moonshot.strategies.moon_search",
                        "moonshot.strategies.moon_expert"),
            analysis="moonshot.analysis.moon", report="moonshot.reports.moon",
            hand_notation='seven tiles, e.g. "6-6 6-5 6-4 6-2 5-5 3-3 1-1"', solver="moonshot.analysis.moon_solve",
            listed=2, behaviour=5, review="moonshot.analysis.moon_review", page_module="moonshot.web.games.moon")
