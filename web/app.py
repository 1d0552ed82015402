"""The routes of `moonshot serve`. Pages are server-rendered Jinja2 templates with a little
vanilla JavaScript (static/app.js); the JSON routes under /api call the library entry points
(moonshot.analysis verbs, never the engines) and run long work through web.jobs.

Why FastAPI: a well-kept, typed layer over Starlette that gives JSON routes, form and upload
parsing, Jinja2 templates, static files and a test client (httpx) from one dependency, served by
uvicorn; nothing to build in the browser.
"""
from __future__ import annotations

import asyncio
import importlib
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from moonshot.simulator.errors import BadInput
from moonshot.simulator.games import GAMES
from moonshot.web import forms, pieces
from moonshot.web.forms import FieldError, Limits
from moonshot.web.jobs import Runner, warm
from moonshot.web.play.session import Table as PlayTable
from moonshot.web.render import result_html

HERE = Path(__file__).parent
PAGES = ("explore", "play", "whatif")
FAST_FAIL = 0.3          # seconds a request waits for a run's own input checks (BadInput before any chunk)


def bad(field: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"field": field, "error": message}, status_code=status)


def create_app(limits: Limits = Limits(), reports_dir: Path = Path("out"), upload_limit: int = 2_000_000,
               abandon_after: float = 60.0) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        threading.Thread(target=warm, args=(limits.jobs,), name="moonshot-warm", daemon=True).start()
        yield
        app.state.runner.stop_all()            # Ctrl-C: runs end now, not after their chunks

    app = FastAPI(title="moonshot", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.limits, app.state.reports_dir, app.state.upload_limit = limits, Path(reports_dir), upload_limit
    app.state.runner = runner = Runner(abandon_after)
    app.state.hands = hands = PlayTable()
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(FieldError)
    async def field_error(request: Request, exc: FieldError):
        return bad(exc.field, str(exc), exc.status)

    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput):
        return bad("form", str(exc))

    def page(request: Request, name: str, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, {"games": GAMES, "limits": limits, **context})

    def game_or_404(game: str):
        if game not in GAMES:
            raise FieldError("game", f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
        return GAMES[game]

    async def body(request: Request) -> dict:
        try:
            data = await request.json()
        except Exception:
            raise FieldError("form", "the request is not a JSON object; accepted: the page's form as JSON") from None
        if not isinstance(data, dict):
            raise FieldError("form", "the request is not a JSON object; accepted: the page's form as JSON")
        return data

    async def started(job) -> JSONResponse:
        """The job's id, or its one-line input error when it failed before any chunk ran."""
        deadline = time.monotonic() + FAST_FAIL
        while job.state == "running" and job.done == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if job.state == "failed":
            return bad(forms.field_of(job.error or ""), job.error or "failed")
        return JSONResponse(job.status(), status_code=202)

    # ------------------------------------------------------------------ pages

    @app.get("/", response_class=HTMLResponse)
    def index(request: Request):
        return page(request, "index.html")

    @app.get("/{game}/{what}", response_class=HTMLResponse)
    def game_page(request: Request, game: str, what: str):
        entry = game_or_404(game)
        if what not in PAGES:
            return PlainTextResponse(f"no page {what!r}; accepted: {', '.join(PAGES)}", status_code=404)
        info = forms.registry()[game]
        return page(request, f"{what}.html", game=entry, info=info, picker=pieces.picker(game))

    # ------------------------------------------------------------------ runs

    @app.post("/api/{game}/hand")
    async def hand(request: Request, game: str):
        entry = game_or_404(game)
        form = await body(request)
        setup = forms.setup(form, game, partners_ok=False)
        hand_text = str(form.get("hand") or "").strip()
        if not hand_text:
            raise FieldError("hand", f"no hand given; accepted: {entry.hand_notation}")
        seat_order = str(form.get("seat_order") or "first")
        samples, seed = forms.samples(form, limits), forms.seed(form)
        analyzer = getattr(importlib.import_module(entry.analysis), "analyze_hand")
        job = runner.start(f"{entry.title}: hand {hand_text}", samples, lambda progress: analyzer(
            setup, hand_text, seat_order, samples, seed, limits.jobs, progress=progress))
        return await started(job)

    @app.post("/api/{game}/whatif")
    async def whatif(request: Request, game: str):
        from moonshot.analysis.common import whatif as run
        entry = game_or_404(game)
        form = await body(request)
        rules = forms._list(form, "change")
        if not rules:
            raise FieldError("change", f"no rules change chosen; accepted: flag=value, e.g. {entry.flags[0].name}="
                             f"{forms._text(entry.flags[0].default)} (`moonshot rules {game}` lists them)")
        try:
            forms.make_setup(game, None, False, rules)
        except BadInput as exc:
            raise FieldError("change", str(exc)) from None
        setup = forms.setup({**form, "rules": []}, game)
        unit = "games" if form.get("unit") == "games" else "hands"
        n = forms.samples(form, limits, "n")
        seed = forms.seed(form)
        job = runner.start(f"{entry.title}: what if {' '.join(rules)}", n, lambda progress: run(
            setup, rules, n if unit == "hands" else None, n if unit == "games" else None, seed, limits.jobs,
            progress=progress))
        return await started(job)

    # ------------------------------------------------------------------ play a hand

    @app.post("/api/{game}/play")
    async def play_start(request: Request, game: str):
        import secrets

        from moonshot.web.play import adapter
        entry = game_or_404(game)
        form = await body(request)
        setup = forms.setup(form, game, partners_ok=True)
        seat = forms.integer(form, "seat", 0, 0, setup.players - 1, "seat")
        seed = forms.integer(form, "seed", secrets.randbelow(10**6), 0, 2**63 - 1, "--seed")
        session = hands.start(entry.name, seat, adapter(game)(setup, seat, seed))
        return await asyncio.to_thread(play_state, session)

    def play_state(session, wait: float = 30.0) -> dict:
        state = session.state(wait)
        state["seed"] = session.adapter.seed
        slaps = getattr(session.adapter, "latencies", None)
        if slaps is not None:
            state["slaps"] = list(slaps)
        return state

    @app.post("/api/profile")
    async def profile(request: Request):
        """A reaction profile fitted to the slaps the page collected (over one or more hands)."""
        from moonshot.web.play.hit_the_deck import SLAP_TIMEOUT, fit_profile
        form = await body(request)
        seat = forms.integer(form, "seat", 0, 0, 5, "seat")
        ms = form.get("ms")
        if not isinstance(ms, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                               and 0 <= x <= SLAP_TIMEOUT for x in ms):
            raise FieldError("ms", f"slap times {str(ms)[:60]!r} are not accepted; accepted: a list of milliseconds "
                             f"from 0 to {SLAP_TIMEOUT:.0f}")
        fitted = fit_profile([float(x) for x in ms[-200:]], seat)
        if fitted is None:
            raise FieldError("ms", f"{len(ms)} slap(s) so far; accepted: at least 3 to fit a profile")
        return fitted

    @app.get("/api/play/{sid}")
    async def play_get(sid: str):
        return await asyncio.to_thread(play_state, hands.get(sid))

    @app.post("/api/play/{sid}/answer")
    async def play_answer(request: Request, sid: str):
        session = hands.get(sid)
        form = await body(request)
        try:
            turn = int(form.get("turn"))
        except (TypeError, ValueError):
            raise FieldError("turn", f"turn {form.get('turn')!r} is not accepted; accepted: the decision's number")
        choice = form.get("choice")
        await asyncio.to_thread(session.answer, turn, choice)
        return await asyncio.to_thread(play_state, session)

    @app.get("/api/play/{sid}/hint")
    async def play_hint(sid: str):
        session = hands.get(sid)
        hint = session.adapter.hint_for
        if hint is None:
            raise FieldError("hint", "no hint now; accepted: ask at one of your plays")
        return await asyncio.to_thread(hint)

    @app.get("/api/play/{sid}/history")
    def play_history(sid: str):
        session = hands.get(sid)
        return Response(session.history(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{session.game}-hand-{session.adapter.seed}.jsonl"'})

    # ------------------------------------------------------------------ replay and reports

    @app.get("/replay", response_class=HTMLResponse)
    def replay_page(request: Request):
        return page(request, "replay.html", upload_limit=app.state.upload_limit)

    @app.post("/api/replay")
    async def replay_upload(request: Request):
        from moonshot.web import replay
        limit = app.state.upload_limit
        size = int(request.headers.get("content-length") or 0)
        if size > limit + 4096:
            raise FieldError("file", f"the upload is {size:,} bytes; accepted: a history file of at most {limit:,} bytes")
        form = await request.form(max_files=1, max_fields=5)
        upload = form.get("file")
        if upload is None or not hasattr(upload, "read"):
            raise FieldError("file", "no file uploaded; accepted: a JSON-lines history file (HISTORY.md)")
        data = await upload.read(limit + 1)
        if len(data) > limit:
            raise FieldError("file", f"the upload is over {limit:,} bytes; accepted: a history file of at most {limit:,} bytes")
        name = Path(upload.filename or "upload").name
        try:
            hands = await asyncio.to_thread(replay.read, data, name)
        except BadInput as exc:
            raise FieldError("file", str(exc)) from None
        return {"file": name, "hands": hands}

    @app.get("/reports", response_class=HTMLResponse)
    def reports_page(request: Request):
        from moonshot.web import reports
        return page(request, "reports.html", reports=reports.listing(app.state.reports_dir),
                    folder=app.state.reports_dir)

    @app.get("/reports/{name:path}/{file}")
    def report_file(name: str, file: str):
        from fastapi.responses import FileResponse

        from moonshot.web import reports
        try:
            path = reports.resolve(app.state.reports_dir, name, file)
        except BadInput as exc:
            return bad("report", str(exc), 404)
        return FileResponse(path)

    @app.post("/api/{game}/report")
    async def report_start(request: Request, game: str):
        from moonshot.web import reports
        entry = game_or_404(game)
        form = await body(request)
        hands_n = forms.integer(form, "hands", min(limits.max_samples, 200_000), 1_000, limits.max_samples, "--hands")
        seed = forms.seed(form)
        out = reports.new_folder(app.state.reports_dir, entry.name, hands_n, seed)
        job = runner.start(f"{entry.title}: report", 8, lambda progress, job: reports.build(
            entry.name, out, hands_n, seed, limits.jobs, progress, job), with_job=True)
        return await started(job)

    def job_of(job_id: str):
        job = runner.get(job_id)
        if job is None:
            raise FieldError("job", f"no run {job_id!r} (finished runs are kept a while, then forgotten)", 404)
        return job

    @app.get("/api/jobs/{job_id}")
    def job_status(job_id: str):
        return job_of(job_id).status()

    @app.post("/api/jobs/{job_id}/cancel")
    def job_cancel(job_id: str):
        return runner.cancel(job_of(job_id).id).status()

    @app.get("/api/jobs/{job_id}/result")
    def job_result(job_id: str, format: str = "html"):
        job = job_of(job_id)
        if job.state != "done":
            return bad("job", f"run {job_id} is {job.state}; accepted: a finished run", 409)
        result = job.result
        if isinstance(result, Path):                 # a report: its folder's link
            name = result.parent.relative_to(app.state.reports_dir)
            return HTMLResponse(f"<p>Report written: <a href='/reports/{name}/report.html'>{name}</a></p>")
        if format == "json":
            from moonshot.reports.text import render_json
            return Response(render_json(result), media_type="application/json")
        if format == "text":
            from moonshot.reports.text import render_table
            return PlainTextResponse(render_table(result))
        if format != "html":
            return bad("format", f"unknown format {format!r}; accepted: html, json, text")
        return HTMLResponse(result_html(result))

    return app
