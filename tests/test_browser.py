"""moonshot serve in a real browser: Playwright for Python driving Debian's Chromium (launched by
its executable path; never `playwright install`). Skipped, with the reason, only when chromium or
playwright is absent; CI installs both (.ci/run). Screenshots of every page go to the test's
temporary folder."""
from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install -y chromium): the browser tests need it",
                allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")

from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

MOON_HAND = ["6-6", "6-5", "6-4", "6-2", "5-5", "3-3", "1-1"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(app):
    """`app` (any ASGI app) served by uvicorn on a free local port, in a thread: its address."""
    import uvicorn
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(create_app(Limits(max_samples=2_000, default_samples=300), tmp_path_factory.mktemp("reports"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page(browser, tmp_path):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1000, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def shot(page, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def cli(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "moonshot.cli", *args], capture_output=True, text=True,
                          check=True).stdout


def test_a_moon_hand_picked_by_clicks_gives_the_cli_table(server, page, tmp_path):
    page.goto(f"{server}/moon/explore")
    page.click("button.clear-hand")
    for tile in MOON_HAND:
        page.click(f".picker button[data-piece='{tile}']")
    assert page.input_value("#hand") == " ".join(MOON_HAND)
    page.fill("#samples", "300")
    page.fill("#seed", "11")
    page.click("button.go")
    page.wait_for_selector("#table-trump_by_bid")
    shot(page, tmp_path, "explorer")
    job = page.get_attribute("#result", "data-job")
    shown = json.loads(page.request.get(f"{server}/api/jobs/{job}/result?format=json").text())
    expected = json.loads(cli("hand", "moon", "--hand", " ".join(MOON_HAND), "--samples", "300", "--seed", "11",
                              "-f", "json", "--quiet"))
    assert shown["tables"] == expected["tables"]
    import pandas as pd

    from moonshot.reports.glossary import label
    from moonshot.reports.text import pivot_estimates
    want = pivot_estimates(pd.DataFrame(expected["tables"]["trump_by_bid"]), lambda m: label("moon", m))
    rows = page.locator("#table-trump_by_bid tbody tr")
    assert rows.count() == len(want)
    for i in (0, len(want) - 1):                          # the page's cells are the CLI's table's
        assert rows.nth(i).locator("td").all_inner_texts() == [str(x) for x in want.iloc[i]]
    assert page.locator(".findings li").first.inner_text() == expected["findings"][0]


def test_a_bad_hand_shows_its_message_beside_the_field(server, page, tmp_path):
    page.goto(f"{server}/moon/explore")
    page.fill("#hand", "6-6 6-6 6-5")
    page.click("button.go")
    error = page.locator(".error[data-for='hand']")
    error.wait_for(state="visible")
    assert "6-6" in error.inner_text() and "accepted" in error.inner_text()
    assert page.get_attribute("#hand", "aria-invalid") == "true"
    shot(page, tmp_path, "bad-input")


def play_by_clicks(page, server, game: str, players: str, tmp_path: Path) -> Path:
    page.goto(f"{server}/{game}/play")
    page.select_option("#players", players)
    page.fill("#seed", "17")
    page.click("#deal button.go")
    page.wait_for_selector("#choices button")
    shot(page, tmp_path, f"play-{game}")
    for _ in range(60):
        if page.locator("#over").is_visible():
            break
        page.locator("#choices button").first.click()
        page.wait_for_function("() => !document.querySelector('#over').hidden || "
                               "document.querySelector('#choices button')")
    assert page.locator("#over").is_visible()
    shot(page, tmp_path, f"over-{game}")
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / f"{game}.jsonl"
    info.value.save_as(str(path))
    return path


@pytest.mark.parametrize("game, players", [("moon", "3"), ("shoot-the-moon", "4")])
def test_a_whole_hand_played_by_clicks_downloads_a_history_replay_accepts(server, page, tmp_path, game, players):
    path = play_by_clicks(page, server, game, players, tmp_path)
    record = json.loads(path.read_text())
    assert record["game"] == game and record["seed"] == 17
    printed = cli("replay", str(path))
    assert printed.strip() == page.inner_text("#replay").strip()


def test_a_hit_the_deck_slap_is_timed_from_a_key_press(server, page, tmp_path):
    page.goto(f"{server}/hit-the-deck/play")
    page.select_option("#players", "3")
    for seed in range(30, 60):
        page.fill("#seed", str(seed))
        page.click("#deal button.go")
        page.wait_for_selector("#choices button")
        for _ in range(80):
            if page.locator("#over").is_visible() or page.locator("button.slap").count():
                break
            page.locator("#choices button").first.click()
            page.wait_for_function("() => !document.querySelector('#over').hidden || "
                                   "document.querySelector('#choices button')")
        if page.locator("button.slap").count():
            break
    shown = time.monotonic()                               # the SLAP button is on the page
    shot(page, tmp_path, "slap")
    page.wait_for_timeout(150)
    page.keyboard.press("s")
    pressed = time.monotonic()
    # the log's slap line (moonshot replay's wording): hands down {0: 412 ms, 1: ...}; the person is seat 0
    page.wait_for_function("() => /hands down [{](.*, )?0: /.test(document.querySelector('#log').textContent)")
    ms = float(re.search(r"hands down \{(?:[^}]*, )?0: (\d+) ms", page.inner_text("#log")).group(1))
    # the time from the button showing to the key press: at least the wait, at most that span plus
    # the moments between its drawing and this test seeing it
    assert 150 <= ms <= (pressed - shown) * 1000 + 300


def test_the_pages_read_on_a_phone_and_from_the_keyboard(server, browser, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    for url in ("/", "/hit-the-deck/explore", "/shoot-the-moon/whatif", "/replay", "/reports"):
        pg.goto(server + url)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, (url, width)                  # nothing wider than the phone
        shot(pg, tmp_path, "phone" + url.replace("/", "-"))
    pg.goto(server + "/moon/play")
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.className") == "skip"
    context.close()


def test_what_if_and_replay_in_the_browser(server, page, tmp_path):
    page.goto(f"{server}/shoot-the-moon/whatif")
    page.select_option("select[data-flag='stm.moon_chip_netting']", "sequential")
    page.fill("#n", "300")
    page.click("button.go")
    page.wait_for_selector("#result h2")
    shot(page, tmp_path, "whatif")
    assert "stm.moon_chip_netting=sequential" in page.inner_text("#result")
    path = tmp_path / "moon.jsonl"
    cli("simulate", "moon", "-n", "1", "--history", str(path), "--quiet")
    page.goto(f"{server}/replay")
    page.set_input_files("#file", str(path))
    page.click("#upload button.go")
    page.wait_for_selector("#hands:not([hidden])")
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    assert page.locator("#steps li").count() == 8
    shot(page, tmp_path, "replay")
    assert "bidder side's tricks" in page.inner_text("#values") or "End of the hand" in page.inner_text("#values")
