"""The search players hear a stop at --jobs 1 (issue 38 item 1): pimc solves its worlds in batches
with a stop check between them, so a run in a thread ends soon after its stop, and a cancelled
pimc:worlds=4096 run on the page frees its slot for the next. The batches change no number."""
from __future__ import annotations

import hashlib
import threading
import time
import warnings

import numpy as np
import pytest

from moonshot.simulator import stopping
from moonshot.simulator.moon import engine as ME
from moonshot.simulator.moon import solver as moon_solver
from moonshot.strategies import moon_search
from moonshot.strategies.moon_search import PimcMoon

FIELDS = ("calls", "bidder", "bid", "discard", "trump", "play_tiles", "called_ends", "tricks")
# ME.play of 3 hands, PimcMoon(worlds=40, min_gain=-5) in every seat, deal rng `players`, play rng 9,
# measured before the batches (commit 10fb227): 40 worlds are two batches now
GOLDEN = {3: ("5ddccda0da76bc39", [5, 6, 21], [[2, 0, 5], [0, 1, 6], [0, 7, 0]]),
          4: ("94b50bd59321386d", [6, 5, 5], [[7, 0], [2, 5], [1, 6]])}


def pimc_hands(players: int):
    p = PimcMoon(worlds=40, min_gain=-5)
    res = ME.play(ME.Table(players), 3, [p] * players, np.random.default_rng(players), np.random.default_rng(9))
    h = hashlib.sha256()
    for f in FIELDS:
        h.update(f.encode())
        h.update(np.ascontiguousarray(getattr(res, f)).tobytes())
    return h.hexdigest()[:16], res.bid.tolist(), res.tricks.tolist()


@pytest.mark.parametrize("players", [3, 4])
def test_the_batches_change_no_number(players, monkeypatch):
    assert moon_search.WORLD_BATCH < 40                        # the golden run is solved in more than one batch
    assert pimc_hands(players) == GOLDEN[players]
    monkeypatch.setattr(moon_search, "WORLD_BATCH", 10 ** 6)  # every world in one call, as before
    assert pimc_hands(players) == GOLDEN[players]


def test_the_batch_kernels_let_other_threads_run():
    assert moon_solver.values_batch.targetoptions.get("nogil")
    assert moon_solver.moves_batch.targetoptions.get("nogil")


def test_a_pimc_run_in_a_thread_ends_soon_after_its_stop():
    """worlds=4096 at four players: one hand's bidding alone solves tens of thousands of deals
    (minutes); the stop comes after ~1 s and the run must be over well before that."""
    stop, ended, calls = threading.Event(), {}, []
    real = moon_solver.values_batch

    def counted(*args):
        calls.append(stop.is_set())
        return real(*args)

    def body():
        p = PimcMoon(worlds=4096)
        try:
            with stopping.watching(stop=stop.is_set):
                ME.play(ME.Table(4), 4, [p] * 4, np.random.default_rng(1), np.random.default_rng(2))
            ended["how"] = "finished"
        except stopping.Stopped:
            ended["how"] = "stopped"

    mp = pytest.MonkeyPatch()
    mp.setattr(moon_solver, "values_batch", counted)
    try:
        run = threading.Thread(target=body, daemon=True)
        run.start()
        deadline = time.monotonic() + 60
        while len(calls) < 20 and time.monotonic() < deadline:   # well inside the search
            time.sleep(0.05)
        time.sleep(1.0)
        stop.set()
        run.join(timeout=20)
    finally:
        mp.undo()
    assert not run.is_alive() and ended.get("how") == "stopped"
    assert sum(calls) <= 1                 # at most the batch under way when the stop came


def test_a_cancelled_pimc_run_on_the_page_frees_its_slot(tmp_path):
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from moonshot.web.app import create_app
    from moonshot.web.forms import Limits

    limits = Limits(max_samples=50_000, default_samples=200, max_worlds=4096)     # serve --max-worlds 4096
    client = TestClient(create_app(limits, reports_dir=tmp_path, max_runs=1), base_url="http://localhost")
    hand = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"
    r = client.post("/api/moon/hand", json={"hand": hand, "samples": "2000", "seed": "3",
                                           "strategy": ["pimc:worlds=4096"]})
    assert r.status_code == 202, r.text
    slow = r.json()["id"]
    time.sleep(1.5)
    assert client.get(f"/api/jobs/{slow}").json()["state"] == "running"
    client.post(f"/api/jobs/{slow}/cancel").raise_for_status()
    r = client.post("/api/moon/hand", json={"hand": hand, "samples": "50", "seed": "3"})
    assert r.status_code == 202, r.text
    quick = r.json()["id"]
    end = time.monotonic() + 60
    while time.monotonic() < end:
        status = client.get(f"/api/jobs/{quick}").json()
        if status["state"] not in ("waiting", "running"):
            break
        time.sleep(0.1)
    assert client.get(f"/api/jobs/{slow}").json()["state"] == "cancelled"
    assert status["state"] == "done", status
