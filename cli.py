"""moonshot command line: `moonshot <verb> <game> [options]`.

Bad input of any kind ends with one line on stderr naming the value and what is accepted, exit
code 2, and no output file left behind. Ctrl-C stops cleanly (exit 130), and so does a plain `kill`
(SIGTERM, exit 143), also leaving nothing (a --save store keeps its chunks and says how to resume).
"""
from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import List, Optional

# The batch engines parallelise by processes; BLAS threads inside each would only fight over cores
# (Hit the Deck's tactician runs much slower with them). Set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import typer

from moonshot import inputs, startup
from moonshot.simulator.errors import BadInput
from moonshot.simulator.files import atomic_file, atomic_write, writing
from moonshot.simulator.histories import replayed
from moonshot.simulator.runner import CHUNK, DEFAULT_SEED


class App(typer.Typer):
    """Typer app whose every failure is one line: usage errors and BadInput exit 2; its commands'
    help comes from the game registry (RegistryHelp)."""

    def command(self, *args, cls=None, **kwargs):
        return super().command(*args, cls=cls or RegistryHelp, **kwargs)

    def __call__(self, *args, **kwargs):
        from moonshot.simulator import stopping
        _STOPPED.update(by="interrupted", kept=None, signalled=False)
        previous = startup.handed_over(_catch_signals())      # the catch while the package loaded ends
        try:
            # The watch hears a signal whose KeyboardInterrupt was swallowed (numba's compiler calls
            # back through ctypes, which prints and drops an exception raised there): the run then
            # stops at its next check, between chunks or inside one.
            with stopping.watching(stop=lambda: _STOPPED["signalled"]):
                code = super().__call__(*args, standalone_mode=False, **kwargs)
            if code == 130:                 # typer turns Ctrl-C into this exit code when not standalone
                _interrupted()
            return code
        except (KeyboardInterrupt, typer.Abort, stopping.Stopped):
            _interrupted()
        except BadInput as exc:
            _fail(str(exc))
        except BrokenPipeError:             # the reader of stdout went away (`| head`): nothing to say
            _quiet_stdout()
            sys.exit(141)                   # 128 + SIGPIPE, as a shell reports it
        except OSError as exc:              # a fault no output's writer named (each names its own file)
            if _STOPPED["signalled"]:
                _interrupted()
            _fail(_os_line(exc))
        except Exception as exc:   # click's / typer's usage errors (the module differs by version)
            if _STOPPED["signalled"]:   # an interrupt raised inside compiled code's call comes out as a
                _interrupted()          # SystemError ("returned a result with an exception set")
            if type(exc).__name__ == "NoArgsIsHelpError":
                print(exc.format_message() if hasattr(exc, "format_message") else exc, file=sys.stderr)
                sys.exit(2)
            if hasattr(exc, "format_message") and getattr(exc, "exit_code", 0) == 2:
                _fail(_usage_line(exc))
            raise
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a plain `kill`) raised as an interrupt: the same clean-up as Ctrl-C runs (temporary
    files removed, worker processes stopped, a --save store's chunks kept), then exit 143 (128 +
    SIGTERM) rather than Python's default of dying on the spot with every temporary file left."""


def _on_signal(signum, frame) -> None:
    _STOPPED["signalled"] = True
    if signum == signal.SIGTERM:
        _STOPPED["by"] = "terminated"
        raise Terminated()
    raise KeyboardInterrupt


def _catch_signals() -> dict:
    """While a command runs, SIGTERM raises Terminated and SIGINT KeyboardInterrupt, and both are
    remembered (see App.__call__). The handlers there were before, to put back; none where signals
    cannot be set (not the main thread: a test's or a host's thread), or where SIGINT is ignored."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, _on_signal)}
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _on_signal)
    return previous


def _usage_line(exc) -> str:
    """click's usage error on one line, with what is accepted where click does not say it."""
    message = " ".join(exc.format_message().split())
    if message.startswith("No such command"):
        names = sorted([(c.name or c.callback.__name__) for c in app.registered_commands]
                       + [g.name for g in app.registered_groups])
        message += f" accepted: {', '.join(names)}"
    elif message.lower().startswith("missing argument 'analysis'"):
        message += " accepted: the names `moonshot analyze GAME list` prints"
    elif message.lower().startswith("missing argument 'game'"):
        from moonshot.simulator.games import GAMES
        message += f" accepted: {', '.join(GAMES)}"
    return message


def _os_line(exc: OSError) -> str:
    """An OSError on one line: the file(s) it names and the system's reason."""
    from moonshot.simulator.errors import short
    where = " -> ".join(short(str(f), 120) for f in (exc.filename, exc.filename2) if f is not None)
    reason = exc.strerror or " ".join(str(exc).split()) or type(exc).__name__
    return f"{where + ': ' if where else ''}{reason}"


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so Python's flush at exit does not fail on the closed pipe again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _fail(message: str) -> None:
    print(f"moonshot: error: {message}", file=sys.stderr)
    sys.exit(2)


# What an interrupted run leaves to say: set where it is known, read by _interrupted (typer turns the
# KeyboardInterrupt into exit code 130 and drops it, so these cannot ride on the exception).
_STOPPED = {"by": "interrupted", "kept": None, "signalled": False}


