"""Moon expert's play: every legal tile scored by a linear model over what the mover's view shows.

One compiled pass per decision step: for each game and each legal tile it computes the features
below (the same function fills the training arrays, benchmarks/train_moon_expert.py), picks the
weight row of the game's situation (position in the trick, whether the mover is on the bidder's
side, whether the contract is still open, made or set) and plays the tile with the highest score.
Nothing hidden is read: the mover's own tiles, the tiles played (seen), the suits each seat has
shown it lacks (void), the trick so far, the contract and the tricks taken.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine.table import TRUMP_POWER, rules_tables
from moonshot.simulator.moon.rules import Rules, tile_set_for
from moonshot.simulator.moon.solver import KERNEL, low_index, popcount
from moonshot.strategies.moon import KEEP

N_TILES, N_SUITS, N_TRUMPS = dominoes.N_TILES, dominoes.N_SUITS, dominoes.N_TRUMPS
TRUMP_SUIT = dominoes.TRUMP_SUIT
FEATURES = ("trump", "double", "pips", "wins_now", "beaters_out", "secure", "power", "follows", "ruffs",
            "suit_length", "keep", "cheapest_winner", "lowest_keep", "opponents_void", "partner_void",
            "highest_power", "beaters_mine", "leads_trump",
            # what the contract and the trick make of a tile (the situation's weights hold the rest)
            "wins_x_to_make", "wins_x_to_set", "trump_x_trumps_out", "secure_x_side_winning", "wins_x_side_winning",
            "trump_x_trick", "power_x_opponents_after", "beaters_x_opponents_after")
F = len(FEATURES)
# position in the trick x mover on the bidder's side x the contract: open, made, set, or one defenders' trick
# from set (the bidder's side needs every trick left, as from the first lead of a 21 or a 7)
STATES = 4
SITUATIONS = 4 * 2 * STATES


@lru_cache(maxsize=None)
def play_tables(notrump_doubles: str) -> tuple:
    """(POWER, IN_SUIT, LED_SUIT, IS_TRUMP, BEATERS, KEEP, TRUMP_MASK, SUIT_MASKS) for the rules'
    tables: BEATERS[tile, suit, trump] is the mask of tiles with more POWER when `suit` is led (who
    could take the trick from it), TRUMP_MASK[trump] the trumps, SUIT_MASKS[suit, trump] the tiles
    that follow `suit`."""
    tab = rules_tables(Rules(notrump_doubles=notrump_doubles))
    power = tab.POWER.astype(np.int16)
    bit = (np.uint32(1) << np.arange(N_TILES, dtype=np.uint32))
    beaters = np.zeros((N_TILES, N_SUITS, N_TRUMPS), dtype=np.uint32)
    for x in range(N_TILES):
        above = power > power[x][None, :, :]                  # (28, 9, 9): tiles y above x
        beaters[x] = (above * bit[:, None, None]).sum(axis=0, dtype=np.uint32)
    trump_mask = (tab.IS_TRUMP * bit[:, None]).sum(axis=0, dtype=np.uint32)       # (9,) the trumps as a mask
    suit_masks = (tab.IN_SUIT * bit[:, None, None]).sum(axis=0, dtype=np.uint32)  # (9 suits, 9 trumps)
    return (power, tab.IN_SUIT.copy(), tab.LED_SUIT.astype(np.int16), tab.IS_TRUMP.copy(), beaters,
            KEEP.astype(np.int16), trump_mask, suit_masks)


HIGH = dominoes.HIGH.astype(np.int64)
LOW = dominoes.LOW.astype(np.int64)


@njit(cache=True, inline="always")
def _two_bit_fields(suits):
    """A mask of suits spread to one 2-bit counter per suit (bit u to bit 2u), to add seats' voids."""
    out = 0
    for u in range(N_SUITS):
        out |= ((np.int64(suits) >> u) & 1) << (2 * u)
    return out


