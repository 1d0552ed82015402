"""The batch engine against the reference engine: same deals, same choices -> same everything."""
import json
import zlib

import numpy as np
import pytest

from moonshot import cli
from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import replayed
from moonshot.simulator.shoot_the_moon import reference as ref
from moonshot.simulator.shoot_the_moon.engine import (
    LEAD_CLASS, Table, deal, play, play_games, play_hand, strength_table,
)
from moonshot.simulator.shoot_the_moon.rules import parse_rules
from moonshot.strategies.base import parse_seat_specs

CASES = [
    (2, False, []), (3, False, []), (4, False, []), (4, True, []), (5, False, []), (6, False, []),
    (6, True, []),
    (6, True, ["stm.six_player_teams=three_teams_of_two"]),
    (4, True, ["stm.partnership_trick_count=per_player"]),
    (4, False, ["stm.moon_chip_netting=sequential"]),
    (5, False, ["stm.chip_supply=finite40", "stm.moon_chip_netting=sequential"]),
    (3, False, ["stm.little_moon_lead_trumps=true"]),
    (2, False, ["stm.dummy_mode=open_hand_nondealer_chooses"]),
    (4, False, ["stm.revoke_model=on(0.3,0.5)"]),
    (4, True, ["stm.revoke_model=on(0.3,0.7)", "stm.revoke_keep_hand_chips=true"]),
]


@pytest.mark.parametrize("players,partners,rule_args", CASES)
@pytest.mark.parametrize("strategy", ["random", "greedy", "odd"])
def test_batch_matches_reference(players, partners, rule_args, strategy):
    rules = parse_rules(rule_args)
    table = Table(players, partners, rules)
    rng = np.random.default_rng(zlib.crc32(repr((players, partners, strategy, tuple(rule_args))).encode()))
    n = 150
    hands = deal(rng, n, table.hands_dealt)
    dealer = rng.integers(0, players, n).astype(np.int8)
    chips = rng.integers(0, 9, (n, table.n_sides)).astype(np.int16)
    if rules.chip_supply == "finite40":
        chips = rng.integers(5, 10, (n, table.n_sides)).astype(np.int16)   # near the 40-chip limit
    seats = parse_seat_specs("shoot-the-moon", [strategy], players, default="random")
    res = play_hand(table, hands, dealer, chips, seats.strategies, rng, trace=True)
    H = table.hands_dealt
    for i in range(n):
        rnd = ref.Hand(players, partners, rules, int(dealer[i]), res.hands[i].tolist(), chips[i].tolist())
        for step in range(5 * H):
            seat_t, legal_t = res.legal_trace[step]
            seat = int(res.play_seats[i, step])
            assert rnd.to_move() == seat == seat_t[i]
            assert sorted(rnd.legal()) == sorted(c for c in legal_t[i].tolist() if c >= 0)
            detected = bool(res.revoke_detected[i, step]) if res.revoke_detected is not None else False
            rnd.play(int(res.play_cards[i, step]), revoke_detected=detected)
        assert rnd.done
        assert rnd.trick_winners == res.trick_winners[i].tolist()
        assert rnd.tricks == res.tricks[i].tolist()
        assert rnd.tricks_per_seat == res.tricks_seat[i].tolist()
        assert rnd.moon_chips == res.moon_chips[i].tolist()
        assert rnd.round_chips == res.round_chips[i].tolist()
        assert rnd.penalty == res.penalty[i].tolist()
        assert rnd.chips_after == res.chips_after[i].tolist()
        assert rnd.annulled == bool(res.annulled[i])


@pytest.mark.parametrize("lmt", [False, True])
def test_strength_table_agrees_with_reference_winner(lmt):
    """Every 3-card trick drawn at random: the table's argmax is the reference winner."""
    rules = parse_rules([f"stm.little_moon_lead_trumps={str(lmt).lower()}"])
    table = strength_table(rules)
    rng = np.random.default_rng(7)
    for _ in range(3000):
        size = int(rng.integers(3, 7))
        trick = rng.choice(52, size, replace=False)
        if all(c in (50, 51) for c in trick):
            continue
        engine_pos = int(table[LEAD_CLASS[trick[0]], trick].argmax())
        assert engine_pos == ref.trick_winner(trick.tolist(), rules)


