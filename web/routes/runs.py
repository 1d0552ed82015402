"""The runs a page starts: one hand's analysis, a what-if and a report (each a web.jobs job)."""
from __future__ import annotations

from fastapi import FastAPI, Request

from moonshot.analysis import hand_check
from moonshot.simulator.errors import BadInput
from moonshot.web import forms
from moonshot.web.forms import FieldError
from moonshot.web.routes import Site, body, game_or_404, started


def add(app: FastAPI, site: Site) -> None:
    limits, runner = site.limits, app.state.runner

    @app.post("/api/{game}/hand")
    async def hand(request: Request, game: str):
        entry = game_or_404(game)
        analyzer = entry.hand_analyzer
        if analyzer is None:
            raise FieldError("game", f"{entry.title} has no hand analysis (`moonshot hand` does not take it "
                             "either); accepted: a game with one")
        form = await body(request)
        setup = forms.setup(form, game, partners_ok=False, limits=limits)
        hand_text = str(form.get("hand") or "").strip()
        if not hand_text:
            raise FieldError("hand", f"no hand given; accepted: {entry.hand_notation}")
        seat_order = str(form.get("seat_order") or "first")
        samples, seed = forms.samples(form, limits), forms.seed(form)
        check = forms.integer(form, "check_samples", None, 0, hand_check.PAGE_MAX, "check deals")
        try:
            deals = hand_check.planned(analyzer, check, samples, setup.players)
        except BadInput as exc:
            raise FieldError("check_samples", str(exc)) from None
        job = runner.start(f"{entry.title}: hand {hand_text}", samples + deals, lambda progress: hand_check.analyze(
            analyzer, setup, hand_text, seat_order, samples, seed, limits.jobs, progress, check))
        has_check = hand_check.spec_of(analyzer) is not None        # the deals it checks: a link reopens them
        return await started(job, {"samples": samples, "seed": seed, "check_samples": deals if has_check else None})

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
        setup = forms.setup({**form, "rules": []}, game, limits=limits)
        unit = "games" if form.get("unit") == "games" else "hands"
        n = forms.samples(form, limits, "n")
        seed = forms.seed(form)
        rounds = forms.until(form)          # with it, n is the budget
        label = f"{entry.title}: what if {' '.join(rules)}"

        def work(progress, job=None):
            hands, games = (n, None) if unit == "hands" else (None, n)
            if rounds is None:
                return run(setup, rules, hands, games, seed, limits.jobs, progress=progress)
            return until_run(job, rounds, unit, lambda rule: run(setup, rules, hands, games, seed, limits.jobs,
                                                                 progress=progress, until=rule))
        job = runner.start(label, n, work, with_job=rounds is not None)
        return await started(job, {"n": n, "seed": seed})

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


def until_run(job, rounds, what: str, run):
    """A run under --until from a page: each round's line on the job's status (the page's run bar),
    then how it stopped (the result's note, analysis.until's words) in its place."""
    from dataclasses import replace

    from moonshot.analysis.until import Stopped
    res = run(replace(rounds, say=lambda line: setattr(job, "detail", line)))
    meta = res.meta
    job.detail = Stopped(meta[what], meta["widest_interval"], meta["stopped_by"], meta["rounds"]).said(rounds, what)
    return res
