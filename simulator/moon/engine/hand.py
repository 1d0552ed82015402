"""One whole Moon hand per game: deal, auction, widow and trump, the tricks, the score."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from moonshot.simulator.batch import groups, rows_where, take
from moonshot.simulator.moon.engine.auction import auction
from moonshot.simulator.moon.engine.deal import deal
from moonshot.simulator.moon.engine.rows import padded, words
from moonshot.simulator.moon.engine.scoring import instant_results, score
from moonshot.simulator.moon.engine.table import HAND, Table
from moonshot.simulator.moon.engine.tricks import play_rows
from moonshot.simulator.moon.engine.widow import exchange_and_name_trump


@dataclass
class Result:
    """One hand per game (all arrays batch first). Thrown-in hands (bidder -1): no discard, trump
    -1, plays/trick winners -1, zero tricks and score."""
    hands: np.ndarray           # (n,P,7) int8 as dealt
    widow: np.ndarray | None    # (n,) int8, None without a widow
    first_bidder: np.ndarray    # (n,) int8
    calls: np.ndarray           # (n,C) int8 calls in speaking order (-1 none, 0 pass)
    call_seats: np.ndarray      # (n,C) int8
    bid_legal: np.ndarray       # (n,C) uint8 BID_VALUES bit mask open to each call
    bidder: np.ndarray          # (n,) int8, -1 thrown in
    bid: np.ndarray             # (n,) int8, 0 thrown in
    discard: np.ndarray         # (n,) int8 tile, -1 none
    trump: np.ndarray           # (n,) int8, -1 thrown in
    hands7: np.ndarray          # (n,P,7) int8 the hands played (the bidder's after the discard)
    play_seats: np.ndarray      # (n,7P) int8
    play_tiles: np.ndarray      # (n,7P) int8
    called_ends: np.ndarray     # (n,7) int8, -1 when no end was called
    trick_winners: np.ndarray   # (n,7) int8
    tricks_seat: np.ndarray     # (n,P) int8
    tricks: np.ndarray          # (n,S) int8
    score: np.ndarray           # (n,S) int16 points (or marks) this hand
    made: np.ndarray            # (n,) bool (False when thrown in)
    wins_game: np.ndarray       # (n,) int8 side winning at once (instant 21 variants), -1
    loses_game: np.ndarray      # (n,) int8 side losing at once (instant_win_or_loss), -1
    legal_trace: list = field(default_factory=list)   # with trace: per play step (seat, legal tiles);
    #                                                     rows of thrown-in hands are -1

    @property
    def thrown_in(self) -> np.ndarray:
        return self.bidder < 0

    def __len__(self) -> int:
        return len(self.bidder)


def play(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator | None,
         play_rng: np.random.Generator, scores: np.ndarray | None = None,
         first_bidder: np.ndarray | None = None, hands: np.ndarray | None = None,
         widow: np.ndarray | None = None, trace: bool = False) -> Result:
    """One whole hand per game: deal (unless `hands` given), auction, widow/trump, play, score.

    `first_bidder` defaults to a random seat per game (deal_rng); `scores` (game totals before
    the hand) are only shown to the strategies. Thrown-in hands are not played."""
    P, S = table.players, table.n_sides
    if hands is None:
        hands, widow = deal(deal_rng, n, table)
    else:
        hands = np.asarray(hands, dtype=np.int8)
        if hands.shape != (n, P, HAND):
            raise ValueError(f"hands must have shape {(n, P, HAND)}, got {hands.shape}")
        if table.has_widow and widow is None:
            raise ValueError("this table has a widow: pass widow with hands")
        widow = np.asarray(widow, dtype=np.int8) if table.has_widow else None
    if first_bidder is None:
        first_bidder = deal_rng.integers(0, P, n)
    first_bidder = np.broadcast_to(np.asarray(first_bidder), (n,)).astype(np.int8)
    scores = np.zeros((n, S), dtype=np.int16) if scores is None else np.asarray(scores)
    strategy_groups = groups(strategies)
    rows8 = padded(hands)                                  # (n*P, 8): changed in place by the widow
    auc = auction(table, words(rows8), first_bidder, scores, strategy_groups, play_rng)
    discard, trump = exchange_and_name_trump(table, rows8, widow, auc.bidder, auc.bid, strategy_groups,
                                             play_rng, scores)
    # Hands with a contract are played; a thrown-in hand is a row not played (-1 plays, 0 tricks).
    played = rows_where(auc.bidder >= 0)
    seat_rows = take(rows8.reshape(n, P * 8), played).reshape(-1, 8)
    tricks = play_rows(table, seat_rows, take(auc.bidder, played), take(auc.bid, played), take(trump, played),
                       strategy_groups, play_rng, take(scores, played), trace, take(discard, played))
    tricks = tricks.spread(played, n)
    points, made = score(table, auc.bidder, auc.bid, tricks.tricks)
    wins, loses = instant_results(table, auc.bidder, auc.bid, made)
    hands7 = rows8[:, :HAND].reshape(n, P, HAND)
    return Result(hands, widow, first_bidder, auc.calls, auc.call_seats, auc.legal_bits, auc.bidder, auc.bid,
                  discard, trump, hands7, tricks.play_seats, tricks.play_tiles, tricks.called_ends,
                  tricks.trick_winners, tricks.tricks_seat, tricks.tricks, points, made, wins, loses,
                  tricks.legal_trace)
