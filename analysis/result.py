"""What every analysis returns: named tables of estimates plus the facts behind them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from moonshot.simulator.errors import BadInput

VALUE_COLUMNS = ("metric", "estimate", "n", "ci_low", "ci_high", "kind")   # the rest of a long table are keys

# How a notebook draws a Result (reports.text.render_html, set as the reports layer loads: `import
# moonshot` loads it). Results never import the layer that draws them; None: the text repr only.
DRAW_HTML: Callable[[Result], str] | None = None


@dataclass(repr=False)
class Result:
    """An analysis outcome.

    `tables` are long tables: key columns, then `metric`, `estimate`, `n`, `ci_low`, `ci_high`
    (95%) and `kind` (proportion or mean), one row per estimate; a few tables (distributions)
    carry counts instead. `meta` says what stands behind the numbers: game, table, rules in
    force, strategies, hands, seed. `findings` are one or two plain sentences of what the run
    found, with intervals; `notes` say how to read the tables.
    """
    title: str
    meta: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        """One line: the title, each table and its rows, how many findings, and the run (the whole
        output: `print(moonshot.reports.text.render(r, "table"))`, or a notebook's display)."""
        tables = ", ".join(f"{name} ({len(df)} rows)" for name, df in self.tables.items())
        run = ", ".join(f"{k}={v:,}" if isinstance(v, int) and not isinstance(v, bool) and k != "seed" else f"{k}={v}"
                        for k, v in self.meta.items() if k in ("game", "players", "hands", "games", "seed"))
        return (f"<Result {self.title!r}: tables {tables or 'none'}; {len(self.findings)} finding(s); {run}>")

    def _repr_html_(self) -> str | None:
        """A notebook's display: the tables, findings and notes as the command line prints them."""
        return None if DRAW_HTML is None else DRAW_HTML(self)

    def to_json_obj(self) -> dict:
        return {
            "title": self.title,
            "meta": self.meta,
            "findings": self.findings,
            "notes": self.notes,
            "tables": {name: _records(df) for name, df in self.tables.items()},
        }

    def wide(self, name: str) -> pd.DataFrame:
        """Table `name` as the CLI prints it: one row per key combination, n, and for every metric
        its estimate with <metric>_low / <metric>_high (the 95% interval) beside it."""
        df = self.table(name)
        if "metric" not in df.columns:
            return df.copy()
        keys = [c for c in df.columns if c not in VALUE_COLUMNS]
        order = list(dict.fromkeys(df["metric"]))
        if not keys:
            df = df.assign(_row=0)
            keys = ["_row"]
        est = df.pivot_table(index=keys, columns="metric", values=["estimate", "ci_low", "ci_high"], sort=False)
        out = pd.DataFrame(index=est.index)
        out["n"] = df.groupby(keys, sort=False)["n"].max()
        for m in order:
            out[m] = est[("estimate", m)]
            out[f"{m}_low"] = est[("ci_low", m)]
            out[f"{m}_high"] = est[("ci_high", m)]
        out = out.reset_index()
        return out.drop(columns="_row") if "_row" in out.columns else out

    def row(self, name: str, metric: str, /, **keys) -> pd.Series:
        """The estimate of `metric` in table `name` where the key columns equal `keys`."""
        df = self.table(name)
        metrics = list(dict.fromkeys(df["metric"])) if "metric" in df.columns else []
        if metric not in metrics:
            raise BadInput(f"no metric {metric!r} in table {name!r}; accepted: {', '.join(metrics) or 'none'}")
        hit = df["metric"] == metric
        for k, v in keys.items():
            if k not in df.columns or k in VALUE_COLUMNS:
                columns = [c for c in df.columns if c not in VALUE_COLUMNS]
                raise BadInput(f"no key column {k!r} in table {name!r}; accepted: {', '.join(columns) or 'none'}")
            hit &= df[k] == v
        if not hit.any():
            raise BadInput(f"no row of {metric!r} in table {name!r} where {keys}; the table's rows: "
                           f"`Result.wide({name!r})`")
        return df[hit].iloc[0]

    def table(self, name: str) -> pd.DataFrame:
        """The long table `name` (BadInput naming the tables there are, for a name that is not one)."""
        if name not in self.tables:
            raise BadInput(f"no table {name!r} in this result; accepted: {', '.join(self.tables) or 'none'}")
        return self.tables[name]


def pick(table: pd.DataFrame, **where) -> pd.Series | None:
    """The one row of a long table whose columns equal `where`, or None when there is none."""
    hit = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        hit &= (table[column] == value).to_numpy()
    return table[hit].iloc[0] if hit.any() else None


def _records(df: pd.DataFrame) -> list[dict]:
    out = df.astype(object).where(pd.notna(df), None)
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in out.to_dict(orient="records")]

