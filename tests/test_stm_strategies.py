"""Strategies: legal, deterministic per seed, seeing only their own seat, and better than random."""
import numpy as np
import pytest

from moonshot.analysis.common import Setup, match
from moonshot.analysis.shoot_the_moon import add_big_moon
from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.simulator.shoot_the_moon.engine import Table, deal, play_games, play_hand
from moonshot.simulator.shoot_the_moon.views import PlayView
from moonshot.simulator.shoot_the_moon.rules import Rules
from moonshot.strategies.base import parse_seat_specs


class Spy:
    """Records what it is shown, then plays like random."""

    def __init__(self):
        self.views = []

    def play(self, view: PlayView, rng):
        self.views.append((view.seat.copy(), view.hand.copy(), view.legal.copy()))
        return np.argmax(view.legal, axis=1)


def test_a_strategy_sees_its_own_hand_only():
    table = Table(4, False, Rules())
    rng = np.random.default_rng(0)
    hands = deal(rng, 200, 4)
    spy = Spy()
    res = play_hand(table, hands, np.zeros(200, dtype=np.int8), np.full((200, 4), 2), [spy] * 4, rng)
    for seat, hand, legal in spy.views:
        own = res.hands[np.arange(200), seat]
        assert np.array_equal(hand, own)             # the hand shown is the mover's, nobody else's
        assert legal.any(axis=1).all()               # never an empty legal set
    public = {name for name in dir(spy.views and PlayView) if not name.startswith("_")}
    assert not {"hands", "rows", "deck"} & public


@pytest.mark.parametrize("strategy", ["random", "greedy", "odd"])
def test_seed_reproduces_a_round(strategy):
    table = Table(5, False, Rules())
    seats = parse_seat_specs("shoot-the-moon", [strategy], 5, default=strategy).strategies
    out = []
    for _ in range(2):
        rng = np.random.default_rng(42)
        r = play_hand(table, deal(rng, 300, 5), np.zeros(300, np.int8), np.full((300, 5), 2), seats, rng)
        out.append(r.play_cards)
    assert np.array_equal(*out)


def test_odd_planner_makes_odd_more_often_than_random_and_greedy():
    setup = Setup("shoot-the-moon", 4, False)
    for other in ("random", "greedy"):
        res = match(setup, "odd", other, 20_000, None, seed=5).tables["match"]
        d_odd = res[res.metric == "d_odd"].iloc[0]
        d_chips = res[res.metric == "d_chips"].iloc[0]
        assert d_odd.ci_low > 0 and d_chips.ci_low > 0


def test_greedy_wins_more_tricks_than_random():
    table = Table(4, False, Rules())
    rng = np.random.default_rng(1)
    hands = deal(rng, 20_000, 4)
    dealer = np.zeros(20_000, np.int8)
    g = parse_seat_specs("shoot-the-moon", ["random", "0=greedy"], 4, default="random").strategies
    r = parse_seat_specs("shoot-the-moon", ["random"], 4, default="random").strategies
    tg = play_hand(table, hands, dealer, np.full((20_000, 4), 2), g, np.random.default_rng(2)).tricks[:, 0]
    tr = play_hand(table, hands, dealer, np.full((20_000, 4), 2), r, np.random.default_rng(2)).tricks[:, 0]
    assert tg.mean() > tr.mean() + 0.1


def test_odd_planner_never_drops_a_little_moon_on_its_partner():
    """When `odd` follows with a Little Moon while holding another legal card, an opponent is winning."""
    table = Table(4, True, Rules())
    seats = parse_seat_specs("shoot-the-moon", ["odd"], 4, default="odd").strategies
    rng = np.random.default_rng(3)
    n = 3_000
    r = play_hand(table, deal(rng, n, 4), rng.integers(0, 4, n).astype(np.int8), np.full((n, 2), 2), seats,
                   rng, trace=True)
    side = table.side_of_seat
    onto_opponents = 0
    for step in range(20):
        k = step % 4
        if k == 0:
            continue
        _, legal = r.legal_trace[step]
        for i in np.flatnonzero(np.isin(r.play_cards[:, step], deck.LITTLE_MOONS)):
            if not (np.isin(legal[i], range(48)) | np.isin(legal[i], deck.BIG_MOONS)).any():
                continue                                  # nothing but Little Moons to play
            cards = r.play_cards[i, step - k:step]
            lead = cards[0]
            lead_class = deck.SUIT[lead] if lead < 48 else (4 if lead < 50 else 5)
            winner_seat = r.play_seats[i, step - k + int(np.argmax(table.strength[lead_class, cards]))]
            assert side[winner_seat] != side[r.play_seats[i, step]]
            onto_opponents += 1
    assert onto_opponents > 50


def test_add_big_moon_swaps_one_card_and_keeps_a_deck():
    rng = np.random.default_rng(9)
    hands = deal(rng, 2_000, 3)
    new, eligible = add_big_moon(hands, 0, rng)
    before = np.isin(hands[:, 0], deck.BIG_MOONS).sum(axis=1)
    after = np.isin(new[:, 0], deck.BIG_MOONS).sum(axis=1)
    assert np.array_equal(after, np.where(eligible, before + 1, before))
    assert np.array_equal(eligible, before < 2)
    flat = new.reshape(2_000, -1)
    assert all(len(set(row)) == 15 for row in flat.tolist())
    assert (np.isin(new[:, 0], deck.LITTLE_MOONS).sum(1) == np.isin(hands[:, 0], deck.LITTLE_MOONS).sum(1)).all()


def test_games_end_by_the_rules_and_finished_games_are_inert():
    table = Table(3, False, Rules())
    seats = parse_seat_specs("shoot-the-moon", ["greedy"], 3, default="greedy").strategies
    g = play_games(table, 3_000, seats, np.random.default_rng(1), np.random.default_rng(2))
    top = g.chips.max(axis=1)
    assert (g.winner >= 0).all() and (top >= 7).all()
    assert (g.chips[np.arange(3_000), g.winner] == top).all()
    assert ((g.chips == top[:, None]).sum(axis=1) == 1).all()
    assert g.rounds.min() >= 2
