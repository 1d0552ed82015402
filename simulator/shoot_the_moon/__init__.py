"""Shoot the Moon (Fundex card game), RULES.md §1."""
from moonshot.simulator.games import Game

GAME = Game(name="shoot-the-moon", title="Shoot the Moon", package=__name__, players=(2, 3, 4, 5, 6),
            default_players=4, decisions=("play",), default_strategy="expert", streams=2,
            strategies=("moonshot.strategies.shoot_the_moon", "moonshot.strategies.stm_search",
                        "moonshot.strategies.stm_expert"),
            analysis="moonshot.analysis.shoot_the_moon", report="moonshot.reports.shoot_the_moon",
            hand_notation='five cards, e.g. "R12 R7 BM G3 P5"', listed=1, behaviour=5,
            review="moonshot.analysis.shoot_the_moon_review", page_module="moonshot.web.games.shoot_the_moon")
