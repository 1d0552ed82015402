"""The drawn pieces' data (issue 28 item 1): each game's page `face(name)` (what static/pieces.js
draws and the accessible name it reads) and GET /api/<game>/pieces, the pieces in play at a table
and rules that the explorer's picker offers. Moon's sets are written out here from RULES.md
(MOON-1.2, MOON-1.3, A-MOON-2), not taken from the code under test."""
from __future__ import annotations

import re
import warnings

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator import games as registry  # noqa: E402
from moonshot.simulator.errors import BadInput  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import info  # noqa: E402
from tests.toy_game import GAME as TOY  # noqa: E402

GAMES = tuple(registry.GAMES)
# MOON-1.3: the double-six set; MOON-1.2: 3 players keep 0-0 and drop the other blanks; A-MOON-2: no blank at all
FULL28 = {f"{h}-{lo}" for h in range(7) for lo in range(h + 1)}
KEEP00_22 = {t for t in FULL28 if "0" not in t} | {"0-0"}
NO_BLANKS21 = KEEP00_22 - {"0-0"}
TWENTY_ONE = {("moon.tile_set", "no_blanks21"), ("moon.widow", "none")}      # the 3-player values that drop 0-0
HEX = re.compile(r"#[0-9a-f]{6}")


@pytest.fixture(scope="module")
def client():
    registry.register(TOY)
    yield TestClient(create_app(hosts=("testserver",)))
    registry.GAMES.pop(TOY.name, None)


def offered(client, game: str, players=None, *rules: str) -> list[str]:
    r = client.get(f"/api/{game}/pieces", params={"players": players, "rules": list(rules)})
    assert r.status_code == 200, r.text
    body = r.json()
    assert list(body["faces"]) == body["pieces"]          # a face for every piece offered, in its order
    return body["pieces"]


def refused(client, game: str, params: dict, field: str) -> str:
    r = client.get(f"/api/{game}/pieces", params=params)
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    error = r.json()["error"]
    named = [str(v).split("=")[0] for v in (params[field] if isinstance(params[field], list) else [params[field]])]
    assert "\n" not in error and any(n in error for n in named)      # one line naming the value refused
    assert "accepted" in error or "applies to" in error              # and what the table does take
    return error


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_has_a_face_with_its_name_in_words(game):
    page = registry.GAMES[game].page
    labels = set()
    for name in page.pieces():
        face = page.face(name)
        assert face["name"] == name and face["kind"] in ("card", "tile") and face["label"].strip()
        labels.add(face["label"])
        if face["kind"] == "card":
            assert HEX.fullmatch(face["colour"]) and face["rank"] and isinstance(face["suit"], str)
        else:
            assert [str(e) for e in face["ends"]] == name.split("-") and all(0 <= e <= 6 for e in face["ends"])
    assert len(labels) == len(page.pieces())               # a screen reader tells every piece apart
    with pytest.raises(BadInput):
        page.face("ZZ9")


@pytest.mark.parametrize("game, name, label", [
    ("moon", "6-5", "six-five"), ("moon", "4-6", "six-four"), ("moon", "0-0", "double blank"),
    ("moon", "5-5", "double five"), ("shoot-the-moon", "R12", "red 12"), ("shoot-the-moon", "BM", "Big Moon"),
    ("shoot-the-moon", "lm", "Little Moon"), ("shoot-the-moon", "B7", "blue 7"),
    ("hit-the-deck", "BCUT", "blue Cut the Deck"), ("hit-the-deck", "Y4", "yellow 4"),
    ("hit-the-deck", "HH", "Hit the Deck with a Hand")])
def test_faces_read_as_a_player_says_them(game, name, label):
    assert registry.GAMES[game].page.face(name)["label"] == label


@pytest.mark.parametrize("game", GAMES)
def test_the_route_offers_the_default_tables_pieces(client, game):
    page, entry = registry.GAMES[game].page, registry.GAMES[game]
    shown = offered(client, game)
    assert set(entry.page.EXAMPLE.split()) <= set(shown) <= set(page.pieces())
    assert shown == offered(client, game, entry.default_players)


