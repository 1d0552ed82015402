"""Hit the Deck search player `rollout` (strategies/htd_search.py): worlds that fit the view, choices
that depend on the view only (a hidden change to the engine state changes none), only legal moves
under every htd.* flag (the engine checks every answer; histories replay through the reference),
the same numbers for any --jobs, and the play-outs resumed from a position play by the rules."""
from __future__ import annotations

import json

import numpy as np
import pytest

from moonshot.analysis.common import make_setup, match
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck.engine import Table, play, play_games
from moonshot.simulator.hit_the_deck.history import records, replay
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies import htd_search, htd_worlds
from moonshot.strategies.base import make_strategy, registered
from tests.budget import size

GAME = "hit-the-deck"
FAST = "rollout:worlds=3,horizon=40"
# every htd.* flag away from its default at least once
FLAG_SETS = [
    ["htd.voluntary_draw=true", "htd.drawn_card_play=optional", "htd.memory=window(3)"],
    ["htd.drawn_card_play=optional", "htd.word_matches_word=true", "htd.start_card=first_player_plays_normally",
     "htd.memory=p_recall(0.5)", "htd.cut_depth=uniform"],
    ["htd.final_card_effects=resolve_then_score", "htd.exposed_hand_card=shouter_turn_consumed",
     "htd.reaction=child", "htd.cut_exposed=top_of_remainder", "htd.bury_position=exact_middle",
     "htd.memory=window(0)"],
    ["htd.colours=Red,Green,Blue,Yellow", "htd.htd_number_values=1,1,1,1,1,5,5,5,5,5", "htd.cut_depth=exact_half",
     "htd.p_notice=0.5", "htd.judge_window=0", "htd.announce_htd_cards=true", "htd.announce_factor=0.5",
     "htd.max_turns=100"],
    ["htd.reaction=off", "htd.target_score=40", "htd.winner_tie=play_another_hand",
     "htd.dealer_rotation=went_out_player_deals", "htd.blocked_hand=score_all"],
    ["htd.dealer_rotation=fixed", "htd.reaction=distracted", "htd.voluntary_draw=true"],
]


def rngs(seed: int):
    return [np.random.default_rng(seed + i) for i in range(3)]


def test_registered_with_a_rule_of_thumb_and_its_own_chunk():
    cls = registered(GAME)["rollout"]
    assert cls is htd_search.RolloutPlay
    assert 1 <= cls.chunk_hands < 65_536


# ------------------------------------------------------------------ worlds

class Worlds:
    """Tactician's play; at each decision the rollout's worlds are checked against the engine state."""

    reads_held = True

    def __init__(self):
        self.tactician = make_strategy(GAME, "tactician")
        self.checked = self.constrained = self.unfit = 0

    def play(self, view, rng):
        world = htd_worlds.deal_worlds(view, np.random.default_rng(1), 5)
        st, rows = view._st, view._rows
        deck = cards.deck_counts(view.rules)
        for i in range(min(len(view), 20)):
            dn, sn = int(world["dn"][i]), int(world["sn"][i])
            assert dn == st.dn[rows[i]] and sn == st.sn[rows[i]]
            for w in range(5):
                hands = world["hands"][i, w]
                total = hands.sum(axis=0) + np.bincount(world["draw"][i, w, :dn], minlength=cards.N_KINDS) \
                    + np.bincount(world["disc"][i, w, :sn], minlength=cards.N_KINDS)
                assert (total == deck).all()                                  # every card once
                assert (hands.sum(axis=1) == view.hand_sizes[i]).all()        # the hand sizes
                assert (hands[view.seat[i]] == view.hand[i]).all()            # its own hand as it is
                assert world["disc"][i, w, sn - 1] == view.top[i]             # the top card
                assert (view.known_pile[i, :8] == view.known_draw[i]).all()
                for depth, kind in enumerate(view.known_pile[i]):             # what memory knows
                    if kind >= 0:
                        assert world["draw"][i, w, dn - 1 - depth] == kind
                assert (hands >= view.held[i]).all()                          # cards known to be held
                for s in range(view.players):                                 # what draws showed
                    if s != view.seat[i] and view.lacks[i, s]:
                        lacked = sum(int(hands[s, k]) for k in range(cards.N_KINDS) if int(view.lacks[i, s]) >> k & 1)
                        self.constrained += 1
                        self.unfit += lacked > int(view.fresh[i, s])
            self.checked += 1
        return self.tactician.play(view, rng)


@pytest.mark.parametrize("flags", [[], ["htd.memory=window(4)"], ["htd.memory=p_recall(0.3)"]])
def test_worlds_fit_the_view(flags):
    spy = Worlds()
    play(Table(4, parse_rules(flags, 4)), 60, [spy] * 4, *rngs(3))
    assert spy.checked > 500
    # a seat's older cards avoid what it showed it lacks (the greedy deal misses now and then)
    assert spy.constrained > 1000 and spy.unfit < 0.03 * spy.constrained


