"""moonshot as a library: one import, plain keyword arguments with defaults, results as the CLI
prints them.

    import moonshot
    r = moonshot.simulate("moon", hands=100_000, seed=1)
    r                            # one line: its tables, findings and run (a notebook shows the tables)
    r.wide("contracts")          # one row per bid: n, and per metric its estimate (p_make) with
                                 # <metric>_low / <metric>_high, the 95% interval, beside it
    r.findings                   # what the run found, in sentences
    moonshot.compare("hit-the-deck", "tactician", "dump", hands=50_000).wide("match")
    moonshot.whatif("shoot-the-moon", {"stm.moon_chip_netting": "sequential"}, hands=100_000)

Every function takes the game's name (`moonshot.GAMES`), returns an `analysis.result.Result`
(tables, findings, notes, meta) and raises `BadInput` with the same one-line messages as the CLI,
naming the function's own arguments (`hands=`, not `--hands`).
"""
from __future__ import annotations

from moonshot import startup as _startup  # noqa: F401 - first: a signal while the `moonshot` command loads is one line

import functools as _functools
import os as _os
import re as _re
from pathlib import Path as _Path

from moonshot import inputs as _inputs
from moonshot.analysis import common as _common
from moonshot.analysis.result import Result
from moonshot.reports import text as _text  # noqa: F401 - a notebook draws a Result with reports.text
from moonshot.simulator.errors import BadInput, short as _short
from moonshot.simulator.games import GAMES
from moonshot.simulator.runner import DEFAULT_SEED as _DEFAULT_SEED
from moonshot.version import __version__

__all__ = ["__version__", "GAMES", "BadInput", "Result", "simulate", "analyze", "compare", "whatif", "rules_lab",
           "hand", "report", "review"]


def __dir__() -> list[str]:            # what the library offers, not the modules it imported
    return sorted(__all__)


# The checks are written once for both front doors and name the command line's options; a Python
# caller gave keyword arguments, so the library's messages name those instead (`hands=`, not `--hands`).
_ARGUMENTS = {"--hands/-n": "hands", "--hands": "hands", "--games": "games", "--players": "players",
              "--partners": "partners", "--strategy": "strategy", "--rule": "rules", "--set": "sets",
              "--profile": "profile", "--seed": "seed", "--jobs": "jobs", "--samples": "samples",
              "--seat-order": "seat_order", "--seat": "seat", "--hand": "hand", "--strong": "strong",
              "--weak": "weak", "--out": "out", "--check-samples": "check_samples",
              "--until": "until", "--max-time": "max_time"}
_FLAG = _re.compile(r"--[a-z][a-z-]*(?:/-[a-z])?")
_VALUE_AFTER = _re.compile(r"= (?=[-\d'\"\[({<]|b'|True|False|None)")       # "hands= 0" -> "hands=0"


