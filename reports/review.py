"""`moonshot review` as a player reads it: the terminal's text (findings, one line per decision, the
errors biggest loss first, the per-seat summary; every option of every decision only on request),
and the report (--out DIR: report.md, report.html, the figure of each decision's loss, the tables
as CSV and Parquet; the option table folded away), built on reports/document.py."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from moonshot.analysis import luck as luck_split
from moonshot.analysis.result import Result
from moonshot.analysis.review import ERRORS, WIN, errors
from moonshot.analysis.words import plain, value, with_interval
from moonshot.reports.document import Document

CAPTIONS = {"steps": "Every decision, one a line", "errors": "Errors, biggest loss first", "summary": "Per seat",
            "slaps": "Slap races: the seat's time against its profile's",
            "kinds": "By kind of decision: the seat's own choices",
            "decisions": "Every option of every decision", "values": "The seat's value after each of its decisions"}
NO_ERRORS = "none: no choice's loss clears the inaccuracy size"
TOP = 20                 # the errors the terminal lists, biggest first (a whole evening can have hundreds)
LUCK_HANDS = 10          # up to this many hands the luck table shows each hand's rows, beyond it the totals
COLOURS = {"blunder": "#c0392b", "mistake": "#e67e22", "inaccuracy": "#f1c40f"}


# ------------------------------------------------------------------------------------ the decision lines

def loss_text(row, valued_by: str) -> str:
    """A decision's loss with its 95% interval in the valuation's unit ('2.5 [2.1, 2.9]'; a P(win)
    loss in percentage points); one number where every world lost the same; blank when forced."""
    est, lo, hi = (row.get(c) for c in ("loss", "loss_low", "loss_high"))
    if est is None or pd.isna(est):
        return ""
    kind = "change" if valued_by == WIN else "mean"
    if pd.isna(lo) or pd.isna(hi) or np.isclose(lo, hi, rtol=0, atol=1e-9):
        return value({"estimate": est, "kind": kind}, signed=False)
    return value({"estimate": est, "ci_low": lo, "ci_high": hi, "kind": kind}, signed=False)


def loss_header(valued_by: str) -> str:
    return "loss (P(win), pp)" if valued_by == WIN else f"loss ({valued_by})"


def decision_lines(steps: pd.DataFrame, valued_by: str, hands: bool | None = None) -> pd.DataFrame:
    """The steps as a player reads them: (hand,) seat, where, the option chosen, the best found, the
    loss with its interval and the verdict, one row per decision. `hands`: show the hand column
    (default: when the steps span more than one hand)."""
    if hands is None:
        hands = len(steps) > 0 and steps["hand"].nunique() > 1
    where = [w if isinstance(w, str) and w else f"{k} (step {s})"
             for w, k, s in zip(steps["where"], steps["kind"], steps["step"])]
    out = pd.DataFrame({"seat": steps["seat"].to_numpy(), "where": where, "chosen": steps["chosen"].to_numpy(),
                        "best": steps["best"].to_numpy(),
                        loss_header(valued_by): [loss_text(r, valued_by) for r in steps.to_dict("records")],
                        "verdict": steps["verdict"].to_numpy()})
    if hands:
        out.insert(0, "hand", steps["hand"].to_numpy())
    return out


def aligned(df: pd.DataFrame, indent: str = "  ") -> list[str]:
    """A small table as text lines, every column left-aligned under its header (words and
    intervals read better so than pandas' right-aligned strings)."""
    cells = [[str(c) for c in df.columns]] + [["" if pd.isna(v) else str(v) for v in row]
                                              for row in df.itertuples(index=False)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(df.columns))]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]


def _valued_by(result: Result) -> str:
    return str(result.meta.get("valued_by", ""))


def _lines_caption(result: Result) -> str:
    unit = "percentage points of P(win)" if _valued_by(result) == WIN else _valued_by(result)
    return (f"{CAPTIONS['steps']}: the option chosen, the best found, and the loss against it in {unit} with its 95% "
            "interval")


# ------------------------------------------------------------------------------------ luck and skill

def luck_caption(result: Result) -> str:
    unit = ", ".join(dict.fromkeys(result.tables["luck"]["unit"])) or "the hand's unit"
    game = result.meta.get("game")
    cost = game and not luck_split.higher_better(game)
    return (f"Luck and skill, in {unit} (estimate [95% interval]): luck > 0 helped the seat, loss is what its choices "
            f"cost (skill), luck-adjusted is the result with the luck taken out (the expected "
            f"{'plus' if cost else 'less'} the loss)")


