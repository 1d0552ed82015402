"""Shoot the Moon's `moonshot review` hook: every play of the chosen seats valued from what the seat saw.

A seat's only choice in Shoot the Moon is the card it plays (RULES.md §1: no bidding, no trump to
name); with two players under stm.dummy_mode=open_hand_nondealer_chooses the non-dealer also picks
the dummy's card, reviewed as that seat's decision. The blind dummy's card and a revoke (the
human-error model of stm.revoke_model: an accident, not a choice among the legal cards) are not
decisions.

At each decision the seat's PlayView is rebuilt from the record (the reference round steps the
plays and the chips, engine.resume rebuilds the batch state the view reads), the cards it cannot see
are dealt `worlds` ways with the rollout player's own deal_worlds (its hand, every card played and
the suits a hand has shown it lacks), and every legal card is played out on the SAME worlds by the
odd planner in every seat (RolloutPlay.playouts, as its hint values). The outcome is the mover
side's whole result of the round: its chips gained less the other sides' mean gain (a chip taken
from another side counts). For whole-games records (`scores_before`) `win` is the side's
chance of winning the game from each world's chips after the round, continued by rounds drawn whole
from a fixed sample of odd-planner self-play (the same sample in every process, as Hit the Deck's
rollout values a game's end).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from moonshot.analysis.luck import setup_of
from moonshot.analysis.review import Decision, Sizes, decision_rng, whole_result
from moonshot.analysis.words import trick_place
from moonshot.simulator.shoot_the_moon import cards as deck
from moonshot.simulator.shoot_the_moon import engine
from moonshot.simulator.shoot_the_moon import reference as ref
from moonshot.simulator.shoot_the_moon.history import _card, _cards
from moonshot.simulator.shoot_the_moon.rules import parse_rules
from moonshot.simulator.shoot_the_moon.views import PlayView
from moonshot.strategies.shoot_the_moon import Greedy, OddPlanner
from moonshot.strategies.stm_search import RolloutPlay, playout_table

UNIT = "chips"
# A round moves a chip or two: a blunder costs a whole chip (the smallest stake a round moves), a
# mistake about a third of one.
SIZES = Sizes(0.1, 0.3, 1, "Shoot the Moon chips: 0.1, 0.3 and 1 (1: the smallest stake a round moves)")
WORLDS = 64        # the default worlds per decision (benchmarks/review_bench.py times a round); at 128 the
                   # review tells more of rollout's own small errors (it plays on 32 worlds) than at 64
HOW = ("Shoot the Moon: each legal card played out to the end of the round by the odd planner in every seat, on "
       "worlds dealt as the rollout player deals them from the seat's own view (its hand, every card played, the "
       "suits a hand showed it lacks); values are the mover side's whole result of the round: its chips gained less "
       "the other sides' mean gain (a chip another side loses counts for the mover), higher is better.")
YARDSTICKS = {"odd": OddPlanner, "greedy": Greedy}      # the built-in heuristics (random is no yardstick)
FUTURES, FUTURE_ROUNDS = 32, 24   # continuations per world, rounds in each (a game rarely lasts that long)
ROUND_SAMPLE = 4096               # rounds of odd-planner self-play the continuations are drawn from
SAMPLE_SEED = 2026                # their own fixed seed: the same sample in every process and run


def table_of(record: dict) -> engine.Table:
    """The record's table: its players, partnerships (fewer sides than players) and rules."""
    args = [f"{k}={'off' if v is None else str(v).lower() if isinstance(v, bool) else v}"
            for k, v in record["rules"].items()]
    players = int(record["players"])
    return engine.Table(players, len(set(record["sides"])) < players, parse_rules(args))


