"""The Moon batch engine: table, deals, views, validation, scoring, games, seeds, hand histories."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from tests.moon_testing import IllegalPlayer, RandomPlayer, SlowRandomPlayer, replay_hand
from moonshot.simulator.errors import BadInput, IllegalMove
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine.table import rules_tables
from moonshot.simulator.moon.engine import (
    BITS7, UNIFORM, Table, deal, deal_with_hand, game_winner, play, play_games, play_tricks, run_auction,
    score, widow_and_trump,
)
from moonshot.simulator.moon.history import records, replay
from moonshot.simulator.moon.rules import FLAGS, Rules, parse_rules
from moonshot.simulator.moon.views import BidView, DiscardView, PlayView, TrumpView


# ---------------------------------------------------------------------------- table

def test_table_properties_and_validation():
    t3 = Table(3, Rules())
    assert t3.tile_set.tolist() == list(range(22)) and t3.has_widow
    assert t3.side_of_seat.tolist() == [0, 1, 2] and t3.n_sides == 3
    assert t3.allowed_trumps.dtype == bool and t3.allowed_trumps.shape == (9,)
    assert np.flatnonzero(t3.allowed_trumps).tolist() == ref.allowed_trumps(3, Rules())
    t21 = Table(3, parse_rules(["moon.widow=none"]))
    assert len(t21.tile_set) == 21 and not t21.has_widow and not t21.allowed_trumps[0]
    t4 = Table(4, Rules())
    assert len(t4.tile_set) == 28 and not t4.has_widow
    assert t4.side_of_seat.tolist() == [0, 1, 0, 1] and t4.n_sides == 2
    assert not t4.allowed_trumps[tiles.DOUBLES]
    assert Table(4, Rules(allow_doubles_trump_4p=True)).allowed_trumps[tiles.DOUBLES]
    assert t4.tables is rules_tables(Rules())
    with pytest.raises(BadInput):
        Table(5, Rules())
    with pytest.raises(BadInput):
        Table(4, Rules(tile_set="keep00_22"))
    with pytest.raises(BadInput):
        Table(3, Rules(tile_set="keep00_22", widow="none"))


def test_uniform_table_is_uniform_over_set_bits():
    for mask in range(1, 128):
        bits = np.flatnonzero(BITS7[mask])
        counts = np.bincount(UNIFORM[mask], minlength=7)
        assert set(np.flatnonzero(counts)) == set(bits)
        assert len(set(counts[bits])) == 1                 # every set bit equally often


# ---------------------------------------------------------------------------- deals

@pytest.mark.parametrize("players,flags", [(3, []), (3, ["moon.widow=none"]), (4, [])])
def test_deal_layout_and_uniformity(players, flags):
    table = Table(players, parse_rules(flags))
    rng = np.random.default_rng(3)
    n = 44_000
    hands, widow = deal(rng, n, table)
    assert hands.shape == (n, players, 7) and hands.dtype == np.int8
    assert (widow is None) == (not table.has_widow)
    flat = hands.reshape(n, -1)
    if widow is not None:
        assert widow.shape == (n,) and widow.dtype == np.int8
        flat = np.concatenate([flat, widow[:, None]], axis=1)
    m = len(table.tile_set)
    assert (np.sort(flat, axis=1) == np.arange(m)).all()        # each game a deal of the whole set
    # every tile lands in every position about equally often
    for pos in (0, 7, flat.shape[1] - 1):
        counts = np.bincount(flat[:, pos], minlength=m)
        assert counts.min() > 0.85 * n / m and counts.max() < 1.15 * n / m
    # and seat 0 holds a given pair of tiles as often as chance says
    both = ((flat[:, :7] == 3).any(axis=1) & (flat[:, :7] == 20).any(axis=1)).mean()
    expected = 7 * 6 / (m * (m - 1))
    assert abs(both - expected) < 0.25 * expected


@pytest.mark.parametrize("players", [3, 4])
def test_deal_of_some_games_is_the_same_as_the_full_deal(players):
    """play_games deals only the games still going, from the same random numbers as a full deal."""
    table = Table(players, Rules())
    games = np.sort(np.random.default_rng(1).choice(2000, 700, replace=False))
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    hands, widow = deal(rng_a, 2000, table)
    some, some_widow = deal(rng_b, 2000, table, games)
    assert (some == hands[games]).all() and (widow is None) == (some_widow is None)
    if widow is not None:
        assert (some_widow == widow[games]).all()
    assert rng_a.random() == rng_b.random()                  # and the generator moved on the same way


@pytest.mark.parametrize("players,seat", [(3, 0), (3, 2), (4, 1)])
def test_deal_with_hand(players, seat):
    table = Table(players, Rules())
    rng = np.random.default_rng(8)
    hand = [20, 14, 9, 5, 2, 0, 12]
    n = 30_000
    hands, widow = deal_with_hand(rng, n, table, seat, hand)
    assert hands.shape == (n, players, 7) and hands.dtype == np.int8
    assert (hands[:, seat] == np.array(hand)).all()
    flat = np.concatenate([hands.reshape(n, -1)] + ([widow[:, None]] if widow is not None else []), axis=1)
    assert (np.sort(flat, axis=1) == np.arange(len(table.tile_set))).all()
    rest = sorted(set(table.tile_set.tolist()) - set(hand))
    other = (seat + 1) % players
    counts = np.bincount(hands[:, other].reshape(-1), minlength=len(table.tile_set))
    expected = n * 7 / len(rest)
    assert counts[hand].sum() == 0
    assert counts[rest].min() > 0.9 * expected and counts[rest].max() < 1.1 * expected
    if widow is not None:
        wc = np.bincount(widow, minlength=22)[rest]
        assert wc.min() > 0.75 * n / len(rest)


def test_deal_with_hand_rejects_bad_hands():
    table = Table(3, Rules())
    rng = np.random.default_rng(0)
    with pytest.raises(BadInput):
        deal_with_hand(rng, 5, table, 0, [1, 1, 2, 3, 4, 5, 6])
    with pytest.raises(BadInput):
        deal_with_hand(rng, 5, table, 0, [22, 1, 2, 3, 4, 5, 6])      # 1-0 is not in the 22-tile set
    with pytest.raises(BadInput):
        deal_with_hand(rng, 5, table, 0, [1, 2, 3])
    with pytest.raises(BadInput):
        deal_with_hand(rng, 5, table, 3, [0, 1, 2, 3, 4, 5, 6])


# ---------------------------------------------------------------------------- views and conformance

class CheckingPlayer(RandomPlayer):
    """Random play that records a copy of every view (checked after the hand against the result)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bids, self.discards, self.trumps, self.plays = [], [], [], []

    @staticmethod
    def _copy(view, names):
        return {k: (np.array(getattr(view, k)) if isinstance(getattr(view, k), np.ndarray) else getattr(view, k))
                for k in names}

    def bid(self, view, rng):
        assert isinstance(view, BidView)
        self.bids.append(self._copy(view, ["position", "seat", "hand", "bids", "high_bid", "legal", "legal_bits",
                                           "scores", "side"]))
        return super().bid(view, rng)

    def discard(self, view, rng):
        assert isinstance(view, DiscardView)
        self.discards.append(self._copy(view, ["seat", "hand", "bid", "trump", "scores"]))
        return super().discard(view, rng)

    def trump(self, view, rng):
        assert isinstance(view, TrumpView)
        self.trumps.append(self._copy(view, ["seat", "hand", "bid", "legal", "scores"]))
        return super().trump(view, rng)

    def play(self, view, rng):
        assert isinstance(view, PlayView)
        names = [f for f in ("trick_no", "position", "seat", "side", "hand", "live", "legal", "trump", "bidder",
                             "bid", "trick", "trick_seats", "led_suit", "winning_seat", "winning_power", "tricks",
                             "seen", "void", "scores", "side_of_seat", "legal_bits", "live_bits", "called_end",
                             "seen_bits", "void_bits", "discard")]
        rec = self._copy(view, names)
        assert rec["legal"].any(axis=1).all()                     # never an empty legal mask
        assert not (rec["legal"] & ~rec["live"]).any()
        assert (BITS7[rec["legal_bits"]] == rec["legal"]).all() and (BITS7[rec["live_bits"]] == rec["live"]).all()
        sub = view.take(np.arange(len(view))[::2])                # take() selects games consistently
        assert (sub.hand == rec["hand"][::2]).all() and (sub.void == rec["void"][::2]).all()
        assert (sub.trick == rec["trick"][::2]).all() and (sub.seen == rec["seen"][::2]).all()
        self.plays.append(rec)
        return super().play(view, rng)


