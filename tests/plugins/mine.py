"""Example user strategies loaded with --strategy SEAT=tests/plugins/mine.py:Class."""
import numpy as np


class LowestCard:
    """Always plays the lowest legal slot."""

    def play(self, view, rng):
        return np.argmax(view.legal, axis=1)


class Cheater:
    """Plays slot 0 whether or not it is legal."""

    def play(self, view, rng):
        return np.zeros(len(view), dtype=np.int64)
