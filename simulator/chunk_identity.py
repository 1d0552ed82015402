"""A run store chunk's identity (simulator.store): which run and part it belongs to, its index, and a
checksum of its sums, kept in its Parquet metadata when it is saved and checked before it is read
back, so a chunk that is not its own (copied from a store with another seed, copied over another
index, renamed, edited) is refused instead of silently changing a resumed run's numbers.

This guards against mistakes and damage, not against someone forging a chunk: the checksum is a plain
digest anyone can recompute.
"""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

TALLY_KEY = b"moonshot.tally"   # the tally's layout (simulator.runner.Tally.to_arrow)
CHUNK_KEY = b"moonshot.chunk"   # the chunk's identity: {"run": fingerprint, "part", "index", "sha256"}


def fingerprint(run: dict, part: dict) -> str:
    """Which run and part a chunk belongs to: what the run computes (store.identity: its command,
    rules, strategies, seed) and the part's record (task, hands, seed, chunk size, chunk count)."""
    text = json.dumps({"run": run, "part": part}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def checksum(table: "pa.Table") -> str:
    """A digest of a chunk's content: its layout (the tally's metadata) and every column's values."""
    h = hashlib.sha256((table.schema.metadata or {}).get(TALLY_KEY, b""))
    for name, column in zip(table.column_names, table.columns):
        h.update(json.dumps([name, str(column.type)]).encode())
        h.update(json.dumps(column.to_pylist(), default=str).encode())
    return h.hexdigest()


def stamp(table: "pa.Table", run: dict, part: dict, index: int) -> "pa.Table":
    """`table` (chunk `index` of `part`) with its identity in the metadata."""
    own = {"run": fingerprint(run, part), "part": part.get("name"), "index": index, "sha256": checksum(table)}
    return table.replace_schema_metadata({**(table.schema.metadata or {}), CHUNK_KEY: json.dumps(own).encode()})


def _negative_count(table: "pa.Table") -> str | None:
    """The first count column (a table's n) holding a negative count, which no run writes."""
    import pyarrow.compute as pc
    for name in table.column_names:
        if name.split(":", 1)[-1] == "n" and len(table):
            low = pc.min(table.column(name)).as_py()
            if low is not None and low < 0:
                return name
    return None


def problem(file: str, table: "pa.Table", run: dict | None, part: dict, index: int) -> str | None:
    """What is wrong with `table` as chunk `index` of `part` of the run `run` (None: nothing);
    `run` None checks only what a chunk without an identity can show (an older store's)."""
    meta = table.schema.metadata or {}
    if TALLY_KEY not in meta:
        return f"{file} holds no chunk tally"
    negative = _negative_count(table)
    if negative is not None:
        return f"{file} holds a negative count ({negative}), which no run writes"
    if run is None:
        return None
    try:
        own = json.loads(meta[CHUNK_KEY])
        fp, name, at, digest = own["run"], own["part"], own["index"], own["sha256"]
    except (KeyError, TypeError, ValueError):
        return f"{file} carries no chunk identity (not written by this store's --save)"
    if fp != fingerprint(run, part) or name != part.get("name"):
        return f"{file} is a chunk of another run (another command, seed or part) copied in"
    if at != index:
        return f"{file} holds chunk {str(at)[:20]} of its part, not chunk {index} (copied or renamed)"
    if digest != checksum(table):
        return f"{file}'s sums are not those it was written with (edited?)"
    return None
