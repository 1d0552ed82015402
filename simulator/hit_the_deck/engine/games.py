"""Whole games of Hit the Deck (HTD-8): hands until a cumulative score reaches htd.target_score,
as reference.Game. Every hand's deals and chance keys are drawn for all n games, finished or not,
so two runs that differ only in play see the same deals and chance streams (common random numbers)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.hit_the_deck.engine.hands import deal, play
from moonshot.simulator.hit_the_deck.engine.table import Table


@dataclass
class GameResult:
    winners: np.ndarray         # (n,P) bool: the lowest total once a total reaches the target
                                # (several under htd.winner_tie=shared); all False when unfinished
    scores: np.ndarray          # (n,P) int16 final totals
    hands: np.ndarray           # (n,) int16 hands played
    went_out: np.ndarray        # (n,P) int16 hands each seat went out in
    blocked: np.ndarray         # (n,) int16 blocked hands (HTD-6.4, HTD-6.5)
    hit_max_turns: np.ndarray   # (n,) int16 hands ended by htd.max_turns
    penalty: np.ndarray         # (n,P,3) int32 penalty cards by cause over the game
    first_dealer: np.ndarray    # (n,) int8
    first_hand: object = None   # the opening hand of every game (engine Result)
    hand_log: list = field(default_factory=list)   # with keep_hands: [(game indices, Result)] per hand

    @property
    def finished(self) -> np.ndarray:
        return self.winners.any(axis=1)


def play_games(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator,
               play_rng: np.random.Generator, chance_rng: np.random.Generator,
               max_hands: int = 1000, first_hands: np.ndarray | None = None, first_draw: np.ndarray | None = None,
               dealer0: np.ndarray | None = None, keep_hands: bool = False) -> GameResult:
    """`first_hands` (n,P,7) with `first_draw` replace the first hand's deal (its deal is still
    drawn, so later hands see the same deals), `dealer0` the first dealer (still drawn).
    `keep_hands` plays every hand in record mode and keeps it with the games that played it
    (games-mode histories; the same numbers)."""
    P, rules = table.players, table.rules
    dealer = deal_rng.integers(0, P, n).astype(np.int8)
    if dealer0 is not None:
        dealer = np.asarray(dealer0, dtype=np.int8).copy()
    first = dealer.copy()
    first_hand = None
    scores = np.zeros((n, P), dtype=np.int16)
    winners = np.zeros((n, P), dtype=bool)
    hands_n = np.zeros(n, dtype=np.int16)
    went = np.zeros((n, P), dtype=np.int16)
    blocked = np.zeros(n, dtype=np.int16)
    maxed = np.zeros(n, dtype=np.int16)
    penalty = np.zeros((n, P, 3), dtype=np.int32)
    done = np.zeros(n, dtype=bool)
    log = []
    for h in range(max_hands):
        active = np.flatnonzero(~done)
        if not len(active):
            break
        hands, draw_pile = deal(deal_rng, n, table, active)
        if h == 0 and first_hands is not None:
            hands, draw_pile = first_hands, first_draw
        keys = chance_rng.bit_generator.random_raw(n).astype(np.uint64)[active]
        res = play(table, len(active), strategies, None, play_rng, None, dealer=dealer[active],
                   scores=scores[active], hands=hands, draw_pile=draw_pile, _keys=keys, record=keep_hands)
        if h == 0:
            first_hand = res
        if keep_hands:
            log.append((active, res))
        new = scores[active] + res.score
        scores[active] = new
        hands_n[active] += 1
        out = res.went_out.astype(np.intp)
        o = out >= 0
        went[active[o], out[o]] += 1
        blocked[active] += res.blocked
        maxed[active] += res.hit_max_turns
        penalty[active] += res.penalty
        d = dealer[active]
        if rules.dealer_rotation == "left":                       # htd.dealer_rotation (M7)
            d = (d + 1) % P
        elif rules.dealer_rotation == "went_out_player_deals":
            d = np.where(o, out, (d + 1) % P)
        dealer[active] = d
        over = new.max(axis=1) >= rules.target_score               # HTD-8.1
        low = new == new.min(axis=1, keepdims=True)
        if rules.winner_tie == "play_another_hand":                # A-HTD-8
            over &= low.sum(axis=1) == 1
        winners[active[over]] = low[over]
        done[active[over]] = True
        stopping.games_done(np.count_nonzero(done), n)      # a run's count, and its cancel (no number changes)
    return GameResult(winners, scores, hands_n, went, blocked, maxed, penalty, first, first_hand, log)
