"""The Play and Replay pages' table in a real browser (issue 28 item 2): every game's seats, middle
and drawn hand at phone (390 px) and desktop (1280 px) width with no sideways scroll, and a replay
stepped as a movie: forward, back, to a trick."""
from __future__ import annotations

import json

import pytest

from tests.test_browser import CHOICE, browser, replay_a_moon_hand, server, shot  # noqa: F401 (fixtures)

# game -> (players, seed, hand size at the first prompt)
GAMES = {"moon": ("4", 3, 7), "shoot-the-moon": ("4", 5, 5), "hit-the-deck": ("3", 7, 7)}
NO_SIDEWAYS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.mark.parametrize("width", [390, 1280])
def test_every_game_deals_a_table_of_seats_with_a_middle_and_a_drawn_hand(server, browser, tmp_path, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    for game, (players, seed, held) in GAMES.items():
        page.goto(f"{server}/{game}/play")
        page.select_option("#players", players)
        page.fill("#seed", str(seed))
        page.click("#deal button.go")
        page.wait_for_selector(CHOICE)
        seats = page.locator("#felt .seat")
        assert seats.count() == int(players), game
        assert page.locator("#felt .seat.bottom").inner_text().startswith("you")        # your hand at the bottom
        assert page.locator("#felt .seat.to-move").count() == 1
        # your hand is drawn, each piece with its name in words; the others' are backs with their counts
        mine = page.locator("#felt .seat.bottom svg.piece-svg")
        assert mine.count() == held and all(mine.nth(i).get_attribute("aria-label") for i in range(held))
        backs = page.locator("#felt .seat:not(.bottom) svg.back")
        assert backs.count() == int(players) - 1
        assert all(backs.nth(i).get_attribute("aria-label").split()[0].isdigit() for i in range(backs.count()))
        middle = page.locator("#felt .middle")
        assert middle.is_visible() and (middle.locator("svg").count() or middle.inner_text().strip())
        if game == "hit-the-deck":                        # the discard pile's top and the draw pile's count
            assert middle.locator("svg.piece-svg:not(.back)").count() == 1 and "draw pile" in middle.inner_text()
            assert "demand" in page.inner_text("#felt .table-lines")
        if game == "moon":                                # the first prompt is a bid: its buttons, below the table
            assert "pass" in [b.get_attribute("data-label") for b in page.locator("#choices button").all()]
        else:                                             # a play: the legal pieces are the hand's buttons
            assert page.locator("#felt .seat.bottom button.piece-choice svg.piece-svg").count() >= 1
        assert page.evaluate(NO_SIDEWAYS), (game, width, page.evaluate("document.documentElement.scrollWidth"))
        shot(page, tmp_path, f"table-{game}-{width}")
    context.close()


def test_a_moon_bid_then_the_trick_shows_in_the_middle(server, browser, tmp_path):  # noqa: F811
    """Passing at the auction leads to the first trick: the contract and trump read above the table,
    the trick's tiles sit in the middle with their seats, and the key 1 plays the first legal tile."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server}/moon/play")
    page.select_option("#players", "4")
    page.fill("#seed", "3")
    page.click("#deal button.go")
    page.wait_for_selector(CHOICE)
    page.locator("#choices button[data-label='pass']").click()
    page.wait_for_selector("#felt button.piece-choice")
    lines = page.inner_text("#felt .table-lines")
    assert "contract" in lines and "trump" in lines and "Auction:" in page.inner_text("#felt")
    played = page.locator("#felt .middle figure")
    assert played.count() >= 1 and played.first.locator("figcaption").inner_text().startswith("seat")
    before = page.locator("#felt .seat.bottom svg.piece-svg").count()
    page.keyboard.press("1")
    page.wait_for_function(f"() => !document.querySelector('#over').hidden || "
                           f"document.querySelectorAll('#felt .seat.bottom svg.piece-svg').length === {before - 1}")
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, tmp_path, "moon-trick-phone")
    context.close()


def test_a_replay_steps_forward_back_and_to_a_trick(server, browser, tmp_path):  # noqa: F811
    """One upload (the solver values every play: seconds), stepped at 1280 px, then read at 390 px."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    replay_a_moon_hand(page, server, tmp_path)
    record = json.loads((tmp_path / "moon.jsonl").read_text().splitlines()[0])
    held = lambda: [page.locator(f"#replay-felt .seat[data-seat='{s}'] svg.piece-svg").count()   # noqa: E731
                    for s in range(record["players"])]
    assert page.inner_text("#where").startswith("step 0") and held() == [7] * record["players"]   # the deal
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#where").startswith("step 3")
    page.click("#prev")
    assert page.inner_text("#where").startswith("step 2")
    assert record["bidder"] is not None, "the default seed's simulated hand is played, not thrown in"
    page.select_option("#chapter", label="trick 3")
    seat, tile = record["plays"][2 * record["players"]][:2]
    assert f"seat {seat} plays {tile}" in page.inner_text("#values")     # the trick's first play is next
    assert sorted(held()) == [5] * record["players"]                      # two tricks played
    assert "3 of 7" in page.inner_text("#replay-felt .table-lines")       # "trick 3" opens on its own number
    page.click("#next")
    middle = page.locator("#replay-felt .middle figure")
    assert middle.count() == 1 and middle.locator("svg").get_attribute("aria-label")
    assert page.eval_on_selector("#chapter", "s => s.selectedOptions[0].textContent") == "trick 3"   # follows the movie
    page.click("#prev")
    page.click("#prev")
    assert page.eval_on_selector("#chapter", "s => s.selectedOptions[0].textContent") == "trick 2"
    page.keyboard.press("End")
    n = len(record["bids"]) + (record.get("widow") is not None) + 1 + len(record["plays"])   # the widow, the trump
    assert page.inner_text("#where") == f"step {n} of {n}" and sum(held()) == 0
    from moonshot.web.games.moon import result_sentence
    assert page.inner_text("#values .hand-result") == f"Result: {result_sentence(record, None)}"   # the score
    shot(page, tmp_path, "replay-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("Home")
    assert held() == [7] * record["players"] and page.evaluate(NO_SIDEWAYS)
    shot(page, tmp_path, "replay-390")
    # the review's option table, phone first: the option, its verdict and "vs best" on screen, a row a line
    for box in page.locator("#review-seats input").all()[1:]:
        box.uncheck()
    page.select_option("#worlds", "8")
    page.click("#review button.go")
    page.wait_for_selector("#review-result #table-summary")
    for _ in range(len(record["bids"]) + 1):
        if page.locator("#values .review-step").count():
            break
        page.click("#next")
    got = page.evaluate(REVIEW_ROWS)
    assert got["head"][:3] == ["option", "verdict", "vs best [95%]"], got["head"]
    assert all(r <= got["view"] for r in got["right"]) and max(got["heights"]) < 2 * got["line"], got
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, tmp_path, "replay-review-390")
    context.close()


# The first reviewed decision's option table: its header, each row's height and its third cell's right edge
REVIEW_ROWS = """() => {
  const rows = [...document.querySelectorAll('#values .review-step table.hints tr')];
  return {head: [...rows[0].cells].map(c => c.textContent), view: window.innerWidth,
          line: parseFloat(getComputedStyle(rows[1].cells[0]).lineHeight),
          right: rows.slice(1).map(r => r.cells[2].getBoundingClientRect().right),
          heights: rows.slice(1).map(r => r.getBoundingClientRect().height)};
}"""


def test_a_second_hand_of_a_file_draws_its_table_when_picked(server, browser, tmp_path):  # noqa: F811
    from tests.test_web_table import play_first_choices
    path = tmp_path / "two.jsonl"
    hands = [play_first_choices("shoot-the-moon", "4", seed)[1] for seed in (5, 6)]
    hands[1]["hand_id"] = 1                                 # hand ids are unique within a file (HISTORY.md)
    path.write_text("".join(json.dumps(hand) + "\n" for hand in hands))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server}/replay")
    page.set_input_files("#file", str(path))
    page.click("#upload button.go")
    page.wait_for_selector("#replay-felt .seat")
    page.select_option("#hand-pick", "1")                  # its tables come from the server now
    page.wait_for_function("() => document.querySelectorAll('#replay-felt .seat svg.piece-svg').length === 20")
    page.keyboard.press("End")
    assert page.locator("#replay-felt .middle figure").count() == 4 and page.evaluate(NO_SIDEWAYS)
    context.close()


