"""`moonshot review --out DIR`: the review as a report folder (report.md, report.html, the figure of
each decision's loss, the tables as CSV and Parquet), built on reports/document.py."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from moonshot.analysis.result import Result
from moonshot.reports.document import Document


def loss_figure(result: Result):
    """Each chosen option's loss with its 95% interval, decision by decision, one panel per seat;
    mistakes and blunders marked."""
    d = result.tables["decisions"]
    chosen = d[d["chosen"]].reset_index(drop=True)
    seats = sorted(chosen["seat"].unique())
    fig, axes = plt.subplots(len(seats), 1, figsize=(8, 2.4 * len(seats)), squeeze=False)
    colours = {"blunder": "#c0392b", "mistake": "#e67e22"}
    for ax, seat in zip(axes[:, 0], seats):
        rows = chosen[chosen["seat"] == seat]
        x = np.arange(len(rows))
        lo = (rows["loss"] - rows["loss_low"]).fillna(0).clip(lower=0)
        hi = (rows["loss_high"] - rows["loss"]).fillna(0).clip(lower=0)
        colour = [colours.get(v, "#34495e") for v in rows["verdict"]]
        ax.errorbar(x, rows["loss"], yerr=[lo, hi], fmt="none", ecolor="#999", lw=1)
        ax.scatter(x, rows["loss"], c=colour, s=18, zorder=3)
        ax.axhline(0, color="#ccc", lw=0.8)
        ax.set_xticks(x, [f"{h}:{k[0]}{s}" for h, k, s in zip(rows["hand"], rows["kind"], rows["step"])],
                      rotation=90, fontsize=6)
        ax.set_ylabel(f"seat {seat}\nloss ({rows['valued_by'].iloc[0]})", fontsize=8)
    axes[-1, 0].set_xlabel("decision (hand:kind step); orange a mistake, red a blunder")
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


def _document(result: Result, figure: bool = False) -> Document:
    doc = Document(result.title, result.meta.get("game"))
    doc.text(", ".join(f"{k} {v}" for k, v in result.meta.items()))
    doc.found(result)
    if figure:
        doc.figure("loss", loss_figure(result), "The loss of each choice made against the best option found, "
                   "with its 95% interval (paired on the same worlds).")
    doc.table("summary", result.tables["summary"], "Per seat")
    doc.table("decisions", result.tables["decisions"], "Every option of every decision")
    if "slaps" in result.tables:
        doc.table("slaps", result.tables["slaps"], "Slap races: the seat's time against its profile's")
    for note in result.notes:
        doc.note(note)
    return doc
