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

    @app.get("/api/{game}/pieces")
    def pieces_in_play(request: Request, game: str):
        """The pieces in play at ?players=N&rules=flag=value&rules=... (the explorer's picker asks on
        every change of the table): {"pieces": [names], "faces": {name: face}}; a bad value is the
        one-line 400 beside its field."""
        entry = game_or_404(game)
        q = request.query_params
        setup = forms.setup({"players": q.get("players"), "rules": q.getlist("rules")}, entry.name, partners_ok=False)
        shown = pieces.in_play(entry, setup)
        return {"pieces": shown, "faces": pieces.faces(entry, shown)}

    @app.get("/{game}/{what}", response_class=HTMLResponse)
    def game_page(request: Request, game: str, what: str):
        entry = game_or_404(game)
        if what not in PAGES:
            return PlainTextResponse(f"no page {short(what)}; accepted: {', '.join(PAGES)}", status_code=404)
        return site.page(request, f"{what}.html", game=entry, info=forms.info(entry), picker=pieces.picker(entry))
