"""Hit the Deck strategies. Each `play(view, rng)` returns one choice per game: a card kind
(0..37) with `view.legal` True, or DRAW (38) where that column is legal (a voluntary draw, or
keeping a drawn card under htd.drawn_card_play=optional).

`view` is a simulator.hit_the_deck.views.PlayView: the mover's hand (counts by kind), the legal
mask, the top card, the demand, public counts and what the seat's memory knows of the draw pile.
Nothing hidden is in it.
"""
from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numba
import numpy as np

from moonshot.simulator.hit_the_deck import cards, views
from moonshot.simulator.hit_the_deck.engine import compiled_run, fast
from moonshot.simulator.hit_the_deck.engine.cache_keys import depends_on
from moonshot.simulator.hit_the_deck.views import N_CHOICES, PlayView, bits_of, lowest_index, nth_set_bit
from moonshot.strategies.base import register

GAME = "hit-the-deck"


def legal_bits(view: PlayView) -> np.ndarray:
    """(n,) uint64 legal mask, bit k = column k (the engine's own when it supplies one)."""
    bits = getattr(view, "legal_bits", None)
    return bits if bits is not None else bits_of(np.asarray(view.legal))


def uniform_choice(bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random set bit of each mask (every mask must have one)."""
    out = np.empty(len(bits), dtype=np.int16)
    nth_set_bit(np.ascontiguousarray(bits, dtype=np.uint64), rng.random(len(bits)), out)
    return out


@register(GAME, "random")
class RandomPlay:
    """Plays a uniformly random legal card (a draw, when legal, is one more option).

    The baseline every other strategy should beat.
    """

    adapts_to = ()                       # uniform over the legal options, a draw included, whatever the rules
    reads_stamps = False                 # the legal masks alone: the engine keeps no piles' stamps for it

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        return uniform_choice(legal_bits(view), rng)


fast.WHOLE_BATCH[RandomPlay] = compiled_run.whole_batch      # random in every seat: one compiled call


# ============================================================================ lookup tables

N_KINDS = cards.N_KINDS
DRAW = cards.DRAW
IS_HTD = cards.CLASS >= cards.HTD_N                          # Hit the Deck cards (no colour, HTD-1.2)
IS_COLOURED = cards.COLOUR >= 0
TEN_BITS = np.uint64(int(sum(1 << k for k in range(N_KINDS) if cards.PENALTY[k] == cards.WORD_PENALTY)))
# VALUE_BITS[v]: the number cards of value v (any colour), v = 1..5
VALUE_BITS = [np.uint64(int(sum(1 << k for k in range(N_KINDS)
                                if cards.CLASS[k] == cards.NUMBER and cards.VALUE[k] == v)))
              for v in range(cards.N_VALUES + 1)]
# COLOUR_OF[k, c]: kind k is a number or word card of colour c (what counts for "colour held")
COLOUR_OF = (cards.COLOUR[:, None] == np.arange(cards.N_COLOURS)[None, :]).astype(np.float32)
# The mover's own column in minima over the opponents' hand sizes: above any hand.
NOT_AN_OPPONENT = 999
# The hand-length bonus (long_hand) stops growing this many cards above the shortest opponent hand.
LONG_HAND_CAP = 8
PENALTY = cards.PENALTY.astype(np.float32)


def _can_play(kind: int, top: int, demand: int, word_on_word: bool) -> bool:
    """HTD-3 (with P1, P2: an HTD-N/C on top without a demand takes anything), as the engine."""
    cls, col = cards.CLASS[kind], cards.COLOUR[kind]
    if demand >= cards.COLOUR_DEMAND:
        return cls in (cards.NUMBER, cards.CUT, cards.FLIP) and col == demand - cards.COLOUR_DEMAND
    if demand >= 0:
        return cls == cards.NUMBER and cards.VALUE[kind] == demand + 1
    if cls >= cards.HTD_N or cards.CLASS[top] >= cards.HTD_N:
        return True
    if col == cards.COLOUR[top]:
        return True
    if cls == cards.NUMBER:
        return cards.CLASS[top] == cards.NUMBER and cards.VALUE[kind] == cards.VALUE[top]
    return word_on_word and cls == cards.CLASS[top]


@lru_cache(maxsize=8)
def situation_table(word_on_word: bool) -> np.ndarray:
    """(47, 38) float32: row s = the situation (s < 38: top kind s, no demand; 38 + d: demand d),
    column k = 1 when a card of kind k may be played there."""
    out = np.zeros((N_KINDS + cards.N_DEMANDS, N_KINDS), dtype=np.float32)
    for s in range(N_KINDS + cards.N_DEMANDS):
        top, demand = (s, -1) if s < N_KINDS else (cards.HH, s - N_KINDS)
        for k in range(N_KINDS):
            out[s, k] = _can_play(k, top, demand, word_on_word)
    return out


@lru_cache(maxsize=32)
def answer_situations(players: int) -> tuple[np.ndarray, np.ndarray]:
    """For each kind k I play: (the situation the next seat then faces (38,) int8, how likely it
    may answer there when it holds a card that may be played (38,) float32). A number leaves
    itself on top; a Cut or a Flip uses up the next seat's turn (0); an HTD-N or HTD-C leaves its
    demand; after an HTD-H anything goes, unless that seat loses the slap race (about 1 in
    players-1 with like reflexes) and holds 4 more cards."""
    situation = np.arange(N_KINDS, dtype=np.int8)
    weight = np.ones(N_KINDS, dtype=np.float32)
    for k in range(N_KINDS):
        cls = cards.CLASS[k]
        if cls in (cards.CUT, cards.FLIP):
            weight[k] = 0.0
        elif cls == cards.HTD_N:
            situation[k] = N_KINDS + cards.VALUE[k] - 1
        elif cls == cards.HTD_C:
            situation[k] = N_KINDS + cards.COLOUR_DEMAND + k - cards.htd_c(0)
        elif cls == cards.HTD_H:
            weight[k] = 1.0 - 1.0 / max(players - 1, 1)
    return situation, weight


@lru_cache(maxsize=32)
def answer_table(word_on_word: bool, players: int) -> np.ndarray:
    """(38, 38) float32 AFTER[k, j]: how likely the next seat may play a card of kind j once I play
    kind k (answer_situations: the situation's playable kinds, times its weight)."""
    situation, weight = answer_situations(players)
    return weight[:, None] * situation_table(word_on_word)[situation]


N_SITUATIONS = N_KINDS + cards.N_DEMANDS      # situation_table's rows
_RUN = cards.KINDS_PER_COLOUR
_DEMAND_V, _DEMAND_C = N_KINDS, N_KINDS + cards.COLOUR_DEMAND      # the rows of the two kinds of demand


@numba.njit(cache=True, nogil=True, inline="always")
def situation_counts(x, i, word_on_word, out):
    """out[s] = x[i] @ situation_table[s] for every situation s: the cards of row x[i] (counts by
    kind) that may be played there, summed over the card layout (cards.py) as HTD-3 reads: any
    Hit the Deck card, the top's colour, a number's value, with htd.word_matches_word a word's
    word; a demand takes its value's numbers or its colour's cards. Returns the row's Hit the
    Deck cards. Whole numbers, so exact (tests check it against situation_table). Rows are
    passed as (x, i), never as x[i]: a slice is counted in and out of numba's reference counts,
    which costs more than the sums."""
    htd = np.float32(0.0)
    for k in range(cards.HTD_N_BASE, N_KINDS):
        htd += x[i, k]
    cuts = np.float32(0.0)
    flips = np.float32(0.0)
    for c in range(cards.N_COLOURS):
        cuts += x[i, c * _RUN + cards.CUT_SLOT]
        flips += x[i, c * _RUN + cards.FLIP_SLOT]
    for v in range(cards.N_VALUES):                            # a number demand: that value's numbers
        n = np.float32(0.0)
        for c in range(cards.N_COLOURS):
            n += x[i, c * _RUN + v]
        out[_DEMAND_V + v] = n
    coloured = np.float32(0.0)
    for c in range(cards.N_COLOURS):
        b = c * _RUN
        colour = np.float32(0.0)
        for k in range(b, b + _RUN):
            colour += x[i, k]
        out[_DEMAND_C + c] = colour                              # a colour demand: that colour's cards
        coloured += colour
        base = htd + colour
        for v in range(cards.N_VALUES):                          # a number on top: its colour or value
            out[b + v] = base + out[_DEMAND_V + v] - x[i, b + v]
        out[b + cards.CUT_SLOT] = base + (cuts - x[i, b + cards.CUT_SLOT] if word_on_word else np.float32(0.0))
        out[b + cards.FLIP_SLOT] = base + (flips - x[i, b + cards.FLIP_SLOT] if word_on_word else np.float32(0.0))
    for k in range(cards.HTD_N_BASE, N_KINDS):                   # a Hit the Deck card on top: anything
        out[k] = coloured + htd
    return htd


def scored_choice(score: np.ndarray, legal: np.ndarray, rng: np.random.Generator,
                  jitter: float = 0.01) -> np.ndarray:
    """argmax of score over the legal columns, ties broken at random by a jitter below `jitter`."""
    noise = rng.random(score.shape, dtype=np.float32)
    noise *= jitter
    score = score + noise
    score[~legal] = -1e9
    return score.argmax(axis=1)


def next_seat(view: PlayView, steps: int = 1) -> np.ndarray:
    return ((view.seat.astype(np.int16) + steps * view.direction) % view.players).astype(np.intp)


def opponent_sizes(view: PlayView) -> np.ndarray:
    """(n, players) hand sizes with the mover's own column set high (for minima over opponents)."""
    sizes = view.hand_sizes.astype(np.int16).copy()
    sizes[np.arange(len(sizes)), view.seat.astype(np.intp)] = NOT_AN_OPPONENT
    return sizes


# ============================================================================ simple strategies

@register(GAME, "dump")
class Dump:
    """Gets rid of 10-point cards first (word and Hit the Deck cards), then the highest number.

    Never draws by choice; a drawn card that may be played is played. Ties among equal cards are
    broken at random.
    """

    adapts_to = ()                       # never draws or keeps by choice, whatever the rules allow

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        bits = legal_bits(view)
        pick = bits & TEN_BITS
        for v in (5, 4, 3, 2, 1):
            pick = np.where(pick == 0, bits & VALUE_BITS[v], pick)
        pick = np.where(pick == 0, bits, pick)          # only DRAW left (never the case on a turn)
        return uniform_choice(pick, rng)


@register(GAME, "hold")
class Hold:
    """Keeps Hit the Deck cards until an opponent is down to `close` cards or fewer, then plays them
    first; otherwise plays the colour it holds most of (highest card first), so the pile stays in
    that colour.

    A Hit the Deck card is played early only when nothing else is legal; a drawn Hit the Deck card
    is kept (htd.drawn_card_play=optional) while nobody is close. Never draws by choice otherwise.
    """

    ranges = {"close": (0, 30)}           # cards
    adapts_to = ("htd.drawn_card_play",)  # keeps a drawn Hit the Deck card where that is allowed

    def __init__(self, close: int = 2):
        self.close = close

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        legal = np.asarray(view.legal)
        hand = view.hand.astype(np.float32)
        threat = (opponent_sizes(view).min(axis=1) <= self.close)[:, None]
        held = hand @ COLOUR_OF                                     # (n, 4) cards per colour
        colour_score = held[:, np.maximum(cards.COLOUR, 0)] * 16 + PENALTY
        score = np.empty((len(legal), N_KINDS + 1), dtype=np.float32)
        score[:, :N_KINDS] = np.where(IS_HTD, np.where(threat, 1000 + PENALTY, -500.0), colour_score)
        drawn = np.asarray(view.drawn)
        keep_htd = (drawn >= 0) & IS_HTD[np.maximum(drawn, 0)] & ~threat[:, 0]
        score[:, DRAW] = np.where(keep_htd, 0.0, -1000.0)
        return scored_choice(score, legal, rng)


@lru_cache(maxsize=8)
def _deck(rules) -> np.ndarray:
    return cards.deck_counts(rules).astype(np.float32)


def lowest_bit(bits: np.ndarray) -> np.ndarray:
    """(n,) uint64 -> (n,) position of the lowest set bit (0 for an empty mask)."""
    low = bits & (~bits + np.uint64(1))
    return np.log2(np.maximum(low, np.uint64(1)).astype(np.float64)).astype(np.intp)


_BIT_BYTES = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)
_CHOICE_BYTES = (N_CHOICES + 7) // 8          # the low bytes of a uint64 mask that hold the choices


def unpack(bits: np.ndarray) -> np.ndarray:
    """(n,) uint64 -> (n, N_CHOICES) bool, column k = bit k."""
    b = np.ascontiguousarray(bits, dtype=np.uint64).view(np.uint8).reshape(-1, 8)[:, :_CHOICE_BYTES]
    return _BIT_BYTES[b].reshape(-1, 8 * _CHOICE_BYTES)[:, :N_CHOICES]


@register(GAME, "tactician")
class Tactician:
    """Sheds 10-point cards while its hand is long, plays where its other cards can follow (the colour
    it holds most of), and hands the next seat what it likely cannot answer, the harder the closer
    that seat is to going out: a Cut or Flip (turn used up) or an HTD-N/HTD-C demand.

    Every legal card gets a score: its penalty (weighted more the longer the hand is than the
    shortest opponent's), how many of the remaining cards could follow it, minus the chance, from
    the cards not yet seen, that the next seat can answer it times how close that seat is to going
    out (an HTD-H lets the next seat play anything unless it loses the slap race; a seat that cannot
    answer draws the top of the draw pile, which it answers with when memory knows it does). A Flip is an
    extra turn, unless the seat it brings round next is nearly out; the last Hit the Deck card is
    kept as a final card that goes on anything. A drawn card is kept, or a card drawn by choice
    (htd.voluntary_draw), only when every play hands a nearly-out next seat an easy answer. The
    best score wins, ties at random. Only choices with two or more options are scored.
    """

    ranges = {**{k: (-100, 100) for k in ("shed", "long_hand", "follow", "fear", "flip", "cut", "slap", "keep_last",
                                          "draw_cost")}, "block": (0, 1)}     # score weights; block a chance
    # which cards follow which and the deck's make-up (tables), draws and kept cards it weighs, and
    # what its memory holds of the draw pile
    adapts_to = ("htd.word_matches_word", "htd.htd_number_values", "htd.voluntary_draw", "htd.drawn_card_play",
                 "htd.memory")

    def __init__(self, shed: float = 1.0, long_hand: float = 0.5, follow: float = 4.0, fear: float = 15.0,
                 flip: float = 8.0, cut: float = 2.0, slap: float = 6.0, keep_last: float = 12.0,
                 block: float = 0.05, draw_cost: float = 15.0):
        self.shed, self.long_hand, self.follow, self.fear = shed, long_hand, follow, fear
        self.flip, self.cut, self.slap, self.keep_last = flip, cut, slap, keep_last
        self.draw_cost = draw_cost
        self.threat = THREAT.copy()
        self.threat[4:] = block
        self.threat *= fear
        self._tables: dict = {}

    def tables(self, rules, players: int):
        key = (bool(rules.word_matches_word), players, rules)
        if key not in self._tables:
            sit = situation_table(key[0])
            # the follow weight of each card I play (coloured cards only), times the held cards that
            # may follow it: lin's columns, and _best_rows' weights on situation_counts
            follow_w = np.where(IS_COLOURED, np.float32(self.follow), np.float32(0.0)).astype(np.float32)
            lin = np.zeros((N_KINDS, N_KINDS + 2), dtype=np.float32)
            lin[:, :N_KINDS] = sit[:N_KINDS].T * follow_w[None, :]                 # (38 held, 38 played)
            lin[:, N_KINDS] = IS_HTD                                  # column 38: Hit the Deck cards held
            lin[:, N_KINDS + 1] = PENALTY                             # column 39: points held
            const = (np.where(IS_COLOURED, -self.follow, 0.0) + np.where(cards.CLASS == cards.FLIP, self.flip, 0.0)
                     + np.where(cards.CLASS == cards.HTD_H, self.slap, 0.0)
                     + np.where(cards.CLASS == cards.CUT, self.cut, 0.0))
            answer = np.zeros((N_KINDS, N_KINDS + 1), dtype=np.float32)
            answer[:, :N_KINDS] = answer_table(key[0], players).T
            answer[:, N_KINDS] = 1.0                                  # column 38: cards unseen in all
            flip_cut = np.where(cards.CLASS == cards.FLIP, 0.4, 0.0).astype(np.float32)
            cut_bonus = np.where(cards.CLASS == cards.CUT, 3 * self.cut / max(self.fear, 1e-6), 0.0).astype(np.float32)
            # the two products as situation counts (situation_counts) times one weight per column
            counts = (key[0], follow_w, *answer_situations(players)[::-1])
            self._tables[key] = (lin, const.astype(np.float32), answer, flip_cut, cut_bonus, sit,
                                 _deck(rules), counts)
        return self._tables[key]

    def weights(self, rules, players: int) -> Weights:
        """The tactician's tables and weights for _best_rows at this table (kept with tables())."""
        key = ("weights", bool(rules.word_matches_word), players, rules)
        if key not in self._tables:
            _, const, answer, flip_cut, cut_bonus, _, _, counts = self.tables(rules, players)
            self._tables[key] = Weights(*counts, players, NOISE, const, answer, flip_cut, cut_bonus, self.threat,
                                        PENALTY, IS_HTD, np.float32(self.shed), np.float32(self.long_hand),
                                        np.float32(self.keep_last), float(self.draw_cost))
        return self._tables[key]

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        bits = np.ascontiguousarray(legal_bits(view), dtype=np.uint64)
        choice = np.empty(len(bits), dtype=np.intp)
        multi = np.empty(len(bits), dtype=np.intp)
        multi = multi[:_lowest_and_multi(bits, choice, multi)]     # lowest_bit, and the games with a choice
        if len(multi):
            sub = view.take(multi) if len(multi) < len(bits) else view
            choice[multi] = self.choose(sub, bits[multi], rng)
        return choice

    def choose(self, view: PlayView, bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self.best(view, bits, rng)[0]

    def best(self, view: PlayView, bits: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(the best legal choice of each game, its score): scores_numpy's legal scores, float32
        step for step, in one compiled pass per game (_best_rows), only the legal columns scored."""
        deck = self.tables(view.rules, view.players)[6]
        weights = self.weights(view.rules, view.players)
        m = len(bits)
        bits = np.ascontiguousarray(bits, dtype=np.uint64)
        if _any_draw(bits):                        # read only where a draw is a choice
            demand = np.ascontiguousarray(view.demand, dtype=np.int8)
            top = np.ascontiguousarray(view.top, dtype=np.int8)
            drawn = np.ascontiguousarray(view.drawn, dtype=np.int8)
        else:
            demand = top = drawn = _no_draw(m)
        noise = rng.integers(0, len(NOISE), m)
        best = np.empty(m, dtype=np.intp)
        best_score = np.empty(m, dtype=np.float32)
        rows_of = getattr(view, "fill_rows", None)            # the engine's view: straight from its rows
        # the engine's view goes in blocks of BLOCK games, so a block's hand and unseen rows are
        # still in cache when they are scored
        block = BLOCK if rows_of is not None else max(m, 1)
        hand_buf, unseen_buf = self._buffers(min(m, block))
        for lo in range(0, m, block):
            hi = min(lo + block, m)
            hand, unseen = hand_buf[:hi - lo], unseen_buf[:hi - lo]
            if rows_of is not None:
                known_top, sizes, dirn, rows, seats = rows_of(deck, hand, unseen, lo, hi)
            else:
                _hand_and_unseen(np.ascontiguousarray(view.hand), np.ascontiguousarray(view.seen), deck, hand, unseen)
                known_top = getattr(view, "known_top", None)
                known_top = np.ascontiguousarray(view.known_draw[:, 0] if known_top is None else known_top)
                sizes = np.ascontiguousarray(view.hand_sizes, dtype=np.int16)
                dirn = np.ascontiguousarray(view.direction, dtype=np.int8)
                rows = np.arange(m, dtype=np.int64)
                seats = np.ascontiguousarray(view.seat, dtype=np.int64)
            _best_rows(weights, Games(hand, unseen, sizes, rows, seats, dirn, known_top, bits[lo:hi], demand[lo:hi],
                                      top[lo:hi], drawn[lo:hi], noise[lo:hi]), best[lo:hi], best_score[lo:hi])
        return best, best_score

    def scores(self, view: PlayView, bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """(m, 39) the score of every choice (the highest legal one is played); illegal columns
        lie below every legal one. moonshot serve's hint panel shows them."""
        return self.scores_numpy(view, bits, rng)

    def _buffers(self, m: int):
        """This player's (m, 38) float32 hand and unseen working arrays, kept from ask to ask
        (grown when a larger batch comes; the rows [:m] of each are taken)."""
        buf = self.__dict__.get("_buf")
        if buf is None or len(buf[0]) < m:
            buf = tuple(np.empty((m, N_KINDS), dtype=np.float32) for _ in range(2))
            self.__dict__["_buf"] = buf
        return buf

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_buf", None)                    # working arrays are not sent to worker processes
        return state

    def scores_numpy(self, view: PlayView, bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """scores in numpy operations over the whole batch: what _best_rows must match bit for
        bit (tests/test_htd_tactician_kernel.py)."""
        lin, const, answer, flip_cut, cut_bonus, sit, deck, _ = self.tables(view.rules, view.players)
        m = len(bits)
        rows = np.arange(m)
        hand = view.hand.astype(np.float32)
        seat = view.seat.astype(np.intp)
        sizes = view.hand_sizes
        size = sizes[rows, seat]
        opp = sizes.astype(np.int16)
        opp[rows, seat] = NOT_AN_OPPONENT
        min_opp = opp.min(axis=1)
        step = view.direction.astype(np.intp)
        nsize = np.minimum(sizes[rows, (seat + step) % view.players], THREAT_CAP)
        psize = np.minimum(sizes[rows, (seat - step) % view.players], THREAT_CAP)
        # the two products in float64, rounded once to float32: every term is a whole count times a
        # weight, so the sums are exact in any order and no machine's BLAS kernel shows in them.
        # both (m,40): follow; col 38 = HTD held, col 39 = points held
        both = (hand @ lin.astype(np.float64)).astype(np.float32)
        score = both[:, :N_KINDS + 1]
        n_htd = both[:, N_KINDS].copy()
        points = both[:, N_KINDS + 1].copy()
        w_shed = self.shed + self.long_hand * np.clip(size - min_opp, 0, LONG_HAND_CAP).astype(np.float32)
        score[:, :N_KINDS] += w_shed[:, None] * PENALTY + const
        last_wild = ((n_htd == 1) & (size <= 3)).astype(np.float32) * self.keep_last
        score[:, :N_KINDS] -= last_wild[:, None] * IS_HTD
        # the next seat's chance to answer each card, from the cards not yet seen
        threat = self.threat[nsize]
        unseen = deck - hand - view.seen
        np.maximum(unseen, 0, out=unseen)
        p = (unseen @ answer.astype(np.float64)).astype(np.float32)  # (m,39); col 38 = unseen in all
        total = p[:, N_KINDS:] + 1e-6
        p /= total
        # a next seat that cannot answer draws the top of the draw pile (HTD-3.6) and plays it if it
        # answers: where this seat's memory knows that card (known_draw, htd.memory), so does it
        known_top = view.known_draw[:, 0].astype(np.intp)
        k = np.flatnonzero(known_top >= 0)
        if len(k):
            p[k, :N_KINDS] += (1.0 - p[k, :N_KINDS]) * answer[known_top[k], :N_KINDS]
        # expected points lost if the next seat goes out on what I leave: chance x points still held
        left = (points[:, None] - PENALTY) * (1.0 / 10)
        score[:, :N_KINDS] -= threat[:, None] * (p[:, :N_KINDS] * left - cut_bonus) \
            + self.threat[psize][:, None] * flip_cut
        # not playing (a draw by choice, or keeping a drawn card): the next seat faces the pile as it is
        draw = (bits >> np.uint64(DRAW)) & np.uint64(1) != 0
        if draw.any():
            d = np.flatnonzero(draw)
            situ = np.where(view.demand[d] >= 0, N_KINDS + view.demand[d].astype(np.intp), view.top[d])
            p_now = (unseen[d] * sit[situ]).sum(axis=1) / total[d, 0]
            turn = view.drawn[d] < 0
            drawn_points = np.where(known_top[d] >= 0, PENALTY[np.maximum(known_top[d], 0)], 5.0)   # known, or about 5
            held = (points[d] + np.where(turn, drawn_points, 0.0)) * (1.0 / 10)
            score[d, DRAW] = -threat[d] * p_now * held - np.where(turn, self.draw_cost, 0.0)
        score += NOISE[rng.integers(0, len(NOISE), m)]
        score += unpack(bits) * LEGAL_LIFT                  # legal columns above every illegal one
        return score


LEGAL_LIFT = np.float32(1e6)
BLOCK = 1024            # games scored per block (their rows stay in cache: see Tactician.choose)
NOISE = np.random.default_rng(12345).random((256, N_KINDS + 1), dtype=np.float32) * 0.01
_F1E6, _TENTH, _FIVE = np.float32(1e-6), np.float32(1.0 / 10), np.float32(5.0)   # scores_numpy's constants, as float32


@numba.njit(cache=True, nogil=True)
def _lowest_and_multi(bits, choice, multi):
    """choice[i] = lowest_bit(bits[i]); multi[:n] = the i whose mask has two or more bits (n returned)."""
    n = 0
    for i in range(len(bits)):
        b = bits[i]
        choice[i] = lowest_index(b) if b else 0
        if b & (b - np.uint64(1)):
            multi[n] = i
            n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _any_draw(bits):
    """Whether any mask has the DRAW column (a draw or keeping a drawn card is a choice)."""
    for b in bits:
        if (b >> np.uint64(DRAW)) & np.uint64(1):
            return True
    return False


def _no_draw(m: int) -> np.ndarray:
    """(m,) int8 zeros (demand, top and drawn where no game may draw: never read)."""
    return np.zeros(m, dtype=np.int8)


@numba.njit(cache=True, nogil=True)
def _hand_and_unseen(raw, seen, deck, hand, unseen):
    """hand as float32, and the cards not yet seen max(deck - hand - seen, 0) (whole numbers: exact)."""
    for i in range(raw.shape[0]):
        for k in range(raw.shape[1]):
            h = np.float32(raw[i, k])
            hand[i, k] = h
            u = deck[k] - h - np.float32(seen[i, k])
            unseen[i, k] = u if u > 0 else np.float32(0.0)


# The tactician's tables and weights as _best_rows reads them (Tactician.weights: one per rules and table size)
Weights = namedtuple("Weights", ("word_on_word", "follow_w", "ans_w", "ans_s", "players", "noise_table", "const",
                                 "answer", "flip_cut", "cut_bonus", "threat", "penalty", "is_htd", "shed", "long_hand",
                                 "keep_last", "draw_cost"))
# The games _best_rows scores: each one's hand and unseen cards by kind, its state row (sizes and dirn are
# the engine's, read at rows[i]), seat, known top of the draw pile, legal mask, demand, top and drawn card,
# and its noise draw
Games = namedtuple("Games", ("hand", "unseen", "sizes", "rows", "seat", "dirn", "known_top", "bits", "demand", "top",
                             "drawn", "noise"))


@numba.njit(cache=True, nogil=True)
def _best_rows(wt, g, best, best_score):
    """best[i]: Tactician.scores_numpy's argmax for game i of `g` (best_score[i]: its score) with the
    tactician's Weights `wt`, the legal
    columns alone scored, one game at a time, with the same float32 operations in the same order
    (float32 operands stay float32 in numba; no fused multiply-adds without fastmath), so the
    same scores bit for bit. Its two
    products are whole counts of cards by situation (situation_counts) times one float32
    weight per column, rounded once as its exact float64 products are. Every legal column lies
    above every illegal one (LEGAL_LIFT), so the first highest legal column is the argmax.
    Game i's hand sizes are sizes[rows[i]] and its direction dirn[rows[i]] (the engine's state
    rows, read in place; rows = arange(m) over a view's own arrays)."""
    hand, unseen, sizes, rows, seat, dirn = g.hand, g.unseen, g.sizes, g.rows, g.seat, g.dirn
    known_top, bits, demand, top, drawn, noise = g.known_top, g.bits, g.demand, g.top, g.drawn, g.noise
    word_on_word, follow_w, ans_w, ans_s, players, noise_table = (wt.word_on_word, wt.follow_w, wt.ans_w, wt.ans_s,
                                                                  wt.players, wt.noise_table)
    const, answer, flip_cut, cut_bonus, threat_of, penalty = (wt.const, wt.answer, wt.flip_cut, wt.cut_bonus,
                                                              wt.threat, wt.penalty)
    is_htd, shed, long_hand, keep_last, draw_cost = wt.is_htd, wt.shed, wt.long_hand, wt.keep_last, wt.draw_cost
    K = N_KINDS                                            # and column K = DRAW
    in_hand = np.empty(N_SITUATIONS, dtype=np.float32)     # the hand's cards playable per situation
    not_seen = np.empty(N_SITUATIONS, dtype=np.float32)    # and the unseen cards'
    for i in range(hand.shape[0]):
        n_htd = situation_counts(hand, i, word_on_word, in_hand)
        situation_counts(unseen, i, word_on_word, not_seen)
        points = np.float32(0.0)                   # whole numbers: exact in any order
        for k in range(K):
            points += hand[i, k] * penalty[k]
        s = np.int64(seat[i])
        r = rows[i]
        size = sizes[r, s]
        min_opp = NOT_AN_OPPONENT
        for j in range(players):
            if j != s and sizes[r, j] < min_opp:
                min_opp = sizes[r, j]
        step = np.int64(dirn[r])
        nsize = min(sizes[r, (s + step) % players], THREAT_CAP)
        psize = min(sizes[r, (s - step) % players], THREAT_CAP)
        w_shed = shed + long_hand * np.float32(min(max(size - min_opp, 0), LONG_HAND_CAP))
        last_wild = (np.float32(1.0) if n_htd == 1 and size <= 3 else np.float32(0.0)) * keep_last
        threat = threat_of[nsize]
        pthreat = threat_of[psize]
        total = not_seen[N_KINDS - 1] + _F1E6          # an HTD-H on top takes any card: every unseen one
        kt = known_top[i]
        nz = noise[i]
        top_v = np.float32(-np.inf)
        at = 0
        b = bits[i] & np.uint64((1 << K) - 1)
        while b:                                       # the legal cards, lowest kind first
            k = lowest_index(b)
            b &= b - np.uint64(1)
            v = follow_w[k] * in_hand[k] + (w_shed * penalty[k] + const[k])
            v = v - last_wild * (np.float32(1.0) if is_htd[k] else np.float32(0.0))
            pk = ans_w[k] * not_seen[ans_s[k]] / total
            if kt >= 0:
                pk = pk + (np.float32(1.0) - pk) * answer[kt, k]
            left = (points - penalty[k]) * _TENTH
            v = v - (threat * (pk * left - cut_bonus[k]) + pthreat * flip_cut[k])
            v = (v + noise_table[nz, k]) + LEGAL_LIFT
            if v > top_v:
                top_v, at = v, k
        if (bits[i] >> np.uint64(K)) & np.uint64(1):   # not playing: a draw by choice, or keeping a drawn card
            d = demand[i]
            situ = K + d if d >= 0 else top[i]
            p_now = not_seen[situ] / total
            turn = drawn[i] < 0
            drawn_points = penalty[kt] if kt >= 0 else _FIVE
            held = (points + (drawn_points if turn else np.float32(0.0))) * _TENTH
            v = np.float32(np.float64(-threat * p_now * held) - (draw_cost if turn else 0.0))
            v = (v + noise_table[nz, K]) + LEGAL_LIFT
            if v > top_v:
                top_v, at = v, K
        best[i] = at
        best_score[i] = top_v


THREAT = np.array([0, 1.0, 0.35, 0.12, 0, 0, 0, 0, 0], dtype=np.float32)
THREAT_CAP = len(THREAT) - 1        # a longer hand threatens as one of this many cards


for _compiled in (_lowest_and_multi, _best_rows):   # they hold their own copy of views' bit helpers
    depends_on(_compiled, views.__name__)
