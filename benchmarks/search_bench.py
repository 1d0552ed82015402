"""Search players: speed and strength.

  * Moon `pimc` (32 worlds): hands per second with pimc in one seat and `threshold` in the others,
    3 players (and 4), one core (CPU seconds of this process; wall time beside it).
  * Shoot the Moon `rollout` (32 worlds, odd play-outs): rounds per second with rollout in one
    seat and `odd` in the others, 4 players.
  * Hit the Deck `rollout` (16 worlds, tactician play-outs): hands per second with rollout in one
    seat and `tactician` in the others, 4 players.
  * The paired margins, from analysis.common.match on the same deals with seats rotated:
    pimc against threshold (points per hand; 3 players, and 4 in partnerships, where also
    P(win the game to 21): a side's points per hand leave out what it takes from the other side,
    which whole games count) and rollout against odd (chips per round), each with its 95% interval.

Run alone (the machine may be shared: CPU time is the per-core figure):

    python benchmarks/search_bench.py [pimc_hands] [pimc_match_deals] [rollout_match_deals] [pimc_4p_deals]
                                      [pimc_4p_games] [htd_hands] [htd_games]
    python benchmarks/search_bench.py --htd [htd_hands]     # the Hit the Deck rollout speed alone
    python benchmarks/search_bench.py --pimc [hands] [repeats]   # Moon pimc's speed alone, 3 players (2 x hands)
                                                                 # and 4, each run `repeats` times (take the median)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moonshot.analysis.common import make_setup, match  # noqa: E402
from moonshot.strategies.base import make_strategy  # noqa: E402

MOON_DECISIONS = ("bid", "discard", "trump", "play")


def timed(fn) -> tuple[float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def pimc_speed(players: int, hands: int, worlds: int = 32) -> None:
    from moonshot.simulator.moon import engine
    table = engine.Table(players)
    pimc = make_strategy("moon", f"pimc:worlds={worlds}", MOON_DECISIONS)
    thr = make_strategy("moon", "threshold", MOON_DECISIONS)
    lineup = [pimc] + [thr] * (players - 1)
    engine.play(table, 2, lineup, np.random.default_rng(0), np.random.default_rng(0))          # compile / load
    cpu, wall = timed(lambda: engine.play(table, hands, lineup, np.random.default_rng(1), np.random.default_rng(2)))
    print(f"  pimc:worlds={worlds}, {players}p, one pimc seat: {hands / cpu:7.1f} hands/s per core "
          f"({hands / wall:.1f} wall), {hands} hands", flush=True)


def rollout_speed(hands: int, worlds: int = 32) -> None:
    from moonshot.simulator.shoot_the_moon import engine
    from moonshot.simulator.shoot_the_moon.rules import Rules
    table = engine.Table(4, False, Rules())
    rollout = make_strategy("shoot-the-moon", f"rollout:worlds={worlds}")
    odd = make_strategy("shoot-the-moon", "odd")
    lineup = [rollout, odd, odd, odd]
    engine.play(table, 8, lineup, np.random.default_rng(0), np.random.default_rng(0))
    cpu, wall = timed(lambda: engine.play(table, hands, lineup, np.random.default_rng(1), np.random.default_rng(2)))
    print(f"  rollout:worlds={worlds}, 4p, one rollout seat: {hands / cpu:7.0f} rounds/s per core "
          f"({hands / wall:.0f} wall), {hands} rounds", flush=True)


def htd_rollout_speed(hands: int, spec: str = "rollout") -> None:
    """A game's first hand, and a hand at its end (every total 70: value=auto values by wins)."""
    from moonshot.simulator.hit_the_deck.engine import Table, play
    table = Table(4)
    rollout = make_strategy("hit-the-deck", spec)
    tac = make_strategy("hit-the-deck", "tactician")
    lineup = [rollout, tac, tac, tac]
    for total in (0, 70):        # compiled kernels loaded, and win_chance's sample of 4,096 hands made once
        play(table, 8, lineup, *(np.random.default_rng(i) for i in (0, 0, 0)),
             scores=np.full((8, 4), total, dtype=np.int16))
    for when, total in (("first hand", 0), ("totals 70", 70)):
        scores = np.full((hands, 4), total, dtype=np.int16)
        cpu, wall = timed(lambda: play(table, hands, lineup, *(np.random.default_rng(i) for i in (1, 2, 3)),
                                       scores=scores))
        print(f"  Hit the Deck {spec}, 4p, one rollout seat, {when}: {hands / cpu:7.1f} hands/s per core "
              f"({hands / wall:.1f} wall), {hands} hands", flush=True)


def margin(game: str, players: int, a: str, b: str, deals: int, metric: str, games: bool = False) -> None:
    cpu, wall = 0.0, time.perf_counter()
    c0 = time.process_time()
    res = match(make_setup(game, players), a, b, hands=None if games else deals, games=deals if games else None,
                seed=2026)
    cpu, wall = time.process_time() - c0, time.perf_counter() - wall
    t = res.tables["match"].set_index("metric")
    d, a_, b_ = t.loc[f"d_{metric}"], t.loc[f"a_{metric}"], t.loc[f"b_{metric}"]
    unit = "games" if games else "deals"
    per = "" if games else " per hand"
    print(f"  {game} {players}p {a} vs {b}, {deals} {unit}: {a} {a_['estimate']:.3f}, {b} {b_['estimate']:.3f} "
          f"{metric}{per}; paired difference {d['estimate']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}] "
          f"({cpu:.0f} s CPU)", flush=True)


def main(pimc_hands: int = 60, pimc_deals: int = 200, rollout_deals: int = 4000, pimc4_deals: int = 100,
         pimc4_games: int = 0, htd_hands: int = 256, htd_games: int = 0) -> None:
    print("Search players")
    pimc_speed(3, pimc_hands)
    pimc_speed(4, max(pimc_hands // 2, 4))
    rollout_speed(2000)
    margin("moon", 3, "pimc", "threshold", pimc_deals, "score")
    if pimc4_deals:
        margin("moon", 4, "pimc", "threshold", pimc4_deals, "score")
    if pimc4_games:
        margin("moon", 4, "pimc", "threshold", pimc4_games, "win", games=True)
    margin("shoot-the-moon", 4, "rollout", "odd", rollout_deals, "chips")
    if htd_hands:
        htd_rollout_speed(htd_hands)
    if htd_games:
        margin("hit-the-deck", 4, "rollout", "tactician", htd_games, "win", games=True)


def pimc_only(hands: int = 200, repeats: int = 3) -> None:
    for players, n in ((3, 2 * hands), (4, hands)):
        for _ in range(repeats):
            pimc_speed(players, n)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pimc"]:
        pimc_only(*(int(a) for a in sys.argv[2:4]))
    elif sys.argv[1:2] == ["--htd"]:
        htd_rollout_speed(int(sys.argv[2]) if len(sys.argv) > 2 else 256)
    else:
        main(*(int(a) for a in sys.argv[1:8]))
