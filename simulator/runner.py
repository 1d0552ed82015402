"""Chunked, seeded, parallel runs with streaming aggregation.

Work is split into fixed-size chunks. Chunk i draws all its randomness from
``SeedSequence(seed, spawn_key=(i, k))`` for its streams k (:func:`stream_seed`), so its
result does not depend on how many jobs run it or in what order. Each chunk returns a
:class:`Tally` of sums (never per-hand rows); tallies are merged in chunk order as they arrive,
so memory stays flat however many hands are played. joblib runs the chunks; its backend can be
chosen with ``joblib.parallel_config`` (``simulator.cluster.scheduler`` sets a Dask cluster): a
configured backend gets every chunk, and results come back in chunk order whatever finishes first,
so a cluster gives the same numbers as ``--jobs 1``.

With a run store active (``simulator.store.recording``: ``--save``/``--resume``) each finished chunk's
tally is kept in the store as it arrives, and chunks already there are read back instead of being
played again.

A chunk task may also take a ``progress`` keyword: it then calls ``progress(done, of)`` as it works
(e.g. after each trump of a hand analyzer's chunk), and ``run_chunks(..., on_step=)`` hears it as
``on_step(index, done, of)`` before the chunk's tally is back: in this process directly, from
joblib's worker processes through a small file the workers append to and a thread here reads
(:class:`_Steps`). Reports change no number: the chunk's work and seeds are the same with or without them.
The whole-games loops report the games ended so far the same way (simulator.stopping.games_done),
whether or not the task takes ``progress``.

A run stops inside a chunk when its thread has a ``simulator.stopping`` watch that says stop: the
runner checks it between chunks and the engines inside one; chunks in joblib's workers see a stop
file this process creates (their watch is set around the chunk) and come back at once, while the
run itself ends without waiting for them (:func:`_stoppable`); workers whose chunk checks nothing
for DRAIN_LIMIT seconds are ended as the web server ends them when it stops.
"""
from __future__ import annotations

import atexit
import inspect
import json
import os
import queue
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import numpy as np
import pandas as pd

from moonshot.simulator import stopping, store

# A run stopped by a signal or an error cancels the chunks still out: expected, and said in the run's
# one line, so joblib's note of it is not printed beside that line.
warnings.filterwarnings("ignore", message=r"\d+ tasks which were still being processed by the workers have been "
                        "cancelled", category=UserWarning)

if TYPE_CHECKING:
    import pyarrow as pa

CHUNK = 65_536
DEFAULT_SEED = 2026     # the seed of every verb, page and library call given none (the same numbers each time)


def chunk_sizes(total: int, chunk: int = CHUNK) -> list[int]:
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def stream_seed(seed: int, index: int, k: int) -> np.random.SeedSequence:
    """The one recipe for random numbers: stream k of chunk `index` (0 deals, 1 play, 2 chance where
    the game has it, then a verb's own, e.g. the swaps of a card-value run). A chunk's streams do
    not depend on the others, so results are the same for any --jobs; every arm of a paired
    comparison builds fresh generators from the same seeds, so all arms see the same deals."""
    return np.random.SeedSequence(seed, spawn_key=(index, k))


def chunk_seeds(seed: int, index: int, streams: int = 2) -> list[np.random.SeedSequence]:
    return [stream_seed(seed, index, k) for k in range(streams)]


def generators(seeds: list[np.random.SeedSequence]) -> list[np.random.Generator]:
    return [np.random.default_rng(s) for s in seeds]


def chunk_rngs(seed: int, index: int, streams: int = 2) -> list[np.random.Generator]:
    """Fresh generators of chunk `index`'s first `streams` streams (deal, play, chance)."""
    return generators(chunk_seeds(seed, index, streams))


@dataclass(frozen=True)
class Share:
    """A metric that is a mean of yes/no outcomes (e.g. a win averaged over the sides): estimated
    as a mean (mean +- 1.96 SE), read as a percentage."""
    values: np.ndarray


@dataclass(frozen=True)
class Change:
    """A paired difference of yes/no outcomes (e.g. P(win) with A minus with B on the same deal):
    estimated as a mean, read in percentage points."""
    values: np.ndarray


