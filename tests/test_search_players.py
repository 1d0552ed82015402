"""The search players: Moon `pimc` (PIMC over the exact solver) and Shoot the Moon `rollout`
(Monte Carlo play-outs with the batch engine's rules).

Legal choices in every phase through the engines (the engines check every answer), only the
documented view fields read, worlds that fit what the seat has seen, and small paired matches
against the strategies they should beat (the bigger measurement is benchmarks/search_bench.py).
Rollout's play-outs are the engine's own loop resumed mid-round: tests/test_stm_playon.py.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from moonshot.analysis.common import make_setup, match
from moonshot.simulator.moon import engine as ME
from moonshot.simulator.moon import views as MV
from moonshot.simulator.moon.rules import parse_rules
from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.simulator.shoot_the_moon import engine as SE
from moonshot.simulator.shoot_the_moon.rules import Rules as StmRules
from moonshot.strategies.base import make_strategy
from moonshot.strategies.moon_search import deal_worlds as moon_worlds
from moonshot.strategies.shoot_the_moon import OddPlanner
from moonshot.strategies import stm_search
from moonshot.strategies.stm_search import deal_worlds as stm_worlds

MOON_DECISIONS = ("bid", "discard", "trump", "play")


# ------------------------------------------------------------------------------------ views only

VIEW_FIELDS = {cls: {f.name for f in dataclasses.fields(cls)} | {"take"}
               for cls in (MV.BidView, MV.DiscardView, MV.TrumpView, MV.PlayView)}


class FieldsOnly:
    """A view that answers only the documented fields of its class (views.py): no engine state."""

    def __init__(self, view, cls):
        self._view, self._cls = view, cls

    def __getattr__(self, name):
        if name not in VIEW_FIELDS[self._cls]:
            raise AttributeError(f"{name} is not a documented {self._cls.__name__} field")
        value = getattr(self._view, name)
        if name == "take":
            return lambda idx: FieldsOnly(value(idx), self._cls)
        return value

    def __len__(self):
        return len(self._view)


class ViewsOnly:
    """Hands a strategy FieldsOnly views."""

    def __init__(self, base):
        self.base = base

    def bid(self, view, rng):
        return self.base.bid(FieldsOnly(view, MV.BidView), rng)

    def discard(self, view, rng):
        return self.base.discard(FieldsOnly(view, MV.DiscardView), rng)

    def trump(self, view, rng):
        return self.base.trump(FieldsOnly(view, MV.TrumpView), rng)

    def play(self, view, rng):
        return self.base.play(FieldsOnly(view, MV.PlayView), rng)

    def call_end(self, view, slot, rng):
        return self.base.call_end(FieldsOnly(view, MV.PlayView), slot, rng)


# ------------------------------------------------------------------------------------ Moon pimc

@pytest.mark.parametrize("players, flags", [
    (3, ()),
    (3, ("moon.widow_timing=trump_first", "moon.lead_suit_rule=leader_calls_end", "moon.first_lead_trump=true")),
    (3, ("moon.widow=none", "moon.notrump_doubles=own_suit", "moon.all_pass=force_dealer")),
    (4, ("moon.allow_doubles_trump_4p=true", "moon.auction=open_until_passes", "moon.bidder_score_4p=bid")),
])
def test_pimc_plays_legally_from_its_views_only(players, flags):
    """pimc in every seat (so it bids, discards, names trump, calls ends and plays), reading only
    the documented view fields; the engine refuses any illegal answer."""
    table = ME.Table(players, parse_rules(list(flags), players))
    pimc = ViewsOnly(make_strategy("moon", "pimc:worlds=4,min_gain=-5", MOON_DECISIONS))
    res = ME.play(table, 4, [pimc] * players, np.random.default_rng(players), np.random.default_rng(9))
    assert (res.bidder >= 0).any()
    played = res.bidder >= 0
    assert (res.tricks[played].sum(axis=1) == 7).all()


def test_pimc_with_threshold_players():
    table = ME.Table(3)
    pimc = make_strategy("moon", "pimc:worlds=8", MOON_DECISIONS)
    thr = make_strategy("moon", "threshold", MOON_DECISIONS)
    res = ME.play(table, 6, [thr, pimc, thr], np.random.default_rng(1), np.random.default_rng(2))
    played = res.bidder >= 0
    assert played.any() and (res.tricks[played].sum(axis=1) == 7).all()
    need = np.where(res.bid == 21, 7, res.bid)
    bidder_tricks = res.tricks[np.arange(6), np.maximum(res.bidder, 0)]
    assert (res.made[played] == (bidder_tricks >= need)[played]).all()      # mixed seats score by the rules


def test_pimc_worlds_fit_what_the_seat_has_seen():
    """Every world deals each group exactly its count, only tiles it may hold, all of the pool."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        k = int(rng.integers(3, 15))
        pool = rng.permutation(28)[:k]
        groups = min(int(rng.integers(1, 5)), k)
        cut = np.sort(rng.choice(np.arange(1, k), size=groups - 1, replace=False)) if groups > 1 else []
        caps = np.diff(np.concatenate([[0], cut, [k]])).astype(int)
        # a hidden true deal, then constraints it satisfies (random voids: tiles it does not hold)
        owner = np.repeat(np.arange(groups), caps)
        rng.shuffle(owner)
        allowed = []
        for g in range(groups):
            mine = {int(t) for t, o in zip(pool, owner) if o == g}
            banned = {int(t) for t in pool if int(t) not in mine and rng.random() < 0.6}
            allowed.append(sum(1 << t for t in range(28) if t not in banned))
        worlds = moon_worlds(rng, pool, list(caps), allowed, 8, retries=3)
        for w in worlds:
            assert [bin(int(m)).count("1") for m in w] == list(caps)
            assert all(int(m) & ~a == 0 for m, a in zip(w, allowed))
            union = 0
            for m in w:
                assert union & int(m) == 0
                union |= int(m)
            assert union == sum(1 << int(t) for t in pool)


