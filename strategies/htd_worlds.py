"""Hit the Deck search player's worlds: deals of what a seat cannot see that fit its view.

A world gives every other seat as many cards as it holds and the draw pile as many as it holds,
with what the view tells in place: the top card, the draw-pile places the seat's memory knows
(known_pile, htd.memory), the cards others are known to hold (held: drawn where a Flip had shown
them), the kinds a seat showed it lacks when it had to draw (lacks, for all but its newest cards),
and the cards seen going public this hand in the discard pile first. Every deal that fits is
equally likely (strategies.worlds); a deal names which of a seat's cards are the older ones its
lack binds (the chance of a hand when the older cards and the draws since were random).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.views import PlayView
from moonshot.strategies.worlds import exact

PILE = cards.DECK_SIZE       # a pile's room: the whole deck (engine.state.PILE)


@lru_cache(maxsize=None)
def _deck(rules) -> np.ndarray:
    """The deck's copies per kind under `rules` (read-only: kept for every deal under them)."""
    deck = cards.deck_counts(rules).astype(np.int16)
    deck.setflags(write=False)
    return deck


def _one_hot(kinds: np.ndarray) -> np.ndarray:
    """(n, k) kinds (-1 none) -> (n, 38) copies per kind."""
    n = len(kinds)
    out = np.zeros((n, cards.N_KINDS), dtype=np.int16)
    rows = np.repeat(np.arange(n), kinds.shape[1])
    k = kinds.reshape(-1).astype(np.intp)
    ok = k >= 0
    np.add.at(out, (rows[ok], k[ok]), 1)
    return out


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int, infer: int = 2,
                dealt: int | None = None) -> dict:
    """`worlds` deals of what the mover cannot see, for each of the n games of `view`:
    hands (n, W, P, 38) copies per kind (the mover's own row is its hand), draw and disc
    (n, W, 110) piles bottom first with dn, sn (n,) cards, and known (n, 110) the draw-pile places
    the mover's memory knows (their cards as known_draw says). `infer`: 0 the counts and known_draw
    alone, 1 also what the other seats' draws showed they lack, 2 also the cards they are known to
    hold (view.held) and the whole remembered pile (view.known_pile). With `dealt` only the first
    `dealt` worlds are laid out now; world["deal_rest"](games) lays out the others of those games
    (the draws are all made here: the same worlds either way)."""
    n, W, P = len(view), worlds, view.players
    seat = np.asarray(view.seat).astype(np.intp)
    hand = np.asarray(view.hand).astype(np.int16)
    top = np.asarray(view.top).astype(np.intp)
    dn = np.asarray(view.draw_size).astype(np.intp)
    sn = np.asarray(view.discard_size).astype(np.intp)
    pile = getattr(view, "known_pile", None)
    kd = np.asarray(view.known_draw if pile is None or infer < 2 else pile).astype(np.intp)
    rows = np.arange(n)
    # what the others are known to hold (view.held: cards drawn from places whose cards went public)
    held = view.held if infer >= 2 and getattr(view, "held", None) is not None else np.zeros((n, P, cards.N_KINDS))
    held = np.asarray(held).astype(np.int16)
    held[rows, seat] = 0
    held_all = held.sum(axis=1)
    sizes = np.asarray(view.hand_sizes).astype(np.intp) - held.sum(axis=2)        # cards still to deal
    known_counts = _one_hot(kd)
    top_count = _one_hot(top[:, None])
    pool = _deck(view.rules)[None, :] - hand - top_count - known_counts - held_all
    if (pool < 0).any() or (sizes < 0).any():
        raise ValueError("htd rollout: the view holds more copies of a card than the deck")
    # seen going public this hand and not known elsewhere: these lie in the discard pile first
    pref_count = np.clip(np.asarray(view.seen).astype(np.int16) - top_count - known_counts - held_all, 0, pool)
    # every card instance of the pool, per game, padded to 110 with kind -1
    L = pool.sum(axis=1).astype(np.intp)
    need = (sn - 1) + (sizes.sum(axis=1) - sizes[rows, seat]) + (dn - (kd >= 0).sum(axis=1))
    if (L != need).any():
        raise ValueError("htd rollout: the view's card counts do not add up to the deck")
    flat = pool.reshape(-1).astype(np.intp)
    kind_of = np.repeat(np.tile(np.arange(cards.N_KINDS), n), flat)
    game_of = np.repeat(np.repeat(rows, cards.N_KINDS), flat)
    start = np.concatenate([[0], np.cumsum(L)[:-1]])
    pos = np.arange(len(kind_of)) - start[game_of]
    run_start = np.concatenate([[0], np.cumsum(flat)[:-1]])               # first instance of each (game, kind)
    copy = np.arange(len(kind_of)) - np.repeat(run_start, flat)
    inst = np.full((n, PILE), -1, dtype=np.int8)
    inst[game_of, pos] = kind_of
    pref = np.zeros((n, PILE), dtype=bool)
    pref[game_of, pos] = copy < pref_count.reshape(-1)[game_of * cards.N_KINDS + kind_of]
    below = sn - 1
    others = (seat[:, None] + 1 + np.arange(P - 1)[None, :]) % P                # (n, P-1)
    size = sizes[rows[:, None], others].astype(np.int64)                        # (n, P-1) cards to deal each
    cum = np.cumsum(size, axis=1)                                               # (n, P-1)
    shown = getattr(view, "lacks", None) if infer >= 1 else None
    lacks = np.zeros((n, P - 1), np.uint64)
    if shown is not None:
        lacks = np.asarray(shown).astype(np.uint64)[rows[:, None], others]
    old = np.zeros((n, P - 1), dtype=np.int64)
    if (lacks != 0).any():
        # what each other seat showed it lacks (view.lacks: when it last had to draw) binds all but its
        # `fresh` newest cards; known cards of a lacked kind were taken since (the rest are still to deal)
        bits = (lacks[:, :, None] >> np.arange(cards.N_KINDS, dtype=np.uint64)) & np.uint64(1)
        held_lacked = (held[rows[:, None], others] * bits).sum(axis=2)
        fresh = np.maximum(np.asarray(view.fresh).astype(np.int64)[rows[:, None], others] - held_lacked, 0)
        old = np.where(lacks != 0, np.maximum(size - fresh, 0), 0)
    # the groups: the discard pile under the top, each other seat's older cards (those its lacks
    # bind) and newer ones, the draw pile's unknown places
    G = 2 * P
    caps = np.zeros((n, G), dtype=np.int64)
    caps[:, 0] = np.maximum(below, 0)
    caps[:, 1:G - 1:2] = old
    caps[:, 2:G - 1:2] = size - old
    caps[:, G - 1] = L - caps[:, :G - 1].sum(axis=1)
    if (caps[:, G - 1] < 0).any():
        raise ValueError("htd rollout: the view's card counts do not add up to the deck")
    # every world's deal is drawn now (one count per game; the later worlds only wait to be laid out)
    u = rng.random((n, W, 2 * PILE))
    order = np.full((n, W, PILE), -1, dtype=np.int16)
    status = np.ones(n, dtype=np.int8)
    exact(_allowed(inst, pref, lacks, below, True), caps, u, np.ones((n, W), dtype=bool), order, status)
    todo = rows[status != 1]
    for level in (1, 2):        # no deal fits: without the discard pile's preference, then without the lacks
        if not len(todo):
            break
        part, status = order[todo], np.ones(len(todo), dtype=np.int8)
        exact(_allowed(inst[todo], pref[todo], lacks[todo] if level == 1 else np.zeros_like(lacks[todo]),
                       below[todo], False), caps[todo], u[todo], np.ones((len(todo), W), dtype=bool), part, status)
        order[todo] = part
        todo = todo[status != 1]
    disc = np.zeros((n, W, PILE), dtype=np.int8)
    cards2 = np.empty((n, W, PILE), dtype=np.int8)
    hands = np.zeros((n, W, P, cards.N_KINDS), dtype=np.int16)
    draw = np.zeros((n, W, PILE), dtype=np.int8)
    known = np.zeros((n, PILE), dtype=np.bool_)
    top8, others64, seat64, dn64, kd64 = top.astype(np.int8), others.astype(np.int64), seat.astype(np.int64), \
        dn.astype(np.int64), kd.astype(np.int64)

    def deal(games: np.ndarray, w0: int, w1: int) -> None:
        """Lays out worlds w0..w1-1 of `games`."""
        games = np.ascontiguousarray(games, dtype=np.int64)
        _lay(inst, order, L, below, top8, disc, cards2, games, w0, w1)
        _place(cards2, others64, cum, seat64, hand, held, dn64, kd64, hands, draw, known, games, w0, w1)

    first = W if dealt is None else min(dealt, W)
    deal(rows, 0, first)
    return {"hands": hands, "draw": draw, "dn": dn, "disc": disc, "sn": sn, "known": known,
            "deal_rest": lambda games: deal(games, first, W)}


