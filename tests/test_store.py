"""Run stores (--save/--resume, `runs`) and per-hand files (--save-hands), on real runs and real
files: a stored chunk reads back exactly; a run killed mid-way (SIGKILL) and resumed equals the
uninterrupted run; a mismatched or damaged store, or a folder that is not a store, is refused in
one line with exit 2 and nothing of it is lost."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from moonshot.analysis import common
from moonshot.analysis.common import make_setup, simulate
from moonshot.reports.text import render
from moonshot.simulator import store
from moonshot.simulator.errors import BadInput
from moonshot.simulator.games import GAMES
from moonshot.simulator.runner import CHUNK, Tally
from tests.test_cli import run as cli_run

ROOT = Path(__file__).resolve().parent.parent


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` with a digest of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def manifest(game: str, hands: int, seed: int, chunk: int, **options) -> dict:
    return store.new_manifest("simulate", {"game": game, "hands": hands, **options}, game=game, seed=seed,
                              chunk=chunk)


def saved_run(path: Path, game="shoot-the-moon", hands=6_000, seed=3, chunk=1_000) -> str:
    """A complete store at `path`; returns the run's JSON."""
    with store.recording(path, None, manifest(game, hands, seed, chunk)) as st:
        out = render(simulate(make_setup(game), hands, None, seed, 1, chunk=chunk), "json")
        st.finish(out)
    return out


# ------------------------------------------------------------------------------------------
# a chunk's tally as Parquet
# ------------------------------------------------------------------------------------------

def _chunk_tallies():
    from moonshot.analysis import hit_the_deck, moon, shoot_the_moon
    for game in GAMES:
        setup = make_setup(game)
        yield f"{game} hands", common._hands_chunk(setup, False, 700, False, 5, 2, 700)
        yield f"{game} games", common._games_chunk(setup, False, 12, 5, 1, 12)
    yield "stm hand-odds", shoot_the_moon._odds_chunk(make_setup("shoot-the-moon"), 0, 5, 0, 500)
    yield "moon bid-success", moon._bid_success_chunk(make_setup("moon"), 5, 0, 2_000)
    yield "htd seats", hit_the_deck._seat_chunk(make_setup("hit-the-deck"), 5, 0, 12)


def test_a_stored_chunk_reads_back_exactly():
    for what, tally in _chunk_tallies():
        back = Tally.from_arrow(tally.to_arrow())
        assert list(back.tables) == list(tally.tables), what
        for name, df in tally.tables.items():
            got = back.tables[name]
            pd.testing.assert_frame_equal(got, df, check_exact=True, obj=f"{what}: {name}")
            assert [got.index.get_level_values(i).dtype for i in range(got.index.nlevels)] == \
                   [df.index.get_level_values(i).dtype for i in range(df.index.nlevels)], (what, name)


def test_an_empty_tally_reads_back():
    assert Tally.from_arrow(Tally().to_arrow()).tables == {}


# ------------------------------------------------------------------------------------------
# save and resume
# ------------------------------------------------------------------------------------------

def test_a_saved_run_keeps_every_chunk_its_manifest_and_its_result(tmp_path):
    out = saved_run(tmp_path / "run")
    m = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert m["verb"] == "simulate" and m["game"] == "shoot-the-moon" and m["seed"] == 3 and m["chunk"] == 1_000
    assert m["complete"] and m["chunks"] == 6 and m["version"]
    assert m["parts"] == [{"name": "00-hands", "task": "moonshot.analysis.common._hands_chunk", "hands": 6_000,
                           "seed": 3, "chunk": 1_000, "chunks": 6}]
    assert sorted(p.name for p in (tmp_path / "run" / "chunks").iterdir()) == \
        [f"00-hands-{i:06d}.parquet" for i in range(6)]
    st = store.RunStore.open(tmp_path / "run")
    assert st.result_json().rstrip("\n") == out
    assert "complete  6/6 chunks" in st.summary()


