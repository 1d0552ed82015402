"""Running the chunks on a Dask cluster (``--scheduler``).

``scheduler(spec)`` connects a ``distributed.Client`` and makes Dask joblib's backend for the
block (``joblib.parallel_config(backend="dask")``); the runner then sends every chunk through it.
Chunk results come back in chunk order and are merged in that order, and each chunk draws only on
its own seeds, so a cluster gives byte-identical numbers to ``--jobs 1``. A worker that dies
mid-run loses nothing: the scheduler runs its chunks again elsewhere (chunks are pure functions of
their seeds).

Two forms:

- ``tcp://HOST:PORT``: an existing cluster (``dask scheduler`` and ``dask worker tcp://HOST:PORT``
  on each machine). The workers import moonshot themselves, so each needs it installed (the same
  version), and a ``--strategy SEAT=file.py:Class`` file must exist at the same path on each.
- ``local:N``: a cluster of N worker processes on this machine (one thread each), started for the
  run and stopped after it.

Speed: Dask's nannies start workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which turns off glibc's
adaptive mmap threshold, so every numpy array of a chunk is mapped and unmapped afresh: the engines
run far slower (benchmarks/scale.py runs Dask's workers beside --jobs). ``local:N`` starts its
workers without it, and on any cluster a small worker plugin (:class:`NumpyMalloc`, also on workers
that join or restart later) sets the thresholds back to what glibc adapts to by itself. ``local:N``
also turns the workers' statistical profiler off; on a cluster of your own, start workers with
``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False`` for long runs (its history of the last 1000
seconds grows a worker's memory until it is full).

Needs the ``cluster`` extra: ``pip install 'moonshot[cluster]'`` (dask[distributed]).
"""
from __future__ import annotations

import logging
import os
import re
import socket
import struct
import sys
import time
from contextlib import contextmanager
from typing import Iterator

from moonshot.simulator.errors import BadInput

CONNECT_TIMEOUT = 5.0          # seconds to reach a scheduler before giving up
FORMS = "tcp://HOST:PORT (a running Dask scheduler) or local:N (N worker processes on this machine)"
INSTALL = "pip install 'moonshot[cluster]'"
# local:N workers: no trim threshold (see the module doc), and no statistical profiler: nobody looks
# at its dashboard, it takes CPU, and its history grows a worker's memory over a long run (benchmarks/scale.py).
LOCAL_CONFIG = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                # a local worker logs only errors: a run stopped by a signal ends with its one line, not
                # the workers' notes of the closing streams written to the same terminal after it
                "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "error",
                "distributed.worker.profile.enabled": False}
