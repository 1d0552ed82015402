"""Moon (dominoes) strategies: one method per decision (bid, discard, trump, play), batch in, batch out.

Every strategy here has all four methods; bidding styles take a `play=` parameter naming the
play style (random, greedy, defend), so bidding and play mix freely:
``--strategy threshold:play=greedy,margin=1`` or ``--strategy 0=montecarlo``.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.views import BID_VALUES, MOON_BID, PASS, BidView, DiscardView, PlayView, TrumpView
from moonshot.strategies.base import register

GAME = "moon"
BIG = 1000
N_TRUMPS = dominoes.N_TRUMPS
N_SUITS = dominoes.N_SUITS
IS_TRUMP = np.array([[ref.is_trump(t, tr) for tr in range(N_TRUMPS)] for t in range(dominoes.N_TILES)])
PIPS = (dominoes.HIGH.astype(np.int16) + dominoes.LOW)
# The double of each trump (the top trump), -1 for doubles (6-6 tops it) and no-trump.
TOP_TRUMP = np.array([dominoes.tile_id(t, t) for t in range(7)] + [dominoes.tile_id(6, 6), -1])


@lru_cache(maxsize=16)
def allowed_trumps(players: int, rules) -> np.ndarray:
    mask = np.zeros(N_TRUMPS, dtype=bool)
    mask[ref.allowed_trumps(players, rules)] = True
    return mask


def uniform_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random True column per row."""
    u = rng.random(mask.shape, dtype=np.float32)
    return np.where(mask, u, -1.0).argmax(axis=1)


# numpy scalars, not Python ints: np.where then promotes a small-integer score instead of wrapping BIG.
BIG_HIGH, BIG_LOW = np.int16(BIG), np.int16(-BIG)


def masked_argmin(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, score, BIG_HIGH).argmin(axis=1)


def masked_argmax(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, score, BIG_LOW).argmax(axis=1)


# ------------------------------------------------------------------------------- hand strength

def contribution_table(w_trump: float = 0.8, w_top: float = 0.5, w_double: float = 0.6,
                       w_nt_double: float = 0.9) -> np.ndarray:
    """(28, 9) tricks each tile adds to the estimate under each trump (see trick_estimate)."""
    tiles = np.arange(dominoes.N_TILES)[:, None]
    doubles = dominoes.IS_DOUBLE[:, None]
    table = (w_trump * IS_TRUMP + w_top * (tiles == TOP_TRUMP[None, :])
             + w_double * (doubles & ~IS_TRUMP)).astype(np.float32)
    table[:, dominoes.NOTRUMP] = w_nt_double * dominoes.IS_DOUBLE
    return table


DEFAULT_CONTRIBUTION = contribution_table()


def trick_estimate(hand: np.ndarray, contribution: np.ndarray = DEFAULT_CONTRIBUTION) -> np.ndarray:
    """(n,k) tiles -> (n,9) rough tricks expected as bidder for each trump (before any base).

    Trumps held count w_trump each, the top trump (the trump double; 6-6 for doubles) w_top more,
    every off-suit double (the top of its suit) w_double; in no-trump each double w_nt_double.
    """
    est = contribution[hand[:, 0]].copy()
    for i in range(1, hand.shape[1]):          # slot by slot: faster than a reduction over a short axis
        est += contribution[hand[:, i]]
    return est


# How much a tile is worth keeping under each trump: trumps, then doubles, then high pips.
# Stored trump-major, so one decision's lookups are `row of its trump` + tile.
KEEP = np.where(IS_TRUMP, 100 + PIPS[:, None], np.where(dominoes.IS_DOUBLE[:, None], 50 + PIPS[:, None], PIPS[:, None]))
KEEP_BY_TRUMP = np.ascontiguousarray(KEEP.T).astype(np.int16).reshape(-1)


