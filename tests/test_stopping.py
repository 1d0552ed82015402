"""Runs stopped from outside end cleanly: SIGTERM (a plain `kill`) exits 143 and leaves what Ctrl-C
leaves (no temporary file beside the target, no worker process running), and a stopped --save run
says how many chunks it kept and the --resume command that finishes it."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "moonshot.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for(condition, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "the run never got going"
        time.sleep(0.1)


def _children(pid: int) -> set[int]:
    """The live processes whose parent is `pid` (read from /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.add(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_on_a_history_run_leaves_no_temporary_file(tmp_path):
    proc = _start(["simulate", "shoot-the-moon", "-n", "5000000", "--history", str(tmp_path / "h.jsonl"), "-q"])
    _wait_for(lambda: any(f.stat().st_size for f in tmp_path.iterdir()))       # the hidden temp file is filling
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err.decode()
    assert err.decode().strip().splitlines()[-1] == "moonshot: terminated; no output written"
    assert list(tmp_path.iterdir()) == []


def test_sigterm_on_a_two_job_run_stops_its_workers():
    proc = _start(["simulate", "shoot-the-moon", "-n", "20000000", "-j", "2", "-q"])
    _wait_for(lambda: len(_children(proc.pid)) >= 2)                # the worker processes are up
    time.sleep(1)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err.decode()
    deadline = time.time() + 5                                       # killed, not left to notice alone
    while any(_alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)]


def test_ctrl_c_on_a_saved_run_says_what_was_kept_and_how_to_resume(tmp_path):
    kept = tmp_path / "run"
    proc = _start(["compare", "shoot-the-moon", "-s", "odd", "--vs", "greedy", "-n", "50000000", "--save", str(kept),
                   "-q"])
    _wait_for(lambda: any((kept / "chunks").glob("*.parquet")))
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    line = err.decode().strip().splitlines()[-1]
    stored = len(list((kept / "chunks").glob("*.parquet")))
    assert proc.returncode == 130
    assert line.startswith(f"moonshot: interrupted; {stored} of 763 chunks kept in {kept}; finish with: ")
    assert line.endswith(f"moonshot compare shoot-the-moon --strategy odd --vs greedy --hands 50000000 --quiet "
                         f"--resume {kept}")
    assert "no output written" not in line and os.path.isdir(kept)
