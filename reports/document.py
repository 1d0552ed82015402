"""A small report builder shared by the games: sections of text, tables and figures, written as
report.md + report.html (self-contained: figures embedded as base64) + figures/*.png + tables/*.csv
and the same tables as tables/*.parquet.

The whole folder is built in a temporary sibling and moved into place at the end, so an
interrupted or failed run leaves no half-written report.
"""
from __future__ import annotations

import base64
import html
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from moonshot.analysis.words import NO_SPREAD_NOTE, any_no_spread, plain  # noqa: E402
from moonshot.reports.text import pivot_estimates, with_thousands, zero_everywhere, zero_note  # noqa: E402
from moonshot.simulator.errors import BadInput, short  # noqa: E402
from moonshot.simulator.files import ordinary, temporary, writing  # noqa: E402

CSS = """body{font-family:system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:.85em}\
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f3f3f3}td{white-space:nowrap}code{background:#f3f3f3;padding:0 3px}.note{color:#555;font-size:.9em}
.scroll{overflow-x:auto}figure{margin:1em 0}"""
# A phone shows a figure at its own pixel size inside a box that scrolls, never shrunk to the screen (a
# 1,200-pixel figure shrunk to 390 px made its 12 px labels 4 px); MIN_LABEL_PT keeps every label of a
# figure saved at DPI at least 11 pixels tall at that size.
DPI = 110
MIN_LABEL_PT = 11 * 72 / DPI


_step_hearer: ContextVar[Callable[[int, int, str], None] | None] = ContextVar("report_steps", default=None)


@contextmanager
def steps_heard(hear: Callable[[int, int, str], None]):
    """While this block runs (in this thread), each report section's step also calls
    hear(done, total, text), e.g. the web app's progress; raising from it stops the build there."""
    token = _step_hearer.set(hear)
    try:
        yield
    finally:
        _step_hearer.reset(token)


def progress_line(quiet: bool, text: str) -> None:
    """A progress line on stderr while a report is built (silent with --quiet)."""
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def check_report_folder(out: Path) -> None:
    """A report replaces its folder whole, so the folder must be new, empty or an earlier report, and
    the first folder of its path that exists must be writable."""
    out = Path(out)
    name = short(str(out), 120)
    try:
        if out.exists() and not out.is_dir():
            raise BadInput(f"--out {name} is a file; accepted: a folder (created if missing)")
        if out.is_dir() and any(out.iterdir()) and not (out / "report.md").exists():
            raise BadInput(f"--out {name} is a folder with other files in it; accepted: a new or empty "
                           "folder, or one a report was written to (it is replaced whole)")
        probe = out.absolute()
        while not probe.exists():             # missing folders are created; the first existing one must be writable
            probe = probe.parent
    except OSError as exc:                    # a name too long, a folder that may not be read
        raise BadInput(f"cannot write the report into {name}: {exc.strerror or exc}; accepted: a folder name "
                       "you may write to") from None
    try:
        if not probe.is_dir():
            raise OSError
        os.rmdir(tempfile.mkdtemp(dir=probe))         # the real test of "writable"
    except OSError:
        raise BadInput(f"cannot write the report into {name}: {short(str(probe), 120)} is not a writable "
                       "folder") from None


def begin(out: Path, game: str, title: str, setup_text: str, hands: int, seed: int, quiet: bool, sections: int = 7):
    """A report's start: (the document with its intro, the game's default Setup, the step printer);
    a folder the report may not replace is refused before any work."""
    from moonshot.analysis.common import make_setup
    check_report_folder(out)
    base = make_setup(game)
    doc = Document(title, game)
    doc.intro(game, setup_text, base.seats.specs[0], hands, seed)
    return doc, base, Steps(sections, quiet)


