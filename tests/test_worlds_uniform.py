"""Worlds are dealt uniformly over the deals that fit a seat's view (issue 36, DESIGN.md "Review").

The shared sampler (strategies.worlds) and each game's real entry point (Shoot the Moon's and Moon's
deal_worlds, Hit the Deck's htd_worlds.deal_worlds) are checked on small positions: every deal that
fits is enumerated exactly (item by item, or class by class with multinomial weights where the pool
is big), and the frequency of each placement over many sampled worlds must lie within 5 standard
errors of its exact probability (placements the rules forbid or force: never / always).
"""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshot.simulator.hit_the_deck import cards as htd_cards
from moonshot.simulator.hit_the_deck.rules import parse_rules as htd_rules
from moonshot.simulator.hit_the_deck.views import KNOWN_DEPTH, N_CHOICES
from moonshot.simulator.hit_the_deck.views import PlayView as HtdView
from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.simulator.shoot_the_moon import engine as SE
from moonshot.simulator.shoot_the_moon.rules import Rules as StmRules
from moonshot.strategies import htd_worlds, worlds
from moonshot.strategies.moon_search import deal_worlds as moon_worlds
from moonshot.strategies.shoot_the_moon import OddPlanner
from moonshot.strategies.stm_search import deal_worlds as stm_worlds
from tests.budget import size

SE_BOUND = 5.0


def assert_frequencies(got: np.ndarray, exact: np.ndarray, n: int, what: str = "") -> None:
    """Each sampled frequency within 5 binomial standard errors of its exact probability; exactly 0
    or 1 where the exact one is."""
    exact = np.asarray(exact, dtype=float)
    got = np.asarray(got, dtype=float)
    sure = (exact < 1e-12) | (exact > 1 - 1e-12)
    assert np.array_equal(got[sure], np.round(exact[sure])), f"{what}: a forbidden or forced placement broken"
    se = np.sqrt(exact * (1 - exact) / n)
    z = np.abs(got - exact)[~sure] / se[~sure]
    assert z.size == 0 or z.max() < SE_BOUND, (f"{what}: {z.max():.1f} SE off (sampled {got[~sure][z.argmax()]:.4f}, "
                                               f"exact {exact[~sure][z.argmax()]:.4f}, {n} worlds)")


def brute(allowed: list[int], caps: list[int]) -> np.ndarray:
    """(K, G) exact P(item i in group g) over every item-by-item deal that fits."""
    K, G = len(allowed), len(caps)
    count, hits = 0, np.zeros((K, G))
    for deal in itertools.product(range(G), repeat=K):
        if all(allowed[i] >> deal[i] & 1 for i in range(K)) and all(deal.count(g) == caps[g] for g in range(G)):
            count += 1
            hits[np.arange(K), deal] += 1
    assert count > 0
    return hits / count


def groups_of(order: np.ndarray, caps) -> np.ndarray:
    """(W, K) the group of each item in each world, from the sampler's block layout."""
    W, K = order.shape
    out = np.full((W, K), -1)
    block = np.repeat(np.arange(len(caps)), caps)
    out[np.arange(W)[:, None], order[:, :len(block)]] = block
    return out


def class_enumeration(sizes, allowed, caps, sink: int):
    """Every consistent deal of a big pool class by class: items of class c (sizes[c], exchangeable)
    may go to the groups allowed[c] (a set); the `sink` group (allowed for every class) takes what
    the others leave. Yields (weight, x): x[c][g] items of class c in group g, weight the number of
    item-by-item deals with those counts (the product of multinomials)."""
    C, G = len(sizes), len(caps)

    def splits(c, room):
        rest = [g for g in sorted(allowed[c]) if g != sink]

        def rec(i, left, part):
            if i == len(rest):
                yield dict(part)
                return
            g = rest[i]
            for k in range(0, min(left, room[g]) + 1):
                part[g] = k
                yield from rec(i + 1, left - k, part)
            part.pop(g, None)
        yield from rec(0, sizes[c], {})

    def rec(c, room, x, weight):
        if c == C:
            if all(room[g] == 0 for g in range(G)):
                yield weight, [row[:] for row in x]
            return
        for part in splits(c, room):
            row = [part.get(g, 0) for g in range(G)]
            row[sink] = sizes[c] - sum(row)
            if row[sink] > room[sink]:
                continue
            w = math.exp(math.lgamma(sizes[c] + 1) - sum(math.lgamma(k + 1) for k in row))
            yield from rec(c + 1, [room[g] - row[g] for g in range(G)], x + [row], weight * w)

    yield from rec(0, list(caps), [], 1.0)


