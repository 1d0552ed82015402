"""Shoot the Moon's page parts for `moonshot serve` (found through the registry entry's `page`):
the pieces, the example hand, the replay's steps and the play adapter.

Play a Shoot the Moon round: the batch engine plays one deal with the built-in strategies, and
the person's seat is a strategy that asks the page (prompts hold only what shoot_the_moon.views
shows that seat: every card played is face up). Hints: each legal card valued as `moonshot review`
values it (analysis/hints.py over shoot_the_moon_review.value), in chips with 95% intervals.

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
    """One step per card."""
    return common.without_tables(_steps(record))


def tables(record: dict) -> list[dict]:
    """The table at the deal and after each card (every hand face up), for the Replay page."""
    return common.tables_of(_steps(record))


def _steps(record: dict) -> list[dict]:
    """The steps, each with the table it leaves (the first also with the deal's as `before`)."""
    P, you = record["players"], common.person_seat(record)
    held = [list(h) for h in record["hands"]]
    H, sides = len(held), list(record["sides"]) + [-1] * (len(held) - P)
    won = [0] * (max(sides) + 1)
    plays, winners = record["plays"], iter(record["trick_winners"])
    at = lambda **kw: table(P, you, sides, [list(h) for h in held], tricks=won, **kw)   # noqa: E731
    out = []
    for i, (s, c) in enumerate(plays):
        held[s].remove(c)
        trick = [tuple(p) for p in plays[i - i % H:i + 1]]
        words, to_move = "", plays[i + 1][0] if i + 1 < len(plays) else None
        if len(trick) == H:
            w = next(winners)
            if sides[w] >= 0:
                won[sides[w]] += 1
            words, to_move = f"{_seat(P, w, you)} win{'' if w == you else 's'} the trick", None
        last = i + 1 == len(plays)
        out.append({"text": f"{_seat(P, s)} plays {c}", "chapter": f"trick {i // H + 1}",
                    "table": at(trick=trick, trick_no=i // H, to_move=to_move, words=words,
                                chips=record["chips_after" if last else "chips_before"])})
    if out:
        out[0]["before"] = table(P, you, sides, record["hands"], tricks=[0] * len(won), trick_no=0, to_move=plays[0][0],
                                 chips=record["chips_before"], words="the deal")
    return out


def _seat(P: int, s: int, you: int | None = None) -> str:
    return "you" if s == you else "dummy" if s >= P else f"seat {s}"


def table(P: int, you: int | None, sides: list[int], held: list, *, trick=(), trick_no: int = 0,
          to_move: int | None = None, tricks: list[int], chips: list[int], words: str = "") -> dict:
    """The Play and Replay pages' table of a round (web.play.common.table): `held` per hand (the
    dummy's last) is a count, or the cards' names face up; `trick` (seat, card) in play order;
    `tricks` and `chips` by side; the dummy belongs to no side."""
    seats = []
    for s, h in enumerate(held):
        shown = h if isinstance(h, list) else None
        k = sides[s]
        tally = "" if k < 0 else (f"{tricks[k]} trick{'s' if tricks[k] != 1 else ''}, {chips[k]} chip{'s' if chips[k] != 1 else ''}"
                                  + (f" (side {k})" if len(tricks) < P else ""))
        seats.append(common.seat(s, _seat(P, s, you), side=None if k < 0 else k, held=len(shown) if shown is not None else h,
                                 you=s == you, leads=bool(trick) and s == trick[0][0], to_move=s == to_move,
                                 tally=tally, pieces=shown))
    lines = [("trick", f"{min(trick_no, 4) + 1} of 5")]
    if not words and not trick and to_move is not None:
        words = f"{_seat(P, to_move, you)} to lead"
    return common.table(PIECE, seats, [(s, c) for s, c in trick], words, lines)


class Human(common.Person):
    """The person's seat as a Shoot the Moon strategy: every play becomes a prompt."""

    @common.decision
    def play(self, view, rng):
        tbl = view.table
        H = tbl.hands_dealt
        hand = [c for c, live in zip(view.hand[0], view.live[0]) if live]
        plays = [(int(s), int(c)) for s, c in zip(view.play_seats[0], view.play_cards[0]) if c >= 0]
        done = len(plays) - view.position
        tricks = [plays[i:i + H] for i in range(0, done, H)]
        now = plays[done:]
        name = lambda s: _seat(tbl.players, s)          # noqa: E731
        facts = [("you play for", name(int(view.seat[0]))), ("your side", str(int(view.side[0]))),
                 ("trick", f"{int(view.trick_no) + 1} of 5"),
                 ("tricks won by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.tricks[0]))),
                 ("chips by side", ", ".join(f"side {k}: {int(v)}" for k, v in enumerate(view.chips[0]))),
                 ("this trick", ", ".join(f"{name(s)}: {deck.card_name(c)}" for s, c in now) or "you lead")]
        for i, t in enumerate(tricks):
            facts.append((f"trick {i + 1}", ", ".join(f"{name(s)}: {deck.card_name(c)}" for s, c in t)))
        choices = [{"value": int(i), "label": deck.card_name(int(view.hand[0][i]))} for i in np.flatnonzero(view.legal[0])]
        self.tell(plays, H, int(view.seat[0]), name)
        played = [sum(1 for s, _ in plays if s == x) for x in range(H)]
        shown = table(tbl.players, self.g.seat, [int(k) for k in tbl.side_of_seat], [5 - n for n in played],
                      trick=[(s, deck.card_name(c)) for s, c in now], trick_no=int(view.trick_no),
                      to_move=int(view.seat[0]), tricks=[int(v) for v in view.tricks[0]],
                      chips=[int(v) for v in view.chips[0]])
        return self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view), table=shown)


    def tell(self, plays: list[tuple[int, int]], H: int, mover: int, name) -> None:
        """The log, in words, of the plays since the person's last (theirs the prompt logs) and of
        who won each trick (the seat that leads the next, or the mover now)."""
        for i in range(self.g.told, len(plays)):
            s, c = plays[i]
            if i not in self.g.asked:
                self.g.log.append(f"{name(s)} plays {deck.card_name(c)}")
            if (i + 1) % H == 0:
                won = plays[i + 1][0] if i + 1 < len(plays) else mover
                self.g.log.append(f"{name(won)} won trick {(i + 1) // H}")
        self.g.told = len(plays)
        self.g.asked.add(len(plays))                   # the play asked for now: the prompt logs it


