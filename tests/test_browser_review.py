"""The review of a played hand in a real browser (issues 27 and 37): an uploaded Moon history reviewed
on the Replay page shows a verdict on a step; a Shoot the Moon hand played by clicks is reviewed from
its "Review this hand" button; in every game the mistakes list jumps to each error's step (the steps
table's), "next mistake" moves on through them, and the graph has a point for each of the seat's
values; a link carries the review's settings and, opened from another site, starts nothing. Small
worlds ("quick"): the plumbing, not the values (tests/test_review*.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.serving import one_page
from tests.test_browser import browser, page, play_by_clicks, replay_a_moon_hand, running, server, shot  # noqa: F401

VERDICTS = ("forced", "best", "fine", "inaccuracy", "mistake", "blunder", "cannot be told")
GOLDEN = Path(__file__).parent / "golden"
QUICK = 8                 # the page's quick worlds (web/replay.py QUICK_WORLDS)
# per game, the golden files searched for a hand whose seat errs at the quick worlds and the default seed,
# and the (file, hand's line, seat) tried first (errors there when written: the search is the fallback)
FILES = {"moon": ("moon_4p_mixed.jsonl", "moon_3p_threshold.jsonl"),
         "shoot-the-moon": ("stm_4p_odd.jsonl", "stm_2p_dummy_greedy.jsonl"), "hit-the-deck": ("htd_6p_random.jsonl",)}
FIRST = {"moon": ("moon_4p_mixed.jsonl", 1, 1), "shoot-the-moon": ("stm_4p_odd.jsonl", 0, 0),
         "hit-the-deck": ("htd_6p_random.jsonl", 2, 2)}


def step_to_a_review(page) -> str:
    """Steps on until the next step shows a reviewed decision: its verdict."""
    for _ in range(40):
        if page.locator("#values .review-step").count():
            return page.inner_text("#values .review-step .verdict")
        page.click("#next")
    raise AssertionError("no reviewed decision on any step")


def test_an_uploaded_moon_history_is_reviewed_step_by_step(server, page, tmp_path):  # noqa: F811
    replay_a_moon_hand(page, server, tmp_path)
    assert page.locator("#review").is_visible()
    boxes = page.locator("#review-seats input")
    assert boxes.count() == 3 and all(boxes.nth(i).is_checked() for i in range(3))   # no person: every seat
    boxes.nth(1).uncheck()
    boxes.nth(2).uncheck()
    page.select_option("#worlds", "8")
    page.click("#review button.go")
    page.wait_for_selector("#review-result #table-summary")
    assert "What it found" in page.inner_text("#review-result") and not page.locator("#table-decisions").count()
    assert step_to_a_review(page) in VERDICTS
    text = page.inner_text("#values")
    assert "seat 0's" in text and "vs best [95%]" in text and "open hands" in text      # Moon's open-hands column
    assert "it came from a file" in page.inner_text("#review-link-box")                 # no link to an upload's hand
    shot(page, tmp_path, "replay-review")


def test_a_hand_played_by_clicks_is_reviewed_from_its_end(server, page, tmp_path):  # noqa: F811
    play_by_clicks(page, server, "shoot-the-moon", "4", tmp_path)
    page.click("#review-hand")
    page.wait_for_url("**/replay?play=*")
    page.wait_for_selector("#review-result #table-summary", timeout=120_000)   # started by itself, seat 0's
    boxes = page.locator("#review-seats input")
    assert [boxes.nth(i).is_checked() for i in range(4)] == [True, False, False, False]
    assert step_to_a_review(page) in VERDICTS and "seat 0's play" in page.inner_text("#values")
    # the hand's link now carries its review (seat 0, the default worlds, the seed used), as the address does
    link = page.input_value("#review-link")
    assert re.search(r"/replay\?hand=[\w-]+&seats=0&seed=2026$", link) and page.url == link
    shot(page, tmp_path, "play-review")


def errs(line: str, seat: int) -> int:
    """How many errors the review finds for `seat` in the hand at the quick worlds."""
    from moonshot.analysis.review import ERRORS, review
    return int(review([json.loads(line)], seats=[seat], worlds=QUICK).tables["steps"]["verdict"].isin(ERRORS).sum())


def with_errors(game: str) -> tuple[str, int]:
    """A golden hand (its JSON line) and a seat whose review at the quick worlds finds errors: FIRST's
    where it has two or more (so that "next mistake" has somewhere to go), else the one with the most."""
    name, k, seat = FIRST[game]
    line = (GOLDEN / name).read_text().splitlines()[k]
    if errs(line, seat) >= 2 or (game == "shoot-the-moon" and errs(line, seat)):     # its hands err once at most
        return line, seat
    found = [(-errs(line, seat), i, line, seat) for name in FILES[game]
             for i, line in enumerate((GOLDEN / name).read_text().splitlines())
             for seat in range(json.loads(line)["players"])]
    most, _, line, seat = min(found)
    assert most < 0, f"no {game} hand of {FILES[game]} errs at {QUICK} worlds"
    return line, seat


def upload_for_review(page, server, path: Path, seat: int) -> None:
    """The Replay page with the file uploaded and only `seat` ticked for the review."""
    page.goto(f"{server}/replay")
    page.set_input_files("#file", str(path))
    page.click("#upload button.go")
    page.wait_for_selector("#hands:not([hidden])")
    boxes = page.locator("#review-seats input")
    for i in range(boxes.count()):
        boxes.nth(i).set_checked(i == seat)


def review_one_seat(page, server, path: Path, seat: int) -> dict:
    """The Replay page with the file uploaded and `seat` reviewed at the quick worlds: the run's JSON."""
    upload_for_review(page, server, path, seat)
    page.select_option("#worlds", str(QUICK))
    page.click("#review button.go")
    page.wait_for_selector("#review-marks:not([hidden])")
    job = page.get_attribute("#review-result", "data-job")
    return json.loads(page.request.get(f"{server}/api/jobs/{job}/result?format=json").text())


