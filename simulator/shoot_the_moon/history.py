"""Hand histories for Shoot the Moon (HISTORY.md): JSON lines out, a readable replay back."""
from __future__ import annotations

import json

import numpy as np

from moonshot.simulator.errors import BadInput, bad_record, short
from moonshot.simulator.record_types import (PER_SIDE, SEAT, Bool, Int, List, Row, Schema, Seating, Text,
                                              WholeGames)
from moonshot.simulator.shoot_the_moon import reference as ref
from moonshot.simulator.shoot_the_moon.cards import HAND_SIZE, card_name, hands_dealt, parse_card, side_of_seats
from moonshot.simulator.shoot_the_moon.engine import Result, Table
from moonshot.simulator.shoot_the_moon.rules import FLAGS, parse_rules

GAME = "shoot-the-moon"
TRICKS = 5


# ---------------------------------------------------------------------------- the record's keys (HISTORY.md)

def _sides(players: int, rules) -> list[list[int]]:
    """Each player alone, or the partnerships STM-2.2 seats (4 or 6 players)."""
    return [list(range(players))] + ([side_of_seats(players, True, rules)] if players in (4, 6) else [])


CARD = Text("a card R1..R12, G1..G12, P1..P12, B1..B12, BM or LM")
HAND_SEAT = Int(0, lambda t: t.hands - 1, what=lambda t: f"a seat 0..{t.hands - 1}"
                + (f" ({t.players}: the dummy)" if t.hands > t.players else ""))
SCHEMA = Schema(
    fields={"dealer": SEAT,
            "hands": List(List(CARD, n=HAND_SIZE), n=lambda t: t.hands,
                          what=lambda t: f"{t.hands} hands of {HAND_SIZE} cards"),
            "plays": List(Row(HAND_SEAT, CARD), n=lambda t: TRICKS * t.hands,
                          what=lambda t: f"a list of the {TRICKS * t.hands} plays, each [seat, card]"),
            "trick_winners": List(HAND_SEAT, n=TRICKS),
            "chips_before": PER_SIDE, "chips_after": PER_SIDE,
            "tricks": List(Int(0, TRICKS), n=lambda t: t.sides), "moon_chips": PER_SIDE, "round_chips": PER_SIDE,
            "annulled": Bool(),
            "detected_revokes": List(Int(0, lambda t: TRICKS * t.hands - 1), most=lambda t: TRICKS * t.hands)},
    optional=frozenset({"annulled", "detected_revokes"}),
    rules=lambda args, players: parse_rules(args), rules_dict=lambda rules, players: rules.as_dict(),
    sides=_sides, hands=hands_dealt)


def _ends(record: dict, t: Seating, carry) -> tuple[list, None]:
    """STM-9: a completed round, never an annulled one (STM-11.3: it is replayed), leaving one side
    alone at the target ends the game, and that side wins."""
    if "annulled" not in record and t.rules.revoke_model is not None:
        raise BadInput("a whole-games round under stm.revoke_model lacks annulled; accepted: annulled true or false")
    winner = None if record.get("annulled") else ref.game_winner(record["chips_after"], t.rules)
    return [None if winner is None else [winner]], None


WHOLE_GAMES = WholeGames(
    start=lambda t: [t.rules.starting_chips] * t.sides,
    change=lambda r: [a - b for a, b in zip(r["chips_after"], r["chips_before"])],
    ends=_ends,
    # STM-8.1 the deal passes left; STM-11.3 the same dealer redeals an annulled round
    next_hand=lambda r, t: {"dealer": r["dealer"] if r.get("annulled") else (r["dealer"] + 1) % t.players},
    cap=1000, rule=lambda r: "STM-9, STM-11.3: an annulled round is replayed" if r.get("annulled") else "STM-9",
    same=(("scores_before", "chips_before"), ("scores_after", "chips_after")))


def records(res: Result, table: Table, specs: tuple[str, ...], seed: int, first_id: int) -> list[str]:
    """One JSON line per round in `res` (hand ids first_id, first_id+1, ...)."""
    P = table.players
    common = {"game": GAME, "format": 1, "rules": table.rules.as_dict(), "seed": seed, "players": P,
              "sides": table.side_of_seat[:P].tolist(), "strategies": list(specs)}
    names = np.array([card_name(c) for c in range(52)])
    hands = names[res.hands].tolist()
    plays = names[res.play_cards].tolist()
    seats = res.play_seats.tolist()
    out = []
    for i in range(len(res.hands)):
        rec = {**common, "hand_id": first_id + i, "dealer": int(res.dealer[i]),
               "hands": hands[i],
               "plays": [[s, c] for s, c in zip(seats[i], plays[i])],
               "trick_winners": res.trick_winners[i].tolist(),
               "chips_before": res.chips_before[i].tolist(),
               "chips_after": res.chips_after[i].tolist(),
               "tricks": res.tricks[i].tolist(),
               "moon_chips": res.moon_chips[i].tolist(),
               "round_chips": res.round_chips[i].tolist(),
               "annulled": bool(res.annulled[i])}
        if res.revoke_detected is not None:     # play indices of revokes that get detected (STM-11)
            rec["detected_revokes"] = np.flatnonzero(res.revoke_detected[i]).tolist()
        out.append(json.dumps(rec, separators=(",", ":")))
    return out


