"""A hand being played by a person, held as what it takes to play it again: the adapter's set-up,
seat and seed and the person's answers so far. Each request plays the hand again from the seed
with the recorded answers, up to the person's next decision (the prompt), where the adapter's ask
raises a private exception that ends that replay. No thread waits for the person between
requests, and a hand nobody has touched for `idle` seconds is dropped.

Why replay and not a thread (or a greenlet) per hand: everything in a hand follows from its seed
and the person's answers (the bots draw from the seed's streams; a hint draws from its own
generator), so playing it again gives the same prompts, log and record; a hand costs a few
hundred bytes while it waits, and nothing has to be woken, timed out or cleaned up. What it costs
is the replay on each answer (the CHANGELOG has what it took for the longest hands).

An adapter (a game's page parts' ADAPTER, a web.play.common.Hand) is `play(ask) -> record`: it
plays the hand, calling ask(prompt) at the person's decisions (ask returns the chosen value), and returns
the HISTORY.md record; `fresh()` gives a new one for the same hand.

A hand's id is all it takes to play, hint or download it, so it is a random token
(secrets.token_urlsafe: 128 bits), never a count. The replay is work like a run's (web.jobs.Runner.work
runs it): a stop heard inside it (simulator.stopping) leaves the hand as it was before the replay,
to be played again by its next request.
"""
from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from moonshot.simulator import stopping
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.eta import duration

IDLE = 900.0           # seconds a hand waits for the person before it is dropped
KEEP = 200             # hands kept at once; the least recently used go first
GONE_KEPT = 10_000      # dropped hands' ids remembered, with why (a few dozen bytes each)
ID_BYTES = 16           # random bytes of a hand's id (22 characters of base64url)


class _Paused(BaseException):
    """Raised from ask at the person's first unanswered decision: this replay ends there. A
    BaseException, so no `except Exception` in an engine or strategy can swallow it."""

    def __init__(self, prompt: dict):
        super().__init__()
        self.prompt = prompt


def check(prompt: dict, choice: Any) -> None:
    """BadInput unless `choice` answers `prompt`: one of its choices' values, or for a timed answer
    (the slap) milliseconds measured by the page. Also the check of a shared hand's answers (web/links.py)."""
    legal = [c["value"] for c in prompt["choices"]]
    if legal == ["timed"]:
        if isinstance(choice, bool) or not isinstance(choice, (int, float)) or not 0 <= choice <= 60_000:
            raise BadInput(f"slap time {short(choice)} is not accepted; accepted: milliseconds from 0 to 60000")
    elif isinstance(choice, bool) or choice not in legal:     # True == 1 in Python: not a choice's number
        names = ", ".join(str(c["label"]) for c in prompt["choices"])
        raise BadInput(f"choice {short(choice)} is not legal here; accepted: {names}")


