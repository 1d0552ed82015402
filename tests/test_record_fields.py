"""Every field of every game's hand records checked on read (issue 38 items 4-5): a record with a
wrong type, a huge or non-finite number, deep nesting, a wrong-length list or an out-of-range seat
is one BadInput line for `moonshot replay`, `moonshot record` and the library's readers (the
review's included) and a 400 on the Replay page's routes, never another exception or a 5xx; the
whole-games keys are checked against the rules in every game; hand ids are unique."""
from __future__ import annotations

import inspect
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moonshot import cli
from moonshot.analysis.review import planned
from moonshot.simulator import records
from moonshot.simulator.errors import BadInput
from moonshot.simulator.games import GAMES
from moonshot.simulator.histories import replayed
from moonshot.simulator.record_check import whole_games
from tests import budget
from tests.test_cli import run

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

CHECKED = [g for g, entry in GAMES.items() if hasattr(entry.module("history"), "SCHEMA")]
MARK = "@@wrong@@"
DEEP = "[" * 990 + "]" * 990


def _simulate(path, game: str, *extra) -> list[str]:
    try:
        cli.app(["simulate", game, "--seed", "4", "-q", "--history", str(path), *map(str, extra)])
    except SystemExit as exc:
        assert not exc.code, exc.code
    return path.read_text().splitlines()


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> dict[str, dict[str, list[str]]]:
    """Per game: one single hand's line and a whole-games file's lines (two games)."""
    tmp = tmp_path_factory.mktemp("records")
    return {g: {"hand": _simulate(tmp / f"{g}.jsonl", g, "-n", 1),
                "games": _simulate(tmp / f"{g}-games.jsonl", g, "--games", 2)} for g in CHECKED}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Limits(max_samples=5_000, default_samples=500), hosts=("testserver",)))


# ---------------------------------------------------------------------------- mutations as JSON text

def _paths(value, path=()):
    """Every place in a record (the record itself left out): (path, value)."""
    if path:
        yield path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


def _wrong(value) -> list[str]:
    """JSON texts of the wrong kind for a place holding `value`."""
    every = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 60, "9" * 4_301, DEEP, "[" * 40 + "]" * 40]
    if isinstance(value, bool):
        return every + ["0", "1", '"true"', "null"]
    if isinstance(value, int):
        return every + ["-0.0", f"{value}.0", "true", "false", f'"{value}"', '"1_000"', '"\u0661\u0662"', "1e3",
                        str(2 ** 63 - 1), "-1"]
    if isinstance(value, str):
        return every + ["7", "null", "[]", "{}", '""', '"<img src=x>"', json.dumps(value * 500)]
    if isinstance(value, list):
        shorter, longer = value[:-1], value + value[-1:]
        return every + ['"x"', "7", "{}", "null", "[]", json.dumps(shorter), json.dumps(longer), "[" * 100_000]
    if isinstance(value, dict):
        return every + ["[]", '"x"', "null", "{}"]
    return every + ["0", "false", '"null"', "[]"]                       # null


def _mutated(record: dict, path: tuple, text: str) -> str:
    copy = json.loads(json.dumps(record))
    box = copy
    for step in path[:-1]:
        box = box[step]
    box[path[-1]] = MARK
    return json.dumps(copy).replace(json.dumps(MARK), text, 1)


STRICT = {"-0.0", "true", "false", '"1_000"', '"\u0661\u0662"', "1e3", "NaN", "Infinity", "9" * 60, DEEP}


def _strict(record: dict, path: tuple, value, text: str) -> bool:
    """A mutation every reader must refuse: an integer made a float, bool, text or non-finite
    number, or a list made a non-list (free-form places aside: the rules object, reaction
    parameters, slap latencies)."""
    slap = path[0] == "events" and len(path) > 1 and record["events"][path[1]][0] == "slap"
    if path[0] in ("rules", "reaction") or slap:
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return text in STRICT or text == f"{value}.0" or text == f'"{value}"'
    return isinstance(value, list) and text in ('"x"', "7", "{}", "null", DEEP)


