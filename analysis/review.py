"""`moonshot review`: every decision of a played hand valued from what its seat knew (DESIGN.md, Review).

One shared verb over per-game hooks, as for `simulate`: a game's review module (named by its registry
entry, `Game.review`) turns one history record into `Decision`s, each holding the outcome of every legal
option on the same sampled worlds (worlds dealt from the seat's own view, as pimc and rollout deal them,
every option played out by the game's strongest player). Everything after that is shared here: the best
option, the loss of the option chosen with its paired interval, the verdict, the per-seat summary.

A hook module has `decisions(record, seats, worlds, seed, progress=None, steps=None)`, UNIT (its
unit's name, which keys the glossary's blunder size) and HOW (a note on how it values options); it
may have WORLDS (its default worlds per decision), `decision_steps(record, seats)` (the steps it
will value: the progress bar's total, and --jobs spreads a hand's decisions over the workers) and
`slaps(record, seats)` (reactions reported apart). Verdicts: "forced" (one option), "best" (the
best found, or equal to it in every world), "mistake" (the loss's 95% interval clears zero),
"blunder" (it clears reports.glossary.BLUNDERS' size for the unit), "cannot be told" otherwise.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from moonshot.analysis.stats import Z
from moonshot.analysis.result import Result
from moonshot.analysis.words import say
from moonshot.reports.glossary import blunder_size, verdict_words
from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import PERSON, replayed
from moonshot.simulator.records import history_lines
from moonshot.simulator.runner import DEFAULT_SEED

# The verdicts (reports/glossary.py says what each means and the blunder sizes)
FORCED, BEST, MISTAKE, BLUNDER, UNTOLD = "forced", "best", "mistake", "blunder", "cannot be told"
WIN = "P(win)"                # the valuation of whole-games records
PLAYED = "as played"          # the summary's row of the seat's own choices
MAX_WORLDS = 4096             # pimc's own cap


@dataclass
class Decision:
    """One decision of one seat in one hand, with every legal option valued on the same worlds."""
    hand_id: int
    seat: int
    step: int                   # the decision's place in the hand's play order (0, 1, ...), all seats counted
    kind: str                   # bid, discard, trump, play, call, draw, keep, ... (the game's decision names)
    options: list[str]          # the legal options' labels in HISTORY.md notation ("pass" for a pass)
    chosen: int                 # index into options of the option the seat took
    outcomes: np.ndarray        # (worlds, options): each world's outcome of each option, in the game's unit
    unit: str                   # the game's unit: "points" (Moon, the mover's side), "chips", "penalty points"
    higher_better: bool = True  # False where the unit is a cost (Hit the Deck's penalty points)
    win: np.ndarray | None = None          # (worlds, options) the mover's P(win the game) per world, when the
                                           # record holds whole games (scores_before)
    p_win: np.ndarray | None = None        # (worlds, options) the mover's P(win the game) shown beside the unit's
                                           # values where the verdict is not judged by it (Hit the Deck's single hands)
    open_values: list[float] | None = None  # Moon: each option's value with every hand known (the exact solver)
    yardstick: dict[str, int] = field(default_factory=dict)   # built-in strategy -> the option it would take here

    @property
    def forced(self) -> bool:
        return len(self.options) == 1


DEFAULT_WORLDS = 32          # worlds per decision for a hook that names none (its WORLDS)


def decision_rng(seed: int, hand_id: int, step: int) -> np.random.Generator:
    """Each decision's own stream: the same numbers whichever worker values it (any --jobs)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(hand_id), int(step)]))


# ------------------------------------------------------------------------------------ reading the input

def _lines(source) -> tuple[list[str], str]:
    """The history's JSON lines and the name BadInput gives it: a path, or parsed records."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise BadInput(f"no history file {str(path)!r}; accepted: a JSON-lines file written by --history")
        try:     # JSON lines, or a typed hand record (docs/hand-records.md) read into them
            return history_lines(path.read_text(encoding="utf-8"), str(path)), str(path)
        except UnicodeDecodeError:
            raise BadInput(f"{path}: not UTF-8 text; accepted: a JSON-lines file written by --history") from None
    if isinstance(source, dict):
        source = [source]
    try:
        return [json.dumps(r) for r in source], "records"
    except TypeError:
        raise BadInput("records: not a history file's path nor a list of its records (dicts); accepted: "
                       "either") from None


def _records(source, hand_ids) -> list[tuple[dict, object]]:
    """(record, game entry) of every hand to review, each checked by its game's replay; one game only."""
    lines, name = _lines(source)
    found = [(rec, entry) for rec, entry, _ in replayed(lines, name)]
    if not found:
        raise BadInput(f"{name}: no hands; accepted: a history with at least one hand")
    games = list(dict.fromkeys(entry.name for _, entry in found))
    if len(games) > 1:
        raise BadInput(f"{name}: hands of {' and '.join(games)} mixed in one file; accepted: one game's history")
    if hand_ids:
        present = {rec["hand_id"] for rec, _ in found}
        missing = [h for h in hand_ids if h not in present]
        if missing:
            raise BadInput(f"{name}: no hand with hand id {missing[0]}; accepted: a hand id in the file "
                           f"({_span(sorted(present))})")
        found = [(rec, entry) for rec, entry in found if rec["hand_id"] in set(hand_ids)]
    return found


