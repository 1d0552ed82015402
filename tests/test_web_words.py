"""Rules flags in words on the pages (issue 28 item 4), without a browser: every flag of every
game is shown by its description, its RULES.md id and its name as visible text (not a title
tooltip: phones cannot hover), every value a select offers reads in words, and a rule only whole
games can show is declared so, marked on the what-if page (static/rules.js switches the count) and
said by the what-if's finding when hands were counted."""
from __future__ import annotations

import re
import warnings
from html import unescape
from html.parser import HTMLParser

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.analysis.common import make_setup, whatif  # noqa: E402
from moonshot.simulator.games import GAMES  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits, _choices  # noqa: E402
from moonshot.web.render import result_html  # noqa: E402

PAGES = ("explore", "play", "whatif")
# the rules that change only how a game ends or goes on: what each changes in the engines (the
# target, a tie at the top, who deals next, a game won or lost at once) never shows in one hand
WHOLE_GAMES = {"stm.target_chips", "moon.moon_bid_scoring", "moon.end_tie", "moon.set_twice_loses_4p",
               "htd.target_score", "htd.winner_tie", "htd.dealer_rotation"}


class Visible(HTMLParser):
    """The page's visible text (what a phone shows: no attributes, no title, no script) and each
    select's options by the flag they belong to."""

    def __init__(self):
        super().__init__()
        self.text, self.options, self.flag, self.value, self.skip = [], {}, None, None, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("title", "script", "style"):
            self.skip += 1
        if tag in ("select", "input") and attrs.get("data-flag"):
            self.flag, self.value = (attrs["data-flag"] if tag == "select" else None), None
            self.options.setdefault(attrs["data-flag"], {})
            if tag == "input":
                self.options[attrs["data-flag"]] = {"input": attrs}
        if tag == "option" and self.flag:
            self.options[self.flag][attrs["value"]] = ""
            self.value = attrs["value"]

    def handle_endtag(self, tag):
        if tag in ("title", "script", "style"):
            self.skip -= 1
        if tag == "select":
            self.flag = None

    def handle_data(self, data):
        if self.skip:
            return
        self.text.append(data)
        if self.flag and self.value is not None:
            self.options[self.flag][self.value] += data

    def words(self) -> str:
        return " ".join(" ".join(self.text).split())


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(Limits(max_samples=2_000, default_samples=300), tmp_path_factory.mktemp("r"),
                                 hosts=("testserver",)))      # TestClient's Host (web/guard.py)


def read(client, url: str) -> Visible:
    page = client.get(url)
    assert page.status_code == 200, url
    parsed = Visible()
    parsed.feed(page.text)
    return parsed


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("what", PAGES)
def test_every_flag_reads_in_words_on_every_page(client, game, what):
    page = read(client, f"/{game}/{what}")
    text = page.words()
    for f in GAMES[game].flags:
        for shown in (f.help, f.rules_id, f.name):                 # visible text, not a tooltip
            assert " ".join(shown.split()) in text, (what, f.name, shown)
        offered = page.options[f.name]
        if "input" in offered:                                     # free text: what it accepts, in words
            assert f"accepted: {' '.join(f.accepted.split())}" in text, f.name
            continue
        assert list(offered) == _choices(f), f.name                # each value as the CLI writes it...
        for value, label in offered.items():
            words = f.words(value)
            assert words and " ".join(label.split()) == f"{words} ({value})", (f.name, value, label)  # ...in words


@pytest.mark.parametrize("game", list(GAMES))
def test_every_value_a_page_offers_has_words_and_the_declared_words_are_values(game):
    for f in GAMES[game].flags:
        for value in _choices(f):
            assert f.words(value), (f.name, value)
        for value, words in f.value_words:
            f.parse(value)                                         # a real value of the flag
            assert words and words != value


def test_the_whole_games_rules_are_declared_and_marked_on_the_what_if_page(client):
    declared = {f.name for g in GAMES.values() for f in g.flags if f.whole_games}
    assert declared == WHOLE_GAMES
    for game in GAMES:
        html = client.get(f"/{game}/whatif").text
        marked = set(re.findall(r'data-flag="([^"]+)"[^>]*\n?[^>]*data-whole-games="yes"', html))
        assert marked == {f.name for f in GAMES[game].flags if f.whole_games}
        for name in marked:                                        # said beside the flag, in words
            note = re.search(rf'id="change-{re.escape(name.replace(".", "-"))}-games">(.*?)</small>', html, re.S)
            said = " ".join(note.group(1).split()) if note else ""
            assert "Only whole games show this rule" in said and "switches the count to whole games" in said
        assert 'id="unit-note"' in html and "/static/rules.js" in html


@pytest.mark.parametrize("flag, value, players", [("htd.target_score", "50", 4), ("stm.target_chips", "5", 4),
                                                  ("moon.end_tie", "bidder_goes_out", 3)])
def test_counting_hands_the_what_if_says_only_whole_games_show_such_a_rule(flag, value, players):
    game = next(g for g in GAMES.values() if any(f.name == flag for f in g.flags)).name
    res = whatif(make_setup(game, players, False), [f"{flag}={value}"], 300, None, 5)
    said = unescape(res.findings[0])
    assert said.startswith(f"{flag}={value} changed nothing measured here on any of these 300 hands")
    assert f"{flag} changes only how a game ends or goes on, which only whole games can show" in said
    f = next(f for g in GAMES.values() for f in g.flags if f.name == flag)      # the change in words above it
    shown = unescape(result_html(res))
    assert f"Changed in the what-if: {f.help}: {f.words(value) or value} ({flag}={value}, {f.rules_id})." in shown


def test_a_rule_hands_do_show_keeps_the_strategies_sentence():
    res = whatif(make_setup("shoot-the-moon", 4, False), ["stm.revoke_keep_hand_chips=true"], 300, None, 5)
    assert "changed nothing measured" in res.findings[0] and "only whole games" not in res.findings[0]
    assert "Other strategies (-s) may show what it does" in res.findings[0]


def test_the_rules_table_gives_the_same_words(capsys):
    """`moonshot rules GAME` (the rules table the pages read) lists each value in the same words."""
    import json

    from tests.test_cli import run
    for game, entry in GAMES.items():
        code, out, _ = run(["rules", game, "-f", "json"], capsys)
        rows = {r["flag"]: r for r in json.loads(out)}
        assert code == 0 and {f.name: (dict(f.value_words), f.whole_games) for f in entry.flags} == \
            {name: (r["values"], r["whole_games"]) for name, r in rows.items()}
        code, out, _ = run(["rules", game], capsys)
        assert all(f"      {v}: {w}" in out for f in entry.flags for v, w in f.value_words)
