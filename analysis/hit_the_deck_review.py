"""Hit the Deck's `moonshot review` hook: every choice of the chosen seats valued from what the seat saw.

The choices are the reference's questions (views.py's choice columns): on a turn with a legal card,
which card to play (and under htd.voluntary_draw, drawing instead: "draw"), and after a draw whose
card may be played under htd.drawn_card_play=optional, playing it or keeping it ("keep"). A draw with
nothing legal is the rules', not the seat's. The slap is a reaction, not a decision: `slaps(record,
seats)` gives the seat's slap times against its reaction profile's (a separate table for the shared
verb; `moonshot review` shows it under the decisions).

Each decision's view is rebuilt by replaying the record through the reference engine (its recorded
choices and chance outcomes read back, reference_chance.RecordedChance): the seat's hand, the public
counts and piles and the cards seen, as the Play page's bots see it (views.batch_view). The seat's
memory of the draw pile (htd.memory) and what the others' draws showed they lack are not rebuilt: the
worlds know less than the seat may have remembered, never more. The unseen cards are dealt `worlds`
ways by the rollout player's own htd_worlds.deal_worlds, and every option is played out to the end of
the hand by the tactician in every seat (RolloutPlay.play_out: the engine's own hand loop, slap races
and all) on the SAME worlds and chance keys. The outcome is the mover's whole result of the hand: its
penalty points less the others' mean (lower is better: a penalty draw pushed onto another seat counts
for the mover); for whole-games records (`scores_before`) `win` is the mover's chance of winning
the game from the totals after the hand and sampled continuations (htd_search.win_chance).
"""
from __future__ import annotations

import numpy as np

from moonshot.analysis.luck import setup_of
from moonshot.analysis.review import Decision, Sizes, decision_rng, whole_result
from moonshot.simulator.hit_the_deck import cards as deck
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.history import profile_from_entry
from moonshot.simulator.hit_the_deck.reference_chance import RecordedChance
from moonshot.simulator.hit_the_deck.rules import parse_rules, rule_args
from moonshot.simulator.hit_the_deck.views import batch_view
from moonshot.strategies.hit_the_deck import Dump, Hold, Tactician
from moonshot.strategies.htd_search import FUTURE_HANDS, FUTURES, SCORE_SAMPLE, RolloutPlay, win_chance
from moonshot.strategies.htd_worlds import deal_worlds

UNIT = "penalty points"
HIGHER_BETTER = False    # a cost: the luck is counted in points kept off (analysis/luck.py)
# Cards left in hand count against their holder (HTD-1.4): a blunder costs what a word card counts,
# an inaccuracy the least any card counts.
SIZES = Sizes(1, 3, 10, "Hit the Deck penalty points: 1, 3 and 10 (1: the least a card left in hand counts; 10: "
              "a word card or a Hit the Deck card)")
WORLDS = 128       # the default worlds per decision: a hand's points are noisy, and a hand takes a few seconds
HOW = ("Hit the Deck: each option (a card, the voluntary draw, keeping a drawn card) played out to the end of the "
       "hand by the tactician in every seat, slap races included, on worlds dealt as the rollout player deals them "
       "from the seat's view rebuilt from the record (its hand, the public counts and piles, the cards seen; not its "
       "memory of the draw pile); values are the mover's penalty points for the hand less the others' mean (what "
       "another seat is made to take counts for the mover), lower is better.")
DRAW = deck.DRAW
YARDSTICKS = {"tactician": Tactician, "dump": Dump, "hold": Hold}    # the built-in heuristics (not random)


class _Stop(Exception):
    """Ends a replay once the decisions asked for are collected."""


def positions(record: dict, stop: int | None = None) -> list[tuple]:
    """The record's decisions in order as (step, view, options, chosen): the one-row batch PlayView
    the seat had, its option columns (card kinds, DRAW) and the column it took. `stop`: only the
    first `stop` decisions (the replay ends at the last one's question, so no later event is read)."""
    return [found[:4] for found in _positions(record, stop)]