@njit(cache=True, fastmath=True, inline="always")     # inlined: passing its ~30 arrays per call cost more
def _row(i, P, trick_no, position, hand, live_bits, legal_bits, trump, seat, bidder, bid, led_suit, win_seat,
         win_power, tricks, seen_bits, void_bits, discard, side_of_seat, set_mask, strict, tables, out, pw):
    """Features of row i's legal tiles into out (7, F) (rows of illegal slots are left as they are;
    pw (7,) is scratch);
    returns the situation. Features that are the same for every tile of a row would change no
    choice, so the row's context enters through the situation and the products with it."""
    power, in_suit, led_of, is_trump, beaters, keep, trump_mask, suit_masks = tables
    t = trump[i]
    me = side_of_seat[seat[i]]
    bs = side_of_seat[bidder[i]]
    b = bid[i]
    need = 7 if b == 21 else (b + 1 if strict else b)
    bt = tricks[i, bs]
    dt = trick_no[i] - bt
    hand_bits = np.uint32(0)
    my_live = np.uint32(0)
    for j in range(7):
        bit = np.uint32(1) << np.uint32(hand[i, j])
        hand_bits |= bit
        if (live_bits[i] >> j) & 1:
            my_live |= bit
    unseen = set_mask & ~seen_bits[i] & ~hand_bits
    if discard[i] >= 0:
        unseen &= ~(np.uint32(1) << np.uint32(discard[i]))
    pos = position[i]
    trumps_out = popcount(np.int64(unseen & trump_mask[t]))
    opp_after = 0
    for k in range(1, P - pos):
        if side_of_seat[(seat[i] + k) % P] != me:
            opp_after += 1
    led = led_suit[i]
    side_winning = 1.0 if pos > 0 and side_of_seat[win_seat[i]] == me else 0.0
    to_make = max(need - bt, 0) / 7.0
    to_set = max(8 - need - dt, 0) / 7.0
    # when leading, how many opponents and partners have shown they lack each suit (2 bits a suit)
    opp_voids = 0
    partner_voids = 0
    if pos == 0:
        for s in range(P):
            if s != seat[i]:
                counts = _two_bit_fields(void_bits[i, s])
                if side_of_seat[s] == me:
                    partner_voids += counts
                else:
                    opp_voids += counts
    # the legal tiles' power in the suit that counts, for the ranks among them
    best_power = -100
    cheapest = 1000
    low_keep = 1000
    legal = legal_bits[i]
    m = np.int64(legal)
    while m:                    # over the legal slots only (a branch per slot cost more)
        j = low_index(m)
        m &= m - 1
        x = hand[i, j]
        pw[j] = power[x, led if pos > 0 else led_of[x, t], t]
        best_power = max(best_power, pw[j])
        if pos > 0 and pw[j] > win_power[i]:
            cheapest = min(cheapest, pw[j])
        low_keep = min(low_keep, keep[x, t])
    m = np.int64(legal)
    while m:
        j = low_index(m)
        m &= m - 1
        x = hand[i, j]
        suit = led if pos > 0 else led_of[x, t]
        wins = 1.0 if pos == 0 or pw[j] > win_power[i] else 0.0
        n_beat = popcount(np.int64(beaters[x, suit, t] & unseen))
        others = my_live & ~(np.uint32(1) << np.uint32(x))
        opp_void = (opp_voids >> (2 * suit)) & 3
        partner_void = (partner_voids >> (2 * suit)) & 3
        secure = 1.0 if wins > 0 and (n_beat == 0 or (pos > 0 and opp_after == 0)) else 0.0
        trump_tile = 1.0 if is_trump[x, t] else 0.0
        pwr = max(pw[j], -1) / (TRUMP_POWER + 8.0)
        out[j, 0] = trump_tile
        out[j, 1] = 1.0 if HIGH[x] == LOW[x] else 0.0
        out[j, 2] = (HIGH[x] + LOW[x]) / 12.0
        out[j, 3] = wins
        out[j, 4] = n_beat / 7.0
        out[j, 5] = secure
        out[j, 6] = pwr
        out[j, 7] = 1.0 if pos > 0 and in_suit[x, led, t] else 0.0
        out[j, 8] = 1.0 if pos > 0 and led != TRUMP_SUIT and is_trump[x, t] else 0.0
        out[j, 9] = popcount(np.int64(others & suit_masks[suit, t])) / 7.0
        out[j, 10] = keep[x, t] / 112.0
        out[j, 11] = 1.0 if pos > 0 and wins > 0 and pw[j] == cheapest else 0.0
        out[j, 12] = 1.0 if keep[x, t] == low_keep else 0.0
        out[j, 13] = opp_void / 2.0
        out[j, 14] = partner_void
        out[j, 15] = 1.0 if pw[j] == best_power else 0.0
        out[j, 16] = popcount(np.int64(others & beaters[x, suit, t])) / 7.0
        out[j, 17] = 1.0 if pos == 0 and suit == TRUMP_SUIT else 0.0
        out[j, 18] = wins * to_make
        out[j, 19] = wins * to_set
        out[j, 20] = trump_tile * trumps_out / 7.0
        out[j, 21] = secure * side_winning
        out[j, 22] = wins * side_winning
        out[j, 23] = trump_tile * trick_no[i] / 6.0
        out[j, 24] = pwr * (1.0 if opp_after > 0 else 0.0)
        out[j, 25] = n_beat / 7.0 * opp_after / 3.0
    state = 1 if bt >= need else (2 if dt > 7 - need else (3 if dt == 7 - need else 0))
    return (pos * 2 + (1 if me == bs else 0)) * STATES + state


# The kernels below allocate nothing (their scratch comes from the caller), so they run as the solver's
# do, without numba's reference counting (KERNEL): with it, each row's use of the tables' arrays was
# incref'd and decref'd (atomic instructions), much of the play pass's time under perf (CHANGELOG.md).


