"""Drawn pieces in a real browser (issue 28 item 1), launched as tests/test_browser.py launches
Chromium: every piece the explorer's picker offers is an SVG drawing with a non-empty accessible
name at phone (390 px) and desktop (1280 px) width, the picker is still used by keyboard, and
changing Moon's players changes the tiles offered before any run; every piece of the Play page's
table is a named drawing too (tests/test_browser_table.py tests the table itself)."""
from __future__ import annotations

import pytest

from tests.test_browser import CHOICE, browser, server, shot  # noqa: F401 (fixtures)
from tests.test_web_pieces import FULL28, KEEP00_22, NO_BLANKS21

GAMES = ("shoot-the-moon", "moon", "hit-the-deck")
WIDTHS = (390, 1280)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(browser, request):  # noqa: F811
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    pg = context.new_page()
    # as tests/test_browser.py: a busy machine compiles kernels at the first deal
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def drawn(page) -> list[dict]:
    """Each picker button: its piece, whether it holds an svg with role img, the svg's accessible
    name (aria-label), its drawn size, and how far it reaches right (px)."""
    return page.eval_on_selector_all(".picker button.piece", """bs => bs.map(b => {
        const s = b.querySelector('svg'), r = s ? s.getBoundingClientRect() : null;
        return {piece: b.dataset.piece, svg: !!s && s.getAttribute('role') === 'img',
                name: s ? (s.getAttribute('aria-label') || '').trim() : '', \
only: b.childNodes.length === 1 && b.firstChild === s,
                w: r ? r.width : 0, h: r ? r.height : 0, right: r ? r.right : 0};
    })""")


def offered(page) -> set[str]:
    return {b["piece"] for b in drawn(page)}


@pytest.mark.parametrize("game", GAMES)
def test_every_picker_piece_is_a_drawing_with_a_name(server, page, game, tmp_path):  # noqa: F811
    page.goto(f"{server}/{game}/explore")
    page.wait_for_selector(".picker button.piece.drawn svg")
    pieces = drawn(page)
    assert pieces and all(p["svg"] and p["name"] for p in pieces), [p for p in pieces if not (p["svg"] and p["name"])]
    assert len({p["name"] for p in pieces}) == len(pieces)          # no two pieces read the same
    assert all(p["only"] for p in pieces)                           # drawn, not text beside or instead
    width = page.viewport_size["width"]
    assert all(p["w"] >= 30 and p["h"] >= 24 and p["right"] <= width for p in pieces)   # big enough, on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, tmp_path, f"picker-{game}-{width}")


def test_the_picker_is_used_by_keyboard(server, page):  # noqa: F811
    page.goto(f"{server}/moon/explore")
    page.wait_for_selector(".picker button.piece.drawn svg")
    page.click("button.clear-hand")
    page.focus(".picker button[data-piece='6-6']")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press(" ")
    assert page.input_value("#hand") == "6-6 6-5"
    assert page.get_attribute(".picker button[data-piece='6-5']", "aria-pressed") == "true"
    assert page.get_attribute(".picker button[data-piece='6-4']", "aria-pressed") == "false"


def until_offered(page, want: set[str]) -> None:
    page.wait_for_function("n => document.querySelectorAll('.picker button.piece').length === n", arg=len(want))
    assert offered(page) == want


def test_moon_players_and_flags_change_the_tiles_offered_before_any_run(server, page):  # noqa: F811
    page.goto(f"{server}/moon/explore")
    page.wait_for_selector(".picker button.piece.drawn svg")
    assert page.input_value("#players") == "3"
    until_offered(page, KEEP00_22)
    page.select_option("#players", "4")
    until_offered(page, FULL28)
    page.fill("#hand", "6-6 6-5 6-4 6-2 5-5 3-3 3-0")
    page.dispatch_event("#hand", "input")
    page.select_option("#players", "3")
    until_offered(page, KEEP00_22)
    assert "not in play here: 3-0" in page.inner_text(".picker-note")     # said before Run, not after
    page.click("details.flags summary")
    page.select_option("select[data-flag='moon.widow']", "none")
    until_offered(page, NO_BLANKS21)
    assert page.locator("#result").inner_text().strip() == ""            # nothing was run


EVERY_PIECE_DRAWN = """() => {
    const svgs = [...document.querySelectorAll('svg.piece-svg')];
    return {drawn: svgs.length, unnamed: svgs.filter(s => s.getAttribute('role') !== 'img' ||
                                                          !(s.getAttribute('aria-label') || '').trim()).length,
            written: [...document.querySelectorAll('span.piece')].map(s => s.textContent)};
}"""


@pytest.mark.parametrize("game, players", [("moon", "4"), ("shoot-the-moon", "3"), ("hit-the-deck", "4")])
def test_every_piece_on_the_play_page_is_a_drawing_with_a_name(server, page, game, players):  # noqa: F811
    """Whatever the table shows at the first prompt (your hand, the others' backs, the middle), each
    piece is a drawing with its name in words: none falls back to its notation as text."""
    page.goto(f"{server}/{game}/play")
    page.select_option("#players", players)
    page.click("#deal button.go")
    page.wait_for_selector(CHOICE)
    page.wait_for_selector("#felt svg.piece-svg")
    seen = page.evaluate(EVERY_PIECE_DRAWN)
    assert seen["drawn"] >= 5 and seen["unnamed"] == 0 and seen["written"] == [], seen
