"""Verdicts by size in each game's unit (issue 37 item 1): a decision whose option loses about each
size's amount, on worlds with a little noise, gets that size's verdict through the game's own sizes
(its review hook's SIZES), in points, chips and penalty points alike; P(win) for whole games. A loss
whose interval straddles a size is "cannot be told"; one wholly under the smallest is "fine"."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from moonshot.analysis.review import (BEST, BLUNDER, FINE, FORCED, INACCURACY, MISTAKE, UNTOLD, WIN_SIZES, Decision,
                                      Judged)
from moonshot.simulator.games import GAMES

HOOKS = {name: importlib.import_module(entry.review) for name, entry in GAMES.items() if entry.review}


def _decision(hook, loss: float, noise: float, higher_better: bool, worlds: int = 400, whole: bool = False):
    """Two options on the same worlds: option 0 the best, option 1 `loss` worse (in the unit's
    favour), each world's difference noisy by `noise`."""
    rng = np.random.default_rng(int(loss * 1000) + worlds)
    base = rng.normal(0, 3, worlds)
    worse = base - loss + rng.normal(0, noise, worlds)
    sign = 1 if higher_better else -1
    outcomes = np.stack([base, worse], axis=1) * sign
    win = None
    if whole:
        win = np.clip(np.stack([np.full(worlds, 0.5), 0.5 - loss + rng.normal(0, noise, worlds)], axis=1), 0, 1)
    return Decision(hand_id=0, seat=0, step=0, kind="play", options=["a", "b"], chosen=1, outcomes=outcomes,
                    unit=hook.UNIT, higher_better=higher_better, win=win, sizes=hook.SIZES)


@pytest.mark.parametrize("game", sorted(HOOKS))
def test_each_size_gets_its_verdict_in_the_games_unit(game):
    hook = HOOKS[game]
    sizes, higher = hook.SIZES, getattr(hook, "HIGHER_BETTER", True)
    cases = [(sizes.inaccuracy / 4, FINE), ((sizes.inaccuracy + sizes.mistake) / 2, INACCURACY),
             ((sizes.mistake + sizes.blunder) / 2, MISTAKE), (2 * sizes.blunder, BLUNDER)]
    for loss, verdict in cases:
        judged = Judged.of(_decision(hook, loss, noise=sizes.inaccuracy / 10, higher_better=higher))
        assert judged.best == 0
        got, m, lo, hi = judged.verdict(1)
        assert got == verdict, (game, loss, got, m, lo, hi)
        assert judged.verdict(0)[0] == BEST
    # a loss whose interval straddles the mistake size cannot be told from it either way
    straddle = Judged.of(_decision(hook, sizes.mistake, noise=sizes.mistake * 3, higher_better=higher, worlds=50))
    assert straddle.verdict(1)[0] == UNTOLD


@pytest.mark.parametrize("game", sorted(HOOKS))
def test_whole_games_are_graded_in_p_win_and_one_option_is_forced(game):
    hook = HOOKS[game]
    for loss, verdict in ((0.005, FINE), (0.035, INACCURACY), (0.075, MISTAKE), (0.2, BLUNDER)):
        judged = Judged.of(_decision(hook, loss, noise=0.002, higher_better=getattr(hook, "HIGHER_BETTER", True),
                                     whole=True))
        assert judged.sizes == WIN_SIZES and judged.verdict(1)[0] == verdict, (game, loss, judged.verdict(1))
    forced = Decision(hand_id=0, seat=0, step=0, kind="play", options=["a"], chosen=0, outcomes=np.zeros((0, 1)),
                      unit=hook.UNIT, sizes=hook.SIZES)
    assert Judged.of(forced).verdict(0)[0] == FORCED