class StmHand(common.Hand):
    human = Human
    game = "shoot-the-moon"

    def tiles(self, hand) -> list[str]:
        return [deck.card_name(int(c)) for c in hand]

    def result_line(self, record: dict) -> str:
        side = record["sides"][self.seat]
        return (f"Chips by side after the round {record['chips_after']} (before {record['chips_before']}); "
                f"yours (side {side}): {record['chips_after'][side]}, with {record['tricks'][side]} trick(s).")

    def hint(self, view) -> dict:
        """The play valued as `moonshot review` values it (analysis.hints): every legal card played out
        to the round's end by the odd planner in every seat (the rollout player's play-outs), on worlds
        dealt from this seat's view, in the side's chips."""
        from moonshot.analysis import hints
        from moonshot.analysis import shoot_the_moon_review as review
        worlds = hints.worlds_for(self.setup.entry.review, getattr(self, "hint_worlds", None))
        step = int(view.trick_no) * view.table.hands_dealt + int(view.position)      # the round's plays so far
        table = self.setup.table      # chips from the round's start, as the review's record (view.chips has its Moons')
        d = review.value(view, table, self.seat, hints.HAND_ID, step, worlds, hints.SEED,
                         np.full(table.n_sides, table.rules.starting_chips), False, int(np.asarray(view.dealer)[0]))
        return hints.hint(d, "rollout", "Each card's value is your side's chips gained over the round (odd-planner "
                          "play-outs, as the rollout player values it).", worlds)


ADAPTER = StmHand
