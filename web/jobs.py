"""Long runs off the request thread: a bounded number at once (`slots`, by default the server's
--jobs), the rest in a bounded queue shown as "waiting, N ahead", and past it a 429. Progress is
counted by the library's progress callback; a cancel (or a closed tab: no status request for
`abandon_after` seconds) sets the run's flag, which the library hears inside the section that runs
(simulator.stopping: between chunks, inside the engines' loops, and through a stop file in joblib's
workers) as well as from the progress callback.

The page's own work (a deal, an answer, a hint, a hand link: `Runner.work`) takes one of the same
slots while it computes, so all the server computes at once is bounded by one number. It waits
for a slot at most `page_wait` seconds, ahead of the runs waiting (a person waits for it), with at
most twice the slots waiting; beyond, a 429 with Retry-After. It hears a stop as runs do: when the
server stops, the page's connection closes, or the caller's `stop` names a reason (a dropped hand).

Every run calls a library entry point with its own seed, so two runs at once (two browser tabs)
cannot change each other's numbers; they only share the machine's cores.
"""
from __future__ import annotations

import asyncio
import math
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.web.forms import FieldError

KEEP = 20            # finished runs kept for their pages; the oldest go first
KEEP_FOR = 900.0     # seconds a finished run (and its result) is kept at most
STOP_WAIT = 2.0      # seconds a stopping server waits for its cancelled runs to end (the whole stop: within 5 s)
WORKERS_IDLE = 3600  # seconds joblib's workers wait for the server's next run before they exit (joblib: 300)
WATCH_EVERY = 1.0    # seconds between the abandon watch's looks
PAGE_WAIT = 2.0      # seconds the page's own work waits for a slot before its 429
PAGE_LOOK = 0.1      # seconds between looks of waiting or working page work (server stopping? page gone?)
RETRY_PAGE = 2       # Retry-After (s) when page work holds the slots: an answer takes seconds at most
RETRY_MAX = 60       # Retry-After's most: a run's own pace may promise an hour


class Cancelled(Exception):
    """Raised from the progress callback when the page cancels (or abandons) a run."""


class Busy(FieldError):
    """Every slot runs and the queue is full: HTTP 429 with one line and a Retry-After."""

    def __init__(self, message: str, retry_after: int = RETRY_PAGE):
        super().__init__("form", message, 429)
        self.headers = {"Retry-After": str(retry_after)}


class Closing(FieldError):
    """The server is stopping: no new work (HTTP 503)."""

    def __init__(self):
        super().__init__("form", "the server is stopping; accepted: the same request once it is started again", 503)


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


