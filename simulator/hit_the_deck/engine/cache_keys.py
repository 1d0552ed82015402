"""A cached kernel that calls kernels from other files is stale when one of those files changes.

numba keys a function's cache on its own source file only, but a compiled caller holds its own
copy of every callee's machine code: after an edit to kernels.py, compiled_run's cached pass loop
kept running the old steps (found the hard way: it wrote the piles' stamps the new State no
longer had). `depends_on` adds the other files' contents to the caller's cache key.
"""
from __future__ import annotations

import hashlib
import sys


def depends_on(dispatcher, *modules: str) -> None:
    """Key `dispatcher`'s cache also on the sources of `modules` (imported module names). A numba
    without these internals keeps its own key."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_source_stamp"):
        return
    stamps = []
    for name in modules:
        with open(sys.modules[name].__file__, "rb") as f:
            stamps.append(hashlib.sha256(f.read()).digest())
    cache_file._source_stamp = (cache_file._source_stamp, *stamps)
