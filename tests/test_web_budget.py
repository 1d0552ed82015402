"""One budget for all the server computes (issue 38 item 2): a deal, an answer, a hint and a hand link
take one of the slots the runs take (--jobs), wait briefly for one, then get a 429 with one line and a
Retry-After; the worlds a page's bots and hints search are capped (--max-worlds), named in a 400's one
line; a long answer stops when the server stops, the hand is dropped or the page goes away; hand and
run ids are long random tokens.

The issue's cases, each bounded here: a Hit the Deck hand against rollout:worlds=4096 (22-148 s an
answer) and a hint of 4096 worlds are refused by the cap; 8 (and 50) expensive answers at once run one at a
time (the slots) and the rest get 429s, a cheap deal meanwhile an answer, never a 27 s wait. The
expensive bots are a toy strategy that thinks `worlds` hundredths of a second per decision and hears a
stop as the search players do (simulator.stopping.check), so no test runs a real long search."""
from __future__ import annotations

import re
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator import games as registry  # noqa: E402
from moonshot.simulator import stopping  # noqa: E402
from moonshot.strategies.base import REGISTRY, register  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from tests.toy_game import GAME as TOY  # noqa: E402

CAP = 400                 # the test app's --max-worlds (the slow bot at the cap: 4 s a decision)
TOKEN = re.compile(r"[A-Za-z0-9_-]+")


class Slow:
    """A toy bot that thinks `worlds` hundredths of a second per decision, checking for a stop between
    them; it counts how many of it think at once."""
    ranges = {"worlds": (1, 4096)}
    lock, busy, most = threading.Lock(), 0, 0

    def __init__(self, worlds: int = 10):
        self.worlds = worlds

    def play(self, view, rng):
        with Slow.lock:
            Slow.busy += 1
            Slow.most = max(Slow.most, Slow.busy)
        try:
            for _ in range(self.worlds):
                stopping.check()
                time.sleep(0.01)
        finally:
            with Slow.lock:
                Slow.busy -= 1
        return view.hand.argmax(axis=1)


@pytest.fixture(scope="module", autouse=True)
def toy_with_a_slow_bot():
    registry.register(TOY)
    register(TOY.name, "slow")(Slow)
    yield
    REGISTRY.get(TOY.name, {}).pop("slow", None)
    registry.GAMES.pop(TOY.name, None)


@pytest.fixture(autouse=True)
def counts():
    Slow.busy = Slow.most = 0


def make(tmp_path, slots: int = 1, page_wait: float = 0.3) -> TestClient:
    app = create_app(Limits(max_samples=5_000, default_samples=200, max_worlds=CAP), reports_dir=tmp_path,
                     hosts=("testserver",), max_runs=slots, page_wait=page_wait)
    return TestClient(app)


def deal(client, worlds: int | None = None, seat: int = 0, seed: int = 1):
    """A toy hand at three players, the person in `seat` (seat 0: the bots all move after the person,
    so the deal itself costs nothing), the others slow bots of `worlds` (None: the toy's cheap default)."""
    form = {"players": 3, "seat": seat, "seed": seed}
    if worlds is not None:
        form["strategy"] = [f"slow:worlds={worlds}"]
    return client.post(f"/api/{TOY.name}/play", json=form)


def answer(client, state: dict):
    prompt = state["prompt"]
    return client.post(f"/api/play/{state['id']}/answer", json={"turn": prompt["turn"],
                                                               "choice": prompt["choices"][0]["value"]})


def hold_a_slot(client):
    """A run that holds the slot until the returned event is set."""
    release = threading.Event()

    def work(progress):
        while not release.wait(0.01):
            stopping.check()
        return None
    job = client.app.state.runner.start("holds the slot", 1, work)
    return job, release


