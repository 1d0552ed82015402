"""One hand per game, N games in lock-step: the phases of RULES.md §3 on row subsets.

Each pass of the main loop gives every unfinished game one step of what its `phase` says the
seat `cur` must do: TURN (play a legal card, or draw: HTD-3), CUT (HTD-4.2) or FLIP (HTD-4.3).
A card that lands on the discard pile (played or exposed) is resolved at once by `land`:
false slaps, then its effect sets the next phase (HTD-4, HTD-5), the slap of an HTD-H included.
Event order and counting follow reference.Hand exactly (the parity tests replay every record).
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.batch import ask, illegal
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck.engine import keyed_chance
from moonshot.simulator.hit_the_deck.engine.kernels import all_legal
from moonshot.simulator.hit_the_deck.engine.state import (CAUSES, CUT, DONE, FALSE_SLAP, FLIP, FORGOT, PILE, SLAP,
                                                 TURN, State)
from moonshot.simulator.hit_the_deck.engine.table import DRAW, DRAW_BIT, KIND_BIT, N_KINDS, Table
from moonshot.simulator.hit_the_deck.engine.lazy_view import EnginePlayView

# HTD-6.4: a hand is blocked after 30 cut, flip or pass events with no card played, drawn or taken between
QUIET_LIMIT = 30
CUT_SPREAD = 8            # a normal_half cut lifts n/2 cards give or take n/8 (A-HTD-6)
CLASS = deck.CLASS.astype(np.int8)
SLAP_KIND = deck.SLAP_KIND.astype(np.intp)
# DEMAND_OF[kind]: the demand a card sets when it lands (HTD-4.4, HTD-4.5), -1 for other cards
DEMAND_OF = np.array([deck.VALUE[k] - 1 if deck.CLASS[k] == deck.HTD_N
                      else deck.COLOUR_DEMAND + k - deck.HTD_C_BASE if deck.CLASS[k] == deck.HTD_C else -1
                      for k in range(N_KINDS)], dtype=np.int8)
# NEXT_PHASE[kind]: what the next seat must do with a card that landed (HTD-4, HTD-5.1)
NEXT_PHASE = np.where(deck.CLASS == deck.CUT, CUT, np.where(deck.CLASS == deck.FLIP, FLIP, TURN)).astype(np.int8)
MAX_PLAYERS = 6
# a race's uniforms: RACE_SLOTS per seat from RACE_SLOT0 on (keyed_chance's slot layout)
SLAP_SLOTS = np.arange(keyed_chance.RACE_SLOT0, keyed_chance.RACE_SLOT0 + keyed_chance.RACE_SLOTS * MAX_PLAYERS,
                       dtype=np.uint64)


def _name(kinds) -> list:
    return [None if k < 0 else deck.NAMES[k] for k in np.asarray(kinds).tolist()]


def _no_name(kinds) -> None:
    return None


class HandRun:
    """Plays the hands of one State to the end. `groups`: [(strategy, its seats)]."""

    def __init__(self, table: Table, st: State, groups, rng: np.random.Generator, hook=None):
        self.t, self.st, self.groups, self.rng, self.hook = table, st, groups, rng, hook
        self.P = table.players
        self.rules = table.rules
        self.legal = table.legal
        self.bury_middle = table.rules.bury_position == "exact_middle"
        self.react = table.reaction
        self.off = table.off
        self.any_q, self.cond_q = table.false_slap_tables
        self.q = table.q
        self.no_false_slaps = not (self.any_q > 0).any()
        self.nm = _name if st.log.on else _no_name          # card names only for the record
        self.pending: list = []                             # landings of this pass (land, resolve)

    # ================================================================ bookkeeping
    def nxt(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        return ((seats + self.st.dirn[rows] + self.P) % self.P).astype(np.int8)

    def end(self, rows: np.ndarray) -> None:
        self.st.phase[rows] = DONE

    def block(self, rows: np.ndarray, by_turns: np.ndarray | None = None) -> None:
        st = self.st
        st.blocked[rows] = True
        if by_turns is not None:
            st.maxed[rows] |= by_turns
        st.phase[rows] = DONE
        st.log("blocked", st.gid[rows])

    def counted(self, rows: np.ndarray, kind: str, got_card: np.ndarray | None = None,
                turn: bool = True, last_card: np.ndarray | None = None) -> np.ndarray:
        """After an event (reference.Hand._emit): HTD-6.4 quiet stretch and HTD-6.5 turn limit.
        Returns a mask of the rows still playing (the others are blocked, with their `blocked` event)."""
        st = self.st
        if kind in ("cut", "flip", "pass"):
            st.quiet[rows] += 1
        elif got_card is not None:
            st.quiet[rows] = np.where(got_card, 0, st.quiet[rows])
        else:
            st.quiet[rows] = 0
        stop = st.quiet[rows] >= QUIET_LIMIT
        if turn:
            t = st.turns[rows] + 1
            st.turns[rows] = t
            maxed = t >= self.rules.max_turns
            if last_card is not None:
                maxed &= ~last_card
            stop |= maxed
        if stop.any():
            self.block(rows[stop], maxed[stop] if turn else None)
        return ~stop

    # ================================================================ the hand
    def run(self) -> None:
        self.opening()
        st = self.st
        while True:
            phase = st.phase
            cut_rows, flip_rows = np.flatnonzero(phase == CUT), np.flatnonzero(phase == FLIP)
            turn_rows = np.flatnonzero(phase == TURN)
            if not (len(turn_rows) or len(cut_rows) or len(flip_rows)):
                break
            if len(cut_rows):
                self.cut(cut_rows)
            if len(flip_rows):
                self.flip(flip_rows)
            if len(turn_rows):
                self.turn(turn_rows)
            self.resolve()
            self.end_of_pass()
        st.retire(np.arange(len(st.gid)))

    def end_of_pass(self) -> None:
        """After every pass over the live games (here and in FastRun): the test hook, then finished
        games retired and the rest compacted once fewer than half are live (big batches only)."""
        st = self.st
        if self.hook is not None:
            self.hook(st)
        stopping.check()          # a cancelled run ends here, not after the whole batch (a search player's: minutes)
        live = st.phase != DONE
        if len(live) > 256 and live.sum() * 2 < len(live):
            st.retire(np.flatnonzero(~live))
            st.compact(np.flatnonzero(live))

    # HTD-2.3, HTD-5.4, A-HTD-1
    def opening(self) -> None:
        st = self.st
        rows = np.arange(len(st.gid))
        todo = rows
        while len(todo):
            card = st.pop_draw(todo)
            st.push_discard(todo, card)
            st.log("turn", st.gid[todo], self.nm(card))
            hh = card == deck.HH
            todo = todo[hh]
            if len(todo):                          # an opening HTD-H is always buried
                self.bury(todo, "draw")
        first = ((st.dealer + 1) % self.P).astype(np.int8)
        top = st.top(rows)
        if self.rules.start_card == "first_player_plays_normally":
            self.false_slaps(rows, top, st.dealer.copy())
            st.cur[:] = first
            st.phase[:] = TURN
        else:
            self.land(rows, top, st.dealer.copy(), first)
            self.resolve()

    # A-HTD-9
    def bury(self, rows: np.ndarray, pile: str) -> None:
        st = self.st
        n = (st.dn[rows] if pile == "draw" else st.sn[rows] - 1).astype(np.int64)
        if self.bury_middle:
            pos = np.maximum(1, n // 2)
        else:
            c = st.chance(rows)
            pos = np.minimum((st.uniform(rows, c, 0) * n).astype(np.int64) + 1, n)
        card = st.top(rows)
        if pile == "draw":                         # the opening HTD-H goes from the discard top to the draw pile
            st.sn[rows] -= 1
            at = st.dn[rows].astype(np.intp)
            st.draw[rows, at] = card
            if st.keeps_stamps:
                st.dstamp[rows, at] = -1
            st.dn[rows] += 1
        st.bury_top(rows, pile, pos.astype(np.int16))
        st.log("bury", st.gid[rows], pile, pos, self.nm(card))

    # HTD-3.7, HTD-4, HTD-5.1..5.3: a card has just landed on the discard pile
    def land(self, rows: np.ndarray, card: np.ndarray, actor: np.ndarray, x: np.ndarray,
             played: bool = False) -> None:
        """Card `card` has just landed on the discard pile, played by `actor` (played=True) or
        exposed for x; x is the next to act. Resolved by `resolve` at the end of the pass (each
        game lands at most one card per pass, so all landings of a pass go through one call)."""
        if len(rows):
            self.pending.append((rows, card, actor, x, np.full(len(rows), played)))

    def resolve(self) -> None:
        """HTD-3.7, HTD-4, HTD-5.1..5.3: false slaps, then each landed card's effect for x."""
        if not self.pending:
            return
        parts = self.pending
        self.pending = []
        rows, card, actor, x, played = (np.concatenate(a) for a in zip(*parts)) if len(parts) > 1 else parts[0]
        st = self.st
        hh = card == deck.HH
        if hh.any():
            h, x_h, p_h = rows[hh], x[hh], played[hh]
            # HTD-4.6: a played HTD-H's player shouts, then x plays any card;
            # HTD-5.3, A-HTD-2: x shouts for an exposed one, then plays (or its turn is used up)
            self.slap(h, np.where(p_h, actor[hh], x_h).astype(np.int8))
            nxt = x_h
            if self.rules.exposed_hand_card == "shouter_turn_consumed":
                nxt = np.where(p_h, x_h, self.nxt(h, x_h))
            st.demand[h], st.cur[h], st.phase[h] = -1, nxt, TURN
            keep = ~hh
            rows, card, actor, x = rows[keep], card[keep], actor[keep], x[keep]
        if not len(rows):
            return
        self.false_slaps(rows, card, actor)
        st.demand[rows] = DEMAND_OF[card]
        st.cur[rows] = x
        st.phase[rows] = NEXT_PHASE[card]

    # ================================================================ turns (HTD-3.5, HTD-3.6, A-HTD-4)
    def situation(self, rows: np.ndarray) -> np.ndarray:
        st = self.st
        d = st.demand[rows]
        return np.where(d >= 0, N_KINDS + d.astype(np.intp), st.top(rows).astype(np.intp))

    def turn(self, rows: np.ndarray) -> None:
        st = self.st
        seats = st.cur[rows]
        legal = st.hbits.reshape(-1)[rows * self.P + seats] & self.legal[self.situation(rows)]
        has = legal != 0
        draw_rows = rows[~has]
        if len(draw_rows):
            st.showed_lack(draw_rows, seats[~has], self.legal[self.situation(draw_rows)])
        if has.any():
            ask = rows[has]
            bits = legal[has]
            if self.rules.voluntary_draw:
                bits = bits | DRAW_BIT
            choice = self.ask(ask, seats[has], bits, np.full(len(ask), -1, dtype=np.int8))
            plays = choice != DRAW
            self.play(ask[plays], seats[has][plays], choice[plays].astype(np.int8), after_draw=False)
            if not plays.all():
                draw_rows = np.concatenate([draw_rows, ask[~plays]])
        if len(draw_rows):
            self.draw_turn(draw_rows)

    def draw_turn(self, rows: np.ndarray) -> None:
        """No legal play (or a voluntary draw): draw one; a legal drawn card is played (or, under
        htd.drawn_card_play=optional, played or kept); otherwise the turn passes (HTD-3.6)."""
        st = self.st
        seats = st.cur[rows]
        card = self.take(rows, seats)
        st.log("draw", st.gid[rows], seats, self.nm(card))
        got = card >= 0
        keep = self.counted(rows, "draw", got_card=got)
        if not keep.all():
            rows, seats, card, got = rows[keep], seats[keep], card[keep], got[keep]
        k = np.maximum(card, 0).astype(np.intp)
        playable = got & ((self.legal[self.situation(rows)] & KIND_BIT[k]) != 0)
        if playable.any() and self.rules.drawn_card_play == "optional":
            p = np.flatnonzero(playable)
            choice = self.ask(rows[p], seats[p], KIND_BIT[k[p]] | DRAW_BIT, card[p])
            playable[p[choice == DRAW]] = False
        self.play(rows[playable], seats[playable], card[playable], after_draw=True)
        rest = ~playable
        rows, seats = rows[rest], seats[rest]
        if len(rows):
            st.log("pass", st.gid[rows], seats)
            keep = self.counted(rows, "pass", turn=False)
            rows, seats = rows[keep], seats[keep]
            st.cur[rows] = self.nxt(rows, seats)          # an unmet demand passes on
            st.phase[rows] = TURN

    def take(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """One card from the draw pile (after any reshuffle, HTD-6.1) into each seat's hand:
        the kinds, -1 where nothing could be drawn (HTD-6.2)."""
        st = self.st
        empty = st.dn[rows] == 0
        if empty.any():
            st.reshuffle(rows[empty])
        card = np.full(len(rows), -1, dtype=np.int8)
        ok = st.dn[rows] > 0
        r = rows[ok]
        if len(r):
            public = st.top_public(r) if st.held.shape[2] else None
            k = st.pop_draw(r)
            st.give(r, seats[ok], k, public)
            card[ok] = k
        return card

    def play(self, rows: np.ndarray, seats: np.ndarray, card: np.ndarray, after_draw: bool) -> None:
        """HTD-3.7, HTD-7.1, A-HTD-3: play card from seat's hand, then its effect."""
        if not len(rows):
            return
        st = self.st
        st.take_card(rows, seats, card)
        if after_draw:                                   # the card just drawn (State.fresh)
            fr = rows * self.P + seats
            st.fresh.reshape(-1)[fr] = np.maximum(st.fresh.reshape(-1)[fr] - 1, 0)
        st.push_discard(rows, card)
        st.demand[rows] = -1
        st.log("play", st.gid[rows], seats, self.nm(card))
        last = st.size.reshape(-1)[rows * self.P + seats] == 0
        keep = self.counted(rows, "play", turn=not after_draw, last_card=last)
        if not keep.all():
            rows, seats, card, last = rows[keep], seats[keep], card[keep], last[keep]
        if last.any():
            o, s = rows[last], seats[last]
            if self.rules.final_card_effects == "resolve_then_score":
                hh = card[last] == deck.HH
                if hh.any():
                    self.slap(o[hh], s[hh], went_out=True)        # P4
            st.out[o] = s
            st.log("out", st.gid[o], s)
            self.end(o)
            rows, seats, card = rows[~last], seats[~last], card[~last]
        if len(rows):
            self.land(rows, card, seats, self.nxt(rows, seats), played=True)

    def ask(self, rows: np.ndarray, seats: np.ndarray, bits: np.ndarray, drawn: np.ndarray) -> np.ndarray:
        """Each seat's strategy chooses for its games; every answer is checked (IllegalMove)."""
        st = self.st
        view = EnginePlayView(self.t, st, rows, seats, bits, drawn)
        if self.st.log.on:
            st.log.decisions.append((st.gid[rows].copy(), seats.copy(), bits.copy(), drawn.copy()))
        return ask(self.groups, "play", view, seats, self.rng, _check)

    # ================================================================ Cut and Flip
    # HTD-4.2, A-HTD-6
    def cut(self, rows: np.ndarray) -> None:
        st = self.st
        seats = st.cur[rows]
        empty = st.dn[rows] == 0
        if empty.any():
            st.reshuffle(rows[empty])
        after = self.nxt(rows, seats)
        none = st.dn[rows] == 0
        if none.any():                             # step 5: the Cut only uses up the turn
            r, s = rows[none], seats[none]
            st.log("cut", st.gid[r], s, 0, None)
            keep = self.counted(r, "cut")
            st.cur[r[keep]], st.phase[r[keep]] = after[none][keep], TURN
            rows, seats, after = rows[~none], seats[~none], after[~none]
        if not len(rows):
            return
        n = st.dn[rows].astype(np.int64)
        bottom = self.rules.cut_exposed == "bottom_of_lifted"
        lo, hi = (1, n) if bottom else (0, n - 1)
        how = self.rules.cut_depth
        if how == "exact_half":
            k = np.maximum(1, n // 2)
        else:
            c = st.chance(rows)
            u1 = st.uniform(rows, c, 0)
            if how == "uniform":
                k = lo + np.minimum((u1 * (hi - lo + 1)).astype(np.int64), hi - lo)
            else:
                z, _ = keyed_chance.normal_pair(u1, st.uniform(rows, c, 1))
                k = np.rint(n / 2 + n / CUT_SPREAD * z).astype(np.int64)
        k = np.minimum(np.maximum(k, lo), hi)
        card = st.remove_from_draw(rows, (k - 1 if bottom else k).astype(np.int16))
        st.push_discard(rows, card)
        st.log("cut", st.gid[rows], seats, k, self.nm(card))
        keep = self.counted(rows, "cut")
        if not keep.all():
            rows, seats, card, after = rows[keep], seats[keep], card[keep], after[keep]
        if len(rows):
            self.land(rows, card, seats, after)

    # HTD-4.3, HTD-5.2, P3
    def flip(self, rows: np.ndarray) -> None:
        st = self.st
        seats = st.cur[rows]
        empty = st.dn[rows] == 0
        if empty.any():                            # step 6: HTD-6 first
            st.reshuffle(rows[empty])
        st.log("flip", st.gid[rows], seats)
        keep = self.counted(rows, "flip")
        if not keep.all():
            rows, seats = rows[keep], seats[keep]
        if not len(rows):
            return
        st.flip_piles(rows)
        st.dirn[rows] = -st.dirn[rows]
        bare = st.sn[rows] == 0
        if bare.any():                             # step 6: start the discard pile
            r = rows[bare]
            card = st.pop_draw(r)
            st.push_discard(r, card)
            st.log("turn", st.gid[r], self.nm(card))
        if not bare.all():
            st.reveal_top(rows[~bare])
        # step 5: a Flip turned up by a Flip is buried, at most once per card under it
        todo = rows
        left = (st.sn[rows] - 1).astype(np.int64)
        while len(todo):
            go = (CLASS[st.top(todo)] == deck.FLIP) & (left > 0)
            todo, left = todo[go], left[go] - 1
            if len(todo):
                self.bury(todo, "discard")
                st.reveal_top(todo)
        x = self.nxt(rows, seats)
        top = st.top(rows)
        stays = CLASS[top] == deck.FLIP               # not carried out: a normal turn on it
        if stays.any():
            r = rows[stays]
            self.false_slaps(r, top[stays], seats[stays])
            st.demand[r], st.cur[r], st.phase[r] = -1, x[stays], TURN
        go = ~stays
        if go.any():
            self.land(rows[go], top[go], seats[go], x[go])

    # ================================================================ slaps (§C.14)
    def slap(self, rows: np.ndarray, shouter: np.ndarray, went_out: bool = False) -> None:
        """resolve_slap_event: a forgotten shout (the shouter draws 4 if noticed, A-HTD-7) or a race
        whose last hand down draws 4; `off` seats never forget nor lose (P6); under P4 the shouter
        went out and takes no part."""
        if not len(rows):
            return
        st, P, R = self.st, self.P, self.react
        s = shouter.astype(np.intp)
        c = st.chance(rows)
        st.shouts[rows, s] += 1
        forgot = np.zeros(len(rows), dtype=bool)
        if not went_out:
            forgot = ~self.off[s] & (st.uniform(rows, c, keyed_chance.FORGET_SLOT) < R["p_forget"][s])
        if forgot.any():
            f, fs = rows[forgot], s[forgot]
            st.forgot[f, fs] += 1
            noticed = np.ones(len(f), dtype=bool)
            if self.rules.p_notice < 1:
                noticed = st.uniform(f, c[forgot], keyed_chance.NOTICE_SLOT) < self.rules.p_notice
            st.log("slap", st.gid[f], fs, False, None, np.where(noticed, fs, -1))
            pen_rows, pen_seats = [f[noticed]], [fs[noticed].astype(np.int8)]
            pen_cause = [np.full(int(noticed.sum()), FORGOT)]
        else:
            pen_rows, pen_seats, pen_cause = [], [], []
        race = ~forgot
        if not race.any():
            if pen_rows:
                self.penalty(pen_rows[0], pen_seats[0], deck.SLAP_PENALTY_CARDS, pen_cause[0])
            return
        rows, s, c = rows[race], s[race], c[race]
        loser, lat, racing = self.race(rows, s, c, went_out)
        if st.log.on:
            lat_list = [[None if not racing[j, i] else float(lat[j, i]) for i in range(P)] for j in range(len(rows))]
            st.log("slap", st.gid[rows], s, True, lat_list, loser)
        has = loser >= 0
        st.lost[rows[has], loser[has]] += 1
        pen_rows.append(rows[has])
        pen_seats.append(loser[has].astype(np.int8))
        pen_cause.append(np.full(int(has.sum()), SLAP))
        self.penalty(np.concatenate(pen_rows), np.concatenate(pen_seats), deck.SLAP_PENALTY_CARDS,
                     np.concatenate(pen_cause))

    def race(self, rows: np.ndarray, s: np.ndarray, c: np.ndarray, went_out) -> tuple:
        """The slap races of `rows` (shouter s, chance counter c; went_out, one for all or per row:
        the shouter takes no part): (loser (-1: nobody raced), latencies, racing). Numpy on
        purpose: the compiled engine (fast.py) settles its races here too, so both see the same
        log/cos/sin to the last bit."""
        st, P, R = self.st, self.P, self.react
        m = len(rows)
        racing = np.broadcast_to(~self.off, (m, P)).copy()
        out = np.broadcast_to(np.asarray(went_out, dtype=bool), (m,))
        racing[np.flatnonzero(out), s[out]] = False
        lat = np.full((m, P), -np.inf)
        U = st.uniform(rows[:, None], c[:, None], SLAP_SLOTS[None, :keyed_chance.RACE_SLOTS * P])
        for i in range(P):
            if self.off[i]:
                continue
            me = s == i
            mu = np.where(me, R["mu_self"][i], R["mu"][i])
            sd = np.where(me, R["sigma_self"][i], R["sigma"][i])
            tau = np.where(me, R["tau_self"][i], R["tau"][i])
            u = U[:, keyed_chance.RACE_SLOTS * i:keyed_chance.RACE_SLOTS * (i + 1)]
            z1, z2 = keyed_chance.normal_pair(u[:, 0], u[:, 1])
            d = mu + sd * z1 - tau * np.log(u[:, 2])
            lapse = u[:, 3] < R["p_lapse"][i]
            d = d + np.where(lapse, -R["lapse_mean"][i] * np.log(u[:, 4]), 0.0)
            move = np.maximum(0.0, R["move_mu"][i] + R["move_sd"][i] * z2)
            lat[:, i] = np.where(racing[:, i], np.round(d + move, 2), -np.inf)
        slowest = lat.max(axis=1)
        tied = racing & (lat >= slowest[:, None] - self.rules.judge_window)
        count = tied.sum(axis=1)
        r = np.minimum((st.uniform(rows, c, keyed_chance.TIE_SLOT) * count).astype(np.int64), np.maximum(count - 1, 0))
        rank = np.cumsum(tied, axis=1) - 1
        loser = np.where(count > 0, np.argmax(tied & (rank == r[:, None]), axis=1), -1)
        return loser, lat, racing

    def penalty(self, rows: np.ndarray, seats: np.ndarray, count: int, cause) -> None:
        """P7: `count` draws, each from the top after any reshuffle; a draw of nothing still counts.
        `cause` (0 slap, 1 forgot, 2 false slap): one for all rows, or one per row."""
        st = self.st
        cause = np.broadcast_to(np.asarray(cause, dtype=np.intp), (len(rows),))
        if not st.log.on:                          # fast path: rows whose draw pile holds them all
            full = st.dn[rows] >= count
            if full.all() or full.mean() > 0.5:
                r, s = rows[full], seats[full]
                at = r * PILE + st.dn[r]
                flat, stamps = st.draw.reshape(-1), st.dstamp.reshape(-1)
                for j in range(1, count + 1):
                    st.give(r, s, flat[at - j], stamps[at - j] >= 0 if st.held.shape[2] else None)
                st.dn[r] -= count
                st.pen[r, s, cause[full]] += count
                st.quiet[r] = 0
                rows, seats, cause = rows[~full], seats[~full], cause[~full]
        for _ in range(count):
            if not len(rows):
                return
            card = self.take(rows, seats)
            got = card >= 0
            st.pen[rows, seats, cause] += got
            st.quiet[rows[got]] = 0
            if st.log.on:
                st.log("penalty", st.gid[rows], seats, [CAUSES[x] for x in cause.tolist()], self.nm(card))

    # §C.14 false slaps: each seat but the actor, clockwise from the actor's left
    def false_slaps(self, rows: np.ndarray, card: np.ndarray, actor: np.ndarray) -> None:
        """One chance event per card event (not HTD-H): is there any false slap (ANY table), and
        only then which seats (COND table, seat by seat): exactly independent Bernoulli(q) per seat."""
        kind = SLAP_KIND[card]
        ok = kind >= 0
        if not ok.all():
            rows, kind, actor = rows[ok], kind[ok], actor[ok]
        if not len(rows) or self.no_false_slaps:
            return
        st, P = self.st, self.P
        a = actor.astype(np.intp)
        c = st.chance(rows)
        hit = st.uniform(rows, c, 0) < self.any_q[a, kind]
        if not hit.any():
            return
        rows, a, kind, c = rows[hit], a[hit], kind[hit], c[hit]
        none_yet = np.ones(len(rows), dtype=bool)
        slapped = np.zeros((len(rows), P), dtype=bool)      # column j: seat actor + j
        for j in range(1, P):
            seat = (a + j) % P
            p = np.where(none_yet, self.cond_q[a, kind, j], self.q[seat, kind])
            s = st.uniform(rows, c, j) < p
            none_yet &= ~s
            slapped[:, j] = s
        while True:                                 # round t: each game's t-th slapper, in seat order
            some = slapped.any(axis=1)
            if not some.any():
                break
            i = np.flatnonzero(some)
            j = np.argmax(slapped[i], axis=1)
            slapped[i, j] = False
            r, who = rows[i], ((a[i] + j) % P).astype(np.int8)
            st.log("false_slap", st.gid[r], who)
            st.fslaps[r, who] += 1
            self.penalty(r, who, deck.FALSE_SLAP_PENALTY_CARDS, FALSE_SLAP)


def _check(strat, view, choice) -> np.ndarray:
    c = np.asarray(choice)
    ok = c.shape == (len(view),) and np.issubdtype(c.dtype, np.integer)
    if ok:
        c = np.ascontiguousarray(c, dtype=np.intp)          # one compiled signature whatever a strategy returns
        ok = all_legal(np.ascontiguousarray(view.legal_bits, dtype=np.uint64), c)
    if not ok:
        raise illegal(strat, "play", "one card kind 0..37 per game where view.legal is True, or DRAW (38) where "
                                     "that column is")
    return c
