"""The Play page reads like the game (issue 39), in a real browser at phone (390 px) and desktop (1280 px)
width, every game: a whole hand played from the keyboard, where at each prompt no key badge covers a pip
or a word of any piece (the badge's box against every pip's and text's box), each key picks the choice its
label names (the request the page sends is that choice's), no engine code shows in the table's or the
end's visible text, and at the end the log lists every bid and play in the order made, the sentence
matches the history and the table stays on screen. Also: text on every piece at 4.5:1 (3:1 large) from
the rendered colours, names read in words with "playable" / "not playable now", one small live region,
the partnerships box, forced moves played for the person, and the explorer picker's count and copies.
Launched as tests/test_browser.py launches Chromium (its shared fixtures)."""
from __future__ import annotations

import re

import pytest

from tests.test_browser import CHOICE, browser, server, shot  # noqa: F401 (fixtures)
from tests.test_browser_table import NO_SIDEWAYS
from tests.test_web_words import CODES, _check_sentence, check_log

# game -> players and seed at each width (the same seeds as the session tests where they fit): Moon's
# person bids high (the widow at 3 players, trump named after its question at both)
HANDS = {("moon", 390): ("3", 1), ("moon", 1280): ("4", 1), ("shoot-the-moon", 390): ("4", 5),
         ("shoot-the-moon", 1280): ("2", 5), ("hit-the-deck", 390): ("3", 12), ("hit-the-deck", 1280): ("4", 13)}

# Each key badge's box against every pip's and text's box of every drawn piece on the table
BADGES = """() => {
  const marks = [...document.querySelectorAll('#felt svg.piece-svg')]
    .flatMap(s => [...s.querySelectorAll('circle, text')].map(e => e.getBoundingClientRect())).filter(r => r.width > 0);
  const keys = [...document.querySelectorAll('#felt .key')];
  const bad = [];
  for (const k of keys) {
    const b = k.getBoundingClientRect();
    for (const r of marks) if (b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom)
      bad.push([k.textContent, Math.round(r.x), Math.round(r.y)]);
  }
  return {keys: keys.length, marks: marks.length, bad};
}"""

# The text a person sees in a part of the page: no svg drawing's text, nothing hidden or folded away
SEEN = """sel => {
  const root = document.querySelector(sel), out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || e.closest('svg') || !e.checkVisibility()) continue;
    out.push(n.textContent.trim());
  }
  return out.join('\\n');
}"""

