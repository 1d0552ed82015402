"""Shoot the Moon expert: a learned player at batch speed (issue 36), fitted to the rollout player.

Every legal card gets a score, a linear model of per-card features computed from the PlayView
alone (what the seat may see): the card's kind, whether it beats the trick now, the chance that
none of the opponents still to play this trick holds a card that beats it (drawn from the cards
the seat cannot see, known voids kept), the Moon chips at stake, Little Moons onto an opponent's
or the partner's trick, and what the hand keeps for later (sure winners, Moons, reds, voids).
The weights depend on the situation (a context): the side's trick count parity, whether it has
won every trick so far, the first trick, leading / following / playing last, and the dummy game.
The card with the best score is played.

The weights are fitted (benchmarks/train_stm_expert.py, from a seed) to the rollout player's
values of every legal card (`RolloutPlay.values`, mean chips of the side over many dealt worlds),
each from the deciding seat's own view; they ship in models/stm_expert.npz. One compiled loop over
the games computes the features and the scores, so a batch costs about what `odd` costs.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numba
import numpy as np

from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.shoot_the_moon import cards
from moonshot.simulator.shoot_the_moon.views import LEAD_CLASS, PlayView
from moonshot.strategies.base import register

GAME = "shoot-the-moon"
MODEL_FILE = Path(__file__).resolve().parent / "models" / "stm_expert.npz"
MODEL_FORMAT = 1

FEATURES = (
    "big", "little", "red", "number", "wins_now", "est_win", "no_big_after", "no_follow_after", "no_trump_after",
    "sure_now", "moon_chips_if_win", "moon_chips_if_lost", "little_on_opponent", "little_on_partner",
    "little_wasted", "big_on_partner", "overtakes_partner", "follows", "discards", "lowest", "highest",
    "sure_after", "big_after", "little_after", "reds_after", "tops_after", "lows_after", "voids_suit",
    "est_win_x_left", "est_win_x_partner_after", "void_opponent_may_trump", "beaters_share", "est_win_x_last",
)
N_FEATURES = len(FEATURES)
STATES = 5           # trick count parity: even, odd, even having won every trick, odd likewise; the first trick
PLACES = 3           # leading, following (not last), playing last
N_CONTEXTS = 2 * STATES * PLACES     # the same again at the 2-player (dummy) table

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


def view_arrays(view: PlayView) -> tuple:
    """The view's arrays the compiled loop reads (all of them public PlayView fields)."""
    H = view.table.hands_dealt
    j = view.trick_no * H + view.position
    dummy_hand = view.dummy_hand
    if dummy_hand is None:
        dummy_hand = np.full((len(view), cards.HAND_SIZE), -1, dtype=np.int8)
    return (np.ascontiguousarray(view.hand), np.asarray(view.legal_bits), np.asarray(view.live_bits),
            np.ascontiguousarray(np.asarray(view.play_cards)[:, :j]),
            np.ascontiguousarray(np.asarray(view.play_seats)[:, :j]),
            np.asarray(view.best).astype(np.int64), np.asarray(view.winning_side).astype(np.int64),
            np.asarray(view.seat).astype(np.int64), np.asarray(view.side_tricks).astype(np.int64),
            np.ascontiguousarray(view.chips).astype(np.int64), np.asarray(view.dealer).astype(np.int64),
            np.ascontiguousarray(dummy_hand))


def features(view: PlayView) -> tuple[np.ndarray, np.ndarray]:
    """(n, 5, F) float32 features of every slot (zeros where illegal) and (n,) context ids."""
    n = len(view)
    x = np.zeros((n, cards.HAND_SIZE, N_FEATURES), dtype=np.float32)
    ctx = np.zeros(n, dtype=np.int64)
    _run(view, np.zeros((1, N_FEATURES)), x, ctx, np.zeros(n, dtype=np.int64), True)
    return x, ctx


