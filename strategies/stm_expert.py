"""Shoot the Moon expert: a learned player at batch speed, fitted to the rollout player.

Every legal card gets a score from a small network (one hidden layer of ReLUs) over per-card
features computed from the PlayView alone (what the seat may see): the card's kind, whether it
beats the trick so far, the chance that none of the opponents still to play this trick holds a
card that beats it (drawn from the cards the seat cannot see), the Moon chips at stake, Little
Moons onto an opponent's or the partner's trick, and what the hand keeps for later (sure winners,
Moons, reds, top cards, voids). The hidden layer's bias depends on the situation (a context): the
side's trick count parity, whether it has won every trick so far, the first trick, leading /
following / playing last, and the table (players, partners). The card with the best score is played.

The weights are fitted (benchmarks/train_stm_expert.py, from a seed) to the rollout player's
values of every legal card (`RolloutPlay.values`, mean chips of the side over many dealt worlds),
each from the deciding seat's own view; they ship in models/stm_expert.npz. One compiled loop over
the games computes the features and the scores (the yes/no features' part of the hidden layer is
looked up per pattern), so it plays at batch speed (benchmarks/expert_bench.py measures it against
`odd`'s).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.shoot_the_moon import cards
from moonshot.simulator.shoot_the_moon.views import LEAD_CLASS, PlayView
from moonshot.strategies.base import register

GAME = "shoot-the-moon"
MODEL_FILE = Path(__file__).resolve().parent / "models" / "stm_expert.npz"
MODEL_ENV = "MOONSHOT_STM_EXPERT_MODEL"     # another model file (benchmarks, tests): no spec or page names a file
MODEL_FORMAT = 3

FEATURES = (
    # yes/no (BINARY of them)
    "big", "little", "red", "wins_now", "sure_now", "little_on_opponent", "little_on_partner", "little_wasted",
    "big_on_partner", "overtakes_partner", "lowest", "highest", "voids_suit",
    # numbers
    "moon_chips_if_lost", "beaters_share", "sure_after", "big_after", "little_after", "reds_after", "tops_after",
    "lows_after",
    # numbers that are 0 when the card does not beat the trick so far (from WINNING on)
    "est_win", "no_big_after", "no_follow_after", "no_trump_after", "moon_chips_if_win", "est_win_x_left",
    "est_win_x_partner_after", "est_win_x_last", "moon_loss_at_zero",
)
BINARY = 13          # the first BINARY features are 0 or 1: their hidden-layer parts are looked up (SPLIT bits a table)
SPLIT = 7
WINNING = 21
N_FEATURES = len(FEATURES)
STATES = 5           # trick count parity: even, odd, even having won every trick, odd likewise; the first trick
PLACES = 3           # leading, following (not last), playing last
KINDS = ((2, False), (3, False), (4, False), (4, True), (5, False), (6, False), (6, True))   # tables: players, partners
N_CONTEXTS = len(KINDS) * STATES * PLACES

DECK = cards.DECK_SIZE
BIG_MASK = np.uint64(sum(1 << c for c in cards.BIG_MOONS))
RED_MASK = np.uint64((1 << 12) - 1)
CARD_BIT = (np.uint64(1) << np.arange(DECK, dtype=np.uint64)).astype(np.uint64)
SUIT_MASK = np.array([((1 << 12) - 1) << (12 * s) for s in range(4)], dtype=np.uint64)
SUIT = cards.SUIT.astype(np.int64)
NUMBER = cards.NUMBER.astype(np.int64)
MOON_DELTA = (cards.IS_BIG.astype(np.int64) - cards.IS_LITTLE)
LEAD = LEAD_CLASS.astype(np.int64)


def beat_masks(strength: np.ndarray) -> np.ndarray:
    """BEAT[lead_class, card]: bit c' set when card c' is stronger than `card` under that lead (ties
    go to the earlier card, so only strictly stronger cards beat it)."""
    s = strength.astype(np.int64)
    stronger = s[:, None, :] > s[:, :, None]                    # (lead, card, other)
    return (stronger.astype(np.uint64) << np.arange(DECK, dtype=np.uint64)).sum(axis=2, dtype=np.uint64)


@lru_cache(maxsize=None)
def _tables(table) -> tuple:
    """What the compiled loop needs of a table, built once per table."""
    order = table.order.astype(np.int64).reshape(-1)
    sides = table.side_of_seat.astype(np.int64)
    dummy = -1 if table.dummy is None else table.dummy
    blind = table.dummy is not None and table.rules.dummy_mode == "blind_stack"
    strength = table.strength.astype(np.int64).reshape(-1)
    return order, sides, dummy, blind, strength, beat_masks(table.strength).reshape(-1)


NO_DUMMY = np.full((1, cards.HAND_SIZE), -1, dtype=np.int8)


def view_arrays(view: PlayView) -> tuple:
    """The view's arrays the compiled loop reads (all of them public PlayView fields, no copies)."""
    dummy_hand = view.dummy_hand
    return (np.asarray(view.hand), np.asarray(view.legal_bits), np.asarray(view.live_bits),
            np.asarray(view.play_cards), np.asarray(view.play_seats), np.asarray(view.best),
            np.asarray(view.winning_side), np.asarray(view.seat), np.asarray(view.side_tricks),
            np.asarray(view.chips), np.asarray(view.dealer), NO_DUMMY if dummy_hand is None else np.asarray(dummy_hand))


