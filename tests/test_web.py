"""moonshot serve's routes through FastAPI's test client: every page renders, bad input comes
back as the CLI's one line beside its field with HTTP 4xx, and a page's run gives the numbers the
CLI gives for the same seed."""
from __future__ import annotations

import json
from html import escape
import subprocess
import sys
import time
import warnings

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

GAMES = ("shoot-the-moon", "moon", "hit-the-deck")
HANDS = {"shoot-the-moon": "R12 R7 BM G3 P5", "moon": "6-6 6-5 6-4 6-2 5-5 3-3 1-1",
         "hit-the-deck": "R3 R5 G2 BCUT YFLIP HN3 HH"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return TestClient(create_app(Limits(max_samples=5_000, default_samples=500), reports_dir=out))


def wait(client, job_id: str, timeout: float = 300) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.get(f"/api/jobs/{job_id}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError(f"run {job_id} still running after {timeout} s")


def run(client, url: str, form: dict) -> dict:
    r = client.post(url, json=form)
    assert r.status_code == 202, r.text
    status = wait(client, r.json()["id"])
    assert status["state"] == "done", status
    return status


@pytest.mark.parametrize("url", ["/", "/replay", "/reports"] +
                         [f"/{g}/{p}" for g in GAMES for p in ("explore", "play", "whatif")])
def test_every_page_renders(client, url):
    r = client.get(url)
    assert r.status_code == 200 and "<main" in r.text


def test_unknown_game_and_page_are_4xx_with_one_line(client):
    r = client.get("/chess/explore")
    assert r.status_code == 400 and r.json()["field"] == "game"
    assert r.json()["error"].startswith("unknown game 'chess'; accepted: ") and "moon" in r.json()["error"]
    assert client.get("/moon/nothing").status_code == 404


@pytest.mark.parametrize("form, field, words", [
    ({"hand": "6-6 6-5"}, "hand", "has 2 tiles; accepted: exactly 7 tiles"),
    ({"hand": ""}, "hand", "no hand given"),
    ({"hand": HANDS["moon"], "samples": "5001"}, "samples", "accepted: an integer from 1 to 5,000"),
    ({"hand": HANDS["moon"], "samples": "many"}, "samples", "'many' is not accepted"),
    ({"hand": HANDS["moon"], "seed": "-1"}, "seed", "accepted: an integer from 0"),
    ({"hand": HANDS["moon"], "players": "7"}, "players", "7"),
    ({"hand": HANDS["moon"], "strategy": ["evil.py:Cls"]}, "strategy", "files are not loaded from the page"),
    ({"hand": HANDS["moon"], "strategy": ["0=nobody"]}, "strategy", "unknown strategy 'nobody'"),
    ({"hand": HANDS["moon"], "rules": ["moon.bid_success=maybe"]}, "rules", "bad value 'maybe' for moon.bid_success"),
    ({"hand": HANDS["moon"], "seat_order": "sideways"}, "seat_order", "unknown --seat-order 'sideways'"),
])
def test_bad_explorer_input_names_the_field(client, form, field, words):
    r = client.post("/api/moon/hand", json=form)
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == field and words in body["error"] and "\n" not in body["error"]


def test_a_request_that_is_not_json_is_a_400(client):
    r = client.post("/api/moon/hand", content=b"hand=6-6", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["field"] == "form"


def cli_json(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "moonshot.cli", *args, "-f", "json", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("game", GAMES)
def test_the_explorer_gives_the_cli_numbers_for_the_same_seed(client, game):
    status = run(client, f"/api/{game}/hand", {"hand": HANDS[game], "samples": "300", "seed": "11"})
    page = client.get(f"/api/jobs/{status['id']}/result?format=json").json()
    cli = cli_json("hand", game, "--hand", HANDS[game], "--samples", "300", "--seed", "11")
    assert page["tables"] == cli["tables"] and page["findings"] == cli["findings"]
    html = client.get(f"/api/jobs/{status['id']}/result").text
    assert "<svg" in html and "What it found" in html and escape(cli["findings"][0]) in html


def test_a_run_can_be_cancelled_and_a_finished_one_cannot_give_a_result_twice_wrong(client):
    r = client.post("/api/moon/hand", json={"hand": HANDS["moon"], "samples": "5000", "seed": "3"})
    job = r.json()["id"]
    assert client.post(f"/api/jobs/{job}/cancel").status_code == 200
    assert wait(client, job)["state"] == "cancelled"
    assert client.get(f"/api/jobs/{job}/result").status_code == 409
    assert client.get("/api/jobs/nope").status_code == 404
