"""The table (players, rules, per-seat reaction profiles) and the lookup tables the engine uses.

Legal plays are one uint64 bit mask per "situation" (bit k = card kind k may be played):
  LEGAL[s]  s = 0..37   the top card's kind with no demand pending (HTD-3.1; an HTD-N or HTD-C
                        on top with no demand only happens for an ignored start card, P2, and
                        then takes any card, like an HTD-H)
            s = 38 + d  demand d pending (d = 0..4 Number(d+1), 5..8 Colour(d-5); HTD-3.2/3.3)
A hand is a presence mask too (bit k = holds at least one k), so legal = hand & LEGAL[s].
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.profiles import Profile, seat_profiles
from moonshot.simulator.hit_the_deck.rules import Rules, check_players, memory_model

N_KINDS = cards.N_KINDS
DRAW = cards.DRAW
N_SITUATIONS = N_KINDS + cards.N_DEMANDS      # a top card with no demand, or one of the 9 demands
KIND_BIT = (np.uint64(1) << np.arange(N_KINDS + 1, dtype=np.uint64))     # KIND_BIT[DRAW] = the DRAW bit
DRAW_BIT = KIND_BIT[DRAW]


def legal_kinds(top: int, demand: int, rules: Rules) -> list[int]:
    """The kinds playable on `top` under `demand` (RULES.md HTD-3, P1, P2), as a list."""
    out = []
    for k in range(N_KINDS):
        cls, col = int(cards.CLASS[k]), int(cards.COLOUR[k])
        if demand >= 0:
            ok = (cls == cards.NUMBER and cards.VALUE[k] == demand + 1) if demand < cards.COLOUR_DEMAND \
                else (col == demand - cards.COLOUR_DEMAND)
        elif (cards.CLASS[top] in (cards.HTD_H, cards.HTD_N, cards.HTD_C)
              or cls in (cards.HTD_N, cards.HTD_C, cards.HTD_H)):
            ok = True
        elif cls == cards.NUMBER:
            ok = col == cards.COLOUR[top] or (cards.CLASS[top] == cards.NUMBER and cards.VALUE[k] == cards.VALUE[top])
        else:                                   # a word card: its colour, or (P1) the same word
            ok = col == cards.COLOUR[top] or (rules.word_matches_word and cls == cards.CLASS[top])
        if ok:
            out.append(k)
    return out


def legal_table(rules: Rules) -> np.ndarray:
    table = np.zeros(N_SITUATIONS, dtype=np.uint64)
    for s in range(N_SITUATIONS):
        top, demand = (s, -1) if s < N_KINDS else (cards.HH, s - N_KINDS)
        for k in legal_kinds(top, demand, rules):
            table[s] |= KIND_BIT[k]
    return table


@dataclass(frozen=True)
class Table:
    """Who sits where and under which rules; profiles per seat (default: htd.reaction for all)."""
    players: int
    rules: Rules = field(default_factory=Rules)
    profiles: tuple = None          # tuple[Profile] per seat

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.profiles is None:
            object.__setattr__(self, "profiles", seat_profiles([], self.players, default=self.rules.reaction))
        if len(self.profiles) != self.players or not all(isinstance(p, Profile) for p in self.profiles):
            raise BadInput(f"profiles: one Profile per seat needed, {self.players} seats")

    @cached_property
    def side_of_seat(self) -> np.ndarray:
        """Every seat is its own side (no partnerships in Hit the Deck)."""
        return np.arange(self.players, dtype=np.int8)

    @property
    def n_sides(self) -> int:
        return self.players

    # ------------------------------------------------------------------ rules tables
    @cached_property
    def legal(self) -> np.ndarray:
        """(47,) uint64 LEGAL[situation] (module docstring)."""
        return legal_table(self.rules)

    @cached_property
    def deck(self) -> np.ndarray:
        """(110,) int8 the deck's kinds, sorted."""
        return np.array(cards.deck_list(self.rules), dtype=np.int8)

    @cached_property
    def deck_counts(self) -> np.ndarray:
        return cards.deck_counts(self.rules).astype(np.int16)

    @cached_property
    def memory(self) -> tuple[str, float | None]:
        return memory_model(self.rules.memory)

    # ------------------------------------------------------------------ reaction tables (§C.14)
    @cached_property
    def off(self) -> np.ndarray:
        return np.array([p.off for p in self.profiles], dtype=bool)

    def param(self, name: str) -> np.ndarray:
        """(P,) float64 one profile parameter per seat (0 for `off` seats)."""
        return np.array([0.0 if p.off else float(getattr(p, name)) for p in self.profiles])

    @cached_property
    def reaction(self) -> dict[str, np.ndarray]:
        from moonshot.simulator.hit_the_deck.profiles import PARAMS
        return {name: self.param(name) for name in PARAMS}

    @cached_property
    def q(self) -> np.ndarray:
        """(P,3) false-slap probability per seat by SLAP_KIND (0 number, 1 word, 2 HTD-N/C);
        htd.announce_htd_cards multiplies q_htd by htd.announce_factor (P5)."""
        r = self.reaction
        htd = r["q_htd"] * (self.rules.announce_factor if self.rules.announce_htd_cards else 1.0)
        return np.stack([r["q_number"], r["q_word"], htd], axis=1)

    @cached_property
    def false_slap_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """(ANY, COND): ANY[actor, kind] = P(somebody false-slaps) = 1 - prod over i != actor of
        (1 - q[i, kind]); COND[actor, kind, j] for j = 1..P-1 (seat actor+j): P(that seat slaps |
        nobody before it in seat order from the actor's left did, and somebody from it on does).
        Drawing "anybody?" first and then seat by seat with COND gives exactly independent
        Bernoulli(q) draws per seat, at one uniform per card event in the common case."""
        P, q = self.players, self.q
        any_ = np.zeros((P, 3))
        cond = np.zeros((P, 3, P))
        for a in range(P):
            for kind in range(3):
                qs = [q[(a + j) % P, kind] for j in range(1, P)]
                any_[a, kind] = 1 - np.prod([1 - x for x in qs])
                for j in range(1, P):
                    rest = 1 - np.prod([1 - x for x in qs[j - 1:]])
                    cond[a, kind, j] = qs[j - 1] / rest if rest > 0 else 0.0
        return any_, cond