def features(view: PlayView) -> tuple[np.ndarray, np.ndarray]:
    """(n, 5, F) float32 features of every slot (zeros where illegal) and (n,) context ids."""
    return features_of(view_arrays(view), view.table, view.trick_no, view.position)


def features_of(arrays: tuple, table, trick_no: int, position: int) -> tuple[np.ndarray, np.ndarray]:
    """features() from a view's arrays (view_arrays) kept earlier: training recomputes them."""
    n = len(arrays[0])
    x = np.zeros((n, cards.HAND_SIZE, N_FEATURES), dtype=np.float32)
    ctx = np.zeros(n, dtype=np.int64)
    _call(arrays, table, trick_no, position, Model.empty(), x, ctx, np.zeros(n, dtype=np.int64), True)
    return x, ctx


def choose(view: PlayView, model: "Model") -> np.ndarray:
    """(n,) the legal slot with the best score under `model`."""
    out = np.empty(len(view), dtype=np.intp)
    _call(view_arrays(view), view.table, view.trick_no, view.position, model, _NO_X, _NO_CTX, out, False)
    return out


_NO_X = np.zeros((1, cards.HAND_SIZE, N_FEATURES), dtype=np.float32)
_NO_CTX = np.zeros(1, dtype=np.int64)


def _call(arrays: tuple, table, trick_no: int, position: int, model, x, ctx, out, keep: bool) -> None:
    order, sides, dummy, blind, strength, beat = _tables(table)
    _games(*arrays, trick_no * table.hands_dealt + position, table.hands_dealt, trick_no, position, order, sides,
           dummy, blind, KINDS.index((table.players, table.partners)), strength, beat, NONE, model.w1, model.b1,
           model.w2, model.t_lo, model.t_hi, x, ctx, out, keep)


def none_table() -> np.ndarray:
    """NONE[U, b, k]: the chance that k cards drawn from U unseen ones include none of b given
    ones (hypergeometric), U, b <= 52, k <= 31."""
    out = np.zeros((DECK + 1, DECK + 1, 32), dtype=np.float32)
    out[:, 0, :] = 1.0
    for u in range(DECK + 1):
        for b in range(1, u + 1):
            p = 1.0
            for k in range(32):
                out[u, b, k] = p
                p = p * (u - b - k) / (u - k) if u - k > 0 and u - b - k > 0 else 0.0
    return out


NONE = none_table()


