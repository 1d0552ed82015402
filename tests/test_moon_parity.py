"""The Moon batch engine against the reference engine: same deal, same choices -> the same legal
calls, discards, trumps and tiles at every step, the same trick winners, tricks and scores; and
whole games against reference.Game."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from tests.moon_testing import RandomPlayer, SlowRandomPlayer, replay_hand
from moonshot.simulator.moon import reference as ref
from moonshot.simulator.moon.engine import Table, play, play_games
from moonshot.simulator.moon.rules import parse_rules
from moonshot.simulator.moon.tiles import DOUBLES, NOTRUMP
from tests.budget import size

# (players, rule flags, trump the random players favour so the variant is exercised)
CASES = [
    (3, [], None),
    (3, ["moon.auction=open_until_passes"], None),
    (3, ["moon.all_pass=force_last_min"], None),
    (3, ["moon.all_pass=force_dealer"], None),
    (3, ["moon.min_bid=3"], None),
    (3, ["moon.min_bid=5"], None),
    (3, ["moon.moon_bid_requires_prior_7=true"], None),
    (3, ["moon.widow_timing=trump_first"], None),
    (3, ["moon.tile_set=no_blanks21"], None),
    (3, ["moon.widow=none"], NOTRUMP),
    (3, ["moon.notrump_doubles=own_suit"], NOTRUMP),
    (3, ["moon.notrump_doubles=low"], NOTRUMP),
    (3, ["moon.lead_suit_rule=leader_calls_end"], None),
    (3, ["moon.first_lead_trump=true"], None),
    (3, ["moon.allow_doubles_trump=false"], None),
    (3, ["moon.bid_success=strictly_greater"], None),
    (3, ["moon.scoring=marks7"], DOUBLES),
    (3, ["moon.moon_bid_scoring=instant_win_or_loss"], None),
    (3, ["moon.auction=open_until_passes", "moon.all_pass=force_dealer", "moon.moon_bid_requires_prior_7=true",
         "moon.min_bid=3"], None),
    (3, ["moon.auction=open_until_passes", "moon.all_pass=force_last_min", "moon.min_bid=5"], None),
    (3, ["moon.lead_suit_rule=leader_calls_end", "moon.notrump_doubles=own_suit", "moon.first_lead_trump=true",
         "moon.widow_timing=trump_first"], NOTRUMP),
    (3, ["moon.lead_suit_rule=leader_calls_end", "moon.notrump_doubles=low", "moon.widow=none"], NOTRUMP),
    (4, [], None),
    (4, ["moon.allow_doubles_trump_4p=true"], DOUBLES),
    (4, ["moon.bidder_score_4p=bid"], None),
    (4, ["moon.scoring=marks7", "moon.bid_success=strictly_greater"], None),
    (4, ["moon.auction=open_until_passes", "moon.all_pass=force_last_min"], None),
    (4, ["moon.auction=open_until_passes", "moon.all_pass=force_dealer", "moon.min_bid=3"], None),
    (4, ["moon.lead_suit_rule=leader_calls_end", "moon.first_lead_trump=true"], None),
    (4, ["moon.notrump_doubles=own_suit", "moon.min_bid=5", "moon.moon_bid_scoring=instant_win"], NOTRUMP),
]


def _ids(case):
    players, flags, _ = case
    return f"{players}p:" + (",".join(f.split(".", 1)[1] for f in flags) or "default")


def _strategies(kind: str, players: int, favour):
    if kind == "shared":
        return [RandomPlayer(p_moon=0.1, favour=favour)] * players
    # seat 0 reads only the bool fields; the others are separate objects (grouping by seat)
    others = RandomPlayer(p_pass=0.3, p_moon=0.1, favour=favour)
    return [SlowRandomPlayer()] + [others if s % 2 else RandomPlayer(p_pass=0.6, p_moon=0.1, favour=favour,
                                                                          call_ends=False)
                                   for s in range(1, players)]


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@pytest.mark.parametrize("kind", ["shared", "mixed"])
def test_hands_match_reference(case, kind):
    players, flags, favour = case
    table = Table(players, parse_rules(flags))
    seed = zlib.crc32(repr((players, flags, kind)).encode())
    rng = np.random.default_rng(seed)
    n = size(80, 320)
    scores = rng.integers(-10, 20, (n, table.n_sides)).astype(np.int16)
    res = play(table, n, _strategies(kind, players, favour), rng, rng, scores=scores, trace=True)
    outcomes = set()
    for i in range(n):
        hand = replay_hand(res, i, table)
        outcomes.add("thrown" if hand.thrown_in else bool(hand.result.made))
        if favour is not None and not hand.thrown_in:
            outcomes.add(("trump", hand.trump))
    # the cases really exercise what they are about
    assert False in outcomes
    if table.rules.min_bid + (table.rules.bid_success == "strictly_greater") < 5:   # random play rarely takes 5
        assert True in outcomes
    if table.rules.all_pass == "redeal":
        assert "thrown" in outcomes
    else:
        assert "thrown" not in outcomes
    if favour is not None:
        assert ("trump", favour) in outcomes
    if table.rules.lead_suit_rule == "leader_calls_end":
        assert (res.called_ends >= 0).any()


def test_lead_end_calls_include_the_lower_end():
    """Random end calls sometimes name the lower end, and the engine follows that suit."""
    table = Table(3, parse_rules(["moon.lead_suit_rule=leader_calls_end"]))
    rng = np.random.default_rng(5)
    res = play(table, 300, [RandomPlayer()] * 3, rng, rng)
    from moonshot.simulator.moon.tiles import HIGH, LOW
    lead_tiles = res.play_tiles[:, ::3]
    called = res.called_ends
    used = called >= 0
    assert (called[used] == LOW[lead_tiles[used]]).any() and (called[used] == HIGH[lead_tiles[used]]).any()


def test_without_call_end_the_higher_end_is_named():
    table = Table(4, parse_rules(["moon.lead_suit_rule=leader_calls_end"]))
    rng = np.random.default_rng(6)
    res = play(table, 200, [RandomPlayer(call_ends=False)] * 4, rng, rng)
    from moonshot.simulator.moon.tiles import HIGH
    lead_tiles = res.play_tiles[:, ::4]
    used = res.called_ends >= 0
    assert used.any()
    assert (res.called_ends[used] == HIGH[lead_tiles[used]]).all()


GAME_CASES = [
    (3, []),
    (3, ["moon.moon_bid_scoring=instant_win"]),
    (3, ["moon.moon_bid_scoring=instant_win_or_loss"]),
    (3, ["moon.end_tie=bidder_goes_out"]),
    (3, ["moon.scoring=marks7", "moon.all_pass=force_dealer"]),
    (4, []),
    (4, ["moon.set_twice_loses_4p=true"]),
    (4, ["moon.set_twice_loses_4p=true", "moon.scoring=marks7", "moon.moon_bid_scoring=instant_win_or_loss"]),
    (4, ["moon.end_tie=bidder_goes_out", "moon.bidder_score_4p=bid"]),
]


@pytest.mark.parametrize("players,flags", GAME_CASES, ids=[f"{p}p:{','.join(f) or 'default'}" for p, f in GAME_CASES])
def test_games_match_reference_game(players, flags):
    table = Table(players, parse_rules(flags))
    rules = table.rules
    n = 40          # fewer games leave a variant unexercised (by_variant below)
    seed = zlib.crc32(repr((players, flags)).encode())
    deal_rng, play_rng = np.random.default_rng([seed, 1]), np.random.default_rng([seed, 2])
    strategies = [RandomPlayer(p_pass=0.5, p_moon=0.03, cautious=True)] * players
    g = play_games(table, n, strategies, deal_rng, play_rng, max_hands=150, keep_hands=True)
    games = [ref.Game(players, rules, np.random.default_rng(0), first_bidder=int(g.first_bidder[i])) for i in range(n)]
    last_set = [None] * n
    by_variant = 0                    # games decided by an instant 21 or a second set in a row
    for active, res in g.hand_log:
        assert len(res) == len(active)
        for r, i in enumerate(active.tolist()):
            game = games[i]
            assert game.winner is None                    # finished games are inert: never dealt in again
            assert game.first_bidder == res.first_bidder[r]
            hand = replay_hand(res, r, table, trace=False)
            set_side = None if hand.thrown_in or hand.result.made else game.sides[hand.bidder]
            twice = set_side is not None and set_side == last_set[i] and rules.set_twice_loses_4p
            if not hand.thrown_in:
                last_set[i] = set_side
            if game.finish_hand(hand) is not None:
                by_variant += twice or hand.result.wins_game is not None or hand.result.loses_game is not None
    finished = 0
    for i, game in enumerate(games):
        assert (-1 if game.winner is None else game.winner) == g.winner[i]
        assert list(game.scores) == g.scores[i].tolist()
        assert game.hands_played == g.hands[i]
        finished += game.winner is not None
    assert finished >= n // 2
    if rules.set_twice_loses_4p or rules.moon_bid_scoring != "points":
        assert by_variant > 0
