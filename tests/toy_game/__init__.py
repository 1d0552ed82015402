"""A toy fourth game that lives in tests/ alone: each player holds two cards of 0..9 and plays one;
the highest card played takes the hand (ties: nobody); first to `toy.target` hands wins the game.
It declares itself like the real games do, so tests can register it and run the shared verbs on it
without any shared file naming it."""
from moonshot.simulator.games import Game

GAME = Game(name="toy-high-card", title="Toy high card", package=__name__, players=(2, 3, 4), default_players=3,
            decisions=("play",), default_strategy="high", streams=2, strategies=("tests.toy_game.strategies",),
            analysis="tests.toy_game.analysis", report="tests.toy_game.report", review="tests.toy_game.review",
            hand_notation='two cards, e.g. "3 9"', listed=4, page_module="tests.toy_game.page")
