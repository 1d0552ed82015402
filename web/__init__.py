"""`moonshot serve`: the analyzer in a browser, a second front end beside cli.py (see web/app.py)."""
from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from moonshot.web.forms import Limits

LOCAL = "127.0.0.1"


def serve(host: str = LOCAL, port: int = 8000, jobs: int = 1, max_samples: int = 200_000,
          reports_dir: Path = Path("out"), max_worlds: int = Limits.max_worlds) -> None:
    """Start the app with uvicorn; Ctrl-C or SIGTERM stops it within seconds (web/server.py)."""
    from moonshot.analysis.review import MAX_WORLDS          # the search players' own cap
    from moonshot.simulator.errors import BadInput
    from moonshot.web.app import create_app
    from moonshot.web.server import Server, config
    if not 0 < port < 65536:
        raise BadInput(f"--port {port} is not accepted; accepted: 1..65535")
    if max_samples < 1:
        raise BadInput(f"--max-samples {max_samples} is not a positive count; accepted: an integer >= 1")
    if not 2 <= max_worlds <= MAX_WORLDS:
        raise BadInput(f"--max-worlds {max_worlds} is not accepted; accepted: an integer from 2 to {MAX_WORLDS:,}")
    if jobs == 0 or jobs < -1:
        raise BadInput(f"--jobs {jobs} is not accepted; accepted: a positive count, or -1 for every core")
    jobs = min(jobs, os.cpu_count() or 1) if jobs > 0 else -1
    check_reports_dir(Path(reports_dir))
    sock = bound(host, port)          # before anything is printed: a port in use is one line, not uvicorn's three
    if not only_here(sock):
        print(f"moonshot: warning: listening on {host}, not only this machine: anyone who can reach port {port} "
              "can start runs on it", file=sys.stderr)
    limits = Limits(max_samples=max_samples, default_samples=min(Limits.default_samples, max_samples), jobs=jobs,
                    max_worlds=max_worlds)
    app = create_app(limits, reports_dir, hosts=(host,))
    shown = "localhost" if host == LOCAL else f"[{host}]" if ":" in host else host
    print(f"moonshot serve: open http://{shown}:{port}/  (Ctrl-C stops it)", file=sys.stderr)
    try:
        Server(config(app), app.state.runner.close).run(sockets=[sock])
    except KeyboardInterrupt:         # uvicorn re-raises the Ctrl-C (or kill) it stopped on: a clean stop, exit 0
        pass


def bound(host: str, port: int):
    """A listening socket on host:port, or BadInput in one line (an unknown host, a port in use or
    not ours to take), so `serve` fails before it says where to open it."""
    import socket

    from moonshot.simulator.errors import BadInput
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise BadInput(_not_here(host, exc)) from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)       # as uvicorn does: a restart reuses the port
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRNOTAVAIL:
            raise BadInput(_not_here(host, exc.strerror)) from None
        why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc.strerror})"
        raise BadInput(f"--port {port} on {host} {why}; accepted: a free port (--port), or stop what holds it") \
            from None
    sock.set_inheritable(True)
    return sock


def only_here(sock) -> bool:
    """Whether `sock` listens on a loopback address only (127.0.0.0/8, ::1: --host localhost, say),
    which no other machine can reach."""
    import ipaddress
    try:
        return ipaddress.ip_address(sock.getsockname()[0].split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _not_here(host: str, why) -> str:
    return (f"--host {host!r} is not an address of this machine ({why}); accepted: 127.0.0.1, 0.0.0.0 or one of "
            "this machine's addresses")


def check_reports_dir(folder: Path) -> None:
    """--reports must be a folder moonshot can write reports into (made when first needed): an
    existing writable folder, or a new one under a writable folder. Tried with a scratch file."""
    import tempfile

    from moonshot.simulator.errors import BadInput
    where = folder
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        if not where.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a folder")
        if where == folder:
            fd, scratch = tempfile.mkstemp(dir=folder, prefix=".moonshot-check-")
            os.close(fd)
            os.unlink(scratch)
        else:
            os.rmdir(tempfile.mkdtemp(dir=where, prefix=".moonshot-check-"))
    except OSError as exc:
        raise BadInput(f"--reports {str(folder)!r} cannot hold reports ({exc.strerror or exc}); accepted: a folder "
                       "you can write to, or a new one under such a folder") from None