def _interrupted() -> None:
    """Ctrl-C (130) or SIGTERM (143): what was kept (a --save store's chunks and how to finish it),
    else that nothing was written."""
    print(f"moonshot: {_STOPPED['by']}; {_STOPPED['kept'] or 'no output written'}", file=sys.stderr)
    import atexit
    atexit.register(_silent_exit)        # runs before the handlers registered earlier (Dask's, loky's)
    sys.exit(143 if _STOPPED["by"] == "terminated" else 130)


def _silent_exit() -> None:
    """After the one line an interrupt prints, nothing more: the libraries' exit handlers (a Dask
    cluster stopped while it was starting, loky's workers) would print their tracebacks after it."""
    try:
        sys.stderr.flush()
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        sys.stderr = os.fdopen(quiet, "w")
        sys.unraisablehook = lambda *args: None
    except (OSError, ValueError):
        pass


def _games_text(describe=None) -> str:
    """'a, b and c' of the registered games (their titles), or 'name: what' for each where
    `describe(entry)` says something: help texts are built from the registry, never written per game."""
    from moonshot.simulator.games import GAMES
    if describe is None:
        titles = [g.title for g in GAMES.values()]
        return ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else titles[0]
    return "; ".join(f"{g.name}: {text}" for g in GAMES.values() if (text := describe(g)))


def _players_text(entry) -> str:
    lo, hi = min(entry.players), max(entry.players)
    return " or ".join(map(str, entry.players)) if len(entry.players) <= 2 else f"{lo}..{hi}"


def _profile_games(entry) -> str:
    return "yes" if "profile" in entry.options else ""


# Option help that names the games, filled from the registry when --help is shown.
OPTION_HELP = {
    "players": lambda: "table size: " + _games_text(_players_text),
    "profile": lambda: (f"reaction profile for the slap race ({_games_text(_profile_games).replace(': yes', '')}): "
                        "NAME, SEAT=NAME or NAME:k=v"),
}


class RegistryHelp(typer.core.TyperCommand):
    """Every command's --help says what the registered games offer (table sizes, their analyses,
    ...), computed only when the help is shown: a game registered later is listed too, and a plain
    run imports no analysis module for it. `describe(entry)` closes the help per game."""
    describe = None

    def format_help(self, ctx, formatter):
        for param in self.params:
            if param.name in OPTION_HELP:
                param.help = OPTION_HELP[param.name]()
        if self.describe is not None and "Per game:" not in (self.help or ""):
            self.help = f"{self.help}\n\nPer game: {_games_text(type(self).describe)}."
        super().format_help(ctx, formatter)


def per_game(describe) -> type:
    return type("PerGameHelp", (RegistryHelp,), {"describe": staticmethod(describe)})


app = App(help=f"Monte Carlo strategy analyzer for {_games_text()}. Every number is "
               "shown as 'estimate [95% interval]' with n, its sample size, under the strategies named in the "
               "output; `moonshot glossary GAME` says what each column means.",
          add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None, no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            print(f"moonshot {version('moonshot')}")
        except PackageNotFoundError:
            print("moonshot (not installed)")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", help="print the version and exit", is_eager=True,
                                      callback=_version)):
    """Monte Carlo strategy analyzer for the games `moonshot --help` names."""


# ------------------------------------------------------------------------------------------
# shared option handling
# ------------------------------------------------------------------------------------------

@contextmanager
def _progress(total: int, quiet: bool, label: str):
    """A progress bar on stderr for interactive runs: it appears once a run has taken two seconds
    (MOONSHOT_PROGRESS_DELAY), and a spinner and the time so far keep moving while a long chunk
    runs (games mode, single-chunk analyses); silent otherwise."""
    delay = float(os.environ.get("MOONSHOT_PROGRESS_DELAY", "2"))
    if quiet or not sys.stderr.isatty():
        yield None
        return
    import threading

    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    bar = Progress(SpinnerColumn(), TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn(), transient=True)
    task = bar.add_task(label, total=total)
    timer = threading.Timer(delay, bar.start)
    timer.daemon = True
    timer.start()
    try:
        yield lambda n: bar.advance(task, n)
    finally:
        timer.cancel()
        bar.stop()


def _emit(result, fmt: str, out: Optional[Path]) -> None:
    from moonshot.reports import text
    if fmt == "parquet":
        text.write_parquet(result, out)
        print(f"wrote {out}", file=sys.stderr)
        return
    rendered = text.render(result, fmt)
    if out is not None:
        atomic_write(out, lambda p: p.write_text(rendered + "\n"))
        print(f"wrote {out}", file=sys.stderr)
    else:
        print(rendered)


PlayersOpt = typer.Option(None, "--players", "-p", help="table size (the games' ranges: --help)")
PartnersOpt = typer.Option(False, "--partners", help="partnerships (4 or 6 players)")
HandsOpt = typer.Option(None, "--hands", "-n", help="hands (rounds) to play")
GamesOpt = typer.Option(None, "--games", help="play whole games instead of single hands")
StrategyOpt = typer.Option(None, "--strategy", "-s", help="NAME, SEAT=NAME, NAME:k=v or SEAT=file.py:Class")
RuleOpt = typer.Option(None, "--rule", "-r", help="rules flag, e.g. stm.moon_chip_netting=sequential")
ProfileOpt = typer.Option(None, "--profile", help="reaction profile for the slap race: NAME, SEAT=NAME or NAME:k=v")
SeedOpt = typer.Option(DEFAULT_SEED, "--seed", help="random seed (0 or more): the same seed gives the same numbers",
                       callback=inputs.seed)