def test_deal_is_uniform_enough():
    rng = np.random.default_rng(3)
    hands = deal(rng, 52_000, 4)
    counts = np.bincount(hands[:, 0, 0], minlength=52)
    assert counts.min() > 850 and counts.max() < 1150     # expected 1000 per card
    flat = hands.reshape(len(hands), -1)
    assert all(len(set(row)) == 20 for row in flat[:500].tolist())


@pytest.mark.parametrize("players,partners", [(2, False), (6, True)])
def test_play_deals_a_dealer_and_plays_from_the_starting_chips(players, partners):
    """play(): the deal, then a random dealer, both from deal_rng; the round from stm.starting_chips."""
    table = Table(players, partners, parse_rules(["stm.starting_chips=3"]))
    seats = parse_seat_specs("shoot-the-moon", ["odd"], players, default="odd").strategies
    res = play(table, 400, seats, np.random.default_rng(5), np.random.default_rng(6), trace=True)
    rng = np.random.default_rng(5)
    hands = deal(rng, 400, table.hands_dealt)
    dealer = rng.integers(0, players, 400).astype(np.int8)
    chips = np.full((400, table.n_sides), 3, dtype=np.int16)
    by_hand = play_hand(table, hands, dealer, chips, seats, np.random.default_rng(6), trace=True)
    for name in ("hands", "dealer", "chips_before", "chips_after", "play_cards", "trick_winners"):
        assert np.array_equal(getattr(res, name), getattr(by_hand, name)), name
    assert (res.chips_before == 3).all() and len(res.legal_trace) == 5 * table.hands_dealt
    given = play(table, 400, seats, None, np.random.default_rng(6), hands=hands, dealer=dealer, chips=chips)
    assert np.array_equal(given.play_cards, res.play_cards)


# --- whole games: the end is checked only after a completed round (STM-9.1, STM-11.3) ---------

def _games(rule_args, players, partners, strategy, n, seed, **kw):
    table = Table(players, partners, parse_rules(rule_args))
    seats = parse_seat_specs("shoot-the-moon", [strategy], players, default=strategy).strategies
    g = play_games(table, n, seats, np.random.default_rng(seed), np.random.default_rng(seed + 1), keep_hands=True,
                   **kw)
    return table, g


def _last_round_annulled(g) -> np.ndarray:
    last = np.zeros(len(g.winner), dtype=bool)
    for active, res in g.hand_log:
        last[active] = res.annulled
    return last


def _alone_at_target(chips: np.ndarray, target: int) -> np.ndarray:
    top = chips.max(axis=1)
    return (top >= target) & ((chips == top[:, None]).sum(axis=1) == 1)


def test_an_annulled_round_that_would_have_ended_the_game_is_replayed():
    """Every side one chip from the target or at it, revokes always detected: many rounds are annulled
    with a penalty that leaves one side alone at 7. None of those games ends; the replay comes next."""
    chips0 = np.tile(np.array([7, 7, 6, 6], dtype=np.int16), (400, 1))
    table, g = _games(["stm.revoke_model=on(0.5,1.0)"], 4, False, "random", 400, 11, chips0=chips0, max_rounds=1)
    (_, res), = g.hand_log
    would_end = res.annulled & _alone_at_target(res.chips_after, table.rules.target_chips)
    assert would_end.sum() >= 10                              # the case arises...
    assert (g.winner[would_end] == -1).all()                  # ...and the game goes on
    completed = ~res.annulled & _alone_at_target(res.chips_after, table.rules.target_chips)
    assert completed.any() and (g.winner[completed] == res.chips_after[completed].argmax(axis=1)).all()