@pytest.mark.parametrize("players,flags", [
    (3, []), (3, ["moon.widow_timing=trump_first", "moon.first_lead_trump=true"]),
    (3, ["moon.widow=none", "moon.lead_suit_rule=leader_calls_end"]),
    (4, ["moon.notrump_doubles=own_suit", "moon.first_lead_trump=true"]),
])
def test_views_show_exactly_the_public_state(players, flags):
    rules = parse_rules(flags + ["moon.all_pass=force_dealer"])    # every hand is played
    table = Table(players, rules)
    rng = np.random.default_rng(11)
    n = 120
    player = CheckingPlayer(favour=tiles.NOTRUMP if rules.notrump_doubles == "own_suit" else None)
    scores = rng.integers(-5, 15, (n, table.n_sides)).astype(np.int16)
    res = play(table, n, [player] * players, rng, rng, scores=scores)
    P, ar = players, np.arange(n)
    assert (res.bidder >= 0).all()
    # bidding views
    for pos, v in enumerate(player.bids):
        assert v["position"] == pos
        rows = np.flatnonzero(res.calls[:, pos] >= 0)
        assert len(rows) == len(v["seat"])
        assert (v["seat"] == res.call_seats[rows, pos]).all()
        assert (v["hand"] == res.hands[rows, v["seat"]]).all()
        assert (v["legal_bits"] == res.bid_legal[rows, pos]).all() and (BITS7[v["legal_bits"]] == v["legal"]).all()
        assert (v["scores"] == scores[rows]).all() and (v["side"] == table.side_of_seat[v["seat"]]).all()
        for r, row in enumerate(rows):
            earlier = [(s, c) for s, c in zip(res.call_seats[row, :pos], res.calls[row, :pos])]
            expect = [-1] * P
            for s, c in earlier:
                expect[s] = c
            assert v["bids"][r].tolist() == expect
            assert v["high_bid"][r] == max([0] + [c for _, c in earlier])
    # widow and trump views
    if table.has_widow:
        (d,) = player.discards
        assert (d["seat"] == res.bidder).all() and (d["bid"] == res.bid).all()
        assert (d["hand"][:, :7] == res.hands[ar, res.bidder]).all() and (d["hand"][:, 7] == res.widow).all()
        trump_first = rules.widow_timing == "trump_first"
        assert ((d["trump"] == res.trump) if trump_first else (d["trump"] == -1)).all()
    (tv,) = player.trumps
    assert (tv["legal"] == table.allowed_trumps).all()
    assert tv["hand"].shape[1] == (8 if table.has_widow and rules.widow_timing == "trump_first" else 7)
    # play views, step by step
    tab = table.tables
    assert len(player.plays) == 7 * P
    for j, v in enumerate(player.plays):
        t, k = divmod(j, P)
        assert v["trick_no"] == t and v["position"] == k
        seat = res.play_seats[:, j]
        assert (v["seat"] == seat).all() and (v["side"] == table.side_of_seat[seat]).all()
        assert (v["hand"] == res.hands7[ar, seat]).all()
        played_before = res.play_tiles[:, :j]
        mine_played = (v["hand"][:, :, None] == played_before[:, None, :]).any(axis=2)
        assert (v["live"] == ~mine_played).all()
        assert (v["trump"] == res.trump).all() and (v["bidder"] == res.bidder).all() and (v["bid"] == res.bid).all()
        assert (v["scores"] == scores).all()
        assert (v["trick"][:, :k] == res.play_tiles[:, t * P:t * P + k]).all() and (v["trick"][:, k:] == -1).all()
        assert (v["trick_seats"][:, :k] == res.play_seats[:, t * P:t * P + k]).all()
        seen = np.zeros((n, 28), dtype=bool)
        seen[np.repeat(ar, j), played_before.reshape(-1)] = True
        assert (v["seen"] == seen).all()
        assert (v["seen_bits"] == (seen * (1 << np.arange(28, dtype=np.int64))).sum(axis=1)).all()
        wins = res.trick_winners[:, :t]
        for side in range(table.n_sides):
            assert (v["tricks"][:, side] == (table.side_of_seat[wins] == side).sum(axis=1)).all()
        assert (v["discard"] == np.where(seat == res.bidder, res.discard, -1)).all()
        lead = res.play_tiles[:, t * P]
        called = res.called_ends[:, t]
        if k == 0:
            assert (v["led_suit"] == -1).all() and (v["winning_seat"] == -1).all() and (v["called_end"] == -1).all()
        else:
            led = np.where(called >= 0, called, tab.LED_SUIT[lead, res.trump])
            assert (v["led_suit"] == led).all() and (v["called_end"] == called).all()
            trick = res.play_tiles[:, t * P:t * P + k]
            power = tab.POWER[trick, led[:, None], res.trump[:, None]]
            assert (v["winning_power"] == power.max(axis=1)).all()
            assert (v["winning_seat"] == res.play_seats[ar, t * P + power.argmax(axis=1)]).all()
        # void: recomputed here with the reference's suit membership
        expect = np.zeros((n, P, 9), dtype=bool)
        for i in range(n):
            trump = int(res.trump[i])
            for jj in range(j):
                tt, kk = divmod(jj, P)
                s_, tile = int(res.play_seats[i, jj]), int(res.play_tiles[i, jj])
                if kk:
                    c = int(res.called_ends[i, tt])
                    led_i = ref.led_suit(int(res.play_tiles[i, tt * P]), trump, rules, None if c < 0 else c)
                    if led_i not in ref.suits(tile, trump, rules):
                        expect[i, s_, led_i] = True
                elif jj == 0 and rules.first_lead_trump and trump != tiles.NOTRUMP and not ref.is_trump(tile, trump):
                    expect[i, s_, tiles.TRUMP_SUIT] = True
        assert (v["void"] == expect).all()
        assert (v["void_bits"] == (expect * (1 << np.arange(9))).sum(axis=2)).all()
    assert player.plays[-1]["void"].any()


