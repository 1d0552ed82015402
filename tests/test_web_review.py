"""The serve pages' review of a played hand (issue 27, POST /api/review): the Replay page sends back
one hand's record; the run gives the library's numbers for the same seed, places each decision on
the replay step it was taken at (by its turn, never by the card it names: issue 37), adds the page's
errors (biggest loss first, in the review's words) and the seat's values placed on the replay's
steps, says which seed it used (the page's link carries it), and bad input is one line beside its
field with HTTP 400."""
from __future__ import annotations

import dataclasses

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.analysis.review import ERRORS, errors, review  # noqa: E402
from moonshot.simulator import games as registry  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from moonshot.web.replay import option_words, read  # noqa: E402
from tests.test_web import play_out, wait  # noqa: E402
from tests.toy_game import GAME as TOY  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"

WORLDS = 8                  # tiny: these tests check the plumbing, tests/test_review*.py the values
REVIEWED = [g for g, entry in registry.GAMES.items() if entry.review]
VERDICTS = {"forced", "best", "fine", "inaccuracy", "mistake", "blunder", "cannot be told"}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Limits(max_samples=5_000, default_samples=500), hosts=("testserver",)))


def uploaded(client, tmp_path, game: str, hands: int = 1) -> list[dict]:
    path = tmp_path / "h.jsonl"
    subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", game, "-n", str(hands), "--history", str(path),
                    "--quiet"], check=True, capture_output=True)
    r = client.post("/api/replay", files={"file": ("h.jsonl", path.read_bytes(), "application/json")})
    assert r.status_code == 200, r.text
    return r.json()["hands"]


def reviewed(client, form: dict) -> tuple[dict, dict]:
    r = client.post("/api/review", json=form)
    assert r.status_code == 202, r.text
    status = {**wait(client, r.json()["id"]), "used": r.json()["used"]}
    assert status["state"] == "done", status
    return status, client.get(f"/api/jobs/{status['id']}/result?format=json").json()


@pytest.mark.parametrize("game", REVIEWED)
def test_a_reviewed_hand_gives_the_librarys_numbers_with_each_decision_on_its_replay_step(client, tmp_path, game):
    hand = uploaded(client, tmp_path, game)[0]
    assert hand["review"] and hand["people"] == [] and hand["players"] == hand["record"]["players"]
    status, result = reviewed(client, {"record": hand["record"], "seats": [0], "worlds": WORLDS, "seed": 5})
    rows = result["tables"]["decisions"]
    chosen = [r for r in rows if r["chosen"]]
    assert status["total"] == status["done"] == len(chosen) > 0          # progress counted per decision
    assert {r["seat"] for r in rows} == {0} and {r["verdict"] for r in rows} <= VERDICTS
    assert result["tables"]["summary"] and result["findings"]
    lib = review([hand["record"]], seats=[0], worlds=WORLDS, seed=5).to_json_obj()["tables"]
    # the same rows, each option named as the page names it (the review's own tables keep the notation)
    said, pieces = option_words(registry.GAMES[game]), set(registry.GAMES[game].page.pieces())
    assert [{k: v for k, v in r.items() if k not in ("replay_step", "option")} for r in rows] == \
        [{k: v for k, v in r.items() if k != "option"} for r in lib["decisions"]]
    assert [r["option"] for r in rows] == [said(r["kind"], r["option"]) for r in lib["decisions"]]
    assert not {r["option"] for r in rows} & pieces and not {r["option"] for r in rows} & {"notrump", "BM"}
    assert result["tables"]["summary"] == lib["summary"]
    assert status["used"]["seed"] == 5                                 # the link's seed (static/links.js)
    steps = hand["steps"]
    for r in chosen:                               # every decision on a step: by its turn index alone
        on = placed_right(r, steps)
        assert on, (r, steps[r["replay_step"]] if 0 <= r["replay_step"] < len(steps) else None)
    tables, lib_steps = result["tables"], pd.DataFrame(lib["steps"])
    words = ("replay_step", "chosen", "best")
    assert [{k: v for k, v in r.items() if k not in words} for r in tables["steps"]] == \
        [{k: v for k, v in r.items() if k not in words} for r in lib["steps"]]
    assert [(r["chosen"], r["best"]) for r in tables["steps"]] == \
        [(said(r["kind"], r["chosen"]), said(r["kind"], r["best"])) for r in lib["steps"]]
    wrong = errors(lib_steps)                      # the page's errors: the review's, biggest loss first
    assert [e["step"] for e in tables["errors"]] == list(wrong["step"])
    by = result["meta"]["valued_by"]
    for e in tables["errors"]:
        assert e["verdict"] in ERRORS and e["loss_text"].endswith(by) and "[" in e["loss_text"]
        assert e["replay_step"] == next(r["replay_step"] for r in tables["steps"] if r["step"] == e["step"])
    values = tables["values"]                      # the seat's value: the deal, each decision valued, the result
    with_outcomes = [r for r in tables["steps"] if r["verdict"] != "forced"]
    assert [v["where"] for v in values] == ["dealt"] + [r["where"] for r in with_outcomes] + ["result"]
    assert values[0]["replay_step"] == 0 and values[-1]["replay_step"] == len(steps)
    assert [v["replay_step"] for v in values[1:-1]] == [r["replay_step"] for r in with_outcomes]
    assert all(v["value_text"] and v["unit"] == values[0]["unit"] for v in values)
    assert values[0]["better"] == ("lower" if game == "hit-the-deck" else "higher")
    html = client.get(f"/api/jobs/{status['id']}/result").text          # the summary as every run shows it
    assert "table-summary" in html and "table-decisions" in html and "What it found" in html
    html = client.get(f"/api/jobs/{status['id']}/result?tables=summary").text    # the page's: decisions on steps
    assert "table-summary" in html and "table-decisions" not in html and "What it found" in html
    r = client.get(f"/api/jobs/{status['id']}/result?tables=summary,nope")
    assert r.status_code == 400 and r.json()["field"] == "tables" and "decisions, summary" in r.json()["error"]


