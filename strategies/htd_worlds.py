"""Hit the Deck search player's worlds: deals of what a seat cannot see that fit its view.

A world gives every other seat as many cards as it holds and the draw pile as many as it holds,
with what the view tells in place: the top card, the draw-pile places the seat's memory knows
(known_pile, htd.memory), the cards others are known to hold (held: drawn where a Flip had shown
them), the kinds a seat showed it lacks when it had to draw (lacks, for all but its newest cards),
and the cards seen going public this hand in the discard pile first.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.views import PlayView

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


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int, infer: int = 2, dealt: int | None = None) -> dict:
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
    # the discard pile under the top: the preferred cards first, at random; the rest at random
    # (numpy's draws, argsorted stably, as uniform keys: _shuffle)
    key1 = rng.random((n, W, PILE))
    key2 = rng.random((n, W, PILE))
    disc = np.zeros((n, W, PILE), dtype=np.int8)
    cards2 = np.empty((n, W, PILE), dtype=np.int8)
    others = (seat[:, None] + 1 + np.arange(P - 1)[None, :]) % P                # (n, P-1)
    cum = np.cumsum(sizes[rows[:, None], others], axis=1).astype(np.int64)      # (n, P-1)
    lacks = getattr(view, "lacks", None) if infer >= 1 else None
    bound = None
    if lacks is not None:
        # what each other seat showed it lacks (view.lacks: when it last had to draw) binds all but
        # its `fresh` newest cards: those are dealt first from the cards it may hold
        lacks = np.asarray(lacks).astype(np.uint64)[rows[:, None], others]
        if (lacks != 0).any():
            # known cards of a lacked kind were taken since: the rest of the newest are still to deal
            bits = (lacks[:, :, None] >> np.arange(cards.N_KINDS, dtype=np.uint64)) & np.uint64(1)
            held_lacked = (held[rows[:, None], others] * bits).sum(axis=2)
            fresh = np.maximum(np.asarray(view.fresh).astype(np.int64)[rows[:, None], others] - held_lacked, 0)
            bound = ((L - np.maximum(below, 0)).astype(np.int64), sizes[rows[:, None], others].astype(np.int64),
                     fresh, lacks)
    hands = np.zeros((n, W, P, cards.N_KINDS), dtype=np.int16)
    draw = np.zeros((n, W, PILE), dtype=np.int8)
    known = np.zeros((n, PILE), dtype=np.bool_)
    top8, others64, seat64, dn64, kd64 = top.astype(np.int8), others.astype(np.int64), seat.astype(np.int64), \
        dn.astype(np.int64), kd.astype(np.int64)

    def deal(games: np.ndarray, w0: int, w1: int) -> None:
        """Lays out worlds w0..w1-1 of `games` from their keys."""
        games = np.ascontiguousarray(games, dtype=np.int64)
        _shuffle(inst, pref, L, below, top8, key1, key2, disc, cards2, games, w0, w1)
        if bound is not None:
            _deal_hands_first(cards2, *bound, games, w0, w1)
        _place(cards2, others64, cum, seat64, hand, held, dn64, kd64, hands, draw, known, games, w0, w1)

    first = W if dealt is None else min(dealt, W)
    deal(rows, 0, first)
    return {"hands": hands, "draw": draw, "dn": dn, "disc": disc, "sn": sn, "known": known,
            "deal_rest": lambda games: deal(games, first, W)}


@njit(cache=True)
def _deal_hands_first(cards, avail, caps, fresh, lacks, games, w0, w1):
    """Reorders each world's shuffled cards (cards (n, W, 110) kinds, the first avail[g] of game g
    available) in place so that the first caps[g, 0] are the first other seat's hand, the next
    caps[g, 1] the second's, and so on, then the rest in their shuffled order. Each seat's
    caps - fresh older cards come from kinds outside its `lacks` mask (the first such cards in the
    shuffle; any cards when too few are left), its fresh cards from the cards after those. The
    seats are dealt tightest first (fewest cards that fit per older card), so that a loose seat does
    not take the only cards a tight one may hold. Worlds w0..w1-1 of `games` only (world 0's
    first avail[g] cards are the same ones, in another order, whether it was dealt yet or not)."""
    G = caps.shape[1]
    used = np.zeros(cards.shape[2], dtype=np.bool_)
    out = np.empty(cards.shape[2], dtype=cards.dtype)
    start = np.zeros(G, dtype=np.int64)
    slack = np.zeros(G, dtype=np.float64)
    for g in games:
        m = avail[g]
        for j in range(1, G):
            start[j] = start[j - 1] + caps[g, j - 1]
        for j in range(G):
            old = max(caps[g, j] - fresh[g, j], 0)
            fits = 0
            for k in range(m):
                if ((lacks[g, j] >> np.uint64(cards[g, 0, k])) & np.uint64(1)) == 0:
                    fits += 1
            slack[j] = fits / old if old > 0 else np.inf
        order = np.argsort(slack, kind="mergesort")
        for w in range(w0, w1):
            row = cards[g, w]
            used[:m] = False
            for jj in range(G):
                j = order[jj]
                mask = lacks[g, j]
                old = max(caps[g, j] - fresh[g, j], 0)
                pos = start[j]
                got = 0
                last = 0
                for i in range(m):
                    if got >= old:
                        break
                    k = row[i]
                    if not used[i] and ((mask >> np.uint64(k)) & np.uint64(1)) == 0:
                        used[i] = True
                        out[pos] = k
                        pos += 1
                        got += 1
                        last = i + 1
                # the newest cards (and any the constraint could not fill): the next unused ones after
                for step in range(m):
                    if got >= caps[g, j]:
                        break
                    i = (last + step) % m
                    if not used[i]:
                        used[i] = True
                        out[pos] = row[i]
                        pos += 1
                        got += 1
            pos = start[G - 1] + caps[g, G - 1]
            for i in range(m):
                if not used[i]:
                    out[pos] = row[i]
                    pos += 1
            for i in range(m):
                row[i] = out[i]





@njit(cache=True, inline="always")
def _stable_order(k, m, order, bucket, count):
    """order[:m] = numpy's stable argsort of k[:m] (keys in [-2, 1)), in linear expected time: a
    bucket sort on a monotone function of the key (equal keys share a bucket, and floating point
    keeps the order), the places in index order, then an insertion sort in each bucket that moves
    a place only past strictly greater keys."""
    scale = m / 3.0
    count[:m + 1] = 0
    for i in range(m):
        bucket[i] = min(np.int64((k[i] + 2.0) * scale), m - 1)
        count[bucket[i] + 1] += 1
    for j in range(m):
        count[j + 1] += count[j]
    for i in range(m):
        j = bucket[i]
        order[count[j]] = i
        count[j] += 1
    lo = 0
    for j in range(m):
        hi = count[j]
        for a in range(lo + 1, hi):
            x = order[a]
            c = a
            while c > lo and k[order[c - 1]] > k[x]:
                order[c] = order[c - 1]
                c -= 1
            order[c] = x
        lo = hi


@njit(cache=True)
def _shuffle(inst, pref, L, below, top, key1, key2, disc, cards2, games, w0, w1):
    """deal_worlds' two shuffles of each game's unseen cards (inst[g, :L[g]] kinds), world by world:
    the discard pile's cards under the top, disc[g, w, :below[g]], are the first of them in the
    order of key1 (the preferred ones, pref, first: keys less 2), and the top card goes on them;
    the others follow in cards2[g, w] in the order of key2, then the discard pile's and the
    padding (-1) in their places' order: numpy's stable argsort of those keys with the used
    places and the padding given infinite keys, as deal_worlds did in numpy. Worlds w0..w1-1 of
    `games` only."""
    R = key1.shape[2]
    k = np.empty(R)
    order = np.empty(R, dtype=np.int64)
    where = np.empty(R, dtype=np.int64)
    bucket = np.empty(R, dtype=np.int64)
    count = np.empty(R + 1, dtype=np.int64)
    taken = np.zeros(R, dtype=np.bool_)
    for g in games:
        m = L[g]
        b = max(below[g], 0)
        for w in range(w0, w1):
            for i in range(m):
                k[i] = key1[g, w, i] - 2.0 * pref[g, i]
            _stable_order(k, m, order, bucket, count)
            taken[:m] = False
            for i in range(b):
                disc[g, w, i] = inst[g, order[i]]
                taken[order[i]] = True
            if below[g] >= 0:
                disc[g, w, below[g]] = top[g]
            j = 0
            for i in range(m):                    # the untaken places, their keys in index order
                if not taken[i]:
                    k[j] = key2[g, w, i]
                    where[j] = i
                    j += 1
            _stable_order(k, m - b, order, bucket, count)
            fill = 0
            for i in range(m - b):
                cards2[g, w, fill] = inst[g, where[order[i]]]
                fill += 1
            for i in range(m):
                if taken[i]:
                    cards2[g, w, fill] = inst[g, i]
                    fill += 1
            for i in range(m, R):
                cards2[g, w, i] = inst[g, i]


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
