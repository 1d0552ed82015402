"""Worlds: the unseen items dealt exactly uniformly over the deals that fit a seat's view.

Every search player (and the reviews, which share its dealing) deals the items a seat cannot see
(cards, tiles, card copies) to groups: the other seats' hands and whatever is out of play (the
undealt cards, a widow, an unknown discard, a draw pile). Group h takes exactly caps[h] items and
item i may go only to the groups set in allowed[i] (bit h: the voids a seat has shown, RULES.md
A.13, B.12, C.10). A world is one deal drawn uniformly over ALL deals that fit, exactly: a seat
dealt after a constrained one does not inherit the cards the constrained one was barred from.

The deal comes back as `order` (n, W, K): each world's item indices laid out group after group
(group 0's caps[0] items first, then group 1's, ...), each group's items in uniformly random
order (a shuffled deck dealt in blocks), so a caller that needs an order (a face-down stack, a
draw pile) reads it from there.

Two exact ways, cheapest first:
  * rejection (`tries` > 0): shuffle, deal in blocks, keep the first shuffle that fits. A shuffle
    is uniform over all deals, so one kept on fitting is uniform over the deals that fit;
  * counting (`exact`): the deals that fit are counted with a dynamic programme over the
    constrained items (state: each group's room left), and each item's group is drawn in
    proportion to the completions it leaves; the free items (allowed everywhere) then fill the
    room left as one shuffle. Worlds that rejection did not fill are dealt this way with fresh
    uniforms, so each world is a mixture of two uniform draws: uniform.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

LIMIT = 1 << 22      # counting table entries per game (32 MB of float64): past that a game is reported unsolved


# ------------------------------------------------------------------------------------ rejection

@njit(cache=True)
def _reject(allowed, caps, u, order, done):
    """Up to R shuffles per world (u (n, W, R, K) uniforms; Fisher-Yates from the end, item j
    swapped in at u * (i + 1)): the first whose blocks fit every group goes to order[g, w] and
    done[g, w] is set."""
    n, W, R, _ = u.shape
    G = caps.shape[1]
    perm = np.empty(max(allowed.shape[1], 1), dtype=np.int64)
    for g in range(n):
        m = 0
        for h in range(G):
            m += caps[g, h]
        for w in range(W):
            for r in range(R):
                for i in range(m):
                    perm[i] = i
                for i in range(m - 1, 0, -1):
                    j = int(u[g, w, r, i] * (i + 1))
                    if j > i:
                        j = i
                    perm[i], perm[j] = perm[j], perm[i]
                fits = True
                start = 0
                for h in range(G):
                    for i in range(start, start + caps[g, h]):
                        if not (allowed[g, perm[i]] >> h) & 1:
                            fits = False
                            break
                    if not fits:
                        break
                    start += caps[g, h]
                if fits:
                    for i in range(m):
                        order[g, w, i] = perm[i]
                    done[g, w] = True
                    break


# ------------------------------------------------------------------------------------ counting

@njit(cache=True)
def _shuffle(items, lo, hi, u, at):
    """Fisher-Yates over items[lo:hi] with the uniforms u[at:at + hi - lo]."""
    for i in range(hi - lo - 1, 0, -1):
        j = int(u[at + i] * (i + 1))
        if j > i:
            j = i
        items[lo + i], items[lo + j] = items[lo + j], items[lo + i]


@njit(cache=True)
def _game(allowed, caps, u, need, order, logf, limit):
    """One game's worlds (those with need[w]) by counting: 1 done, 0 no deal fits, -1 the count
    would need more than `limit` table entries (nothing dealt)."""
    G = caps.shape[0]
    m = 0
    for h in range(G):
        m += caps[h]
    # groups that take nothing drop out; groups that allow the same items act as one (merged):
    # a uniform deal to the merged group, split at random among its members, is uniform
    merged = np.full(G, -1, dtype=np.int64)
    mcap = np.zeros(G, dtype=np.int64)
    nm = 0
    for h in range(G):
        if caps[h] == 0:
            continue
        for k in range(h):
            if caps[k] == 0:
                continue
            same = True
            for i in range(m):
                if ((allowed[i] >> h) & 1) != ((allowed[i] >> k) & 1):
                    same = False
                    break
            if same:
                merged[h] = merged[k]
                break
        if merged[h] < 0:
            merged[h] = nm
            nm += 1
        mcap[merged[h]] += caps[h]
    bits = np.zeros(m, dtype=np.int64)
    for i in range(m):
        for h in range(G):
            if caps[h] > 0 and (allowed[i] >> h) & 1:
                bits[i] |= np.int64(1) << merged[h]
    # items with one place go there; the rest are constrained (DP) or free (allowed wherever room is left)
    room = mcap[:nm].copy()
    place = np.full(m, -1, dtype=np.int64)
    for i in range(m):
        if bits[i] == 0:
            return 0
        if bits[i] & (bits[i] - 1) == 0:
            x = 0
            while not (bits[i] >> x) & 1:
                x += 1
            place[i] = x
            room[x] -= 1
            if room[x] < 0:
                return 0
    live = np.int64(0)
    for x in range(nm):
        if room[x] > 0:
            live |= np.int64(1) << x
    con = np.empty(m, dtype=np.int64)
    free = np.empty(m, dtype=np.int64)
    C = 0
    F = 0
    for i in range(m):
        if place[i] >= 0:
            continue
        e = bits[i] & live
        if e == 0:
            return 0
        if e == live:
            free[F] = i
            F += 1
        else:
            con[C] = i
            C += 1
    # the state: room left in every live group but the roomiest (`drop`, implied by the items left)
    drop = -1
    for x in range(nm):
        if room[x] > 0 and (drop < 0 or room[x] > room[drop]):
            drop = x
    dims = np.empty(nm, dtype=np.int64)
    stride = np.empty(nm, dtype=np.int64)
    D = 0
    S = 1
    for x in range(nm):
        if room[x] > 0 and x != drop:
            dims[D] = x
            stride[D] = S if C > 0 else 0             # (no count to make without constrained items)
            if C > 0:
                S *= room[x] + 1
                if S * (C + 1) > limit:
                    return -1
            D += 1
    s0 = 0
    for d in range(D):
        s0 += room[dims[d]] * stride[d]
    table = np.zeros((C + 1, S if C > 0 else 1))
    if C > 0:
        digit = np.empty((S, D), dtype=np.int64)
        total = np.zeros(S, dtype=np.int64)
        for s in range(S):
            for d in range(D):
                digit[s, d] = (s // stride[d]) % (room[dims[d]] + 1)
                total[s] += digit[s, d]
        # completions when only the free items are left: F! / prod(room!) (the F! common to all states dropped)
        for s in range(S):
            rest = F - total[s]
            if 0 <= rest <= room[drop]:
                lg = logf[rest]
                for d in range(D):
                    lg += logf[digit[s, d]]
                table[C, s] = math.exp(-lg)
        for c in range(C - 1, -1, -1):
            e = bits[con[c]] & live
            left = C - c + F
            for s in range(S):
                acc = 0.0
                for d in range(D):
                    if (e >> dims[d]) & 1 and digit[s, d] > 0:
                        acc += table[c + 1, s - stride[d]]
                if (e >> drop) & 1 and left - total[s] > 0:
                    acc += table[c + 1, s]
                table[c, s] = acc
        if not table[0, s0] > 0.0:
            return 0
    # each world: the constrained items one by one, the free ones shuffled into the room left,
    # then every merged group's items shuffled and cut into its members' blocks
    K = u.shape[1] // 2
    grp = np.empty(m, dtype=np.int64)
    weight = np.empty(D + 1)
    left_room = np.empty(nm, dtype=np.int64)
    items = np.empty(m, dtype=np.int64)
    first = np.empty(nm + 1, dtype=np.int64)
    fill = np.empty(nm, dtype=np.int64)
    start = np.zeros(G + 1, dtype=np.int64)
    for h in range(G):
        start[h + 1] = start[h] + caps[h]
    cur = np.empty(D + 1, dtype=np.int64)          # the state's digits: room left in each dimension
    for w in range(need.shape[0]):
        if not need[w]:
            continue
        s = s0
        used = 0
        for d in range(D):
            cur[d] = room[dims[d]]
            used += cur[d]
        for c in range(C):
            e = bits[con[c]] & live
            tot = 0.0
            for d in range(D + 1):
                weight[d] = 0.0
            for d in range(D):
                if (e >> dims[d]) & 1 and cur[d] > 0:
                    weight[d] = table[c + 1, s - stride[d]]
            if (e >> drop) & 1 and C - c + F - used > 0:          # room left in the roomiest group
                weight[D] = table[c + 1, s]
            for d in range(D + 1):
                tot += weight[d]
            r = u[w, c] * tot
            pick = -1
            for d in range(D + 1):
                if weight[d] > 0.0:
                    pick = d
                    if r < weight[d]:
                        break
                    r -= weight[d]
            if pick < D:
                grp[con[c]] = dims[pick]
                s -= stride[pick]
                cur[pick] -= 1
                used -= 1
            else:
                grp[con[c]] = drop
        # room left for the free items
        for x in range(nm):
            left_room[x] = 0
        for d in range(D):
            left_room[dims[d]] = cur[d]
        if drop >= 0:
            left_room[drop] = F - used
        for f in range(F):
            items[f] = free[f]
        _shuffle(items, 0, F, u[w], C)
        f = 0
        for x in range(nm):
            for _ in range(left_room[x]):
                grp[items[f]] = x
                f += 1
        for i in range(m):
            if place[i] >= 0:
                grp[i] = place[i]
        # the merged groups' items, each group's shuffled
        first[0] = 0
        for x in range(nm):
            first[x + 1] = first[x] + mcap[x]
            fill[x] = first[x]
        for i in range(m):
            items[fill[grp[i]]] = i
            fill[grp[i]] += 1
        for x in range(nm):
            _shuffle(items, first[x], first[x + 1], u[w], K + first[x])
            fill[x] = first[x]
        for h in range(G):
            if caps[h] == 0:
                continue
            x = merged[h]
            for k in range(caps[h]):
                order[w, start[h] + k] = items[fill[x] + k]
            fill[x] += caps[h]
    return 1


@njit(cache=True)
def exact(allowed, caps, u, need, order, status, limit=LIMIT):
    """The counting deal for the worlds of need (n, W): allowed (n, K) int64 group bits per item
    (items 0..caps[g].sum()-1 of game g), caps (n, G) int64, u (n, W, 2K) uniforms, order
    (n, W, K) int16 out; status[g] = 1 dealt, 0 no deal fits, -1 too big to count (games with no
    world needed are left as they are)."""
    n, K = allowed.shape
    logf = np.zeros(K + 2)
    for i in range(1, K + 2):
        logf[i] = logf[i - 1] + math.log(i)
    for g in range(n):
        if np.any(need[g]):
            status[g] = _game(allowed[g], caps[g], u[g], need[g], order[g], logf, limit)


# ------------------------------------------------------------------------------------ the entry point

def deal(rng: np.random.Generator, allowed: np.ndarray, caps: np.ndarray, worlds: int,
         tries: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """`worlds` uniform deals of each of n games' items: allowed (n, K) int64, bit h = item may go
    to group h (items past caps[g].sum() are padding); caps (n, G) items per group. Returns order
    (n, W, K) int16 (item indices group after group, -1 padding; see the module notes) and ok (n,)
    bool: False for a game no deal fits (or too big to count: never met at these games' sizes),
    whose worlds are left unfilled. `tries` shuffles per world are tried first (rng.random((n, W,
    tries, K)), then rng.random for the worlds they did not fill): 0 goes straight to counting."""
    allowed = np.ascontiguousarray(allowed, dtype=np.int64)
    caps = np.ascontiguousarray(caps, dtype=np.int64)
    n, K = allowed.shape
    order = np.full((n, worlds, K), -1, dtype=np.int16)
    done = np.zeros((n, worlds), dtype=bool)
    if tries > 0:
        _reject(allowed, caps, rng.random((n, worlds, tries, max(K, 1))), order, done)
    need = ~done
    if need.all():
        u = rng.random((n, worlds, 2 * K))
    else:
        u = np.zeros((n, worlds, 2 * K))
        u[need] = rng.random((int(need.sum()), 2 * K))
    status = np.ones(n, dtype=np.int8)
    exact(allowed, caps, u, need, order, status)       # (called even with nothing to deal: compiled at warm-up)
    return order, status == 1