def test_a_refused_answer_shows_the_same_prompt_again_with_why(server, browser):  # noqa: F811
    """A full server answers 429 (issue 38's one budget): the page shows the prompt again with the
    reason, and the next press is answered; the hand is not lost."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/moon/play")
    page.fill("#seed", "3")
    page.click("#deal button.go")
    page.wait_for_selector(CHOICE)
    refused = []

    def busy(route):
        refused.append(route.request.url)
        route.fulfill(status=429, content_type="application/json", headers={"Retry-After": "2"},
                      body=json.dumps({"error": "the server is busy; try again in 2 s", "field": "form"}))
    page.route("**/answer", busy)
    page.locator(CHOICE).first.click()
    page.wait_for_function("() => document.querySelector('.error[data-for=\"answer\"]').textContent.includes('busy')")
    page.wait_for_selector(CHOICE)                      # the prompt is back, its choices pressable
    assert len(refused) == 1
    page.unroute("**/answer")
    page.locator(CHOICE).first.click()
    page.wait_for_function("() => document.querySelector('.error[data-for=\"answer\"]').textContent === ''")
    context.close()


def test_a_whatif_link_with_an_until_width_fills_it_and_the_run_says_how_it_stopped(server, browser):  # noqa: F811
    """Issue 40 item 2 on the What-if page: a link's until width and max time fill their fields and
    start nothing (the link note says what Run will do); pressed, the run stops on its budget and says
    so above its result (a width of 0.01 points cannot be reached in 300 hands)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{server}/moon/whatif?change=moon.widow%3Dnone&n=300&seed=4&until=0.01&max_time=60")
    page.wait_for_selector("#link-note")
    page.wait_for_timeout(400)                  # a script that submitted by itself would have posted by now
    assert not posts and page.input_value("#until") == "0.01" and page.input_value("#max_time") == "60"
    assert "until every seat's change is narrower than 0.01 or 60 s" in page.inner_text("#link-note")
    page.click("#whatif button.go")
    page.wait_for_selector("#until-stop")
    assert page.inner_text("#until-stop").startswith("Stopped by the budget after 300 hands")
    assert page.inner_text("#whatif .status").startswith("done: 300 of at most 300")
    assert page.evaluate(NO_SIDEWAYS)
    context.close()
