"""The exact Moon solver against a plain minimax written here over the reference's rules.

The minimax below knows nothing of the solver: it enumerates reference.legal_plays (with the
end calls of leader_calls_end), settles tricks with reference.trick_winner and memoises whole
positions. Random positions cover 3 and 4 players, every trump, every play-changing flag
(notrump_doubles, lead_suit_rule, first_lead_trump) and tricks already in progress; the solver
must give the same value for the position and for every legal move.
"""
from __future__ import annotations

import functools
import itertools
import os
import re

import numpy as np
import pytest

from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon import solver as moon_solver
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.rules import Rules
from tests.budget import size

FLAG_SETS = [Rules(notrump_doubles=nd, lead_suit_rule=ls, first_lead_trump=flt)
             for nd, ls, flt in itertools.product(("high", "own_suit", "low"), ("higher_end", "leader_calls_end"),
                                                   (False, True))]


# ------------------------------------------------------------------------------------ the oracle

def minimax(hands, trump, rules, bidder_side, leader, trick=(), called=None, first=False, memo=None):
    """Bidder-side tricks still to win from the position (the trick in progress included), and
    {move: value} for the player to move. hands: tuple of frozensets (current holdings)."""
    memo = {} if memo is None else memo
    P = len(hands)
    mover = (leader + len(trick)) % P
    values = {}
    for move in _choices(hands[mover], trick, trump, rules, called, first):
        values[move] = _after(hands, trump, rules, bidder_side, leader, trick, called, mover, move, memo)
    pick = max if mover in bidder_side else min
    return pick(values.values()), values


@functools.lru_cache(maxsize=1 << 20)
def _choices(hand, trick, trump, rules, called, first):
    legal = ref.legal_plays(sorted(hand), list(trick), trump, rules, called_end=called, first_lead=first)
    out = []
    for t in legal:
        if not trick and ref.needs_end_call(t, trump, rules):
            out += [(t, end) for end in tiles.ends(t)]
        else:
            out.append(t)
    return tuple(out)


@functools.lru_cache(maxsize=1 << 20)
def _winner(trick, trump, rules, called):
    return ref.trick_winner(list(trick), trump, rules, called)


def _step(hands, trump, rules, leader, trick, called, mover, move):
    """The position after `mover` plays `move`: (hands, trick, called end, the trick's winner,
    None until the trick is complete)."""
    tile, end = move if isinstance(move, tuple) else (move, None)
    h2 = tuple(h - {tile} if s == mover else h for s, h in enumerate(hands))
    t2 = trick + (tile,)
    c2 = end if not trick else called
    if len(t2) < len(hands):
        return h2, t2, c2, None
    return h2, t2, c2, (leader + _winner(t2, trump, rules, c2)) % len(hands)


def _after(hands, trump, rules, bidder_side, leader, trick, called, mover, move, memo):
    h2, t2, c2, winner = _step(hands, trump, rules, leader, trick, called, mover, move)
    if winner is None:
        return _value(h2, trump, rules, bidder_side, leader, t2, c2, memo)
    rest = _value(h2, trump, rules, bidder_side, winner, (), None, memo) if h2[0] else 0
    return int(winner in bidder_side) + rest


def _value(hands, trump, rules, bidder_side, leader, trick, called, memo):
    key = (hands, leader, trick, called)
    if key not in memo:
        P = len(hands)
        mover = (leader + len(trick)) % P
        vals = [_after(hands, trump, rules, bidder_side, leader, trick, called, mover, m, memo)
                for m in _choices(hands[mover], trick, trump, rules, called, False)]
        memo[key] = max(vals) if mover in bidder_side else min(vals)
    return memo[key]


# ------------------------------------------------------------------------------------ positions

