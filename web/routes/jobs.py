"""A run's status, its cancel and its result (HTML, JSON or the CLI's text)."""
from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from moonshot.simulator.errors import short
from moonshot.web.forms import FieldError
from moonshot.web.render import result_html
from moonshot.web.routes import Site, bad


def add(app: FastAPI, site: Site) -> None:
    runner = app.state.runner

    def job_of(job_id: str):
        job = runner.get(job_id)
        if job is None:
            raise FieldError("job", f"no run {short(job_id)} (finished runs are kept a while, then forgotten)", 404)
        return job

    @app.get("/api/jobs/{job_id}")
    def job_status(job_id: str):
        return job_of(job_id).status()

    @app.post("/api/jobs/{job_id}/cancel")
    def job_cancel(job_id: str):
        return runner.cancel(job_of(job_id).id).status()

    @app.get("/api/jobs/{job_id}/result")
    def job_result(job_id: str, format: str = "html", tables: str | None = None):
        job = job_of(job_id)
        if job.state != "done":
            return bad("job", f"run {job_id} is {job.state}; accepted: a finished run", 409)
        result = job.result
        if isinstance(result, Path):                 # a report: its folder's link
            name = html.escape(str(result.parent.relative_to(app.state.reports_dir)))    # text, never markup
            return HTMLResponse(f"<p>Report written: <a href='/reports/{name}/report.html'>{name}</a></p>")
        if tables is not None:                       # a page that shows the other tables its own way
            keep = [t for t in tables.split(",") if t]
            if not keep or any(t not in result.tables for t in keep):
                return bad("tables", f"tables {short(tables)} is not accepted; accepted: names among "
                           f"{', '.join(result.tables)}, comma-separated")
            result = replace(result, tables={t: result.tables[t] for t in keep})
        if format == "json":
            from moonshot.reports.text import render_json
            return Response(render_json(result), media_type="application/json")
        if format == "text":
            from moonshot.reports.text import render_table
            return PlainTextResponse(render_table(result))
        if format != "html":
            return bad("format", f"unknown format {short(format)}; accepted: html, json, text")
        return HTMLResponse(result_html(result))
