"""Links that reopen (issue 28, item 6) in a real browser (launched as tests/test_browser.py does):
the address a page shows after a run or a deal, opened in a fresh browser context (no cookies, no
storage, nothing of the first), fills the form and, once its button is pressed (a link starts
nothing by itself: tests/test_web_links_ask.py), shows the same numbers or the same hand; a played
hand's "Copy a link to this hand" opens the Replay page with the same history steps."""
from __future__ import annotations

import json
import re

import pytest

from tests.test_browser import browser, page, play_by_clicks, server, shot  # noqa: F401 (fixtures)

# per game: the explorer's hand (the README's) and rules flag, the what-if's rules change (small runs)
CASES = {
    "moon": ("6-6 6-5 6-4 6-2 5-5 3-3 1-1", ("moon.min_bid", "3"), ("moon.bid_success", "strictly_greater")),
    "shoot-the-moon": ("R12 R7 BM G3 P5", ("stm.moon_chip_netting", "sequential"), ("stm.chip_supply", "finite40")),
    "hit-the-deck": ("R3 R5 G2 BCUT YFLIP HN3 HH", ("htd.word_matches_word", "true"), ("htd.voluntary_draw", "true")),
}


def fresh(browser, url: str):  # noqa: F811
    """`url` in a new browser context: the page, and its context to close."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(url)
    return pg, context


def numbers(pg) -> dict:
    """What a run shows: every result table's cells, the findings, and the run's JSON tables."""
    pg.wait_for_selector("#result table", timeout=240_000)   # a loaded machine, or kernels compiling (first run)
    job = pg.get_attribute("#result", "data-job")
    shown = json.loads(pg.request.get(pg.evaluate("location.origin") + f"/api/jobs/{job}/result?format=json").text())
    return {"tables": pg.locator("#result table").all_inner_texts(),
            "findings": pg.locator("#result .findings li").all_inner_texts(), "json": shown["tables"]}


def reopened(browser, pg, tmp_path, name: str) -> tuple[dict, dict]:  # noqa: F811
    """The numbers `pg` shows and the numbers its address shows in a fresh context."""
    first = numbers(pg)
    again, context = fresh(browser, pg.url)
    try:
        again.locator("#link-note").wait_for(state="visible")
        again.click("button.go")
        second = numbers(again)
        shot(again, tmp_path, f"reopened-{name}")
    finally:
        context.close()
    return first, second


@pytest.mark.parametrize("game", list(CASES))
def test_an_explorer_link_reopens_the_same_numbers(server, browser, page, tmp_path, game):  # noqa: F811
    hand, (flag, value), _ = CASES[game]
    page.goto(f"{server}/{game}/explore")
    page.fill("#hand", hand)
    page.click("details.flags summary")
    page.select_option(f"select[name='rule'][data-flag='{flag}']", value)
    page.fill("#samples", "100")
    if page.locator("#check_samples").count():   # a small check: the link carries it too
        page.fill("#check_samples", "20")
    page.fill("#seed", "")                       # no seed given: the link carries the one the server used
    page.click("button.go")
    page.wait_for_function("() => location.search.includes('seed=')")
    query = dict(re.findall(r"[?&]([^=&]+)=([^&]*)", page.url))
    from moonshot.simulator.runner import DEFAULT_SEED
    assert query["seed"] == str(DEFAULT_SEED) and query["samples"] == "100" and "rules" in query
    first, second = reopened(browser, page, tmp_path, f"explore-{game}")
    assert first == second and first["tables"] and first["json"]


@pytest.mark.parametrize("game", list(CASES))
def test_a_whatif_link_reopens_the_same_numbers(server, browser, page, tmp_path, game):  # noqa: F811
    _, _, (flag, value) = CASES[game]
    page.goto(f"{server}/{game}/whatif")
    page.select_option(f"select[name='change'][data-flag='{flag}']", value)
    page.fill("#n", "100")
    page.fill("#seed", "5")
    page.click("button.go")
    first, second = reopened(browser, page, tmp_path, f"whatif-{game}")
    assert first == second and first["tables"] and f"{flag}={value}" in page.inner_text("#result")


def dealt(pg, action) -> dict:
    """The Play page's first state after `action` (a deal by click or by opening a link)."""
    with pg.expect_response(lambda r: re.search(r"/api/[^/]+/play$", r.url) and r.request.method == "POST") as info:
        action()
    pg.wait_for_selector("#prompt-title:not(:empty)")
    return info.value.json()