def random_position(rng, players, size, rules, trump=None):
    """Hands of `size` tiles, a random leader and bidder, and 0..P-1 random legal plays of a
    trick in progress (with a random end call under leader_calls_end)."""
    pool = rng.permutation(22 if players == 3 else 28)
    hands = [set(int(t) for t in pool[size * s: size * (s + 1)]) for s in range(players)]
    trump = int(rng.integers(0, tiles.N_TRUMPS)) if trump is None else trump
    leader, bidder = int(rng.integers(players)), int(rng.integers(players))
    first = bool(rng.random() < 0.5) and size == tiles.HAND_SIZE or bool(rng.random() < 0.2)
    trick, called = [], None
    for k in range(int(rng.integers(0, players))):
        seat = (leader + k) % players
        choices = _choices(frozenset(hands[seat]), tuple(trick), trump, rules, called, first and k == 0)
        move = choices[int(rng.integers(len(choices)))]
        tile, end = move if isinstance(move, tuple) else (move, None)
        if k == 0:
            called = end
        hands[seat].discard(tile)
        trick.append(tile)
    return [sorted(h) for h in hands], trump, bidder, leader, trick, called, first and not trick


def check(hands, trump, rules, bidder, leader, trick, called, first, solver):
    P = len(hands)
    side = tiles.side_of_seats(P)
    bidder_side = {s for s in range(P) if side[s] == side[bidder]}
    want, want_moves = minimax(tuple(frozenset(h) for h in hands), trump, rules, bidder_side, leader,
                               tuple(trick), called, first)
    got = solver.solve(hands, trump, rules, bidder, leader, trick, called, first)
    where = (f"P={P} trump={tiles.trump_name(trump)} rules={rules} bidder={bidder} leader={leader} "
             f"hands={[[tiles.tile_name(t) for t in h] for h in hands]} trick={[tiles.tile_name(t) for t in trick]} "
             f"called={called} first={first}")
    assert got.tricks == want, where
    assert dict(got.moves) == want_moves, where
    value_only = solver.solve(hands, trump, rules, bidder, leader, trick, called, first, moves=False)
    assert value_only.tricks == want, where


# ------------------------------------------------------------------------------------ tests

@pytest.fixture(scope="module")
def solver():
    return moon_solver.Solver(tt_bits=12)      # a small table: collisions and replacement get exercised


# Positions per table and how often each hand size comes up (whole-position minimax grows fast
# with the hand size, most of all with four players and end calls). MOONSHOT_THOROUGH=1: 1,500 and
# 1,000 positions (the CI sizes take about a quarter of the time).
SMALL = {3: (size(400, 1500), (0.2, 0.3, 0.3, 0.2)), 4: (size(300, 1000), (0.3, 0.36, 0.3, 0.04))}


@pytest.mark.parametrize("players", [3, 4])
def test_small_positions_match_minimax(players, solver):
    """1-4 tiles a hand, a random flag set, trump, leader and bidder, and a random trick in
    progress: the value and every move's value agree with minimax."""
    rng = np.random.default_rng(20260 + players)
    count, size_p = SMALL[players]
    for i in range(count):
        rules = FLAG_SETS[int(rng.integers(len(FLAG_SETS)))]
        size = 1 + int(rng.choice(4, p=size_p))
        check(*_args(rng, players, size, rules), solver=solver)


def _args(rng, players, size, rules, trump=None):
    hands, trump, bidder, leader, trick, called, first = random_position(rng, players, size, rules, trump)
    return hands, trump, rules, bidder, leader, trick, called, first


def test_every_trump_and_flag_set_is_covered(solver):
    """Each (flag set, trump) pair on a few 3-tile positions of each table."""
    rng = np.random.default_rng(99)
    for players in (3, 4):
        for rules in FLAG_SETS:
            for trump in range(tiles.N_TRUMPS):
                for _ in range(2):
                    check(*_args(rng, players, 3, rules, trump), solver=solver)


FULL = int(os.environ.get("MOON_SOLVER_FULL", "0"))     # e.g. 300: the long run