@njit(**KERNEL)
def features(P, trick_no, position, hand, live_bits, legal_bits, trump, seat, bidder, bid, led_suit, win_seat,
             win_power, tricks, seen_bits, void_bits, discard, side_of_seat, set_mask, strict, tables, out, situation,
             pw):
    """Every row's features (n, 7, F) and situation (n,): what training reads (pw: (7,) int64 scratch)."""
    for i in range(hand.shape[0]):
        situation[i] = _row(i, P, trick_no, position, hand, live_bits, legal_bits, trump, seat, bidder, bid,
                            led_suit, win_seat, win_power, tricks, seen_bits, void_bits, discard, side_of_seat,
                            set_mask, strict, tables, out[i], pw)


@njit(fastmath=True, **KERNEL)        # finite features and weights: the score sums vectorize
def choose(P, trick_no, position, hand, live_bits, legal_bits, trump, seat, bidder, bid, led_suit, win_seat,
           win_power, tricks, seen_bits, void_bits, discard, side_of_seat, set_mask, strict, tables, weights, choice,
           buf, pw):
    """The legal slot with the highest score for every row (the lowest slot on a tie); buf (7, F)
    float32 and pw (7,) int64 are scratch."""
    for i in range(hand.shape[0]):
        legal = legal_bits[i]
        if legal & (legal - 1) == 0:                   # one legal tile: nothing to weigh
            choice[i] = low_index(np.int64(legal))
            continue
        sit = _row(i, P, trick_no, position, hand, live_bits, legal_bits, trump, seat, bidder, bid, led_suit,
                   win_seat, win_power, tricks, seen_bits, void_bits, discard, side_of_seat, set_mask, strict,
                   tables, buf, pw)
        best, pick = -1e30, -1
        m = np.int64(legal)
        while m:
            j = low_index(m)
            m &= m - 1
            s = 0.0
            for f in range(weights.shape[1]):
                s += weights[sit, f] * buf[j, f]
            if s > best:
                best, pick = s, j
        choice[i] = pick


def view_args(view) -> tuple:
    """The kernels' arguments for a PlayView (the engine's, or one built from recorded rows), up to
    the weights: every per-game array, with trick_no and position as (n,) arrays."""
    n = len(view.seat)              # (recorded rows are a plain namespace of arrays: no len of their own)
    P = view.players
    seen = view.seen_bits
    if seen is None:
        seen = (np.asarray(view.seen) * (np.uint32(1) << np.arange(N_TILES, dtype=np.uint32))).sum(
            axis=1, dtype=np.uint32)
    void = view.void_bits
    if void is None:
        void = (np.asarray(view.void) * (1 << np.arange(N_SUITS))).sum(axis=2).astype(np.uint16)
    legal = view.legal_bits if view.legal_bits is not None else _bits(view.legal)
    live = view.live_bits if view.live_bits is not None else _bits(view.live)
    discard = view.discard if view.discard is not None else np.full(n, -1, dtype=np.int8)
    return (P, _per_row(view.trick_no, n), _per_row(view.position, n), np.asarray(view.hand), np.asarray(live),
            np.asarray(legal), np.asarray(view.trump), np.asarray(view.seat), np.asarray(view.bidder),
            np.asarray(view.bid), np.asarray(view.led_suit), np.asarray(view.winning_seat),
            np.asarray(view.winning_power), np.asarray(view.tricks), np.asarray(seen, dtype=np.uint32),
            np.asarray(void, dtype=np.uint16), np.asarray(discard), np.asarray(view.side_of_seat),
            tile_set_mask(P, view.rules), view.rules.bid_success == "strictly_greater",
            play_tables(view.rules.notrump_doubles))


def _per_row(value, n: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (n,)).copy()


def _bits(mask: np.ndarray) -> np.ndarray:
    return (np.asarray(mask) * (1 << np.arange(mask.shape[1]))).sum(axis=1).astype(np.uint8)


def tile_set_mask(players: int, rules) -> np.uint32:
    """The tiles in play at this table, as a mask."""
    return _set_mask(tile_set_for(rules, players))


@lru_cache(maxsize=None)
def _set_mask(tile_set: str) -> np.uint32:
    return np.uint32(sum(1 << int(t) for t in dominoes.TILE_SETS[tile_set]))


def play_features(view) -> tuple[np.ndarray, np.ndarray]:
    """(features (n, 7, F) float32, zeros where illegal; situation (n,) int64) of a PlayView (or of
    recorded rows: a namespace of the same arrays)."""
    n = len(view.seat)
    out = np.zeros((n, 7, F), dtype=np.float32)
    situation = np.zeros(n, dtype=np.int64)
    features(*view_args(view), out, situation, np.empty(7, dtype=np.int64))
    return out, situation


def play_choice(view, weights: np.ndarray) -> np.ndarray:
    """(n,) the slot each game plays under `weights` (SITUATIONS, F)."""
    choice = np.zeros(len(view), dtype=np.int64)
    choose(*view_args(view), weights, choice, np.zeros((7, weights.shape[1]), dtype=np.float32),
           np.empty(7, dtype=np.int64))
    return choice