def _span(ids: list[int]) -> str:
    return ", ".join(map(str, ids)) if len(ids) <= 6 else f"{ids[0]}..{ids[-1]}"


def _seats(record: dict, seats, name: str) -> set[int]:
    """The seats to review in this hand: those asked for (each must have played it), else the seats
    a person played (the play page's seat), else every seat."""
    players = record["players"]
    if seats:
        bad = [s for s in seats if not (isinstance(s, int) and 0 <= s < players)]
        if bad:
            raise BadInput(f"{name}: seat {bad[0]!r} did not play in it; accepted: seats "
                           f"0..{players - 1}")
        return set(seats)
    specs = record.get("strategies") or []
    people = {s for s, spec in enumerate(specs if isinstance(specs, list) else []) if spec == PERSON}
    return people or set(range(players))


# ------------------------------------------------------------------------------------ valuing decisions

def _hook(entry):
    if entry.review is None:
        from moonshot.simulator.games import GAMES
        have = [g.name for g in GAMES.values() if g.review]
        raise BadInput(f"no review for {entry.name} yet; accepted: {', '.join(have) or 'none'}")
    return importlib.import_module(entry.review)


def _value_part(review: str, record: dict, seats: set[int], worlds: int, seed: int, steps,
                k: int) -> tuple[int, list[Decision]]:
    """Task k, one worker's share: the hook's decisions of `record` (only `steps` where the hook can split)."""
    hook = importlib.import_module(review)
    if steps is None:
        return k, hook.decisions(record, seats, worlds, seed)
    return k, hook.decisions(record, seats, worlds, seed, steps=steps)


