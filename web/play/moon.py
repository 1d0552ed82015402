"""Play a Moon hand: the batch engine plays one deal with the built-in strategies, and the person's
seat is a strategy that asks the page (prompts hold only what moon.views shows that seat).
Hints: the pimc player's expected score of every legal play (strategies/moon_search.py)."""
from __future__ import annotations

import numpy as np

from moonshot.analysis.common import Setup
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.views import BID_VALUES
from moonshot.web.play import common

TRUMPS = [dominoes.trump_name(t) for t in range(9)]


def _bid_label(b: int) -> str:
    return "pass" if b == 0 else str(b)


class Human(common.Person):
    """The person's seat as a Moon strategy: every decision becomes a prompt."""

    @common.decision
    def bid(self, view, rng):
        calls = view.bids[0]
        facts = [("your seat", str(self.g.seat)), ("bids so far", ", ".join(
            f"seat {s}: {_bid_label(int(c))}" for s, c in enumerate(calls) if c >= 0) or "none yet")]
        choices = [{"value": int(b), "label": _bid_label(int(b))} for b, ok in zip(BID_VALUES, view.legal[0]) if ok]
        return self.g.ask("bid", "Your bid", view.hand[0], facts, choices, hint=lambda: self.g.bid_hint(view))

    @common.decision
    def discard(self, view, rng):
        facts = [("contract", f"you bid {int(view.bid[0])}"), ("widow", f"{dominoes.tile_name(int(view.hand[0][7]))} "
                                                                          "(taken into your hand)")]
        choices = [{"value": i, "label": dominoes.tile_name(int(t))} for i, t in enumerate(view.hand[0])]
        return self.g.ask("discard", "Discard one tile", view.hand[0], facts, choices)

    @common.decision
    def trump(self, view, rng):
        facts = [("contract", f"you bid {int(view.bid[0])}")]
        choices = [{"value": int(t), "label": TRUMPS[int(t)]} for t in np.flatnonzero(view.legal[0])]
        return self.g.ask("trump", "Name trump", view.hand[0], facts, choices)

    @common.decision
    def play(self, view, rng):
        hand = [t for t, live in zip(view.hand[0], view.live[0]) if live]
        trick = [f"seat {int(s)}: {dominoes.tile_name(int(t))}" for t, s in zip(view.trick[0], view.trick_seats[0]) if t >= 0]
        played = [dominoes.tile_name(t) for t in np.flatnonzero(view.seen[0])]
        facts = [("trump", TRUMPS[int(view.trump[0])]),
                 ("contract", f"seat {int(view.bidder[0])} bid {int(view.bid[0])}"),
                 ("tricks won by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.tricks[0]))),
                 ("your side", str(int(view.side[0]))), ("trick", f"{int(view.trick_no) + 1} of 7"),
                 ("this trick", ", ".join(trick) or "you lead"),
                 ("played before", " ".join(played) or "nothing yet")]
        choices = [{"value": int(i), "label": dominoes.tile_name(int(view.hand[0][i]))} for i in np.flatnonzero(view.legal[0])]
        return self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view))

    @common.decision
    def call_end(self, view, slot, rng):
        tile = int(view.hand[0][slot[0]])
        choices = [{"value": int(e), "label": f"call {int(e)}s"} for e in dominoes.ends(tile)]
        return self.g.ask("call", f"Which end of {dominoes.tile_name(tile)} do you call?", view.hand[0], [], choices)


class MoonHand(common.Hand):
    human = Human
    game = "moon"

    def __init__(self, setup: Setup, seat: int, seed: int):
        super().__init__(setup, seat, seed)
        self._pimc = None

    def tiles(self, hand) -> list[str]:
        return [dominoes.tile_name(int(t)) for t in hand]


    @property
    def pimc(self):
        from moonshot.strategies.base import make_strategy
        if self._pimc is None:
            self._pimc = make_strategy("moon", "pimc")
        return self._pimc

    def bid_hint(self, view) -> dict:
        """pimc's expected score of every legal bid, with the best of the trumps it searched."""
        searched = self.pimc.bid_values(view, 0, np.random.default_rng(self.seed))
        if searched is None:
            return {"by": "pimc", "value": "its rough trick estimate falls short of every bid left: it passes "
                    "without searching", "rows": [{"move": "pass", "value": 0.0}]}
        best: dict[int, tuple[float, int]] = {}
        for t, b, v in searched[0]:
            if b not in best or v > best[b][0]:
                best[b] = (v, t)
        rows = [{"move": f"{_bid_label(b)} (trump {TRUMPS[t]})", "value": v} for b, (v, t) in best.items()]
        rows.sort(key=lambda r: -r["value"])
        return {"by": "pimc: 32 deals of the unseen tiles (the widow taken where there is one), each solved exactly",
                "value": f"your expected points this hand if you win the contract at that bid (it bids the best "
                         f"when that reaches {self.pimc.min_gain:g} point, else passes)", "rows": rows}

    def hint(self, view) -> dict:
        """pimc's expected score for the bidder after each legal play (32 dealt worlds)."""
        moves, score, bidder_side = self.pimc.move_values(view, 0, np.random.default_rng(self.seed))
        rows = [{"move": dominoes.tile_name(t) + (f" calling {e}" if e is not None else ""), "value": float(v)}
                for (t, e), v in zip(moves, score)]
        rows.sort(key=lambda r: -r["value"] if bidder_side else r["value"])
        return {"by": "pimc: 32 deals of the unseen tiles that fit what your seat has seen, each solved exactly",
                "value": "the bidder's expected points this hand after the play"
                         + (" (your side bid: higher is better)" if bidder_side else " (you defend: lower is better)"),
                "rows": rows}
