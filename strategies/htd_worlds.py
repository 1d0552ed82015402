"""Hit the Deck search player's worlds: deals of what a seat cannot see that fit its view.

A world gives every other seat as many cards as it holds and the draw pile as many as it holds,
with what the view tells in place: the top card, the draw-pile places the seat's memory knows
(known_pile, htd.memory), the cards others are known to hold (held: drawn where a Flip had shown
them), the kinds a seat showed it lacks when it had to draw (lacks, for all but its newest cards),
and the cards seen going public this hand in the discard pile first.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.views import PlayView

PILE = cards.DECK_SIZE       # a pile's room: the whole deck (engine.state.PILE)


def _one_hot(kinds: np.ndarray) -> np.ndarray:
    """(n, k) kinds (-1 none) -> (n, 38) copies per kind."""
    n = len(kinds)
    out = np.zeros((n, cards.N_KINDS), dtype=np.int16)
    rows = np.repeat(np.arange(n), kinds.shape[1])
    k = kinds.reshape(-1).astype(np.intp)
    ok = k >= 0
    np.add.at(out, (rows[ok], k[ok]), 1)
    return out


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int, infer: int = 2) -> dict:
    """`worlds` deals of what the mover cannot see, for each of the n games of `view`:
    hands (n, W, P, 38) copies per kind (the mover's own row is its hand), draw and disc
    (n, W, 110) piles bottom first with dn, sn (n,) cards, and known (n, 110) the draw-pile places
    the mover's memory knows (their cards as known_draw says). `infer`: 0 the counts and known_draw
    alone, 1 also what the other seats' draws showed they lack, 2 also the cards they are known to
    hold (view.held) and the whole remembered pile (view.known_pile)."""
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
    pool = cards.deck_counts(view.rules).astype(np.int16)[None, :] - hand - top_count - known_counts - held_all
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
    pad = inst < 0
    # the discard pile under the top: the preferred cards first, at random
    key1 = rng.random((n, W, PILE)) - 2.0 * pref[:, None, :]
    key1[np.broadcast_to(pad[:, None, :], key1.shape)] = np.inf
    order1 = np.argsort(key1, axis=2, kind="stable")
    below = sn - 1
    in_disc = np.broadcast_to(np.arange(PILE)[None, None, :] < below[:, None, None], (n, W, PILE))
    disc = np.zeros((n, W, PILE), dtype=np.int8)
    disc_cards = np.take_along_axis(np.broadcast_to(inst[:, None, :], (n, W, PILE)), order1, axis=2)
    disc[in_disc] = disc_cards[in_disc]
    disc[rows, :, np.maximum(sn - 1, 0)] = np.where(sn > 0, top, 0)[:, None]
    # the rest at random: the other hands in seat order after the mover, then the unknown draw places
    key2 = rng.random((n, W, PILE))
    taken = np.zeros((n, W, PILE), dtype=bool)
    np.put_along_axis(taken, order1, in_disc, axis=2)
    key2[taken | pad[:, None, :]] = np.inf
    order2 = np.argsort(key2, axis=2, kind="stable")
    cards2 = np.take_along_axis(np.broadcast_to(inst[:, None, :], (n, W, PILE)), order2, axis=2)
    others = (seat[:, None] + 1 + np.arange(P - 1)[None, :]) % P                # (n, P-1)
    cum = np.cumsum(sizes[rows[:, None], others], axis=1)                        # (n, P-1)
    lacks = getattr(view, "lacks", None) if infer >= 1 else None
    if lacks is not None:
        # what each other seat showed it lacks (view.lacks: when it last had to draw) binds all but
        # its `fresh` newest cards: those are dealt first from the cards it may hold
        lacks = np.asarray(lacks).astype(np.uint64)[rows[:, None], others]
        if (lacks != 0).any():
            # known cards of a lacked kind were taken since: the rest of the newest are still to deal
            bits = (lacks[:, :, None] >> np.arange(cards.N_KINDS, dtype=np.uint64)) & np.uint64(1)
            held_lacked = (held[rows[:, None], others] * bits).sum(axis=2)
            fresh = np.maximum(np.asarray(view.fresh).astype(np.int64)[rows[:, None], others] - held_lacked, 0)
            cards2 = np.ascontiguousarray(cards2)
            _deal_hands_first(cards2, (L - np.maximum(below, 0)).astype(np.int64), sizes[rows[:, None], others].astype(np.int64),
                              fresh, lacks)
    rank = np.arange(PILE)
    owner_j = (rank[None, None, :] >= cum[:, :, None]).sum(axis=1)               # (n, 110): index into others
    in_hands = owner_j < P - 1
    owner = others[rows[:, None], np.minimum(owner_j, P - 2)]                   # (n, 110)
    hands = np.zeros((n, W, P, cards.N_KINDS), dtype=np.int16)
    g_i, w_i, r_i = np.nonzero(np.broadcast_to(in_hands[:, None, :], (n, W, PILE)))
    np.add.at(hands, (g_i, w_i, owner[g_i, r_i], cards2[g_i, w_i, r_i].astype(np.intp)), 1)
    hands += held[:, None, :, :]
    hands[rows, :, seat] = hand[:, None, :]
    # the draw pile, bottom first: known places from memory, the others in dealt order
    depth = dn[:, None] - 1 - rank[None, :]                                      # (n, 110) places from the top
    inside = depth >= 0
    D = kd.shape[1]
    kd_at = np.where(inside & (depth < D), np.take_along_axis(kd, np.clip(depth, 0, D - 1), axis=1), -1)
    known = inside & (kd_at >= 0)
    unknown = inside & ~known
    t = np.cumsum(unknown, axis=1) - 1
    src = np.clip(cum[:, -1][:, None] + t, 0, PILE - 1)                           # (n, 110) rank in order2
    draw = np.take_along_axis(cards2, np.broadcast_to(src[:, None, :], (n, W, PILE)), axis=2)
    draw = np.where(known[:, None, :], kd_at[:, None, :], np.where(unknown[:, None, :], draw, 0)).astype(np.int8)
    return {"hands": hands, "draw": draw, "dn": dn, "disc": disc, "sn": sn, "known": known}


@njit(cache=True)
def _deal_hands_first(cards, avail, caps, fresh, lacks):
    """Reorders each world's shuffled cards (cards (n, W, 110) kinds, the first avail[g] of game g
    available) in place so that the first caps[g, 0] are the first other seat's hand, the next
    caps[g, 1] the second's, and so on, then the rest in their shuffled order. Each seat's
    caps - fresh older cards come from kinds outside its `lacks` mask (the first such cards in the
    shuffle; any cards when too few are left), its fresh cards from the cards after those. The
    seats are dealt tightest first (fewest cards that fit per older card), so that a loose seat does
    not take the only cards a tight one may hold."""
    n, W, _ = cards.shape
    G = caps.shape[1]
    used = np.zeros(cards.shape[2], dtype=np.bool_)
    out = np.empty(cards.shape[2], dtype=cards.dtype)
    start = np.zeros(G, dtype=np.int64)
    slack = np.zeros(G, dtype=np.float64)
    for g in range(n):
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
        for w in range(W):
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