def _allowed(inst, pref, lacks, below, prefer: bool) -> np.ndarray:
    """(n, 110) int64 the groups (deal_worlds' order) each card of the pool may go to: a seat's
    older cards none of the kinds it lacks; with `prefer`, the cards seen going public this hand
    (pref) in the discard pile under the top: all of them when there is room, else it holds only them."""
    n, others = lacks.shape
    kind = np.maximum(inst, 0).astype(np.uint64)
    fits = ((lacks[:, None, :] >> kind[:, :, None]) & np.uint64(1)) == 0                    # (n, 110, P-1)
    old_bits = np.int64(1) << (1 + 2 * np.arange(others, dtype=np.int64))
    everywhere = np.int64((1 << (2 * others + 2)) - 1) & ~old_bits.sum()                # all but the older cards'
    out = (fits * old_bits).sum(axis=2) | everywhere
    if prefer:
        room = (pref.sum(axis=1) <= np.maximum(below, 0))[:, None]
        out = np.where(pref & room, 1, np.where(~pref & ~room, out & ~1, out))
    return out


@njit(cache=True)
def _lay(inst, order, L, below, top, disc, cards2, games, w0, w1):
    """Each world's discard pile (its first below[g] dealt cards, the top on them) and the rest of
    the deal in order (cards2: the other seats' hands, then the draw pile's unknown places), as
    _place reads them. Worlds w0..w1-1 of `games` only."""
    R = cards2.shape[2]
    for g in games:
        b = max(below[g], 0)
        for w in range(w0, w1):
            for i in range(b):
                disc[g, w, i] = inst[g, order[g, w, i]]
            if below[g] >= 0:
                disc[g, w, below[g]] = top[g]
            for i in range(b, L[g]):
                cards2[g, w, i - b] = inst[g, order[g, w, i]]
            for i in range(L[g] - b, R):
                cards2[g, w, i] = -1