def moon_values() -> list[tuple[str, str]]:
    """Every moon.* flag with each value a page can choose (the selects' values)."""
    return [(f["name"], v) for f in info(registry.GAMES["moon"])["flags"] for v in f["choices"]] + [
        ("moon.tile_set", "keep00_22"), ("moon.tile_set", "no_blanks21")]


@pytest.mark.parametrize("flag, value", moon_values())
def test_moon_at_3_players_offers_exactly_its_tile_set_under_every_flag(client, flag, value):
    """The issue's case: at 3 players the picker offered all 28 tiles and said only after Run that
    3-0 is not in the 22-tile set. Every moon.* value: the 22-tile set exactly, the 21-tile set
    where the value removes 0-0 too, and the one-line 400 for a value 3 players cannot take."""
    from moonshot.analysis.common import make_setup
    try:
        make_setup("moon", 3, False, [f"{flag}={value}"])
    except BadInput:
        refused(client, "moon", {"players": 3, "rules": f"{flag}={value}"}, "rules")
        return
    want = NO_BLANKS21 if (flag, value) in TWENTY_ONE else KEEP00_22
    shown = offered(client, "moon", 3, f"{flag}={value}")
    assert len(shown) == len(set(shown)) and set(shown) == want
    assert "3-0" not in shown


def test_moon_sets_by_players_and_the_combinations(client):
    assert set(offered(client, "moon", 4)) == FULL28
    assert set(offered(client, "moon", 4, "moon.tile_set=full28")) == FULL28
    assert set(offered(client, "moon", 3, "moon.widow=none", "moon.tile_set=no_blanks21")) == NO_BLANKS21
    refused(client, "moon", {"players": 3, "rules": ["moon.widow=none", "moon.tile_set=keep00_22"]}, "rules")
    refused(client, "moon", {"players": 4, "rules": "moon.tile_set=keep00_22"}, "rules")


def test_the_explorer_page_draws_the_default_tables_set(client):
    html = client.get("/moon/explore").text
    assert 'data-piece="0-0"' in html and 'data-piece="3-0"' not in html and "22 tiles in play" in html
    assert '"label": "double six"' in html.replace("&#34;", '"') or "double six" in html


def test_hit_the_deck_offers_only_the_number_values_in_its_deck(client):
    assert len(offered(client, "hit-the-deck", 4)) == 38
    shown = offered(client, "hit-the-deck", 2, "htd.htd_number_values=1,1,1,1,1,2,2,2,2,2")
    assert {"HN1", "HN2"} <= set(shown) and not {"HN3", "HN4", "HN5"} & set(shown) and len(shown) == 35


@pytest.mark.parametrize("players", [2, 6])
def test_shoot_the_moon_offers_the_whole_deck_at_any_table(client, players):
    shown = offered(client, "shoot-the-moon", players)
    assert len(shown) == 50 and {"BM", "LM", "R12", "B1"} <= set(shown)


@pytest.mark.parametrize("game, params, field", [
    ("moon", {"players": 5}, "players"), ("moon", {"players": "three"}, "players"),
    ("shoot-the-moon", {"players": 9}, "players"), ("hit-the-deck", {"rules": "htd.htd_number_values=9"}, "rules"),
    ("moon", {"rules": "moon.no_such_flag=1"}, "rules"), ("moon", {"players": 3, "rules": "moon.bidder_score_4p=bid"},
                                                          "rules")])
def test_bad_players_or_flags_are_the_one_line_400(client, game, params, field):
    refused(client, game, params, field)


def test_an_unknown_game_is_refused_and_a_game_without_faces_gets_plain_cards(client):
    assert client.get("/api/chess/pieces").status_code in (400, 404)
    faces = client.get(f"/api/{TOY.name}/pieces").json()["faces"]
    assert faces["7"]["label"] == "7" and faces["7"]["kind"] == "card"
