"""Hit the Deck, the Fundex UNO-like shedding game with a hand-slap (110-card edition), RULES.md §3.

``cards``     kind ids, the 110-card deck, notation (HISTORY.md), demand encoding, lookup arrays
``rules``     the ``htd.*`` variant flags (RULES.md §4) as a frozen dataclass
``profiles``  per-seat reaction profiles of the slap model (RULES.md §C.14, §C.16 P9)
``reference`` the one-hand-at-a-time rules oracle and replayer, and a Game to the target score
``reference_chance``  chance sources for the reference: drawn from an RNG, or read back from a record
``history``   hand-history records (HISTORY.md) and the checked, readable replay
"""
from moonshot.simulator.games import Game

GAME = Game(name="hit-the-deck", title="Hit the Deck", package=__name__, players=(2, 3, 4, 5, 6), default_players=4,
            decisions=("play",), default_strategy="tactician", streams=3,
            strategies=("moonshot.strategies.hit_the_deck", "moonshot.strategies.htd_playout",
                        "moonshot.strategies.htd_search"),
            analysis="moonshot.analysis.hit_the_deck", report="moonshot.reports.hit_the_deck",
            hand_notation='seven cards, e.g. "R3 R5 G2 BCUT YFLIP HN3 HH"', listed=3, options=("profile",), behaviour=8,
            review="moonshot.analysis.hit_the_deck_review",
            page_module="moonshot.web.games.hit_the_deck")
