"""Typed hand records (docs/hand-records.md, simulator/records.py and simulator/<game>/typed.py):
the documented examples and simulated histories of every game round-trip, `?` pieces come back from
the plays, a bad record is one line naming the word and its line:column (exit 2 from the CLI), and
`moonshot review` takes a typed file (the lock hand loses nothing)."""
import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshot import cli
from moonshot.simulator import records
from moonshot.simulator.errors import BadInput
from tests.budget import size
from tests.test_cli import run

DOC = Path(__file__).resolve().parents[1] / "docs" / "hand-records.md"
EXAMPLES = {m.group(1): m.group(0)[3:-3].lstrip("\n") for m in
            re.finditer(r"```\ngame (\S+)\n.*?```", DOC.read_text(), re.S)}
# (game, simulate's options): every table shape a record's lines change with
TABLES = [("moon", ["-p", "3"]), ("moon", ["-p", "4", "-r", "moon.lead_suit_rule=leader_calls_end"]),
          ("moon", ["-p", "3", "--games", "2"]),
          ("shoot-the-moon", ["-p", "4"]), ("shoot-the-moon", ["-p", "2"]),
          ("shoot-the-moon", ["-p", "6", "--partners"]), ("shoot-the-moon", ["-p", "4", "-r", "stm.revoke_model=on"]),
          ("hit-the-deck", ["-p", "4"]), ("hit-the-deck", ["-p", "3", "--profile", "child"])]


def _simulated(tmp_path_factory, game, options) -> list[dict]:
    path = tmp_path_factory.mktemp("h") / "h.jsonl"
    count = [] if "--games" in options else ["-n", "20"]
    try:
        cli.app(["simulate", game, *count, *options, "--seed", "5", "-q", "--history", str(path)])
    except SystemExit as exc:
        assert not exc.code
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def histories(tmp_path_factory):
    return {i: _simulated(tmp_path_factory, game, options) for i, (game, options) in enumerate(TABLES)}


def test_the_document_has_one_example_per_game():
    assert sorted(EXAMPLES) == ["hit-the-deck", "moon", "shoot-the-moon"]


@pytest.mark.parametrize("game", ["moon", "shoot-the-moon", "hit-the-deck"])
def test_documented_examples_round_trip(game):
    text = EXAMPLES[game]
    [record] = records.parse(text)
    assert record["game"] == game and "unknown" in record        # every example leaves some piece unknown
    assert records.write(record) == text                          # canonical text comes back as written
    assert records.parse(records.write(record)) == [record]


@pytest.mark.parametrize("table", range(len(TABLES)), ids=[f"{g} {' '.join(o)}" for g, o in TABLES])
def test_simulated_histories_round_trip(histories, table):
    """parse(write(x)) == x for every hand `simulate --history` wrote: the keys the rules give
    (trick winners, scores, chips) are derived again and equal the simulator's."""
    hands = histories[table]
    assert len(hands) >= 2
    for record in hands:
        text = records.write(record)
        assert "extra" not in text                                # every key has its own line or is derived
        assert records.parse(text) == [record]
        assert records.write(records.parse(text)[0]) == text
    joined = records.write_all(hands)                             # many records in one file
    assert records.parse(joined) == hands


@pytest.mark.parametrize("table", [0, 1, 3, 4, 5])            # the games whose every dealt piece is played
@settings(max_examples=size(25, 300))
@given(data=st.data())
def test_unknown_pieces_come_back_from_the_plays(histories, table, data):
    """Any pieces of a finished Moon or Shoot the Moon hand written as `?` come back from the plays:
    each seat's hand is the same multiset, every other key is the same, `unknown` names exactly the
    places written as `?`, and the text is written back with its `?`."""
    record = data.draw(st.sampled_from(histories[table]))
    if record.get("bidder") is None and record["game"] == "moon":
        return                                                    # thrown in: nothing was played
    places = [[s, i] for s, hand in enumerate(record["hands"]) for i in range(len(hand))]
    hidden = data.draw(st.lists(st.sampled_from(places), min_size=1, unique_by=tuple))
    masked = copy.deepcopy(record)
    for s, i in hidden:
        masked["hands"][s][i] = "?"
    text = records.write(masked)
    [back] = records.parse(text)
    assert [sorted(h) for h in back["hands"]] == [sorted(h) for h in record["hands"]]
    assert sorted(back.pop("unknown")) == sorted(["hands", s, i] for s, i in hidden)
    assert {k: v for k, v in back.items() if k != "hands"} == {k: v for k, v in record.items() if k != "hands"}
    assert records.write(records.parse(text)[0]) == text


