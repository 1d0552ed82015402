"""--scheduler against what is not a Dask scheduler, and stopped while a local cluster runs (issue 38
item 5): an HTTP server (which waits for a request and says nothing) or a server that talks first
in another protocol is refused in one line within the reach timeout, instead of a 120 s hang or
"Unable to allocate 3.07 EiB"; local:N is capped at the cores as --jobs is; SIGINT or SIGTERM at any
moment of a local cluster's run prints one line and nothing after it. Skipped without the cluster
extra (dask.distributed)."""
from __future__ import annotations

import http.server
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from moonshot.simulator.cluster import local_workers, scheduler  # noqa: E402
from moonshot.simulator.errors import BadInput  # noqa: E402
from tests.test_cli import run as cli_run  # noqa: E402
from tests.test_store import ROOT, moonshot  # noqa: E402


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Talker(socketserver.BaseRequestHandler):
    """A server that speaks first, not as Dask does (an SSH banner, a frame length of exbibytes)."""
    said = b""

    def handle(self):
        try:
            self.request.sendall(self.said)
            self.request.recv(1)
        except OSError:
            pass


def _serving(server) -> str:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return f"tcp://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    try:
        yield _serving(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(params=[b"SSH-2.0-OpenSSH_9.6\r\n", (0xFFFF_FFFF_FFFF_FF00).to_bytes(8, "little"),
                        (40).to_bytes(8, "little") + b"\x09" * 40])
def talker(request):
    handler = type("Talker", (_Talker,), {"said": request.param})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    try:
        yield _serving(server)
    finally:
        server.shutdown()
        server.server_close()


def test_an_http_server_is_refused_within_the_reach_timeout(http_server):
    start = time.monotonic()
    with pytest.raises(BadInput, match=r"is not a Dask scheduler \(it sent no Dask handshake within 1 s\); "
                                       r"accepted: tcp://HOST:PORT"):
        with scheduler(http_server, timeout=1):
            pass
    assert time.monotonic() - start < 30                # the issue saw 120 s and more


def test_a_server_that_talks_first_in_another_protocol_is_refused(talker):
    with pytest.raises(BadInput, match=r"is not a Dask scheduler \(it answered, but not as a Dask scheduler does\)"):
        with scheduler(talker, timeout=2):
            pass


def test_on_the_command_line_it_is_one_line_exit_2_and_nothing_written(http_server, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("moonshot.simulator.cluster.CONNECT_TIMEOUT", 1.0)
    code, out, err = cli_run(["simulate", "moon", "-n", 100, "-q", "-o", tmp_path / "out.json", "--save",
                              tmp_path / "store", "--scheduler", http_server], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"--scheduler {http_server} is not a Dask scheduler" in err
    assert list(tmp_path.iterdir()) == []


def test_local_n_is_capped_at_the_cores_as_jobs_is(capsys):
    cores = os.cpu_count() or 1
    assert local_workers(cores) == cores and capsys.readouterr().err == ""
    assert local_workers(cores + 62) == cores
    assert capsys.readouterr().err == (f"moonshot: note: --scheduler local:{cores + 62} capped at local:{cores}, the "
                                       "cores this machine has\n")


def test_a_capped_local_cluster_gives_the_numbers_of_jobs_1(capsys):
    cores = os.cpu_count() or 1
    args = ["simulate", "shoot-the-moon", "-n", 3_000, "--seed", 4, "-f", "json", "-q"]
    code, want, err = cli_run(args, capsys)
    assert code == 0, err
    code, got, err = cli_run([*args, "--scheduler", f"local:{cores + 30}"], capsys)
    assert code == 0 and got == want, err
    assert f"capped at local:{cores}" in err
    assert json.loads(got)["meta"]["hands"] == 3_000


def _children(pid: int) -> int:
    """How many processes have `pid` as their parent (Linux /proc)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                count += 1
        except (OSError, ValueError, IndexError):
            continue
    return count


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts worker processes in /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_at_any_moment_of_a_local_cluster_run_prints_one_line(signum):
    """The signal lands as the cluster's first process starts, and later while it connects and runs
    chunks (waiting longer each time); every time the run ends with its one line and no library's
    traceback after it."""
    for wait in (0.0, 0.3, 1.0, 3.0):
        proc = subprocess.Popen([*moonshot(), "simulate", "moon", "-n", "5000000", "-q", "--scheduler", "local:2"],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 120
        while _children(proc.pid) == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)               # until the cluster's first process is there
        time.sleep(wait)
        proc.send_signal(signum)
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"still running 120 s after the signal (sent {wait} s into the cluster's start)")
        if proc.returncode == 0:       # finished before the signal: nothing to see at this moment
            continue
        word, code = ("interrupted", 130) if signum == signal.SIGINT else ("terminated", 143)
        assert proc.returncode == code, (wait, err)
        assert err == f"moonshot: {word}; no output written\n", (wait, err)


def test_a_dask_scheduler_still_passes_the_handshake_check():
    from distributed import LocalCluster
    from moonshot.simulator.cluster import not_dask
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        assert not_dask(cluster.scheduler_address, 5) is None
    port = socket.socket()
    port.bind(("127.0.0.1", 0))
    free = port.getsockname()[1]
    port.close()
    with pytest.raises(OSError):                         # nothing listens: unreachable, as before
        not_dask(f"tcp://127.0.0.1:{free}", 0.5)
    assert sys.modules["distributed"]