class Lacks:
    """Records view.lacks/fresh/held at every decision and checks them against the hidden hands."""

    reads_held = True

    def __init__(self):
        self.tactician = make_strategy(GAME, "tactician")
        self.seen, self.informative, self.known = [], 0, 0

    def play(self, view, rng):
        st, rows = view._st, view._rows
        for i, r in enumerate(rows):
            for s in range(view.players):
                lacked = sum(int(st.hand[r, s, k]) for k in range(cards.N_KINDS) if int(view.lacks[i, s]) >> k & 1)
                assert lacked <= int(view.fresh[i, s])          # only cards taken since may be of those kinds
                self.informative += int(view.lacks[i, s]) != 0 and int(st.size[r, s]) > int(view.fresh[i, s])
            assert (view.held[i] <= st.hand[r]).all()           # known cards are held
            self.known += int(view.held[i].sum())
        self.seen.append((view.lacks.tolist(), view.fresh.tolist(), view.held.tolist()))
        return self.tactician.play(view, rng)


@pytest.mark.parametrize("flags", [[], ["htd.drawn_card_play=optional"], ["htd.voluntary_draw=true"]])
def test_what_draws_show_is_true_and_the_same_in_both_hand_loops(flags):
    logs = []
    for record in (False, True):                       # the compiled loop, then HandRun (record mode)
        spy = Lacks()
        play(Table(4, parse_rules(flags, 4)), 30, [spy, spy, spy, spy], *rngs(11), record=record)
        logs.append(spy.seen)
        if "htd.voluntary_draw=true" in flags:         # a draw may be by choice: it shows nothing
            assert spy.informative == 0
        else:
            assert spy.informative > 100
        assert spy.known > 100                         # cards drawn where a Flip had shown them
    assert logs[0] == logs[1]


def test_known_cards_only_under_perfect_memory():
    spy = Lacks()
    play(Table(4, parse_rules(["htd.memory=window(50)"], 4)), 10, [spy] * 4, *rngs(11))
    assert spy.known == 0


# ------------------------------------------------------------------ the view only

class HiddenChange:
    """Seat 0 is the rollout. Before each of its decisions the engine state is changed where seat 0
    cannot see (another hand's cards swapped with cards deep in the draw pile, the unknown part of
    the draw pile shuffled): the rollout, with the same random stream, must choose the same."""

    reads_held = True

    def __init__(self, spec: str):
        self.spec = spec
        self.rollout = make_strategy(GAME, spec)
        self.compared = self.changed = 0

    def play(self, view, rng):
        seed = int(rng.integers(1 << 30))
        before = self.rollout.play(view, np.random.default_rng(seed))
        st, rows = view._st, view._rows
        saved = {k: getattr(st, k).copy() for k in ("hand", "hbits", "draw", "dstamp")}
        change = np.random.default_rng(seed + 1)
        for i, r in enumerate(rows):
            other = (int(view.seat[i]) + 1) % view.players
            dn = int(st.dn[r])
            hidden = np.flatnonzero(st.dstamp[r, :dn] < 0)    # places no memory can know
            if len(hidden) < 2:
                continue
            st.draw[r, hidden] = st.draw[r, hidden][change.permutation(len(hidden))]
            held = np.flatnonzero(st.hand[r, other] > st.held[r, other])     # not known to be there
            if len(held):                                    # swap one card of `other` with a hidden draw card
                k = change.choice(held)
                j = int(change.choice(hidden))
                d = st.draw[r, j]
                if d != k:
                    st.hand[r, other, k] -= 1
                    st.hand[r, other, d] += 1
                    st.draw[r, j] = k
                    st.hbits[r, other] = np.uint64(sum(1 << int(x) for x in np.flatnonzero(st.hand[r, other])))
                    self.changed += 1
        fresh = view.take(np.arange(len(view)))               # no field cached from before
        after = self.rollout.play(fresh, np.random.default_rng(seed))
        for k, v in saved.items():
            getattr(st, k)[...] = v
        assert (before == after).all()
        self.compared += len(view)
        return before


def test_choices_depend_on_the_view_only():
    tac = make_strategy(GAME, "tactician")
    spy = HiddenChange(FAST)
    play(Table(4), 24, [spy, tac, tac, tac], *rngs(5))
    assert spy.compared > 100 and spy.changed > 50


# ------------------------------------------------------------------ legal under every flag, histories

