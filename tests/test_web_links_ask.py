"""Links ask before they work (issue 38, item 3), in a real Chromium (launched as tests/test_browser.py
does; skipped as it is): a page of another site sends the browser to an Explorer, What-if, Play or
hand (/replay?hand=) link of the app; the app's page fills its form with the link's values and says
what pressing its button will do, and nothing starts: no job, no deal, no POST of any kind in the
server's own request log. Pressing the button then starts it."""
from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest

from tests.test_browser import browser, page, running  # noqa: F401  (fixtures; skips without chromium)
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from tests.serving import one_page  # noqa: E402

HAND = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"


class Logged:
    """The app with every request it receives written down: (method, path)."""

    def __init__(self, app):
        self.app, self.seen = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            self.seen.append((scope["method"], scope["path"]))
        await self.app(scope, receive, send)

    def posts(self) -> list[tuple[str, str]]:
        return [r for r in self.seen if r[0] != "GET"]


def elsewhere():
    """Another site: its one page sends the browser to the address in its ?to= (a crafted link)."""
    html = b"""<!doctype html><title>elsewhere</title><script>
      location.replace(new URLSearchParams(location.search).get("to"));</script>"""
    return one_page(html)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = create_app(Limits(max_samples=2_000, default_samples=200), tmp_path_factory.mktemp("reports"))
    logged = Logged(app)
    with running(logged) as url, running(elsewhere()) as other:
        yield app, logged, url, other.replace("127.0.0.1", "localhost")     # another site, not only another port


def hand_token(app) -> str:
    """A whole Shoot the Moon hand played through the API (the first choice every time): its link token."""
    from fastapi.testclient import TestClient
    client = TestClient(app, base_url="http://localhost")
    state = client.post("/api/shoot-the-moon/play", json={"seat": "0", "seed": "17", "players": "4"}).json()
    for _ in range(200):
        if state["state"] == "over":
            break
        prompt = state["prompt"]
        state = client.post(f"/api/play/{state['id']}/answer", json={
            "turn": prompt["turn"], "choice": prompt["choices"][0]["value"]}).json()
    assert state["state"] == "over"
    return client.get(f"/api/play/{state['id']}/link").json()["token"]


def opened_from_elsewhere(site, page, link: str):
    """The link opened by another site's page; the counts of jobs and hands and the POSTs before it."""
    app, logged, url, other = site
    before = (len(app.state.runner.jobs), len(app.state.hands.sessions), len(logged.posts()))
    page.goto(f"{other}/?to={quote(url + link)}")
    page.wait_for_url(f"{url}/**")
    note = page.locator("#link-note")
    note.wait_for(state="visible")
    page.wait_for_timeout(400)                 # a script that submitted by itself would have posted by now
    assert (len(app.state.runner.jobs), len(app.state.hands.sessions), len(logged.posts())) == before, \
        logged.posts()[before[2]:]
    assert "Nothing has started" in note.inner_text()
    return before, note.inner_text()