def test_resume_plays_only_the_missing_chunks_and_gives_the_same_numbers(tmp_path):
    want = saved_run(tmp_path / "run")
    m = json.loads((tmp_path / "run" / "manifest.json").read_text())
    m["complete"] = False                                         # as a run stopped after three chunks left it
    (tmp_path / "run" / "manifest.json").write_text(json.dumps(m))
    (tmp_path / "run" / "result.json").unlink()
    for i in (1, 3, 5):
        (tmp_path / "run" / "chunks" / f"00-hands-{i:06d}.parquet").unlink()
    kept = snapshot(tmp_path / "run" / "chunks")
    st = store.RunStore.open(tmp_path / "run")
    assert "3 of 6 chunks" in st.how_far() and "--resume" in st.how_far()
    seen = []
    with store.recording(None, tmp_path / "run", manifest("shoot-the-moon", 6_000, 3, 1_000)) as st:
        got = render(simulate(make_setup("shoot-the-moon"), 6_000, None, 3, 1, progress=seen.append, chunk=1_000),
                     "json")
        st.finish(got)
    assert got == want
    assert st.saved == 3 and seen == [1_000] * 6                  # three played, six seen by progress
    after = snapshot(tmp_path / "run" / "chunks")
    assert {k: after[k] for k in kept} == kept                    # what was there is untouched


def test_a_multi_part_verb_names_its_parts_and_resumes(tmp_path):
    setup = make_setup("shoot-the-moon", 2)
    spec = setup.entry.analyses["big-moon-value"]
    setups = [setup, make_setup("shoot-the-moon", 3)]
    m = store.new_manifest("analyze", {"analysis": "big-moon-value", "games": 300}, game="shoot-the-moon", seed=9,
                           chunk=CHUNK)
    with store.recording(tmp_path / "run", None, m):
        want = render(common.run_analysis(spec, setups, 300, 9, 1, 0), "json")
    names = [p["name"] for p in json.loads((tmp_path / "run" / "manifest.json").read_text())["parts"]]
    assert names == ["00-big-moon", "01-big-moon"]
    (tmp_path / "run" / "chunks" / "01-big-moon-000000.parquet").unlink()
    with store.recording(None, tmp_path / "run", m) as st:
        got = render(common.run_analysis(spec, setups, 300, 9, 1, 0), "json")
    assert got == want and st.saved == 1


def test_resume_of_another_command_is_refused_and_the_store_is_untouched(tmp_path):
    saved_run(tmp_path / "run")
    before = snapshot(tmp_path / "run")
    for other, word in ((manifest("shoot-the-moon", 6_000, 4, 1_000), "seed"),
                        (manifest("shoot-the-moon", 7_000, 3, 1_000), "options.hands"),
                        (manifest("moon", 6_000, 3, 1_000), "game")):
        with pytest.raises(BadInput, match=f"saved by another command \\({word}: the store has"):
            with store.recording(None, tmp_path / "run", other):
                pass
    assert snapshot(tmp_path / "run") == before


def test_output_options_may_differ_on_resume(tmp_path):
    saved_run(tmp_path / "run")
    before = snapshot(tmp_path / "run")
    m = manifest("shoot-the-moon", 6_000, 3, 1_000, jobs=4, format="table", quiet=True, scheduler="local:2")
    with store.recording(None, tmp_path / "run", m) as st:
        assert st.resumed and st.stored_chunks() == {"00-hands": set(range(6))}
    assert snapshot(tmp_path / "run") == before


@pytest.mark.parametrize("damage", ["manifest-garbage", "manifest-not-ours", "chunk-truncated", "chunk-stranger",
                                    "chunk-not-a-tally", "no-manifest"])
def test_a_damaged_store_is_refused_and_nothing_is_lost(tmp_path, damage):
    saved_run(tmp_path / "run")
    run = tmp_path / "run"
    chunk = run / "chunks" / "00-hands-000002.parquet"
    if damage == "manifest-garbage":
        (run / "manifest.json").write_text('{"format": "moonshot-run-store", "parts": [')
    elif damage == "manifest-not-ours":
        (run / "manifest.json").write_text('{"hello": 1}')
    elif damage == "chunk-truncated":
        chunk.write_bytes(chunk.read_bytes()[:100])
    elif damage == "chunk-stranger":
        (run / "chunks" / "notes.txt").write_text("mine")
    elif damage == "chunk-not-a-tally":
        pq.write_table(pd.DataFrame({"x": [1, 2]}).pipe(__import__("pyarrow").Table.from_pandas), chunk)
    else:
        (run / "manifest.json").unlink()
    before = snapshot(run)
    with pytest.raises(BadInput, match="damaged|not a run store"):
        with store.recording(None, run, manifest("shoot-the-moon", 6_000, 3, 1_000)):
            pass
    assert snapshot(run) == before