def luck_rows(result: Result) -> pd.DataFrame:
    """The luck rows a player reads first: each hand's (up to LUCK_HANDS hands), then each seat's total
    and its games' when the file has several hands."""
    table = result.tables["luck"]
    single = np.array([not isinstance(h, str) for h in table["hand"]], dtype=bool)
    hands = table.loc[single, "hand"].nunique()
    keep = single if hands <= LUCK_HANDS else ~single
    return table[keep | (~single & (hands > 1))]


def luck_lines(result: Result, rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The luck table as a player reads it: (hand,) seat, result, expected, luck, loss, luck-adjusted,
    each with its 95% interval (a cost such as penalty points unsigned, luck always signed)."""
    from moonshot.reports.glossary import label
    rows = luck_rows(result) if rows is None else rows
    game = result.meta.get("game")
    gain = luck_split.higher_better(game) if game else True
    out = pd.DataFrame({"hand": rows["hand"].astype(str).to_numpy(), "seat": rows["seat"].to_numpy()})
    for name, signed in (("result", gain), ("expected", gain), ("luck", True), ("loss", False), ("adjusted", gain)):
        out[label(game, name)] = [with_interval(r, name, signed) for r in rows.to_dict("records")]
    return out if rows["hand"].nunique() > 1 else out.drop(columns="hand")


def seat_luck(result: Result) -> list[str]:
    """One short line per seat over the file's hands (several hands only: one hand's row says it)."""
    table = result.tables["luck"]
    totals = table[table["hand"] == luck_split.ALL]
    if len({h for h in table["hand"] if not isinstance(h, str)}) <= 1:
        return []
    return [f"seat {r['seat']}: luck {luck_split.luck_words(r)}; loss {with_interval(r, 'loss', False)}; "
            f"luck-adjusted {with_interval(r, 'adjusted', luck_split.higher_better(result.meta['game']))}"
            for r in totals.to_dict("records")]


# ------------------------------------------------------------------------------------ the terminal's text

def text(result: Result, options: bool = False) -> str:
    """The review for the terminal: the findings, one line per decision, the errors biggest loss first,
    the per-seat summary (and the slap races); every option of every decision too with `options`."""
    from moonshot.reports.glossary import glossary_lines, in_words
    from moonshot.reports.text import meta_line, notes_in_words, shown_tables
    game = result.meta.get("game")
    steps, by = result.tables["steps"], _valued_by(result)
    hands = len(steps) > 0 and steps["hand"].nunique() > 1
    out = [result.title, "=" * len(result.title), meta_line(result)]
    if result.findings:
        out += ["", "What it found:"] + [f"  {in_words(game, f)}" for f in result.findings]
    out += ["", _lines_caption(result), ""] + aligned(decision_lines(steps, by, hands))
    wrong = errors(steps)
    out += ["", f"{CAPTIONS['errors']} ({', '.join(ERRORS)})", ""]
    out += aligned(decision_lines(wrong.head(TOP), by, hands)) if len(wrong) else [f"  {NO_ERRORS}"]
    if len(wrong) > TOP:
        out.append(f"  ... and {len(wrong) - TOP} more (all of them: --format json/csv, table steps)")
    rest = ("summary", "kinds", "slaps") + (("decisions",) if options else ())
    shown = Result(result.title, result.meta, {k: result.tables[k] for k in rest if k in result.tables})
    for name, legend, table, _ in shown_tables(shown):
        out += ["", f"{CAPTIONS.get(name, name)}{f'  ({legend})' if legend else ''}", ""]
        out.append(table.to_string(index=False, float_format=plain, na_rep="-"))
    if len(result.tables.get("luck", [])):
        out += ["", luck_caption(result), ""] + [f"  {line}" for line in seat_luck(result)]
        out += ([""] if seat_luck(result) else []) + aligned(luck_lines(result))
        out.append("  (every hand's row and each seat's value after each decision: --format json/csv, tables luck and "
                   "values)")
    if not options:
        out += ["", "(every option of every decision: --options, or --format json/csv)"]
    notes = notes_in_words(Result(result.title, result.meta, {"steps": steps, **shown.tables}, result.notes))
    if notes:
        out += [""] + [f"* {note}" for note in notes]
    luck_shown = ({"luck": result.tables["luck"][["result", "expected", "luck", "adjusted"]]}
                  if "luck" in result.tables else {})
    words = glossary_lines(game, {"steps": steps[["seat", "where", "chosen", "best", "loss", "verdict"]],
                                  **shown.tables, **luck_shown})
    if words:
        out += ["", "Glossary:"] + [f"  {w}" for w in words]
    return "\n".join(out)


# ------------------------------------------------------------------------------------ the report

def loss_figure(result: Result):
    """Each choice's loss with its 95% interval, decision by decision, one panel per seat, labelled
    where it was; inaccuracies, mistakes and blunders marked."""
    steps = result.tables["steps"]
    free = steps[steps["loss"].notna()].reset_index(drop=True)          # forced decisions lose nothing
    seats = sorted(free["seat"].unique()) or [0]
    many = steps["hand"].nunique() > 1
    fig, axes = plt.subplots(len(seats), 1, figsize=(8, 2.6 * len(seats)), squeeze=False)
    for ax, seat in zip(axes[:, 0], seats):
        rows = free[free["seat"] == seat]
        x = np.arange(len(rows))
        lo = (rows["loss"] - rows["loss_low"]).fillna(0).clip(lower=0)
        hi = (rows["loss_high"] - rows["loss"]).fillna(0).clip(lower=0)
        scale = 100 if _valued_by(result) == WIN else 1
        ax.errorbar(x, rows["loss"] * scale, yerr=[lo * scale, hi * scale], fmt="none", ecolor="#999", lw=1)
        ax.scatter(x, rows["loss"] * scale, c=[COLOURS.get(v, "#34495e") for v in rows["verdict"]], s=18, zorder=3)
        ax.axhline(0, color="#ccc", lw=0.8)
        labels = [f"{h}: {w}" if many else w for h, w in zip(rows["hand"], rows["where"])]
        ax.set_xticks(x, labels, rotation=90, fontsize=6)
        ax.set_ylabel(f"seat {seat}\n{loss_header(_valued_by(result))}", fontsize=8)
    axes[-1, 0].set_xlabel("decision (forced ones left out); yellow an inaccuracy, orange a mistake, red a blunder")
    fig.tight_layout()
    return fig


def write_report(result: Result, out: Path) -> Path:
    """The review written into the folder `out` (replaced whole); returns report.md's path."""
    return _document(result, figure=True).write(out)


