"""Shoot the Moon search player: Monte Carlo rollouts with the batch engine's own rules.

For each legal card the player deals the cards it cannot see many ways ("worlds") consistent
with what its view shows: its own hand, every card played this round, the trick in progress
(a player who did not follow the led suit with a numbered card lacks it, A.13), and how many
cards each hand still holds. The rest of the round is then played out in every world by a fast
policy (the registered `odd` or `greedy`), all worlds and all candidate cards of all games in
one batch, and the card with the best mean chips for the player's side (Moon chips and the
end-of-round award) is played. Every candidate card sees the same worlds (common random
numbers), so the comparison between cards is paired.

The view keeps no record of who played which card in earlier tricks, so only the current
trick's failures to follow constrain the deal; earlier voids are not used.

The play-outs are the engine's own trick loop (engine.play_on) resumed inside the round.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from moonshot.simulator.batch import LOWEST, SLOT_BIT
from moonshot.simulator.errors import BadInput
from moonshot.simulator.shoot_the_moon import cards as C
from moonshot.simulator.shoot_the_moon import engine as E
from moonshot.simulator.shoot_the_moon.views import PlayView
from moonshot.strategies.base import register
from moonshot.strategies.shoot_the_moon import Greedy, OddPlanner

GAME = "shoot-the-moon"
POLICIES = {"odd": OddPlanner, "greedy": Greedy}
FILLER = C.LITTLE_MOONS[1]          # the card written into a hand's already-played slots (never live)
MAX_ROLLOUTS = 1 << 17              # rollouts per batch (memory stays bounded for big batches)


# ------------------------------------------------------------------------------------ a round in progress

@lru_cache(maxsize=None)
def playout_table(table: E.Table) -> E.Table:
    """The table the play-outs run at: the same rules without the human-error model (the search
    plays the round out as its policy would, never simulating its own or others' revokes)."""
    return E.Table(table.players, table.partners, replace(table.rules, revoke_model=None))


def position(table: E.Table, hands, live, dealer, chips, tricks, tricks_seat, reds_played,
             trick_no: int, pos: int, leader, trick) -> E.RoundState:
    """A round in progress (one copy per rollout) as the engine resumes it: the trick so far is
    played into the state again, card by card."""
    st = E.RoundState(table, hands, dealer, chips)
    st.live[:] = live.reshape(-1)
    st.tricks[:] = tricks
    st.tricks_seat[:] = tricks_seat.reshape(-1)
    st.reds_played[:] = reds_played
    st.trick_no, st.leader = trick_no, leader.astype(np.intp)
    st.start_trick()
    order = table.order[dealer.astype(np.intp), st.leader]
    for k in range(pos):
        st.record(order[:, k].astype(np.intp), trick[:, k])
    return st


# ------------------------------------------------------------------------------------ worlds

def trick_leader(table: E.Table, dealer: np.ndarray, seat: np.ndarray, position: int,
                 winning_side: np.ndarray) -> np.ndarray:
    """The seat that led the trick in progress, from the mover's seat and position (and, for the
    two-player table whose order depends on who led, the side winning the trick so far)."""
    if table.dummy is None:
        return (seat - position) % table.players
    out = np.empty(len(seat), dtype=np.intp)
    for i in range(len(seat)):
        cands = [ld for ld in range(table.hands_dealt) if table.order[dealer[i], ld, position] == seat[i]]
        if len(cands) > 1 and position >= 1:
            # the leader is the only card so far at position 1, so it is winning the trick
            cands = [ld for ld in cands if table.side_of_seat[ld] == winning_side[i]] or cands
        out[i] = cands[0]
    return out


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int):
    """Worlds for the n games of `view`: (hands (n, W, H, 5) card ids with FILLER in played slots,
    live (n, W, H) slot masks, leader (n,)). The mover's row is its real hand; each other hand's
    unplayed cards are drawn from the cards the mover cannot see (players' hands sorted cheapest
    first as the engine keeps them; the blind dummy's stack in random order)."""
    table = view.table
    P, H = table.players, table.hands_dealt
    n = len(view)
    seat = np.asarray(view.seat).astype(np.intp)
    dealer = np.asarray(view.dealer).astype(np.intp)
    pos, t = view.position, view.trick_no
    leader = trick_leader(table, dealer, seat, pos, view.winning_side)
    trick = np.asarray(view.trick)
    order = table.order[dealer, leader]                          # (n, H) seat at each position
    # cards this seat cannot see: not played, not its own, not a face-up dummy's
    unseen = ~np.asarray(view.seen)
    np.put_along_axis(unseen, np.asarray(view.hand).astype(np.intp), False, axis=1)
    open_dummy = view.dummy_hand
    if open_dummy is not None:
        d = np.asarray(open_dummy)
        rows, cols = np.nonzero(d >= 0)
        unseen[rows, d[rows, cols].astype(np.intp)] = False
    played_now = np.zeros((n, H), dtype=bool)                    # who has played to this trick
    for k in range(pos):
        played_now[np.arange(n), order[:, k]] = True
    # A.13: a numbered card off the led suit shows a void in it (this trick only: see the docstring)
    void = np.zeros((n, H, 4), dtype=bool)
    if pos:
        lead = trick[:, 0].astype(np.intp)
        numbered_lead = ~C.IS_MOON[lead]
        for k in range(1, pos):
            c = trick[:, k].astype(np.intp)
            off = numbered_lead & ~C.IS_MOON[c] & (C.SUIT[c] != C.SUIT[lead])
            void[np.flatnonzero(off), order[off, k], C.SUIT[lead[off]]] = True
    keys = rng.random((n, worlds, C.DECK_SIZE))
    used = np.broadcast_to(~unseen[:, None, :], keys.shape).copy()      # not to be dealt (any more)
    hands = np.full((n, worlds, H, C.HAND_SIZE), FILLER, dtype=np.int8)
    live = np.zeros((n, worlds, H), dtype=np.uint8)
    hands[np.arange(n), :, seat] = np.asarray(view.hand)[:, None, :]
    live[np.arange(n), :, seat] = np.asarray(view.live_bits)[:, None]
    suit_of = C.SUIT
    # the seats with a void first (their cards drawn among those they may hold), then the rest
    others = sorted(range(H), key=lambda s: not void[:, s].any())
    for s in others:
        mover = seat == s
        if mover.all():
            continue
        is_open_dummy = open_dummy is not None and s == table.dummy
        count = np.where(mover, 0, C.HAND_SIZE - t - played_now[:, s]).astype(np.intp)
        if is_open_dummy:
            d = np.asarray(open_dummy)
            hands[:, :, s] = np.where(d >= 0, d, FILLER)[:, None, :]
            live[:, :, s] = ((d >= 0) * SLOT_BIT[:C.HAND_SIZE]).sum(axis=1).astype(np.uint8)[:, None]
            continue
        banned = void[:, s][:, suit_of.clip(0, 3)] & (suit_of < 4)[None, :]      # (n, 52)
        k_s = np.where(used | banned[:, None, :], np.inf, keys)
        idx = np.argsort(k_s, axis=2)[:, :, :C.HAND_SIZE]                         # (n, W, 5)
        take = np.arange(C.HAND_SIZE)[None, None, :] < count[:, None, None]
        ok = np.take_along_axis(k_s, idx, axis=2) < np.inf
        if not (ok | ~take).all():
            raise ValueError("no deal of the unseen cards fits what this seat has seen")
        cards = np.where(take, idx, -1)
        dealt = np.zeros_like(used)
        np.put_along_axis(dealt, idx, take, axis=2)
        used |= dealt
        if table.dummy is not None and s == table.dummy:         # the blind stack: random order, slots t..4
            stack = np.full((n, worlds, C.HAND_SIZE), FILLER, dtype=np.int8)
            first = t + played_now[:, s]
            for j in range(C.HAND_SIZE):
                src = j - first
                has = (src >= 0) & (src < count)
                stack[:, :, j] = np.where(has[:, None], np.take_along_axis(
                    cards, np.clip(src, 0, C.HAND_SIZE - 1)[:, None, None].repeat(worlds, 1), 2)[:, :, 0], FILLER)
            hands[:, :, s] = stack
            live[:, :, s] = ((stack != FILLER) * SLOT_BIT[:C.HAND_SIZE]).sum(axis=2).astype(np.uint8)
            continue
        # a player's hand: its cards cheapest first (the engine's order), the played slots after
        key = np.where(take, E.DISCARD_VALUE[np.maximum(cards, 0)] * 64 + np.maximum(cards, 0), 1 << 14)
        srt = np.argsort(key, axis=2, kind="stable")
        cards = np.take_along_axis(cards, srt, 2)
        row = np.where(cards >= 0, cards, FILLER).astype(np.int8)
        hands[:, :, s] = np.where(mover[:, None, None], hands[:, :, s], row)
        bits = ((cards >= 0) * SLOT_BIT[:C.HAND_SIZE]).sum(axis=2).astype(np.uint8)
        live[:, :, s] = np.where(mover[:, None], live[:, :, s], bits)
    return hands, live, leader


