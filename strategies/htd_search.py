"""Hit the Deck search player: Monte Carlo play-outs of every option through the batch engine.

At each decision with two or more options the player deals what it cannot see many ways
("worlds") consistent with its view (htd_worlds.deal_worlds). Each option (a card,
the voluntary draw, keeping a drawn card) is then played out in every world to the end of the hand
by a fast policy in every seat, this one included, through the engine's own hand loop
(engine.resume; with `tactician`, htd_playout asks it inside the compiled passes: the same
results): cuts, flips, reshuffles and the slap races of the chance model included. Every
option sees the same worlds and chance keys (a paired comparison), and the option with the best
mean outcome for the seat is taken: points for the hand, or near a game's end the chance of
winning the game.

A strategy sees only its view (simulator.hit_the_deck.views), never the engine state.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
from numba import njit

from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck.engine import Table, play
from moonshot.simulator.hit_the_deck.engine.resume import play_on, worlds_position
from moonshot.simulator.hit_the_deck.views import DRAW, N_CHOICES, PlayView
from moonshot.strategies import htd_playout
from moonshot.strategies.base import register
from moonshot.strategies.hit_the_deck import Dump, RandomPlay, Tactician, legal_bits, lowest_bit
from moonshot.strategies.htd_worlds import deal_worlds

GAME = "hit-the-deck"
POLICIES = {"tactician": Tactician, "dump": Dump, "random": RandomPlay}
VALUES = ("hand", "margin", "game", "auto")
MAX_ROWS = 1 << 15            # play-outs per engine run (memory stays bounded for big batches)
ENDGAME = 40                  # value=auto: a game whose highest total is this close to the target is valued by wins
FUTURES, FUTURE_HANDS = 32, 16  # value=auto: sampled continuations per play-out, hands in each
SCORE_SAMPLE = 4096           # value=auto: hands of tactician self-play the continuations are drawn from
SCORE_SEED = 2026             # their own fixed seed (not a run's): the same sample in every process and run
MAX_EXTRA_HANDS = 40          # value=game: hands played after this one before a game counts as unfinished


@lru_cache(maxsize=None)
def playout_table(players: int, rules, horizon: int) -> Table:
    """The table the play-outs run at: the same rules, every seat with the table's reaction profile
    (htd.reaction: the view shows no seat's own), and the hand cut off `horizon` turns after the
    decision (htd.max_turns: then every seat scores its hand, as in a blocked hand), so that a few
    endless play-outs do not hold up the batch."""
    return Table(players, replace(rules, max_turns=horizon))


# ------------------------------------------------------------------------------------ game value

@lru_cache(maxsize=None)
def hand_scores(players: int, rules) -> np.ndarray:
    """(SCORE_SAMPLE, players) every seat's points in hands of tactician self-play under `rules`
    (a fixed seed: the same table in every process, so --jobs changes no choice)."""
    rngs = [np.random.default_rng([SCORE_SEED, players, i]) for i in range(3)]      # deal, play, chance
    return play(Table(players, rules), SCORE_SAMPLE, [Tactician()] * players, *rngs).score.astype(np.int32)


def win_chance(view: PlayView, g: np.ndarray, score: np.ndarray, futures: np.ndarray, at=None) -> np.ndarray:
    """value=auto near a game's end: each play-out's chance that the mover wins the game (a tie for
    lowest shares it), from the totals after this hand and, where nobody reached the target yet,
    FUTURES continuations of FUTURE_HANDS hands drawn whole from hand_scores (futures (m, K, H)
    row indices; at the end of one that never reached it, the lowest total then wins). With
    `at` = (a, b), play-out i's continuations are futures[a[i], b[i]] of a (G, W, K, H) array
    (read in place: gathered they were ~1 KB a play-out)."""
    me = np.asarray(view.seat).astype(np.int64)[g]
    totals = np.asarray(view.scores)[g].astype(np.int32) + score.astype(np.int32)
    out = np.empty(len(g))
    if at is None:
        futures, at = np.asarray(futures)[:, None], (np.arange(len(g)), np.zeros(len(g), dtype=np.int64))
    _win_shares(totals, me, hand_scores(view.players, view.rules), np.ascontiguousarray(futures),
                np.ascontiguousarray(at[0], dtype=np.int64), np.ascontiguousarray(at[1], dtype=np.int64),
                int(view.rules.target_score), out)
    return out


@njit(cache=True)
def _win_shares(totals, me, hs, futures, fa, fb, target, out):
    """win_chance's loop: each continuation stops at the first hand that takes a total to the target.
    Scalar loops over the seats (no arrays made per continuation); play-out i's continuations are
    futures[fa[i], fb[i]]."""
    m, P = totals.shape
    K, H = futures.shape[2], futures.shape[3]
    t = np.empty(P, dtype=np.int32)
    for i in range(m):
        acc = 0.0
        for k in range(K):
            top = np.int32(-2 ** 31)
            for p in range(P):
                t[p] = totals[i, p]
                top = max(top, t[p])
            h = 0
            while top < target and h < H:
                row = futures[fa[i], fb[i], k, h]
                top = np.int32(-2 ** 31)
                for p in range(P):
                    t[p] += hs[row, p]
                    top = max(top, t[p])
                h += 1
            low = t[0]
            for p in range(1, P):
                low = min(low, t[p])
            ties = 0
            for p in range(P):
                ties += t[p] == low
            acc += (t[me[i]] == low) / np.float64(ties)
        out[i] = acc / K


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
    (value=hand), those minus the others' mean (value=margin), its chance of winning the game,
    played out to the end (value=game), or (value=auto, the default) its points for the hand until
    a game total comes within ENDGAME points of the target, then its chance of winning the game,
    from the totals after the hand and sampled continuations of whole hands (win_chance: cheap
    enough for every decision, where value=game plays the game out).

    The worlds and chance keys are the same for every option (paired comparison); a play-out stops
    `horizon` turns after the decision with every hand scored. Only choices with two or more
    options are searched. With `screen` K (default 8, 0 for none) every option is played out on the
    first K worlds only; the options ahead of the policy's choice there go on, with it, to the other
    worlds, and are judged on those alone: faster, and it measured no worse (CHANGELOG.md has the
    figures). The worlds hold what the view tells (htd_worlds.deal_worlds): with `infer=2` (default)
    the cards others are known to hold and the whole remembered draw pile, with `infer=1` or more the
    kinds the other seats' draws showed they lack (for their older cards); `infer=0` uses counts and
    known_draw alone.
    """

    reads_held = True      # the engine keeps view.held for it (State.held)
    chunk_hands = 256      # hands (or games) per chunk of a run with rollout at the table (seconds each)

    ranges = {"worlds": (1, 4096), "horizon": (10, 2000), "z": (0, 10), "screen": (0, 4096), "infer": (0, 2)}

    def __init__(self, worlds: int = 32, policy: str = "tactician", value: str = "auto", horizon: int = 100,
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
            stopping.check()           # a cancelled run ends here, between batches of play-outs
            idx = games[lo:lo + step]
            out[idx] = self._choose(view.take(idx), rng)
        return out

    def _choose(self, view: PlayView, rng: np.random.Generator) -> np.ndarray:
        n, W = len(view), self.worlds
        base = np.asarray(self.policy.play(view, rng)).astype(np.intp)     # the policy's own choice
        first = W if not 0 < self.screen < W else self.screen       # the worlds every option is played out in
        world = deal_worlds(view, rng, W, self.infer, dealt=first)
        if self.value == "auto":     # the same continuations for every option of a world
            world["futures"] = rng.integers(0, SCORE_SAMPLE, (n, W, FUTURES, FUTURE_HANDS), dtype=np.int16)
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
        everyone = np.ones(len(cand_game), dtype=bool)
        self._fill(view, world, keys, cand_game, cand_col, keep, everyone, np.arange(first), cost, rng)
        if first < W:
            # screening: only options ahead of the policy's choice on the first worlds go on (with it)
            ahead = ~is_base & ((cost[:, :first] - cost[base_row[cand_game], :first]).mean(axis=1) < 0)
            rival = np.zeros(n, dtype=bool)
            rival[cand_game[ahead]] = True
            go_on = (ahead | is_base) & rival[cand_game]
            world["deal_rest"](np.flatnonzero(rival))                 # the later worlds of these games only
            self._fill(view, world, keys, cand_game, cand_col, keep, go_on, np.arange(first, W), cost, rng)
            # judged on the later worlds only: the first ones chose the rivals, so they favour them
            return self.pick(cand_game, cand_col, np.where(go_on[:, None], cost[:, first:], np.nan), base, n)
        return self.pick(cand_game, cand_col, cost, base, n)

    def _fill(self, view, world, keys, cand_game, cand_col, keep, rows, worlds, cost, rng) -> None:
        """cost[rows][:, worlds] from play-outs: the drawn-card keeps (the turn passes) apart."""
        for passed in (False, True):
            stopping.check()
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
        score = self.play_out(view, world, keys, cand_game, cand_col, passed, rng, worlds).reshape(-1, P)
        seat = np.asarray(view.seat).astype(np.intp)
        me = seat[g]
        mine = score[np.arange(len(g)), me]
        if self.value == "hand":
            cost = mine
        elif self.value == "margin":
            cost = mine - (score.sum(axis=1) - mine) / (P - 1)
        elif self.value == "game":
            cost = -self._game_wins(view, g, score, rng)
        else:                   # auto: a game's options all share one unit, points or wins
            cost = mine
            end = np.asarray(view.scores)[g].max(axis=1) >= view.rules.target_score - ENDGAME
            if end.any():
                cost[end] = -win_chance(view, g[end], score[end], world["futures"], at=(g[end], w[end]))
        return cost.reshape(len(cand_game), W)

    def play_out(self, view: PlayView, world: dict, keys, cand_game, cand_col, passed: bool, rng,
                 worlds: np.ndarray) -> np.ndarray:
        """(options, len(worlds), players) every seat's penalty points for the hand when the option
        is taken in each of those worlds (`moonshot review` reads them world by world)."""
        W, P = len(worlds), view.players
        g = np.repeat(cand_game, W)
        w = np.tile(worlds, len(cand_game))
        seat = np.asarray(view.seat).astype(np.intp)
        cur = seat[g]
        if passed:
            cur = (cur + np.asarray(view.direction)[g]) % P
        table = playout_table(P, view.rules, self.horizon)
        st = worlds_position(table, world["hands"], world["draw"], world["disc"], world["known"], world["dn"],
                             world["sn"], view.demand, view.direction, view.seen, view.scores, g, w, cur, keys[g, w])
        first = None if passed else np.repeat(cand_col, W).astype(np.intp)
        if htd_playout.fits(self.policy, table, st):      # the same results, the tactician asked compiled
            res = htd_playout.play_out(table, st, self.policy, first, rng)
        else:
            res = play_on(table, st, [self.policy if first is None else _FirstForced(self.policy, first)] * P, rng)
        return res["score"].astype(float).reshape(len(cand_game), W, P)

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
