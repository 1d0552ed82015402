"""`moonshot review`: every decision of a played hand valued from what its seat knew (DESIGN.md, Review).

One shared verb over per-game hooks, as for `simulate`: a game's review module (named by its registry
entry, `Game.review`) turns one history record into `Decision`s, each holding the outcome of every legal
option on the same sampled worlds (worlds dealt from the seat's own view, as pimc and rollout deal them,
every option played out by the game's strongest player). Everything after that is shared here: the best
option, the loss of the option chosen with its paired interval, the verdict, the per-seat summary.

A hook module has `decisions(record, seats, worlds, seed, progress=None, steps=None)`, UNIT (its
unit's name), SIZES (the verdicts' sizes in that unit: a `Sizes`) and HOW (a note on how it values
options); it may have WORLDS (its default worlds per decision), `decision_steps(record, seats)` (the
steps it will value: the progress bar's total, and --jobs spreads a hand's decisions over the workers)
and `slaps(record, seats)` (reactions reported apart).

Verdicts, by size as GNU Backgammon and lichess grade (each size's why is in the hook's Sizes):
"forced" (one option), "best" (the best found, or equal to it in every world), "blunder", "mistake",
"inaccuracy" (the loss's 95% interval clears that size), "fine" (the whole interval is under the
inaccuracy size: it lost too little to matter, if anything), "cannot be told" otherwise.

A loss is measured without the winner's curse: the best of noisy means, measured on the worlds that
chose it, beats every other option by more than it truly does, and the more so the fewer the worlds
(a total loss then shrinks as worlds are added). So each world's loss is taken against the option
best on all the other worlds (leave one out): the yardstick is chosen without the world that
measures it. The option best on all the worlds, the one the review advises, loses nothing against
itself. (With leave-one-out for it too, a near tie made the advised option's own loss negative,
clear of zero; yardsticks chosen on the other half of the worlds err the other way. CHANGELOG.md
has the figures.)
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from moonshot.analysis import luck
from moonshot.analysis.stats import Z
from moonshot.analysis.result import Result
from moonshot.analysis.words import say
from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import PERSON, replayed
from moonshot.simulator.records import history_lines
from moonshot.simulator.runner import DEFAULT_SEED

# The verdicts, smallest loss first (the module's docstring says what each means)
FORCED, BEST, FINE, UNTOLD = "forced", "best", "fine", "cannot be told"
INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
ERRORS = (INACCURACY, MISTAKE, BLUNDER)
WIN = "P(win)"                # the valuation of whole-games records
PLAYED = "as played"          # the summary's row of the seat's own choices
MAX_WORLDS = 4096             # pimc's own cap


@dataclass(frozen=True)
class Sizes:
    """The losses a verdict's 95% interval must clear, in one valuation's unit, and why these sizes."""
    inaccuracy: float
    mistake: float
    blunder: float
    why: str

    def grade(self, low: float, high: float) -> str:
        """The verdict of a loss with this 95% interval (not the best option, not forced)."""
        for size, verdict in ((self.blunder, BLUNDER), (self.mistake, MISTAKE), (self.inaccuracy, INACCURACY)):
            if low > size:
                return verdict
        return FINE if high < self.inaccuracy else UNTOLD


# Whole games are judged by the mover's chance to win the game: lichess grades a move by the drop in
# winning chances (about 5 / 10 / 15 points of a 0-100 scale); a table game's hand moves it less
# than a chess move, so the sizes here are smaller.
WIN_SIZES = Sizes(0.02, 0.05, 0.10, "P(win): 2, 5 and 10 percentage points of the chance to win the game; one "
                  "game in ten is a blunder")


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
    sizes: Sizes | None = None  # the verdicts' sizes in `unit` (the hook's SIZES)
    where: str = ""             # the decision as a player names it: "bid", "trick 3, 2nd to play", "turn 12: play"

    @property
    def forced(self) -> bool:
        return len(self.options) == 1


def whole_result(values: np.ndarray, side) -> np.ndarray:
    """A side's whole result from every side's result of a hand (last axis): its own less the others'
    mean, so what another side gains or loses counts for the mover too (a Little Moon dropped on an
    opponent's trick, a penalty draw pushed onto the next player). The sides' whole results sum to zero."""
    values = np.asarray(values, dtype=float)
    at = np.broadcast_to(np.asarray(side)[..., None], values.shape[:-1] + (1,))
    own = np.take_along_axis(values, at, axis=-1)[..., 0]
    return own - (values.sum(axis=-1) - own) / (values.shape[-1] - 1)


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
    best: int                 # the option best on all the worlds (the one a hint stars)
    sizes: Sizes              # the verdicts' sizes in that valuation
    against: np.ndarray       # (worlds,) each world's yardstick: the option best on all the other worlds

    @classmethod
    def of(cls, d: Decision) -> "Judged":
        if d.win is not None:
            gain, by, sizes = np.asarray(d.win, dtype=float), WIN, WIN_SIZES
        else:
            gain, by = np.asarray(d.outcomes, dtype=float) * (1 if d.higher_better else -1), d.unit
            sizes = d.sizes if d.sizes is not None else Sizes(np.inf, np.inf, np.inf, "none stated")
        W = gain.shape[0]
        best = int(np.argmax(gain.mean(axis=0))) if W else 0
        # each world's yardstick: the option best on all the other worlds (leave one out)
        against = np.argmax(gain.sum(axis=0)[None, :] - gain, axis=1) if W >= 2 else np.full(W, best)
        return cls(d, by, gain, best, sizes, against)

    def loss(self, k: int) -> np.ndarray:
        """Option k's per-world loss (paired: the same worlds), each world's against the option best on
        all the other worlds: no winner's curse (the module's docstring)."""
        if k == self.best:                  # the option the review advises loses nothing against itself
            return np.zeros(len(self.gain))
        return self.gain[np.arange(len(self.gain)), self.against] - self.gain[:, k]

    def verdict(self, k: int) -> tuple[str, float, float, float]:
        """(verdict, loss, low, high) of taking option k."""
        if self.decision.forced:
            return FORCED, 0.0, 0.0, 0.0
        m, lo, hi = _interval(self.loss(k))
        if k == self.best or not (np.abs(self.gain[:, self.best] - self.gain[:, k]) > 1e-9).any():
            return BEST, m, lo, hi           # the best found, or as good as it in every world
        return self.sizes.grade(lo, hi), m, lo, hi


def option_values(j: Judged) -> list[dict]:
    """Each option of a judged decision as a player reads it (the review's rows and the Play page's
    hint both): its mean value in the game's unit with a 95% interval, its paired difference from
    the best option in that unit in the mover's favour (negative: worse, in every game), the mover's
    P(win) where the decision has one, whether it is the best, and the verdict of taking it with its
    loss."""
    d = j.decision
    out = np.asarray(d.outcomes, dtype=float)
    sign = 1 if d.higher_better else -1
    best_points = int(np.argmax(out.mean(axis=0) * sign)) if out.shape[0] else 0
    rows = []
    for k, label in enumerate(d.options):
        value, lo, hi = _interval(out[:, k]) if out.shape[0] else (np.nan, np.nan, np.nan)
        # in the mover's favour in every game (one sign: negative is worse; for penalty points, more is worse)
        diff, dlo, dhi = _interval(sign * (out[:, k] - out[:, best_points])) if out.shape[0] else (0.0, 0.0, 0.0)
        verdict, loss, llo, lhi = j.verdict(k)
        row = {"option": label, "value": value, "value_low": lo, "value_high": hi,
               "diff": diff, "diff_low": dlo, "diff_high": dhi}
        chance = d.win if d.win is not None else d.p_win
        if chance is not None:
            row["p_win"], row["p_win_low"], row["p_win_high"] = _interval(chance[:, k]) if len(chance) else \
                (np.nan, np.nan, np.nan)
        row.update({"best": k == j.best, "loss": loss, "loss_low": llo, "loss_high": lhi, "verdict": verdict,
                    "valued_by": j.valued_by})
        rows.append(row)
    return rows


def _option_rows(j: Judged) -> list[dict]:
    d = j.decision
    taken_by = {k: [name for name, y in d.yardstick.items() if y == k] for k in range(len(d.options))}
    rows = []
    for k, values in enumerate(option_values(j)):
        row = {"hand": d.hand_id, "seat": d.seat, "step": d.step, "where": d.where, "kind": d.kind, **values}
        if d.open_values is not None:
            row["open_value"] = d.open_values[k]
        row.update({"chosen": k == d.chosen, "taken_by": ", ".join(taken_by[k])})
        rows.append(row)
    return rows


def _step_row(j: Judged) -> dict:
    """One decision in one line: where, the choice, the best, the loss with its interval, the verdict."""
    d = j.decision
    verdict, loss, lo, hi = j.verdict(d.chosen)
    forced = verdict == FORCED
    return {"hand": d.hand_id, "seat": d.seat, "step": d.step, "where": d.where, "kind": d.kind,
            "chosen": d.options[d.chosen], "best": d.options[j.best],
            "loss": np.nan if forced else loss, "loss_low": np.nan if forced else lo,
            "loss_high": np.nan if forced else hi, "verdict": verdict, "valued_by": j.valued_by}


def errors(steps: pd.DataFrame) -> pd.DataFrame:
    """The decisions whose verdict is an error (inaccuracy, mistake, blunder), biggest loss first."""
    if not len(steps):
        return steps
    return steps[steps["verdict"].isin(ERRORS)].sort_values("loss", ascending=False, kind="stable")


def _summary(judged: list[Judged], specs: dict[tuple[int, int], str]) -> pd.DataFrame:
    """Per seat and player as the file names it (`specs`: (hand, seat) -> the record's strategy, a
    person's "person"; a seat played by several in one file gets a row each): as played, then each
    yardstick on the same decisions: the verdicts' counts, the total loss and the error rate (the
    mean loss a decision with a choice, as GNU Backgammon's error rate), each with its 95% interval
    (decisions are valued on independent worlds, so their variances add)."""
    rows = []
    keys: dict[tuple, list] = {}
    for j in judged:
        d = j.decision
        spec = str(specs.get((d.hand_id, d.seat), "?"))
        players = [(PLAYED, d.chosen)] + sorted(d.yardstick.items())
        for name, k in players:
            keys.setdefault((d.seat, spec, name, j.valued_by), []).append((j, k))
    for (seat, spec, name, unit), items in sorted(keys.items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                                kv[0][2] != PLAYED)):
        verdicts = [j.verdict(k) for j, k in items]
        told = [v for v in verdicts if v[0] != FORCED]
        counts, total, half = _losses(told)
        base = {"seat": seat, "player": name if name != PLAYED else f"{PLAYED}: {spec}",
                "unit": unit, "forced": len(verdicts) - len(told), **counts, "n": len(told),
                "kind": "change" if unit == WIN else "mean"}
        rows.append({**base, "metric": "total_loss", "estimate": total, "ci_low": total - half,
                     "ci_high": total + half})
        rows.append({**base, **_error_rate(total, half, len(told))})
    return pd.DataFrame(rows)


def _losses(verdicts: list[tuple]) -> tuple[dict, float, float]:
    """({errors' counts}, total loss, its 95% half-width) of verdicts with a choice (decisions are
    valued on independent worlds, so their variances add)."""
    counts = {f"{v}s" if v != INACCURACY else "inaccuracies": sum(x[0] == v for x in verdicts) for v in ERRORS}
    var = sum(((hi - m) / Z) ** 2 for _, m, lo, hi in verdicts if not np.isnan(hi))
    return counts, sum(m for _, m, _, _ in verdicts), Z * np.sqrt(var)


def _error_rate(total: float, half: float, n: int) -> dict:
    """The mean loss a decision with a choice, with its 95% interval (NaN without one)."""
    if not n:
        return {"metric": "error_rate", "estimate": np.nan, "ci_low": np.nan, "ci_high": np.nan}
    return {"metric": "error_rate", "estimate": total / n, "ci_low": (total - half) / n, "ci_high": (total + half) / n}


def _by_kind(judged: list[Judged]) -> pd.DataFrame:
    """Per seat and kind of decision (bid, play, ...), the seat's own choices with a choice: their
    number, each verdict's count and the error rate (mean loss) with its 95% interval."""
    groups: dict[tuple, list] = {}
    for j in judged:
        if not j.decision.forced:
            groups.setdefault((j.decision.seat, j.decision.kind, j.valued_by), []).append(j.verdict(j.decision.chosen))
    rows = []
    for (seat, kind, unit), verdicts in sorted(groups.items()):
        counts, total, half = _losses(verdicts)
        rows.append({"seat": seat, "decision": kind, "unit": unit, **counts, **_error_rate(total, half, len(verdicts)),
                     "n": len(verdicts), "kind": "change" if unit == WIN else "mean"})
    return pd.DataFrame(rows)


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _errors(row) -> str:
    """'1 blunder, 0 mistakes, 2 inaccuracies' of a summary row."""
    return (f"{_count(int(row['blunders']), 'blunder')}, {_count(int(row['mistakes']), 'mistake')}, "
            f"{_count(int(row['inaccuracies']), 'inaccuracy', 'inaccuracies')}")


def _findings(summary: pd.DataFrame) -> list[str]:
    """Per seat in words: its errors by size, its total loss and error rate, and the yardsticks' on the
    same decisions. A loss is called a loss only where its interval clears zero (words.py's rule)."""
    out = []
    # a player's rows: its own (as played), then the yardsticks on the same decisions
    played_by = (summary["player"].str.startswith(PLAYED) & (summary["metric"] == "total_loss")).cumsum()
    for (seat, unit, _), rows in summary.groupby(["seat", "unit", played_by], sort=False):
        totals, rates = rows[rows["metric"] == "total_loss"], rows[rows["metric"] == "error_rate"]
        played, rate = totals.iloc[0], rates.iloc[0]
        n = int(played["n"])
        unit = "" if unit == WIN else unit             # a P(win) loss reads in percentage points
        told = "clear of zero" if played["ci_low"] > 0 else "not told from zero"
        text = (f"Seat {seat} ({played['player']}): {_errors(played)} in {_count(n, 'decision')} with a choice "
                f"(and {int(played['forced'])} forced); its choices lost {say(played, signed=False, unit=unit)} in "
                f"all against the best option found ({told})")
        text += f", {say(rate, signed=False, unit=unit)} a decision." if n else "."
        others = totals.iloc[1:]
        if len(others):
            text += " On the same decisions " + "; ".join(
                f"{r['player']} would have lost {say(r, signed=False, unit=unit)} ({_errors(r)})"
                for _, r in others.iterrows()) + "."
        out.append(text)
    return out


def verdict_note(sizes: Sizes, whole: bool) -> str:
    """The note saying which valuation the verdicts used and the sizes behind them."""
    text = ("Verdicts by size, each where the loss's 95% interval clears it: " + sizes.why + "; 'fine' where the "
            "whole interval is under the smallest size, 'cannot be told' otherwise; 'best' is the best option "
            "found, 'forced' the only one. Each world's loss is taken against the option best on all the other "
            "worlds, so picking the best of noisy values does not inflate the losses.")
    if whole:
        text += (" These hands belong to whole games, so the verdicts use each option's P(win) (" + WIN_SIZES.why
                 + "); the hand's unit stands beside it.")
    return text


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
    specs = {(rec["hand_id"], s): spec for rec, _ in found for s, spec in enumerate(rec.get("strategies") or [])}
    decisions = pd.DataFrame([row for j in judged for row in _option_rows(j)])
    steps = pd.DataFrame([_step_row(j) for j in judged])
    summary = _summary(judged, specs)
    whole = any("scores_before" in rec for rec, _ in found)
    meta = {"game": entry.name, "players": found[0][0]["players"], "hands": len(found),
            "decisions": len(judged), "worlds": worlds, "seed": seed, "valued_by": WIN if whole else hook.UNIT}
    notes = [hook.HOW,
             f"Each option's value is its mean over the same {worlds} worlds; its difference from the best option "
             f"(in the mover's favour in every game: negative is worse) is paired world by world, with a 95% "
             f"interval (mean +- 1.96 sd/sqrt(worlds)).",
             verdict_note(hook.SIZES, whole)]
    tables = {"steps": steps, "decisions": decisions, "summary": summary, "kinds": _by_kind(judged)}
    # luck and skill in the hand's unit, whole games too (not P(win)): analysis/luck.py
    in_unit = [j if j.decision.win is None else Judged.of(replace(j.decision, win=None)) for j in judged]
    tables["luck"], tables["values"] = luck.tables(in_unit, work, seed)
    if hasattr(hook, "slaps"):          # reactions, not decisions (Hit the Deck): times against the profile
        slaps = [row for _, rec, s in work for row in hook.slaps(rec, s)]
        if slaps:
            tables["slaps"] = pd.DataFrame(slaps)
    notes.append(luck.NOTE)
    found_words = (_findings(summary) if len(summary) else []) + luck.findings(tables["luck"], work)
    return Result(f"{entry.title}: review of {len(found)} hand{'s' * (len(found) != 1)}", meta,
                  tables, notes, found_words)
