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
        self.told = 0                          # moves the log has told so far (batch-engine games tell the others')
        self.asked: set[int] = set()           # those the person made (their prompts log them)
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
        """The hand as it ended: its replay, its result in a sentence and, where the game's page part
        draws it (`end_table(record, you)`), the table as the hand ended (kept on the page) with its faces."""
        from moonshot.simulator.games import get
        entry = get(self.game)
        out = {"replay": entry.replay(json.loads(json.dumps(record)), "this hand", 1),
               "result": self.result_line(record), "seat": self.seat}
        end_table = getattr(entry.page, "end_table", None)
        if end_table is not None:
            out["table"] = shown = end_table(record, self.seat)
            out["faces"] = faces(self.game, pieces_in(shown))
        return out

    def result_line(self, record: dict) -> str:
        """The hand's outcome for the person, in one line (the record's own numbers): the game's page
        part's `result_sentence(record, you)` where it has one."""
        from moonshot.simulator.games import get
        sentence = getattr(get(self.game).page, "result_sentence", None)
        if sentence is not None:
            return sentence(record, self.seat)
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
            hint: Callable[[], dict] | None = None, table: dict | None = None) -> Any:
        """One decision of the person: returns the chosen value (one of the choices'). `table` is
        the seats, middle, lines and auction the page draws (see `table` below); the pieces named
        in the hand, the table and the choices go with their faces, so the page draws them at once."""
        self.hint_for = hint
        names = self.tiles(hand)
        prompt = {"phase": phase, "title": title, "hand": names, "facts": [list(f) for f in facts],
                  "choices": choices, "has_hint": hint is not None, "table": table,
                  "faces": faces(self.game, names + pieces_in(table) + [c["label"] for c in choices])}
        choice = self._ask(prompt)
        self.hint_for = None
        label = next((c["label"] for c in choices if c["value"] == choice), None) or f"{choice:.0f} ms"
        self.log.append(f"{title}: {label}")
        return choice

    def first_record(self, result) -> dict:
        """The HISTORY.md record of the engine's one-hand result."""
        lines = self.setup.entry.module("history").records(result, self.setup.table, self.specs(), self.seed, 0)
        return json.loads(lines[0])


# ---------------------------------------------------------------- the log's words

def does(who: str, you_verb: str, verb: str) -> str:
    """"you play" / "seat 1 plays": the verb that agrees with who does it."""
    return f"{who} {you_verb if who == 'you' else verb}"


def count(n: int, what: str) -> str:
    """"1 trick", "2 tricks"."""
    return f"{n} {what}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- the table the pages draw
# One shape for every game, for the Play page's prompts and the Replay page's steps (web/static/table.js
# draws it): seats round the table, the middle (the trick, or the piles), lines of words (contract,
# trump, demand, scores) and the auction. Piece names are HISTORY.md notation; their faces travel beside.

def seat(number: int, name: str, *, side: int | None = None, held: int = 0, you: bool = False,
         leads: bool = False, to_move: bool = False, tally: str = "", pieces: list[str] | None = None) -> dict:
    """One seat: `held` pieces (shown as backs unless `pieces` names them face up: the replay knows
    every hand), whether it is the person's, leads the trick or is to move, and its tally in words."""
    return {"seat": number, "name": name, "side": side, "held": held, "you": you, "leads": leads,
            "to_move": to_move, "tally": tally, "pieces": pieces}


def table(kind: str, seats: list[dict], middle: list[tuple[int | None, str]] = (), words: str = "",
          lines: list[tuple[str, str]] = (), auction: list[str] = (), pile: int | None = None) -> dict:
    """The table: `kind` of piece ("tile", "card"), the seats, the middle's pieces ((seat or None,
    piece name): the trick in order, or the discard pile's top) with `words` about it and, where
    there is one, the face-down `pile`'s count; `lines` of (label, words); the auction's calls."""
    return {"kind": kind, "seats": seats, "lines": [list(x) for x in lines], "auction": list(auction),
            "middle": {"pieces": [{"seat": s, "piece": p} for s, p in middle], "words": words, "pile": pile}}


def person_seat(record: dict) -> int | None:
    """The seat a person played in a recorded hand (the replay draws the table from it), else None."""
    specs = record.get("strategies") if isinstance(record.get("strategies"), list) else []
    return next((s for s, spec in enumerate(specs) if spec == PERSON), None)


def without_tables(steps: list[dict]) -> list[dict]:
    """Replay steps without their tables (a game's page gives those by its `tables`)."""
    return [{k: v for k, v in s.items() if k not in ("table", "before")} for s in steps]


def tables_of(steps: list[dict]) -> list[dict]:
    """The deal's table and each step's, of steps that carry theirs."""
    return [steps[0]["before"]] + [s["table"] for s in steps] if steps else []


def pieces_in(shown: dict | None) -> list[str]:
    if not shown:
        return []
    return [p["piece"] for p in shown["middle"]["pieces"]] + [x for s in shown["seats"] for x in s["pieces"] or ()]


def faces(game: str, names: list[str]) -> dict:
    """Each piece name's face for the page's drawings (web.pieces.faces), {} where there is none yet:
    the page then writes the name."""
    from moonshot.simulator.games import get
    from moonshot.web import pieces
    make = getattr(pieces, "faces", None)
    if make is None:
        return {}
    names = list(dict.fromkeys(names))
    known = set(get(game).page.pieces())
    return make(get(game), [n for n in names if n in known])
