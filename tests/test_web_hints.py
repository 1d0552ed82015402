"""The Play page's hint is `moonshot review`'s valuation of the same decision (issue 28 item 3): a
hand of each game played through the play API, the hint asked at a decision of each kind, the
hand finished, and the review (the library call, with its default seed, as the Replay page's
"Review this hand" runs it) of its history for that seat gives every option the hint's value,
95% interval, difference from the best, P(win) and verdict."""
from __future__ import annotations

import json
import time
import warnings

import numpy as np
import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.analysis.review import review  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from moonshot.web.replay import option_words  # noqa: E402
from moonshot.simulator import games as registry  # noqa: E402

WORLDS = 8          # few worlds: the same numbers either way, in a fraction of the time
UNITS = {"moon": "points", "shoot-the-moon": "chips", "hit-the-deck": "penalty points"}
BY = {"moon": "pimc", "shoot-the-moon": "rollout", "hit-the-deck": "rollout"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(Limits(max_samples=5_000, default_samples=500),
                                 reports_dir=tmp_path_factory.mktemp("reports"), hosts=("testserver",)))


def moon_pick(prompt):
    """Win the auction (the highest call) so the discard and trump come to this seat."""
    return prompt["choices"][-1]["value"] if prompt["phase"] == "bid" else prompt["choices"][0]["value"]


def htd_picker():
    """Draw where drawing is a choice and keep what was drawn until one keep is made, so both come
    up; then play the first card (a short hand: the review is quick); slap in 300 ms."""
    kept = []

    def pick(prompt):
        if prompt["phase"] == "slap":
            return 300
        labels = [c["label"] for c in prompt["choices"]]
        if "keep it (end the turn)" in labels and not kept:
            kept.append(True)
            return prompt["choices"][labels.index("keep it (end the turn)")]["value"]
        if "draw a card" in labels and not kept:
            return prompt["choices"][labels.index("draw a card")]["value"]
        return prompt["choices"][0]["value"]
    return pick


def first(prompt):
    return prompt["choices"][0]["value"]


def kind_of(game: str, prompt) -> str:
    """The decision kind a prompt is: the phase; Hit the Deck's drawn card (play it or keep it) apart."""
    if game == "hit-the-deck" and any(c["label"] == "keep it (end the turn)" for c in prompt["choices"]):
        return "keep"
    return prompt["phase"]


def play_with_hints(client, game: str, form: dict, pick, kinds: set[str]):
    """The hand played to its end; the hint at the first decision of each of `kinds` with two or more
    options, with that decision's place among the seat's decisions (prompts that are decisions)."""
    state = client.post(f"/api/{game}/play", json={**form, "seat": "0"}).json()
    sid, hints, n = state["id"], {}, 0
    while state["state"] == "your turn":
        prompt = state["prompt"]
        kind = kind_of(game, prompt)
        if prompt["phase"] not in ("slap", "call"):           # reactions and end calls are not decisions
            if kind in kinds and kind not in hints and len(prompt["choices"]) > 1:
                r = client.get(f"/api/play/{sid}/hint?worlds={WORLDS}")
                assert r.status_code == 200, r.text
                hints[kind] = (n, r.json(), prompt)
            n += 1
        state = client.post(f"/api/play/{sid}/answer", json={"turn": prompt["turn"], "choice": pick(prompt)}).json()
    assert state["state"] == "over", state
    return json.loads(client.get(f"/api/play/{sid}/history").text), hints


def same(a, b) -> bool:
    return (a is None and (b is None or np.isnan(b))) or (a is not None and b is not None and a == b)


CASES = [("moon", {"players": "3", "seed": "9"}, lambda: moon_pick, {"bid", "discard", "trump", "play"}),
         ("moon", {"players": "4", "seed": "3"}, lambda: moon_pick, {"bid", "trump", "play"}),
         ("shoot-the-moon", {"players": "4", "seed": "8"}, lambda: first, {"play"}),
         ("shoot-the-moon", {"players": "2", "seed": "4", "rules": ["stm.dummy_mode=open_hand_nondealer_chooses"]},
          lambda: first, {"play"}),
         ("hit-the-deck", {"players": "3", "seed": "5", "rules": ["htd.voluntary_draw=on",
                                                                 "htd.drawn_card_play=optional"]},
          htd_picker, {"play", "keep"})]


