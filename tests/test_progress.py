"""Progress that moves in every long verb, and estimates in the run's own scale: a tournament's bar
counts games within a pair's chunk, a tournament says its whole time once (all its pairs), and no estimate reads
"0 min" (or "0 s")."""
from moonshot.analysis.common import make_setup
from moonshot.analysis.tournament import tournament
from moonshot.simulator import eta
from tests.test_cli import run


def test_a_tournament_counts_games_as_they_finish_through_every_lineup(monkeypatch):
    """20 games in one chunk, 4 lineups (B everywhere, then A in each of 3 sides) on the same deals:
    the count moves game by game, and lineup k's games never count for more than k quarters of the
    chunk (the first lineup's 20 games used to fill the bar while three more were still to play)."""
    setup = make_setup("moon")
    hooks = type(setup.hooks)
    started, heard = [], []
    play = hooks.play_games
    monkeypatch.setattr(hooks, "play_games", lambda self, *a, **k: started.append(1) or play(self, *a, **k))
    tournament(setup, ["greedy", "random"], 20, 1, 1, lambda n: heard.append((len(started), n)))
    counted = 0
    for lineups_started, n in heard:
        counted += n
        assert counted <= 20 * lineups_started / 4
    assert counted == 20 and len(heard) > 8


def test_a_tournament_says_its_whole_time_once(monkeypatch, capsys):
    """Its pairs' chunks are one run over the workers (analysis.common.run_many): one clock, one note."""
    ticks = iter(range(0, 100_000, 50))                  # 50 s a look at the clock: every run is long
    monkeypatch.setattr(eta, "now", lambda: float(next(ticks)))
    monkeypatch.setattr(eta, "SAY_TIME_OVER", 120.0)
    tournament(make_setup("moon"), ["greedy", "random", "threshold"], 10, 1, 1)
    notes = [line for line in capsys.readouterr().err.splitlines() if "note" in line]
    assert len(notes) == 1 and notes[0].startswith("moonshot: note: this run will take about ")
    assert notes[0].endswith(" in all (30 in 3 chunks, 1 at a time; timed on the first 2)")


def test_no_estimate_says_zero():
    assert [eta.duration(s) for s in (0.2, 0.6, 34, 59.4, 59.6, 89)] == ["1 s", "1 s", "34 s", "59 s", "1 min", "1 min"]


def test_rules_lab_says_a_short_sweep_in_seconds(monkeypatch, capsys):
    import moonshot.analysis.rules_lab as lab
    from moonshot.analysis.result import Result
    monkeypatch.setattr(lab, "trial_seconds", lambda *a: 34.0)
    monkeypatch.setattr(lab, "rules_lab", lambda *a: Result("lab", {"game": "moon"}))
    code, _, err = run(["rules-lab", "moon", "--games", "10", "--hands", "10"], capsys)
    assert code == 0 and "moonshot: rules-lab: about 34 s on 1 job(s)" in err and "0 min" not in err


def test_a_report_section_in_a_terminal_counts_what_it_plays(monkeypatch, capsys):
    """A report's section (here a tournament, as the reports run it: no progress passed) counts its
    games on a line under its step, in a terminal only; the line goes when the report is done."""
    import sys

    from moonshot.reports.document import Steps
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(Steps, "EVERY", 0.0)
    step = Steps(1, quiet=False)
    step("tournament: 20 games a pair")
    tournament(make_setup("moon"), ["greedy", "random"], 20, 1, 1)
    step.end()
    err = capsys.readouterr().err
    counts = [int(c.replace(",", "")) for c in __import__("re").findall(r"\r      ([\d,]+) played", err)]
    assert counts[-1] == 20 and len(counts) > 4 and counts == sorted(counts)
    assert err.endswith("\r\x1b[K")
    tournament(make_setup("moon"), ["greedy", "random"], 20, 1, 1)      # after the report: nothing counts
    assert "played" not in capsys.readouterr().err
