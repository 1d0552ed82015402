"""Every game's report builds from small samples: md, self-contained html, png figures, csv and
parquet tables (the builders take a floor for their sections, so this runs in seconds)."""
import pandas as pd
import pytest

from moonshot.simulator.games import GAMES

EXPECTED = {"shoot-the-moon": ("big_moon_paired", 4, 40), "moon": ("bid_success_by_class", 3, 40),
            "hit-the-deck": ("card_value", 4, 4)}       # (a table, figures at least, section floor)


@pytest.mark.parametrize("game", list(GAMES))
def test_report_writes_md_html_png_csv_parquet(game, tmp_path):
    table, figures, floor = EXPECTED[game]
    out = tmp_path / "rep"
    path = GAMES[game].build_report(out, 15 * floor, 3, 1, quiet=True, floor=floor)
    assert path == out / "report.md"
    assert (out / "report.md").read_text().startswith(f"# {GAMES[game].title}")
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= figures
    assert len(list((out / "figures").glob("*.png"))) >= figures
    frame = pd.read_parquet(out / "tables" / f"{table}.parquet")
    assert {"metric", "estimate", "n", "ci_low", "ci_high"} <= set(frame.columns)
    assert (out / "tables" / f"{table}.csv").exists()


def test_report_into_an_existing_folder_replaces_its_files(tmp_path):
    out = tmp_path / "rep"
    GAMES["moon"].build_report(out, 150, 3, 1, quiet=True, floor=10)
    first = (out / "report.md").read_text()
    (out / "figures" / "stale.png").write_bytes(b"old")
    GAMES["moon"].build_report(out, 150, 4, 1, quiet=True, floor=10)
    assert (out / "report.md").read_text() != first
    assert not (out / "figures" / "stale.png").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rep")]     # no temp folder left


def test_a_report_never_replaces_a_folder_that_is_not_a_report(tmp_path):
    from moonshot.simulator.errors import BadInput
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BadInput, match="other files"):
        GAMES["moon"].build_report(tmp_path, 150, 3, 1, quiet=True, floor=10)
    assert (tmp_path / "notes.txt").read_text() == "mine"