@pytest.mark.parametrize("game, form, picker, kinds", CASES, ids=[f"{c[0]}-{c[1]['players']}" for c in CASES])
def test_a_hint_is_the_reviews_valuation_of_that_decision(client, game, form, picker, kinds):
    record, hints = play_with_hints(client, game, form, picker(), kinds)
    assert set(hints) == kinds, f"decisions not met in this hand: {kinds - set(hints)}"
    table = review([record], seats=[0], worlds=WORLDS).tables["decisions"]
    steps = sorted(set(table["step"]))
    for kind, (n, hint, prompt) in hints.items():
        assert hint["by"] == BY[game] and hint["unit"] == UNITS[game]
        assert "moonshot review" in hint["note"] and f"{WORLDS} worlds" in hint["note"]
        rows = table[table["step"] == steps[n]].set_index("option")
        assert sorted(r["move"] for r in hint["rows"]) == sorted(rows.index)
        assert {"bid": "pass", "play": "draw" if game == "hit-the-deck" else None,     # a pass, a draw, a keep
                "keep": "keep"}.get(kind) in set(rows.index) | {None}
        assert hint["rows"][0]["best"] and sum(r["best"] for r in hint["rows"]) == 1       # the best first, marked
        for r in hint["rows"]:
            row = rows.loc[r["move"]]
            for mine, theirs in (("value", "value"), ("low", "value_low"), ("high", "value_high"), ("diff", "diff"),
                                 ("diff_low", "diff_low"), ("diff_high", "diff_high")):
                assert same(r[mine], row[theirs]), (kind, r["move"], mine, r[mine], row[theirs])
            assert r["best"] == bool(row["best"]) and r["verdict"] == row["verdict"]
            assert r["low"] <= r["value"] <= r["high"]
            if "p_win" in rows.columns:
                assert same(r["p_win"], row["p_win"])
        told = [r for r in hint["rows"] if not r["best"] and r["diff_low"] <= 0 <= r["diff_high"]]
        # not told from the best: said so (or 'fine': whatever it loses is under the inaccuracy size)
        assert all(r["verdict"] in ("cannot be told", "best", "fine") for r in told)


def test_hit_the_deck_hints_are_rollouts_penalty_points_and_chance_to_win(client):
    pick = htd_picker()
    state = client.post("/api/hit-the-deck/play", json={"players": "3", "seat": "0", "seed": "2"}).json()
    while state["prompt"]["phase"] == "slap" or len(state["prompt"]["choices"]) < 2:
        state = client.post(f"/api/play/{state['id']}/answer",
                            json={"turn": state["prompt"]["turn"], "choice": pick(state["prompt"])}).json()
    hint = client.get(f"/api/play/{state['id']}/hint?worlds={WORLDS}").json()
    assert hint["by"] == "rollout" and hint["unit"] == "penalty points" and "tactician" not in hint["by"]
    assert "lower is better" in hint["note"]
    values = [r["value"] for r in hint["rows"]]
    assert all(r["low"] < r["high"] or r["low"] == r["high"] == r["value"] for r in hint["rows"])
    assert values[0] == min(values)                           # the best is the fewest points
    assert all(0 <= r["p_win"] <= 1 for r in hint["rows"])


def test_bad_worlds_for_a_hint_is_a_400_naming_what_is_accepted(client):
    state = client.post("/api/moon/play", json={"seat": "0", "seed": "9"}).json()
    r = client.get(f"/api/play/{state['id']}/hint?worlds=1")
    assert r.status_code == 400 and "2 to 128" in r.json()["error"]          # Limits.max_worlds (serve --max-worlds)


def test_the_replay_pages_review_of_the_played_hand_gives_the_hints_numbers(client):
    """The Replay page's "Review this hand" posts the record, the seats and the worlds and no seed
    (replay.js): the route's default seed is the hint's, so its job's numbers are the hint's."""
    record, hints = play_with_hints(client, "shoot-the-moon", {"players": "4", "seed": "8"}, first, {"play"})
    n, hint, _ = hints["play"]
    job = client.post("/api/review", json={"record": record, "seats": [0], "worlds": WORLDS})
    assert job.status_code == 202, job.text
    for _ in range(600):
        status = client.get(f"/api/jobs/{job.json()['id']}").json()
        if status["state"] != "running":
            break
        time.sleep(0.05)
    assert status["state"] == "done", status
    result = client.get(f"/api/jobs/{status['id']}/result?format=json").json()
    rows = [r for r in result["tables"]["decisions"] if r["seat"] == 0]
    step = sorted({r["step"] for r in rows})[n]
    theirs = {r["option"]: (r["value"], r["value_low"], r["value_high"], r["verdict"])
              for r in rows if r["step"] == step}
    said = option_words(registry.GAMES["shoot-the-moon"])       # the page names the review's options in words
    assert theirs == {said("play", r["move"]): (r["value"], r["low"], r["high"], r["verdict"]) for r in hint["rows"]}
