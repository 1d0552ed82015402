"""A full disk on output (issue 38 item 5): every output kind (--history, --save-hands, -o in each
format, --save, report --out, review --out, runs show --out) ends in one line naming the file and
the system's reason, exit 2, and leaves nothing half-written: no partial file, no temporary file, an
earlier report or store as it was. The fault is injected (ENOSPC from the writes of temporary
files, after some bytes are written, so a partial file does exist until it is cleared); one test
also fills a real tiny file system where this machine lets a test mount one. Stale temporary files a
killed writer left are removed by the next write of the same target, and only those."""
from __future__ import annotations

import builtins
import errno
import fcntl
import io
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from moonshot.simulator import files
from moonshot.simulator.errors import BadInput
from tests.test_cli import run as cli_run
from tests.test_store import ROOT, moonshot, snapshot

FULL = f"{os.strerror(errno.ENOSPC)} (ENOSPC)"
_TEMPORARY = re.compile(r"^\..+\.tmp$")


_OPENED: dict[int, str] = {}         # id of a pyarrow OSFile -> its path (pandas writes Parquet through one)


def temporary(where) -> bool:
    """Whether `where` (a path or an open file) is a temporary file of an atomic write, or inside a
    temporary folder (a report's)."""
    name = where if isinstance(where, (str, os.PathLike)) else _OPENED.get(id(where), getattr(where, "name", None))
    if not isinstance(name, (str, os.PathLike)):          # a descriptor, or a handle over an opened file
        return False
    return any(_TEMPORARY.match(part) for part in Path(os.fspath(name)).parts)


class Disk:
    """Fills up after `room` temporary files were written whole: from then on every write of one
    writes a little, then fails with ENOSPC (as a disk that just filled up does)."""

    def __init__(self):
        self.room = None          # None: not armed
        self.files = 0
        self.faults = 0

    def arm(self, room: int = 0) -> None:
        self.room, self.files = room, 0

    def opened(self) -> bool:
        """A temporary file starts being written: whether this one finds the disk full."""
        if self.room is None:
            return False
        self.files += 1
        return self.files > self.room

    def fault(self) -> OSError:
        self.faults += 1
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class FullFile:
    """An open file whose writes past a few bytes fail with ENOSPC."""

    def __init__(self, fh, disk: Disk):
        self._fh, self._disk, self._room = fh, disk, 16

    def write(self, data):
        if len(data) <= self._room:
            self._room -= len(data)
            return self._fh.write(data)
        self._fh.write(data[:self._room])
        self._fh.flush()
        self._room = 0
        raise self._disk.fault()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()

    def __iter__(self):
        return iter(self._fh)

    def __getattr__(self, name):
        return getattr(self._fh, name)


