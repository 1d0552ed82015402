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


# ---------------------------------------------------------------------------- the Play page in words (issue 39)
# What must never reach a person's eyes on the Play page: the history's notation and engine words, per game.
CODES = {
    "moon": r"\bnotrump\b|\bside \d\b|\btrump: [0-8]\b|\bseat 0\b|Score this hand|\[\d",
    "shoot-the-moon": r"\b[RGPB]\d{1,2}\b|\bBM\b|\bLM\b|\bside \d\b|\bseat 0\b|\[\d",
    "hit-the-deck": r"\b[RGBY][1-5]\b|\b[RGBY](?:CUT|FLIP)\b|\bHN\d\b|\bHC[RGBY]\b|\bHH\b|\bdemand none\b|\bdir [+-]1"
                    r"|\d: \d+ ms|false_slap|\bcolour [RGBY]\b|\bside \d\b|\bseat 0\b|\[\d|\{",
}
# hands played through the session (seat 0): game, players, partners, seed, how the person picks (Moon's
# 4-player seed 5 is thrown in: everyone passes)
HANDS = [("moon", 3, False, 1, "bid_high"), ("moon", 3, False, 5, "first"), ("moon", 4, False, 17, "first"),
         ("moon", 4, False, 1, "bid_high"), ("moon", 4, False, 5, "first"), ("shoot-the-moon", 4, False, 5, "first"),
         ("shoot-the-moon", 4, True, 7, "first"), ("shoot-the-moon", 2, False, 5, "first"),
         ("hit-the-deck", 3, False, 7, "first"), ("hit-the-deck", 4, False, 12, "first")]


def played(game: str, players: int, partners: bool, seed: int, how: str):
    """A hand played through the session by the person at seat 0: its states in order (each prompt's and
    the end's) and its record. "bid_high" bids the highest bid up to 7, else the first choice."""
    from moonshot.web import forms
    from moonshot.web.play import adapter
    from moonshot.web.play.session import Table
    setup = forms.setup({"players": str(players), "partners": partners}, game, partners_ok=True)
    session = Table().start(game, 0, adapter(game)(setup, 0, seed))
    states = [session.state()]
    while states[-1]["state"] == "your turn":
        p = states[-1]["prompt"]
        values = [c["value"] for c in p["choices"]]
        choice = 300 if values == ["timed"] else values[0]
        if how == "bid_high" and p["phase"] == "bid":
            choice = max(v for v in values if v <= 7)
        states.append(session.answer(p["turn"], choice))
    assert states[-1]["state"] == "over", states[-1]
    return states, session.record


def shown_text(t: dict | None) -> list[str]:
    """Every string a person reads on a table: lines, seats' names and tallies, the middle's words,
    the auction, the last trick's words."""
    if not t:
        return []
    return ([x for line in t["lines"] for x in line] + [s["name"] for s in t["seats"]]
            + [s["tally"] for s in t["seats"]]
            + [t["middle"]["words"]] + t["auction"] + ([t["last"]["words"]] if t.get("last") else []))


def read_texts(state: dict) -> list[str]:
    """What the Play page shows as text for a state: the log, and the prompt's title, facts, choices
    and table, or the end's result sentence and table (the history's notation is folded away)."""
    out = list(state["log"])
    if state["state"] == "your turn":
        p = state["prompt"]
        out += [p["title"]] + [x for f in p["facts"] for x in f] + [str(c["label"]) for c in p["choices"]]
        out += shown_text(p["table"])
    else:
        out += [state["summary"]["result"]] + shown_text(state["summary"].get("table"))
    return out


@pytest.fixture(scope="module")
def hands():
    return {h: played(*h) for h in HANDS}


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h[0]}-{h[1]}{'p' if h[2] else ''}-{h[3]}-{h[4]}")
def test_no_engine_code_reaches_the_play_page(hands, hand):
    states, _ = hands[hand]
    for state in states:
        for text in read_texts(state):
            found = re.search(CODES[hand[0]], text)
            assert not found, (text, found.group(0))


