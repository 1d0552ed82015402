"""Hit the Deck batch engine: shapes, legality, inert finished games, reproducibility, chance
independence, card conservation, the slap model, memory, and what each htd.* flag changes."""
from __future__ import annotations

import numpy as np
import pytest

from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck import reference as ref
from moonshot.simulator.hit_the_deck.reference_chance import RecordedChance
from moonshot.simulator.hit_the_deck.engine import Table, play, play_games
from moonshot.simulator.hit_the_deck.engine import state
from moonshot.simulator.hit_the_deck.engine.lazy_view import known_draw
from moonshot.simulator.hit_the_deck.profiles import seat_profiles
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.simulator.hit_the_deck.views import DRAW, bits_of
from moonshot.strategies.base import make_strategy
from moonshot.strategies.hit_the_deck import RandomPlay


def table(players=4, args=(), profiles=()):
    rules = parse_rules(list(args), players)
    return Table(players, rules, seat_profiles(list(profiles), players, default=rules.reaction))


def run(t, n, strategy=None, seed=0, **kw):
    strat = strategy or make_strategy("hit-the-deck", "random")
    return play(t, n, [strat] * t.players, np.random.default_rng(seed), np.random.default_rng(seed + 1),
                np.random.default_rng(seed + 2), **kw)


class Lowest:
    """Deterministic: the lowest legal card kind (DRAW only when nothing else is legal)."""

    def play(self, view, rng):
        legal = view.legal[:, :DRAW]
        return np.where(legal.any(axis=1), np.argmax(legal, axis=1), DRAW)


class Checking:
    """Random play that checks every view it is given."""

    def __init__(self):
        self.inner, self.calls = make_strategy("hit-the-deck", "random"), 0

    def play(self, view, rng):
        self.calls += 1
        legal = np.asarray(view.legal)
        assert legal.shape == (len(view), 39) and legal.dtype == bool
        assert legal.any(axis=1).all(), "a decision with nothing legal"
        assert np.array_equal(bits_of(legal), view.legal_bits)
        assert (view.hand[legal[:, :DRAW]] > 0).all(), "a legal card not in hand"
        drawn = view.drawn >= 0
        if drawn.any():                                  # play it or keep it: exactly those two
            assert legal[drawn].sum(axis=1).tolist() == [2] * int(drawn.sum())
            assert legal[drawn, DRAW].all()
        assert view.hand.dtype == np.int8 and view.hand.shape == (len(view), cards.N_KINDS)
        assert np.array_equal(view.hand.sum(axis=1), view.hand_sizes[np.arange(len(view)), view.seat])
        assert view.known_draw.shape == (len(view), 8) and view.seen.shape == (len(view), cards.N_KINDS)
        assert ((view.demand >= -1) & (view.demand <= 8)).all()
        return self.inner.play(view, rng)


# ---------------------------------------------------------------------------- basics

def test_result_shapes_and_dtypes():
    t = table(5)
    res = run(t, 300)
    n, P = 300, 5
    shapes = {"dealer": ((n,), np.int8), "hands": ((n, P, 7), np.int8), "opening": ((n, P, 38), np.int8),
              "went_out": ((n,), np.int8), "score": ((n, P), np.int16), "turns": ((n,), np.int16),
              "blocked": ((n,), bool), "hit_max_turns": ((n,), bool), "penalty": ((n, P, 3), np.int16),
              "shouts": ((n, P), np.int16), "slaps_lost": ((n, P), np.int16), "forgot": ((n, P), np.int16),
              "false_slaps": ((n, P), np.int16)}
    for name, (shape, dtype) in shapes.items():
        a = getattr(res, name)
        assert a.shape == shape and a.dtype == dtype, name
    assert res.max_turns_hit == 0
    out = res.went_out >= 0
    assert (res.score[out, res.went_out[out]] == 0).all()
    assert np.array_equal(res.opening.sum(axis=2), np.full((n, P), 7))
    assert res.draw_pile is None and res.events is None


