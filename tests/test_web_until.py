"""The What-if page's run until it can tell (issue 40 item 2, the page part): the form's "until width"
and "max time" reach the library as the CLI's --until and --max-time do (analysis.until.Until), the
run stops on its width (or its budget: the count given) and says how in the run's status and its
result's note, its numbers are a fixed run's of the size it played, and a bad value is one line
beside its field with HTTP 400 naming what is accepted. Fast: the toy game of tests/ (a round of
131,072 hands in a fraction of a second) and a few hundred Moon hands."""
from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.analysis.common import make_setup, whatif  # noqa: E402
from moonshot.simulator import games as registry  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from tests.test_web import run  # noqa: E402
from tests.toy_game import GAME as TOY  # noqa: E402

BUDGET = 1_000_000          # the count asked for: with --until, the most it plays
CHANGE = {TOY.name: ["toy.target=5"], "moon": ["moon.widow=none"]}


@pytest.fixture(scope="module")
def client():
    registry.register(TOY)
    yield TestClient(create_app(Limits(max_samples=BUDGET, default_samples=500), hosts=("testserver",)))
    registry.GAMES.pop(TOY.name, None)


def test_the_page_run_stops_on_its_width_and_says_so(client):
    status = run(client, f"/api/{TOY.name}/whatif", {"change": CHANGE[TOY.name], "n": str(BUDGET), "seed": "3",
                                                     "until": "5", "max_time": "600"})
    page = client.get(f"/api/jobs/{status['id']}/result?format=json").json()
    meta = page["meta"]
    assert meta["stopped_by"] == "width" and meta["until"] == 5 and meta["max_time"] == 600 and meta["budget"] == BUDGET
    played = meta["hands"]
    assert played < BUDGET and status["done"] == played and status["total"] == BUDGET   # stopped before the budget
    assert status["detail"].startswith(f"Played until every headline interval was narrower than 5: {played:,} hands")
    html = client.get(f"/api/jobs/{status['id']}/result").text
    assert "Played until every headline interval was narrower than 5" in html and "Chow and Robbins" in html
    # the numbers are those of a fixed run of the size it played, with the same seed
    fixed = whatif(make_setup(TOY.name, None, False), CHANGE[TOY.name], played, None, 3)
    assert page["tables"]["seats"] == fixed.tables["seats"].to_dict("records")


def test_a_page_run_that_cannot_narrow_in_its_budget_says_what_it_would_take(client):
    status = run(client, "/api/moon/whatif", {"change": CHANGE["moon"], "n": "300", "seed": "4", "until": "0.01"})
    meta = client.get(f"/api/jobs/{status['id']}/result?format=json").json()["meta"]
    assert meta["stopped_by"] == "budget" and meta["hands"] == 300 and meta["projected_total"] > 300
    assert status["detail"].startswith("Stopped by the budget after 300 hands") and "cannot be told" in status["detail"]


def test_without_until_the_run_is_the_count_given(client):
    status = run(client, "/api/moon/whatif", {"change": CHANGE["moon"], "n": "200", "seed": "4", "until": " "})
    meta = client.get(f"/api/jobs/{status['id']}/result?format=json").json()["meta"]
    assert meta["hands"] == 200 and "stopped_by" not in meta and status["detail"] is None


@pytest.mark.parametrize("form, field, words", [
    ({"until": "abc"}, "until", "--until 'abc' is not accepted; accepted: a width above 0 and at most 1,000"),
    ({"until": "0"}, "until", "--until '0' is not accepted"),
    ({"until": "-2"}, "until", "--until '-2' is not accepted"),
    ({"until": "nan"}, "until", "--until 'nan' is not accepted"),
    ({"until": "1e9"}, "until", "--until '1e9' is not accepted"),
    ({"until": True}, "until", "is not accepted; accepted: a width above 0"),
    ({"until": "2", "max_time": "0"}, "max_time", "--max-time '0' is not accepted; accepted: seconds above 0"),
    ({"until": "2", "max_time": "soon"}, "max_time", "--max-time 'soon' is not accepted"),
    ({"until": "2", "max_time": "7200"}, "max_time", "at most 3,600"),
    ({"max_time": "30"}, "max_time", "--max-time '30' without --until; accepted:"),
])
def test_a_bad_until_or_max_time_is_one_line_beside_its_field(client, form, field, words):
    r = client.post("/api/moon/whatif", json={"change": CHANGE["moon"], "n": "200", **form})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["field"] == field and words in body["error"] and "accepted" in body["error"], body
    assert "\n" not in body["error"]


def test_the_whatif_page_has_the_fields_beside_their_error_lines(client):
    page = client.get("/moon/whatif").text
    for name in ("until", "max_time"):
        assert f'name="{name}"' in page and f'data-for="{name}"' in page
    assert "moonshot whatif --until" in page
