"""Every game's report builds from tiny samples: md, self-contained html, png figures, csv and
parquet tables (the builders take a floor for their sections, so this runs in seconds), with the
search players' strong-play sections where a game has one."""
import importlib
import re

import numpy as np
import pandas as pd
import pytest

from moonshot.simulator.games import GAMES

EXPECTED = {"shoot-the-moon": ("big_moon_paired", 4), "moon": ("bid_success_by_class", 3),
            "hit-the-deck": ("card_value", 4)}       # (a table, figures at least)
# (table, key, (the game's default, which the strong-play section sets the search player beside, search))
STRONG = {"shoot-the-moon": ("strong_play_big_moon", "big_before", (GAMES["shoot-the-moon"].default_strategy,
                                                                    "rollout")),
          "moon": ("strong_play_by_bid", "bid", (GAMES["moon"].default_strategy, "pimc"))}
# (--hands, section floor, the strong-play share of --hands): the smallest sizes whose every section
# still has its tables, figures and intervals (floor 3 breaks the rules lab's figure: an interval
# that does not contain its estimate; under ~400 Shoot the Moon rounds a hand-odds panel is left
# empty), and 30 strong-play hands or deals (at 30 in a row a strong-play table gets its difference rows).
SIZES = {"shoot-the-moon": (400, 4, 13), "moon": (120, 4, 4), "hit-the-deck": (60, 4, None)}
REBUILT = "shoot-the-moon"      # the cheapest report: its test also builds it a second time over the first
LAB_ARMS = 5    # the house-rules section plays the first 5 rule changes (tests/test_rules_lab.py sweeps them all):
                # with each game's flag order that includes one that never fires and ones that do


def build(game, out, seed=3) -> dict[str, list[str]]:
    """The game's tiny report in `out`: {figure: its problems at saved size (tests/test_figures.py)}."""
    from moonshot.analysis import rules_lab
    from moonshot.reports import document
    from tests.test_figures import problems, rank_one_on_top
    seen: dict[str, list[str]] = {}
    save = document.Document.figure
    sweep = rules_lab.sweep_arms

    def checked(self, name, fig, caption):
        seen[name] = problems(fig) + (rank_one_on_top(fig) if name == "house_rules" else [])   # "top first"
        save(self, name, fig, caption)

    hands, floor, strong_share = SIZES[game]
    module = importlib.import_module("moonshot.reports." + game.replace("-", "_"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(document.Document, "figure", checked)
        patch.setattr(rules_lab, "sweep_arms", lambda setup: (sweep(setup)[0][:LAB_ARMS], sweep(setup)[1]))
        if strong_share:
            patch.setattr(module, "STRONG_SHARE", strong_share)
        if game == "hit-the-deck":
            # The Hit the Deck search player plays whole games slowly (tests/test_htd_search.py covers
            # it): its report sections run here with a fast player in its place, the same code.
            patch.setattr(module, "STRONG", "dump")
        assert GAMES[game].build_report(out, hands, seed, 1, quiet=True, floor=floor) == out / "report.md"
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_report_writes_md_html_png_csv_parquet(game, tmp_path):
    """One tiny report per game (report builds are the suite's slowest part), checked whole: files,
    tables, strong play, words a player reads, and every figure at its saved size (test_figures).
    The cheapest is then built again over the first (check_a_report_replaces_the_last)."""
    out = tmp_path / "rep"
    seen = build(game, out)
    table, figures = EXPECTED[game]
    assert seen and {name: found for name, found in seen.items() if found} == {}
    assert (out / "report.md").read_text().startswith(f"# {GAMES[game].title}")
    md = (out / "report.md").read_text()
    house = md.split("## House rules: which ones matter?")[1].split("\n## ")[0]     # the rules lab's section
    assert "Rule changes ranked by effect size" in house
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    # never_fired is written when some rule change left every game and hand as it was (a tiny report's
    # sample may have none: Moon's under moon/4)
    assert "house_rules" in tables
    assert ("house_rules_never_fired" in tables) == ("no game or hand came out differently" in house)
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= figures
    assert len(list((out / "figures").glob("*.png"))) >= figures
    frame = pd.read_parquet(out / "tables" / f"{table}.parquet")
    assert {"metric", "estimate", "n", "ci_low", "ci_high"} <= set(frame.columns)
    assert (out / "tables" / f"{table}.csv").exists()
    if game in STRONG:
        check_strong_play(game, out)
    check_reads_for_a_player((out / "report.md").read_text())
    if game == REBUILT:
        check_a_report_replaces_the_last(game, out)


def check_a_report_replaces_the_last(game, out):
    """A report built into the folder of the last one (another seed) replaces its files, stale ones
    too, and leaves no temp folder (a test of its own once, building a Moon report twice)."""
    first = (out / "report.md").read_text()
    (out / "figures" / "stale.png").write_bytes(b"old")
    build(game, out, seed=4)
    assert (out / "report.md").read_text() != first
    assert not (out / "figures" / "stale.png").exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".rep")]     # no temp folder left