def test_a_killed_writer_leaves_only_a_temporary_file_which_resume_clears(tmp_path):
    saved_run(tmp_path / "run")
    (tmp_path / "run" / "chunks" / ".00-hands-000006.parquet.abc.tmp").write_bytes(b"half")
    with store.recording(None, tmp_path / "run", manifest("shoot-the-moon", 6_000, 3, 1_000)):
        pass
    assert not list((tmp_path / "run" / "chunks").glob(".*"))


def test_save_refuses_a_folder_that_is_not_empty_or_already_a_store(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious")
    with pytest.raises(BadInput, match="not empty and not a run store"):
        with store.recording(mine, None, manifest("moon", 10, 1, 10)):
            pass
    assert snapshot(mine) == {"thesis.tex": hashlib.sha256(b"precious").hexdigest()}
    saved_run(tmp_path / "run")
    before = snapshot(tmp_path / "run")
    with pytest.raises(BadInput, match="already a run store; accepted: --resume"):
        with store.recording(tmp_path / "run", None, manifest("shoot-the-moon", 6_000, 3, 1_000)):
            pass
    assert snapshot(tmp_path / "run") == before
    with pytest.raises(BadInput, match="not both"):
        store.check(tmp_path / "a", tmp_path / "run")


def test_save_into_an_empty_folder_works_and_a_run_failing_on_bad_input_leaves_no_store(tmp_path):
    (tmp_path / "empty").mkdir()
    saved_run(tmp_path / "empty", hands=2_000)
    assert (tmp_path / "empty" / "result.json").is_file()
    with pytest.raises(BadInput):
        with store.recording(tmp_path / "new", None, manifest("moon", 10, 1, 10)):
            raise BadInput("bad --seat")
    assert not (tmp_path / "new").exists()


def test_find_stores_lists_stores_and_their_progress(tmp_path):
    saved_run(tmp_path / "a", hands=2_000)
    saved_run(tmp_path / "b", hands=3_000)
    m = json.loads((tmp_path / "b" / "manifest.json").read_text())
    m["complete"] = False
    (tmp_path / "b" / "manifest.json").write_text(json.dumps(m))
    (tmp_path / "b" / "chunks" / "00-hands-000001.parquet").unlink()
    lines = [s.summary() for s in store.find_stores([tmp_path])]
    assert len(lines) == 2
    assert "complete  2/2 chunks" in lines[0] and "incomplete  2/3 chunks (66.7%)" in lines[1]
    assert "moonshot simulate shoot-the-moon --hands 3000" in lines[1]
    with pytest.raises(BadInput, match="not a folder"):
        list(store.find_stores([tmp_path / "nope"]))


# ------------------------------------------------------------------------------------------
# per-hand rows
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(GAMES))
def test_save_hands_writes_one_row_per_hand_a_row_group_per_chunk(tmp_path, game):
    setup = make_setup(game)
    path = tmp_path / "hands.parquet"
    want = render(simulate(setup, 1_250, None, 8, 1, chunk=500), "json")
    with store.hands_file(path):
        got = render(simulate(setup, 1_250, None, 8, 1, chunk=500), "json")
    assert got == want                                             # per-hand rows change no number
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == 1_250 and meta.num_row_groups == 3
    rows = pq.read_table(path).to_pandas()
    assert (rows["hand"].to_numpy() == np.arange(1_250)).all()
    seats = setup.players
    per_seat = "penalty" if game == "hit-the-deck" else "side"
    assert {f"seat{s}_{per_seat}" for s in range(seats)} <= set(rows.columns)
    assert [p.name for p in tmp_path.iterdir()] == ["hands.parquet"]      # no temporary file left
    out = json.loads(got)["tables"]
    if game == "shoot-the-moon":       # seat 0's side's mean chips, from the rows and from the run
        est = next(r for r in out["sides"] if r["side"] == 0 and r["metric"] == "chips")["estimate"]
        assert rows["seat0_chips"].mean() == pytest.approx(est)
        assert (rows[[f"seat{s}_tricks" for s in range(seats)]].sum(axis=1) == 5).all()
    elif game == "moon":
        est = next(r for r in out["thrown_in"] if r["metric"] == "p_thrown_in")["estimate"]
        assert rows["thrown_in"].mean() == pytest.approx(est)
        assert ((rows["bidder"] >= 0) == (rows["bid"] > 0)).all()
    else:
        est = next(r for r in out["seats"] if r["seat"] == 0 and r["metric"] == "penalty")["estimate"]
        assert rows["seat0_penalty"].mean() == pytest.approx(est)


