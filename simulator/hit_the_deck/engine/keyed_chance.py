"""Counter-based chance for the batch engine: every random outcome of a hand from its own key.

Each game gets one 64-bit key from `chance_rng` when its hand starts, and a counter of chance
events. An outcome is a hash of (key, event counter, slot): splitmix64's finaliser of
key ^ (counter << 20 | slot). So a game's chance outcomes depend only on its key and on how many
chance events it has seen: row compaction, the other games, and the deal and strategy streams
never shift them, and two runs of the same deals whose states agree see the same outcomes
(paired comparisons). Slots number the uniforms used inside one event (seat, pile position...).

Events that consume a counter value: cut, burial, reshuffle, slap, false-slap check. Memory
(htd.memory=p_recall) hashes a separate domain (RECALL_SALT) and never moves the counter.
"""
from __future__ import annotations

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31, S11, S20 = (np.uint64(x) for x in (30, 27, 31, 11, 20))
RECALL_SALT = np.uint64(0x5DEECE66D1234567)
# The slots of a slap event: whether the shouter forgot, whether that was noticed (A-HTD-7), the
# race's tie-break, then RACE_SLOTS per seat from RACE_SLOT0 on (below it, room for the event's own)
FORGET_SLOT, NOTICE_SLOT, TIE_SLOT = 0, 1, 2
RACE_SLOT0 = 8
RACE_SLOTS = 5            # a seat's reaction time: two for its normals, its hesitation, a lapse and the lapse's length
TO_UNIT = 1.0 / 9007199254740992.0          # 2**-53


def mix(z: np.ndarray) -> np.ndarray:
    """splitmix64 of z (uint64 arrays; wrap-around arithmetic)."""
    z = z + GOLDEN
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


def hashes(key: np.ndarray, counter: np.ndarray, slot) -> np.ndarray:
    """(m,) or broadcast uint64 hashes of (key, counter, slot)."""
    with np.errstate(over="ignore"):
        word = (np.asarray(counter).astype(np.uint64) << S20) | np.asarray(slot).astype(np.uint64)
        return mix(key ^ word)


def uniform(key: np.ndarray, counter: np.ndarray, slot) -> np.ndarray:
    """Uniforms in (0, 1) (never exactly 0: logs are safe)."""
    with np.errstate(over="ignore"):
        return ((hashes(key, counter, slot) >> S11).astype(np.float64) + 0.5) * TO_UNIT


def normal_pair(u1: np.ndarray, u2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two independent standard normals from two uniforms (Box-Muller)."""
    r = np.sqrt(-2.0 * np.log(u1))
    return r * np.cos(2 * np.pi * u2), r * np.sin(2 * np.pi * u2)


def recall_keys(key: np.ndarray) -> np.ndarray:
    """The per-game keys of the memory domain (htd.memory=p_recall)."""
    with np.errstate(over="ignore"):
        return mix(key ^ RECALL_SALT)
