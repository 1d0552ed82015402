"""Trick play (MOON-6, MOON-7; A-MOON-10/11): the 7 tricks of hands that have a contract.

Per step the mover's legal slots come from suit masks: 8 bytes per row, byte b the slot mask of
the row's tiles in suit b under the hand's trump (b = 0..6 the number suits; b = 7 the trump suit,
or the doubles suit in no-trump with moon.notrump_doubles=own_suit; both never occur together),
built once per hand from Table.suit_words. A follower must play from the led suit's byte if it
is not empty (MOON-6.3); the highest POWER wins the trick (MOON-7.1) and leads the next.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.batch import CLEAR, as_choice, ask, groups, illegal
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.engine.play_state import LazyPlayView, PlayState, Step
from moonshot.simulator.moon.engine.rows import bools7, padded, rows_of
from moonshot.simulator.moon.engine.table import HAND, NOTRUMP, TILE_STRIDE, TRICKS, Table, suit_trump, tile_trump
from moonshot.simulator.moon.views import PlayView

SUIT_BYTE = np.minimum(np.arange(tiles.N_SUITS), 7).astype(np.intp)      # suit id -> byte of the suit masks
TRUMP_BYTE = 7


@dataclass
class PlayResult:
    """Batch-first arrays; they may be transposed views (C-order (7P, n) storage seen as (n, 7P))."""
    tricks_seat: np.ndarray     # (n,P) int8 tricks won per seat
    tricks: np.ndarray          # (n,S) int8 tricks won per side
    play_seats: np.ndarray      # (n,7P) int8 seat of each play, in order
    play_tiles: np.ndarray      # (n,7P) int8 tile of each play
    called_ends: np.ndarray     # (n,7) int8 end named for each trick's lead (leader_calls_end), else -1
    trick_winners: np.ndarray   # (n,7) int8 seats
    legal_trace: list = field(default_factory=list)   # per step: (seat (n,), legal tiles (n,7), -1 = illegal)

    UNPLAYED = {"tricks_seat": 0, "tricks": 0, "play_seats": -1, "play_tiles": -1, "called_ends": -1,
                "trick_winners": -1}       # what the row of a hand not played holds

    def spread(self, games: np.ndarray | None, n: int) -> "PlayResult":
        """This result of `games` (simulator.batch: None = all) as rows of a batch of n games;
        the other rows are hands not played (UNPLAYED; trace rows -1)."""
        if games is None:
            return self
        m = len(games)
        column = np.full(n, m, dtype=np.intp)      # column of each game in (k, m+1) [played | filler]
        column[games] = np.arange(m)
        full = {}
        for name, fill in self.UNPLAYED.items():
            part = getattr(self, name)             # (m, k) views of C-order (k, m) storage
            ext = np.full((part.shape[1], m + 1), fill, dtype=np.int8)
            ext[:, :m] = part.T
            full[name] = np.take(ext, column, axis=1).T          # a gather per row, C-order (k, n) again
        trace = []
        for seat_t, legal_t in self.legal_trace:
            s_full = np.full(n, -1, dtype=np.int8)
            l_full = np.full((n, HAND), -1, dtype=np.int8)
            s_full[games], l_full[games] = seat_t, legal_t
            trace.append((s_full, l_full))
        return PlayResult(**full, legal_trace=trace)


def play_tricks(table: Table, hands7: np.ndarray, bidder: np.ndarray, bid: np.ndarray, trump: np.ndarray,
                strategies: Sequence, rng: np.random.Generator, scores: np.ndarray | None = None,
                trace: bool = False, discard: np.ndarray | None = None) -> PlayResult:
    """Play the 7 tricks (MOON-6, MOON-7) of hands that have a contract (every bidder >= 0).

    The bidder leads the first trick (with moon.first_lead_trump a trump if it holds one); each
    trick's winner leads the next. `discard` (optional) is shown to the bidder as PlayView.discard.
    """
    return play_rows(table, padded(hands7), bidder, bid, trump, groups(strategies), rng, scores, trace, discard)


def play_rows(table: Table, rows8: np.ndarray, bidder, bid, trump, strategy_groups, rng, scores=None,
              trace=False, discard=None) -> PlayResult:
    """play_tricks on padded rows (rows.py), for the strategy groups of simulator.batch. No game,
    no question: an empty batch asks no strategy."""
    rules, P, S = table.rules, table.players, table.n_sides
    N = len(bidder)
    bidder = np.asarray(bidder).astype(np.intp)
    if N and bidder.min() < 0:
        raise ValueError("play_tricks needs a contract in every game (bidder >= 0)")
    trump_i = np.asarray(trump).astype(np.intp)
    if N and not table.allowed_trumps[trump_i].all():
        raise ValueError("play_tricks needs an allowed trump in every game")
    scores = np.zeros((N, S), dtype=np.int16) if scores is None else np.asarray(scores)
    discard = np.full(N, -1, dtype=np.int8) if discard is None else np.asarray(discard, dtype=np.int8)
    st = PlayState(table, rows8, bidder, np.asarray(bid).astype(np.int8), trump_i, scores, discard)
    tiles_flat, live = st.tiles_flat, st.live
    play_tiles, play_seats = st.play_tiles, st.play_seats
    masks = _suit_masks(table, rows8, trump_i)
    power_flat = table.power_flat
    next_seat = np.roll(np.arange(P), -1)
    row_base = np.arange(N) * P
    called_ends = np.full((TRICKS, N), -1, dtype=np.int8)
    none = np.full(N, -1, dtype=np.int8)
    legal_trace = []
    leader = bidder
    led_byte = led8 = win_seat = best = called8 = led_trump = None    # each trick's lead (k == 0) sets them
    tricks_to_play = TRICKS if N else 0                              # no game, no question
    for t in range(tricks_to_play):
        stopping.check()           # a cancelled run ends here (a search player's chunk lasts a minute)
        seat = leader
        for k in range(P):
            j = t * P + k
            if k:
                seat = next_seat[seat]
            row = row_base + seat
            row8 = row << 3
            mine = live[row]
            if k == 0:
                legal = mine
                if t == 0 and rules.first_lead_trump:        # A-MOON-10
                    trumps = masks[row8 + TRUMP_BYTE] & mine
                    trumps[trump_i == NOTRUMP] = 0            # byte 7 is the doubles suit in no-trump
                    legal = np.where(trumps, trumps, mine)
                step = Step(t, k, seat, row, legal, none, none, none, none)
            else:
                on = masks[row8 + led_byte] & mine            # MOON-6.3: follow the led suit if able
                legal = np.where(on, on, mine)
                step = Step(t, k, seat, row, legal, led8, win_seat, best, called8)
            if trace:
                legal_trace.append((seat.astype(np.int8),
                                    np.where(bools7(legal), rows_of(st.words, row), -1).astype(np.int8)))
            view = LazyPlayView(st, step)
            slot = ask(strategy_groups, "play", view, seat, rng, _check_play)
            tile8 = tiles_flat[row8 + slot]
            tile = tile8.astype(np.intp)
            if k == 0:
                led = _led_suit(table, tile, trump_i, called_ends[t], strategy_groups, view, seat, slot, rng)
                called8 = called_ends[t]
                led8 = led.astype(np.int8)
                st.led[t] = led8
                led_byte = SUIT_BYTE[led]
                led_trump = suit_trump(led, trump_i)                 # this trick's part of a POWER index
                best = power_flat[tile * TILE_STRIDE + led_trump]     # MOON-7.1
                win_seat = seat.astype(np.int8)
            else:
                power = power_flat[tile * TILE_STRIDE + led_trump]
                better = power > best
                best = np.where(better, power, best)
                win_seat = np.where(better, seat, win_seat).astype(np.int8)
            live[row] = mine & CLEAR[slot]
            play_tiles[j] = tile8
            play_seats[j] = seat
            st.n_played = j + 1
        st.winners[t] = win_seat                                     # MOON-7.3
        leader = win_seat.astype(np.intp)
    tricks_seat = np.empty((P, N), dtype=np.int8)
    for s in range(P):
        tricks_seat[s] = (st.winners == s).sum(axis=0)
    if S == P:
        tricks = tricks_seat.copy()
    else:
        tricks = np.zeros((S, N), dtype=np.int8)
        for s in range(P):
            tricks[table.side_of_seat[s]] += tricks_seat[s]
    # batch-first views of the transposed arrays (no copy)
    return PlayResult(tricks_seat.T, tricks.T, play_seats.T, play_tiles.T, called_ends.T, st.winners.T, legal_trace)


def _suit_masks(table: Table, rows8: np.ndarray, trump_i: np.ndarray) -> np.ndarray:
    """(N*P*8,) uint8: byte r*8 + b is the slot mask of row r's tiles in suit byte b (module docstring)."""
    trump_base = np.repeat(trump_i * tiles.N_TILES, table.players)       # index of suit_words[slot]: trump*28 + tile
    word = np.zeros(len(rows8), dtype=np.uint64)
    for i in range(HAND):
        index = rows8[:, i].astype(np.intp)
        index += trump_base
        word |= table.suit_words[i][index]
    return word.view(np.uint8)


