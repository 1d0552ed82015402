"""moonshot serve's routes through FastAPI's test client: every page renders, bad input comes
back as the CLI's one line beside its field with HTTP 4xx, and a page's run gives the numbers the
CLI gives for the same seed."""
from __future__ import annotations

import json
import re
from html import escape
import subprocess
import sys
import time
import warnings

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator import games as registry  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from tests.toy_game import GAME as TOY  # noqa: E402

# every registered game, and the toy fourth game of tests/ (registered for this module): the pages
# come from the registry, so a game no shared file names gets them too
GAMES = tuple(dict.fromkeys([*registry.GAMES, TOY.name]))
HANDS = {"shoot-the-moon": "R12 R7 BM G3 P5", "moon": "6-6 6-5 6-4 6-2 5-5 3-3 1-1",
         "hit-the-deck": "R3 R5 G2 BCUT YFLIP HN3 HH"}      # the README's (the explorer's numbers vs the CLI's)


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    registry.register(TOY)
    yield
    registry.GAMES.pop(TOY.name, None)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return TestClient(create_app(Limits(max_samples=5_000, default_samples=500), reports_dir=out,
                                hosts=("testserver",)))      # TestClient's Host (web/guard.py)


def wait(client, job_id: str, timeout: float = 300) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.get(f"/api/jobs/{job_id}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError(f"run {job_id} still running after {timeout} s")


def run(client, url: str, form: dict) -> dict:
    r = client.post(url, json=form)
    assert r.status_code == 202, r.text
    status = wait(client, r.json()["id"])
    assert status["state"] == "done", status
    return status


@pytest.mark.parametrize("url", ["/", "/replay", "/reports"] +
                         [f"/{g}/{p}" for g in GAMES for p in ("explore", "play", "whatif")])
def test_every_page_renders(client, url):
    r = client.get(url)
    assert r.status_code == 200 and "<main" in r.text


@pytest.mark.parametrize("game", GAMES)
def test_every_games_page_parts_come_with_the_game(client, game):
    """What the pages take from a game's page module (its registry entry's `page_module`, in the web
    layer: web/games/<game>.py): web/ has no table of games to fall back on."""
    from moonshot.web.play.common import Hand
    page = registry.GAMES[game].page
    assert page.__name__ == registry.GAMES[game].page_module
    package = registry.GAMES[game].package
    if package.startswith("moonshot.simulator."):                      # a built-in game (not the tests' toy)
        assert page.__name__ == "moonshot.web.games." + package.rsplit(".", 1)[-1]
    example = page.EXAMPLE.split()
    assert len(example) == page.HAND_SIZE and set(example) <= set(page.pieces())
    assert issubclass(page.ADAPTER, Hand) and callable(page.steps) and isinstance(page.REPEATS, bool)


def test_web_names_no_game():
    """No code under web/ but the games' own page parts (web/games/) names a game (its name, title
    or package) outside docstrings and comments: the pages take every game from the registry."""
    import ast
    import re
    from pathlib import Path

    import moonshot.web
    words = ({w for g in registry.GAMES.values() for w in (g.name, g.title, g.package.rsplit(".", 1)[-1])}
             | {"htd", "stm"})
    spelled = {"[ _-]".join(re.escape(part) for part in re.split(r"[ _-]", w.lower())) for w in words}
    named = re.compile(r"\b(" + "|".join(sorted(spelled)) + r")\b", re.I)      # "hit the deck", hit_the_deck, ...
    found = []
    root = Path(moonshot.web.__file__).parent
    for path in root.rglob("*"):
        if (root / "games") in path.parents:
            continue
        if path.suffix in (".html", ".js", ".css"):
            found += [(path.name, m) for m in named.findall(path.read_text())]
        elif path.suffix == ".py":
            tree = ast.parse(path.read_text())
            docs = {id(n.body[0].value) for n in ast.walk(tree)
                    if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                    and n.body and isinstance(n.body[0], ast.Expr)}
            for node in ast.walk(tree):
                text = (node.value if isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and id(node) not in docs else node.id if isinstance(node, ast.Name)
                        else node.attr if isinstance(node, ast.Attribute) else "")
                found += [(path.name, m) for m in named.findall(text)]
    assert not found


def test_unknown_game_and_page_are_4xx_with_one_line(client):
    r = client.get("/chess/explore")
    assert r.status_code == 400 and r.json()["field"] == "game"
    assert r.json()["error"].startswith("unknown game 'chess'; accepted: ") and "moon" in r.json()["error"]
    assert client.get("/moon/nothing").status_code == 404


@pytest.mark.parametrize("form, field, words", [
    ({"hand": "6-6 6-5"}, "hand", "has 2 tiles; accepted: exactly 7 tiles"),
    ({"hand": ""}, "hand", "no hand given"),
    ({"hand": HANDS["moon"], "samples": "5001"}, "samples", "accepted: an integer from 1 to 5,000"),
    ({"hand": HANDS["moon"], "samples": "many"}, "samples", "'many' is not accepted"),
    ({"hand": HANDS["moon"], "seed": "-1"}, "seed", "accepted: an integer from 0"),
    ({"hand": HANDS["moon"], "players": "7"}, "players", "7"),
    ({"hand": HANDS["moon"], "strategy": ["evil.py:Cls"]}, "strategy", "files are not loaded from the page"),
    ({"hand": HANDS["moon"], "strategy": ["0=nobody"]}, "strategy", "unknown strategy 'nobody'"),
    ({"hand": HANDS["moon"], "rules": ["moon.bid_success=maybe"]}, "rules", "bad value 'maybe' for moon.bid_success"),
    ({"hand": HANDS["moon"], "seat_order": "sideways"}, "seat_order", "unknown --seat-order 'sideways'"),
    ({"hand": HANDS["moon"], "check_samples": "-1"}, "check_samples", "accepted: an integer from 0 to 2,000"),
    ({"hand": HANDS["moon"], "check_samples": "2001"}, "check_samples", "accepted: an integer from 0 to 2,000"),
    ({"hand": HANDS["moon"], "check_samples": "many"}, "check_samples", "'many' is not accepted"),
])
def test_bad_explorer_input_names_the_field(client, form, field, words):
    r = client.post("/api/moon/hand", json=form)
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == field and words in body["error"] and "\n" not in body["error"]


def test_a_request_that_is_not_json_is_a_400(client):
    r = client.post("/api/moon/hand", content=b"hand=6-6", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["field"] == "form"


def cli_json(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "moonshot.cli", *args, "-f", "json", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


CHECKS = {"moon": "12", "shoot-the-moon": "100"}       # the search player's check of the analyzers that have one


@pytest.mark.parametrize("game", HANDS)
def test_the_explorer_gives_the_cli_numbers_for_the_same_seed(client, game):
    check = {"check_samples": CHECKS[game]} if game in CHECKS else {}
    status = run(client, f"/api/{game}/hand", {"hand": HANDS[game], "samples": "300", "seed": "11", **check})
    page = client.get(f"/api/jobs/{status['id']}/result?format=json").json()
    cli = cli_json("hand", game, "--hand", HANDS[game], "--samples", "300", "--seed", "11",
                   *(["--check-samples", CHECKS[game]] if game in CHECKS else []))
    assert page["tables"] == cli["tables"] and page["findings"] == cli["findings"]
    html = client.get(f"/api/jobs/{status['id']}/result").text
    assert "<svg" in html and "What it found" in html and escape(cli["findings"][0]) in html
    assert "<th></th>" not in html                   # no empty column the CLI lacks
    if game in CHECKS:                               # the check's sentence and table, as text
        said = cli["findings"][-1]
        assert said.startswith("The search player") and f"on the first {CHECKS[game]} of these deals" in said
        assert f"<li>{escape(said)}</li>" in html and "id=\"table-check\"" in html
        assert status["total"] == 300 + int(CHECKS[game]) == status["done"]
    title = re.search(r"<h2>(.*?)</h2>", html).group(1)           # the hand as the pieces are named, not its notation
    assert not set(HANDS[game].split()) & set(re.split(r"[ ,:]+", title)), title
    if game == "moon":                               # trumps and contracts in words, the codes only in files
        from moonshot.simulator.moon.tiles import TRUMP_WORDS
        assert {r["trump"] for r in page["tables"]["trump_by_bid"]} == set(TRUMP_WORDS)
        assert not re.search(r"notrump|in trump|<td>[0-6]</td>\s*<td>(?:4|5|6|7|21)</td>", html)


def test_the_explorer_offers_the_check_where_the_analyzer_has_one(client):
    assert 'name="check_samples"' in client.get("/moon/explore").text
    assert 'name="check_samples"' not in client.get("/hit-the-deck/explore").text
    r = client.post("/api/hit-the-deck/hand", json={"hand": HANDS["hit-the-deck"], "check_samples": "5"})
    assert r.status_code == 400 and r.json()["field"] == "check_samples"
    assert "no search-player check" in r.json()["error"]


def test_a_run_can_be_cancelled_and_a_finished_one_cannot_give_a_result_twice_wrong(client):
    r = client.post("/api/moon/hand", json={"hand": HANDS["moon"], "samples": "5000", "seed": "3"})
    job = r.json()["id"]
    assert client.post(f"/api/jobs/{job}/cancel").status_code == 200
    assert wait(client, job)["state"] == "cancelled"
    assert client.get(f"/api/jobs/{job}/result").status_code == 409
    assert client.get("/api/jobs/nope").status_code == 404


def test_progress_arrives_before_the_answer(client, monkeypatch):
    """A Moon hand of one chunk counts its deals from inside the chunk (a step per trump played), so
    the page sees a count above 0 while the run still runs. The run's last count waits until the page
    has seen an earlier one, so the check does not hang on how fast the machine is."""
    import threading

    from moonshot.web.jobs import Job
    seen, counts, original = threading.Event(), [], Job.progress

    def progress(self, n):
        counts.append(n)
        if self.done + n >= self.total:            # the last count: hold it until the page saw one before
            seen.wait(60)
        original(self, n)
    monkeypatch.setattr(Job, "progress", progress)
    job = client.post("/api/moon/hand", json={"hand": HANDS["moon"], "samples": "300", "seed": "5",
                                              "check_samples": "0"}).json()["id"]
    end = time.monotonic() + 60
    while True:
        status = client.get(f"/api/jobs/{job}").json()
        if status["done"] > 0 or status["state"] != "running" or time.monotonic() > end:
            break
        time.sleep(0.02)
    seen.set()
    assert status["state"] == "running" and 0 < status["done"] < status["total"] == 300, status
    assert status["first_progress"] is not None
    assert wait(client, job)["state"] == "done"
    assert sum(counts) == 300 and len(counts) == 10          # 9 trumps, then passing: one step each


def test_hit_the_deck_hands_count_as_they_finish():
    """Hit the Deck's analyzer counts the hands of a chunk as they finish (the engine's end-of-pass
    hook), not the whole chunk at its end; the counts add up to the deals asked for."""
    from moonshot.analysis.common import make_setup
    from moonshot.simulator.games import GAMES as ENTRIES
    counts = []
    ENTRIES["hit-the-deck"].hand_analyzer(make_setup("hit-the-deck"), HANDS["hit-the-deck"], "first", 300, 5, 1,
                                          progress=counts.append)
    assert sum(counts) == 300 and len(counts) > 2 and all(n >= 0 for n in counts)


def test_worker_processes_report_steps_from_inside_their_chunks_and_change_no_number():
    """With --jobs 2 the chunks' steps come back from joblib's workers (through the runner's step
    file) before their tallies, and the tallies are those of a run that hears no steps."""
    import pandas as pd

    from moonshot.analysis import moon
    from moonshot.analysis.common import make_setup
    from moonshot.simulator.moon import tiles
    from moonshot.simulator.runner import run_chunks
    setup = make_setup("moon")
    hand = tuple(tiles.parse_hand(HANDS["moon"], setup.players, setup.table.rules))
    trumps = tuple(int(t) for t in setup.table.allowed_trumps.nonzero()[0])
    args, steps = (setup, hand, 0, trumps), []
    heard = run_chunks(moon._hand_chunk, args, 300, 7, jobs=2, chunk=150, on_step=lambda *s: steps.append(s))
    alone = run_chunks(moon._hand_chunk, args, 300, 7, jobs=1, chunk=150)
    assert {i for i, _, _ in steps} == {0, 1} and all(0 < done < of == len(trumps) + 1 for _, done, of in steps)
    assert heard.tables.keys() == alone.tables.keys()
    for name, table in alone.tables.items():
        pd.testing.assert_frame_equal(heard.tables[name], table)


# ---------------------------------------------------------------------------- play a hand

def play_out(client, game: str, form: dict, pick=lambda prompt: prompt["choices"][0]["value"]) -> dict:
    r = client.post(f"/api/{game}/play", json=form)
    assert r.status_code == 200, r.text
    state = r.json()
    sid = state["id"]
    for _ in range(400):
        if state["state"] != "your turn":
            break
        prompt = state["prompt"]
        r = client.post(f"/api/play/{sid}/answer", json={"turn": prompt["turn"], "choice": pick(prompt)})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["state"] == "over", state
    return state


def replay_cli(tmp_path, text: str) -> str:
    path = tmp_path / "hand.jsonl"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "moonshot.cli", "replay", str(path)], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("game, players", [("moon", 3), ("moon", 4), ("shoot-the-moon", 4), ("shoot-the-moon", 2)])
def test_a_hand_played_to_the_end_gives_a_history_that_moonshot_replay_accepts(client, tmp_path, game, players):
    state = play_out(client, game, {"players": str(players), "seat": "1", "seed": "21"})
    history = client.get(f"/api/play/{state['id']}/history")
    assert history.status_code == 200 and "attachment" in history.headers["content-disposition"]
    record = json.loads(history.text)
    assert record["game"] == game and record["players"] == players and record["strategies"][1] == "person"
    assert record["seed"] == 21
    printed = replay_cli(tmp_path, history.text)
    assert printed.strip() == state["summary"]["replay"].strip()
    side = record["sides"][1]
    mine = record["chips_after"][side] if game == "shoot-the-moon" else record["score"][side]
    said = state["summary"]["result"]            # in words (tests/test_web_words.py checks every number of it)
    points = f"{mine:+d} point" if mine else "0 points"
    assert (f"({mine} chip{'' if mine == 1 else 's'} now)" if game == "shoot-the-moon" else points) in said


def test_the_same_seed_deals_the_same_hand_and_the_page_sees_only_its_own_tiles(client):
    first = client.post("/api/moon/play", json={"seat": "0", "seed": "5"}).json()
    again = client.post("/api/moon/play", json={"seat": "0", "seed": "5"}).json()
    assert first["prompt"]["hand"] == again["prompt"]["hand"] and len(first["prompt"]["hand"]) == 7
    shown = json.dumps(first["prompt"])
    state = play_out(client, "moon", {"seat": "0", "seed": "5"})
    record = json.loads(client.get(f"/api/play/{state['id']}/history").text)
    others = [t for s, hand in enumerate(record["hands"]) if s != 0 for t in hand]
    assert not any(f'"{t}"' in shown for t in others)          # no other seat's tile in the first prompt


def test_hints_value_every_legal_move(client):
    state = client.post("/api/moon/play", json={"seat": "0", "seed": "9"}).json()
    assert state["prompt"]["phase"] == "bid"
    rows = client.get(f"/api/play/{state['id']}/hint?worlds=8").json()["rows"]
    bids = sorted(c["label"] for c in state["prompt"]["choices"])
    assert sorted(r["move"] for r in rows) == bids and "pass" in bids      # every legal call, pass included
    for game in ("moon", "shoot-the-moon"):
        state = client.post(f"/api/{game}/play", json={"seat": "0", "seed": "8"}).json()
        sid = state["id"]
        while state["prompt"]["phase"] != "play":
            prompt = state["prompt"]
            state = client.post(f"/api/play/{sid}/answer", json={"turn": prompt["turn"],
                                                                  "choice": prompt["choices"][0]["value"]}).json()
        hint = client.get(f"/api/play/{sid}/hint?worlds=8")
        assert hint.status_code == 200
        moves = sorted(r["move"] for r in hint.json()["rows"])
        # the hint's name of each (the page words it)
        assert moves == sorted(c["option"] for c in state["prompt"]["choices"])


def test_a_hit_the_deck_hand_with_timed_slaps_fits_a_profile(client, tmp_path):
    slaps = []

    def pick(prompt):
        if prompt["phase"] == "slap":
            slaps.append(200 + 40 * len(slaps) + (len(slaps) % 3) * 35)
            return slaps[-1]
        return prompt["choices"][0]["value"]
    for seed in range(30, 60):
        state = play_out(client, "hit-the-deck", {"players": "3", "seat": "0", "seed": str(seed)}, pick)
        if len(slaps) >= 3:
            break
    record = json.loads(client.get(f"/api/play/{state['id']}/history").text)
    mine = [ev[3][0] for ev in record["events"] if ev[0] == "slap" and ev[2] and ev[3][0] is not None]
    assert mine and set(mine) <= set(float(s) for s in slaps)          # the page's times are in the record
    replay_cli(tmp_path, client.get(f"/api/play/{state['id']}/history").text)
    assert state["slaps"] == [float(x) for x in slaps[-len(state["slaps"]):]]
    fitted = client.post("/api/hit-the-deck/profile", json={"seat": 0, "ms": slaps}).json()
    assert fitted["spec"].startswith("--profile 0=adult:mu=") and fitted["slaps"] == len(slaps)
    assert abs(fitted["mu"] + fitted["tau"] - sum(slaps) / len(slaps)) <= 1          # the mean is mu + tau
    from moonshot.simulator.hit_the_deck.profiles import parse_profile
    parse_profile(fitted["spec"].split(" ", 1)[1].split("=", 1)[1])          # a spec --profile accepts
    assert client.post("/api/hit-the-deck/profile", json={"seat": 0, "ms": [300, 310]}).status_code == 400
    assert client.post("/api/hit-the-deck/profile", json={"seat": 0, "ms": ["fast"]}).status_code == 400
    assert client.post("/api/moon/profile", json={"seat": 0, "ms": slaps}).status_code == 404     # no timed answers


@pytest.mark.parametrize("form, field", [({"seat": "9"}, "seat"), ({"players": "8"}, "players"),
                                         ({"strategy": ["../x.py:C"]}, "strategy"), ({"seed": "x"}, "seed")])
def test_bad_play_input_is_a_400_beside_its_field(client, form, field):
    r = client.post("/api/shoot-the-moon/play", json=form)
    assert r.status_code == 400 and r.json()["field"] == field


def test_an_illegal_or_stale_answer_is_refused_in_one_line(client):
    state = client.post("/api/shoot-the-moon/play", json={"seat": "0", "seed": "3"}).json()
    sid, prompt = state["id"], state["prompt"]
    r = client.post(f"/api/play/{sid}/answer", json={"turn": prompt["turn"], "choice": 99})
    assert r.status_code == 400 and "is not legal here; accepted:" in r.json()["error"]
    r = client.post(f"/api/play/{sid}/answer", json={"turn": prompt["turn"] + 5, "choice": 0})
    assert r.status_code == 400 and "no decision" in r.json()["error"]
    assert client.get("/api/play/nope").status_code == 400
    assert client.get(f"/api/play/{sid}/history").status_code == 400          # not over yet


# ---------------------------------------------------------------------------- what if, replay, reports

def test_whatif_gives_the_cli_numbers(client):
    status = run(client, "/api/moon/whatif", {"change": ["moon.bid_success=strictly_greater"], "n": "400",
                                              "seed": "4"})
    page = client.get(f"/api/jobs/{status['id']}/result?format=json").json()
    cli = cli_json("whatif", "moon", "--rule", "moon.bid_success=strictly_greater", "-n", "400", "--seed", "4")
    assert page["tables"] == cli["tables"] and page["findings"] == cli["findings"]


@pytest.mark.parametrize("form, field", [({}, "change"), ({"change": ["moon.nope=1"]}, "change"),
                                         ({"change": ["moon.bid_success=strictly_greater"], "n": "0"}, "n")])
def test_bad_whatif_input(client, form, field):
    r = client.post("/api/moon/whatif", json=form)
    assert r.status_code == 400 and r.json()["field"] == field


def test_replay_checks_the_upload_and_gives_moon_solver_values(client, tmp_path):
    path = tmp_path / "h.jsonl"
    subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", "moon", "-n", "2", "--history", str(path),
                    "--quiet"], check=True, capture_output=True)
    r = client.post("/api/replay", files={"file": ("h.jsonl", path.read_bytes(), "application/json")})
    assert r.status_code == 200
    hand = r.json()["hands"][0]
    plays = [s for s in hand["steps"] if "values" in s]
    assert len(plays) == 21 and all(any(v["best"] for v in s["values"]) for s in plays)
    assert all(s["played_tricks"] is not None and
               (s["played_tricks"] <= s["best_tricks"] if s["mover_side"] == "bidder's side"
                else s["played_tricks"] >= s["best_tricks"]) for s in plays)
    record = json.loads(path.read_text().splitlines()[0])
    record["bids"][0][1] = "banana"
    bad_line = json.dumps(record)
    r = client.post("/api/replay", files={"file": ("bad.jsonl", bad_line.encode(), "application/json")})
    assert r.status_code == 400 and r.json()["field"] == "file" and r.json()["error"].startswith("bad.jsonl:1")
    r = client.post("/api/replay", files={"file": ("big.jsonl", b" " * 3_000_000, "application/json")})
    assert r.status_code == 413 and "at most 2,004,096" in r.text         # web/guard.py, before the body is read
    assert client.post("/api/replay", data={"x": "1"}).status_code == 415   # a form, not a multipart upload
    assert client.post("/api/replay", files={"other": ("a.jsonl", b"{}")}).status_code == 400


