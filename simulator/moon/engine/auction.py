"""The auction (MOON-4; variants A-MOON-8/9/14/16): calls clockwise from the first bidder until
the contract is settled or every player has passed (the hand is thrown in)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from moonshot.simulator.batch import as_choice, ask, groups, illegal, put, take
from moonshot.simulator.moon.engine.rows import bools7, padded, read_only, rows_of, words
from moonshot.simulator.moon.engine.table import BID_COL, Table, bid_legal_index
from moonshot.simulator.moon.views import MOON_BID, PASS, BidView


@dataclass
class Auction:
    calls: np.ndarray        # (n, max_calls) int8 calls in speaking order: -1 no call, 0 pass, else the bid
    call_seats: np.ndarray   # (n, max_calls) int8 seat of each call, -1 no call
    legal_bits: np.ndarray   # (n, max_calls) uint8 BID_VALUES bit mask open to that call (0 no call)
    bidder: np.ndarray       # (n,) int8 -1 when thrown in (MOON-4.6)
    bid: np.ndarray          # (n,) int8 0 when thrown in

    @property
    def thrown_in(self) -> np.ndarray:
        return self.bidder < 0


def run_auction(table: Table, hands: np.ndarray, first_bidder: np.ndarray, scores: np.ndarray | None,
                strategies: Sequence, rng: np.random.Generator) -> Auction:
    """The auction of MOON-4 and the variants A-MOON-8/9/14/16, as reference.auction_state:
    calls clockwise from first_bidder; single_round: one call each; open_until_passes: players
    who have not passed are asked again until all but the high bidder have passed; a 21 ends it
    at once; all passed: thrown in (redeal) or the last player is forced (force_last_min /
    force_dealer)."""
    return auction(table, words(padded(hands)), first_bidder, scores, groups(strategies), rng)


def auction(table: Table, row_words: np.ndarray, first_bidder: np.ndarray, scores, strategy_groups,
            rng: np.random.Generator) -> Auction:
    """run_auction on the hands as row words (rows.py), for the strategy groups of simulator.batch."""
    rules, P = table.rules, table.players
    N, C = len(first_bidder), table.max_calls
    scores = np.zeros((N, table.n_sides), dtype=np.int16) if scores is None else np.asarray(scores)
    calls = np.full((C, N), -1, dtype=np.int8)            # transposed while filling: one row per call
    call_seats = np.full((C, N), -1, dtype=np.int8)
    legal_log = np.zeros((C, N), dtype=np.uint8)
    by_seat = np.full((N, P), -1, dtype=np.int8)          # the BidView.bids so far
    by_seat_flat = by_seat.reshape(-1)
    high = np.zeros(N, dtype=np.intp)
    bidder = np.full(N, -1, dtype=np.intp)
    passed = np.zeros(N, dtype=np.intp)                    # bit per seat
    n_passed = np.zeros(N, dtype=np.intp)
    seat = np.asarray(first_bidder).astype(np.intp) % P
    act = None                                             # games still bidding (simulator.batch: None = all)
    single = rules.auction == "single_round"
    may_force = rules.all_pass != "redeal"
    side_of = table.side_of_seat
    row_base = np.arange(N) * P
    for pos in range(C):
        s, h = take(seat, act), take(high, act)
        bd, npass = take(bidder, act), take(n_passed, act)
        forced = ((bd < 0) & (npass == P - 1)).astype(np.intp) if may_force else 0   # all passed but one
        legal = table.bid_legal[bid_legal_index(forced, h)]
        row = take(row_base, act) + s
        view = BidView(P, rules, pos, read_only(s), rows_of(row_words, row), take(by_seat, act).copy(),
                       h.astype(np.int8), bools7(legal), read_only(take(scores, act)), side_of[s],
                       legal_bits=read_only(legal))
        choice = ask(strategy_groups, "bid", view, s, rng, _check_bid)
        is_pass = choice == PASS
        by_seat_flat[row] = choice
        npass = npass + is_pass
        h = np.where(is_pass, h, choice)
        bd = np.where(is_pass, bd, s)
        pa = take(passed, act) | (is_pass.astype(np.intp) << s)
        if single:
            end = (choice == MOON_BID) | (pos == P - 1)
            nxt = s + 1
            nxt[nxt == P] = 0
        else:
            end = (choice == MOON_BID) | (npass == P) | ((bd >= 0) & (npass == P - 1))
            nxt = (s + 1) % P
            for _ in range(P - 1):                         # skip the players who have passed
                nxt = np.where((pa >> nxt) & 1, (nxt + 1) % P, nxt)
        for out, value in ((calls[pos], choice), (call_seats[pos], s), (legal_log[pos], legal),
                           (n_passed, npass), (high, h), (bidder, bd), (passed, pa), (seat, nxt)):
            put(out, act, value)
        if end.all():
            break
        if end.any():
            keep = np.flatnonzero(~end)
            act = keep if act is None else act[keep]
    bid = np.where(bidder >= 0, high, 0)
    return Auction(np.ascontiguousarray(calls.T), np.ascontiguousarray(call_seats.T),
                   np.ascontiguousarray(legal_log.T), bidder.astype(np.int8), bid.astype(np.int8))


def _check_bid(strat, view: BidView, choice) -> np.ndarray:
    c = as_choice(choice, len(view))
    ok = c is not None
    if ok:
        ok = bool(((c >= 0) & (c <= MOON_BID)).all())
        if ok:
            col = BID_COL[c]
            ok = bool(((col >= 0) & ((view.legal_bits >> np.maximum(col, 0).astype(np.uint8)) & 1).astype(bool)).all())
    if not ok:
        raise illegal(strat, "bid", "one bid value per game (0 = pass, 3..7 or 21) where view.legal "
                                    "(columns BID_VALUES) is True")
    return c.astype(np.intp, copy=False)
