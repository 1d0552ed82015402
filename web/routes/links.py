"""Links that reopen (issue 28, item 6): a played hand's link token, and a token played again into
the history the Replay page shows (web/links.py). The Explorer's, What-if's and Play page's links are
plain query strings that static/links.js reads; they need no route."""
from __future__ import annotations

import asyncio
from urllib.parse import quote

from fastapi import FastAPI, Request

from moonshot.web.routes import Site, body


def add(app: FastAPI, site: Site) -> None:
    hands = app.state.hands

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
        name, text = await asyncio.to_thread(links.history, form.get("hand"))
        return {"file": name, "history": text}