def test_reports_are_listed_served_and_never_read_from_a_named_path(client):
    root = client.app.state.reports_dir
    (root / "old").mkdir(exist_ok=True)
    (root / "old" / "report.md").write_text("# An old report\n")
    (root / "old" / "report.html").write_text("<h1>An old report</h1>")
    page = client.get("/reports").text
    assert f"<code>{root.name}</code>" in page and str(root) not in page       # the folder's name, not its path
    assert "An old report" in page and "/reports/old/report.html" in page
    assert client.get("/reports/old/report.html").text == "<h1>An old report</h1>"
    assert client.get("/reports/old/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/reports/elsewhere/report.html").status_code == 404
    finished = client.app.state.runner.start("a report", 1, lambda progress: root / "old" / "report.md")
    wait(client, finished.id)
    assert "href='/reports/old/report.html'" in client.get(f"/api/jobs/{finished.id}/result").text
    r = client.post("/api/moon/report", json={"hands": "999"})
    assert r.status_code == 400 and r.json()["field"] == "hands"
    r = client.post("/api/moon/report", json={"hands": "1000", "seed": "1"})
    assert r.status_code == 202
    assert wait(client, client.post(f"/api/jobs/{r.json()['id']}/cancel").json()["id"])["state"] in (
        "cancelled", "done")