# ------------------------------------------------------------------------------------ the shared sampler

PATTERNS = {
    "a void chain": ([0b111, 0b011, 0b101, 0b110, 0b111, 0b001], [2, 2, 2]),
    "two seats alike and a sink": ([0b1001, 0b1001, 0b1111, 0b1111, 0b1110, 0b1110, 0b1111, 0b1111], [2, 2, 2, 2]),
    "forced and barred items": ([0b0001, 0b0110, 0b1110, 0b1100, 0b1011, 0b1111, 0b0111], [1, 2, 3, 1]),
    "one free group and tight seats": ([0b101, 0b101, 0b011, 0b011, 0b111, 0b111, 0b100, 0b100], [2, 2, 4]),
}


@pytest.mark.parametrize("tries", [0, 2])
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_sampler_matches_enumeration(name, tries):
    allowed, caps = PATTERNS[name]
    W = 20_000
    order, ok = worlds.deal(np.random.default_rng(11), np.array([allowed]), np.array([caps]), W, tries=tries)
    assert ok.all()
    grp = groups_of(order[0], caps)
    got = np.stack([(grp == g).mean(axis=0) for g in range(len(caps))], axis=1)
    assert_frequencies(got, brute(allowed, caps), W, name)


def test_sampler_orders_each_group_at_random():
    """Inside a group's block every item is equally likely at every place (a face-down stack or a
    draw pile reads the order)."""
    allowed, caps = PATTERNS["a void chain"]
    W = 20_000
    order, _ = worlds.deal(np.random.default_rng(12), np.array([allowed]), np.array([caps]), W)
    exact = brute(allowed, caps)
    start = 0
    for g, cap in enumerate(caps):
        for k in range(cap):
            got = np.bincount(order[0, :, start + k], minlength=len(allowed)) / W
            assert_frequencies(got, exact[:, g] / cap, W, f"group {g} place {k}")
        start += cap


@settings(max_examples=size(25, 300), deadline=None, derandomize=True)
@given(data=st.data())
def test_sampler_matches_enumeration_on_random_positions(data):
    """Small random positions built around a hidden true deal (so one fits), random voids on top."""
    K = data.draw(st.integers(2, 7))
    G = data.draw(st.integers(2, 3))
    owner = data.draw(st.lists(st.integers(0, G - 1), min_size=K, max_size=K))
    caps = [owner.count(g) for g in range(G)]
    allowed = []
    for i in range(K):
        barred = data.draw(st.sets(st.integers(0, G - 1), max_size=G - 1))
        allowed.append(sum(1 << g for g in range(G) if g == owner[i] or g not in barred))
    W = 4_000
    order, ok = worlds.deal(np.random.default_rng(K * 31 + G), np.array([allowed]), np.array([caps]), W,
                            tries=data.draw(st.integers(0, 2)))
    assert ok.all()
    grp = groups_of(order[0], caps)
    got = np.stack([(grp == g).mean(axis=0) for g in range(G)], axis=1)
    assert_frequencies(got, brute(allowed, caps), W, f"{allowed} {caps}")


