"""The README's picture of the Replay page's review (issue 37 item 2): a Moon hand reviewed, its
mistakes list (biggest loss first, each a jump to its step) and the graph of the seat's value after
each step, at desktop width (docs/replay-review-desktop.png, 1280 px). Run by hand after a change
to the review's look (not by the tests):

    .venv/bin/python docs/review_screenshot.py

It serves the app on a free local port (docs/screenshots.py's way, Debian's Chromium), finds in the
golden Moon files the first hand whose seat has an error at the game's default worlds and seed
(`moonshot review FILE --seat S --hand-id H` gives the same numbers), uploads that hand, reviews the
seat, goes to its biggest error and saves the part of the page from the step buttons to the graph
(in 256 colours, by Pillow, which matplotlib brings)."""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))            # the repository root is the moonshot package
sys.path.insert(0, str(HERE.parent))                   # and tests/ (tests.serving) as pytest sees it

from moonshot.tests.test_browser import CHROMIUM, running  # noqa: E402
from moonshot.tests.test_browser_review import upload_for_review  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

GOLDEN = HERE.parent / "tests" / "golden"
FILES = ("moon_4p_mixed.jsonl", "moon_3p_threshold.jsonl", "moon_3p_variants.jsonl")
WIDTH, HEIGHT = 1280, 900


def a_hand_with_an_error(worlds: int | None = None) -> tuple[dict, int]:
    """The first (record, seat) of the golden Moon files whose review finds an error."""
    from moonshot.analysis.review import ERRORS, review
    for name in FILES:
        for line in (GOLDEN / name).read_text().splitlines():
            record = json.loads(line)
            for seat in range(record["players"]):
                steps = review([record], seats=[seat], worlds=worlds).tables["steps"]
                if steps["verdict"].isin(ERRORS).any():
                    print(f"{name}: hand {record['hand_id']}, seat {seat}")
                    return record, seat
    raise SystemExit("no Moon hand of the golden files has an error at these worlds")


def shoot(page, out: Path, worlds: str = "") -> None:
    """The Replay page of the hand uploaded in `page`, its seat reviewed, at its biggest error: saved to `out`."""
    page.select_option("#worlds", worlds)
    page.click("#review button.go")
    page.wait_for_selector("#review-marks:not([hidden]) #value-graph svg", timeout=240_000)
    page.click("#mistakes button >> nth=0")
    y = page.evaluate("window.scrollY")                   # bounding boxes are the viewport's, the clip the page's
    top, end = page.locator(".replay-nav").bounding_box(), page.locator("#review-marks").bounding_box()
    page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": y + top["y"] - 8, "width": WIDTH,
                                                         "height": end["y"] + end["height"] - top["y"] + 16})


def small(path: Path) -> None:
    """The picture in 256 colours (a page's flat colours need no more): a third of the bytes."""
    from PIL import Image
    Image.open(path).convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(path, optimize=True)


def main() -> None:
    from playwright.sync_api import sync_playwright
    record, seat = a_hand_with_an_error()
    path = Path(tempfile.mkdtemp()) / "moon.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with running(create_app(Limits(max_samples=2_000, default_samples=300), Path(tempfile.mkdtemp()))) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        upload_for_review(page, url, path, seat)
        out = HERE / "replay-review-desktop.png"
        shoot(page, out)
        small(out)
        print(f"{out.relative_to(HERE.parent)}: {out.stat().st_size / 1000:.0f} kB")
        browser.close()


if __name__ == "__main__":
    main()
