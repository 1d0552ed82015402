"""The README's screenshots of the Play page's table, one per game at phone (390 px) and desktop
(1280 px) width (docs/play-<game>-<width>.png), and of the Replay page of a Moon hand at both
(docs/replay-moon-<width>.png), and of the Moon hand explorer's form and first findings at desktop
width (docs/serve-explorer.png). Run by hand after a change to the table's look
(not by the tests):

    .venv/bin/python docs/screenshots.py

It serves the app on a free local port, deals each game's hand from a fixed seed in Debian's
Chromium (never `playwright install`), takes the first choice until a trick or pile shows in the
middle, and saves the table's section only, so each file stays small (the script prints sizes)."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))            # the repository root is the moonshot package
sys.path.insert(0, str(HERE.parent))                   # and tests/ (tests.serving) as pytest sees it

from moonshot.tests.test_browser import CHROMIUM, running  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

# game -> (players, seed, clicks at most until the middle shows pieces)
HANDS = {"moon": ("4", 3, 12), "shoot-the-moon": ("4", 5, 6), "hit-the-deck": ("4", 7, 4)}
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def play_until_the_middle_shows(page, clicks: int) -> None:
    """The first choice taken until the middle holds another seat's piece (a trick under way, or
    Hit the Deck's pile) with the person to play a piece, or `clicks` run out."""
    for _ in range(clicks):
        if page.locator("#felt .trick figure").count() >= 2 and page.locator("#felt button.piece-choice").count():
            return
        page.locator("#table button[data-i]").first.click()
        page.wait_for_function("() => !document.querySelector('#over').hidden || "
                               "document.querySelector('#table button[data-i]:not(:disabled)')")


def main() -> None:
    from playwright.sync_api import sync_playwright
    import tempfile
    with running(create_app(Limits(max_samples=20_000, default_samples=300), Path(tempfile.mkdtemp()))) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for game, (players, seed, clicks) in HANDS.items():
            for name, (w, h) in WIDTHS.items():
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(f"{url}/{game}/play")
                page.select_option("#players", players)
                page.fill("#seed", str(seed))
                page.click("#deal button.go")
                page.wait_for_selector("#felt .felt")
                play_until_the_middle_shows(page, clicks)
                out = HERE / f"play-{game}-{name}.png"
                page.locator("#table").screenshot(path=str(out))
                print(f"{out.relative_to(HERE.parent)}: {out.stat().st_size / 1000:.0f} kB, page "
                      f"{page.evaluate('document.documentElement.scrollWidth')} px wide at {w}")
                page.close()
        replay(browser, url)
        explorer(browser, url)
        browser.close()


def replay(browser, url: str) -> None:
    """The Replay page of a simulated Moon hand (seed 2026), gone to trick 3's second play, at each width."""
    import subprocess
    import tempfile
    path = Path(tempfile.mkdtemp()) / "moon.jsonl"
    subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", "moon", "-n", "1", "--history", str(path),
                    "--quiet"], check=True, capture_output=True)
    for name, (w, h) in WIDTHS.items():
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(f"{url}/replay")
        page.set_input_files("#file", str(path))
        page.click("#upload button.go")
        page.wait_for_selector("#hands:not([hidden])")
        page.select_option("#chapter", label="trick 3")
        page.click("#next")
        page.click("#next")
        out = HERE / f"replay-moon-{name}.png"
        top, end = page.locator(".replay-nav").bounding_box(), page.locator("#values").bounding_box()
        page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": top["y"] - 8, "width": w,
                                                               "height": end["y"] + end["height"] - top["y"] + 16})
        print(f"{out.relative_to(HERE.parent)}: {out.stat().st_size / 1000:.0f} kB")
        page.close()


def explorer(browser, url: str) -> None:
    """The Moon hand explorer on its example hand (2,000 deals a trump, 12 checked by the search
    player), from the form to the first rows of the chart, at a desktop-like 760 px."""
    page = browser.new_page(viewport={"width": 760, "height": 1400})
    page.goto(f"{url}/moon/explore")
    page.fill("#samples", "2000")
    page.fill("#check_samples", "12")
    page.click("#explore button.go")
    page.wait_for_selector("#result .findings", timeout=180_000)
    out = HERE / "serve-explorer.png"
    page.screenshot(path=str(out))
    print(f"{out.relative_to(HERE.parent)}: {out.stat().st_size / 1000:.0f} kB")
    page.close()


if __name__ == "__main__":
    main()
