"""Simple random Moon strategies for engine tests and benchmarks (every phase random, all legal).

``RandomPlayer`` works on the views' bit masks (fast); ``SlowRandomPlayer`` only on the documented
bool arrays (checks that those are right, and that grouping by seat works); ``IllegalPlayer``
returns an illegal choice in one phase.
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.moon import tiles
from moonshot.simulator.batch import LOWEST
from moonshot.simulator.moon.views import BID_VALUES, PASS
from moonshot.strategies.moon import RandomMoon

def uniform_true(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random True column per row (every row has one)."""
    u = rng.random(mask.shape, dtype=np.float32)
    return np.where(mask, u, -1.0).argmax(axis=1)


class RandomPlayer(RandomMoon):
    """The registered `random` strategy with test knobs: trump `favour` with probability p_favour
    when allowed; `cautious` number bids are always the lowest legal one; call_ends=False leaves
    the called end to the engine's default."""

    def __init__(self, p_pass: float = 0.5, p_moon: float = 0.2, favour: int | None = None,
                 p_favour: float = 0.5, call_ends: bool = True, cautious: bool = False):
        super().__init__(p_pass, p_moon)
        self.favour, self.p_favour, self.cautious = favour, p_favour, cautious
        if not call_ends:
            self.call_end = None

    def _number_bid(self, bits, rng):
        col = super()._number_bid(bits, rng)
        return np.where(col >= 0, LOWEST[bits & 0x3E], -1) if self.cautious else col

    def trump(self, view, rng):
        pick = super().trump(view, rng)
        if self.favour is not None:
            fav = view.legal[:, self.favour] & (rng.random(len(view)) < self.p_favour)
            pick = np.where(fav, self.favour, pick)
        return pick


class SlowRandomPlayer:
    """Random like RandomPlayer but reading only the documented bool fields (legal, hand, live);
    when it bids, it bids the lowest legal bid half the time."""

    def __init__(self, p_pass: float = 0.5):
        self.p_pass = p_pass

    def bid(self, view, rng):
        legal = view.legal.copy()
        can_pass = legal[:, 0].copy()
        legal[:, 0] = False
        has_bid = legal.any(axis=1)
        legal[~has_bid, 0] = True
        lowest = BID_VALUES[legal.argmax(axis=1)]
        pick = np.where(rng.random(len(view)) < 0.5, lowest, BID_VALUES[uniform_true(legal, rng)])
        passes = can_pass & ((rng.random(len(view)) < self.p_pass) | ~has_bid)
        return np.where(passes, PASS, pick)

    def discard(self, view, rng):
        return rng.integers(0, view.hand.shape[1], len(view))

    def trump(self, view, rng):
        return uniform_true(view.legal, rng)

    def play(self, view, rng):
        assert not (view.legal & ~view.live).any()
        return uniform_true(view.legal, rng)


class IllegalPlayer(RandomPlayer):
    """Random, except for one illegal answer in phase `phase` (bid, discard, trump, play, call_end)."""

    def __init__(self, phase: str):
        super().__init__(p_pass=0.0)
        self.phase = phase

    def bid(self, view, rng):
        out = super().bid(view, rng)
        return np.full(len(view), 2) if self.phase == "bid" else out

    def discard(self, view, rng):
        return np.full(len(view), 8) if self.phase == "discard" else super().discard(view, rng)

    def trump(self, view, rng):
        if self.phase == "trump":
            return np.where(view.legal[:, 7], 9, 7)     # 9 is no trump id; 7 where doubles are not allowed
        return super().trump(view, rng)

    def play(self, view, rng):
        out = super().play(view, rng)
        if self.phase == "play":
            illegal = ~view.legal & view.live
            if illegal.any():
                return np.where(illegal.any(axis=1), illegal.argmax(axis=1), out)
            return np.full(len(view), 7)
        return out

    def call_end(self, view, slot, rng):
        if self.phase == "call_end":
            tile = view.hand[np.arange(len(view)), slot]
            others = np.array([[e for e in range(7) if e not in tiles.TILES[t]][0] for t in range(tiles.N_TILES)])
            return others[tile]
        return super().call_end(view, slot, rng)


