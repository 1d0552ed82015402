"""The batch state of hands in progress and the pile and hand operations on it.

Rows are games (compacted to the unfinished ones now and then; `gid` maps a row to its game).
Encodings (R rows, P seats):
  hand     (R, P, 38) int8    copies of each kind held
  hbits    (R, P) uint64      presence mask: bit k set when hand[r, p, k] > 0
  size     (R, P) int16       cards held
  draw     (R, 110) int8      the draw pile, bottom first: draw[r, dn-1] is the top card
  dn       (R,) int16         cards in the draw pile
  disc     (R, 110) int8      the discard pile, bottom first: disc[r, sn-1] is the top card
  sn       (R,) int16         cards in the discard pile
  dstamp, sstamp (R, 110)     per pile position, when that card went public onto the discard pile
                              (the value of `seq` then), -1 when its place in the pile is not known
                              (dealt, reshuffled, below a burial); what memory (§C.10) works from;
                              (R, 0) when no strategy at the table reads them (every seat `random`:
                              they were 40% of a row's bytes, and much of what a flip's pile moves cost)
  seq      (R,) int32         public discard events so far this hand (the next stamp)
  demand   (R,) int8          -1 none, 0..4 Number(v+1), 5..8 Colour(c)
  dirn     (R,) int8          +1 clockwise, -1
  cur      (R,) int8          the seat who acts next;  phase (R,) int8 what it does (TURN/CUT/FLIP/DONE)
  turns    (R,) int16         HTD-6.5 turns;  quiet (R,) int16 HTD-6.4 quiet stretch
  key, ctr (R,) uint64/uint32 chance key and chance-event counter (keyed_chance.py)
  out      (R,) int8          seat that went out, -1;  blocked, maxed (R,) bool (HTD-6.4 / HTD-6.5)
  seen     (R, 38) int16      card events by kind this hand (PlayView.seen)
  pen      (R, P, 3) int16    penalty cards received by cause (0 slap, 1 forgot, 2 false slap)
  shouts, lost, forgot, fslaps (R, P) int16   slap events shouted, races lost, shouts forgotten,
                              false slaps made
  lacks, fresh (R, P)         kinds each seat showed it lacks, cards it took since (PlayView.lacks)
  held     (R, P, 38) int8    copies each seat is known to hold: drawn from a draw-pile place whose
                              card had gone public (stamp >= 0), less one per copy of that kind it
                              played since (a lower bound; PlayView.held shows it under perfect memory);
                              (R, P, 0) unless a strategy at the table reads it
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck.engine import keyed_chance
from moonshot.simulator.hit_the_deck.engine.kernels import count_kinds, hand_points
from moonshot.simulator.hit_the_deck.engine.table import KIND_BIT, N_KINDS, Table

PILE = deck.DECK_SIZE          # a pile's room: the whole deck can lie in one pile
TURN, CUT, FLIP, DONE = 0, 1, 2, 3
SLAP, FORGOT, FALSE_SLAP = 0, 1, 2            # penalty causes
CAUSES = ("slap", "forgot", "false_slap")
COLS = np.arange(PILE, dtype=np.int16)
PENALTY16 = deck.PENALTY.astype(np.int16)


def counts(hands: np.ndarray) -> np.ndarray:
    """(n, P, k) kinds -> (n, P, 38) int8 copies per kind."""
    n, P, k = hands.shape
    out = np.zeros((n * P, N_KINDS), dtype=np.int8)
    count_kinds(np.ascontiguousarray(hands, dtype=np.int8).reshape(n * P, k), out)
    return out.reshape(n, P, N_KINDS)


class Log:
    """Record mode: events as arrays per emission, turned into HISTORY.md lists at the end.

    Each entry is (code, gids (m,), fields...) with one value per row; `events(n)` assembles the
    per-hand lists (the only Python loop over hands, and only in record mode)."""

    def __init__(self, on: bool):
        self.on = on
        self.entries: list = []
        self.decisions: list = []

    def __call__(self, code: str, gids, *fields) -> None:
        if self.on and len(gids):
            self.entries.append((code, np.array(gids), [np.array(f) if isinstance(f, np.ndarray) else f
                                                        for f in fields]))


class State:
    ARRAYS = ("gid", "hand", "hbits", "size", "draw", "dn", "disc", "sn", "dstamp", "sstamp", "seq",
              "demand", "dirn", "cur", "phase", "turns", "quiet", "key", "ctr", "out", "blocked", "maxed",
              "seen", "pen", "shouts", "lost", "forgot", "fslaps", "scores", "dealer", "lacks", "fresh", "held")

    def __setattr__(self, name, value) -> None:
        # kernels.arrays keeps the arrays as the kernels take them: rebuilt once any is replaced
        self.__dict__.pop("kernel_arrays", None)
        object.__setattr__(self, name, value)

    def __init__(self, table: Table, hands7: np.ndarray, draw_top_first: np.ndarray, dealer: np.ndarray,
                 keys: np.ndarray, scores: np.ndarray, record: bool, track_held: bool = False,
                 track_stamps: bool = True):
        n, P = len(dealer), table.players
        self.table, self.P, self.n = table, P, n
        self.log = Log(record)
        self.gid = np.arange(n)
        hand = counts(hands7)
        self.hand = hand
        self.hbits = np.zeros((n, P), dtype=np.uint64)
        for j in range(hands7.shape[2]):
            self.hbits |= KIND_BIT[hands7[:, :, j]]
        self.size = np.full((n, P), hands7.shape[2], dtype=np.int16)
        m = draw_top_first.shape[1]
        self.draw = np.zeros((n, PILE), dtype=np.int8)
        self.draw[:, :m] = draw_top_first[:, ::-1]
        self.dn = np.full(n, m, dtype=np.int16)
        self.disc = np.zeros((n, PILE), dtype=np.int8)
        self.sn = np.zeros(n, dtype=np.int16)
        stamp_t = np.int16 if table.rules.max_turns <= 8000 else np.int32
        width = PILE if track_stamps else 0
        self.dstamp = np.full((n, width), -1, dtype=stamp_t)
        self.sstamp = np.full((n, width), -1, dtype=stamp_t)
        self.seq = np.zeros(n, dtype=stamp_t)
        self.demand = np.full(n, -1, dtype=np.int8)
        self.dirn = np.ones(n, dtype=np.int8)
        self.cur = np.zeros(n, dtype=np.int8)
        self.phase = np.full(n, TURN, dtype=np.int8)
        self.turns = np.zeros(n, dtype=np.int16)
        self.quiet = np.zeros(n, dtype=np.int16)
        self.key = keys.astype(np.uint64)
        self.ctr = np.zeros(n, dtype=np.uint32)
        self.out = np.full(n, -1, dtype=np.int8)
        self.blocked = np.zeros(n, dtype=bool)
        self.maxed = np.zeros(n, dtype=bool)
        self.seen = np.zeros((n, N_KINDS), dtype=np.int16)
        # public knowledge of the hands (PlayView.lacks/fresh): the kinds each seat showed it lacks by
        # drawing with nothing legal, and how many cards it has taken since (those may be any kind)
        self.lacks = np.zeros((n, P), dtype=np.uint64)
        self.fresh = np.zeros((n, P), dtype=np.int16)
        # kept only when a strategy at the table reads it (reads_held): it costs the hot path a
        # memory access per draw and per play (CHANGELOG.md has what it cost random play)
        self.held = np.zeros((n, P, N_KINDS if track_held else 0), dtype=np.int8)
        self.pen = np.zeros((n, P, 3), dtype=np.int16)
        self.shouts, self.lost, self.forgot, self.fslaps = (np.zeros((n, P), dtype=np.int16) for _ in range(4))
        self.scores = scores
        self.dealer = dealer.astype(np.int8)
        self.keep_final = record
        res = {"score": np.zeros((n, P), dtype=np.int16), "went_out": np.full(n, -1, dtype=np.int8),
               "turns": np.zeros(n, dtype=np.int16), "blocked": np.zeros(n, dtype=bool),
               "hit_max_turns": np.zeros(n, dtype=bool), "penalty": np.zeros((n, P, 3), dtype=np.int16)}
        for name in ("shouts", "lost", "forgot", "fslaps"):
            res[name] = np.zeros((n, P), dtype=np.int16)
        if record:
            res.update(final_hands=np.zeros_like(hand), final_draw=np.zeros((n, PILE), dtype=np.int8),
                       final_dn=np.zeros(n, dtype=np.int16), final_disc=np.zeros((n, PILE), dtype=np.int8),
                       final_sn=np.zeros(n, dtype=np.int16))
        self.res = res

    @property
    def keeps_stamps(self) -> bool:
        """Whether the piles' stamps are kept (track_stamps: some seat may read memory)."""
        return self.dstamp.shape[1] > 0

    # ------------------------------------------------------------------ bookkeeping
    def retire(self, rows: np.ndarray) -> None:
        """Write the per-hand results of finished rows into the n-game outputs (self.res)."""
        g = self.gid[rows]
        res = self.res
        points = np.empty((len(rows), self.P), dtype=np.int16)           # HTD-1.4, HTD-7.2
        hand_points(self.hand, np.ascontiguousarray(rows, dtype=np.int64), PENALTY16, points)
        res["score"][g] = points
        res["went_out"][g] = self.out[rows]
        res["turns"][g] = self.turns[rows]
        res["blocked"][g] = self.blocked[rows]
        res["hit_max_turns"][g] = self.maxed[rows]
        res["penalty"][g] = self.pen[rows]
        for name in ("shouts", "lost", "forgot", "fslaps"):
            res[name][g] = getattr(self, name)[rows]
        if self.keep_final:
            res["final_hands"][g] = self.hand[rows]
            res["final_draw"][g] = self.draw[rows]
            res["final_dn"][g] = self.dn[rows]
            res["final_disc"][g] = self.disc[rows]
            res["final_sn"][g] = self.sn[rows]

    def compact(self, keep: np.ndarray) -> None:
        """Keep rows `keep` only (finished games leave the arrays; results were written out)."""
        for name in self.ARRAYS:
            a = getattr(self, name)
            setattr(self, name, a[keep] if a.ndim == 1 else np.take(a, keep, axis=0))

    def chance(self, rows: np.ndarray) -> np.ndarray:
        """Start one chance event for `rows`: returns its counter value and moves the counter on."""
        c = self.ctr[rows]
        self.ctr[rows] = c + 1
        return c

    def uniform(self, rows: np.ndarray, c: np.ndarray, slot) -> np.ndarray:
        return keyed_chance.uniform(self.key[rows], c, slot)

    # ------------------------------------------------------------------ hands
    def give(self, rows: np.ndarray, seats: np.ndarray, kinds: np.ndarray, public=None) -> None:
        """One card of kind kinds[i] into seat seats[i] of row rows[i] (rows unique); public[i]:
        its place in the draw pile was known (State.held)."""
        P = self.P
        fr = rows * P + seats
        hf = self.hand.reshape(-1)
        at = fr * N_KINDS + kinds
        hf[at] += 1
        if public is not None and self.held.shape[2]:
            self.held.reshape(-1)[at[public]] += 1
        self.hbits.reshape(-1)[fr] |= KIND_BIT[kinds]
        self.size.reshape(-1)[fr] += 1
        self.fresh.reshape(-1)[fr] += 1

    def showed_lack(self, rows: np.ndarray, seats: np.ndarray, masks: np.ndarray) -> None:
        """Seats that must draw, holding none of the kinds in masks (uint64, bit k = kind k): every
        card they hold lacks them (with the kinds shown before when nothing was taken since)."""
        fr = rows * self.P + seats
        lk, fz = self.lacks.reshape(-1), self.fresh.reshape(-1)
        lk[fr] = np.where(fz[fr] == 0, lk[fr] | masks, masks)
        fz[fr] = 0

    def take_card(self, rows: np.ndarray, seats: np.ndarray, kinds: np.ndarray) -> None:
        P = self.P
        fr = rows * P + seats
        hf = self.hand.reshape(-1)
        at = fr * N_KINDS + kinds
        left = hf[at] - 1
        hf[at] = left
        if self.held.shape[2]:
            kf = self.held.reshape(-1)
            kf[at] = np.maximum(kf[at] - 1, 0)
        hb = self.hbits.reshape(-1)
        hb[fr] = np.where(left == 0, hb[fr] & ~KIND_BIT[kinds], hb[fr])
        self.size.reshape(-1)[fr] -= 1

    # ------------------------------------------------------------------ piles
    def top(self, rows: np.ndarray) -> np.ndarray:
        return self.disc.reshape(-1)[rows * PILE + np.maximum(self.sn[rows] - 1, 0)]

    def push_discard(self, rows: np.ndarray, kinds: np.ndarray) -> None:
        """A card goes public onto the discard pile (played or exposed)."""
        n = self.sn[rows]
        at = rows * PILE + n
        self.disc.reshape(-1)[at] = kinds
        s = self.seq[rows]
        if self.keeps_stamps:
            self.sstamp.reshape(-1)[at] = s
        self.seq[rows] = s + 1
        self.sn[rows] = n + 1
        self.seen.reshape(-1)[rows * N_KINDS + kinds] += 1

    def pop_draw(self, rows: np.ndarray) -> np.ndarray:
        """The top card of each row's draw pile (rows with a non-empty pile), removed."""
        n = self.dn[rows] - 1
        kinds = self.draw.reshape(-1)[rows * PILE + n]
        self.dn[rows] = n
        return kinds

    def top_public(self, rows: np.ndarray) -> np.ndarray:
        """Whether the top card of each row's draw pile (non-empty) lies where it went public."""
        return self.dstamp.reshape(-1)[rows * PILE + self.dn[rows] - 1] >= 0

    def reshuffle(self, rows: np.ndarray) -> np.ndarray:
        """HTD-6.1 for rows whose draw pile is empty: the discard pile but its top, shuffled, becomes
        the draw pile. Returns the rows where at least one card moved."""
        rows = rows[(self.dn[rows] == 0) & (self.sn[rows] > 1)]
        if not len(rows):
            return rows
        c = self.chance(rows)
        m = (self.sn[rows] - 1).astype(np.int16)
        w = int(m.max())                                          # only the used columns are sorted
        cols = COLS[None, :w]
        h = keyed_chance.hashes(self.key[rows][:, None], c[:, None], cols)
        h[cols >= m[:, None]] = np.uint64(0xFFFFFFFFFFFFFFFF)
        order = np.argsort(h, axis=1, kind="stable")            # a uniform permutation of 0..m-1
        below = self.disc[rows]
        new = np.zeros((len(rows), PILE), dtype=np.int8)
        new[:, :w] = np.take_along_axis(below[:, :w], order, axis=1)   # new[i] = position i (bottom first)
        new[:, :w][cols >= m[:, None]] = 0
        top = below[np.arange(len(rows)), m]
        self.draw[rows] = new
        self.dn[rows] = m
        if self.keeps_stamps:
            self.dstamp[rows] = -1
            self.sstamp[rows, 0] = self.sstamp[rows, m]
        self.disc[rows, 0] = top
        self.sn[rows] = 1
        if self.log.on:
            self.log("reshuffle", self.gid[rows],
                     [[deck.NAMES[x] for x in r[:k][::-1].tolist()] for r, k in zip(new, m)])
        return rows

    def flip_piles(self, rows: np.ndarray) -> None:
        """HTD-4.3 step 1: the discard pile face down becomes the draw pile (its oldest card on top),
        the draw pile face up becomes the discard pile (its old bottom card on top). With the top
        at the end of each array both are a reversal of the used part."""
        dn, sn = self.dn[rows].astype(np.int16), self.sn[rows].astype(np.int16)
        src_new_draw = np.clip(sn[:, None] - 1 - COLS[None, :], 0, PILE - 1)
        src_new_disc = np.clip(dn[:, None] - 1 - COLS[None, :], 0, PILE - 1)
        old_d, old_s = self.draw[rows], self.disc[rows]
        self.draw[rows] = np.take_along_axis(old_s, src_new_draw, axis=1)
        self.disc[rows] = np.take_along_axis(old_d, src_new_disc, axis=1)
        if self.keeps_stamps:
            old_ds, old_ss = self.dstamp[rows], self.sstamp[rows]
            self.dstamp[rows] = np.where(COLS[None, :] < sn[:, None],
                                         np.take_along_axis(old_ss, src_new_draw, axis=1), -1)
            self.sstamp[rows] = np.where(COLS[None, :] < dn[:, None],
                                         np.take_along_axis(old_ds, src_new_disc, axis=1), -1)
        self.dn[rows], self.sn[rows] = sn, dn

    def remove_from_draw(self, rows: np.ndarray, depth: np.ndarray) -> np.ndarray:
        """Take out the card `depth` places below the top (0 = the top); the cards above close up
        (the lifted packet goes back on top, A-HTD-6). Returns the cards."""
        at = (self.dn[rows] - 1 - depth).astype(np.intp)
        kinds = self.draw[rows, at]
        src = COLS[None, :] + (COLS[None, :] >= at[:, None])
        src = np.minimum(src, PILE - 1)
        self.draw[rows] = np.take_along_axis(self.draw[rows], src, axis=1)
        if self.keeps_stamps:
            self.dstamp[rows] = np.take_along_axis(self.dstamp[rows], src, axis=1)
        self.dn[rows] -= 1
        return kinds

    def bury_top(self, rows: np.ndarray, pile: str, pos: np.ndarray) -> None:
        """Move the top card of `pile` to position pos (>= 1, from the top, after insertion); the
        pile's order below the top is no longer known (§C.10)."""
        arr, n, stamps = (self.draw, self.dn, self.dstamp) if pile == "draw" else (self.disc, self.sn, self.sstamp)
        size = n[rows].astype(np.int16)
        dest = (size - 1 - pos).astype(np.int16)                  # array index where the card goes
        c = COLS[None, :]
        src = np.where(c < dest[:, None], c, np.where(c == dest[:, None], size[:, None] - 1, c - 1))
        src = np.clip(src, 0, PILE - 1)
        arr[rows] = np.take_along_axis(arr[rows], src, axis=1)
        if not self.keeps_stamps:
            return
        st = np.take_along_axis(stamps[rows], src, axis=1)
        st[c < size[:, None] - 1] = -1
        stamps[rows] = st

    def reveal_top(self, rows: np.ndarray) -> None:
        """The top of the discard pile has just been turned face up (a flip, a burial): it is seen now."""
        at = (self.sn[rows] - 1).astype(np.intp)
        s = self.seq[rows]
        if self.keeps_stamps:
            self.sstamp[rows, at] = s
        self.seq[rows] = s + 1
        self.seen[rows, self.disc[rows, at]] += 1
