"""The review of a played hand in a real browser (issue 27): an uploaded Moon history reviewed on
the Replay page shows a verdict on a step, and a Shoot the Moon hand played by clicks is reviewed
from its "Review this hand" button. Small worlds ("quick"): the plumbing, not the values."""
from __future__ import annotations

from tests.test_browser import browser, page, play_by_clicks, replay_a_moon_hand, server, shot  # noqa: F401 (fixtures)

VERDICTS = ("forced", "best", "fine", "inaccuracy", "mistake", "blunder", "cannot be told")


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
    shot(page, tmp_path, "replay-review")


def test_a_hand_played_by_clicks_is_reviewed_from_its_end(server, page, tmp_path):  # noqa: F811
    play_by_clicks(page, server, "shoot-the-moon", "4", tmp_path)
    page.click("#review-hand")
    page.wait_for_url("**/replay?play=*")
    page.wait_for_selector("#review-result #table-summary", timeout=120_000)   # started by itself, seat 0's
    boxes = page.locator("#review-seats input")
    assert [boxes.nth(i).is_checked() for i in range(4)] == [True, False, False, False]
    assert step_to_a_review(page) in VERDICTS and "seat 0's play" in page.inner_text("#values")
    shot(page, tmp_path, "play-review")
