"""The Replay page's work: read an uploaded history file as data (never a path), check every
record with the game's own replay (the same as `moonshot replay`), and cut each hand into steps
(one per move) by the game's page parts (its registry entry's `page.steps`; a game with an exact
solver may give each play step the value of every legal move). Its review (POST /api/review) values
one hand's decisions by `moonshot review` and places each on the replay step it was taken at."""
from __future__ import annotations

import json
import re

from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import PERSON, replayed
from moonshot.web.play.common import faces, pieces_in

MAX_HANDS = 200        # hands shown from one file
QUICK_WORLDS = 8       # the page's "quick" review: a rough look in seconds


def read(data: bytes, name: str) -> dict:
    """The file's first MAX_HANDS hands, {hand_id, game, text (the replay), steps} each (the first
    also with its `tables` and `faces`: see `tables`), and how many
    hands it holds (`total`: its non-blank lines, one hand each), so the page can say what it left out."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{name}: not UTF-8 text; accepted: a JSON-lines file written by --history") from None
    hands = []
    for record, entry, shown in replayed(text.splitlines(), name):      # checked as `moonshot replay` does
        specs = record.get("strategies") if isinstance(record.get("strategies"), list) else []
        hands.append({"hand_id": record.get("hand_id"), "game": entry.name, "text": shown,
                      "steps": entry.page.steps(record, shown),
                      **(drawn(entry, record) if not hands else {}),      # the first hand's tables; others' on demand
                      # what the page's review sends back (POST /api/review checks it again) and offers
                      "record": record, "review": entry.review is not None, "players": record.get("players", len(specs)),
                      "people": [s for s, spec in enumerate(specs) if spec == PERSON]})
        if len(hands) >= MAX_HANDS:
            break
    if not hands:
        raise BadInput(f"{name}: no hands; accepted: a JSON-lines file written by --history")
    return {"hands": hands, "total": sum(1 for line in text.splitlines() if line.strip())}


def drawn(entry, record: dict) -> dict:
    """The table at the deal and after each step of a hand, by the game's page (none where it draws
    no table), and the faces of every piece on them."""
    make = getattr(entry.page, "tables", None)
    shown = make(record) if make else []
    return {"tables": shown, "faces": faces(entry.name, [p for t in shown for p in pieces_in(t)])}


def tables(record) -> dict:
    """One hand's tables and faces (POST /api/replay/tables: the Replay page asks when a hand other
    than the file's first is picked, so an upload of many hands stays small), its record checked
    again as for an upload: the page's copy is input like any other."""
    if not isinstance(record, dict):
        raise BadInput("record is not a hand; accepted: one hand's record as the Replay page read it")
    (checked, entry, _), = replayed([json.dumps(record)], "record")
    return drawn(entry, checked)


def review(record, seats: list[int], worlds: int | None, seed: int, jobs: int, progress):
    """`moonshot review` of one hand (its record as the page sent it), the decisions table with a
    `replay_step` column: the index in the hand's replay steps each decision was taken at (-1: not
    placed, the page lists it at the hand's end)."""
    from moonshot.analysis.review import review as run
    result = run([record], seats=seats or None, worlds=worlds, seed=seed, jobs=jobs, progress=progress)
    (checked, entry, shown), = replayed([json.dumps(record)], "record")
    table = result.tables["decisions"]
    every = _every_decision(entry, checked)
    steps = entry.page.steps(checked, shown)
    chosen = table[table["chosen"]]
    where = places([s["text"] for s in steps], list(zip(chosen["step"], chosen["seat"], chosen["option"])),
                   every)
    result.tables["decisions"] = table.assign(replay_step=[where.get(int(k), -1) for k in table["step"]])
    return result


def _every_decision(entry, record) -> int | None:
    """How many decisions every seat took in the hand (None where the game's hook cannot say)."""
    import importlib
    hook = importlib.import_module(entry.review)
    if not hasattr(hook, "decision_steps"):
        return None
    return len(hook.decision_steps(record, set(range(record["players"]))))


def places(texts: list[str], decisions: list[tuple[int, int, str]], every: int | None) -> dict[int, int]:
    """Decision step -> replay step for (step, seat, chosen option) decisions. Where the replay has
    one step per decision (`every` == its length) they are the same; else each decision goes to the
    first replay step at or after the previous one placed whose text names its seat and the option
    it took, or its verb (a game whose replay shows events besides decisions); one not found is left out."""
    if every is not None and every == len(texts):
        return {int(step): int(step) for step, _, _ in decisions if 0 <= step < len(texts)}
    out, at = {}, 0
    for step, seat, option in sorted(decisions):
        for i in range(at, len(texts)):
            words = re.findall(r"[^\s(),:;]+", texts[i])       # "pass" shows as "passes", "draw" as "draws"
            if re.search(rf"\bseat {int(seat)}\b", texts[i]) and {option, option + "s", option + "es"} & set(words):
                out[int(step)], at = i, i + 1
                break
    return out
