"""The verbs every game shares, written once: a table and its players (Setup), the headline
simulation, strategy matches and rules what-ifs, over a small per-game hook (analysis/<game>.py's
``HOOKS``: how to build the table, what to tally from a chunk of hands or games, how to read a
hand's outcome per side or seat).

Chunk tasks are top-level functions so joblib can ship them to workers; a chunk rebuilds its
table and players from the plain, picklable Setup. Comparisons play the same deals on every arm:
each arm builds fresh generators from the same chunk seeds (common random numbers).
"""
from __future__ import annotations

import os
import threading
from contextlib import nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from moonshot.analysis import variance
from moonshot.analysis.result import Result
from moonshot.analysis.words import all_for_players, clear_of_zero, effects, lineup, say, shift, stands_out, verdict
from moonshot.analysis.stats import estimate
from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput
from moonshot.simulator.flags import changed_flags, check_table, whole_games_only
from moonshot.simulator.games import GAMES, Game, get, register
from moonshot.simulator.versions import behaviour, package_version
from moonshot.simulator.runner import (CHUNK, Change, Share, Tally, chunk_rngs, chunk_seeds, chunk_sizes, difference,
                                       generators)
from moonshot.strategies.base import parse_seat_specs

Progress = Callable[[int], None] | None
# What hears a run's progress when its caller passed none: a report's current section sets it
# (reports.document.Steps), so a long section (a tournament, search players) counts as it plays.
SECTION_PROGRESS: ContextVar[Progress] = ContextVar("section_progress", default=None)
Records = Callable[[list[str]], None] | None
ALL = "all"          # key of one-row tables