def _own_words(**renamed: str):
    """Re-raise the BadInput of a library function with its own argument names for the options
    (`renamed` for the function's own: compare's a= and b=, analyze's n=)."""
    names = {**_ARGUMENTS, **renamed}

    def wrap(function):
        @_functools.wraps(function)
        def call(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except BadInput as exc:
                words = _cut_values(_in_own_words(str(exc), names), [*args, *kwargs.values()])
                if words == str(exc):
                    raise
                raise type(exc)(words) from None
        call.argument_names = names
        return call
    return wrap


def _in_own_words(message: str, names: dict[str, str]) -> str:
    """`message` with each command-line option in `names` said as its keyword argument."""
    words = _FLAG.sub(lambda m: f"{names[m[0]]}=" if m[0] in names else m[0], message)
    return _VALUE_AFTER.sub("=", words)


def _cut_values(message: str, values) -> str:
    """`message` with any long value it repeats cut short (an argument may be megabytes): each
    argument's repr or text, then any one word still longer than two cuts."""
    cut = _inputs.CUT
    for value in values:
        if isinstance(value, (str, bytes, list, tuple, dict, set, _os.PathLike)):
            for text, shown in ((repr(value), _short(value, cut)),
                                (str(value), f"{str(value)[:cut]}... ({len(str(value)):,} characters)")):
                if len(text) > cut and text in message:
                    message = message.replace(text, shown)
    return _LONG_WORD.sub(lambda m: f"{m[0][:cut]}... ({len(m[0]):,} characters)", message)


_LONG_WORD = _re.compile(r"\S{161,}")


def _rules(rules) -> list[str]:
    if rules is None:
        return []
    if isinstance(rules, dict):
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    return _inputs.texts("--rule", rules)


def _setup(game, players, partners, rules, strategy, profile) -> _common.Setup:
    _inputs.game(game)
    return _common.make_setup(game, _inputs.whole("--players", players), _inputs.flag("--partners", partners),
                              _rules(rules), _inputs.texts("--strategy", strategy),
                              _inputs.texts("--profile", profile))


def _run(seed, jobs) -> tuple[int, int]:
    return _inputs.seed(seed), _inputs.jobs(jobs)


@_own_words()
def simulate(game: str, hands: int | None = None, games: int | None = None, players: int | None = None,
             partners: bool = False, strategy=None, rules=None, profile=None, seed: int = _DEFAULT_SEED,
             jobs: int = 1) -> Result:
    """Headline numbers per side: `hands` single hands (100,000 by default), or `games` whole games."""
    hands, games = _inputs.counts(hands, games)
    seed, jobs = _run(seed, jobs)
    setup = _setup(game, players, partners, rules, strategy, profile)
    return _common.simulate(setup, None if games else hands or 100_000, games, seed, jobs)


@_own_words(**{"--hands": "n", "--games": "n", "--hands/-n": "n"})
def analyze(game: str, analysis: str, n: int | None = None, players: int | None = None, partners: bool = False,
            strategy=None, rules=None, profile=None, seat: int | None = None, seed: int = _DEFAULT_SEED,
            jobs: int = 1) -> Result:
    """One of the game's analyses (`GAMES[game].analyses` names them); `n` hands or games, as it counts."""
    entry = _inputs.game(game)
    spec = _inputs.analysis(entry, analysis)
    n = _inputs.count("--hands" if spec.unit == "hands" else "--games", n) or spec.default
    seed, jobs = _run(seed, jobs)
    setups = _common.analysis_setups(spec, _setup(game, players, partners, rules, strategy, profile),
                                     players is not None)
    seat = _inputs.analysis_seat(entry, analysis, seat, setups)
    return _common.run_analysis(spec, setups, n, seed, jobs, seat)


@_own_words(**{"--strategy": "a", "--vs": "b"})
def compare(game: str, a: str, b: str, hands: int | None = None, games: int | None = None,
            players: int | None = None, partners: bool = False, rules=None, profile=None, seed: int = _DEFAULT_SEED,
            jobs: int = 1, until: float | None = None, max_time: float | None = None) -> Result:
    """Strategy `a` against `b` on the same deals, seats rotated: the paired difference (100,000 hands by
    default, or `games` whole games). `until`: play until the difference's 95% interval is narrower
    than this (hands or games then the budget; `max_time` seconds at most)."""
    hands, games = _inputs.counts(hands, games)
    seed, jobs = _run(seed, jobs)
    a, b = _inputs.text("--strategy", a), _inputs.text("--vs", b)
    setup = _setup(game, players, partners, rules, None, profile)
    rounds, default = _until(until, max_time)
    return _common.match(setup, a, b, None if games else hands or default, games, seed, jobs, until=rounds)


def _until(width, max_time):
    """(the Until of `until`/`max_time` or None, the hands played when none are given)."""
    from moonshot.analysis.until import BUDGET, rule
    rounds = rule(width, max_time)
    return rounds, 100_000 if rounds is None else BUDGET["hands"]


@_own_words()
def whatif(game: str, rules, hands: int | None = None, games: int | None = None, players: int | None = None,
           partners: bool = False, strategy=None, profile=None, seed: int = _DEFAULT_SEED, jobs: int = 1,
           until: float | None = None, max_time: float | None = None) -> Result:
    """The same deals under the default rules and with `rules` ({flag: value} or "flag=value"); 100,000
    hands by default, or `games` whole games. `until`: play until every seat's change is that narrow
    (as compare's)."""
    hands, games = _inputs.counts(hands, games)
    seed, jobs = _run(seed, jobs)
    setup = _setup(game, players, partners, None, strategy, profile)
    rounds, default = _until(until, max_time)
    return _common.whatif(setup, _rules(rules), None if games else hands or default, games, seed, jobs, until=rounds)


@_own_words()
def rules_lab(game: str, games: int | None = None, hands: int | None = None, sets: dict | str | list | None = None,
              players: int | None = None, partners: bool = False, strong: str | None = None, weak: str | None = None,
              rules=None, strategy=None, profile=None, seed: int = _DEFAULT_SEED, jobs: int = 1,
              until: float | None = None, max_time: float | None = None) -> Result:
    """Which house rules matter: every rules flag's other values, or the named `sets`
    ({name: {flag: value}}, or the command line's "name=flag=value,..." texts), against the defaults
    on the same games and deals, ranked. `until`: play the games in rounds until every P(win) effect
    (fairness, skill) is that narrow in percentage points (`games` then the budget; `max_time` seconds)."""
    from moonshot.analysis.rules_lab import rules_lab as run
    from moonshot.analysis.until import rule
    games, hands = _inputs.count("--games", games), _inputs.count("--hands", hands)
    strong, weak = _inputs.maybe_text("--strong", strong), _inputs.maybe_text("--weak", weak)
    seed, jobs = _run(seed, jobs)
    rounds = rule(until, max_time)
    setup = _setup(game, players, partners, rules, strategy, profile)
    specs = _rule_sets(sets)
    return run(setup, games, hands, seed, jobs, strong, weak, specs or None, until=rounds)


def _rule_sets(sets) -> list[str]:
    """rules_lab's `sets`: {name: {flag: value}} (or {name: "flag=value,..."}), or the command line's
    --set texts "name=flag=value,..." (one, or a list)."""
    if sets is None or isinstance(sets, (str, list, tuple)):
        return _inputs.texts("--set", sets)
    if not isinstance(sets, dict) or not all(isinstance(n, str) and isinstance(c, (str, dict))
                                             for n, c in sets.items()):
        raise BadInput(f"--set {sets!r} is not accepted; accepted: {{name: {{flag: value}}}} or texts "
                       "'name=flag=value,...'")
    return [f"{name}=" + ",".join(_rules(changes)) for name, changes in sets.items()]


@_own_words()
def hand(game: str, hand: str, seat_order: str = "first", samples: int = 100_000, players: int | None = None,
         strategy=None, rules=None, profile=None, seed: int = _DEFAULT_SEED, jobs: int = 1,
         check_samples: int | None = None) -> Result:
    """The hand analyzer of games that have one (moon, shoot-the-moon, hit-the-deck); moon's and
    shoot-the-moon's also play their top choices again with the search player in every seat on the
    first `check_samples` deals (None: the game's default; 0: no check) and say whether it agrees."""
    from moonshot.analysis.hand_check import analyze
    analyzer = _inputs.hand_analyzer(_inputs.game(game))
    hand, seat_order = _inputs.text("--hand", hand), _inputs.text("--seat-order", seat_order)
    samples = _inputs.count("--samples", samples, required=True)
    seed, jobs = _run(seed, jobs)
    return analyze(analyzer, _setup(game, players, False, rules, strategy, profile), hand, seat_order, samples, seed,
                   jobs, check_samples=check_samples)


@_own_words()
def report(game: str, out, hands: int = 200_000, seed: int = _DEFAULT_SEED, jobs: int = 1) -> _Path:
    """Write the game's report (md, html, figures, tables) into the folder `out`; its report.md."""
    from moonshot.reports.document import check_report_folder
    entry, hands = _inputs.game(game), _inputs.report_hands(hands)
    seed, jobs = _run(seed, jobs)
    out = _inputs.path("--out", out)
    check_report_folder(out)
    return entry.build_report(out, hands, seed, jobs, quiet=True)


@_own_words(**{"--worlds": "worlds", "--hand-id": "hand_ids", "--seat": "seats", "--source": "source"})
def review(source, seats=None, hand_ids=None, worlds: int | None = None, seed: int = _DEFAULT_SEED,
           jobs: int = 1) -> Result:
    """Review played hands (a history file's path, or its parsed records): every decision of
    `seats` valued from what the seat knew, with the loss of the choice made (analysis/review.py)."""
    from moonshot.analysis.review import review as run
    seed, jobs = _run(seed, jobs)
    seats, hand_ids = _inputs.whole_numbers("--seat", seats), _inputs.whole_numbers("--hand-id", hand_ids)
    if not isinstance(source, (list, tuple)):           # else parsed records, which the review checks
        source = _inputs.readable_file("--source", source)
    return run(source, seats, hand_ids, worlds, seed, jobs)