def difference(after, before):
    """after - before row by row (a paired difference): a Change when both are yes/no outcomes or
    read as percentages (Share, Change)."""
    wrapped = isinstance(after, (Share, Change)) and isinstance(before, (Share, Change))
    after, before = getattr(after, "values", after), getattr(before, "values", before)
    d = np.asarray(after, dtype=np.float64) - before
    yes_no = np.asarray(after).dtype == bool and np.asarray(before).dtype == bool
    return Change(d) if wrapped or yes_no else d


def _columns(m: str, v) -> dict[str, object]:
    """The summed columns of one metric: a boolean is a proportion (count of successes only); any
    other metric gets its sum of squares, and a Share or Change a zero marker column saying so."""
    marker = {Share: "__share", Change: "__change"}.get(type(v))
    v = v.values if marker else v
    if np.asarray(v).dtype == bool:
        return {m: np.asarray(v, dtype=np.float64)}
    v = np.asarray(v, dtype=np.float64)
    return {m: v, m + "__sq": v * v, **({m + marker: np.zeros_like(v)} if marker else {})}


@dataclass
class Tally:
    """Named tables of sums: per group key, the count n and, per metric, its sum and sum of squares.

    ``add("sides", {"side": side}, {"chips": x, "p_odd": odd})`` groups N rows by the keys.
    Adding two tallies adds the sums cell by cell, so chunks merge in any grouping.

    A boolean metric is a proportion (a yes/no outcome per row): it is stored as a count of
    successes with no sum of squares, and ``analysis.stats.estimate`` gives it a Wilson interval.
    Any other metric is a mean, stored with its sum of squares for mean +- 1.96 SE; wrapped in
    Share or Change it is read as a percentage or in percentage points (analysis.words).
    """
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)     # optional per-hand lines (hand histories)
    rows: dict[str, np.ndarray] | None = None              # optional per-hand columns (--save-hands)

    def add(self, name: str, keys: dict[str, np.ndarray], metrics: dict[str, np.ndarray]) -> None:
        code, levels = _encode([np.asarray(v) for v in keys.values()])
        counts = np.bincount(code)
        present = np.flatnonzero(counts)
        dense = np.zeros(len(counts), dtype=np.intp)
        dense[present] = np.arange(len(present))
        inverse = dense[code]
        columns = {"n": counts[present].astype(np.int64)}
        for m, v in metrics.items():
            for column, col in _columns(m, v).items():
                columns[column] = np.bincount(inverse, weights=col, minlength=len(present))
        values = _decode(present, levels)
        index = (pd.Index(values[0], name=next(iter(keys))) if len(values) == 1 else
                 pd.MultiIndex.from_arrays(values, names=list(keys)))
        self._merge_table(name, pd.DataFrame(columns, index=index))

    def add_columns(self, name: str, key: str, metrics: dict[str, np.ndarray]) -> None:
        """Like add() when the group is the column: each metric is (N, k), column j is group j."""
        first = next(iter(metrics.values()))
        first = np.asarray(getattr(first, "values", first))
        rows, groups = first.shape
        columns = {"n": np.full(groups, rows, dtype=np.int64)}
        for m, v in metrics.items():
            for column, col in _columns(m, v).items():
                columns[column] = col.sum(axis=0)
        self._merge_table(name, pd.DataFrame(columns, index=pd.Index(np.arange(groups), name=key)))

    def add_counts(self, name: str, keys: dict[str, np.ndarray], counts: np.ndarray) -> None:
        """Counts already tallied per key combination (keys are equal-length 1-d arrays)."""
        index = pd.MultiIndex.from_arrays(list(keys.values()), names=list(keys)) if len(keys) > 1 else \
            pd.Index(next(iter(keys.values())), name=next(iter(keys)))
        self._merge_table(name, pd.DataFrame({"n": np.asarray(counts, dtype=np.int64)}, index=index))

    def _merge_table(self, name: str, summed: pd.DataFrame) -> None:
        old = self.tables.get(name)
        if old is not None and old.index.equals(summed.index) and old.columns.equals(summed.columns):
            # The usual case (every chunk fills the same cells): add the sums in place.
            self.tables[name] = old + summed
            return
        if name in self.tables:
            both = pd.concat([self.tables[name], summed])
            summed = both.groupby(level=list(range(both.index.nlevels)), sort=True).sum()
        self.tables[name] = summed

    def merge(self, other: "Tally") -> "Tally":
        for name, table in other.tables.items():
            self._merge_table(name, table)
        self.records.extend(other.records)
        return self

    def to_arrow(self) -> "pa.Table":
        """Every table of a Tally in one Arrow table: the tables' rows stacked, each table's columns
        (index levels first) named ``<table number>:<column>`` and null on the other tables' rows. The
        layout (names, row counts, index levels, columns) rides in the schema metadata, so reading
        gives back the same frames, dtypes included."""
        import pyarrow as pa
        frames = list(self.tables.items())
        total = sum(len(df) for _, df in frames)
        columns: dict[str, pa.Array] = {}
        layout, offset = [], 0
        for t, (name, df) in enumerate(frames):
            flat = df.reset_index()
            for col in flat.columns:
                values = flat[col].to_numpy()
                arr = pa.array(values.astype(object) if values.dtype.kind in "OUT" else values)
                columns[f"{t}:{col}"] = pa.concat_arrays([pa.nulls(offset, arr.type), arr,
                                                          pa.nulls(total - offset - len(df), arr.type)])
            layout.append({"name": name, "rows": len(df), "index": list(df.index.names), "columns": list(df.columns)})
            offset += len(df)
        table = pa.table(columns) if columns else pa.table({"_": pa.nulls(0)})
        return table.replace_schema_metadata({store.TALLY_KEY: json.dumps({"tables": layout}).encode()})

    @classmethod
    def from_arrow(cls, table: "pa.Table") -> "Tally":
        """The Tally `to_arrow` wrote (a run store's chunk)."""
        meta = (table.schema.metadata or {}).get(store.TALLY_KEY)
        if meta is None:
            raise ValueError("no moonshot tally in this Parquet file")
        tally, offset = cls(), 0
        for t, spec in enumerate(json.loads(meta)["tables"]):
            rows = spec["rows"]

            def column(col: str) -> np.ndarray:
                return table.column(f"{t}:{col}").slice(offset, rows).to_numpy(zero_copy_only=False)

            levels = [column(c) for c in spec["index"]]
            index = (pd.Index(levels[0], name=spec["index"][0]) if len(levels) == 1 else
                     pd.MultiIndex.from_arrays(levels, names=spec["index"]))
            tally.tables[spec["name"]] = pd.DataFrame({c: column(c) for c in spec["columns"]}, index=index)
            offset += rows
        return tally

    def get(self, name: str) -> pd.DataFrame:
        """The table with keys as columns: n, and <metric> sums (with <metric>__sq for means)."""
        return self.tables[name].reset_index()


