"""What a Shoot the Moon strategy is shown: the PlayView, one per play step of a batch.

Strategies never see the engine state, only this view: no other hand is in it (except a face-up
dummy in the open-dummy variant). A strategy answers

    play(view: PlayView, rng) -> (n,) card slot 0..4 of the mover's hand, where view.legal is True

and the engine checks the answer and names the strategy in the error otherwise.
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from moonshot.simulator.batch import BITS
from moonshot.simulator.shoot_the_moon import cards as deck

# What a trick's lead asks for: suit 0..3 for a numbered card, 4 after a Big Moon, 5 after a Little Moon.
LEAD_BIG, LEAD_LITTLE = 4, 5
LEAD_CLASS = np.where(deck.IS_BIG, LEAD_BIG, np.where(deck.IS_LITTLE, LEAD_LITTLE, deck.SUIT)).astype(np.intp)
BITS5 = np.ascontiguousarray(BITS[:1 << deck.HAND_SIZE, :deck.HAND_SIZE])   # 5-slot mask -> (5,) bools


class PlayView:
    """What the seat to move may know, for n games all at the same trick and position.

    Arrays are computed on first use from the engine's round state (engine.RoundState) and the
    step being played. Card slots are 0..4; bit masks have bit i set for slot i.
      seat, side (n,)          mover (the dummy is seat `players`, side -1)
      hand (n,5)               mover's cards (ids); live/legal (n,5) bool and live_bits/legal_bits
      big_bits, little_bits    slots holding a Big / Little Moon
      trick (n,H)              cards played to this trick in order, -1 not yet
      best (n,)                strength to beat (position > 0), winning_side (n,)
      seen (n,52)              cards played this round;  tricks, chips (n,S) per side
      play_seats, play_cards   (n,5H) the round's plays in order, seat and card, -1 not yet played:
                               every card is turned face up (A.13), the blind dummy's too; read-only
      side_tricks (n,)         tricks the mover's side has won this round
      reds_played, red_dealt   (n,) uint16, bit r = red card r+1 played this round / dealt to the mover
    """

    def __init__(self, table, trick_no: int, position: int, state, step: dict, rows: np.ndarray | None = None):
        self.table, self.trick_no, self.position = table, trick_no, position
        self._state, self._step, self._rows = state, step, rows

    def _sel(self, a: np.ndarray) -> np.ndarray:
        return a if self._rows is None else a[self._rows]

    def take(self, idx: np.ndarray) -> "PlayView":
        rows = idx if self._rows is None else self._rows[idx]
        return PlayView(self.table, self.trick_no, self.position, self._state, self._step, rows)

    def __len__(self) -> int:
        return len(self.seat)

    @cached_property
    def seat(self): return self._sel(self._step["seat"])
    @cached_property
    def side(self): return self.table.side_of_seat[self.seat]
    @cached_property
    def _row(self): return self._sel(self._step["row"])
    @cached_property
    def legal_bits(self): return self._sel(self._step["legal"])
    @cached_property
    def live_bits(self): return self._state.live[self._row]
    @cached_property
    def big_bits(self): return self._state.big_bits[self._row]
    @cached_property
    def little_bits(self): return self._state.little_bits[self._row]
    @cached_property
    def hand(self): return self._state.words[self._row].view(np.int8).reshape(-1, 8)[:, :deck.HAND_SIZE]
    @cached_property
    def legal(self): return BITS5[self.legal_bits]
    @cached_property
    def live(self): return BITS5[self.live_bits]
    @cached_property
    def trick(self): return self._sel(self._state.trick)
    @cached_property
    def seen(self):
        played = self._sel(self._state.play_cards[:, :self._state.n_played])
        seen = np.zeros((len(played), deck.DECK_SIZE), dtype=bool)
        np.put_along_axis(seen, played.astype(np.intp), True, axis=1)
        return seen
    @cached_property
    def play_seats(self): return _read_only(self._sel(self._state.play_seats))
    @cached_property
    def play_cards(self): return _read_only(self._sel(self._state.play_cards))
    @cached_property
    def tricks(self): return self._sel(self._state.tricks)
    @cached_property
    def chips(self): return self._sel(self._state.chips)
    @cached_property
    def dealer(self): return self._sel(self._state.dealer)
    @cached_property
    def red_dealt(self): return self._state.red_dealt[self._row]
    @cached_property
    def reds_played(self): return self._sel(self._state.reds_played)
    @cached_property
    def side_tricks(self):
        """(n,) tricks the mover's side has won this round (0 for the dummy)."""
        st = self._state
        games = np.arange(st.N) if self._rows is None else self._rows
        return st.tricks.reshape(-1)[games * st.tricks.shape[1] + np.maximum(self.side, 0)]
    @cached_property
    def best(self): return self._sel(self._step["best"])
    @cached_property
    def winning_side(self): return self.table.side_of_seat[self._sel(self._step["win_seat"])]
    @cached_property
    def lead_class(self): return LEAD_CLASS[self.trick[:, 0]]

    @cached_property
    def dummy_hand(self) -> np.ndarray | None:
        """Open-dummy variant only: the face-up dummy's cards, -1 where played."""
        t = self.table
        if t.dummy is None or t.rules.dummy_mode == "blind_stack":
            return None
        rows = self._sel(np.arange(self._state.N)) * self._state.H + t.dummy
        return np.where(BITS5[self._state.live[rows]], self._state.rows[rows], -1)

    def card_strength(self, cards: np.ndarray) -> np.ndarray:
        """Strength of `cards` (n,k) in this trick (as a lead when position == 0); higher wins."""
        lead = LEAD_CLASS[cards] if self.position == 0 else self.lead_class[:, None]
        return self.table.strength[lead, cards]


def _read_only(a: np.ndarray) -> np.ndarray:
    """A view of the engine's record that a strategy cannot write into."""
    out = a.view()
    out.flags.writeable = False
    return out
