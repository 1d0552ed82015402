"""Moon throughput (hands per second, one core): full hands (deal + auction + widow/trump + play +
score) with random choices in every phase. Run by benchmarks/bench.py, or alone:

    python benchmarks/moon_bench.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from simulator.runner import CHUNK  # noqa: E402

HANDS = 8 * CHUNK


def moon_batch(players: int = 3, flags: tuple[str, ...] = (), strategy: str | None = None):
    """fn(n): n full hands in chunks of CHUNK with the batch engine. `strategy` None = the fast
    random player of tests/moon_testing.py; otherwise a registered strategy name."""
    from simulator.moon.engine import MoonTable, play_hands
    from simulator.moon.rules import parse_rules
    table = MoonTable(players, parse_rules(list(flags)))
    if strategy is None:
        from moon_testing import RandomPlayer
        seats = [RandomPlayer()] * players
    else:
        from strategies.base import parse_seat_specs
        seats = parse_seat_specs("moon", [strategy], players, default=strategy,
                                 required=("bid", "discard", "trump", "play")).strategies
    deal_rng, play_rng = np.random.default_rng(1), np.random.default_rng(2)

    def run(n):
        for start in range(0, n, CHUNK):
            play_hands(table, min(CHUNK, n - start), seats, deal_rng, play_rng)
    return run


def moon_reference(players: int = 3):
    """fn(n): n hands through reference.Hand with uniform random choices (for the speed-up ratio)."""
    from simulator.moon import reference as ref
    from simulator.moon.rules import Rules
    rules = Rules()
    rng = np.random.default_rng(5)

    def run(n):
        for _ in range(n):
            hands, widow = ref.deal(rng, players, rules)
            hand = ref.Hand(hands, widow, int(rng.integers(players)), rules)
            while hand.phase != ref.DONE:
                legal = hand.legal()
                hand.act(legal[int(rng.integers(len(legal)))])
    return run


def benches(rate) -> list[tuple[str, float]]:
    """[(label, hands per second)] measured on one core with `rate(fn, hands)` of bench.py."""
    out = [("moon 3p batch, random, full hands", rate(moon_batch(3), HANDS)),
           ("moon 4p batch, random, full hands", rate(moon_batch(4), HANDS)),
           ("moon 3p batch, random, leader_calls_end+open", rate(moon_batch(
               3, ("moon.lead_suit_rule=leader_calls_end", "moon.auction=open_until_passes")), HANDS // 2))]
    try:                                       # the registered strategies, when strategies/moon.py has them
        out.append(("moon 3p batch, registered 'random'", rate(moon_batch(3, strategy="random"), HANDS // 2)))
    except Exception as exc:                   # noqa: BLE001 - a benchmark must not die on a sibling module
        print(f"  (registered moon strategies not measured: {type(exc).__name__}: {exc})")
    out.append(("moon 3p reference.Hand, random", rate(moon_reference(3), 2_000, repeat=2)))
    return out


if __name__ == "__main__":
    from benchmarks.bench import rate
    for label, value in benches(rate):
        print(f"  {label:<48} {value:>12,.0f}")