def test_conformance_dtypes_and_shapes():
    for players in (3, 4):
        table = Table(players, Rules())
        rng = np.random.default_rng(2)
        n = 500
        res = play(table, n, [RandomPlayer()] * players, rng, rng)
        S = table.n_sides
        assert res.hands.shape == (n, players, 7) and res.hands.dtype == np.int8
        for name, shape in [("calls", (n, table.max_calls)), ("call_seats", (n, table.max_calls)),
                            ("bidder", (n,)), ("bid", (n,)), ("discard", (n,)), ("trump", (n,)),
                            ("play_seats", (n, 7 * players)), ("play_tiles", (n, 7 * players)),
                            ("called_ends", (n, 7)), ("trick_winners", (n, 7)), ("tricks_seat", (n, players)),
                            ("tricks", (n, S)), ("wins_game", (n,)), ("loses_game", (n,))]:
            arr = getattr(res, name)
            assert arr.shape == shape and arr.dtype == np.int8, name
        assert res.score.shape == (n, S) and res.score.dtype == np.int16
        assert res.made.dtype == bool and res.bid_legal.dtype == np.uint8
        played = res.bidder >= 0
        assert played.any() and (~played).any()
        assert (res.tricks[played].sum(axis=1) == 7).all() and (res.tricks[~played] == 0).all()
        # every tile played once per played hand
        assert (np.sort(res.play_tiles[played], axis=1)[:, :-1] != np.sort(res.play_tiles[played], axis=1)[:, 1:]).all()


