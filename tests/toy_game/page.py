"""The toy game's page parts for `moonshot serve`, found through its registry entry like the real
games' (web/games/<game>.py): with the toy game registered, every page serves it and a toy
hand plays to the end through the play API."""
import numpy as np

from moonshot.web.play import common

PIECE = "card"
HAND_SIZE, EXAMPLE = 2, "3 9"
REPEATS = True                  # both cards may be the same number
FIXED_ORDERS = True
KEYS: tuple = ()


def pieces(players=None, rules=None) -> list[str]:
    return [str(c) for c in range(10)]


def steps(record: dict, shown: str) -> list[dict]:
    return [{"text": f"seat {s} plays {c}"} for s, c in enumerate(record["played"])]


class Human(common.Person):
    @common.decision
    def play(self, view, rng):
        hand = [int(c) for c in view.hand[0]]
        choices = [{"value": i, "label": str(c)} for i, c in enumerate(hand)]
        return self.g.ask("play", "Your card", hand, [("your seat", str(self.g.seat))], choices)


class ToyHand(common.Hand):
    human = Human
    game = "toy-high-card"

    def tiles(self, hand) -> list[str]:
        return [str(int(c)) for c in np.asarray(hand)]

    def result_line(self, record: dict) -> str:
        winner = record["winner"]
        return "nobody took the hand (a tie)" if winner < 0 else f"seat {winner} took the hand"


ADAPTER = ToyHand
