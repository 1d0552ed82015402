"""A Result as HTML: the CLI's tables (the same cells, from reports.text.shown_tables), its
findings and notes, and a dot-and-whisker chart of its first estimates
table drawn as inline SVG. No number is formatted here except chart axis ticks."""
from __future__ import annotations

import html
import math

import pandas as pd

from moonshot.analysis.result import Result
from moonshot.analysis.words import plain, value
from moonshot.reports.glossary import glossary_lines, in_words, label, strategy_lines
from moonshot.reports.text import meta_line, notes_in_words, shown_tables
from moonshot.simulator.errors import BadInput
from moonshot.simulator.flags import as_text
from moonshot.simulator.games import get

CHART_ROWS = 24      # more rows than this make an unreadable chart on a phone


def result_html(result: Result) -> str:
    """The page's view of a result: the terminal's tables, findings, notes and run line
    (reports.text: the same cells and words), with a chart and the glossary folded away."""
    game = result.meta.get("game")
    e = html.escape
    parts = [f"<h2>{e(title_in_words(result))}</h2>"] + [f"<p class='rules-words'>{e(x)}</p>"
                                               for x in rules_in_words(result.meta)]
    if result.findings:
        parts.append("<section class='findings'><h3>What it found</h3><ul>"
                     + "".join(f"<li>{e(in_words(game, f))}</li>" for f in result.findings) + "</ul></section>")
    chart = chart_svg(result)
    if chart:
        parts.append(f"<figure class='chart'>{chart}</figure>")
    for name, legend, shown, _ in shown_tables(result):
        table = changes_first(shown).to_html(index=False, escape=True, float_format=plain, border=0,
                                             classes="estimates", table_id=f"table-{name}")
        small = f" <small>({e(legend)})</small>" if legend else ""
        # a wide table scrolls in its own box (reachable from the keyboard), never the page
        parts.append(f"<h3>{e(name)}{small}</h3><div class='scroll' tabindex='0' role='region' "
                     f"aria-label='{e(name)} table'>{table}</div>")
    lines = [*strategy_lines(game, result.meta.get("strategies"), result.meta), *notes_in_words(result)]
    parts.append("<details><summary>How to read it: strategies, notes, glossary, run</summary>"
                 + "".join(f"<p>{e(x)}</p>" for x in lines)
                 + "<ul>" + "".join(f"<li>{e(w)}</li>" for w in glossary_lines(game, result.tables)) + "</ul>"
                 + f"<p class='meta'>{e(meta_line(result))}</p></details>")
    return "\n".join(parts)


def title_in_words(result: Result) -> str:
    """The result's title, with the hand analyzer's hand named as the pieces are on the table ("Shoot
    the Moon: hand red 12, red 7, Big Moon, green 3, purple 5"): the notation is what the form took, not what a
    player reads."""
    hand, game = result.meta.get("hand"), result.meta.get("game")
    if not isinstance(hand, list) or not hand:
        return result.title
    try:
        entry = get(game or "")
        return f"{entry.title}: hand " + ", ".join(entry.page.face(str(x))["label"] for x in hand)
    except (BadInput, AttributeError, KeyError, ValueError):
        return result.title


def rules_in_words(meta: dict) -> list[str]:
    """The rules a result was run under (those not the default) and a what-if's changes, each in a
    player's words: what the rule decides, the value in words, then flag=value and its RULES.md id."""
    try:
        flags = {f.name: f for f in get(meta.get("game") or "").flags}
    except BadInput:
        return []
    prefix = next(iter(flags), ".").split(".", 1)[0] + "."
    lines = []
    for title, pairs in (("Rules at this table",
                          [(k, as_text(v)) for k, v in (meta.get("rules_changed") or {}).items()]),
                         ("Changed in the what-if", [a.partition("=")[::2] for a in meta.get("variant") or []])):
        said = []
        for name, text in pairs:
            f = flags.get(name.strip()) or flags.get(prefix + name.strip())
            if f is not None:
                said.append(f"{f.help}: {f.words(text.strip()) or text.strip()} "
                            f"({f.name}={text.strip()}, {f.rules_id})")
        if said:
            lines.append(f"{title}: " + "; ".join(said) + ".")
    return lines


def changes_first(shown: pd.DataFrame) -> pd.DataFrame:
    """The page's column order: the paired changes ("change: ...", what a what-if or a comparison
    is asked for) right after the row's keys and n, before the base and variant columns they come
    from, so they are on screen without scrolling (the CLI's order is base, variant, change)."""
    cols = [str(c) for c in shown.columns]
    changes = [c for c in cols if c.startswith("change:")]
    if not changes:
        return shown
    rest = [c for c in cols if c not in changes]
    at = rest.index("n") + 1 if "n" in rest else 1
    return shown[rest[:at] + changes + rest[at:]]


