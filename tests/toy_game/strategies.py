"""The toy game's players."""
from moonshot.strategies.base import register

GAME = "toy-high-card"


@register(GAME, "high")
class High:
    """Play the higher card."""

    def play(self, view, rng):
        return view.hand.argmax(axis=1)


@register(GAME, "random")
class Random:
    """Play either card at random."""

    def play(self, view, rng):
        return rng.integers(0, 2, len(view))
