"""Moon (dominoes) strategies: one method per decision (bid, discard, trump, play), batch in, batch out.

Every strategy here has all four methods; bidding styles take a `play=` parameter naming the
play style (random, greedy, defend), so bidding and play mix freely:
``--strategy threshold:play=greedy,margin=1`` or ``--strategy 0=montecarlo``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from simulator.errors import BadInput
from simulator.moon import reference as ref
from simulator.moon import tiles as T
from simulator.moon.views import BID_VALUES, MOON_BID, PASS, BidView, DiscardView, PlayView, TrumpView
from strategies.base import register

GAME = "moon"
BIG = 1000
N_TRUMPS = T.N_TRUMPS
IS_TRUMP = np.array([[ref.is_trump(t, tr) for tr in range(N_TRUMPS)] for t in range(T.N_TILES)])
PIPS = (T.HIGH.astype(np.int16) + T.LOW)
# The double of each trump (the top trump), -1 for doubles (6-6 tops it) and no-trump.
TOP_TRUMP = np.array([T.tile_id(t, t) for t in range(7)] + [T.tile_id(6, 6), -1])


@lru_cache(maxsize=16)
def allowed_trumps(players: int, rules) -> np.ndarray:
    mask = np.zeros(N_TRUMPS, dtype=bool)
    mask[ref.allowed_trumps(players, rules)] = True
    return mask


def uniform_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random True column per row."""
    u = rng.random(mask.shape, dtype=np.float32)
    return np.where(mask, u, -1.0).argmax(axis=1)


def masked_argmin(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, score.astype(np.int32), BIG).argmin(axis=1)      # int32: BIG must not wrap


def masked_argmax(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, score.astype(np.int32), -BIG).argmax(axis=1)


# ------------------------------------------------------------------------------- hand strength

def trick_estimate(hand: np.ndarray, w_trump: float = 0.8, w_top: float = 0.5, w_double: float = 0.6,
                   w_nt_double: float = 0.9) -> np.ndarray:
    """(n,k) tiles -> (n,9) rough tricks expected as bidder for each trump.

    Trumps held count w_trump each, the top trump (the trump double; 6-6 for doubles) w_top more,
    every off-suit double (the top of its suit) w_double; in no-trump each double w_nt_double.
    """
    trump = IS_TRUMP[hand]                                      # (n,k,9)
    doubles = T.IS_DOUBLE[hand][:, :, None]
    n_trump = trump.sum(axis=1)
    top = (hand[:, :, None] == TOP_TRUMP[None, None, :]).any(axis=1)
    off_doubles = (doubles & ~trump).sum(axis=1)
    est = w_trump * n_trump + w_top * top + w_double * off_doubles
    est[:, T.NOTRUMP] = w_nt_double * doubles[:, :, 0].sum(axis=1)
    return est