JobsOpt = typer.Option(1, "--jobs", "-j", help="parallel worker processes (-1: every core; at most the cores)",
                       callback=inputs.jobs)
FormatOpt = typer.Option(None, "--format", "-f", help="table, json, csv or parquet (default: from --out's "
                         "extension, else table)")
OutOpt = typer.Option(None, "--out", "-o", help="write the output to this file")
QuietOpt = typer.Option(False, "--quiet", "-q", help="no progress bar")
UntilOpt = typer.Option(None, "--until", help="play in rounds until every headline interval is narrower than this "
                        "(in its unit; percentage points for a rate); -n/--games is then the budget (default "
                        "10,000,000 hands or 100,000 games)")
MaxTimeOpt = typer.Option(None, "--max-time", help="with --until: stop after the round that passes this many seconds "
                          "(the numbers then depend on the machine's speed)")
SeatOpt = typer.Option(None, "--seat", help="the seat whose hand is analysed (default 0)")
SchedulerOpt = typer.Option(None, "--scheduler", help="run the chunks on a Dask cluster: tcp://HOST:PORT or local:N "
                            "(pip install 'moonshot[cluster]')")
SaveOpt = typer.Option(None, "--save", help="keep the run in this new folder as it goes, to --resume or `runs show`")
ResumeOpt = typer.Option(None, "--resume", help="finish the run stored in this folder: the same command, --resume "
                         "for --save")


def _setup(game, players, partners, rules, strategies, profiles=None):
    from moonshot.analysis.common import make_setup
    from moonshot.compile import announce
    announce(game.name)                  # a first run says why it waits: the kernels compile once
    return make_setup(game.name, players, partners, rules, strategies, profiles)


@contextmanager
def _runs(ctx: typer.Context, setup, scheduler: Optional[str], save: Optional[Path], resume: Optional[Path]):
    """--scheduler, --save and --resume around a verb's run: every chunk it plays goes to the
    cluster and into the run store, whose manifest holds the verb's options as given. Yields
    keep(result), which stores the finished result."""
    if scheduler is None and save is None and resume is None:
        yield lambda result: None
        return
    import inspect

    from moonshot.reports.text import render
    from moonshot.simulator import cluster, store
    params = ctx.params
    if resume is not None and params.get("history") is not None:
        raise BadInput("--resume plays only the chunks the store lacks, so it cannot write every hand's history; "
                       "accepted: --history on a run with --save or without a store")
    as_dict = setup.table.rules.as_dict                   # every flag in force (Moon's depend on the table size)
    rules = as_dict(setup.players) if inspect.signature(as_dict).parameters else as_dict()
    manifest = store.new_manifest(ctx.info_name, params, game=setup.game, rules=rules,
                                  strategies=list(setup.seats.specs), seed=params.get("seed"), chunk=CHUNK,
                                  command=_command_line(ctx))
    store.check(save, resume, manifest)                  # before a cluster starts: writes nothing
    with cluster.scheduler(scheduler), store.recording(save, resume, manifest) as kept:
        try:
            yield (lambda result: kept.finish(render(result, "json"))) if kept is not None else (lambda result: None)
        except BaseException as exc:                     # Ctrl-C or SIGTERM: say what the store kept
            if kept is not None and (isinstance(exc, KeyboardInterrupt) or _STOPPED["signalled"]):
                p = kept.progress()
                _STOPPED["kept"] = (f"{p['done']} of {p['chunks']} chunks kept in {kept.path}; finish with: "
                                    f"{kept.command()} --resume {kept.path}")
            raise


# ------------------------------------------------------------------------------------------
# verbs
# ------------------------------------------------------------------------------------------

def _command_line(ctx: typer.Context) -> str:
    """The command as a user would type it again (options at their defaults and the per-run outputs
    --save, --resume, --save-hands, --history left out)."""
    import shlex
    words = ["moonshot", ctx.info_name]
    for p in ctx.command.params:
        value = ctx.params.get(p.name)
        if p.name in ("save", "resume", "save_hands", "history") or value in (None, False, [], ()):
            continue
        if p.param_type_name == "argument":
            words.append(str(value))
        elif value != p.default:
            flag = max(p.opts, key=len)
            for v in (value if isinstance(value, (list, tuple)) else [value]):
                words += [flag] if v is True else [flag, str(v)]
    return " ".join(shlex.quote(w) for w in words)


