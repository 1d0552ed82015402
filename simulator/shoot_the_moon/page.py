"""Shoot the Moon's page parts for `moonshot serve` (found through the registry entry's `page`):
the pieces, the example hand, the replay's steps and the play adapter.

Play a Shoot the Moon round: the batch engine plays one deal with the built-in strategies, and
the person's seat is a strategy that asks the page (prompts hold only what shoot_the_moon.views
shows that seat: every card played is face up). Hints: the rollout player's mean chips for each
legal card (strategies/stm_search.py).

It imports web.play.common, the play base every game shares: page parts are the web layer's
plug-in kept with the game, imported only by the web layer (see simulator/moon/page.py).
"""
from __future__ import annotations

import numpy as np

from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.web.pieces import PALETTE
from moonshot.web.play import common

PIECE = "card"
HAND_SIZE, EXAMPLE = 5, "R12 R7 BM G3 P5"        # the README's example hand
REPEATS = True                                    # the deck holds two of some cards
FIXED_ORDERS = False                              # the seat orders follow the table size
KEYS: tuple = ()


# How each suit is printed (STM-1.1): colour, the suit's word and the mark drawn on the card.
SUIT_FACES = {"R": ("red", "rocket", "rocket"), "G": ("green", "crescent", "crescent"),
              "P": ("purple", "star", "star"), "B": ("blue", "full moon", "disc")}
MOON_FACES = {"BM": ("Big Moon", "+1"), "LM": ("Little Moon", "\u22121")}     # orange, marked +1 / -1


def pieces(players: int | None = None, rules=None) -> list[str]:
    """Every card of the deck (each name once): all 52 are dealt or in play at any table and rules."""
    return list(dict.fromkeys(deck.card_name(i) for i in range(deck.DECK_SIZE)))


def face(name: str) -> dict:
    """One card as static/pieces.js draws it (web/pieces.py): "red rocket 12", "Big Moon"."""
    card = deck.card_name(deck.parse_card(name))
    if card in MOON_FACES:
        label, rank = MOON_FACES[card]
        return {"name": card, "label": label, "kind": "card", "colour": PALETTE["orange"], "rank": rank,
                "suit": label.split()[0].lower(), "mark": "disc"}
    colour, word, mark = SUIT_FACES[card[0]]
    return {"name": card, "label": f"{colour} {word} {card[1:]}", "kind": "card", "colour": PALETTE[colour],
            "rank": card[1:], "suit": word.split()[-1], "mark": mark}


def steps(record: dict, shown: str) -> list[dict]:
    return [{"text": f"seat {s} plays {c}" if s < record["players"] else f"dummy plays {c}"}
            for s, c in record["plays"]]


def _seat(table, s: int) -> str:
    return "dummy" if table.dummy is not None and s == table.dummy else f"seat {s}"


class Human(common.Person):
    """The person's seat as a Shoot the Moon strategy: every play becomes a prompt."""

    @common.decision
    def play(self, view, rng):
        table, H = view.table, view.table.hands_dealt
        hand = [c for c, live in zip(view.hand[0], view.live[0]) if live]
        plays = [(int(s), int(c)) for s, c in zip(view.play_seats[0], view.play_cards[0]) if c >= 0]
        done = len(plays) - view.position
        tricks = [plays[i:i + H] for i in range(0, done, H)]
        now = plays[done:]
        facts = [("you play for", _seat(table, int(view.seat[0]))), ("your side", str(int(view.side[0]))),
                 ("trick", f"{int(view.trick_no) + 1} of 5"),
                 ("tricks won by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.tricks[0]))),
                 ("chips by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.chips[0]))),
                 ("this trick", ", ".join(f"{_seat(table, s)}: {deck.card_name(c)}" for s, c in now) or "you lead")]
        for i, t in enumerate(tricks):
            facts.append((f"trick {i + 1}", ", ".join(f"{_seat(table, s)}: {deck.card_name(c)}" for s, c in t)))
        choices = [{"value": int(i), "label": deck.card_name(int(view.hand[0][i]))} for i in np.flatnonzero(view.legal[0])]
        return self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view))


class StmHand(common.Hand):
    human = Human
    game = "shoot-the-moon"

    def __init__(self, setup, seat: int, seed: int):
        super().__init__(setup, seat, seed)
        self._rollout = None

    def tiles(self, hand) -> list[str]:
        return [deck.card_name(int(c)) for c in hand]

    def result_line(self, record: dict) -> str:
        side = record["sides"][self.seat]
        return (f"Chips by side after the round {record['chips_after']} (before {record['chips_before']}); "
                f"yours (side {side}): {record['chips_after'][side]}, with {record['tricks'][side]} trick(s).")

    def hint(self, view) -> dict:
        from moonshot.strategies.base import make_strategy
        if self._rollout is None:
            self._rollout = make_strategy("shoot-the-moon", "rollout")
        values = self._rollout.values(view, np.random.default_rng(self.seed))[0]
        rows = [{"move": deck.card_name(int(view.hand[0][i])), "value": float(values[i])}
                for i in np.flatnonzero(view.legal[0])]
        rows.sort(key=lambda r: -r["value"])
        return {"by": "rollout: 32 deals of the unseen cards that fit what your seat has seen, each played out "
                      "by the odd planner", "value": "your side's mean chip gain this round after the card "
                                                    "(higher is better)", "rows": rows}


ADAPTER = StmHand
