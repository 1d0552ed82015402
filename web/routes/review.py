"""Review a played hand: the Replay page sends back one hand's record as its upload
read it, with the seats to review, the worlds per decision and the seed; the review runs as a web.jobs job
(progress per decision, cancel) and its result is a Result whose decisions table says at which
replay step each decision was taken. The record is checked again here (the game's own replay,
as for an upload): the page's copy is input like any other."""
from __future__ import annotations

from fastapi import FastAPI, Request

from moonshot.simulator.errors import BadInput, short
from moonshot.web import forms
from moonshot.web.forms import FieldError
from moonshot.web.routes import Site, body, started


def add(app: FastAPI, site: Site) -> None:
    limits, runner = site.limits, app.state.runner

    @app.post("/api/review")
    async def review_start(request: Request):
        from moonshot.analysis.review import MAX_WORLDS, planned
        from moonshot.web import replay
        form = await body(request)
        record = form.get("record")
        if not isinstance(record, dict):
            raise FieldError("record", f"record {short(record)} is not a hand; accepted: one hand's record as the "
                             "Replay page read it (a JSON object of a history file's line)")
        seats = form.get("seats") or []
        if not isinstance(seats, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in seats):
            raise FieldError("seats", f"seats {short(seats)} is not accepted; accepted: a list of seat numbers")
        worlds = forms.integer(form, "worlds", None, 2, MAX_WORLDS, "--worlds")
        seed = forms.seed(form)
        for field, asked in (("record", None), ("seats", seats or None)):    # before any work: the record
            try:                                                           # and its game's hook, then the seats
                total = planned([record], asked)
            except BadInput as exc:
                raise FieldError(field, str(exc)) from None
        job = runner.start(f"review of {record['game']} hand {record['hand_id']}", total or 1,
                           lambda progress: replay.review(record, seats, worlds, seed, limits.jobs, progress))
        return await started(job, used={"seed": seed})      # the page's link carries it (static/links.js)
