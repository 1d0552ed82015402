"""The `moonshot` command's first moments: Python loads the package and its libraries (numpy,
numba, typer) before cli.py can catch a signal. A Ctrl-C then printed a 20-30 line KeyboardInterrupt
traceback, and a SIGTERM ended the process without a word. Here, imported first by the package,
the command's process gets the command's own answer to both: its one line (`moonshot: interrupted;
no output written`, or `terminated`), exit 130 or 143. Nothing can be half written yet, no worker
has started, so it exits on the spot.

Only the `moonshot` command's process (the console script, or `python -m moonshot.cli`): `import
moonshot` in a program, a notebook or a test leaves the signals as they were. cli.py's App takes the
signals over when a command starts (`handed_over`), and puts back the ones from before this catch
when it ends."""
from __future__ import annotations

import os
import signal
import sys
import threading

_BEFORE: dict = {}          # signal -> its handler before this catch, while the catch is on


def _the_command() -> bool:
    # a worker a pool or cluster spawned (multiprocessing, loky, Dask) is handed the command's argv
    # and imports the package while it is being set up: its signals are its parent's to handle
    mp = sys.modules.get("multiprocessing")
    if mp is not None and mp.current_process().name != "MainProcess":
        return False
    if os.path.basename(sys.argv[0] if sys.argv else "").removesuffix(".exe") == "moonshot":
        return True
    argv = list(getattr(sys, "orig_argv", ()))
    return "-m" in argv[:-1] and argv[argv.index("-m") + 1] in ("moonshot", "moonshot.cli")


def _on_signal(signum, frame) -> None:
    word, code = ("terminated", 143) if signum == signal.SIGTERM else ("interrupted", 130)
    try:
        os.write(2, f"moonshot: {word}; no output written\n".encode())
    finally:
        os._exit(code)


def catch() -> None:
    """In the command's main thread, SIGINT and SIGTERM print the one line and exit (not where a
    signal is ignored: `nohup`, a shell's background job)."""
    if not _the_command() or threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(signum)
        if before is not signal.SIG_IGN and before is not _on_signal:
            _BEFORE[signum] = before
            signal.signal(signum, _on_signal)


def handed_over(previous: dict) -> dict:
    """cli.py's handlers are in place: `previous`, the handlers it will put back when the command
    ends, with this catch's replaced by those from before it (the catch is over)."""
    out = {signum: (_BEFORE.get(signum, handler) if handler is _on_signal else handler)
           for signum, handler in previous.items()}
    _BEFORE.clear()
    return out


catch()