# ---------------------------------------------------------------------------- the readers

def _library(line: str, tmp_path) -> str | None:
    """The library's readers' verdict on one line: its BadInput message, or None (all agree)."""
    verdicts = []
    for read in (lambda: list(replayed([line], "fuzz")), lambda: records.read_records(tmp_path),
                 lambda: planned(tmp_path)):
        try:
            read()
            verdicts.append(None)
        except BadInput as exc:
            verdicts.append(str(exc))
    assert len({v is None for v in verdicts}) == 1, verdicts
    return verdicts[0]


def _post(client, url: str, line: str, extra: str = ""):
    return client.post(url, content=f'{{"record": {line}{extra}}}'.encode(),
                       headers={"content-type": "application/json"})


def _web(client, line: str, refused: bool) -> None:
    """The Replay page's three routes on the line: a 4xx when the library refuses it, never a 5xx."""
    upload = client.post("/api/replay", files={"file": ("h.jsonl", line.encode(), "application/json")})
    tables = _post(client, "/api/replay/tables", line)
    answers = [upload, tables]
    if refused:                         # a record the library takes would start a whole review job here
        answers.append(_post(client, "/api/review", line, ', "seats": [0], "worlds": 2'))
    for r in answers:                   # 400 with the reader's line; 413 for a body over the page's limit
        assert r.status_code in ((400, 413) if refused else (200, 400, 413)), (r.status_code, r.text[:300])
        if r.status_code == 400:
            assert "\n" not in r.json()["error"]


