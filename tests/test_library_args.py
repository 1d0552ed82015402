"""Every bad argument of the library is a BadInput (issue 38 item 5): the issue's cases one by one,
and a Hypothesis fuzz over every public function of `moonshot` (one or two of its arguments replaced
by junk: wrong types, NaN, huge numbers, 5,000-character texts, nested lists and dicts) asserting
the call either works or raises BadInput whose message is one line and repeats no long value whole.
Sizes stay tiny (tens of hands); values that are valid but slow (big counts, many jobs, a rules
sweep) are left out of the junk, and reports are stubbed to a one-table document."""
from __future__ import annotations

import inspect
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import moonshot
from moonshot.simulator.errors import BadInput
from tests import budget
from tests.test_store import ROOT, moonshot as moonshot_command

HUGE = "x" * 5_000
STM_HAND = "R12 R7 BM G3 P5"


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """A one-hand Shoot the Moon history (the review's source)."""
    path = tmp_path_factory.mktemp("history") / "h.jsonl"
    done = subprocess.run([*moonshot_command(), "simulate", "shoot-the-moon", "-n", "1", "-q", "--history", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def quick_reports(monkeypatch):
    """Every game's build_report writes a one-table document (the library's checks are what is tested)."""
    import importlib

    import pandas as pd

    from moonshot.reports.document import Document

    def build_report(out, hands, seed, jobs, quiet=False):
        doc = Document("small", "moon")
        doc.table("numbers", pd.DataFrame({"hands": [hands], "seed": [seed]}), "what")
        return doc.write(out)

    for entry in moonshot.GAMES.values():
        monkeypatch.setattr(importlib.import_module(entry.report), "build_report", build_report)


def one_line(exc: BadInput) -> str:
    text = str(exc)
    assert "\n" not in text and text.strip() == text and text, repr(text)
    assert "x" * 200 not in text, text[:300]                        # a long value is cut short
    return text


# ------------------------------------------------------------------------------------------
# the issue's cases
# ------------------------------------------------------------------------------------------

def test_the_issues_bad_arguments_are_bad_input(tmp_path, history, quick_reports):
    cases = [
        (lambda: moonshot.hand("moon", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", samples=None), "samples=None is not a positive"),
        (lambda: moonshot.analyze("moon", ["bid-success"]), "unknown analysis ['bid-success'] for moon"),
        (lambda: moonshot.rules_lab("moon", strong=5), "strong=5 is not accepted"),
        (lambda: moonshot.rules_lab("moon", weak=["greedy"]), "weak=['greedy'] is not accepted"),
        (lambda: moonshot.review(history, seats=1.5), "seats=1.5 is not accepted"),
        (lambda: moonshot.review(history, seats=[0, "1"]), "seats=[0, '1'] is not accepted"),
        (lambda: moonshot.review(history, hand_ids={"a": 1}), "hand_ids={'a': 1} is not accepted"),
        (lambda: moonshot.review(tmp_path / "missing.jsonl"), "source="),
        (lambda: moonshot.review(5), "source=5 is not accepted"),
        (lambda: moonshot.review(HUGE), "source='xxxx"),
        (lambda: moonshot.report("moon", None), "out=None is not accepted"),
        (lambda: moonshot.report("moon", b"out"), "out=b'out' is not accepted"),
        (lambda: moonshot.report("moon", HUGE, hands=1_000), "cannot write the report into 'xxx"),
    ]
    for call, words in cases:
        with pytest.raises(BadInput) as caught:
            call()
        assert words in one_line(caught.value), (words, str(caught.value))


@pytest.mark.parametrize("call", [
    lambda: moonshot.simulate(HUGE),
    lambda: moonshot.simulate("moon", hands=HUGE),
    lambda: moonshot.simulate("moon", hands=50, strategy=HUGE),
    lambda: moonshot.simulate("moon", hands=50, rules=[HUGE]),
    lambda: moonshot.simulate("moon", hands=50, rules={HUGE: 1}),
    lambda: moonshot.compare("moon", HUGE, "random", hands=50),
    lambda: moonshot.analyze("moon", HUGE),
    lambda: moonshot.hand("moon", HUGE, samples=50),
    lambda: moonshot.whatif("moon", {"moon.min_bid": HUGE}, hands=50),
    lambda: moonshot.review([], worlds=HUGE),
])
def test_a_long_value_is_cut_short(call):
    with pytest.raises(BadInput) as caught:
        call()
    text = one_line(caught.value)
    assert len(text) < 1_000 and "5,000 characters" in text, text


# ------------------------------------------------------------------------------------------
# every public function, fuzzed
# ------------------------------------------------------------------------------------------

FUNCTIONS = [name for name in moonshot.__all__ if inspect.isfunction(getattr(moonshot, name))]


def test_the_fuzz_knows_every_public_function():
    assert set(FUNCTIONS) == set(BASE), "a new public function needs its base call below"


BASE = {      # a cheap call that works; the fuzz replaces one or two of its arguments
    "simulate": lambda tmp, hist: dict(game="shoot-the-moon", hands=50),
    "analyze": lambda tmp, hist: dict(game="moon", analysis="bid-success", n=50),
    "compare": lambda tmp, hist: dict(game="hit-the-deck", a="dump", b="random", hands=50),
    "whatif": lambda tmp, hist: dict(game="shoot-the-moon", rules={"stm.moon_chip_netting": "sequential"}, hands=50),
    "rules_lab": lambda tmp, hist: dict(game="shoot-the-moon", games=1, hands=10,
                                        sets={"seq": {"stm.moon_chip_netting": "sequential"}}),
    "hand": lambda tmp, hist: dict(game="shoot-the-moon", hand=STM_HAND, samples=50, check_samples=0),
    "report": lambda tmp, hist: dict(game="shoot-the-moon", out=tmp / "report", hands=1_000),
    "review": lambda tmp, hist: dict(source=hist, worlds=4),
}

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.integers(2**63, 2**80),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.just(HUGE),
                     st.binary(max_size=4), st.just(object()), st.just(Path("/nonexistent")))
JUNK = st.one_of(_SCALARS, st.lists(_SCALARS, max_size=3), st.tuples(_SCALARS),
                 st.dictionaries(st.text(max_size=6), _SCALARS, max_size=2),
                 st.dictionaries(st.text(max_size=6), st.dictionaries(st.text(max_size=6), _SCALARS, max_size=2),
                                 max_size=1))
# Valid but slow values are not junk: a count in the thousands or more, None for a count (its default
# is 100,000 hands or a whole rules sweep), more than one job, an empty rules-lab set (a sweep).
_CHEAP_COUNTS = st.one_of(st.sampled_from([-5, 0, 10**11, 2**70, 1.5, float("nan"), True, "50", HUGE, [50]]),
                          st.integers(1, 40))
SLOW = {
    "hands": _CHEAP_COUNTS, "games": _CHEAP_COUNTS, "n": _CHEAP_COUNTS, "samples": _CHEAP_COUNTS,
    "check_samples": st.one_of(_CHEAP_COUNTS, st.just(None)),
    "worlds": st.one_of(st.sampled_from([-1, 0, 1, 5_000, 10**20, 2.5, "8", HUGE, None, [4]]), st.integers(2, 8)),
    "jobs": st.sampled_from([0, -2, -7, 1, 1.0, "2", None, True, HUGE, [1]]),
    "sets": JUNK.filter(lambda v: v is not None and not (isinstance(v, (str, list, tuple, dict)) and not v)),
    "out": st.one_of(JUNK.filter(lambda v: not isinstance(v, (str, Path))), st.text("abc", min_size=1, max_size=5)),
    "source": JUNK.filter(lambda v: not isinstance(v, Path)),
}


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=budget.size(30, 300), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_every_bad_argument_is_bad_input_or_the_call_works(name, data, tmp_path, history, quick_reports, monkeypatch):
    monkeypatch.chdir(tmp_path)                  # a report's folder named by a junk text lands here
    function = getattr(moonshot, name)
    kwargs = BASE[name](tmp_path, history)
    params = list(inspect.signature(function).parameters)
    for p in data.draw(st.lists(st.sampled_from(params), min_size=1, max_size=2, unique=True), label="replaced"):
        kwargs[p] = data.draw(SLOW.get(p, JUNK), label=p)
    try:
        function(**kwargs)
    except BadInput as exc:
        one_line(exc)