def test_play_tricks_and_widow_and_trump_directly():
    """The phase functions used on their own (as the analysis layer does)."""
    table = Table(3, Rules())
    rng = np.random.default_rng(4)
    n = 300
    hands, widow = deal(rng, n, table)
    first = rng.integers(0, 3, n)
    strat = [RandomPlayer()] * 3
    auc = run_auction(table, hands, first, None, strat, rng)
    assert auc.calls.shape == (n, 3) and ((auc.bidder < 0) == auc.thrown_in).all()
    hands7, discard, trump = widow_and_trump(table, hands, widow, auc.bidder, auc.bid, strat, rng)
    played = auc.bidder >= 0
    assert (discard[~played] == -1).all() and (trump[~played] == -1).all() and (trump[played] >= 0).all()
    assert (hands7[~played] == hands[~played]).all()
    ar = np.flatnonzero(played)
    for i in ar[:50]:
        b = auc.bidder[i]
        eight = sorted(hands[i, b].tolist() + [int(widow[i])])
        eight.remove(int(discard[i]))
        assert sorted(hands7[i, b].tolist()) == eight
    res = play_tricks(table, hands7[played], auc.bidder[played], auc.bid[played], trump[played], strat, rng)
    assert (res.tricks.sum(axis=1) == 7).all()
    assert (res.play_seats[:, 0] == auc.bidder[played]).all()            # MOON-6.1 the bidder leads
    pts, made = score(table, auc.bidder, auc.bid, np.zeros((n, 3), dtype=np.int8))
    assert (pts[~played] == 0).all() and not made.any()
    with pytest.raises(ValueError):
        play_tricks(table, hands7, auc.bidder, auc.bid, trump, strat, rng)          # thrown-in games included