def wait_for(ok, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while not ok() and time.monotonic() < end:
        time.sleep(0.02)
    return ok()


def one_line_429(r) -> str:
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert "busy" in error and "Retry-After" in error and "\n" not in error and len(error) <= 400, error
    assert 1 <= int(r.headers["retry-after"]) <= 60
    return error


# ------------------------------------------------------------------ the caps
def test_the_bots_and_hints_worlds_are_capped_in_one_line_naming_what_is_accepted(tmp_path):
    client = make(tmp_path)
    refused = [("hit-the-deck", "play", {"strategy": ["rollout:worlds=4096"]}),      # the issue's 22-148 s answers
               ("moon", "play", {"strategy": [f"1=pimc:worlds={CAP + 1},trumps=3"]}),
               ("moon", "play", {"strategy": ["montecarlo:samples=4096"]}),
               ("moon", "hand", {"strategy": ["pimc:worlds=4096"], "hand": "6-6 6-5 6-4 6-2 5-5 3-3 1-1"}),
               (TOY.name, "play", {"strategy": [f"slow:worlds={CAP + 1}"]})]
    for game, what, form in refused:
        r = client.post(f"/api/{game}/{what}", json={"seat": 0, **form})
        error = r.json()["error"]
        assert r.status_code == 400 and r.json()["field"] == "strategy", (game, r.text)
        counted = "samples" if "samples" in form["strategy"][0] else "worlds"
        assert f"accepted: {counted} from 1 to {CAP}" in error and "\n" not in error, error
    assert deal(client, CAP).status_code == 200                  # at the cap: accepted
    state = client.post("/api/moon/play", json={"seat": 0, "seed": 4}).json()
    r = client.get(f"/api/play/{state['id']}/hint?worlds=4096")     # the issue's hint of 4096 worlds
    assert r.status_code == 400 and r.json()["field"] == "worlds"
    assert f"accepted: an integer from 2 to {CAP}" in r.json()["error"]


def test_a_hand_link_whose_bots_search_past_the_cap_is_refused(tmp_path):
    import base64
    import json
    client = make(tmp_path)
    data = {"game": TOY.name, "players": 3, "partners": False, "rules": [], "strategy": ["slow:worlds=4096"],
            "profile": [], "seat": 0, "seed": 1, "answers": [0]}
    token = base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    r = client.post("/api/hand-link", json={"hand": token})
    assert r.status_code == 400 and f"accepted: worlds from 1 to {CAP}" in r.json()["error"]
    assert Slow.most == 0                                          # refused before any bot thought


# ------------------------------------------------------------------ one budget
def test_deals_answers_hints_and_hand_links_take_the_runs_slot_and_get_a_429_when_it_is_taken(tmp_path):
    client = make(tmp_path)
    toy = deal(client).json()
    over = answer(client, toy).json()
    assert over["state"] == "over"
    token = client.get(f"/api/play/{toy['id']}/link").json()["token"]
    moon = client.post("/api/moon/play", json={"seat": 0, "seed": 4}).json()
    assert moon["prompt"]["has_hint"]
    slow = deal(client, 5).json()
    job, release = hold_a_slot(client)
    try:
        asked = {"deal": deal(client, seed=2), "answer": answer(client, slow),
                 "hint": client.get(f"/api/play/{moon['id']}/hint?worlds=2"),
                 "hand link": client.post("/api/hand-link", json={"hand": token})}
        for what, r in asked.items():
            assert "1 run(s) and 0 deal(s)" in one_line_429(r), what
        assert client.get("/").status_code == 200                   # pages and states are not work
        assert client.get(f"/api/play/{slow['id']}").json()["state"] == "your turn"
        assert client.get(f"/api/play/{toy['id']}/history").status_code == 200
    finally:
        release.set()
    assert wait_for(lambda: job.state == "done")
    assert answer(client, slow).json()["state"] == "over"          # the slot is free again
    assert client.post("/api/hand-link", json={"hand": token}).status_code == 200
    assert client.app.state.runner.running == 0


def test_page_work_waits_for_a_slot_ahead_of_the_waiting_runs(tmp_path):
    client = make(tmp_path, page_wait=20)
    job, release = hold_a_slot(client)
    queued, queued_release = hold_a_slot(client)
    assert queued.state == "waiting"
    with ThreadPoolExecutor(1) as pool:
        dealt = pool.submit(deal, client, seed=5)
        assert wait_for(lambda: len(client.app.state.runner.pages) == 1)
        release.set()                                               # the slot goes to the deal, not the run
        assert dealt.result(timeout=20).status_code == 200
    assert queued.state in ("waiting", "running")
    queued_release.set()
    assert wait_for(lambda: queued.state == "done")


def test_fifty_expensive_answers_at_once_run_within_the_slots_and_a_cheap_deal_is_answered(tmp_path):
    """The issue's 8 concurrent pimc answers (30-38 s each) and a cheap deal that took 27 s meanwhile,
    and its test's fifty at once: they run within the slots, the rest get 429s, the server stays responsive."""
    client = make(tmp_path, page_wait=0.5)
    hands = [deal(client, 15, seed=k).json() for k in range(50)]     # each answer: two decisions of 0.15 s
    with ThreadPoolExecutor(51) as pool:
        answers = [pool.submit(answer, client, h) for h in hands]
        cheap = pool.submit(deal, client, seed=99)
        page = client.get("/")
        results = [a.result(timeout=60) for a in answers]
        cheap = cheap.result(timeout=60)
    assert page.status_code == 200
    assert Slow.most == 1                                            # never more at once than the slots
    done = [r for r in results if r.status_code == 200]
    refused = [r for r in results if r.status_code != 200]
    assert done and refused and all(r.json()["state"] == "over" for r in done)
    for r in refused:
        one_line_429(r)
    assert cheap.status_code in (200, 429)
    if cheap.status_code == 429:
        one_line_429(cheap)
    assert deal(client, seed=100).status_code == 200                # and then the server answers again


def test_runs_past_the_queue_get_a_retry_after_too(tmp_path):
    client = make(tmp_path)
    holds = [hold_a_slot(client) for _ in range(3)]                  # one runs, two wait (twice the slots)
    try:
        r = client.post("/api/toy-high-card/whatif", json={"change": ["toy.target=5"], "n": 100})
        one_line_429(r)
    finally:
        for _, release in holds:
            release.set()


# ------------------------------------------------------------------ stops
def start_a_long_answer(client, pool):
    """An answer whose bots think 4 s each, started; its hand and future once a bot thinks."""
    state = deal(client, CAP).json()
    future = pool.submit(answer, client, state)
    assert wait_for(lambda: Slow.busy == 1)
    return state, future


def test_a_long_answer_stops_when_the_server_stops(tmp_path):
    client = make(tmp_path, slots=2)
    with ThreadPoolExecutor(1) as pool:
        _, future = start_a_long_answer(client, pool)
        client.app.state.runner.close()                  # what web.server.Server does on Ctrl-C or SIGTERM
        r = future.result(timeout=10)
    assert r.status_code == 503 and "the server is stopping" in r.json()["error"]
    assert Slow.busy == 0 and client.app.state.runner.running == 0
    assert deal(client).status_code == 503                 # and nothing new starts


def test_a_long_answer_stops_when_its_hand_is_dropped(tmp_path):
    client = make(tmp_path, slots=2)
    client.app.state.hands.keep = 1
    with ThreadPoolExecutor(1) as pool:
        state, future = start_a_long_answer(client, pool)
        assert deal(client, seed=7).status_code == 200      # pushes the answering hand out
        r = future.result(timeout=10)
    assert r.status_code == 400 and "pushed out by a newer hand" in r.json()["error"]
    assert Slow.busy == 0 and client.app.state.runner.running == 0


def test_a_long_answer_stops_when_the_page_goes_away(tmp_path):
    import httpx

    from moonshot.web.server import config
    from tests.serving import free_port, in_a_thread
    app = create_app(Limits(max_worlds=CAP), reports_dir=tmp_path)
    port = free_port()
    with in_a_thread(config(app, host="127.0.0.1", port=port)):
        base = f"http://127.0.0.1:{port}"
        state = httpx.post(f"{base}/api/{TOY.name}/play", json={"players": 3, "seat": 0,
                                                                "strategy": [f"slow:worlds={CAP}"]}).json()
        prompt = state["prompt"]
        with pytest.raises(httpx.TimeoutException):        # the tab is closed while the bots think
            httpx.post(f"{base}/api/play/{state['id']}/answer", timeout=0.2,
                       json={"turn": prompt["turn"], "choice": prompt["choices"][0]["value"]})
        runner = app.state.runner
        assert wait_for(lambda: runner.running == 0 and Slow.busy == 0)
        # the answer is kept, the hand not played past the stop: its next request plays it again
        session = app.state.hands.get(state["id"])
        assert session.answers == [prompt["choices"][0]["value"]] and session.peek() is None


# ------------------------------------------------------------------ ids
def test_hand_and_run_ids_are_long_random_tokens(tmp_path):
    first = [make(tmp_path) for _ in range(2)]
    sids = [deal(c, seed=3).json()["id"] for c in first]             # the same first hand of two servers
    client = first[0]
    sids += [deal(client, seed=k).json()["id"] for k in range(30)]
    jobs = []
    for k in range(3):
        job, release = hold_a_slot(client)
        release.set()
        jobs.append(job.id)
        assert wait_for(lambda: job.state == "done")
    for ids, least in ((sids, 22), (jobs, 16)):
        assert len(set(ids)) == len(ids)
        assert all(TOKEN.fullmatch(i) and len(i) >= least for i in ids), ids
    assert len({i[:4] for i in sids}) > len(sids) // 2             # no shared prefix, as a count would give
