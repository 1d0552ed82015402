"""moonshot serve answers only its own pages (web/guard.py), puts nothing from a request or a file
into markup, and bounds what a request may carry. Through FastAPI's test client: every refusal
is one line, and none is a 500."""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator.errors import BadInput  # noqa: E402
from moonshot.simulator.histories import replayed  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from moonshot.web.guard import JSON_LIMIT, host_name, served_names  # noqa: E402
from tests.test_cli import run as cli  # noqa: E402

HAND = {"hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "samples": "200"}
GOLDEN = Path(__file__).parent / "golden"
MARKUP = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(Limits(max_samples=2_000, default_samples=200), tmp_path_factory.mktemp("reports"),
                      hosts=("testserver", "box.lan"))        # TestClient's Host, and a --host


@pytest.fixture(scope="module")
def client(app):
    return TestClient(app)


def refused(r, status: int, words: str) -> None:
    """A refusal: its status, one plain line with `words`, and the page headers."""
    assert r.status_code == status, r.text
    assert r.text.count("\n") == 1 and words in r.text, r.text
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


# ---------------------------------------------------------------------------- same origin only

def test_another_origin_cannot_start_a_run(app, client):
    before = len(app.state.runner.jobs)
    refused(client.post("/api/moon/hand", json=HAND, headers={"Origin": "http://evil.example"}), 403, "evil.example")
    refused(client.post("/api/moon/report", json={}, headers={"Origin": "null"}), 403, "refused")
    refused(client.post("/api/moon/hand", json=HAND, headers={"Sec-Fetch-Site": "cross-site"}), 403, "cross-site")
    refused(client.post("/api/moon/hand", json=HAND, headers={"Sec-Fetch-Site": "same-site"}), 403, "same-site")
    refused(client.post("/api/moon/hand", content=json.dumps(HAND), headers={"Content-Type": "text/plain"}),
            415, "accepted: application/json")
    refused(client.post("/api/moon/report", content="hands=1000", headers={
        "Content-Type": "application/x-www-form-urlencoded"}), 415, "application/json")
    refused(client.post("/api/moon/hand", content=json.dumps(HAND)), 415, "a body without a type")
    assert len(app.state.runner.jobs) == before                 # no run started


def test_the_apps_own_pages_may(app, client):
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    r = client.post("/api/moon/hand", json=HAND, headers=own)
    assert r.status_code == 202, r.text
    r = client.post(f"/api/jobs/{r.json()['id']}/cancel", headers={"Sec-Fetch-Site": "none"})   # no body, no type
    assert r.status_code == 200


def test_a_host_the_server_does_not_answer_to_is_refused(client):
    refused(client.get("/", headers={"Host": "evil.example"}), 403, "Host 'evil.example'")
    refused(client.get("/static/app.js", headers={"Host": "evil.example:8000"}), 403, "not an address")
    refused(client.post("/api/moon/hand", json=HAND, headers={"Host": "127.0.0.1.evil.example"}), 403, "Host")
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "box.lan:8000"):    # what it serves
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    assert host_name("[::1]:80") == "::1" and host_name("LocalHost:1") == "localhost"
    assert served_names(["0.0.0.0"]) > {"127.0.0.1", "localhost", "::1", "0.0.0.0"}   # + this machine's names


@pytest.mark.parametrize("url", ["/", "/moon/play", "/replay", "/static/app.js", "/static/app.css",
                                 "/api/jobs/none", "/moon/nothing"])
def test_every_response_carries_the_security_headers(client, url):
    r = client.get(url)
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp and "form-action 'self'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"
    if r.headers["content-type"].startswith("text/html"):
        assert "<script>" not in r.text and "<script src=\"/static/app.js\"" in r.text    # no inline script


def test_no_value_goes_into_the_page_as_markup():
    js = "\n".join(f.read_text() for f in sorted((Path(__file__).parents[1] / "web" / "static").glob("*.js")))
    assert js.count("innerHTML") == 1 and "out.innerHTML = await r.text();" in js   # render.py's escaped result
    templates = Path(__file__).parents[1] / "web" / "templates"
    for page in templates.glob("*.html"):
        text = page.read_text()
        assert "|safe" not in text.replace(" ", "") and "<script>" not in text, page
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", text), page                      # no onclick= and the like


# ---------------------------------------------------------------------------- bounded bodies and numbers

def test_a_body_over_the_limit_is_413_by_its_length_and_as_it_streams(app, client):
    before = len(app.state.runner.jobs)
    big = json.dumps({**HAND, "pad": "x" * JSON_LIMIT})
    refused(client.post("/api/moon/hand", content=big, headers={"Content-Type": "application/json"}),
            413, f"at most {JSON_LIMIT:,}")
    chunks = (big[i:i + 4096].encode() for i in range(0, len(big), 4096))     # no Content-Length: chunked
    r = client.post("/api/moon/hand", content=chunks, headers={"Content-Type": "application/json"})
    assert r.request.headers.get("transfer-encoding") == "chunked"
    refused(r, 413, "over 65,536 bytes")
    assert len(app.state.runner.jobs) == before


