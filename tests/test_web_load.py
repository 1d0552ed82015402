"""moonshot serve left running: runs are bounded (a cap, a bounded queue, then 429), played hands
hold no thread and expire, memory and threads come back after the work ends, and Cancel is heard
inside the section that runs. Tiny runs and small limits: the point is leaks and bounds, not speed."""
from __future__ import annotations

import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator.games import GAMES  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402

SLOTS, QUEUE = 2, 4
WHATIF = {"hit-the-deck": "htd.target_score=50", "moon": "moon.bid_success=strictly_greater"}


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def make_client(tmp_path, **kw) -> TestClient:
    app = create_app(Limits(max_samples=50_000, default_samples=200), reports_dir=tmp_path, **kw)
    return TestClient(app, base_url="http://localhost")


def whatif(client, n: int, unit: str = "hands", game: str = "hit-the-deck", seed: int = 1):
    return client.post(f"/api/{game}/whatif", json={"change": [WHATIF[game]], "n": str(n), "unit": unit,
                                                    "seed": str(seed)})


def settle(client, ids, timeout: float = 60.0) -> list[dict]:
    """Every run's last status once none waits or runs ("dropped": finished and gone, web.jobs keeping
    the newest finished runs only)."""
    end = time.monotonic() + timeout
    while True:
        answers = [client.get(f"/api/jobs/{i}") for i in ids]
        states = [{"state": "dropped"} if r.status_code == 404 else r.json() for r in answers]
        if all(s["state"] not in ("waiting", "running") for s in states) or time.monotonic() > end:
            return states
        time.sleep(0.05)


def quiet_threads(start: int, slack: int = 2, timeout: float = 5.0) -> int:
    """The thread count once it is back within `slack` of `start` (or after `timeout`)."""
    end = time.monotonic() + timeout
    while threading.active_count() > start + slack and time.monotonic() < end:
        time.sleep(0.1)
    return threading.active_count()


def test_fifty_runs_at_once_run_at_most_the_cap_and_the_rest_wait_or_get_429(tmp_path):
    client = make_client(tmp_path, max_runs=SLOTS, queue=QUEUE)
    warm = [whatif(client, 2_000, "games", seed=k).json()["id"] for k in range(SLOTS)]   # imports, compiled code,
    for i in warm:                                                                       # the runs' arrays once
        wait_until(client, i, lambda s: s["done"] > 0)
        client.post(f"/api/jobs/{i}/cancel")
    settle(client, warm)
    time.sleep(1.2)
    threads, rss = threading.active_count(), rss_mb()
    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(lambda k: whatif(client, 2_000, "games", seed=k), range(50)))
    accepted = [r.json() for r in answers if r.status_code == 202]
    refused = [r for r in answers if r.status_code != 202]
    # the slots and the queue fill up; the rest are refused (more are accepted only if a run ended meanwhile)
    assert len(accepted) >= SLOTS + QUEUE and len(refused) >= 30
    assert all(r.status_code == 429 and "busy" in r.json()["error"] and "\n" not in r.json()["error"] for r in refused)
    ids = [a["id"] for a in accepted]
    states = [client.get(f"/api/jobs/{i}").json() for i in ids]
    assert sum(s["state"] == "running" for s in states) <= SLOTS
    waiting = sorted(s["ahead"] for s in states if s["state"] == "waiting")
    assert waiting == list(range(len(waiting))) and waiting          # "waiting, N ahead", in order
    for i in ids:                                        # a waiting run leaves the queue, a running one stops
        client.post(f"/api/jobs/{i}/cancel")
    assert {s["state"] for s in settle(client, ids, 10)} == {"cancelled"}
    assert quiet_threads(threads) <= threads + 2
    assert rss_mb() - rss < 60


def test_two_hundred_deals_and_fifty_runs_leave_memory_flat(tmp_path):
    client = make_client(tmp_path, max_runs=SLOTS, queue=50)
    games = list(GAMES)
    for game in games:                                   # warm: each game's play code and a run
        client.post(f"/api/{game}/play", json={"seat": "0", "seed": "1"}).raise_for_status()
    settle(client, [whatif(client, 100).json()["id"]])
    time.sleep(1.2)
    threads, rss = threading.active_count(), rss_mb()
    for k in range(200):
        r = client.post(f"/api/{games[k % len(games)]}/play", json={"seat": "0", "seed": str(k)})
        assert r.status_code == 200 and r.json()["state"] == "your turn", r.text
    ids = [whatif(client, 20, game=("moon", "hit-the-deck")[k % 2], seed=k).json()["id"] for k in range(50)]
    states = [s["state"] for s in settle(client, ids)]
    assert set(states) <= {"done", "dropped"} and "done" in states   # the oldest finished runs may be gone
    assert quiet_threads(threads) <= threads + 2              # no thread per hand, none per finished run
    assert rss_mb() - rss < 100