def test_a_report_builders_sections_are_heard_only_where_asked():
    """The Reports page counts a report's sections through reports.document.steps_heard: inside the
    block (its run's thread) every section is heard; outside it, nothing (the CLI's runs)."""
    from moonshot.reports import document
    heard = []
    steps = document.Steps(3, quiet=True)
    with document.steps_heard(lambda *step: heard.append(step)):
        steps("tables")
    steps("figures")
    assert heard == [(1, 3, "tables")]


@pytest.mark.parametrize("game, args", [("hit-the-deck", ["-p", "3"]), ("shoot-the-moon", ["-p", "2"])])
def test_replay_steps_through_every_move_of_the_other_games(client, tmp_path, game, args):
    path = tmp_path / "h.jsonl"
    subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", game, "-n", "2", *args, "--history", str(path),
                    "--quiet"], check=True, capture_output=True)
    r = client.post("/api/replay", files={"file": ("h.jsonl", path.read_bytes(), "application/json")})
    assert r.status_code == 200
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for hand, record in zip(r.json()["hands"], records):
        moves = record["events"] if game == "hit-the-deck" else record["plays"]
        assert len(hand["steps"]) == len(moves) and hand["text"].startswith(("Hand", "Hit the Deck", "Shoot"))


def test_a_long_file_says_how_many_of_its_hands_the_page_shows(client, tmp_path):
    path = tmp_path / "h.jsonl"
    subprocess.run([sys.executable, "-m", "moonshot.cli", "simulate", "shoot-the-moon", "-n", "250", "-p", "2",
                    "--history", str(path), "--quiet"], check=True, capture_output=True)
    body = client.post("/api/replay", files={"file": ("h.jsonl", path.read_bytes(), "application/json")}).json()
    assert len(body["hands"]) == 200 and body["total"] == 250


