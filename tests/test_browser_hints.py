"""The Play page's hint in a real browser at phone and desktop width (issue 28 items 3 and 5): every
option with its estimate and interval in one unbroken cell, the best marked, the player and unit
named, and the table scrolling inside its box, never widening the page. Phone first (issue 39 item 3):
the move, the verdict and "vs best" lead and are on screen at 390 px, every row one line ("cannot be
told from the best" a short word with its words in a title and a legend), and the best marked on its
piece or button on the table, said in its name, its star over no pip or word."""
from __future__ import annotations

import pytest

from tests.test_browser import browser, server  # noqa: F401  (the shared fixtures)

WIDTHS = (390, 1280)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game, by, unit", [("moon", "pimc", "points"), ("shoot-the-moon", "rollout", "chips")])
def test_the_hint_keeps_each_estimate_with_its_interval_and_fits_the_page(server, browser,  # noqa: F811
                                                                         width, game, by, unit):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = _hinted(context, server, game)
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
        phone_first(page, width)
    finally:
        context.close()


def test_hit_the_decks_hint_shows_p_win_with_its_interval(server, browser):  # noqa: F811
    """Issue 37 item 5: P(win) beside the penalty points carries its 95% interval, as in the review."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = _hinted(context, server, "hit-the-deck")
        assert "P(win the game) [95%]" in page.inner_text("#hint table.hints tr:first-child")
        column = page.locator("#hint table.hints tr:first-child th").all_inner_texts().index("P(win the game) [95%]")
        cells = [c for c in page.locator(f"#hint table.hints tr td:nth-child({column + 1})").all_inner_texts() if c]
        assert cells and all(c.count("%") == 3 and "[" in c for c in cells), cells
    finally:
        context.close()


def _hinted(context, server: str, game: str):
    """A page of `game` dealt from seed 9 with the hint asked at its first decision."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{server}/{game}/play")
    page.fill("#seed", "9")
    page.locator("#deal button[type=submit]").first.click()
    page.wait_for_selector("#hint-button:not([hidden])")
    page.click("#hint-button")
    page.wait_for_selector("#hint table.hints")
    return page


# The hint's rows: each cell's box (the header's texts, the rows' heights and the cells' right edges),
# the marked choice and its star against every pip and text of the pieces on the table
LAYOUT = """() => {
  const rows = [...document.querySelectorAll('#hint table.hints tr')];
  const line = parseFloat(getComputedStyle(document.querySelector('#hint table.hints td')).lineHeight);
  const cells = rows.slice(1).map(r => [...r.cells].map(c => c.getBoundingClientRect().right));
  const star = document.querySelector('#table .hinted .star'), marks = [];
  if (star) {
    const b = star.getBoundingClientRect();
    for (const e of document.querySelectorAll('#felt svg.piece-svg circle, #felt svg.piece-svg text')) {
      const r = e.getBoundingClientRect();
      const meet = b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom;
      if (r.width > 0 && meet) marks.push(e.tagName);
    }
  }
  return {head: [...rows[0].cells].map(c => c.textContent), line, right: cells,
          heights: rows.slice(1).map(r => r.getBoundingClientRect().height), view: window.innerWidth,
          verdicts: rows.slice(1).map(r => r.cells[1].textContent), titles: rows.slice(1).map(r => r.cells[1].title ||
            (r.cells[1].firstElementChild || {}).title || ''), hinted: [...document.querySelectorAll('#table .hinted')]
            .map(b => [b.dataset.label, b.getAttribute('aria-label')]), covered: marks};
}"""


def phone_first(page, width: int) -> None:
    got = page.evaluate(LAYOUT)
    assert got["head"][:3] == ["choice", "verdict", "vs best [95%]"], got["head"]
    assert max(got["heights"]) < 2 * got["line"], got          # one line a row: no long verdict wraps it
    if width == 390:                                            # the move, verdict and "vs best" on screen
        assert all(r[2] <= got["view"] for r in got["right"]), got
    assert not any(len(v) > 12 for v in got["verdicts"]), got["verdicts"]
    for v, title in zip(got["verdicts"], got["titles"]):
        if v == "can't tell":
            assert "cannot be told from the best" in title
    if "can't tell" in got["verdicts"]:
        assert "can't tell: cannot be told from the best" in page.inner_text("#hint .verdict-legend")
    best = page.inner_text("#hint tr.best td:first-child").removeprefix("★ ").strip()
    assert got["hinted"] and len(got["hinted"]) == 1, got["hinted"]      # the best marked on the table
    label, name = got["hinted"][0]
    assert label == best and name.endswith("the hint's best"), (label, best, name)
    assert not got["covered"], got["covered"]