def test_sampler_says_when_nothing_fits_and_repeats_its_seed():
    allowed = np.array([[0b01, 0b01, 0b11], [0b11, 0b11, 0b11]])      # game 0: two items for a group of one
    caps = np.array([[1, 2], [1, 2]])
    order, ok = worlds.deal(np.random.default_rng(1), allowed, caps, 6)
    assert ok.tolist() == [False, True]
    again, _ = worlds.deal(np.random.default_rng(1), allowed, caps, 6)
    assert np.array_equal(order, again)
    assert sorted(order[1, 0].tolist()) == [0, 1, 2]
    allowed, caps = PATTERNS["a void chain"]           # a count past its table limit: said, nothing dealt
    status, order = np.ones(1, np.int8), np.full((1, 2, 6), -1, np.int16)
    worlds.exact(np.array([allowed]), np.array([caps]), np.random.default_rng(0).random((1, 2, 12)),
                 np.ones((1, 2), bool), order, status, 1)
    assert status[0] == -1 and (order == -1).all()


# ------------------------------------------------------------------------------------ Shoot the Moon

def stm_view(players: int, want, seed: int = 5):
    """The first decision (one game) where want(view, i) holds, with the engine's state still live."""
    table = SE.Table(players, False, StmRules())
    found = []

    class Spy:
        def play(self, view, rng):
            if not found:
                for i in range(len(view)):
                    if want(view, i):
                        found.append(view.take(np.array([i])))
                        break
            if found and not hasattr(found[0], "_worlds"):
                one = found[0]
                one._worlds = stm_worlds(one, np.random.default_rng(7), 20_000)
                one._record = {k: np.asarray(getattr(one, k)).copy() for k in (
                    "seat", "hand", "live", "seen", "play_seats", "play_cards")}
            return OddPlanner().play(view, rng)

    SE.play(table, 300, [Spy()] * players, np.random.default_rng(seed), np.random.default_rng(seed + 1))
    assert found, "no such decision in 300 rounds"
    return table, found[0]


def plays_voids(table, rec, trick_no, position):
    """(seat, suit) voids read from the record of plays (A.13), independently of the player's code."""
    H = table.hands_dealt
    j = trick_no * H + position
    plays = list(zip(rec["play_seats"][0, :j].tolist(), rec["play_cards"][0, :j].tolist()))
    out = set()
    for q, (s, c) in enumerate(plays):
        lead = plays[q - q % H][1]
        if not deck.IS_MOON[lead] and not deck.IS_MOON[c] and deck.SUIT[c] != deck.SUIT[lead]:
            if not (s == table.dummy and table.rules.dummy_mode == "blind_stack"):     # exempt (STM-10.3)
                out.add((s, int(deck.SUIT[lead])))
    return out, plays


def red_void_and_a_free_seat(view, i):
    """A view where one other seat has shown it holds no red and another has shown no void at all."""
    if view.trick_no < 1:
        return False
    table = view.table
    rec = {"play_seats": np.asarray(view.play_seats)[i:i + 1], "play_cards": np.asarray(view.play_cards)[i:i + 1]}
    voids, plays = plays_voids(table, rec, view.trick_no, view.position)
    me = int(view.seat[i])
    left = {s: 5 - sum(p == s for p, _ in plays) for s in range(table.players)}
    red = {s for s, u in voids if u == deck.RED and s != me}
    free = {s for s in range(table.players) if s != me and not any(v[0] == s for v in voids) and left[s] >= 2}
    return bool(red) and bool(free)


