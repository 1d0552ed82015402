"""Shoot the Moon strategies. Each `play(view, rng)` returns one card slot (0..4) per game.

`view` is a views.PlayView: the mover's hand, the legal mask, the trick so far, the cards
seen this round, tricks and chips per side. Nothing hidden is in it. The built-in strategies
work on the view's slot bit masks (player hands are sorted cheapest card first, so the lowest
set bit is the cheapest card), which keeps them as fast as the engine.
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.batch import HIGHEST, LOWEST
from moonshot.simulator.shoot_the_moon import cards
from moonshot.simulator.shoot_the_moon.engine import UNIFORM_FLAT, UNIFORM_R
from moonshot.simulator.shoot_the_moon.views import PlayView
from moonshot.strategies.base import register

GAME = "shoot-the-moon"


def beating(view: PlayView) -> np.ndarray:
    """Mask of legal slots whose card beats the trick so far (position > 0)."""
    base = view.lead_class.astype(np.intp) * cards.DECK_SIZE
    hand, best = view.hand, view.best
    strength = view.table.strength.reshape(-1)
    mask = np.zeros(len(hand), dtype=np.uint8)
    for i in range(cards.HAND_SIZE):     # column by column: much faster than a reduction over a 5-wide axis
        mask |= (strength[base + hand[:, i]] > best).view(np.uint8) << i
    return mask & view.legal_bits


# HIGH12[m]: number (1..12) of the highest red in the 12-bit mask m, 0 if empty.
HIGH12 = np.array([m.bit_length() for m in range(4096)], dtype=np.uint16)


@register(GAME, "random")
class RandomPlay:
    """Plays a uniformly random legal card.

    The baseline every other strategy should beat.
    """

    adapts_to = ()                       # uniform over the legal cards, whatever the rules

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        r = rng.integers(0, UNIFORM_R, len(view), dtype=np.int16)
        return UNIFORM_FLAT[view.legal_bits.astype(np.int16) * UNIFORM_R + r]


@register(GAME, "greedy")
class Greedy:
    """Win every trick it can as cheaply as possible, else discard the lowest card.

    Leads its strongest card; when following plays the cheapest card that beats the trick so far,
    and when nothing beats it throws the lowest (a Little Moon first, red cards last).
    """

    adapts_to = ("stm.little_moon_lead_trumps",)     # what beats a trick: the table's strength (beating)

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        legal = view.legal_bits
        if view.position == 0:
            return HIGHEST[legal]
        beats = beating(view)
        return np.where(beats != 0, LOWEST[beats], LOWEST[legal])


@register(GAME, "odd")
class OddPlanner:
    """Aim for an odd trick count, or all five when the sure winners in hand reach that far.

    With an even count so far it tries to win the trick (cheapest winner, a Big Moon only when no
    other card wins it); with an odd count it ducks, leading a Little Moon or its lowest card and
    shedding its highest card that still loses. Little Moons go onto tricks an opponent is winning,
    never onto its partner's. Partnerships count the team's tricks.
    """

    # what beats a trick (the table's strength) and an open dummy; not the target, chips or scoring
    adapts_to = ("stm.little_moon_lead_trumps", "stm.dummy_mode")

    def __init__(self, shoot: bool = True):
        self.shoot = shoot

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        n = len(view)
        legal, big, little = view.legal_bits, view.big_bits, view.little_bits
        side = view.side
        mine = view.side_tricks
        left = cards.TRICKS - view.trick_no
        big_live = big & view.live_bits
        sure = self._sure_reds(view) + _popcount(big_live)
        want_all = (mine == view.trick_no) & (sure >= left) if self.shoot else np.zeros(n, bool)
        want_win = want_all | (mine % 2 == 0)
        plain = legal & ~big & ~little
        if view.position == 0:
            # To win: a sure red (the highest non-moon card) before spending a Big Moon.
            top_plain = HIGHEST[plain]
            use_red = (plain != 0) & (sure > _popcount(big_live))
            lead_win = np.where(use_red, top_plain, HIGHEST[legal])
            # To duck: a Little Moon can never win; else the cheapest card.
            duck = np.where(legal & little, LOWEST[legal & little], LOWEST[np.where(plain, plain, legal)])
            choice = np.where(want_win, lead_win, duck)
        else:
            beats = beating(view)
            loses = legal & ~beats
            partner_winning = (view.winning_side == side) & (side >= 0)
            lm_on_them = ((legal & little) != 0) & ~partner_winning & (side >= 0)
            safe_loser = loses & ~little
            not_little = legal & ~little
            fallback = np.where(not_little, LOWEST[not_little], LOWEST[legal])   # a Little Moon only if forced
            low_safe = np.where(safe_loser, LOWEST[safe_loser], fallback)
            dump = np.where(lm_on_them, LOWEST[legal & little], low_safe)
            cheap_win = beats & ~big
            win = np.where(cheap_win, LOWEST[cheap_win], np.where(beats, LOWEST[beats], dump))
            win = np.where(partner_winning & ~want_all, low_safe, win)
            shed = np.where(safe_loser, HIGHEST[safe_loser], np.where(cheap_win, LOWEST[cheap_win], fallback))
            duck = np.where(lm_on_them, dump, shed)
            choice = np.where(want_win, win, duck)
        if view.table.dummy is not None:
            choice = np.where(side < 0, LOWEST[legal], choice)   # open dummy: throw low
        return choice.astype(np.intp)

    @staticmethod
    def _sure_reds(view: PlayView) -> np.ndarray:
        """Red cards in hand above every red still unseen outside the hand (public + own knowledge)."""
        seen, mine = view.reds_played, view.red_dealt
        outside = ~(seen | mine) & 0xFFF
        live_reds = mine & ~seen
        return _popcount(live_reds >> HIGH12[outside])


def _popcount(mask: np.ndarray) -> np.ndarray:
    return np.bitwise_count(mask).astype(np.int8)


