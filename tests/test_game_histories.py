"""--history with --games (HISTORY.md 'Whole games'): every hand of every game, in play order, with
the game keys; the same numbers as the run without it; replay checks each hand and that a game's
hands follow on."""
import json

import pytest

from moonshot.simulator.games import GAMES
from tests.test_cli import run

GAMES_N = 3


@pytest.mark.parametrize("game", list(GAMES))
def test_whole_games_are_written_replayed_and_change_no_number(game, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    base = ["simulate", game, "--games", GAMES_N, "--seed", 11, "-f", "json", "-q"]
    code, plain, err = run(base, capsys)
    assert code == 0, err
    code, recorded, err = run(base + ["--history", path], capsys)
    assert code == 0, err
    assert json.loads(recorded)["tables"] == json.loads(plain)["tables"]       # histories change no number

    lines = [json.loads(x) for x in path.read_text().splitlines()]
    by_game = {}
    for rec in lines:
        by_game.setdefault(rec["game_id"], []).append(rec)
    assert sorted(by_game) == list(range(GAMES_N))
    length = {r["metric"]: r["estimate"] for r in json.loads(plain)["tables"]["game_length"]}
    first_length = next(v for k, v in length.items() if k in ("hands", "rounds"))
    assert len(lines) == round(first_length * GAMES_N)
    for hands in by_game.values():
        assert [h["hand_in_game"] for h in hands] == list(range(len(hands)))
        assert all(a["scores_after"] == b["scores_before"] for a, b in zip(hands, hands[1:]))
        assert [h["game_over"] for h in hands] == [False] * (len(hands) - 1) + [True]
        assert "winners" in hands[-1] and all("winners" not in h for h in hands[:-1])
    code, out, err = run(["replay", path], capsys)
    assert code == 0 and out.count("\n\n") >= len(lines) - 1, err

    broken = lines[:]
    broken[1] = {**broken[1], "scores_before": [s + 1 for s in broken[1]["scores_before"]]}
    path.write_text("\n".join(json.dumps(r) for r in broken) + "\n")
    code, _, err = run(["replay", path], capsys)
    assert code == 2 and "are not the last hand's scores_after" in err
