"""Chunked, seeded, parallel runs with streaming aggregation.

Work is split into fixed-size chunks. Chunk i draws all its randomness from
``SeedSequence(seed, spawn_key=(i,))`` (the same as ``SeedSequence(seed).spawn(k)[i]``), so its
result does not depend on how many jobs run it or in what order. Each chunk returns a
:class:`Tally` of sums (never per-hand rows); tallies are merged in chunk order as they arrive,
so memory stays flat however many hands are played. joblib runs the chunks; its backend can be
chosen with ``joblib.parallel_config``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import pandas as pd

CHUNK = 65_536


def chunk_sizes(total: int, chunk: int = CHUNK) -> list[int]:
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def chunk_rngs(seed: int, index: int, streams: int = 2) -> list[np.random.Generator]:
    """Independent generators for chunk `index` (e.g. one for deals, one for play)."""
    ss = np.random.SeedSequence(seed, spawn_key=(index,))
    return [np.random.default_rng(s) for s in ss.spawn(streams)]


@dataclass
class Tally:
    """Named tables of sums: per group key, the count n and, per metric, its sum and sum of squares.

    ``add("sides", {"side": side}, {"chips": x, "p_odd": odd})`` groups N rows by the keys.
    Adding two tallies adds the sums cell by cell, so chunks merge in any grouping.
    """
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)     # optional per-hand lines (hand histories)

    def add(self, name: str, keys: dict[str, np.ndarray], metrics: dict[str, np.ndarray]) -> None:
        frame = pd.DataFrame({**{k: np.asarray(v) for k, v in keys.items()},
                              **{m: np.asarray(v, dtype=np.float64) for m, v in metrics.items()}})
        for m in metrics:
            frame[m + "__sq"] = frame[m] ** 2
        frame["n"] = np.int64(1)
        summed = frame.groupby(list(keys), sort=True).sum()
        self._merge_table(name, summed)

    def _merge_table(self, name: str, summed: pd.DataFrame) -> None:
        if name in self.tables:
            both = pd.concat([self.tables[name], summed])
            summed = both.groupby(level=list(range(both.index.nlevels)), sort=True).sum()
        self.tables[name] = summed

    def merge(self, other: "Tally") -> "Tally":
        for name, table in other.tables.items():
            self._merge_table(name, table)
        self.records.extend(other.records)
        return self

    def get(self, name: str) -> pd.DataFrame:
        """The table with keys as columns: n, and <metric> / <metric>__sq sums."""
        return self.tables[name].reset_index()


def run_chunks(task: Callable[..., Tally], args: Sequence[Any], total: int, seed: int, jobs: int = 1,
               chunk: int = CHUNK, on_chunk: Callable[[Tally, int], None] | None = None) -> Tally:
    """Run ``task(*args, seed, index, size)`` for every chunk and merge the tallies in chunk order.

    `on_chunk(tally, size)` sees each chunk's tally before it is merged (progress, streaming
    hand histories); the chunk's per-hand records are dropped after that.
    """
    sizes = chunk_sizes(total, chunk)
    merged = Tally()
    for size, part in zip(sizes, _results(task, args, sizes, seed, jobs)):
        if on_chunk is not None:
            on_chunk(part, size)
        part.records = []
        merged.merge(part)
    return merged


def _results(task, args, sizes, seed, jobs) -> Iterator[Tally]:
    calls = ((task, (*args, seed, i, size)) for i, size in enumerate(sizes))
    if jobs == 1 or len(sizes) == 1:
        for fn, a in calls:
            yield fn(*a)
        return
    from joblib import Parallel, delayed
    parallel = Parallel(n_jobs=jobs, return_as="generator", pre_dispatch="2*n_jobs", batch_size=1)
    yield from parallel(delayed(fn)(*a) for fn, a in calls)
