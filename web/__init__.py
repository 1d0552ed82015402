"""`moonshot serve`: the analyzer in a browser, a second front end beside cli.py (see web/app.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from moonshot.web.forms import Limits

LOCAL = "127.0.0.1"


def serve(host: str = LOCAL, port: int = 8000, jobs: int = 1, max_samples: int = 200_000,
          reports_dir: Path = Path("out")) -> None:
    """Start the app with uvicorn; Ctrl-C stops it (uvicorn finishes open requests, then exits)."""
    import os

    import uvicorn

    from moonshot.simulator.errors import BadInput
    from moonshot.web.app import create_app
    if not 0 < port < 65536:
        raise BadInput(f"--port {port} is not accepted; accepted: 1..65535")
    if max_samples < 1:
        raise BadInput(f"--max-samples {max_samples} is not a positive count; accepted: an integer >= 1")
    if jobs == 0 or jobs < -1:
        raise BadInput(f"--jobs {jobs} is not accepted; accepted: a positive count, or -1 for every core")
    jobs = min(jobs, os.cpu_count() or 1) if jobs > 0 else -1
    if host != LOCAL:
        print(f"moonshot: warning: listening on {host}, not only this machine: anyone who can reach port {port} "
              "can start runs on it", file=sys.stderr)
    limits = Limits(max_samples=max_samples, default_samples=min(Limits.default_samples, max_samples), jobs=jobs)
    app = create_app(limits, reports_dir, hosts=(host,))
    print(f"moonshot serve: open http://{'localhost' if host == LOCAL else host}:{port}/  (Ctrl-C stops it)",
          file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning")
