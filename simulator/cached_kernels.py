"""Loading compiled kernels from numba's cache without setting up numba's compiler first.

Before it loads a cached function, numba "refreshes" its target context: it imports and registers
every implementation it could need to *compile* something (string, hashing, array maths: many
overload templates), CPU time in every process that only loads machine code from the cache.
A cached function needs none of that: its code is already compiled and linked; it needs numba's
runtime (NRT) set up, which `rtsys.initialize` does. Compiling (a cache miss, a new signature)
refreshes the context itself (numba.core.compiler.compile_extra), so it still works as before.

`install()` makes that change once per process; the game engines call it when they import their
kernels (start-up has a target: benchmarks/startup_bench.py measures it).
"""
from __future__ import annotations

_done = False


def install() -> None:
    """Load cached kernels with NRT set up but without the compiler's refresh (idempotent; a numba
    without these internals keeps its own behaviour)."""
    global _done
    if _done:
        return
    _done = True
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
    except ImportError:
        return
    cache = getattr(caching, "Cache", None)
    if cache is None or not all(hasattr(cache, name) for name in (
            "load_overload", "_load_overload", "_guard_against_spurious_io_errors")):
        return

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)             # what a cached function needs of the set-up
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        # None (a cache miss) when the `with` swallowed an I/O error: the dispatcher then compiles

    load_overload.__doc__ = cache.load_overload.__doc__
    cache.load_overload = load_overload
