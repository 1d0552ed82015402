"""Hit the Deck strategies head to head: paired matches and the strongest strategy's speed.

Each pair (A, B) plays the same deals twice: once with B in every seat, once with A in one seat
and B in the others. A's seat rotates over the deals (deal i: seat i % players), and both arms use
the same deal, strategy and chance streams, so the per-deal difference

    d = (A's penalty points in its seat) - (B's penalty points in that seat, same deal, all B)

is paired. Reported: mean d with a 95% interval (mean +- 1.96 SE of the per-deal d), the same for
going out first (went_out == A's seat), and with --games the same for whole games to
htd.target_score (P(win), shared wins count as wins).

    python benchmarks/htd_strategies.py                       # all pairs, 4 players
    python benchmarks/htd_strategies.py --hands 200000 --games 20000
    python benchmarks/htd_strategies.py --pairs tactician:random --players 2
    python benchmarks/htd_strategies.py --speed tactician     # hands/s, 65,536-hand chunks, one core
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from itertools import combinations
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core: no BLAS worker threads (set before numpy)
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moonshot.simulator.hit_the_deck.engine import Table, deal, play, play_games  # noqa: E402
from moonshot.simulator.hit_the_deck.rules import parse_rules  # noqa: E402
from moonshot.strategies.base import make_strategy  # noqa: E402

GAME = "hit-the-deck"
Z = 1.96
STRATEGIES = ("random", "dump", "hold", "tactician")


def interval(d: np.ndarray) -> tuple[float, float, int]:
    """(mean, half-width of the 95% interval, n) of per-deal paired differences."""
    d = np.asarray(d, dtype=np.float64)
    return float(d.mean()), float(Z * d.std(ddof=1) / np.sqrt(len(d))), len(d)


def _seats(a, b, players: int, seat: int) -> list:
    return [a if s == seat else b for s in range(players)]


def paired_hands(a: str, b: str, players: int = 4, n: int = 40_000, seed: int = 1, rules=(),
                 chunk: int = 65_536) -> dict[str, np.ndarray]:
    """Per-deal paired differences (A minus B in A's seat): 'points' and 'out_first'."""
    table = Table(players, parse_rules(list(rules), players))
    sa, sb = make_strategy(GAME, a), make_strategy(GAME, b)
    points, out = [], []
    done, block = 0, 0
    while done < n:
        m = min(chunk, n - done)
        for seat in range(players):                     # deal i of the block goes with seat i % players
            k = len(range(seat, m, players))
            if not k:
                continue
            ss = np.random.SeedSequence([seed, block, seat])
            d_seed, p_seed, c_seed = ss.spawn(3)
            arms = []
            for strategies in (_seats(sa, sb, players, seat), [sb] * players):
                r = play(table, k, strategies, np.random.default_rng(d_seed), np.random.default_rng(p_seed),
                         np.random.default_rng(c_seed))
                arms.append(r)
            ra, rb = arms
            points.append(ra.score[:, seat].astype(np.int32) - rb.score[:, seat])
            out.append((ra.went_out == seat).astype(np.int8) - (rb.went_out == seat))
        done += m
        block += 1
    return {"points": np.concatenate(points), "out_first": np.concatenate(out)}


def paired_games(a: str, b: str, players: int = 4, n: int = 10_000, seed: int = 1, rules=()) -> np.ndarray:
    """Per-game paired differences of A winning (its seat among the winners) minus B in that seat."""
    table = Table(players, parse_rules(list(rules), players))
    sa, sb = make_strategy(GAME, a), make_strategy(GAME, b)
    out = []
    for seat in range(players):
        k = len(range(seat, n, players))
        ss = np.random.SeedSequence([seed, 10_000 + seat])
        d_seed, p_seed, c_seed = ss.spawn(3)
        wins = []
        for strategies in (_seats(sa, sb, players, seat), [sb] * players):
            g = play_games(table, k, strategies, np.random.default_rng(d_seed), np.random.default_rng(p_seed),
                           np.random.default_rng(c_seed))
            wins.append(g.winners[:, seat].astype(np.int8))
        out.append(wins[0] - wins[1])
    return np.concatenate(out)


def hands_per_second(spec: str, players: int = 4, chunk: int = 65_536, repeat: int = 3, rules=()) -> float:
    """Best of `repeat` one-chunk runs with `spec` in every seat (one process, one core)."""
    table = Table(players, parse_rules(list(rules), players))
    strat = make_strategy(GAME, spec)
    seats = [strat] * players
    play(table, 4096, seats, np.random.default_rng(0), np.random.default_rng(0), np.random.default_rng(0))
    best = 0.0
    for i in range(repeat):
        rng = np.random.default_rng(i + 1)
        hands, pile = deal(rng, chunk, table)
        t0 = time.perf_counter()
        play(table, chunk, seats, rng, np.random.default_rng(i), np.random.default_rng(i), hands=hands,
             draw_pile=pile)
        best = max(best, chunk / (time.perf_counter() - t0))
    return best


def _fmt(mean: float, half: float, scale: float = 1.0, digits: int = 3) -> str:
    return f"{mean * scale:+.{digits}f} ± {half * scale:.{digits}f}"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=100_000, help="deals per pair")
    ap.add_argument("--games", type=int, default=0, help="whole games per pair (0: skip)")
    ap.add_argument("--pairs", nargs="*", help="A:B pairs (default: every pair of %s)" % ", ".join(STRATEGIES))
    ap.add_argument("--rule", action="append", default=[], help="htd.* flag, e.g. htd.voluntary_draw=true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", nargs="*", help="strategies to time (hands/s at 65,536-hand chunks)")
    args = ap.parse_args(argv)
    if args.speed is not None:
        for spec in args.speed or ["tactician"]:
            hps = hands_per_second(spec, args.players, rules=args.rule)
            print(f"{spec}: {hps:,.0f} hands/s ({args.players} players, 65,536-hand chunks, one core)", flush=True)
        return
    if args.pairs:
        pairs = [tuple(p.split("/")) if "/" in p else tuple(p.rsplit(":", 1)) for p in args.pairs]
    else:
        order = STRATEGIES[::-1]                       # stronger first: A = the later-listed strategy
        pairs = [(a, b) for a, b in combinations(order, 2)]
    print(f"{args.players} players, {args.hands:,} deals per pair"
          + (f", {args.games:,} games" if args.games else "") + (f", rules {args.rule}" if args.rule else ""))
    print(f"{'A vs B':26} {'d points/hand (A-B)':>22} {'d P(out first)':>20}"
          + (f" {'d P(win game)':>20}" if args.games else ""))
    for a, b in pairs:
        t0 = time.perf_counter()
        d = paired_hands(a, b, args.players, args.hands, args.seed, args.rule)
        pm, ph, n = interval(d["points"])
        om, oh, _ = interval(d["out_first"])
        line = f"{a + ' vs ' + b:26} {_fmt(pm, ph, digits=3):>22} {_fmt(om, oh, digits=4):>20}"
        if args.games:
            gm, gh, gn = interval(paired_games(a, b, args.players, args.games, args.seed, args.rule))
            line += f" {_fmt(gm, gh, digits=4):>20}"
        print(line + f"   n={n:,}" + (f" games={gn:,}" if args.games else "") + f" ({time.perf_counter() - t0:.0f}s)",
              flush=True)


if __name__ == "__main__":
    main()
