"""What every analysis returns: named tables of estimates plus the facts behind them."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


@dataclass
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
        df = self.tables[name]
        if "metric" not in df.columns:
            return df.copy()
        keys = [c for c in df.columns if c not in ("metric", "estimate", "n", "ci_low", "ci_high", "kind")]
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
        df = self.tables[name]
        hit = df["metric"] == metric
        for k, v in keys.items():
            hit &= df[k] == v
        return df[hit].iloc[0]


def _records(df: pd.DataFrame) -> list[dict]:
    out = df.astype(object).where(pd.notna(df), None)
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in out.to_dict(orient="records")]

