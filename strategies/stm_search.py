"""Shoot the Moon search player: Monte Carlo rollouts with the batch engine's own rules.

For each legal card the player deals the cards it cannot see many ways ("worlds") consistent
with what its view shows: its own hand, every card played this round and by whom (a player who
did not follow a led suit with a numbered card lacks it, A.13), and how many cards each hand
still holds. The rest of the round is then played out in every world by a fast
policy (the registered `odd` or `greedy`), all worlds and all candidate cards of all games in
one batch, and the card with the best mean chips for the player's side (Moon chips and the
end-of-round award) is played. Every candidate card sees the same worlds (common random
numbers), so the comparison between cards is paired.

The play-outs are the engine's own trick loop: engine.resume replays the view's record of plays
into each world (trick winners, the trick in progress) and engine.play_on plays on from there.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from moonshot.simulator.batch import LOWEST, SLOT_BIT
from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.simulator.shoot_the_moon import engine
from moonshot.simulator.shoot_the_moon.views import PlayView
from moonshot.strategies.base import register
from moonshot.strategies.shoot_the_moon import Greedy, OddPlanner
from moonshot.strategies.worlds import deal as deal_uniform

GAME = "shoot-the-moon"
POLICIES = {"odd": OddPlanner, "greedy": Greedy}
FILLER = deck.LITTLE_MOONS[1]          # the card written into a hand's already-played slots (never live)
MAX_ROLLOUTS = 1 << 17              # rollouts per batch (memory stays bounded for big batches)


# ------------------------------------------------------------------------------------ worlds

@lru_cache(maxsize=None)
def playout_table(table: engine.Table) -> engine.Table:
    """The table the play-outs run at: the same rules without the human-error model (the search
    plays the round out as its policy would, never simulating its own or others' revokes)."""
    return engine.Table(table.players, table.partners, replace(table.rules, revoke_model=None))


def shown_voids(view: PlayView) -> np.ndarray:
    """(n, H, 4) bool: seat s is known to hold no card of suit u (A.13: it played a numbered card
    of another suit after u was led). The blind dummy, exempt from following (STM-10.3), shows nothing."""
    table = view.table
    H, j = table.hands_dealt, view.trick_no * table.hands_dealt + view.position
    seats = np.asarray(view.play_seats)[:, :j].astype(np.intp)
    cards = np.asarray(view.play_cards)[:, :j].astype(np.intp)
    lead = cards[:, np.arange(j) // H * H]                               # the lead of each play's trick
    off = ~deck.IS_MOON[lead] & ~deck.IS_MOON[cards] & (deck.SUIT[cards] != deck.SUIT[lead])
    if table.dummy is not None and table.rules.dummy_mode == "blind_stack":
        off &= seats != table.dummy
    void = np.zeros((len(seats), H, 4), dtype=bool)
    rows, cols = np.nonzero(off)
    void[rows, seats[rows, cols], deck.SUIT[lead[rows, cols]]] = True
    return void


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int):
    """Worlds for the n games of `view`: hands (n, W, H, 5) card ids with FILLER in played slots
    and live (n, W, H) slot masks. The mover's row is its real hand; the cards the mover cannot
    see are dealt to the other hands (as many as each still holds, none of a suit that hand has
    shown it lacks) and the undealt rest, uniformly over every deal that fits (strategies.worlds;
    players' hands sorted cheapest first as the engine keeps them, the blind dummy's stack in
    random order, an open dummy as it lies). Games whose shown voids no deal fits (a revoke under
    stm.revoke_model fakes a void) are dealt without them."""
    H = view.table.hands_dealt
    seat = np.asarray(view.seat).astype(np.intp)
    j = view.trick_no * H + view.position
    played = (np.asarray(view.play_seats)[:, :j, None] == np.arange(H)).sum(axis=1)    # (n, H) cards played
    # cards this seat cannot see: not played, not its own, not a face-up dummy's
    unseen = ~np.asarray(view.seen)
    np.put_along_axis(unseen, np.asarray(view.hand).astype(np.intp), False, axis=1)
    open_dummy = view.dummy_hand
    if open_dummy is not None:
        d = np.asarray(open_dummy)
        rows, cols = np.nonzero(d >= 0)
        unseen[rows, d[rows, cols].astype(np.intp)] = False
    void = shown_voids(view)
    mine = (np.asarray(view.hand), np.asarray(view.live_bits), None if open_dummy is None else np.asarray(open_dummy))
    hands, live, ok = _deal(view.table, mine, seat, unseen, played, void, rng, worlds)
    if not ok.all():
        bad = np.flatnonzero(~ok)
        hands[bad], live[bad], _ = _deal(view.table, tuple(None if a is None else a[bad] for a in mine), seat[bad],
                                         unseen[bad], played[bad], np.zeros_like(void[bad]), rng, worlds)
    return hands, live


def _deal(table: engine.Table, mine, seat, unseen, played, void, rng, worlds):
    """deal_worlds' draw for given voids: (hands, live, ok (n,) games some deal fitted); mine =
    the mover's hand, its live bits and the open dummy's hand (or None). The groups are the hands
    (group s = seat s; none for the mover or an open dummy) and the undealt cards (group H); card
    i of a game is its i-th unseen card by id."""
    hand, live_bits, open_dummy = mine
    H = table.hands_dealt
    n = len(seat)
    rows = np.arange(n)
    count = unseen.sum(axis=1)
    K = max(int(count.max()), 1) if n else 1
    pool = np.argsort(~unseen, axis=1, kind="stable")[:, :K]                  # (n, K) unseen cards first, by id
    dealt_to = np.ones((n, H), dtype=bool)
    dealt_to[rows, seat] = False
    if open_dummy is not None:
        dealt_to[:, table.dummy] = False
    caps = np.zeros((n, H + 1), dtype=np.int64)
    caps[:, :H] = np.where(dealt_to, deck.HAND_SIZE - played, 0)
    caps[:, H] = count - caps[:, :H].sum(axis=1)
    suit = deck.SUIT[pool]
    lacks = void[rows[:, None], :, suit.clip(0, 3)] & (suit < 4)[:, :, None]    # (n, K, H) seat lacks the card's suit
    allowed = (~lacks * (1 << np.arange(H))).sum(axis=2) | (1 << H)
    order, ok = deal_uniform(rng, allowed, caps, worlds)
    cards = np.take_along_axis(pool[:, None, :], np.maximum(order, 0).astype(np.intp), axis=2)   # (n, W, K)
    start = np.cumsum(caps, axis=1) - caps
    hands = np.full((n, worlds, H, deck.HAND_SIZE), FILLER, dtype=np.int8)
    live = np.zeros((n, worlds, H), dtype=np.uint8)
    hands[rows, :, seat] = hand[:, None, :]
    live[rows, :, seat] = live_bits[:, None]
    slot = np.arange(deck.HAND_SIZE)
    for s in range(H):
        if open_dummy is not None and s == table.dummy:
            hands[:, :, s] = np.where(open_dummy >= 0, open_dummy, FILLER)[:, None, :]
            live[:, :, s] = ((open_dummy >= 0) * SLOT_BIT[:deck.HAND_SIZE]).sum(axis=1).astype(np.uint8)[:, None]
            continue
        if not dealt_to[:, s].any():
            continue
        # its block of the deal, in the deal's (random) order; -1 past its count
        at = np.minimum(start[:, s, None] + slot, K - 1)[:, None, :].repeat(worlds, 1)
        got = np.where((slot < caps[:, s, None])[:, None, :], np.take_along_axis(cards, at, axis=2), -1)
        if table.dummy is not None and s == table.dummy:         # the blind stack: random order, slots t..4
            src = slot - played[:, s, None]
            has = ((src >= 0) & (src < caps[:, s, None]))[:, None, :]
            stack = np.where(has, np.take_along_axis(got, np.clip(src, 0, deck.HAND_SIZE - 1)[:, None, :]
                                                     .repeat(worlds, 1), axis=2), FILLER).astype(np.int8)
            hands[:, :, s] = stack
            live[:, :, s] = (has * SLOT_BIT[:deck.HAND_SIZE]).sum(axis=2).astype(np.uint8)      # (FILLER is a card too)
            continue
        # a player's hand: its cards cheapest first (the engine's order), the played slots after
        key = np.where(got >= 0, engine.DISCARD_VALUE[np.maximum(got, 0)] * 64 + np.maximum(got, 0), 1 << 14)
        got = np.take_along_axis(got, np.argsort(key, axis=2, kind="stable"), 2)
        row = np.where(got >= 0, got, FILLER).astype(np.int8)
        other = dealt_to[:, s]
        hands[:, :, s] = np.where(other[:, None, None], row, hands[:, :, s])
        bits = ((got >= 0) * SLOT_BIT[:deck.HAND_SIZE]).sum(axis=2).astype(np.uint8)
        live[:, :, s] = np.where(other[:, None], bits, live[:, :, s])
    return hands, live, ok


# ------------------------------------------------------------------------------------ the player

@register(GAME, "rollout")
class RolloutPlay:
    """For each legal card, deals the unseen cards `worlds` ways that fit what it has seen, plays
    the rest of the round out with a fast policy (`odd` or `greedy`) in every world, and plays
    the card with the best mean chips for its side.

    The worlds are the same for every candidate card (paired comparison). The play-out uses the
    batch engine's rules and the registered policy for every seat, this player included.
    """

    chunk_hands = 1024     # rounds per chunk of a run with rollout at the table (seconds each)

    ranges = {"worlds": (1, 4096)}

    def __init__(self, worlds: int = 32, policy: str = "odd"):
        if worlds < 1:
            raise BadInput(f"rollout: worlds must be >= 1, got {worlds}")
        if policy not in POLICIES:
            raise BadInput(f"rollout: unknown policy {policy!r}; accepted: {', '.join(POLICIES)}")
        self.worlds, self.policy_name = worlds, policy
        self.policy = POLICIES[policy]()

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        legal_bits = np.asarray(view.legal_bits)
        out = LOWEST[legal_bits].astype(np.intp)             # the only legal slot when forced
        choices = np.bitwise_count(legal_bits) > 1
        games = np.flatnonzero(choices)
        per_game = self.worlds * deck.HAND_SIZE
        step = max(1, MAX_ROLLOUTS // per_game)
        for lo in range(0, len(games), step):
            stopping.check()           # a cancelled run ends here, between batches of play-outs
            idx = games[lo:lo + step]
            out[idx] = self._choose(view.take(idx), rng)
        return out

    def _choose(self, view: PlayView, rng) -> np.ndarray:
        return self.values(view, rng).argmax(axis=1)

    def values(self, view: PlayView, rng) -> np.ndarray:
        """(n, 5) the mean chips the mover's side gains after playing each slot (-inf where
        illegal), over the same worlds for every candidate. moonshot serve's hint panel shows them."""
        cand_game, cand_slot, after, side = self.playouts(view, rng)
        chips = np.asarray(view.chips)
        rows, mine = np.arange(len(cand_game)), side[cand_game]
        gain = after[rows, :, mine].astype(float) - chips[cand_game, mine][:, None]       # (candidates, worlds)
        value = np.full((len(view), deck.HAND_SIZE), -np.inf)
        value[cand_game, cand_slot] = gain.mean(axis=1)
        return value

    def playouts(self, view: PlayView, rng):
        """Every legal slot of every game played out in the same `worlds` deals: (cand_game,
        cand_slot) one row per candidate, after (candidates, worlds, sides) each side's chips at the
        round's end, and side (n,) the side whose chips count for the mover (`moonshot review`
        reads the worlds one by one)."""
        table = view.table
        W, H = self.worlds, table.hands_dealt
        hands, live = deal_worlds(view, rng, W)
        legal = np.asarray(view.legal)                                     # (n, 5)
        cand_game, cand_slot = np.nonzero(legal)                            # one row per candidate
        g = np.repeat(cand_game, W)
        w = np.tile(np.arange(W), len(cand_game))
        seat = np.asarray(view.seat).astype(np.intp)
        # the side whose chips count: the dummy's chooser (open dummy) plays for the non-dealer
        chooser = np.where(seat == (table.dummy if table.dummy is not None else -1),
                           1 - np.asarray(view.dealer), seat)
        side = table.side_of_seat[chooser]
        chips = np.asarray(view.chips)
        j = view.trick_no * H + view.position                               # plays so far
        run_at = playout_table(table)
        # each game's record replayed once (in its first world), then every rollout gets its world
        replayed = engine.resume(run_at, hands[:, 0], live[:, 0], np.asarray(view.dealer), chips,
                            np.asarray(view.play_seats)[:, :j], np.asarray(view.play_cards)[:, :j])
        st = replayed.with_hands(g, hands[g, w], live[g, w])
        policies = [self.policy] * table.players
        after = engine.play_on(run_at, st, policies, rng, first_slot=np.repeat(cand_slot, W)).chips_after
        return cand_game, cand_slot, after.reshape(len(cand_game), W, -1), side
