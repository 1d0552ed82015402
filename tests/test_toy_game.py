"""A fourth game declared from inside tests/ alone runs through the shared verbs: registering its
entry is all it takes (no shared file names it)."""
import json

import pytest

from moonshot.simulator import games
from tests.test_cli import run
from tests.toy_game import GAME


@pytest.fixture
def toy():
    games.register(GAME)
    yield GAME.name
    games.GAMES.pop(GAME.name)


def test_simulate_whatif_and_replay_run_on_a_toy_game(toy, tmp_path, capsys):
    code, out, err = run(["simulate", toy, "-n", "3000", "-f", "json", "-q"], capsys)
    assert code == 0, err
    wins = [r["estimate"] for r in json.loads(out)["tables"]["seats"]]
    assert len(wins) == 3 and 0.5 < sum(wins) < 1.0          # one winner or a tie per hand

    code, out, err = run(["whatif", toy, "-r", "toy.target=1", "--games", "400", "-f", "json", "-q"], capsys)
    assert code == 0, err
    length = {r["metric"]: r for r in json.loads(out)["tables"]["seats"] if r["seat"] == 0}
    assert length["d_hands"]["ci_high"] < 0                   # a game to one hand is shorter than to three

    history = tmp_path / "toy.jsonl"
    code, _, err = run(["simulate", toy, "-n", "4", "--history", history, "-q"], capsys)
    assert code == 0 and len(history.read_text().splitlines()) == 4, err
    code, out, err = run(["replay", history, "--hand-id", "2"], capsys)
    assert code == 0 and out.startswith("hand 2: played"), err

    lines = history.read_text().splitlines()
    bad = json.loads(lines[0])
    bad["winner"] = 5
    history.write_text(json.dumps(bad) + "\n")
    code, _, err = run(["replay", history], capsys)
    assert code == 2 and "the rules say" in err


def test_the_toy_game_is_listed_only_while_registered(toy, capsys):
    code, _, err = run(["simulate", "toy-high-cards", "-n", "10"], capsys)
    assert code == 2 and "toy-high-card" in err.splitlines()[-1]


def test_help_texts_come_from_the_registry(toy, capsys):
    code, out, _ = run(["whatif", "--help"], capsys)
    assert code == 0 and "toy-high-card: 2..4" in " ".join(out.split())
    code, out, _ = run(["analyze", "--help"], capsys)
    flat = " ".join(out.split())
    assert "hit-the-deck: card-value, reaction-value, seat-advantage" in flat.replace("- ", "-")
    code, out, _ = run(["simulate", "--help"], capsys)
    assert "slap race (hit-the-deck)" in " ".join(out.split()).replace("- ", "-")


def test_the_glossary_takes_the_games_own_words(toy, capsys):
    code, out, _ = run(["glossary", toy], capsys)
    assert code == 0 and "card played  (played): the card the seat played (0..9)" in out