@pytest.mark.parametrize("game, players, flag", [("moon", "4", ("moon.min_bid", "3")),
                                                 ("shoot-the-moon", "3", CASES["shoot-the-moon"][1]),
                                                 ("hit-the-deck", "3", CASES["hit-the-deck"][2])])
def test_a_play_link_deals_the_same_hand(server, browser, page, tmp_path, game, players, flag):  # noqa: F811
    page.goto(f"{server}/{game}/play")
    page.select_option("#players", players)
    page.select_option("#seat", "2")
    page.click("details.flags summary")
    page.select_option(f"select[data-flag='{flag[0]}']", flag[1])
    page.fill("#seed", "")                       # a new deal: the link carries the seed it was dealt from
    first = dealt(page, lambda: page.click("#deal button.go"))
    assert f"seed={first['seed']}" in page.url and "seat=2" in page.url
    again, context = fresh(browser, "about:blank")
    try:
        again.goto(page.url)
        again.locator("#link-note").wait_for(state="visible")
        second = dealt(again, lambda: again.click("#deal button.go"))
        assert second["seed"] == first["seed"] and second["prompt"] == first["prompt"]
        assert again.input_value("#seat") == "2" and again.input_value(f"select[data-flag='{flag[0]}']") == flag[1]
        assert again.inner_text("#table") == page.inner_text("#table")
        shot(again, tmp_path, f"reopened-play-{game}")
    finally:
        context.close()


def test_a_played_hands_link_shows_the_same_history_steps(server, browser, page, tmp_path):  # noqa: F811
    path, _ = play_by_clicks(page, server, "shoot-the-moon", "4", tmp_path)
    page.wait_for_selector("#copy-hand-link")
    link = page.input_value("#hand-link")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.click("#copy-hand-link")
    page.wait_for_function("() => document.querySelector('#hand-link-box [role=status]').textContent === 'copied'")
    assert page.evaluate("navigator.clipboard.readText()") == link          # what the button copied
    assert re.fullmatch(rf"{re.escape(server)}/replay\?hand=[A-Za-z0-9_-]+", link)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 400          # the link fits a phone
    shot(page, tmp_path, "hand-link")
    from moonshot.web.replay import read
    want = [s["text"] for s in read(path.read_bytes(), path.name)["hands"][0]["steps"]]
    again, context = fresh(browser, link)
    try:
        again.click("#upload button.go")                                  # Replay: the link's hand
        again.wait_for_selector("#hands:not([hidden])")
        for _ in want:
            again.click("#next")
        assert again.locator("#steps li").all_inner_texts() == want
        assert again.text_content("#text").strip() and len(want) >= 4
        shot(again, tmp_path, "replayed-link")
    finally:
        context.close()


def test_a_bad_hand_link_says_so_and_shows_nothing(server, page, tmp_path):  # noqa: F811
    page.goto(f"{server}/replay?hand=bm90LWEtdG9rZW4")
    page.click("#upload button.go")
    error = page.locator(".error[data-for='file']")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("hand link: ") and "accepted" in error.inner_text()
    assert not page.locator("#hands").is_visible()


def test_a_link_with_a_value_the_page_does_not_offer_runs_nothing(server, page):  # noqa: F811
    page.goto(f"{server}/moon/whatif?change=moon.nonsense%3D1&n=100&seed=3")
    error = page.locator(".error[data-for='change']")
    error.wait_for(state="visible")
    assert "moon.nonsense" in error.inner_text() and "accepted: moon." in error.inner_text()
    page.goto(f"{server}/moon/explore?players=9&hand=6-6")
    error = page.locator(".error[data-for='players']")
    error.wait_for(state="visible")
    assert "accepted: 3, 4" in error.inner_text()
    page.wait_for_timeout(300)
    assert page.inner_text("#result") == "" and "?players=9" in page.url       # no run, no new address