def _fail(path: str, line: int, why: str) -> BadInput:
    return bad_record(GAME, path, line, why)


def replay(record: dict, path: str = "history", line: int = 0) -> str:
    """The hand trick by trick, checked move by move against the reference engine."""
    try:
        rule_args = [f"{k}={'off' if v is None else str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in record["rules"].items()]
        rules = parse_rules(rule_args)
        players = int(record["players"])
        partners = len(set(record["sides"])) < players
        dealer = int(record["dealer"])
        taken: set[int] = set()
        hands = [_cards(h, taken) for h in record["hands"]]
        plays = [(int(s), _card(c)) for s, c in record["plays"]]
        chips = [int(c) for c in record["chips_before"]]
    except BadInput as exc:
        raise _fail(path, line, str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:    # any other malformed value
        raise _fail(path, line, f"{type(exc).__name__}: {exc}") from None
    try:
        rnd = ref.Hand(players, partners, rules, dealer, hands, chips)
    except BadInput as exc:
        raise _fail(path, line, str(exc)) from None
    dummy = players if players == 2 else None
    who = lambda s: "dummy" if s == dummy else f"seat {s}"   # noqa: E731
    lines = [f"Hand {record.get('hand_id')}  ({players} players{', partnerships' if partners else ''}, "
             f"dealer seat {dealer}, seed {record.get('seed')})"]
    for seat, hand in enumerate(hands):
        lines.append(f"  {who(seat):>7} holds {' '.join(card_name(c) for c in hand)}")
    lines.append(f"  chips before: {chips}")
    changed = {f.name: record['rules'].get(f.name) for f in FLAGS
               if record["rules"].get(f.name) not in (f.default, 'off' if f.default is None else f.default)}
    if changed:
        lines.append(f"  rules changed from the defaults: {changed}")
    trick, trick_no = [], 1
    detected = set(record.get("detected_revokes", []))
    for index, (seat, card) in enumerate(plays):
        if rnd.done or rnd.to_move() != seat:
            raise _fail(path, line, f"play {card_name(card)} by seat {seat} is out of turn")
        twin = {48: 49, 50: 51}.get(card)
        if twin is not None and card not in rnd.hands[seat]:
            card = twin                          # the two Big (Little) Moons share one name
        revoke = card not in rnd.legal()
        try:
            rnd.play(card, revoke_detected=index in detected)
        except ValueError as exc:
            raise _fail(path, line, f"illegal play: {exc}") from None
        trick.append(f"{who(seat)} {card_name(card)}{' (revoke)' if revoke else ''}")
        if len(rnd.trick_winners) == trick_no:
            winner = rnd.trick_winners[-1]
            shown = rnd.chips
            if rnd.done and not rnd.annulled:      # the last trick's line: before the end-of-round award
                shown = [a - r for a, r in zip(rnd.chips_after, rnd.round_chips)]
            lines.append(f"  trick {trick_no}: {', '.join(trick)}  -> {who(winner)} wins; chips {shown}")
            trick, trick_no = [], trick_no + 1
    if not rnd.done:
        raise _fail(path, line, "fewer than 5 tricks")
    lines.append(f"  tricks per side: {rnd.tricks}; Moon chips {rnd.moon_chips}; "
                 f"round award {rnd.round_chips}; chips after: {rnd.chips_after}"
                 + ("  (round annulled by a detected revoke)" if rnd.annulled else ""))

    def dummy_seat(s):
        return players if s == dummy else s
    given = {"trick_winners": [dummy_seat(w) for w in rnd.trick_winners], "tricks": rnd.tricks,
             "moon_chips": rnd.moon_chips, "round_chips": rnd.round_chips, "chips_after": rnd.chips_after}
    for key, want in given.items():
        if key in record and list(record[key]) != list(want):
            raise BadInput(f"{path}:{line}: the record breaks the rules: {key} is {short(record[key])}, the rules give "
                           f"{list(want)}")
    if "annulled" in record and record["annulled"] is not bool(rnd.annulled):
        raise BadInput(f"{path}:{line}: the record breaks the rules: annulled is {short(record['annulled'])}, "
                       f"the rules give {str(bool(rnd.annulled)).lower()}")
    return "\n".join(lines)


def _card(text) -> int:
    if not isinstance(text, str):
        raise BadInput(f"card {text!r} is not a string")
    return parse_card(text)


def _cards(texts, taken: set[int]) -> list[int]:
    out = []
    for t in texts:
        c = parse_card(t, taken)
        taken.add(c)
        out.append(c)
    return out