def test_a_hand_played_on_the_page_reviews_the_persons_seat(client):
    """What the Play page's "Review this hand" does: its history read as an upload, then reviewed
    with no seats named: the person's seat only."""
    state = play_out(client, "shoot-the-moon", {"players": "4", "seat": "2", "seed": "8"})
    history = client.get(f"/api/play/{state['id']}/history").content
    hand = client.post("/api/replay", files={"file": ("played.jsonl", history, "application/json")}).json()["hands"][0]
    assert hand["people"] == [2]
    _, result = reviewed(client, {"record": hand["record"], "seats": [], "worlds": str(WORLDS)})
    seats = {r["seat"] for r in result["tables"]["decisions"]}
    assert seats == {2}
    assert all(r["replay_step"] == r["step"] for r in result["tables"]["decisions"])


def placed_right(row: dict, steps: list[dict]) -> bool:
    """The decision's replay step is its own: the same index where the replay has one step per
    decision (Moon, Shoot the Moon), else (Hit the Deck's events) a step of the turn its `where`
    names, the seat's own move."""
    k = row["replay_step"]
    if not 0 <= k < len(steps):
        return False
    if not row["where"].startswith("turn "):
        return k == row["step"]
    mover = re.search(rf"\bseat {row['seat']} \w+", steps[k]["text"])
    return steps[k]["chapter"] == row["where"].split(":")[0] and mover is not None


def test_a_drawn_card_is_placed_on_its_play_not_on_the_draw_that_names_it(client):
    """Issue 37: a Hit the Deck decision whose card the draw before it names (htd.drawn_card_play=optional:
    "seat 0 draws red 1", then the question "play the drawn card or keep it") was shown on the draw;
    placed by its turn index, it is on the step after the draw, the move it chose."""
    line = (GOLDEN / "htd_3p_variants.jsonl").read_text().splitlines()[0]
    hand = read((line + "\n").encode(), "h.jsonl")["hands"][0]
    _, result = reviewed(client, {"record": hand["record"], "seats": [0, 1, 2], "worlds": 2})
    steps, rows = hand["steps"], result["tables"]["steps"]
    drawn = [r for r in rows if r["where"].endswith("play the drawn card or keep it")]
    assert len(rows) > 100 and len(drawn) >= 10 and {r["chosen"] for r in drawn} - {"keep"}    # played ones too
    for r in rows:
        assert placed_right(r, steps), (r, steps[r["replay_step"]])
    for r in drawn:                                # the step before is the seat's draw; its own, the play or keep
        before, own = steps[r["replay_step"] - 1]["text"], steps[r["replay_step"]]["text"]
        assert re.search(rf"\bseat {r['seat']} draws", before) and "draws" not in own, (before, own)


@pytest.fixture(scope="module")
def moon_record(client, tmp_path_factory) -> dict:
    return uploaded(client, tmp_path_factory.mktemp("moon"), "moon")[0]["record"]


