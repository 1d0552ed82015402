"""Pieces every game's analyses share: running chunk tasks with progress and streamed records,
and the seeds that make two arms of a comparison play the same deals."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simulator.runner import CHUNK, Tally, run_chunks

Progress = Callable[[int], None] | None


def run(task, args: tuple, total: int, seed: int, jobs: int, progress: Progress = None,
        on_records: Callable[[list[str]], None] | None = None, chunk: int = CHUNK) -> Tally:
    """run_chunks with a progress callback (hands done) and hand-history lines streamed out."""
    def on_chunk(part: Tally, size: int) -> None:
        if on_records is not None and part.records:
            on_records(part.records)
        if progress is not None:
            progress(size)
    return run_chunks(task, args, total, seed, jobs, chunk=chunk, on_chunk=on_chunk)


def arm_seeds(seed: int, index: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
    """(deal seed, play seed) of chunk `index`: every arm of a paired comparison builds fresh
    generators from these, so all arms see the same deals and the same random streams."""
    return (np.random.SeedSequence(seed, spawn_key=(index, 0)),
            np.random.SeedSequence(seed, spawn_key=(index, 1)))


def match_lineups(side_of_seat, n_sides: int, a, b) -> list[list]:
    """Seatings for a strategy match: B everywhere first, then A in each side's seats in turn."""
    seats = range(len(side_of_seat))
    return [[b for _ in seats]] + [[a if side_of_seat[s] == side else b for s in seats] for side in range(n_sides)]


def match_metrics(name: str, per_lineup: list[np.ndarray]) -> dict[str, np.ndarray]:
    """Per deal, from each lineup's (n, sides) outcome (match_lineups order): A's value in its
    seats, B's in the same seats on the same deal, and the paired difference, each averaged over
    the sides so every seat is controlled for. (Means, not proportions: intervals are mean +- 1.96 SE.)"""
    base = per_lineup[0].astype(float)
    arm = np.stack([per_lineup[1 + s][:, s] for s in range(base.shape[1])], axis=1).astype(float)
    return {f"a_{name}": arm.mean(axis=1), f"b_{name}": base.mean(axis=1), f"d_{name}": (arm - base).mean(axis=1)}


def variant_rules(setup, variant_args: list[str]) -> tuple[str, ...]:
    """The what-if rule arguments (setup's own plus the variant's), checked."""
    from dataclasses import replace

    from simulator.errors import BadInput
    if not variant_args:
        raise BadInput("whatif needs at least one --rule flag=value to compare against the defaults")
    setup.validate()
    variant = tuple(setup.rule_args) + tuple(variant_args)
    replace(setup, rule_args=variant).validate()
    return variant


def paired(base: dict[str, np.ndarray], variant: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """base_*, variant_* and their paired differences d_* (p_ dropped from the difference's name)."""
    return {**{f"base_{k}": v for k, v in base.items()}, **{f"variant_{k}": v for k, v in variant.items()},
            **{f"d_{k.removeprefix('p_')}": variant[k].astype(float) - base[k] for k in base}}


def paired_names(names: list[str]) -> list[str]:
    return [f"base_{k}" for k in names] + [f"variant_{k}" for k in names] + [f"d_{k.removeprefix('p_')}" for k in names]


WHATIF_NOTE = ("The same deals and the same random streams under both rule sets; per seat, the outcome of "
               "the seat's side. d_* = variant minus base, a paired difference with its 95% interval.")
