"""Per-hand rows (``--save-hands``): one Parquet file, a row group per chunk, streamed as the
chunks finish (constant memory) under a temporary name that becomes the file when the run completes.
The run store (simulator.store, which re-exports these names) refuses them on --resume."""
from __future__ import annotations

import contextvars
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.files import atomic_file, writing

_HANDS: contextvars.ContextVar["HandsWriter | None"] = contextvars.ContextVar("moonshot_hands", default=None)
RESUME_HANDS = ("--resume plays only the chunks the store lacks, so it cannot write every hand; accepted: "
                "--save-hands on a run with --save or without a store")


class HandsWriter:
    """Per-hand rows streamed into one Parquet file, a row group per chunk (constant memory), at
    `tmp` (a temporary name beside `path`, the file it becomes when the run completes)."""

    def __init__(self, tmp: Path, path: Path | None = None):
        self.tmp, self.path = Path(tmp), Path(path if path is not None else tmp)
        self.writer = None
        self.rows = 0

    def write(self, columns: dict[str, np.ndarray]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.table({k: np.asarray(v) for k, v in columns.items()})
        with writing(self.path):
            if self.writer is None:
                self.writer = pq.ParquetWriter(self.tmp, table.schema, compression="zstd")
            self.writer.write_table(table)
        self.rows += table.num_rows

    def close(self, failed: bool = False) -> None:
        """Finish the file; after a failure, only let go of it (the failure says more than a second one)."""
        if self.writer is None:
            return
        if failed:
            try:
                self.writer.close()
            except OSError:
                pass
            return
        with writing(self.path):
            self.writer.close()


def check_hands_file(path: Path) -> None:
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.suffix != ".parquet":
        raise BadInput(f"--save-hands {str(path)!r}: accepted: a file name ending in .parquet")
    if not parent.is_dir():
        raise BadInput(f"--save-hands {str(path)!r}: folder {str(parent)!r} does not exist; accepted: a file in an "
                       f"existing folder")
    if path.is_dir() or not os.access(parent, os.W_OK):
        raise BadInput(f"--save-hands {str(path)!r} cannot be written; accepted: a file in a writable folder")


@contextmanager
def hands_file(path: Path | None, resumed: bool = False) -> Iterator[HandsWriter | None]:
    """With a path: per-hand rows of every hands chunk run inside go to that Parquet file (see
    :func:`hands_sink`); the file appears only when the block completes."""
    if path is None:
        yield None
        return
    check_hands_file(path)
    if resumed:                             # under a --resume store (simulator.store.hands_file says)
        raise BadInput(RESUME_HANDS)
    with atomic_file(path) as tmp:
        writer = HandsWriter(tmp, path)
        token = _HANDS.set(writer)
        try:
            yield writer
        except BaseException:
            writer.close(failed=True)
            raise
        finally:
            _HANDS.reset(token)
        writer.close()
    if writer.writer is None:               # no hands chunk ran: no file rather than an empty one
        Path(path).unlink(missing_ok=True)


def hands_sink() -> HandsWriter | None:
    """The active --save-hands writer (None when per-hand rows are not asked for)."""
    return _HANDS.get()
