"""Shoot the Moon's page parts for `moonshot serve` (found through the registry entry's `page`):
the pieces, the example hand, the replay's steps and the play adapter.

Play a Shoot the Moon round: the batch engine plays one deal with the built-in strategies, and
the person's seat is a strategy that asks the page (prompts hold only what shoot_the_moon.views
shows that seat: every card played is face up). Hints: each legal card valued as `moonshot review`
values it (analysis/hints.py over shoot_the_moon_review.value), in chips with 95% intervals.
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
    """One card as static/pieces.js draws it (web/pieces.py): named as a player says it, "red 12",
    "Big Moon" (the colour names the suit; the card shows its suit's word and mark)."""
    card = deck.card_name(deck.parse_card(name))
    if card in MOON_FACES:
        label, rank = MOON_FACES[card]
        return {"name": card, "label": label, "kind": "card", "colour": PALETTE["orange"], "rank": rank,
                "suit": label.split()[0].lower(), "mark": "disc"}
    colour, word, mark = SUIT_FACES[card[0]]
    return {"name": card, "label": f"{colour} {card[1:]}", "kind": "card", "colour": PALETTE[colour],
            "rank": card[1:], "suit": word.split()[-1], "mark": mark}


def said(card: str | int) -> str:
    """A card in a player's words ("red 5", "Big Moon"): the log, the facts and the choices."""
    return face(card if isinstance(card, str) else deck.card_name(int(card)))["label"]


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
    out, last = [], None
    for i, (s, c) in enumerate(plays):
        held[s].remove(c)
        trick = [tuple(p) for p in plays[i - i % H:i + 1]]
        words, to_move, no = "", plays[i + 1][0] if i + 1 < len(plays) else None, i // H
        done = i + 1 == len(plays)
        if len(trick) == H:
            w = next(winners)
            if sides[w] >= 0:
                won[sides[w]] += 1
            who = _seat(P, w, you)                   # the next trick's table: "trick 3" opens on "3 of 5"
            words = common.does(who, "win", "wins") + (" the trick" if done else f" trick {no + 1} and "
                                                 f"{common.does(who, 'lead', 'leads').split()[-1]} trick {no + 2}")
            no, to_move = (no, None) if done else (no + 1, to_move)
        out.append({"text": f"{_seat(P, s)} plays {said(c)}", "chapter": f"trick {i // H + 1}",
                    "table": at(trick=trick, trick_no=no, to_move=to_move, words=words, last=last,
                                chips=record["chips_after" if done else "chips_before"])})
        if words:
            last = (trick, w)
    if out:
        out[0]["before"] = table(P, you, sides, record["hands"], tricks=[0] * len(won), trick_no=0, to_move=plays[0][0],
                                 chips=record["chips_before"], words="the deal")
    return out


def end_table(record: dict, you: int | None) -> dict:
    """The table as the round ended (the Play page keeps it on screen): the last trick and its winner,
    the trick before it on request, each side's tricks and chips after the round."""
    return _steps(record)[-1]["table"]


def _seat(P: int, s: int, you: int | None = None) -> str:
    return "you" if s == you else "the dummy" if s >= P else f"seat {s}"


def _side(k: int, sides: list[int], P: int, you: int | None) -> str:
    """A side in words: its one seat ("you", "seat 2"), else "your side" or "seats 1 and 3"."""
    seats = [s for s in range(P) if sides[s] == k]
    if len(seats) == 1:
        return _seat(P, seats[0], you)
    if you in seats:
        return "your side"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def result_sentence(record: dict, you: int | None) -> str:
    """The round's outcome in a sentence from the record's numbers: "You took 3 tricks: +1 chip
    (3 chips now); seat 1 took 2 tricks: 0 chips (2 chips now); ..." (your side first)."""
    P, sides = record["players"], record["sides"]
    before, after, tricks = record["chips_before"], record["chips_after"], record["tricks"]
    order = sorted(range(len(tricks)), key=lambda k: (you is None or sides[you] != k, k))
    parts = []
    for k in order:
        gain = after[k] - before[k]
        chips = f"{gain:+d} chip{'' if abs(gain) == 1 else 's'}" if gain else "0 chips"
        parts.append(f"{_side(k, sides, P, you)} took {common.count(tricks[k], 'trick')}: {chips} "
                     f"({common.count(after[k], 'chip')} now)")
    text = "; ".join(parts)
    head = "The round was annulled for a revoke (STM-11.3): " if record.get("annulled") else ""
    return head + (text[0].upper() + text[1:] if not head else text) + "."


def table(P: int, you: int | None, sides: list[int], held: list, *, trick=(), trick_no: int = 0,
          to_move: int | None = None, tricks: list[int], chips: list[int], words: str = "",
          last: tuple[list, int] | None = None) -> dict:
    """The Play and Replay pages' table of a round (web.play.common.table): `held` per hand (the
    dummy's last) is a count, or the cards' names face up; `trick` (seat, card) in play order;
    `tricks` and `chips` by side; the dummy belongs to no side; `last` the trick before this one
    ((seat, card) in play order, its winner), shown on request."""
    seats = []
    for s, h in enumerate(held):
        shown = h if isinstance(h, list) else None
        k = sides[s]
        tally = "" if k < 0 else (f"{common.count(tricks[k], 'trick')}, {common.count(chips[k], 'chip')}"
                                  + (f" ({_side(k, sides, P, you)})" if len(tricks) < P else ""))
        seats.append(common.seat(s, _seat(P, s, you), side=None if k < 0 else k,
                                 held=len(shown) if shown is not None else h,
                                 you=s == you, leads=bool(trick) and s == trick[0][0], to_move=s == to_move,
                                 tally=tally, pieces=shown))
    lines = [("trick", f"{min(trick_no, 4) + 1} of 5")]
    if not words and not trick and to_move is not None:
        words = common.does(_seat(P, to_move, you), "lead", "leads")
    out = common.table(PIECE, seats, [(s, c) for s, c in trick], words, lines)
    out["last"] = None if not last else {"pieces": [{"seat": s, "piece": c} for s, c in last[0]],
                                         "words": f"{_seat(P, last[1], you)} won it",
                                         "faces": common.faces("shoot-the-moon", [c for _, c in last[0]])}
    return out


class Human(common.Person):
    """The person's seat as a Shoot the Moon strategy: every play becomes a prompt."""

    @common.decision
    def play(self, view, rng):
        tbl = view.table
        H, P, me = tbl.hands_dealt, tbl.players, self.g.seat
        sides = [int(k) for k in tbl.side_of_seat] + [-1] * (H - tbl.players)
        hand = [c for c, live in zip(view.hand[0], view.live[0]) if live]
        plays = [(int(s), int(c)) for s, c in zip(view.play_seats[0], view.play_cards[0]) if c >= 0]
        done = len(plays) - view.position
        tricks = [plays[i:i + H] for i in range(0, done, H)]
        now = plays[done:]
        name = lambda s: _seat(P, s, me)          # noqa: E731
        by_side = lambda xs: ", ".join(f"{_side(k, sides, P, me)}: {int(v)}" for k, v in enumerate(xs))  # noqa: E731
        facts = [("you play", "your own hand" if int(view.seat[0]) == me else "the dummy's hand"),
                 ("trick", f"{int(view.trick_no) + 1} of 5"),
                 ("tricks won", by_side(view.tricks[0])), ("chips", by_side(view.chips[0])),
                 ("this trick", ", ".join(f"{name(s)}: {said(c)}" for s, c in now) or "you lead")]
        for i, t in enumerate(tricks):
            facts.append((f"trick {i + 1}", ", ".join(f"{name(s)}: {said(c)}" for s, c in t)))
        choices = [{"value": int(i), "label": said(view.hand[0][i]), "piece": deck.card_name(int(view.hand[0][i])),
                    "option": deck.card_name(int(view.hand[0][i]))} for i in np.flatnonzero(view.legal[0])]
        self.tell(plays, H, int(view.seat[0]), name)
        played = [sum(1 for s, _ in plays if s == x) for x in range(H)]
        last = (tricks[-1], now[0][0] if now else int(view.seat[0])) if tricks else None
        shown = table(P, me, sides, [5 - n for n in played],
                      trick=[(s, deck.card_name(c)) for s, c in now], trick_no=int(view.trick_no),
                      to_move=int(view.seat[0]), tricks=[int(v) for v in view.tricks[0]],
                      chips=[int(v) for v in view.chips[0]],
                      last=None if last is None else ([(s, deck.card_name(c)) for s, c in last[0]], last[1]))
        return self.g.ask("play", "Your play", hand, facts, choices, hint=lambda: self.g.hint(view), table=shown)

    def tell(self, plays: list[tuple[int, int]], H: int, mover: int, name) -> None:
        """The log, in words, of every play since the last told, the person's too, in the order made,
        and of who won each trick (the seat that leads the next, or the mover now)."""
        self.g.tell(plays[self.g.told:], self.g.told, H, lambda i: plays[i][0] if i < len(plays) else mover, name)
        self.g.told = len(plays)


class StmHand(common.Hand):
    human = Human
    game = "shoot-the-moon"

    def tiles(self, hand) -> list[str]:
        return [deck.card_name(int(c)) for c in hand]

    def ask(self, *args, **kwargs):
        """common.Hand.ask without its "title: label" log line: the plays are told in order by `tell`."""
        n = len(self.log)
        choice = super().ask(*args, **kwargs)
        del self.log[n:]
        return choice

    def tell(self, plays: list, first: int, H: int, leader, name) -> None:
        """Plays `first`, first + 1, ... ((seat, card)) into the log; after each trick's last, its
        winner (leader(i): the seat that plays i, the next trick's leader)."""
        for i, (s, c) in enumerate(plays, first):
            lead = i % H == 0
            self.log.append((f"trick {i // H + 1}: " if lead else "")
                            + common.does(name(s), "lead" if lead else "play", "leads" if lead else "plays")
                            + f" {said(c)}")
            if (i + 1) % H == 0:
                self.log.append(common.does(name(leader(i + 1)), "win", "wins") + f" trick {(i + 1) // H}")

    def deal_and_play(self) -> dict:
        """common.Hand's round; the plays after the person's last, the last trick's winner and the
        round's result close the log (from the record)."""
        record = super().deal_and_play()
        P, H = record["players"], len(record["hands"])
        plays, winners = record["plays"], record["trick_winners"]
        name = lambda s: _seat(P, s, self.seat)          # noqa: E731
        self.tell([(s, c) for s, c in plays[self.told:]], self.told, H,
                  lambda i: winners[i // H - 1], name)
        self.log.append(self.result_line(record))
        return record

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
