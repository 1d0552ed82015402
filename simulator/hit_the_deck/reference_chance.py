"""Chance sources for the Hit the Deck reference: every random outcome of a hand, asked one at a time.

The reference (:class:`simulator.hit_the_deck.reference.Hand`) never draws a random number itself.
It asks a chance source, so the same code both plays a hand from a numpy Generator
(:class:`RandomChance`, the distributions of RULES.md HTD-4.2, A-HTD-6, A-HTD-9, HTD-6.1, §C.14)
and replays a recorded hand from its events (:class:`RecordedChance`). The hand validates every
answer (ranges, permutations, tie sets), so a recorded answer the rules cannot give is caught there.

The questions, all asked at the moment the hand is about to write the event that carries the answer:

* ``cut_depth(n)``           k for a Cut of a draw pile of n cards (the ``cut`` event)
* ``bury_position(pile, n)`` position 1..n, counted from the top after insertion, n = pile size
                             before it (the ``bury`` event)
* ``reshuffle(cards)``       the new draw pile, top first (the ``reshuffle`` event)
* ``forgot(shouter)``        whether the shouter forgets to shout (the ``slap`` event)
* ``noticed(shouter)``       whether a forgotten shout is noticed (htd.p_notice)
* ``latencies(shouter, racers)``  {seat: ms} for the racing seats (§C.14)
* ``loser(tied)``            one seat of ``tied`` (the seats too close to call)
* ``false_slap(seat, q)``    whether ``seat`` false-slaps, q its probability (the ``false_slap`` event)
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck.cards import parse_card
from moonshot.simulator.hit_the_deck.profiles import Profile


def cut_range(n: int, rules) -> tuple[int, int]:
    """Allowed k for a draw pile of n >= 1 cards (HISTORY.md ``cut``, A-HTD-6)."""
    return (1, n) if rules.cut_exposed == "bottom_of_lifted" else (0, n - 1)


class RandomChance:
    """Outcomes drawn from ``rng`` with the RULES.md distributions; ``profiles`` per seat (§C.14)."""

    def __init__(self, rng: np.random.Generator, rules, profiles: tuple[Profile, ...]) -> None:
        self.rng, self.rules, self.profiles = rng, rules, profiles

    # HTD-4.2 step 1, A-HTD-6
    def cut_depth(self, n: int) -> int:
        lo, hi = cut_range(n, self.rules)
        if self.rules.cut_depth == "normal_half":
            k = int(np.rint(self.rng.normal(n / 2, n / 8)))
        elif self.rules.cut_depth == "uniform":
            k = int(self.rng.integers(lo, hi + 1))
        else:                                              # exact_half
            k = max(1, n // 2)
        return min(max(k, lo), hi)

    # A-HTD-9
    def bury_position(self, pile: str, n: int) -> int:
        if self.rules.bury_position == "exact_middle":
            return max(1, n // 2)
        return int(self.rng.integers(1, n + 1))

    # HTD-6.1 (C-2: a uniform random permutation)
    def reshuffle(self, cards: list[int]) -> list[int]:
        return [cards[i] for i in self.rng.permutation(len(cards))]

    # §C.14 resolve_slap_event
    def forgot(self, shouter: int) -> bool:
        return bool(self.rng.random() < self.profiles[shouter].p_forget)

    def noticed(self, shouter: int) -> bool:
        p = self.rules.p_notice
        return True if p >= 1 else bool(self.rng.random() < p)

    def latencies(self, shouter: int, racers: list[int]) -> dict[int, float]:
        out = {}
        for i in racers:
            p = self.profiles[i]
            if i == shouter:                               # self-initiated, anticipatory
                d = self.rng.normal(p.mu_self, p.sigma_self) + self.rng.exponential(p.tau_self)
            else:                                          # detect card/shout + decide
                d = self.rng.normal(p.mu, p.sigma) + self.rng.exponential(p.tau)
            if self.rng.random() < p.p_lapse:              # attention lapse
                d += self.rng.exponential(p.lapse_mean)
            m = max(0.0, self.rng.normal(p.move_mu, p.move_sd))   # reach to the pile
            out[i] = round(float(d + m), 2)                # 0.01 ms: short records, exact replays
        return out

    def loser(self, tied: list[int]) -> int:
        return tied[0] if len(tied) == 1 else tied[int(self.rng.integers(len(tied)))]

    def false_slap(self, seat: int, q: float) -> bool:
        return bool(self.rng.random() < q)


class RecordedChance:
    """Answers read back from a recorded hand's ``events`` (HISTORY.md), at the event the hand is
    about to write. Also serves as the chooser (:meth:`choose`): the recorded play or draw.

    A record that does not have the event the rules call for at that point raises BadInput naming
    the event (#i counts from 0)."""

    def __init__(self, events: list) -> None:
        if not isinstance(events, list):
            raise BadInput("events is not a list")
        self.events = events
        self.hand = None

    def bind(self, hand) -> None:
        self.hand = hand

    def _next(self, kind: str, what: str) -> list:
        i = len(self.hand.events)
        ev = self.events[i] if i < len(self.events) else None
        if not (isinstance(ev, list) and ev and ev[0] == kind):
            shown = "the end of the events" if ev is None else repr(ev)
            raise BadInput(f"event #{i} is {shown}, but the rules call for {what} here")
        return ev

    def _peek(self) -> list | None:
        i = len(self.hand.events)
        return self.events[i] if i < len(self.events) else None

    def cut_depth(self, n: int) -> int:
        ev = self._next("cut", "a cut")
        _arity(ev, 4)
        return _int(ev[2], "cut depth")

    def bury_position(self, pile: str, n: int) -> int:
        ev = self._next("bury", f"a burial into the {pile} pile")
        _arity(ev, 4)
        return _int(ev[2], "bury position")

    def reshuffle(self, cards: list[int]) -> list[int]:
        ev = self._next("reshuffle", "a reshuffle")
        _arity(ev, 2)
        if not isinstance(ev[1], list):
            raise BadInput(f"reshuffle {ev!r} does not list its cards")
        return [parse_card(c) for c in ev[1]]

    def forgot(self, shouter: int) -> bool:
        ev = self._next("slap", f"a slap shouted by seat {shouter}")
        _arity(ev, 5)
        if not isinstance(ev[2], bool):
            raise BadInput(f"slap {ev!r}: shouted is not true or false")
        return not ev[2]

    def noticed(self, shouter: int) -> bool:
        ev = self._next("slap", "a slap")
        return ev[4] is not None

    def latencies(self, shouter: int, racers: list[int]) -> dict[int, float]:
        ev = self._next("slap", "a slap")
        lat = ev[3]
        if not isinstance(lat, list) or len(lat) != self.hand.players:
            raise BadInput(f"slap {ev!r}: latencies is not a list with one entry per seat")
        out = {}
        for seat, x in enumerate(lat):
            if (x is None) != (seat not in racers):
                raise BadInput(f"slap {ev!r}: seat {seat} {'races' if seat in racers else 'takes no part'}, "
                               f"so its latency must be {'a number' if seat in racers else 'null'}")
            if x is not None:
                if isinstance(x, bool) or not isinstance(x, (int, float)):
                    raise BadInput(f"slap {ev!r}: latency {x!r} is not a number")
                out[seat] = x
        return out

    def loser(self, tied: list[int]) -> int:
        ev = self._next("slap", "a slap")
        return ev[4]

    def false_slap(self, seat: int, q: float) -> bool:
        ev = self._peek()
        return isinstance(ev, list) and ev[:1] == ["false_slap"] and ev[1:] == [seat]

    def choose(self, view, legal) -> int:
        """The recorded ``play`` (its card) or ``draw`` (DRAW) at this point; a ``pass`` after an
        optional drawn card means it was kept (DRAW)."""
        from moonshot.simulator.hit_the_deck.cards import DRAW
        ev = self._peek()
        if isinstance(ev, list) and ev[:1] == ["reshuffle"]:     # a voluntary draw's reshuffle
            i = len(self.hand.events) + 1
            ev = self.events[i] if i < len(self.events) else None
            if not (isinstance(ev, list) and ev[:2] == ["draw", view.seat]):
                ev = self._peek()
        if isinstance(ev, list) and len(ev) == 3 and ev[0] == "play" and ev[1] == view.seat:
            return parse_card(ev[2])
        if isinstance(ev, list) and ev[:2] in (["draw", view.seat], ["pass", view.seat]):
            return DRAW
        i = len(self.hand.events)
        shown = "the end of the events" if ev is None else repr(ev)
        raise BadInput(f"event #{i} is {shown}, but seat {view.seat} is to play here")


def _arity(ev: list, n: int) -> None:
    if len(ev) != n:
        raise BadInput(f"event {ev!r} has {len(ev)} elements; a {ev[0]} event has {n}")


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what} {value!r} is not an integer")
    return value
