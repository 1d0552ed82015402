"""The toy game's hand histories: one JSON line per hand, replayed and checked."""
import json

from moonshot.simulator.errors import BadInput
from tests.toy_game.rules import parse_rules


def records(res, table, specs, seed, first_id):
    return [json.dumps({"game": "toy-high-card", "format": 1, "hand_id": first_id + i, "seed": seed,
                        "players": table.players, "sides": list(range(table.players)), "strategies": list(specs),
                        "rules": table.rules.as_dict(), "hands": res.hands[i].tolist(),
                        "played": res.played[i].tolist(), "winner": int(res.winner[i])})
            for i in range(len(res.winner))]


def replay(record: dict, path: str = "history", line: int = 0) -> str:
    parse_rules([f"{k}={v}" for k, v in record["rules"].items()])
    for seat, (hand, card) in enumerate(zip(record["hands"], record["played"])):
        if card not in hand:
            raise BadInput(f"{path}:{line}: seat {seat} played {card}, not in its hand {hand}")
    top = max(record["played"])
    winner = record["played"].index(top) if record["played"].count(top) == 1 else -1
    if winner != record["winner"]:
        raise BadInput(f"{path}:{line}: the record says seat {record['winner']} took the hand; the rules say {winner}")
    return f"hand {record['hand_id']}: played {record['played']}, taken by seat {winner}"
