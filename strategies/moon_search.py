"""Moon search players: perfect-information Monte Carlo (PIMC) over the exact solver.

At each decision the player deals the tiles it cannot see many ways ("worlds"), each one
consistent with everything its seat has seen: its own tiles (and its own discard), every tile
played so far, the suits each player has shown it lacks by failing to follow, and how many tiles
each hand still holds. Each world is solved exactly (simulator.moon.solver: every hand known,
best play by all) and the choice with the best average outcome is taken. The outcome of a world
is the bidder side's score for the hand under the contract (MOON-8, MOON-10.4; with outcome=margin,
less the other side's), plus a hundredth
of a point per trick so that more tricks break ties; the bidder's side maximises it, the
defenders minimise it (the solver's zero-sum view). Bids are public but only soft evidence about
the hands, so worlds are not weighted by them.

A strategy sees only its views (simulator.moon.views), never the engine state.
"""
from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np

from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import solver as moon_solver
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.rules import PLAYER_COUNTS, tile_set_for
from moonshot.simulator.moon.views import BID_VALUES, MOON_BID, PASS, BidView, DiscardView, PlayView, TrumpView
from moonshot.strategies.base import register
from moonshot.strategies.moon import allowed_trumps, keep_value, trick_estimate
from moonshot.strategies.worlds import deal as deal_uniform

GAME = "moon"
TIE_BREAK = 0.01          # points per trick added to a world's outcome (more tricks break ties)
BASE_TRICKS = 1.2         # the threshold players' base estimate (strategies.moon.ThresholdBidder)
RACE_WORLDS = 8           # bidding: every candidate trump is solved on this many worlds first,
RACE_MARGIN = 0.5         # and finished only if within this many tricks of the best on them
SEATS = max(PLAYER_COUNTS)    # a world's hands: one column per seat of the largest table, as the solver takes them
MOVES = moon_solver.SCORES    # the solver's move buffer: a ply has at most this many moves
WORLD_BATCH = 32          # worlds per solver call: a run's stop is heard between calls (a world is quick:
                          # benchmarks/solver_bench.py times it), and each world is solved exactly on its own, so
                          # the batches change no value


# ------------------------------------------------------------------------------------ dealing worlds

def deal_worlds(rng: np.random.Generator, pool: np.ndarray, caps: list[int], allowed: list[int], worlds: int,
                retries: int) -> np.ndarray:
    """(worlds, len(caps)) int64 tile masks: the tiles of `pool` dealt to groups (the other seats,
    and 'out of play'), group g taking caps[g] tiles, all from its `allowed` tile mask, uniformly
    over every deal that fits (strategies.worlds): up to `retries` shuffles first (the first that
    fits is kept), then an exact count-and-draw for the worlds they did not fill (strong void
    constraints)."""
    pool = np.asarray(pool, dtype=np.int64)
    if len(pool) != sum(caps):
        raise ValueError(f"{len(pool)} unseen tiles for {sum(caps)} places")
    G = len(caps)
    masks = np.asarray(allowed, dtype=np.int64)
    bits = (((masks[None, :] >> pool[:, None]) & 1) << np.arange(G)).sum(axis=1)      # (K,) groups per tile
    order, ok = deal_uniform(rng, bits[None, :], np.asarray(caps, dtype=np.int64)[None, :], worlds,
                             tries=max(retries, 1))
    if not ok[0]:
        raise ValueError("no deal of the unseen tiles fits what this seat has seen")
    member = np.repeat(np.arange(G), caps)[:, None] == np.arange(G)                     # (K, G) block -> group
    return (np.int64(1) << pool[order[0].astype(np.intp)]) @ member.astype(np.int64)


def _mask(tiles) -> int:
    m = 0
    for t in tiles:
        if t >= 0:
            m |= 1 << int(t)
    return m


def _tiles(mask: int) -> list[int]:
    return [t for t in range(dominoes.N_TILES) if mask >> t & 1]


# ------------------------------------------------------------------------------------ outcomes

OUTCOMES = ("auto", "side", "margin")