@intrinsic
def _popcount(typingctx, m):
    """Set bits of a uint64 (LLVM's ctpop: one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))
    return types.int64(types.uint64), codegen


@numba.njit(cache=True, nogil=True, fastmath=True)      # no NaN or inf in play: the sums vectorize
def _games(hand, legal, live, plays_c, plays_s, best, win_side, seat_of, side_tricks, chips, dealer, dummy_hand,
           j, H, trick_no, position, order, sides, dummy, blind, kind, strength, beat, none, w1, b1, w2, t_lo, t_hi, x,
           ctx, out, keep):
    """Per game: the features of every legal slot; kept in x and ctx when `keep`, else scored by
    the model (w1, b1, w2: one hidden layer of ReLUs, its bias per context) and the best slot in out."""
    n = hand.shape[0]
    F = N_FEATURES_
    HD = w2.shape[0]
    f = np.zeros((5, F), dtype=np.float32)
    hid = np.zeros(HD, dtype=np.float32)
    pattern = np.zeros(5, dtype=np.int64)          # per slot: its yes/no features as bits
    per_suit = np.zeros(5, dtype=np.int64)         # the hand's cards per suit (Moons 4)
    part_sure = np.zeros(5, dtype=np.int64)        # per slot: its part in the hand's sure winners, tops, lows
    part_top = np.zeros(5, dtype=np.int64)
    part_low = np.zeros(5, dtype=np.int64)
    left = 5 - trick_no
    open_dummy = dummy_hand.shape[0] == n
    # per (dealer, leader): the cards of the opponents still to play this trick (a blind dummy's next
    # card counts one, an open dummy's are seen) and whether the mover's partner plays after it
    k_opp_of = np.zeros(order.shape[0] // H, dtype=np.int64)
    partner_of = np.zeros(order.shape[0] // H, dtype=np.bool_)
    for base in range(order.shape[0] // H):
        mover_side = sides[order[base * H + position]]
        for q in range(position + 1, H):
            s_q = order[base * H + q]
            if s_q == dummy and blind:
                k_opp_of[base] += 1
            elif s_q == dummy:
                continue
            elif sides[s_q] == mover_side:
                partner_of[base] = True
            else:
                k_opp_of[base] += left
        k_opp_of[base] = min(k_opp_of[base], 31)
    for i in range(n):
        lb = legal[i]
        seat = seat_of[i]
        side = sides[seat]
        if side < 0 or (not keep and (lb & (lb - 1)) == 0):    # one legal card, or the open dummy's: the lowest
            out[i] = LOWEST_SLOT[lb]
            continue
        # what the seat cannot see
        seen = np.uint64(0)
        for p in range(j):
            seen |= CARD_BIT_[plays_c[i, p]]
        mine = np.uint64(0)
        for k in range(5):
            if (live[i] >> k) & 1:
                mine |= CARD_BIT_[hand[i, k]]
            if open_dummy and dummy_hand[i, k] >= 0:
                seen |= CARD_BIT_[dummy_hand[i, k]]
        unseen = ~(seen | mine) & FULL
        U = _popcount(unseen)
        inv_u = 1.0 / max(U, 1)
        # the trick so far, and who plays after this seat
        leader = seat if position == 0 else plays_s[i, j - position]
        lead_card = -1 if position == 0 else plays_c[i, j - position]
        trick_delta = 0
        for p in range(j - position, j):
            trick_delta += MOON_DELTA_[plays_c[i, p]]
        k_opp = k_opp_of[dealer[i] * H + leader]
        partner_after = partner_of[dealer[i] * H + leader]
        mine_t = side_tricks[i]
        state = 4 if trick_no == 0 else (mine_t % 2) + 2 * (mine_t == trick_no)
        place = 0 if position == 0 else (2 if position == H - 1 else 1)
        cx = (kind * STATES_ + state) * PLACES_ + place
        w_side = win_side[i] if position > 0 else -2
        partner_winning = (position > 0) & (w_side == side)
        opp_winning = (position > 0) & (w_side >= 0) & (w_side != side)
        w_chips0 = opp_winning & (chips[i, max(w_side, 0)] == 0)
        my_chips0 = chips[i, side] == 0
        top_red = HIGH12[np.int64(unseen & RED)]         # reds above every unseen red are sure winners
        # the whole hand's counts; each card's "after" features take its own part out
        sure = 0
        n_big = 0
        n_little = 0
        n_red = 0
        tops = 0
        lows = 0
        per_suit[:] = 0
        for m in range(5):                               # without branches: card kinds are random
            on = (live[i] >> m) & 1
            d = hand[i, m]
            u = SUIT_[d]
            is_big = (d == 48) | (d == 49)
            is_red = d < 12
            plain = (d >= 12) & (d < 48)
            part_sure[m] = on & (is_big | (is_red & (d > top_red)))
            part_top[m] = on & plain & ((beat[u * 52 + d] & unseen & SUITS[u]) == 0)
            part_low[m] = on & plain & (NUMBER_[d] <= 5)
            n_big += on & is_big
            n_little += on & (d >= 50)
            n_red += on & is_red
            sure += part_sure[m]
            tops += part_top[m]
            lows += part_low[m]
            per_suit[u] += on
        lo_slot, hi_slot = LOWEST_SLOT[lb], HIGHEST_SLOT[lb]
        if keep:
            f[:, :] = 0.0                                # illegal slots: zeros in the kept features
            pattern[:] = 0
        for k in range(5):
            if not (lb >> k) & 1:
                continue
            c = hand[i, k]
            lc = LEAD_[c] if position == 0 else LEAD_[lead_card]
            wins = (position == 0) | (strength[lc * 52 + c] > best[i])
            bm = beat[lc * 52 + c] & unseen
            nb = _popcount(bm)
            p_big, p_follow, p_trump = 0.0, 0.0, 0.0
            if wins:                                    # the chance nobody after it beats it
                nb_big = _popcount(bm & BIG)
                nb_trump = _popcount(bm & RED) if (lc >= 1 and lc <= 3) else 0
                p_big = none[U, nb_big, k_opp]
                p_follow = none[U, nb - nb_big - nb_trump, k_opp]
                p_trump = none[U, nb_trump, k_opp]
            w = 1.0 if wins else 0.0
            est = w * p_big * p_follow * p_trump
            big = (c == 48) | (c == 49)
            little = (c == 50) | (c == 51)
            red = c < 12
            delta = trick_delta + MOON_DELTA_[c]
            # yes/no features as bits (the model looks their part up in two small tables), then numbers
            bits = (np.int64(big) | np.int64(little) << 1 | np.int64(red) << 2 | np.int64(wins) << 3
                    | np.int64(wins & (nb == 0)) << 4 | np.int64(little & opp_winning) << 5
                    | np.int64(little & partner_winning) << 6 | np.int64(little & w_chips0) << 7
                    | np.int64(big & partner_winning) << 8 | np.int64(wins & partner_winning) << 9
                    | np.int64(k == lo_slot) << 10 | np.int64(k == hi_slot) << 11
                    | np.int64((c < 48) & (per_suit[SUIT_[c]] == 1)) << 12)
            pattern[k] = bits
            f[k, 13] = delta * (1.0 - est)
            f[k, 14] = nb * inv_u
            # what the hand keeps for the tricks after this one
            f[k, 15] = (sure - part_sure[k]) / 5.0
            f[k, 16] = n_big - big
            f[k, 17] = n_little - little
            f[k, 18] = (n_red - red) / 5.0
            f[k, 19] = (tops - part_top[k]) / 5.0
            f[k, 20] = (lows - part_low[k]) / 5.0
            # numbers that are 0 unless the card beats the trick so far (WINNING on)
            f[k, 21] = est
            f[k, 22] = w * p_big
            f[k, 23] = w * p_follow
            f[k, 24] = w * p_trump
            f[k, 25] = delta * est
            f[k, 26] = est * left / 5.0
            f[k, 27] = est * partner_after
            f[k, 28] = est * (trick_no == 4)
            f[k, 29] = est * min(delta, 0) * my_chips0
        if keep:
            ctx[i] = cx
            for k in range(5):
                for q in range(BINARY_):
                    x[i, k, q] = (pattern[k] >> q) & 1
                for q in range(BINARY_, F):
                    x[i, k, q] = f[k, q]
            continue
        best_k, best_s = lo_slot, np.float32(-3e38)
        for k in range(5):
            if not (lb >> k) & 1:
                continue
            lo_bits = pattern[k] & LO_MASK
            hi_bits = pattern[k] >> SPLIT_
            for h in range(HD):
                hid[h] = b1[cx, h] + t_lo[lo_bits, h] + t_hi[hi_bits, h]
            for q in range(BINARY_, WINNING_ if (pattern[k] >> 3) & 1 == 0 else F):   # bit 3: wins_now
                v = f[k, q]
                if v != 0.0:
                    for h in range(HD):
                        hid[h] += v * w1[q, h]
            s = np.float32(0.0)
            for h in range(HD):
                s += max(hid[h], np.float32(0.0)) * w2[h]
            if s > best_s:
                best_k, best_s = k, s
        out[i] = best_k


# constants the compiled loop reads as globals (frozen into it when it compiles)
LOWEST_SLOT = np.array([(m & -m).bit_length() - 1 for m in range(32)], dtype=np.int64)
HIGHEST_SLOT = np.array([m.bit_length() - 1 for m in range(32)], dtype=np.int64)
SUIT_, NUMBER_, MOON_DELTA_, LEAD_, CARD_BIT_ = SUIT, NUMBER, MOON_DELTA.astype(np.int64), LEAD, CARD_BIT
SUITS = np.append(SUIT_MASK, np.uint64(0))      # the Moons' "suit" (4): no cards
BIG, RED, FULL = BIG_MASK, RED_MASK, np.uint64((1 << DECK) - 1)
HIGH12 = np.array([m.bit_length() - 1 for m in range(4096)], dtype=np.int64)   # highest set bit, -1 if none
STATES_, PLACES_, N_FEATURES_, BINARY_, SPLIT_ = STATES, PLACES, N_FEATURES, BINARY, SPLIT
LO_MASK = (1 << SPLIT) - 1
WINNING_ = WINNING


# ------------------------------------------------------------------------------------ the model file

class Model:
    """The fitted scorer: w1 (F, HD) and b1 (contexts, HD) the hidden layer, w2 (HD,) the output."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray):
        self.w1, self.b1, self.w2 = (np.ascontiguousarray(a, dtype=np.float32) for a in (w1, b1, w2))
        # the yes/no features' part of the hidden layer for every pattern of them: one lookup, not a sum
        self.t_lo, self.t_hi = _pattern_sums(self.w1[:SPLIT]), _pattern_sums(self.w1[SPLIT:BINARY])

    @classmethod
    def empty(cls) -> "Model":
        return cls(np.zeros((N_FEATURES, 1)), np.zeros((N_CONTEXTS, 1)), np.zeros(1))

    def fields(self) -> dict:
        return dict(format=np.int64(MODEL_FORMAT), features=np.array(FEATURES), w1=self.w1, b1=self.b1, w2=self.w2)


