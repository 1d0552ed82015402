"""Every bad input of the issue "Every bad input caught": one line naming the value and what is
accepted, exit code 2, no traceback and no file written."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import run

PLUGINS = Path(__file__).parent / "plugins"


EVERY_VERB = [
    ["simulate", "moon", "-n", "10"], ["analyze", "moon", "bid-success", "-n", "10"],
    ["compare", "moon", "-s", "random", "--vs", "greedy", "-n", "10"], ["whatif", "moon", "-r", "moon.min_bid=5"],
    ["hand", "moon", "--hand", "6-6 6-5 6-4 6-2 5-5 3-3 1-1"], ["report", "moon"],
]


@pytest.mark.parametrize("verb", EVERY_VERB)
def test_a_negative_seed_is_refused_by_every_verb(verb, tmp_path, capsys):
    args = verb + (["--out", tmp_path / "r"] if verb[0] == "report" else []) + ["--seed", "-1"]
    code, _, err = run(args, capsys)
    assert code == 2 and "--seed -1" in err and "accepted" in err and len(err.splitlines()) == 1


REFUSED = [
    (["simulate", "moon", "-p", "0"], "accepted: 3 or 4"),
    (["analyze", "moon", "bid-success", "--seat", "9"], "--seat does not apply to bid-success"),
    (["analyze", "shoot-the-moon", "hand-odds", "--seat", "9"], "--seat 9 does not exist"),
    (["analyze", "shoot-the-moon", "hand-odds", "--games", "100"], "hand-odds counts hands: give --hands/-n"),
    (["analyze", "shoot-the-moon", "chip-value", "-n", "1000"], "chip-value counts games: give --games"),
    (["analyze", "moon", "bid-success", "--games", "100"], "bid-success counts hands"),
    (["simulate", "moon", "-r", "moon.min_bid=5", "-r", "moon.min_bid=3"], "given twice with different values"),
    (["simulate", "moon", "-s", "1=random", "-s", "1=greedy"], "seat 1 two strategies"),
    (["simulate", "moon", "-s", "random", "-s", "greedy"], "every seat two strategies"),
    (["simulate", "shoot-the-moon", "-r", "stm.six_player_teams=three_teams_of_two"], "does not apply at 4 players"),
    (["simulate", "shoot-the-moon", "-p", "3", "-r", "stm.dummy_mode=open_hand_nondealer_chooses"], "2 players"),
    (["simulate", "shoot-the-moon", "-r", "stm.partnership_trick_count=per_player"], "partnerships"),
    (["simulate", "moon", "-p", "4", "-r", "moon.widow_timing=trump_first"], "3 players"),
    (["simulate", "moon", "-r", "moon.bidder_score_4p=bid"], "4 players"),
    (["simulate", "moon", "-s", "threshold:margin=nan"], "bad value 'nan' for margin"),
    (["simulate", "hit-the-deck", "-s", "tactician:shed=inf"], "bad value 'inf' for shed"),
    (["simulate", "moon", "-s", "random:p_pass=2"], "a probability in [0, 1]"),
    (["simulate", "moon", "-s", "random:p_pass=-1"], "a probability in [0, 1]"),
    (["simulate", "moon", "-f", "json", "--out", "x.csv"], "names csv"),
    (["simulat", "moon"], "accepted: analyze, compare"),
    (["compare", "moon", "-s", "threshold", "--vs", " threshold", "-n", "10"], "a strategy against itself"),
    (["compare", "shoot-the-moon", "-s", "odd", "--vs", "odd", "--games", "10"], "accepted: two different"),
    (["simulate", "moon", "-n", "99999999999999999999"], "accepted: an integer from 1 to 10,000,000,000"),
    (["simulate", "moon", "--games", "0"], "--games 0 is not a positive count"),
    (["report", "moon", "--hands", "10", "--out", "r"], "too few for a report"),
    (["simulate", "moon", "-s", "threshold:margin=-99"], "accepted: a number from -7 to 7"),
    (["simulate", "shoot-the-moon", "-s", "rollout:worlds=0"], "accepted: an integer from 1 to"),
    (["simulate", "moon", "--out", "x.xyz"], "the extension .xyz names no --format; accepted: .json (json)"),
    (["hand", "moon", "--hand", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "--samples", "0"], "--samples 0"),
    (["analyze", "mooon", "bid-success"], "unknown game 'mooon'"),
    ([], None),
]


@pytest.mark.parametrize("args,needle", REFUSED)
def test_silently_accepted_values_are_refused(args, needle, capsys, tmp_path, monkeypatch):
    if not args:
        code, _, err = run(["simulate"], capsys)
        assert code == 2 and "accepted: shoot-the-moon, moon, hit-the-deck" in err
        return
    monkeypatch.chdir(tmp_path)
    code, _, err = run(args + ["-n", "10"] * (args[0] == "simulate" and "-n" not in args), capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


# The library's names for the command line's options (None: the library has no such option).
LIBRARY = {"-p": "players", "-n": "hands", "--hands": "hands", "--games": "games", "-r": "rules", "-s": "strategy",
           "--profile": "profile", "--seed": "seed", "-j": "jobs", "--seat": "seat", "--hand": "hand",
           "--samples": "samples", "--out": "out", "--vs": "b"}
WHOLE = {"players", "hands", "games", "seed", "jobs", "seat", "samples"}


def library_call(args: list[str]):
    """The moonshot.VERB(...) call that does what `args` asks the command line, or None where the
    library has no such verb or option."""
    import moonshot
    verb, game, *rest = [str(a) for a in args]
    if verb not in moonshot.__all__ or "-f" in rest:
        return None
    kwargs = {"analysis": rest.pop(0)} if verb == "analyze" else {}
    for option, value in zip(rest[::2], rest[1::2]):
        key = LIBRARY.get(option)
        if key is None or (key == "out" and verb != "report"):     # only a report's folder is the library's
            return None
        value = int(value) if key in WHOLE else value
        if key in ("rules", "strategy", "profile"):
            kwargs.setdefault(key, []).append(value)
        else:
            kwargs[key] = value
    if verb == "compare":
        kwargs["a"] = kwargs.pop("strategy")[0]
    if verb == "analyze" and ({"hands", "games"} & set(kwargs)):
        unit = "hands" if "hands" in kwargs else "games"
        spec = moonshot.GAMES[game].analyses.get(kwargs["analysis"]) if game in moonshot.GAMES else None
        if spec is not None and spec.unit != unit:
            return None                                  # the library's n counts what the analysis counts
        kwargs["n"] = kwargs.pop(unit)
    return lambda: getattr(moonshot, verb)(game, **kwargs)


@pytest.mark.parametrize("args", [args for args, needle in REFUSED if args]
                         + [verb + ["--seed", "-1"] for verb in EVERY_VERB])
def test_the_library_refuses_what_the_cli_refuses_with_the_same_line(args, capsys, tmp_path, monkeypatch):
    import moonshot
    monkeypatch.chdir(tmp_path)
    args = args + ["-n", "10"] * (args[0] == "simulate" and "-n" not in args and "--games" not in args)
    args = args + ["--out", "r"] * (args[0] == "report" and "--out" not in args)
    call = library_call(args)
    if call is None:
        pytest.skip("a command-line-only option or verb")
    code, _, err = run(args, capsys)
    with pytest.raises(moonshot.BadInput) as refused:
        call()
    # the same line, with the command line's options named as the function's keyword arguments
    said = moonshot._in_own_words(err, getattr(moonshot, args[0]).argument_names)
    assert code == 2 and said == f"moonshot: error: {refused.value}\n"
    assert list(tmp_path.iterdir()) == []


def test_plugins_that_raise_or_need_arguments_are_one_line(tmp_path, capsys):
    plugin = tmp_path / "bad.py"
    plugin.write_text("class Boom:\n    def play(self, view, rng):\n        raise ZeroDivisionError('no luck')\n"
                      "class NeedsArgs:\n    def __init__(self, depth):\n        pass\n"
                      "    def play(self, view, rng):\n        return 0\n")
    out = tmp_path / "o.json"
    code, _, err = run(["simulate", "shoot-the-moon", "-n", "100", "-s", f"1={plugin}:Boom", "-o", out], capsys)
    assert code == 2 and "ZeroDivisionError: no luck (bad.py:3)" in err and not out.exists()
    code, _, err = run(["simulate", "shoot-the-moon", "-n", "100", "-s", f"1={plugin}:NeedsArgs"], capsys)
    assert code == 2 and "could not be built" in err and "bad.py:5" in err


@pytest.mark.parametrize("size", ["'many'", "0", "-3", "2.5", "True"])
def test_a_plugin_whose_chunk_hands_is_not_a_positive_integer_is_one_line(size, tmp_path, capsys):
    plugin = tmp_path / "chunky.py"
    plugin.write_text(f"class Chunky:\n    chunk_hands = {size}\n    def play(self, view, rng):\n"
                      "        return view.legal.argmax(axis=1)\n")
    code, _, err = run(["simulate", "shoot-the-moon", "-n", "100", "-s", f"1={plugin}:Chunky"], capsys)
    assert code == 2 and f"chunk_hands {size} is not a positive integer" in err and len(err.splitlines()) == 1


def test_every_numeric_parameter_of_a_built_in_strategy_declares_its_range():
    import inspect

    from moonshot.simulator.games import GAMES
    from moonshot.strategies.base import registered
    for game in GAMES:
        for name, cls in registered(game).items():
            for key, p in inspect.signature(cls).parameters.items():
                numeric = isinstance(p.default, (int, float)) and not isinstance(p.default, bool)
                if numeric and not key.startswith("p_"):           # p_* are probabilities, 0..1 by name
                    low, high = cls.ranges[key]
                    assert low <= p.default <= high, (game, name, key)


def test_a_plugin_that_raises_in_a_worker_process_is_one_line(tmp_path):
    plugin = tmp_path / "bad.py"
    plugin.write_text("class Boom:\n    def play(self, view, rng):\n        raise ZeroDivisionError('no luck')\n")
    exe = Path(sys.executable).with_name("moonshot")
    p = subprocess.run([str(exe), "simulate", "shoot-the-moon", "-n", "140000", "-j", "2", "-s", f"1={plugin}:Boom"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "no luck (bad.py:3)" in p.stderr


def test_outputs_that_cannot_be_files(tmp_path, capsys):
    code, _, err = run(["simulate", "moon", "-n", "10", "--out", tmp_path], capsys)
    assert code == 2 and "is a folder" in err
    code, _, err = run(["simulate", "moon", "-n", "10", "--history", tmp_path], capsys)
    assert code == 2 and "--history" in err and "is a folder" in err
    code, _, err = run(["simulate", "moon", "-n", "10", "--out", "/proc/x.json"], capsys)
    assert code == 2 and "cannot write '/proc/x.json'" in err
    same = tmp_path / "h.json"
    code, _, err = run(["simulate", "moon", "-n", "10", "--history", same, "--out", same], capsys)
    assert code == 2 and "the same file" in err and not same.exists()


def test_replay_of_a_file_that_is_not_utf8(tmp_path, capsys):
    bad = tmp_path / "h.jsonl"
    bad.write_bytes(b"\xff\xfe{}\n")
    code, _, err = run(["replay", bad], capsys)
    assert code == 2 and "not UTF-8" in err


def test_the_format_follows_the_out_extension(tmp_path, capsys):
    for ext, check in ((".json", lambda t: json.loads(t)["meta"]["game"] == "moon"),
                       (".csv", lambda t: t.startswith("table,"))):
        out = tmp_path / f"r{ext}"
        code, _, _ = run(["simulate", "moon", "-n", "50", "--out", out, "-q"], capsys)
        assert code == 0 and check(out.read_text())


def test_jobs_above_the_cores_are_capped_with_a_note(capsys):
    import os
    code, _, err = run(["simulate", "moon", "-n", "50", "-j", str((os.cpu_count() or 1) + 6), "-q"], capsys)
    assert code == 0 and "capped at" in err


def test_version(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.startswith("moonshot ")


def test_a_seat_override_survives_an_every_seat_strategy_given_after_it(capsys):
    code, out, _ = run(["simulate", "moon", "-n", "50", "-s", "1=threshold:margin=1", "-s", "greedy", "-f", "json",
                        "-q"], capsys)
    assert json.loads(out)["meta"]["strategies"] == ["greedy", "threshold:margin=1", "greedy"]


@pytest.mark.parametrize("game,key", [("shoot-the-moon", "trick_winners"), ("shoot-the-moon", "chips_after"),
                                      ("moon", "trick_winners"), ("moon", "score")])
def test_replay_of_a_record_that_breaks_the_rules_says_where_and_fails(game, key, tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    assert run(["simulate", game, "-n", "5", "--history", hist, "-q"], capsys)[0] == 0
    records = [json.loads(x) for x in hist.read_text().splitlines()]
    rec = next(r for r in records if r.get(key) is not None and (game != "moon" or r["bidder"] is not None))
    if key == "trick_winners":
        rec[key][0] = (rec[key][0] + 1) % rec["players"]
    else:
        rec[key][0] += 1
    hist.write_text(json.dumps(rec) + "\n")
    code, _, err = run(["replay", hist], capsys)
    assert code == 2 and f"{hist}:1" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["shoot-the-moon", "moon", "hit-the-deck"])
def test_replay_of_a_record_with_a_number_where_a_card_belongs_is_one_line(game, tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    assert run(["simulate", game, "-n", "3", "--history", hist, "-q"], capsys)[0] == 0
    rec = json.loads(hist.read_text().splitlines()[0])
    rec["hands"][0][0] = 7
    hist.write_text(json.dumps(rec) + "\n")
    code, _, err = run(["replay", hist], capsys)
    assert code == 2 and f"{hist}:1" in err and "hands[0][0] 7 is not accepted" in err
    assert len(err.strip().splitlines()) == 1


def test_records_carry_the_reaction_profile_every_seat_played_with(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    code, out, _ = run(["simulate", "hit-the-deck", "-n", "5", "--profile", "child", "--history", hist, "-f", "json",
                        "-q"], capsys)
    assert code == 0 and json.loads(out)["meta"]["rules_changed"] == {"htd.reaction": "child"}
    rec = json.loads(hist.read_text().splitlines()[0])
    assert rec["rules"]["htd.reaction"] == "child" and {r["profile"] for r in rec["reaction"]} == {"child"}
    assert run(["replay", hist], capsys)[0] == 0


def test_a_long_run_says_its_time_and_a_big_history_its_size_before_most_of_it(tmp_path, capsys, monkeypatch):
    import re
    monkeypatch.setattr("moonshot.simulator.eta.SAY_TIME_OVER", 0.0)     # as if every run were long and big
    monkeypatch.setattr("moonshot.simulator.eta.SAY_SIZE_OVER", 0)
    monkeypatch.setattr("moonshot.analysis.common.CHUNK", 1_000)           # three chunks
    hist = tmp_path / "h.jsonl"
    code, _, err = run(["simulate", "moon", "-n", "3000", "--history", hist, "-o", tmp_path / "o.json", "-q"], capsys)
    notes = [line for line in err.splitlines() if line.startswith("moonshot: note:") and "at least" not in line]
    assert code == 0 and len(notes) == 2 and notes[0].startswith("moonshot: note: --history")   # before any line
    assert re.search(r"this run will take about \d+ s in all \(3,000 in 3 chunks, 1 at a time; timed on the first 2\)",
                     notes[1])
    each = float(re.search(r"3,000 hands at about ([\d,]+) bytes each", notes[0]).group(1).replace(",", ""))
    assert abs(each * 3000 - hist.stat().st_size) < 0.05 * hist.stat().st_size     # the estimate is near the truth
    monkeypatch.undo()
    code, _, err = run(["simulate", "moon", "-n", "3000", "--history", hist, "-o", tmp_path / "p.json", "-q"], capsys)
    assert code == 0 and "note" not in err                                     # a short, small run says nothing


def test_the_time_said_leaves_out_the_first_chunks_start_up(monkeypatch, capsys):
    from moonshot.simulator import eta
    times = iter([0.0, 10.0, 10.1, 14.0, 14.1, 18.0])     # start; chunks 1-2 with 6 s of start-up; a round is 4 s
    monkeypatch.setattr(eta, "now", lambda: next(times))
    monkeypatch.setattr(eta, "SAY_TIME_OVER", 20.0)
    clock = eta.Clock(total=10_000, chunk=1_000, jobs=2)                 # 10 chunks: 5 rounds
    for _ in range(5):
        clock.chunk_done()
    err = capsys.readouterr().err
    assert err.count("note") == 1
    assert "about 26 s in all (10,000 in 10 chunks, 2 at a time; timed on the first 3)" in err
    assert (eta.duration(59), eta.duration(3 * 3600 + 20 * 60), eta.duration(4.25 * 86400)) == \
        ("59 s", "3 h 20 min", "4 days 6 h")


def test_a_first_chunk_still_running_says_the_least_the_run_will_take(monkeypatch, capsys):
    from moonshot.simulator import eta
    times = iter([0.0, 200.0])                             # start; 200 s later the first chunk is not done
    monkeypatch.setattr(eta, "now", lambda: next(times))
    eta.Clock(total=300_000, chunk=65_536, jobs=2).still_running()         # 5 chunks: 3 rounds
    assert capsys.readouterr().err == ("moonshot: note: this run will take at least 10 min in all: its first chunk is "
                                       "still running after 3 min (300,000 in 5 chunks, 2 at a time)\n")


def test_the_last_trick_shows_chips_before_the_end_of_round_award(tmp_path, capsys):
    hist = tmp_path / "h.jsonl"
    run(["simulate", "shoot-the-moon", "-n", "30", "--history", hist, "-q"], capsys)
    for line in hist.read_text().splitlines():
        rec = json.loads(line)
        if any(rec["round_chips"]) and not rec.get("annulled"):
            break
    code, out, _ = run(["replay", hist, "--hand-id", rec["hand_id"]], capsys)
    last = [x for x in out.splitlines() if "trick 5:" in x][0]
    before_award = [a - r for a, r in zip(rec["chips_after"], rec["round_chips"])]
    assert code == 0 and last.endswith(f"chips {before_award}")


def _in_a_terminal(args, env):
    """Run moonshot with a pseudo-terminal as stderr; everything it wrote there."""
    import os
    import pty
    pid, fd = pty.fork()
    if pid == 0:                                          # the child: exec moonshot on the terminal
        os.environ.update(env)
        os.execv(str(Path(sys.executable).with_name("moonshot")), ["moonshot", *args])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode(errors="replace")


def test_progress_shows_in_a_terminal_for_games_and_single_chunk_runs(tmp_path):
    shown = _in_a_terminal(["simulate", "moon", "--games", "300", "-o", str(tmp_path / "g.json")],
                           {"MOONSHOT_PROGRESS_DELAY": "0"})
    assert "simulating" in shown and "300/300" in shown
    quiet = _in_a_terminal(["simulate", "moon", "--games", "300", "-q", "-o", str(tmp_path / "q.json")],
                           {"MOONSHOT_PROGRESS_DELAY": "0"})
    assert "simulating" not in quiet