def pressed(page, button: str, api: str) -> int:
    """Press `button`: the status of the POST to `api` it sends."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(api)) as info:
        page.click(button)
    return info.value.status


def test_an_explorer_link_fills_the_form_and_waits_for_run(site, page):  # noqa: F811
    app = site[0]
    query = urlencode([("hand", HAND), ("samples", "150"), ("seed", "7"), ("check_samples", "0"),
                       ("strategy", "threshold"), ("players", "4"), ("rules", "moon.min_bid=3")])
    before, said = opened_from_elsewhere(site, page, f"/moon/explore?{query}")
    assert page.input_value("#hand") == HAND and page.input_value("#samples") == "150"
    assert page.input_value("#seed") == "7" and page.input_value("#strategy") == "threshold"
    assert page.input_value("#players") == "4" and page.input_value("select[data-flag='moon.min_bid']") == "3"
    assert "150 deals of the hand 6-6" in said and "no check" in said and "moon.min_bid=3" in said
    assert pressed(page, "button.go", "/api/moon/hand") == 202
    assert len(app.state.runner.jobs) == before[0] + 1
    page.wait_for_selector("#link-note", state="detached")             # the note goes once it runs
    for job in list(app.state.runner.jobs):
        app.state.runner.cancel(job)


def test_a_whatif_link_fills_the_form_and_waits_for_run(site, page):  # noqa: F811
    app = site[0]
    query = urlencode([("change", "moon.bid_success=strictly_greater"), ("n", "120"), ("seed", "5"),
                       ("unit", "hands")])
    before, said = opened_from_elsewhere(site, page, f"/moon/whatif?{query}")
    assert page.input_value("select[name='change'][data-flag='moon.bid_success']") == "strictly_greater"
    assert page.input_value("#n") == "120" and page.input_value("#seed") == "5"
    assert "120 hands" in said and "moon.bid_success=strictly_greater" in said
    assert pressed(page, "button.go", "/api/moon/whatif") == 202
    assert len(app.state.runner.jobs) == before[0] + 1
    for job in list(app.state.runner.jobs):
        app.state.runner.cancel(job)


def test_a_play_link_fills_the_form_and_waits_for_deal(site, page):  # noqa: F811
    app = site[0]
    before, said = opened_from_elsewhere(site, page, "/moon/play?players=4&seat=2&seed=123&strategy=threshold")
    assert page.input_value("#players") == "4" and page.input_value("#seat") == "2"
    assert page.input_value("#seed") == "123" and page.input_value("#strategy") == "threshold"
    assert "you at seat 2, seed 123" in said and "threshold" in said
    assert not page.locator("#table").is_visible()
    assert pressed(page, "#deal button.go", "/api/moon/play") == 200
    page.wait_for_selector("#prompt-title:not(:empty)")
    assert len(app.state.hands.sessions) == before[1] + 1


def test_a_hand_link_waits_for_replay(site, page):  # noqa: F811
    app, logged = site[0], site[1]
    token = hand_token(app)
    before, said = opened_from_elsewhere(site, page, f"/replay?hand={token}")
    assert "shoot-the-moon hand at 4 players" in said and "seed 17" in said
    assert not page.locator("#hands").is_visible()
    assert ("POST", "/api/hand-link") not in logged.seen[-20:]
    assert pressed(page, "#upload button.go", "/api/hand-link") == 200
    page.wait_for_selector("#hands:not([hidden])")
    assert page.locator("#hand-pick option").count() == 1


def test_a_bad_hand_link_says_so_when_replay_is_pressed(site, page):  # noqa: F811
    before, said = opened_from_elsewhere(site, page, "/replay?hand=bm90LWEtdG9rZW4")
    assert "cannot read" in said
    assert pressed(page, "#upload button.go", "/api/hand-link") == 400
    error = page.locator(".error[data-for='file']")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("hand link: ") and not page.locator("#hands").is_visible()


def test_review_this_hand_opened_from_elsewhere_waits_for_its_button(site, page):  # noqa: F811
    """/replay?play=ID (the Play page's "Review this hand") reviews at once only when that button was
    pressed in this tab; opened any other way, the hand is shown and the review waits."""
    app, logged, url, other = site
    from fastapi.testclient import TestClient
    client = TestClient(app, base_url="http://localhost")
    state = client.post("/api/shoot-the-moon/play", json={"seat": "0", "seed": "3", "players": "4"}).json()
    for _ in range(200):
        if state["state"] == "over":
            break
        state = client.post(f"/api/play/{state['id']}/answer", json={
            "turn": state["prompt"]["turn"], "choice": state["prompt"]["choices"][0]["value"]}).json()
    jobs = len(app.state.runner.jobs)
    page.goto(f"{other}/?to={quote(url + '/replay?play=' + state['id'])}")
    page.wait_for_selector("#hands:not([hidden])")
    page.wait_for_timeout(400)
    assert len(app.state.runner.jobs) == jobs and ("POST", "/api/review") not in logged.seen
    assert page.locator("#review button.go").is_visible()