class Session:
    def __init__(self, sid: str, game: str, seat: int, adapter):
        self.id, self.game, self.seat, self.adapter = sid, game, seat, adapter
        self.answers: list[Any] = []           # the person's choices, in order
        self.prompt: dict | None = None
        self.record: dict | None = None
        self.error: str | None = None
        self._summary: dict | None = None
        self._played = False                   # the hand has been played up to answers' end
        self._lock = threading.Lock()          # one replay at a time
        self.touched = time.monotonic()
        self.gone: str | None = None           # why the table dropped it (its work then stops)

    def dropped(self) -> str | None:
        """The one line a request for this hand gets once the table has dropped it, else None (the
        stop of its work: web.jobs.Runner.work's `stop`)."""
        return None if self.gone is None else gone_line(self.id, self.gone)

    # ------------------------------------------------------------------ the replay
    def _advance(self) -> None:
        """Play the hand again from its seed with the answers so far, to the next prompt or the end.
        The adapter becomes the one of this replay (its log, its slaps, the current prompt's hint)."""
        hand, answers, turn = self.adapter.fresh(), list(self.answers), itertools.count(1)

        def ask(prompt: dict) -> Any:
            n = next(turn)                     # prompts are numbered from 1, so an answer meets its prompt
            if n <= len(answers):
                return answers[n - 1]
            raise _Paused({**prompt, "turn": n})
        self.prompt = None
        try:
            self.record = hand.play(ask)
        except _Paused as paused:
            self.prompt = paused.prompt
        except stopping.Stopped:               # not played: the next request plays it again
            self._played = False
            raise
        except BadInput as exc:
            self.error = str(exc)
        except Exception as exc:               # a bug: the page gets one line, the server log the rest
            import traceback
            traceback.print_exc()
            self.error = f"internal error: {type(exc).__name__}: {exc}"
        self.adapter, self._played = hand, True

    # ------------------------------------------------------------------ the page's side
    @property
    def over(self) -> bool:
        return self.record is not None or self.error is not None

    def state(self, wait: float = 0.0) -> dict:
        """The prompt, or the end of the hand (`wait` is unused: the hand is played in this call)."""
        self.touched = time.monotonic()
        with self._lock:
            if not self._played:
                self._advance()
            return self._state()

    def peek(self) -> dict | None:
        """The state when it takes no work (the hand played to its prompt or end, its summary made),
        else None: no replay, no wait for one running."""
        self.touched = time.monotonic()
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if not self._played or (self.record is not None and self.error is None and self._summary is None):
                return None
            return self._state()
        finally:
            self._lock.release()

    def _state(self) -> dict:
        out = {"id": self.id, "game": self.game, "seat": self.seat, "log": list(self.adapter.log)}
        if self.error is not None:
            return {**out, "state": "failed", "error": self.error}
        if self.record is not None:
            if self._summary is None:              # the replay's text, worked out once
                self._summary = self.adapter.summary(self.record)
            return {**out, "state": "over", "summary": self._summary}
        return {**out, "state": "your turn", "prompt": self.prompt}

    def answer(self, turn: int, choice: Any) -> dict:
        """Give the person's choice for prompt `turn`; BadInput if it is not one of its choices."""
        self.touched = time.monotonic()
        with self._lock:
            if not self._played:
                self._advance()
            if self.prompt is None or self.prompt["turn"] != turn:
                raise BadInput(f"no decision {turn} is waiting; accepted: the decision on the page "
                               f"({'none: the hand is over' if self.over else 'reload the page'})")
            check(self.prompt, choice)
            self.answers.append(choice)
            self._advance()
        return self.state()

    def history(self) -> str:
        if self.record is None:
            raise BadInput("the hand is not over yet; accepted: a history once the hand has ended")
        return json.dumps(self.record) + "\n"


class Table:
    """The hands being played on this server: at most `keep`, each dropped after `idle` seconds
    untouched (looked at whenever a hand is started or asked for: no thread). A dropped hand's id
    is remembered (the last GONE_KEPT of them) with why it went, which its next request is told."""

    def __init__(self, idle: float = IDLE, keep: int = KEEP):
        self.sessions: dict[str, Session] = {}
        self.gone: OrderedDict[str, str] = OrderedDict()        # id -> why it was dropped
        self.idle, self.keep = idle, keep
        self._lock = threading.Lock()

    def start(self, game: str, seat: int, adapter) -> Session:
        with self._lock:
            self._expire()
            sid = secrets.token_urlsafe(ID_BYTES)
            if len(self.sessions) >= self.keep:
                oldest = min(self.sessions.values(), key=lambda s: s.touched)
                self._drop(oldest.id, f"pushed out by a newer hand: this server keeps at most {self.keep} hands "
                                      f"at once and drops the one untouched longest (this one, for "
                                      f"{duration(time.monotonic() - oldest.touched)})")
            self.sessions[sid] = session = Session(sid, game, seat, adapter)
        return session

    def get(self, sid: str) -> Session:
        with self._lock:
            self._expire()
            session = self.sessions.get(sid)
            why = self.gone.get(sid)
        if session is None:
            why = why or (f"never started here, or dropped long ago (a hand is dropped after {duration(self.idle)} "
                          f"untouched, or pushed out by newer ones past {self.keep} at once)")
            raise BadInput(gone_line(sid, why))
        return session

    def _expire(self) -> None:
        now = time.monotonic()
        for sid in [s.id for s in self.sessions.values() if now - s.touched > self.idle]:
            self._drop(sid, f"dropped after {duration(self.idle)} untouched")

    def _drop(self, sid: str, why: str) -> None:
        self.sessions.pop(sid).gone = why
        self.gone[sid] = why
        while len(self.gone) > GONE_KEPT:
            self.gone.popitem(last=False)


def gone_line(sid: str, why: str) -> str:
    return f"no hand {short(sid)} on this server: {why}; accepted: start a new hand"