# --------------------------------------------------------------------------------------------
# a table and its players
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to rebuild a table and its players: plain, picklable data."""
    game: str
    players: int
    partners: bool = False
    rule_args: tuple[str, ...] = ()
    strategy_specs: tuple[str, ...] = ()
    profile_specs: tuple[str, ...] = ()      # per-seat reaction profiles (games with a slap race)

    @property
    def entry(self) -> Game:
        return get(self.game)

    def __getstate__(self) -> dict:
        # a game registered at run time (a plugin, the tests' toy game) goes with the table, so a
        # --jobs worker, which knows only the built-in games, can register it too
        return {**self.__dict__, "_entry": GAMES.get(self.game)}

    def __setstate__(self, state: dict) -> None:
        entry = state.pop("_entry", None)
        if entry is not None and entry.name not in GAMES:
            register(entry)
        self.__dict__.update(state)

    @property
    def hooks(self):
        return self.entry.hooks

    @property
    def table(self):
        return _table(self.game, self.players, self.partners, self.rule_args, self.profile_specs)

    @property
    def seats(self):
        return _seats(self.game, self.players, self.strategy_specs)

    def strategy(self, spec: str):
        """One strategy object built from `spec` (for matches: A and B)."""
        return _seats(self.game, self.players, (spec,)).strategies[0]

    def chunk(self, extra_specs: tuple[str, ...] = ()) -> int:
        """Hands per chunk for a run of these players (and `extra_specs`, a match's A and B): the
        runner's CHUNK, or less when a slow player sets its own `chunk_hands`, so that a run of a
        few thousand hands of a search player still spreads over every job and cluster worker. It
        depends on the players only, so a run gives the same numbers for any --jobs."""
        players = [*self.seats.strategies, *(self.strategy(spec) for spec in extra_specs)]
        return min([CHUNK, *(getattr(p, "chunk_hands", CHUNK) for p in players)])

    def validate(self) -> "Setup":
        self.table, self.seats    # noqa: B018 - building them checks every value
        return self

    @property
    def label(self) -> str:
        return f"{self.players} players" + (" in partnerships" if self.partners else "")

    def meta(self, **extra) -> dict:
        table = self.table
        return {"game": self.game, "version": package_version(), "behaviour": behaviour(self.game),
                **self.hooks.table_meta(self), "rules_changed": changed_flags(
            table.rules, self.entry.flags), "strategies": list(self.seats.specs), **extra}


@lru_cache(maxsize=64)
def _table(game: str, players: int, partners: bool, rule_args: tuple[str, ...], profiles: tuple[str, ...]):
    entry = get(game)
    if profiles and "profile" not in entry.options:
        have = [g.name for g in GAMES.values() if "profile" in g.options]
        raise BadInput(f"--profile {profiles[0]!r}: {game} has no slap race; reaction profiles apply to "
                       f"{', '.join(have)}")
    rules = entry.module("rules")
    check_table(entry.flags, getattr(rules, "ONLY_AT", {}), rule_args, players, partners)
    return entry.hooks.make_table(players, partners, rule_args, profiles)


@lru_cache(maxsize=64)
def _seats(game: str, players: int, specs: tuple[str, ...]):
    entry = get(game)
    return parse_seat_specs(game, specs, players, default=entry.default_strategy, required=entry.decisions)


def players_said(setup: Setup) -> str:
    """setup's players in words, from its seats' specs: 'threshold in every seat' (words.lineup), and
    the reaction profiles where they are not all the default ('seat 0 reaction profile child')."""
    said = lineup(setup.seats.specs)
    profiles = [p.spec() for p in getattr(setup.table, "profiles", ())]
    if profiles and set(profiles) != {setup.hooks.default_profile}:
        said += "; reaction profiles " + lineup(profiles)
    return said


def make_setup(game: str, players: int | None = None, partners: bool = False, rules=(), strategies=(),
               profiles=()) -> Setup:
    """A checked Setup from command-line values (None: the game's default table)."""
    entry = get(game)
    return Setup(game, entry.default_players if players is None else players, partners, tuple(rules or ()),
                 tuple(strategies or ()), tuple(profiles or ())).validate()


# --------------------------------------------------------------------------------------------
# running chunks
# --------------------------------------------------------------------------------------------

def run(task, args: tuple, total: int, seed: int, jobs: int, progress: Progress = None,
        on_records: Records = None, chunk: int | None = None) -> Tally:
    """run_chunks with a progress callback (hands done) and hand-history lines streamed out.
    The chunk size defaults to what the first Setup in `args` asks for (Setup.chunk).

    Under ``--save-hands`` (simulator.store.hands_file) simulate's hands chunks also return one row
    per hand (the game hook's ``hand_rows`` plus the hand number), written chunk by chunk. The
    chunks keep their name in a run store either way (--save-hands changes no number)."""
    from moonshot.simulator.store import hands_sink
    sink = hands_sink() if task is _hands_chunk else None
    if sink is not None:
        args = (*args[:-1], True)             # _hands_chunk's rows: keep one row per hand too

    def kept(part: Tally) -> None:
        if on_records is not None and part.records:
            on_records(part.records)
        if sink is not None and part.rows is not None:
            sink.write(part.rows)
    return run_many([Call(task, args, total, chunk)], seed, jobs, progress, kept)[0]


@dataclass(frozen=True)
class Call:
    """One chunked run of run_many: task(*args, seed, index, size) over `total` hands or games in
    chunks of `chunk` (None: what the first Setup in `args` asks for, Setup.chunk)."""
    task: Callable
    args: tuple
    total: int
    chunk: int | None = None

    @property
    def size(self) -> int:
        return self.chunk or next((a.chunk() for a in self.args if isinstance(a, Setup)), CHUNK)


def run_many(calls: list[Call], seed: int, jobs: int, progress: Progress = None,
             kept: Callable[[Tally], None] | None = None) -> list[Tally]:
    """The tally of each call, as `run` gives it alone, with every call's chunks handed to the
    --jobs workers (or a cluster) as one stream (runner.run_batch): independent runs of a verb (a
    tournament's pairs, both lineups of a strong-play section) keep every worker busy to the end.
    `progress(n)` hears the hands or games of every chunk as it plays (the sum of the calls'
    totals in all); `kept(tally)` sees each chunk's tally before its records are dropped."""
    from moonshot.simulator.eta import Clock
    from moonshot.simulator.runner import Run, run_batch
    progress = progress or SECTION_PROGRESS.get()
    sizes = [chunk_sizes(c.total, c.size) for c in calls]
    clock = Clock(sum(c.total for c in calls), calls[0].size, jobs, chunks=sum(map(len, sizes)))
    runs = []
    for c, chunks in zip(calls, sizes):
        counted = _Counted(progress, chunks)

        def on_chunk(part: Tally, size: int, counted=counted) -> None:
            clock.chunk_done()
            if kept is not None:
                kept(part)
            counted.chunk_done(size)
        runs.append(Run(c.task, tuple(c.args), c.total, seed, c.size, on_chunk,
                        f"{c.task.__module__}.{c.task.__qualname__}", None if progress is None else counted.step))
    with clock:       # says the run's time, if long
        return run_batch(runs, jobs)


def workers(jobs: int) -> int:
    """How many chunks --jobs runs at a time (-1: every core)."""
    return (os.cpu_count() or 1) if jobs < 0 else max(1, jobs)


class _Counted:
    """A run's progress in hands (or deals) done. A chunk task that reports steps from inside its
    chunk (runner.run_chunks' on_step) counts its share of the chunk's hands as it goes: 3 of 10
    steps of a 16,384-deal chunk count 4,915; the chunk's end counts the rest, so the counts add up
    to the run's total. progress(n) hears each increase, from one thread at a time."""

    def __init__(self, progress: Progress, sizes: list[int]):
        self.progress, self.sizes = progress, sizes
        self.partial: dict[int, int] = {}      # chunk index -> hands counted from its steps
        self.finished = 0                      # chunks done (they finish in chunk order)
        self.lock = threading.Lock()

    def step(self, index: int, done: int, of: int) -> None:
        with self.lock:
            if index < self.finished or index >= len(self.sizes) or of <= 0:
                return                         # a late report of a chunk already counted
            before = self.partial.get(index, 0)
            now = self.sizes[index] * max(0, min(done, of)) // of
            if now > before:
                self.partial[index] = now
                self.progress(now - before)

    def chunk_done(self, size: int) -> None:
        with self.lock:
            rest = size - self.partial.pop(self.finished, 0)
            self.finished += 1
            if self.progress is not None:
                self.progress(rest)


def one_row(size: int) -> dict[str, np.ndarray]:
    """The key of a one-row table (every hand in the same cell)."""
    return {ALL: np.zeros(size, dtype=np.int8)}


# --------------------------------------------------------------------------------------------
# simulate: headline numbers per side, for hands or whole games
# --------------------------------------------------------------------------------------------

def _hands_chunk(setup: Setup, want_history: bool, chunk: int, rows: bool, seed: int, index: int, size: int) -> Tally:
    """One chunk (of `chunk` hands, the last maybe fewer) tallied; with rows (under --save-hands)
    also one row per hand (the game hook's hand_rows and the hand's number)."""
    hooks = setup.hooks
    res = hooks.play(setup, setup.seats.strategies, chunk_rngs(seed, index, setup.entry.streams), size,
                     record=want_history)
    tally = Tally()
    hooks.tally_hands(setup, res, tally)
    if want_history:
        tally.records = setup.entry.module("history").records(res, setup.table, setup.seats.specs, seed,
                                                              index * chunk)
    if rows:
        tally.rows = {"hand": index * chunk + np.arange(size, dtype=np.int64), **hooks.hand_rows(setup, res)}
    return tally


def _games_chunk(setup: Setup, want_history: bool, chunk: int, seed: int, index: int, size: int) -> Tally:
    hooks = setup.hooks
    g = hooks.play_games(setup, setup.seats.strategies, chunk_rngs(seed, index, setup.entry.streams), size,
                         keep_hands=want_history)
    tally = Tally()
    if want_history:
        tally.records = game_records(setup, g, seed, index * chunk)
    tally.add_columns("games", "side", {"p_win": hooks.wins(setup, g)})
    tally.add("length", one_row(size), {**hooks.game_length(g), **hooks.game_extras(g),
                                        "p_unfinished": hooks.unfinished(g)})
    hooks.tally_games(setup, g, tally)
    return tally


HANDS_PER_GAME_ID = 10_000      # a games-mode hand_id is game_id * this + hand_in_game (no engine plays more)


def game_records(setup: Setup, g, seed: int, first_game: int) -> list[str]:
    """Every hand of every game in `g` (played with keep_hands) as a HISTORY.md line, game by game
    in play order, with the whole-games keys: game_id, hand_in_game, scores_before/after per side,
    game_over on the last hand and there the winning sides ([] when the cap left it unfinished)."""
    import json
    hooks, table = setup.hooks, setup.table
    history = setup.entry.module("history")
    wins = hooks.wins(setup, g)
    scores = np.full(wins.shape, hooks.start_score(setup), dtype=np.int64)
    games: list[list[dict]] = [[] for _ in range(len(wins))]
    for active, res in g.hand_log:
        change = hooks.hand_score(setup, res)
        for row, (i, line) in enumerate(zip(active, history.records(res, table, setup.seats.specs, seed, 0))):
            games[i].append({**json.loads(line), "scores_before": scores[i].tolist(),
                             "scores_after": (scores[i] + change[row]).tolist()})
        scores[active] += change
    lines = []
    for i, hands in enumerate(games):
        game_id = first_game + i
        for k, rec in enumerate(hands):
            rec.update(hand_id=game_id * HANDS_PER_GAME_ID + k, game_id=game_id, hand_in_game=k,
                       game_over=k == len(hands) - 1)
        hands[-1]["winners"] = np.flatnonzero(wins[i]).tolist()
        lines += [json.dumps(rec) for rec in hands]
    return lines


def seat_labels(setup: Setup) -> list[str]:
    """Each seat's player in words: its strategy, and its reaction profile where the game has one."""
    profiles = getattr(setup.table, "profiles", None)
    return [spec + (f", reaction profile {profiles[s].spec()}" if profiles is not None else "")
            for s, spec in enumerate(setup.seats.specs)]


def _odd_seats_said(setup: Setup, games_table: pd.DataFrame, games: int) -> list[str]:
    """When seats differ (a strategy, a reaction profile), each seat unlike the most common one first:
    its side's P(win), so a run with a child or a handicap says her chance before anything else."""
    labels = seat_labels(setup)
    common = max(set(labels), key=labels.count)
    wins = games_table[games_table["metric"] == "p_win"].set_index("side")
    side_of = setup.table.side_of_seat
    return [f"Seat {s} ({label}) wins {say(wins.loc[int(side_of[s])])} of the {games:,} games; the other seats "
            f"({common}) "
            f"{', '.join(say(wins.loc[int(side_of[o])]) for o in range(len(labels)) if labels[o] == common)}."
            for s, label in enumerate(labels) if label != common and labels.count(common) > 1]


def simulate(setup: Setup, hands: int | None, games: int | None, seed: int, jobs: int = 1,
             progress: Progress = None, on_records: Records = None, chunk: int | None = None) -> Result:
    """Headline numbers per side: single hands (the game's own tallies) or whole games."""
    setup.validate()
    chunk = chunk or setup.chunk()
    hooks = setup.hooks
    if games:
        t = run(_games_chunk, (setup, on_records is not None, chunk), games, seed, jobs, progress, on_records,
                chunk=chunk)
        res = Result(f"{setup.entry.title}: games", setup.meta(games=games, seed=seed))
        res.tables["games"] = estimate(t.get("games"), ["side"], ["p_win"])
        res.tables["game_length"] = estimate(t.get("length"), [], [*hooks.game_length_names, *hooks.game_extra_names,
                                                                   "p_unfinished"])
        length = res.row("game_length", hooks.game_length_names[0])
        res.findings += _odd_seats_said(setup, res.tables["games"], games)
        res.findings.append(stands_out(res.tables["games"], lambda r: f"side {int(r['side'])}", "side",
                                       f"wins most often of {games:,} games", "P(win)"))
        res.findings.append(f"A game lasts {say(length)} {hooks.game_length_names[0]} on average.")
        gl = res.tables["game_length"]
        res.findings.append(unfinished_said(gl[gl["metric"] == "p_unfinished"], games))
        hooks.game_tables(setup, t, res)
        res.findings = all_for_players(res.findings, players_said(setup))
        return res
    t = run(_hands_chunk, (setup, on_records is not None, chunk, False), hands, seed, jobs, progress, on_records,
            chunk=chunk)
    res = Result(f"{setup.entry.title}: {hooks.hands_word}", setup.meta(hands=hands, seed=seed))
    hooks.hand_tables(setup, t, res)
    res.findings = all_for_players(res.findings, players_said(setup))
    return res


# --------------------------------------------------------------------------------------------
# strategy match: A against B on the same deals, seats rotated
# --------------------------------------------------------------------------------------------

def match_lineups(side_of_seat, n_sides: int, a, b) -> list[list]:
    """Seatings for a strategy match: B everywhere first, then A in each side's seats in turn."""
    seats = range(len(side_of_seat))
    return [[b for _ in seats]] + [[a if side_of_seat[s] == side else b for s in seats] for side in range(n_sides)]


def match_metrics(name: str, per_lineup: list[np.ndarray]) -> dict[str, np.ndarray]:
    """Per deal, from each lineup's (n, sides) outcome (match_lineups order): A's value in its
    seats, B's in the same seats on the same deal, and the paired difference, each averaged over
    the sides so every seat is controlled for. (Means, not proportions: intervals are mean +- 1.96 SE.)"""
    yes_no = per_lineup[0].dtype == bool            # wins: shares and their change, read as percentages
    base = per_lineup[0].astype(float)
    arm = np.stack([per_lineup[1 + s][:, s] for s in range(base.shape[1])], axis=1).astype(float)
    level, change = (Share, Change) if yes_no else (np.asarray, np.asarray)
    return {f"a_{name}": level(arm.mean(axis=1)), f"b_{name}": level(base.mean(axis=1)),
            f"d_{name}": change((arm - base).mean(axis=1))}


def _match_chunk(setup: Setup, spec_a: str, spec_b: str, games: bool, seed: int, index: int, size: int) -> Tally:
    table, hooks = setup.table, setup.hooks
    S = table.n_sides
    lineups = match_lineups(table.side_of_seat[:table.players], S, setup.strategy(spec_a), setup.strategy(spec_b))
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    outs, unfinished, traces = [], [], []
    for k, players in enumerate(lineups):
        if games:
            with lineup_of(k, len(lineups)):
                g = hooks.play_games(setup, players, generators(seeds), size)
            outs.append({"win": hooks.wins(setup, g)})
            unfinished.append(hooks.unfinished(g))
            traces.append([*outs[-1].values(), *hooks.game_length(g).values()])
        else:
            outs.append(hooks.side_outcomes(setup, hooks.play(setup, players, generators(seeds), size)))
            traces.append(list(outs[-1].values()))
    metrics = {}
    for name in outs[0]:
        metrics.update(match_metrics(name, [o[name] for o in outs]))
    if games:   # how often the cap on hands stopped a game (counted as lost by every side)
        metrics["p_unfinished_b"] = unfinished[0]
        metrics["p_unfinished_a"] = Share(np.mean(unfinished[1:], axis=0))
        metrics["d_unfinished"] = Change(np.mean(unfinished[1:], axis=0) - unfinished[0])
    tally = Tally()
    tally.add("match", one_row(size), metrics)
    tally.add("differs", one_row(size), {"differs": outcomes_differ(traces)})
    return tally


def lineup_of(k: int, lineups: int):
    """While lineup (or arm) k of a match (what-if) chunk plays its games, the games it reports ended
    (stopping.games_done) count as that share of the chunk: the bar moves through every lineup instead of
    filling up with the first one's games."""
    outer = stopping.current()
    if outer is None or outer.steps is None:
        return nullcontext()
    return stopping.watching(steps=lambda done, of: outer.steps(k * of + done, lineups * of))


def outcomes_differ(traces: list[list[np.ndarray]]) -> np.ndarray:
    """Per deal: did any lineup's outcome (every array, every side) differ from the first lineup's
    (B everywhere)? Never on any deal: A and B played identically there."""
    base = traces[0]
    differs = np.zeros(len(base[0]), dtype=bool)
    for trace in traces[1:]:
        for mine, theirs in zip(trace, base):
            differs |= (np.asarray(mine) != np.asarray(theirs)).reshape(len(differs), -1).any(axis=1)
    return differs


def match(setup: Setup, spec_a: str, spec_b: str, hands: int | None, games: int | None, seed: int,
          jobs: int = 1, progress: Progress = None, until=None) -> Result:
    """Strategy A against B on the same deals: A takes each side's seats in turn against B. `until`
    (an analysis.until.Until): play until the headline difference's interval is that narrow, the
    count given being the budget."""
    call = match_call(setup, spec_a, spec_b, hands, games)
    if until is None:
        return match_result(setup, spec_a, spec_b, hands, games, seed, run_many([call], seed, jobs, progress)[0])
    from moonshot.analysis.until import run_until
    headline = f"d_{'win' if games else setup.hooks.side_outcome_names[0]}"
    return run_until(call, seed, jobs, progress, until,
                     lambda t, n: match_result(setup, spec_a, spec_b, None if games else n, games and n, seed, t),
                     lambda res: res.tables["match"][res.tables["match"]["metric"] == headline],
                     "games" if games else "hands", run_many=run_many)


def match_call(setup: Setup, spec_a: str, spec_b: str, hands: int | None, games: int | None) -> Call:
    """A match's chunked run (checked), for run_many; match_result reads its tally."""
    setup.validate()
    setup.strategy(spec_a), setup.strategy(spec_b)
    if spec_a.strip() == spec_b.strip():
        raise BadInput(f"strategy A and B are both {spec_a!r}: a strategy against itself differs by exactly 0; "
                       f"accepted: two different strategies")
    return Call(_match_chunk, (setup, spec_a, spec_b, bool(games)), games or hands, setup.chunk((spec_a, spec_b)))


def match_result(setup: Setup, spec_a: str, spec_b: str, hands: int | None, games: int | None, seed: int,
                 t: Tally) -> Result:
    """The match's estimates, findings and notes from its tally `t`."""
    hooks = setup.hooks
    n = games or hands
    names = ["win"] if games else hooks.side_outcome_names
    metrics = [f"{x}_{name}" for name in names for x in "abd"]
    if games:
        metrics += ["p_unfinished_a", "p_unfinished_b", "d_unfinished"]
    # None for a run store's chunks tallied before matches counted it
    differing = int(t.get("differs")["differs"].sum()) if "differs" in t.tables else None
    res = Result(f"{setup.entry.title}: {spec_a} vs {spec_b}",
                 {**setup.meta(seed=seed), "strategies": {"A": spec_a, "B": spec_b}, ("games" if games else "hands"): n,
                  "deals_with_different_outcomes": differing})
    res.tables["match"] = estimate(t.get("match"), [], metrics)
    unit = hooks.game_unit if games else hooks.side_outcome_unit
    first = f"d_{names[0]}"
    d = res.row("match", first)
    res.findings.append(f"{spec_a} (A) against {spec_b} (B) on the same {n:,} {'games' if games else 'deals'}, A in "
                        "each side's seats in turn with B in the others: A minus B in "
                        f"{hooks.metric_words.get(names[0], names[0])} is {say(d, signed=True)}; "
                        f"{verdict(d, names[0] not in hooks.lower_is_better)}.")
    res.findings += _other_measures(res, names, hooks)
    if games:
        res.findings.append(unfinished_words(
            res.row("match", "d_win"), res.row("match", "d_unfinished"), setup.table.n_sides,
            {f"with {spec_a} (A)": res.row("match", "p_unfinished_a"),
             f"with {spec_b} (B) everywhere": res.row("match", "p_unfinished_b")}))
    res.notes.append(f"Each deal is played once with B in every seat and once per side with A in that side's "
                     f"seats (the others B). a_* is A's {unit} in those seats, b_* B's in the same seats on the "
                     f"same deals, d_* the paired difference (A minus B), averaged over the sides so every "
                     f"seat is controlled for.")
    if games:
        res.notes.append(UNFINISHED_NOTE)
    return res


def _other_measures(res: Result, names: list[str], hooks) -> list[str]:
    """A sentence for each other measure of the match whose verdict differs from the first's (one
    says A, another B, or one cannot be told from noise): a finding must not pick one measure."""
    first = verdict(res.row("match", f"d_{names[0]}"), names[0] not in hooks.lower_is_better)
    out = []
    for name in names[1:]:
        d = res.row("match", f"d_{name}")
        said = verdict(d, name not in hooks.lower_is_better)
        if said != first and "identically" not in said:
            out.append(f"In {hooks.metric_words.get(name, name)}, though, A minus B is {say(d, signed=True)}; "
                       f"{said}: the measures do not agree, so which does better depends on the measure.")
    return out


def _whatif_findings(res: Result, names: list[str], variant_args: list[str], n: int, unit: str, hooks) -> None:
    """What the variant changed: the first measure by seat, then every other measure with a seat
    whose change is clear of zero (each corrected for the seats compared), or that it changed
    nothing at all on these `n` deals (`unit`: games or hands)."""
    seats = res.tables["seats"]
    diffs = seats[seats["metric"].str.startswith("d_")]
    if (diffs["estimate"] == 0).all() and (diffs["ci_low"] == diffs["ci_high"]).all():
        # a rule about a game's end (its target, a tie at the top, who deals next) never shows in single hands
        games_only = whole_games_only(get(res.meta["game"]).flags, variant_args) if unit == "hands" else []
        why = (f"{' and '.join(games_only)} changes only how a game ends or goes on, which only whole games can "
               "show (--games N; on the what-if page, Count: whole games)." if games_only else
               "under these strategies the situation the rule governs never came up, or never changed an outcome "
               "(e.g. a rule about bids the strategies never make). Other strategies (-s) may show what it does.")
        res.findings.append(f"{' '.join(variant_args)} changed nothing measured here on any of these {n:,} {unit}: "
                            f"{why}")
        return
    seat = lambda r: f"seat {int(r['seat'])}"        # noqa: E731
    rows = {name: diffs[diffs["metric"] == f"d_{name.removeprefix('p_')}"] for name in names}
    res.findings.append(f"{' '.join(variant_args)} (variant minus base, same {unit}): "
                        + effects(rows[names[0]], seat, "seat", metric_said(hooks, names[0])))
    quiet = []
    for name in names[1:]:
        here = rows[name]
        if name == "p_unfinished" or not len(here):          # unfinished games have their own sentence
            continue
        if len(here) > 1 and (here[["estimate", "ci_low", "ci_high"]].nunique() == 1).all():
            # one value at every seat (a game's length): one effect, its own interval, no correction
            res.findings.append(f"{shift(here.iloc[0], 'It changes ' + metric_said(hooks, name))}, the same at "
                                "every seat.")
        elif clear_of_zero(here).any():
            res.findings.append(effects(here, seat, "seat", metric_said(hooks, name)))
        else:
            quiet.append(metric_said(hooks, name))
    if quiet:
        res.findings.append(f"No seat's {' or '.join(quiet)} changed measurably (each Bonferroni-corrected for the "
                            "seats).")


# How a sentence names the shared game measures (a game's own are in its hooks' words)
GAME_WORDS = {"p_unfinished": "P(unfinished game)", "rounds": "rounds per game", "hands": "hands per game"}


def metric_said(hooks, name: str) -> str:
    """A metric as a sentence names it: the game's words for it ('P(thrown in)'), else its name."""
    return (hooks.metric_words.get(name.removeprefix("p_")) or GAME_WORDS.get(name)
            or hooks.words.get(name, (name,))[0])


UNFINISHED_NOTE = ("Unfinished games (still open when the engine's cap on hands per game is reached) have no "
                   "winner: they count as lost by every side, so they lower both arms' win rates; "
                   "p_unfinished says how often that happened.")


def unfinished_said(rows, games: int) -> str:
    """One sentence on the `games` behind `rows` (P(unfinished) or its change, one row per cell)
    that the cap on game length left without a winner."""
    if (rows["estimate"] == 0).all():
        return f"None of the {games:,} games was left unfinished at the cap on game length."
    worst = rows.loc[rows["estimate"].abs().idxmax()]
    return ("Games left unfinished at the cap on game length (no winner, lost by every side): "
            + ("" if len(rows) == 1 else "up to ") + f"{say(worst)}.")


def unfinished_words(d_win, d_unfinished, sides: int, rates: dict, what: str = "the change in P(win)") -> str:
    """Each arm's P(unfinished) (`rates`: label -> row) beside a change in P(win), and how much of
    that change the unfinished games make. They count as lost by every side; shared evenly (1/sides
    to each side) they would move the change by d_unfinished / sides, so -d_unfinished / sides of
    it is theirs. 'Mostly' only when that part's whole interval is beyond half the change."""
    if all(row["estimate"] == 0 for row in rates.values()) and d_unfinished["estimate"] == 0:
        return f"No game was left unfinished at the cap on game length ({d_unfinished['n']:,} games)."
    text = ("Games left unfinished at the cap on game length (no winner, lost by every side): "
            + ", ".join(f"{label} {say(row)}" for label, row in rates.items()))
    part = {"estimate": -d_unfinished["estimate"] / sides, "ci_low": -d_unfinished["ci_high"] / sides,
            "ci_high": -d_unfinished["ci_low"] / sides, "n": d_unfinished["n"], "kind": "change"}
    if not (part["ci_low"] > 0 or part["ci_high"] < 0):
        return text + "."
    half = abs(d_win["estimate"]) / 2
    mostly = (part["ci_low"] > half) if d_win["estimate"] > 0 else (part["ci_high"] < -half)
    return (text + f"; {say(part, signed=True)} of {what} comes from them"
            + (": the effect is mostly unfinished games, not games won." if mostly else "."))


# --------------------------------------------------------------------------------------------
# rules what-if: the same deals under two rule sets
# --------------------------------------------------------------------------------------------

def variant_rules(setup: Setup, variant_args: list[str]) -> tuple[str, ...]:
    """The what-if rule arguments (setup's own plus the variant's), checked."""
    if not variant_args:
        raise BadInput("whatif needs at least one --rule flag=value to compare against the defaults")
    setup.validate()
    variant = tuple(setup.rule_args) + tuple(variant_args)
    replace(setup, rule_args=variant).validate()
    _refuse_no_change(setup, variant_args)
    return variant


def _refuse_no_change(setup: Setup, variant_args) -> None:
    """A change to the value the rule already has compares the rules with themselves: refused in one
    line ('moon.min_bid=4 is already the default')."""
    by_name = {f.name: f for f in setup.entry.flags}
    base = setup.table.rules
    given = {arg.split("=", 1)[0].strip() for arg in setup.rule_args}
    for arg in variant_args:
        name = arg.split("=", 1)[0].strip()
        flag = by_name.get(name)
        if flag is None:
            continue
        after = replace(setup, rule_args=tuple(setup.rule_args) + (arg,)).table.rules
        if getattr(after, flag.field, None) == getattr(base, flag.field, None):
            where = "the rule at this table (--rule)" if name in given else "the default"
            raise BadInput(f"{arg.strip()} is already {where}, so there is nothing to compare; accepted: another value "
                           f"of {name} ({flag.accepted})")


def paired(base: dict[str, np.ndarray], variant: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """base_*, variant_* and their paired differences d_* (p_ dropped from the difference's name)."""
    return {**{f"base_{k}": v for k, v in base.items()}, **{f"variant_{k}": v for k, v in variant.items()},
            **{f"d_{k.removeprefix('p_')}": difference(variant[k], base[k]) for k in base}}


def paired_names(names: list[str]) -> list[str]:
    return [f"base_{k}" for k in names] + [f"variant_{k}" for k in names] + [f"d_{k.removeprefix('p_')}" for k in names]


def game_values(arm: Setup, g) -> dict[str, np.ndarray]:
    """Per game and seat (n, players): the seat's side won, the game's length, unfinished."""
    hooks, table = arm.hooks, arm.table
    P = table.players
    length = {k: np.repeat(v[:, None], P, axis=1) for k, v in hooks.game_length(g).items()}
    return {"p_win": hooks.wins(arm, g)[:, table.side_of_seat[:P]], **length,
            "p_unfinished": np.repeat(hooks.unfinished(g)[:, None], P, axis=1)}


def _whatif_chunk(setup: Setup, variant: tuple[str, ...], games: bool, seed: int, index: int, size: int) -> Tally:
    hooks = setup.hooks
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    values = []
    tally = Tally()
    lucks = []          # each arm's deal luck per seat (analysis.variance), when the game has a luck model
    for k, arm in enumerate((setup, replace(setup, rule_args=variant))):
        if games:
            keep = variance.model(arm) is not None
            with lineup_of(k, 2):
                g = hooks.play_games(arm, arm.seats.strategies, generators(seeds), size, keep_hands=keep)
            values.append(game_values(arm, g))
            lucks.append(variance.seat_luck(arm, g, size) if keep else None)
        else:
            res = hooks.play(arm, arm.seats.strategies, generators(seeds), size)
            values.append(hooks.seat_outcomes(arm, res))
            hooks.whatif_tally(arm, res, tally, ("base", "variant")[k])
    tally.add_columns("seats", "seat", paired(*values))
    if games and lucks and all(x is not None for x in lucks):
        variance.tally_seats(tally, "cv_win", values[1]["p_win"].astype(float) - values[0]["p_win"], lucks[::-1])
    return tally


def whatif(setup: Setup, variant_args: list[str], hands: int | None, games: int | None, seed: int,
           jobs: int = 1, progress: Progress = None, chunk: int | None = None, until=None) -> Result:
    """The same deals under `setup`'s rules and with `variant_args` applied on top (`chunk`: hands
    or games per chunk, as the rules lab plays them; Setup.chunk by default). `until` (an
    analysis.until.Until): play until every seat's headline change is that narrow, the count given
    being the budget."""
    variant = variant_rules(setup, variant_args)
    if until is not None:
        from moonshot.analysis.until import run_until
        call = Call(_whatif_chunk, (setup, variant, bool(games)), games or hands, chunk)
        head = f"d_{'win' if games else setup.hooks.seat_outcome_names[0].removeprefix('p_')}"
        return run_until(call, seed, jobs, progress, until,
                         lambda t, n: _whatif_result(setup, variant_args, None if games else n, games and n, seed, t),
                         lambda res: res.tables["seats"][res.tables["seats"]["metric"] == head],
                         "games" if games else "hands", run_many=run_many)
    t = run(_whatif_chunk, (setup, variant, bool(games)), games or hands, seed, jobs, progress, chunk=chunk)
    return _whatif_result(setup, variant_args, hands, games, seed, t)


def _whatif_result(setup: Setup, variant_args: list[str], hands: int | None, games: int | None, seed: int,
                   t: Tally) -> Result:
    """The what-if's estimates, findings and notes from its tally `t`."""
    hooks = setup.hooks
    n = games or hands
    names = ["p_win", *hooks.game_length_names, "p_unfinished"] if games else hooks.seat_outcome_names
    res = Result(f"{setup.entry.title}: rules what-if",
                 {**setup.meta(seed=seed), "variant": list(variant_args), ("games" if games else "hands"): n})
    res.tables["seats"] = estimate(t.get("seats"), ["seat"], paired_names(names))
    _whatif_findings(res, names, variant_args, n, "games" if games else "hands", hooks)
    if not games:
        hooks.whatif_tables(t, res)
    if games:
        seats = res.tables["seats"]
        rows = {m: seats[seats["metric"] == m] for m in ("d_win", "d_unfinished", "base_p_unfinished",
                                                         "variant_p_unfinished")}
        largest = rows["d_win"].loc[rows["d_win"]["estimate"].abs().idxmax()]
        narrower = variance.seat_rows(t, "cv_win", "d_win", rows["d_win"])
        if narrower is not None:
            res.tables["narrower"] = narrower
            res.notes.append(variance.WHATIF_NOTE)
        res.findings.append(unfinished_words(largest, rows["d_unfinished"].iloc[0], setup.table.n_sides,
                                             {"base": rows["base_p_unfinished"].iloc[0],
                                              "variant": rows["variant_p_unfinished"].iloc[0]},
                                             f"the largest change in P(win) (seat {int(largest['seat'])})"))
    res.notes.append("The same deals and the same random streams under both rule sets; per seat, the outcome of "
                     "the seat's side. d_* = variant minus base, a paired difference with its 95% interval.")
    if games:
        res.notes.append(UNFINISHED_NOTE)
    res.findings = all_for_players(res.findings, f"{players_said(setup)}, under both rule sets")
    return res


# --------------------------------------------------------------------------------------------
# the hooks each game provides
# --------------------------------------------------------------------------------------------

class Hooks:
    """What the shared verbs need to know about one game. Subclasses fill in the rest."""
    hands_word = "hands"                      # what one deal played out is called ("rounds", "hands")
    game_length_names: tuple[str, ...] = ("hands",)
    game_extra_names: tuple[str, ...] = ()    # simulate --games only, e.g. ("p_supply_short",)
    game_unit = "P(winning the game)"
    side_outcome_names: tuple[str, ...] = ()  # match metrics per side, e.g. ("score",)
    side_outcome_unit = ""
    seat_outcome_names: tuple[str, ...] = ()  # what-if metrics per seat
    lower_is_better: tuple[str, ...] = ()     # match metrics where less is better (penalty points)
    metric_words: dict = {"win": "P(winning the game)"}   # how a finding names a match metric
    words: dict = {}         # metric/key name -> (column header, meaning): the glossary's words for this game
    headline_names: tuple[str, ...] = ()      # rules lab: the game's headline rates per hand (see headline)
    lab_size = (2_000, 20_000)                # rules lab: games and hands per rule change by default
    # rules lab: the skill measure's baseline, the simplest non-random heuristic
    lab_baseline = "random"
    default_profile: str | None = None        # a game with a slap race: the reaction profile every seat has by default

    def make_table(self, players: int, partners: bool, rule_args: tuple[str, ...], profiles: tuple[str, ...]):
        raise NotImplementedError

    def whatif_tally(self, setup: Setup, res, tally: Tally, arm: str) -> None:
        """A what-if's own tables of one arm's hands ("base" or "variant"), beside the seats' paired
        outcomes: the measures the game's tables use (Moon: make rates by bid). None by default."""

    def whatif_tables(self, t: Tally, res: Result) -> None:
        """The what-if's own tables and findings from whatif_tally's counts."""

    def table_meta(self, setup: Setup) -> dict:
        return {"players": setup.players}

    def play(self, setup: Setup, strategies, rngs: list[np.random.Generator], size: int, record: bool = False):
        """One hand per game: the engine's play entry point."""
        return setup.entry.module("engine").play(setup.table, size, strategies, *rngs)

    def play_games(self, setup: Setup, strategies, rngs: list[np.random.Generator], size: int,
                   keep_hands: bool = False):
        """Whole games; `keep_hands` keeps every hand (engine GameResult.hand_log) for histories."""
        return setup.entry.module("engine").play_games(setup.table, size, strategies, *rngs, keep_hands=keep_hands)

    def start_score(self, setup: Setup) -> int:
        """Every side's game score before the first hand (HISTORY.md scores_before)."""
        return 0

    def hand_score(self, setup: Setup, res) -> np.ndarray:
        """(n, sides): how much each side's game score changed in these hands."""
        return res.score

    def game_length(self, g) -> dict[str, np.ndarray]:
        return {"hands": g.hands}

    def wins(self, setup: Setup, g) -> np.ndarray:
        """(n, sides) bool: which side won each game (a game has at most one winner here)."""
        return g.winner[:, None] == np.arange(setup.table.n_sides)

    def unfinished(self, g) -> np.ndarray:
        return g.winner < 0

    def game_extras(self, g) -> dict[str, np.ndarray]:
        return {}

    def first_player(self, setup: Setup, g) -> np.ndarray:
        """(n,) the seat that plays (or bids) first in each game's first hand: position 0 of the
        rules lab's fairness measures."""
        raise NotImplementedError

    def headline(self, setup: Setup, res) -> dict[str, np.ndarray]:
        """Per hand (n,): the game's headline rates for the rules lab (headline_names): yes/no
        outcomes, or Share / plain means over the sides."""
        raise NotImplementedError

    def tally_hands(self, setup: Setup, res, tally: Tally) -> None:
        raise NotImplementedError

    def hand_tables(self, setup: Setup, t: Tally, res: Result) -> None:
        raise NotImplementedError

    def tally_games(self, setup: Setup, g, tally: Tally) -> None:
        """Game-specific extras beside the shared win and length tallies."""

    def game_tables(self, setup: Setup, t: Tally, res: Result) -> None:
        """Game-specific extras beside the shared games and game_length tables."""

    def side_outcomes(self, setup: Setup, res) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def seat_outcomes(self, setup: Setup, res) -> dict[str, np.ndarray]:
        raise NotImplementedError



# --------------------------------------------------------------------------------------------
# the game-specific analyses (`moonshot analyze GAME NAME`)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Analysis:
    """One entry of a game's ANALYSES: the function and the count it takes."""
    run: Callable                 # run(setup, n, seed, jobs, progress=None[, seat=]) -> Result
    unit: str                     # "hands" or "games": given with --hands/-n or --games
    default: int                  # the count when none is given
    help: str
    every_table: bool = False     # without --players: one run per table of HOOKS.all_tables (run takes a list)
    takes_seat: bool = False      # --seat chooses the seat analysed


def analysis_setups(spec: Analysis, setup: Setup, players_given: bool) -> list[Setup]:
    """The tables an analysis runs on: the one asked for, or every table the game has."""
    if spec.every_table and not players_given:
        return [replace(setup, players=p, partners=part) for p, part in setup.hooks.all_tables]
    return [setup]


def run_analysis(spec: Analysis, setups: list[Setup], n: int, seed: int, jobs: int, seat: int | None,
                 progress: Progress = None) -> Result:
    extra = {"seat": 0 if seat is None else seat} if spec.takes_seat else {}
    return spec.run(setups if spec.every_table else setups[0], n, seed, jobs, progress=progress, **extra)
