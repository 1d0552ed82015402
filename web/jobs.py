"""Long runs off the request thread: a bounded number at once (`slots`, by default the server's
--jobs), the rest in a bounded queue shown as "waiting, N ahead", and past it a 429. Progress is
counted by the library's progress callback; a cancel (or a closed tab: no status request for
`abandon_after` seconds) sets the run's flag, which the library hears inside the section that runs
(simulator.stopping: between chunks, inside the engines' loops, and through a stop file in joblib's
workers) as well as from the progress callback.

Every run calls a library entry point with its own seed, so two runs at once (two browser tabs)
cannot change each other's numbers; they only share the machine's cores.
"""
from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.web.forms import FieldError

KEEP = 20            # finished runs kept for their pages; the oldest go first
KEEP_FOR = 900.0     # seconds a finished run (and its result) is kept at most
STOP_WAIT = 5.0      # seconds a stopping server waits for its cancelled runs to end
WORKERS_IDLE = 3600  # seconds joblib's workers wait for the server's next run before they exit (joblib: 300)
WATCH_EVERY = 1.0    # seconds between the abandon watch's looks


class Cancelled(Exception):
    """Raised from the progress callback when the page cancels (or abandons) a run."""


class Busy(FieldError):
    """Every slot runs and the queue is full: HTTP 429 with one line."""

    def __init__(self, message: str):
        super().__init__("form", message, 429)


@dataclass
class Job:
    id: str
    label: str
    total: int
    done: int = 0
    state: str = "running"          # waiting, running, done, failed, cancelled
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    first_progress: float | None = None   # seconds from the start to the first count (a step or a chunk)
    finished: float | None = None
    cancel_requested: bool = False
    detail: str | None = None       # what runs now, e.g. a report's section
    seen: float = field(default_factory=time.monotonic)     # last time a page asked about it
    queue: Any = field(default=None, repr=False)             # the runner's queue while waiting

    def progress(self, n: int) -> None:
        if self.cancel_requested:
            raise Cancelled
        self.done = min(self.total, self.done + n)
        if self.first_progress is None:
            self.first_progress = time.monotonic() - self.started

    @property
    def active(self) -> bool:
        return self.state in ("waiting", "running")

    def status(self) -> dict:
        self.seen = time.monotonic()
        end = self.finished or time.monotonic()
        out = {"id": self.id, "label": self.label, "state": self.state, "done": self.done, "total": self.total,
               "elapsed": round(end - self.started, 2), "error": self.error,
               "first_progress": None if self.first_progress is None else round(self.first_progress, 2),
               "detail": self.detail}
        if self.state == "waiting":
            queue = self.queue
            out["ahead"] = next((k for k, j in enumerate(list(queue or ())) if j is self), 0)
        return out


