"""The routes of `moonshot serve`. Pages are server-rendered Jinja2 templates with a little
vanilla JavaScript (static/app.js); the routes live in web/routes/, one module per concern, and
the JSON ones under /api call the library entry points (moonshot.analysis verbs, never the
engines) and run long work through web.jobs.

Why FastAPI: a well-kept, typed layer over Starlette that gives JSON routes, form and upload
parsing, Jinja2 templates, static files and a test client (httpx) from one dependency, served by
uvicorn; nothing to build in the browser.
"""
from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Iterable

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from moonshot.simulator.errors import BadInput
from moonshot.web.forms import FieldError, Limits
from moonshot.web.guard import UPLOAD_ROOM, Guard, Headers, served_names, wildcard
from moonshot.web.jobs import PAGE_WAIT, Runner, ready, warm
from moonshot.web.play.session import IDLE as PLAY_IDLE, Table as PlayTable
from moonshot.web.routes import Site, bad, files, jobs, links, pages, play, review, runs

HERE = Path(__file__).parent


class App(FastAPI):
    """FastAPI with the page headers outside everything (web/guard.py's Headers): outside the
    Guard's refusals and outside Starlette's ServerErrorMiddleware, so a 500 carries them too."""

    def build_middleware_stack(self):
        return Headers(super().build_middleware_stack())


def create_app(limits: Limits = Limits(), reports_dir: Path = Path("out"), upload_limit: int = 2_000_000,
               abandon_after: float = 60.0, max_runs: int | None = None, queue: int | None = None,
               play_idle: float = PLAY_IDLE, hosts: Iterable[str] = (), page_wait: float = PAGE_WAIT) -> FastAPI:
    """The app, answering requests whose Host is a local address or one of `hosts` (web/guard.py; a
    wildcard host such as 0.0.0.0 adds this machine's names and addresses). At most `max_runs` runs
    and page computations (deals, answers, hints, hand links) at once (default: limits.jobs, -1 one
    per core), `queue` more runs waiting (default twice that) and page work waiting at most
    `page_wait` seconds; beyond, HTTP 429. A played hand untouched for `play_idle` seconds is dropped.
    `app.state.runner.close()` tells every run and page computation to stop (web.server.Server
    calls it on the first signal)."""
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        ready()                                # imported here first: threads importing at once race
        threading.Thread(target=warm, args=(limits.jobs,), name="moonshot-warm", daemon=True).start()
        yield
        app.state.runner.stop_all()            # Ctrl-C: runs end now, not after their chunks

    hosts = list(hosts)
    app = App(title="moonshot", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.limits, app.state.reports_dir, app.state.upload_limit = limits, Path(reports_dir), upload_limit
    app.state.runner = Runner(abandon_after, limits.jobs if max_runs is None else max_runs, queue, page_wait)
    app.state.hands = PlayTable(play_idle)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_middleware(Guard, hosts=served_names(hosts), uploads={"/api/replay": upload_limit + UPLOAD_ROOM},
                       own_address=wildcard(hosts))

    @app.exception_handler(FieldError)
    async def field_error(request: Request, exc: FieldError):
        return bad(exc.field, str(exc), exc.status, getattr(exc, "headers", None))    # a 429's Retry-After

    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput):
        return bad("form", str(exc))

    site = Site(Jinja2Templates(directory=str(HERE / "templates")), limits)
    for group in (pages, runs, play, files, review, jobs, links):   # pages first: its /{game}/{what} is the catch-all
        group.add(app, site)
    return app
