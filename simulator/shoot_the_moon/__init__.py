"""Shoot the Moon (Fundex card game), RULES.md §1."""
from moonshot.simulator.games import Game

GAME = Game("shoot-the-moon", "Shoot the Moon", __name__, (2, 3, 4, 5, 6), 4, ("play",), "odd", 2,
            ("moonshot.strategies.shoot_the_moon", "moonshot.strategies.stm_search"),
            "moonshot.analysis.shoot_the_moon", "moonshot.reports.shoot_the_moon",
            'five cards, e.g. "R12 R7 BM G3 P5"', listed=1)