@app.command()
def simulate(ctx: typer.Context, game: str, players: Optional[int] = PlayersOpt, partners: bool = PartnersOpt,
             hands: Optional[int] = HandsOpt, games: Optional[int] = GamesOpt,
             strategy: Optional[List[str]] = StrategyOpt, rule: Optional[List[str]] = RuleOpt,
             profile: Optional[List[str]] = ProfileOpt,
             seed: int = SeedOpt, jobs: int = JobsOpt, history: Optional[Path] = typer.Option(
                 None, "--history", help="write every hand to this JSON-lines file (HISTORY.md)"),
             save_hands: Optional[Path] = typer.Option(None, "--save-hands", help="write one row per hand to this "
                                                       "Parquet file (deal features, choices, outcomes per seat)"),
             format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
             scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
             resume: Optional[Path] = ResumeOpt):
    """Play hands (or whole games) and print the headline numbers per seat or side."""
    from moonshot.analysis.common import simulate as run
    from moonshot.simulator.store import RESUME_HANDS, check_hands_file, hands_file
    entry = inputs.game(game)
    fmt = inputs.out_format(format, out)
    inputs.counts(hands, games)
    if history is not None and out is not None and history.absolute() == out.absolute():
        raise BadInput(f"--history and --out are the same file {str(out)!r}; accepted: two different files")
    inputs.out_file(out), inputs.out_file(history, "--history")
    if save_hands is not None:
        if games:
            raise BadInput("--save-hands records hands; use it with --hands, not --games")
        if resume is not None:
            raise BadInput(RESUME_HANDS)
        check_hands_file(save_hands)
    setup = _setup(entry, players, partners, rule, strategy, profile)
    total = games or hands or 100_000
    with _runs(ctx, setup, scheduler, save, resume) as keep, _history_writer(history, total) as write, \
            hands_file(save_hands), _progress(total, quiet, "simulating") as progress:
        result = run(setup, None if games else total, games, seed, jobs, progress=progress, on_records=write)
        keep(result)
    _emit(result, fmt, out)


@contextmanager
def _history_writer(path: Optional[Path], total: int):
    """Stream JSON lines into a temporary file; it becomes `path` only when the run succeeds. Its
    estimated size is said first when it is big (simulator.eta)."""
    if path is None:
        yield None
        return
    from moonshot.simulator.eta import say_history_size
    with atomic_file(path) as tmp:
        with writing(path):
            fh = tmp.open("w")
        try:
            def write(lines: list[str]) -> None:
                with writing(path):               # a full disk: one line naming the file, not the run's
                    if fh.tell() == 0:
                        say_history_size(path, lines, total)
                    fh.write("\n".join(lines) + "\n")
            yield write
        except BaseException:
            try:
                fh.close()
            except OSError:                       # the failure already being raised says more
                pass
            raise
        with writing(path):
            fh.close()


@app.command(cls=per_game(lambda g: ", ".join(g.analyses)))
def analyze(ctx: typer.Context, game: str, analysis: str, players: Optional[int] = PlayersOpt,
            partners: bool = PartnersOpt,
            hands: Optional[int] = HandsOpt, games: Optional[int] = GamesOpt,
            strategy: Optional[List[str]] = StrategyOpt, rule: Optional[List[str]] = RuleOpt,
            profile: Optional[List[str]] = ProfileOpt,
            seed: int = SeedOpt, jobs: int = JobsOpt, seat: Optional[int] = SeatOpt,
            format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
            scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
            resume: Optional[Path] = ResumeOpt):
    """Run one of the game's analyses (`moonshot analyze GAME list` names them)."""
    from moonshot.analysis.common import analysis_setups, run_analysis
    entry = inputs.game(game)
    analyses = entry.analyses
    if analysis == "list":
        for name, spec in analyses.items():
            print(f"{name} ({spec.unit}, default {spec.default:,}): {spec.help}")
        return
    spec = inputs.analysis(entry, analysis)
    fmt = inputs.out_format(format, out)
    n = inputs.analysis_count(analysis, spec.unit, spec.default, hands, games)
    inputs.out_file(out)
    setups = analysis_setups(spec, _setup(entry, players, partners, rule, strategy, profile), players is not None)
    seat = inputs.analysis_seat(entry, analysis, seat, setups)
    with _runs(ctx, setups[0], scheduler, save, resume) as keep, \
            _progress(n * len(setups), quiet, analysis) as progress:
        result = run_analysis(spec, setups, n, seed, jobs, seat, progress)
        keep(result)
    _emit(result, fmt, out)


@app.command()
def compare(ctx: typer.Context, game: str, strategy: str = typer.Option(..., "--strategy", "-s", help="strategy A"),
            vs: str = typer.Option(..., "--vs", help="strategy B"), players: Optional[int] = PlayersOpt,
            partners: bool = PartnersOpt, hands: Optional[int] = HandsOpt, games: Optional[int] = GamesOpt,
            rule: Optional[List[str]] = RuleOpt, profile: Optional[List[str]] = ProfileOpt,
            seed: int = SeedOpt, jobs: int = JobsOpt,
            format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
            scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
            resume: Optional[Path] = ResumeOpt, until: Optional[float] = UntilOpt,
            max_time: Optional[float] = MaxTimeOpt):
    """Strategy A against strategy B on the same deals, seats rotated; the paired difference."""
    from moonshot.analysis.common import match
    _paired(game, players, partners, rule, None, profile, hands, games, format, out, quiet, "comparing",
            lambda setup, n, progress, rounds: match(setup, strategy, vs, None if games else n, games and n, seed,
                                                     jobs, progress=progress, until=rounds),
            (ctx, scheduler, save, resume), (until, max_time))


