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


@pytest.mark.parametrize("call,line", [
    (lambda: moonshot.simulate("moon", hands=-5), "hands=-5 is not a positive count"),
    (lambda: moonshot.simulate("moon", hands=0), "hands=0 is not a positive count"),
    (lambda: moonshot.simulate("moon", hands=1e4), "hands=10000.0 is not a positive count"),
    (lambda: moonshot.simulate("moon", hands="100"), "hands='100' is not a positive count"),
    (lambda: moonshot.simulate("moon", hands=10**20), "accepted: an integer from 1 to 10,000,000,000"),
    (lambda: moonshot.simulate("moon", hands=100, games=100), "give hands= or games=, not both"),
    (lambda: moonshot.simulate("moon", hands=100, seed=-1), "seed=-1 is not accepted"),
    (lambda: moonshot.simulate("moon", hands=100, jobs=0), "jobs=0 is not accepted"),
    (lambda: moonshot.compare("moon", "random", "greedy", hands=100, jobs=-7), "jobs=-7 is not accepted"),
    (lambda: moonshot.simulate("moon", hands=100, players="3"), "players='3' is not a whole number"),
    (lambda: moonshot.analyze("mooon", "bid-success"), "unknown game 'mooon'"),
    (lambda: moonshot.analyze("moon", "bid-sucess"), "unknown analysis 'bid-sucess' for moon; accepted: bid-success"),
    (lambda: moonshot.analyze("moon", "bid-success", n=-1), "n=-1 is not a positive count"),
    (lambda: moonshot.analyze("moon", "seat-advantage", seat=1), "seat= does not apply to seat-advantage"),
    (lambda: moonshot.compare("chess", "a", "b"), "unknown game 'chess'"),
    (lambda: moonshot.whatif("chess", {"x": 1}), "unknown game 'chess'"),
    (lambda: moonshot.hand("chess", "R1"), "unknown game 'chess'"),
    (lambda: moonshot.hand("moon", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", samples=0), "samples=0 is not a positive"),
    (lambda: moonshot.simulate("moon", hands=100, strategy=5), "strategy=5 is not accepted"),
    (lambda: moonshot.simulate("moon", hands=100, rules=[1]), "rules=[1] is not accepted"),
    (lambda: moonshot.simulate("moon", hands=100, partners="yes"), "partners='yes' is not accepted"),
    (lambda: moonshot.compare("moon", "random", 3, hands=100), "b=3 is not accepted"),
    (lambda: moonshot.report("chess", "out"), "unknown game 'chess'"),
    (lambda: moonshot.report("moon", "out", hands=10), "hands=10 is too few for a report"),
])
def test_the_library_refuses_bad_values_with_the_cli_line(call, line, tmp_path, monkeypatch):
    """The command line's one-line messages, naming the function's own arguments (hands=, not --hands)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(moonshot.BadInput) as refused:
        call()
    assert line in str(refused.value) and "\n" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_a_result_names_its_tables_metrics_and_keys():
    r = moonshot.simulate("moon", hands=200, seed=1)
    with pytest.raises(moonshot.BadInput, match="no table 'nope' in this result; accepted: .*contracts"):
        r.wide("nope")
    with pytest.raises(moonshot.BadInput, match="no metric 'nope' in table 'contracts'; accepted: "):
        r.row("contracts", "nope")
    metric = r.tables["contracts"]["metric"].iloc[0]
    with pytest.raises(moonshot.BadInput, match="no key column 'nope' in table 'contracts'; accepted: bid"):
        r.row("contracts", metric, nope=1)
    assert r.row("contracts", metric)["metric"] == metric


def test_dir_shows_the_library_and_nothing_it_imported():
    assert dir(moonshot) == sorted(moonshot.__all__)
    assert not {"Path", "annotations", "common", "inputs"} & set(dir(moonshot))