def positions(record: dict):
    """Each play of the record as (step, chooser, view, card): the PlayView its chooser had (None
    for the blind dummy's card and for a revoke) and the card played."""
    table = table_of(record)
    H, players = table.hands_dealt, table.players
    taken: set[int] = set()
    hands = [_cards(h, taken) for h in record["hands"]]
    rnd = ref.Hand(players, table.partners, table.rules, int(record["dealer"]), hands, list(record["chips_before"]))
    dealt = engine.sort_hands(np.array([hands], dtype=np.int8), players)           # (1, H, 5) as the engine keeps them
    live = np.full((1, H), 31, dtype=np.uint8)
    seats = np.zeros((1, len(record["plays"])), dtype=np.int8)
    played = np.zeros_like(seats)
    run_at = playout_table(table)
    for j, (s, text) in enumerate(record["plays"]):
        seat, card = int(s), _card(text)
        twin = {48: 49, 50: 51}.get(card)
        if twin is not None and card not in rnd.hands[seat]:
            card = twin                            # the two Big (Little) Moons share one name
        chooser, legal = rnd.chooser(), rnd.legal()
        view = None
        if chooser is not None and card in legal:
            st = engine.resume(run_at, dealt, live, np.array([rnd.dealer], dtype=np.int8),
                               np.array([rnd.chips], dtype=np.int16), seats[:, :j], played[:, :j])
            if st.position == 0:
                st.start_trick()                   # as play_on does before a trick's lead
            row = dealt[0, seat]
            bits = sum(1 << i for i in range(deck.HAND_SIZE) if live[0, seat] >> i & 1 and row[i] in legal)
            step = {"seat": np.array([seat], dtype=np.intp), "row": np.array([seat], dtype=np.intp),
                    "legal": np.array([bits], dtype=np.uint8), "best": st.current.best,
                    "win_seat": st.current.win_seat}
            view = PlayView(run_at, st.trick_no, st.position, st, step)
        yield j, chooser, view, card
        slot = next(i for i in range(deck.HAND_SIZE) if dealt[0, seat, i] == card and live[0, seat] >> i & 1)
        live[0, seat] &= ~np.uint8(1 << slot)
        seats[0, j], played[0, j] = seat, card
        rnd.play(card, revoke_detected=j in set(record.get("detected_revokes", ())))


def decision_steps(record: dict, seats: set[int]) -> list[int]:
    """The steps (places in the round's play order) of `seats`' decisions."""
    return [step for step, chooser, view, _ in positions(record) if view is not None and chooser in seats]


def decisions(record: dict, seats: set[int], worlds: int, seed: int, progress=None, steps=None) -> list[Decision]:
    """Every decision of `seats` in the record (only `steps` when given), each legal card valued on
    the same `worlds` worlds from the seat's view (review.py's hook interface)."""
    table = table_of(record)
    hand_id = int(record.get("hand_id", 0))
    whole = "scores_before" in record
    out = []
    for step, chooser, view, card in positions(record):
        if view is None or chooser not in seats or (steps is not None and step not in steps):
            continue
        out.append(value(view, table, int(chooser), hand_id, step, worlds, seed, record["chips_before"], whole,
                         int(record["dealer"]), card))
        if progress is not None:
            progress(1)
    return out


def value(view, table: engine.Table, seat: int, hand_id: int, step: int, worlds: int, seed: int, chips_before,
          whole: bool, dealer: int, card: int | None = None) -> Decision:
    """One play of `seat` (for the open dummy's card, its chooser) valued from the view alone:
    every legal card on the same `worlds` worlds of decision_rng(seed, hand_id, step), the mover
    side's whole result of the round from `chips_before` (whole_result; and its P(win) when `whole`). The
    review's valuation of the play and the Play page's hint (which knows no `card` yet: the chosen
    index is then 0)."""
    rng = decision_rng(seed, hand_id, step)
    hand, legal = view.hand[0], np.flatnonzero(view.legal[0])
    names = [deck.card_name(int(hand[i])) for i in legal]
    options = list(dict.fromkeys(names))        # twin Moons are one option
    col = {name: options.index(name) for name in names}
    if len(options) == 1:
        outcomes, win = np.zeros((0, 1)), (np.zeros((0, 1)) if whole else None)
    else:
        _, _, after, side = RolloutPlay(worlds=worlds).playouts(view, rng)
        keep = [names.index(o) for o in options]        # candidates are the legal slots in order
        mine = int(side[0])
        outcomes = whole_result(after[keep] - np.asarray(chips_before, dtype=float), mine).T   # (worlds, options)
        win = win_chance(table, after[keep], mine, dealer, rng).T if whole else None
    yard = {}
    for name, cls in YARDSTICKS.items():
        slot = int(cls().play(view, decision_rng(seed, hand_id, step))[0])
        yard[name] = col[deck.card_name(int(hand[slot]))]
    return Decision(hand_id=hand_id, seat=seat, step=step, kind="play", options=options,
                    chosen=0 if card is None else options.index(deck.card_name(card)), outcomes=outcomes, unit=UNIT,
                    win=win, yardstick=yard, sizes=SIZES, where=where(view, table))