@pytest.mark.parametrize("players", [3, 4])
def test_pimc_bidding_races_the_trumps(players):
    """Every candidate trump is solved on the race's first worlds; the ones that finish are within
    RACE_MARGIN of the best there and were solved on every world (the same worlds as the race)."""
    from moonshot.simulator.moon.rules import Rules
    from moonshot.strategies import moon_search as MS
    pimc = make_strategy("moon", "pimc:worlds=16", MOON_DECISIONS)
    rules = Rules()
    widow = 1 if players == 3 else 0
    hand = [20, 19, 18, 17, 16] + ([22, 23] if players == 4 else [10, 7])   # 6-6 6-5 6-4 6-3 6-2 and two more
    rng = np.random.default_rng(5)
    hands, aside = pimc._others_worlds(rng, players, rules, 0, MS._mask(hand), widow)
    trumps = [6, 5, 0]
    found = pimc._race_trumps(players, rules, 0, hand, hands, aside, widow, trumps)
    race = {}
    for t in trumps:
        h = hands.copy()
        h[:, 0] = pimc._bidder_hands(hand, aside, t, widow)
        race[t] = pimc._values(players, rules, t, 0, h, 0, True)
    lead = max(v[:MS.RACE_WORLDS].mean() for v in race.values())
    assert set(found) == {t for t, v in race.items() if v[:MS.RACE_WORLDS].mean() >= lead - MS.RACE_MARGIN}
    assert 6 in found and len(found) < len(trumps)
    for t, v in found.items():
        assert np.array_equal(v, race[t])


def test_pimc_outcome_auto_is_margin_at_four_players_and_side_at_three():
    pimc = make_strategy("moon", "pimc", MOON_DECISIONS)
    assert pimc.outcome(4) == "margin" and pimc.outcome(3) == "side"
    assert make_strategy("moon", "pimc:outcome=side", MOON_DECISIONS).outcome(4) == "side"
    assert make_strategy("moon", "pimc:outcome=margin", MOON_DECISIONS).outcome(3) == "margin"


def test_pimc_beats_threshold():
    """A small paired match (3 players, the same deals): pimc scores more per hand than the
    threshold bidder in the same seats."""
    res = match(make_setup("moon", 3), "pimc:worlds=16", "threshold", hands=40, games=None, seed=7)
    d = res.tables["match"].set_index("metric").loc["d_score"]
    assert d["estimate"] > 0


# ------------------------------------------------------------------------------------ Shoot the Moon rollout