def _pattern_sums(rows: np.ndarray) -> np.ndarray:
    """(2**len(rows), HD): entry m is the sum of the rows whose bit is set in m."""
    bits = ((np.arange(1 << len(rows))[:, None] >> np.arange(len(rows))) & 1).astype(np.float32)
    return np.ascontiguousarray(bits @ rows, dtype=np.float32)


def load_model(path: str) -> Model:
    """The model of a file, its fields checked: a missing, unreadable or mismatched file is one
    BadInput line naming the file and what was expected."""
    file = Path(path)
    if not file.is_file():
        raise BadInput(f"expert model file {short(path)} not found; accepted: an .npz written by "
                       "benchmarks/train_stm_expert.py (rebuild it with that script)")
    stat = file.stat()
    return _load(str(file), stat.st_mtime_ns, stat.st_size)       # read again when the file changes


@lru_cache(maxsize=8)
def _load(path: str, mtime: int, size: int) -> Model:
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except Exception as exc:      # a damaged file: one line, not a traceback
        raise BadInput(f"expert model file {short(path)} is unreadable ({type(exc).__name__}); accepted: an .npz "
                       "written by benchmarks/train_stm_expert.py") from None
    need = {"format", "features", "w1", "b1", "w2"}
    if not need <= set(data):
        raise BadInput(f"expert model file {short(path)} lacks {', '.join(sorted(need - set(data)))}; accepted: "
                       f"an .npz with {', '.join(sorted(need))}")
    if data["format"].shape != () or data["format"].dtype.kind != "i" or int(data["format"]) != MODEL_FORMAT:
        raise BadInput(f"expert model file {short(path)} has format {short(data['format'].tolist())}; accepted: "
                       f"{MODEL_FORMAT}")
    if tuple(str(s) for s in data["features"].tolist()) != FEATURES:
        raise BadInput(f"expert model file {short(path)} was fitted on other features than this code computes; "
                       "accepted: one written by this version's benchmarks/train_stm_expert.py")
    w1, b1, w2 = data["w1"], data["b1"], data["w2"]
    hd = w2.shape[0] if w2.ndim == 1 else -1
    shapes_ok = hd >= 1 and w1.shape == (N_FEATURES, hd) and b1.shape == (N_CONTEXTS, hd)
    if not shapes_ok or any(a.dtype.kind != "f" or not np.isfinite(a).all() for a in (w1, b1, w2)):
        raise BadInput(f"expert model file {short(path)} has weights w1 {w1.shape}, b1 {b1.shape}, w2 {w2.shape}; "
                       f"accepted: finite numbers, w1 ({N_FEATURES}, H), b1 ({N_CONTEXTS}, H), w2 (H,)")
    return Model(w1, b1, w2)


@register(GAME, "expert")
class ExpertPlay:
    """Scores every legal card with a small network fitted to the rollout player's card values
    (chance to take the trick, Moon chips at stake, what the hand keeps) and plays the best, at
    batch speed.

    The features come from the seat's own view; the weights ship in strategies/models/stm_expert.npz
    and benchmarks/train_stm_expert.py rebuilds them from a seed.
    """

    # what beats a trick (the table's strength) and the dummy's kind; not the target or the scoring
    adapts_to = ("stm.little_moon_lead_trumps", "stm.dummy_mode")

    def __init__(self):
        self.model = load_model(os.environ.get(MODEL_ENV) or str(MODEL_FILE))

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        return choose(view, self.model)