@pytest.fixture
def disk(monkeypatch):
    """The Disk behind every write of a temporary file: Python's open (Path.write_text, the history's
    stream, pandas' CSV, matplotlib's PNG) and pyarrow's Parquet writers (chunks, per-hand rows,
    -f parquet, a report's tables). Arm it to fill up."""
    state = Disk()
    real_open = builtins.open

    def full_open(file, mode="r", *args, **kwargs):
        fh = real_open(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax") and temporary(file) and state.opened():
            return FullFile(fh, state)
        return fh

    monkeypatch.setattr(builtins, "open", full_open)
    monkeypatch.setattr(io, "open", full_open)

    real_write_table = pq.write_table

    def write_table(table, where, *args, **kwargs):
        if temporary(where) and state.opened():
            real_write_table(table.slice(0, 1), where, *args, **kwargs)     # a partial file is there
            raise state.fault()
        return real_write_table(table, where, *args, **kwargs)

    class Writer(pq.ParquetWriter):
        def __init__(self, where, *args, **kwargs):
            super().__init__(where, *args, **kwargs)
            self._full = temporary(where) and state.opened()

        def write_table(self, table, *args, **kwargs):
            super().write_table(table, *args, **kwargs)
            if self._full:
                raise state.fault()

    real_osfile = pa.OSFile

    def osfile(path, *args, **kwargs):
        stream = real_osfile(path, *args, **kwargs)
        _OPENED[id(stream)] = os.fspath(path)
        return stream

    monkeypatch.setattr(pa, "OSFile", osfile)
    monkeypatch.setattr(pq, "write_table", write_table)
    monkeypatch.setattr(pq, "ParquetWriter", Writer)
    return state


def one_line(code: int, out: str, err: str, name: str) -> str:
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("moonshot: error: cannot write '") and f"{name}'" in lines[0], err
    assert FULL in lines[0] and "accepted:" in lines[0], err
    return lines[0]


# ------------------------------------------------------------------------------------------
# simulate's outputs
# ------------------------------------------------------------------------------------------

SIMULATE = ["simulate", "moon", "-n", 3_000, "--seed", 4, "-q"]


@pytest.mark.parametrize("name", ["out.json", "out.csv", "out.txt", "out.parquet", "h.jsonl", "h.parquet"])
def test_a_full_disk_on_simulates_outputs_is_one_line_and_leaves_nothing(tmp_path, capsys, disk, name):
    option = {"h.jsonl": "--history", "h.parquet": "--save-hands"}.get(name, "-o")
    (tmp_path / "keep.txt").write_text("mine")
    before = snapshot(tmp_path)
    disk.arm()
    code, out, err = cli_run([*SIMULATE, option, tmp_path / name], capsys)
    one_line(code, out, err, name)
    assert disk.faults == 1
    assert snapshot(tmp_path) == before                 # no partial file, no temporary file


def test_a_full_disk_leaves_an_earlier_file_of_that_name_as_it_was(tmp_path, capsys, disk):
    (tmp_path / "out.json").write_text('{"earlier": true}\n')
    disk.arm()
    code, out, err = cli_run([*SIMULATE, "-o", tmp_path / "out.json"], capsys)
    one_line(code, out, err, "out.json")
    assert (tmp_path / "out.json").read_text() == '{"earlier": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


# ------------------------------------------------------------------------------------------
# run stores
# ------------------------------------------------------------------------------------------

STORED = ["simulate", "shoot-the-moon", "-n", 5 * 65_536, "--seed", 6, "-f", "json", "-q"]


def test_a_full_disk_mid_save_keeps_the_chunks_done_and_the_run_resumes_to_the_same_numbers(tmp_path, capsys,
                                                                                               disk):
    run = tmp_path / "run"
    disk.arm(room=4)                  # the manifest (made, then its part), chunks 0 and 1; chunk 2 finds it full
    code, out, err = cli_run([*STORED, "--save", run], capsys)
    line = one_line(code, out, err, "00-hands-000002.parquet")
    assert f"--resume {run}" in line
    assert sorted(p.name for p in (run / "chunks").iterdir()) == ["00-hands-000000.parquet", "00-hands-000001.parquet"]
    assert not [p for p in run.rglob(".*") if p.name != ".lock"]        # no temporary file
    disk.arm(room=10**6)              # room again
    code, resumed, err = cli_run([*STORED, "--resume", run], capsys)
    assert code == 0, err
    code, want, err = cli_run(STORED, capsys)
    assert resumed == want


def test_a_full_disk_as_a_new_store_starts_leaves_no_store(tmp_path, capsys, disk):
    disk.arm()
    code, out, err = cli_run([*STORED, "--save", tmp_path / "run"], capsys)
    line = one_line(code, out, err, "manifest.json")
    assert "nothing is kept" in line
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_on_a_stores_result_keeps_every_chunk(tmp_path, capsys, disk):
    run = tmp_path / "run"
    disk.arm(room=2 + 5)              # the manifest twice, five chunks; then result.json
    code, out, err = cli_run([*STORED, "--save", run], capsys)
    line = one_line(code, out, err, "result.json")
    assert f"--resume {run}" in line and len(list((run / "chunks").iterdir())) == 5
    assert not (run / "result.json").exists()


def test_a_full_disk_on_runs_show_out(tmp_path, capsys, disk):
    code, want, err = cli_run([*STORED[:3], 65_536, *STORED[4:], "--save", tmp_path / "run"], capsys)
    assert code == 0, err
    before = snapshot(tmp_path)
    for name in ("shown.json", "shown.csv", "shown.parquet"):
        disk.arm()
        code, out, err = cli_run(["runs", "show", tmp_path / "run", "-o", tmp_path / name], capsys)
        one_line(code, out, err, name)
    assert snapshot(tmp_path) == before


# ------------------------------------------------------------------------------------------
# reports and reviews
# ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """A short review (one Shoot the Moon hand, 8 worlds): the CLI's review is handed this result."""
    from moonshot.analysis.review import review
    folder = tmp_path_factory.mktemp("history")
    code = subprocess.run([*moonshot(), "simulate", "shoot-the-moon", "-n", "1", "-q", "--history",
                           str(folder / "h.jsonl")], cwd=ROOT, capture_output=True).returncode
    assert code == 0
    return folder / "h.jsonl", review(folder / "h.jsonl", worlds=8)


@pytest.mark.parametrize("name", ["r.md", "r.html", "r.json", "r.csv", "r.parquet", "report"])
def test_a_full_disk_on_review_out_is_one_line_and_leaves_nothing(tmp_path, capsys, disk, monkeypatch, reviewed,
                                                                  name):
    history, result = reviewed
    monkeypatch.setattr("moonshot.analysis.review.review", lambda *args, **kwargs: result)
    if name == "report":              # an earlier report in the folder stays as it was
        code, out, err = cli_run(["review", history, "-q", "-o", tmp_path / name], capsys)
        assert code == 0 and (tmp_path / name / "report.md").is_file(), err
    before = snapshot(tmp_path)
    disk.arm()
    code, out, err = cli_run(["review", history, "-q", "-o", tmp_path / name], capsys)
    one_line(code, out, err, name)
    assert snapshot(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ([name] if name == "report" else [])


def _small_report(out, hands, seed, jobs, quiet=False):
    """A game's report in miniature (a table and a figure), written as build_report writes one."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from moonshot.reports.document import Document
    doc = Document("small", "shoot-the-moon")
    doc.table("numbers", pd.DataFrame({"n": [hands], "seed": [seed]}), "what")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    doc.figure("line", fig, "a line")
    return doc.write(out)


@pytest.mark.parametrize("earlier", [False, True])
def test_a_full_disk_on_report_out_is_one_line_and_an_earlier_report_stays(tmp_path, capsys, disk, monkeypatch,
                                                                           earlier):
    import moonshot.reports.shoot_the_moon as pages
    monkeypatch.setattr(pages, "build_report", _small_report)
    args = ["report", "shoot-the-moon", "-n", 1_000, "-q", "-o", tmp_path / "rep"]
    if earlier:
        code, out, err = cli_run(args, capsys)
        assert code == 0 and (tmp_path / "rep" / "figures" / "line.png").is_file(), err
    before = snapshot(tmp_path)
    for room in range(5):             # the figure, the table's CSV and Parquet, report.md, report.html
        disk.arm(room)
        code, out, err = cli_run(args, capsys)
        assert code == 2, (room, disk.files)
        one_line(code, out, err, "rep")
        assert snapshot(tmp_path) == before
        assert [p.name for p in tmp_path.iterdir()] == (["rep"] if earlier else [])


def test_the_library_says_the_same_in_a_bad_input(tmp_path, disk, monkeypatch):
    import moonshot
    import moonshot.reports.shoot_the_moon as pages
    monkeypatch.setattr(pages, "build_report", _small_report)
    disk.arm()
    with pytest.raises(BadInput, match=re.escape(FULL)):
        moonshot.report("shoot-the-moon", tmp_path / "rep", hands=1_000)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------------------
# a real full file system
# ------------------------------------------------------------------------------------------

@pytest.fixture
def tiny_fs(tmp_path):
    """A 256 KiB tmpfs, filled to the last byte (skipped where this test may not mount one)."""
    where = tmp_path / "tiny"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        fd = os.open(where / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        os.close(fd)
        yield where
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


@pytest.mark.parametrize("option,name", [("-o", "out.json"), ("-o", "out.parquet"), ("--history", "h.jsonl"),
                                         ("--save-hands", "h.parquet"), ("--save", "run")])
def test_a_really_full_file_system(tiny_fs, capsys, option, name):
    before = snapshot(tiny_fs)
    code, out, err = cli_run([*SIMULATE, option, tiny_fs / name], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "moonshot: error: cannot write '" in err and FULL in err
    assert snapshot(tiny_fs) == before and sorted(p.name for p in tiny_fs.iterdir()) == ["filler"]


# ------------------------------------------------------------------------------------------
# stale temporary files
# ------------------------------------------------------------------------------------------

def _aged(path: Path, seconds: float = 3600) -> Path:
    past = time.time() - seconds
    os.utime(path, (past, past))
    return path


def test_the_next_write_clears_what_a_killed_writer_left_and_nothing_else(tmp_path):
    target = tmp_path / "h.jsonl"
    for name in (".h.jsonl.k1lled_0.tmp",      # a killed writer's: removed
                 ".h.jsonl.alive_01.tmp",      # a live writer's: locked
                 ".g.jsonl.k1lled_0.tmp",      # another target's
                 ".h.jsonl.notours.tmp"):      # not the pattern (7 characters)
        (tmp_path / name).write_bytes(b"half a history")
        _aged(tmp_path / name)
    (tmp_path / ".h.jsonl.young_01.tmp").write_bytes(b"")     # made after this process started
    (tmp_path / "stale-folder").mkdir()
    folder = tmp_path / ".h.jsonl.k1lled_1.tmp"                # a killed report's folder: removed
    folder.mkdir()
    (folder / "figure.png").write_bytes(b"png")
    _aged(folder)
    fd = os.open(tmp_path / ".h.jsonl.alive_01.tmp", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        files.atomic_write(target, lambda p: p.write_text("whole\n"))
    finally:
        os.close(fd)
    assert target.read_text() == "whole\n"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([".h.jsonl.alive_01.tmp", ".h.jsonl.young_01.tmp", ".g.jsonl.k1lled_0.tmp",
                           ".h.jsonl.notours.tmp", "h.jsonl", "stale-folder"]), left


def test_a_killed_history_run_leaves_a_temporary_file_the_next_run_removes(tmp_path):
    history = tmp_path / "h.jsonl"
    proc = subprocess.Popen([*moonshot(), "simulate", "shoot-the-moon", "-n", "2000000", "-q", "--history",
                             str(history)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and \
            not any(p.stat().st_size > 0 for p in tmp_path.glob(".h.jsonl.*.tmp")):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = list(tmp_path.glob(".h.jsonl.*.tmp"))
    assert len(left) == 1 and not history.exists()                       # what the issue saw
    code = subprocess.run([*moonshot(), "simulate", "shoot-the-moon", "-n", "10", "-q", "--history", str(history)],
                          cwd=ROOT, capture_output=True).returncode
    assert code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["h.jsonl"]
    assert len(history.read_text().splitlines()) == 10
    json.loads(history.read_text().splitlines()[0])