def _seat_of(who: str, you: int = 0) -> int:
    """"you", "seat 2 (partner)", "the dummy" (Shoot the Moon's extra hand: the last one) -> a seat."""
    if who == "you":
        return you
    m = re.fullmatch(r"seat (\d)(?: \(partner\))?", who)
    assert m, who
    return int(m.group(1))


WHO = r"you|seat \d(?: \(partner\))?|the dummy"


def check_log(game: str, log: list[str], record: dict) -> None:
    """The log against the record: every bid and play in the order made, by the seat that made it, each
    trick's winner (Moon, Shoot the Moon); every play and slap in order (Hit the Deck)."""
    H = len(record["hands"])
    seat = lambda who: H - 1 if who == "the dummy" else _seat_of(who)    # noqa: E731
    from moonshot.simulator.games import get
    page = get(game).page
    if game == "hit-the-deck":
        events = [e for e in record["events"] if e[0] in ("play", "slap")]
        told = [line for line in log if re.fullmatch(rf"({WHO}) (?:plays|play) .+|.* shouts? .*", line)]
        assert len(told) == len(events)
        for line, e in zip(told, events):
            who = "you" if e[1] == 0 else f"seat {e[1]}"
            if e[0] == "play":
                assert line == f"{who} {'play' if who == 'you' else 'plays'} {page.said(e[2])}"
            elif e[2] and e[4] is not None:                              # the slowest hand draws 4, said
                loser = "you" if e[4] == 0 else f"seat {e[4]}"
                assert f"{loser} slapped last and draw" in line
                assert e[3][0] is None or f"your slap: {e[3][0]:.0f} ms" in line
        return
    name_of = {page.face(n)["label"]: n for n in page.pieces()}
    plays, bids, winners = [], [], []
    for line in log:
        if m := re.fullmatch(rf"(?:trick \d: )?({WHO}) (?:leads|lead|plays|play) (.+?)(?:, calling \w+)?", line):
            plays.append([seat(m.group(1)), m.group(2) if game == "moon" else name_of[m.group(2)]])
        elif m := re.fullmatch(rf"({WHO}) (?:bids|bid) (\d+)", line):
            bids.append([seat(m.group(1)), int(m.group(2))])
        elif m := re.fullmatch(rf"({WHO}) (?:passes|pass)", line):
            bids.append([seat(m.group(1)), "pass"])
        elif m := re.fullmatch(rf"({WHO}) (?:wins|win) trick (\d)", line):
            winners.append(seat(m.group(1)))
            assert int(m.group(2)) == len(winners), line
    assert plays == [list(p[:2]) for p in record["plays"]]             # every play, in the order made
    assert winners == record["trick_winners"]
    if game == "moon":
        assert bids == [list(b) for b in record["bids"]]               # every call, those after yours too


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h[0]}-{h[1]}{'p' if h[2] else ''}-{h[3]}-{h[4]}")
def test_the_log_tells_every_bid_and_play_in_the_order_made_and_each_tricks_winner(hands, hand):
    states, record = hands[hand]
    check_log(hand[0], states[-1]["log"], record)


