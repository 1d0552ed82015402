"""Tactician's compiled scores (_score_rows) against scores_numpy, its numpy form: the same
float32 scores bit for bit on the decisions of real hands, under the rules that change what it
reads (voluntary draws, optional drawn cards, memory), and so the same choices."""
import copy

import numpy as np
import pytest

from moonshot.simulator.hit_the_deck.engine import Table, play
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies.hit_the_deck import Tactician


class Both(Tactician):
    """Scores every decision both ways and keeps what it saw."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.checked = 0
        self.bad = 0

    def choose(self, view, bits, rng):
        twin = copy.deepcopy(rng)
        want = self.scores_numpy(view, bits, twin)
        got, best = self._scored(view, bits, rng)
        self.checked += len(bits)
        self.bad += int((want.view(np.uint32) != got.view(np.uint32)).any(axis=1).sum())
        self.bad += int((want.argmax(axis=1) != best).sum())
        assert twin.bit_generator.state == rng.bit_generator.state
        return best


@pytest.mark.parametrize("players, flags, params", [
    (4, [], {}),
    (3, ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"], {}),
    (5, ["htd.memory=window(3)"], {"follow": 3.3, "long_hand": 0.7, "draw_cost": 2.5}),
    (2, ["htd.memory=p_recall(0.5)", "htd.voluntary_draw=true"], {"fear": 0, "block": 0.5}),
    (6, ["htd.word_matches_word=true"], {}),
])
def test_compiled_scores_match_numpy(players, flags, params):
    table = Table(players, parse_rules(flags, players))
    strat = Both(**params)
    rngs = [np.random.default_rng(i) for i in (5, 6, 7)]
    play(table, 400, [strat] * players, *rngs)
    assert strat.checked > 2000
    assert strat.bad == 0
