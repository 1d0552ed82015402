"""Hit the Deck hand histories (HISTORY.md): records from a result, and a replay that checks every
event against the reference and names the first wrong one."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.reference_chance import RandomChance
from moonshot.simulator.hit_the_deck.history import records, replay
from moonshot.simulator.hit_the_deck.profiles import seat_profiles
from moonshot.simulator.hit_the_deck.rules import parse_rules

KEYS = {"game", "format", "rules", "hand_id", "seed", "players", "sides", "strategies",
        "dealer", "hands", "draw_pile", "reaction", "events", "went_out", "score"}


def _hands(n, players, rules_args=(), specs=("child",), seed=7):
    """n reference hands packed like the engine's record-mode Result, and the table."""
    rules = parse_rules(list(rules_args))
    profiles = seat_profiles(list(specs), players)
    rng = np.random.default_rng(seed)

    def chooser(view, legal):
        options = sorted(legal)
        return options[int(rng.integers(len(options)))]
    played = []
    for i in range(n):
        hands, draw = ref.deal(rng, players, rules)
        played.append(ref.Hand(i % players, hands, draw, rules, profiles, chooser,
                               RandomChance(rng, rules, profiles)).play())
    result = SimpleNamespace(
        dealer=np.array([h.dealer for h in played], dtype=np.int8),
        hands=np.array([h.dealt for h in played], dtype=np.int8),
        draw_pile=[h.initial_draw for h in played],
        events=[h.events for h in played],
        went_out=np.array([-1 if h.went_out is None else h.went_out for h in played], dtype=np.int8),
        score=np.array([h.score for h in played], dtype=np.int16))
    table = SimpleNamespace(players=players, rules=rules, profiles=profiles)
    return played, result, table


@pytest.fixture(scope="module")
def lines():
    played, result, table = _hands(12, 4, specs=("child", "3=off"))
    return played, records(result, table, ["random"] * 4, 99, 40)


def test_records_have_the_history_keys(lines):
    played, out = lines
    for i, line in enumerate(out):
        rec = json.loads(line)
        assert set(rec) == KEYS and rec["game"] == "hit-the-deck" and rec["format"] == 1
        assert rec["hand_id"] == 40 + i and rec["seed"] == 99 and rec["sides"] == [0, 1, 2, 3]
        assert rec["rules"]["htd.max_turns"] == 2000 and len(rec["rules"]) == 23
        assert rec["reaction"][3] == {"profile": "off"} and rec["reaction"][0]["profile"] == "child"
        assert rec["hands"] == [[deck.NAMES[k] for k in h] for h in played[i].dealt]
        assert len(rec["draw_pile"]) == 110 - 28 and rec["events"] == played[i].events
        assert rec["score"] == played[i].score
        assert rec["went_out"] == played[i].went_out


def test_replay_reads_every_event(lines):
    _, out = lines
    for n, line in enumerate(out):
        rec = json.loads(line)
        text = replay(rec, "h.jsonl", n + 1)
        rows = [r for r in text.splitlines() if r.startswith("  turn ")]
        assert len(rows) == len(rec["events"])
        assert "score this hand" in text.splitlines()[-1]
    first = [r for r in replay(json.loads(out[0])).splitlines() if " plays " in r][0]
    assert "(top " in first and "demand " in first and "dir " in first


def test_replay_of_every_variant():
    for args in (["htd.final_card_effects=resolve_then_score", "htd.exposed_hand_card=shouter_turn_consumed"],
                 ["htd.voluntary_draw=true", "htd.drawn_card_play=optional", "htd.max_turns=100"],
                 ["htd.cut_exposed=top_of_remainder", "htd.cut_depth=uniform", "htd.bury_position=exact_middle"],
                 ["htd.start_card=first_player_plays_normally", "htd.word_matches_word=true",
                  "htd.p_notice=0.5", "htd.announce_htd_cards=true", "htd.htd_number_values=1,1,1,1,1,1,1,1,1,5"]):
        _, result, table = _hands(6, 3, args, specs=("distracted", "1=adult:mu=250,tau=60"))
        for line in records(result, table, ["random"] * 3, 1, 0):
            rec = json.loads(line)
            assert all(rec["rules"][a.split("=")[0]] is not None for a in args)
            text = replay(rec)
            assert len([r for r in text.splitlines() if r.startswith("  turn ")]) == len(rec["events"])
            assert "score this hand" in text.splitlines()[-1]