@pytest.mark.parametrize("change, field, words", [
    (lambda r: {"record": "hand 0"}, "record", "not a hand"),
    (lambda r: {}, "record", "not a hand"),
    (lambda r: {"record": {**r, "bids": [[0, "banana"]]}}, "record", "banana"),
    (lambda r: {"record": {**r, "game": "chess"}}, "record", "chess"),
    (lambda r: {"record": r, "seats": [7]}, "seats", "did not play"),
    (lambda r: {"record": r, "seats": "0"}, "seats", "list of seat numbers"),
    (lambda r: {"record": r, "seats": [True]}, "seats", "list of seat numbers"),
    (lambda r: {"record": r, "worlds": 1}, "worlds", "--worlds"),
    (lambda r: {"record": r, "worlds": "lots"}, "worlds", "--worlds"),
    (lambda r: {"record": r, "seed": -1}, "seed", "--seed"),
])
def test_bad_review_input_is_one_line_beside_its_field(client, moon_record, change, field, words):
    r = client.post("/api/review", json=change(moon_record))
    assert r.status_code == 400, r.text
    body = r.json()
    assert (body["field"] == field and words in body["error"] and "accepted" in body["error"]
            and "\n" not in body["error"])


def test_a_game_without_a_review_and_an_unknown_hand_are_refused_in_one_line(client):
    registry.register(dataclasses.replace(TOY, review=None))          # the toy game without its review
    try:
        state = play_out(client, TOY.name, {"players": "3", "seat": "1", "seed": "3"})
        record = json.loads(client.get(f"/api/play/{state['id']}/history").text)
        shown = client.post("/api/replay", files={"file": ("t.jsonl", json.dumps(record).encode())}).json()
        assert shown["hands"][0]["review"] is False                # the page offers no review
        r = client.post("/api/review", json={"record": record})
        assert r.status_code == 400 and "no review for" in r.json()["error"] and "accepted" in r.json()["error"]
    finally:
        registry.GAMES.pop(TOY.name, None)
    r = client.get("/api/play/no-such-hand/history")          # the Play page's link with a forgotten hand
    assert r.status_code == 400 and "no hand 'no-such-hand'" in r.json()["error"]
    assert client.post("/api/review", content=b"[1", headers={"content-type": "application/json"}).status_code == 400


def test_a_review_can_be_cancelled(client, moon_record):
    r = client.post("/api/review", json={"record": moon_record, "seats": [0, 1, 2], "worlds": 4096})
    assert r.status_code == 202
    job = r.json()["id"]
    client.post(f"/api/jobs/{job}/cancel")
    start = time.monotonic()
    assert wait(client, job, 120)["state"] == "cancelled"
    assert time.monotonic() - start < 60
    assert client.get(f"/api/jobs/{job}/result").status_code == 409


@pytest.mark.parametrize("name, tricks", [("moon_4p_mixed.jsonl", 7), ("stm_4p_odd.jsonl", 5),
                                          ("htd_4p_mixed.jsonl", None)])
def test_the_replay_ends_on_the_score_and_a_trick_opens_on_its_own_number(name, tricks):
    """Issue 39 item 4: the hand's last step has its result in a sentence (the Play page's, from the
    record's numbers), and the table a chapter "trick k" opens on reads "trick: k of N", its leader
    to move (it read k - 1, the trick just won, with nobody to move)."""
    shown = read((GOLDEN / name).read_bytes(), name)
    hand, record = shown["hands"][0], shown["hands"][0]["record"]
    entry = registry.get(hand["game"])
    assert hand["result"] == entry.page.result_sentence(record, None) and hand["result"].endswith(".")
    assert re.search(r"took \d+ tricks?|penalty points", hand["result"]), hand["result"]
    if tricks is None:
        return
    opens = {}
    for k, step in enumerate(hand["steps"]):
        opens.setdefault(step["chapter"], k)
    leaders = [record.get("bidder")] + list(record["trick_winners"])
    for no in range(1, tricks + 1):
        k = opens[f"trick {no}"]
        table = hand["tables"][k]                   # the table after k steps: where "trick no" starts
        assert dict(table["lines"])["trick"] == f"{no} of {tricks}", (no, table["lines"])
        moving = [s["seat"] for s in table["seats"] if s["to_move"]]
        if no > 1 or record.get("bidder") is not None:
            want = leaders[no - 1] if no > 1 else record["bidder"]
            assert moving == [want], (no, moving, want)
        if no > 1:
            assert f"trick {no - 1} and" in table["middle"]["words"] and f"trick {no}" in table["middle"]["words"]
    assert hand["tables"][-1]["middle"]["words"].endswith(" the trick")         # the last: no next trick