def stm_exact(table, view, rec):
    """Exact P(card in seat) for every unseen card and dealt seat, and P(seat holds a red card), by
    classes of cards (suit and the seats that lack it) with multinomial weights."""
    H = table.hands_dealt
    voids, plays = plays_voids(table, rec, view.trick_no, view.position)
    me = int(rec["seat"][0])
    known = set(np.flatnonzero(rec["seen"][0])) | {int(c) for c in rec["hand"][0]}
    unseen = [c for c in range(deck.DECK_SIZE) if c not in known]
    seats = [s for s in range(H) if s != me]
    caps = [5 - sum(p == s for p, _ in plays) for s in seats]
    caps.append(len(unseen) - sum(caps))                 # the undealt cards: the sink
    sink = len(seats)
    key = {}
    for c in unseen:
        barred = frozenset(k for k, s in enumerate(seats) if not deck.IS_MOON[c] and (s, int(deck.SUIT[c])) in voids)
        key.setdefault((int(deck.SUIT[c]) if not deck.IS_MOON[c] else 4, barred), []).append(c)
    classes = list(key.values())
    allowed = [set(range(len(caps))) - set(b) for (_, b) in key]
    total, mean = 0.0, np.zeros((len(classes), len(caps)))
    red_none = np.zeros(len(seats))
    red = [k for k, (u, _) in enumerate(key) if u == deck.RED]
    for weight, x in class_enumeration([len(c) for c in classes], allowed, caps, sink):
        total += weight
        mean += weight * np.array(x)
        red_none += weight * np.array([all(x[k][g] == 0 for k in red) for g in range(len(seats))])
    mean /= total
    p_card = {(c, s): mean[k, g] / len(cls) for k, cls in enumerate(classes) for c in cls for g, s in enumerate(seats)}
    return seats, p_card, 1 - red_none / total


def test_rollout_worlds_uniform_after_a_void():
    """Issue 36: a seat dealt after one that showed a red void got too many reds (44.6% against
    27.0% in the issue's case). Every card's chance to be in every hand, and each hand's chance to
    hold a red card, match the exact enumeration."""
    table, view = stm_view(4, red_void_and_a_free_seat)
    rec = view._record
    hands, live = view._worlds
    W = hands.shape[1]
    seats, p_card, p_red = stm_exact(table, view, rec)
    got, exact = [], []
    for (c, s), p in p_card.items():
        held = ((hands[0, :, s] == c) & ((live[0, :, s, None] >> np.arange(5)) & 1).astype(bool)).any(axis=1)
        got.append(held.mean())
        exact.append(p)
    assert_frequencies(got, exact, W, "card in hand")
    slot_live = ((live[0, :, :, None] >> np.arange(5)) & 1).astype(bool)
    has_red = ((deck.SUIT[hands[0]] == deck.RED) & ~deck.IS_MOON[hands[0]] & slot_live).any(axis=2)   # (W, H)
    assert_frequencies(has_red[:, seats].mean(axis=0), p_red, W, "a red card in hand")


def test_rollout_blind_dummy_stack_uniform():
    """Two players: the blind dummy's face-down stack holds each unseen card, at each of its places,
    as often as the exact enumeration says (a player's void shown first)."""
    def want(view, i):
        if view.trick_no < 1 or view.table.dummy is None:
            return False
        rec = {"play_seats": np.asarray(view.play_seats)[i:i + 1], "play_cards": np.asarray(view.play_cards)[i:i + 1]}
        voids, _ = plays_voids(view.table, rec, view.trick_no, view.position)
        return any(s != int(view.seat[i]) for s, _ in voids)

    table, view = stm_view(2, want, seed=3)
    rec = view._record
    hands, live = view._worlds
    W = hands.shape[1]
    seats, p_card, _ = stm_exact(table, view, rec)
    d = table.dummy
    _, plays = plays_voids(table, rec, view.trick_no, view.position)
    first = sum(p == d for p, _ in plays)
    left = 5 - first
    unseen = sorted({c for c, _ in p_card})
    for slot in range(first, 5):
        got = [(hands[0, :, d, slot] == c).mean() for c in unseen]
        assert_frequencies(got, [p_card[(c, d)] / left for c in unseen], W, f"dummy slot {slot}")
    assert (live[0, :, d] == sum(1 << s for s in range(first, 5))).all()


# ------------------------------------------------------------------------------------ Moon