def _positions(record: dict, stop: int | None = None) -> list[tuple]:
    """positions' tuples with each decision's turn (from 1, every seat's turns counted as HTD-6.5
    counts them) last: a drawn-card decision is on the turn of the draw before it."""
    players = int(record["players"])
    rules = parse_rules(rule_args(record["rules"]), players)
    profiles = tuple(profile_from_entry(e) for e in record["reaction"])
    chance = RecordedChance(record["events"])
    found = []

    def choose(view: ref.View, legal) -> int:
        choice = chance.choose(view, legal)
        turn = hand.turns + (view.drawn < 0)       # the draw before a drawn-card question is its turn, counted
        found.append((len(found), batch_view(view, legal), sorted(legal), choice, turn))
        if stop is not None and len(found) >= stop:
            raise _Stop                 # before the choice is played: no later event is read
        return choice

    hands = [[deck.parse_card(c) for c in h] for h in record["hands"]]
    pile = [deck.parse_card(c) for c in record["draw_pile"]]
    hand = ref.Hand(int(record["dealer"]), hands, pile, rules, profiles, choose, chance,
                    scores=record.get("scores_before"))
    try:
        hand.play()
    except _Stop:
        pass
    return found


def where(turn: int | None, options: list[int], drawn: int) -> str:
    """The decision as a player names it: 'turn 12: play', 'turn 12: play or draw' (htd.voluntary_draw)
    or 'turn 12: play the drawn card or keep it' (htd.drawn_card_play=optional); no turn in a hint."""
    what = ("play the drawn card or keep it" if drawn >= 0 else "play or draw" if DRAW in options else "play")
    return what if turn is None else f"turn {turn}: {what}"


def label(col: int, drawn: int) -> str:
    if col == DRAW:
        return "keep" if drawn >= 0 else "draw"
    return deck.NAMES[col]


def value(view, options: list[int], worlds: int, rng, whole: bool):
    """(outcomes, win) for one decision: (worlds, options) the mover's whole result per world (its
    penalty points less the others' mean), and
    its P(win the game) per world when `whole` (None otherwise)."""
    rollout = RolloutPlay(worlds=worlds, value="hand")
    world = deal_worlds(view, rng, worlds)
    futures = rng.integers(0, SCORE_SAMPLE, (worlds, FUTURES, FUTURE_HANDS), dtype=np.int16)
    keys = rng.integers(0, np.iinfo(np.uint64).max, (1, worlds), dtype=np.uint64, endpoint=True)
    drawn = int(view.drawn[0])
    me = int(view.seat[0])
    score = np.empty((len(options), worlds, view.players))
    everyone = np.arange(worlds)
    for passed in (False, True):
        part = [i for i, c in enumerate(options) if (c == DRAW and drawn >= 0) == passed]
        if part:
            cols = np.array([options[i] for i in part], dtype=np.intp)
            score[part] = rollout.play_out(view, world, keys, np.zeros(len(part), dtype=np.intp), cols, passed,
                                           rng, everyone)
    outcomes = whole_result(score, me).T.copy()
    if not whole:
        return outcomes, None
    flat = score.reshape(-1, view.players)
    fut = np.broadcast_to(futures[None], (len(options),) + futures.shape).reshape(-1, FUTURES, FUTURE_HANDS)
    win = win_chance(view, np.zeros(len(flat), dtype=np.intp), flat, fut)
    return outcomes, win.reshape(len(options), worlds).T


def decision_steps(record: dict, seats: set[int]) -> list[int]:
    """The steps (0, 1, ... over every seat's decisions in order) of `seats`' decisions."""
    return [step for step, view, _, _ in positions(record) if int(view.seat[0]) in seats]


def decisions(record: dict, seats: set[int], worlds: int, seed: int, progress=None, steps=None) -> list[Decision]:
    """Every decision of `seats` in the record (only `steps` when given), each option valued on the
    same `worlds` worlds from the seat's view (review.py's hook interface)."""
    hand_id = int(record.get("hand_id", 0))
    whole = "scores_before" in record
    out = []
    for step, view, options, chosen, turn in _positions(record, None if steps is None else
                                                        max(steps, default=-1) + 1):
        seat = int(view.seat[0])
        if seat not in seats or (steps is not None and step not in steps):
            continue
        out.append(decision(view, options, hand_id, step, worlds, seed, whole, chosen, turn))
        if progress is not None:
            progress(1)
    return out


