"""Whole files or nothing: every file moonshot writes (results, histories, run stores, per-hand
rows, reports) is written under a temporary name beside its place and renamed there only when it
is complete, so a failure or a Ctrl-C never leaves a half-written file.

A failure to write (a full disk, a quota, a folder gone read-only) is one line naming the file and
the system's reason (CannotWrite, a BadInput: exit 2). A temporary file or folder is held by an
advisory lock while its writer lives, so the next write of the same target removes what a killed
writer left (the same name pattern, unlocked, older than this process) and nothing a live one holds.
"""
from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from moonshot.simulator.errors import BadInput, short

NOTHING_LEFT = "nothing half-written is left"
_STARTED = time.time()            # this process's start, near enough: temporary files older are not its own
_RANDOM = r"[a-z0-9_]{8}"         # tempfile's random part of a name


class CannotWrite(BadInput):
    """An output could not be written: the message names the file and the system's reason."""


def cannot_write(path, exc: OSError, kept: str = NOTHING_LEFT) -> CannotWrite:
    """One line for a failed write of `path`: what the system said (and its errno name), what is left."""
    known = isinstance(exc.errno, int) and exc.errno in errno.errorcode
    reason = os.strerror(exc.errno) if known else " ".join(str(exc).split()) or type(exc).__name__
    code = errno.errorcode[exc.errno] if known else None
    return CannotWrite(f"cannot write {short(str(path), 120)}: {reason}{f' ({code})' if code else ''}; {kept}; "
                       "accepted: a place with room that you may write to")


@contextmanager
def writing(path, kept: str = NOTHING_LEFT) -> Iterator[None]:
    """An OSError inside the block (a write of `path`) becomes CannotWrite naming `path`."""
    try:
        yield
    except OSError as exc:
        raise cannot_write(path, exc, kept) from None


def ordinary(path: Path, folder: bool = False) -> None:
    """Give a temporary file (0600) or folder (0700) the permissions a new one gets under the umask."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, (0o777 if folder else 0o666) & ~umask)


def _held(path: Path) -> int | None:
    """An open descriptor holding `path`'s lock (None if another process holds it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def clear_stale(path: Path, suffix: str = ".tmp") -> list[Path]:
    """Remove the temporary files and folders a killed writer of `path` left beside it: named as
    :func:`temporary` names them, unlocked (their writer is gone) and older than this process (one
    a live writer has just made and not yet locked is younger). Returns what was removed."""
    path = Path(path)
    pattern = re.compile(re.escape(f".{path.name}.") + _RANDOM + re.escape(suffix) + "$")
    removed = []
    try:
        candidates = [p for p in path.parent.iterdir() if pattern.match(p.name)]
    except OSError:
        return removed
    for p in candidates:
        try:
            if p.is_symlink() or p.lstat().st_mtime >= _STARTED:
                continue
            fd = _held(p)
            if fd is None:
                continue
            try:
                shutil.rmtree(p) if p.is_dir() else p.unlink()
            finally:
                os.close(fd)
            removed.append(p)
        except OSError:              # gone meanwhile, or not ours to remove: leave it
            continue
    return removed


def temporary(path: Path, folder: bool = False, suffix: str = ".tmp") -> tuple[Path, int]:
    """A new temporary file (or folder) beside `path`, named `.NAME.XXXXXXXX.tmp`, and a descriptor
    holding its lock: close it once the temporary is renamed or removed. Stale ones are cleared first."""
    path = Path(path)
    clear_stale(path, suffix)
    if folder:
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent))
        fd = _held(tmp)
    else:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
        tmp = Path(name)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return tmp, fd


@contextmanager
def atomic_file(path: Path, durable: bool = False, kept: str = NOTHING_LEFT) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success it becomes `path` (flushed to disk first when
    `durable`: a run store's chunks survive a crash of the machine), on any failure it is removed.
    Making and renaming the temporary file raise CannotWrite; the block wraps its own writes in
    :func:`writing` (an OSError of the work around them is not this file's)."""
    path = Path(path)
    with writing(path, kept):
        tmp, fd = temporary(path)
    try:
        yield tmp
        with writing(path, kept):
            if durable:
                with open(tmp, "rb+") as fh:
                    os.fsync(fh.fileno())
            ordinary(tmp)
            os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        if fd is not None:
            os.close(fd)


def atomic_write(path: Path, write: Callable[[Path], object], durable: bool = False, kept: str = NOTHING_LEFT) -> None:
    """write(temporary path), then the temporary file becomes `path` (see atomic_file); any OSError
    on the way is CannotWrite naming `path`."""
    with atomic_file(path, durable, kept) as tmp, writing(path, kept):
        write(tmp)
