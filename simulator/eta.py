"""How long a run will take and how big its hand history will be, said once on stderr when it is
more than a user would wait for without being told: estimated from the run's own first chunk
(its time, or its history lines), so it holds for any game, strategy or machine."""
from __future__ import annotations

import math
import os
import sys
import threading
import time

SAY_TIME_OVER = 180.0            # seconds: a run estimated longer says so after its first chunk
SAY_SIZE_OVER = 1_000_000_000    # bytes: a --history estimated bigger says so before its first lines
now = time.monotonic             # the clock (tests step it)


def duration(seconds: float) -> str:
    """'45 s', '12 min', '3 h 20 min', '4 days 6 h' (never '0 s' or '0 min': at least '1 s')."""
    if seconds < 59.5:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    days, hours = divmod(hours, 24)
    return f"{days:,} days {hours} h"


def size(n_bytes: float) -> str:
    return f"{n_bytes / 1e9:,.1f} GB" if n_bytes >= 1e9 else f"{n_bytes / 1e6:,.0f} MB"


def note(text: str) -> None:
    print(f"moonshot: note: {text}", file=sys.stderr, flush=True)


class _Watched:
    """What a Clock is: started now, a watch that calls still_running() once
    SAY_TIME_OVER has passed, running while the object is used as a context manager."""

    def _watch(self) -> None:
        self.start, self.done = now(), 0
        self.watch = threading.Timer(SAY_TIME_OVER, self.still_running)
        self.watch.daemon = True

    def __enter__(self):
        self.watch.start()
        return self

    def __exit__(self, *exc) -> None:
        self.watch.cancel()

    def still_running(self) -> None:
        raise NotImplementedError


class Clock(_Watched):
    """Started before a run's chunks are played; `chunk_done()` after each one, in chunk order.
    Chunks run `jobs` at a time, so a round of them takes about one chunk's time. The first chunk
    also carries the start-up (worker processes, imports, compiling), so a whole round after it is
    timed before the run's time is said, once, if it is over SAY_TIME_OVER. A run of two rounds has
    no such round: the first chunk's time stands for both. A first chunk still running after
    SAY_TIME_OVER says the least the run will take. (A cluster may run more at a time than --jobs:
    then the run takes less.) Used as a context manager, which stops that watch when the run ends.
    `chunks` counts them when they are not all of one size (several runs in one batch)."""

    def __init__(self, total: int, chunk: int, jobs: int, chunks: int | None = None):
        self.total = total
        self.chunks = max(1, chunks if chunks is not None else math.ceil(total / chunk))
        self.parallel = max(1, min(self.chunks, (os.cpu_count() or 1) if jobs == -1 else jobs))
        self.rounds = math.ceil(self.chunks / self.parallel)
        self._watch()
        self.first_done = None
        self.said = False                       # the estimate, said once

    def still_running(self) -> None:
        """SAY_TIME_OVER has passed and the first chunk is not done: at least that long per round."""
        if self.done == 0:
            took = now() - self.start
            note(f"this run will take at least {duration(took * self.rounds)} in all: its first chunk is still running "
                 f"after {duration(took)} ({self._chunks()})")

    def chunk_done(self) -> None:
        self.watch.cancel()
        self.done += 1
        t = now()
        if self.done == 1:
            self.first_done = t
            if self.rounds == 2:
                self._say(2 * (t - self.start))
        elif self.done == self.parallel + 1 and self.rounds > 2:        # one round after the first chunk
            self._say(t - self.start + (t - self.first_done) * (self.rounds - 2))

    def _say(self, estimate: float) -> None:
        if estimate > SAY_TIME_OVER and not self.said:
            self.said = True
            note(f"this run will take about {duration(estimate)} in all ({self._chunks()}; timed on the first "
                 f"{self.done})")

    def _chunks(self) -> str:
        # the run's total in its chunks ("3,000 in 12 chunks"), not "12 chunks of 3,000"
        return f"{self.total:,} in {self.chunks:,} chunk{'s' * (self.chunks > 1)}, {self.parallel} at a time"


def say_history_size(path, lines: list[str], total: int) -> None:
    """Before a --history's first lines are written: its estimated size, if over SAY_SIZE_OVER."""
    games = sum('"hand_in_game": 0,' in line for line in lines)    # whole games: `total` counts games
    each = sum(len(line) + 1 for line in lines) / max(1, games or len(lines))
    estimate = each * total
    if estimate > SAY_SIZE_OVER:
        note(f"--history {str(path)!r} will be about {size(estimate)} ({total:,} {'games' if games else 'hands'} at "
             f"about {each:,.0f} bytes each)")
