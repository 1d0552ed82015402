"""The Moon solver's last tricks, which it settles without its general search (the last trick
directly, the last two by a plain minimax of their own): whole-hand positions with two or three
tiles a hand at a trick boundary, every table, flag set and trump, against plain minimax."""
from __future__ import annotations

import numpy as np
import pytest

from moonshot.simulator.moon import solver as moon_solver
from moonshot.simulator.moon import tiles
from tests.budget import size
from tests.test_moon_solver import FLAG_SETS, check


def _boundary_position(rng, players, n, trump):
    """n tiles a hand, none of a trick played yet, a random leader and bidder."""
    pool = rng.permutation(22 if players == 3 else 28)
    hands = [sorted(int(t) for t in pool[n * s: n * (s + 1)]) for s in range(players)]
    return hands, trump, int(rng.integers(players)), int(rng.integers(players))


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("n", [2, 3])
def test_last_tricks_match_minimax(players, n):
    solver = moon_solver.Solver(tt_bits=12)
    rng = np.random.default_rng(7100 + 10 * players + n)
    for _ in range(size(3, 12)):
        for rules in FLAG_SETS:
            for trump in range(tiles.N_TRUMPS):
                hands, trump, bidder, leader = _boundary_position(rng, players, n, trump)
                check(hands, trump, rules, bidder, leader, (), None, False, solver=solver)