def test_an_idle_hand_is_dropped_and_a_touched_one_kept(tmp_path):
    client = make_client(tmp_path, play_idle=0.6)
    idle = client.post("/api/moon/play", json={"seat": "0", "seed": "3"}).json()["id"]
    kept = client.post("/api/moon/play", json={"seat": "0", "seed": "4"}).json()
    for _ in range(3):
        time.sleep(0.3)
        assert client.get(f"/api/play/{kept['id']}").json()["state"] == "your turn"
    r = client.get(f"/api/play/{idle}")
    assert r.status_code == 400 and "no hand" in r.json()["error"]
    prompt = kept["prompt"]
    r = client.post(f"/api/play/{kept['id']}/answer",
                    json={"turn": prompt["turn"], "choice": prompt["choices"][0]["value"]})
    assert r.status_code == 200 and r.json()["prompt"]["turn"] == prompt["turn"] + 1


def cancelled_by_the_next_polls(client, job_id: str) -> dict:
    """Cancel, then poll every 0.25 s, at most 8 times (2 s): the run's state by then."""
    client.post(f"/api/jobs/{job_id}/cancel").raise_for_status()
    for _ in range(8):
        time.sleep(0.25)
        status = client.get(f"/api/jobs/{job_id}").json()
        if status["state"] != "running":
            break
    return status


def wait_until(client, job_id: str, ok, timeout: float = 60.0) -> dict:
    end = time.monotonic() + timeout
    while True:
        status = client.get(f"/api/jobs/{job_id}").json()
        if ok(status) or status["state"] not in ("running", "waiting") or time.monotonic() > end:
            return status
        time.sleep(0.05)


def test_a_whole_games_whatif_counts_its_games_and_cancel_stops_it_inside_its_one_chunk(tmp_path):
    client = make_client(tmp_path)
    job = whatif(client, 20_000, "games").json()["id"]          # one chunk of 20,000 games
    status = wait_until(client, job, lambda s: s["done"] > 0)
    assert status["state"] == "running" and 0 < status["done"] < 20_000, status   # games counted as they end
    assert cancelled_by_the_next_polls(client, job)["state"] == "cancelled"


def test_a_run_no_page_asks_about_is_cancelled_as_a_closed_tab(tmp_path):
    client = make_client(tmp_path, abandon_after=0.5)
    job = whatif(client, 20_000, "games").json()["id"]
    time.sleep(2.5)                                   # the watch looks every second
    assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"


def test_cancel_stops_a_report_inside_the_section_that_runs(tmp_path):
    client = make_client(tmp_path)
    r = client.post("/api/hit-the-deck/report", json={"hands": "1000", "seed": "3"})
    assert r.status_code == 202, r.text
    job = r.json()["id"]
    # card values: 50 paired games per table and card, about 50 s on a core at this size
    status = wait_until(client, job, lambda s: (s["detail"] or "").startswith("card value"))
    assert status["state"] == "running", status
    time.sleep(0.5)
    stopped = cancelled_by_the_next_polls(client, job)
    assert stopped["state"] == "cancelled" and stopped["detail"] == status["detail"]     # inside that section
    assert not any(tmp_path.iterdir())                                  # no report folder, no half-written one


def test_a_stopped_parallel_run_ends_at_once_and_leaves_another_runs_chunks_alone():
    """Two runs share joblib's two workers; the first is stopped once it has counted games (its
    chunks hear the run's stop file): it ends, and the second still gives the numbers of a run
    played alone in this process (joblib's pool was not ended under it)."""
    import pandas as pd

    from moonshot.analysis.common import make_setup, simulate
    from moonshot.simulator import stopping
    setup = make_setup("hit-the-deck")
    alone = simulate(setup, None, 300, 3, 1, chunk=50)
    stop, out = threading.Event(), {}

    def run(name: str, progress=None) -> None:
        try:
            with stopping.watching(stop=stop.is_set if name == "A" else None):
                out[name] = simulate(setup, None, 300 if name == "B" else 5_000, 3 if name == "B" else 4, 2,
                                     chunk=50, progress=progress)
        except stopping.Stopped:
            out[name] = "stopped"
    a = threading.Thread(target=run, args=("A", lambda n: stop.set()))
    b = threading.Thread(target=run, args=("B",))
    a.start(), b.start()
    a.join(60), b.join(120)
    assert out["A"] == "stopped"
    for name, table in alone.tables.items():
        pd.testing.assert_frame_equal(out["B"].tables[name], table)