def _estimates(result: Result) -> tuple[str, pd.DataFrame] | None:
    for name, df in result.tables.items():
        if {"metric", "estimate", "ci_low", "ci_high"} <= set(df.columns):
            return name, df
    return None


def chart_svg(result: Result) -> str:
    """The first estimates table's paired difference (d_*) if it has one, else its first metric
    with more than one row (else its first metric): one dot and 95% whisker per row.

    Drawn without a viewBox, in CSS pixels, x in percent of the width: the bars stretch to the box
    while every label stays at the style sheet's size (a scaled viewBox shrank them past reading on
    a phone). Each row's label sits above its bar so the scale gets the whole width; the title is the
    figure's caption (HTML, so it wraps)."""
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
        # a row is named by the keys that tell the rows apart (a review's unit is the same in every row)
        varying = [k for k in keys if rows[k].astype(str).nunique() > 1] or keys[:1]
        names = [", ".join(f"{k} {r[k]}" for k in varying) for _, r in rows.iterrows()]
        title = f"{name}: {label(result.meta.get('game'), metric)}" + (f", the {CHART_ROWS} highest" if cut else "")
    rows = rows.reset_index(drop=True)
    kind = rows.iloc[0].get("kind", "mean")
    scale = 100.0 if kind in ("proportion", "share", "change") else 1.0
    unit = {"change": "percentage points", "proportion": "%", "share": "%"}.get(kind, "")
    lo = scale * float(min(rows["ci_low"].min(), rows["estimate"].min(), 0.0))
    hi = scale * float(max(rows["ci_high"].max(), rows["estimate"].max(), 0.0))
    ticks, digits = axis_ticks(lo, hi)
    lo, hi = ticks[0], ticks[-1]
    x = lambda v: f"{3 + (scale * float(v) - lo) / (hi - lo) * 94:.2f}%"      # noqa: E731
    step = 36
    height = 24 + step * len(rows)
    e = html.escape
    caption = f"{title} (dot: estimate; bar: 95% interval{f'; axis in {unit}' if unit else ''})"
    out = [f"<figcaption class='ct'>{e(caption)}</figcaption>",
           f"<svg width='100%' height='{height}' role='img' aria-label='{e(title)}' "
           f"xmlns='http://www.w3.org/2000/svg' class='svgchart'><title>{e(title)}</title>",
           f"<line x1='{x(0)}' y1='2' x2='{x(0)}' y2='{height - 18}' class='zero'/>"]
    for i, r in rows.iterrows():
        y = 4 + step * i
        shown_name = names[i] if len(names[i]) <= 46 else names[i][:45] + "…"      # fits 390 px
        out.append(f"<text x='3%' y='{y + 12}' class='cl'>{e(shown_name)}</text>")
        if pd.notna(r["ci_low"]) and pd.notna(r["ci_high"]):
            out.append(f"<line x1='{x(r['ci_low'])}' y1='{y + 24}' x2='{x(r['ci_high'])}' y2='{y + 24}' class='ci'/>")
        out.append(f"<circle cx='{x(r['estimate'])}' cy='{y + 24}' r='4.5' class='dot'><title>{e(names[i])}: "
                   f"{e(value(r))}</title></circle>")
    for k, v in enumerate(ticks):
        anchor = "start" if k == 0 else "end" if k == len(ticks) - 1 else "middle"
        out.append(f"<text x='{x(v / scale)}' y='{height - 3}' text-anchor='{anchor}' class='tick'>"
                   f"{plain(v, digits)}</text>")
    out.append("</svg>")
    return "".join(out)


def axis_ticks(lo: float, hi: float, most: int = 7) -> tuple[list[float], int]:
    """Round ticks (1, 2 or 5 times a power of ten apart, the closest that gives at most `most`)
    covering lo..hi, and the decimals that tell each apart ("-0.10 -0.05 0", never "-0.1 0.0 0")."""
    if not hi > lo:
        lo, hi = lo - 1.0, hi + 1.0
    power = 10.0 ** math.floor(math.log10((hi - lo) / most))
    for step in (m * power * t for t in (1, 10, 100) for m in (1, 2, 5)):
        first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
        if last - first + 1 <= most:
            break
    ticks = [round(k * step, 12) for k in range(first, last + 1)]
    return ticks, max(0, -math.floor(math.log10(step) + 1e-9))