def decision(view, options: list[int], hand_id: int, step: int, worlds: int, seed: int, whole: bool,
             chosen: int | None = None, turn: int | None = None) -> Decision:
    """One decision valued from the seat's view alone (`options`: its choice columns, sorted) on
    `worlds` worlds of decision_rng(seed, hand_id, step): the review's valuation of it and the Play
    page's hint (which knows no `chosen` column yet: the chosen index is then 0). The mover's P(win
    the game) per world is kept either way: judged by where the record holds whole games
    (`win`), shown beside the points otherwise (`p_win`: from the totals the view shows). `turn`:
    the hand's turn it is on (its `where`)."""
    drawn = int(view.drawn[0])
    if len(options) == 1:
        outcomes, win = np.zeros((0, 1)), np.zeros((0, 1))
    else:
        outcomes, win = value(view, options, worlds, decision_rng(seed, hand_id, step), True)
    yard = {}
    for name, cls in YARDSTICKS.items():
        pick = int(cls().play(view, decision_rng(seed, hand_id, step))[0])
        yard[name] = options.index(pick)
    return Decision(hand_id=hand_id, seat=int(view.seat[0]), step=step, kind="play" if drawn < 0 else "drawn card",
                    options=[label(c, drawn) for c in options], chosen=0 if chosen is None else options.index(chosen),
                    outcomes=outcomes, unit=UNIT, higher_better=False, win=win if whole else None,
                    p_win=None if whole else win, yardstick=yard, sizes=SIZES,
                    where=where(turn, options, drawn))


# ------------------------------------------------------------------------------------ the seat's result (luck)

def result(record: dict, seat: int) -> float:
    """The seat's whole result of the hand, its penalty points less the others' mean (analysis/luck.py's
    end point)."""
    return float(whole_result(record["score"], seat))


def results(table, res) -> tuple[np.ndarray, np.ndarray]:
    """(hands, players) each seat's whole result in a batch of the engine's hands, and each hand's
    dealer (position 0)."""
    score = res.score.astype(float)
    return np.stack([whole_result(score, s) for s in range(score.shape[1])], axis=1), res.dealer


def position(record: dict, seat: int) -> int:
    """The seat's place from the dealer (0: the dealer; 1 plays first)."""
    return (seat - int(record["dealer"])) % int(record["players"])


def setup(record: dict):
    """The record's table (players, rules, each seat's reaction profile) with the default players:
    the slap races land in the luck against the seat's own reactions, not the default's."""
    players = int(record["players"])
    profiles = [f"{s}={profile_from_entry(e).spec()}" for s, e in enumerate(record["reaction"])]
    return setup_of("hit-the-deck", players, parse_rules(rule_args(record["rules"]), players), profiles=profiles)


def step_count(record: dict) -> int:
    """The hand's steps (every seat's choices, forced ones too): one past its last."""
    return len(positions(record))


def slaps(record: dict, seats: set[int]) -> list[dict]:
    """One row per slap race a chosen seat took part in (and per shout it forgot): its time against
    its profile's mean time for that race (as the shouter, its self-initiated time; else the time to
    see the card or shout and react), the reach to the pile and an average lapse included, and
    whether it drew the 4 penalty cards. Slaps are reactions, not decisions: no worlds, no loss."""
    profiles = [profile_from_entry(e) for e in record["reaction"]]
    rows = []
    for i, ev in enumerate(record["events"]):
        if ev[0] != "slap":
            continue
        _, shouter, shouted, latencies, loser = ev
        for seat in sorted(seats):
            p = profiles[seat]
            if p.off:
                continue
            if not shouted:
                if seat == shouter:
                    rows.append({"hand_id": record.get("hand_id"), "event": i, "seat": seat, "role": "shouter",
                                 "ms": None, "profile_ms": None, "drew_4": loser == seat,
                                 "note": "forgot to shout"})
                continue
            if latencies[seat] is None:
                continue
            own = seat == shouter
            mean = ((p.mu_self + p.tau_self) if own else (p.mu + p.tau)) + p.move_mu + p.p_lapse * p.lapse_mean
            ms = float(latencies[seat])
            rows.append({"hand_id": record.get("hand_id"), "event": i, "seat": seat,
                         "role": "shouter" if own else "racer", "ms": ms, "profile_ms": round(mean, 1),
                         "drew_4": loser == seat,
                         "note": f"{abs(ms - mean):.0f} ms {'faster' if ms < mean else 'slower'} than the profile"})
    return rows