def keep_value(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    return KEEP_BY_TRUMP[(trump.astype(np.intp) * dominoes.N_TILES)[:, None] + hand]


def best_trump(hand: np.ndarray, allowed: np.ndarray, estimate=trick_estimate) -> tuple[np.ndarray, np.ndarray]:
    est = np.where(allowed, estimate(hand), -BIG)
    best = est.argmax(axis=1)
    return best, est[np.arange(len(hand)), best]


# ------------------------------------------------------------------------------- play styles

# Trump-major lookup tables: entry trump * 28 + tile, so one decision computes its index once.
IS_TRUMP_BY_TRUMP = np.ascontiguousarray(IS_TRUMP.T).reshape(-1)
OFF_DOUBLE_BY_TRUMP = np.ascontiguousarray((dominoes.IS_DOUBLE[:, None] & ~IS_TRUMP).T).reshape(-1)
_ROWS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _rows(tables) -> tuple[np.ndarray, np.ndarray]:
    """(POWER as int16 rows [led * 9 + trump] of 28 tiles, each tile's POWER when it leads, as rows
    [trump] of 28 tiles), flattened; one pair per notrump_doubles variant (the only rule that
    changes the tables)."""
    key = tables.notrump_doubles
    if key not in _ROWS:
        power = np.ascontiguousarray(tables.POWER.transpose(1, 2, 0)).astype(np.int16)
        tiles = np.arange(dominoes.N_TILES)
        as_lead = np.stack([tables.POWER[tiles, tables.LED_SUIT[tiles, t], t] for t in range(N_TRUMPS)])
        _ROWS[key] = (power.reshape(-1), as_lead.astype(np.int16).reshape(-1))
    return _ROWS[key]


def heuristic_play(view: PlayView, want_win: np.ndarray, lead_greedy: np.ndarray) -> np.ndarray:
    """The greedy and defence styles in one pass, as a single argmin over a composite score.

    Following: rows in `want_win` play their cheapest tile that beats the trick; everyone else
    (and rows with no winning tile) sheds the lowest tile (KEEP). Leading: rows in `lead_greedy`
    lead their highest trump while another player may still hold a trump, else their highest
    off-suit double, else shed; the other rows shed.
    """
    trump = view.trump.astype(np.intp)
    idx = (trump * dominoes.N_TILES)[:, None] + view.hand               # trump-major table index
    score = KEEP_BY_TRUMP[idx]                                   # 0..~112: shed the lowest
    power_rows, lead_rows = _rows(view.tables)
    if view.position > 0:
        led_row = view.led_suit.astype(np.intp) * N_TRUMPS + trump
        power = power_rows[(led_row * dominoes.N_TILES)[:, None] + view.hand]
        beats = (power > view.winning_power[:, None]) & want_win[:, None]
        score = np.where(beats, power - BIG, score)              # any winner before any shed
    else:
        is_trump = IS_TRUMP_BY_TRUMP[idx]
        seen = view.seen_bits if view.seen_bits is not None else (view.seen * (np.uint32(1) << np.arange(
            dominoes.N_TILES, dtype=np.uint32))).sum(axis=1, dtype=np.uint32)
        # Trumps not yet played, less the mover's own: someone else may still hold one.
        elsewhere = np.bitwise_count(TRUMP_BITS[view.trump] & ~seen) - (is_trump & view.live).sum(axis=1)
        draw = lead_greedy & (elsewhere > 0)
        doubles = OFF_DOUBLE_BY_TRUMP[idx] & lead_greedy[:, None]
        score = np.where(doubles, -BIG // 2 - PIPS[view.hand], score)            # a double before a shed
        score = np.where(is_trump & draw[:, None], -BIG - lead_rows[idx], score)  # a trump before both
    return masked_argmin(score, view.legal)


TRUMP_BITS = (IS_TRUMP.astype(np.uint32) << np.arange(dominoes.N_TILES, dtype=np.uint32)[:, None]).sum(
    axis=0, dtype=np.uint32)          # (9,) bit t set when tile t is a trump


def play_random(view: PlayView, rng) -> np.ndarray:
    from moonshot.simulator.moon.engine import UNIFORM_FLAT, UNIFORM_R
    if view.legal_bits is None:                          # a view built by hand, without bit masks
        return uniform_choice(view.legal, rng)
    r = rng.integers(0, UNIFORM_R, len(view), dtype=np.int16)
    return UNIFORM_FLAT[view.legal_bits.astype(np.intp) * UNIFORM_R + r].astype(np.intp)


def play_greedy(view: PlayView, rng) -> np.ndarray:
    """Win with the cheapest winning tile; lead trumps while others may hold them; else shed the lowest."""
    everyone = np.ones(len(view), dtype=bool)
    return heuristic_play(view, everyone, everyone)


def play_defend(view: PlayView, rng) -> np.ndarray:
    """Greedy, except that defenders gang up on the bidder: they beat the bidder's tile as cheaply
    as they can but never overtake a fellow defender who is already winning the trick."""
    everyone = np.ones(len(view), dtype=bool)
    if view.position == 0:
        return heuristic_play(view, everyone, everyone)
    bidder_side = view.side_of_seat[view.bidder]
    bidder_winning = view.side_of_seat[view.winning_seat] == bidder_side
    return heuristic_play(view, (view.side == bidder_side) | bidder_winning, everyone)


PLAY_STYLES = {"random": play_random, "greedy": play_greedy, "defend": play_defend}


def _play_style(name: str):
    if name not in PLAY_STYLES:
        raise BadInput(f"unknown play style {name!r}; accepted: {', '.join(PLAY_STYLES)}")
    return PLAY_STYLES[name]


# ------------------------------------------------------------------------------- strategies

class _Heuristics:
    """Discard, trump and play shared by the bidding styles."""
    play_name = "defend"
    reads_bid = False        # discard, trump and play never look at the contract's level (analysis.moon_forced)

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        allowed = allowed_trumps(view.players, view.rules)
        trump = np.where(view.trump >= 0, view.trump, best_trump(view.hand, allowed)[0])
        return keep_value(view.hand, trump).argmin(axis=1)

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        est = np.where(view.legal, trick_estimate(view.hand), -BIG)
        return est.argmax(axis=1)

    def play(self, view: PlayView, rng) -> np.ndarray:
        return _play_style(self.play_name)(view, rng)


# BID_VALUES' columns: pass, the number bids, the Moon bid; a legal mask has bit c for column c.
_MOON_COL = list(BID_VALUES).index(MOON_BID)
_NUMBER_COLS = [c for c, b in enumerate(BID_VALUES) if b not in (PASS, MOON_BID)]
_NUMBER_BITS = sum(1 << c for c in _NUMBER_COLS)
_SLOTS = math.lcm(*range(1, len(_NUMBER_COLS) + 1))      # r % k is uniform over k columns for every k
# _NONPASS[bits, r]: a uniform number-bid column of a legal mask (-1 if none); r uniform on 0.._SLOTS-1.
_NONPASS = np.full((1 << len(BID_VALUES), _SLOTS), -1, dtype=np.int8)
for _m in range(1 << len(BID_VALUES)):
    _cols = [c for c in _NUMBER_COLS if _m >> c & 1]
    if _cols:
        _NONPASS[_m] = [_cols[r % len(_cols)] for r in range(_SLOTS)]
_NONPASS_FLAT = _NONPASS.reshape(-1)


@register(GAME, "random")
class RandomMoon:
    """Random legal choices: passes with probability p_pass, else bids 21 with probability p_moon
    or a uniformly random legal number bid; random discard, trump, tile and called end.

    The baseline. Works on the views' bit masks, so it is as fast as the engine.
    """

    adapts_to = ()                       # uniform over the legal choices, whatever the rules
    reads_bid = False                    # nor does it look at the contract's level after the auction

    def __init__(self, p_pass: float = 0.5, p_moon: float = 0.1):
        self.p_pass, self.p_moon = p_pass, p_moon

    def bid(self, view: BidView, rng) -> np.ndarray:
        n = len(view)
        bits = view.legal_bits.astype(np.intp)
        col = self._number_bid(bits, rng)                      # a legal number bid's column, -1 if none
        u = rng.random((2, n), dtype=np.float32)
        moon = ((bits >> _MOON_COL) & 1).astype(bool) & ((u[0] < self.p_moon) | (col < 0))
        col = np.where(moon, _MOON_COL, col)
        passes = (bits & 1).astype(bool) & ((u[1] < self.p_pass) | (col < 0))
        return np.where(passes, PASS, BID_VALUES[np.maximum(col, 0)])

    def _number_bid(self, bits: np.ndarray, rng) -> np.ndarray:
        return _NONPASS_FLAT[(bits & _NUMBER_BITS) * _SLOTS + rng.integers(0, _SLOTS, len(bits), dtype=np.int16)]

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        return rng.integers(0, view.hand.shape[1], len(view))

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        return uniform_choice(view.legal, rng)

    def play(self, view: PlayView, rng) -> np.ndarray:
        return play_random(view, rng)

    def call_end(self, view: PlayView, slot, rng) -> np.ndarray:
        tile = view.hand[np.arange(len(view)), slot]
        return np.where(rng.random(len(view)) < 0.5, dominoes.HIGH[tile], dominoes.LOW[tile])


@register(GAME, "threshold")
class ThresholdBidder(_Heuristics):
    """Bid the tricks the hand should take, less a margin, counting trumps in the best suit, its
    double and the off-suit doubles (each the top of its suit); play greedy, except that
    defenders gang up on the bidder (play=defend, the default).

    Estimated tricks = base + w_trump x trumps + w_top x (holds the trump double) + w_double x
    off-suit doubles (no-trump: base + w_nt_double x doubles); the defaults are a least-squares fit
    of the bidder's tricks on these features in simulated hands (3 players, widow included). Bids
    floor(estimate - margin) when that is a legal bid, else passes; when that reaches 7 (all seven
    tricks) it bids 21 instead, which asks no more tricks and pays three times as much (7 when 21
    is not open to it). Plays `play`: defend (the default; bidder-aware defence, see play_defend),
    greedy or random. There is no separate `defend` strategy: it was this player under a second
    name (the same choices on every deal), so tournaments rated one player twice.
    """

    ranges = {k: (-7, 7) for k in ("margin", "base", "w_trump", "w_top", "w_double", "w_nt_double")}  # tricks
    # The trumps it may name (allowed_trumps) and what beats what in play (the table's rules tables);
    # it bids the tricks it expects whatever a bid scores or needs (bid_success, scoring, min_bid, ...).
    adapts_to = ("moon.tile_set", "moon.allow_doubles_trump", "moon.allow_doubles_trump_4p", "moon.notrump_doubles")

    def __init__(self, margin: float = 0.0, base: float = 1.2, w_trump: float = 0.8, w_top: float = 0.5,
                 w_double: float = 0.6, w_nt_double: float = 0.9, play: str = "defend"):
        self.margin, self.base = margin, base
        self.contribution = contribution_table(w_trump, w_top, w_double, w_nt_double)
        _play_style(play)
        self.play_name = play

    def estimate(self, hand: np.ndarray) -> np.ndarray:
        return self.base + trick_estimate(hand, self.contribution)

    def bid(self, view: BidView, rng) -> np.ndarray:
        allowed = allowed_trumps(view.players, view.rules)
        _, est = best_trump(view.hand, allowed, self.estimate)
        want = np.clip(np.floor(est - self.margin), 0, 7).astype(np.int16)
        # A 7 bid needs every trick, as 21 does (MOON-8.2), and 21 scores three times as much.
        moon_open = view.legal[:, list(BID_VALUES).index(MOON_BID)]
        want = np.where((want == 7) & moon_open, MOON_BID, want)
        return _closest_legal(view, want)

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        return np.where(view.legal, self.estimate(view.hand), -BIG).argmax(axis=1)

    def predict_make(self, hand: np.ndarray, trump: np.ndarray, bid: np.ndarray, players: int, rules) -> np.ndarray:
        """The bidder's own belief that it makes `bid` with `trump` (for calibration): a logistic
        curve in (estimate - tricks needed), slope fitted to a residual spread of about one trick."""
        est = self.estimate(hand)[np.arange(len(hand)), trump]
        need = np.where(bid == MOON_BID, 7, bid)
        return 1 / (1 + np.exp(-1.6 * (est - need + 0.5)))


def _closest_legal(view: BidView, want: np.ndarray) -> np.ndarray:
    """`want` if legal; a forced bidder takes its lowest legal bid; otherwise pass."""
    col = np.searchsorted(BID_VALUES, want)
    col = np.clip(col, 0, len(BID_VALUES) - 1)
    exact = (BID_VALUES[col] == want) & view.legal[np.arange(len(view)), col] & (want != PASS)
    forced = ~view.legal[:, 0]
    lowest = masked_argmax(-np.arange(len(BID_VALUES))[None, :].repeat(len(view), 0), view.legal)
    return np.where(exact, want, np.where(forced, BID_VALUES[lowest], PASS)).astype(np.int16)


@register(GAME, "greedy")
class GreedyMoon(ThresholdBidder):
    """Threshold bidding with greedy play: win with the cheapest winning tile, lead trumps while the
    others may hold them, otherwise shed the lowest tile."""

    def __init__(self, margin: float = 0.0):
        super().__init__(margin=margin, play="greedy")


class FixedTrump:
    """Wraps a strategy: names trump `t` and discards as if `t` were already known."""

    def __init__(self, base, t: int):
        self.base, self.t, self.spec = base, t, getattr(base, "spec", "?")

    def bid(self, view, rng):
        return self.base.bid(view, rng)

    def discard(self, view, rng):
        view.trump = np.full(len(view), self.t, dtype=view.trump.dtype)
        return self.base.discard(view, rng)

    def trump(self, view, rng):
        return np.full(len(view), self.t)

    def play(self, view, rng):
        return self.base.play(view, rng)


# ------------------------------------------------------------------------------- Monte Carlo bidder

def deal_around(rng: np.random.Generator, table, seat: int, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Deal the unseen tiles at random around known hands: row i gives `seat` the tiles hand[i]
    and the other seats (and the widow) a uniform shuffle of the rest of the tile set."""
    m = len(hand)
    P = table.players
    K = len(table.tile_set)
    mask = np.ones((m, K), dtype=bool)
    np.put_along_axis(mask, hand.astype(np.intp), False, axis=1)
    rest = np.nonzero(mask)[1].reshape(m, K - dominoes.HAND_SIZE).astype(np.int8)
    flat = rest.reshape(-1)
    width = rest.shape[1]
    base = np.arange(m) * width
    for i in range(width - 1):                     # Fisher-Yates, one column at a time
        j = i + (rng.random(m) * (width - i)).astype(np.intp)
        a, b = base + i, base + j
        flat[a], flat[b] = flat[b], flat[a].copy()
    hands = np.empty((m, P, dominoes.HAND_SIZE), dtype=np.int8)
    hands[:, seat] = hand
    others = [s for s in range(P) if s != seat]
    for k, s in enumerate(others):
        hands[:, s] = rest[:, k * dominoes.HAND_SIZE:(k + 1) * dominoes.HAND_SIZE]
    widow = rest[:, len(others) * dominoes.HAND_SIZE].copy() if table.has_widow else None
    return hands, widow


@register(GAME, "montecarlo")
class MonteCarloBidder(_Heuristics):
    """For its own hand, estimate P(make) and the expected score of every (trump, bid) by playing
    out `samples` random deals of the unseen tiles with the batch engine; bid the best expected
    score if it reaches `min_gain`, else pass.

    The strong (and slow) reference bidder: only the `trumps` most promising trumps by the
    threshold estimate are simulated. Play in the simulations and at the table follows `play`.
    """

    ranges = {"samples": (1, 4096), "trumps": (1, 9), "min_gain": (-63, 63)}   # min_gain in points

    def __init__(self, samples: int = 32, trumps: int = 3, min_gain: float = 1.0, play: str = "defend"):
        if samples < 1 or trumps < 1:
            raise BadInput(f"montecarlo: samples and trumps must be >= 1, got {samples}, {trumps}")
        self.samples, self.n_trumps, self.min_gain = samples, trumps, min_gain
        _play_style(play)
        self.play_name = play
        self.rollout = ThresholdBidder(play=play)

    def evaluate(self, hand: np.ndarray, seat: np.ndarray, players: int, rules, rng) -> tuple[np.ndarray, np.ndarray]:
        """(p_make, expected score), each (n, 9 trumps, levels) for BID_LEVELS; NaN for trumps not simulated."""
        from moonshot.simulator.moon import engine
        table = engine.Table(players, rules)
        levels = self.levels(rules)
        n = len(hand)
        p_make = np.full((n, N_TRUMPS, len(levels)), np.nan)
        ev = np.full_like(p_make, np.nan)
        est = np.where(table.allowed_trumps, trick_estimate(hand), -BIG)
        top = np.argsort(-est, axis=1, kind="stable")[:, :self.n_trumps]
        for s in np.unique(seat):
            rows = np.flatnonzero(seat == s)
            hands, widow = deal_around(rng, table, int(s), np.repeat(hand[rows], self.samples, axis=0))
            m = len(hands)
            side = table.side_of_seat[s]
            for t in np.unique(top[rows]):
                lineup = [self.rollout] * players
                lineup[s] = FixedTrump(self.rollout, int(t))
                bidder = np.full(m, s)
                h7, _, trump = engine.widow_and_trump(table, hands, widow, bidder, np.full(m, rules.min_bid),
                                                      lineup, rng)
                tricks = engine.play_tricks(table, h7, bidder, np.full(m, rules.min_bid), trump,
                                            [self.rollout] * players, rng).tricks
                for li, b in enumerate(levels):
                    points, made = engine.score(table, bidder, np.full(m, b), tricks)
                    p_make[rows, t, li] = made.reshape(len(rows), self.samples).mean(axis=1)
                    ev[rows, t, li] = points[:, side].reshape(len(rows), self.samples).mean(axis=1)
                keep = ~(top[rows] == t).any(axis=1)
                p_make[rows[keep], t] = np.nan
                ev[rows[keep], t] = np.nan
        return p_make, ev

    @staticmethod
    def levels(rules) -> np.ndarray:
        return np.array(list(range(rules.min_bid, 8)) + [MOON_BID])

    def bid(self, view: BidView, rng) -> np.ndarray:
        _, ev = self.evaluate(view.hand, view.seat, view.players, view.rules, rng)
        levels = self.levels(view.rules)
        best_per_level = np.nanmax(np.where(np.isnan(ev), -BIG, ev), axis=1)          # (n, levels)
        cols = np.searchsorted(BID_VALUES, levels)
        allowed = view.legal[:, cols]
        value = np.where(allowed, best_per_level, -BIG)
        pick = value.argmax(axis=1)
        good = value[np.arange(len(view)), pick] >= self.min_gain
        want = np.where(good, levels[pick], PASS)
        return _closest_legal(view, want)

    def predict_make(self, hand, trump, bid, players, rules, rng=None) -> np.ndarray:
        rng = np.random.default_rng(0) if rng is None else rng
        levels = self.levels(rules)
        keep_n = self.n_trumps
        self.n_trumps = N_TRUMPS                      # simulate the named trump whatever its rank
        try:
            p, _ = self.evaluate(hand, np.zeros(len(hand), dtype=np.int64), players, rules, rng)
        finally:
            self.n_trumps = keep_n
        li = np.searchsorted(levels, bid)
        return p[np.arange(len(hand)), trump, li]


