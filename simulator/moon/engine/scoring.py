"""Scoring (MOON-8, MOON-10.4; A-MOON-1/13/15) and the end of a game (MOON-9.1, MOON-10.5; A-MOON-3/7)."""
from __future__ import annotations

import numpy as np

from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon.engine.table import TRICKS, Table
from moonshot.simulator.moon.views import MOON_BID


def score(table: Table, bidder: np.ndarray, bid: np.ndarray, tricks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points (n,S) int16, made (n,) bool) as reference.score_hand (MOON-8, MOON-10.4, A-MOON-1/13/15).

    Thrown-in hands (bidder -1) score zero and have made False."""
    rules, P, S = table.rules, table.players, table.n_sides
    bidder = np.asarray(bidder).astype(np.intp)
    bid = np.asarray(bid).astype(np.int16)
    tricks = np.array(tricks, dtype=np.int16, order="C")     # a fresh C-order copy: written below
    n = len(bidder)
    played = bidder >= 0
    own = table.side_of_seat.astype(np.intp)[np.maximum(bidder, 0)]
    cell = np.arange(n) * S + own                          # flat index of the bidder's side
    pts = tricks                                           # a fresh contiguous copy (astype above)
    won = pts.reshape(-1)[cell]
    made = won > bid if rules.bid_success == "strictly_greater" else won >= bid
    made = np.where(bid == MOON_BID, won == TRICKS, made) & played
    if rules.scoring == "marks7":
        pts = np.array(np.broadcast_to((~made)[:, None], (n, S)), dtype=np.int16, order="C")
        pts.reshape(-1)[cell] = made
    else:
        gain = bid
        if P == 4 and rules.bidder_score_4p == "tricks_won":
            gain = np.where(bid == MOON_BID, bid, won)
        pts.reshape(-1)[cell] = np.where(made, gain, -bid)
    pts *= played[:, None]
    return pts, made


def instant_results(table: Table, bidder: np.ndarray, bid: np.ndarray, made: np.ndarray):
    """(wins_game, loses_game) (n,) side or -1: moon.moon_bid_scoring instant variants (A-MOON-3)."""
    n = len(bidder)
    wins = np.full(n, -1, dtype=np.int8)
    loses = np.full(n, -1, dtype=np.int8)
    mode = table.rules.moon_bid_scoring
    if mode == "points":
        return wins, loses
    bidder = np.asarray(bidder).astype(np.intp)
    moon = (np.asarray(bid) == MOON_BID) & (bidder >= 0)
    own = table.side_of_seat[np.maximum(bidder, 0)]
    wins = np.where(moon & made, own, -1).astype(np.int8)
    if mode == "instant_win_or_loss":
        loses = np.where(moon & ~made, own, -1).astype(np.int8)
    return wins, loses


def game_winner(table: Table, scores: np.ndarray, bidder: np.ndarray, wins: np.ndarray,
                loses: np.ndarray) -> np.ndarray:
    """(n,) winning side or -1, as reference.game_winner (MOON-9.1, MOON-10.5, A-MOON-3/7)."""
    rules, S = table.rules, table.n_sides
    n = len(scores)
    ar = np.arange(n)
    scores = np.asarray(scores)
    top = scores.max(axis=1)
    leaders = scores == top[:, None]
    n_lead = leaders.sum(axis=1)
    target = ref.target_score(rules)
    out = np.where((top >= target) & (n_lead == 1), scores.argmax(axis=1), -1)
    if rules.end_tie == "bidder_goes_out":
        bidder = np.asarray(bidder).astype(np.intp)
        bside = table.side_of_seat.astype(np.intp)[np.maximum(bidder, 0)]
        tie = (top >= target) & (n_lead > 1) & (bidder >= 0) & leaders[ar, bside]
        out = np.where(tie, bside, out)
    loses = np.asarray(loses).astype(np.intp)
    if (loses >= 0).any():
        best = np.full(n, np.iinfo(np.int32).min, dtype=np.int64)
        pick = np.full(n, -1, dtype=np.intp)
        for k in range(1, S):
            side = (loses + k) % S
            v = scores[ar, side]
            better = v > best                      # ties keep the first clockwise from the loser
            best = np.where(better, v, best)
            pick = np.where(better, side, pick)
        out = np.where(loses >= 0, pick, out)
    wins = np.asarray(wins)
    out = np.where(wins >= 0, wins, out)
    return out.astype(np.int8)