def _paired(game, players, partners, rules, strategies, profiles, hands, games, fmt, out, quiet, label, run,
            runs: tuple, until: tuple) -> None:
    """The common steps of compare and whatif: check, build the table, run with progress (and
    `runs`: the context, --scheduler, --save, --resume; `until`: --until, --max-time), emit."""
    from moonshot.analysis.until import BUDGET, rule, said_to_stderr
    entry = inputs.game(game)
    fmt = inputs.out_format(fmt, out)
    inputs.counts(hands, games)
    inputs.out_file(out)
    rounds = rule(*until, said_to_stderr(quiet))
    setup = _setup(entry, players, partners, rules, strategies, profiles)
    n = games or hands or (100_000 if rounds is None else BUDGET["games" if games else "hands"])
    ctx, scheduler, save, resume = runs
    with _runs(ctx, setup, scheduler, save, resume) as keep, _progress(n, quiet, label) as progress:
        result = run(setup, n, progress, rounds)
        keep(result)
    _emit(result, fmt, out)


@app.command()
def whatif(ctx: typer.Context, game: str, rule: Optional[List[str]] = RuleOpt, players: Optional[int] = PlayersOpt,
           partners: bool = PartnersOpt, hands: Optional[int] = HandsOpt, games: Optional[int] = GamesOpt,
           strategy: Optional[List[str]] = StrategyOpt, profile: Optional[List[str]] = ProfileOpt,
           seed: int = SeedOpt, jobs: int = JobsOpt,
           format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
           scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
           resume: Optional[Path] = ResumeOpt, until: Optional[float] = UntilOpt,
           max_time: Optional[float] = MaxTimeOpt):
    """The same deals under the default rules and with the --rule changes; paired differences."""
    from moonshot.analysis.common import whatif as run
    _paired(game, players, partners, None, strategy, profile, hands, games, format, out, quiet, "what-if",
            lambda setup, n, progress, rounds: run(setup, list(rule or []), None if games else n, games and n, seed,
                                                   jobs, progress=progress, until=rounds),
            (ctx, scheduler, save, resume), (until, max_time))


@app.command("rules-lab")
def rules_lab(ctx: typer.Context, game: str, players: Optional[int] = PlayersOpt, partners: bool = PartnersOpt,
              games: Optional[int] = typer.Option(None, "--games", help="games per rule change (default: the game's)"),
              hands: Optional[int] = typer.Option(None, "--hands", "-n", help="hands per rule change (default: the "
                                                  "game's)"),
              sets: Optional[List[str]] = typer.Option(None, "--set", help="a named rule set instead of the sweep, "
                                                       "e.g. family=stm.target_chips=5,stm.starting_chips=0 (repeat)"),
              strong: Optional[str] = typer.Option(None, "--strong", help="the skill measure's strong player "
                                                   "(default: the game's default strategy)"),
              weak: Optional[str] = typer.Option(None, "--weak", help="the skill measure's baseline players "
                                                 "(default: the game's simplest non-random heuristic: greedy, "
                                                 "greedy, dump)"),
              figure: Optional[Path] = typer.Option(None, "--figure", help="also draw the ranked changes, one "
                                                    "panel per measure, into this PNG file"),
              strategy: Optional[List[str]] = StrategyOpt, rule: Optional[List[str]] = RuleOpt,
              profile: Optional[List[str]] = ProfileOpt, seed: int = SeedOpt, jobs: int = JobsOpt,
              format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
              scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
              resume: Optional[Path] = ResumeOpt,
              until: Optional[float] = typer.Option(None, "--until", help="play the games in rounds until every "
                                                    "P(win) effect (fairness, skill) is narrower than this many "
                                                    "percentage points; --games is then the budget (default "
                                                    "100,000), the hands are played once"),
              max_time: Optional[float] = MaxTimeOpt):
    """Which house rules matter: every rules flag's other values (or --set rule sets) against the
    defaults on the same games and deals, ranked, with what each does to length, fairness and skill.
    --until WIDTH: games in rounds until every P(win) effect is that narrow (--games the budget)."""
    from moonshot.analysis.rules_lab import GAMES_CHUNK, rules_lab as run, trial_seconds
    from moonshot.analysis.until import BUDGET, FIRST, rule as until_rule, said_to_stderr
    from moonshot.simulator.eta import duration
    entry = inputs.game(game)
    fmt = inputs.out_format(format, out)
    games, hands = inputs.count("--games", games), inputs.count("--hands", hands)
    inputs.out_file(out), inputs.out_file(figure, "--figure")
    rounds = until_rule(until, max_time, said_to_stderr(quiet))
    setup = _setup(entry, players, partners, rule, strategy, profile)
    games = games or (setup.hooks.lab_size[0] if rounds is None else BUDGET["games"])
    hands = hands or setup.hooks.lab_size[1]
    with _runs(ctx, setup, scheduler, save, resume) as keep:
        if not quiet and resume is None:          # a sweep can take minutes: say so before starting
            first = games if rounds is None else min(games, FIRST * GAMES_CHUNK)
            seconds = trial_seconds(setup, first, hands, strong, weak, sets, jobs)
            if seconds > 10:
                print(f"moonshot: rules-lab: about {duration(seconds)} on {jobs} job(s) for {first:,} games and "
                      f"{hands:,} hands per rule change" + ("" if rounds is None else " (the first round)")
                      + " (from a short trial of the defaults)", file=sys.stderr)
        with _progress(games + hands, quiet, "rules lab") as progress:
            result = run(setup, games, hands, seed, jobs, strong, weak, sets, progress, rounds)
        keep(result)
    if figure is not None and "ranked" in result.tables:
        from moonshot.reports.rules_lab import rules_lab_figure
        from moonshot.reports.text import atomic_write
        atomic_write(figure, lambda p: rules_lab_figure(result).savefig(p, format="png", dpi=110, bbox_inches="tight"))
        print(f"wrote {figure}", file=sys.stderr)
    _emit(result, fmt, out)