@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: f[0])
def test_only_legal_moves_under_every_flag(flags):
    table = Table(4, parse_rules(flags, 4))
    seats = [make_strategy(GAME, FAST), make_strategy(GAME, "tactician"),
             make_strategy(GAME, "rollout:worlds=4,screen=2,horizon=40,policy=dump"), make_strategy(GAME, "random")]
    res = play(table, size(20, 80), seats, *rngs(7))              # IllegalMove if any answer were illegal
    assert ((res.went_out >= 0) | res.blocked).all()
    if any(f.startswith("htd.target_score") for f in flags):   # whole games (value=game plays them out too)
        games = play_games(table, 4, [make_strategy(GAME, FAST + ",value=game")] + seats[1:], *rngs(8), max_hands=6)
        assert games.hands.min() >= 1


def test_histories_with_the_rollout_replay():
    table = Table(3, parse_rules(["htd.voluntary_draw=true", "htd.drawn_card_play=optional"], 3))
    specs = [FAST, "tactician", FAST + ",value=margin"]
    res = play(table, 12, [make_strategy(GAME, s) for s in specs], *rngs(9), record=True)
    for n, line in enumerate(records(res, table, specs, 9, 0)):
        assert " plays " in replay(json.loads(line), "h.jsonl", n + 1)


# ------------------------------------------------------------------ runs

def test_the_same_numbers_for_any_jobs(monkeypatch):
    monkeypatch.setattr(htd_search.RolloutPlay, "chunk_hands", 8)        # several chunks from a few hands
    setup = make_setup(GAME, 3)
    one = match(setup, "rollout:worlds=2,horizon=30", "tactician", hands=20, games=None, seed=4, jobs=1)
    two = match(setup, "rollout:worlds=2,horizon=30", "tactician", hands=20, games=None, seed=4, jobs=2)
    assert one.tables["match"].equals(two.tables["match"])
    assert one.meta["deals_with_different_outcomes"] > 0
    # whole games, where value=auto values the end of each game by its sampled continuations
    setup = make_setup(GAME, 3, rules=["htd.target_score=40"])
    one = match(setup, "rollout:worlds=2,horizon=30", "tactician", hands=None, games=8, seed=4, jobs=1)
    two = match(setup, "rollout:worlds=2,horizon=30", "tactician", hands=None, games=8, seed=4, jobs=2)
    assert one.tables["match"].equals(two.tables["match"])


def test_the_option_beating_the_policy_by_z_standard_errors():
    r = htd_search.RolloutPlay(worlds=4, z=1.0)
    games, cols = np.array([0, 0, 0, 1, 1]), np.array([3, 5, 9, 3, 7])
    base = np.array([9, 7])
    cost = np.array([[3.0, 4, 5, 6], [1, 2, 3, 4], [5, 6, 7, 8],   # game 0: 5 is 4 better than 9 in every world
                     [4, 7, 6, 9], [5, 6, 7, 8]])                  # game 1: 3 is 0 better than 7 on average
    assert r.pick(games, cols, cost, base, 2).tolist() == [5, 7]
    assert htd_search.RolloutPlay(worlds=4, z=10).pick(games, cols, cost, base, 2).tolist() == [5, 7]
    assert htd_search.RolloutPlay(worlds=4, z=0).pick(games, cols, cost - [[0], [0], [0], [0], [0.5]],
                                                      base, 2).tolist() == [5, 7]


def test_options_screened_out_keep_the_policy_choice():
    """After screening, options that did not go on (NaN play-outs) never beat the policy's choice."""
    r = htd_search.RolloutPlay(worlds=4, z=0)
    games, cols = np.array([0, 0, 1, 1]), np.array([3, 5, 3, 7])
    base = np.array([3, 7])
    nan = np.full(4, np.nan)
    cost = np.array([nan, nan, [1.0, 1, 1, 1], [5.0, 6, 7, 8]])      # game 0: nothing went on
    assert r.pick(games, cols, cost, base, 2).tolist() == [3, 3]


# ------------------------------------------------------------------ value=auto: the game near its end

def test_win_chance_reads_the_game_totals():
    from types import SimpleNamespace
    rules = parse_rules([], 4)
    n = 4
    view = SimpleNamespace(players=4, rules=rules, seat=np.zeros(n, dtype=np.int8),
                           scores=np.array([[90, 95, 95, 95], [95, 90, 95, 95], [70, 70, 70, 70], [40, 95, 95, 95]]))
    score = np.array([[0, 10, 0, 0], [30, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])   # this hand's points
    futures = np.random.default_rng(1).integers(0, htd_search.SCORE_SAMPLE, (n, 400, htd_search.FUTURE_HANDS))
    p = htd_search.win_chance(view, np.arange(n), score, futures)
    assert p[0] == 1.0                  # a seat reached 100 and seat 0 is lowest: the game is won now
    assert p[1] == 0.0                  # seat 0 reached 120: lost now
    assert abs(p[2] - 0.25) < 0.08      # level totals: one chance in four, give or take the sample
    assert p[3] > 0.9                   # far ahead with the others near the end
    # the continuations come from a fixed sample: the same in every process
    assert (htd_search.hand_scores(4, rules) == htd_search.hand_scores.__wrapped__(4, rules)).all()
