"""Compile every game's numba kernels once, so no later command pays for it.

    python -m moonshot.compile          # `make run`/`make test` call this right after the install

The kernels are `@njit(cache=True)`: numba writes the machine code beside each source file (the
`__pycache__` folders of this editable install, or NUMBA_CACHE_DIR when that is set), and every
later process finds it there whatever its working folder, shell or `--jobs` worker, until that source file
changes. Kernels compile lazily, for the types of their first call, so the way to compile them is to
run what calls them: per game a few hands under its default strategies and the hand analyzer on the
page's example hand (the search players and solvers), as the server's warm-up does. A game whose
code is already compiled only loads it (benchmarks/startup_bench.py times that). Numbers are never
affected: nothing here is kept.
"""
from __future__ import annotations

import compileall
import importlib
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SKIP = re.compile(r"[/\\](\.venv|\.git|tests|out|build)[/\\]")     # not the package's own modules


def _package(game: str) -> Path:
    from moonshot.simulator.games import get
    return Path(importlib.import_module(get(game).package).__file__).parent


def has_kernels(game: str) -> bool:
    """Whether the game's package compiles anything with numba."""
    return any("numba" in f.read_text() for f in _package(game).rglob("*.py"))


def compiled(game: str) -> bool:
    """Whether the game's engine kernels are in numba's cache: an index file (`*.nbi`) in the
    `__pycache__` beside a source folder of its package, or under NUMBA_CACHE_DIR where numba files
    that folder (its name and a hash of its path)."""
    package = _package(game)
    folders = [package, *(d for d in package.rglob("*") if d.is_dir() and d.name != "__pycache__")]
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:      # (numba only then: importing it costs start-up time that a numpy engine never needs)
        from numba.core.caching import _CacheLocator
    for folder in folders:
        cache = (Path(where) / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py")) if where
                 else folder / "__pycache__")
        if next(cache.glob("*.nbi"), None) is not None:
            return True
    return False


def announce(game: str, out=None) -> None:
    """The line a first run prints before it waits for the compiler; none for a game with no compiled
    kernels (a plug-in game in plain numpy)."""
    if has_kernels(game) and not compiled(game):
        print(f"compiling {game}'s kernels, once (about a minute; later runs load them; "
              "`python -m moonshot.compile` compiles every game's) ...", file=out or sys.stderr, flush=True)


def bytecode() -> None:
    """Write the package's .pyc files: an editable install leaves them to the first import, and where
    PYTHONDONTWRITEBYTECODE is set that never happens, so every start-up would compile the sources
    (benchmarks/startup_bench.py times start-up). Python still checks each file's time stamp, so an
    edited module is read afresh."""
    compileall.compile_dir(ROOT, quiet=1, rx=SKIP, workers=1)


def warm_game(name: str) -> None:
    """Compile (or load) one game's kernels: a few hands of every way its code is run."""
    from moonshot.analysis.common import make_setup, simulate
    from moonshot.simulator.games import get
    from moonshot.strategies.base import registered
    game = get(name)
    setup = make_setup(name)
    simulate(setup, 64, None, 1, 1)
    simulate(setup, None, 2, 1, 1)                   # whole games: the scoring to a target
    if game.hand_analyzer is not None:
        game.hand_analyzer(setup, game.page.EXAMPLE, "first", 8, 0, 1)
    for spec in registered(name):       # every built-in player in seat 0 for two hands: the search
        simulate(make_setup(name, strategies=(f"0={spec}",)), 2, None, 1, 1)   # players' own kernels
    if "random" in registered(name):    # in every seat: Hit the Deck's own loop (engine/compiled_run.py)
        simulate(make_setup(name, strategies=("random",)), 2, None, 1, 1)


def warm(out=sys.stderr) -> float:
    """Compile (or load) every game's kernels, a process per game, as many at once as there are
    cores (numba compiles on one; the games share no kernels), one progress line per game as it
    ends; the seconds it took. A game that fails is said so, and costs only its first run's time."""
    from moonshot.simulator.games import GAMES
    start = time.perf_counter()
    print("compiling the games' kernels once (later runs load them from the cache) ...", file=out, flush=True)

    def one(name: str) -> tuple[str, float, int]:
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "moonshot.compile", "--game", name])
        return name, time.perf_counter() - began, done.returncode

    with ThreadPoolExecutor(max(1, min(len(GAMES), os.cpu_count() or 1))) as pool:
        for i, job in enumerate(as_completed([pool.submit(one, name) for name in GAMES]), 1):
            name, took, code = job.result()
            print(f"  [{i}/{len(GAMES)}] {name}: {took:.1f} s{'' if code == 0 else ' (failed)'}", file=out, flush=True)
    took = time.perf_counter() - start
    print(f"compiled in {took:.1f} s", file=out, flush=True)
    return took


if __name__ == "__main__":
    if sys.argv[1:2] == ["--game"]:
        warm_game(sys.argv[2])
    else:
        bytecode()
        warm()
