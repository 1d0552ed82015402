"""Golden playthroughs: seeded hands written move by move; any silent rule or strategy drift shows here.

Regenerate deliberately with `UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and review the diff.
"""
import json
import os
from pathlib import Path

import pytest

import cli

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "stm_4p_odd": ["shoot-the-moon", "-n", "4", "-p", "4", "-s", "odd", "--seed", "7"],
    "stm_2p_dummy_greedy": ["shoot-the-moon", "-n", "3", "-p", "2", "-s", "greedy", "--seed", "8"],
    "stm_6p_partners_revoke": ["shoot-the-moon", "-n", "3", "-p", "6", "--partners", "-s", "random", "--seed", "9",
                               "-r", "stm.revoke_model=on(0.4,0.9)", "-r", "stm.moon_chip_netting=sequential"],
    "moon_3p_threshold": ["moon", "-n", "4", "-s", "threshold", "--seed", "7"],
    "moon_4p_mixed": ["moon", "-n", "3", "-p", "4", "-s", "greedy", "-s", "1=random", "--seed", "8"],
    "moon_3p_variants": ["moon", "-n", "3", "-s", "random", "--seed", "9", "-r", "moon.lead_suit_rule=leader_calls_end",
                         "-r", "moon.notrump_doubles=own_suit", "-r", "moon.widow_timing=trump_first"],
}


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