# ---------------------------------------------------------------------------- replaying batch hands

def replay_hand(res, i: int, table, trace: bool = True):
    """Replay game i of an engine Result through reference.Hand, asserting at every step that the
    reference agrees with the batch engine (legal calls, discards, trumps, tiles, winners, score).
    Returns the finished reference Hand."""
    from moonshot.simulator.moon import reference as ref

    rules, P = table.rules, table.players
    widow = None if res.widow is None else int(res.widow[i])
    hand = ref.Hand(res.hands[i].tolist(), widow, int(res.first_bidder[i]), rules)
    calls = res.calls[i].tolist()
    for c, call in enumerate(calls):
        if call < 0:
            assert all(x < 0 for x in calls[c:]), calls
            break
        assert hand.phase == ref.BIDDING
        assert hand.to_move() == res.call_seats[i, c]
        bits = int(res.bid_legal[i, c])
        assert hand.legal() == [int(v) for col, v in enumerate(BID_VALUES) if bits >> col & 1]
        hand.act(call)
    if res.bidder[i] < 0:
        assert hand.thrown_in
        assert res.bid[i] == 0 and res.trump[i] == -1 and res.discard[i] == -1 and not res.made[i]
        assert (res.play_tiles[i] == -1).all() and (res.trick_winners[i] == -1).all()
        assert (res.score[i] == 0).all() and (res.tricks[i] == 0).all()
        assert list(hand.result.score) == res.score[i].tolist()
        return hand
    bidder = int(res.bidder[i])
    assert hand.bidder == bidder and hand.bid == res.bid[i]
    phases = []
    while hand.phase in (ref.DISCARD, ref.TRUMP):
        phases.append(hand.phase)
        if hand.phase == ref.DISCARD:
            assert hand.legal() == sorted(res.hands[i, bidder].tolist() + [widow])
            hand.act(int(res.discard[i]))
        else:
            assert hand.legal() == np.flatnonzero(table.allowed_trumps).tolist()
            hand.act(int(res.trump[i]))
    if widow is None:
        assert phases == [ref.TRUMP] and res.discard[i] == -1
    elif rules.widow_timing == "trump_first":
        assert phases == [ref.TRUMP, ref.DISCARD]
    else:
        assert phases == [ref.DISCARD, ref.TRUMP]
    for seat in range(P):
        assert sorted(hand.held[seat]) == sorted(res.hands7[i, seat].tolist())
    calls_rule = rules.lead_suit_rule == "leader_calls_end"
    trump = int(res.trump[i])
    for j in range(7 * P):
        seat, tile = int(res.play_seats[i, j]), int(res.play_tiles[i, j])
        assert hand.to_move() == seat
        if trace:
            seat_t, legal_t = res.legal_trace[j]
            assert seat_t[i] == seat
            ref_tiles = sorted({c[0] if isinstance(c, tuple) else c for c in hand.legal()})
            assert ref_tiles == sorted(x for x in legal_t[i].tolist() if x >= 0)
        choice = tile
        if j % P == 0:
            end = int(res.called_ends[i, j // P])
            assert (end >= 0) == (calls_rule and ref.needs_end_call(tile, trump, rules))
            if end >= 0:
                choice = (tile, end)
        hand.act(choice)
    assert hand.phase == ref.DONE
    assert hand.trick_winners == res.trick_winners[i].tolist()
    assert hand.tricks == res.tricks[i].tolist()
    per_seat = [sum(1 for w in hand.trick_winners if w == s) for s in range(P)]
    assert per_seat == res.tricks_seat[i].tolist()
    assert list(hand.result.score) == res.score[i].tolist()
    assert hand.result.made == bool(res.made[i])
    assert (hand.result.wins_game if hand.result.wins_game is not None else -1) == res.wins_game[i]
    assert (hand.result.loses_game if hand.result.loses_game is not None else -1) == res.loses_game[i]
    return hand