@settings(max_examples=budget.size(40, 400), suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_field_is_one_line_on_every_reader_and_never_a_5xx(lines, client, tmp_path, capsys, data):
    game = data.draw(st.sampled_from(CHECKED), "game")
    record = json.loads(lines[game][data.draw(st.sampled_from(["hand", "games"]), "which")][0])
    path, value = data.draw(st.sampled_from(list(_paths(record))), "place")
    text = data.draw(st.sampled_from(_wrong(value)), "wrong")
    line = _mutated(record, path, text)
    file = tmp_path / "fuzz.jsonl"
    file.write_text(line + "\n")
    refused = _library(line, file)
    if _strict(record, path, value, text):
        assert refused is not None, (path, text)
    code, out, err = run(["replay", file], capsys)
    assert code == (0 if refused is None else 2), err
    if refused is not None:
        assert err.count("\n") == 1 and "Traceback" not in err, err
    _web(client, line, refused is not None)


TOKENS = ["1_000", "\u0661\u0662", "-0.0", "1e3", "9" * 50, "-1", "99", "?", "true", "<b>", "R99", "6-9", "x=1",
          "yes", "no", "pass", "0:?", "9:R1"]


@settings(max_examples=budget.size(40, 400), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_wrong_word_in_a_typed_record_is_one_line(lines, tmp_path, capsys, data):
    """The typed records' reader (docs/hand-records.md; `moonshot record`) on a word changed."""
    game = data.draw(st.sampled_from(CHECKED), "game")
    text = records.write(json.loads(lines[game][data.draw(st.sampled_from(["hand", "games"]), "which")][0]))
    rows = [row.split() for row in text.splitlines()]
    at = data.draw(st.sampled_from([(i, j) for i, row in enumerate(rows) for j in range(len(row)) if i or j]), "word")
    rows[at[0]][at[1]] = data.draw(st.sampled_from(TOKENS), "new")
    file = tmp_path / "typed.txt"
    file.write_text("\n".join(" ".join(row) for row in rows) + "\n")
    try:
        records.parse(file.read_text(), "typed")
    except BadInput as exc:
        assert "\n" not in str(exc)
    code, out, err = run(["record", file], capsys)
    assert code in (0, 2) and (code == 0 or (err.count("\n") == 1 and "Traceback" not in err)), err


# ---------------------------------------------------------------------------- the issue's records

def _set(record: dict, path: tuple, text: str) -> str:
    return _mutated(record, path, text)


ISSUE = [   # (game, place, JSON text, words the message holds): each a 500 or a traceback before
    ("shoot-the-moon", ("trick_winners",), '"x"', "trick_winners"),
    ("moon", ("bidder",), "-0.0", "bidder"),
    ("moon", ("bidder",), "false", "bidder"),
    ("moon", ("first_bidder",), "true", "first_bidder"),
    ("shoot-the-moon", ("sides", 0), str(2 ** 63 - 1), "sides"),
    ("shoot-the-moon", ("sides",), "[0, 0, 0, 0]", "sides"),
    ("hit-the-deck", ("dealer",), DEEP, "nested"),
    ("moon", ("hands",), "[" * 100_000 + "]" * 100_000, "nested"),
    ("moon", ("seed",), "9" * 4_300, "digits"),
    ("shoot-the-moon", ("chips_before", 0), "Infinity", "finite"),
    ("shoot-the-moon", ("dealer",), '"1_000"', "dealer"),
    ("hit-the-deck", ("dealer",), '"\u0661"', "dealer"),
    ("moon", ("strategies",), '["expert"]', "strategies"),
    ("hit-the-deck", ("events", 1, 1), "true", "events[1][1]"),
    ("shoot-the-moon", ("rules", "stm.target_chips"), '"7"', "rules.stm.target_chips"),
    ("hit-the-deck", ("rules", "htd.target_score"), '"1_000"', "rules.htd.target_score"),
]


@pytest.mark.parametrize("game, path, text, words", ISSUE)
def test_the_issues_records_are_one_line_and_a_400(lines, client, tmp_path, capsys, game, path, text, words):
    line = _set(json.loads(lines[game]["hand"][0]), path, text)
    file = tmp_path / "h.jsonl"
    file.write_text(line + "\n")
    said = _library(line, file)
    assert said is not None and words in said and "accepted" in said, said
    code, _, err = run(["replay", file], capsys)
    assert code == 2 and err.count("\n") == 1, err
    _web(client, line, refused=True)


def test_a_missing_hand_id_is_refused_by_replay_as_by_the_review(lines, tmp_path, capsys):
    record = json.loads(lines["moon"]["hand"][0])
    del record["hand_id"]
    file = tmp_path / "h.jsonl"
    file.write_text(json.dumps(record) + "\n")
    assert "hand_id" in _library(json.dumps(record), file)
    code, _, err = run(["replay", file], capsys)
    assert code == 2 and "hand_id" in err


@pytest.mark.parametrize("game", CHECKED)
def test_duplicate_hand_ids_are_refused_in_json_and_typed_files(lines, tmp_path, capsys, game):
    first, second = (json.loads(x) for x in lines[game]["games"][:2])
    second["hand_id"] = first["hand_id"]
    file = tmp_path / "h.jsonl"
    file.write_text(f"{json.dumps(first)}\n{json.dumps(second)}\n")
    code, _, err = run(["replay", file], capsys)
    assert code == 2 and "unique" in err, err
    typed = records.write_all([first, second])
    with pytest.raises(BadInput, match="unique"):
        records.parse(typed, "typed")


def test_an_empty_file_exits_2_for_record_as_for_replay(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for verb in ("replay", "record"):
        code, out, err = run([verb, empty], capsys)
        assert code == 2 and out == "" and "no hands" in err, (verb, err)


@pytest.mark.parametrize("text", ["1_000", "\u0661", "+1", "1e3", "9" * 30])
def test_typed_numbers_are_plain_digits(lines, text):
    typed = records.write(json.loads(lines["moon"]["hand"][0]))
    with pytest.raises(BadInput, match="accepted"):
        records.parse(typed.replace("\nhand 0\n", f"\nhand {text}\n"), "typed")
    with pytest.raises(BadInput, match="accepted"):
        records.parse(typed.replace("\nplayers", f"\nrules moon.min_bid={text}\nplayers"), "typed")


# ---------------------------------------------------------------------------- whole-games keys by the rules

def _game(lines, game: str) -> list[dict]:
    every = [json.loads(x) for x in lines[game]["games"]]
    return [r for r in every if r["game_id"] == every[0]["game_id"]]


def _refused(hands: list[dict], words: str = "") -> str:
    with pytest.raises(BadInput) as caught:
        list(replayed([json.dumps(h) for h in hands], "games"))
    assert words in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize("game", CHECKED)
def test_whole_game_keys_are_checked_against_the_rules(lines, game):
    hands = _game(lines, game)
    list(replayed([json.dumps(h) for h in hands], "games"))              # as written: accepted
    last = hands[-1]
    _refused(hands[:-1] + [{**last, "winners": [99]}], "winners")
    other = [s for s in range(len(last["scores_after"])) if [s] != last["winners"]][:1]
    _refused(hands[:-1] + [{**last, "winners": other}], "the rules give winners")
    over = {**hands[0], "game_over": True, "winners": [0]}
    _refused([over], "the rules give another hand")                      # over too early
    _refused([{**hands[0], "game_over": True, "winners": []}], "cap")    # unfinished, far from the cap
    going_on = {k: v for k, v in last.items() if k != "winners"} | {"game_over": False}
    _refused(hands[:-1] + [going_on], "going on")
    bumped = [s + 1 for s in last["scores_after"]]
    _refused(hands[:-1] + [{**last, "scores_after": bumped}], "scores_after")
    shifted = [{**h, "scores_before": [s + 3 for s in h["scores_before"]],
                "scores_after": [s + 3 for s in h["scores_after"]]} for h in hands]
    said = _refused(shifted)                     # a fake start score, every later hand following on
    assert "scores_before" in said or "chips" in said


@pytest.mark.parametrize("game, extra", [
    ("moon", ["-p", 4, "-r", "moon.set_twice_loses_4p=true", "-r", "moon.moon_bid_scoring=instant_win_or_loss"]),
    ("moon", ["-p", 3, "-r", "moon.scoring=marks7", "-r", "moon.end_tie=bidder_goes_out"]),
    ("shoot-the-moon", ["-p", 4, "--partners", "-r", "stm.revoke_model=on(0.3,0.5)"]),
    ("hit-the-deck", ["-p", 3, "-r", "htd.winner_tie=play_another_hand", "-r", "htd.target_score=30"]),
])
def test_the_engines_whole_games_pass_the_rules_check_under_variants(tmp_path, game, extra):
    written = _simulate(tmp_path / "g.jsonl", game, "--games", 8, "-s", "random", *extra)
    assert sum(json.loads(x)["game_over"] for x in written) == 8
    assert len(list(replayed(written, "games"))) == len(written)


@pytest.mark.parametrize("game", CHECKED)
def test_a_later_hand_of_a_game_alone_is_read(lines, client, game):
    """The Replay page asks for one hand's tables: a game's second hand read alone, where only its
    own keys can be checked (a file cut short reads the same way)."""
    hands = _game(lines, game)
    later = hands[1] if len(hands) > 1 else hands[0]
    assert len(list(replayed([json.dumps(later)], "alone"))) == 1
    assert _post(client, "/api/replay/tables", json.dumps(later)).status_code == 200


def test_the_caps_are_the_engines():
    """winners [] (a game stopped unfinished) is accepted only at the engine's cap on a game's hands."""
    for game in CHECKED:
        engine = GAMES[game].module("engine")
        params = inspect.signature(engine.play_games).parameters
        cap = (params.get("max_hands") or params["max_rounds"]).default
        assert whole_games(GAMES[game]).cap == cap, game
