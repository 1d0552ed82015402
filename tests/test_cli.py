"""The command line as a user meets it: outputs, files, and one-line errors with exit code 2."""
import json
from pathlib import Path

import pytest

from moonshot import cli

PLUGIN = str(Path(__file__).parent / "plugins" / "mine.py")


def run(args, capsys):
    code = 0
    try:
        cli.app([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_has_estimates_with_intervals(capsys):
    code, out, _ = run(["simulate", "shoot-the-moon", "-n", "3000", "-p", "3", "-f", "json", "-q"], capsys)
    assert code == 0
    data = json.loads(out)
    rows = data["tables"]["sides"]
    odd = [r for r in rows if r["metric"] == "p_odd"]
    assert len(odd) == 3
    assert all(r["n"] == 3000 and r["ci_low"] <= r["estimate"] <= r["ci_high"] for r in odd)
    assert data["meta"]["players"] == 3


def test_simulate_games_reports_win_rates_summing_to_one(capsys):
    code, out, _ = run(["simulate", "shoot-the-moon", "--games", "500", "-p", "2", "-f", "json"], capsys)
    assert code == 0
    wins = [r["estimate"] for r in json.loads(out)["tables"]["games"]]
    assert abs(sum(wins) - 1.0) < 1e-9


def test_history_then_replay(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    code, _, _ = run(["simulate", "shoot-the-moon", "-n", "7", "-p", "2", "--history", hist, "-q"], capsys)
    assert code == 0
    lines = hist.read_text().splitlines()
    assert len(lines) == 7
    rec = json.loads(lines[3])
    assert rec["game"] == "shoot-the-moon" and rec["hand_id"] == 3 and len(rec["plays"]) == 15
    assert len(rec["hands"]) == 3                          # two players and the dummy stack
    assert rec["rules"]["stm.dummy_mode"] == "blind_stack"
    code, out, _ = run(["replay", hist, "--hand-id", "3"], capsys)
    assert code == 0
    assert out.count("trick ") == 5 and "dummy" in out


def test_replay_rejects_a_tampered_hand(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    run(["simulate", "shoot-the-moon", "-n", "1", "--history", hist, "-q"], capsys)
    rec = json.loads(hist.read_text())
    rec["plays"][0], rec["plays"][1] = rec["plays"][1], rec["plays"][0]     # out of turn
    hist.write_text(json.dumps(rec) + "\n")
    code, _, err = run(["replay", hist], capsys)
    assert code == 2 and "bad shoot-the-moon hand history" in err and len(err.strip().splitlines()) == 1


def test_seat_strategies_and_plugins(capsys):
    code, out, _ = run(["simulate", "shoot-the-moon", "-n", "2000", "-s", "odd", "-s", f"1={PLUGIN}:LowestCard",
                        "-s", "2=random", "-f", "json"], capsys)
    assert code == 0
    assert json.loads(out)["meta"]["strategies"] == ["odd", f"{PLUGIN}:LowestCard", "random", "odd"]


@pytest.mark.parametrize("args,needle", [
    (["simulate", "chess"], "unknown game 'chess'"),
    (["simulate", "shoot-the-moon", "--rule", "stm.bogus=1"], "unknown rule flag 'stm.bogus'"),
    (["simulate", "shoot-the-moon", "--rule", "stm.moon_chip_netting=sometimes"], "bad value 'sometimes'"),
    (["simulate", "shoot-the-moon", "--strategy", "genius"], "unknown strategy 'genius'"),
    (["simulate", "shoot-the-moon", "--strategy", "9=odd"], "seat 9 does not exist"),
    (["simulate", "shoot-the-moon", "--players", "7"], "--players 7 is out of range"),
    (["simulate", "shoot-the-moon", "--players", "5", "--partners"], "--partners needs 4 or 6"),
    (["simulate", "shoot-the-moon", "--hands", "0"], "--hands 0 is not a positive count"),
    (["simulate", "shoot-the-moon", "--hands", "-5"], "--hands -5 is not a positive count"),
    (["simulate", "shoot-the-moon", "-n", "10", "--strategy", f"0={PLUGIN}:Cheater"], "returned an illegal play"),
    (["simulate", "shoot-the-moon", "--strategy", f"0={PLUGIN}:Nope"], "has no class 'Nope'"),
    (["analyze", "shoot-the-moon", "luck"], "unknown analysis 'luck'"),
    (["simulate", "shoot-the-moon", "--format", "yaml"], "unknown --format 'yaml'"),
    (["replay", "/nonexistent/h.jsonl"], "no history file"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert out == ""


def test_bad_history_file_and_unwritable_out(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    code, _, err = run(["replay", bad], capsys)
    assert code == 2 and "not JSON" in err
    code, _, err = run(["report", "shoot-the-moon", "--out", "/proc/nope/report", "-n", "1000"], capsys)
    assert code == 2 and "cannot write" in err
    target = tmp_path / "missing" / "out.json"
    code, _, err = run(["simulate", "shoot-the-moon", "-n", "100", "-f", "json", "-o", target], capsys)
    assert code == 2 and not target.exists()


def test_failed_run_leaves_no_history_file(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    code, _, _ = run(["simulate", "shoot-the-moon", "-n", "50", "--history", hist, "-s", f"2={PLUGIN}:Cheater"], capsys)
    assert code == 2
    assert list(tmp_path.iterdir()) == []


def test_rules_and_strategies_listings(capsys):
    code, out, _ = run(["rules", "shoot-the-moon", "-f", "json"], capsys)
    flags = {r["flag"]: r for r in json.loads(out)}
    assert flags["stm.moon_chip_netting"]["default"] == "net_per_trick"
    assert flags["stm.revoke_model"]["rules_id"] == "STM-11"
    assert len(flags) == 10
    code, out, _ = run(["strategies", "shoot-the-moon"], capsys)
    assert "odd:" in out and "greedy:" in out and "random:" in out


def test_compare_and_whatif_are_paired(capsys):
    code, out, _ = run(["compare", "shoot-the-moon", "-s", "odd", "--vs", "random", "-n", "4000", "-f", "json"], capsys)
    rows = {r["metric"]: r for r in json.loads(out)["tables"]["match"]}
    assert rows["d_chips"]["ci_low"] > 0             # the planner beats random play in the same seats
    code, out, _ = run(["whatif", "shoot-the-moon", "-r", "stm.target_chips=9", "-n", "2000", "-f", "json"], capsys)
    rows = json.loads(out)["tables"]["seats"]
    # target_chips does not change a single round: every paired difference is exactly zero
    assert all(r["estimate"] == 0 for r in rows if r["metric"].startswith("d_"))
    code, _, err = run(["whatif", "shoot-the-moon", "-n", "100"], capsys)
    assert code == 2 and "at least one --rule" in err


def test_ctrl_c_stops_cleanly_and_leaves_no_file(tmp_path):
    """A real process interrupted mid-run: exit 130, one line, and no history file or temp file."""
    import signal
    import subprocess
    import sys
    import time
    hist = tmp_path / "h.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "moonshot.cli", "simulate", "shoot-the-moon", "-n", "5000000",
                             "--history", str(hist), "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[1],
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while not list(tmp_path.iterdir()) and time.time() < deadline:    # wait until it is writing
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "interrupted" in err.decode() and "Traceback" not in err.decode()
    assert list(tmp_path.iterdir()) == []


def test_hand_analyzer_for_shoot_the_moon(capsys):
    code, out, err = run(["hand", "shoot-the-moon", "--hand", "R12 R11 R10 R9 BM", "-p", "4", "--samples", "2000",
                          "-f", "json", "-q"], capsys)
    assert code == 0, err
    rows = {r["metric"]: r for r in json.loads(out)["tables"]["hand"]}
    assert rows["tricks"]["estimate"] > 3 and rows["chips"]["estimate"] > 0      # a monster hand
    code, _, err = run(["hand", "shoot-the-moon", "--hand", "R12 R12 R1 R2 R3"], capsys)
    assert code == 2 and "appears twice" in err