class Steps:
    """Numbered progress lines ("[2/6] ...") for the sections of a report; in a terminal, a line
    under the current one counts what the section has played so far (its hands, deals or games,
    as the runs count them), so a section of search players that runs minutes is seen moving."""
    EVERY = 0.5                  # seconds between rewrites of the count line

    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet, self.done = total, quiet, 0
        self.live = not quiet and sys.stderr.isatty()
        self.count, self.started, self.shown = 0, 0.0, 0.0

    def __call__(self, text: str) -> None:
        self.done += 1
        hear = _step_hearer.get()
        if hear is not None:
            hear(self.done, self.total, text)
        self.clear()
        progress_line(self.quiet, f"[{self.done}/{self.total}] {text}")
        if self.live:
            from moonshot.analysis.common import SECTION_PROGRESS
            self.count, self.started = 0, time.monotonic()
            SECTION_PROGRESS.set(self.played)

    def played(self, n: int) -> None:
        self.count += n
        now = time.monotonic()
        if now - self.shown >= self.EVERY:
            self.shown = now
            print(f"\r      {self.count:,} played, {now - self.started:.0f} s", end="", file=sys.stderr, flush=True)

    def end(self) -> None:
        """The last section is done: its count line goes, and runs after the report count for no section."""
        self.clear()
        if self.live:
            from moonshot.analysis.common import SECTION_PROGRESS
            SECTION_PROGRESS.set(None)

    def clear(self) -> None:
        """Take the count line away (before the next step's line, or when the report is written)."""
        if self.live and self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
            self.shown = 0.0


FLOOR = 50      # the least a section plays: enough that every interval exists (tests pass less)


