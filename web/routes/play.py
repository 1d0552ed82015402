"""Play a hand: deal, the state of a hand, answers, hints, the hand's history and the slap profile."""
from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import Response

from moonshot.simulator.errors import BadInput, short
from moonshot.web import forms
from moonshot.web.forms import FieldError
from moonshot.web.routes import Site, body, game_or_404


def add(app: FastAPI, site: Site) -> None:
    hands = app.state.hands

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
    async def play_get(sid: str):
        return await asyncio.to_thread(play_state, hands.get(sid))

    @app.post("/api/play/{sid}/answer")
    async def play_answer(request: Request, sid: str):
        session = hands.get(sid)
        form = await body(request)
        try:
            turn = int(form.get("turn"))
        except (TypeError, ValueError):
            raise FieldError("turn", f"turn {short(form.get('turn'))} is not accepted; accepted: the decision's number")
        choice = form.get("choice")
        await asyncio.to_thread(session.answer, turn, choice)
        return await asyncio.to_thread(play_state, session)

    @app.get("/api/play/{sid}/hint")
    async def play_hint(request: Request, sid: str):
        """The decision in front of the person valued as `moonshot review` values it (analysis.hints):
        {by, unit, note, rows}; `?worlds=` (2..4096) asks for other than the game's default worlds."""
        from moonshot.analysis.review import MAX_WORLDS
        session = hands.get(sid)
        worlds = forms.integer(dict(request.query_params), "worlds", None, 2, MAX_WORLDS, "worlds")
        hint = session.adapter.hint_for
        if hint is None:
            raise FieldError("hint", "no hint now; accepted: ask at one of your plays")
        session.adapter.hint_worlds = worlds         # the game's hint reads it (None: the review's default)
        return await asyncio.to_thread(hint)

    @app.get("/api/play/{sid}/history")
    def play_history(sid: str):
        session = hands.get(sid)
        return Response(session.history(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{session.game}-hand-{session.adapter.seed}.jsonl"'})
