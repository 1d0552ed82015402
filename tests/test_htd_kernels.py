"""The compiled hand loop (engine/fast.py, kernels.py) gives the numpy one's numbers bit for bit:
every Result array, for table sizes, rule flags, profiles and strategies that reach each kernel
path (cuts of every depth rule, flips and burials, slaps, false slaps, penalties, reshuffles,
voluntary draws and kept drawn cards). The numpy loop is the one the parity tests replay."""
from __future__ import annotations

import numpy as np
import pytest

from moonshot.simulator.hit_the_deck.engine import Table, play
from moonshot.simulator.hit_the_deck.engine import state
from moonshot.simulator.hit_the_deck.engine.kernel_args import mirrors_numpy
from moonshot.simulator.hit_the_deck.profiles import seat_profiles
from moonshot.simulator.hit_the_deck.rules import parse_rules
from moonshot.strategies.base import make_strategy

FIELDS = ("went_out", "score", "turns", "blocked", "hit_max_turns", "penalty", "shouts", "slaps_lost", "forgot",
          "false_slaps")
CASES = [
    (4, [], (), "random"),
    (2, ["htd.start_card=first_player_plays_normally", "htd.word_matches_word=true"], (), "random"),
    (6, ["htd.cut_depth=uniform", "htd.cut_exposed=top_of_remainder", "htd.bury_position=exact_middle"],
     ("child",), "dump"),
    (4, ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"], (), "tactician"),
    (4, ["htd.cut_depth=exact_half", "htd.exposed_hand_card=shouter_turn_consumed",
         "htd.final_card_effects=resolve_then_score"], ("0=off",), "random"),
    (3, ["htd.p_notice=0.5", "htd.judge_window=0", "htd.announce_htd_cards=true", "htd.memory=p_recall(0.5)"],
     ("distracted", "1=child"), "tactician"),
]


@pytest.mark.parametrize("players,flags,profiles,strategy", CASES)
def test_compiled_loop_gives_the_numpy_numbers(players, flags, profiles, strategy):
    rules = parse_rules(list(flags), players)
    table = Table(players, rules, seat_profiles(list(profiles), players, default=rules.reaction))
    runs = []
    for numpy in (True, False):
        strat = make_strategy("hit-the-deck", strategy)
        rngs = [np.random.default_rng(11 + j) for j in range(3)]
        runs.append(play(table, 600, [strat] * players, *rngs, _numpy=numpy))
    numpy_run, compiled = runs
    assert compiled.penalty.sum() > 0 and compiled.turns.min() > 0
    for f in FIELDS:
        assert np.array_equal(getattr(numpy_run, f), getattr(compiled, f)), f


def test_a_replaced_state_method_runs_the_numpy_loop(monkeypatch):
    assert mirrors_numpy()
    monkeypatch.setattr(state.State, "reshuffle", lambda self, rows: rows[:0])
    assert not mirrors_numpy()


@pytest.mark.parametrize("memory", ["perfect", "window(3)", "window(0)", "p_recall(0.4)"])
def test_compiled_known_draw_is_the_numpy_one(memory):
    from moonshot.simulator.hit_the_deck.engine.lazy_view import known_draw, known_draw_numpy
    from moonshot.strategies.hit_the_deck import RandomPlay

    seen = []

    class Probe(RandomPlay):
        def play(self, view, rng):
            got = known_draw(view._st, view._rows, view._seats)
            assert np.array_equal(got, known_draw_numpy(view._st, view._rows, view._seats))
            seen.append(int((got >= 0).sum()))
            return super().play(view, rng)

    table = Table(4, parse_rules([f"htd.memory={memory}", "htd.voluntary_draw=true"], 4))
    play(table, 300, [Probe()] * 4, *[np.random.default_rng(3 + j) for j in range(3)])
    assert len(seen) > 50
    assert (sum(seen) > 0) == (memory != "window(0)")


@pytest.mark.parametrize("flags", [[], ["htd.voluntary_draw=true", "htd.cut_depth=uniform",
                                        "htd.final_card_effects=resolve_then_score", "htd.p_notice=0.5"],
                                   ["htd.drawn_card_play=optional", "htd.memory=p_recall(0.5)"]])
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
@pytest.mark.parametrize("strategy", ["random", "tactician"])
def test_one_compiled_call_is_the_per_pass_loop(flags, bit_generator, strategy, monkeypatch):
    """FastRun.one_compiled_call (every seat `random`: compiled_run, each pass one sweep over the
    games; every seat one `tactician`: htd_playout's loop) against FastRun's per-pass loop (a hook
    forces it): the same results, and the players' generator left in the same state (the uniforms
    or the noise are drawn ahead, then it is rewound and moved on: PCG64 by advance)."""
    from moonshot.simulator.hit_the_deck.engine import compiled_run
    from moonshot.strategies import htd_playout
    table = Table(4, parse_rules(flags, 4))
    strat = make_strategy("hit-the-deck", strategy)
    compiled_calls = []
    for module, name in ((compiled_run, "play"), (htd_playout, "play_out")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, _n=name: compiled_calls.append(_n) or _f(*a))
    runs, after = [], []
    for hook in (lambda st: None, None):
        rngs = [np.random.Generator(bit_generator(5 + j)) for j in range(3)]
        runs.append(play(table, 3000 if strategy == "random" else 1000, [strat] * 4, *rngs, _hook=hook))
        after.append(rngs[1].random(4))
    optional = "htd.drawn_card_play=optional" in flags
    assert compiled_calls == ([] if strategy == "random" and optional else
                              ["play" if strategy == "random" else "play_out"])
    assert runs[1].turns.min() > 0 and runs[1].slaps_lost.sum() > 0
    for f in FIELDS:
        assert np.array_equal(getattr(runs[0], f), getattr(runs[1], f)), f
    assert np.array_equal(after[0], after[1])


def test_random_play_without_the_piles_stamps_gives_the_same_numbers():
    """Every seat `random`: the State keeps no stamps (nothing reads them) and compiled_run plays;
    a RandomPlay subclass (it might read memory) keeps them and plays FastRun's per-pass loop."""
    from moonshot.strategies.hit_the_deck import RandomPlay

    class Keeps(RandomPlay):
        pass

    table = Table(4, parse_rules(["htd.cut_depth=uniform"], 4))
    widths = {}

    def play_with(strat, hook=None):
        return play(table, 2000, [strat] * 4, *[np.random.default_rng(9 + j) for j in range(3)], _hook=hook)

    play_with(RandomPlay(), lambda st: widths.setdefault("random", st.dstamp.shape[1]))
    runs = [play_with(RandomPlay()), play_with(Keeps(), lambda st: widths.setdefault("keeps", st.dstamp.shape[1]))]
    assert widths == {"random": 0, "keeps": state.PILE}
    for f in FIELDS:
        assert np.array_equal(getattr(runs[0], f), getattr(runs[1], f)), f


def test_the_compiled_pass_loop_is_recompiled_when_a_kernel_file_changes():
    import hashlib

    from moonshot.simulator.hit_the_deck.engine import compiled_run, kernels
    stamp = compiled_run._passes._cache._cache_file._source_stamp
    with open(kernels.__file__, "rb") as f:
        assert hashlib.sha256(f.read()).digest() in stamp


def test_threads_playing_at_once_get_the_numbers_each_gets_alone():
    """The server plays several runs at once, each in a thread, and the compiled loops release the
    GIL: they keep nothing one thread could spoil for another (the play-out loop's buffers are the
    thread's own), so each run gets the numbers it gets alone."""
    from concurrent.futures import ThreadPoolExecutor
    table = Table(4, parse_rules(["htd.voluntary_draw=true"], 4))

    def run(seed):
        strat = make_strategy("hit-the-deck", "tactician")
        return play(table, 1500, [strat] * 4, *[np.random.default_rng(seed + j) for j in range(3)])

    seeds = range(0, 24, 3)
    alone = [run(seed) for seed in seeds]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(run, seeds))
    for a, b in zip(alone, together):
        for f in FIELDS:
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