def _encode(arrays: list[np.ndarray]) -> tuple[np.ndarray, list]:
    """Mixed-radix code of several small integer key columns (other dtypes go through np.unique)."""
    code = np.zeros(len(arrays[0]), dtype=np.int64)
    levels = []
    for arr in arrays:
        if arr.dtype.kind in "iub":
            arr = arr.astype(np.int64)
            lo = int(arr.min())
            values, idx = None, arr - lo
            span = int(arr.max()) - lo + 1
        else:
            values, idx = np.unique(arr, return_inverse=True)
            lo, span = 0, len(values)
        code = code * span + idx
        levels.append((lo, span, values))
    return code, levels


def _decode(code: np.ndarray, levels: list) -> list[np.ndarray]:
    out = []
    for lo, span, values in reversed(levels):
        idx = code % span
        code = code // span
        out.append(values[idx] if values is not None else idx + lo)
    return out[::-1]


def run_chunks(task: Callable[..., Tally], args: Sequence[Any], total: int, seed: int, jobs: int = 1,
               chunk: int = CHUNK, on_chunk: Callable[[Tally, int], None] | None = None,
               name: str | None = None, on_step: Callable[[int, int, int], None] | None = None) -> Tally:
    """Run ``task(*args, seed, index, size)`` for every chunk and merge the tallies in chunk order.

    `on_chunk(tally, size)` sees each chunk's tally before it is merged (progress, streaming
    hand histories and per-hand rows); the chunk's records and rows are dropped after that.
    `name` names these chunks in a run store (default: the task's module and name).
    `on_step(index, done, of)` hears a task's reports from inside chunk `index` (see the module's
    docstring): its ``progress`` keyword if it takes one, and the games its whole-games loops have
    finished (simulator.stopping.games_done); raising from it in this process stops
    the run, and from a worker's report it is dropped (the next on_chunk can raise instead).

    Under an active run store the chunks it holds are read back (on_chunk sees them too, without
    records or rows) and only the others are played; each played chunk is stored before on_chunk
    sees it. Stored and played tallies merge in the same chunk order, so the numbers are the same.
    """
    return run_batch([Run(task, tuple(args), total, seed, chunk, on_chunk, name, on_step)], jobs)[0]