_TCP = re.compile(r"^tcp://(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
_LOCAL = re.compile(r"^local:(\d+)$")


try:
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:                         # without the cluster extra: scheduler() says what to install
    _WorkerPlugin = object


class NumpyMalloc(_WorkerPlugin):
    """On each worker (glibc only): mmap only arrays over 32 MiB and trim the heap only past 64 MiB,
    as glibc's own adaptive thresholds settle, instead of a nanny's MALLOC_TRIM_THRESHOLD_ (which
    pins the mmap threshold at 128 KiB)."""
    name = "moonshot-numpy-malloc"

    def setup(self, worker=None) -> None:
        import ctypes
        import ctypes.util
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            libc.mallopt(-3, 32 << 20)       # M_MMAP_THRESHOLD
            libc.mallopt(-1, 64 << 20)       # M_TRIM_THRESHOLD
        except (OSError, AttributeError):    # not glibc: nothing to tune
            pass


def parse(spec: str) -> tuple[str, str | int]:
    """("tcp", address) or ("local", workers); BadInput naming the accepted forms otherwise."""
    text = spec.strip()
    m = _TCP.match(text)
    if m and 0 < int(m.group(2)) < 65536:
        return "tcp", text
    m = _LOCAL.match(text)
    if m and int(m.group(1)) >= 1:
        return "local", int(m.group(1))
    raise BadInput(f"unknown --scheduler {spec!r}; accepted: {FORMS}")


def local_workers(n: int) -> int:
    """local:N's worker count, capped at the cores this machine has as --jobs is (more only slow the run
    down and take memory: local:64 on 2 cores started 64 worker processes)."""
    cores = os.cpu_count() or 1
    if n > cores:
        print(f"moonshot: note: --scheduler local:{n} capped at local:{cores}, the cores this machine has",
              file=sys.stderr)
        return cores
    return n


def _recv(sock: socket.socket, n: int, deadline: float) -> bytes:
    data = b""
    while len(data) < n:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        got = sock.recv(n - len(data))
        if not got:
            raise ConnectionError("it closed the connection")
        data += got
    return data


def not_dask(address: str, timeout: float) -> str | None:
    """Why the server at tcp://HOST:PORT is not a Dask scheduler (None: it is one); OSError when it
    cannot be reached. A scheduler sends its handshake as soon as a connection opens (a small framed
    msgpack dict with 'python' and 'pickle-protocol'), so a server that says nothing within `timeout`
    (an HTTP server waits for a request) or says something else is refused here, before
    distributed.Client would wait on it for ever or read its first bytes as a frame length ("Unable to
    allocate 3.07 EiB")."""
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    deadline = time.monotonic() + timeout
    while True:                   # a scheduler still starting refuses at first: try until the deadline
        try:
            sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
            break
        except ConnectionRefusedError:
            if time.monotonic() + 0.2 > deadline:
                raise
            time.sleep(0.2)
    with sock:
        try:
            (size,) = struct.unpack("<Q", _recv(sock, 8, deadline))
            if not 16 <= size <= 1 << 16:
                return "it answered, but not as a Dask scheduler does"
            payload = _recv(sock, size, deadline)
        except (socket.timeout, TimeoutError):
            return f"it sent no Dask handshake within {timeout:g} s"
        except OSError as exc:
            return " ".join(str(exc).split()) or type(exc).__name__
    (frames,) = struct.unpack_from("<Q", payload)
    if not 1 <= frames <= 16 or b"pickle-protocol" not in payload:
        return "it answered, but not as a Dask scheduler does"
    return None


def _distributed():
    try:
        import distributed
        from joblib._dask import DaskDistributedBackend  # noqa: F401 - joblib's side of the bridge
    except ImportError:
        raise BadInput(f"--scheduler needs dask.distributed, which is not installed; accepted: {INSTALL}") from None
    return distributed


@contextmanager
def scheduler(spec: str | None, timeout: float | None = None) -> Iterator[object | None]:
    """For the block, every chunk runs on the cluster `spec` names (None: as before, nothing changes).

    Yields the ``distributed.Client``. BadInput for an unknown form, a missing dask.distributed,
    or a scheduler that cannot be reached within `timeout` seconds.
    """
    if spec is None:
        yield None
        return
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    kind, value = parse(spec)
    distributed = _distributed()
    import joblib
    cluster = client = None
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)         # a failed connect logs tracebacks; the error below says it in one line
    try:
        if kind == "local":
            import dask
            with dask.config.set(LOCAL_CONFIG):
                cluster = distributed.LocalCluster(n_workers=local_workers(value), threads_per_worker=1,
                                                   processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                                   silence_logs=logging.ERROR)
            client = distributed.Client(cluster, timeout=timeout)
        else:
            why = not_dask(value, timeout)
            if why is not None:
                raise BadInput(f"--scheduler {spec} is not a Dask scheduler ({why}); accepted: {FORMS}")
            client = distributed.Client(value, timeout=timeout)
    except BadInput:
        raise
    except Exception as exc:        # OSError, TimeoutError; MemoryError, ValueError... from a server not Dask's
        if cluster is not None:
            cluster.close()
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise BadInput(f"--scheduler {spec}: cannot reach a Dask scheduler within {timeout:g} s ({reason[:200]}); "
                       f"accepted: {FORMS}") from None
    finally:
        quiet.setLevel(level)
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError):
        client.close()
        raise BadInput(f"--scheduler {spec}: the Dask scheduler has no workers after {timeout:g} s; accepted: a "
                       f"scheduler with workers (start them with `dask worker {value}`)") from None
    client.register_plugin(NumpyMalloc(), name=NumpyMalloc.name)
    stopped = False
    try:
        with joblib.parallel_config(backend="dask", client=client):
            yield client
    except BaseException:
        stopped = True                       # a signal or an error: the run ends with its one line
        raise
    finally:
        # workers going away at shutdown is not news; after a stop the client's callbacks still
        # running as the process ends log through tornado too, so both stay quiet then
        noisy = [quiet, logging.getLogger("tornado.application")]
        levels = [log.level for log in noisy]
        for log in noisy:
            log.setLevel(logging.CRITICAL)
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        finally:
            if not stopped:
                for log, was in zip(noisy, levels):
                    log.setLevel(was)
