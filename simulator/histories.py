"""What every game's history file shares: the whole-games keys of HISTORY.md, checked across lines.

A game's own `history.replay` checks one hand against its rules; this checks that the hands of a
game follow on: hand_in_game counts 0, 1, 2, ..., each hand's scores_before is the previous hand's
scores_after, and nothing follows the hand marked game_over (which alone names the winners)."""
from __future__ import annotations

import json
from typing import Iterable, Iterator

from moonshot.simulator.errors import BadInput

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


def replayed(lines: Iterable[str], name: str, hand_id: int | None = None) -> Iterator[tuple[dict, object, str]]:
    """(record, game entry, replay text) for every record of a history file's `lines`, or only the
    one with `hand_id`: each line parsed, its game found and the hand checked by the game's replay,
    and (when every line is read) a game's hands checked to follow on. BadInput names `name:line`.
    `moonshot replay` and the web app's Replay page both read files through here."""
    from moonshot.simulator.games import get
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
        if hand_id is None:
            games.check(record, f"{name}:{line_no}")
        elif record.get("hand_id") != hand_id:
            continue
        try:
            entry = get(str(record.get("game")))
        except BadInput as exc:
            raise BadInput(f"{name}:{line_no}: {exc}") from None
        yield record, entry, entry.replay(record, name, line_no)
