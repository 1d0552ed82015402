"""A Result as HTML: the CLI's tables (the same cells, from reports.text.shown_tables), its
findings and notes, and a dot-and-whisker chart of its first estimates
table drawn as inline SVG. No number is formatted here except chart axis ticks."""
from __future__ import annotations

import html

import pandas as pd

from moonshot.analysis.result import Result
from moonshot.analysis.words import plain, value
from moonshot.reports.glossary import glossary_lines, in_words, label, strategy_lines
from moonshot.reports.text import meta_line, notes_in_words, shown_tables

CHART_ROWS = 24      # more rows than this make an unreadable chart on a phone


def result_html(result: Result) -> str:
    """The page's view of a result: the terminal's tables, findings, notes and run line
    (reports.text: the same cells and words), with a chart and the glossary folded away."""
    game = result.meta.get("game")
    e = html.escape
    parts = [f"<h2>{e(result.title)}</h2>"]
    if result.findings:
        parts.append("<section class='findings'><h3>What it found</h3><ul>"
                     + "".join(f"<li>{e(in_words(game, f))}</li>" for f in result.findings) + "</ul></section>")
    chart = chart_svg(result)
    if chart:
        parts.append(f"<figure class='chart'>{chart}</figure>")
    for name, legend, shown, _ in shown_tables(result):
        table = shown.to_html(index=False, escape=True, float_format=plain, border=0,
                              classes="estimates", table_id=f"table-{name}")
        small = f" <small>({e(legend)})</small>" if legend else ""
        parts.append(f"<h3>{e(name)}{small}</h3><div class='scroll'>{table}</div>")
    lines = [*strategy_lines(game, result.meta.get("strategies")), *notes_in_words(result)]
    parts.append("<details><summary>How to read it: strategies, notes, glossary, run</summary>"
                 + "".join(f"<p>{e(x)}</p>" for x in lines)
                 + "<ul>" + "".join(f"<li>{e(w)}</li>" for w in glossary_lines(game, result.tables)) + "</ul>"
                 + f"<p class='meta'>{e(meta_line(result))}</p></details>")
    return "\n".join(parts)


def _estimates(result: Result) -> tuple[str, pd.DataFrame] | None:
    for name, df in result.tables.items():
        if {"metric", "estimate", "ci_low", "ci_high"} <= set(df.columns):
            return name, df
    return None


def chart_svg(result: Result) -> str:
    """The first estimates table's paired difference (d_*) if it has one, else its first metric
    with more than one row (else its first metric): one dot and 95% whisker per row."""
    found = _estimates(result)
    if found is None:
        return ""
    name, df = found
    metrics = list(dict.fromkeys(df["metric"]))
    keys = [c for c in df.columns if c not in ("metric", "estimate", "n", "ci_low", "ci_high", "kind")]
    metric = next((m for m in metrics if (df["metric"] == m).sum() > 1), metrics[0])
    metric = next((m for m in metrics if m.startswith("d_")), metric)      # a comparison: chart its difference
    rows = df[df["metric"] == metric]
    cut = len(rows) > CHART_ROWS
    rows = rows.sort_values("estimate", ascending=False, kind="stable").head(CHART_ROWS) if cut else rows
    if not keys:                          # one row per metric: chart the metrics of the same kind instead
        kind = rows.iloc[0].get("kind", "mean")
        rows = df[df.get("kind", "mean") == kind].head(CHART_ROWS) if "kind" in df.columns else rows
        names = [label(result.meta.get("game"), m) for m in rows["metric"]]
        title = name
    else:
        names = [" ".join(f"{k} {r[k]}" for k in keys) for _, r in rows.iterrows()]
        title = f"{name}: {label(result.meta.get('game'), metric)}" + (f", the {CHART_ROWS} highest" if cut else "")
    rows = rows.reset_index(drop=True)
    lo = float(min(rows["ci_low"].min(), rows["estimate"].min(), 0.0))
    hi = float(max(rows["ci_high"].max(), rows["estimate"].max(), 0.0))
    if not hi > lo:
        hi = lo + 1.0
    left, width, step = 190, 400, 20
    height = 40 + step * len(rows)
    x = lambda v: left + (float(v) - lo) / (hi - lo) * width      # noqa: E731
    e = html.escape
    out = [f"<svg viewBox='0 0 {left + width + 20} {height}' role='img' aria-label='{e(title)}' "
           f"xmlns='http://www.w3.org/2000/svg' class='svgchart'><title>{e(title)}</title>",
           f"<text x='4' y='14' class='ct'>{e(title)} (dot: estimate; bar: 95% interval)</text>",
           f"<line x1='{x(0):.1f}' y1='22' x2='{x(0):.1f}' y2='{height - 14}' class='zero'/>"]
    for i, r in rows.iterrows():
        y = 32 + step * i
        shown = value(r)
        out.append(f"<text x='{left - 6}' y='{y + 4}' text-anchor='end' class='cl'>{e(names[i][:28])}</text>")
        if pd.notna(r["ci_low"]) and pd.notna(r["ci_high"]):
            out.append(f"<line x1='{x(r['ci_low']):.1f}' y1='{y}' x2='{x(r['ci_high']):.1f}' y2='{y}' class='ci'/>")
        out.append(f"<circle cx='{x(r['estimate']):.1f}' cy='{y}' r='4' class='dot'><title>{e(names[i])}: "
                   f"{e(shown)}</title></circle>")
    scale = 100.0 if rows.iloc[0].get("kind", "mean") in ("proportion", "share", "change") else 1.0
    for v in (lo, (lo + hi) / 2, hi):
        out.append(f"<text x='{x(v):.1f}' y='{height - 2}' text-anchor='middle' class='tick'>{plain(v * scale, 1)}</text>")
    out.append("</svg>")
    return "".join(out)