# Every text drawn on a piece (and every key badge) with its contrast from the computed colours: the text's
# fill against its card's face (a badge's colour against its background), the opacity of every ancestor
CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = c => {
    const [r, g, b] = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const seen = e => {
    let o = 1;
    for (let a = e; a instanceof Element; a = a.parentElement) o *= +getComputedStyle(a).opacity;
    return o;
  };
  const out = [];
  for (const t of document.querySelectorAll('svg.piece-svg text')) {
    const cs = getComputedStyle(t), px = parseFloat(cs.fontSize) * t.getScreenCTM().a, bold = +cs.fontWeight >= 700;
    const face = getComputedStyle(t.ownerSVGElement.querySelector('rect')).fill;
    const box = t.closest('.held, .piece-choice, .piece, figure, .seat') || t;
    out.push({text: t.textContent, ratio: ratio(cs.fill, face), need: px >= 24 || (bold && px >= 18.66) ? 3 : 4.5,
              opacity: seen(t), filter: getComputedStyle(box).filter});
  }
  for (const k of document.querySelectorAll('.key, .copies')) {
    const cs = getComputedStyle(k);
    out.push({text: k.textContent, ratio: ratio(cs.color, cs.backgroundColor), need: 4.5, opacity: seen(k),
              filter: 'none'});
  }
  return out;
}"""


def contrast_ok(page, what: str) -> int:
    shown = page.evaluate(CONTRAST)
    bad = [x for x in shown if x["ratio"] < x["need"] or x["opacity"] < 1 or x["filter"] not in ("none", "")]
    assert not bad, (what, bad[:5])
    return len(shown)


@pytest.fixture(params=(390, 1280), ids=lambda w: f"{w}px")
def width(request):
    return request.param


@pytest.fixture
def page(browser, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def pick(game: str, p: dict, turn: int) -> int:
    """The choice the test makes: Moon's highest bid up to 7, doubles or sixes for trump (a letter key, a
    confirmation), the lower end when calling; otherwise each prompt a different choice in turn."""
    labels = [c["label"] for c in p["choices"]]
    if p["phase"] == "bid":
        return max((int(x), i) for i, x in enumerate(labels) if x.isdigit() and int(x) <= 7)[1] if \
            any(x.isdigit() and int(x) <= 7 for x in labels) else 0
    if p["phase"] == "trump":
        return labels.index("doubles") if "doubles" in labels else labels.index("sixes") if "sixes" in labels else 0
    return turn % len(labels)


def answered(page, keys: str):
    """The keys typed (a multi-key choice one after another), the answer the page sent, the state back."""
    with page.expect_response(lambda r: "/answer" in r.url) as info:
        for k in keys:
            page.keyboard.press(k)
    return info.value.request.post_data_json["choice"], info.value.json()


def check_prompt(page, game: str, p: dict, first: bool) -> None:
    page.wait_for_selector(CHOICE)
    badges = page.evaluate(BADGES)
    assert not badges["bad"], (game, p["title"], badges["bad"][:4])          # never over a pip or a word
    pieces = page.locator("#felt button.piece-choice")
    assert badges["keys"] == min(pieces.count(), 9)
    assert page.evaluate(NO_SIDEWAYS), (game, p["title"], page.evaluate("document.documentElement.scrollWidth"))
    seen = page.evaluate(SEEN, "#table")
    found = re.search(CODES[game], seen)
    assert not found, (game, found.group(0), seen[:300])
    if first:
        # one small live region (the latest moves), not the whole table
        assert page.get_attribute("#table", "aria-live") is None
        assert page.eval_on_selector_all("#table [aria-live]", "es => es.map(e => e.id)") == ["latest"]
        fresh = page.inner_text("#latest")
        assert fresh == "; ".join(page.inner_text("#log").split("\n")) or not page.inner_text("#log").strip()
        # pieces named in words, as playable or not
        names = page.eval_on_selector_all("#felt button.piece-choice",
                                          "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert all(n.endswith(", playable") and not re.search(CODES[game], n) for n in names), names
        held = page.eval_on_selector_all("#felt .held svg", "ss => ss.map(s => s.getAttribute('aria-label'))")
        assert all(n.endswith(", not playable now") for n in held), held
        assert contrast_ok(page, f"{game} table") >= (5 if game != "moon" else 0)


@pytest.mark.parametrize("game", ["moon", "shoot-the-moon", "hit-the-deck"])
def test_a_whole_hand_by_keys_reads_like_the_game(server, page, width, game, tmp_path):  # noqa: F811
    players, seed = HANDS[(game, width)]
    page.goto(f"{server}/{game}/play")
    if game == "hit-the-deck":                   # two slaps of an earlier hand: this hand's fit a profile
        page.evaluate("sessionStorage.setItem('moonshot-slaps', JSON.stringify([310, 290]))")
    page.select_option("#players", players)
    page.fill("#seed", str(seed))
    with page.expect_response(lambda r: r.url.endswith("/play") and r.request.method == "POST") as info:
        page.click("#deal button.go")
    state, turn, kinds = info.value.json(), 0, set()
    while state["state"] == "your turn":
        p = state["prompt"]
        check_prompt(page, game, p, turn == 0)
        kinds.add(p["phase"])
        if p["phase"] == "slap":
            sent, state = answered(page, "s")
            assert isinstance(sent, (int, float))
        else:
            i = pick(game, p, turn)
            b = page.locator(f"#table button[data-i='{i}']")
            key, label = b.get_attribute("data-key"), b.get_attribute("data-label")
            assert label == p["choices"][i]["label"]
            if p["phase"] == "bid":                       # the key of a bid is its number
                assert key == ("p" if label == "pass" else label)
            if p["choices"][i].get("confirm"):            # trump: asked again, then Enter names it
                for k in key:
                    page.keyboard.press(k)
                assert p["choices"][i]["confirm"] in page.inner_text("#confirm")
                sent, state = answered(page, ["Enter"])
            else:
                sent, state = answered(page, key)
            assert sent == p["choices"][i]["value"], (p["title"], key, label)
        turn += 1
    assert state["state"] == "over", state
    page.wait_for_selector("#over:not([hidden])")
    record = page.request.get(f"{server}/api/play/{state['id']}/history").json()
    # the log: every bid and play in the order made, each trick's winner; the sentence: the record's numbers
    check_log(game, page.inner_text("#log").split("\n"), record)
    _check_sentence(game, page.inner_text("#score"), record)
    # the table stays as the hand ended, with its last pieces in the middle; no code anywhere a person reads
    assert page.locator("#felt").is_visible() and page.locator("#felt .middle svg.piece-svg").count() >= 1
    for part in ("#table", "#over"):
        found = re.search(CODES[game], page.evaluate(SEEN, part))
        assert not found, (part, found.group(0))
    if game == "moon":
        assert {"bid", "trump", "play"} <= kinds
        if players == "4":
            assert "seat 2 (partner)" in page.inner_text("#felt")
    if game == "hit-the-deck":                    # the slaps of this hand and the two before: the fitted profile
        page.wait_for_selector("#profile-spec")
        assert "slap" in kinds and "--profile 0=adult:mu=" in page.inner_text("#profile-spec")
    shot(page, tmp_path, f"words-{game}-{width}")


@pytest.mark.parametrize("game", ["shoot-the-moon", "hit-the-deck"])
def test_text_on_every_piece_reads_at_4_5_to_1(server, page, game):  # noqa: F811
    """The explorer's picker draws every card of the game (the Moons, the Hit the Deck cards naming a colour)."""
    page.goto(f"{server}/{game}/explore")
    page.wait_for_selector(".picker button.piece.drawn svg")
    assert contrast_ok(page, f"{game} picker") >= 2 * len(page.locator(".picker button.piece").all())