def keep_value(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """How much a tile is worth keeping: trumps, then doubles, then high pips."""
    is_trump = IS_TRUMP[hand, trump[:, None]]
    return np.where(is_trump, 100 + PIPS[hand], np.where(T.IS_DOUBLE[hand], 50 + PIPS[hand], PIPS[hand]))


def best_trump(hand: np.ndarray, allowed: np.ndarray, estimate=trick_estimate) -> tuple[np.ndarray, np.ndarray]:
    est = np.where(allowed, estimate(hand), -BIG)
    best = est.argmax(axis=1)
    return best, est[np.arange(len(hand)), best]


# ------------------------------------------------------------------------------- play styles

def _power(view: PlayView) -> np.ndarray:
    """POWER of each tile in hand for the trick in progress."""
    return view.tables.POWER[view.hand, view.led_suit[:, None], view.trump[:, None]]


def _lead_power(view: PlayView) -> np.ndarray:
    led = view.tables.LED_SUIT[view.hand, view.trump[:, None]]
    return view.tables.POWER[view.hand, led, view.trump[:, None]]


def play_random(view: PlayView, rng) -> np.ndarray:
    return uniform_choice(view.legal, rng)


def play_greedy(view: PlayView, rng) -> np.ndarray:
    """Win with the cheapest winning tile; lead trumps while others may hold them; else shed the lowest."""
    legal = view.legal
    shed = masked_argmin(keep_value(view.hand, view.trump), legal)
    if view.position == 0:
        return _lead_greedy(view, shed)
    power = _power(view)
    beats = legal & (power > view.winning_power[:, None])
    return np.where(beats.any(axis=1), masked_argmin(power, beats), shed)


def _lead_greedy(view: PlayView, shed: np.ndarray) -> np.ndarray:
    legal = view.legal
    trumps = legal & IS_TRUMP[view.hand, view.trump[:, None]]
    unseen_trumps = _unseen_trumps_elsewhere(view)
    lead_power = _lead_power(view)
    draw = trumps.any(axis=1) & (unseen_trumps > 0)
    doubles = legal & T.IS_DOUBLE[view.hand] & ~trumps
    return np.where(draw, masked_argmax(lead_power, trumps),
                    np.where(doubles.any(axis=1), masked_argmax(PIPS[view.hand], doubles), shed))


def _unseen_trumps_elsewhere(view: PlayView) -> np.ndarray:
    """Trumps neither played nor in the mover's hand (another player may hold them)."""
    trump_tiles = IS_TRUMP[:, view.trump].T                     # (n,28)
    mine = np.zeros_like(view.seen)
    np.put_along_axis(mine, view.hand.astype(np.intp), view.live, axis=1)
    return (trump_tiles & ~view.seen & ~mine).sum(axis=1)


def play_defend(view: PlayView, rng) -> np.ndarray:
    """The bidder plays greedy; defenders gang up on the bidder: beat the bidder's tile cheaply,
    never overtake a fellow defender, and lead their lowest tile to make the bidder spend."""
    greedy = play_greedy(view, rng)
    bidder_side = view.side_of_seat[view.bidder]
    defending = view.side != bidder_side
    legal = view.legal
    shed = masked_argmin(keep_value(view.hand, view.trump), legal)
    if view.position == 0:
        defence = shed
    else:
        power = _power(view)
        bidder_winning = view.side_of_seat[view.winning_seat] == bidder_side
        beats = legal & (power > view.winning_power[:, None])
        overtake = np.where(beats.any(axis=1), masked_argmin(power, beats), shed)
        defence = np.where(bidder_winning, overtake, shed)
    return np.where(defending, defence, greedy)


PLAY_STYLES = {"random": play_random, "greedy": play_greedy, "defend": play_defend}


def _play_style(name: str):
    if name not in PLAY_STYLES:
        raise BadInput(f"unknown play style {name!r}; accepted: {', '.join(PLAY_STYLES)}")
    return PLAY_STYLES[name]


# ------------------------------------------------------------------------------- strategies

class _Heuristics:
    """Discard, trump and play shared by the bidding styles."""
    play_name = "defend"

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        allowed = allowed_trumps(view.players, view.rules)
        trump = np.where(view.trump >= 0, view.trump, best_trump(view.hand, allowed)[0])
        return keep_value(view.hand, trump).argmin(axis=1)

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        est = np.where(view.legal, trick_estimate(view.hand), -BIG)
        return est.argmax(axis=1)

    def play(self, view: PlayView, rng) -> np.ndarray:
        return _play_style(self.play_name)(view, rng)


@register(GAME, "random")
class RandomMoon:
    """Random legal choices: passes half the time, else a random legal bid; random discard, trump and tile.

    The baseline. (Random play bids 21 about one time in ten it bids.)
    """

    def bid(self, view: BidView, rng) -> np.ndarray:
        legal = view.legal.copy()
        can_pass = legal[:, 0].copy()
        legal[:, 0] = False
        weights = np.where(legal, 1.0, 0.0)
        weights[:, -1] *= 0.5                           # 21 a little rarer than a number bid
        pick = np.where(weights > 0, rng.random(legal.shape) * weights, -1.0).argmax(axis=1)
        bid = BID_VALUES[pick]
        passes = can_pass & ((rng.random(len(view)) < 0.5) | ~legal.any(axis=1))
        return np.where(passes, PASS, bid)

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        return rng.integers(0, view.hand.shape[1], len(view))

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        return uniform_choice(view.legal, rng)

    def play(self, view: PlayView, rng) -> np.ndarray:
        return play_random(view, rng)


@register(GAME, "threshold")
class ThresholdBidder(_Heuristics):
    """Bid the tricks the hand should take, less a margin, counting trumps in the best suit, its
    double and the off-suit doubles (each the top of its suit).

    Estimated tricks = base + w_trump x trumps + w_top x (holds the trump double) + w_double x
    off-suit doubles (no-trump: base + w_nt_double x doubles); the defaults are a least-squares fit
    of the bidder's tricks on these features in simulated hands (3 players, widow included). Bids
    floor(estimate - margin) when that is a legal bid, 21 when the estimate reaches `moon_at`,
    else passes. Plays `play` (defend by default).
    """

    def __init__(self, margin: float = 0.0, base: float = 1.2, w_trump: float = 0.8, w_top: float = 0.5,
                 w_double: float = 0.6, w_nt_double: float = 0.9, moon_at: float = 8.0, play: str = "defend"):
        self.margin, self.base, self.moon_at = margin, base, moon_at
        self.weights = dict(w_trump=w_trump, w_top=w_top, w_double=w_double, w_nt_double=w_nt_double)
        _play_style(play)
        self.play_name = play

    def estimate(self, hand: np.ndarray) -> np.ndarray:
        return self.base + trick_estimate(hand, **self.weights)

    def bid(self, view: BidView, rng) -> np.ndarray:
        allowed = allowed_trumps(view.players, view.rules)
        _, est = best_trump(view.hand, allowed, self.estimate)
        want = np.floor(est - self.margin).astype(np.int16)
        want = np.where(est >= self.moon_at, MOON_BID, np.clip(want, 0, 7))
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


@register(GAME, "defend")
class DefendMoon(ThresholdBidder):
    """Threshold bidding with bidder-aware defence: the non-bidders cooperate to set the bidder
    (beat the bidder's tile as cheaply as possible, never overtake a fellow defender)."""

    def __init__(self, margin: float = 0.0):
        super().__init__(margin=margin, play="defend")


# ------------------------------------------------------------------------------- Monte Carlo bidder

def deal_around(rng: np.random.Generator, table, seat: int, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Deal the unseen tiles at random around known hands: row i gives `seat` the tiles hand[i]
    and the other seats (and the widow) a uniform shuffle of the rest of the tile set."""
    m = len(hand)
    P = table.players
    K = len(table.tile_set)
    mask = np.ones((m, K), dtype=bool)
    np.put_along_axis(mask, hand.astype(np.intp), False, axis=1)
    rest = np.nonzero(mask)[1].reshape(m, K - T.HAND_SIZE).astype(np.int8)
    flat = rest.reshape(-1)
    width = rest.shape[1]
    base = np.arange(m) * width
    for i in range(width - 1):                     # Fisher-Yates, one column at a time
        j = i + (rng.random(m) * (width - i)).astype(np.intp)
        a, b = base + i, base + j
        flat[a], flat[b] = flat[b], flat[a].copy()
    hands = np.empty((m, P, T.HAND_SIZE), dtype=np.int8)
    hands[:, seat] = hand
    others = [s for s in range(P) if s != seat]
    for k, s in enumerate(others):
        hands[:, s] = rest[:, k * T.HAND_SIZE:(k + 1) * T.HAND_SIZE]
    widow = rest[:, len(others) * T.HAND_SIZE].copy() if table.has_widow else None
    return hands, widow


@register(GAME, "montecarlo")
class MonteCarloBidder(_Heuristics):
    """For its own hand, estimate P(make) and the expected score of every (trump, bid) by playing
    out `samples` random deals of the unseen tiles with the batch engine; bid the best expected
    score if it reaches `min_gain`, else pass.

    The strong (and slow) reference bidder: only the `trumps` most promising trumps by the
    threshold estimate are simulated. Play in the simulations and at the table follows `play`.
    """

    def __init__(self, samples: int = 32, trumps: int = 3, min_gain: float = 1.0, play: str = "defend"):
        if samples < 1 or trumps < 1:
            raise BadInput(f"montecarlo: samples and trumps must be >= 1, got {samples}, {trumps}")
        self.samples, self.n_trumps, self.min_gain = samples, trumps, min_gain
        _play_style(play)
        self.play_name = play
        self.rollout = ThresholdBidder(play=play)

    def evaluate(self, hand: np.ndarray, seat: np.ndarray, players: int, rules, rng) -> tuple[np.ndarray, np.ndarray]:
        """(p_make, expected score), each (n, 9 trumps, levels) for BID_LEVELS; NaN for trumps not simulated."""
        from analysis.moon import FixedTrump
        from simulator.moon import engine as E
        table = E.MoonTable(players, rules)
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
                h7, _, trump = E.widow_and_trump(table, hands, widow, bidder, np.full(m, rules.min_bid), lineup, rng)
                tricks = E.play_tricks(table, h7, bidder, np.full(m, rules.min_bid), trump, lineup, rng).tricks
                for li, b in enumerate(levels):
                    points, made = E.score(table, bidder, np.full(m, b), tricks)
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
