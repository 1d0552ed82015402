"""The Replay page's work: read an uploaded history file as data (never a path), check every
record with the game's own replay (the same as `moonshot replay`), and cut each hand into steps
(one per move) by the game's page parts (its registry entry's `page.steps`; a game with an exact
solver may give each play step the value of every legal move)."""
from __future__ import annotations

from moonshot.simulator.errors import BadInput
from moonshot.simulator.histories import replayed

MAX_HANDS = 200        # hands shown from one file


def read(data: bytes, name: str) -> dict:
    """The file's first MAX_HANDS hands, {hand_id, game, text (the replay), steps} each, and how many
    hands it holds (`total`: its non-blank lines, one hand each), so the page can say what it left out."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{name}: not UTF-8 text; accepted: a JSON-lines file written by --history") from None
    hands = []
    for record, entry, shown in replayed(text.splitlines(), name):      # checked as `moonshot replay` does
        hands.append({"hand_id": record.get("hand_id"), "game": entry.name, "text": shown,
                      "steps": entry.page.steps(record, shown)})
        if len(hands) >= MAX_HANDS:
            break
    if not hands:
        raise BadInput(f"{name}: no hands; accepted: a JSON-lines file written by --history")
    return {"hands": hands, "total": sum(1 for line in text.splitlines() if line.strip())}
