"""Shoot the Moon: rounds played on from the middle (engine.resume + engine.play_on, the loop the
rollout player searches with) end as the engine's own rounds do."""
from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from moonshot.simulator.shoot_the_moon import engine
from moonshot.simulator.shoot_the_moon import reference as ref
from moonshot.simulator.shoot_the_moon.rules import parse_rules
from moonshot.strategies.base import make_strategy

TABLES = [
    (2, False, ()), (2, False, ("stm.dummy_mode=open_hand_nondealer_chooses",)), (3, False, ()),
    (4, True, ("stm.partnership_trick_count=per_player",)), (5, False, ("stm.little_moon_lead_trumps=true",)),
    (6, True, ("stm.chip_supply=finite40", "stm.moon_chip_netting=sequential")),
]
SAME = ("play_seats", "play_cards", "trick_winners", "tricks_seat", "tricks", "round_chips", "chips_after")


class Scripted:
    """Plays each seat's cards of a finished engine round again, trick by trick. A hand (with its
    seat) names its game, so the script needs no game index (views may hold a subset)."""

    def __init__(self, res: engine.Result, not_at: tuple[int, int] | None = None):
        self.not_at = not_at          # the step a forced first card must have played
        self.cards = {}
        for i in range(len(res.hands)):
            for seat, card in zip(res.play_seats[i].tolist(), res.play_cards[i].tolist()):
                self.cards.setdefault((seat, tuple(res.hands[i, seat].tolist())), []).append(card)

    def play(self, view, rng):
        assert (view.trick_no, view.position) != self.not_at, "asked for the forced card"
        out = np.empty(len(view), dtype=np.intp)
        for r, (seat, hand) in enumerate(zip(view.seat.tolist(), view.hand.tolist())):
            out[r] = hand.index(self.cards[(seat, tuple(hand))][view.trick_no])
        return out


def engine_round(players, partners, flags, n=40, seed=0):
    table = engine.Table(players, partners, parse_rules(list(flags)))
    random = make_strategy("shoot-the-moon", "random")
    rng = np.random.default_rng(seed)
    chips = rng.integers(0, 6, (n, table.n_sides)).astype(np.int16)
    res = engine.play(table, n, [random] * players, rng, rng, chips=chips)
    return table, res


def games_of(res: engine.Result, idx: np.ndarray) -> engine.Result:
    return engine.Result(**{f.name: getattr(res, f.name)[idx] for f in fields(res)
                       if isinstance(getattr(res, f.name), np.ndarray)})


def after_plays(table, res, j):
    """What resume needs after the first j plays of the engine's rounds: the unplayed slots and
    each side's chips then (from the reference engine, playing the same cards)."""
    n, H = res.hands.shape[:2]
    live = np.full((n, H), 31, dtype=np.uint8)
    chips = np.empty_like(res.chips_before)
    for i in range(n):
        rnd = ref.Hand(table.players, table.partners, table.rules, int(res.dealer[i]),
                        res.hands[i].tolist(), res.chips_before[i].tolist())
        for seat, card in zip(res.play_seats[i, :j].tolist(), res.play_cards[i, :j].tolist()):
            live[i, seat] &= ~np.uint8(1 << res.hands[i, seat].tolist().index(card))
            rnd.play(card)
        chips[i] = rnd.chips
    return live, chips


@pytest.mark.parametrize("players, partners, flags", TABLES)
def test_a_round_resumed_anywhere_ends_as_the_engine_played_it(players, partners, flags):
    table, res = engine_round(players, partners, flags)
    H = table.hands_dealt
    script = Scripted(res)
    for j in (0, 1, H - 1, H, H + 1, 3 * H - 1, 5 * H - 1):
        live, chips = after_plays(table, res, j)
        st = engine.resume(table, res.hands, live, res.dealer, chips, res.play_seats[:, :j], res.play_cards[:, :j])
        assert (st.trick_no, st.position) == divmod(j, H)
        out = engine.play_on(table, st, [script] * players, np.random.default_rng(0))
        for name in SAME:
            assert np.array_equal(getattr(out, name), getattr(res, name)), (j, name)