def _led_suit(table: Table, tile, trump_i, called_end, strategy_groups, view, seat, slot, rng) -> np.ndarray:
    """(N,) intp: the suit each lead asks for (MOON-2.4). Under moon.lead_suit_rule=leader_calls_end
    a non-double non-trump lead's suit is the end its leader names (A-MOON-11), written to
    `called_end` (-1 elsewhere)."""
    tt = tile_trump(tile, trump_i)
    led = table.led_flat[tt]
    if table.rules.lead_suit_rule != "leader_calls_end":
        return led
    need = table.needs_call_flat[tt]
    end = np.where(need, tiles.HIGH[tile], -1).astype(np.intp)
    idx = np.flatnonzero(need)
    if len(idx):
        end[idx] = _call_ends(strategy_groups, view, seat, slot, idx, rng)
    called_end[:] = end
    return np.where(need, end, led)


def _call_ends(strategy_groups, view: LazyPlayView, seat, slot, idx, rng) -> np.ndarray:
    """A-MOON-11: the leader names the suit of a non-double non-trump lead; a strategy without
    call_end names the higher end."""
    sub = view.take(idx)
    chooser, slots = seat[idx], slot[idx]
    out = tiles.HIGH[sub.hand[np.arange(len(idx)), slots]].astype(np.intp)
    for strat, seats in strategy_groups:
        mine = np.flatnonzero(np.isin(chooser, seats)) if len(strategy_groups) > 1 else np.arange(len(idx))
        if not len(mine) or not callable(getattr(strat, "call_end", None)):
            continue
        part = sub if len(strategy_groups) == 1 else sub.take(mine)
        out[mine] = _check_end(strat, part, strat.call_end(part, slots[mine], rng), slots[mine])
    return out


def _check_play(strat, view: PlayView, choice) -> np.ndarray:
    c = as_choice(choice, len(view))
    ok = c is not None and bool(((c >= 0) & (c < HAND)).all())
    if ok:
        ok = bool(((view.legal_bits >> c.astype(np.uint8)) & 1).all())
    if not ok:
        raise illegal(strat, "play", "one tile slot 0..6 per game where view.legal is True")
    return c.astype(np.intp, copy=False)


def _check_end(strat, view: PlayView, choice, slot) -> np.ndarray:
    c = as_choice(choice, len(view))
    ok = c is not None
    if ok:
        tile = view.hand[np.arange(len(view)), slot]
        ok = bool(((c == tiles.HIGH[tile]) | (c == tiles.LOW[tile])).all())
    if not ok:
        raise illegal(strat, "end call", "one end number per game, either end of the led tile")
    return c.astype(np.intp, copy=False)
