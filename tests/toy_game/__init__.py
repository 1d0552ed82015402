"""A toy fourth game that lives in tests/ alone: each player holds two cards of 0..9 and plays one;
the highest card played takes the hand (ties: nobody); first to `toy.target` hands wins the game.
It declares itself like the real games do, so tests can register it and run the shared verbs on it
without any shared file naming it."""
from moonshot.simulator.games import Game

GAME = Game("toy-high-card", "Toy high card", __name__, (2, 3, 4), 3, ("play",), "high", 2,
            ("tests.toy_game.strategies",), "tests.toy_game.analysis", "tests.toy_game.analysis",
            'two cards, e.g. "3 9"', listed=4)
