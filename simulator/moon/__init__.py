"""Moon, the Texas trick-taking domino game (three players, or four in partnerships), RULES.md §2.

``rules``     the ``moon.*`` variant flags (RULES.md §4) as a frozen dataclass
``tiles``     tile ids, the 21/22/28-tile sets, notation, trump encoding, batch lookup tables
``reference`` the one-hand-at-a-time rules oracle (auction, widow, trump, play, scoring)
"""
