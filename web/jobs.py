"""Long runs off the request thread: one thread per run, progress counted by the library's
progress callback, and a cancel that raises from that callback (the runner then stops handing
out chunks and joblib frees its workers).

Every run calls a library entry point with its own seed, so two runs at once (two browser tabs)
cannot change each other's numbers; they only share the machine's cores.
"""
from __future__ import annotations

import itertools
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from moonshot.simulator.errors import BadInput

KEEP = 20            # finished runs kept for their pages; the oldest go first
STOP_WAIT = 5.0      # seconds a stopping server waits for its cancelled runs to end
WORKERS_IDLE = 3600  # seconds joblib's workers wait for the server's next run before they exit (joblib: 300)


class Cancelled(Exception):
    """Raised from the progress callback when the page cancels (or abandons) a run."""


@dataclass
class Job:
    id: str
    label: str
    total: int
    done: int = 0
    state: str = "running"          # running, done, failed, cancelled
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    first_progress: float | None = None   # seconds from the start to the first count (a step or a chunk)
    finished: float | None = None
    cancel_requested: bool = False
    seen: float = field(default_factory=time.monotonic)     # last time a page asked about it

    def progress(self, n: int) -> None:
        if self.cancel_requested:
            raise Cancelled
        self.done = min(self.total, self.done + n)
        if self.first_progress is None:
            self.first_progress = time.monotonic() - self.started

    def status(self) -> dict:
        self.seen = time.monotonic()
        end = self.finished or time.monotonic()
        return {"id": self.id, "label": self.label, "state": self.state, "done": self.done, "total": self.total,
                "elapsed": round(end - self.started, 2), "error": self.error,
                "first_progress": None if self.first_progress is None else round(self.first_progress, 2)}


class Runner:
    """Starts jobs in threads and keeps the last few. `abandon_after` seconds without a status
    request (the tab was closed) cancels a run."""

    def __init__(self, abandon_after: float = 60.0):
        self.jobs: dict[str, Job] = {}
        self.abandon_after = abandon_after
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, label: str, total: int, work: Callable[..., Any], with_job: bool = False) -> Job:
        """Run work(progress) (or work(progress, job)) in a thread; its return value becomes the
        job's result."""
        with self._lock:
            job = Job(f"{next(self._ids)}-{int(time.time() * 1000) % 100000}", label, total)
            self.jobs[job.id] = job
            self._forget_old()
        args = (job.progress, job) if with_job else (job.progress,)

        def body() -> None:
            try:
                with workers_kept():
                    job.result = work(*args)
                job.state = "done"
            except Cancelled:
                job.state = "cancelled"
            except BadInput as exc:
                job.state, job.error = "failed", str(exc)
            except Exception as exc:            # a bug: the page says so in one line, the log has the rest
                if job.cancel_requested:        # the server stopped its workers under it
                    job.state = "cancelled"
                    return
                import traceback
                traceback.print_exc()
                job.state, job.error = "failed", f"internal error: {type(exc).__name__}: {exc}"
            finally:
                job.finished = time.monotonic()
        threading.Thread(target=body, name=f"moonshot-job-{job.id}", daemon=True).start()
        threading.Thread(target=self._watch, args=(job,), daemon=True).start()
        return job

    def _watch(self, job: Job) -> None:
        while job.state == "running":
            time.sleep(1.0)
            if time.monotonic() - job.seen > self.abandon_after:
                job.cancel_requested = True

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is not None and job.state == "running":
            job.cancel_requested = True
        return job

    def stop_all(self) -> None:
        """The server is stopping (Ctrl-C, or a SIGTERM): cancel every run and end joblib's worker
        processes now, rather than wait for the chunks they are playing (a run in them then ends as
        failed); idle ones too, which would otherwise outlive the server by WORKERS_IDLE."""
        for job in list(self.jobs.values()):
            job.cancel_requested = True
        from joblib.externals.loky import reusable_executor
        executor = reusable_executor._executor
        if executor is not None:
            executor.shutdown(wait=True, kill_workers=True)     # killed now, then waited for
        end = time.monotonic() + STOP_WAIT           # the runs see it and clean up (the runner's step files)
        while any(j.state == "running" for j in list(self.jobs.values())) and time.monotonic() < end:
            time.sleep(0.05)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state != "running"]
        for job in finished[:max(0, len(finished) - KEEP)]:
            del self.jobs[job.id]


def warm(jobs: int) -> None:
    """Get the runs' processes ready before the first request: with --jobs above 1, start joblib's
    workers (they stay up WORKERS_IDLE seconds between runs), and in each, as in this
    process, import the games' analyses and load their compiled code (Moon's solver, Hit the
    Deck's kernels) by analysing a few deals of each game's example hand. Otherwise a first run's
    first count waits seconds for all that. Numbers are never affected: runs build everything
    from their own seeds."""
    if jobs != 1:
        threading.Thread(target=_quietly, args=(_warm_workers, jobs), name="moonshot-warm-workers",
                         daemon=True).start()
    _quietly(_warm_one)


def _quietly(fn, *args) -> None:
    try:
        fn(*args)
    except Exception:              # noqa: BLE001 - a warm-up only saves time; a run reports its own errors
        pass


def workers_kept():
    """The runs' joblib settings: its process pool, whose workers stay WORKERS_IDLE seconds between
    runs (every run and the warm-up ask the same, so they share the workers)."""
    from joblib import parallel_config
    return parallel_config(backend="loky", idle_worker_timeout=WORKERS_IDLE)


def _warm_workers(jobs: int) -> None:
    from joblib import Parallel, delayed
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    with workers_kept():
        Parallel(n_jobs=jobs, batch_size=1)(delayed(_warm_one)() for _ in range(2 * workers))


def _warm_one() -> None:
    from moonshot.analysis.common import make_setup
    from moonshot.simulator.games import GAMES
    from moonshot.web.pieces import EXAMPLES
    for name, game in GAMES.items():
        game.hand_analyzer(make_setup(name), EXAMPLES[name][1], "first", 8, 0, 1)