def test_save_hands_leaves_no_file_when_the_run_fails(tmp_path):
    path = tmp_path / "hands.parquet"
    with pytest.raises(KeyboardInterrupt):
        with store.hands_file(path):
            def stop(n):
                raise KeyboardInterrupt
            simulate(make_setup("moon"), 3_000, None, 1, 1, progress=stop, chunk=1_000)
    assert list(tmp_path.iterdir()) == []


def test_save_hands_is_refused_with_resume_and_checks_its_path(tmp_path):
    saved_run(tmp_path / "run", hands=2_000)
    with pytest.raises(BadInput, match="--resume plays only the chunks the store lacks"):
        with store.recording(None, tmp_path / "run", manifest("shoot-the-moon", 2_000, 3, 1_000)), \
                store.hands_file(tmp_path / "h.parquet"):
            pass
    for bad in (tmp_path / "h.csv", tmp_path / "missing" / "h.parquet"):
        with pytest.raises(BadInput, match="--save-hands"):
            with store.hands_file(bad):
                pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


# ------------------------------------------------------------------------------------------
# the command line: --save, --resume, --save-hands, runs show / list
# ------------------------------------------------------------------------------------------

def moonshot() -> list[str]:
    script = Path(sys.executable).with_name("moonshot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "moonshot.cli"]


CHUNKS = 8     # enough that the kill lands mid-run (after the 3rd chunk file, with 5 to go)
RUN = ["simulate", "shoot-the-moon", "-n", CHUNKS * 65_536, "--seed", 5, "-f", "json", "-q"]


def test_a_run_killed_mid_way_resumes_to_the_uninterrupted_numbers(tmp_path, capsys):
    store_dir = tmp_path / "run"
    proc = subprocess.Popen([*moonshot(), *map(str, RUN), "--save", str(store_dir)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(list(store_dir.glob("chunks/*.parquet"))) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = sorted(p.name for p in store_dir.glob("chunks/*.parquet"))
    assert 3 <= len(kept) < CHUNKS and not (store_dir / "result.json").exists()      # killed mid-run
    before = snapshot(store_dir / "chunks")
    code, out, _ = cli_run(["runs", "show", store_dir], capsys)
    assert code == 0 and f"incomplete, {len(kept)} of {CHUNKS} chunks" in out and "--resume" in out
    code, resumed, err = cli_run([*RUN, "--resume", store_dir], capsys)
    assert code == 0, err
    code, want, _ = cli_run([*RUN, "--jobs", 2], capsys)
    assert resumed == want
    after = snapshot(store_dir / "chunks")
    assert len(after) == CHUNKS and {k: after[k] for k in before} == before         # nothing stored was redone
    code, shown, _ = cli_run(["runs", "show", store_dir, "-f", "json"], capsys)
    assert shown == want                                                        # no simulation needed
    code, listed, _ = cli_run(["runs", "list", tmp_path], capsys)
    assert f"{store_dir}  complete  {CHUNKS}/{CHUNKS} chunks  seed 5  moonshot simulate shoot-the-moon" in listed


def test_every_simulating_verb_keeps_its_result(tmp_path, capsys):
    for verb in (["analyze", "moon", "bid-success", "-n", 3_000],
                 ["compare", "shoot-the-moon", "-s", "odd", "--vs", "greedy", "-n", 2_000],
                 ["whatif", "shoot-the-moon", "-r", "stm.moon_chip_netting=sequential", "-n", 2_000],
                 ["hand", "moon", "--hand", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", "--samples", 500, "--check-samples", 20],
                 ["tournament", "moon", "-s", "threshold", "-s", "random", "--games", 100]):
        folder = tmp_path / verb[0]
        code, out, err = cli_run([*verb, "-f", "json", "-q", "--save", folder], capsys)
        assert code == 0, err
        assert (folder / "result.json").read_text() == out
        code, again, err = cli_run([*verb, "-f", "json", "-q", "--resume", folder], capsys)
        assert code == 0 and again == out, err
    code, listed, _ = cli_run(["runs", "list", tmp_path], capsys)
    assert len(listed.splitlines()) == 5 and listed.count(" complete ") == 5


def test_save_hands_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "hands.parquet"
    code, out, err = cli_run(["simulate", "moon", "-n", 3_000, "-q", "--save-hands", path], capsys)
    assert code == 0, err
    rows = pq.read_table(path)
    assert rows.num_rows == 3_000 and {"bidder", "bid", "trump", "made", "seat0_call", "seat2_score"} <= set(
        rows.column_names)


@pytest.mark.parametrize("case", ["mismatch", "damaged", "not-a-store", "already-a-store", "both",
                                  "resume-hands", "resume-history", "hands-games", "hands-suffix"])
def test_bad_runs_are_one_line_exit_2_and_nothing_is_lost(tmp_path, capsys, case):
    saved = tmp_path / "run"
    saved_run(saved, hands=2_000)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    if case == "damaged":
        (saved / "chunks" / "00-hands-000001.parquet").write_bytes(b"PAR1 not really")
    before = snapshot(tmp_path)
    base = ["simulate", "shoot-the-moon", "-n", 2_000, "--seed", 3, "-q", "-o", tmp_path / "out.json"]
    args = {"mismatch": [*base[:5], 4, *base[6:], "--resume", saved],
            "damaged": [*base, "--resume", saved],
            "not-a-store": [*base, "--save", other],
            "already-a-store": [*base, "--save", saved],
            "both": [*base, "--save", tmp_path / "new", "--resume", saved],
            "resume-hands": [*base, "--resume", saved, "--save-hands", tmp_path / "h.parquet"],
            "resume-history": [*base, "--resume", saved, "--history", tmp_path / "h.jsonl"],
            "hands-games": ["simulate", "moon", "--games", 10, "--save-hands", tmp_path / "h.parquet"],
            "hands-suffix": ["simulate", "moon", "-n", 10, "--save-hands", tmp_path / "h.csv"]}[case]
    code, out, err = cli_run(args, capsys)
    assert code == 2 and out == ""
    assert err.startswith("moonshot: error: ") and len(err.strip().splitlines()) == 1, err
    assert snapshot(tmp_path) == before                                     # nothing lost, nothing written


# ------------------------------------------------------------------------------------------
# one run per store at a time; versions
# ------------------------------------------------------------------------------------------

def test_a_second_resume_of_a_store_in_use_is_refused_in_one_line(tmp_path):
    saved_run(tmp_path / "run")
    wanted = manifest("shoot-the-moon", 6_000, 3, 1_000)
    with store.recording(None, tmp_path / "run", wanted):
        with pytest.raises(BadInput, match=r"is in use by another moonshot run; accepted: wait"):
            with store.recording(None, tmp_path / "run", wanted):
                pass
    with store.recording(None, tmp_path / "run", wanted):          # free again once the first has ended
        pass


def test_a_store_of_another_behaviour_version_is_refused(tmp_path):
    saved_run(tmp_path / "run")
    path = tmp_path / "run" / store.MANIFEST
    stored = json.loads(path.read_text())
    assert stored["version"] and stored["behaviour"] == f"shoot-the-moon/{GAMES['shoot-the-moon'].behaviour}"
    path.write_text(json.dumps({**stored, "behaviour": "shoot-the-moon/0"}))
    with pytest.raises(BadInput, match=r"\(behaviour: the store has \"shoot-the-moon/0\""):
        with store.recording(None, tmp_path / "run", manifest("shoot-the-moon", 6_000, 3, 1_000)):
            pass


def test_every_result_says_which_code_computed_it():
    import moonshot
    for game in GAMES:
        meta = moonshot.simulate(game, hands=50, seed=1).meta
        assert meta["version"] == moonshot.__version__ and meta["behaviour"] == f"{game}/{GAMES[game].behaviour}"