def shown_step(page) -> int:
    return int(re.match(r"step (\d+) of", page.inner_text("#where")).group(1))


@pytest.mark.parametrize("game", list(FILES))
def test_the_mistakes_list_jumps_to_each_error_and_the_graph_has_a_point_a_value(server, page, tmp_path, game):  # noqa: F811
    line, seat = with_errors(game)
    path = tmp_path / "hand.jsonl"
    path.write_text(line + "\n")
    tables = review_one_seat(page, server, path, seat)["tables"]
    errors, steps, values = tables["errors"], tables["steps"], tables["values"]
    buttons = page.locator("#mistakes button")
    assert buttons.count() == len(errors) >= 1
    first = errors[0]                                   # the biggest loss, as the review's steps table has it
    row = next(r for r in steps if r["step"] == first["step"])
    assert first["loss"] == max(e["loss"] for e in errors) and row["verdict"] == first["verdict"]
    words = buttons.nth(0).inner_text()
    assert all(w in words
               for w in (first["where"], first["chosen"], first["best"], first["loss_text"], first["verdict"]))
    buttons.nth(0).click()
    assert shown_step(page) == row["replay_step"]       # the table as the seat chose, its review next
    review = page.inner_text("#values .review-step")
    assert f"seat {seat}'s" in review and f"({first['where']})" in review and first["verdict"] in review
    chosen = page.locator("#values .review-step tr.chosen td").first.inner_text()
    assert chosen == first["chosen"]
    heads = page.locator("#values .review-step th").all_inner_texts()
    if "P(win) [95%]" in heads:                         # in percent with its interval, as the hint shows it
        cells = page.locator(f"#values .review-step td:nth-child({heads.index('P(win) [95%]') + 1})").all_inner_texts()
        assert cells and all(c.count("%") == 3 and "[" in c for c in cells if c), cells
    assert game != "hit-the-deck" or "P(win) [95%]" in heads
    # "next mistake" (the M key) from the deal: each error after the step shown, in the hand's order, then the
    # first again
    at = sorted(e["replay_step"] for e in errors)
    page.keyboard.press("Home")
    for want in [s for s in at if s > 0] + [at[0]]:
        page.keyboard.press("m")
        assert shown_step(page) == want
    # the graph: one point a values row (the deal, each valued decision, the result), errors ringed
    points = page.locator("#value-graph .point")
    assert points.count() == len(values) >= 3
    assert page.locator("#value-graph .point.error").count() == len(errors)
    points.last.click()                                 # the result: the hand's end
    assert page.inner_text("#where").startswith(f"step {values[-1]['replay_step']} of {values[-1]['replay_step']}")
    assert page.locator("#value-graph details tr").count() == len(values) + 1     # the text alternative
    shot(page, tmp_path, f"review-{game}")