def choose(view: PlayView, weights: np.ndarray) -> np.ndarray:
    """(n,) the legal slot with the best score under `weights` (N_CONTEXTS, F)."""
    n = len(view)
    out = np.zeros(n, dtype=np.int64)
    _run(view, weights, np.zeros((1, cards.HAND_SIZE, N_FEATURES), dtype=np.float32), np.zeros(1, np.int64), out,
         False)
    return out.astype(np.intp)


def _run(view: PlayView, weights, x, ctx, out, keep: bool) -> None:
    t = view.table
    order, sides, dummy, blind, strength, beat = _tables(t)
    _games(*view_arrays(view), t.hands_dealt, t.players, view.trick_no, view.position, order, sides, dummy, blind,
           strength, beat, weights, x, ctx, out, keep)


@numba.njit(cache=True, nogil=True)
def _popcount(m):
    m = m - ((m >> np.uint64(1)) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((m * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True, nogil=True)
def _none_among(unseen, bad, k):
    """Chance that k cards drawn from `unseen` include none of `bad` of them (hypergeometric)."""
    if bad <= 0 or k <= 0:
        return 1.0
    p = 1.0
    for t in range(k):
        if unseen - bad - t <= 0:
            return 0.0
        p *= (unseen - bad - t) / (unseen - t)
    return p


@numba.njit(cache=True, nogil=True)
def _games(hand, legal, live, plays_c, plays_s, best, win_side, seat_of, side_tricks, chips, dealer, dummy_hand,
           H, P, trick_no, position, order, sides, dummy, blind, strength, beat, weights, x, ctx, out, keep):
    """Per game: the features of every legal slot (kept in x and ctx when `keep`), else the best slot in out."""
    n = hand.shape[0]
    j = plays_c.shape[1]
    card_bit = np.empty(DECK, dtype=np.uint64)
    for c in range(DECK):
        card_bit[c] = np.uint64(1) << np.uint64(c)
    void = np.zeros((H, 4), dtype=np.bool_)
    f = np.zeros((5, N_FEATURES))
    left = 5 - trick_no
    for i in range(n):
        lb = legal[i]
        seat = seat_of[i]
        side = sides[seat]
        if not keep and (lb & (lb - 1)) == 0:           # one legal card: nothing to choose
            out[i] = LOWEST_SLOT[lb]
            continue
        if side < 0:                                    # the open dummy's card: the lowest (as odd does)
            out[i] = LOWEST_SLOT[lb]
            continue
        # what the seat cannot see, and the suits players have shown they lack
        seen = np.uint64(0)
        void[:, :] = False
        for p in range(j):
            c = plays_c[i, p]
            seen |= card_bit[c]
            lead_c = plays_c[i, (p // H) * H]
            s_p = plays_s[i, p]
            if lead_c < 48 and c < 48 and SUIT_[c] != SUIT_[lead_c] and not (blind and s_p == dummy):
                void[s_p, SUIT_[lead_c]] = True
        mine = np.uint64(0)
        for k in range(5):
            if (live[i] >> k) & 1:
                mine |= card_bit[hand[i, k]]
            if dummy_hand[i, k] >= 0:
                seen |= card_bit[dummy_hand[i, k]]
        unseen_mask = ~(seen | mine) & FULL
        U = _popcount(unseen_mask)
        # the trick so far
        leader = seat if position == 0 else plays_s[i, j - position]
        lead_card = -1 if position == 0 else plays_c[i, j - position]
        trick_delta = 0
        for p in range(j - position, j):
            trick_delta += MOON_DELTA_[plays_c[i, p]]
        base = (dealer[i] * H + leader) * H
        k_opp = 0
        partner_after = False
        for q in range(position + 1, H):
            s_q = order[base + q]
            if s_q == dummy and blind:
                k_opp += 1                               # its next card is any unseen card
            elif s_q == dummy:
                continue                                 # the open dummy's cards are seen
            elif sides[s_q] == side:
                partner_after = True
            else:
                k_opp += left
        mine_t = side_tricks[i]
        state = 4 if trick_no == 0 else (mine_t % 2) + 2 * (mine_t == trick_no)
        place = 0 if position == 0 else (2 if position == H - 1 else 1)
        cx = ((1 if dummy >= 0 else 0) * STATES_ + state) * PLACES_ + place
        w_side = win_side[i] if position > 0 else -2
        partner_winning = position > 0 and w_side == side
        opp_winning = position > 0 and w_side >= 0 and w_side != side
        w_chips0 = opp_winning and chips[i, w_side] == 0
        # the hand's sure winners: Big Moons and reds above every unseen red
        top_red = -1
        for r in range(12):
            if (unseen_mask >> np.uint64(r)) & np.uint64(1):
                top_red = r
        lo_slot, hi_slot = LOWEST_SLOT[lb], HIGHEST_SLOT[lb]
        f[:, :] = 0.0
        for k in range(5):
            if not (lb >> k) & 1:
                continue
            c = hand[i, k]
            lc = LEAD_[c] if position == 0 else LEAD_[lead_card]
            s_c = strength[lc * 52 + c]
            wins = position == 0 or s_c > best[i]
            bm = beat[lc * 52 + c] & unseen_mask
            nb = _popcount(bm)
            nb_big = _popcount(bm & BIG)
            nb_trump = _popcount(bm & RED) if (lc >= 1 and lc <= 3) else 0
            nb_follow = nb - nb_big - nb_trump
            k_nv = 0                                    # cards of later opponents not known void in the suit
            n_void = 0
            for q in range(position + 1, H):
                s_q = order[base + q]
                if s_q == dummy and blind:
                    k_nv += 1
                elif s_q != dummy and sides[s_q] != side:
                    if lc < 4 and void[s_q, lc]:
                        n_void += 1
                    else:
                        k_nv += left
            p_big = _none_among(U, nb_big, k_opp)
            p_follow = _none_among(U, nb_follow, k_nv)
            p_trump = _none_among(U, nb_trump, k_opp)
            w = 1.0 if wins else 0.0
            est = w * p_big * p_follow * p_trump
            big = c == 48 or c == 49
            little = c == 50 or c == 51
            red = c < 12
            delta = trick_delta + MOON_DELTA_[c]
            f[k, 0] = big
            f[k, 1] = little
            f[k, 2] = red
            f[k, 3] = NUMBER_[c] / 12.0
            f[k, 4] = w
            f[k, 5] = est
            f[k, 6] = w * p_big
            f[k, 7] = w * p_follow
            f[k, 8] = w * p_trump
            f[k, 9] = w * (nb == 0)
            f[k, 10] = delta * est
            f[k, 11] = delta * (1.0 - est)
            f[k, 12] = little and opp_winning
            f[k, 13] = little and partner_winning
            f[k, 14] = little and w_chips0
            f[k, 15] = big and partner_winning
            f[k, 16] = wins and partner_winning
            f[k, 17] = position > 0 and lc < 4 and SUIT_[c] == lc
            f[k, 18] = position > 0 and lc < 4 and c >= 12 and c < 48 and SUIT_[c] != lc
            f[k, 19] = k == lo_slot
            f[k, 20] = k == hi_slot
            # what the hand keeps for the tricks after this one
            sure = 0
            n_big = 0
            n_little = 0
            n_red = 0
            tops = 0
            lows = 0
            same = 0
            for m in range(5):
                if m == k or not (live[i] >> m) & 1:
                    continue
                d = hand[i, m]
                if d == 48 or d == 49:
                    n_big += 1
                    sure += 1
                elif d == 50 or d == 51:
                    n_little += 1
                elif d < 12:
                    n_red += 1
                    if d > top_red:
                        sure += 1
                else:
                    if (beat[SUIT_[d] * 52 + d] & unseen_mask & SUITS[SUIT_[d]]) == 0:
                        tops += 1
                    if NUMBER_[d] <= 5:
                        lows += 1
                if c < 48 and d < 48 and SUIT_[d] == SUIT_[c]:
                    same += 1
            f[k, 21] = sure / 5.0
            f[k, 22] = n_big
            f[k, 23] = n_little
            f[k, 24] = n_red / 5.0
            f[k, 25] = tops / 5.0
            f[k, 26] = lows / 5.0
            f[k, 27] = c < 48 and same == 0
            f[k, 28] = est * left / 5.0
            f[k, 29] = est * partner_after
            f[k, 30] = wins and not red and lc >= 1 and lc <= 3 and n_void > 0
            f[k, 31] = nb / max(U, 1)
            f[k, 32] = est * (trick_no == 4)
        if keep:
            ctx[i] = cx
            for k in range(5):
                for q in range(N_FEATURES):
                    x[i, k, q] = f[k, q]
            continue
        best_k, best_s = lo_slot, -1e300
        for k in range(5):
            if (lb >> k) & 1:
                s = 0.0
                for q in range(N_FEATURES):
                    s += weights[cx, q] * f[k, q]
                if s > best_s:
                    best_k, best_s = k, s
        out[i] = best_k


# constants the compiled loop reads as globals (frozen into it when it compiles)
LOWEST_SLOT = np.array([(m & -m).bit_length() - 1 for m in range(32)], dtype=np.int64)
HIGHEST_SLOT = np.array([m.bit_length() - 1 for m in range(32)], dtype=np.int64)
SUIT_, NUMBER_, MOON_DELTA_, LEAD_ = SUIT, NUMBER, MOON_DELTA.astype(np.int64), LEAD
SUITS, BIG, RED, FULL = SUIT_MASK, BIG_MASK, RED_MASK, np.uint64((1 << DECK) - 1)
STATES_, PLACES_ = STATES, PLACES


# ------------------------------------------------------------------------------------ the model file

@lru_cache(maxsize=None)
def load_model(path: str) -> np.ndarray:
    """The weights (N_CONTEXTS, F) of a model file, its fields checked: a missing, unreadable or
    mismatched file is one BadInput line naming the file and what was expected."""
    file = Path(path)
    if not file.is_file():
        raise BadInput(f"expert model file {short(path)} not found; accepted: an .npz written by "
                       "benchmarks/train_stm_expert.py (rebuild it with that script)")
    try:
        with np.load(file, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except Exception as exc:      # a damaged file: one line, not a traceback
        raise BadInput(f"expert model file {short(path)} is unreadable ({type(exc).__name__}); accepted: an .npz "
                       "written by benchmarks/train_stm_expert.py") from None
    need = {"format", "features", "weights"}
    if not need <= set(data):
        raise BadInput(f"expert model file {short(path)} lacks {', '.join(sorted(need - set(data)))}; accepted: "
                       "an .npz with format, features and weights")
    if data["format"].shape != () or int(data["format"]) != MODEL_FORMAT:
        raise BadInput(f"expert model file {short(path)} has format {short(data['format'].tolist())}; accepted: "
                       f"{MODEL_FORMAT}")
    if tuple(str(s) for s in data["features"].tolist()) != FEATURES:
        raise BadInput(f"expert model file {short(path)} was fitted on other features than this code computes; "
                       "accepted: one written by this version's benchmarks/train_stm_expert.py")
    w = data["weights"]
    if w.shape != (N_CONTEXTS, N_FEATURES) or w.dtype.kind != "f" or not np.isfinite(w).all():
        raise BadInput(f"expert model file {short(path)} has weights of shape {w.shape} ({w.dtype}); accepted: "
                       f"finite numbers, shape ({N_CONTEXTS}, {N_FEATURES})")
    return np.ascontiguousarray(w, dtype=np.float64)


@register(GAME, "expert")
class ExpertPlay:
    """Scores every legal card with a model fitted to the rollout player's card values (chance to
    take the trick, Moon chips at stake, what the hand keeps) and plays the best, at batch speed.

    The features come from the seat's own view; the weights ship in strategies/models/stm_expert.npz
    and benchmarks/train_stm_expert.py rebuilds them from a seed.
    """

    # what beats a trick (the table's strength) and the dummy's kind; not the target or the scoring
    adapts_to = ("stm.little_moon_lead_trumps", "stm.dummy_mode")

    def __init__(self, model: str = ""):
        self.weights = load_model(model or str(MODEL_FILE))

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        return choose(view, self.weights)