def test_rollout_worlds_fit_what_the_seat_sees():
    """Dealt cards are unseen by the mover, counts match what each hand still holds, and a player
    who failed to follow a led suit in any trick so far gets none of that suit."""
    table = SE.Table(4, False, StmRules())
    seen_views = []

    class Spy:
        def play(self, view, rng):
            if view.trick_no >= 2 and view.position == 3 and len(seen_views) < 1:
                seen_views.append(view)
            return OddPlanner().play(view, rng)

    SE.play(table, 200, [Spy()] * 4, np.random.default_rng(5), np.random.default_rng(6))
    view = seen_views[0]
    hands, live = stm_worlds(view, np.random.default_rng(1), 16)
    seat = np.asarray(view.seat)
    j = view.trick_no * 4 + view.position
    voids = 0
    for i in range(len(view)):
        known = set(np.flatnonzero(view.seen[i])) | set(int(c) for c in view.hand[i])
        plays = list(zip(view.play_seats[i, :j].tolist(), view.play_cards[i, :j].tolist()))
        lacks = set()                                   # (seat, suit) shown missing
        for q, (s, c) in enumerate(plays):
            lead = plays[q - q % 4][1]
            if not deck.IS_MOON[lead] and not deck.IS_MOON[c] and deck.SUIT[c] != deck.SUIT[lead]:
                lacks.add((s, int(deck.SUIT[lead])))
        voids += len(lacks)
        for w in range(16):
            for s in range(4):
                cards = [int(c) for b, c in enumerate(hands[i, w, s]) if live[i, w, s] >> b & 1]
                if s == seat[i]:
                    assert cards == [int(c) for c, ok in zip(view.hand[i], view.live[i]) if ok]
                    continue
                assert len(cards) == 5 - sum(p == s for p, _ in plays)
                assert not set(cards) & known
                assert not {(s, int(deck.SUIT[x])) for x in cards} & lacks
    assert voids > 0


def test_rollout_worlds_drop_voids_no_deal_fits(monkeypatch):
    """A void shown by a revoke (stm.revoke_model) can leave no deal: that game is dealt without voids."""
    table = SE.Table(4, False, StmRules())
    views = []

    class Spy:
        def play(self, view, rng):
            if view.trick_no == 1 and view.position == 2 and not views:
                views.append(view)
            return OddPlanner().play(view, rng)

    SE.play(table, 50, [Spy()] * 4, np.random.default_rng(5), np.random.default_rng(6))
    view = views[0]
    monkeypatch.setattr(stm_search, "shown_voids", lambda v: np.ones((len(v), 4, 4), dtype=bool))  # void everywhere
    hands, live = stm_worlds(view, np.random.default_rng(1), 4)
    assert (np.bitwise_count(live).sum(axis=2) == 4 * 5 - view.trick_no * 4 - view.position).all()


@pytest.mark.parametrize("players, partners, flags", [
    (2, False, ()), (2, False, ("stm.dummy_mode=open_hand_nondealer_chooses",)), (4, True, ()),
    (6, True, ("stm.six_player_teams=three_teams_of_two",)), (5, False, ("stm.revoke_model=on",)),
])
def test_rollout_plays_legally(players, partners, flags):
    from moonshot.simulator.shoot_the_moon.rules import parse_rules as stm_rules
    table = SE.Table(players, partners, stm_rules(list(flags)))
    rollout = make_strategy("shoot-the-moon", "rollout:worlds=4")
    res = SE.play(table, 40, [rollout] * players, np.random.default_rng(1), np.random.default_rng(2))
    assert res.tricks_seat.sum(axis=1).tolist() == [5] * 40


def test_rollout_beats_odd():
    res = match(make_setup("shoot-the-moon", 4), "rollout", "odd", hands=150, games=None, seed=11)
    d = res.tables["match"].set_index("metric").loc["d_chips"]
    assert d["ci_low"] > 0


def test_pimc_names_trump_without_its_own_discard():
    """A pimc trump call after someone else's discard (the discarded tile unknown to it) deals
    that tile out of play in its worlds."""
    table = ME.Table(3)
    thr = make_strategy("moon", "threshold", MOON_DECISIONS)
    pimc = make_strategy("moon", "pimc:worlds=4", MOON_DECISIONS)

    class Mixed:
        def bid(self, view, rng):
            return thr.bid(view, rng)

        def discard(self, view, rng):
            return thr.discard(view, rng)

        def trump(self, view, rng):
            return pimc.trump(view, rng)

        def play(self, view, rng):
            return thr.play(view, rng)

    res = ME.play(table, 20, [Mixed()] * 3, np.random.default_rng(8), np.random.default_rng(8))
    assert (res.bidder >= 0).any()
