"""One hand per game: the deal (`shuffled_decks`, `deal`), the per-hand `Result` and `play`.

games.py plays whole games from these; the package (engine/__init__.py) re-exports both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from moonshot.simulator.batch import groups
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.engine.fast import FastRun
from moonshot.simulator.hit_the_deck.engine.hand import HandRun
from moonshot.simulator.hit_the_deck.engine.kernel_args import mirrors_numpy
from moonshot.simulator.hit_the_deck.engine.kernels import shuffle_decks
from moonshot.simulator.hit_the_deck.engine.record import assemble
from moonshot.simulator.hit_the_deck.engine.state import State, counts
from moonshot.simulator.hit_the_deck.engine.table import Table

HAND = cards.HAND_SIZE


def shuffled_decks(rng: np.random.Generator, n: int, deck: np.ndarray) -> np.ndarray:
    """(M, n) int8: a uniform random permutation of `deck` per game (column), by Fisher-Yates on
    the transposed decks (each swap step touches two contiguous rows). Position i swaps with
    i + floor(u * (M - i)) for a 32-bit uniform u (multiply-shift: bias below M / 2**32)."""
    M = len(deck)
    raw = rng.bit_generator.random_raw(((M - 1) * n + 1) // 2).view(np.uint32)[:(M - 1) * n].reshape(M - 1, n)
    decks = np.empty((n, M), dtype=np.int8)
    shuffle_decks(raw, np.asarray(deck, dtype=np.int8), decks)          # compiled: one game at a time
    return decks.T


def deal(rng: np.random.Generator, n: int, table: Table,
         games: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n,P,7) int8, draw_pile (n,110-7P) int8 top first), the layout of reference.deal:
    seat s gets positions 7s..7s+6 of a uniform permutation of the deck, the rest is the draw pile.
    With `games`, all n decks are shuffled (same numbers) but only those games are returned."""
    P = table.players
    decks = shuffled_decks(rng, n, table.deck)
    if games is not None:
        decks = decks[:, games]
    hands = np.ascontiguousarray(decks[:HAND * P].T).reshape(-1, P, HAND)
    return hands, np.ascontiguousarray(decks[HAND * P:].T)


@dataclass
class Result:
    """Per-hand outputs, batch first (n hands)."""
    dealer: np.ndarray          # (n,) int8
    hands: np.ndarray           # (n,P,7) int8 kinds as dealt
    opening: np.ndarray         # (n,P,38) int8 the same hands as counts per kind
    went_out: np.ndarray        # (n,) int8 seat that went out, -1 for a blocked hand
    score: np.ndarray           # (n,P) int16 points this hand (HTD-7.2; 0 for the seat out)
    turns: np.ndarray           # (n,) int16 HTD-6.5 turns
    blocked: np.ndarray         # (n,) bool HTD-6.4 or HTD-6.5
    hit_max_turns: np.ndarray   # (n,) bool ended by htd.max_turns (treat any as an error in tests)
    penalty: np.ndarray         # (n,P,3) int16 penalty cards received: [slap lost, forgot, false slap]
    shouts: np.ndarray          # (n,P) int16 slap events the seat shouted (or should have)
    slaps_lost: np.ndarray      # (n,P) int16 slap races lost
    forgot: np.ndarray          # (n,P) int16 shouts forgotten
    false_slaps: np.ndarray     # (n,P) int16 false slaps made
    # record mode only:
    draw_pile: list | None = None    # per hand: kinds, top first, before the start card is turned
    events: list | None = None       # per hand: HISTORY.md events (cards as notation)
    decisions: list | None = None    # per hand: [(seat, sorted legal kinds (DRAW = 38), drawn)] per decision
    final: dict | None = None        # per hand piles and hands at the end (conservation tests)

    def __len__(self) -> int:
        return len(self.dealer)

    @property
    def max_turns_hit(self) -> int:
        return int(self.hit_max_turns.sum())


def play(table: Table, n: int, strategies: Sequence, deal_rng: np.random.Generator | None,
         play_rng: np.random.Generator, chance_rng: np.random.Generator, dealer=None, scores=None,
         hands=None, draw_pile=None, record: bool = False, _hook=None, _keys=None, _numpy: bool = False) -> Result:
    """One hand per game. `dealer` defaults to a random seat per game (deal_rng, drawn before the
    deal); `hands` (n,P,7) with `draw_pile` (n,110-7P) top first replace the deal; `scores` (game
    totals before the hand) are only shown to the strategies. `record` adds draw_pile, events and
    decisions (small n: histories and parity tests). Without `record` the hand loop runs on
    compiled kernels (FastRun); `_numpy` runs HandRun instead (the same numbers, for the tests)."""
    P = table.players
    if len(strategies) != P:
        raise ValueError(f"one strategy per seat needed: {P}")
    if dealer is None:
        dealer = deal_rng.integers(0, P, n)
    dealer = np.broadcast_to(np.asarray(dealer), (n,)).astype(np.int8)
    if hands is None:
        hands, draw_pile = deal(deal_rng, n, table)
    hands = np.asarray(hands, dtype=np.int8)
    draw_pile = np.asarray(draw_pile, dtype=np.int8)
    if hands.shape != (n, P, HAND) or draw_pile.shape != (n, len(table.deck) - HAND * P):
        raise ValueError(f"hands must be {(n, P, HAND)} and draw_pile {(n, len(table.deck) - HAND * P)}")
    scores = np.zeros((n, P), dtype=np.int16) if scores is None else np.asarray(scores, dtype=np.int16)
    keys = chance_rng.bit_generator.random_raw(n).astype(np.uint64) if _keys is None else _keys
    seats = groups(strategies)
    # the piles' stamps only feed what a view shows of the draw pile (memory): none when one player
    # holds every seat and its class says itself that it never reads them (`random` reads the legal
    # masks alone; a subclass may read more, so the attribute is not inherited)
    alone = seats[0][0] if len(seats) == 1 else None
    st = State(table, hands, draw_pile, dealer, keys, scores, record,
               track_held=any(getattr(s, "reads_held", False) for s in strategies),
               track_stamps=alone is None or vars(type(alone)).get("reads_stamps", True))
    runner = HandRun if record or _numpy or not mirrors_numpy() else FastRun
    runner(table, st, seats, play_rng, _hook).run()
    res = st.res
    out = Result(dealer, hands, counts(hands), res["went_out"], res["score"], res["turns"], res["blocked"],
                 res["hit_max_turns"], res["penalty"], res["shouts"], res["lost"], res["forgot"], res["fslaps"])
    if record:
        out.draw_pile = [row.tolist() for row in draw_pile]
        out.events, out.decisions = assemble(st.log, n)
        out.final = {k: res[k] for k in ("final_hands", "final_draw", "final_dn", "final_disc", "final_sn")}
    return out
