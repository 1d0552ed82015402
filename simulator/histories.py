"""Reading history files: every line read with bounds and its keys checked against HISTORY.md's
types (simulator/record_check.py), the hand checked by its game's replay, and the whole-games keys
checked against the rules.

A game's own `history.replay` checks one hand against its rules; GameThreads checks the whole-games
keys: each hand's scores_after is its scores_before plus the hand's result, game_over and winners
are what the rules give after it (each game's history.WHOLE_GAMES), a game's first hand starts
from the rules' starting scores, and the hands of a game follow on: hand_in_game counts up by one,
scores_before is the last hand's scores_after, the deal (or first bid) passes as the rules say, and
nothing follows the hand marked game_over."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from moonshot.simulator import record_check
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.record_check import GAME_KEYS, PERSON  # noqa: F401  (PERSON: pages use it)
from moonshot.simulator.record_types import UNKNOWN, Seating

__all__ = ["GAME_KEYS", "PERSON", "GameThreads", "common_keys", "replayed"]


@dataclass(frozen=True)
class _Last:
    """What a game's last hand read leaves for the next."""
    hand_in_game: int
    scores_after: list
    game_over: bool
    carry: Any                 # the game's own (Moon's side set last); UNKNOWN when not read
    next_hand: dict            # keys the next hand must have


class GameThreads:
    """The games met so far in one file (game_id -> its last hand), and the rules' check of each
    whole-games line. `follow=False` checks a line alone (one hand picked out of a file)."""

    def __init__(self) -> None:
        self.last: dict[int, _Last] = {}

    def check(self, record: dict, entry, seating: Seating, where: str, follow: bool = True) -> None:
        if "game_id" not in record:
            return                                   # a single hand, not part of a game
        hook = record_check.whole_games(entry)
        game, k = record["game_id"], record["hand_in_game"]
        before = self.last.get(game) if follow else None
        if before is not None:
            self._follows(record, before, where)
        elif hook is not None and k == 0 and record["scores_before"] != (start := hook.start(seating)):
            raise BadInput(f"{where}: the record breaks the rules: game {game}'s first hand has scores_before "
                           f"{short(record['scores_before'])}, the rules give {start} (the starting scores)")
        carry = before.carry if before is not None else None if k == 0 else UNKNOWN
        if hook is not None:
            carry = self._by_the_rules(record, hook, seating, carry, where)
        self.last[game] = _Last(k, record["scores_after"], record["game_over"], carry,
                                hook.next_hand(record, seating) if hook is not None else {})

    @staticmethod
    def _follows(record: dict, before: _Last, where: str) -> None:
        game, k = record["game_id"], record["hand_in_game"]
        if before.game_over:
            raise BadInput(f"{where}: game {game} goes on after the hand marked game_over")
        if k != before.hand_in_game + 1:
            raise BadInput(f"{where}: game {game}'s hand_in_game is {k}, the hand before it was {before.hand_in_game}; "
                           f"accepted: {before.hand_in_game + 1}")
        if record["scores_before"] != before.scores_after:
            raise BadInput(f"{where}: game {game}'s scores_before {short(record['scores_before'])} are not the last "
                           f"hand's scores_after {before.scores_after}")
        for key, want in before.next_hand.items():
            if record.get(key) != want:
                raise BadInput(f"{where}: the record breaks the rules: game {game}'s {key} is {short(record.get(key))} "
                               f"after the hand before, the rules give {want}")

    @staticmethod
    def _by_the_rules(record: dict, hook, seating: Seating, carry, where: str):
        """scores_after, game_over and winners as the rules give them after this (checked) hand."""
        for key, same in hook.same:
            if record[key] != record[same]:
                raise BadInput(f"{where}: the record breaks the rules: {key} is {short(record[key])}, "
                               f"{same} is {short(record[same])}; accepted: the same (HISTORY.md)")
        want = [a + b for a, b in zip(record["scores_before"], hook.change(record))]
        if record["scores_after"] != want:
            raise BadInput(f"{where}: the record breaks the rules: scores_after is {short(record['scores_after'])}, "
                           f"the rules give {want} (scores_before plus this hand's result)")
        outcomes, carry = hook.ends(record, seating, carry)
        said = record["winners"] if record["game_over"] else None
        capped = said == [] and None in outcomes and record["hand_in_game"] == hook.cap - 1
        if said not in outcomes and not capped:
            ends = [o for o in outcomes if o is not None]
            give = (f"winners {ends[0]}" if ends else "another hand") + (" or another hand" if None in outcomes and ends
                                                                         else "")
            has = f"winners {short(said)}" if record["game_over"] else "the game going on"
            cap = f"; a game stopped unfinished ends at the cap of {hook.cap:,} hands" if said == [] else ""
            raise BadInput(f"{where}: the record breaks the rules: it has {has} after scores_after "
                           f"{record['scores_after']}, the rules give {give} ({hook.rule(record)}{cap})")
        return carry


def common_keys(record: dict, where: str):
    """The registry entry of the record's game, the keys every game shares checked (record_check.common)."""
    return record_check.common(record, where)


def replayed(lines: Iterable[str], name: str, hand_id: int | None = None) -> Iterator[tuple[dict, object, str]]:
    """(record, game entry, replay text) for every record of a history file's `lines`, or only the
    one with `hand_id`: each line read with bounds, its keys checked against HISTORY.md's types, the
    hand checked by the game's replay, the whole-games keys by the rules (and, when every line is
    read, a game's hands checked to follow on); hand ids must be unique. BadInput names `name:line`.
    `moonshot replay`, `moonshot record`, the review and the web app's Replay page read through here."""
    games = GameThreads()
    seen: set[int] = set()
    for line_no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{name}:{line_no}"
        record = record_check.load(line, where)
        found = record.get("hand_id")
        if type(found) is int:
            if found in seen:
                raise BadInput(f"{where}: hand_id {found} is not accepted; accepted: a hand_id unique within the file "
                               "(HISTORY.md)")
            seen.add(found)
        if hand_id is not None and found != hand_id:
            continue
        entry, seating = record_check.check(record, where)
        shown = entry.replay(record, name, line_no)
        games.check(record, entry, seating, where, follow=hand_id is None)
        yield record, entry, shown