class _Waiter:
    """Page work waiting for a slot: `granted` once a freed slot is handed to it, `event` set then
    (from any thread, through its loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop, self.event, self.granted = loop, asyncio.Event(), False

    def wake(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self.event.set)
        except RuntimeError:             # its loop has closed (the server stopped): nobody waits
            pass


class Runner:
    """Runs jobs in threads, at most `slots` at once (-1: one per core); up to `queue` more wait
    (default twice the slots) and the rest are refused (Busy). Finished runs are kept KEEP at
    most, KEEP_FOR seconds at most. One watch thread cancels abandoned runs. The page's own work
    (`work`) takes the same slots."""

    def __init__(self, abandon_after: float = 60.0, slots: int = 1, queue: int | None = None,
                 page_wait: float = PAGE_WAIT):
        self.jobs: dict[str, Job] = {}
        self.abandon_after = abandon_after
        self.slots = max(1, os.cpu_count() or 1) if slots < 0 else max(1, slots)
        self.queue_max = 2 * self.slots if queue is None else max(0, queue)
        self.waiting: deque[Job] = deque()                           # in order
        self._pending: dict[str, Callable[[], None]] = {}           # a waiting run's start
        self.running = 0                                             # slots taken, by runs and page work
        self.pages: deque[_Waiter] = deque()                         # page work waiting (before the runs)
        self.page_running = 0                                        # slots page work holds
        self.page_queue, self.page_wait = 2 * self.slots, page_wait
        self.closing = False                                         # the server is stopping
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None

    def start(self, label: str, total: int, work: Callable[..., Any], with_job: bool = False) -> Job:
        """Run work(progress) (or work(progress, job)) in a thread, now or once a slot frees; its
        return value becomes the job's result. Busy when the queue is full."""
        with self._lock:
            if self.closing:
                raise Closing()
            self._forget_old()
            if self.running >= self.slots and len(self.waiting) >= self.queue_max:
                wait = self._retry_after()
                raise Busy(f"the server is busy: {self._holders()} and {len(self.waiting)} run(s) waiting; accepted: "
                           f"a new run once one ends, in about {wait} s (Retry-After; at most {self.slots} at once, "
                           f"{self.queue_max} waiting)", wait)
            job = Job(secrets.token_urlsafe(12), label, total)      # its id is all a page needs to see or cancel it
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
        """A slot is free: waiting page work takes it first (a person waits for it), else the first
        waiting run (neither once the server is stopping: they hear it and end)."""
        with self._lock:
            if self.pages and not self.closing:
                waiter = self.pages.popleft()
                waiter.granted = True
                self.page_running += 1
                waiter.wake()
                return
            go = None
            while self.waiting and go is None and not self.closing:
                job = self.waiting.popleft()
                go = self._pending.pop(job.id, None)
            if go is None:
                self.running -= 1
        if go is not None:
            go()

    # ------------------------------------------------------------------ the page's own work
    async def work(self, fn: Callable[[], Any], stop: Callable[[], str | None] | None = None,
                   gone: Callable[[], Awaitable[bool]] | None = None) -> Any:
        """fn() in a thread of its own once a slot is free (Busy, 429, after page_wait), its value or
        its exception. It hears a stop (simulator.stopping) when the server stops (Closing, 503), when
        `gone()` says the page's connection closed, or when `stop()` names a reason (a FieldError of
        it). A daemon thread, not asyncio's pool: work that hears no stop cannot hold the exit."""
        await self._page_slot(gone)
        if self.closing:                                  # handed a slot as the server began to stop
            self._page_done()
            raise Closing()
        loop, ended, out = asyncio.get_running_loop(), asyncio.Event(), {}
        left = threading.Event()                          # the page went away, or its request was cancelled

        def should_stop() -> bool:
            return self.closing or left.is_set() or (stop is not None and stop() is not None)

        def body() -> None:
            try:
                with stopping.watching(stop=should_stop):
                    out["value"] = fn()
            except BaseException as exc:        # noqa: BLE001 - handed to the request, raised there
                out["error"] = exc
            finally:
                self._page_done()
                try:
                    loop.call_soon_threadsafe(ended.set)
                except RuntimeError:            # the loop has closed: the server stopped, nobody waits
                    pass
        threading.Thread(target=body, name="moonshot-page-work", daemon=True).start()
        try:
            while not ended.is_set():
                try:
                    await asyncio.wait_for(ended.wait(), PAGE_LOOK)
                except asyncio.TimeoutError:
                    if gone is not None and not left.is_set() and await gone():
                        left.set()
        except asyncio.CancelledError:
            left.set()
            raise
        error = out.get("error")
        if isinstance(error, stopping.Stopped):
            if self.closing:
                raise Closing() from None
            why = stop() if stop is not None else None
            raise FieldError("form", why or "stopped: the page went away", 400 if why else 503) from None
        if error is not None:
            raise error
        return out.get("value")

    async def _page_slot(self, gone: Callable[[], Awaitable[bool]] | None) -> None:
        """Take a slot for page work: at once, or after waiting at most page_wait (Busy)."""
        with self._lock:
            if self.closing:
                raise Closing()
            if self.running < self.slots:
                self.running += 1
                self.page_running += 1
                return
            if len(self.pages) >= self.page_queue:
                raise self._busy_page()
            waiter = _Waiter(asyncio.get_running_loop())
            self.pages.append(waiter)
        end = time.monotonic() + self.page_wait
        try:
            while not waiter.granted:
                if self.closing or time.monotonic() >= end or (gone is not None and await gone()):
                    with self._lock:
                        if not waiter.granted:
                            self.pages.remove(waiter)
                            raise Closing() if self.closing else self._busy_page()
                    return
                try:
                    await asyncio.wait_for(waiter.event.wait(), PAGE_LOOK)
                except asyncio.TimeoutError:
                    pass
        except asyncio.CancelledError:
            with self._lock:
                granted = waiter.granted
                if not granted:
                    self.pages.remove(waiter)
            if granted:
                self._page_done()
            raise

    def _page_done(self) -> None:
        with self._lock:
            self.page_running -= 1
        self._next()

    def _busy_page(self) -> Busy:
        wait = self._retry_after()
        return Busy(f"the server is busy: {self._holders()} and {len(self.pages)} more request(s) waiting for one; "
                    f"accepted: the same request again in about {wait} s (Retry-After), or a server started with "
                    "more --jobs", wait)

    def _holders(self) -> str:
        """What holds the slots, in words (called under the lock)."""
        runs = self.running - self.page_running
        return (f"{runs} run(s) and {self.page_running} deal(s), answer(s), hint(s) or hand link(s) hold its "
                f"{self.slots} slot(s)")

    def _retry_after(self) -> int:
        """Seconds until a slot is likely free: the running run nearest its end at its own pace, or
        RETRY_PAGE where page work holds a slot (or no run has counted yet)."""
        now, guesses = time.monotonic(), []
        for job in list(self.jobs.values()):
            if job.state == "running" and job.done > 0:
                guesses.append((now - job.started) * (job.total - job.done) / job.done)
        if self.page_running or not guesses:
            guesses.append(RETRY_PAGE)
        return int(min(max(math.ceil(min(guesses)), 1), RETRY_MAX))

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

    def close(self) -> None:
        """The server is stopping: every run and all page work hear it at their next check, and no
        new work starts. Flags only, no lock: a signal handler calls it (web.server.Server), on the
        thread that may hold the lock."""
        self.closing = True
        for job in list(self.jobs.values()):
            job.cancel_requested = True

    def stop_all(self) -> None:
        """The server is stopping (Ctrl-C, or a SIGTERM): cancel every run and end joblib's worker
        processes now, rather than wait for the chunks they are playing (a run in them then ends as
        cancelled); idle ones too, which would otherwise outlive the server by WORKERS_IDLE. Waits
        STOP_WAIT at most for the runs and page work to end."""
        from moonshot.simulator.runner import end_workers
        self.close()
        for job in list(self.jobs.values()):
            self.cancel(job.id)
        threading.excepthook = _quiet_pool(threading.excepthook)
        end_workers()                                # killed now, then waited for
        end = time.monotonic() + STOP_WAIT           # the runs see it and clean up (the runner's step files)
        while ((self.page_running or any(j.state == "running" for j in list(self.jobs.values())))
               and time.monotonic() < end):
            time.sleep(0.05)

    def _forget_old(self) -> None:
        """Drop finished runs beyond KEEP or older than KEEP_FOR (called under the lock)."""
        now = time.monotonic()
        finished = [j for j in self.jobs.values() if not j.active]
        for k, job in enumerate(finished):
            if k < len(finished) - KEEP or now - (job.finished or now) > KEEP_FOR:
                del self.jobs[job.id]


def _quiet_pool(hook):
    """threading.excepthook that says nothing of the process pool's own threads (loky's executor
    manager fails with a KeyError when its workers are killed under a chunk), the rest as `hook`."""
    def quiet(args) -> None:
        if args.thread is None or args.thread.name not in ("ExecutorManagerThread", "QueueFeederThread"):
            hook(args)
    return quiet


def ready() -> None:
    """Import, on the thread that starts the server, what runs and the warm-up import: joblib's pool,
    the analyses, each game's hooks, strategies and page parts. Two threads importing one package at
    once can find it half made: a first run racing the warm-up failed with "internal error:
    ImportError: cannot import name 'ParallelBackendBase' from partially initialized module"."""
    from moonshot.analysis import common, hand_check, hints, review  # noqa: F401
    from moonshot.simulator.games import GAMES
    from moonshot.strategies.base import registered
    workers_kept()
    for game in GAMES.values():
        registered(game.name)
        _ = game.hooks, game.page, game.hand_analyzer


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
