"""A run's "should it stop?" and its whole-games count, heard from deep inside a chunk.

The web app runs each run in a thread and cancels it by a flag; a chunk can last minutes (50 whole
games of a search player), so the flag must be heard inside it, not only between chunks. Whoever
runs the work sets a watch for its thread (a ContextVar: other threads, other runs, are not
affected): ``with watching(stop=lambda: flag_is_set, steps=progress):``. Then

- ``check()`` raises Stopped once ``stop()`` says so. The runner calls it between chunks, the
  engines at cheap points inside one (the whole-games loops after each hand, Hit the Deck's hand
  after each pass over its live games);
- ``games_done(done, of)`` (the whole-games loops, after each hand) checks, then tells
  ``steps(done, of)`` how many of the chunk's games have ended: a games run counts its games as
  they finish instead of a whole chunk at its end.

In joblib's worker processes the runner sets the watch around each chunk (simulator.runner): the
stop is a file the run's process creates, the steps go to the run's step file. Without a watch
(the CLI, tests, a chunk on a cluster) both calls cost one ContextVar read and do nothing. Nothing
here draws a random number or changes what a chunk computes, so the numbers are the same.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable


class Stopped(Exception):
    """The run was asked to stop (cancelled, abandoned, or the server is stopping)."""


@dataclass
class Watch:
    stop: Callable[[], bool] | None = None              # True once the run should end
    steps: Callable[[int, int], None] | None = None     # steps(done, of): a chunk's games ended so far


_watch: ContextVar[Watch | None] = ContextVar("moonshot_watch", default=None)


@contextmanager
def watching(stop: Callable[[], bool] | None = None, steps: Callable[[int, int], None] | None = None):
    """Set this thread's watch for the block (an outer watch's stop still counts: either stops it)."""
    outer = _watch.get()
    if outer is not None and outer.stop is not None and stop is not None:
        own, stop = stop, (lambda: own() or outer.stop())
    token = _watch.set(Watch(stop or (outer.stop if outer else None), steps))
    try:
        yield
    finally:
        _watch.reset(token)


def current() -> Watch | None:
    return _watch.get()


def check() -> None:
    """Raise Stopped when this thread's run should stop (nothing without a watch)."""
    w = _watch.get()
    if w is not None and w.stop is not None and w.stop():
        raise Stopped


def games_done(done: int, of: int) -> None:
    """A whole-games loop's report after each hand: `done` of its `of` games have ended."""
    w = _watch.get()
    if w is None:
        return
    if w.stop is not None and w.stop():
        raise Stopped
    if w.steps is not None:
        w.steps(int(done), int(of))


class FileFlag:
    """stop() for a worker process: whether the run's stop file exists, looked at most every
    EVERY seconds (a stat is cheap, but the engines ask after every pass)."""
    EVERY = 0.05

    def __init__(self, path: str):
        self.path, self.last, self.seen = path, 0.0, False

    def __call__(self) -> bool:
        now = time.monotonic()
        if not self.seen and now - self.last >= self.EVERY:
            self.last = now
            self.seen = os.path.exists(self.path)
        return self.seen