SNAKE = re.compile(r"(?<![\w./=-])[a-z][a-z0-9]*_[a-z0-9_*]+(?![\w(=])")   # d_chips, a_*, p_make_open


def check_reads_for_a_player(md: str):
    """No metric or table name in the notes, findings and column headers (commands and rule flags,
    in backticks or with their game's dot, may keep theirs), and the what-if table at most 6 columns
    wide: a seat, n and the changes."""
    lines = md.split("\n")
    headers = [lines[i] for i in range(len(lines) - 1) if lines[i].startswith("| ") and lines[i + 1].startswith("|---")]
    prose = [line for line in lines if line and not line.startswith(("|", "#", "!["))]
    for line in headers + prose:
        words = re.sub(r"`[^`]*`|tables/\S+", "", line)
        assert not SNAKE.findall(words), (SNAKE.findall(words), line)
    section = md.split("## Rules what-if")[1].split("\n## ")[0]
    whatif_header = next(line for line in section.split("\n") if line.startswith("| "))
    assert whatif_header.count("|") - 1 <= 6, whatif_header
    assert "change:" in whatif_header


def check_strong_play(game, out):
    """The strong-play section: its figure, and a table of both lineups with, where both have 30 in
    a row, their difference: each estimate finite and inside its interval (a mean of one value
    has none), a difference equal to
    the two estimates' and its interval at least as wide as either lineup's."""
    name, key, (base, strong) = STRONG[game]
    assert "## Strong play" in (out / "report.md").read_text()
    assert (out / "figures" / "strong_play.png").stat().st_size > 0
    t = pd.read_parquet(out / "tables" / f"{name}.parquet")
    diff = f"{strong} - {base}"
    assert np.isfinite(t["estimate"].to_numpy(dtype=float)).all()
    single = (t["n"] < 2) & (t["kind"] == "mean")          # one value: no interval (analysis.stats)
    assert t.loc[single, ["ci_low", "ci_high"]].isna().all().all()
    t = t[~single]
    assert np.isfinite(t[["ci_low", "ci_high"]].to_numpy(dtype=float)).all()
    assert ((t["ci_low"] <= t["estimate"] + 1e-12) & (t["estimate"] <= t["ci_high"] + 1e-12)).all()
    assert {base, strong, diff} <= set(t["strategy"])
    for _, rows in t[t[key].isin(t.loc[t["strategy"] == diff, key])].groupby([key, "metric"]):
        by = rows.set_index("strategy")
        assert set(by.index) == {base, strong, diff}
        assert min(by.loc[strong, "n"], by.loc[base, "n"]) == by.loc[diff, "n"] >= 30
        assert by.loc[diff, "estimate"] == pytest.approx(by.loc[strong, "estimate"] - by.loc[base, "estimate"])
        width = by["ci_high"] - by["ci_low"]
        assert width[diff] >= max(width[base], width[strong]) - 1e-12


def test_a_report_never_replaces_a_folder_that_is_not_a_report(tmp_path):
    from moonshot.simulator.errors import BadInput
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BadInput, match="other files"):
        GAMES["moon"].build_report(tmp_path, 150, 3, 1, quiet=True, floor=10)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_report_page_keeps_its_labels_legible_on_a_phone():
    """On a 390 px phone a figure is shown at its own size in a box that scrolls (not shrunk to the
    screen), its smallest label at least 11 px there, and a table scrolls in its own box."""
    import matplotlib.pyplot as plt
    from moonshot.reports.document import DPI, Document
    doc = Document("t")
    fig, ax = plt.subplots(figsize=(11, 3))
    small = ax.text(0.5, 0.5, "7%", fontsize=5)
    doc.figure("f", fig, "a wide figure")
    doc.table("t", pd.DataFrame({"metric": ["P(make)"], "estimate": ["100.000% [99.98%, 100.000%]"]}), "a table")
    page = doc.html()
    assert small.get_fontsize() * DPI / 72 >= 11
    assert "name='viewport'" in page and "img{max-width:100%}" not in page
    assert "<figure><div class='scroll'><img" in page and "<div class='scroll'><table" in page
    assert "td{white-space:nowrap}" in page
