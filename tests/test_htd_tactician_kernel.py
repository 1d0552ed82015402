"""Tactician's compiled choice (_best_rows) against scores_numpy, its numpy form: the same
choices, with the same float32 score bit for bit, on the decisions of real hands under the rules
that change what it reads (voluntary draws, optional drawn cards, memory); and the situation
counts it uses in place of the products against situation_table."""
import copy

import numpy as np
import pytest

from moonshot.simulator.hit_the_deck.engine import Table, play
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies.hit_the_deck import N_SITUATIONS, Tactician, situation_counts, situation_table


class Both(Tactician):
    """Scores every decision both ways and keeps what it saw."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.checked = 0
        self.bad = 0

    def choose(self, view, bits, rng):
        twin = copy.deepcopy(rng)
        want = self.scores_numpy(view, bits, twin)
        best, score = self.best(view, bits, rng)
        self.checked += len(bits)
        self.bad += int((want.argmax(axis=1) != best).sum())
        self.bad += int((want.max(axis=1).view(np.uint32) != score.view(np.uint32)).sum())
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


@pytest.mark.parametrize("word_on_word", [False, True])
def test_situation_counts_are_the_situation_table_products(word_on_word):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, (300, 38)).astype(np.float32)
    x[:38] = np.eye(38, dtype=np.float32)                   # each kind alone, then mixed hands
    out = np.empty(N_SITUATIONS, dtype=np.float32)
    want = x @ situation_table(word_on_word).T
    for i in range(len(x)):
        situation_counts(x, i, word_on_word, out)
        np.testing.assert_array_equal(out, want[i])