def test_a_toy_hand_plays_to_the_end_and_replays_on_the_page(client):
    """The toy game of tests/ names no shared file, yet its pages, its play and its replay work."""
    state = play_out(client, TOY.name, {"players": "3", "seat": "1", "seed": "3"})
    history = client.get(f"/api/play/{state['id']}/history").text
    record = json.loads(history)
    assert record["game"] == TOY.name and state["summary"]["replay"].startswith("hand 0: played")
    shown = client.post("/api/replay", files={"file": ("toy.jsonl", history.encode(), "application/json")}).json()
    assert [s["text"] for s in shown["hands"][0]["steps"]] == [f"seat {s} plays {c}" for s, c in
                                                               enumerate(record["played"])]
    r = client.post(f"/api/{TOY.name}/hand", json={"hand": "3 9"})        # no hand analysis: one line, not a 500
    assert r.status_code == 400 and "no hand analysis" in r.json()["error"]


def test_two_runs_at_once_give_each_its_own_numbers(client):
    import moonshot
    from moonshot.reports.text import render_json
    forms = [{"hand": HANDS["shoot-the-moon"], "samples": "400", "seed": str(seed)} for seed in (1, 2)]
    ids = [client.post("/api/shoot-the-moon/hand", json=f).json()["id"] for f in forms]
    for job, form in zip(ids, forms):
        assert wait(client, job)["state"] == "done"
        page = client.get(f"/api/jobs/{job}/result?format=json").json()
        alone = moonshot.hand("shoot-the-moon", form["hand"], samples=400, seed=int(form["seed"]))
        assert page["tables"]["hand"] == json.loads(render_json(alone))["tables"]["hand"]