@dataclass(frozen=True)
class Run:
    """One chunked run of a batch (run_batch), with run_chunks' arguments."""
    task: Callable[..., Tally]
    args: tuple
    total: int
    seed: int
    chunk: int = CHUNK
    on_chunk: Callable[[Tally, int], None] | None = None
    name: str | None = None
    on_step: Callable[[int, int, int], None] | None = None


def run_batch(runs: Sequence[Run], jobs: int = 1) -> list[Tally]:
    """Each run's merged tally, as run_chunks gives it alone, but with the chunks of all of them
    handed to the workers as one stream: a worker that finishes one run's last chunk takes the next
    run's first instead of waiting for the slowest chunk of the run (a tournament's pairs, the two
    lineups of a strong-play section, the tables of a card-value run). A chunk's numbers depend on
    its run's seed and its own index only, so the batch changes none of them."""
    plans = []
    for r in runs:
        sizes = chunk_sizes(r.total, r.chunk)
        part = store.begin_part(r.name or f"{r.task.__module__}.{r.task.__qualname__}", r.total, r.seed, r.chunk,
                                len(sizes))
        plans.append((r, sizes, part, part.done() if part is not None else set()))
    todo = [(r, i, size) for r, sizes, _, stored in plans for i, size in enumerate(sizes) if i not in stored]
    played = _results(todo, jobs)
    out = []
    try:
        for r, sizes, part, stored in plans:
            merged = Tally()
            for i, size in enumerate(sizes):
                stopping.check()
                if i in stored:
                    piece = part.load(i, Tally.from_arrow)
                else:
                    piece = next(played)
                    if part is not None:
                        part.save(i, piece.to_arrow())
                if r.on_chunk is not None:
                    r.on_chunk(piece, size)
                piece.records, piece.rows = [], None
                merged.merge(piece)
            out.append(merged)
    finally:
        played.close()               # joblib stops handing out chunks; a step reader stops reading
    return out


def backend_configured() -> bool:
    """Whether the caller chose a joblib backend (``joblib.parallel_config``, e.g. a Dask cluster)
    other than joblib's default process pool: then every chunk goes through it, even at --jobs 1."""
    if "joblib" not in sys.modules:      # nobody could have configured one; importing joblib costs start-up time
        return False
    from joblib.parallel import DEFAULT_BACKEND, get_active_backend
    backend, _ = get_active_backend()
    return type(backend).__name__.lower() != DEFAULT_BACKEND + "backend"


def _takes_progress(task) -> bool:
    try:
        return "progress" in inspect.signature(task).parameters
    except (TypeError, ValueError):
        return False