def test_pimc_worlds_uniform_under_strong_voids():
    """Voids that few shuffles fit (the old deal then placed tiles one by one, unevenly): every
    tile's chance to be in every group matches the exact enumeration."""
    pool = [0, 3, 5, 8, 11, 14, 17, 20, 23]
    tiles_of = lambda ts: sum(1 << t for t in ts)            # noqa: E731
    allowed = [tiles_of([0, 3, 5, 8, 11]), tiles_of([5, 8, 11, 14, 17, 20]), tiles_of([0, 14, 17, 20, 23, 3])]
    caps = [3, 3, 3]
    item_allowed = [sum(1 << g for g in range(3) if allowed[g] >> t & 1) for t in pool]
    exact = brute(item_allowed, caps)
    fits = sum(1 for deal in itertools.permutations(range(9)) if all(
        all(allowed[g] >> pool[deal[3 * g + k]] & 1 for k in range(3)) for g in range(3)))
    assert fits / math.factorial(9) < 0.05           # 3 tries fill few worlds: the rest are counted
    W = 20_000
    masks = moon_worlds(np.random.default_rng(4), np.array(pool), caps, allowed, W, retries=3)
    got = np.array([[((masks[:, g] >> t) & 1).mean() for g in range(3)] for t in pool])
    assert_frequencies(got, exact, W, "tile in group")


# ------------------------------------------------------------------------------------ Hit the Deck

def htd_position():
    """A hand-built 4-player view: seat 0 to move; seats 1 and 2 showed they lack every red card and
    Hit the Deck card (seat 1 has drawn 2 cards since, seat 2 none); seat 3 showed nothing; four
    cards seen going public this hand lie under the top."""
    rules = htd_rules([], 4)
    R = htd_cards.number_card
    hand = [R(1, 1), R(1, 2), R(2, 3), R(3, 4), R(3, 5), htd_cards.cut(2), R(1, 3)]
    top = R(1, 4)
    seen_extra = [R(2, 1), R(2, 2), R(3, 1), R(3, 2)]
    lacked = sorted({R(0, v) for v in range(1, 6)} | {htd_cards.cut(0), htd_cards.flip(0), htd_cards.HH}
                    | {htd_cards.htd_n(v) for v in range(1, 6)} | {htd_cards.htd_c(c) for c in range(4)})
    sizes = [7, 6, 7, 8]
    sn = 11
    dn = 110 - sum(sizes) - sn
    counts = np.zeros(htd_cards.N_KINDS, np.int8)
    for k in hand:
        counts[k] += 1
    seen = np.zeros(htd_cards.N_KINDS, np.int16)
    for k in seen_extra + [top]:
        seen[k] += 1
    one = lambda v, t: np.array([v], dtype=t)          # noqa: E731
    mask = sum(1 << k for k in lacked)
    view = HtdView(players=4, rules=rules, seat=one(0, np.int8), hand=counts[None], legal=np.ones((1, N_CHOICES), bool),
                   drawn=one(-1, np.int8), top=one(top, np.int8), demand=one(-1, np.int8), direction=one(1, np.int8),
                   hand_sizes=np.array([sizes], np.int16), scores=np.zeros((1, 4), np.int16),
                   draw_size=one(dn, np.int16), discard_size=one(sn, np.int16),
                   known_draw=np.full((1, KNOWN_DEPTH), -1, np.int8), seen=seen[None],
                   lacks=np.array([[0, mask, mask, 0]], np.uint64), fresh=np.array([[0, 2, 0, 0]], np.int16),
                   known_pile=np.full((1, htd_cards.DECK_SIZE), -1, np.int8),
                   held=np.zeros((1, 4, htd_cards.N_KINDS), np.int8))
    pool = htd_cards.deck_counts(rules) - counts - seen
    return view, set(lacked), pool, sizes, sn, dn


