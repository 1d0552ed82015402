"""What every analysis returns: named tables of estimates plus the facts behind them."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


@dataclass
class Result:
    """An analysis outcome.

    `tables` are long tables: key columns, then `metric`, `estimate`, `n`, `ci_low`, `ci_high`
    (95%), one row per estimate; a few tables (distributions) carry counts instead.
    `meta` says what stands behind the numbers: game, table, rules in force, strategies, hands,
    seed. `notes` are sentences for a reader.
    """
    title: str
    meta: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_json_obj(self) -> dict:
        return {
            "title": self.title,
            "meta": self.meta,
            "notes": self.notes,
            "tables": {name: _records(df) for name, df in self.tables.items()},
        }


def _records(df: pd.DataFrame) -> list[dict]:
    out = df.astype(object).where(pd.notna(df), None)
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in out.to_dict(orient="records")]
