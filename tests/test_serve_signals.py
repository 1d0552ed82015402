"""`moonshot serve` ends within 5 s of SIGTERM or Ctrl-C whatever it is doing (issue 38 item 1): here
with a search running at --jobs 1 (a Moon hand analysed against pimc bots, 200,000 deals: hours), a
second run queued behind it and a deal waiting for the slot. The signal reaches the runs and the page
work at once (web.server.Server), uvicorn waits at most GRACE for open requests, the runs at most
STOP_WAIT; the bound asserted is the behaviour asked for, not a speed."""
from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from tests.serving import free_port  # noqa: E402

HAND = "6-6 6-5 6-4 6-2 5-5 3-3 1-1"
BOUND = 5.0            # seconds from the signal to the process's end (issue 38)


def serving(tmp_path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "moonshot.cli", "serve", "--port", str(port), "--reports",
                             str(tmp_path / "out")], stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert "open http://" in proc.stderr.readline()
    for _ in range(300):                                 # uvicorn listens once the app has started
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_ends_within_five_seconds_of_a_signal_with_a_search_running_and_work_queued(tmp_path, sig):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serving(tmp_path, port)
    try:
        form = {"hand": HAND, "samples": 200_000, "strategy": ["pimc"], "seed": 1}
        running = httpx.post(f"{base}/api/moon/hand", json=form, timeout=10).json()
        queued = httpx.post(f"{base}/api/moon/hand", json={**form, "seed": 2}, timeout=10).json()
        assert (running.get("state"), queued.get("state")) == ("running", "waiting"), (running, queued)
        for _ in range(200):                             # the search is under way
            if httpx.get(f"{base}/api/jobs/{running['id']}", timeout=5).json()["elapsed"] > 0.5:
                break
            time.sleep(0.02)
        answers = []
        dealing = threading.Thread(target=lambda: answers.append(_deal(base)), daemon=True)
        dealing.start()                                  # a deal waiting for the one slot
        time.sleep(0.3)
        proc.send_signal(sig)
        signalled = time.monotonic()
        try:
            code = proc.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"moonshot serve still running {BOUND:.0f} s after {sig.name}") from None
        ended = time.monotonic() - signalled
        err = proc.stderr.read()
        assert code == 0 and "Traceback" not in err, (code, err)
        assert ended <= BOUND
        dealing.join(10)
        assert answers and answers[0] in (429, 503, None), answers     # refused, or the connection closed
    finally:
        proc.kill()


def _deal(base: str) -> int | None:
    try:
        return httpx.post(f"{base}/api/moon/play", json={"seat": 0, "seed": 1}, timeout=10).status_code
    except httpx.TransportError:
        return None


def test_serve_checks_max_worlds_in_one_line():
    bad = subprocess.run([sys.executable, "-m", "moonshot.cli", "serve", "--max-worlds", "5000"], capture_output=True,
                         text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip() == ("moonshot: error: --max-worlds 5000 is not accepted; accepted: an integer from 2 "
                                  "to 4,096")
