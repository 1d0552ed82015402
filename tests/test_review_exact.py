"""The review's values against exact enumeration late in a hand (issue 37 item 0): Moon and Shoot the Moon.

Late in a hand few pieces are unseen, so every deal of them that fits the seat's view can be listed. Each
option's EXACT value is the mean, over every such deal (each weighted alike, as the review's sampler deals
them: uniformly over the deals that fit, strategies/worlds.py), of the very per-world outcome the review
uses: the hook's own valuation (analysis/moon_review.py: the Moon solver on each world;
analysis/shoot_the_moon_review.py: RolloutPlay.playouts, the odd planner in every seat) is run with the
sampler swapped for a list of every deal. The review's 95% interval of each option's value (the `decisions`
table's value_low/value_high, at the game's default worlds) must cover the exact value for at least 90% of
the options of many decisions. Measured here: Moon 253 of 267 options (91 decisions of 12 hands, tricks 4-7) at
128 worlds, 156 of the 170 whose outcome varies over the deals; Shoot the Moon 118 of 122 (61 decisions of 40
rounds) at 64. At 32 worlds Moon's share falls to 240 of 267 (143 of 170 varying): a rare big swing missing
from a small sample gives a narrow interval beside the truth.

Shoot the Moon's play-out has no chance of its own (the odd planner is deterministic and the play-outs run
without the revoke model): each world's outcome is fixed by the world (a test checks it), so the exact
value is an average over deals only. Its deck leaves 39-40 cards unseen, so only the fourth trick of a
three-player round after the lead can be listed (at most 40 x C(39, 2) = 29,640 deals; the fifth trick is
forced).
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from moonshot.analysis import moon_review as mr
from moonshot.analysis import shoot_the_moon_review as sr
from moonshot.analysis.review import Judged, option_values, review
from moonshot.strategies import moon_search, stm_search
from tests.test_review import moon_records
from tests.test_review_cards import _simulate
from tests.test_worlds_uniform import PATTERNS, brute

SEED = 3                 # the review's seed (decision_rng(SEED, hand, step) deals its worlds)
COVERAGE = 0.90          # the share of options whose 95% interval must hold the exact value
MIN_OPTIONS = 100        # option values per game behind the share


# ------------------------------------------------------------------------------------ every deal

def every_deal(allowed, caps) -> np.ndarray:
    """(D, K) every deal of items 0..K-1 (K = sum(caps)) to groups, group g taking caps[g] items, item i
    only where allowed[i] has bit g, laid out as strategies.worlds.deal lays out `order` (group after
    group). Each deal once, as a set per group: the hooks read a hand as a set (Moon's tile masks, Shoot
    the Moon's hands sorted as the engine keeps them; no blind dummy stack here, whose order would count)."""
    caps = [int(c) for c in caps]
    K = sum(caps)
    allowed = np.asarray(allowed, dtype=np.int64)[:K]
    rows = np.zeros((1, 0), dtype=np.int64)
    for g, cap in enumerate(caps[:-1]):
        combos = list(itertools.combinations(np.flatnonzero(allowed >> g & 1), cap))
        combos = np.array(combos, dtype=np.int64).reshape(len(combos), cap)
        rows = np.concatenate([np.repeat(rows, len(combos), axis=0), np.tile(combos, (len(rows), 1))], axis=1)
        rows = rows[(np.diff(np.sort(rows, axis=1), axis=1) != 0).all(axis=1)]       # no item twice
    used = np.zeros((len(rows), K), dtype=bool)
    used[np.arange(len(rows))[:, None], rows] = True
    rest = np.argsort(used, axis=1, kind="stable")[:, :caps[-1]]                    # the last group: the rest
    fits = (allowed[rest] >> (len(caps) - 1) & 1).all(axis=1)
    return np.concatenate([rows, rest], axis=1)[fits]


def test_every_deal_is_the_brute_enumeration():
    """Each item's chance to be in each group over the listed deals is the item-by-item brute force's."""
    for name, (allowed, caps) in PATTERNS.items():
        deals = every_deal(allowed, caps)
        starts = np.cumsum([0] + caps)
        sets = {tuple(tuple(sorted(d[s:s + c].tolist())) for s, c in zip(starts, caps)) for d in deals}
        assert len(sets) == len(deals), name
        block = np.repeat(np.arange(len(caps)), caps)
        got = np.zeros((len(allowed), len(caps)))
        for d in deals:
            got[d, block] += 1
        assert np.allclose(got / len(deals), brute(allowed, caps)), name


class _Count(Exception):
    """A probe's answer: how many deals fit."""


def exact_decision(hook, search, record: dict, seat: int, step: int, monkeypatch, limit: int, seed: int = SEED):
    """The hook's Decision of `step` valued on every deal that fits the seat's view (the search module's
    sampler, `deal_uniform`, swapped for the list; a probe first learns how many there are), or None
    where more than `limit` deals fit."""
    probe = [True]

    def deal(rng, allowed, caps, worlds, tries=0):
        assert allowed.shape[0] == 1
        deals = every_deal(allowed[0], caps[0])
        if probe[0]:
            raise _Count(len(deals))
        assert len(deals) == worlds
        order = np.full((1, worlds, allowed.shape[1]), -1, dtype=np.int16)
        order[0, :, :deals.shape[1]] = deals
        return order, np.array([worlds > 0])

    with monkeypatch.context() as m:
        m.setattr(search, "deal_uniform", deal)
        try:
            hook.decisions(record, {seat}, 2, seed, steps=[step])
            raise AssertionError("the hook dealt no worlds")
        except _Count as found:
            n = found.args[0]
        if n > limit:
            return None
        probe[0] = False
        (decision,) = hook.decisions(record, {seat}, n, seed, steps=[step])
    return decision


def covered(hook, record: dict, seat: int, step: int, exact, worlds: int) -> list[bool]:
    """Whether each option's 95% interval (the review's option_values at `worlds`) holds its exact value."""
    (d,) = hook.decisions(record, {seat}, worlds, SEED, steps=[step])
    assert d.options == exact.options
    truth = exact.outcomes.mean(axis=0)
    return [bool(r["value_low"] - 1e-9 <= truth[k] <= r["value_high"] + 1e-9)
            for k, r in enumerate(option_values(Judged.of(d)))]


# ------------------------------------------------------------------------------------ Moon

def moon_late(records):
    """(record, seat, step) of every Moon play with a choice from the 4th trick on."""
    for record in records:
        shown, _ = mr._shown(mr._record_key(record))
        for step, (kind, view, _, _) in enumerate(shown):
            if kind == "play" and view.trick_no >= 3 and np.asarray(view.legal[0]).sum() > 1:
                yield record, int(view.seat[0]), step


@pytest.fixture(scope="module")
def moon_hands():
    return moon_records("threshold", 12, 11)


def test_moon_intervals_cover_the_exact_values(moon_hands, monkeypatch):
    hits = []
    for record, seat, step in moon_late(moon_hands):
        exact = exact_decision(mr, moon_search, record, seat, step, monkeypatch, limit=5000)
        hits += covered(mr, record, seat, step, exact, mr.WORLDS)
    assert len(hits) >= MIN_OPTIONS
    assert np.mean(hits) >= COVERAGE, f"{sum(hits)} of {len(hits)} covered"


# ------------------------------------------------------------------------------------ Shoot the Moon

STM_LIMIT = 30_000       # deals per decision: the 4th trick of three players, 2nd and 3rd to play


@pytest.fixture(scope="module")
def stm_rounds(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("review_exact")) / "stm.jsonl"
    return _simulate(path, "shoot-the-moon", 40, "odd", "--players", "3")


def stm_late(records):
    """(record, seat, step) of every Shoot the Moon play with a choice in the 4th trick, after the lead."""
    for record in records:
        for step, chooser, view, _ in sr.positions(record):
            if view is not None and view.trick_no == 3 and view.position > 0 and np.asarray(view.legal[0]).sum() > 1:
                yield record, int(chooser), step


def test_stm_intervals_cover_the_exact_values(stm_rounds, monkeypatch):
    hits = []
    for record, seat, step in stm_late(stm_rounds):
        exact = exact_decision(sr, stm_search, record, seat, step, monkeypatch, limit=STM_LIMIT)
        if exact is not None and not exact.forced:
            hits += covered(sr, record, seat, step, exact, sr.WORLDS)
    assert len(hits) >= MIN_OPTIONS
    assert np.mean(hits) >= COVERAGE, f"{sum(hits)} of {len(hits)} covered"


def test_stm_world_outcomes_have_no_chance_of_their_own(stm_rounds, monkeypatch):
    """The same listed deals valued under other seeds (other play-out streams): the same outcome in every
    world, so the exact value is the deals' mean and nothing else."""
    checked = 0
    for record, seat, step in list(stm_late(stm_rounds))[:6]:
        one = exact_decision(sr, stm_search, record, seat, step, monkeypatch, STM_LIMIT, seed=1)
        two = exact_decision(sr, stm_search, record, seat, step, monkeypatch, STM_LIMIT, seed=2)
        if one is not None:
            assert np.array_equal(one.outcomes, two.outcomes)
            checked += 1
    assert checked >= 3


# ------------------------------------------------------------------------------------ the review's own rows

@pytest.mark.parametrize("game", ["moon", "shoot-the-moon"])
def test_the_intervals_checked_are_the_reviews(game, moon_hands, stm_rounds):
    """The intervals above (the hook's decision judged by option_values) are the review's `decisions`
    table's value_low/value_high for the same hand, seat and step."""
    hook, records, late = {"moon": (mr, moon_hands, moon_late), "shoot-the-moon": (sr, stm_rounds, stm_late)}[game]
    record, seat, step = next(late(records))
    table = review([record], seats=[seat], worlds=hook.WORLDS, seed=SEED).tables["decisions"]
    rows = table[table["step"] == step]
    (d,) = hook.decisions(record, {seat}, hook.WORLDS, SEED, steps=[step])
    mine = option_values(Judged.of(d))
    assert list(rows["option"]) == d.options
    for col in ("value", "value_low", "value_high"):
        assert np.allclose(rows[col].to_numpy(float), [r[col] for r in mine], equal_nan=True)
