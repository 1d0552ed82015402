"""A played hand as a link: everything that decides a hand on the Play page (its
table, rules, strategies, profiles, the person's seat, the seed and the person's answers) packed in
one token, base64url of a small JSON object, which the Replay page sends back to be played again
here (web.play.session's replay: the same seed and answers give the same hand) and shown as an
uploaded history would be.

The token comes from a browser, so it is read like any request: at most MAX_TOKEN characters,
exactly the expected keys and types, the table and strategies checked by the Play page's own form
checks (registered strategies only), and each answer checked against the choices of the decision it
answers. A bad token is one FieldError line (HTTP 400) before anything is shown."""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from moonshot.simulator.errors import BadInput, short
from moonshot.web import forms
from moonshot.web.forms import FieldError

MAX_TOKEN = 8192         # characters: room for a long Hit the Deck hand's answers
FIELD = "hand"           # the field a bad token is reported against
# the token's keys: the Play page's form fields (so forms.setup reads them) and the person's answers
LISTS = ("rules", "strategy", "profile")
KEYS = ("game", "players", "partners", *LISTS, "seat", "seed", "answers")
ACCEPTED = "a link copied from the Play page's \"Copy a link to this hand\""


def token(session) -> str:
    """The link's token of a played hand (web.play.session.Session)."""
    setup = session.adapter.setup
    data = {"game": session.game, "players": setup.players, "partners": setup.partners,
            "rules": list(setup.rule_args), "strategy": list(setup.strategy_specs),
            "profile": list(setup.profile_specs), "seat": session.seat, "seed": session.adapter.seed,
            "answers": list(session.answers)}
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def history(text: Any, limits: forms.Limits | None = None) -> tuple[str, str]:
    """The hand of a token played again: its file name and its history (one JSON line, as the Play
    page's download gives it). FieldError for anything that is not a good token of a whole hand
    (with `limits`, bots searching more worlds than the server's cap included)."""
    data = _read(text)
    from moonshot.web.play import adapter
    try:
        entry = forms.game_of(data["game"])
        setup = forms.setup(data, entry.name, partners_ok=True, limits=limits)
    except FieldError as exc:
        raise _bad(f"its {exc.field}: {exc}") from None
    if not 0 <= data["seat"] < setup.players:
        raise _bad(f"its seat {data['seat']} does not exist at {setup.players} players; "
                   f"accepted: 0..{setup.players - 1}")
    if not 0 <= data["seed"] <= forms.INT64[1]:
        raise _bad(f"its seed {data['seed']} is not accepted; accepted: 0 to 2**63-1")
    try:
        record = _replay(adapter(entry.name)(setup, data["seat"], data["seed"]), data["answers"])
    except BadInput as exc:
        raise _bad(str(exc)) from None
    return f"{entry.name}-hand-{data['seed']}.jsonl", json.dumps(record) + "\n"


class _Refused(BaseException):
    """An answer that does not fit its decision: ends the replay (a BaseException, so no engine's or
    strategy's `except Exception` can swallow it; cf. web.play.session._Paused)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _replay(hand, answers: list) -> dict:
    """The hand played with `answers` at the person's decisions, each checked against its decision's
    choices; every answer must be used and the hand must end."""
    from moonshot.web.play.session import check
    given = iter(enumerate(answers, 1))

    def ask(prompt: dict) -> Any:
        n, choice = next(given, (None, None))
        if n is None:
            raise _Refused(f"its {len(answers)} answer(s) end before the hand does (decision {len(answers) + 1}: "
                           f"{prompt['title']}); accepted: {ACCEPTED}, once the hand is over")
        try:
            check(prompt, choice)
        except BadInput as exc:
            raise _Refused(f"answer {n} ({prompt['title']}): {exc}") from None
        return choice
    try:
        record = hand.play(ask)
    except _Refused as no:
        raise BadInput(no.message) from None
    left = sum(1 for _ in given)
    if left:
        raise BadInput(f"the hand ends with {left} of its {len(answers)} answers unused; accepted: {ACCEPTED}")
    return record


def _bad(why: str) -> FieldError:
    return FieldError(FIELD, f"hand link: {why}")


def _read(text: Any) -> dict:
    """The token's object, its values of the expected types (what they mean is checked after)."""
    if not isinstance(text, str) or not text.strip():
        raise _bad(f"{short(text)} is not a token; accepted: {ACCEPTED}")
    text = text.strip()
    if len(text) > MAX_TOKEN:
        raise _bad(f"{len(text):,} characters is too long; accepted: at most {MAX_TOKEN:,}, {ACCEPTED}")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        data = json.loads(raw.decode("utf-8"), parse_constant=lambda name: _no(name))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        raise _bad(f"{short(text, 30)} is not a token (base64url of a JSON object); accepted: {ACCEPTED}") from None
    if not isinstance(data, dict):
        raise _bad(f"{short(data)} is not a JSON object; accepted: {ACCEPTED}")
    if sorted(data) != sorted(KEYS):
        raise _bad(f"its keys {short(sorted(data))} are not accepted; accepted: {', '.join(KEYS)}")
    try:
        for key, value in data.items():
            forms.bounded(value, key)               # numbers within int64 and finite, at any depth
    except FieldError as exc:
        raise _bad(f"its {exc}") from None
    whole = lambda v: isinstance(v, int) and not isinstance(v, bool)      # noqa: E731
    wrong = [k for k, ok in (("game", isinstance(data["game"], str)), ("players", whole(data["players"])),
                             ("partners", isinstance(data["partners"], bool)), ("seat", whole(data["seat"])),
                             ("seed", whole(data["seed"])),
                             *((k, isinstance(data[k], list) and all(isinstance(v, str) for v in data[k]))
                               for k in LISTS),
                             ("answers", isinstance(data["answers"], list) and all(
                                 whole(v) or isinstance(v, float) for v in data["answers"])))
             if not ok]
    if wrong:
        k = wrong[0]
        raise _bad(f"its {k} {short(data[k])} is not accepted; accepted: "
                   + {"game": "a game's name", "partners": "true or false", "answers": "a list of numbers"}.get(
                       k, "a list of texts" if k in LISTS else "a whole number"))
    return data


def _no(name: str):
    raise ValueError(name)               # NaN, Infinity: not JSON