def test_moon_widow_and_discard_unknown_and_deterministic():
    text = EXAMPLES["moon"].replace("widow 3-2", "widow ?").replace("discard 3-2", "discard ?")
    first, again = records.parse(text), records.parse(text)
    assert first == again                                         # a fixed seed: the same text, the same record
    assert first[0]["discard"] == "3-2"                           # the one tile nobody played
    assert ["widow"] in first[0]["unknown"] and ["discard"] in first[0]["unknown"]


# ---------------------------------------------------------------------------- bad records

BAD = [  # (game, replace this, with this, the place named, the word named)
    ("moon", "plays 0:6-3 1:3-3", "plays 0:6-3 1:3-9", "16:15", "'3-9'"),
    ("moon", "plays 0:6-6 1:5-4 2:3-1", "plays 1:5-4 0:6-6 2:3-1", "13:7", "'1:5-4'"),
    ("moon", "trump 6", "trumps 6", "12:1", "'trumps'"),
    ("moon", "game moon", "game chess", "1:6", "'chess'"),
    ("moon", "players 3", "players x", "3:9", "'x'"),
    ("moon", "bids 0:21", "bids 0:moon", "10:8", "'moon'"),
    ("moon", "trump 6", "trump 6\ntrump 5", "13:1", "'trump'"),
    ("moon", "seat 1 ? ? ? ? ? ? ?", "seat 1 ? ? ?", "7:12", "'?'"),
    ("moon", "plays 0:5-5 1:5-3 2:4-1\n", "", "18:19", "'2:5-2'"),            # a trick short
    ("moon", "players 3", "players 3\nrules moon.min_bid=banana", "4:7", "'moon.min_bid=banana'"),
    ("shoot-the-moon", "plays 1:R3 2:G2 3:P10 0:R11", "plays 1:R3 2:G2 3:P10 0:P2", "14:23", "'0:P2'"),
    ("shoot-the-moon", "seat 0 P2", "seat 0 Q2", "7:8", "'Q2'"),
    ("hit-the-deck", "events 0:cut:58:HN5", "events 0:cut:58:HN4", "20:8", "'0:cut:58:HN4'"),
    ("hit-the-deck", "events 2:BCUT", "events 2:BCUT 2:wave", "19:15", "'2:wave'"),
]


@pytest.mark.parametrize("game,old,new,place,word", BAD, ids=[f"{b[0]}:{b[4]}" for b in BAD])
def test_a_bad_record_is_one_line_naming_the_word_and_its_place(game, old, new, place, word):
    assert old in EXAMPLES[game]
    with pytest.raises(BadInput) as info:
        records.parse(EXAMPLES[game].replace(old, new, 1), "hand.txt")
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"hand.txt:{place}: {word} ") and "accepted:" in message


def test_the_cli_refuses_a_bad_typed_record_with_exit_2(tmp_path, capsys):
    bad = tmp_path / "hand.txt"
    bad.write_text(EXAMPLES["moon"].replace("1:5-4", "1:5-9"))
    code, out, err = run(["review", bad], capsys)
    assert code == 2 and f"{bad}:13:15: '5-9' " in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------- files and the review

def test_read_records_tells_json_lines_from_typed_records(tmp_path, histories):
    hands = histories[3]
    history = tmp_path / "h.jsonl"
    history.write_text("".join(json.dumps(r) + "\n" for r in hands))
    typed = tmp_path / "h.txt"
    typed.write_text("# written after the game\n\n" + records.write_all(hands))
    assert records.read_records(history) == hands == records.read_records(typed)
    assert [json.loads(x) for x in records.history_lines(typed.read_text(), "h.txt")] == hands