@pytest.mark.parametrize("players", [3, 4])
def test_full_positions_match_boolean_search(players, solver):
    """Whole 7-tile hands (3 players: the 22-tile set less a widow tile; 4 players: 28 tiles):
    the solver's value v, and each move's value, is confirmed by the plain boolean search
    (the bidder's side can take v tricks and cannot take v + 1). Plain minimax is too slow
    for whole hands; MOON_SOLVER_FULL=N checks N positions per table (the long run)."""
    rng = np.random.default_rng(70 + players)
    count = FULL or (size(6, 12) if players == 3 else size(3, 6))
    for i in range(count):
        rules = FLAG_SETS[(5 * i + players) % len(FLAG_SETS)]
        hands, trump, rules, bidder, leader, trick, called, first = _args(rng, players, tiles.HAND_SIZE, rules,
                                                                         i % tiles.N_TRUMPS)
        P = len(hands)
        side = tiles.side_of_seats(P)
        bidder_side = {s for s in range(P) if side[s] == side[bidder]}
        h = tuple(frozenset(x) for x in hands)
        where = f"P={P} trump={trump} rules={rules} hands={hands} trick={trick} called={called} first={first}"
        got = solver.solve(hands, trump, rules, bidder, leader, trick, called, first)
        memo = {}
        v = got.tricks
        assert can_take(h, trump, rules, bidder_side, leader, tuple(trick), called, first, v, memo), where
        assert not can_take(h, trump, rules, bidder_side, leader, tuple(trick), called, first, v + 1, memo), where
        if players == 4 and not FULL:
            continue              # per-move checks on whole 4-player hands only in the long run
        mover = (leader + len(trick)) % P
        assert sorted((m for m, _ in got.moves), key=str) == sorted(
            _choices(h[mover], tuple(trick), trump, rules, called, first), key=str), where
        for move, mv in got.moves:
            ok = [_can_after(h, trump, rules, bidder_side, leader, tuple(trick), called, mover, move, x, memo)
                  for x in (mv, mv + 1)]
            assert ok == [True, False], (move, mv, where)


def can_take(hands, trump, rules, bidder_side, leader, trick, called, first, k, memo):
    """Plain boolean search: can the bidder's side take at least k of the remaining tricks?"""
    if k <= 0:
        return True
    if k > len(hands[(leader + len(hands) - 1) % len(hands)]):
        return False
    key = (hands, leader, trick, called, first, k)
    if key in memo:
        return memo[key]
    P = len(hands)
    mover = (leader + len(trick)) % P
    outcomes = (_can_after(hands, trump, rules, bidder_side, leader, trick, called, mover, m, k, memo)
                for m in _choices(hands[mover], trick, trump, rules, called, first))
    memo[key] = any(outcomes) if mover in bidder_side else all(outcomes)
    return memo[key]


def _can_after(hands, trump, rules, bidder_side, leader, trick, called, mover, move, k, memo):
    h2, t2, c2, winner = _step(hands, trump, rules, leader, trick, called, mover, move)
    if winner is None:
        return can_take(h2, trump, rules, bidder_side, leader, t2, c2, False, k, memo)
    return can_take(h2, trump, rules, bidder_side, winner, (), None, False, k - (winner in bidder_side), memo)


def test_solve_deals_matches_solve():
    """The batch entry point gives each deal's value, whatever its trump, bidder and leader."""
    rng = np.random.default_rng(5)
    for players in (3, 4):
        n = 30
        hands = np.stack([rng.permutation(22 if players == 3 else 28)[:7 * players].reshape(players, 7)
                          for _ in range(n)])
        trumps = rng.integers(0, tiles.N_TRUMPS, n)
        bidders = rng.integers(0, players, n)
        leaders = rng.integers(0, players, n)
        rules = Rules(first_lead_trump=True)
        got = moon_solver.solve_deals(hands, trumps, rules, bidders, leaders)
        want = [moon_solver.solve([list(h) for h in hands[i]], int(trumps[i]), rules, int(bidders[i]), int(leaders[i]),
                        moves=False).tricks for i in range(n)]
        assert got.tolist() == want


