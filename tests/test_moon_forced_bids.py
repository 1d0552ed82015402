"""Bid success as a player asks it (analysis.moon_forced): every bid forced on the same deals, beside
the contracts the players chose. A laydown makes every bid; a hand with no trump and no double makes
less the higher it is forced to bid; play that may read the bid is played at each bid on the same
random numbers; `analyze moon bid-success` prints both pairs of tables, each saying its question."""
import json

import numpy as np
import pytest

from moonshot.analysis.common import make_setup
from moonshot.analysis.moon import _bid_levels
from moonshot.analysis.moon_forced import forced_bids, hand_class, reads_bid
from moonshot.analysis.stats import wilson
from moonshot.simulator.moon import engine, tiles
from moonshot.strategies.moon import FixedTrump
from tests.test_cli import run

# Seven trumps: with 3 players the 22-tile set has six sixes (no 6-0), so its laydown is the seven
# doubles with doubles trump; with 4 players every six.
LAYDOWN = {3: ("0-0 1-1 2-2 3-3 4-4 5-5 6-6", tiles.DOUBLES), 4: ("6-6 6-5 6-4 6-3 6-2 6-1 6-0", 6)}
# No tile of the trump the bidder is made to name and no double (doubles are trump at 3 players).
HOPELESS = {3: ("6-5 6-4 6-3 5-4 5-3 4-3 2-1", tiles.DOUBLES), 4: ("5-4 5-3 5-2 5-1 4-3 4-2 3-1", 6)}


def forced(players, hand, deals, seed, lineup=None, trump=None, seated=()):
    """{bid: (trump named, made, points)} with seat 0 holding `hand` on `deals` random deals of the rest
    (players: `lineup`, else the strategies `seated` by name, else the default)."""
    setup = make_setup("moon", players=players, strategies=seated)
    table = setup.table
    strategies = list(lineup or setup.seats.strategies)
    if trump is not None:
        strategies[0] = FixedTrump(strategies[0], trump)
    ids = tiles.parse_hand(hand, players, table.rules)
    hands, widow = engine.deal_with_hand(np.random.default_rng(seed), deals, table, 0, ids)
    bidder = np.zeros(deals, dtype=np.int64)
    levels = _bid_levels(table)
    return hands, {k: (t, made, pts) for k, t, made, pts in
                   forced_bids(table, strategies, hands, widow, bidder, levels, np.random.SeedSequence(seed))}


@pytest.mark.parametrize("seated", [("threshold",), ()])          # threshold by name, and the default (the expert)
@pytest.mark.parametrize("players", [3, 4])
def test_a_laydown_makes_every_bid(players, seated):
    """Made to name the suit it holds seven of, or naming trump by its own rule (threshold names
    no-trump with the seven doubles: a laydown too), it makes every bid on every deal."""
    hand, trump = LAYDOWN[players]
    for named in (trump, None):
        hands, out = forced(players, hand, 500, 5, trump=named, seated=seated)
        assert list(out) == [4, 5, 6, 7, 21]
        if named is not None:
            assert (hand_class(hands[:, 0], out[4][0])["trump_tiles"] == 7).all()
        for k, (_, made, points) in out.items():
            assert made.all() and (points >= k).all(), (named, k)


@pytest.mark.parametrize("seated", [("threshold",), ()])          # threshold by name, and the default (the expert)
@pytest.mark.parametrize("players", [3, 4])
def test_a_hand_with_no_trump_and_no_double_makes_less_the_higher_it_bids(players, seated):
    hand, trump = HOPELESS[players]
    hands, out = forced(players, hand, 4_000, 11, trump=trump, seated=seated)
    cls = hand_class(hands[:, 0], out[4][0])
    assert (cls["trump_tiles"] == 0).all() and (cls["doubles"] == 0).all()
    rates = [made.mean() for _, made, _ in out.values()]
    assert all(a >= b for a, b in zip(rates, rates[1:])), rates
    _, lo4, _ = wilson(out[4][1].sum(), len(out[4][1]))
    _, _, hi7 = wilson(out[7][1].sum(), len(out[7][1]))
    assert lo4 > hi7, rates                                  # strictly lower at 7 than at 4, beyond noise


class Spy:
    """One strategy for every seat that notes the bid every play shows; it declares that it ignores
    the bid only when told to (`ignores`)."""

    def __init__(self, base, ignores: bool):
        self.base, self.seen = base, set()
        if ignores:
            self.reads_bid = False

    def __getattr__(self, name):
        if name == "reads_bid":
            raise AttributeError(name)
        return getattr(self.base, name)

    def play(self, view, rng):
        self.seen.update(int(b) for b in np.unique(view.bid))
        return self.base.play(view, rng)


