"""The Replay page's work: read an uploaded history file as data (never a path), check every
record with the game's own replay (the same as `moonshot replay`), and cut each hand into steps
(one per move) by the game's page parts (its registry entry's `page.steps`; a game with an exact
solver may give each play step the value of every legal move). Its review (POST /api/review) values
one hand's decisions by `moonshot review` and places each on the replay step it was taken at."""
from __future__ import annotations

import importlib
import json

from moonshot.analysis.luck import higher_better
from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import PERSON, replayed
from moonshot.web.play.common import faces, person_seat, pieces_in

MAX_HANDS = 200        # hands shown from one file
QUICK_WORLDS = 8       # the page's "quick" review: a rough look in seconds


def read(data: bytes, name: str) -> dict:
    """The file's first MAX_HANDS hands, {hand_id, game, text (the replay), steps, result} each (the first
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
                      "steps": entry.page.steps(record, shown), "result": result_of(entry, record),
                      **(drawn(entry, record) if not hands else {}),      # the first hand's tables; others' on demand
                      # what the page's review sends back (POST /api/review checks it again) and offers
                      "record": record, "review": entry.review is not None,
                      "players": record.get("players", len(specs)),
                      "people": [s for s, spec in enumerate(specs) if spec == PERSON]})
        if len(hands) >= MAX_HANDS:
            break
    if not hands:
        raise BadInput(f"{name}: no hands; accepted: a JSON-lines file written by --history")
    return {"hands": hands, "total": sum(1 for line in text.splitlines() if line.strip())}


def result_of(entry, record: dict) -> str:
    """The hand's result in a sentence, as the Play page ends a hand (the game's page's
    result_sentence, from the seat a person played, else every seat's view): the Replay page's end."""
    say = getattr(entry.page, "result_sentence", None)
    return say(record, person_seat(record)) if say else ""


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
    """`moonshot review` of one hand (its record as the page sent it), each table of decisions with a
    `replay_step` column: the index in the hand's replay steps each decision was taken at (the table
    shown is the one the seat chose at; -1: not placed, the page lists it at the hand's end). Beside
    them for the page: `errors` (the errors biggest loss first, each loss in the review's words) and,
    where the review values the hand step by step, `values` placed on the replay's steps too."""
    from moonshot.analysis.review import review as run
    result = run([record], seats=seats or None, worlds=worlds, seed=seed, jobs=jobs, progress=progress)
    (checked, entry, shown), = replayed([json.dumps(record)], "record")
    count = len(entry.page.steps(checked, shown))
    place = placer(entry, checked, count)
    tables = result.tables
    said = option_words(entry)
    d, st = tables["decisions"], tables["steps"]
    if "option" in d:
        tables["decisions"] = d.assign(option=[said(k, o) for k, o in zip(d["kind"], d["option"])])
    if "chosen" in st:
        tables["steps"] = st.assign(chosen=[said(k, o) for k, o in zip(st["kind"], st["chosen"])],
                                    best=[said(k, o) for k, o in zip(st["kind"], st["best"])])
    for name in ("decisions", "steps"):
        if "step" in tables[name]:
            tables[name] = tables[name].assign(replay_step=[place(s) for s in tables[name]["step"]])
    by = str(result.meta.get("valued_by", ""))
    tables["errors"] = error_lines(tables["steps"], by)
    if "values" in tables and "step" in tables["values"]:
        tables["values"] = value_points(tables["values"], place, count).assign(
            unit=importlib.import_module(entry.review).UNIT, better="higher" if higher_better(entry.name) else "lower")
    return result


def option_words(entry):
    """(decision kind, option in notation) -> the option as the page names it: the game's page's
    option_words, else the piece's face label, else the option as written ("pass", "draw", "5")."""
    page = entry.page
    own = getattr(page, "option_words", None)
    face = getattr(page, "face", None)

    def said(kind: str, option: str) -> str:
        try:
            return own(kind, option) if own else face(option)["label"] if face else option
        except (BadInput, KeyError, ValueError, IndexError):
            return option
    return said


def placer(entry, record: dict, count: int):
    """Decision step -> the replay step it was taken at, by its turn index alone (never by the
    option's text: a drawn card and the play after it name the same card): the game's page gives
    each decision's step where its replay shows more than decisions (`decision_places`); else each
    decision is its own replay step. -1 for a step the replay does not have."""
    make = getattr(entry.page, "decision_places", None)
    at = make(record) if make else range(count)

    def place(step) -> int:
        step = int(step)
        return int(at[step]) if 0 <= step < len(at) and 0 <= at[step] < count else -1
    return place


def error_lines(steps, valued_by: str):
    """The review's errors biggest loss first (its `errors`), each line's loss in its words ('1.6
    [0.6, 2.6] points'), with the replay step to jump to."""
    import pandas as pd

    from moonshot.analysis.review import WIN, errors
    from moonshot.reports.review import loss_text
    wrong = errors(steps) if len(steps) else steps
    cols = ["seat", "where", "chosen", "best", "loss", "loss_low", "loss_high", "verdict", "step", "replay_step"]
    if not len(wrong):
        return pd.DataFrame(columns=cols + ["loss_text"])
    words = [f"{loss_text(r, valued_by)} {'of P(win)' if valued_by == WIN else valued_by}"
             for r in wrong.to_dict("records")]
    return wrong[cols].assign(loss_text=words).reset_index(drop=True)


def value_points(values, place, count: int):
    """The review's values (the seat's expected result at the deal, after each of its decisions, and
    its actual result) with the replay step each belongs to: the deal's ("dealt") at 0, a decision's
    where it was taken, the result ("result") at the hand's end (`count`), and each value with its
    interval in words for the graph's text alternative."""
    from moonshot.analysis.words import with_interval
    steps = [0 if w == "dealt" else count if w == "result" else place(s)
             for w, s in zip(values["where"], values["step"])]
    words = [with_interval(r, "value", signed=False) for r in values.to_dict("records")]
    return values.assign(replay_step=steps, value_text=words)
