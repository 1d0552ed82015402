"""Moon's review: a pass valued by playing the auction on.

A pass does not score 0: someone else usually wins the auction, and the passer then defends (a
passer's margin when another seat takes the contract is negative on average). So in each world
the auction is played on from the pass: the seats that spoke before repeat their calls, the passer
passes, the seats after it bid as the `expert` (the default player) does, and the winner takes the
widow, discards and names trump as the expert would. The deal is then solved exactly from the
first lead, as every bid option is, and scored as the review scores it: the bidder side's margin,
with the sign turned for the passer when it defends. An auction that everyone passes scores 0 (a
redeal, by default).
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine import Table, play
from moonshot.simulator.moon.views import PASS
from moonshot.strategies.base import make_strategy
from moonshot.strategies.moon_search import SEATS


class _AuctionOn:
    """The expert in every seat, except that the seats in `calls` make the calls given there."""

    def __init__(self, calls: dict[int, int]):
        self.calls, self.expert = calls, make_strategy("moon", "expert")

    def bid(self, view, rng):
        out = self.expert.bid(view, rng)
        seat = np.asarray(view.seat)
        for s, call in self.calls.items():
            out[seat == s] = call
        return out

    def __getattr__(self, name):                 # discard, trump, play: the expert's
        return getattr(self.expert, name)


def _tile_rows(masks: np.ndarray) -> np.ndarray:
    """(W, 7) int8 the tiles of each 7-tile mask, in order."""
    bits = (masks[:, None] >> np.arange(dominoes.N_TILES)) & 1
    return np.nonzero(bits)[1].reshape(len(masks), -1).astype(np.int8)


def pass_outcomes(players: int, rules, view, hands: np.ndarray, aside: np.ndarray, pimc, points) -> np.ndarray:
    """(W,) the mover's outcome of passing in each world: hands (W, SEATS) masks of every seat's 7 tiles
    (the mover's included), aside (W,) the widow's mask (0 without one); points(bid) -> (8,) the
    bidder side's score of 0..7 tricks; pimc solves the deals."""
    seat = int(view.seat[0])
    first_bidder = (seat - int(view.position)) % players
    spoke = {s: int(c) for s, c in enumerate(np.asarray(view.bids[0])) if c >= 0}
    spoke[seat] = PASS
    W = len(hands)
    tiles = np.stack([_tile_rows(hands[:, s]) for s in range(players)], axis=1)
    widow = _tile_rows(aside)[:, 0] if aside.any() else None
    table = Table(players, rules)
    res = play(table, W, [_AuctionOn(spoke)] * players, None, np.random.default_rng(0),
               first_bidder=np.full(W, first_bidder), hands=tiles, widow=widow)
    out = np.zeros(W)
    sides = dominoes.side_of_seats(players)
    kept = np.zeros((W, SEATS), dtype=np.int64)
    for s in range(players):
        kept[:, s] = (np.int64(1) << res.hands7[:, s].astype(np.int64)).sum(axis=1)
    for bidder, trump in {(int(b), int(t)) for b, t in zip(res.bidder, res.trump) if b >= 0}:
        rows = np.flatnonzero((res.bidder == bidder) & (res.trump == trump))
        tricks = pimc._values(players, rules, trump, bidder, kept[rows], bidder, True)
        sign = 1 if sides[bidder] == sides[seat] else -1
        out[rows] = [sign * points(int(b))[t] for b, t in zip(res.bid[rows], tricks)]
    return out