def _results(chunks: list[tuple[Run, int, int]], jobs: int) -> Iterator[Tally]:
    """The tallies of `chunks` ((run, index, size)), in that order."""
    if not chunks:
        return
    configured = backend_configured()
    takes = {id(r): r.on_step is not None and _takes_progress(r.task) for r, _, _ in chunks}
    if (jobs == 1 or len(chunks) == 1) and not configured:
        for r, i, size in chunks:        # nothing to gain from joblib: run in this process
            stopping.check()
            hear = None if r.on_step is None else (lambda done, of, r=r, i=i: r.on_step(i, done, of))
            with stopping.watching(steps=hear):
                piece = r.task(*r.args, r.seed, i, size, **({"progress": hear} if takes[id(r)] else {}))
            yield piece
        return
    from joblib import Parallel, delayed
    # A configured backend with --jobs 1 keeps its own worker count (joblib would run n_jobs=1 inline).
    n_jobs = None if jobs == 1 else jobs
    parallel = Parallel(n_jobs=n_jobs, return_as="generator", pre_dispatch="2*n_jobs", batch_size=1)
    # A worker's step line names the chunk by its place k in `chunks`; each goes to its own run's on_step.
    heard = [(r.on_step, i) for r, i, _ in chunks]

    def on_step(k: int, done: int, of: int) -> None:
        hear, i = heard[k]
        if hear is not None:
            hear(i, done, of)
    # A configured backend (a cluster) may run chunks on other machines: no step reports or stop file there.
    any_steps = any(r.on_step is not None for r, _, _ in chunks)
    steps = _Steps(on_step) if any_steps and not configured else None
    watch = stopping.current()
    flag = _StopFlag(watch.stop) if watch is not None and watch.stop is not None and not configured else None

    def call(k: int, r: Run, i: int, size: int):
        writer = None if steps is None or r.on_step is None else _StepWriter(steps.path, k)
        step = {"progress": writer} if takes[id(r)] and writer is not None else {}
        if flag is None and writer is None:
            return delayed(r.task)(*r.args, r.seed, i, size, **step)
        return delayed(_Watched(r.task, None if flag is None else flag.path, writer))(*r.args, r.seed, i, size, **step)
    calls = (call(k, r, i, size) for k, (r, i, size) in enumerate(chunks))
    if flag is None:
        try:
            yield from parallel(calls)
        finally:
            if steps is not None:
                steps.close()
        return
    yield from _stoppable(parallel, calls, flag, steps, 2 * max(1, jobs))


def _stoppable(parallel, calls, flag: "_StopFlag", steps: "_Steps | None", ahead: int) -> Iterator[Tally]:
    """parallel(calls)'s tallies for a run that can be stopped: a thread of its own takes them
    from joblib and this generator hands them on, looking at the stop between them, so a stop ends
    the run at once even while every worker is busy with another run's chunks. A stopped chunk
    comes back as a marker (_StoppedChunk), never an exception: joblib answers an exception by
    ending the shared worker pool, and with it the chunks of every other run. After a stop the
    thread takes the rest of the run's chunks as they come back (at once: their watch is stopped)
    and then removes the run's files; chunks that check nothing for DRAIN_LIMIT seconds have their
    workers ended."""
    pieces: queue.Queue = queue.Queue(maxsize=ahead)
    left = threading.Event()          # this generator has ended: the thread drops what it takes

    def take() -> None:
        try:
            for piece in parallel(calls):
                while not left.is_set():
                    try:
                        pieces.put(("piece", piece), timeout=0.05)
                        break
                    except queue.Full:
                        pass
            pieces.put(("end", None))
        except BaseException as exc:             # noqa: BLE001 - handed to the run's own thread
            if not left.is_set():
                pieces.put(("error", exc))
        finally:
            flag.close()
            if steps is not None:
                steps.close()
    threading.Thread(target=take, name="moonshot-chunks", daemon=True).start()
    ended = False
    try:
        while True:
            try:
                kind, value = pieces.get(timeout=0.05)
            except queue.Empty:
                stopping.check()
                continue
            if kind == "end":
                ended = True
                return
            if kind == "error":
                if flag.raised:                  # its workers were ended under it
                    raise stopping.Stopped from None
                raise value
            if isinstance(value, _StoppedChunk):
                raise stopping.Stopped
            yield value
    finally:
        left.set()
        if not ended:
            flag.raise_now()                     # the chunks not yet back stop at once


class _StoppedChunk:
    """What a worker's chunk returns when its run was stopped (see _stoppable)."""


