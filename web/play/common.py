"""What every game's play adapter shares: the table set-up, the person's prompts, the record and
the end-of-hand summary (the same text `moonshot replay` prints, which also checks the record)."""
from __future__ import annotations

import functools
import json
from typing import Any, Callable

import numpy as np

from moonshot.analysis.common import Setup
from moonshot.simulator.errors import BadInput
from moonshot.simulator.runner import chunk_rngs

PERSON = "person"          # the strategy spec written in the history for the person's seat


class Person:
    """The person's seat as a game's strategy (a game whose batch engine plays the hand): each
    decision method, marked @decision, turns its one-row view into one prompt of the hand `g`."""

    def __init__(self, game: "Hand"):
        self.g = game


def decision(method: Callable[..., Any]) -> Callable[..., np.ndarray]:
    """A Person's decision as the batch engine asks it: an empty view gets no answers, else the
    method's one answer (it asks the page) as a one-row array."""
    @functools.wraps(method)
    def decide(self, view, *args):
        if len(view) == 0:
            return np.zeros(0, dtype=np.int64)
        return np.array([method(self, view, *args)])
    return decide


class Hand:
    game = ""

    def __init__(self, setup: Setup, seat: int, seed: int):
        if not 0 <= seat < setup.players:
            raise BadInput(f"seat {seat} does not exist at {setup.players} players; accepted: 0..{setup.players - 1}")
        self.setup, self.seat, self.seed = setup, seat, seed
        self.log: list[str] = []
        self.hint_for: Callable[[], dict] | None = None
        self._ask: Callable[[dict], Any] | None = None

    # ---------------------------------------------------------------- the session's side
    def play(self, ask: Callable[[dict], Any]) -> dict:
        self._ask = ask
        return self.deal_and_play()

    def fresh(self) -> "Hand":
        """A new adapter for the same hand (web.play.session plays it again on each answer)."""
        return type(self)(self.setup, self.seat, self.seed)

    def summary(self, record: dict) -> dict:
        from moonshot.simulator.games import get
        return {"replay": get(self.game).replay(json.loads(json.dumps(record)), "this hand", 1),
                "result": self.result_line(record), "seat": self.seat}

    def result_line(self, record: dict) -> str:
        """The hand's outcome for the person, in one line (the record's own numbers)."""
        side = record["sides"][self.seat]
        return f"Score this hand by side {record['score']}; yours (side {side}): {record['score'][side]}."

    def hint(self, *args) -> dict:
        raise BadInput("there is no hint for this decision; accepted: ask at a play")

    # ---------------------------------------------------------------- the adapters' side
    def tiles(self, hand) -> list[str]:
        raise NotImplementedError

    human: type | None = None   # the game's strategy that asks the person at their seat (batch-engine games)

    def deal_and_play(self) -> dict:
        """One hand through the game's batch engine (chunk 0's streams of the seed), the person's seat
        played by `human`, which waits for the page; its record as the CLI writes it."""
        setup = self.setup
        strategies = list(setup.seats.strategies)
        strategies[self.seat] = self.human(self)
        res = setup.hooks.play(setup, strategies, chunk_rngs(self.seed, 0, setup.entry.streams), 1)
        return self.first_record(res)

    def specs(self) -> list[str]:
        specs = list(self.setup.seats.specs)
        specs[self.seat] = PERSON
        return specs

    def ask(self, phase: str, title: str, hand, facts: list[tuple[str, str]], choices: list[dict],
            hint: Callable[[], dict] | None = None) -> Any:
        """One decision of the person: returns the chosen value (one of the choices')."""
        self.hint_for = hint
        prompt = {"phase": phase, "title": title, "hand": self.tiles(hand), "facts": [list(f) for f in facts],
                  "choices": choices, "has_hint": hint is not None}
        choice = self._ask(prompt)
        self.hint_for = None
        label = next((c["label"] for c in choices if c["value"] == choice), None) or f"{choice:.0f} ms"
        self.log.append(f"{title}: {label}")
        return choice

    def first_record(self, result) -> dict:
        """The HISTORY.md record of the engine's one-hand result."""
        lines = self.setup.entry.module("history").records(result, self.setup.table, self.specs(), self.seed, 0)
        return json.loads(lines[0])