def share(hands: int, divisor: int, floor: int = FLOOR) -> int:
    """A section's sample: a share of the report's --hands, at least `floor`, so every section
    shrinks and grows with --hands."""
    return max(floor, hands // divisor)


def points(ax, x, d: pd.DataFrame, label: str | None = None, color=None, scale: float = 100.0,
           horizontal: bool = False) -> None:
    """Estimates as points with 95% error bars (categories are never joined by lines); the marker's
    area grows with the sample size n, so thin cells look thin. `scale` multiplies the values
    (100 for percentages, 1 for means). `horizontal` puts the categories `x` on the y axis, where
    long category names read without rotation."""
    n = d["n"].to_numpy(dtype=float)
    size = 12 + 60 * np.sqrt(n / max(n.max(), 1))
    est = d["estimate"].to_numpy() * scale
    err = [est - d["ci_low"].to_numpy() * scale, d["ci_high"].to_numpy() * scale - est]
    if horizontal:
        dots = ax.scatter(est, x, s=size, color=color, label=label, zorder=3)
        ax.errorbar(est, x, xerr=err, fmt="none", capsize=3, color=dots.get_facecolor()[0], lw=1)
    else:
        dots = ax.scatter(x, est, s=size, color=color, label=label, zorder=3)
        ax.errorbar(x, est, yerr=err, fmt="none", capsize=3, color=dots.get_facecolor()[0], lw=1)
    ax.grid(alpha=0.3)


def integer_ticks(ax, axis: str = "x") -> None:
    from matplotlib.ticker import MaxNLocator
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def metric(df: pd.DataFrame, name: str) -> pd.DataFrame:
    """The rows of a long estimates table for one metric."""
    return df[df["metric"] == name]


# --- strong play: a search player against the heuristic default (analysis.strong_play) ----------

def side_by_side(ax, table: pd.DataFrame, key: str, name: str, lineups: tuple[str, ...], scale: float = 100.0,
                 colors=("#7f8c8d", "#c0392b")) -> None:
    """One metric of a `versus` table: each lineup's estimate at every category of `key` as points
    with 95% bars, the lineups side by side (no lines between categories)."""
    d = metric(table, name)
    categories = list(dict.fromkeys(d[key]))
    x = {c: i for i, c in enumerate(categories)}
    for i, (lineup, color) in enumerate(zip(lineups, colors)):
        rows = d[d["strategy"] == lineup]
        points(ax, rows[key].map(x).to_numpy() + (i - (len(lineups) - 1) / 2) * 0.18, rows, label=lineup,
               color=color, scale=scale)
    ax.set_xticks(np.arange(len(categories)), [str(c) for c in categories])


def lineups_figure(table: pd.DataFrame, panels, lineups: tuple[str, str], key: str, title: str,
                   xlabel: str | None = None, drop: str | None = None, size=(10, 3.8), zero: bool = False,
                   upright: bool = True, legend: dict | None = None, aside: str = ""):
    """A `versus` table's two lineups side by side at every category of `key` (but `drop`), one
    panel per (metric, axis label, scale) in `panels`; a line at zero for paired values (`zero`),
    category names turned to read downwards when they are long (`upright=False`); `aside` adds to
    the title's parenthesis."""
    if drop is not None:
        table = table[table[key] != drop]
    fig, axes = plt.subplots(1, len(panels), figsize=size)
    for ax, (name, label, scale) in zip(axes, panels):
        side_by_side(ax, table, key, name, lineups, scale)
        if xlabel:
            ax.set_xlabel(xlabel)
        ax.set_ylabel(label)
        if zero:
            ax.axhline(0, color="#444", lw=0.8)
        if not upright:
            ax.tick_params(axis="x", rotation=90)
    axes[0].legend(**(legend or {"title": "every seat"}))
    fig.suptitle(f"{title}: {lineups[0]} against {lineups[1]} in every seat, same deals (95% intervals{aside})")
    fig.tight_layout()
    return fig


def finish(doc: "Document", step, setup, seed: int, jobs: int, tournament: tuple, whatif: tuple,
           lab: tuple[int, int], out: Path) -> Path:
    """The sections every report ends with, then the report written into `out` (its report.md path):
    the built-in strategies' tournament (entrants, games a pair), a rules what-if (rules, table name,
    heading, hands) and the house rules lab (games, hands per rule change)."""
    from moonshot.reports.rules_lab import house_rules
    word = setup.hooks.hands_word
    entrants, games = tournament
    step(f"tournament: {games:,} games a pair, {len(entrants)} strategies")
    doc.tournament(setup, entrants, games, seed, jobs)
    rules, name, heading, n = whatif
    step(f"rules what-if {' '.join(rules)}: {n:,} {word}")
    doc.whatif(setup, rules, name, heading, n, seed, jobs)
    step(f"house rules: {lab[0]:,} games and {lab[1]:,} {word} per rule change")
    house_rules(doc, setup, *lab, seed, jobs)
    step.end()
    return doc.write(out)


class Document:
    def __init__(self, title: str, game: str | None = None):
        self.title, self.game = title, game
        self.blocks: list[tuple[str, object]] = []    # (kind, payload)
        self.figures: dict[str, bytes] = {}
        self.tables: dict[str, pd.DataFrame] = {}

    def heading(self, text: str) -> None:
        self.blocks.append(("h2", text))

    def text(self, text: str) -> None:
        self.blocks.append(("p", text))

    def note(self, text: str, tables: dict[str, str] | None = None) -> None:
        """A note in a player's words: metric names become the column headers the tables show, and
        the names of `tables` (the result's table -> the caption it has here) their captions."""
        from moonshot.reports.glossary import in_words
        text = in_words(self.game, text, tables)
        self.blocks.append(("note", text[:1].upper() + text[1:]))

    def table(self, name: str, df: pd.DataFrame, caption: str = "", shown=None) -> None:
        """Show the table (estimates pivoted to 'est [lo, hi]', every column headed as the glossary
        names it; only the metrics `shown` when given) and save it whole as tables/NAME.csv."""
        from moonshot.reports.glossary import label
        self.tables[name] = df
        view = df if shown is None or "metric" not in df.columns else df[df["metric"].isin(shown)]
        zero = zero_everywhere(view)                # a column of zeros: left out, and said so under the table
        view = view[~view["metric"].isin(zero)] if zero else view
        pivoted = with_thousands(pivot_estimates(view, lambda m: label(self.game, m)))
        pivoted = pivoted.rename(columns=lambda c: label(self.game, str(c)))
        self.blocks.append(("table", (name, pivoted, caption)))
        if zero:
            self.note(zero_note(self.game, zero))
        if any_no_spread(df) and ("note", NO_SPREAD_NOTE) not in self.blocks:
            self.note(NO_SPREAD_NOTE)            # once, under the first table that shows such a cell

    def fold(self, summary: str | None) -> None:
        """What follows sits in a collapsed section headed `summary` (details in HTML and in Markdown
        viewers that show HTML) until fold(None): a long table a reader opens on demand."""
        self.blocks.append(("fold", summary))

    def found(self, result) -> None:
        """What an analysis found, in its own plain sentences (with intervals)."""
        for sentence in result.findings:
            self.text(sentence)

    def intro(self, game: str, setup_text: str, strategy: str, hands: int, seed: int) -> None:
        """The opening paragraph every report has: what ran, how to read the numbers, how to regenerate."""
        from moonshot.strategies.base import registered, rule_of_thumb
        cls = registered(game).get(strategy.split(":")[0])
        thumb = f" ({rule_of_thumb(cls)})" if cls else ""
        self.text(f"{setup_text} RULES.md defaults unless a section says otherwise; strategy `{strategy}`{thumb} in "
                  f"every seat unless named: every number is what these players get, not what perfect play would. "
                  f"Seed {seed}. Every number below comes from simulated play with its sample size n and a 95% "
                  f"interval (Wilson for probabilities, mean ± 1.96 SE for averages); the glossary at the end says "
                  f"what each column means. Regenerate with `moonshot report {game} --out DIR --hands {hands} "
                  f"--seed {seed}`.")

    def headline(self, step, setup, hands: int, seed: int, jobs: int, heading: str, table: str, caption: str):
        """The headline section: `simulate` on the default table, its findings and one of its tables
        (as tables/headline_TABLE)."""
        from moonshot.analysis.common import simulate
        step(f"headline: {hands:,} {setup.hooks.hands_word}, {setup.players} players")
        head = simulate(setup, hands, None, seed, jobs)
        self.heading(heading)
        self.found(head)
        self.table(f"headline_{table}", head.tables[table], caption)
        return head

    def section(self, heading: str, result, figure=None, tables=(), notes: bool | int = True) -> None:
        """A section for one analysis: heading, what it found, a figure (name, fig, caption), tables
        (name, the result's table, caption) and its notes (all, or the first n)."""
        self.heading(heading)
        self.found(result)
        if figure is not None:
            self.figure(*figure)
        for name, key, caption in tables:
            self.table(name, result.tables[key], caption)
        captions = {key: caption for _, key, caption in tables}
        for note in (result.notes if notes is True else result.notes[:int(notes)]):
            self.note(note, captions)

    def strong_play(self, step, play, setup, n: int, seed: int, jobs: int, strong: str, sample: str, what: str,
                    caption: str, tables, panels, then: str = "", **figure):
        """A game's strong-play section: its step (`n` counts `sample`; `then` adds to the line), the
        game's analysis `play` (its strong_play: `strong` in every seat beside setup's lineup on the
        same deals), a figure of the first table's `panels` (lineups_figure with the `figure`
        options) captioned `caption`: <both lineups>..., and each (name, the result's table,
        caption) as tables/strong_play_NAME, where {lineups} in a caption names both. Returns the
        result."""
        base = setup.seats.specs[0]
        step(f"strong play: {n:,} {sample} with {strong} in every seat, the same deals with {base}{then}")
        result = play(setup, n, seed, jobs, strong)
        both = f"{base} and {strong}"
        chart = lineups_figure(result.tables[tables[0][1]], panels, (base, strong), **figure)
        self.section(f"Strong play: {what} with {strong} in every seat", result,
                     ("strong_play", chart, f"{caption}: {both} in every seat on the same deals."),
                     [(f"strong_play_{name}", key, text.format(lineups=both)) for name, key, text in tables])
        return result

    def tournament(self, setup, entrants, games: int, seed: int, jobs: int) -> None:
        """Every pair of the built-in `entrants` on the same deals; Bradley-Terry ratings."""
        from moonshot.analysis.tournament import tournament
        from moonshot.reports.tournament import ratings_figure
        result = tournament(setup, list(entrants), games, seed, jobs)
        self.section("Tournament: how the built-in strategies rank", result,
                     ("tournament", ratings_figure(result), "Ratings of the built-in strategies (Elo scale)."),
                     [("tournament_ratings", "ratings", "Bradley-Terry ratings, every pair on the same deals"),
                      ("tournament_pairs", "pairs", "Each pair's games-mode match")])

    def matches(self, setup, pairs, n: int, seed: int, jobs: int) -> None:
        """One table per strategy pair (same deals, seats rotated) and the note on how to read them;
        every pair's chunks go to the workers as one stream (a report's pair is often one chunk)."""
        from moonshot.analysis.common import match_call, match_result, run_many
        tallies = run_many([match_call(setup, a, b, n, None) for a, b in pairs], seed, jobs)
        for (a, b), t in zip(pairs, tallies):
            m = match_result(setup, a, b, n, None, seed, t)
            self.table(f"match_{a}_vs_{b}", m.tables["match"], f"{a} (A) against {b} (B), same deals, seats rotated")
            self.found(m)
        self.note(m.notes[0])

    def whatif(self, setup, rules: list[str], name: str, heading: str, n: int, seed: int, jobs: int) -> None:
        """A rules what-if: the same deals under the default rules and under `rules`. The table shows
        the changes only (a seat, n and a few columns); tables/NAME.csv keeps both rule sets too.
        Its findings say when nothing changed measurably at this size."""
        from moonshot.analysis.common import whatif
        w = whatif(setup, rules, n, None, seed, jobs)
        seats = w.tables["seats"]
        self.heading(heading)
        changes = [m for m in dict.fromkeys(seats["metric"]) if str(m).startswith("d_")]
        self.table(name, seats, f"Change with {' '.join(rules)} (the variant minus the default rules), per seat",
                   shown=changes)
        self.found(w)
        self.note(f"Each of the {n:,} deals is played twice with the same cards and the same random draws: under "
                  f"the default rules and with {' '.join(rules)}. Each column is how much the seat's side's outcome "
                  "changes, with its 95% interval; tables/" + name + ".csv also has both rule sets' own values.")

    def figure(self, name: str, fig, caption: str) -> None:
        import io
        buf = io.BytesIO()
        for text in fig.findobj(matplotlib.text.Text):
            if text.get_text() and text.get_fontsize() < MIN_LABEL_PT:
                text.set_fontsize(MIN_LABEL_PT)
        fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        self.figures[name] = buf.getvalue()
        self.blocks.append(("figure", (name, caption)))

    # --- output ----------------------------------------------------------------------------

    def _glossary(self) -> list[str]:
        from moonshot.reports.glossary import glossary_lines
        return glossary_lines(self.game, self.tables)

    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        for kind, payload in self.blocks:
            if kind == "h2":
                out += [f"## {payload}", ""]
            elif kind in ("p", "note"):
                out += [payload if kind == "p" else f"*{payload}*", ""]
            elif kind == "table":
                name, df, caption = payload
                if caption:
                    out += [f"**{caption}** (`tables/{name}.csv`)", ""]
                out += [_md_table(df), ""]
            elif kind == "figure":
                name, caption = payload
                out += [f"![{caption}](figures/{name}.png)", "", f"*{caption}*", ""]
            elif kind == "fold":
                out += [f"<details><summary>{html.escape(payload)}</summary>" if payload else "</details>", ""]
        words = self._glossary()
        if words:
            out += ["## Glossary", ""] + [f"- {w}" for w in words] + [""]
        return "\n".join(out)

    def html(self) -> str:
        parts = ["<!doctype html><html><head><meta charset='utf-8'>"
                 "<meta name='viewport' content='width=device-width, initial-scale=1'>"
                 f"<title>{html.escape(self.title)}</title>"
                 f"<style>{CSS}</style></head><body><h1>{html.escape(self.title)}</h1>"]
        for kind, payload in self.blocks:
            if kind == "h2":
                parts.append(f"<h2>{html.escape(payload)}</h2>")
            elif kind == "p":
                parts.append(f"<p>{html.escape(payload)}</p>")
            elif kind == "note":
                parts.append(f"<p class='note'>{html.escape(payload)}</p>")
            elif kind == "table":
                name, df, caption = payload
                if caption:
                    parts.append(f"<p><b>{html.escape(caption)}</b> (tables/{name}.csv)</p>")
                parts.append(f"<div class='scroll'>{df.to_html(index=False, float_format=plain, border=0)}</div>")
            elif kind == "figure":
                name, caption = payload
                data = base64.b64encode(self.figures[name]).decode()
                parts.append(f"<figure><div class='scroll'><img alt='{html.escape(caption)}' "
                             f"src='data:image/png;base64,{data}'></div>"
                             f"<figcaption class='note'>{html.escape(caption)}</figcaption></figure>")
            elif kind == "fold":
                parts.append(f"<details><summary>{html.escape(payload)}</summary>" if payload else "</details>")
        words = self._glossary()
        if words:
            parts.append("<h2>Glossary</h2><ul>" + "".join(f"<li>{html.escape(w)}</li>" for w in words) + "</ul>")
        parts.append("</body></html>")
        return "\n".join(parts)

    def write(self, out: Path) -> Path:
        """Write everything into `out` (created if missing); returns the report.md path. The report
        is made in a temporary folder beside it and renamed into place whole; a failure to write
        (a full disk) is CannotWrite naming `out`, and leaves the folder as it was."""
        out = Path(out)
        parent = out.parent if str(out.parent) else Path(".")
        check_report_folder(out)
        with writing(out):
            parent.mkdir(parents=True, exist_ok=True)
            tmp, held = temporary(out, folder=True)       # a killed writer's stale one is cleared first
        old = held_old = None
        try:
            with writing(out):
                (tmp / "figures").mkdir()
                (tmp / "tables").mkdir()
                for name, png in self.figures.items():
                    (tmp / "figures" / f"{name}.png").write_bytes(png)
                for name, df in self.tables.items():
                    df.to_csv(tmp / "tables" / f"{name}.csv", index=False)
                    df.astype({c: str for c in df.columns if df[c].dtype == object}).to_parquet(
                        tmp / "tables" / f"{name}.parquet", index=False)
                (tmp / "report.md").write_text(self.markdown())
                (tmp / "report.html").write_text(self.html())
                ordinary(tmp, folder=True)            # mkdtemp makes 0700; the report is an ordinary folder
                if out.exists():                      # replace the old report whole: no stale files
                    old, held_old = temporary(out, folder=True, suffix=".old.tmp")
                    os.replace(out, old / "report")
                    os.replace(tmp, out)
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    os.replace(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            if old is not None and (old / "report").exists() and not out.exists():
                os.replace(old / "report", out)       # the old report back where it was
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
            raise
        finally:
            for fd in (held, held_old):
                if fd is not None:
                    os.close(fd)
        return out / "report.md"


def _md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    rows = [[_cell(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _cell(v) -> str:
    if isinstance(v, float):
        return plain(v)
    return str(v)
