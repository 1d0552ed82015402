"""A hand being played by a person: the game's engine runs in its own thread and stops at each of
the person's decisions (a prompt: what that seat may see and its legal choices) until the page
answers. Abandoned hands (no answer for `IDLE` seconds) end their thread.

An adapter (web/play/<game>.py) is `play(ask) -> record`: it plays the hand, calling ask(prompt)
at the person's decisions (ask returns the chosen value), and returns the HISTORY.md record.
"""
from __future__ import annotations

import itertools
import json
import threading
import time
from typing import Any

from moonshot.simulator.errors import BadInput

IDLE = 1800.0          # seconds a hand waits for the person before it is dropped
KEEP = 50              # hands kept at once; the oldest go first


class Abandoned(Exception):
    """Raised inside the engine's thread when the person never answered."""


class Session:
    def __init__(self, sid: str, game: str, seat: int, adapter):
        self.id, self.game, self.seat, self.adapter = sid, game, seat, adapter
        self.prompt: dict | None = None
        self.record: dict | None = None
        self.error: str | None = None
        self._answer: Any = None
        self._cond = threading.Condition()
        self._turn = 0                           # counts prompts, so an answer meets the prompt it was for
        self.touched = time.monotonic()
        threading.Thread(target=self._run, name=f"moonshot-play-{sid}", daemon=True).start()

    # ------------------------------------------------------------------ the engine's side
    def _run(self) -> None:
        try:
            record = self.adapter.play(self._ask)
            with self._cond:
                self.record, self.prompt = record, None
                self._cond.notify_all()
        except Abandoned:
            pass
        except BadInput as exc:
            with self._cond:
                self.error, self.prompt = str(exc), None
                self._cond.notify_all()
        except Exception as exc:               # a bug: the page gets one line, the server log the rest
            import traceback
            traceback.print_exc()
            with self._cond:
                self.error, self.prompt = f"internal error: {type(exc).__name__}: {exc}", None
                self._cond.notify_all()

    def _ask(self, prompt: dict) -> Any:
        with self._cond:
            self._turn += 1
            self.prompt = {**prompt, "turn": self._turn}
            self._answer = None
            self._cond.notify_all()
            deadline = time.monotonic() + IDLE
            while self._answer is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Abandoned
                self._cond.wait(min(left, 5.0))
            answer, self._answer = self._answer, None
            self.prompt = None
            return answer[0]

    # ------------------------------------------------------------------ the page's side
    @property
    def over(self) -> bool:
        return self.record is not None or self.error is not None

    def state(self, wait: float = 30.0) -> dict:
        """The prompt (or the end of the hand), waiting up to `wait` s for the bots to reach it."""
        self.touched = time.monotonic()
        with self._cond:
            self._cond.wait_for(lambda: self.prompt is not None or self.over, timeout=wait)
            out = {"id": self.id, "game": self.game, "seat": self.seat, "log": list(self.adapter.log)}
            if self.error is not None:
                return {**out, "state": "failed", "error": self.error}
            if self.record is not None:
                return {**out, "state": "over", "summary": self.adapter.summary(self.record)}
            if self.prompt is None:
                return {**out, "state": "thinking"}
            return {**out, "state": "your turn", "prompt": self.prompt}

    def answer(self, turn: int, choice: Any) -> dict:
        """Give the person's choice for prompt `turn`; BadInput if it is not one of its choices."""
        with self._cond:
            if self.prompt is None or self.prompt["turn"] != turn:
                raise BadInput(f"no decision {turn} is waiting; accepted: the decision on the page "
                               f"({'none: the hand is over' if self.over else 'reload the page'})")
            legal = [c["value"] for c in self.prompt["choices"]]
            if legal == ["timed"]:               # a timed answer (the slap): milliseconds measured by the page
                if isinstance(choice, bool) or not isinstance(choice, (int, float)) or not 0 <= choice <= 60_000:
                    raise BadInput(f"slap time {choice!r} is not accepted; accepted: milliseconds from 0 to 60000")
            elif choice not in legal:
                names = ", ".join(str(c["label"]) for c in self.prompt["choices"])
                raise BadInput(f"choice {choice!r} is not legal here; accepted: {names}")
            self._answer = (choice,)
            self.prompt = None
            self._cond.notify_all()
        return self.state()

    def history(self) -> str:
        if self.record is None:
            raise BadInput("the hand is not over yet; accepted: a history once the hand has ended")
        return json.dumps(self.record) + "\n"


class Table:
    """The hands being played on this server."""

    def __init__(self):
        self.sessions: dict[str, Session] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, game: str, seat: int, adapter) -> Session:
        with self._lock:
            sid = f"h{next(self._ids)}-{int(time.time() * 1000) % 100000}"
            if len(self.sessions) >= KEEP:
                oldest = min(self.sessions.values(), key=lambda s: s.touched)
                del self.sessions[oldest.id]
            self.sessions[sid] = session = Session(sid, game, seat, adapter)
        return session

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise BadInput(f"no hand {sid!r} on this server (hands are dropped after a while); accepted: start a new hand")
        return session