def test_no_game_ends_on_an_annulled_round():
    table, g = _games(["stm.revoke_model=on"], 4, False, "odd", 500, 21)
    last = _last_round_annulled(g)
    assert (g.winner >= 0).all()
    assert not last[g.winner >= 0].any()
    # the case the rule is about did arise: an annulled round left a side alone at the target
    arose = sum(int((res.annulled & _alone_at_target(res.chips_after, table.rules.target_chips)).sum())
                for _, res in g.hand_log)
    assert arose > 0


def _reference_game(table, g, i):
    """Game i of the batch through the reference: the batch's deals and plays, while the reference
    decides for itself who deals each round and when the game ends."""
    rounds = [(res, int(np.searchsorted(active, i))) for active, res in g.hand_log if i in active]
    left = iter(rounds)
    now = []

    def next_hands():
        try:
            now[:] = next(left)
        except StopIteration:
            raise AssertionError(f"game {i}: the reference plays on after the batch's {len(rounds)} rounds")
        return now[0].hands[now[1]].tolist()

    def choose(rnd, legal):
        res, j = now
        step = len(rnd.plays)
        detected = bool(res.revoke_detected[j, step]) if res.revoke_detected is not None else False
        return int(res.play_cards[j, step]), detected

    first, j0 = rounds[0]
    played, winner = ref.play_game(table.players, table.partners, table.rules, int(first.dealer[j0]), next_hands,
                                   choose)
    return rounds, played, winner


@pytest.mark.parametrize("players,partners,rule_args", [
    (4, False, ["stm.revoke_model=on(0.3,0.5)"]),
    (4, True, ["stm.revoke_model=on(0.3,0.7)", "stm.revoke_keep_hand_chips=true"]),
    (2, False, ["stm.revoke_model=on(0.5,0.9)", "stm.target_chips=5"]),
])
def test_whole_games_match_reference(players, partners, rule_args):
    table, g = _games(rule_args, players, partners, "odd", 120, 31)
    annulled_last = 0
    for i in range(len(g.winner)):
        rounds, played, winner = _reference_game(table, g, i)
        assert len(played) == g.rounds[i] == len(rounds)
        assert (-1 if winner is None else winner) == g.winner[i]
        assert played[-1].chips_after == g.chips[i].tolist()
        for rnd, (res, j) in zip(played, rounds):
            assert rnd.dealer == res.dealer[j] and rnd.annulled == res.annulled[j]
            assert rnd.chips_after == res.chips_after[j].tolist()
            annulled_last += rnd.annulled and ref.game_winner(rnd.chips_after, table.rules) is not None
    assert annulled_last > 0          # rounds the bare chip check would have ended, played on by both


def test_histories_of_500_revoke_games_end_on_completed_rounds(tmp_path, capsys):
    """Read from the history file: no game_over line is an annulled round; every line replays through the
    reference, which now checks the game's end too, and refuses a line that ends a game on an annulled round."""
    path = tmp_path / "games.jsonl"
    try:
        cli.app(["simulate", "shoot-the-moon", "--games", "500", "-r", "stm.revoke_model=on", "--seed", "3",
                 "--history", str(path), "-q", "-f", "json"])
    except SystemExit as exc:
        assert not exc.code
    capsys.readouterr()
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    last = [r for r in records if r["game_over"]]
    assert len(last) == 500 and all(r["winners"] for r in last)
    assert not any(r["annulled"] for r in last)
    assert sum(r["annulled"] for r in records) > 100
    assert len(list(replayed(lines, "games.jsonl"))) == len(lines)
    # an annulled round that left one side alone at the target, marked as the game's end, is refused
    bad = next(r for r in records if r["annulled"] and not r["game_over"]
               and ref.game_winner(r["chips_after"], ref.Rules()) is not None)
    forged = {**bad, "game_over": True, "winners": [ref.game_winner(bad["chips_after"], ref.Rules())]}
    with pytest.raises(BadInput, match="annulled round is replayed"):
        list(replayed([json.dumps(forged)], "forged.jsonl", hand_id=bad["hand_id"]))
