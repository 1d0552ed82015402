"""One conformance suite for every game in the registry: the same checks, the same names.

A new game gets these for free by its registry entry: results are batch-first numpy arrays of
plain dtypes, no strategy is ever asked to choose from an empty legal set, the same seed gives
the same numbers for any --jobs and chunk size, finished games stay finished, and every hand
history it writes passes its own replay (which re-checks it against the reference engine). The tests'
toy game (tests/toy_game) runs them too; tests/test_game_spec.py checks the names of the contract.
"""
import json
import zlib

import numpy as np
import pytest

from moonshot.analysis.common import make_setup, simulate
from moonshot.simulator import games
from moonshot.simulator.games import GAMES
from moonshot.simulator.runner import chunk_rngs
from moonshot.simulator.spec import result_problems
from tests.toy_game import GAME as TOY

GAME_NAMES = [*GAMES, TOY.name]


@pytest.fixture(autouse=True)
def registered_toy(request):
    """The toy game in the registry while a test of it runs."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is None or callspec.params.get("game") != TOY.name:
        yield
        return
    games.register(TOY)
    yield
    games.GAMES.pop(TOY.name)


def stable_seed(*parts) -> int:
    return zlib.crc32(repr(parts).encode())


class LegalSpy:
    """Delegates to a strategy and records, for every decision, that some move was legal."""

    def __init__(self, base, decisions):
        self.base, self.spec, self.checked, self.empty = base, getattr(base, "spec", "?"), 0, 0
        for name in decisions:
            setattr(self, name, self._wrap(name))

    def _wrap(self, name):
        def decide(view, rng, *rest):
            if hasattr(view, "legal"):          # (a Moon discard may be any of the eight tiles)
                legal = np.asarray(view.legal)
                self.checked += len(legal)
                self.empty += int((~legal.reshape(len(legal), -1).any(axis=1)).sum())
            return getattr(self.base, name)(view, rng, *rest)
        return decide


@pytest.mark.parametrize("game", GAME_NAMES)
def test_results_are_batch_first_arrays_of_plain_dtypes(game):
    setup = make_setup(game)
    res = setup.hooks.play(setup, setup.seats.strategies, chunk_rngs(stable_seed(game), 0, GAMES[game].streams), 300)
    found = result_problems(GAMES[game], res, 300)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_no_decision_is_asked_with_an_empty_legal_set(game):
    setup = make_setup(game, strategies=["random"])
    entry = GAMES[game]
    spy = LegalSpy(setup.seats.strategies[0], entry.decisions)
    lineup = [spy] * setup.table.players
    setup.hooks.play(setup, lineup, chunk_rngs(stable_seed(game, "legal"), 0, entry.streams), 500)
    assert spy.checked >= 500 and spy.empty == 0


@pytest.mark.parametrize("game", GAME_NAMES)
def test_whole_games_end_with_a_winner_or_say_they_did_not(game):
    setup = make_setup(game)
    g = setup.hooks.play_games(setup, setup.seats.strategies, chunk_rngs(stable_seed(game, "games"), 0,
                                                                         GAMES[game].streams), 200)
    wins = setup.hooks.wins(setup, g)
    assert wins.shape == (200, setup.table.n_sides) and wins.dtype == bool
    assert wins.any(axis=1).mean() > 0.5                          # most games end under the default players
    assert np.array_equal(setup.hooks.unfinished(g), ~wins.any(axis=1))
    length = next(iter(setup.hooks.game_length(g).values()))
    assert (length >= 1).all()


# A game registered at run time (register(): a plugin, the toy) is unknown to --jobs workers, which
# import the registry afresh: strict, so the day workers learn it this test says so
SPAWNED = [*GAMES, TOY.name]        # a game registered at run time goes to the --jobs workers with its table


@pytest.mark.parametrize("game", SPAWNED)
def test_same_seed_same_numbers_for_any_jobs_and_chunk(game):
    setup = make_setup(game)
    out = {}
    for chunk in (150, 400):
        for jobs in (1, 2):
            r = simulate(setup, 600, None, seed=5, jobs=jobs, chunk=chunk)
            out[chunk, jobs] = json.dumps(r.to_json_obj(), sort_keys=True, default=str)
    assert out[150, 1] == out[150, 2] and out[400, 1] == out[400, 2]
    assert out[150, 1] != out[400, 1]                 # the chunk size is part of the seed's recipe


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_history_record_passes_its_replay(game):
    setup = make_setup(game)
    lines = []
    simulate(setup, 40, None, seed=stable_seed(game, "history"), on_records=lines.extend)
    assert len(lines) == 40
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert record["game"] == game and record["hand_id"] == i
        assert GAMES[game].replay(record, "history", i + 1)