class Runner:
    """Runs jobs in threads, at most `slots` at once (-1: one per core); up to `queue` more wait
    (default twice the slots) and the rest are refused (Busy). Finished runs are kept KEEP at
    most, KEEP_FOR seconds at most. One watch thread cancels abandoned runs."""

    def __init__(self, abandon_after: float = 60.0, slots: int = 1, queue: int | None = None):
        self.jobs: dict[str, Job] = {}
        self.abandon_after = abandon_after
        self.slots = max(1, os.cpu_count() or 1) if slots < 0 else max(1, slots)
        self.queue_max = 2 * self.slots if queue is None else max(0, queue)
        self.waiting: deque[Job] = deque()                           # in order
        self._pending: dict[str, Callable[[], None]] = {}           # a waiting run's start
        self.running = 0
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None

    def start(self, label: str, total: int, work: Callable[..., Any], with_job: bool = False) -> Job:
        """Run work(progress) (or work(progress, job)) in a thread, now or once a slot frees; its
        return value becomes the job's result. Busy when the queue is full."""
        with self._lock:
            self._forget_old()
            if self.running >= self.slots and len(self.waiting) >= self.queue_max:
                raise Busy(f"the server is busy: {self.running} run(s) running and {len(self.waiting)} waiting; "
                           f"accepted: a new run once one ends (at most {self.slots} at once, "
                           f"{self.queue_max} waiting)")
            job = Job(f"{next(self._ids)}-{int(time.time() * 1000) % 100000}", label, total)
            self.jobs[job.id] = job
            args = (job.progress, job) if with_job else (job.progress,)
            go = lambda: self._launch(job, work, args)            # noqa: E731
            if self.running < self.slots:
                self.running += 1
            else:
                job.state, job.queue = "waiting", self.waiting
                self.waiting.append(job)
                self._pending[job.id], go = go, None
            self._watch_start()
        if go is not None:
            go()
        return job

    def _launch(self, job: Job, work: Callable[..., Any], args: tuple) -> None:
        job.state, job.queue, job.started = "running", None, time.monotonic()

        def body() -> None:
            try:
                with workers_kept(), stopping.watching(stop=lambda: job.cancel_requested):
                    job.result = work(*args)
                job.state = "done"
            except (Cancelled, stopping.Stopped):
                job.state = "cancelled"
            except BadInput as exc:
                job.state, job.error = "failed", str(exc)
            except Exception as exc:            # a bug: the page says so in one line, the log has the rest
                if job.cancel_requested:        # the server stopped its workers under it
                    job.state = "cancelled"
                else:
                    import traceback
                    traceback.print_exc()
                    job.state, job.error = "failed", f"internal error: {type(exc).__name__}: {exc}"
            finally:
                job.finished = time.monotonic()
                if job.state != "done":
                    job.result = None
                self._next()
        threading.Thread(target=body, name=f"moonshot-job-{job.id}", daemon=True).start()

    def _next(self) -> None:
        """A slot is free: the first waiting run takes it."""
        with self._lock:
            go = None
            while self.waiting and go is None:
                job = self.waiting.popleft()
                go = self._pending.pop(job.id, None)
            if go is None:
                self.running -= 1
        if go is not None:
            go()

    def _watch_start(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(target=self._watch, name="moonshot-jobs-watch", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        """Cancel runs no page has asked about for abandon_after seconds; end when none is active."""
        while True:
            time.sleep(WATCH_EVERY)
            now = time.monotonic()
            with self._lock:
                active = [j for j in self.jobs.values() if j.active]
                if not active:
                    self._watcher = None
                    return
            for job in active:
                if now - job.seen > self.abandon_after:
                    self.cancel(job.id)

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is None:
            return None
        with self._lock:
            if job.state == "waiting":              # never started: it leaves the queue now
                self.waiting.remove(job)
                self._pending.pop(job.id, None)
                job.state, job.queue, job.finished = "cancelled", None, time.monotonic()
                return job
        if job.state == "running":
            job.cancel_requested = True
        return job

    def stop_all(self) -> None:
        """The server is stopping (Ctrl-C, or a SIGTERM): cancel every run and end joblib's worker
        processes now, rather than wait for the chunks they are playing (a run in them then ends as
        cancelled); idle ones too, which would otherwise outlive the server by WORKERS_IDLE."""
        from moonshot.simulator.runner import end_workers
        for job in list(self.jobs.values()):
            self.cancel(job.id)
        end_workers()                                # killed now, then waited for
        end = time.monotonic() + STOP_WAIT           # the runs see it and clean up (the runner's step files)
        while any(j.state == "running" for j in list(self.jobs.values())) and time.monotonic() < end:
            time.sleep(0.05)

    def _forget_old(self) -> None:
        """Drop finished runs beyond KEEP or older than KEEP_FOR (called under the lock)."""
        now = time.monotonic()
        finished = [j for j in self.jobs.values() if not j.active]
        for k, job in enumerate(finished):
            if k < len(finished) - KEEP or now - (job.finished or now) > KEEP_FOR:
                del self.jobs[job.id]


def warm(jobs: int) -> None:
    """Get the runs' processes ready before the first request: with --jobs above 1, start joblib's
    workers (they stay up WORKERS_IDLE seconds between runs), and in each, as in this
    process, import the games' analyses and load their compiled code (solvers, kernels) by
    analysing a few deals of each game's example hand. Otherwise a first run's
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
    for name, game in GAMES.items():
        if game.hand_analyzer is not None:
            game.hand_analyzer(make_setup(name), game.page.EXAMPLE, "first", 8, 0, 1)
