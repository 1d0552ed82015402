"""A run store refuses a chunk that is not its own (issue 38 item 5): a chunk copied from a store with
another seed, from another part, over another index, renamed, with edited sums, a NaN or a negative
count is refused in one line (exit 2) by --resume and by `runs show`, and nothing in the store is
changed; a garbage result.json is one line too; `runs list` lists every store and says which one is
damaged. Untouched stores resume to the same numbers (tests/test_store.py)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from moonshot.analysis.common import make_setup
from moonshot.simulator import store
from moonshot.simulator.chunk_identity import CHUNK_KEY
from moonshot.simulator.errors import BadInput
from tests.test_cli import run as cli_run
from tests.test_store import ROOT, manifest, moonshot, saved_run, snapshot

CHUNKS = 4
# odd: the fastest real player
RUN = ["simulate", "shoot-the-moon", "-n", CHUNKS * 65_536, "-s", "odd", "-f", "json", "-q"]


def command(seed: int) -> list:
    return [*RUN, "--seed", seed]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """Two complete stores of the same command, seeds 5 and 6 (four chunks each), and their output."""
    folder = tmp_path_factory.mktemp("stores")
    outputs = {}
    for seed in (5, 6):
        done = subprocess.run([*moonshot(), *map(str, command(seed)), "--save", str(folder / f"seed{seed}")],
                              cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outputs[seed] = done.stdout
    return folder, outputs


@pytest.fixture
def mine(stores, tmp_path) -> Path:
    """A copy of the seed-5 store, marked unfinished (as a run stopped before its result)."""
    folder, _ = stores
    path = tmp_path / "run"
    shutil.copytree(folder / "seed5", path)
    m = json.loads((path / "manifest.json").read_text())
    m["complete"] = False
    (path / "manifest.json").write_text(json.dumps(m))
    (path / "result.json").unlink()
    return path


def chunk(store_path: Path, index: int, part: str = "00-hands") -> Path:
    return store_path / "chunks" / f"{part}-{index:06d}.parquet"


def edit(path: Path, column_end: str, change) -> None:
    """Rewrite a chunk with one value of its first column ending in `column_end` changed, its
    metadata (its identity and checksum as written) kept."""
    table = pq.read_table(path)
    i = next(k for k, name in enumerate(table.column_names) if name.endswith(column_end))
    values = table.column(i).to_pylist()
    row = next(r for r, v in enumerate(values) if v is not None)
    values[row] = change(values[row])
    edited = table.set_column(i, table.column_names[i], pa.array(values, type=table.column(i).type))
    assert edited.schema.metadata == table.schema.metadata
    pq.write_table(edited, path)


def refused(capsys, path: Path, words: str, seed: int = 5) -> None:
    """--resume and `runs show` each refuse the store in one line naming `words`, changing nothing."""
    before = snapshot(path)
    for args in ([*command(seed), "--resume", path], ["runs", "show", path]):
        code, out, err = cli_run(args, capsys)
        assert code == 2 and out == "", (args, err)
        assert len(err.strip().splitlines()) == 1 and err.startswith("moonshot: error: "), err
        assert words in err, err
    assert snapshot(path) == before


def test_a_chunk_of_a_store_with_another_seed_is_refused(stores, mine, capsys):
    folder, _ = stores
    shutil.copy(chunk(folder / "seed6", 2), chunk(mine, 2))
    refused(capsys, mine, "00-hands-000002.parquet is a chunk of another run")


def test_chunk_0_copied_over_chunk_1_is_refused(mine, capsys):
    shutil.copy(chunk(mine, 0), chunk(mine, 1))
    refused(capsys, mine, "holds chunk 0 of its part, not chunk 1 (copied or renamed)")


def test_chunk_3_renamed_to_a_missing_chunk_is_refused(mine, capsys):
    chunk(mine, 1).unlink()
    chunk(mine, 3).rename(chunk(mine, 1))
    refused(capsys, mine, "holds chunk 3 of its part, not chunk 1")


def test_a_chunk_past_the_parts_end_is_refused(mine, capsys):
    chunk(mine, 3).rename(chunk(mine, 5))
    refused(capsys, mine, "00-hands-000005.parquet is not one of its chunks")


@pytest.mark.parametrize("change,words", [
    (lambda v: v + 1.0, "sums are not those it was written with"),
    (lambda v: float("nan"), "sums are not those it was written with"),
])
def test_edited_sums_are_refused(mine, capsys, change, words):
    edit(chunk(mine, 2), ":chips", change)
    refused(capsys, mine, words)


def test_a_negative_count_is_refused(mine, capsys):
    edit(chunk(mine, 1), ":n", lambda v: -5)
    refused(capsys, mine, "holds a negative count")


def test_a_chunk_without_an_identity_is_refused(mine, capsys):
    table = pq.read_table(chunk(mine, 0))
    meta = {k: v for k, v in table.schema.metadata.items() if k != CHUNK_KEY}
    pq.write_table(table.replace_schema_metadata(meta), chunk(mine, 0))
    refused(capsys, mine, "carries no chunk identity")


def test_a_chunk_of_another_part_is_refused(tmp_path):
    """The same index of another part of the same run (a verb with two chunked runs) is not its own."""
    from moonshot.analysis import common
    setups = [make_setup("shoot-the-moon", 2), make_setup("shoot-the-moon", 3)]
    spec = setups[0].entry.analyses["big-moon-value"]
    m = store.new_manifest("analyze", {"analysis": "big-moon-value", "games": 300}, game="shoot-the-moon", seed=9,
                           chunk=65_536)
    with store.recording(tmp_path / "run", None, m):
        common.run_analysis(spec, setups, 300, 9, 1, 0)
    chunks = tmp_path / "run" / "chunks"
    shutil.copy(chunks / "00-big-moon-000000.parquet", chunks / "01-big-moon-000000.parquet")
    with pytest.raises(BadInput, match="01-big-moon-000000.parquet is a chunk of another run"):
        with store.recording(None, tmp_path / "run", m):
            pass


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("small") / "run"
    saved_run(path, hands=6_000)                  # six chunks of 1,000 hands
    return path


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 5), column=st.integers(0, 50), row=st.integers(0, 50), value=st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6)))
def test_any_one_value_changed_in_any_chunk_is_refused(small_store, tmp_path_factory, index, column, row, value):
    path = tmp_path_factory.mktemp("store") / "run"
    shutil.copytree(small_store, path)
    file = chunk(path, index)
    table = pq.read_table(file)
    numeric = [k for k, c in enumerate(table.columns) if pa.types.is_floating(c.type) or pa.types.is_integer(c.type)]
    k = numeric[column % len(numeric)]
    values = table.column(k).to_pylist()
    present = [r for r, v in enumerate(values) if v is not None]
    at = present[row % len(present)]
    floating = pa.types.is_floating(table.column(k).type)
    new = float(value) if floating else int(np.clip(value, -2**62, 2**62)) if np.isfinite(value) else -1
    if new == values[at] or (floating and np.isnan(new) and np.isnan(values[at])):
        return                         # not a change
    values[at] = new
    pq.write_table(table.set_column(k, table.column_names[k], pa.array(values, type=table.column(k).type)), file)
    before = snapshot(path)
    with pytest.raises(BadInput, match=f"is damaged: 00-hands-{index:06d}.parquet"):
        with store.recording(None, path, manifest("shoot-the-moon", 6_000, 3, 1_000)):
            pass
    assert snapshot(path) == before


# ------------------------------------------------------------------------------------------
# results, lists, older stores
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("garbage", [b"", b"{not json", b"[1, 2, 3]", b'{"title": 1}', b"\xff\xfe\x00garbage",
                                     b"[" * 100_000, b"edited"])
def test_runs_show_of_a_garbage_result_is_one_line(stores, tmp_path, capsys, garbage):
    folder, outputs = stores
    shutil.copytree(folder / "seed5", tmp_path / "run")
    result = tmp_path / "run" / "result.json"
    if garbage == b"edited":         # still a valid result, but not the one the run wrote
        obj = json.loads(result.read_text())
        obj["title"] += " (better)"
        garbage = json.dumps(obj).encode()
    result.write_bytes(garbage)
    for fmt in ("json", "table", "csv"):
        code, out, err = cli_run(["runs", "show", tmp_path / "run", "-f", fmt], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert "is damaged: result.json" in err


def test_runs_show_of_an_untouched_store_prints_its_result(stores, capsys):
    folder, outputs = stores
    code, out, err = cli_run(["runs", "show", folder / "seed6", "-f", "json"], capsys)
    assert code == 0 and out == outputs[6], err


def test_runs_list_names_the_damaged_store_and_lists_the_others(stores, tmp_path, capsys):
    folder, _ = stores
    for name in ("a", "b", "c", "d"):
        shutil.copytree(folder / "seed5", tmp_path / name)
    (tmp_path / "b" / "manifest.json").write_text("{garbage")
    (tmp_path / "c" / "result.json").write_bytes(b"\x00\x01")
    (tmp_path / "d" / "chunks" / "notes.txt").write_text("mine")
    code, out, err = cli_run(["runs", "list", tmp_path], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 4, out
    assert lines[0].startswith(f"{tmp_path / 'a'}  complete  {CHUNKS}/{CHUNKS} chunks")
    assert f"run store '{tmp_path / 'b'}' is damaged: manifest.json cannot be read" in lines[1]
    assert f"run store '{tmp_path / 'c'}' is damaged: result.json" in lines[2]
    assert f"run store '{tmp_path / 'd'}' is damaged: notes.txt is not one of its chunks" in lines[3]


def test_a_store_of_version_1_is_shown_but_not_resumed(stores, tmp_path, capsys):
    """A store written before chunks carried their identity: its result is still shown; --resume
    refuses it in one line saying why (its chunks cannot be checked) and what to do."""
    folder, outputs = stores
    old = tmp_path / "old"
    shutil.copytree(folder / "seed5", old)
    m = json.loads((old / "manifest.json").read_text())
    m["store_version"] = 1
    del m["result_sha256"]
    (old / "manifest.json").write_text(json.dumps(m))
    for f in (old / "chunks").iterdir():
        table = pq.read_table(f)
        pq.write_table(table.replace_schema_metadata({k: v for k, v in table.schema.metadata.items()
                                                      if k != CHUNK_KEY}), f)
    code, out, err = cli_run(["runs", "show", old, "-f", "json"], capsys)
    assert code == 0 and out == outputs[5], err
    code, out, err = cli_run(["runs", "list", old], capsys)
    assert code == 0 and " complete " in out, err
    code, out, err = cli_run([*command(5), "--resume", old], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "written by an older moonshot (store version 1" in err


def test_untampered_chunks_resume_to_the_numbers_of_a_run_without_a_store(stores, mine, capsys):
    folder, outputs = stores
    chunk(mine, 2).unlink()
    code, out, err = cli_run([*command(5), "--resume", mine], capsys)
    assert code == 0 and out == outputs[5], err