def test_bad_positions_are_refused():
    with pytest.raises(ValueError):
        moon_solver.solve([[0, 1], [2], [3, 4]], 3)                  # unequal hands with no trick in progress
    with pytest.raises(ValueError):
        moon_solver.solve([[0], [0], [1]], 3)                        # a tile held twice
    with pytest.raises(ValueError):
        moon_solver.solve([[0], [1], [2], [3], [4]], 3)              # five players


# ------------------------------------------------------------------------------------ solve_position

def test_solve_position_tables():
    from moonshot.analysis.common import make_setup
    from moonshot.analysis.moon_solve import solve_position
    res = solve_position(make_setup("moon", 3), "6-6 6-5 4-1 3-3 / 5-5 5-2 5-3 1-1 / 6-4 4-4 3-1 2-2", "6")
    hands = [[tiles.parse_tile(x) for x in h.split()]
             for h in ("6-6 6-5 4-1 3-3", "5-5 5-2 5-3 1-1", "6-4 4-4 3-1 2-2")]
    want, want_moves = minimax(tuple(frozenset(h) for h in hands), 6, Rules(), {0}, 0)
    sol = res.tables["solution"]
    assert sol["tricks"].dtype.kind == "i" and int(sol["tricks"].iloc[0]) == want
    moves = {tiles.parse_tile(m): int(v) for m, v in zip(res.tables["moves"]["move"], res.tables["moves"]["tricks"])}
    assert moves == want_moves
    assert res.tables["moves"]["best"].tolist() == [v == want for v in res.tables["moves"]["tricks"]]


def test_solve_position_four_players_with_end_calls():
    from moonshot.analysis.common import make_setup
    from moonshot.analysis.moon_solve import solve_position
    setup = make_setup("moon", 4, rules=["moon.lead_suit_rule=leader_calls_end"])
    res = solve_position(setup, "6-6 6-5 4-1 / 5-5 5-2 5-3 / 6-4 4-4 3-1 / 2-2 0-0 1-0", "notrump", bidder=1, leader=1)
    assert int(res.tables["solution"]["tricks"].iloc[0]) == 3
    assert "5-2 calling 2" in set(res.tables["moves"]["move"])


@pytest.mark.parametrize("hands, trump, seats, fragment", [
    ("6-6 / 5-5", "6", {}, "accepted: 3 hands"),
    ("6-6 6-5 / 5-5 / 4-4", "6", {}, "every hand the same size"),
    (" / / ", "6", {}, "every hand the same size"),
    ("6-6 / 6-6 / 4-4", "6", {}, "each tile in at most one hand"),
    ("6-6 / 5-5 / 4-0", "6", {}, "not in the 22-tile set"),
    ("6-6 / 5-5 / 4-7", "6", {}, "bad tile '4-7'"),
    ("6-6 / 5-5 / 4-4", "seven", {}, "bad trump 'seven'"),
    ("6-6 / 5-5 / 4-4", "6", {"bidder": 3}, "bidder 3 is not a seat"),
    ("6-6 / 5-5 / 4-4", "6", {"leader": -1}, "leader -1 is not a seat"),
])
def test_solve_position_bad_input(hands, trump, seats, fragment):
    from moonshot.analysis.common import make_setup
    from moonshot.analysis.moon_solve import solve_position
    from moonshot.simulator.errors import BadInput
    with pytest.raises(BadInput, match=re.escape(fragment)):
        solve_position(make_setup("moon", 3), hands, trump, **seats)


def test_solve_position_refuses_a_trump_the_table_does_not_allow():
    from moonshot.analysis.common import make_setup
    from moonshot.analysis.moon_solve import solve_position
    from moonshot.simulator.errors import BadInput
    with pytest.raises(BadInput, match="'doubles' is not allowed with 4 players"):
        solve_position(make_setup("moon", 4), "6-6 / 5-5 / 4-4 / 3-3", "doubles")