@lru_cache(maxsize=256)
def bidder_points(players: int, rules, bid: int, outcome: str = "side") -> np.ndarray:
    """(8,) the bidder side's score for the hand when it takes 0..7 tricks under `bid`
    (reference.score_hand), plus TIE_BREAK per trick; outcome="margin": that score less the other
    side's (with 3 players the mean of the other two, whose tricks score for them too), which is
    what decides games (a defender's trick is a point for the other side)."""
    out = np.zeros(dominoes.TRICKS + 1)
    n_sides = 3 if players == 3 else 2
    for t in range(dominoes.TRICKS + 1):
        tricks = [t] + [dominoes.TRICKS - t] + [0] * (n_sides - 2)
        score = ref.score_hand(players, 0, bid, tricks, rules).score
        others = sum(score[1:]) / (n_sides - 1) if outcome == "margin" else 0.0
        out[t] = score[0] - others + TIE_BREAK * t
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _set_mask(players: int, rules) -> int:
    return _mask(dominoes.TILE_SETS[tile_set_for(rules, players)])


# ------------------------------------------------------------------------------------ the player

@register(GAME, "pimc")
class PimcMoon:
    """Deals the tiles it cannot see `worlds` ways that fit everything its seat has seen (plays,
    suits shown void, tile counts), solves each deal exactly and makes the choice with the best
    average result: bid, discard, trump and every play.

    Bidding: for its `trumps` most promising trumps (threshold estimate), the bidder side's tricks
    in each world with itself on lead (the widow taken and its least useful tile discarded); a
    trump more than half a trick behind the best on the first 8 worlds is not solved on the rest;
    bids the level with the best expected score if that reaches `min_gain` points, else passes
    (without searching when the estimate falls `reach` tricks short of the lowest open bid).
    Solved worlds are optimistic (everyone plays as if every hand were face up, a partner too),
    so a bid counts `caution` tricks fewer than solved: -1 (default) means 0 with three players
    and 1 with four, where the partner's unseen hand makes the worlds most optimistic (measured:
    without it pimc overbids, 21 included, and loses to threshold).
    Discard and trump (3 players): its `trumps` most promising trumps, each with its least useful
    tile discarded, then the best of them with its `discards` least useful tiles; the trump comes
    with that choice. Without a widow the trump comes from its bidding worlds. Play: every legal
    tile, by the expected score of the hand under the contract (the bidder's side maximises it,
    the defenders minimise it). outcome=margin scores every world by the bidder side's points less
    the other side's (what decides games) instead of the bidder side's alone (outcome=side);
    outcome=auto (default) is margin with four players, where it measured better, and side with three.
    """

    chunk_hands = 256      # hands per chunk of a run with pimc at the table (a few seconds to a minute each)

    ranges = {"worlds": (1, 4096), "trumps": (1, 9), "discards": (1, 8), "min_gain": (-63, 63), "reach": (0, 7),
              "caution": (-1, 7), "retries": (0, 1000)}    # min_gain in points; reach and caution in tricks

    def __init__(self, worlds: int = 32, trumps: int = 3, discards: int = 3, min_gain: float = 1.0,
                 reach: float = 1.5, caution: int = -1, retries: int = 20, outcome: str = "auto"):
        if worlds < 1 or trumps < 1 or discards < 1:
            raise BadInput(f"pimc: worlds, trumps and discards must be >= 1, got {worlds}, {trumps}, {discards}")
        if outcome not in OUTCOMES:
            raise BadInput(f"pimc: unknown outcome {outcome!r}; accepted: {', '.join(OUTCOMES)}")
        self._outcome = outcome
        self.worlds, self.n_trumps, self.n_discards = worlds, trumps, discards
        self.min_gain, self.reach, self.retries = min_gain, reach, retries
        self.caution = caution
        self._solvers: dict = {}       # thread id -> its Solver (the compiled search releases the GIL)
        # What this seat decided earlier in the hand, which only it knows (keyed by seat and tiles):
        self._ends: dict = {}          # (seat, trick, tile, seen) -> the end it chose to call
        self._discards: dict = {}      # (seat, its 7 tiles) -> (the tile it discarded, the trump it chose)
        self._plans: dict = {}         # (seat, its 8 tiles, trump) -> the discard planned with a trump-first call
        self._bid_worlds: dict = {}    # (seat, its 7 tiles) -> {trump: tricks per world} from its bidding

    def outcome(self, players: int) -> str:
        """How worlds are scored at this table: outcome=auto is margin with four players, where it
        scored better than side against threshold (CHANGELOG.md, moon/2), and side with three (not
        measured apart there)."""
        if self._outcome != "auto":
            return self._outcome
        return "margin" if players == 4 else "side"

    def __getstate__(self):            # a worker builds its own solver
        state = dict(self.__dict__)
        state["_solvers"] = {}
        return state

    @property
    def solver(self) -> moon_solver.Solver:
        """This thread's solver: the batch kernels run without the GIL, so two threads (the page's
        hint and a bot's answer) must not share a transposition table."""
        key = threading.get_ident()
        solver = self._solvers.get(key)
        if solver is None:
            if len(self._solvers) > 64:       # threads come and go (a server's pool); keep a few
                self._solvers.clear()
            solver = self._solvers[key] = moon_solver.Solver(tt_bits=16)
        return solver

    # ------------------------------------------------------------------ solving worlds

    def _values(self, players, rules, trump, bidder, hands, leader, first) -> np.ndarray:
        """(W,) bidder-side tricks of whole deals (hands (W, SEATS) masks) from a trick boundary."""
        ctx = moon_solver.context(players, rules, int(trump), int(bidder))
        out = np.zeros(len(hands), dtype=np.int64)
        solver = self.solver
        hands = np.ascontiguousarray(hands)
        for lo in range(0, len(hands), WORLD_BATCH):
            stopping.check()           # a cancelled run ends here (worlds=4096: seconds per decision)
            moon_solver.values_batch(ctx, solver.tt, solver.work, hands[lo:lo + WORLD_BATCH], int(leader), 0, 0, 0,
                                     int(leader), 0, bool(first), out[lo:lo + WORLD_BATCH])
        return out

    def _whole_deal_scores(self, players, rules, seat, bid, trump, hands7: np.ndarray) -> np.ndarray:
        """(W,) the bidder's (this seat's) outcome for worlds whose hands are final."""
        tricks = self._values(players, rules, trump, seat, hands7, seat, True)
        return bidder_points(players, rules, int(bid), self.outcome(players))[tricks]

    def _others_worlds(self, rng, players, rules, seat, known_mask, out_of_play: int):
        """Worlds of a deal before any play: the tiles this seat does not hold dealt 7 to each other
        seat and `out_of_play` aside (the widow or an unknown discard)."""
        pool = np.array(_tiles(_set_mask(players, rules) & ~known_mask), dtype=np.int64)
        others = [s for s in range(players) if s != seat]
        caps = [dominoes.HAND_SIZE] * len(others) + ([out_of_play] if out_of_play else [])
        full = (1 << dominoes.N_TILES) - 1
        dealt = deal_worlds(rng, pool, caps, [full] * len(caps), self.worlds, self.retries)
        hands = np.zeros((self.worlds, SEATS), dtype=np.int64)
        for g, s in enumerate(others):
            hands[:, s] = dealt[:, g]
        aside = dealt[:, len(others)] if out_of_play else np.zeros(self.worlds, dtype=np.int64)
        return hands, aside

    # ------------------------------------------------------------------ decisions

    def _trump_order(self, hand: np.ndarray, allowed: np.ndarray) -> list[int]:
        """The allowed trumps, most promising first (the threshold players' trick estimate)."""
        est = np.where(allowed, trick_estimate(np.asarray(hand)[None, :])[0], -np.inf)
        return [int(t) for t in np.argsort(-est, kind="stable") if allowed[t]]

    def bid(self, view: BidView, rng) -> np.ndarray:
        out = np.zeros(len(view), dtype=np.int16)
        widow = len(dominoes.TILE_SETS[tile_set_for(view.rules, view.players)]) - view.players * dominoes.HAND_SIZE
        for i in range(len(view)):
            stopping.check()
            searched = self.bid_values(view, i, rng)
            if searched is None:
                out[i] = PASS                 # nothing to bid, or out of reach by a wide margin
                continue
            values, found = searched
            can_pass = bool(view.legal[i][0])
            legal = [int(b) for b, ok in zip(BID_VALUES, view.legal[i]) if ok and b != PASS]
            best_value, best_bid = -np.inf, legal[0]
            for _, b, value in values:
                if value > best_value:
                    best_value, best_bid = value, b
            out[i] = best_bid if (best_value >= self.min_gain or not can_pass) else PASS
            if not widow and out[i] != PASS:  # the same worlds name the trump if it wins the auction
                self._remember(self._bid_worlds, (int(view.seat[i]), tuple(sorted(int(t) for t in view.hand[i]))),
                               found)
        return out

    def bid_values(self, view: BidView, i: int, rng):
        """Row i's search: ([(trump, bid, expected score of the bid)] in the order searched, the
        bidder side's tricks per world for each trump searched), or None when it passes without
        searching (no bid left, or the estimate is `reach` tricks short of the lowest one).
        moonshot serve's hint panel shows them."""
        P, rules = view.players, view.rules
        widow = len(dominoes.TILE_SETS[tile_set_for(rules, P)]) - P * dominoes.HAND_SIZE
        allowed = allowed_trumps(P, rules)
        est = BASE_TRICKS + np.where(allowed, trick_estimate(view.hand[i:i + 1]), -np.inf).max(axis=1)[0]
        legal = [int(b) for b, ok in zip(BID_VALUES, view.legal[i]) if ok and b != PASS]
        can_pass = bool(view.legal[i][0])
        need = min((dominoes.TRICKS if b == MOON_BID else b) for b in legal) if legal else 0
        if not legal or (can_pass and est + self.reach < need):
            return None
        seat = int(view.seat[i])
        hand = [int(t) for t in view.hand[i]]
        hands, aside = self._others_worlds(rng, P, rules, seat, _mask(hand), widow)
        caution = self.caution if self.caution >= 0 else (0 if P == 3 else 1)
        found = self._race_trumps(P, rules, seat, hand, hands, aside, widow,
                                  self._trump_order(np.array(hand), allowed)[:self.n_trumps])
        values = [(t, b, float(bidder_points(P, rules, b, self.outcome(P))[np.maximum(tricks - caution, 0)].mean()))
                  for t, tricks in found.items() for b in legal]
        return values, found

    def _race_trumps(self, P, rules, seat, hand, hands, aside, widow, trumps: list[int]) -> dict:
        """{trump: the bidder side's tricks in each world} for the trumps worth finishing: every
        trump is solved on the first RACE_WORLDS worlds, and only those within RACE_MARGIN tricks
        (on average, on those same worlds) of the best go on to every world."""
        race = min(RACE_WORLDS, self.worlds)
        deals, first = {}, {}
        for t in trumps:
            deals[t] = hands.copy()
            deals[t][:, seat] = self._bidder_hands(hand, aside, t, widow)
            first[t] = self._values(P, rules, t, seat, deals[t][:race], seat, True)
        lead = max(v.mean() for v in first.values())
        return {t: np.concatenate([v, self._values(P, rules, t, seat, deals[t][race:], seat, True)])
                for t, v in first.items() if v.mean() >= lead - RACE_MARGIN}

    @staticmethod
    def _bidder_hands(hand: list[int], aside: np.ndarray, trump: int, widow: int) -> np.ndarray:
        """(W,) masks of the bidder's 7 tiles in each world: with a widow, the 8 tiles less the
        one least worth keeping under `trump` (the threshold players' keep value)."""
        if not widow:
            return np.full(len(aside), _mask(hand), dtype=np.int64)
        widow_tile = np.array([_tiles(int(a))[0] for a in aside])
        hand8 = np.column_stack([np.tile(hand, (len(aside), 1)), widow_tile])
        drop = keep_value(hand8, np.full(len(aside), trump)).argmin(axis=1)
        keep = np.ones_like(hand8, dtype=bool)
        keep[np.arange(len(aside)), drop] = False
        bits = np.where(keep, np.int64(1) << hand8.astype(np.int64), 0)
        return bits.sum(axis=1)

    def _widow_choice(self, rng, view, i, trumps: list[int]) -> tuple[int, int]:
        """(slot, trump): the best discard and trump for the bidder's 8 tiles. Each trump is tried
        with its least useful tile discarded; then the best trump with its next `discards` - 1
        candidates. The same worlds throughout (the other two hands, nothing played yet)."""
        P, rules = view.players, view.rules
        seat, bid = int(view.seat[i]), int(view.bid[i])
        hand8 = np.asarray(view.hand[i], dtype=np.int64)
        hands, _ = self._others_worlds(rng, P, rules, seat, _mask(hand8), 0)

        def value(slot, t):
            hands[:, seat] = _mask(np.delete(hand8, slot))
            return self._whole_deal_scores(P, rules, seat, bid, t, hands).mean()

        def order(t):
            return [int(x) for x in np.argsort(keep_value(hand8[None, :], np.array([t]))[0], kind="stable")]

        tried = {(order(t)[0], t): value(order(t)[0], t) for t in trumps}
        best_t = max(tried, key=tried.get)[1]
        for slot in order(best_t)[1:self.n_discards]:
            tried[(slot, best_t)] = value(slot, best_t)
        return max(tried, key=tried.get)

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        out = np.zeros(len(view), dtype=np.int64)
        allowed = allowed_trumps(view.players, view.rules)
        for i in range(len(view)):
            stopping.check()
            seat = int(view.seat[i])
            hand8 = [int(t) for t in view.hand[i]]
            named = int(view.trump[i])
            planned = self._plans.get((seat, tuple(sorted(hand8)), named)) if named >= 0 else None
            if planned is not None:           # trump first: chosen with the discard in mind
                slot = hand8.index(planned)
                t = named
            else:
                trumps = [named] if named >= 0 else self._trump_order(np.array(hand8), allowed)[:self.n_trumps]
                slot, t = self._widow_choice(rng, view, i, trumps)
            out[i] = slot
            kept = tuple(sorted(x for j, x in enumerate(hand8) if j != slot))
            self._remember(self._discards, (seat, kept), (hand8[slot], t))
        return out

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        out = np.zeros(len(view), dtype=np.int64)
        P, rules = view.players, view.rules
        widow = len(dominoes.TILE_SETS[tile_set_for(rules, P)]) - P * dominoes.HAND_SIZE    # an unknown discard
        for i in range(len(view)):
            stopping.check()
            legal = np.asarray(view.legal[i])
            trumps = [t for t in range(dominoes.N_TRUMPS) if legal[t]]
            seat, bid = int(view.seat[i]), int(view.bid[i])
            hand = [int(t) for t in view.hand[i]]
            key = (seat, tuple(sorted(hand)))
            if len(trumps) == 1:
                out[i] = trumps[0]
            elif len(hand) > dominoes.HAND_SIZE:     # trump first, the widow still in hand
                slot, t = self._widow_choice(rng, view, i, self._trump_order(np.array(hand), legal)[:self.n_trumps])
                self._remember(self._plans, key + (t,), hand[slot])
                out[i] = t
            elif key in self._discards and legal[self._discards[key][1]]:
                out[i] = self._discards[key][1]          # chosen together with the discard
            else:
                found = self._bid_worlds.get(key)
                if not found:                            # (not from this player's bidding)
                    hands, _ = self._others_worlds(rng, P, rules, seat, _mask(hand), widow)
                    hands[:, seat] = _mask(hand)
                    found = {t: self._values(P, rules, t, seat, hands, seat, True)
                             for t in self._trump_order(np.array(hand), legal)[:self.n_trumps]}
                points = bidder_points(P, rules, bid, self.outcome(P))
                choices = [t for t in found if legal[t]] or trumps
                out[i] = max(choices, key=lambda t: points[found[t]].mean() if t in found else -np.inf)
        return out

    def play(self, view: PlayView, rng) -> np.ndarray:
        out = np.zeros(len(view), dtype=np.int64)
        for i in range(len(view)):
            stopping.check()
            out[i] = self._play_one(view, i, rng)
        return out

    def call_end(self, view: PlayView, slot, rng) -> np.ndarray:
        out = np.zeros(len(view), dtype=np.int64)
        seen = view.seen_bits if view.seen_bits is not None else np.array([_mask(np.flatnonzero(r)) for r in view.seen])
        for i in range(len(view)):
            tile = int(view.hand[i][slot[i]])
            key = (int(view.seat[i]), int(view.trick_no), tile, int(seen[i]))
            out[i] = self._ends.get(key, dominoes.HIGH[tile])
        return out

    @staticmethod
    def _remember(memo: dict, key, value) -> None:
        if len(memo) > 50_000:
            memo.clear()
        memo[key] = value

    def _play_one(self, view: PlayView, i: int, rng) -> int:
        slots = np.flatnonzero(np.asarray(view.legal[i]))
        calls = view.rules.lead_suit_rule == "leader_calls_end"
        if len(slots) == 1 and not (calls and view.position == 0):
            return int(slots[0])
        moves, score, mover_bids = self.move_values(view, i, rng)
        k = int(np.argmax(score) if mover_bids else np.argmin(score))
        tile, end = moves[k]
        seat, hand, live = int(view.seat[i]), np.asarray(view.hand[i]), np.asarray(view.live[i])
        if end is not None:
            seen = int(view.seen_bits[i]) if view.seen_bits is not None else _mask(np.flatnonzero(view.seen[i]))
            self._remember(self._ends, (seat, int(view.trick_no), tile, seen), end)
        slot = np.flatnonzero((hand == tile) & live)
        return int(slot[0])

    def move_values(self, view: PlayView, i: int, rng) -> tuple[list, np.ndarray, bool]:
        """Every legal move of row i as (tile, called end or None), the bidder's expected score
        after it over the worlds, and whether the mover is on the bidder's side (which maximises
        it; the defenders minimise it). moonshot serve's hint panel shows them."""
        moves, tricks, mover_bids = self.move_outcomes(view, i, rng)
        points = bidder_points(view.players, view.rules, int(view.bid[i]), self.outcome(view.players))
        return moves, points[tricks].mean(axis=0), mover_bids

    def move_outcomes(self, view: PlayView, i: int, rng) -> tuple[list, np.ndarray, bool]:
        """move_values world by world: the bidder side's tricks for the hand after each move in each
        world, (worlds, moves) (`moonshot review` pairs the moves on the same worlds)."""
        P, rules = view.players, view.rules
        seat, trump, bidder = int(view.seat[i]), int(view.trump[i]), int(view.bidder[i])
        hand = np.asarray(view.hand[i])
        live = np.asarray(view.live[i])
        ctx = moon_solver.context(P, rules, trump, bidder)
        # what this seat knows: its own tiles, every tile played, its own discard
        seen = int(view.seen_bits[i]) if view.seen_bits is not None else _mask(np.flatnonzero(view.seen[i]))
        mine = _mask(hand[live])
        known = mine | seen | _mask(hand)            # its own played tiles are in `seen` too
        disc = int(view.discard[i]) if view.discard is not None else -1
        if disc >= 0:
            known |= 1 << disc
        pool = np.array(_tiles(_set_mask(P, rules) & ~known), dtype=np.int64)
        trick = [int(x) for x in view.trick[i] if x >= 0]
        played_seats = {int(s) for s in view.trick_seats[i] if s >= 0}
        left = dominoes.HAND_SIZE - view.trick_no
        others = [s for s in range(P) if s != seat]
        caps = [left - (1 if s in played_seats else 0) for s in others]
        out_of_play = len(pool) - sum(caps)
        voids = np.asarray(view.void[i])              # (P, 9) suits each seat has shown it lacks
        allowed = []
        for s in others:
            m = (1 << dominoes.N_TILES) - 1
            for x in np.flatnonzero(voids[s]):
                m &= ~int(ctx[moon_solver.O_SUIT + x])
            allowed.append(m)
        if out_of_play:
            caps.append(out_of_play)
            allowed.append((1 << dominoes.N_TILES) - 1)
        dealt = deal_worlds(rng, pool, caps, allowed, self.worlds, self.retries)
        hands = np.zeros((self.worlds, SEATS), dtype=np.int64)
        hands[:, seat] = mine
        for g, s in enumerate(others):
            hands[:, s] = dealt[:, g]
        # the trick in progress
        pos = int(view.position)
        leader = (seat - pos) % P
        played = _mask(trick)
        if pos:
            led, best, win = int(view.led_suit[i]), int(view.winning_power[i]), int(view.winning_seat[i])
        else:
            led, best, win = 0, 0, leader
        first = view.trick_no == 0 and pos == 0
        moves = np.zeros(MOVES, dtype=np.int64)
        values = np.zeros((self.worlds, MOVES), dtype=np.int64)
        solver, n = self.solver, 0
        for lo in range(0, self.worlds, WORLD_BATCH):     # the mover's moves are the same in every world
            stopping.check()
            n = moon_solver.moves_batch(ctx, solver.tt, solver.work, hands[lo:lo + WORLD_BATCH], leader, pos, led, best,
                                        win, played, bool(first), moves, values[lo:lo + WORLD_BATCH])
        side_of = view.side_of_seat
        sides = side_of[:P]
        done = int(view.tricks[i][sides[bidder]])
        tricks = np.minimum(done + values[:, :n], dominoes.TRICKS)
        decoded = [moon_solver.decode_move(int(m)) for m in moves[:n]]
        return ([m if isinstance(m, tuple) else (m, None) for m in decoded], tricks,
                bool(sides[seat] == sides[bidder]))
