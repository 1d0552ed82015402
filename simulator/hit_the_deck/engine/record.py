"""Record mode: the engine's event log turned into HISTORY.md event lists, one per hand.

The hot path only appends arrays (one entry per emission, one value per game); this module
is the one Python loop over hands, and it runs only when a Result is recorded."""
from __future__ import annotations

import numpy as np

from moonshot.simulator.hit_the_deck.engine.table import N_KINDS

_NULL_IF_NEGATIVE = {("slap", 3)}          # (code, field index): -1 is written null (no loser)


def _value(v):
    if isinstance(v, np.generic):
        return v.item()
    return v


def assemble(log, n: int) -> tuple[list, list]:
    events = [[] for _ in range(n)]
    for code, gids, fields in log.entries:
        per_row = [isinstance(f, (np.ndarray, list)) for f in fields]
        for i, g in enumerate(gids.tolist()):
            ev = [code]
            for j, (f, many) in enumerate(zip(fields, per_row)):
                v = _value(f[i] if many else f)
                if (code, j) in _NULL_IF_NEGATIVE and v is not None and v < 0:
                    v = None
                ev.append(v)
            events[g].append(ev)
    decisions = [[] for _ in range(n)]
    for gids, seats, bits, drawn in log.decisions:
        for g, s, b, d in zip(gids.tolist(), seats.tolist(), bits.tolist(), drawn.tolist()):
            legal = [k for k in range(N_KINDS + 1) if b >> k & 1]
            decisions[g].append((s, legal, d))
    return events, decisions
