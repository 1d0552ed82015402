"""Hit the Deck strategies. Each `play(view, rng)` returns one choice per game: a card kind
(0..37) with `view.legal` True, or DRAW (38) where that column is legal (a voluntary draw, or
keeping a drawn card under htd.drawn_card_play=optional).

`view` is a simulator.hit_the_deck.views.PlayView: the mover's hand (counts by kind), the legal
mask, the top card, the demand, public counts and what the seat's memory knows of the draw pile.
Nothing hidden is in it.
"""
from __future__ import annotations

import numpy as np

from simulator.hit_the_deck.views import PlayView, bits_of, count_bits, nth_bit
from strategies.base import register

GAME = "hit-the-deck"


def legal_bits(view: PlayView) -> np.ndarray:
    """(n,) uint64 legal mask, bit k = column k (the engine's own when it supplies one)."""
    bits = getattr(view, "legal_bits", None)
    return bits if bits is not None else bits_of(np.asarray(view.legal))


def uniform_choice(bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random set bit of each mask (every mask must have one)."""
    count = count_bits(bits)
    r = (rng.random(len(bits)) * count).astype(np.int16)
    return nth_bit(bits, np.minimum(r, count - 1))


@register(GAME, "random")
class RandomPlay:
    """Plays a uniformly random legal card (a draw, when legal, is one more option).

    The baseline every other strategy should beat.
    """

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        return uniform_choice(legal_bits(view), rng)


# ============================================================================ lookup tables

from functools import lru_cache  # noqa: E402

from simulator.hit_the_deck import cards as C  # noqa: E402

N_KINDS = C.N_KINDS
DRAW = C.DRAW
_KIND = np.arange(N_KINDS)
IS_HTD = C.CLASS >= C.HTD_N                          # Hit the Deck cards (no colour, HTD-1.2)
IS_DEMAND = (C.CLASS == C.HTD_N) | (C.CLASS == C.HTD_C)
IS_WORD = (C.CLASS == C.CUT) | (C.CLASS == C.FLIP)
IS_COLOURED = C.COLOUR >= 0
_BIT = np.uint64(1) << np.arange(N_KINDS + 1, dtype=np.uint64)
TEN_BITS = np.uint64(int(sum(1 << k for k in range(N_KINDS) if C.PENALTY[k] == 10)))
# VALUE_BITS[v]: the number cards of value v (any colour), v = 1..5
VALUE_BITS = [np.uint64(int(sum(1 << k for k in range(N_KINDS) if C.CLASS[k] == C.NUMBER and C.VALUE[k] == v)))
              for v in range(6)]
# COLOUR_OF[k, c]: kind k is a number or word card of colour c (what counts for "colour held")
COLOUR_OF = (C.COLOUR[:, None] == np.arange(4)[None, :]).astype(np.float32)
PENALTY = C.PENALTY.astype(np.float32)


def _can_play(kind: int, top: int, demand: int, word_on_word: bool) -> bool:
    """HTD-3 (with P1, P2: an HTD-N/C on top without a demand takes anything), as the engine."""
    cls, col = C.CLASS[kind], C.COLOUR[kind]
    if demand >= 5:
        return cls in (C.NUMBER, C.CUT, C.FLIP) and col == demand - 5
    if demand >= 0:
        return cls == C.NUMBER and C.VALUE[kind] == demand + 1
    if cls >= C.HTD_N or C.CLASS[top] >= C.HTD_N:
        return True
    if col == C.COLOUR[top]:
        return True
    if cls == C.NUMBER:
        return C.CLASS[top] == C.NUMBER and C.VALUE[kind] == C.VALUE[top]
    return word_on_word and cls == C.CLASS[top]


@lru_cache(maxsize=8)
def situation_table(word_on_word: bool) -> np.ndarray:
    """(47, 38) float32: row s = the situation (s < 38: top kind s, no demand; 38 + d: demand d),
    column k = 1 when a card of kind k may be played there."""
    out = np.zeros((N_KINDS + 9, N_KINDS), dtype=np.float32)
    for s in range(N_KINDS + 9):
        top, demand = (s, -1) if s < N_KINDS else (C.HH, s - N_KINDS)
        for k in range(N_KINDS):
            out[s, k] = _can_play(k, top, demand, word_on_word)
    return out


@lru_cache(maxsize=32)
def answer_table(word_on_word: bool, players: int) -> np.ndarray:
    """(38, 38) float32 AFTER[k, j]: how likely the next seat may play a card of kind j once I play
    kind k. A number leaves itself on top; a Cut or a Flip uses up the next seat's turn (0); an
    HTD-N or HTD-C leaves its demand; after an HTD-H anything goes, unless that seat loses the
    slap race (about 1 in players-1 with like reflexes) and holds 4 more cards."""
    legal = situation_table(word_on_word)
    after = np.zeros((N_KINDS, N_KINDS), dtype=np.float32)
    for k in range(N_KINDS):
        cls = C.CLASS[k]
        if cls in (C.NUMBER,):
            after[k] = legal[k]
        elif cls == C.HTD_N:
            after[k] = legal[N_KINDS + C.VALUE[k] - 1]
        elif cls == C.HTD_C:
            after[k] = legal[N_KINDS + 5 + k - C.htd_c(0)]
        elif cls == C.HTD_H:
            after[k] = 1.0 - 1.0 / max(players - 1, 1)
    return after


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
    sizes[np.arange(len(sizes)), view.seat.astype(np.intp)] = 999
    return sizes


# ============================================================================ simple strategies

@register(GAME, "dump")
class Dump:
    """Gets rid of 10-point cards first (word and Hit the Deck cards), then the highest number.

    Never draws by choice; a drawn card that may be played is played. Ties among equal cards are
    broken at random.
    """

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

    def __init__(self, close: int = 2):
        self.close = close

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        legal = np.asarray(view.legal)
        hand = view.hand.astype(np.float32)
        threat = (opponent_sizes(view).min(axis=1) <= self.close)[:, None]
        held = hand @ COLOUR_OF                                     # (n, 4) cards per colour
        colour_score = held[:, np.maximum(C.COLOUR, 0)] * 16 + PENALTY
        score = np.empty((len(legal), N_KINDS + 1), dtype=np.float32)
        score[:, :N_KINDS] = np.where(IS_HTD, np.where(threat, 1000 + PENALTY, -500.0), colour_score)
        drawn = np.asarray(view.drawn)
        keep_htd = (drawn >= 0) & IS_HTD[np.maximum(drawn, 0)] & ~threat[:, 0]
        score[:, DRAW] = np.where(keep_htd, 0.0, -1000.0)
        return scored_choice(score, legal, rng)


@lru_cache(maxsize=8)
def _deck(rules) -> np.ndarray:
    return C.deck_counts(rules).astype(np.float32)


@register(GAME, "tactician")
class Tactician:
    """Sheds 10-point cards while its hand is long, plays the colour it holds most of, and never
    hands the seat about to go out an easy card: that seat gets a Cut or Flip (its turn used up) or
    an HTD-N/HTD-C demand it likely cannot meet.

    Every legal card gets a score: its penalty (weighted more when the hand is long or an opponent
    is short), how many of the remaining cards could follow it, minus the chance, from the cards
    not yet seen, that the next seat can answer it times how close that seat is to going out.
    A Flip is an extra turn (bonus), a Cut skips the next seat; an HTD-H (4 cards to a slow hand)
    is played early unless the next seat is nearly out; the last Hit the Deck card is kept as a
    final card that goes on anything. The argmax wins, ties at random.
    """

    def __init__(self, shed: float = 1.0, long_hand: float = 0.3, follow: float = 2.0, fear: float = 30.0,
                 flip: float = 8.0, cut: float = 2.0, slap: float = 6.0, keep_last: float = 12.0,
                 block: float = 0.0):
        self.shed, self.long_hand, self.follow, self.fear = shed, long_hand, follow, fear
        self.flip, self.cut, self.slap, self.keep_last = flip, cut, slap, keep_last
        self.threat = THREAT.copy()
        self.threat[4:] = block

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        legal = np.asarray(view.legal)
        n = len(legal)
        rows = np.arange(n)
        hand = view.hand.astype(np.float32)
        size = hand.sum(axis=1)
        opp = opponent_sizes(view)
        min_opp = opp.min(axis=1).astype(np.float32)
        nxt = next_seat(view, 1)
        nsize = view.hand_sizes[rows, nxt]
        prv = next_seat(view, -1)
        psize = view.hand_sizes[rows, prv]
        word = bool(view.rules.word_matches_word)
        sit = situation_table(word)
        # shedding: penalty points, weighted up with a long hand or a short opponent
        w_shed = self.shed + self.long_hand * np.clip(size - min_opp, 0, 8)
        score = np.zeros((n, N_KINDS + 1), dtype=np.float32)
        score[:, :N_KINDS] = w_shed[:, None] * PENALTY[None, :]
        # colour flexibility: my other cards that could follow this one
        fol = hand @ sit[:N_KINDS].T                    # (n,38): my cards legal on top k
        fol -= np.where(IS_COLOURED, 1.0, 0.0)          # the card itself
        fol = np.where(IS_COLOURED[None, :], fol, 0.0)
        score[:, :N_KINDS] += self.follow * fol
        # effects
        score[:, :N_KINDS] += np.where(C.CLASS == C.FLIP, self.flip, 0.0)[None, :]
        score[:, :N_KINDS] += np.where(C.CLASS == C.HTD_H, self.slap, 0.0)[None, :]
        # keep one Hit the Deck card as the last card (goes on anything without a demand)
        n_htd = hand @ IS_HTD.astype(np.float32)
        last_wild = (n_htd == 1) & (size <= 3)
        score[:, :N_KINDS] -= np.where(last_wild[:, None] & IS_HTD[None, :], self.keep_last, 0.0)
        # danger: the next seat answers what I leave, weighted by how close it is to going out
        threat = self.threat[np.minimum(nsize, 8)]
        hot = np.flatnonzero(threat > 0)
        if len(hot):
            unseen = np.maximum(_deck(view.rules)[None, :] - hand[hot] - view.seen[hot], 0)
            unseen /= unseen.sum(axis=1, keepdims=True) + 1e-6
            p = unseen @ answer_table(word, view.players).T        # (h,38) chance the next seat answers
            score[hot, :N_KINDS] -= (self.fear * threat[hot])[:, None] * p
            score[hot, :N_KINDS] += np.where(C.CLASS == C.CUT, self.cut * 3, 0.0)[None, :] * threat[hot, None]
        # a Flip reverses: the seat before me becomes the next one after my extra turn
        pthreat = self.threat[np.minimum(psize, 8)]
        score[:, :N_KINDS] -= np.where(C.CLASS == C.FLIP, 0.4 * self.fear, 0.0)[None, :] * pthreat[:, None]
        score[:, :N_KINDS] += np.where(C.CLASS == C.CUT, self.cut, 0.0)[None, :]
        score[:, DRAW] = -1000.0
        drawn = np.asarray(view.drawn)
        score[:, DRAW] = np.where(drawn >= 0, -1000.0, -1000.0)
        return scored_choice(score, legal, rng)


THREAT = np.array([0, 1.0, 0.35, 0.12, 0, 0, 0, 0, 0], dtype=np.float32)
