"""Pieces every game's analyses share: running chunk tasks with progress and streamed records,
and the seeds that make two arms of a comparison play the same deals."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simulator.runner import CHUNK, Tally, run_chunks

Progress = Callable[[int], None] | None


def run(task, args: tuple, total: int, seed: int, jobs: int, progress: Progress = None,
        on_records: Callable[[list[str]], None] | None = None, chunk: int = CHUNK) -> Tally:
    """run_chunks with a progress callback (hands done) and hand-history lines streamed out."""
    def on_chunk(part: Tally, size: int) -> None:
        if on_records is not None and part.records:
            on_records(part.records)
        if progress is not None:
            progress(size)
    return run_chunks(task, args, total, seed, jobs, chunk=chunk, on_chunk=on_chunk)


def arm_seeds(seed: int, index: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
    """(deal seed, play seed) of chunk `index`: every arm of a paired comparison builds fresh
    generators from these, so all arms see the same deals and the same random streams."""
    return (np.random.SeedSequence(seed, spawn_key=(index, 0)),
            np.random.SeedSequence(seed, spawn_key=(index, 1)))
