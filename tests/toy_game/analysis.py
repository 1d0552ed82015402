"""The toy game's hooks for the shared verbs (simulate, compare, whatif)."""
import numpy as np

from moonshot.analysis.common import Hooks
from moonshot.analysis.stats import estimate
from tests.toy_game import engine
from tests.toy_game.rules import parse_rules


class ToyHooks(Hooks):
    words = {"played": ("card played", "the card the seat played (0..9)")}
    side_outcome_names = ("win",)
    seat_outcome_names = ("p_win",)

    def make_table(self, players, partners, rule_args, profiles):
        return engine.Table(players, parse_rules(rule_args))

    def tally_hands(self, setup, res, tally):
        tally.add_columns("seats", "seat", {"p_win": res.winner[:, None] == np.arange(setup.players)})

    def hand_tables(self, setup, t, res):
        res.tables["seats"] = estimate(t.get("seats"), ["seat"], ["p_win"])

    def side_outcomes(self, setup, res):
        return {"win": res.winner[:, None] == np.arange(setup.players)}

    def hand_rows(self, setup, res):
        return {"winner": res.winner.astype(np.int8),
                **{f"seat{s}_played": res.played[:, s].astype(np.int8) for s in range(setup.players)}}

    def seat_outcomes(self, setup, res):
        return {"p_win": res.winner[:, None] == np.arange(setup.players)}


HOOKS = ToyHooks()
ANALYSES = {}
