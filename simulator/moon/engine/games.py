"""Whole Moon games (MOON-4.1, MOON-9.1, MOON-10.5; A-MOON-3/7/15/18), hand after hand, as reference.Game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.batch import take
from moonshot.simulator.moon.engine.deal import deal
from moonshot.simulator.moon.engine.hand import Result, play
from moonshot.simulator.moon.engine.scoring import game_winner
from moonshot.simulator.moon.engine.table import Table
from moonshot.simulator.moon.views import MOON_BID


@dataclass
class GameResult:
    winner: np.ndarray          # (n,) int8 winning side, -1 when unfinished after max_hands
    hands: np.ndarray           # (n,) int16 hands played (thrown-in hands included)
    scores: np.ndarray          # (n,S) int16 final totals
    thrown_in: np.ndarray       # (n,) int16 hands thrown in
    contracts: np.ndarray       # (n,S) int16 hands in which the side held the contract
    made: np.ndarray            # (n,S) int16 contracts made by the side
    moon_bids: np.ndarray       # (n,S) int16 21 contracts by the side
    first_bidder: np.ndarray    # (n,) int8 first bidder of the first hand
    first_hand: Result | None = None               # the opening hand of every game
    hand_log: list = field(default_factory=list)   # with keep_hands: [(game indices, Result)] per hand


def play_games(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator,
               play_rng: np.random.Generator, max_hands: int = 400, keep_hands: bool = False) -> GameResult:
    """Whole games, as reference.Game.

    The first bidder is random (deal_rng), then moves left every hand, thrown-in hands included.
    Every hand's deal is drawn for all n games, finished or not (only the active ones are
    shuffled), so two runs that differ only in play see the same deals. Finished games are
    inert: each hand is played by the active games only.
    """
    P, S = table.players, table.n_sides
    first = deal_rng.integers(0, P, n).astype(np.int8)
    first0 = first.copy()
    scores = np.zeros((n, S), dtype=np.int16)
    winner = np.full(n, -1, dtype=np.int8)
    n_hands = np.zeros(n, dtype=np.int16)
    thrown = np.zeros(n, dtype=np.int16)
    contracts = np.zeros((n, S), dtype=np.int16)
    made_n = np.zeros((n, S), dtype=np.int16)
    moons = np.zeros((n, S), dtype=np.int16)
    last_set = np.full(n, -1, dtype=np.int8)                 # side set on the last played hand (A-MOON-18)
    set_twice = table.rules.set_twice_loses_4p and P == 4
    side_of = table.side_of_seat
    first_hand = None
    log = []
    for h in range(max_hands):
        active = np.flatnonzero(winner < 0)
        if len(active) == 0:
            break
        games = None if len(active) == n else active          # simulator.batch: None = every game
        hands, widow = deal(deal_rng, n, table, games)        # drawn for all n games, dealt for the active
        res = play(table, len(active), strategies, None, play_rng, scores=take(scores, games),
                   first_bidder=take(first, games), hands=hands, widow=widow)
        if h == 0:
            first_hand = res
        if keep_hands:
            log.append((active, res))
        played = res.bidder >= 0
        own = side_of[np.maximum(res.bidder, 0)].astype(np.intp)
        new_scores = take(scores, games) + res.score
        scores[active] = new_scores
        n_hands[active] += 1
        thrown[active] += ~played
        rows = np.flatnonzero(played)
        ga = active[rows]
        contracts[ga, own[rows]] += 1
        made_n[ga, own[rows]] += res.made[rows]
        moons[ga, own[rows]] += res.bid[rows] == MOON_BID
        loses = res.loses_game.copy()
        if set_twice:
            set_side = np.where(played & ~res.made, own, -1).astype(np.int8)
            prev = take(last_set, games)
            twice = (set_side >= 0) & (set_side == prev) & (loses < 0)
            loses = np.where(twice, set_side, loses)
            last_set[active] = np.where(played, set_side, prev)
        first[active] = (take(first, games) + 1) % P
        winner[active] = game_winner(table, new_scores, res.bidder, res.wins_game, loses)
        stopping.games_done(np.count_nonzero(winner >= 0), n)     # a run's count, and its cancel (no number changes)
    return GameResult(winner, n_hands, scores, thrown, contracts, made_n, moons, first0, first_hand, log)
