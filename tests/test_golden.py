"""Golden playthroughs: seeded hands written move by move; any silent rule or strategy drift shows here.

Regenerate deliberately with `UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and review the diff.
"""
import json
import os
import shlex
from pathlib import Path

import pytest

from moonshot import cli

GOLDEN = Path(__file__).parent / "golden"
# Each playthrough is a pair of files: <name>.args, the `moonshot simulate` arguments (one line, shell
# quoting), and <name>.jsonl, the history they wrote. A new game adds its pair; nothing lists them here.
CASES = {path.stem: shlex.split(path.read_text()) for path in sorted(GOLDEN.glob("*.args"))}


def _generate(args, path: Path) -> None:
    try:
        cli.app(["simulate", *args, "--history", str(path), "-q", "-f", "json"])
    except SystemExit as exc:
        assert not exc.code


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name, tmp_path, capsys):
    fresh = tmp_path / f"{name}.jsonl"
    _generate(CASES[name], fresh)
    capsys.readouterr()
    golden = GOLDEN / f"{name}.jsonl"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(fresh.read_text())
    want = [json.loads(line) for line in golden.read_text().splitlines()]
    got = [json.loads(line) for line in fresh.read_text().splitlines()]
    assert got == want


def test_every_game_has_a_golden_playthrough():
    from moonshot.simulator.games import GAMES
    assert sorted(GOLDEN.glob("*.jsonl")) and all((GOLDEN / f"{name}.jsonl").exists() for name in CASES)
    built_in = {name for name, game in GAMES.items() if game.package.startswith("moonshot.simulator.")}  # not a toy
    missing = built_in - {args[0] for args in CASES.values()}
    assert not missing, f"no golden playthrough (tests/golden/<name>.args) for {missing}"
