"""Links that reopen: a played hand's link token, and a token played again into
the history the Replay page shows (web/links.py). The Explorer's, What-if's and Play page's links are
plain query strings that static/links.js reads; they need no route. Playing a token again is page
work (web.jobs.Runner.work: a slot, a 429 when none is free, a stop), its bots within --max-worlds."""
from __future__ import annotations

from urllib.parse import quote

from fastapi import FastAPI, Request

from moonshot.web.routes import Site, body


def add(app: FastAPI, site: Site) -> None:
    hands, runner = app.state.hands, app.state.runner

    @app.get("/api/play/{sid}/link")
    def play_link(sid: str):
        """The link that replays a finished hand (BadInput, 400, before its end)."""
        from moonshot.web import links
        session = hands.get(sid)
        session.history()                  # the hand must be over: the same one-line refusal as its download
        token = links.token(session)
        return {"token": token, "url": f"/replay?hand={quote(token)}"}

    @app.post("/api/hand-link")
    async def hand_link(request: Request):
        """{"hand": TOKEN} -> the hand played again: {"file": name, "history": one JSON line}."""
        from moonshot.web import links
        form = await body(request)
        name, text = await runner.work(lambda: links.history(form.get("hand"), site.limits),
                                       gone=request.is_disconnected)
        return {"file": name, "history": text}
