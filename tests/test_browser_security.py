"""moonshot serve against a hostile page, in a real Chromium (skipped as tests/test_browser.py is,
without chromium or playwright): a page of another origin, served by a second local server,
tries a no-cors fetch, a text/plain form post and an iframe of the play page; an uploaded history
carries markup; and the app's own pages run under their CSP without one violation."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_browser import CHOICE, browser, page, running  # noqa: F401  (fixtures; skips without chromium)
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from tests.serving import one_page  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"


def hostile(target: str):
    """An ASGI app serving one page that tries to drive `target` from its own origin."""
    html = f"""<!doctype html><title>hostile</title>
<form id="f" method="post" enctype="text/plain" action="{target}/api/moon/report" target="sink">
  <input name='{{"hands": 1000, "x": "' value='"}}'></form>
<iframe name="sink"></iframe>
<iframe id="frame" src="{target}/moon/play"></iframe>
<script>
  const body = JSON.stringify({{hands: 1000, hand: "6-6 6-5 6-4 6-2 5-5 3-3 1-1"}});
  Promise.all(["report", "hand"].map(w => fetch("{target}/api/moon/" + w, {{method: "POST", mode: "no-cors",
      headers: {{"Content-Type": "text/plain"}}, body}}).catch(() => null)))
    .then(() => {{ document.getElementById("f").submit(); document.title = "tried"; }});
</script>""".encode()
    return one_page(html)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    reports = tmp_path_factory.mktemp("reports")
    app = create_app(Limits(max_samples=2_000, default_samples=200), reports)
    with running(app) as url:
        yield app, url, reports


def test_a_page_of_another_origin_starts_nothing_and_cannot_frame_the_app(site, page):
    app, target, reports = site
    answers, console = [], []
    page.on("response", lambda r: answers.append((r.url, r.status)) if r.url.startswith(target + "/api") else None)
    page.on("console", lambda m: console.append(m.text))
    with running(hostile(target)) as evil:
        page.goto(evil.replace("127.0.0.1", "localhost") + "/")          # another site, not only another port
        page.wait_for_function("document.title === 'tried'")
        page.wait_for_function("() => true")
        page.wait_for_timeout(500)                                       # the form's post lands in its frame
    assert sorted(answers) == sorted([(f"{target}/api/moon/report", 403), (f"{target}/api/moon/hand", 403),
                                      (f"{target}/api/moon/report", 403)]), answers
    assert not app.state.runner.jobs and not any(reports.iterdir())      # no run, no report folder
    frame = page.query_selector("#frame").content_frame()
    assert frame.query_selector("#deal") is None                         # the play page did not load in it
    assert any("frame-ancestors" in m for m in console), console


def test_a_history_with_markup_fires_no_dialog(site, page, tmp_path):
    _, target, _ = site
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    record = json.loads((GOLDEN / "moon_3p_threshold.jsonl").read_text().splitlines()[0])
    record["hand_id"] = "<img src=x onerror=alert(1)>"
    record["strategies"][0] = "<script>alert(2)</script>"
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n")
    page.goto(f"{target}/replay")
    page.set_input_files("#file", str(tmp_path / "bad.jsonl"))
    page.click("#upload button.go")
    error = page.locator(".error[data-for='file']")
    error.wait_for(state="visible")
    assert "bad.jsonl:1: hand_id" in error.inner_text() and page.locator("#hands").is_hidden()
    page.wait_for_timeout(300)
    assert dialogs == []


def test_the_pages_run_under_their_csp_without_a_violation(site, page):
    _, target, _ = site
    problems = []
    page.on("console", lambda m: problems.append(m.text) if "Refused" in m.text or "Content Security" in m.text
            else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    for url in ("/", "/moon/explore", "/hit-the-deck/whatif", "/reports"):
        page.goto(target + url)
    page.goto(f"{target}/shoot-the-moon/play")                          # app.js's play page, built as text
    page.click("#deal button.go")
    page.wait_for_selector(CHOICE)                                     # the table drawn, its pieces the choices
    page.goto(f"{target}/replay")
    page.set_input_files("#file", str(GOLDEN / "moon_3p_threshold.jsonl"))
    page.click("#upload button.go")
    page.wait_for_selector("#hand-pick option", state="attached")
    page.click("#next")
    assert page.locator("#steps li").count() == 1
    assert problems == []
