"""Golden playthroughs: seeded hands written move by move; any silent rule or strategy drift shows here.

Regenerate deliberately with `UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and review the diff.
"""
import json
import os
from pathlib import Path

import pytest

from moonshot import cli

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
    "htd_2p_tactician": ["hit-the-deck", "-n", "3", "-p", "2", "--seed", "7"],
    "htd_4p_mixed": ["hit-the-deck", "-n", "3", "-p", "4", "-s", "1=dump", "-s", "2=hold", "--profile", "3=child",
                     "--seed", "8"],
    "htd_6p_random": ["hit-the-deck", "-n", "3", "-p", "6", "-s", "random", "--profile", "distracted", "--seed", "9"],
    "htd_3p_variants": ["hit-the-deck", "-n", "3", "-p", "3", "-s", "random", "--seed", "10",
                        "-r", "htd.word_matches_word=true", "-r", "htd.voluntary_draw=true",
                        "-r", "htd.drawn_card_play=optional", "-r", "htd.final_card_effects=resolve_then_score",
                        "-r", "htd.cut_exposed=top_of_remainder", "-r", "htd.start_card=first_player_plays_normally",
                        "-r", "htd.announce_htd_cards=true"],
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
