"""Widow and trump (MOON-5, A-MOON-6): the bidder takes the widow, discards a tile, names trump."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from moonshot.simulator.batch import as_choice, ask, groups, illegal, put, rows_where, take
from moonshot.simulator.moon.engine.rows import padded, read_only, rows_of, words
from moonshot.simulator.moon.engine.table import HAND, N_TRUMPS, Table
from moonshot.simulator.moon.views import DiscardView, TrumpView

# A row as a word holds slot s in byte s: LOW_BYTES[s] masks the slots before slot s, TOP_BYTE slot 7.
LOW_BYTES = np.array([(1 << (8 * s)) - 1 for s in range(8)], dtype=np.uint64)
TOP_BYTE = np.uint64(0xFF << 56)


def widow_and_trump(table: Table, hands: np.ndarray, widow: np.ndarray | None, bidder: np.ndarray,
                    bid: np.ndarray, strategies: Sequence, rng: np.random.Generator,
                    scores: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MOON-5 / A-MOON-6: the bidder takes the widow (3 players, 22-tile set), discards one of the
    8 tiles and names trump (trump first with moon.widow_timing=trump_first); without a widow the
    bidder only names trump. Returns (hands after the discard (n,P,7), discard (n,) -1 if none,
    trump (n,) -1 when thrown in). The bidder's remaining tiles keep their slot order; a kept
    widow takes the freed slot at the end."""
    N, P = len(hands), table.players
    rows8 = padded(hands)
    discard, trump = exchange_and_name_trump(table, rows8, widow, bidder, bid, groups(strategies), rng, scores)
    return np.ascontiguousarray(rows8[:, :HAND]).reshape(N, P, HAND), discard, trump


def exchange_and_name_trump(table: Table, rows8: np.ndarray, widow, bidder, bid, strategy_groups,
                            rng: np.random.Generator, scores) -> tuple[np.ndarray, np.ndarray]:
    """widow_and_trump on padded rows (rows.py), changed in place: returns (discard, trump)."""
    rules, P = table.rules, table.players
    N = len(bidder)
    row_words = words(rows8)
    discard = np.full(N, -1, dtype=np.int8)
    trump = np.full(N, -1, dtype=np.int8)
    bidder = np.asarray(bidder)
    act = rows_where(bidder >= 0)                  # hands with a contract (simulator.batch: None = all)
    if act is not None and len(act) == 0:
        return discard, trump
    scores = np.zeros((N, table.n_sides), dtype=np.int16) if scores is None else np.asarray(scores)
    b = read_only(take(bidder, act).astype(np.intp))
    m = len(b)
    bd = read_only(take(np.asarray(bid), act).astype(np.int8))
    sc = read_only(take(scores, act))
    row = take(np.arange(N) * P, act) + b
    allowed = np.broadcast_to(table.allowed_trumps, (m, N_TRUMPS))

    def ask_trump(hand):
        view = TrumpView(P, rules, b, hand, bd, allowed, sc)
        return ask(strategy_groups, "trump", view, b, rng, _check_trump).astype(np.int8)

    def ask_discard(hand8, tr):
        view = DiscardView(P, rules, b, hand8, bd, tr, sc)
        return ask(strategy_groups, "discard", view, b, rng, _check_discard)

    if table.has_widow:
        w = row_words[row]
        w = (w & ~TOP_BYTE) | (take(np.asarray(widow), act).astype(np.uint8).astype(np.uint64) << np.uint64(56))
        hand8 = read_only(w.view(np.int8).reshape(m, 8))     # MOON-5.1: the widow in slot 7
        if rules.widow_timing == "trump_first":              # A-MOON-6
            tr = ask_trump(hand8)
            slot = ask_discard(hand8, read_only(tr))
        else:
            slot = ask_discard(hand8, np.full(m, -1, dtype=np.int8))
            tr = None
        put(discard, act, hand8[np.arange(m), slot])
        low = LOW_BYTES[slot]
        w = (w & low) | ((w >> np.uint64(8)) & ~low) | TOP_BYTE    # drop the slot, keep the order
        row_words[row] = w
        if tr is None:
            tr = ask_trump(w.view(np.int8).reshape(m, 8)[:, :HAND])
    else:
        tr = ask_trump(rows_of(row_words, row))
    put(trump, act, tr)
    return discard, trump


def _check_discard(strat, view: DiscardView, choice) -> np.ndarray:
    c = as_choice(choice, len(view))
    if c is None or not bool(((c >= 0) & (c < view.hand.shape[1])).all()):
        raise illegal(strat, "discard", f"one slot 0..{view.hand.shape[1] - 1} of view.hand per game")
    return c.astype(np.intp, copy=False)


def _check_trump(strat, view: TrumpView, choice) -> np.ndarray:
    c = as_choice(choice, len(view))
    ok = c is not None and bool(((c >= 0) & (c < N_TRUMPS)).all())
    if ok:
        ok = bool(view.legal[np.arange(len(c)), c].all())
    if not ok:
        raise illegal(strat, "trump", "one trump id 0..8 per game where view.legal is True "
                                      "(0..6, 7 = doubles, 8 = no-trump)")
    return c.astype(np.intp, copy=False)