class _Watched:
    """A chunk task as a worker runs it: under a stopping watch whose stop is the run's stop file
    and whose steps go to the run's step file (simulator.stopping); its own progress reports
    check the stop too (a hand analyzer's chunk reports a step per trump)."""

    def __init__(self, task, stop_path: str | None, steps: "_StepWriter | None"):
        self.task, self.stop_path, self.steps = task, stop_path, steps

    def __call__(self, *args, **kwargs):
        stop = None if self.stop_path is None else stopping.FileFlag(self.stop_path)
        if stop is not None and stop():
            return _StoppedChunk()
        if stop is not None and "progress" in kwargs:
            report = kwargs["progress"]

            def progress(done: int, of: int) -> None:
                stopping.check()
                report(done, of)
            kwargs["progress"] = progress
        try:
            with stopping.watching(stop=stop, steps=self.steps):
                return self.task(*args, **kwargs)
        except stopping.Stopped:
            return _StoppedChunk()


DRAIN_LIMIT = 10.0   # seconds a stopped run's chunks may still run (checking nothing) before their workers are ended


class _StopFlag:
    """The stop file of one parallel run (a name, created when `stop()` first says so, or by
    raise_now) and the thread that watches `stop`. Chunks still running DRAIN_LIMIT seconds after
    it (work that checks nothing) have their workers ended, as the web server does when it stops."""

    def __init__(self, stop: Callable[[], bool]):
        fd, self.path = tempfile.mkstemp(prefix="moonshot-stop-", suffix=".flag")
        os.close(fd)
        os.unlink(self.path)         # the name only: the file's existence is the flag
        self.stop, self.raised, self.done = stop, False, threading.Event()
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._watch, name="moonshot-stop", daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(0.05):
            try:
                asked = self.raised or self.stop()
            except Exception:       # noqa: BLE001 - a broken check is no stop
                asked = False
            if asked:
                self.raise_now()
                if not self.done.wait(DRAIN_LIMIT):
                    end_workers()
                return

    def raise_now(self) -> None:
        with self._lock:
            if self.raised or self.done.is_set():
                return
            self.raised = True
            _Steps.open_files.add(self.path)
            open(self.path, "wb").close()

    def close(self) -> None:
        self.done.set()
        if self.thread is not threading.current_thread():
            self.thread.join()
        _remove(self.path)


def end_workers() -> None:
    """End joblib's local worker processes now (their chunks with them); the next run starts new ones."""
    from joblib.externals.loky import reusable_executor
    executor = reusable_executor._executor
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


STEP_EVERY = 0.1     # seconds: a worker writes a chunk's step reports at most this often (and its last)


class _StepWriter:
    """A worker's `progress(done, of)` for chunk `index`: one line "index done of" appended to the
    run's step file (a single short write, so lines from two workers do not mix)."""

    def __init__(self, path: str, index: int):
        self.path, self.index, self.last = path, index, 0.0

    def __call__(self, done: int, of: int) -> None:
        now = time.monotonic()
        if done < of and now - self.last < STEP_EVERY:
            return
        self.last = now
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError:              # the run has ended (cancelled) while this chunk still plays
            return
        try:
            os.write(fd, f"{self.index} {int(done)} {int(of)}\n".encode())
        finally:
            os.close(fd)


class _Steps:
    """The step file of one parallel run and the thread that reads it, handing each line to
    on_step until close(), which reads what is left and removes the file (or the process's exit
    does, when it ends in the middle of a run)."""
    open_files: set[str] = set()

    def __init__(self, on_step: Callable[[int, int, int], None]):
        fd, self.path = tempfile.mkstemp(prefix="moonshot-steps-", suffix=".txt")
        os.close(fd)
        _Steps.open_files.add(self.path)
        self.on_step, self.stop = on_step, threading.Event()
        self.thread = threading.Thread(target=self._read, name="moonshot-steps", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as f:
            rest = b""
            while True:
                stopping = self.stop.is_set()
                rest += f.read()
                *lines, rest = rest.split(b"\n")
                for line in lines:
                    try:
                        self.on_step(*map(int, line.split()))
                    except Exception:       # noqa: BLE001 - a report is a hint; the chunk's end counts
                        pass
                if stopping:
                    return
                self.stop.wait(STEP_EVERY / 2)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        _remove(self.path)


def _remove(path: str) -> None:
    _Steps.open_files.discard(path)
    try:
        os.unlink(path)
    except OSError:
        pass


@atexit.register
def _remove_open_step_files() -> None:
    for path in list(_Steps.open_files):
        _remove(path)