def _value_all(work: list, worlds: int, seed: int, jobs: int, progress) -> list[Decision]:
    """Every decision of every (hook, record, seats): in this process with jobs=1 (and no cluster),
    else one task per few decisions on joblib's workers or a configured cluster (hooks with
    decision_steps) or per hand and seat; progress hears each task's decisions as it finishes."""
    from moonshot.simulator.runner import backend_configured
    configured = backend_configured()
    if jobs == 1 and not configured:
        out = []
        for review, record, seats in work:
            out += importlib.import_module(review).decisions(record, seats, worlds, seed, progress=progress)
        return out
    from joblib import Parallel, delayed
    tasks = []
    for review, record, seats in work:
        hook = importlib.import_module(review)
        if hasattr(hook, "decision_steps"):     # a few decisions a task: each task replays its hand once
            steps = hook.decision_steps(record, seats)
            size = max(1, -(-len(steps) // (4 * max(jobs, 2))))
            tasks += [(review, record, seats, steps[i:i + size]) for i in range(0, len(steps), size)]
        else:
            tasks += [(review, record, {s}, None) for s in sorted(seats)]
    parts: dict[int, list[Decision]] = {}
    # A cluster at --jobs 1 keeps its own worker count (joblib would run n_jobs=1 inline); every
    # decision has its own seed, and the parts are put back in task order, so the order the tasks
    # finish in changes nothing
    runs = Parallel(n_jobs=None if jobs == 1 else jobs, return_as="generator_unordered")(
        delayed(_value_part)(r, rec, seats, worlds, seed, steps, k) for k, (r, rec, seats, steps) in enumerate(tasks))
    for k, part in runs:
        parts[k] = part
        if progress is not None:
            progress(len(part))
    out = [d for k in sorted(parts) for d in parts[k]]
    return sorted(out, key=lambda d: (d.hand_id, d.step))


# ------------------------------------------------------------------------------------ judging

def _interval(x: np.ndarray) -> tuple[float, float, float]:
    """mean, and its 95% interval (mean +- 1.96 sd/sqrt(W)); no interval from fewer than two worlds."""
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return 0.0, 0.0, 0.0
    m = float(x.mean())
    if len(x) < 2:
        return m, np.nan, np.nan
    half = Z * float(x.std(ddof=1)) / np.sqrt(len(x))
    return m, m - half, m + half


@dataclass
class Judged:
    """One decision judged: the valuation its verdict used and every option's loss against the best."""
    decision: Decision
    valued_by: str            # "P(win)" for whole-games records, else the game's unit
    gain: np.ndarray          # (worlds, options) in that valuation, higher better
    best: int

    @classmethod
    def of(cls, d: Decision) -> "Judged":
        if d.win is not None:
            gain, by = np.asarray(d.win, dtype=float), WIN
        else:
            gain, by = np.asarray(d.outcomes, dtype=float) * (1 if d.higher_better else -1), d.unit
        best = int(np.argmax(gain.mean(axis=0))) if gain.shape[0] else 0
        return cls(d, by, gain, best)

    def loss(self, k: int) -> np.ndarray:
        """Option k's per-world loss against the best option (paired: the same worlds)."""
        return self.gain[:, self.best] - self.gain[:, k]

    def verdict(self, k: int) -> tuple[str, float, float, float]:
        """(verdict, loss, low, high) of taking option k."""
        if self.decision.forced:
            return FORCED, 0.0, 0.0, 0.0
        loss = self.loss(k)
        m, lo, hi = _interval(loss)
        if k == self.best or not (np.abs(loss) > 1e-9).any():      # equal in every world: as good as the best
            return BEST, m, lo, hi
        if lo > blunder_size(self.valued_by):
            return BLUNDER, m, lo, hi
        return (MISTAKE if lo > 0 else UNTOLD), m, lo, hi


def option_values(j: Judged) -> list[dict]:
    """Each option of a judged decision as a player reads it (the review's rows and the Play page's
    hint both): its mean value in the game's unit with a 95% interval, its paired difference from
    the best option in that unit, the mover's P(win) where the decision has one, whether it is the
    best, and the verdict of taking it with its loss."""
    d = j.decision
    out = np.asarray(d.outcomes, dtype=float)
    best_points = int(np.argmax(out.mean(axis=0) * (1 if d.higher_better else -1))) if out.shape[0] else 0
    rows = []
    for k, label in enumerate(d.options):
        value, lo, hi = _interval(out[:, k]) if out.shape[0] else (np.nan, np.nan, np.nan)
        diff, dlo, dhi = _interval(out[:, k] - out[:, best_points]) if out.shape[0] else (0.0, 0.0, 0.0)
        verdict, loss, llo, lhi = j.verdict(k)
        row = {"option": label, "value": value, "value_low": lo, "value_high": hi,
               "diff": diff, "diff_low": dlo, "diff_high": dhi}
        chance = d.win if d.win is not None else d.p_win
        if chance is not None:
            row["p_win"] = float(np.mean(chance[:, k])) if len(chance) else np.nan
        row.update({"best": k == j.best, "loss": loss, "loss_low": llo, "loss_high": lhi, "verdict": verdict,
                    "valued_by": j.valued_by})
        rows.append(row)
    return rows


def _option_rows(j: Judged) -> list[dict]:
    d = j.decision
    taken_by = {k: [name for name, y in d.yardstick.items() if y == k] for k in range(len(d.options))}
    rows = []
    for k, values in enumerate(option_values(j)):
        row = {"hand": d.hand_id, "seat": d.seat, "step": d.step, "kind": d.kind, **values}
        if d.open_values is not None:
            row["open_value"] = d.open_values[k]
        row.update({"chosen": k == d.chosen, "taken_by": ", ".join(taken_by[k])})
        rows.append(row)
    return rows


def _summary(judged: list[Judged], specs: dict[int, str]) -> pd.DataFrame:
    """Per seat and player (as played, then each yardstick on the same decisions): counts and total loss."""
    rows = []
    keys: dict[tuple, list] = {}
    for j in judged:
        d = j.decision
        players = [(PLAYED, d.chosen)] + sorted(d.yardstick.items())
        for name, k in players:
            keys.setdefault((d.seat, name, j.valued_by), []).append((j, k))
    for (seat, name, unit), items in sorted(keys.items(), key=lambda kv: (kv[0][0], kv[0][1] != PLAYED)):
        verdicts = [j.verdict(k) for j, k in items]
        told = [v for v in verdicts if v[0] != FORCED]
        var = sum(((hi - m) / Z) ** 2 for _, m, lo, hi in told if not np.isnan(hi))
        total = sum(m for _, m, _, _ in told)
        half = Z * np.sqrt(var)
        rows.append({"seat": seat, "player": name if name != PLAYED else f"{PLAYED}: {specs.get(seat, '?')}",
                     "unit": unit, "forced": len(verdicts) - len(told),
                     "mistakes": sum(v[0] in (MISTAKE, BLUNDER) for v in told),
                     "blunders": sum(v[0] == BLUNDER for v in told),
                     "metric": "total_loss", "estimate": total, "n": len(told),
                     "ci_low": total - half, "ci_high": total + half, "kind": "change" if unit == WIN else "mean"})
    return pd.DataFrame(rows)


def _findings(summary: pd.DataFrame) -> list[str]:
    """Per seat in words: its mistakes and its total loss, and the yardsticks' on the same decisions.
    A loss is called a loss only where its interval clears zero (words.py's findings rule)."""
    out = []
    for (seat, unit), rows in summary.groupby(["seat", "unit"], sort=False):
        played = rows.iloc[0]
        n, m, b = int(played["n"]), int(played["mistakes"]), int(played["blunders"])
        unit = "" if unit == WIN else unit             # a P(win) loss reads in percentage points
        cost = say(played, signed=False, unit=unit)
        told = "clear of zero" if played["ci_low"] > 0 else "not told from zero"
        text = (f"Seat {seat} ({played['player']}): {m} mistake{'s' * (m != 1)} ({b} blunder{'s' * (b != 1)}) in "
                f"{n} decision{'s' * (n != 1)} with a choice (and {int(played['forced'])} forced); its choices "
                f"lost {cost} in all against the best option found ({told}).")
        others = rows.iloc[1:]
        if len(others):
            text += " On the same decisions " + "; ".join(
                f"{r['player']} would have lost {say(r, signed=False, unit=unit)} ({int(r['mistakes'])} "
                f"mistake{'s' * (int(r['mistakes']) != 1)})"
                for _, r in others.iterrows()) + "."
        out.append(text)
    return out


# ------------------------------------------------------------------------------------ the verb

def _work(source, seats, hand_ids):
    """(records with their game entries, the entry, its hook, [(hook module, record, seats)])."""
    seats = [seats] if isinstance(seats, int) else list(seats or [])
    hand_ids = [hand_ids] if isinstance(hand_ids, int) else list(hand_ids or [])
    found = _records(source, hand_ids)
    entry = found[0][1]
    hook = _hook(entry)
    return found, entry, hook, [(entry.review, rec, _seats(rec, seats, f"hand {rec['hand_id']}")) for rec, _ in found]


def planned(source, seats=None, hand_ids=None) -> int | None:
    """How many decisions review() will value (None where the game's hook cannot say before it
    values them); bad input fails here the same way, before any work."""
    _, _, hook, work = _work(source, seats, hand_ids)
    if not hasattr(hook, "decision_steps"):
        return None
    return sum(len(hook.decision_steps(rec, s)) for _, rec, s in work)


def review(source, seats=None, hand_ids=None, worlds: int | None = None, seed: int = DEFAULT_SEED, jobs: int = 1,
           progress=None) -> Result:
    """Review the hands of a history (a file's path, or its parsed records: one entry for both):
    every decision of `seats` (default: the seats a person played, else all) in the hands
    `hand_ids` (default: all), each option valued on `worlds` worlds dealt from the seat's view
    (default: the game's hook's WORLDS, else DEFAULT_WORLDS).
    `progress(k)` hears k more decisions valued. Same seed, same numbers for any `jobs`."""
    if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int)
                               or not 2 <= worlds <= MAX_WORLDS):
        raise BadInput(f"--worlds {worlds!r} is not accepted; accepted: an integer from 2 to {MAX_WORLDS}")
    found, entry, hook, work = _work(source, seats, hand_ids)
    worlds = worlds or getattr(hook, "WORLDS", DEFAULT_WORLDS)
    judged = [Judged.of(d) for d in _value_all(work, worlds, seed, jobs, progress)]
    specs = {}
    for rec, _ in found:
        for s, spec in enumerate(rec.get("strategies") or []):
            specs.setdefault(s, spec)
    decisions = pd.DataFrame([row for j in judged for row in _option_rows(j)])
    summary = _summary(judged, specs)
    whole = any("scores_before" in rec for rec, _ in found)
    meta = {"game": entry.name, "players": found[0][0]["players"], "hands": len(found),
            "decisions": len(judged), "worlds": worlds, "seed": seed, "valued_by": WIN if whole else hook.UNIT}
    notes = [hook.HOW,
             f"Each option's value is its mean over the same {worlds} worlds; its difference from the best option "
             f"is paired world by world, with a 95% interval (mean +- 1.96 sd/sqrt(worlds)).",
             verdict_words(hook.UNIT, whole)]
    tables = {"decisions": decisions, "summary": summary}
    if hasattr(hook, "slaps"):          # reactions, not decisions (Hit the Deck): times against the profile
        slaps = [row for _, rec, s in work for row in hook.slaps(rec, s)]
        if slaps:
            tables["slaps"] = pd.DataFrame(slaps)
    return Result(f"{entry.title}: review of {len(found)} hand{'s' * (len(found) != 1)}", meta,
                  tables, notes, _findings(summary) if len(summary) else [])