def markdown(result: Result) -> str:
    """The report's text alone (for --format markdown on stdout: the figure needs --out)."""
    return _document(result).markdown()


def html(result: Result) -> str:
    """The report as one self-contained HTML page (the figure embedded)."""
    return _document(result, figure=True).html()


def _lines_table(doc: Document, name: str, steps: pd.DataFrame, caption: str, by: str, hands: bool) -> None:
    """The decision lines shown; the steps themselves saved as tables/NAME.csv (numbers, not text)."""
    doc.table(name, decision_lines(steps, by, hands), caption)
    doc.tables[name] = steps


def _document(result: Result, figure: bool = False) -> Document:
    doc = Document(result.title, result.meta.get("game"))
    doc.text(", ".join(f"{k} {v}" for k, v in result.meta.items()))
    doc.found(result)
    steps, by = result.tables["steps"], _valued_by(result)
    hands = len(steps) > 0 and steps["hand"].nunique() > 1
    if figure:
        doc.figure("loss", loss_figure(result), "The loss of each choice made against the best option found, "
                   "with its 95% interval (paired on the same worlds).")
    doc.heading("Decisions")
    _lines_table(doc, "steps", steps, _lines_caption(result), by, hands)
    doc.heading(CAPTIONS["errors"])
    wrong = errors(steps)
    if len(wrong):
        _lines_table(doc, "errors", wrong, f"{CAPTIONS['errors']} ({', '.join(ERRORS)})", by, hands)
    else:
        doc.text(NO_ERRORS[:1].upper() + NO_ERRORS[1:] + ".")
    doc.heading("Per seat")
    doc.table("summary", result.tables["summary"], CAPTIONS["summary"])
    if len(result.tables.get("kinds", [])):
        doc.table("kinds", result.tables["kinds"], CAPTIONS["kinds"])
    if "slaps" in result.tables:
        doc.table("slaps", result.tables["slaps"], CAPTIONS["slaps"])
    if len(result.tables.get("luck", [])):
        doc.heading("Luck and skill")
        for line in seat_luck(result):
            doc.text(line[:1].upper() + line[1:] + ".")
        doc.table("luck", luck_lines(result), luck_caption(result))
        doc.tables["luck"] = result.tables["luck"]
    doc.heading("Every option")
    doc.fold(f"{CAPTIONS['decisions']} ({len(result.tables['decisions'])} rows)")
    doc.table("decisions", result.tables["decisions"], CAPTIONS["decisions"])
    doc.fold(None)
    if len(result.tables.get("values", [])):
        doc.fold(f"{CAPTIONS['values']} ({len(result.tables['values'])} rows)")
        doc.table("values", result.tables["values"], CAPTIONS["values"] + ": the first row the expected result, the "
                  "last the result; luck the change before the point, loss the decision's")
        doc.fold(None)
    for note in result.notes:
        doc.note(note)
    return doc