@pytest.mark.parametrize("players,args", [(2, []), (4, ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"]),
                                          (6, ["htd.word_matches_word=true"])])
def test_every_decision_has_a_legal_choice(players, args):
    strat = Checking()
    res = run(table(players, args), 400, strat)
    assert strat.calls > 0
    if not args:       # random play that draws voluntarily can grow a hand past htd.max_turns
        assert res.max_turns_hit == 0


def test_illegal_choice_names_the_strategy():
    class Bad:
        spec = "bad-one"

        def play(self, view, rng):
            return np.full(len(view), DRAW)
    with pytest.raises(Exception, match="bad-one"):
        run(table(3), 50, Bad())


def test_same_seed_same_hands():
    t = table(4, ["htd.reaction=child"])
    a, b = run(t, 500, seed=3), run(t, 500, seed=3)
    for name in ("dealer", "hands", "went_out", "score", "turns", "penalty", "slaps_lost", "false_slaps"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    c = run(t, 500, seed=4)
    assert not np.array_equal(a.score, c.score)


def test_chance_of_a_game_does_not_depend_on_other_games():
    """Game 0 plays differently in the second run; every other game sees the same chance outcomes
    (and, with a deterministic strategy, plays exactly the same hand)."""
    class ScoreSwitch:
        def play(self, view, rng):
            legal = view.legal[:, :DRAW]
            low = np.where(legal.any(axis=1), np.argmax(legal, axis=1), DRAW)
            high = np.where(legal.any(axis=1), cards.N_KINDS - 1 - np.argmax(legal[:, ::-1], axis=1), DRAW)
            return np.where(view.scores[:, 0] == 99, high, low)
    t = table(4, ["htd.reaction=child"])
    scores = np.zeros((200, 4), dtype=np.int16)
    a = run(t, 200, ScoreSwitch(), seed=9, scores=scores, record=True)
    scores[0, 0] = 99
    b = run(t, 200, ScoreSwitch(), seed=9, scores=scores, record=True)
    assert a.events[0] != b.events[0]
    assert a.events[1:] == b.events[1:]


def _deck_check(deck):
    def hook(st):
        live = np.flatnonzero(st.phase != state.DONE)
        if not len(live):
            return
        R = len(live)
        counts = st.hand[live].sum(axis=1, dtype=np.int64)
        for pile, size in ((st.draw, st.dn), (st.disc, st.sn)):
            cols = np.arange(state.PILE)[None, :] < size[live][:, None]
            at = (np.arange(R)[:, None] * cards.N_KINDS + pile[live])[cols]
            counts += np.bincount(at, minlength=R * cards.N_KINDS).reshape(R, cards.N_KINDS)
        assert (counts == deck[None, :]).all(), "cards lost or created"
        bits = np.zeros(st.hbits[live].shape, dtype=np.uint64)
        for k in range(cards.N_KINDS):
            bits |= np.where(st.hand[live][:, :, k] > 0, np.uint64(1) << np.uint64(k), np.uint64(0))
        assert np.array_equal(bits, st.hbits[live]) and np.array_equal(st.hand[live].sum(axis=2), st.size[live])
    return hook


@pytest.mark.parametrize("players,args", [(3, []), (5, ["htd.cut_exposed=top_of_remainder", "htd.reaction=child"])])
def test_cards_are_conserved_every_step(players, args):
    t = table(players, args)
    run(t, 300, _hook=_deck_check(t.deck_counts.astype(np.int64)))


def test_finished_games_are_inert():
    seen: dict[int, tuple] = {}

    def hook(st):
        done = np.flatnonzero(st.phase == state.DONE)
        for r in done:
            snap = (st.hand[r].tobytes(), st.draw[r].tobytes(), int(st.dn[r]), st.disc[r].tobytes(), int(st.sn[r]),
                    int(st.turns[r]), st.pen[r].tobytes(), int(st.out[r]))
            g = int(st.gid[r])
            assert seen.setdefault(g, snap) == snap, f"game {g} changed after it ended"
    res = run(table(4), 300, _hook=hook)
    assert len(seen) == 300 and (res.turns > 0).all()


# ---------------------------------------------------------------------------- slaps (§C.14)

def fixed(ms: float) -> str:
    zero = "sigma=0,sigma_self=0,tau=0,tau_self=0,move_mu=0,move_sd=0,p_lapse=0,p_forget=0,q_htd=0,q_word=0,q_number=0"
    return f"adult:mu={ms},mu_self={ms},{zero}"


def test_window_zero_slowest_loses_every_race():
    """C.15 vector 9: L = {A: 250, B: 410, C: 395}; window 0 -> B; window 30 -> B or C, 1/2 each."""
    profiles = ["0=" + fixed(250), "1=" + fixed(410), "2=" + fixed(395)]
    res = run(table(3, ["htd.judge_window=0"], profiles), 2000)
    races = int(res.shouts.sum())
    assert races > 1000
    assert res.slaps_lost[:, 1].sum() == races and res.slaps_lost[:, [0, 2]].sum() == 0
    assert res.penalty[:, [0, 2], 0].sum() == 0 and res.penalty[:, :, 1:].sum() == 0
    res = run(table(3, ["htd.judge_window=30"], profiles), 2000)
    lost = res.slaps_lost.sum(axis=0)
    assert lost[0] == 0 and 0.45 < lost[1] / lost.sum() < 0.55


def test_off_seats_never_lose_forget_or_false_slap():
    res = run(table(4, ["htd.reaction=child"], ["2=off"]), 2000)
    assert res.slaps_lost[:, 2].sum() == 0 and res.forgot[:, 2].sum() == 0 and res.false_slaps[:, 2].sum() == 0
    assert res.penalty[:, 2].sum() == 0 and res.penalty.sum() > 0
    assert res.shouts[:, 2].sum() > 0


def test_all_off_no_penalty():
    res = run(table(4, ["htd.reaction=off"]), 1000)
    assert res.penalty.sum() == 0 and res.slaps_lost.sum() == 0 and res.false_slaps.sum() == 0
    assert res.shouts.sum() > 0


def test_two_player_shouter_nearly_always_wins():
    res = run(table(2), 600, record=True)
    races = [ev for evs in res.events for ev in evs if ev[0] == "slap" and ev[2]]
    assert len(races) > 500
    shouter_won = sum(ev[4] != ev[1] for ev in races) / len(races)
    assert shouter_won > 0.95


def test_penalties_by_cause():
    res = run(table(4, ["htd.reaction=child"]), 3000)
    pen = res.penalty.sum(axis=(0, 1))
    assert (pen > 0).all()
    assert pen[0] <= 4 * res.slaps_lost.sum() and pen[1] <= 4 * res.forgot.sum()
    assert pen[2] <= 2 * res.false_slaps.sum()
    res = run(table(4, ["htd.reaction=child", "htd.p_notice=0"]), 2000)
    assert res.forgot.sum() > 0 and res.penalty[:, :, 1].sum() == 0


# ---------------------------------------------------------------------------- memory (§C.10)

def _flip_scenario(memory):
    """2 players, dealer 1: start card R1, seat 0 plays its Red Flip, seat 1 flips; the new draw
    pile is [R1, RFLIP] (the discards, oldest on top) and seat 0 decides next."""
    rules = parse_rules([f"htd.memory={memory}", "htd.reaction=off"])
    t = Table(2, rules, seat_profiles([], 2, default="off"))
    deck = list(cards.deck_list(rules))
    # B1 goes on the Y1 the flip turns up
    h0 = [cards.flip(0), cards.number_card(1, 2), cards.number_card(1, 3), cards.number_card(1, 4),
          cards.number_card(2, 2), cards.number_card(2, 3), cards.number_card(2, 1)]
    h1 = [cards.number_card(3, 2), cards.number_card(3, 3), cards.number_card(3, 4), cards.number_card(2, 5),
          cards.number_card(1, 5), cards.number_card(3, 5), cards.number_card(0, 5)]
    for k in h0 + h1 + [cards.number_card(0, 1), cards.number_card(3, 1)]:
        deck.remove(k)
    draw = [cards.number_card(0, 1)] + deck + [cards.number_card(3, 1)]
    seen = []

    class Spy:
        def play(self, view, rng):
            seen.append((int(view.seat[0]), view.known_draw[0].tolist()))
            legal = view.legal[:, :DRAW]
            pick = np.argmax(legal, axis=1)
            return np.where(legal[:, cards.flip(0)], cards.flip(0), pick)
    spy = Spy()
    play(t, 1, [spy, spy], None, np.random.default_rng(0), np.random.default_rng(1), dealer=[1],
         hands=np.array([[h0, h1]]), draw_pile=np.array([draw]))
    assert seen[0] == (0, [-1] * 8)              # nothing is known before a flip
    assert seen[1][0] == 0
    return seen[1][1]


def test_memory_after_a_flip():
    R1, RFLIP = cards.number_card(0, 1), cards.flip(0)
    assert _flip_scenario("perfect") == [R1, RFLIP] + [-1] * 6
    assert _flip_scenario("p_recall(1)") == [R1, RFLIP] + [-1] * 6
    assert _flip_scenario("window(2)") == [-1, RFLIP] + [-1] * 6
    assert _flip_scenario("window(0)") == [-1] * 8
    assert _flip_scenario("p_recall(0)") == [-1] * 8


@pytest.mark.parametrize("memory", ["perfect", "window(5)", "p_recall(0.5)"])
def test_memory_is_never_wrong_and_never_more_than_allowed(memory):
    """Every known card is the card really there; before any flip nothing is known; window(K)
    never knows more than K; with perfect memory some decisions do know cards."""
    stats = {"known": 0}

    class Spy:
        def __init__(self):
            self.inner = make_strategy("hit-the-deck", "random")

        def play(self, view, rng):
            st, rows = view._st, view._rows
            kd = view.known_draw
            depth = np.arange(8)
            at = st.dn[rows][:, None] - 1 - depth[None, :]
            truth = np.where(at >= 0, st.draw[rows[:, None], np.maximum(at, 0)], -1)
            known = kd >= 0
            assert (kd[known] == truth[known]).all()
            never_flipped = ~(st.dstamp[rows] >= 0).any(axis=1)
            assert not known[never_flipped].any()
            if memory.startswith("window"):
                assert (known.sum(axis=1) <= 5).all()
            stats["known"] += int(known.sum())
            return self.inner.play(view, rng)
    run(table(3, [f"htd.memory={memory}", "htd.reaction=off"]), 400, Spy())
    assert stats["known"] > 0


class RandomWithMemory(RandomPlay):
    """`random` as a player that might read its memory: the State keeps the piles' stamps (with
    plain `random` in every seat it keeps none, and nothing is known)."""


def test_nothing_known_after_a_reshuffle(monkeypatch):
    t = table(4, ["htd.memory=perfect", "htd.reaction=child"])
    checked = []
    original = state.State.reshuffle

    def reshuffle(self, rows):
        moved = original(self, rows)
        if len(moved):
            kd = known_draw(self, moved, np.zeros(len(moved), dtype=np.int8))
            assert (kd == -1).all()
            checked.append(len(moved))
        return moved
    monkeypatch.setattr(state.State, "reshuffle", reshuffle)
    run(t, 300, RandomWithMemory())
    assert sum(checked) > 0


# ---------------------------------------------------------------------------- flags

def _events(players, args, n=300, profiles=(), strategy=None, seed=0):
    res = run(table(players, args, profiles), n, strategy, seed=seed, record=True)
    return res, [ev for evs in res.events for ev in evs]


def _replayed_sizes(res, t, i):
    """(event, draw size, discard size) right after each event of hand i, through the reference."""
    sizes = []

    def on_event(j, ev):
        sizes.append((ev, len(hand.draw), len(hand.discard)))
    rec = RecordedChance(res.events[i])
    hands = [[int(k) for k in h] for h in res.hands[i]]
    hand = ref.Hand(int(res.dealer[i]), hands, res.draw_pile[i], t.rules, t.profiles, rec.choose, rec,
                    on_event=on_event)
    hand.play()
    return sizes


def test_start_card_flag():
    res, _ = _events(4, [], n=600)
    res2, _ = _events(4, ["htd.start_card=first_player_plays_normally"], n=600)
    for r, acts in ((res, True), (res2, False)):
        cut_starts = [evs for evs in r.events if evs[0] == ["turn", evs[0][1]] and evs[0][1].endswith("CUT")]
        assert cut_starts
        firsts = [next(e for e in evs[1:] if e[0] not in ("false_slap", "penalty", "reshuffle")) for evs in cut_starts]
        assert all((e[0] == "cut") == acts for e in firsts)


def test_word_matches_word_flag():
    rules = parse_rules(["htd.word_matches_word=true"])
    t, t0 = Table(4, rules), table(4)
    rcut, gcut = cards.cut(0), cards.cut(1)
    assert t.legal[gcut] >> np.uint64(rcut) & np.uint64(1)
    assert not t0.legal[gcut] >> np.uint64(rcut) & np.uint64(1)


def test_voluntary_draw_and_optional_drawn_card():
    res, _ = _events(4, [], n=200)
    assert not any(38 in legal and len(legal) > 1 for d in res.decisions for _, legal, _ in d)
    assert not any(drawn >= 0 for d in res.decisions for _, _, drawn in d)
    res, _ = _events(4, ["htd.voluntary_draw=true"], n=200)
    assert any(38 in legal and len(legal) > 1 and drawn < 0 for d in res.decisions for _, legal, drawn in d)
    res, evs = _events(4, ["htd.drawn_card_play=optional"], n=200)
    kept = [d for dd in res.decisions for d in dd if d[2] >= 0]
    assert kept and all(d[1] == sorted([d[2], 38]) for d in kept)


@pytest.mark.parametrize("depth", ["exact_half", "uniform", "normal_half"])
def test_cut_depth_flags(depth):
    t = table(3, [f"htd.cut_depth={depth}", "htd.reaction=off"])
    res = run(t, 60, record=True)
    ratios = []
    for i in range(60):
        for ev, n_draw, _ in _replayed_sizes(res, t, i):
            if ev[0] == "cut" and ev[3] is not None:
                n = n_draw + 1                      # the exposed card has left the draw pile
                if depth == "exact_half":
                    assert ev[2] == max(1, n // 2)
                ratios.append(ev[2] / n)
    assert len(ratios) > 50
    spread = np.std(ratios)
    if depth == "uniform":
        assert spread > 0.2
    elif depth == "normal_half":
        assert 0.05 < spread < 0.2


def test_bury_position_exact_middle():
    t = table(3, ["htd.bury_position=exact_middle", "htd.reaction=off"])
    res = run(t, 400, record=True)
    buried = 0
    for i in range(400):
        if not any(ev[0] == "bury" for ev in res.events[i]):
            continue
        for ev, n_draw, n_disc in _replayed_sizes(res, t, i):
            if ev[0] == "bury":
                n = (n_draw if ev[1] == "draw" else n_disc) - 1     # the pile without the buried card
                assert ev[2] == max(1, n // 2)
                buried += 1
    assert buried > 0


def test_exposed_hand_card_and_final_card_effects():
    for args, consumed in (([], False), (["htd.exposed_hand_card=shouter_turn_consumed"], True)):
        res, _ = _events(4, args, n=1500, profiles=["off"])
        found = 0
        for evs in res.events:
            for j, ev in enumerate(evs[:-1]):
                if ev[0] in ("cut", "turn") and ev[-1] == "HH" and evs[j + 1][0] == "slap":
                    shouter = evs[j + 1][1]
                    nxt = next(e for e in evs[j + 2:] if e[0] in ("play", "draw"))
                    assert (nxt[1] != shouter) == consumed
                    found += 1
        assert found > 0
    for args, resolved in (([], False), (["htd.final_card_effects=resolve_then_score"], True)):
        res, _ = _events(3, args, n=1500)
        finals = [evs for evs in res.events if evs[-1][0] == "out" and evs[-2][0] != "play"]
        assert bool(finals) == resolved
        if resolved:
            assert all(any(e[0] == "slap" for e in evs[-8:]) for evs in finals)


def test_max_turns_and_quiet_stretch():
    res = run(table(4, ["htd.max_turns=100", "htd.voluntary_draw=true"]), 400)
    assert res.max_turns_hit > 0 and res.turns.max() <= 100
    assert (res.went_out[res.hit_max_turns] == -1).all()
    assert (res.score[res.blocked] > 0).all()


def test_announce_htd_cards():
    t = table(4, ["htd.announce_htd_cards=true", "htd.announce_factor=0", "htd.reaction=child"])
    res = run(t, 600, record=True)
    for evs in res.events:
        for j, ev in enumerate(evs[1:], 1):
            if ev[0] == "false_slap":
                k = j - 1
                while evs[k][0] in ("false_slap", "penalty", "reshuffle"):
                    k -= 1
                if evs[k][0] in ("play", "turn", "cut"):        # the card that prompted it
                    assert not evs[k][-1].startswith(("HN", "HC"))


def test_htd_number_values_and_colours():
    res = run(table(4, ["htd.htd_number_values=1,1,1,1,1,1,1,1,1,1"]), 300)
    assert res.opening[:, :, cards.htd_n(1) + 1:cards.htd_n(5) + 1].sum() == 0
    assert res.opening[:, :, cards.htd_n(1)].sum() > 0
    a = run(table(3, ["htd.colours=Red,Green,Blue,Yellow"]), 200)
    b = run(table(3), 200)
    assert np.array_equal(a.score, b.score)          # display names only (P8)


def test_games_to_target_score():
    t = table(4, ["htd.target_score=50"])
    strat = make_strategy("hit-the-deck", "random")
    g = play_games(t, 300, [strat] * 4, np.random.default_rng(1), np.random.default_rng(2), np.random.default_rng(3))
    assert g.finished.all()
    assert (g.scores.max(axis=1) >= 50).all()
    low = g.scores == g.scores.min(axis=1, keepdims=True)
    assert np.array_equal(g.winners, low)
    assert (g.hands >= 1).all() and g.hit_max_turns.sum() == 0
    g2 = play_games(table(4, ["htd.target_score=50", "htd.winner_tie=play_another_hand"]), 300, [strat] * 4,
                    np.random.default_rng(1), np.random.default_rng(2), np.random.default_rng(3))
    assert (g2.winners.sum(axis=1) == 1).all()
