"""rollout's compiled play-outs (strategies/htd_playout.py) against play_on's per-pass loop: the
same results and the same generator state, under every htd.* flag, so rollout makes the same
choices either way."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from moonshot.simulator.batch import groups
from moonshot.simulator.hit_the_deck.engine import Table, numpy_loops, play
from moonshot.simulator.hit_the_deck.engine.resume import _OnFromPosition
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies import htd_playout, htd_search
from moonshot.strategies.base import make_strategy
from tests.test_htd_search import FLAG_SETS, GAME, rngs


class Spy:
    """Wraps play_out: counts the play-outs each way and compares every one with play_on's."""

    def __init__(self):
        self.compared = self.rows = 0
        self.play_out = htd_playout.play_out

    def __call__(self, table, st, policy, first, rng):
        twin, twin_rng = copy.deepcopy(st), copy.deepcopy(rng)
        res = self.play_out(table, st, policy, first, rng)
        forced = policy if first is None else htd_search._FirstForced(policy, first)
        # play_on's loop, a pass at a time (a hook keeps FastRun from this very compiled call)
        _OnFromPosition(table, twin, groups([forced] * table.players), twin_rng, lambda st: None).run()
        want = twin.res
        assert set(res) == set(want)
        for key in want:
            assert np.array_equal(res[key], want[key]), key
        assert rng.bit_generator.state == twin_rng.bit_generator.state      # the same draws left for later
        self.compared += 1
        self.rows += len(st.gid)
        return res


@pytest.mark.parametrize("flags", FLAG_SETS, ids=range(len(FLAG_SETS)))
def test_play_outs_match_play_on(flags, monkeypatch):
    spy = Spy()
    monkeypatch.setattr(htd_playout, "play_out", spy)
    players = 3 if "htd.target_score=40" in flags else 4
    lineup = [make_strategy(GAME, "rollout:worlds=3,horizon=40")] + [make_strategy(GAME, "tactician")] * (players - 1)
    play(Table(players, parse_rules(flags, players)), 6, lineup, *rngs(21))
    assert spy.compared >= 10 and spy.rows > 200


def test_a_probe_or_another_policy_takes_play_on():
    tac, dump = make_strategy(GAME, "tactician"), make_strategy(GAME, "dump")
    table = Table(4)
    st = type("St", (), {"log": type("Log", (), {"on": False})()})()
    assert htd_playout.fits(tac, table, st)
    assert not htd_playout.fits(dump, table, st)                 # only the tactician is compiled


def test_numpys_loops_give_numpys_values():
    f = numpy_loops.loops()
    assert f is not None
    u = np.random.default_rng(5).random(1000)
    u[:3] = (1e-300, 0.5, 1 - 2 ** -53)
    for addr, ufunc in zip(f, (np.log, np.cos, np.sin)):
        out = np.empty_like(u)
        numpy_loops._apply(addr, u, out)
        assert np.array_equal(out, ufunc(u))
        one = np.empty(1)                                          # one element at a time: the same
        numpy_loops._apply(addr, u[7:8].copy(), one)
        assert one[0] == ufunc(u)[7]


@pytest.mark.parametrize("kept_half", [0, 1])
def test_the_generator_moves_on_as_the_draws_would(kept_half):
    """_move_on jumps the generator to where the play-outs' noise draws leave it: the same state as
    drawing them, whether a 32-bit half was kept from before or not, for odd and even counts."""
    for draws in (0, 1, 2, 3, 10, 11, 4097):
        drawn = np.random.default_rng(draws)
        drawn.integers(0, htd_playout.NOISE_RANGE, kept_half)
        start = drawn.bit_generator.state
        drawn.integers(0, htd_playout.NOISE_RANGE, draws)
        jumped = np.random.default_rng(99)
        htd_playout._move_on(jumped, start, draws)
        assert jumped.bit_generator.state == drawn.bit_generator.state
        assert np.array_equal(jumped.random(5), drawn.random(5))