@app.command()
def report(ctx: typer.Context, game: str, out: Path = typer.Option(..., "--out", "-o", help="folder for the report"),
           hands: Optional[int] = HandsOpt, seed: int = SeedOpt, jobs: int = JobsOpt, quiet: bool = QuietOpt,
           scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
           resume: Optional[Path] = ResumeOpt):
    """Write report.md, report.html (figures embedded), PNG figures and CSV tables into a folder."""
    entry = inputs.game(game)
    from moonshot.simulator.spec import optional
    optional(entry, "report")                 # a game without one: one line, before any work
    hands = inputs.report_hands(hands)
    from moonshot.reports.document import check_report_folder
    check_report_folder(out)
    from moonshot.analysis.result import Result
    with _runs(ctx, _setup(entry, None, False, None, None), scheduler, save, resume) as keep:
        path = entry.build_report(out, hands, seed, jobs, quiet=quiet)
        keep(Result(f"{entry.title}: report", {"game": entry.name, "hands": hands, "seed": seed,
                                               "report": str(path)}, notes=[f"report written: {path}"]))
    print(f"report written: {path}")


@app.command(cls=per_game(lambda g: g.hand_notation if g.hand_analyzer else ""))
def hand(ctx: typer.Context, game: str,
         hand: str = typer.Option(..., "--hand", help="the hand, in the game's notation (below)"),
         seat_order: str = typer.Option("first", "--seat-order", help="first, middle or last to bid (or play)"),
         players: Optional[int] = PlayersOpt,
         samples: int = typer.Option(100_000, "--samples", help="deals per choice"),
         strategy: Optional[List[str]] = StrategyOpt, rule: Optional[List[str]] = RuleOpt,
         profile: Optional[List[str]] = ProfileOpt, seed: int = SeedOpt,
         jobs: int = JobsOpt, format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
         scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
         resume: Optional[Path] = ResumeOpt,
         check_samples: Optional[int] = typer.Option(None, "--check-samples", help="deals on which the top "
                                                     "choices are played again with the search player in every "
                                                     "seat (0: no check; default: the game's, a few hundred)")):
    """The hand analyzer: the odds and expected score of one hand (moon: every trump and bid), and a
    check of its advice with the search player in every seat."""
    from moonshot.analysis.hand_check import analyze, planned
    entry = inputs.game(game)
    analyze_hand = inputs.hand_analyzer(entry)
    fmt = inputs.out_format(format, out)
    inputs.count("--samples", samples)
    inputs.out_file(out)
    setup = _setup(entry, players, False, rule, strategy, profile)
    total = samples + planned(analyze_hand, check_samples, samples, setup.players)
    with _runs(ctx, setup, scheduler, save, resume) as keep, _progress(total, quiet, "hand") as progress:
        result = analyze(analyze_hand, setup, hand, seat_order, samples, seed, jobs, progress, check_samples)
        keep(result)
    _emit(result, fmt, out)


@app.command()
def solve(game: str, hands: str = typer.Option(..., "--hands", help='one hand per seat split by "/", e.g. '
                                               '"6-6 6-5 4-1 3-3 / 5-5 5-2 5-3 1-1 / 6-4 4-4 3-1 2-2"'),
          trump: str = typer.Option(..., "--trump",
                                    help="0-6, doubles or notrump (or in words: blanks..sixes, no trump)"),
          bidder: int = typer.Option(0, "--bidder", help="the bidder's seat"),
          leader: int = typer.Option(0, "--leader", help="the seat to lead"),
          players: Optional[int] = PlayersOpt, rule: Optional[List[str]] = RuleOpt,
          format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt):
    """Exact play from open hands: the bidder side's tricks under best play by all, and the value
    of every legal first move (games with a solver: moon)."""
    from moonshot.simulator.games import GAMES
    entry = inputs.game(game)
    if entry.solver is None:
        have = [g.name for g in GAMES.values() if g.solver]
        raise BadInput(f"there is no solver for {entry.name}; accepted: {', '.join(have)}")
    fmt = inputs.out_format(format, out)
    inputs.out_file(out)
    setup = _setup(entry, players, False, rule, None)
    result = importlib.import_module(entry.solver).solve_position(setup, hands, trump, bidder, leader)
    _emit(result, fmt, out)