# ---------------------------------------------------------------------------- illegal moves

@pytest.mark.parametrize("phase", ["bid", "discard", "trump", "play", "call_end"])
def test_illegal_choice_names_the_strategy(phase):
    flags = ["moon.lead_suit_rule=leader_calls_end"] if phase == "call_end" else []
    table = Table(3, parse_rules(flags))
    bad = IllegalPlayer(phase)
    bad.spec = "bad_plugin.py:Cheater"
    rng = np.random.default_rng(1)
    with pytest.raises(IllegalMove, match="bad_plugin.py:Cheater"):
        play(table, 200, [RandomPlayer(), bad, RandomPlayer()], rng, rng)


def test_illegal_choice_without_spec_uses_the_class_name_and_checks_shapes():
    table = Table(4, Rules())

    class WrongShape(RandomPlayer):
        def play(self, view, rng):
            return super().play(view, rng)[:-1]

    class FloatBids(RandomPlayer):
        def bid(self, view, rng):
            return super().bid(view, rng).astype(float)

    rng = np.random.default_rng(1)
    with pytest.raises(IllegalMove, match="WrongShape"):
        play(table, 100, [WrongShape()] * 4, rng, rng)
    with pytest.raises(IllegalMove, match="FloatBids"):
        play(table, 100, [FloatBids()] * 4, rng, rng)
    with pytest.raises(IllegalMove, match="IllegalPlayer"):
        play(table, 100, [IllegalPlayer("trump")] * 4, rng, rng)       # doubles are not allowed in 4p


def test_strategies_are_asked_once_per_step_per_object():
    class Counting(RandomPlayer):
        calls = 0

        def play(self, view, rng):
            Counting.calls += 1
            return super().play(view, rng)

    table = Table(3, Rules(all_pass="force_dealer"))
    shared = Counting()
    rng = np.random.default_rng(2)
    play(table, 100, [shared, shared, SlowRandomPlayer()], rng, rng)
    assert Counting.calls == 21                         # one call per play step for seats 0 and 1 together


# ---------------------------------------------------------------------------- scoring and game ends