@pytest.mark.parametrize("players", [3, 4])
def test_play_that_may_read_the_bid_is_played_at_each_bid_on_the_same_random_numbers(players):
    """Random play draws from the generator at every tile: each bid's play, started afresh from the
    same seed, is the one play of the same lineup declaring that it ignores the bid, deal for deal."""
    setup = make_setup("moon", players=players, strategies=("random",))
    hand = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"
    runs = {}
    for ignores in (True, False):
        spy = Spy(setup.seats.strategies[0], ignores)
        assert reads_bid([spy] * players) is not ignores
        runs[ignores] = forced(players, hand, 300, 3, lineup=[spy] * players)[1]
        levels = set(_bid_levels(setup.table))
        assert spy.seen == ({setup.table.rules.min_bid} if ignores else levels)    # the bids play was shown
    for k in levels:
        for once, each in zip(runs[True][k], runs[False][k]):
            assert np.array_equal(once, each), k
    assert not runs[True][4][1].all() and runs[True][4][1].any()       # random play: some deals make, some not


def test_only_declared_players_are_played_once():
    setup = make_setup("moon")
    assert not reads_bid([setup.strategy(s) for s in ("threshold", "greedy", "random", "montecarlo")])
    assert reads_bid([setup.strategy("pimc")])                 # it values every play by the contract's points


@pytest.mark.parametrize("players", ["3", "4"])
def test_bid_success_prints_both_questions(players, capsys):
    code, out, err = run(["analyze", "moon", "bid-success", "-n", "2000", "-p", players], capsys)
    assert code == 0, err
    for table in ("by_bid", "by_class", "if_bid", "if_bid_by_class"):
        assert f"\n{table}  (estimate" in out
    assert "by_bid and by_class answer 'when the player chose to bid k (who bids what)'" in out
    assert "if_bid and if_bid_by_class answer 'if this hand bids k (every bid forced on the same deals)'" in out
    code, out, _ = run(["analyze", "moon", "bid-success", "-n", "2000", "-p", players, "-f", "json"], capsys)
    tables = json.loads(out)["tables"]
    made = [r for r in tables["if_bid"] if r["metric"] == "p_make_forced"]
    assert [r["bid"] for r in made] == [4, 5, 6, 7, 21] and all(r["n"] == 2000 for r in made)
    rates = [r["estimate"] for r in made]
    # threshold's one play is scored at each bid; the default (the expert) plays each bid afresh on the
    # same random numbers by the tricks it needs, the lower bids far apart (90/70/42/19%, 3 players); 7 and 21
    # need every trick and are played alike, but for the trumps and discards whose expected scores tie up to
    # the float32 network's rounding, broken by each contract's own points (15.6% and 15.8% at 4 players)
    assert all(a >= b for a, b in zip(rates[:4], rates[1:4])) and rates[0] > rates[3]
    assert abs(rates[3] - rates[4]) <= 0.01
    classes = [r for r in tables["if_bid_by_class"] if r["metric"] == "p_make_forced"]
    for total in (r for r in classes if r["doubles"] == "all"):
        parts = [r for r in classes if r["doubles"] != "all" and all(
            r[k] == total[k] for k in ("bid", "trump_kind", "trump_tiles"))]
        assert total["n"] == sum(r["n"] for r in parts)
        assert total["estimate"] == pytest.approx(sum(r["estimate"] * r["n"] for r in parts) / total["n"])
    assert sum(r["n"] for r in classes if r["doubles"] == "all" and r["bid"] == 4) == 2000


def test_the_figure_shows_the_two_questions_apart():
    """The report's figure: one panel per question, each titled with it, nothing a reader trips over."""
    import matplotlib.pyplot as plt

    from moonshot.analysis.moon import bid_success
    from moonshot.reports.moon import bid_success_figure
    from tests.test_figures import problems
    res = bid_success(make_setup("moon"), 3_000, 2026)
    fig = bid_success_figure(res.tables["by_class"], res.tables["if_bid_by_class"])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[0].startswith("When the player chose to bid k") and "selection" in titles[0]
    assert titles[1].startswith("If this hand bids k") and "forced" in titles[1]
    assert problems(fig) == []
    plt.close(fig)
