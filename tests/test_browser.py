"""moonshot serve in a real browser: Playwright for Python driving Debian's Chromium (launched by
its executable path; never `playwright install`). Skipped, with the reason, only when chromium or
playwright is absent; CI installs both (.ci/run). Screenshots of every page go to the test's
temporary folder."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
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
from tests.serving import free_port, in_a_thread  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

MOON_HAND = ["6-6", "6-5", "6-4", "6-2", "5-5", "3-3", "1-1"]


@contextmanager
def running(app):
    """`app` (any ASGI app) served by uvicorn on a free local port, in a thread: its address."""
    import uvicorn
    port = free_port()
    with in_a_thread(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")):
        yield f"http://127.0.0.1:{port}"


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
    page.fill("#check_samples", "12")
    page.click("button.go")
    page.wait_for_selector("#table-trump_by_bid")
    shot(page, tmp_path, "explorer")
    job = page.get_attribute("#result", "data-job")
    shown = json.loads(page.request.get(f"{server}/api/jobs/{job}/result?format=json").text())
    expected = json.loads(cli("hand", "moon", "--hand", " ".join(MOON_HAND), "--samples", "300", "--seed", "11",
                              "--check-samples", "12", "-f", "json", "--quiet"))
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


def first(labels: list[str], title: str) -> int:
    return 0


def deal(page, server, game: str, players: str, seed: int, rules: dict | None = None) -> None:
    """The play page of `game` with the person at seat 0: the table, any rules flags, the seed, Deal."""
    page.goto(f"{server}/{game}/play")
    assert not page.locator("#table").is_visible() and not page.locator("#hint-button").is_visible()
    page.select_option("#players", players)
    if rules:
        page.click("details.flags summary")
        for flag, value in rules.items():
            page.select_option(f"select[data-flag='{flag}']", value)
    page.fill("#seed", str(seed))
    page.click("#deal button.go")


# A choice on the Play page: a piece of the hand (a button drawn as the piece) or a button below the table
CHOICE = "#table button[data-i]:not(:disabled), #table button[data-timed]"


def choice_labels(page) -> list[str]:
    """The prompt's choices' labels in the prompt's order (keys 1-9), wherever each is drawn."""
    return page.evaluate("() => [...document.querySelectorAll('#table button[data-i], #table button[data-timed]')]"
                         ".sort((a, b) => (+a.dataset.i || 0) - (+b.dataset.i || 0)).map(b => b.dataset.label)")


def click_choice(page, i: int) -> None:
    """Click choice `i` (the SLAP button where it is the one choice) and wait for the next prompt or the end."""
    slap = page.locator("#table button[data-timed]")
    (slap if slap.count() else page.locator(f"#table button[data-i='{i}']")).click()
    page.wait_for_function(f"() => !document.querySelector('#over').hidden || document.querySelector({CHOICE!r})")


def play_by_clicks(page, server, game: str, players: str, tmp_path: Path, seed: int = 17, pick=first,
                   rules: dict | None = None) -> tuple[Path, list[str]]:
    """A whole hand by clicks: at each prompt `pick(labels, title)` gives the button to click (the
    slap is a button too). The history downloaded at the end, and the prompts' titles in order."""
    deal(page, server, game, players, seed, rules)
    page.wait_for_selector(CHOICE)
    shot(page, tmp_path, f"play-{game}")
    titles = []
    for _ in range(120):
        if page.locator("#over").is_visible():
            break
        title = page.inner_text("#prompt-title")
        labels = choice_labels(page)
        titles.append(title)
        click_choice(page, pick(labels, title))
    assert page.locator("#over").is_visible()
    # after the hand the over section, the log and the table as the hand ended: no prompt, no choice
    assert not page.locator("#prompt-title").is_visible() and not page.locator(CHOICE).count()
    shot(page, tmp_path, f"over-{game}")
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / f"{game}.jsonl"
    info.value.save_as(str(path))
    return path, titles


def replayed_as_on_the_page(page, path: Path, capsys) -> dict:
    """The downloaded record, which `moonshot replay` accepts (in this process: no interpreter to
    start) and prints as the page did (in the over section's folded notation)."""
    from tests.test_cli import run
    code, printed, err = run(["replay", path], capsys)
    assert code == 0, err
    assert printed.strip() == page.text_content("#replay").strip()      # folded away: the notation, not words
    return json.loads(path.read_text())


def test_a_whole_shoot_the_moon_hand_played_by_clicks_downloads_a_history_replay_accepts(server, page, tmp_path,
                                                                                         capsys):
    path, titles = play_by_clicks(page, server, "shoot-the-moon", "4", tmp_path)
    record = replayed_as_on_the_page(page, path, capsys)
    assert record["game"] == "shoot-the-moon" and record["seed"] == 17 and set(titles) == {"Your play"}


def bid_high(labels: list[str], title: str) -> int:
    """The highest numbered bid up to 7 (21 would win any auction), else the first button."""
    if title != "Your bid":
        return 0
    bids = [(int(x), i) for i, x in enumerate(labels) if x.isdigit() and int(x) <= 7]
    return max(bids)[1]


def pass_bid(labels: list[str], title: str) -> int:
    return labels.index("pass") if title == "Your bid" else 0