def _check_sentence(game: str, said: str, record: dict) -> None:
    """The end-of-hand sentence against the record's numbers: each side's tricks and points (chips and
    chips after the round, penalty points), the bid and its bidder, who went out."""
    if game == "hit-the-deck":
        out = record["went_out"]
        assert said.startswith("Nobody went out" if out is None else "You went out" if out == 0
                               else f"Seat {out} went out")
        listed = re.findall(rf"({WHO}): (\d+)", said.split("penalty points: ")[1])
        assert {_seat_of(w): int(n) for w, n in listed} == dict(enumerate(record["score"]))
        return
    if game == "moon" and record["bidder"] is None:
        assert said == "Everyone passed: the hand was thrown in and nobody scores."
        return
    sides = record["sides"]

    def side(who: str) -> int:
        if who in ("your side", "the other side"):
            return sides[0] if who == "your side" else 1 - sides[0]
        if who.startswith("seats "):
            return sides[int(who.split()[1])]
        return sides[_seat_of(who)]
    unit = "point" if game == "moon" else "chip"
    clause = re.compile(rf"(?P<who>.+?)(?: bid (?P<bid>\d+) and(?: (?P<side>your side|the other side))?)? took "
                        rf"(?P<tricks>\d) tricks?: (?P<n>[+-]\d+|0) {unit}s?(?: \((?P<now>\d+) chips? now\))?"
                        rf"(?: \((?P<made>made|set)\))?")
    got = {}
    assert said.endswith(".")
    for part in said[:-1].split("; "):
        m = clause.fullmatch(part)
        assert m, part
        who = m["who"][0].lower() + m["who"][1:]
        k = side(m["side"] or who)
        if m["bid"]:                                  # the bidder's clause, first, says whether the bid was made
            assert _seat_of(who) == record["bidder"] and int(m["bid"]) == record["bid"] and not got
            assert m["made"] == ("made" if int(m["n"]) > 0 else "set")
        got[k] = (int(m["tricks"]), int(m["n"])) + ((int(m["now"]),) if m["now"] else ())
    if game == "moon":
        want = {k: (record["tricks"][k], record["score"][k]) for k in range(len(record["tricks"]))}
    else:
        want = {k: (record["tricks"][k], record["chips_after"][k] - record["chips_before"][k], record["chips_after"][k])
                for k in range(len(record["tricks"]))}
    assert got == want, said


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h[0]}-{h[1]}{'p' if h[2] else ''}-{h[3]}-{h[4]}")
def test_the_end_of_hand_sentence_matches_the_history(hands, hand):
    states, record = hands[hand]
    end = states[-1]
    _check_sentence(hand[0], end["summary"]["result"], record)
    assert end["log"][-1] == end["summary"]["result"]                    # the log ends with it too
    t = end["summary"]["table"]                                          # the table kept on screen
    assert t and all(p["piece"] in end["summary"]["faces"] for p in t["middle"]["pieces"])


def test_choice_keys_are_what_their_labels_say(hands):
    """A bid's key is its number (P for pass), a trump's the number it names (D doubles, N no trump), Hit
    the Deck's D draws and K keeps; no two choices of a prompt share a key."""
    from moonshot.web.games.moon import TRUMP_WORDS
    seen = set()
    for states, _ in hands.values():
        for state in states[:-1]:
            p = state["prompt"]
            keys = [c["key"] for c in p["choices"] if "key" in c]
            assert len(keys) == len(set(keys))
            for c in p["choices"]:
                if p["phase"] == "bid":
                    assert c["key"] == ("p" if c["label"] == "pass" else c["label"])
                elif p["phase"] == "trump":
                    assert TRUMP_WORDS.index(c["label"]) == "0123456dn".index(c["key"]) and c["confirm"]
                elif p["phase"] == "call":
                    assert c["label"] == f"call {TRUMP_WORDS[int(c['key'])]}"
                elif "key" in c:
                    assert (c["key"], c["label"].split()[0]) in (("d", "draw"), ("k", "keep"))
                elif p["phase"] == "slap":
                    assert c["value"] == "timed"                   # the S key and space slap (the page's own keys)
                else:
                    assert c["piece"] in p["hand"]                 # a piece: keyed 1-9 by its place in the hand
                seen.add(p["phase"])
    assert {"bid", "trump", "play"} <= seen


def test_hit_the_decks_slap_outcome_is_on_the_table(hands):
    """After a slap, each prompt's table says how it went (the log's line), not only the log."""
    checked = 0
    for hand in [h for h in HANDS if h[0] == "hit-the-deck"]:
        states, _ = hands[hand]
        for state in states[:-1]:
            said = [line for line in state["log"] if " shouts " in line or " forgets " in line or "slaps when" in line]
            lines = dict(state["prompt"]["table"]["lines"])
            assert lines.get("last slap") == (said[-1] if said else None)
            checked += bool(said)
    assert checked >= 2
