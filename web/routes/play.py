"""Play a hand: deal, the state of a hand, answers, hints, the hand's history and the slap profile.

Dealing, answering and hinting compute (the bots' decisions, played again on every answer, and
the hint's worlds), so each is page work (web.jobs.Runner.work): it takes one of the server's
slots (429 when they are full), and stops when the server stops, the page's connection closes or
the hand is dropped. The bots' and the hint's worlds are at most the server's --max-worlds."""
from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response

from moonshot.simulator.errors import BadInput, short
from moonshot.web import forms
from moonshot.web.forms import FieldError
from moonshot.web.routes import Site, body, game_or_404


def add(app: FastAPI, site: Site) -> None:
    hands, runner, limits = app.state.hands, app.state.runner, site.limits

    def work(request: Request, fn, session=None):
        """fn() as page work, stopped also once `session` is dropped."""
        return runner.work(fn, stop=None if session is None else session.dropped, gone=request.is_disconnected)

    @app.post("/api/{game}/play")
    async def play_start(request: Request, game: str):
        import secrets

        from moonshot.web.play import adapter
        entry = game_or_404(game)
        form = await body(request)
        setup = forms.setup(form, game, partners_ok=True, limits=limits)
        seat = forms.integer(form, "seat", 0, 0, setup.players - 1, "seat")
        seed = forms.integer(form, "seed", secrets.randbelow(10**6), 0, 2**63 - 1, "--seed")
        return await work(request, lambda: play_state(hands.start(entry.name, seat, adapter(game)(setup, seat, seed))))

    def play_state(session, state: dict | None = None) -> dict:
        state = session.state() if state is None else state
        state["seed"] = session.adapter.seed
        slaps = getattr(session.adapter, "latencies", None)
        if slaps is not None:
            state["slaps"] = list(slaps)
        return state

    @app.post("/api/{game}/profile")
    async def profile(request: Request, game: str):
        """A reaction profile fitted to the timed answers (slaps) the page collected over one or more
        hands, by the game's page parts (`profile(ms, seat)`, where the game has one)."""
        entry = game_or_404(game)
        fit = getattr(entry.page, "profile", None)
        if fit is None:
            raise FieldError("game", f"{entry.title} has no reaction profile; accepted: a game with timed answers", 404)
        form = await body(request)
        seat = forms.integer(form, "seat", 0, 0, max(entry.players) - 1, "seat")
        try:
            return fit(form.get("ms"), seat)
        except BadInput as exc:
            raise FieldError("ms", str(exc)) from None

    @app.get("/api/play/{sid}")
    async def play_get(request: Request, sid: str):
        session = hands.get(sid)
        shown = session.peek()                       # played already: no work, no slot
        if shown is not None:
            return play_state(session, shown)
        return await work(request, lambda: play_state(session), session)

    @app.post("/api/play/{sid}/answer")
    async def play_answer(request: Request, sid: str):
        session = hands.get(sid)
        form = await body(request)
        try:
            turn = int(form.get("turn"))
        except (TypeError, ValueError):
            raise FieldError("turn", f"turn {short(form.get('turn'))} is not accepted; accepted: the decision's number")
        choice = form.get("choice")

        def answered() -> dict:
            session.answer(turn, choice)
            return play_state(session)
        return await work(request, answered, session)

    @app.get("/api/play/{sid}/hint")
    async def play_hint(request: Request, sid: str):
        """The decision in front of the person valued as `moonshot review` values it (analysis.hints):
        {by, unit, note, rows}; `?worlds=` (2..--max-worlds) asks for other than the game's default
        worlds (which a lower --max-worlds lowers)."""
        from moonshot.analysis import hints
        session = hands.get(sid)
        worlds = forms.worlds(dict(request.query_params), limits)
        hint = session.adapter.hint_for
        if hint is None:
            raise FieldError("hint", "no hint now; accepted: ask at one of your plays")
        if worlds is None and hints.worlds_for(session.adapter.setup.entry.review, None) > limits.max_worlds:
            worlds = max(2, limits.max_worlds)
        session.adapter.hint_worlds = worlds         # the game's hint reads it (None: the review's default)
        return await work(request, hint, session)

    @app.get("/api/play/{sid}/history")
    def play_history(sid: str):
        session = hands.get(sid)
        return Response(session.history(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{session.game}-hand-{session.adapter.seed}.jsonl"'})

