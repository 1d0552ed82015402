"""`moonshot review`: every decision of a played hand valued from what its seat knew (DESIGN.md, Review).

One shared verb over per-game hooks, as for `simulate`: a game's review module (named by its registry
entry, `Game.review`) turns one history record into `Decision`s, each holding the outcome of every legal
option on the same sampled worlds (worlds dealt from the seat's own view, as pimc and rollout deal them,
every option played out by the game's strongest player). Everything after that is shared here: the best
option, the loss of the option chosen with its paired interval, the verdict, the per-seat summary.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Decision:
    """One decision of one seat in one hand, with every legal option valued on the same worlds."""
    hand_id: int
    seat: int
    step: int                   # the decision's place in the hand's play order (0, 1, ...), all seats counted
    kind: str                   # bid, discard, trump, play, call, draw, keep, ... (the game's decision names)
    options: list[str]          # the legal options' labels in HISTORY.md notation ("pass" for a pass)
    chosen: int                 # index into options of the option the seat took
    outcomes: np.ndarray        # (worlds, options): each world's outcome of each option, in the game's unit
    unit: str                   # the game's unit: "points" (Moon, the mover's side), "chips", "penalty points"
    higher_better: bool = True  # False where the unit is a cost (Hit the Deck's penalty points)
    win: np.ndarray | None = None          # (worlds, options) the mover's P(win the game) per world, when the
                                           # record holds whole games (scores_before)
    open_values: list[float] | None = None  # Moon: each option's value with every hand known (the exact solver)
    yardstick: dict[str, int] = field(default_factory=dict)   # built-in strategy -> the option it would take here

    @property
    def forced(self) -> bool:
        return len(self.options) == 1