def test_htd_worlds_uniform_with_lacks():
    """Hit the Deck's worlds: the lacked kinds' cards in each other hand, under the discard pile's
    top and in the draw pile, on average as the exact enumeration says. A seat's cards are its older
    ones (which its lack binds) and the ones it took since: each deal names which are which, and
    every such deal that fits is equally likely (the chance of a hand when the older cards and the
    draws were random). The old deal gave the seat that showed nothing too many of them."""
    view, lacked, pool, sizes, sn, dn = htd_position()
    n_l = int(sum(pool[k] for k in lacked))
    n_n = int(pool.sum()) - n_l
    below = sn - 1 - 4                         # the discard pile's room once the four seen cards are in it
    # groups: 0 seat 1 older (4, no lacked kind), 1 seat 1 newer (2), 2 seat 2 (7, none), 3 seat 3 (8),
    # 4 under the top (below), 5 the draw pile (dn): the sink
    caps = [4, 2, 7, 8, below, dn]
    allowed = [{1, 3, 4, 5}, {0, 1, 2, 3, 4, 5}]
    total, mean, sq = 0.0, np.zeros(6), np.zeros(6)
    for weight, x in class_enumeration([n_l, n_n], allowed, caps, sink=5):
        total += weight
        mean += weight * np.array(x[0])
        sq += weight * np.array(x[0]) ** 2
    mean, var = mean / total, sq / total - (mean / total) ** 2
    W = 20_000
    world = htd_worlds.deal_worlds(view, np.random.default_rng(9), W)
    is_l = np.array([k in lacked for k in range(htd_cards.N_KINDS)])
    hands = world["hands"][0]                                           # (W, 4, 38)
    got = {"seat 1": hands[:, 1, is_l].sum(axis=1), "seat 2": hands[:, 2, is_l].sum(axis=1),
           "seat 3": hands[:, 3, is_l].sum(axis=1),
           "under the top": is_l[world["disc"][0, :, :sn - 1]].sum(axis=1),
           "draw pile": is_l[world["draw"][0, :, :dn]].sum(axis=1)}
    want = {"seat 1": (mean[0] + mean[1], None), "seat 2": (mean[2], var[2]), "seat 3": (mean[3], var[3]),
            "under the top": (mean[4], var[4]), "draw pile": (mean[5], var[5])}
    assert (got["seat 1"] <= 2).all() and (got["seat 2"] == 0).all()
    for name, (m, v) in want.items():
        if v is None:
            v = np.var(got[name])                  # (a sum of two groups: its sampled spread)
        se = math.sqrt(v / W)
        assert abs(got[name].mean() - m) <= SE_BOUND * se, f"{name}: {got[name].mean():.3f} against exact {m:.3f}"
    seen_under = np.zeros(htd_cards.N_KINDS, int)
    for k in np.flatnonzero(view.seen[0]):
        seen_under[k] = view.seen[0, k] - (k == view.top[0])
    under = np.stack([np.bincount(world["disc"][0, w, :sn - 1], minlength=htd_cards.N_KINDS) for w in range(50)])
    assert (under >= seen_under).all()                  # the cards seen going public lie under the top


def test_htd_worlds_without_the_lacks_when_no_deal_fits():
    """A lack no deal fits (a seat that showed it holds none of any kind) is dropped for that game:
    every hand still gets its count and every card is dealt once."""
    view, lacked, pool, sizes, sn, dn = htd_position()
    view.lacks = np.array([[0, (1 << htd_cards.N_KINDS) - 1, 0, 0]], np.uint64)
    world = htd_worlds.deal_worlds(view, np.random.default_rng(2), 50)
    hands = world["hands"][0]
    assert (hands.sum(axis=2) == sizes).all()
    deck = htd_cards.deck_counts(view.rules)
    for w in range(50):
        total = hands[w].sum(axis=0) + np.bincount(world["draw"][0, w, :dn], minlength=htd_cards.N_KINDS) \
            + np.bincount(world["disc"][0, w, :sn], minlength=htd_cards.N_KINDS)
        assert (total == deck).all()