@pytest.mark.parametrize("players,flags", [
    (3, []), (3, ["moon.bid_success=strictly_greater"]), (3, ["moon.scoring=marks7"]),
    (3, ["moon.moon_bid_scoring=instant_win_or_loss"]), (4, []), (4, ["moon.bidder_score_4p=bid"]),
    (4, ["moon.scoring=marks7", "moon.moon_bid_scoring=instant_win"]),
])
def test_score_matches_reference_everywhere(players, flags):
    rules = parse_rules(flags)
    table = Table(players, rules)
    rows = []
    for bidder, bid in itertools.product(range(players), [3, 4, 5, 6, 7, 21]):
        splits = [c for c in itertools.product(range(8), repeat=table.n_sides) if sum(c) == 7]
        for tricks in splits:
            rows.append((bidder, bid, tricks))
    rows.append((-1, 0, (0,) * table.n_sides))
    bidder = np.array([r[0] for r in rows])
    bid = np.array([r[1] for r in rows])
    tricks = np.array([r[2] for r in rows], dtype=np.int8)
    pts, made = score(table, bidder, bid, tricks)
    for i, (b, bd, tr) in enumerate(rows):
        hs = ref.score_hand(players, None if b < 0 else b, None if b < 0 else bd, list(tr), rules)
        assert list(hs.score) == pts[i].tolist()
        assert bool(hs.made) == made[i]


@pytest.mark.parametrize("players,flags", [(3, []), (3, ["moon.end_tie=bidder_goes_out"]),
                                           (4, ["moon.end_tie=bidder_goes_out", "moon.scoring=marks7"])])
def test_game_winner_matches_reference(players, flags):
    rules = parse_rules(flags)
    table = Table(players, rules)
    rng = np.random.default_rng(9)
    n = 4000
    S = table.n_sides
    target = ref.target_score(rules)
    scores = rng.integers(target - 3, target + 3, (n, S))
    bidder = rng.integers(-1, players, n)
    wins = np.where(rng.random(n) < 0.1, rng.integers(0, S, n), -1)
    loses = np.where((wins < 0) & (rng.random(n) < 0.1), rng.integers(0, S, n), -1)
    got = game_winner(table, scores, bidder, wins, loses)
    for i in range(n):
        w = ref.game_winner(scores[i].tolist(), rules, None if bidder[i] < 0 else int(bidder[i]),
                            wins_game=None if wins[i] < 0 else int(wins[i]),
                            loses_game=None if loses[i] < 0 else int(loses[i]))
        assert (-1 if w is None else w) == got[i]


def test_games_seeds_reproduce_and_finished_games_are_inert():
    table = Table(3, Rules())
    strat = [RandomPlayer(p_moon=0.03, cautious=True)] * 3

    def run(seed, strategies=strat):
        return play_games(table, 300, strategies, np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1]),
                          max_hands=120, keep_hands=True)

    a, b = run(5), run(5)
    for name in ("winner", "hands", "scores", "thrown_in", "contracts", "made", "moon_bids", "first_bidder"):
        assert (getattr(a, name) == getattr(b, name)).all(), name
    c = run(6)
    assert not (a.scores == c.scores).all()
    assert a.winner.dtype == np.int8 and a.scores.dtype == np.int16
    assert ((a.winner >= 0) | (a.hands == 120)).all() and (a.winner >= 0).mean() > 0.7
    # finished games are inert: once won, a game takes no part in later hands
    done_at = {}
    for h, (active, res) in enumerate(a.hand_log):
        assert not set(active.tolist()) & set(done_at)
        for i in active.tolist():
            if a.hands[i] == h + 1:
                done_at[i] = h
    assert all(a.hands[i] == h + 1 for i, h in done_at.items())
    # aggregates add up
    assert (a.contracts.sum(axis=1) + a.thrown_in == a.hands).all()
    assert (a.made <= a.contracts).all()
    # the first bidder moves left every hand, thrown-in hands included (MOON-4.1, MOON-4.6)
    for h, (active, res) in enumerate(a.hand_log):
        assert (res.first_bidder == (a.first_bidder[active] + h) % 3).all()
    # common random numbers: other play, the same deals for the games still going in both runs
    d = run(5, [SlowRandomPlayer(p_pass=0.3)] * 3)
    assert (d.first_bidder == a.first_bidder).all()
    for (act_a, res_a), (act_d, res_d) in zip(a.hand_log, d.hand_log):
        both, ia, id_ = np.intersect1d(act_a, act_d, return_indices=True)
        assert (res_a.hands[ia] == res_d.hands[id_]).all() and (res_a.widow[ia] == res_d.widow[id_]).all()