def test_review_of_the_typed_lock_hand_finds_no_loss(tmp_path):
    """The seeds' lock (docs/hand-records.md): seat 0 holds every six and 5-5 and bids the Moon; every
    decision it made is the best, with no loss, whatever the unknown hands."""
    import moonshot
    path = tmp_path / "lock.txt"
    path.write_text(EXAMPLES["moon"])
    result = moonshot.review(path, worlds=8)
    decisions = result.tables["decisions"]
    chosen = decisions[decisions["chosen"]]
    assert set(chosen["seat"]) == {0} and len(chosen) == 10       # bid, discard, trump, 7 plays
    assert (chosen["loss"] == 0).all()
    plays = decisions[decisions["kind"] == "play"]
    assert (plays["value"].dropna() == 21).all()                  # every plan makes the Moon


def test_the_record_verb_converts_both_ways(tmp_path, capsys):
    typed = tmp_path / "hand.txt"
    typed.write_text(EXAMPLES["shoot-the-moon"])
    code, history, err = run(["record", typed, "--to-history"], capsys)
    assert code == 0, err
    assert [json.loads(line) for line in history.splitlines()] == records.parse(EXAMPLES["shoot-the-moon"])
    back = tmp_path / "hand.jsonl"
    back.write_text(history)
    code, out, err = run(["record", back], capsys)
    assert code == 0 and out == EXAMPLES["shoot-the-moon"], err


@pytest.mark.parametrize("table", [0, 3], ids=["moon", "shoot-the-moon"])
def test_pieces_filled_in_for_question_marks_do_not_move_a_review(histories, table):
    """Reviewing one seat of a hand whose other hands (and a Moon widow and discard) are typed as `?`
    gives the values of the hand as dealt: the review deals what the seat could not see afresh in
    every world, so what the record filled in never enters them (the open-hands column aside)."""
    import moonshot
    record = next(r for r in histories[table] if r.get("bidder", 0) is not None)
    seat = (record.get("bidder") or 0) + 1
    masked = copy.deepcopy(record)
    masked["hands"] = [h if s == seat else ["?"] * len(h) for s, h in enumerate(record["hands"])]
    if masked.get("widow"):
        masked["widow"] = masked["discard"] = "?"
    [typed] = records.parse(records.write(masked))
    assert typed["hands"] != record["hands"] or typed.get("widow") != record.get("widow")   # another deal
    as_dealt, as_typed = (moonshot.review([r], seats=[seat], worlds=4).tables["decisions"] for r in (record, typed))
    columns = [c for c in as_dealt.columns if "open" not in c]
    assert len(as_dealt) > 1 and as_dealt[columns].equals(as_typed[columns])


WORDS = ["?", "-", "0", "7", "99", "-1", "x", "6-6", "R1", "BM", "HH", "pass", "1:", "1:?", ":", "0:6-6/9", "0:R1",
         "2:draw:-", "seat", "plays", "game", "yes", "1.5", "0:slap:1,2:0", "extra", "{}", "a=b", "moon.min_bid=5"]


@settings(max_examples=size(40, 400))
@given(game=st.sampled_from(sorted(EXAMPLES)), data=st.data())
def test_any_mangled_record_is_read_or_refused_in_one_line(game, data):
    """A word of an example replaced, dropped or added, or a line repeated: the record is read, or
    refused with one BadInput line naming its place; never another exception."""
    lines = EXAMPLES[game].splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    words = lines[i].split()
    how = data.draw(st.sampled_from(["replace", "drop", "add", "repeat"]))
    j = data.draw(st.integers(1, max(1, len(words) - 1)))
    word = data.draw(st.sampled_from(WORDS))
    if how == "repeat":
        lines.insert(i, lines[i])
    else:
        words[j:j + (how != "add")] = [] if how == "drop" else [word]
        lines[i] = " ".join(words)
    try:
        records.parse("\n".join(lines) + "\n", "hand.txt")
    except BadInput as exc:
        assert "\n" not in str(exc) and re.match(r"hand\.txt:\d+(:\d+)?: ", str(exc)), str(exc)


def test_hit_the_deck_hands_come_back_from_the_plays_less_the_draws():
    """The documented Hit the Deck hand: seat 1 played all 7 cards it was dealt (it drew none), so its
    hand comes back whole; seat 2 drew R3 and played it, so of its plays only BCUT, B5 and B4 were dealt."""
    [record] = records.parse(EXAMPLES["hit-the-deck"])
    assert sorted(record["hands"][1]) == sorted("R3 HCG Y3 HH R5 R3 G4".split())
    assert {"BCUT", "B5", "B4"} <= set(record["hands"][2]) and record["hands"][2].count("R3") == 0