# Seeds where the person at seat 0 wins the auction with the top bid (3 players: a discard after
# the widow; 4 players with moon.lead_suit_rule=leader_calls_end: the person leads and calls an end)
# or passes and another seat bids: each hand about 10 clicks.
@pytest.mark.parametrize("players, seed, rules, kinds", [
    ("3", 1, None, ["Your bid", "Discard one tile", "Name trump", "Your play"]),
    ("4", 1, {"moon.lead_suit_rule": "leader_calls_end"}, ["Your bid", "Name trump", "Your play", "Which end"]),
])
def test_a_moon_hand_won_at_the_auction_by_clicks_replays(server, page, tmp_path, capsys, players, seed, rules, kinds):
    path, titles = play_by_clicks(page, server, "moon", players, tmp_path, seed, bid_high, rules)
    record = replayed_as_on_the_page(page, path, capsys)
    assert record["bidder"] == 0 and record["players"] == int(players) and len(record["trick_winners"]) == 7
    assert record["trump"] and any(s == 0 and b == 7 for s, b in record["bids"])
    seen = [k for k in kinds if any(t.startswith(k) for t in titles)]
    assert seen == kinds and titles[0] == "Your bid"
    assert sum(t == "Your play" for t in titles) == 7                    # seven tricks, one tile each
    assert (record.get("widow") is not None) == (players == "3")


@pytest.mark.parametrize("players, seed", [("3", 1), ("4", 17)])
def test_a_moon_hand_the_person_passes_by_clicks_replays(server, page, tmp_path, capsys, players, seed):
    path, titles = play_by_clicks(page, server, "moon", players, tmp_path, seed, pass_bid)
    record = replayed_as_on_the_page(page, path, capsys)
    assert record["bidder"] not in (None, 0) and [0, "pass"] in record["bids"]
    assert titles[0] == "Your bid" and titles[1:] == ["Your play"] * 7


def htd_chooser():
    """Hit the Deck with htd.voluntary_draw=true and htd.drawn_card_play=optional: draw while a drawn
    card has not yet been both kept and played, keep the first playable drawn card, play the next;
    otherwise the first card (or the SLAP button)."""
    used = {"draw": 0, "keep": 0, "drawn": 0, "card": 0, "slap": 0}

    def pick(labels: list[str], title: str) -> int:
        if title.startswith("Hit the Deck"):
            used["slap"] += 1
            return 0
        if title.startswith("You drew"):
            keep = used["keep"] == 0
            used["keep" if keep else "drawn"] += 1
            return next(i for i, x in enumerate(labels) if x.startswith("keep") == keep)
        if "draw a card" in labels and not (used["keep"] and used["drawn"]):
            used["draw"] += 1
            return labels.index("draw a card")
        used["card"] += 1
        return 0
    return pick, used


def test_every_hit_the_deck_decision_by_clicks(server, page, tmp_path, capsys):
    """Play a card, draw, keep a drawn card, play a drawn card and slap, in one short hand (the
    slap's time decides the race, so a few seeds are tried until one reaches all five)."""
    for seed in (12, 111, 132, 190):
        pick, used = htd_chooser()
        path, titles = play_by_clicks(page, server, "hit-the-deck", "3", tmp_path, seed, pick,
                                      {"htd.voluntary_draw": "true", "htd.drawn_card_play": "optional"})
        if all(used.values()):
            break
    assert all(used.values()), used
    record = replayed_as_on_the_page(page, path, capsys)
    assert record["game"] == "hit-the-deck" and record["rules"]["htd.voluntary_draw"] is True


def test_a_hit_the_deck_slap_is_timed_from_a_key_press(server, page, tmp_path):
    page.goto(f"{server}/hit-the-deck/play")
    page.select_option("#players", "3")
    for seed in range(30, 60):
        page.fill("#seed", str(seed))
        page.click("#deal button.go")
        page.wait_for_selector(CHOICE)
        for _ in range(80):
            if page.locator("#over").is_visible() or page.locator("button.slap").count():
                break
            click_choice(page, 0)
        if page.locator("button.slap").count():
            break
    shown = time.monotonic()                               # the SLAP button is on the page
    shot(page, tmp_path, "slap")
    page.wait_for_timeout(150)
    page.keyboard.press("s")
    pressed = time.monotonic()
    # the log's slap line says the person's time in words: "... (your slap: 412 ms)"
    page.wait_for_function("() => /your slap: \\d+ ms/.test(document.querySelector('#log').textContent)")
    ms = float(re.search(r"your slap: (\d+) ms", page.inner_text("#log")).group(1))
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
    replay_a_moon_hand(page, server, tmp_path)
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    assert page.locator("#steps li").count() == 8
    shot(page, tmp_path, "replay")
    assert "bidder side's tricks" in page.inner_text("#values") or "End of the hand" in page.inner_text("#values")


def replay_a_moon_hand(page, server, tmp_path: Path) -> None:
    """The Replay page with a simulated Moon hand uploaded."""
    path = tmp_path / "moon.jsonl"
    cli("simulate", "moon", "-n", "1", "--history", str(path), "--quiet")
    page.goto(f"{server}/replay")
    page.set_input_files("#file", str(path))
    page.click("#upload button.go")
    page.wait_for_selector("#hands:not([hidden])")
