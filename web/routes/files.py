"""Files: the Replay page (an uploaded history read into steps) and the Reports page (written reports)."""
from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from moonshot.simulator.errors import BadInput
from moonshot.web.forms import FieldError
from moonshot.web.routes import Site, bad, body


def add(app: FastAPI, site: Site) -> None:
    @app.get("/replay", response_class=HTMLResponse)
    def replay_page(request: Request):
        from moonshot.web.replay import QUICK_WORLDS
        return site.page(request, "replay.html", upload_limit=app.state.upload_limit, quick_worlds=QUICK_WORLDS)

    @app.post("/api/replay")
    async def replay_upload(request: Request):
        from moonshot.web import replay
        limit = app.state.upload_limit            # the body as a whole: web/guard.py (UPLOAD_ROOM over it)
        form = await request.form(max_files=1, max_fields=5)
        upload = form.get("file")
        if upload is None or not hasattr(upload, "read"):
            raise FieldError("file", "no file uploaded; accepted: a JSON-lines history file (HISTORY.md)")
        data = await upload.read(limit + 1)
        if len(data) > limit:
            raise FieldError("file", f"the upload is over {limit:,} bytes; accepted: a history file of at most "
                                     f"{limit:,} bytes")
        name = Path(upload.filename or "upload").name
        try:
            read = await asyncio.to_thread(replay.read, data, name)
        except BadInput as exc:
            raise FieldError("file", str(exc)) from None
        return {"file": name, **read}

    @app.post("/api/replay/tables")
    async def replay_tables(request: Request):
        """The table at each step of one hand the page holds (web/replay.tables)."""
        from moonshot.web import replay
        form = await body(request)
        try:
            return await asyncio.to_thread(replay.tables, form.get("record"))
        except BadInput as exc:
            raise FieldError("record", str(exc)) from None

    @app.get("/reports", response_class=HTMLResponse)
    def reports_page(request: Request):
        from moonshot.web import reports
        return site.page(request, "reports.html", reports=reports.listing(app.state.reports_dir),
                         folder=app.state.reports_dir.resolve().name)   # its name only: not the server's paths

    @app.get("/reports/{name:path}/{file}")
    def report_file(name: str, file: str):
        from fastapi.responses import FileResponse

        from moonshot.web import reports
        try:
            path = reports.resolve(app.state.reports_dir, name, file)
        except BadInput as exc:
            return bad("report", str(exc), 404)
        return FileResponse(path)
