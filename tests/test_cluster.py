"""Runs on a real Dask cluster (a scheduler and two worker processes on 127.0.0.1): the same numbers,
byte for byte, as --jobs 1; every chunk goes through the cluster and progress sees each one; a
worker killed mid-run changes nothing; bad --scheduler values are one line, exit 2."""
from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import cloudpickle
import distributed
import pytest

from moonshot.analysis import common
from moonshot.analysis.common import make_setup, run_analysis, simulate
from moonshot.reports.text import render
from moonshot.simulator.cluster import parse, scheduler
from moonshot.simulator.errors import BadInput
from moonshot.simulator.games import GAMES
from tests.test_cli import run as cli_run

ROOT = Path(__file__).resolve().parent.parent
# Functions of this file sent to workers travel by value: pytest names test modules after their
# folder (the repository root is the moonshot package), which a worker cannot import by name.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _warm() -> None:
    for game in GAMES.values():
        __import__(game.analysis)


@pytest.fixture(scope="module")
def cluster():
    """A real scheduler and two single-threaded worker processes (with nannies) on 127.0.0.1."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as c, \
            distributed.Client(c) as client:
        client.run(_warm)
        yield c.scheduler_address, client


def _batches(stream) -> int:
    return sum(1 for t in stream.data if t["key"].startswith("batch_of_"))


@pytest.mark.parametrize("game", list(GAMES))
def test_simulate_on_the_cluster_equals_jobs_1_byte_for_byte(cluster, game):
    address, client = cluster
    setup = make_setup(game)
    hands, chunk = 5_000, 1_000
    want = render(simulate(setup, hands, None, 41, 1, chunk=chunk), "json")
    seen = []
    with distributed.get_task_stream(client) as stream, scheduler(address):
        got = render(simulate(setup, hands, None, 41, 1, progress=seen.append, chunk=chunk), "json")
    assert got == want
    assert seen == [chunk] * (hands // chunk)              # progress sees each finished chunk
    assert _batches(stream) == hands // chunk              # and every chunk ran on the cluster


def test_an_analysis_on_the_cluster_equals_jobs_1(cluster):
    address, client = cluster
    setup = make_setup("shoot-the-moon")
    spec = setup.entry.analyses["hand-odds"]
    want = render(run_analysis(spec, [setup], 140_000, 5, 1, 1), "json")
    seen = []
    with distributed.get_task_stream(client) as stream, scheduler(address):
        got = render(run_analysis(spec, [setup], 140_000, 5, 2, 1, progress=seen.append), "json")
    assert got == want
    assert sum(seen) == 140_000 and _batches(stream) == len(seen) == 3


def test_a_single_chunk_still_goes_through_the_cluster(cluster):
    address, client = cluster
    setup = make_setup("moon")
    want = render(simulate(setup, 300, None, 3, 1), "json")
    with distributed.get_task_stream(client) as stream, scheduler(address):
        got = render(simulate(setup, 300, None, 3, 1), "json")
    assert got == want and _batches(stream) == 1


def _stalling_on(victim: int, task):
    """`task`, except that on the victim's process it does not finish (until the victim is killed)."""
    def stalling(*args):
        if os.getpid() == victim:
            time.sleep(600)
        return task(*args)
    return stalling


def test_a_worker_killed_mid_run_changes_nothing(cluster):
    address, client = cluster
    setup = make_setup("shoot-the-moon")
    hands, chunk = 96_000, 8_000
    args = (setup, False, chunk, False)                  # simulate's chunks of hands
    want = common.run(common._hands_chunk, args, hands, 17, 1, chunk=chunk).tables
    worker, victim = sorted(client.run(os.getpid).items())[0]
    killed = []

    def kill_once_it_holds_a_chunk() -> None:           # it always does: the victim stalls on its first chunk
        deadline = time.monotonic() + 30
        while not client.processing(workers=[worker])[worker] and time.monotonic() < deadline:
            time.sleep(0.01)
        killed.append(len(client.processing(workers=[worker])[worker]))
        os.kill(victim, signal.SIGKILL)

    killer = threading.Thread(target=kill_once_it_holds_a_chunk)
    with distributed.get_task_stream(client) as stream, scheduler(address):
        killer.start()
        got = common.run(_stalling_on(victim, common._hands_chunk), args, hands, 17, 1, chunk=chunk).tables
    killer.join()
    assert killed[0] >= 1                                # it died holding a chunk, which ran again elsewhere
    assert got.keys() == want.keys() and all(got[k].equals(want[k]) for k in want)
    assert _batches(stream) >= hands // chunk
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)
    client.wait_for_workers(2, timeout=30)                 # the nanny brings a new worker up


