"""Phone first (issue 28 item 5), in a real browser at 1280 and 390 px wide, on every page of every
game with a small run's result shown where the page has one: the page never scrolls sideways,
every table cell holding an estimate and its interval shows whole on one line (on screen, or inside
a box that scrolls), and no chart label is drawn smaller than 11 px (its computed font size times
the SVG's scale on screen). Launched as tests/test_browser.py launches Chromium; runs are small."""
from __future__ import annotations

from pathlib import Path

import pytest

# its Chromium (skipping without it), the served app and the browser, shared
from tests.test_browser import browser, server  # noqa: F401
from moonshot.simulator.games import GAMES

WIDTHS = (1280, 390)
SMALL = "200"                 # deals, hands: enough for tables, intervals and a chart
# one change per game that moves the numbers (a what-if whose chart has whiskers)
CHANGE = {"shoot-the-moon": ("stm.starting_chips", "0"), "moon": ("moon.bid_success", "strictly_greater"),
          "hit-the-deck": ("htd.cut_depth", "uniform")}

# What a page shows, measured in the browser: how far the page scrolls sideways; each table cell
# with an estimate and its interval ("9.3 [8.1, 10.6]") that is cut (its text wider than the cell),
# on more than one line, or off screen outside any box that scrolls; each chart label under 11 px.
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true; } return false; };
  const out = {overflow: document.documentElement.scrollWidth - vw, cells: 0, bad: [], labels: [], small: []};
  for (const td of document.querySelectorAll("td, th")) {
    if (!/\\d.*\\[.*\\]/.test(td.textContent) || !td.getClientRects().length) continue;
    out.cells++;
    const r = td.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(td);
    const lines = new Set(Array.from(range.getClientRects(), q => Math.round(q.top))).size;
    const cut = td.scrollWidth > td.clientWidth + 1, off = r.left < -0.5 || r.right > vw + 0.5;
    if (cut || lines > 1 || (off && !scrolls(td))) out.bad.push([td.textContent.trim(), {cut, lines, off}]);
  }
  for (const t of document.querySelectorAll("figure.chart svg text, svg.svgchart text")) {
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    out.labels.push(px);
    if (px < 11) out.small.push([t.textContent, px]);
  }
  for (const c of document.querySelectorAll("figure.chart figcaption")) {
    const px = parseFloat(getComputedStyle(c).fontSize);
    if (px < 11) out.small.push([c.textContent, px]);
  }
  return out;
}"""


# a few recorded hands per game (the golden files: nothing to simulate here)
HISTORIES = {"shoot-the-moon": "stm_4p_odd.jsonl", "moon": "moon_3p_threshold.jsonl",
             "hit-the-deck": "htd_4p_mixed.jsonl"}
GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(request, browser):
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def fits(page, what: str, charted: bool = False) -> dict:
    """The page's measures, asserted: no sideways scroll, every estimate cell whole, chart labels >= 11 px."""
    m = page.evaluate(MEASURE)
    width = page.viewport_size["width"]
    assert m["overflow"] <= 0, f"{what} at {width} px scrolls sideways by {m['overflow']} px"
    assert not m["bad"], f"{what} at {width} px: estimate cells cut, wrapped or off screen: {m['bad'][:4]}"
    assert not m["small"], f"{what} at {width} px: chart labels under 11 px: {m['small'][:4]}"
    if charted:
        assert m["labels"], f"{what} at {width} px shows no chart"
    return m


def run(page, button: str = "button.go") -> None:
    page.click(button)
    page.wait_for_selector("#result h2")


def test_index_and_reports(server, page):
    for url in ("/", "/reports"):
        page.goto(server + url)
        fits(page, url)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_explorer_with_a_result(server, page, game):
    page.goto(f"{server}/{game}/explore")
    fits(page, f"{game} explorer")
    page.fill("#samples", SMALL)
    if page.locator("#check_samples").count():       # the search player's check, small: its table still shows
        page.fill("#check_samples", "20")
    run(page)
    assert fits(page, f"{game} explorer's result", charted=True)["cells"]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_what_if_with_a_result_and_its_changes_in_view(server, page, game):
    page.goto(f"{server}/{game}/whatif")
    flag, value = CHANGE[game]
    field = page.locator(f"[data-flag='{flag}']")
    field.select_option(value) if field.evaluate("e => e.tagName") == "SELECT" else field.fill(value)
    page.fill("#n", SMALL)
    run(page)
    assert fits(page, f"{game} what-if's result", charted=True)["cells"]
    # the change columns come first: the first is on screen without scrolling its box, even on a phone
    head = page.locator("#result table.estimates th", has_text="change:").first
    box = head.bounding_box()
    assert box and box["x"] + box["width"] <= page.viewport_size["width"], f"{game}: the change column is off screen"
    # the axis's ticks tell each other apart ("-0.1 ... 0.0 ... 0" did not)
    ticks = page.locator("svg.svgchart text.tick").all_text_contents()
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks), ticks


def test_a_whole_games_rule_switches_the_count(server, page):
    page.goto(f"{server}/hit-the-deck/whatif")
    assert page.input_value("#unit") == "hands"
    page.fill("[data-flag='htd.target_score']", "50")
    assert page.input_value("#unit") == "games"
    assert "htd.target_score" in page.inner_text("#unit-note")
    page.select_option("#unit", "hands")                       # a person may count hands anyway: it is said
    assert "hands alone will not show it" in page.inner_text("#unit-note")
    fits(page, "hit-the-deck what-if's rules")


@pytest.mark.parametrize("game", list(GAMES))
def test_play_dealt_with_a_hint(server, page, game):
    page.goto(f"{server}/{game}/play")
    fits(page, f"{game} play")
    page.fill("#seed", "5")
    page.click("#deal button.go")
    page.wait_for_selector("#table:not([hidden])")
    if page.locator("#hint-button").is_visible():
        page.click("#hint-button")
        page.wait_for_function("() => !/thinking/.test(document.querySelector('#hint').textContent)")
    shown = fits(page, f"{game} play, dealt, with a hint")
    assert shown["cells"] or not page.locator("#hint-button").is_visible()      # the hint's values and intervals


@pytest.mark.parametrize("game", list(GAMES))
def test_replay_reviewed_and_stepped_to_the_end(server, page, game):
    page.goto(f"{server}/replay")
    fits(page, "replay")
    page.set_input_files("#file", str(GOLDEN / HISTORIES[game]))
    page.click("#upload button.go")
    page.wait_for_selector("#hands:not([hidden])")
    seats = page.locator("#review-seats input")            # seat 0 alone, the quick review: a small run
    for i in range(seats.count()):
        seats.nth(i).set_checked(i == 0)
    page.select_option("#worlds", index=1)
    page.click("#review button.go")
    page.wait_for_selector("#review-result h2")
    page.keyboard.press("End")                             # the whole hand, its values and the log
    fits(page, f"{game} replay, reviewed, at the end", charted=True)