@njit(cache=True)
def _place(cards2, others, cum, seat, hand, held, dn, kd, hands, draw, known, games, w0, w1):
    """deal_worlds' hands and draw piles from each world's dealt order: the other seats' hands
    first (others[g, j] takes up to cum[g, j] of the order), then the draw pile's places from the
    top (depth 0) down, each the card memory knows there (kd) or the next of the order; known
    (n, 110) the places memory knows. Worlds w0..w1-1 of `games` only."""
    R = cards2.shape[2]
    G = others.shape[1]
    D = kd.shape[1]
    src = np.empty(R, dtype=np.int64)
    card = np.empty(R, dtype=np.int64)
    for g in games:
        total = cum[g, G - 1]
        t = -1
        for r in range(R):
            depth = dn[g] - 1 - r
            card[r] = -2                                  # outside the pile: 0
            if depth >= 0:
                at = kd[g, depth] if depth < D else -1
                if at >= 0:
                    known[g, r] = True
                    card[r] = at
                else:
                    t += 1
                    card[r] = -1                          # from the order
                    src[r] = min(max(total + t, 0), R - 1)
        for w in range(w0, w1):
            j = 0
            for r in range(total):
                while r >= cum[g, j]:
                    j += 1
                hands[g, w, others[g, j], cards2[g, w, r]] += 1
            for p in range(hands.shape[2]):
                for x in range(hands.shape[3]):
                    hands[g, w, p, x] = hand[g, x] if p == seat[g] else hands[g, w, p, x] + held[g, p, x]
            for r in range(R):
                c = card[r]
                draw[g, w, r] = c if c >= 0 else (cards2[g, w, src[r]] if c == -1 else 0)