def _find(rec, kind):
    return next(i for i, e in enumerate(rec["events"]) if e[0] == kind)


def test_tampered_play_names_line_and_event(lines):
    _, out = lines
    rec = json.loads(out[0])
    # the play of a drawn card is compulsory, so any other card there is wrong at that very event
    i = next(i for i, e in enumerate(rec["events"]) if e[0] == "play" and rec["events"][i - 1][:2] == ["draw", e[1]])
    rec["events"][i][2] = next(c for c in deck.NAMES if c != rec["events"][i][2])
    with pytest.raises(BadInput) as exc:
        replay(rec, "h.jsonl", 3)
    msg = str(exc.value)
    assert msg.startswith("h.jsonl:3: ") and "\n" not in msg and f"event #{i} is ['play'" in msg
    # a card the seat cannot play is refused at that event, naming the legal ones
    rec = json.loads(out[0])
    j = _find(rec, "play")
    rec["events"][j][2] = "YFLIP" if rec["events"][j][2] != "YFLIP" else "RFLIP"
    with pytest.raises(BadInput, match=f"event #{j}"):
        replay(rec, "h.jsonl", 3)


def test_wrong_score_and_went_out(lines):
    _, out = lines
    rec = json.loads(out[1])
    rec["score"][0] += 1
    with pytest.raises(BadInput, match=r"h.jsonl:2: .*score is .* but the rules give"):
        replay(rec, "h.jsonl", 2)
    rec = json.loads(out[1])
    rec["went_out"] = None if rec["went_out"] is not None else 0
    with pytest.raises(BadInput, match="went_out is"):
        replay(rec, "h.jsonl", 2)


def test_wrong_draw_pile(lines):
    _, out = lines
    rec = json.loads(out[2])
    pile = rec["draw_pile"]
    j = next(j for j in range(1, len(pile)) if pile[j] != pile[0])
    pile[0], pile[j] = pile[j], pile[0]                   # the start card changes
    with pytest.raises(BadInput, match=r"h.jsonl:5: .*event #0 is \['turn'"):
        replay(rec, "h.jsonl", 5)
    rec = json.loads(out[2])
    rec["draw_pile"].pop()                                # not the whole deck any more
    with pytest.raises(BadInput, match="110-card deck"):
        replay(rec, "h.jsonl", 5)


def test_tampered_chance_outcomes(lines):
    _, out = lines
    for line in out:
        rec = json.loads(line)
        slaps = [i for i, e in enumerate(rec["events"]) if e[0] == "slap" and e[2] and e[4] is not None]
        if not slaps:
            continue
        i = slaps[0]
        lat = rec["events"][i][3]
        fastest = min((x, s) for s, x in enumerate(lat) if x is not None)[1]
        if lat.count(None) < 3 and fastest != rec["events"][i][4]:
            rec["events"][i][4] = fastest
            with pytest.raises(BadInput, match=f"loser {fastest} is not among"):
                replay(rec)
            return
    pytest.fail("no slap to tamper with")


def test_extra_and_missing_events_and_malformed(lines):
    _, out = lines
    rec = json.loads(out[3])
    rec["events"].append(["pass", 0])
    with pytest.raises(BadInput, match="comes after the hand ended"):
        replay(rec)
    rec = json.loads(out[3])
    rec["events"] = rec["events"][:-1]
    with pytest.raises(BadInput, match="missing"):
        replay(rec)
    rec = json.loads(out[3])
    del rec["reaction"]
    with pytest.raises(BadInput, match="'reaction' is missing"):
        replay(rec)
    rec = json.loads(out[3])
    rec["rules"]["htd.cut_depth"] = "deep"
    with pytest.raises(BadInput, match="htd.cut_depth"):
        replay(rec)
    with pytest.raises(BadInput, match="not a JSON object"):
        replay([], "x", 1)