@app.command()
def tournament(ctx: typer.Context, game: str, strategy: List[str] = typer.Option(..., "--strategy", "-s",
                                                             help="an entrant (repeat: two or more)"),
               games: int = typer.Option(2_000, "--games", help="games per pair"),
               players: Optional[int] = PlayersOpt, partners: bool = PartnersOpt,
               rule: Optional[List[str]] = RuleOpt, profile: Optional[List[str]] = ProfileOpt,
               seed: int = SeedOpt, jobs: int = JobsOpt, format: Optional[str] = FormatOpt,
               out: Optional[Path] = OutOpt, quiet: bool = QuietOpt,
               scheduler: Optional[str] = SchedulerOpt, save: Optional[Path] = SaveOpt,
               resume: Optional[Path] = ResumeOpt):
    """Every pair of strategies on the same deals with seats rotated; Bradley-Terry ratings with
    95% intervals."""
    from moonshot.analysis.tournament import tournament as run
    entry = inputs.game(game)
    fmt = inputs.out_format(format, out)
    inputs.count("--games", games)
    inputs.out_file(out)
    setup = _setup(entry, players, partners, rule, None, profile)
    pairs = len(strategy) * (len(strategy) - 1) // 2
    with _runs(ctx, setup, scheduler, save, resume) as keep, \
            _progress(games * max(pairs, 1), quiet, "tournament") as progress:
        result = run(setup, strategy, games, seed, jobs, progress)
        keep(result)
    _emit(result, fmt, out)


@app.command()
def rules(game: str, format: str = typer.Option("table", "--format", "-f", help="table or json")):
    """Every rules flag with its default, accepted values and RULES.md id."""
    FLAGS = inputs.game(game).flags
    rows = [{"flag": f.name, "default": "off" if f.default is None else f.default, "accepted": f.accepted,
             "rules_id": f.rules_id, "meaning": f.help, "values": dict(f.value_words),
             "whole_games": f.whole_games} for f in FLAGS]
    if format == "json":
        print(json.dumps(rows, indent=1))
        return
    if format != "table":
        raise BadInput(f"unknown --format {format!r}; accepted: table, json")
    from moonshot.simulator.flags import as_text
    for f, r in zip(FLAGS, rows):
        print(f"{r['flag']}  (default {as_text(f.default)}; {r['rules_id']})\n    accepted: {r['accepted']}\n    "
              f"{r['meaning']}")
        for value, words in f.value_words:               # each value in words, as the pages show it
            print(f"      {value}: {words}")
        if f.whole_games:
            print("    only whole games show it (--games): it changes how a game ends or goes on")


@app.command()
def glossary(game: str):
    """What every column of the game's tables means (the same words the reports use)."""
    from moonshot.reports.glossary import COMMON, PREFIXES, game_words
    entry = inputs.game(game)
    for name, (label, meaning) in {**COMMON, **game_words(entry.name)}.items():
        print(f"{label}  ({name}): {meaning}")
    print("\nCompared metrics: " + "; ".join(f"{p}NAME = {m.format('NAME')}" for p, _, m in PREFIXES))
    print("Every estimate reads 'estimate [95% interval]' with n its sample size; probabilities are percentages in "
          "text output and fractions in JSON/CSV.")


@app.command()
def strategies(game: str):
    """Every built-in strategy with its rule of thumb."""
    from moonshot.strategies.base import registered, rule_of_thumb
    entry = inputs.game(game)
    for name, cls in registered(entry.name).items():
        print(f"{name}: {rule_of_thumb(cls)}")
    print("\nYour own: --strategy SEAT=path/to/file.py:ClassName (a class with the same methods).")


@app.command()
def record(file: Path = typer.Argument(..., help="a history: JSON lines, or typed hand records (docs/hand-records.md)"),
           to_history: bool = typer.Option(False, "--to-history", help="print JSON lines (HISTORY.md) instead of "
                                           "typed records")):
    """Check a history file by the rules and print it as typed hand records, or as JSON lines."""
    from moonshot.simulator import records
    found = records.read_records(file)
    print("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in found) if to_history
          else records.write_all(found), end="")


@app.command()
def review(file: Path = typer.Argument(..., help="a history (simulate --history, the play page's) of one game"),
           seat: Optional[List[int]] = typer.Option(None, "--seat", help="a seat to review (repeat for more; default: "
                                                    "the seats a person played, else all)"),
           hand_id: Optional[List[int]] = typer.Option(None, "--hand-id",
                                                       help="a hand to review (repeat; default: all)"),
           worlds: Optional[int] = typer.Option(None, "--worlds", help="worlds dealt from the seat's view per "
                                                "decision (default: the game's, moon 128)"),
           seed: int = SeedOpt, jobs: int = JobsOpt,
           format: Optional[str] = typer.Option(None, "--format", "-f", help="table, json, csv, markdown or html on "
                                                "stdout; parquet with --out FILE.parquet"),
           out: Optional[Path] = typer.Option(None, "--out", "-o", help="FILE.json/.csv/.parquet/.md/.html, or a "
                                              "folder for the whole report (Markdown, HTML, the figure, the tables)"),
           options: bool = typer.Option(False, "--options", help="the text also lists every option of every "
                                        "decision (json, csv, parquet and the reports always hold it)"),
           quiet: bool = QuietOpt):
    """Review played hands: every decision's options valued from what its seat knew, the loss of the choice made."""
    from moonshot.analysis.review import planned, review as run
    fmt, folder = _review_output(format, out)
    total = planned(file, seat, hand_id)
    with _progress(total or 0, quiet, "review") as progress:
        result = run(file, seat, hand_id, worlds, seed, jobs, progress)
    if folder is not None:
        from moonshot.reports.review import write_report
        print(f"report written: {write_report(result, folder)}")
        return
    _review_emit(result, fmt, out, options)


REVIEW_FILES = {".md": "markdown", ".html": "html"}