# ------------------------------------------------------------------------------------ the seat's result (luck)

def result(record: dict, seat: int) -> float:
    """The seat's side's whole result over the round (analysis/luck.py's end point)."""
    gains = np.asarray(record["chips_after"], dtype=float) - np.asarray(record["chips_before"], dtype=float)
    return float(whole_result(gains, int(record["sides"][seat])))


def results(table: engine.Table, res) -> tuple[np.ndarray, np.ndarray]:
    """(rounds, players) each seat's side's whole result in a batch of the engine's rounds, and each
    round's dealer (position 0)."""
    gains = (res.chips_after - res.chips_before).astype(float)
    sides = np.broadcast_to(table.side_of_seat[:table.players], (len(gains), table.players))
    return np.stack([whole_result(gains, sides[:, s]) for s in range(table.players)], axis=1), res.dealer


def position(record: dict, seat: int) -> int:
    """The seat's place from the dealer (0: the dealer; 1 leads the first trick)."""
    return (seat - int(record["dealer"])) % int(record["players"])


def setup(record: dict):
    """The record's table (players, partnerships, rules) with the default players."""
    table = table_of(record)
    return setup_of("shoot-the-moon", table.players, table.rules, table.partners)


def step_count(record: dict) -> int:
    """The round's steps (every card played, the dummy's too): one past its last move."""
    return len(record["plays"])


def where(view, table: engine.Table) -> str:
    """The play as a player names it: 'trick 2, lead', 'trick 2, 3rd to play (dummy)' (the open dummy's card)."""
    dummy = int(view.seat[0]) == table.players          # the dummy's seat number is `players` (HISTORY.md)
    return trick_place(view.trick_no, view.position) + (" (dummy)" if dummy else "")


@lru_cache(maxsize=None)
def round_gains(table: engine.Table) -> np.ndarray:
    """(ROUND_SAMPLE, sides) each side's chip change in rounds of odd-planner self-play from the
    starting chips, dealers at random (a fixed seed: the same sample in every process)."""
    run_at = playout_table(table)
    rngs = [np.random.default_rng([SAMPLE_SEED, table.players, i]) for i in range(2)]
    res = engine.play(run_at, ROUND_SAMPLE, [OddPlanner()] * table.players, *rngs)
    return (res.chips_after - res.chips_before).astype(np.int32)


def win_chance(table: engine.Table, after: np.ndarray, side: int, dealer: int, rng) -> np.ndarray:
    """(options, worlds) the side's chance of winning the game from each world's chips after the
    round (after (options, worlds, sides)): 1 or 0 where the round ends the game (STM-9), else the
    share of FUTURES continuations (FUTURE_ROUNDS rounds drawn whole from round_gains, the same for
    every option of a world) that the side wins; a continuation still open at its end goes to the
    side with the most chips (a tie shares it). The dealer is not followed: the sample's rounds have
    random dealers."""
    O, W, S = after.shape
    gains = round_gains(table)
    futures = rng.integers(0, len(gains), (W, FUTURES, FUTURE_ROUNDS))
    target = table.rules.target_chips
    chips = np.broadcast_to(after[:, :, None, :], (O, W, FUTURES, S)).astype(np.int32)
    share = np.full((O, W, FUTURES), np.nan)
    for r in range(FUTURE_ROUNDS + 1):
        top = chips.max(axis=3)
        alone = (chips == top[..., None]).sum(axis=3) == 1
        over = np.isnan(share) & (top >= target) & alone
        share[over] = (chips[..., side] == top)[over]
        if r == FUTURE_ROUNDS or not np.isnan(share).any():
            break
        chips = np.maximum(chips + gains[futures[:, :, r]][None], 0)
    top = chips.max(axis=3)
    at_top = chips == top[..., None]
    open_ = np.isnan(share)
    share[open_] = (at_top[..., side] / at_top.sum(axis=3))[open_]
    return share.mean(axis=2)
