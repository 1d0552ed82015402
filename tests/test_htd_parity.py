"""Hit the Deck batch engine against the reference: hands played in record mode are replayed
through reference.Hand with the recorded choices and chance outcomes (RecordedChance), and must
give the same events (piles, effects, slaps), the same legal set at every decision, and the same
scores; the records also pass history.replay. No hand may hit htd.max_turns."""
from __future__ import annotations

import json

import numpy as np
import pytest

from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.reference_chance import RecordedChance
from moonshot.simulator.hit_the_deck.engine import Table, legal_kinds, play
from moonshot.simulator.hit_the_deck.history import records, replay
from moonshot.simulator.hit_the_deck.profiles import seat_profiles
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies.base import make_strategy
from tests.budget import size

MIXES = [
    [],
    ["htd.start_card=first_player_plays_normally", "htd.word_matches_word=true"],
    ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"],
    ["htd.cut_depth=uniform", "htd.cut_exposed=top_of_remainder", "htd.bury_position=exact_middle"],
    ["htd.cut_depth=exact_half", "htd.exposed_hand_card=shouter_turn_consumed",
     "htd.final_card_effects=resolve_then_score"],
    ["htd.p_notice=0.5", "htd.judge_window=0", "htd.announce_htd_cards=true", "htd.reaction=child"],
    ["htd.htd_number_values=1,1,1,1,1,5,5,5,5,5", "htd.memory=window(3)", "htd.dealer_rotation=fixed"],
]
PROFILE_MIXES = [(), ("off",), ("0=off", "1=child"), ("distracted", "2=off"), ("child", "1=adult:p_forget=0.5")]


def _table(players, args, profiles=()):
    rules = parse_rules(list(args), players)
    return Table(players, rules, seat_profiles(list(profiles), players, default=rules.reaction))


def _record(result, i):
    return {"dealer": int(result.dealer[i]), "hands": [[deck.NAMES[k] for k in h] for h in result.hands[i]],
            "draw_pile": [deck.NAMES[k] for k in result.draw_pile[i]], "events": result.events[i]}


def check_parity(table, n, seed, strategy="random"):
    strat = make_strategy("hit-the-deck", strategy)
    res = play(table, n, [strat] * table.players, np.random.default_rng(seed), np.random.default_rng(seed + 1),
               np.random.default_rng(seed + 2), record=True)
    assert res.max_turns_hit == 0
    for i in range(n):
        rec = _record(res, i)
        chance = RecordedChance(rec["events"])
        legal_sets = []

        def choose(view, legal):
            legal_sets.append((view.seat, sorted(legal), view.drawn))
            return chance.choose(view, legal)
        hands = [[deck.parse_card(c) for c in h] for h in rec["hands"]]
        hand = ref.Hand(rec["dealer"], hands, [deck.parse_card(c) for c in rec["draw_pile"]], table.rules,
                        table.profiles, choose, chance).play()
        assert hand.events == res.events[i], f"hand {i}"
        assert legal_sets == [tuple(d) for d in res.decisions[i]], f"hand {i}"
        assert hand.score == res.score[i].tolist()
        assert (-1 if hand.went_out is None else hand.went_out) == res.went_out[i]
        assert sorted(k for h in hand.hands for k in h) == sorted(
            k for s in range(table.players) for k in range(deck.N_KINDS)
            for _ in range(res.final["final_hands"][i, s, k]))
        assert hand.draw == res.final["final_draw"][i, :res.final["final_dn"][i]][::-1].tolist()
        assert hand.discard == res.final["final_disc"][i, :res.final["final_sn"][i]][::-1].tolist()
    return res


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_replays_match_reference(players, mix):
    check_parity(_table(players, MIXES[mix]), size(30, 120), seed=100 * players + mix)


@pytest.mark.parametrize("profiles", PROFILE_MIXES)
def test_replays_match_reference_with_profiles(profiles):
    check_parity(_table(4, ["htd.final_card_effects=resolve_then_score"], profiles), size(60, 240), seed=7)


def test_records_pass_history_replay():
    table = _table(3, ["htd.reaction=child"])
    strat = make_strategy("hit-the-deck", "random")
    res = play(table, 30, [strat] * 3, np.random.default_rng(1), np.random.default_rng(2),
               np.random.default_rng(3), record=True)
    for line, text in enumerate(records(res, table, ["random"] * 3, seed=1, first_id=0), 1):
        assert replay(json.loads(text), "engine", line)


def test_record_mode_changes_nothing():
    """Record mode only adds outputs: the same seeds give the same hands without it."""
    table = _table(4, ["htd.reaction=child"])
    strat = make_strategy("hit-the-deck", "random")
    a, b = (play(table, 400, [strat] * 4, np.random.default_rng(5), np.random.default_rng(6),
                 np.random.default_rng(7), record=rec) for rec in (True, False))
    for name in ("score", "went_out", "turns", "penalty", "slaps_lost", "false_slaps"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("word", [False, True])
def test_legal_table_matches_reference(word):
    rules = parse_rules([f"htd.word_matches_word={str(word).lower()}"])
    everything = list(range(deck.N_KINDS))
    for top in range(deck.N_KINDS):
        ignored = deck.CLASS[top] in (deck.HTD_N, deck.HTD_C)         # only an ignored start card (P2)
        assert set(legal_kinds(top, -1, rules)) == ref.legal_plays(everything, top, -1, rules, ignored)
    for demand in range(9):
        assert set(legal_kinds(deck.HH, demand, rules)) == ref.legal_plays(everything, deck.HH, demand, rules)
