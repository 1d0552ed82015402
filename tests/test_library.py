"""moonshot as a library: one import, keyword arguments with defaults, wide tables like the CLI."""
import pytest

import moonshot


def test_one_import_runs_every_verb_with_keyword_arguments(tmp_path):
    r = moonshot.simulate("moon", hands=3000, seed=1)
    wide = r.wide("contracts")
    assert {"bid", "n", "p_make", "p_make_low", "p_make_high"} <= set(wide.columns)
    assert ((wide["p_make_low"] <= wide["p_make"]) & (wide["p_make"] <= wide["p_make_high"])).all()
    assert r.findings and r.meta["game"] == "moon"
    m = moonshot.compare("hit-the-deck", "tactician", "random", hands=2000, seed=1).wide("match")
    assert len(m) == 1 and m["d_penalty"].iloc[0] < 0
    w = moonshot.whatif("shoot-the-moon", {"stm.target_chips": 5}, games=100, seed=1)
    assert "seats" in w.tables and w.meta["variant"] == ["stm.target_chips=5"]
    a = moonshot.analyze("moon", "seat-advantage", n=2000, seed=1)
    assert len(a.wide("positions")) == 3
    h = moonshot.hand("hit-the-deck", "R3 R5 G2 BCUT YFLIP HN3 HH", samples=500, seed=1)
    assert 0 < h.wide("hand")["p_out"].iloc[0] < 1


def test_library_errors_are_the_cli_ones():
    with pytest.raises(moonshot.BadInput, match="unknown game 'chess'"):
        moonshot.simulate("chess")
    with pytest.raises(moonshot.BadInput, match="accepted: 3 or 4"):
        moonshot.simulate("moon", players=6)
