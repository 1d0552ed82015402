"""Every game against its contract (simulator/spec.py): the registered games and the tests' toy game.
A missing name fails with a line naming the game and the name, never an AttributeError; a part a game
may leave out (a review, a report, typed records) is refused by its verb in one line."""
import dataclasses
import json

import pytest

from moonshot.analysis.common import Hooks, make_setup
from moonshot.simulator import games, spec
from moonshot.simulator.games import GAMES
from moonshot.simulator.runner import chunk_rngs
from moonshot.strategies.base import registered
from tests.test_cli import run
from tests.toy_game import GAME as TOY

ENTRIES = [*GAMES.values(), TOY]


# The toy game with neither a review nor a report: the refusals a game without them meets
BARE = dataclasses.replace(TOY, review=None, report="tests.toy_game.analysis")


@pytest.fixture
def toy():
    games.register(TOY)
    yield TOY.name
    games.GAMES.pop(TOY.name)


@pytest.fixture
def bare():
    games.register(BARE)
    yield BARE.name
    games.GAMES.pop(BARE.name)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_game_has_every_name_shared_code_calls(entry, request):
    request.getfixturevalue("toy") if entry is TOY else None
    found = spec.problems(entry, registered(entry.name))
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_games_hand_result_has_the_arrays_shared_code_reads(entry, request):
    request.getfixturevalue("toy") if entry is TOY else None
    setup = make_setup(entry.name)
    res = setup.hooks.play(setup, setup.seats.strategies, chunk_rngs(11, 0, entry.streams), 200)
    assert spec.result_problems(entry, res, 200) == []
    rows = setup.hooks.hand_rows(setup, res)             # simulate --save-hands
    assert rows and all(len(v) == 200 for v in rows.values())


def test_a_missing_name_is_one_line_naming_the_game_and_the_name(toy):
    broken = dataclasses.replace(TOY, page_module="tests.toy_game.rules")     # a module that is no page
    found = spec.problems(broken)
    assert "toy-high-card: page lacks PIECE (Page)" in found
    assert "toy-high-card: page lacks steps (Page)" in found
    assert all(line.startswith("toy-high-card: ") for line in found)


def test_a_hook_left_as_the_base_classs_stub_counts_as_missing():
    lacking = spec.lacking(Hooks(), spec.Hooks)
    assert {"make_table", "tally_hands", "side_outcomes", "hand_rows"} <= set(lacking)
    assert "play" not in lacking and "wins" not in lacking       # the base class's defaults do the work
    assert spec.lacking(Hooks(), spec.EveryTableHooks) == ["all_tables"]


def test_the_strategies_minimum_names_what_is_missing():
    strategies = {"high": registered(TOY.name)["high"]}
    assert spec.problems(TOY, strategies)[-1:] == ["toy-high-card: strategies lack random"]

    class NoPlay:
        pass
    found = spec.problems(TOY, {**registered(TOY.name), "lazy": NoPlay})
    assert found == ["toy-high-card: strategy lazy lacks play (the entry's decisions)"]


def test_optional_parts_are_said_to_be_optional_and_found():
    assert {p for p in spec.OPTIONAL_PARTS} == {"review", "report", "typed", "solver"}
    for entry in GAMES.values():
        assert spec.has(entry, "review") and spec.has(entry, "report") and spec.has(entry, "typed")
    assert spec.has(TOY, "review") and spec.has(TOY, "report")                 # the toy has both,
    assert not spec.has(TOY, "typed") and not spec.has(TOY, "solver")           # not the others
    assert not any(spec.has(BARE, p) for p in spec.OPTIONAL_PARTS)


def test_the_toy_game_is_reviewed_and_reported_like_a_real_one(toy, tmp_path, capsys):
    """Its review and report hooks (tests/toy_game/review.py, report.py) through the shared verbs."""
    history = tmp_path / "toy.jsonl"
    code, _, err = run(["simulate", toy, "-n", "2", "--history", history, "-q"], capsys)
    assert code == 0, err
    code, out, err = run(["review", history, "-f", "json", "--worlds", "16"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["decisions"] == 2 * 3 and data["meta"]["valued_by"] == "hands"
    luck = [r for r in data["tables"]["luck"] if r["hand"] != "all"]
    for row in luck:                   # result = expected + luck - loss, in the toy's own unit
        assert row["result"] == pytest.approx(row["expected"] + row["luck"] - row["loss"], abs=1e-9)
    code, _, err = run(["report", toy, "-o", tmp_path / "r", "-n", "1000", "-q"], capsys)
    assert code == 0, err
    assert "Toy high card" in (tmp_path / "r" / "report.md").read_text()
    assert (tmp_path / "r" / "tables" / "headline_seats.csv").exists()


def test_report_of_a_game_without_one_is_one_line(bare, tmp_path, capsys):
    code, _, err = run(["report", bare, "-o", tmp_path / "r", "-n", "100"], capsys)
    assert code == 2
    assert err.strip().splitlines()[-1].endswith(
        "toy-high-card has no report (`moonshot report`) yet; accepted: shoot-the-moon, moon, hit-the-deck")
    assert not (tmp_path / "r").exists()


def test_review_of_a_game_without_one_is_one_line(bare, tmp_path, capsys):
    history = tmp_path / "toy.jsonl"
    code, _, err = run(["simulate", bare, "-n", "2", "--history", history, "-q"], capsys)
    assert code == 0, err
    code, _, err = run(["review", history], capsys)
    assert code == 2 and "Traceback" not in err
    assert "no review for toy-high-card" in err.strip().splitlines()[-1]


def test_typed_record_of_a_game_without_typed_records_is_one_line(toy, tmp_path, capsys):
    record = tmp_path / "hand.txt"
    record.write_text("game toy-high-card\nplayers 3\n")
    code, _, err = run(["record", record], capsys)
    assert code == 2 and "Traceback" not in err
    assert "toy-high-card has no typed hand records" in err.strip().splitlines()[-1]
    history = tmp_path / "toy.jsonl"                  # and written out as typed records
    code, _, err = run(["simulate", toy, "-n", "2", "--history", history, "-q"], capsys)
    assert code == 0, err
    code, _, err = run(["record", history], capsys)
    assert code == 2 and "toy-high-card has no typed hand records" in err.strip().splitlines()[-1]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_reviews_verdict_note_is_the_games_own(game):
    """The note on the verdicts' sizes comes from the game's own review hook (SIZES.why), never from
    another game's words keyed by a unit's name."""
    import importlib

    from moonshot.analysis.review import verdict_note
    hook = importlib.import_module(GAMES[game].review)
    note = verdict_note(hook.SIZES, False)
    assert hook.SIZES.why in note
    others = [importlib.import_module(g.review).SIZES.why for g in GAMES.values() if g.name != game]
    assert not any(why in note for why in others)


def test_the_toy_games_whole_games_histories_replay(toy, tmp_path, capsys):
    history = tmp_path / "games.jsonl"
    code, _, err = run(["simulate", toy, "--games", "3", "--history", history, "-q"], capsys)
    assert code == 0, err
    lines = [json.loads(line) for line in history.read_text().splitlines()]
    assert lines[-1]["game_over"] and sum(lines[-1]["scores_after"]) >= 3       # toy.target hands taken
    code, out, err = run(["replay", history], capsys)
    assert code == 0, err