def test_stopping_the_server_cancels_its_runs():
    from moonshot.web.jobs import Runner
    runner = Runner()
    job = runner.start("endless", 10, lambda progress: [progress(1) or time.sleep(0.01) for _ in iter(int, 1)])
    time.sleep(0.05)
    runner.stop_all()
    for _ in range(200):
        if job.state != "running":
            break
        time.sleep(0.01)
    assert job.state == "cancelled"


def test_serve_checks_its_options_warns_off_localhost_and_stops_on_ctrl_c():
    import signal
    import socket
    bad = subprocess.run([sys.executable, "-m", "moonshot.cli", "serve", "--port", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == "moonshot: error: --port 0 is not accepted; accepted: 1..65535"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "moonshot.cli", "serve", "--port", str(port), "--host", "0.0.0.0"],
                            stderr=subprocess.PIPE, text=True)     # not loopback only: other machines may reach it
    try:
        lines = [proc.stderr.readline(), proc.stderr.readline()]
        assert "warning: listening on 0.0.0.0" in lines[0] and f"http://0.0.0.0:{port}/" in lines[1]
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0
    finally:
        proc.kill()


def test_no_page_has_two_elements_with_one_id(client):
    """A script that writes into an id finds the first element with it: Hit the Deck's fitted reaction
    profile went into the form's hidden profile input (two elements had id="profile", issue 39)."""
    from moonshot.simulator.games import GAMES
    from moonshot.web.routes.pages import PAGES
    paths = ["/", "/replay", "/reports"] + [f"/{g}/{what}" for g in GAMES for what in PAGES]
    for path in paths:
        page = client.get(path)
        assert page.status_code == 200, path
        ids = re.findall(r'\sid="([^"]+)"', page.text)
        twice = {i for i in ids if ids.count(i) > 1}
        assert not twice, (path, twice)
