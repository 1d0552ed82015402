"""The Play page's hint in a real browser at phone and desktop width (issue 28 items 3 and 5): every
option with its estimate and interval in one unbroken cell, the best marked, the player and unit
named, and the table scrolling inside its box, never widening the page."""
from __future__ import annotations

import pytest

from tests.test_browser import browser, server  # noqa: F401  (the shared fixtures)

WIDTHS = (390, 1280)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game, by, unit", [("moon", "pimc", "points"), ("shoot-the-moon", "rollout", "chips")])
def test_the_hint_keeps_each_estimate_with_its_interval_and_fits_the_page(server, browser,  # noqa: F811
                                                                         width, game, by, unit):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{server}/{game}/play")
        page.fill("#seed", "9")
        page.locator("#deal button[type=submit]").first.click()
        page.wait_for_selector("#hint-button:not([hidden])")
        page.click("#hint-button")
        page.wait_for_selector("#hint table.hints")
        head = page.inner_text("#hint p")
        assert by in head and unit in head
        cells = page.locator("#hint td.est")
        assert cells.count() >= 2
        for i in range(cells.count()):
            cell = cells.nth(i)
            if cell.inner_text().strip():
                assert cell.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
        assert page.locator("#hint tr.best").count() == 1 and "★" in page.inner_text("#hint tr.best")
        assert page.evaluate("document.documentElement.scrollWidth") <= width        # no page-wide scroll
        assert "moonshot review" in page.inner_text("#hint p.meta")
    finally:
        context.close()


def test_hit_the_decks_hint_shows_p_win_with_its_interval(server, browser):  # noqa: F811
    """Issue 37 item 5: P(win) beside the penalty points carries its 95% interval, as in the review."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{server}/hit-the-deck/play")
        page.fill("#seed", "9")
        page.locator("#deal button[type=submit]").first.click()
        page.wait_for_selector("#hint-button:not([hidden])")
        page.click("#hint-button")
        page.wait_for_selector("#hint table.hints")
        assert "P(win the game) [95%]" in page.inner_text("#hint table.hints tr:first-child")
        column = page.locator("#hint table.hints tr:first-child th").all_inner_texts().index("P(win the game) [95%]")
        cells = [c for c in page.locator(f"#hint table.hints tr td:nth-child({column + 1})").all_inner_texts() if c]
        assert cells and all(c.count("%") == 3 and "[" in c for c in cells), cells
    finally:
        context.close()
