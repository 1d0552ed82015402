"""Before/after check for Hit the Deck engine work: every Result array of the batch engine for
several seeds, table sizes, rule flags, profiles and strategies, written to one .npz; `diff`
names every array that changed (bit for bit).

    python benchmarks/htd_dump.py write OUT.npz [--numpy]   # --numpy: hand.HandRun, not the kernels
    python benchmarks/htd_dump.py diff OLD.npz NEW.npz

Other engineers change strategies too: to check the engine alone, compare --numpy with the
default in the same tree.
"""
from __future__ import annotations

import sys

import numpy as np

CASES = [   # (players, flags, profiles, strategy, hands)
    (4, [], [], "random", 3000),
    (2, [], [], "random", 3000),
    (6, [], [], "random", 2000),
    (3, ["htd.start_card=first_player_plays_normally", "htd.word_matches_word=true"], [], "random", 2000),
    (4, ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"], [], "random", 2000),
    (5, ["htd.cut_depth=uniform", "htd.cut_exposed=top_of_remainder", "htd.bury_position=exact_middle"],
     [], "dump", 2000),
    (4, ["htd.cut_depth=exact_half", "htd.exposed_hand_card=shouter_turn_consumed",
         "htd.final_card_effects=resolve_then_score"], [], "random", 2000),
    (4, ["htd.p_notice=0.5", "htd.judge_window=0", "htd.announce_htd_cards=true", "htd.reaction=child"],
     ["0=off"], "random", 2000),
    (3, ["htd.htd_number_values=1,1,1,1,1,5,5,5,5,5", "htd.memory=window(3)", "htd.max_turns=9000"],
     ["distracted", "2=off"], "tactician", 1500),
    (4, ["htd.memory=p_recall(0.5)"], [], "tactician", 2000),
    (4, ["htd.voluntary_draw=true", "htd.drawn_card_play=optional"], [], "tactician", 1500),
    (4, [], [], "hold", 1500),
    (6, ["htd.reaction=off"], [], "random", 1000),
]
FIELDS = ("dealer", "hands", "opening", "went_out", "score", "turns", "blocked", "hit_max_turns", "penalty",
          "shouts", "slaps_lost", "forgot", "false_slaps")


def run_all(numpy: bool = False) -> dict[str, np.ndarray]:
    from moonshot.simulator.hit_the_deck.engine import Table, play, play_games
    from moonshot.simulator.hit_the_deck.profiles import seat_profiles
    from moonshot.simulator.hit_the_deck.rules import parse_rules
    from moonshot.strategies.base import parse_seat_specs
    out = {}
    for i, (players, flags, profiles, strategy, n) in enumerate(CASES):
        rules = parse_rules(list(flags), players)
        table = Table(players, rules, seat_profiles(list(profiles), players, default=rules.reaction))
        for seed in (1, 77):
            seats = parse_seat_specs("hit-the-deck", [strategy], players, default=strategy).strategies
            rngs = [np.random.default_rng(seed + j) for j in range(3)]
            res = play(table, n, seats, *rngs, _numpy=numpy)
            for f in FIELDS:
                out[f"case{i}_seed{seed}_{f}"] = getattr(res, f)
        if i < 3:
            seats = parse_seat_specs("hit-the-deck", [strategy], players, default=strategy).strategies
            g = play_games(table, 200, seats, *[np.random.default_rng(5 + j) for j in range(3)])
            for f in ("winners", "scores", "hands", "went_out", "blocked", "penalty"):
                out[f"case{i}_games_{f}"] = getattr(g, f)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "write":
        np.savez_compressed(sys.argv[2], **run_all("--numpy" in sys.argv))
    else:
        a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
        bad = [k for k in sorted(set(a.files) | set(b.files))
               if k not in a.files or k not in b.files or not np.array_equal(a[k], b[k])]
        print("\n".join(bad) or f"all {len(a.files)} arrays identical")
        sys.exit(1 if bad else 0)