@pytest.fixture(scope="module")
def hand_token() -> str:
    """A played Moon hand's link token (played through the API of an app of its own: a token holds the
    hand's seed and answers, so any server plays it again)."""
    from fastapi.testclient import TestClient

    from moonshot.web.app import create_app
    from moonshot.web.forms import Limits
    from tests.test_web import play_out
    client = TestClient(create_app(Limits(max_samples=2_000, default_samples=300), hosts=("testserver",)))
    state = play_out(client, "moon", {"players": "3", "seat": "1", "seed": "8"})
    return client.get(f"/api/play/{state['id']}/link").json()["token"]


def test_a_link_with_its_review_opened_from_another_site_fills_the_form_and_starts_nothing(  # noqa: F811
        server, page, hand_token):
    link = f"{server}/replay?hand={hand_token}&seats=1&worlds={QUICK}&seed=3"
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.startswith(f"{server}/api/") else None)
    away = one_page(f"<!doctype html><title>away</title><script>location.href = {json.dumps(link)};</script>".encode())
    with running(away) as other:
        page.goto(other.replace("127.0.0.1", "localhost") + "/")          # another site sends the browser there
        page.wait_for_url(f"{server}/replay?*")
    note = page.locator("#upload #link-note")
    note.wait_for(state="visible")
    assert all(w in note.inner_text() for w in ("seats 1", f"worlds {QUICK}", "seed 3", "Nothing has started"))
    page.wait_for_timeout(300)
    assert asked == []                                  # no hand played again, no review
    page.click("#upload button.go")                     # the person presses Replay: the hand, the form filled
    page.wait_for_selector("#hands:not([hidden])")
    boxes = page.locator("#review-seats input")
    assert [boxes.nth(i).is_checked() for i in range(boxes.count())] == [False, True, False]
    assert page.input_value("#worlds") == str(QUICK) and page.input_value("#review-seed") == "3"
    said = page.locator("#review #link-note")
    assert ("a review of seat 1, 8 worlds a decision, seed 3" in said.inner_text()
            and "Review this hand" in said.inner_text())
    page.wait_for_timeout(300)
    assert [u for u in asked if "/api/review" in u or "/api/jobs" in u] == []
    page.click("#review button.go")                     # pressed: the review runs, the same link to share
    page.wait_for_selector("#review-marks:not([hidden])")
    assert page.url == link and page.input_value("#review-link") == link
    assert not said.is_visible()


def test_a_review_link_with_a_value_the_page_cannot_take_fills_nothing(server, page, hand_token):  # noqa: F811
    page.goto(f"{server}/replay?hand={hand_token}&seats=0&seats=7&worlds=64&seed=x")
    page.click("#upload button.go")
    page.wait_for_selector("#hands:not([hidden])")
    error = page.locator("#review .error[data-for='seats']")
    assert "seat \"7\" is not at this table; accepted: seat numbers 0 to 2" in error.inner_text()
    boxes = page.locator("#review-seats input")              # the page's own default, untouched: the person's seat
    assert [boxes.nth(i).is_checked() for i in range(3)] == [False, True, False]
    assert page.input_value("#worlds") == "" and not page.locator("#review #link-note").count()