# ------------------------------------------------------------------------------------ the player

@register(GAME, "rollout")
class RolloutPlay:
    """For each legal card, deals the unseen cards `worlds` ways that fit what it has seen, plays
    the rest of the round out with a fast policy (`odd` or `greedy`) in every world, and plays
    the card with the best mean chips for its side.

    The worlds are the same for every candidate card (paired comparison). The play-out uses the
    batch engine's rules and the registered policy for every seat, this player included.
    """

    def __init__(self, worlds: int = 32, policy: str = "odd"):
        if worlds < 1:
            raise BadInput(f"rollout: worlds must be >= 1, got {worlds}")
        if policy not in POLICIES:
            raise BadInput(f"rollout: unknown policy {policy!r}; accepted: {', '.join(POLICIES)}")
        self.worlds, self.policy_name = worlds, policy
        self.policy = POLICIES[policy]()

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        n = len(view)
        legal_bits = np.asarray(view.legal_bits)
        out = LOWEST[legal_bits].astype(np.intp)             # the only legal slot when forced
        choices = np.bitwise_count(legal_bits) > 1
        games = np.flatnonzero(choices)
        per_game = self.worlds * C.HAND_SIZE
        step = max(1, MAX_ROLLOUTS // per_game)
        for lo in range(0, len(games), step):
            idx = games[lo:lo + step]
            out[idx] = self._choose(view.take(idx), rng)
        return out

    def _choose(self, view: PlayView, rng) -> np.ndarray:
        table = view.table
        n, W, H, S = len(view), self.worlds, table.hands_dealt, table.n_sides
        hands, live, leader = deal_worlds(view, rng, W)
        legal = np.asarray(view.legal)                                     # (n, 5)
        cand_game, cand_slot = np.nonzero(legal)                            # one row per candidate
        m = len(cand_game) * W
        g = np.repeat(cand_game, W)
        w = np.tile(np.arange(W), len(cand_game))
        seat = np.asarray(view.seat).astype(np.intp)
        # the side whose chips count: the dummy's chooser (open dummy) plays for the non-dealer
        chooser = np.where(seat == (table.dummy if table.dummy is not None else -1),
                           1 - np.asarray(view.dealer), seat)
        side = table.side_of_seat[chooser]
        chips = np.asarray(view.chips)
        tricks = np.asarray(view.tricks)
        tricks_seat = np.zeros((n, H), dtype=np.int8)       # earlier tricks by seat are not in the view:
        for s in range(S):                                  # each side's go to its first seat
            first_seat = int(np.flatnonzero(table.side_of_seat == s)[0])
            tricks_seat[:, first_seat] = tricks[:, s]
        reds = np.asarray(view.reds_played)
        trick = np.asarray(view.trick)
        run_at = playout_table(table)
        st = position(run_at, hands[g, w], live[g, w], np.asarray(view.dealer)[g], chips[g], tricks[g],
                      tricks_seat[g], reds[g], view.trick_no, view.position, leader[g], trick[g])
        after = E.play_on(run_at, st, [self.policy] * table.players, rng, first_slot=np.repeat(cand_slot, W)).chips_after
        gain = after[np.arange(m), side[g]].astype(float) - chips[g, side[g]]
        mean = gain.reshape(len(cand_game), W).mean(axis=1)
        value = np.full((n, C.HAND_SIZE), -np.inf)
        value[cand_game, cand_slot] = mean
        return value.argmax(axis=1)
