"""Hit the Deck search player: Monte Carlo play-outs of every option through the batch engine.

At each decision with two or more options the player deals what it cannot see many ways
("worlds") consistent with its view: the other hands get as many cards as they hold, the draw
pile as many as it holds with the cards its memory knows (known_draw, htd.memory) at their places,
and the discard pile under the top card its size, taken first from the cards seen going public
this hand (that is where they lie until a Flip or a reshuffle moves them). Each option (a card,
the voluntary draw, keeping a drawn card) is then played out in every world to the end of the hand
by a fast policy in every seat, this one included, through the engine's own hand loop
(engine.resume): cuts, flips, reshuffles and the slap races of the chance model included. Every
option sees the same worlds and chance keys (a paired comparison), and the option with the best
mean outcome for the seat is taken.

A strategy sees only its view (simulator.hit_the_deck.views), never the engine state.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
from numba import njit

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.engine import Table, play
from moonshot.simulator.hit_the_deck.engine.resume import play_on, position
from moonshot.simulator.hit_the_deck.views import DRAW, N_CHOICES, PlayView
from moonshot.strategies.base import register
from moonshot.strategies.hit_the_deck import Dump, RandomPlay, Tactician, legal_bits, lowest_bit

GAME = "hit-the-deck"
POLICIES = {"tactician": Tactician, "dump": Dump, "random": RandomPlay}
VALUES = ("hand", "margin", "game")
PILE = 110
MAX_ROWS = 1 << 15            # play-outs per engine run (memory stays bounded for big batches)
MAX_EXTRA_HANDS = 40          # value=game: hands played after this one before a game counts as unfinished


@lru_cache(maxsize=None)
def playout_table(players: int, rules, horizon: int) -> Table:
    """The table the play-outs run at: the same rules, every seat with the table's reaction profile
    (htd.reaction: the view shows no seat's own), and the hand cut off `horizon` turns after the
    decision (htd.max_turns: then every seat scores its hand, as in a blocked hand), so that a few
    endless play-outs do not hold up the batch."""
    return Table(players, replace(rules, max_turns=horizon))


# ------------------------------------------------------------------------------------ worlds

def _one_hot(kinds: np.ndarray) -> np.ndarray:
    """(n, k) kinds (-1 none) -> (n, 38) copies per kind."""
    n = len(kinds)
    out = np.zeros((n, cards.N_KINDS), dtype=np.int16)
    rows = np.repeat(np.arange(n), kinds.shape[1])
    k = kinds.reshape(-1).astype(np.intp)
    ok = k >= 0
    np.add.at(out, (rows[ok], k[ok]), 1)
    return out


def deal_worlds(view: PlayView, rng: np.random.Generator, worlds: int, infer: int = 2) -> dict:
    """`worlds` deals of what the mover cannot see, for each of the n games of `view`:
    hands (n, W, P, 38) copies per kind (the mover's own row is its hand), draw and disc
    (n, W, 110) piles bottom first with dn, sn (n,) cards, and known (n, 110) the draw-pile places
    the mover's memory knows (their cards as known_draw says)."""
    n, W, P = len(view), worlds, view.players
    seat = np.asarray(view.seat).astype(np.intp)
    hand = np.asarray(view.hand).astype(np.int16)
    top = np.asarray(view.top).astype(np.intp)
    dn = np.asarray(view.draw_size).astype(np.intp)
    sn = np.asarray(view.discard_size).astype(np.intp)
    pile = getattr(view, "known_pile", None)
    kd = np.asarray(view.known_draw if pile is None or infer < 2 else pile).astype(np.intp)
    rows = np.arange(n)
    # what the others are known to hold (view.held: cards drawn from places whose cards went public)
    held = view.held if infer >= 2 and getattr(view, "held", None) is not None else np.zeros((n, P, cards.N_KINDS))
    held = np.asarray(held).astype(np.int16)
    held[rows, seat] = 0
    held_all = held.sum(axis=1)
    sizes = np.asarray(view.hand_sizes).astype(np.intp) - held.sum(axis=2)        # cards still to deal
    known_counts = _one_hot(kd)
    top_count = _one_hot(top[:, None])
    pool = cards.deck_counts(view.rules).astype(np.int16)[None, :] - hand - top_count - known_counts - held_all
    if (pool < 0).any() or (sizes < 0).any():
        raise ValueError("htd rollout: the view holds more copies of a card than the deck")
    # seen going public this hand and not known elsewhere: these lie in the discard pile first
    pref_count = np.clip(np.asarray(view.seen).astype(np.int16) - top_count - known_counts - held_all, 0, pool)
    # every card instance of the pool, per game, padded to 110 with kind -1
    L = pool.sum(axis=1).astype(np.intp)
    need = (sn - 1) + (sizes.sum(axis=1) - sizes[rows, seat]) + (dn - (kd >= 0).sum(axis=1))
    if (L != need).any():
        raise ValueError("htd rollout: the view's card counts do not add up to the deck")
    flat = pool.reshape(-1).astype(np.intp)
    kind_of = np.repeat(np.tile(np.arange(cards.N_KINDS), n), flat)
    game_of = np.repeat(np.repeat(rows, cards.N_KINDS), flat)
    start = np.concatenate([[0], np.cumsum(L)[:-1]])
    pos = np.arange(len(kind_of)) - start[game_of]
    run_start = np.concatenate([[0], np.cumsum(flat)[:-1]])               # first instance of each (game, kind)
    copy = np.arange(len(kind_of)) - np.repeat(run_start, flat)
    inst = np.full((n, PILE), -1, dtype=np.int8)
    inst[game_of, pos] = kind_of
    pref = np.zeros((n, PILE), dtype=bool)
    pref[game_of, pos] = copy < pref_count.reshape(-1)[game_of * cards.N_KINDS + kind_of]
    pad = inst < 0
    # the discard pile under the top: the preferred cards first, at random
    key1 = rng.random((n, W, PILE)) - 2.0 * pref[:, None, :]
    key1[np.broadcast_to(pad[:, None, :], key1.shape)] = np.inf
    order1 = np.argsort(key1, axis=2, kind="stable")
    below = sn - 1
    in_disc = np.broadcast_to(np.arange(PILE)[None, None, :] < below[:, None, None], (n, W, PILE))
    disc = np.zeros((n, W, PILE), dtype=np.int8)
    disc_cards = np.take_along_axis(np.broadcast_to(inst[:, None, :], (n, W, PILE)), order1, axis=2)
    disc[in_disc] = disc_cards[in_disc]
    disc[rows, :, np.maximum(sn - 1, 0)] = np.where(sn > 0, top, 0)[:, None]
    # the rest at random: the other hands in seat order after the mover, then the unknown draw places
    key2 = rng.random((n, W, PILE))
    taken = np.zeros((n, W, PILE), dtype=bool)
    np.put_along_axis(taken, order1, in_disc, axis=2)
    key2[taken | pad[:, None, :]] = np.inf
    order2 = np.argsort(key2, axis=2, kind="stable")
    cards2 = np.take_along_axis(np.broadcast_to(inst[:, None, :], (n, W, PILE)), order2, axis=2)
    others = (seat[:, None] + 1 + np.arange(P - 1)[None, :]) % P                # (n, P-1)
    cum = np.cumsum(sizes[rows[:, None], others], axis=1)                        # (n, P-1)
    lacks = getattr(view, "lacks", None) if infer >= 1 else None
    if lacks is not None:
        # what each other seat showed it lacks (view.lacks: when it last had to draw) binds all but
        # its `fresh` newest cards: those are dealt first from the cards it may hold
        lacks = np.asarray(lacks).astype(np.uint64)[rows[:, None], others]
        # known cards of a lacked kind were taken since: the rest of the newest are still to deal
        bits = (lacks[:, :, None] >> np.arange(cards.N_KINDS, dtype=np.uint64)) & np.uint64(1)
        held_lacked = (held[rows[:, None], others] * bits).sum(axis=2)
        fresh = np.maximum(np.asarray(view.fresh).astype(np.int64)[rows[:, None], others] - held_lacked, 0)
        if (lacks != 0).any():
            cards2 = np.ascontiguousarray(cards2)
            _deal_hands_first(cards2, (L - np.maximum(below, 0)).astype(np.int64), sizes[rows[:, None], others].astype(np.int64),
                              fresh, lacks)
    rank = np.arange(PILE)
    owner_j = (rank[None, None, :] >= cum[:, :, None]).sum(axis=1)               # (n, 110): index into others
    in_hands = owner_j < P - 1
    owner = others[rows[:, None], np.minimum(owner_j, P - 2)]                   # (n, 110)
    hands = np.zeros((n, W, P, cards.N_KINDS), dtype=np.int16)
    g_i, w_i, r_i = np.nonzero(np.broadcast_to(in_hands[:, None, :], (n, W, PILE)))
    np.add.at(hands, (g_i, w_i, owner[g_i, r_i], cards2[g_i, w_i, r_i].astype(np.intp)), 1)
    hands += held[:, None, :, :]
    hands[rows, :, seat] = hand[:, None, :]
    # the draw pile, bottom first: known places from memory, the others in dealt order
    depth = dn[:, None] - 1 - rank[None, :]                                      # (n, 110) places from the top
    inside = depth >= 0
    D = kd.shape[1]
    kd_at = np.where(inside & (depth < D), np.take_along_axis(kd, np.clip(depth, 0, D - 1), axis=1), -1)
    known = inside & (kd_at >= 0)
    unknown = inside & ~known
    t = np.cumsum(unknown, axis=1) - 1
    src = np.clip(cum[:, -1][:, None] + t, 0, PILE - 1)                           # (n, 110) rank in order2
    draw = np.take_along_axis(cards2, np.broadcast_to(src[:, None, :], (n, W, PILE)), axis=2)
    draw = np.where(known[:, None, :], kd_at[:, None, :], np.where(unknown[:, None, :], draw, 0)).astype(np.int8)
    return {"hands": hands, "draw": draw, "dn": dn, "disc": disc, "sn": sn, "known": known}


@njit(cache=True)
def _deal_hands_first(cards, avail, caps, fresh, lacks):
    """Reorders each world's shuffled cards (cards (n, W, 110) kinds, the first avail[g] of game g
    available) in place so that the first caps[g, 0] are the first other seat's hand, the next
    caps[g, 1] the second's, and so on, then the rest in their shuffled order. Each seat's
    caps - fresh older cards come from kinds outside its `lacks` mask (the first such cards in the
    shuffle; any cards when too few are left), its fresh cards from the cards after those. The
    seats are dealt tightest first (fewest cards that fit per older card), so that a loose seat does
    not take the only cards a tight one may hold."""
    n, W, _ = cards.shape
    G = caps.shape[1]
    used = np.zeros(cards.shape[2], dtype=np.bool_)
    out = np.empty(cards.shape[2], dtype=cards.dtype)
    start = np.zeros(G, dtype=np.int64)
    slack = np.zeros(G, dtype=np.float64)
    for g in range(n):
        m = avail[g]
        for j in range(1, G):
            start[j] = start[j - 1] + caps[g, j - 1]
        for j in range(G):
            old = max(caps[g, j] - fresh[g, j], 0)
            fits = 0
            for k in range(cards.shape[2]):
                if k < m and ((lacks[g, j] >> np.uint64(cards[g, 0, k])) & np.uint64(1)) == 0:
                    fits += 1
            slack[j] = fits / old if old > 0 else np.inf
        order = np.argsort(slack, kind="mergesort")
        for w in range(W):
            row = cards[g, w]
            used[:m] = False
            for jj in range(G):
                j = order[jj]
                mask = lacks[g, j]
                old = max(caps[g, j] - fresh[g, j], 0)
                pos = start[j]
                got = 0
                last = 0
                for i in range(m):
                    if got >= old:
                        break
                    k = row[i]
                    if not used[i] and ((mask >> np.uint64(k)) & np.uint64(1)) == 0:
                        used[i] = True
                        out[pos] = k
                        pos += 1
                        got += 1
                        last = i + 1
                # the newest cards (and any the constraint could not fill): the next unused ones after
                for step in range(m):
                    if got >= caps[g, j]:
                        break
                    i = (last + step) % m
                    if not used[i]:
                        used[i] = True
                        out[pos] = row[i]
                        pos += 1
                        got += 1
            pos = start[G - 1] + caps[g, G - 1]
            for i in range(m):
                if not used[i]:
                    out[pos] = row[i]
                    pos += 1
            for i in range(m):
                row[i] = out[i]


# ------------------------------------------------------------------------------------ play-outs

class _FirstForced:
    """The play-out policy, except that the first question (every play-out at the mover's turn)
    is answered with the option under test."""

    def __init__(self, policy, first: np.ndarray):
        self.policy, self.first = policy, first

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        if self.first is not None:
            first, self.first = self.first, None
            if len(first) != len(view):
                raise AssertionError("htd rollout: the first question must be every play-out's")
            return first
        return self.policy.play(view, rng)


# ------------------------------------------------------------------------------------ the player

@register(GAME, "rollout")
class RolloutPlay:
    """For each option (each legal card, the voluntary draw, keeping a drawn card), deals what it
    cannot see `worlds` ways that fit its view, plays the hand out with a fast policy (`tactician`,
    `dump` or `random`) in every world and keeps the policy's own choice unless another option beats
    it by `z` standard errors of the paired difference: in its own penalty points for the hand
    (value=hand), those minus the others' mean (value=margin), or its chance of winning the game,
    played out to the end (value=game).

    The worlds and chance keys are the same for every option (paired comparison); a play-out stops
    `horizon` turns after the decision with every hand scored. Only choices with two or more
    options are searched. With `screen` K (default 8, 0 for none) every option is played out on the
    first K worlds only; the options ahead of the policy's choice there go on, with it, to the other
    worlds, and are judged on those alone (measured: 1.7x the hands per second, and -0.23 [-0.43,
    -0.03] penalty points per hand against no screening, 1,280 paired deals). The other seats'
    older cards avoid the kinds their draws showed they lack (view.lacks; `infer=0` ignores them).
    """

    reads_held = True      # the engine keeps view.held for it (State.held)
    chunk_hands = 256      # hands (or games) per chunk of a run with rollout at the table (seconds each)

    ranges = {"worlds": (1, 4096), "horizon": (10, 2000), "z": (0, 10), "screen": (0, 4096), "infer": (0, 2)}

    def __init__(self, worlds: int = 32, policy: str = "tactician", value: str = "hand", horizon: int = 100,
                 z: float = 2.0, screen: int = 8, infer: int = 2):
        if worlds < 1:
            raise BadInput(f"rollout: worlds must be >= 1, got {worlds}")
        if policy not in POLICIES:
            raise BadInput(f"rollout: unknown policy {policy!r}; accepted: {', '.join(POLICIES)}")
        if value not in VALUES:
            raise BadInput(f"rollout: unknown value {value!r}; accepted: {', '.join(VALUES)}")
        self.worlds, self.policy_name, self.value, self.horizon, self.z = worlds, policy, value, horizon, z
        self.screen, self.infer = screen, int(infer)
        self.policy = POLICIES[policy]()

    def play(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        bits = legal_bits(view)
        out = lowest_bit(bits)                                # the only option when forced
        games = np.flatnonzero(bits & (bits - np.uint64(1)))
        step = max(1, MAX_ROWS // (self.worlds * 6))
        for lo in range(0, len(games), step):
            idx = games[lo:lo + step]
            out[idx] = self._choose(view.take(idx), rng)
        return out

    def _choose(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        n, W = len(view), self.worlds
        base = np.asarray(self.policy.play(view, rng)).astype(np.intp)     # the policy's own choice
        world = deal_worlds(view, rng, W, self.infer)
        keys = rng.integers(0, np.iinfo(np.uint64).max, (n, W), dtype=np.uint64, endpoint=True)
        legal = np.asarray(view.legal)
        drawn = np.asarray(view.drawn)
        # the options: card kinds to play (a drawn card's too), DRAW (a voluntary draw on a turn, or
        # keeping the drawn card: the turn passes)
        cand_game, cand_col = np.nonzero(legal)
        keep = (cand_col == DRAW) & (drawn[cand_game] >= 0)
        is_base = cand_col == base[cand_game]
        base_row = np.full(n, -1)
        base_row[cand_game[is_base]] = np.flatnonzero(is_base)
        cost = np.full((len(cand_game), W), np.nan)
        first = W if not 0 < self.screen < W else self.screen
        everyone = np.ones(len(cand_game), dtype=bool)
        self._fill(view, world, keys, cand_game, cand_col, keep, everyone, np.arange(first), cost, rng)
        if first < W:
            # screening: only options ahead of the policy's choice on the first worlds go on (with it)
            ahead = ~is_base & ((cost[:, :first] - cost[base_row[cand_game], :first]).mean(axis=1) < 0)
            rival = np.zeros(n, dtype=bool)
            rival[cand_game[ahead]] = True
            go_on = (ahead | is_base) & rival[cand_game]
            self._fill(view, world, keys, cand_game, cand_col, keep, go_on, np.arange(first, W), cost, rng)
            # judged on the later worlds only: the first ones chose the rivals, so they favour them
            return self.pick(cand_game, cand_col, np.where(go_on[:, None], cost[:, first:], np.nan), base, n)
        return self.pick(cand_game, cand_col, cost, base, n)

    def _fill(self, view, world, keys, cand_game, cand_col, keep, rows, worlds, cost, rng) -> None:
        """cost[rows][:, worlds] from play-outs: the drawn-card keeps (the turn passes) apart."""
        for passed in (False, True):
            part = rows & (keep if passed else ~keep)
            if part.any():
                cost[np.ix_(part, worlds)] = self._playouts(view, world, keys, cand_game[part], cand_col[part],
                                                           passed, rng, worlds)

    def pick(self, cand_game, cand_col, cost: np.ndarray, base: np.ndarray, n: int) -> np.ndarray:
        """Per game, the option whose play-outs beat the policy's own choice by the most, if by more
        than `z` standard errors of the paired difference (same worlds); else the policy's choice.
        cost (options, W) per world, lower is better."""
        W = cost.shape[1]
        base_row = np.full(n, -1)
        is_base = cand_col == base[cand_game]
        base_row[cand_game[is_base]] = np.flatnonzero(is_base)
        diff = cost - cost[base_row[cand_game]]                       # (options, W) paired against the base
        mean = diff.mean(axis=1)
        se = diff.std(axis=1, ddof=1) / np.sqrt(W) if W > 1 else np.zeros(len(mean))
        score = np.full((n, N_CHOICES), np.inf)
        score[cand_game, cand_col] = np.where(mean < -self.z * se, mean, np.inf)    # only clear gains count
        score[np.arange(n), base] = 0.0
        return score.argmin(axis=1)

    def _playouts(self, view: PlayView, world: dict, keys, cand_game, cand_col, passed: bool, rng,
                  worlds: np.ndarray) -> np.ndarray:
        """(options, len(worlds)) cost (lower is better) of each option in each of those worlds.
        `passed`: the options are 'keep the drawn card', so the play-outs start at the next seat's turn."""
        W, P = len(worlds), view.players
        g = np.repeat(cand_game, W)
        w = np.tile(worlds, len(cand_game))
        seat = np.asarray(view.seat).astype(np.intp)
        cur = seat[g]
        if passed:
            cur = (cur + np.asarray(view.direction)[g]) % P
        table = playout_table(P, view.rules, self.horizon)
        st = position(table, world["hands"][g, w], world["draw"][g, w], world["dn"][g], world["disc"][g, w],
                      world["sn"][g], np.asarray(view.demand)[g], np.asarray(view.direction)[g], cur,
                      np.asarray(view.seen)[g], np.asarray(view.scores)[g], keys[g, w], world["known"][g])
        policy = self.policy if passed else _FirstForced(self.policy, np.repeat(cand_col, W).astype(np.intp))
        res = play_on(table, st, [policy] * P, rng)
        score = res["score"].astype(float)
        me = seat[g]
        mine = score[np.arange(len(g)), me]
        if self.value == "hand":
            cost = mine
        elif self.value == "margin":
            cost = mine - (score.sum(axis=1) - mine) / (P - 1)
        else:
            cost = -self._game_wins(view, g, score, rng)
        return cost.reshape(len(cand_game), W)

    def _game_wins(self, view: PlayView, g: np.ndarray, score: np.ndarray, rng) -> np.ndarray:
        """value=game: each play-out's share of the game's win for the mover (a tie for lowest
        shares it), the game played on from the totals after this hand by the policy in every seat."""
        P, rules = view.players, view.rules
        me = np.asarray(view.seat).astype(np.intp)[g]
        totals = np.asarray(view.scores)[g].astype(np.int32) + score.astype(np.int32)
        m = len(g)
        win = np.zeros(m)
        open_ = np.ones(m, dtype=bool)
        table = Table(P, rules)
        for _ in range(MAX_EXTRA_HANDS + 1):
            over = open_ & (totals.max(axis=1) >= rules.target_score)
            if over.any():
                o = np.flatnonzero(over)
                low = totals[o] == totals[o].min(axis=1, keepdims=True)
                win[o] = low[np.arange(len(o)), me[o]] / low.sum(axis=1)
                open_[o] = False
            if not open_.any():
                break
            a = np.flatnonzero(open_)
            res = play(table, len(a), [self.policy] * P, rng, rng, rng, scores=totals[a].astype(np.int16))
            totals[a] += res.score
        return win
