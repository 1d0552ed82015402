"""The table the Play and Replay pages draw (issue 28 item 2), without a browser: one shape for every
game (web/play/common.table), every prompt's table and faces, and each replay step's table agreeing
with the record (pieces leave the hands one a play, the person's seat is "you")."""
from __future__ import annotations

import json

import pytest

from moonshot.simulator.histories import replayed
from moonshot.web import forms
from moonshot.web.play import adapter
from moonshot.web.play.session import Table

SEAT_KEYS = {"seat", "name", "side", "held", "you", "leads", "to_move", "tally", "pieces"}
GAMES = {"moon": "4", "shoot-the-moon": "2", "hit-the-deck": "3"}     # Shoot the Moon's 2 players: a dummy
# The person passes (the first choice) and Moon's seed-5 hand is then thrown in by the default (the
# expert) passing too: threshold, seated by name, bids it, so the hand is played out trick by trick.
SEATED = {"moon": ["threshold"]}


def play_first_choices(game: str, players: str, seed: int = 5):
    """A hand played through the session by the first choice (the SLAP's 300 ms): its prompts and record."""
    setup = forms.setup({"players": players, "strategy": SEATED.get(game, [])}, game, partners_ok=True)
    session = Table().start(game, 0, adapter(game)(setup, 0, seed))
    state, prompts = session.state(), []
    while state["state"] == "your turn":
        p = state["prompt"]
        prompts.append(p)
        first = p["choices"][0]["value"]
        state = session.answer(p["turn"], 300 if first == "timed" else first)
    assert state["state"] == "over", state
    return prompts, session.record


def check_shape(t: dict, players: int) -> None:
    assert set(t) - {"last"} == {"kind", "seats", "lines", "auction", "middle"} and t["kind"] in ("tile", "card")
    assert set(t["middle"]) == {"pieces", "words", "pile"}
    assert all(set(s) == SEAT_KEYS for s in t["seats"]) and len(t["seats"]) >= players
    assert all(len(line) == 2 and all(isinstance(x, str) for x in line) for line in t["lines"])


@pytest.mark.parametrize("game, players", GAMES.items())
def test_every_prompt_carries_the_table_and_the_faces_of_its_pieces(game, players):
    prompts, record = play_first_choices(game, players)
    for p in prompts:
        t = p["table"]
        check_shape(t, int(players))
        you = [s for s in t["seats"] if s["you"]]
        assert [s["seat"] for s in you] == [0] and you[0]["name"] == "you"
        # the person's count is their hand's; the others' hands are counts only
        assert you[0]["held"] == len(p["hand"]) or p["phase"] == "discard"
        assert all(s["pieces"] is None for s in t["seats"])
        shown = p["hand"] + [x["piece"] for x in t["middle"]["pieces"]]
        assert set(shown) <= set(p["faces"]) and all(p["faces"][n]["name"] == n for n in shown)
    if game == "shoot-the-moon":
        assert "the dummy" in [s["name"] for s in prompts[0]["table"]["seats"]]


@pytest.mark.parametrize("game, players", GAMES.items())
def test_each_replay_step_carries_the_table_it_leaves(game, players):
    _, record = play_first_choices(game, players)
    (checked, entry, shown), = replayed([json.dumps(record)], "record")
    steps, tables = entry.page.steps(checked, shown), entry.page.tables(checked)
    assert len(tables) == len(steps) + 1                                  # the deal's, then each step's
    for t in tables:
        check_shape(t, int(players))
        assert [s["name"] for s in t["seats"]][0] == "you"                    # the person's seat, from the record
        assert all(s["pieces"] is not None and len(s["pieces"]) == s["held"] for s in t["seats"])   # face up
    held = [sum(s["held"] for s in t["seats"]) for t in tables]
    if game == "hit-the-deck":                    # cards come and go (draws, penalties): the record's end
        out = record["went_out"]
        assert out is None or tables[-1]["seats"][out]["held"] == 0
        assert ([s["tally"].split(",")[0] for s in tables[-1]["seats"]]
                == [f"{x} penalty points" for x in record["score"]])
        assert all(s["chapter"].startswith("turn ") for s in steps)
    else:                                         # one piece leaves a hand at each play, none otherwise
        plays = [s for s in steps if " plays " in s["text"]]
        assert held[0] - held[-1] == len(plays) == len(record["plays"]) and held[-1] == 0
        assert all(s["chapter"] == f"trick {i // len(tables[0]['seats']) + 1}" for i, s in enumerate(plays))
        done = tables[-1]["middle"]
        assert len(done["pieces"]) == len(tables[0]["seats"]) and "the trick" in done["words"]


def test_an_upload_carries_its_first_hands_tables_and_the_others_come_on_demand(tmp_path):
    """A file of many hands stays small: the first hand's tables come with it, any other's from
    POST /api/replay/tables, which checks the record again (a changed move is refused in one line)."""
    from fastapi.testclient import TestClient

    from moonshot.web.app import create_app
    from moonshot.web.forms import Limits
    client = TestClient(create_app(Limits(max_samples=2_000, default_samples=300), reports_dir=tmp_path,
                                   hosts=("testserver",)))
    records = [play_first_choices("shoot-the-moon", "4", seed)[1] for seed in (5, 6)]
    records[1]["hand_id"] = 1                          # hand ids are unique within a file (HISTORY.md)
    text = "".join(json.dumps(r) + "\n" for r in records).encode()
    r = client.post("/api/replay", files={"file": ("h.jsonl", text, "application/json")})
    assert r.status_code == 200
    first, second = r.json()["hands"]
    assert len(first["tables"]) == len(first["steps"]) + 1 and first["faces"]
    assert "tables" not in second and not any("table" in s for s in first["steps"] + second["steps"])
    r = client.post("/api/replay/tables", json={"record": second["record"]})
    assert r.status_code == 200 and len(r.json()["tables"]) == len(second["steps"]) + 1
    assert r.json()["tables"][-1]["middle"]["pieces"][-1]["piece"] == records[1]["plays"][-1][1]
    bad = dict(second["record"], plays=[[0, "R99"]] + second["record"]["plays"][1:])
    r = client.post("/api/replay/tables", json={"record": bad})
    assert r.status_code == 400 and r.json()["field"] == "record" and "\n" not in r.json()["error"]
