"""Links that reopen (issue 28, item 6) through FastAPI's test client: a run's answer says the seed
and size it used (the page's link carries them), a finished hand's link token plays the same hand
again, and a bad token is refused in one line with HTTP 400 before anything is played or shown."""
from __future__ import annotations

import base64
import json
import warnings

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator.runner import DEFAULT_SEED  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from moonshot.web.links import MAX_TOKEN  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(Limits(max_samples=2_000, default_samples=300), tmp_path_factory.mktemp("reports"),
                                 hosts=("testserver",)))


def played(client, game: str, form: dict) -> str:
    """A hand played to its end (the last choice at each decision, a 250.5 ms slap): its id."""
    state = client.post(f"/api/{game}/play", json=form).json()
    while state["state"] != "over":
        prompt = state["prompt"]
        choice = 250.5 if prompt["choices"][0]["value"] == "timed" else prompt["choices"][-1]["value"]
        state = client.post(f"/api/play/{state['id']}/answer", json={"turn": prompt["turn"], "choice": choice}).json()
    return state["id"]


def token_of(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def decoded(token: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


@pytest.fixture(scope="module")
def moon_hand(client) -> tuple[str, dict]:
    """A Moon hand at 4 players with a rules flag and a named strategy: its history and its link's token."""
    sid = played(client, "moon", {"players": "4", "seat": "2", "seed": "21",
                                  "rules": ["moon.lead_suit_rule=leader_calls_end"], "strategy": ["1=greedy"]})
    link = client.get(f"/api/play/{sid}/link").json()
    return client.get(f"/api/play/{sid}/history").text, link


@pytest.mark.parametrize("game, form", [
    ("moon", {"players": "4", "seat": "2", "seed": "21"}),
    ("shoot-the-moon", {"seat": "0", "seed": "3", "partners": True}),
    ("hit-the-deck", {"players": "3", "seat": "1", "seed": "31", "rules": ["htd.voluntary_draw=true"]}),
])
def test_a_hands_link_plays_the_same_hand_again(client, game, form):
    sid = played(client, game, form)
    link = client.get(f"/api/play/{sid}/link").json()
    assert link["url"] == f"/replay?hand={link['token']}" and len(link["token"]) < 600
    data = decoded(link["token"])
    assert data["game"] == game and data["seat"] == int(form["seat"]) and data["seed"] == int(form["seed"])
    assert (250.5 in data["answers"]) == (game == "hit-the-deck")      # a slap's time travels in the link too
    r = client.post("/api/hand-link", json={"hand": link["token"]})
    assert r.status_code == 200, r.text
    assert r.json()["history"] == client.get(f"/api/play/{sid}/history").text        # the same record, byte for byte
    assert r.json()["file"] == f"{game}-hand-{form['seed']}.jsonl"


def test_the_shared_history_reads_on_the_replay_page_as_the_download_does(client, moon_hand):
    history, link = moon_hand
    shared = client.post("/api/hand-link", json={"hand": link["token"]}).json()
    up = [client.post("/api/replay", files={"file": (name, text.encode())}).json()
          for name, text in (("played.jsonl", history), (shared["file"], shared["history"]))]
    assert [s["text"] for s in up[0]["hands"][0]["steps"]] == [s["text"] for s in up[1]["hands"][0]["steps"]]
    assert up[1]["hands"][0]["people"] == [2] and decoded(link["token"])["strategy"] == ["1=greedy"]


def test_a_link_before_the_hand_is_over_is_refused(client):
    state = client.post("/api/moon/play", json={"seat": "0", "seed": "5"}).json()
    r = client.get(f"/api/play/{state['id']}/link")
    assert r.status_code == 400 and "not over" in r.json()["error"]
    assert client.get("/api/play/nope/link").status_code == 400


def test_a_runs_answer_says_the_seed_and_size_it_used(client):
    from moonshot.analysis.moon import HAND_CHECK
    r = client.post("/api/moon/hand", json={"hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "seat_order": "first"})
    checked = min(HAND_CHECK.default(3), 300)         # the search player's check: its default, at most the sample
    assert r.status_code == 202 and r.json()["used"] == {"samples": 300, "seed": DEFAULT_SEED, "check_samples": checked}
    hand = r.json()["id"]
    r = client.post("/api/moon/whatif", json={"change": ["moon.bid_success=strictly_greater"], "n": "250", "seed": "7"})
    assert r.status_code == 202 and r.json()["used"] == {"n": 250, "seed": 7}
    for job in (hand, r.json()["id"]):       # the hand's check plays pimc: not left running behind the other tests
        client.post(f"/api/jobs/{job}/cancel", json={})


def changed(link: dict, **values) -> str:
    return token_of({**decoded(link["token"]), **values})


BAD = [   # (what the token is, words the message must hold)
    (lambda link: "not base64 !!", "is not a token"),
    (lambda link: token_of([1, 2]), "not a JSON object"),
    (lambda link: base64.urlsafe_b64encode(b"\xff\xfe{").decode(), "is not a token"),
    (lambda link: "A" * (MAX_TOKEN + 4), "too long"),
    (lambda link: 12, "is not a token"),
    (lambda link: changed(link, extra=1), "keys"),
    (lambda link: changed(link, game="chess"), "unknown game"),
    (lambda link: changed(link, strategy=["../evil.py:Bot"]), "unknown strategy"),
    (lambda link: changed(link, players=9), "players"),
    (lambda link: changed(link, players="4"), "players"),
    (lambda link: changed(link, partners="yes"), "partners"),
    (lambda link: changed(link, rules=["moon.nonsense=1"]), "rules"),
    (lambda link: changed(link, seat=4), "seat 4 does not exist"),
    (lambda link: changed(link, seed=-1), "seed"),
    (lambda link: changed(link, seed=2**70), "2**63"),
    (lambda link: changed(link, answers=["7"]), "answers"),
    (lambda link: changed(link, answers=[True]), "answers"),
    (lambda link: changed(link, answers=[99] + decoded(link["token"])["answers"][1:]), "is not legal here"),
    (lambda link: changed(link, answers=decoded(link["token"])["answers"][:-1]), "end before the hand does"),
    (lambda link: changed(link, answers=decoded(link["token"])["answers"] + [0]), "unused"),
]


@pytest.mark.parametrize("make, words", BAD, ids=[w for _, w in BAD])
def test_a_bad_token_is_one_line_and_a_400(client, moon_hand, make, words):
    r = client.post("/api/hand-link", json={"hand": make(moon_hand[1])})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["field"] == "hand" and words in body["error"] and "\n" not in body["error"], body
    assert body["error"].startswith("hand link: ") and "accepted" in body["error"] and len(body["error"]) <= 400
    assert "history" not in body                     # nothing of the hand comes back