@pytest.mark.parametrize("raw, field", [
    ('{"hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "seed": 1e400}', "seed"),
    ('{"hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "seed": %d}' % 2**70, "seed"),
    ('{"hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "samples": NaN}', "form"),
    ('{"rules": [1, [2, -1e999]]}', "rules"),
    ('[' * 5000 + ']' * 5000, "form"),
])
def test_numbers_outside_int64_or_not_finite_are_400(client, raw, field):
    r = client.post("/api/moon/hand", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["field"] == field, r.text


def test_a_play_answer_with_a_huge_turn_is_400_not_500(client):
    state = client.post("/api/shoot-the-moon/play", json={"seat": "0", "seed": "3"}).json()
    for raw, field in (('{"turn": 1e400, "choice": 0}', "turn"), ('{"turn": 0, "choice": %d}' % 2**70, "choice"),
                       ('{"turn": "1e400"}', "turn"), ('{"turn": %s}' % ("9" * 5000), "form")):
        r = client.post(f"/api/play/{state['id']}/answer", content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["field"] == field, r.text
        assert "\n" not in r.json()["error"] and len(r.json()["error"]) < 200


@pytest.mark.parametrize("form", [{"hand": "Z" * 60_000}, {**HAND, "rules": ["moon.bid_success=" + "y" * 60_000]},
                                  {**HAND, "strategy": ["q" * 60_000]}, {**HAND, "seat_order": "w" * 60_000}])
def test_a_long_value_is_echoed_cut_short(client, form):
    r = client.post("/api/moon/hand", json=form)
    assert r.status_code == 400 and len(r.json()["error"]) <= 400 and "accepted" in r.json()["error"]


@pytest.mark.parametrize("rule", ["htd.max_turns=1000000000", "htd.max_turns=10001", "htd.target_score=1001",
                                  "htd.memory=window(111)", "htd.colours=<b>,G,B,Y"])
def test_rules_flags_out_of_range_are_refused_by_page_and_cli(client, capsys, rule):
    r = client.post("/api/hit-the-deck/hand", json={"hand": "R3 R5 G2 BCUT YFLIP HN3 HH", "rules": [rule]})
    assert r.status_code == 400 and r.json()["field"] == "rules" and "accepted" in r.json()["error"]
    code, _, err = cli(["simulate", "hit-the-deck", "-n", "10", "-r", rule, "-q"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "accepted" in err


# ---------------------------------------------------------------------------- histories with markup

def poisoned(record: dict):
    """(where, record) for every string of the record (and hand_id, seed, format, game_id) replaced
    by markup: in a list, its first and last items (a Hit the Deck hand has hundreds)."""
    def leaves(x, path=()):
        if isinstance(x, dict):
            for k, v in x.items():
                yield from leaves(v, path + (k,))
        elif isinstance(x, list):
            for i in sorted({0, len(x) - 1} if x else ()):
                yield from leaves(x[i], path + (i,))
        elif isinstance(x, str) or path[-1] in ("hand_id", "seed", "format", "game_id"):
            yield path
    for n, path in enumerate(leaves(record)):
        bad = json.loads(json.dumps(record))
        spot = bad
        for p in path[:-1]:
            spot = spot[p]
        spot[path[-1]] = MARKUP[n % 2]
        yield path, bad


GAME_FILES = ["moon_3p_variants.jsonl", "stm_6p_partners_revoke.jsonl", "htd_3p_variants.jsonl"]


@pytest.mark.parametrize("name", GAME_FILES)
def test_a_history_with_markup_in_any_string_field_is_refused_in_one_line(name):
    record = json.loads((GOLDEN / name).read_text().splitlines()[0])
    seen = 0
    for path, bad in poisoned(record):
        with pytest.raises(BadInput) as info:
            list(replayed([json.dumps(bad)], "h.jsonl"))
        message = str(info.value)
        assert message.startswith("h.jsonl:1: ") and "\n" not in message and len(message) < 420, (path, message)
        seen += 1
    assert seen > 10


def test_the_replay_page_and_moonshot_replay_refuse_markup(client, tmp_path, capsys):
    record = json.loads((GOLDEN / GAME_FILES[0]).read_text().splitlines()[0])
    kinds = {}
    for path, bad in poisoned(record):          # one upload per kind of field (list positions aside)
        kinds.setdefault(tuple(p for p in path if isinstance(p, str)), bad)
    assert {("hand_id",), ("strategies",), ("game",), ("hands",), ("trump",)} <= set(kinds)
    for path, bad in kinds.items():
        r = client.post("/api/replay", files={"file": ("h.jsonl", json.dumps(bad).encode(), "application/json")})
        assert r.status_code == 400 and r.json()["field"] == "file", (path, r.text)
        assert r.json()["error"].startswith("h.jsonl:1: ") and "\n" not in r.json()["error"]
    bad = kinds[("hand_id",)]
    assert bad["hand_id"] in MARKUP
    (tmp_path / "h.jsonl").write_text(json.dumps(bad) + "\n")
    code, out, err = cli(["replay", tmp_path / "h.jsonl"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "hand_id" in err and ":1:" in err