def test_a_trump_is_asked_again_and_can_be_chosen_again(server, page):  # noqa: F811
    page.goto(f"{server}/moon/play")
    page.fill("#seed", "1")
    page.click("#deal button.go")
    page.wait_for_selector(CHOICE)
    page.keyboard.press("7")                                     # the bid that wins this auction
    page.wait_for_function("() => document.querySelector('#prompt-title').textContent.startsWith('Discard')")
    page.keyboard.press("1")
    page.wait_for_function("() => document.querySelector('#prompt-title').textContent === 'Name trump'")
    page.keyboard.press("3")
    assert page.get_attribute("#table button[data-label='threes']", "aria-pressed") == "true"
    assert "Name threes as trump?" in page.inner_text("#confirm")
    page.keyboard.press("Escape")                                 # let it go: nothing was sent
    assert page.locator("#confirm").is_hidden() and page.inner_text("#prompt-title") == "Name trump"
    page.keyboard.press("n")
    assert "Name no trump as trump?" in page.inner_text("#confirm")
    with page.expect_request(lambda r: "/answer" in r.url) as info:
        page.click("#confirm-yes")
    assert info.value.post_data_json["choice"] == 8                # no trump (tiles.TRUMP_NAMES)


def test_the_partnerships_box_says_what_the_table_plays(server, page):  # noqa: F811
    page.goto(f"{server}/moon/play")
    page.select_option("#players", "4")
    assert page.is_checked("#partners") and page.is_disabled("#partners")
    assert "always play in partnerships" in page.inner_text("#partners-note")
    page.select_option("#players", "3")
    assert not page.is_checked("#partners") and page.is_disabled("#partners")
    page.goto(f"{server}/shoot-the-moon/play")
    page.select_option("#players", "4")
    assert page.is_enabled("#partners") and not page.is_checked("#partners")
    page.check("#partners")
    page.select_option("#players", "3")
    assert page.is_disabled("#partners") and not page.is_checked("#partners")
    page.select_option("#players", "4")                           # the person's choice comes back
    assert page.is_checked("#partners") and page.is_enabled("#partners")


def test_forced_moves_are_played_for_the_person_when_asked(server, page):  # noqa: F811
    """Shoot the Moon's last card (and any lone card that follows suit) goes without a key press."""
    page.goto(f"{server}/shoot-the-moon/play")
    page.check("#auto-forced")
    page.select_option("#players", "4")
    page.fill("#seed", "5")
    page.click("#deal button.go")
    presses = answers = 0
    while True:
        page.wait_for_selector(f"#over:not([hidden]), {CHOICE}")
        if page.locator("#over").is_visible():
            break
        with page.expect_response(lambda r: "/answer" in r.url):
            if page.locator("#felt button.piece-choice").count() > 1:
                page.keyboard.press("1")
                presses += 1
        answers += 1
    assert answers == 5 and presses < answers                     # one card a trick, the forced ones not pressed


def test_the_picker_counts_copies_and_says_an_extra_tap(server, page):  # noqa: F811
    page.goto(f"{server}/shoot-the-moon/explore")
    page.wait_for_selector(".picker button.piece.drawn svg")
    page.click("button.clear-hand")
    assert page.inner_text(".picker-note").startswith("0 of 5 cards picked")
    for name in ("R12", "R12", "B7", "G3", "P5"):
        page.click(f".picker button[data-piece='{name}']")
    assert page.inner_text(".picker button[data-piece='R12'] .copies") == "\u00d72"
    assert page.get_attribute(".picker button[data-piece='R12']", "aria-label") == "red 12, 2 in the hand"
    assert page.inner_text(".picker-note").startswith("5 of 5 cards picked")
    page.click(".picker button[data-piece='B10']")                 # a sixth card: said, not silently dropped
    assert "already holds 5 cards" in page.inner_text(".picker-note")
    assert page.input_value("#hand") == "R12 R12 B7 G3 P5"
