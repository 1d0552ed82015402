"""Moon strategies: legal in every phase, sensible bidding, better than random, honest Monte Carlo."""
from itertools import combinations

import numpy as np
import pytest

from moonshot.analysis.common import Setup, match
from moonshot.simulator.moon import engine
from moonshot.simulator.moon import tiles
from moonshot.strategies.base import parse_seat_specs, registered
from moonshot.strategies.moon import FixedTrump, ThresholdBidder, deal_around, trick_estimate

METHODS = ("bid", "discard", "trump", "play")


def seats(spec, players=3):
    return parse_seat_specs("moon", [spec], players, default=spec, required=METHODS).strategies


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("spec", ["random", "threshold", "greedy", "threshold:play=random,margin=1"])
def test_every_registered_strategy_plays_legal_hands(players, spec):
    table = Setup("moon", players).validate().table
    res = engine.play(table, 3000, seats(spec, players), np.random.default_rng(1), np.random.default_rng(2))
    played = res.bidder >= 0
    assert played.any()
    assert (res.tricks[played].sum(axis=1) == 7).all()


def test_threshold_bids_strong_hands_high_and_weak_hands_not_at_all():
    table = Setup("moon", 3).validate().table
    strong = [tiles.parse_tile(x) for x in "6-6 6-5 6-4 6-3 6-2 5-5 4-4".split()]
    weak = [tiles.parse_tile(x) for x in "2-1 3-2 4-3 5-4 6-3 5-1 4-2".split()]
    est = trick_estimate(np.array([strong, weak]))
    assert est[0, 6] > 5 and est[1].max() < 2.5
    th = ThresholdBidder()
    p_make = th.predict_make(np.array([strong, strong]), np.array([6, 6]), np.array([5, 7]), 3, table.rules)
    assert 0 < p_make[1] < p_make[0] < 1                           # a higher bid is less likely to make


def test_threshold_beats_random_on_the_same_deals():
    res = match(Setup("moon", 3), "threshold", "random", 6000, None, seed=3).tables["match"]
    d = res[res.metric == "d_score"].iloc[0]
    assert d.ci_low > 0


def test_defenders_who_gang_up_set_more_contracts():
    """Same deals and bids: the bidder plays greedy; defenders greedy or threshold's default defence."""
    table = Setup("moon", 3).validate().table
    n = 20_000
    hands, widow = engine.deal(np.random.default_rng(5), n, table)
    bidder, bid = np.zeros(n, dtype=np.int64), np.full(n, 4)
    greedy, defend = seats("greedy")[0], seats("threshold")[0]
    tricks = []
    for defence in (greedy, defend):
        lineup = [greedy, defence, defence]
        rng = np.random.default_rng(6)
        h7, _, trump = engine.widow_and_trump(table, hands, widow, bidder, bid, lineup, rng)
        tricks.append(engine.play_tricks(table, h7, bidder, bid, trump, lineup, rng).tricks[:, 0].astype(float))
    d = tricks[1] - tricks[0]                                    # paired: the bidder's tricks, defend - greedy
    assert d.mean() + 1.96 * d.std() / np.sqrt(n) < 0


FAST = [name for name in registered("moon") if name not in ("montecarlo", "pimc")]   # the search players: slow


@pytest.mark.parametrize("players", [3, 4])
def test_no_two_registered_strategies_are_the_same_player(players):
    """Two names for one player would be rated twice in tournaments (defend was threshold)."""
    table = Setup("moon", players).validate().table
    outcomes = {}
    for name in FAST:
        res = engine.play(table, 2000, seats(name, players), np.random.default_rng(1), np.random.default_rng(2))
        outcomes[name] = np.concatenate([res.bid, res.tricks.ravel(), res.score.ravel()])
    for a, b in combinations(FAST, 2):
        assert not np.array_equal(outcomes[a], outcomes[b]), f"{a} and {b} play identically"


def test_deal_around_keeps_the_hand_and_shuffles_the_rest_uniformly():
    table = Setup("moon", 3).validate().table
    hand = np.array([tiles.parse_tile(x) for x in "6-6 6-5 6-4 6-2 5-5 3-3 1-1".split()], dtype=np.int8)
    hands, widow = deal_around(np.random.default_rng(0), table, 1, np.tile(hand, (30_000, 1)))
    assert (hands[:, 1] == hand).all()
    every = np.concatenate([hands.reshape(30_000, -1), widow[:, None]], axis=1)
    assert all(sorted(r) == list(range(22)) for r in every[:200].tolist())
    counts = np.bincount(widow, minlength=22)
    rest = np.setdiff1d(np.arange(22), hand)
    assert counts[hand].sum() == 0
    assert counts[rest].min() > 1700 and counts[rest].max() < 2300           # 2000 expected each


def test_fixed_trump_names_its_trump_and_discards_for_it():
    table = Setup("moon", 3).validate().table
    base = seats("threshold")[0]
    lineup = [FixedTrump(base, 2), base, base]
    rng = np.random.default_rng(1)
    hands, widow = engine.deal(rng, 500, table)
    _, discard, trump = engine.widow_and_trump(table, hands, widow, np.zeros(500, dtype=np.int64), np.full(500, 4),
                                               lineup, rng)
    assert (trump == 2).all()
    assert not tiles.IS_DOUBLE[discard].all()


def test_montecarlo_bidder_bids_a_sure_hand_and_passes_a_hopeless_one():
    mc = parse_seat_specs("moon", ["montecarlo:samples=24"], 3, default="random", required=METHODS).strategies[0]
    table = Setup("moon", 3).validate().table
    from moonshot.simulator.moon.views import BID_VALUES, BidView
    sure = [tiles.parse_tile(x) for x in "6-6 6-5 6-4 6-3 6-2 5-5 4-4".split()]
    hopeless = [tiles.parse_tile(x) for x in "2-1 3-2 4-3 5-4 6-3 5-1 4-2".split()]
    view = BidView(3, table.rules, 0, np.zeros(2, dtype=np.int64), np.array([sure, hopeless], dtype=np.int8),
                   np.full((2, 3), -1), np.zeros(2, dtype=np.int16), np.ones((2, len(BID_VALUES)), dtype=bool),
                   np.zeros((2, 3)), np.zeros(2, dtype=np.int64))
    bids = mc.bid(view, np.random.default_rng(0))
    assert bids[0] >= 6 and bids[1] == 0
    p = mc.predict_make(np.array([sure]), np.array([6]), np.array([7]), 3, table.rules)
    assert p[0] > 0.8


@pytest.mark.parametrize("players,spec", [(3, "threshold"), (4, "greedy"), (3, "threshold:play=greedy,margin=1")])
def test_heuristic_hands_replay_through_the_reference(players, spec):
    """Parity with the rules oracle also holds for the built-in strategies' choices."""
    from tests.moon_testing import replay_hand
    table = Setup("moon", players).validate().table
    res = engine.play(table, 150, seats(spec, players), np.random.default_rng(11), np.random.default_rng(12),
                       trace=True)
    for i in range(150):
        replay_hand(res, i, table)
