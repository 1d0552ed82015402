"""The HTML pages: the index and each game's explore, play and what-if pages."""
from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from moonshot.simulator.errors import short
from moonshot.web import forms, pieces
from moonshot.web.routes import Site, game_or_404

PAGES = ("explore", "play", "whatif")


def add(app: FastAPI, site: Site) -> None:
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request):
        return site.page(request, "index.html")

    @app.get("/{game}/{what}", response_class=HTMLResponse)
    def game_page(request: Request, game: str, what: str):
        entry = game_or_404(game)
        if what not in PAGES:
            return PlainTextResponse(f"no page {short(what)}; accepted: {', '.join(PAGES)}", status_code=404)
        return site.page(request, f"{what}.html", game=entry, info=forms.info(entry), picker=pieces.picker(entry))
