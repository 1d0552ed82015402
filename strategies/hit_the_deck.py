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