@pytest.mark.parametrize("players, partners, flags", TABLES)
def test_the_first_card_can_be_forced(players, partners, flags):
    """play_on's first_slot plays the mover's card without asking its strategy (a search's candidate)."""
    table, whole = engine_round(players, partners, flags, seed=1)
    H = table.hands_dealt
    for j in (2, 2 * H, 4 * H + 1):
        res = whole
        if table.dummy is not None and table.rules.dummy_mode == "blind_stack":   # the stack is never chosen
            res = games_of(whole, np.flatnonzero(whole.play_seats[:, j] != table.dummy))
        live, chips = after_plays(table, res, j)
        seat = res.play_seats[:, j]
        hand = res.hands[np.arange(len(seat)), seat]
        slot = np.argmax(hand == res.play_cards[:, j:j + 1], axis=1)
        st = engine.resume(table, res.hands, live, res.dealer, chips, res.play_seats[:, :j], res.play_cards[:, :j])
        out = engine.play_on(table, st, [Scripted(res, not_at=divmod(j, H))] * players, np.random.default_rng(0),
                        first_slot=slot)
        for name in SAME:
            assert np.array_equal(getattr(out, name), getattr(res, name)), (j, name)


@pytest.mark.parametrize("players, partners, flags", TABLES)
def test_worlds_can_share_their_games_replay(players, partners, flags):
    """RoundState.with_hands (a record replayed once per game, copied to each of its worlds) is the
    same state as resuming every world from the record."""
    table, res = engine_round(players, partners, flags, n=20, seed=2)
    H = table.hands_dealt
    games = np.repeat(np.arange(20), 3)
    script = Scripted(res)
    for j in (1, 2 * H + 1, 4 * H):
        live, chips = after_plays(table, res, j)
        seats, cards = res.play_seats[:, :j], res.play_cards[:, :j]
        each = engine.resume(table, res.hands[games], live[games], res.dealer[games], chips[games],
                        seats[games], cards[games])
        shared = engine.resume(table, res.hands, live, res.dealer, chips, seats, cards).with_hands(
            games, res.hands[games], live[games])
        a, b = (engine.play_on(table, st, [script] * players, np.random.default_rng(0)) for st in (each, shared))
        for name in SAME + ("chips_before", "moon_chips"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (j, name)


def test_scripted_replays_the_engine():
    """The script itself: a whole round replayed from its deal is the same round."""
    table, res = engine_round(4, False, ())
    again = engine.play_hand(table, res.hands, res.dealer, res.chips_before, [Scripted(res)] * 4,
                              np.random.default_rng(0))
    for name in SAME:
        assert np.array_equal(getattr(again, name), getattr(res, name)), name


# ------------------------------------------------------------------------------------ the view's play record

class RecordSpy:
    """Plays like random and keeps, per decision, the view's play record with the mover's seat
    and hand (which name the game)."""

    def __init__(self):
        self.random = make_strategy("shoot-the-moon", "random")
        self.seen = []

    def play(self, view, rng):
        with pytest.raises(ValueError):
            view.play_cards[0, 0] = 7                     # read-only: the engine's record stays intact
        self.seen.append((view.trick_no, view.position, view.seat.copy(), view.hand.copy(),
                          view.play_seats.copy(), view.play_cards.copy()))
        return self.random.play(view, rng)


@pytest.mark.parametrize("players, partners, flags", TABLES + [(4, False, ("stm.revoke_model=on(0.3,0.5)",))])
def test_the_view_shows_every_earlier_play_and_nothing_more(players, partners, flags):
    table = engine.Table(players, partners, parse_rules(list(flags)))
    spy = RecordSpy()
    res = engine.play(table, 60, [spy] * players, np.random.default_rng(3), np.random.default_rng(4))
    H = table.hands_dealt
    game = {(seat, tuple(res.hands[i, seat].tolist())): i for i in range(60) for seat in range(H)}
    steps = set()
    for t, k, seats, hands, play_seats, play_cards in spy.seen:
        j = t * H + k
        steps.add(j)
        assert play_seats.shape == play_cards.shape == (len(seats), 5 * H)
        for r, (seat, hand) in enumerate(zip(seats.tolist(), hands.tolist())):
            i = game[(seat, tuple(hand))]
            assert play_seats[r, :j].tolist() == res.play_seats[i, :j].tolist()
            assert play_cards[r, :j].tolist() == res.play_cards[i, :j].tolist()
            assert (play_seats[r, j:] == -1).all() and (play_cards[r, j:] == -1).all()
    assert len(steps) >= 4 * H                       # (the blind stack's turns ask nobody)