def test_play_reproduces_with_the_same_seeds():
    table = Table(4, parse_rules(["moon.lead_suit_rule=leader_calls_end"]))
    outs = []
    for _ in range(2):
        rng1, rng2 = np.random.default_rng(1), np.random.default_rng(2)
        outs.append(play(table, 1000, [RandomPlayer()] * 4, rng1, rng2))
    for name in ("hands", "calls", "bidder", "trump", "play_tiles", "called_ends", "score"):
        assert (getattr(outs[0], name) == getattr(outs[1], name)).all()


def test_given_hands_are_played_as_given():
    table = Table(3, Rules(all_pass="force_dealer"))
    rng = np.random.default_rng(3)
    hands, widow = deal(rng, 50, table)
    res = play(table, 50, [RandomPlayer()] * 3, None, rng, first_bidder=np.full(50, 2), hands=hands, widow=widow)
    assert (res.hands == hands).all() and (res.widow == widow).all() and (res.first_bidder == 2).all()
    assert (res.call_seats[:, 0] == 2).all()
    for i in range(50):
        replay_hand(res, i, table, trace=False)


# ---------------------------------------------------------------------------- hand histories

def _history(players, flags, n=60, seed=4):
    table = Table(players, parse_rules(flags))
    rng = np.random.default_rng(seed)
    res = play(table, n, [RandomPlayer()] * players, rng, rng)
    specs = ("random",) * players
    return table, res, [json.loads(line) for line in records(res, table, specs, seed=42, first_id=100)]


@pytest.mark.parametrize("players,flags", [
    (3, []), (3, ["moon.widow_timing=trump_first"]), (3, ["moon.widow=none"]),
    (4, ["moon.lead_suit_rule=leader_calls_end"]),
    (3, ["moon.lead_suit_rule=leader_calls_end", "moon.all_pass=force_last_min"]),
])
def test_history_records_have_the_history_md_keys_and_replay(players, flags):
    table, res, recs = _history(players, flags)
    common = {"game", "format", "rules", "hand_id", "seed", "players", "sides", "strategies"}
    moon = {"first_bidder", "hands", "widow", "bids", "bidder", "bid", "discard", "trump", "plays",
            "trick_winners", "tricks", "score"}
    assert [r["hand_id"] for r in recs] == list(range(100, 100 + len(recs)))
    for i, rec in enumerate(recs):
        assert set(rec) == common | moon
        assert rec["game"] == "moon" and rec["format"] == 1 and rec["seed"] == 42 and rec["players"] == players
        assert set(rec["rules"]) == {f.name for f in FLAGS}
        assert rec["rules"]["moon.tile_set"] == table.tile_set_name
        assert rec["sides"] == table.side_of_seat.tolist()
        # the record is exactly what the reference writes for the same hand
        hand = replay_hand(res, i, table, trace=False)
        expected = hand.record()
        for key in moon:
            assert rec[key] == expected[key], key
        if hand.thrown_in:
            assert rec["bidder"] is None and rec["trump"] is None and rec["plays"] == []
        else:
            assert len(rec["plays"]) == 7 * players
        assert all(b[1] == "pass" or isinstance(b[1], int) for b in rec["bids"])
        text = replay(rec, "h.jsonl", i + 1)
        assert ("trick 7" in text) != hand.thrown_in
        assert "thrown in" in text if hand.thrown_in else "score this hand" in text
    if table.rules.lead_suit_rule == "leader_calls_end":
        leads = [p for rec in recs for j, p in enumerate(rec["plays"]) if j % players == 0]
        assert all(len(p) == 3 for p in leads) and any(isinstance(p[2], int) for p in leads)
        assert all(len(p) == 2 for rec in recs for j, p in enumerate(rec["plays"]) if j % players)