def _review_output(format: Optional[str], out: Optional[Path]) -> tuple[str, Optional[Path]]:
    """(the format, the report folder or None): --out with a format's extension is that file; --out
    without one is the report's folder. Checked before any work."""
    from moonshot.reports.document import check_report_folder
    if out is not None and not out.suffix:
        if format is not None:
            raise BadInput(f"--format {format} with --out {str(out)!r} (a folder: the whole report); accepted: one "
                           "of them, or --out FILE with the format's extension")
        check_report_folder(out)
        return "report", out
    fmt = inputs.out_format(format, out, REVIEW_FILES)
    inputs.out_file(out)
    return fmt, None


def _review_emit(result, fmt: str, out: Optional[Path], options: bool = False) -> None:
    """json, csv and parquet as every verb writes them; the text (one line a decision, the option
    table with `options`), Markdown and HTML as the review's own pages (reports/review.py)."""
    if fmt not in ("table", *REVIEW_FILES.values()):
        _emit(result, fmt, out)
        return
    from moonshot.reports import review as pages
    text = {"table": lambda r: pages.text(r, options), "markdown": pages.markdown, "html": pages.html}[fmt](result)
    if out is None:
        print(text)
        return
    atomic_write(out, lambda p: p.write_text(text + "\n"))
    print(f"wrote {out}", file=sys.stderr)


@app.command()
def replay(file: Path,
           hand_id: Optional[int] = typer.Option(None, "--hand-id", help="the hand to show (default: all)")):
    """Print hands from a --history file trick by trick, checked against the rules."""
    if not file.is_file():
        raise BadInput(f"no history file {str(file)!r}; accepted: a JSON-lines file written by --history")
    shown = 0
    with file.open(encoding="utf-8") as fh:
        try:
            shown = _replay_lines(file, fh, hand_id)
        except UnicodeDecodeError:
            raise BadInput(f"{file}: not UTF-8 text; accepted: a JSON-lines file written by --history") from None
    if shown == 0:
        what = f"no hand with --hand-id {hand_id}" if hand_id is not None else "no hands"
        raise BadInput(f"{file}: {what}; accepted: a hand_id present in the file")


def _replay_lines(file: Path, fh, hand_id: Optional[int]) -> int:
    """Replay (and print) every record of the open file, or the one with `hand_id`; how many were shown."""
    shown = 0
    for _, _, text in replayed(fh, str(file), hand_id):
        print(text + "\n")
        shown += 1
    return shown


# ------------------------------------------------------------------------------------------
# run stores (--save)
# ------------------------------------------------------------------------------------------

runs = typer.Typer(help="Run stores written by --save: show a stored result, list stores and how far they got.",
                   no_args_is_help=True)
app.add_typer(runs, name="runs")


@runs.command("show")
def runs_show(folder: Path, format: Optional[str] = FormatOpt, out: Optional[Path] = OutOpt):
    """The result of a stored run, without simulating; for an unfinished run, how far it got."""
    from moonshot.simulator.store import RunStore
    fmt = inputs.out_format(format, out)
    inputs.out_file(out)
    kept = RunStore.open(folder, "runs show")
    kept.check_chunks()                                  # a damaged store is refused, as --resume refuses it
    stored = kept.result_json()
    if stored is None:
        print(kept.how_far())
        return
    if fmt == "json":                                    # as the run printed it, byte for byte
        if out is None:
            print(stored, end="")
        else:
            atomic_write(out, lambda p: p.write_text(stored))
            print(f"wrote {out}", file=sys.stderr)
        return
    import pandas as pd

    from moonshot.analysis.result import Result
    obj = json.loads(stored)
    result = Result(obj["title"], obj["meta"], {name: pd.DataFrame(rows) for name, rows in obj["tables"].items()},
                    obj.get("notes", []), obj.get("findings", []))
    _emit(result, fmt, out)


@runs.command("list")
def runs_list(folders: List[Path] = typer.Argument(..., help="run stores, or folders holding them")):
    """Every run store in the folders: complete or how many chunks it has, its seed and command."""
    from moonshot.simulator.store import find_stores
    found = [str(kept) if isinstance(kept, BadInput) else kept.summary() for kept in find_stores(folders)]
    print("\n".join(found) if found else f"no run stores in {', '.join(str(f) for f in folders)}")


@app.command()
def serve(port: int = typer.Option(8000, "--port", help="port to listen on"),
          host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (one that is not "
                                   "loopback lets other machines in: a warning is printed)"),
          jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes per run, and runs or page computations "
                                   "(deals, answers, hints) at once; more get HTTP 429 (-1: every core)"),
          max_samples: int = typer.Option(200_000, "--max-samples",
                                          help="the largest hands/deals/games a page may ask for"),
          reports: Path = typer.Option(Path("out"), "--reports", help="folder whose reports the Reports page lists "
                                       "and where it writes new ones"),
          max_worlds: int = typer.Option(128, "--max-worlds", help="the most worlds (or samples) a page's strategies "
                                         "and hints may search per decision (2..4096)")):
    """The analyzer in a browser: hand explorer, play a hand, what if, replay, reports (web/)."""
    from moonshot.web import serve as run
    run(host, port, jobs, max_samples, reports, max_worlds)


if __name__ == "__main__":
    app()
