"""The routes of `moonshot serve`, one module per concern: pages, runs (hand, what-if, report),
play, files (replay and reports) and jobs. Each module's `add(app, site)` puts its routes on the
app; web/app.py's create_app builds the app and calls them. The helpers every group uses live here."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates

from moonshot.simulator.errors import short
from moonshot.simulator.games import GAMES
from moonshot.web import forms
from moonshot.web.forms import FieldError, Limits

FAST_FAIL = 0.3          # seconds a request waits for a run's own input checks (BadInput before any chunk)


def bad(field: str, message: str, status: int = 400, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"field": field, "error": forms.one_line(message)}, status_code=status, headers=headers)


@dataclass
class Site:
    """What the route groups share: the templates and the server's caps."""
    templates: Jinja2Templates
    limits: Limits

    def page(self, request: Request, name: str, **context) -> HTMLResponse:
        return self.templates.TemplateResponse(request, name, {"games": GAMES, "limits": self.limits, **context})


def game_or_404(game: str):
    if game not in GAMES:
        raise FieldError("game", f"unknown game {short(game)}; accepted: {', '.join(GAMES)}")
    return GAMES[game]


async def body(request: Request) -> dict:
    return forms.json_form(await request.body())      # web/guard.py let only application/json this far


async def started(job, used: dict | None = None) -> JSONResponse:
    """The job's id, or its one-line input error when it failed before any chunk ran. `used`: the
    values the run took where the form left them empty (seed, size), which the page's link carries
    (static/links.js) so that it reopens the same numbers."""
    deadline = time.monotonic() + FAST_FAIL
    while job.state == "running" and job.done == 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    if job.state == "failed":
        return bad(forms.field_of(job.error or ""), job.error or "failed")
    return JSONResponse({**job.status(), "used": used or {}}, status_code=202)
