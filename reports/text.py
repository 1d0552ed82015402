"""Rendering a Result for the terminal (table), for programs (json, csv) and as files."""
from __future__ import annotations

import html
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd

from moonshot.analysis import result as result_module
from moonshot.analysis.result import Result
from moonshot.analysis.words import NO_SPREAD_NOTE, any_no_spread, plain, value
from moonshot.simulator.files import atomic_write


ESTIMATE_COLS = ("metric", "estimate", "n", "ci_low", "ci_high", "kind")


def pivot_estimates(df: pd.DataFrame, labels=None) -> pd.DataFrame:
    """Long estimates -> one row per key combination, one 'est [lo, hi]' column per metric, plus n;
    `labels(metric)` gives the column header a player reads (the metric name by default)."""
    if not set(ESTIMATE_COLS) - {"kind"} <= set(df.columns):
        if "share" in df.columns:             # a distribution's share of the hands reads as a percentage
            return df.assign(share=[value({"estimate": x, "kind": "proportion"}) for x in df["share"]])
        return df
    labels = labels or (lambda m: m)
    keys = [c for c in df.columns if c not in ESTIMATE_COLS]
    # a paired difference (d_*) carries its sign whatever its unit: chips like percentage points
    cell = df.apply(lambda row: value(row, signed=True if str(row["metric"]).startswith("d_") else None), axis=1)
    frame = df.assign(cell=cell)
    if not keys:   # one row per metric
        shown = frame[["metric", "cell", "n"]].rename(columns={"cell": "estimate [95% interval]"})
        return shown.assign(metric=[labels(m) for m in shown["metric"]])
    table = frame.pivot_table(index=keys, columns="metric", values="cell", aggfunc="first", sort=False)
    table = table[list(dict.fromkeys(frame["metric"]))].fillna("-")      # a cell a row has no estimate for
    n = frame.groupby(keys, sort=False)["n"].max()
    table.insert(0, "n", n)
    return table.rename(columns=labels).reset_index()


def zero_everywhere(df: pd.DataFrame) -> list[str]:
    """The metrics of a long estimates table that are 0 in every row, never seen (estimate and the
    interval's low end 0: P(unfinished) where no game reached the cap, whose Wilson interval still
    reaches a little above 0), when some other metric is not: a column of zeros a player need not
    read. JSON, CSV and Parquet keep them, intervals and all."""
    if not {"metric", "estimate", "ci_low", "ci_high"} <= set(df.columns):
        return []
    zero = (df[["estimate", "ci_low"]] == 0).all(axis=1).groupby(df["metric"], sort=False).all()
    return list(zero[zero].index) if not zero.all() else []


def zero_note(game: str | None, metrics: list[str]) -> str:
    from moonshot.reports.glossary import label
    names = ", ".join(label(game, m) for m in metrics)
    return (f"{names} {'is' if len(metrics) == 1 else 'are'} 0 in every row, so left out of the table (the CSV "
            "and JSON keep it, with its interval).")


def shown_tables(result: Result):
    """(name, legend, the table as a player reads it, its zero-everywhere metrics) for each table of
    the result: the same cells in the terminal, in HTML (a notebook's display) and on the pages."""
    from moonshot.reports.glossary import label
    game = result.meta.get("game")
    for name, df in result.tables.items():
        legend = "estimate [95% interval]; n = sample size" if "ci_low" in df.columns else ""
        zero = zero_everywhere(df)
        shown = with_thousands(pivot_estimates(df[~df["metric"].isin(zero)] if zero else df, lambda m: label(game, m)))
        yield name, legend, shown.rename(columns=lambda c: label(game, str(c))).rename_axis(columns=None), zero


def with_thousands(table: pd.DataFrame) -> pd.DataFrame:
    """The sample sizes written as the prose writes counts ("25,000", never "2500" beside it)."""
    if "n" in table.columns and pd.api.types.is_numeric_dtype(table["n"]):
        return table.assign(n=[f"{int(v):,}" if pd.notna(v) else "" for v in table["n"]])
    return table


def notes_in_words(result: Result) -> list[str]:
    """The result's notes in a player's words (no metric names), and what the tables left out."""
    from moonshot.reports.glossary import in_words
    game = result.meta.get("game")
    zero = list(dict.fromkeys(m for df in result.tables.values() for m in zero_everywhere(df)))
    notes = result.notes + ([NO_SPREAD_NOTE] if any(any_no_spread(df) for df in result.tables.values()) else [])
    return [in_words(game, n) for n in notes] + ([zero_note(game, zero)] if zero else [])


def meta_line(result: Result) -> str:
    return ", ".join(f"{k}={v}" for k, v in result.meta.items() if v not in (None, {}, []) and k != "strategies")


def render_table(result: Result) -> str:
    from moonshot.reports.glossary import glossary_lines, in_words, strategy_lines
    game = result.meta.get("game")
    out = [result.title, "=" * len(result.title), meta_line(result)]
    out += strategy_lines(game, result.meta.get("strategies"), result.meta)
    for name, legend, shown, _ in shown_tables(result):
        out += ["", f"{name}{f'  ({legend})' if legend else ''}", ""]
        out.append(shown.to_string(index=False, float_format=plain))
    if result.findings:
        out += ["", "What it found:"] + [f"  {in_words(game, f)}" for f in result.findings]
    notes = notes_in_words(result)
    if notes:
        out.append("")
        out += [f"* {note}" for note in notes]
    words = glossary_lines(game, result.tables)
    if words:
        out += ["", "Glossary:"] + [f"  {w}" for w in words]
    return "\n".join(out)


def render_html(result: Result) -> str:
    """The terminal's output as an HTML fragment (a notebook shows a Result so): title, findings,
    the tables with the same cells, notes and the run; every text escaped."""
    from moonshot.reports.glossary import in_words, strategy_lines
    e = html.escape
    parts = [f"<h3>{e(result.title)}</h3>"]
    if result.findings:
        parts.append("<ul>" + "".join(f"<li>{e(in_words(result.meta.get('game'), f))}</li>" for f in result.findings)
                     + "</ul>")
    for name, legend, shown, _ in shown_tables(result):
        parts.append(f"<h4>{e(name)}{f' <small>({e(legend)})</small>' if legend else ''}</h4>")
        parts.append(shown.to_html(index=False, escape=True, float_format=plain, border=0))
    lines = [*strategy_lines(result.meta.get("game"), result.meta.get("strategies"), result.meta),
             *notes_in_words(result)]
    parts += [f"<p><small>{e(x)}</small></p>" for x in [*lines, meta_line(result)]]
    return "\n".join(parts)


def render_json(result: Result) -> str:
    return json.dumps(result.to_json_obj(), indent=1, default=_jsonable)


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    return str(x)


def render_csv(result: Result) -> str:
    """All tables stacked, with a `table` column naming each (long format)."""
    frames = [df.assign(table=name)[["table"] + list(df.columns)] for name, df in result.tables.items()]
    buf = io.StringIO()
    pd.concat(frames, ignore_index=True).to_csv(buf, index=False)
    return buf.getvalue()


def render(result: Result, fmt: str) -> str:
    return {"table": render_table, "json": render_json, "csv": render_csv}[fmt](result)


def write_parquet(result: Result, path: Path) -> None:
    frames = [df.assign(table=name) for name, df in result.tables.items()]
    data = pd.concat(frames, ignore_index=True)
    for col in data.columns:
        if data[col].dtype == object:
            data[col] = data[col].astype(str)
    atomic_write(path, lambda p: data.to_parquet(p, index=False))


result_module.DRAW_HTML = render_html        # a notebook draws a Result with it (analysis.result)