# ------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("spec", ["dask://127.0.0.1:8786", "tcp://127.0.0.1", "tcp://127.0.0.1:99999", "local:0",
                                  "local:two", "127.0.0.1:8786", ""])
def test_unknown_scheduler_forms_are_refused(spec):
    with pytest.raises(BadInput, match="accepted: tcp://HOST:PORT .* or local:N"):
        parse(spec)


def test_known_forms():
    assert parse("tcp://127.0.0.1:8786") == ("tcp", "tcp://127.0.0.1:8786")
    assert parse("local:3") == ("local", 3)


def test_an_unreachable_scheduler_is_refused_within_the_timeout():
    import time
    start = time.monotonic()
    with pytest.raises(BadInput, match="cannot reach a Dask scheduler within 1 s"):
        with scheduler(f"tcp://127.0.0.1:{_free_port()}", timeout=1):
            pass
    assert time.monotonic() - start < 10


def test_without_dask_distributed_the_message_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None\n"      # as if the cluster extra were not installed
            "from moonshot import cli\n"
            f"cli.app(['simulate', 'moon', '-n', '100', '--scheduler', 'local:1', "
            f"'-o', {str(tmp_path / 'o.json')!r}])\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("moonshot: error: --scheduler needs dask.distributed, which is not installed; accepted: "
                          "pip install 'moonshot[cluster]'\n")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------

def test_every_game_and_an_analysis_through_scheduler_tcp_equal_jobs_1(cluster, capsys):
    address, client = cluster
    runs = [["simulate", game, "-n", 3_000, "--seed", 9] for game in GAMES]
    runs.append(["analyze", "shoot-the-moon", "hand-odds", "-n", 140_000, "--seed", 9])
    for args in runs:
        code, want, err = cli_run([*args, "-f", "json", "-q"], capsys)
        assert code == 0, err
        with distributed.get_task_stream(client) as stream:
            code, got, err = cli_run([*args, "-f", "json", "-q", "--scheduler", address], capsys)
        assert code == 0, err
        assert got == want, args
        assert _batches(stream) >= 1


@pytest.mark.parametrize("spec", ["bogus", "tcp://127.0.0.1", "local:0", "unreachable"])
def test_bad_scheduler_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, spec, monkeypatch):
    monkeypatch.setattr("moonshot.simulator.cluster.CONNECT_TIMEOUT", 1.0)      # the refusal, not the wait, is tested
    if spec == "unreachable":
        spec = f"tcp://127.0.0.1:{_free_port()}"
    code, out, err = cli_run(["simulate", "moon", "-n", 100, "-q", "-o", tmp_path / "out.json", "--save",
                              tmp_path / "store", "--scheduler", spec], capsys)
    assert code == 2 and out == ""
    assert err.startswith("moonshot: error: ") and len(err.strip().splitlines()) == 1, err
    assert "--scheduler" in err and "accepted: tcp://HOST:PORT" in err
    assert list(tmp_path.iterdir()) == []


def test_a_tournament_on_the_cluster_equals_jobs_1(cluster, monkeypatch):
    """Every pair's chunks go to the cluster as one stream (analysis.common.run_many): the same ratings."""
    from moonshot.analysis.tournament import tournament
    address, client = cluster
    monkeypatch.setattr(common, "CHUNK", 4)                 # 9 games a pair: chunks of 4, 4 and 1
    setup, specs = make_setup("shoot-the-moon", 3), ["odd", "greedy", "random"]
    want = render(tournament(setup, specs, 9, 5, 1), "json")
    with distributed.get_task_stream(client) as stream, scheduler(address):
        got = render(tournament(setup, specs, 9, 5, 1), "json")
    assert got == want and _batches(stream) == 3 * 3
