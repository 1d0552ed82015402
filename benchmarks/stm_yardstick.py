"""The yardstick for the Shoot the Moon batch engine: a plain compiled (numba) scalar loop of the
same round (4 players, individual, default rules, random legal play, every seat from 2 chips),
one round after another, with no batch, no strategies object and no records. It plays the game
to the end: the deal, 5 tricks of legal plays (STM-4), trick winners (STM-5), Moon chips netted
per trick (STM-6, A-STM-3) and the round award (STM-7). Not a second engine: a speed reference.

    python benchmarks/stm_yardstick.py          # batch engine / this loop, interleaved in one process
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


@numba.njit(cache=True)
def play_rounds(n: int, seed: int) -> np.ndarray:
    """Chips per seat summed over n rounds (a checksum that keeps the work from being skipped)."""
    np.random.seed(seed)
    deck = np.arange(52)
    hands = np.empty((4, 5), dtype=np.int64)
    left = np.empty(4, dtype=np.int64)
    trick = np.empty(4, dtype=np.int64)
    legal = np.empty(5, dtype=np.int64)
    total = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        for i in range(20):                              # the 20 dealt cards of one shuffle
            j = i + np.random.randint(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for s in range(4):
            for k in range(5):
                hands[s, k] = deck[5 * s + k]
            left[s] = 5
        leader = (np.random.randint(4) + 1) % 4          # the dealer's left leads
        chips = np.full(4, 2)
        tricks = np.zeros(4, dtype=np.int64)
        for _t in range(5):
            led = -1                                     # suit to follow (-1: none, or a Moon lead)
            for k in range(4):
                s = (leader + k) % 4
                m = 0
                if k > 0 and led >= 0:
                    for i in range(left[s]):
                        if hands[s, i] // 12 == led or hands[s, i] >= 48:
                            legal[m] = i
                            m += 1
                    holds = False
                    for i in range(left[s]):
                        holds = holds or hands[s, i] // 12 == led
                    if not holds:
                        m = 0
                if m == 0:
                    for i in range(left[s]):
                        legal[i] = i
                    m = left[s]
                at = legal[np.random.randint(m)]
                card = hands[s, at]
                left[s] -= 1
                hands[s, at] = hands[s, left[s]]
                trick[k] = card
                if k == 0 and card < 48:
                    led = card // 12
            best, win, moons = -1, 0, 0
            for k in range(4):                           # STM-5: Big Moon, else red, else led suit
                c = trick[k]
                if c == 48 or c == 49:
                    strength = 1000 - k
                elif c >= 50:
                    strength = -1
                elif trick[0] >= 50:
                    strength = c % 12                    # a Little Moon lead: highest number
                elif c // 12 == 0:
                    strength = 100 + c % 12
                elif c // 12 == led:
                    strength = c % 12
                else:
                    strength = -1
                if strength > best:
                    best, win = strength, k
                moons += 1 if c == 48 or c == 49 else (-1 if c >= 50 else 0)
            winner = (leader + win) % 4
            chips[winner] = max(0, chips[winner] + moons)
            tricks[winner] += 1
            leader = winner
        for s in range(4):
            chips[s] += 2 if tricks[s] == 5 else (1 if tricks[s] == 1 or tricks[s] == 3 else 0)
            total[s] += chips[s]
    return total


def yardstick_rate(hands: int) -> float:
    play_rounds(100, 1)
    t0 = time.process_time()
    play_rounds(hands, 2)
    return hands / (time.process_time() - t0)


def compare(hands: int, repeats: int = 3, out=print, medians: dict | None = None) -> float:
    """Batch engine random rounds/s over the yardstick's, interleaved in this process: ratio of
    medians (and, into `medians`, each side's median rounds/s: 'ours' and 'yardstick')."""
    from bench import CHUNK, stm_batch
    batch = stm_batch("random")
    batch(CHUNK // 8)
    ours, yard = [], []
    for _ in range(repeats):
        t0 = time.process_time()
        batch(hands)
        ours.append(hands / (time.process_time() - t0))
        yard.append(yardstick_rate(hands))
        out(f"  batch engine {ours[-1]:>12,.0f} rounds/s CPU   compiled scalar loop {yard[-1]:>12,.0f}")
    if medians is not None:
        medians.update(ours=statistics.median(ours), yardstick=statistics.median(yard))
    return statistics.median(ours) / statistics.median(yard)


if __name__ == "__main__":
    import os
    got: dict = {}
    ratio = compare(8 * 65_536, medians=got)
    print(f"Shoot the Moon random: batch engine {got['ours']:,.0f} rounds/s, compiled scalar loop "
          f"{got['yardstick']:,.0f}: ratio {ratio:.2f} (target 0.78; load {os.getloadavg()[0]:.1f})")
