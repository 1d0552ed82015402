"""What every game's history file shares: the whole-games keys of HISTORY.md, checked across lines.

A game's own `history.replay` checks one hand against its rules; this checks that the hands of a
game follow on: hand_in_game counts 0, 1, 2, ..., each hand's scores_before is the previous hand's
scores_after, and nothing follows the hand marked game_over (which alone names the winners)."""
from __future__ import annotations

import json
import re
from typing import Iterable, Iterator

from moonshot.simulator.errors import BadInput, short

GAME_KEYS = ("game_id", "hand_in_game", "scores_before", "scores_after", "game_over")


class GameThreads:
    """The games met so far in one file: game_id -> (hand_in_game, scores_after, game_over)."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[int, list, bool]] = {}

    def check(self, record: dict, where: str) -> None:
        if "game_id" not in record:
            return                                   # a single hand, not part of a game
        missing = [k for k in GAME_KEYS if k not in record]
        if missing:
            raise BadInput(f"{where}: a whole-games line lacks {', '.join(missing)}; accepted: HISTORY.md's keys")
        game, k = record["game_id"], record["hand_in_game"]
        before = self.last.get(game)
        want = 0 if before is None else before[0] + 1
        if before is not None and before[2]:
            raise BadInput(f"{where}: game {game} goes on after the hand marked game_over")
        if k != want:
            raise BadInput(f"{where}: game {game}'s hand_in_game is {k}, the hand before it was {want - 1}; "
                           f"accepted: {want}")
        if before is not None and record["scores_before"] != before[1]:
            raise BadInput(f"{where}: game {game}'s scores_before {record['scores_before']} are not the last hand's "
                           f"scores_after {before[1]}")
        if ("winners" in record) != bool(record["game_over"]):
            raise BadInput(f"{where}: winners belong on the game's last hand (game_over), and only there")
        self.last[game] = (k, record["scores_after"], bool(record["game_over"]))


# What a strategy spec of a record may read: a registered name (the play page's seat: "person",
# web/play/common.PERSON) with k=v parameters, or a plugin's path/to/file.py:Class. No markup
# character (< > & " ' `) gets through: pages show these values.
PERSON = "person"
SAFE_SPEC = re.compile(r"^[\w .:=,/\\+\-()\[\]@~]{1,200}$")
WHOLE = {"hand_id": "an integer, unique within the file", "format": "1", "players": "a seat count",
         "seed": "the run's seed, an integer >= 0", "game_id": "an integer", "hand_in_game": "an integer"}


def common_keys(record: dict, where: str):
    """The registry entry of the record's game, or BadInput naming the first key every game
    shares (HISTORY.md "Common keys") whose value is not of its kind: integers where integers
    belong, strategy specs from the known sets. A game's replay checks its own keys."""
    from moonshot.simulator.games import GAMES
    from moonshot.strategies.base import registered

    def bad(key: str, value, accepted: str) -> BadInput:
        return BadInput(f"{where}: {key} {short(value)} is not accepted; accepted: {accepted} (HISTORY.md)")
    game = record.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise bad("game", game, f"one of {', '.join(GAMES)}")
    for key, accepted in WHOLE.items():
        value = record.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0 or (key == "format" and value != 1):
            raise bad(key, value, accepted)
    sides = record.get("sides", [])
    if not isinstance(sides, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in sides):
        raise bad("sides", sides, "a list of side numbers, one per seat")
    specs = record.get("strategies", [])
    known = {PERSON, *registered(game)}
    for spec in specs if isinstance(specs, list) else [specs]:
        head = spec.split(":", 1)[0].strip() if isinstance(spec, str) else ""
        if not (isinstance(spec, str) and SAFE_SPEC.match(spec) and (head in known or head.endswith(".py"))):
            raise bad("strategies", spec, f"a list of specs: {', '.join(sorted(known))} (with :k=v), or "
                                          "path/to/file.py:Class, without markup characters")
    return GAMES[game]


def replayed(lines: Iterable[str], name: str, hand_id: int | None = None) -> Iterator[tuple[dict, object, str]]:
    """(record, game entry, replay text) for every record of a history file's `lines`, or only the
    one with `hand_id`: each line parsed, its game found and the hand checked by the game's replay,
    and (when every line is read) a game's hands checked to follow on. BadInput names `name:line`.
    `moonshot replay` and the web app's Replay page both read files through here."""
    games = GameThreads()
    for line_no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadInput(f"{name}:{line_no}: not JSON ({exc.msg}); accepted: JSON lines as in HISTORY.md") from None
        if not isinstance(record, dict):
            raise BadInput(f"{name}:{line_no}: not a JSON object; accepted: JSON lines as in HISTORY.md")
        if hand_id is not None and record.get("hand_id") != hand_id:
            continue
        entry = common_keys(record, f"{name}:{line_no}")
        if hand_id is None:
            games.check(record, f"{name}:{line_no}")
        yield record, entry, entry.replay(record, name, line_no)
