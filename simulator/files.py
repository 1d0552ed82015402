"""Whole files or nothing: every file moonshot writes (results, histories, run stores, per-hand
rows, reports) is written under a temporary name beside its place and renamed there only when it
is complete, so a failure or a Ctrl-C never leaves a half-written file."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


def ordinary(path: Path, folder: bool = False) -> None:
    """Give a temporary file (0600) or folder (0700) the permissions a new one gets under the umask."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, (0o777 if folder else 0o666) & ~umask)


@contextmanager
def atomic_file(path: Path, durable: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success it becomes `path` (flushed to disk first when
    `durable`: a run store's chunks survive a crash of the machine), on any failure it is removed."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        if durable:
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        ordinary(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: Path, write: Callable[[Path], object], durable: bool = False) -> None:
    """write(temporary path), then the temporary file becomes `path` (see atomic_file)."""
    with atomic_file(path, durable) as tmp:
        write(tmp)
