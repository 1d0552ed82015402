"""The toy game's `moonshot review` hook: each seat's one choice (which of its two cards to play),
valued on worlds of the other hands it cannot see, as the real games' hooks value theirs.

Every seat plays at once without seeing the others' cards, so a world deals each other seat two
cards of 0..9 and lets it play as its record's strategy plays (`high` or `random`); an option's
outcome is the seat's whole result of the hand: the hand it takes (1 when its card alone is highest)
less the others' mean."""
import numpy as np

from moonshot.analysis.luck import setup_of
from moonshot.analysis.review import Decision, Sizes, decision_rng, whole_result
from moonshot.strategies.base import registered
from tests.toy_game import engine
from tests.toy_game.rules import parse_rules

UNIT = "hands"
SIZES = Sizes(0.05, 0.15, 0.3, "toy hands taken: 0.05, 0.15 and 0.3 of a hand")
WORLDS = 64
HOW = ("Toy high card: each card the seat holds played against the other seats' cards dealt at random, the "
       "others playing as their records' strategies; values are the seat's whole result of the hand: the hand "
       "it takes less the others' mean, higher is better.")


def _rules(record: dict):
    return parse_rules([f"{k}={v}" for k, v in record["rules"].items()])


def decisions(record: dict, seats: set, worlds: int, seed: int, progress=None, steps=None) -> list:
    players, hand_id = int(record["players"]), int(record["hand_id"])
    table = engine.Table(players, _rules(record))
    out = []
    for seat in sorted(seats):
        rng = decision_rng(seed, hand_id, seat)
        hand = record["hands"][seat]
        options = [str(c) for c in dict.fromkeys(sorted(hand, reverse=True))]
        hands = rng.integers(0, 10, (worlds, players, 2))
        hands[:, seat] = hand
        outcomes = np.zeros((worlds, len(options)))
        for k, card in enumerate(options):
            lineup = [_Fixed(int(card)) if s == seat else registered("toy-high-card")[record["strategies"][s]]()
                      for s in range(players)]
            res = engine.play(table, worlds, lineup, None, np.random.default_rng([seed, hand_id, seat]), hands=hands)
            outcomes[:, k] = whole_result(res.score, seat)
        yard = {"high": 0}                               # the higher card comes first
        out.append(Decision(hand_id=hand_id, seat=seat, step=seat, kind="play", options=options,
                            chosen=options.index(str(record["played"][seat])),
                            outcomes=outcomes if len(options) > 1 else np.zeros((0, 1)), unit=UNIT,
                            yardstick=yard, sizes=SIZES, where="play"))
        if progress is not None:
            progress(len(out), len(seats))
    return out


class _Fixed:
    """The reviewed seat playing the option's card (its hand holds it)."""

    def __init__(self, card: int):
        self.card = card

    def play(self, view, rng):
        return np.argmax(view.hand == self.card, axis=1)


def result(record: dict, seat: int) -> float:
    score = np.array([1.0 if record["winner"] == s else 0.0 for s in range(int(record["players"]))])
    return float(whole_result(score, seat))


def results(table, res) -> tuple[np.ndarray, np.ndarray]:
    score = res.score.astype(float)
    values = np.stack([whole_result(score, s) for s in range(table.players)], axis=1)
    return values, np.zeros(len(score), dtype=np.int64)


def position(record: dict, seat: int) -> int:
    return seat


def setup(record: dict):
    return setup_of("toy-high-card", int(record["players"]), _rules(record))


def step_count(record: dict) -> int:
    return int(record["players"])