def _first_played(recs):
    return next(r for r in recs if r["bidder"] is not None)


def _mutations(rec):
    """(description, broken copy of the record)."""
    out = []

    def broken(fn, why):
        r = json.loads(json.dumps(rec))
        fn(r)
        out.append((why, r))

    broken(lambda r: r.pop("plays"), "missing plays")
    broken(lambda r: r.__setitem__("hands", r["hands"][:2]), "a hand missing")
    broken(lambda r: r["hands"][0].__setitem__(0, "9-9"), "bad tile")
    broken(lambda r: r["hands"][0].__setitem__(0, r["hands"][1][0]), "tile dealt twice")
    broken(lambda r: r.__setitem__("score", [s + 1 for s in r["score"]]), "wrong score")
    broken(lambda r: r["tricks"].__setitem__(0, r["tricks"][0] + 1), "wrong tricks")
    broken(lambda r: r.__setitem__("trick_winners", r["trick_winners"][::-1]), "wrong winners")
    broken(lambda r: r["plays"].__setitem__(slice(0, 2), r["plays"][1::-1]), "plays out of turn")
    broken(lambda r: r["plays"].pop(), "a play missing")
    broken(lambda r: r["bids"].__setitem__(0, [r["bids"][0][0], 2]), "illegal bid")
    broken(lambda r: r["bids"].__setitem__(0, [(r["bids"][0][0] + 1) % r["players"], r["bids"][0][1]]),
           "bid out of turn")
    broken(lambda r: r.__setitem__("trump", "purple"), "bad trump")
    broken(lambda r: r["rules"].__setitem__("moon.min_bid", 9), "bad rule value")
    broken(lambda r: r.__setitem__("players", 5), "bad players")
    broken(lambda r: r.__setitem__("bids", "pass"), "bids not a list")
    broken(lambda r: r.__setitem__("first_bidder", "0"), "first bidder not a number")
    return out


def test_replay_rejects_malformed_or_inconsistent_records():
    table, res, recs = _history(3, [], n=40)
    rec = _first_played(recs)
    replay(rec, "h.jsonl", 1)
    for why, bad in _mutations(rec):
        with pytest.raises(BadInput) as err:
            replay(bad, "h.jsonl", 7)
        msg = str(err.value)
        assert msg.startswith("h.jsonl:7: bad moon hand history (") and "\n" not in msg, why
        assert msg.endswith("; accepted: JSON lines as in HISTORY.md that follow RULES.md"), why
    # a discard that is not in the bidder's eight tiles
    bad = json.loads(json.dumps(rec))
    bad["discard"] = next(t for t in (tiles.tile_name(x) for x in range(22))
                          if t not in bad["hands"][bad["bidder"]] and t != bad["widow"])
    with pytest.raises(BadInput, match="h.jsonl:3: bad moon hand history"):
        replay(bad, "h.jsonl", 3)
    with pytest.raises(BadInput):
        replay(["not", "a", "dict"], "h.jsonl", 1)
    _, _, recs4 = _history(4, ["moon.lead_suit_rule=leader_calls_end"], n=30)
    rec4 = _first_played(recs4)
    bad = json.loads(json.dumps(rec4))
    lead = bad["plays"][0]
    tile = tiles.parse_tile(lead[1])
    if lead[2] is not None:
        bad["plays"][0] = [lead[0], lead[1], [e for e in range(7) if e not in tiles.TILES[tile]][0]]
    else:
        bad["plays"][0] = [lead[0], lead[1], 3 if 3 not in tiles.TILES[tile] else 4]
    with pytest.raises(BadInput, match="bad moon hand history"):
        replay(bad, "h.jsonl", 2)
