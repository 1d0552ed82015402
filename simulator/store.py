"""Run stores (``--save DIR``, ``--resume DIR``, ``moonshot runs``) and per-hand files (``--save-hands``).

A run store is a folder that keeps a chunked run as it goes, so a run that was stopped (a killed
process, a lost machine) can be finished later, playing only the chunks it lacks, and a finished one
can be shown again without simulating::

    DIR/manifest.json                  what was run: verb, game, every option, the full rules, the
                                       strategies, seed, chunk size, package version, source revision;
                                       then each chunked part as it starts (name, hands, chunk count);
                                       "complete": true once the verb's result is in
    DIR/chunks/<part>-<index>.parquet  one finished chunk's Tally (its tables of sums), and in its
                                       metadata the chunk's identity: the run's fingerprint (its
                                       command, seed and part), its index and a checksum of its sums
    DIR/result.json                    the verb's final Result as ``--format json`` prints it (its
                                       checksum in the manifest)

A chunk is read back only if it is its own: a chunk of another store (another seed or command),
another index (copied or renamed) or with edited sums is refused in one line, by --resume and by
``runs show``. Stores of version 1 (before chunks carried their identity) are shown and listed but
not resumed.

Every file is written under a temporary name and renamed into place (``os.replace``), so a store
holds only whole files whenever the process dies. Nothing in a store is ever deleted or rewritten
except the manifest, which is replaced whole.

The store reaches the runner through a context variable (:func:`recording` sets it,
:func:`simulator.runner.run_chunks` asks :func:`begin_part`), so every verb and every analysis
gets it without code of its own. A verb may run several chunked runs (an analysis over every
table, a report): each is a *part*, named ``<sequence>-<task>`` (``00-hands``, ``03-big-moon``)
in the order the verb starts them, which is the same on every run of the same command.
"""
from __future__ import annotations

import contextvars
import datetime as _dt
import hashlib
import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from moonshot.simulator.chunk_identity import (TALLY_KEY, fingerprint, problem,  # noqa: F401 (TALLY_KEY: the runner's)
                                               stamp)
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.files import atomic_write, writing
from moonshot.simulator import hand_rows
from moonshot.simulator.hand_rows import RESUME_HANDS, HandsWriter, check_hands_file, hands_sink  # noqa: F401
from moonshot.simulator.versions import behaviour, package_version, source_revision

if TYPE_CHECKING:
    import pyarrow as pa

FORMAT = "moonshot-run-store"
STORE_VERSION = 2               # 2: each chunk carries its identity, the manifest the result's checksum
READABLE = (1, STORE_VERSION)   # versions `runs show/list` read; --resume needs STORE_VERSION
MANIFEST = "manifest.json"
RESULT = "result.json"
LOCK = ".lock"                  # held (flock) by the run writing the store
CHUNKS = "chunks"
# Options that say where and how to run or print, not what is computed: they may differ on --resume.
OUTPUT_OPTIONS = frozenset({"jobs", "scheduler", "format", "out", "quiet", "history", "save_hands", "save",
                            "resume"})
_CHUNK_RE = re.compile(r"^(\d{2}-[a-z0-9-]+)-(\d{6})\.parquet$")

_CHECKED: dict[tuple, str] = {}  # chunk files this process found whole: (path, mtime, size, inode) -> their run
_ACTIVE: contextvars.ContextVar["RunStore | None"] = contextvars.ContextVar("moonshot_run_store", default=None)


# --------------------------------------------------------------------------------------------
# what a run is: the manifest
# --------------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """JSON's view of a value (paths and other objects as text), so a manifest compares as stored."""
    return json.loads(json.dumps(value, default=str))


def new_manifest(verb: str, options: dict, *, game: str | None = None, rules: dict | None = None,
                 strategies: list | None = None, seed: int | None = None, chunk: int,
                 command: str | None = None) -> dict:
    """The manifest of a run about to start: the command (verb, game, every option; `command` as
    typed, for people), what it stands on (full rules, strategies, seed, chunk size) and the code
    that runs it."""
    return _plain({
        "format": FORMAT, "store_version": STORE_VERSION,
        "verb": verb, "game": game, "options": dict(sorted(options.items())), "command": command,
        "rules": rules, "strategies": strategies, "seed": seed, "chunk": chunk,
        "version": package_version(), "behaviour": behaviour(game), "revision": source_revision(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "parts": [], "chunks": 0, "complete": False,
    })


def identity(manifest: dict) -> dict:
    """What must be equal for two commands to compute the same numbers."""
    return {"verb": manifest.get("verb"), "game": manifest.get("game"),
            "options": {k: v for k, v in (manifest.get("options") or {}).items() if k not in OUTPUT_OPTIONS},
            "rules": manifest.get("rules"), "strategies": manifest.get("strategies"), "seed": manifest.get("seed"),
            "chunk": manifest.get("chunk"), "version": manifest.get("version"), "behaviour": manifest.get("behaviour")}


def _difference(stored: dict, wanted: dict, prefix: str = "") -> str | None:
    """The first key whose value differs, as 'key: stored X, this command Y'."""
    for key in list(dict.fromkeys([*stored, *wanted])):
        a, b = stored.get(key), wanted.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            return _difference(a, b, f"{prefix}{key}.")
        return f"{prefix}{key}: the store has {json.dumps(a)}, this command {json.dumps(b)}"
    return None


# --------------------------------------------------------------------------------------------
# the store
# --------------------------------------------------------------------------------------------

def _write_json(path: Path, obj: dict, kept: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(json.dumps(obj, indent=1) + "\n"), durable=True, kept=kept)


def _damaged(path: Path, why: str) -> BadInput:
    return BadInput(f"run store {str(path)!r} is damaged: {why}; accepted: a store written by --save")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _part_name(seq: int, task: str) -> str:
    short = task.rsplit(".", 1)[-1].strip("_").removesuffix("_chunk").replace("_", "-").lower()
    return f"{seq:02d}-{re.sub(r'[^a-z0-9-]', '', short) or 'run'}"


class Part:
    """One chunked run of a verb inside a store: which chunks are stored, read one, keep one."""

    def __init__(self, store: "RunStore", name: str, chunks: int, record: dict | None = None):
        self.store, self.name, self.chunks = store, name, chunks
        self.record = record if record is not None else next(
            (p for p in store.manifest["parts"] if p.get("name") == name), {})

    def path(self, index: int) -> Path:
        return self.store.path / CHUNKS / f"{self.name}-{index:06d}.parquet"

    def done(self) -> set[int]:
        return {i for i in self.store.stored_chunks().get(self.name, set()) if i < self.chunks}

    def load(self, index: int, decode: Callable[["pa.Table"], Any]):
        """Chunk `index` as `decode` makes it from its Arrow table (the runner's Tally.from_arrow)."""
        import pyarrow.parquet as pq
        path = self.path(index)
        try:
            table = pq.read_table(path)
        except Exception as exc:
            raise self.store.damaged(f"{path.name} cannot be read ({_one_line(exc)})") from None
        self.store.check_chunk(path.name, table, self.name, index, self.record)
        try:
            return decode(table)
        except Exception as exc:
            raise self.store.damaged(f"{path.name} holds no chunk tally ({_one_line(exc)})") from None

    def save(self, index: int, table: "pa.Table") -> None:
        """Keep chunk `index`, with its identity (the run's fingerprint, its index, its checksum)."""
        import pyarrow.parquet as pq
        table = stamp(table, identity(self.store.manifest), self.record, index)
        atomic_write(self.path(index), lambda tmp: pq.write_table(table, tmp), durable=True,
                     kept=self.store.kept_words())
        self.store.saved += 1


class RunStore:
    """A run store folder (see the module doc). Make one with :meth:`create` (``--save``), reopen
    one with :meth:`resume` (``--resume``) or read one with :meth:`open` (``runs show/list``)."""

    def __init__(self, path: Path, manifest: dict, created: bool = False):
        self.path, self.manifest = Path(path), manifest
        self.created = created           # this process made the folder (removed again if the run never starts)
        self.resumed = False             # opened by --resume: some chunks come from the store
        self._next_part = 0
        self.saved = 0                   # chunks saved by this process

    # opening --------------------------------------------------------------------------------

    @staticmethod
    def check_new(path: Path) -> None:
        """BadInput unless `path` can become a new store: a new or empty folder, never an existing store."""
        path = Path(path)
        if path.exists() and not path.is_dir():
            raise BadInput(f"--save {str(path)!r} is a file; accepted: a new or empty folder")
        if (path / MANIFEST).exists():
            raise BadInput(f"--save {str(path)!r} is already a run store; accepted: --resume {path} to finish it, "
                           f"`moonshot runs show {path}` to see it, or a new folder")
        if path.is_dir() and any(path.iterdir()):
            raise BadInput(f"--save {str(path)!r} is a folder that is not empty and not a run store; accepted: a new "
                           f"or empty folder")
        probe = path.absolute()
        while not probe.exists():
            probe = probe.parent
        if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
            raise BadInput(f"--save {str(path)!r}: {str(probe)!r} is not a writable folder; accepted: a folder "
                           f"you can write to")

    @classmethod
    def create(cls, path: Path, manifest: dict) -> "RunStore":
        path = Path(path)
        cls.check_new(path)
        created = not path.exists()
        store = cls(path, manifest, created)
        try:
            with writing(path / CHUNKS, store.kept_words()):
                (path / CHUNKS).mkdir(parents=True, exist_ok=True)
            store.lock()
            store.write_manifest()
        except BaseException:
            store.unlock()
            if created:                   # nothing of a store that never started is left
                shutil.rmtree(path, ignore_errors=True)
            raise
        return store

    @classmethod
    def open(cls, path: Path, option: str = "--resume") -> "RunStore":
        """A store as it is on disk; BadInput if `path` is no store or its manifest is damaged."""
        path = Path(path)
        if not (path / MANIFEST).is_file():
            what = "does not exist" if not path.exists() else "is not a run store (no manifest.json)"
            raise BadInput(f"{option} {str(path)!r} {what}; accepted: a folder written by --save")
        try:
            manifest = json.loads((path / MANIFEST).read_bytes())
        except (OSError, ValueError, RecursionError) as exc:
            raise _damaged(path, f"manifest.json cannot be read ({_one_line(exc)})") from None
        if (not isinstance(manifest, dict) or manifest.get("format") != FORMAT
                or not isinstance(manifest.get("parts"), list)):
            raise _damaged(path, "manifest.json is not a moonshot run manifest")
        if manifest.get("store_version") not in READABLE:
            raise BadInput(f"run store {str(path)!r} has store version {short(manifest.get('store_version'))}; "
                           f"accepted: version {' or '.join(map(str, READABLE))} (this moonshot {package_version()})")
        for p in manifest["parts"]:
            if not (isinstance(p, dict) and isinstance(p.get("name"), str) and _count(p.get("chunks"))
                    and _count(p.get("hands"))):
                raise _damaged(path, f"manifest.json's part {short(p)} is not a part record")
        return cls(path, manifest)

    @classmethod
    def resume(cls, path: Path, wanted: dict) -> "RunStore":
        """The store at `path`, checked against the command about to run (`wanted`, a new_manifest)
        and checked whole (every chunk its own, its sums as written) before anything is played."""
        store = cls.open(path)
        if store.manifest.get("store_version") != STORE_VERSION:
            raise BadInput(f"--resume {str(path)!r}: the store was written by an older moonshot (store version "
                           f"{store.manifest.get('store_version')}, whose chunks carry no identity to check); "
                           f"accepted: a store of version {STORE_VERSION}; run the command again with --save "
                           f"(`moonshot runs show {path}` still shows the old store)")
        store.lock()
        try:
            diff = _difference(identity(store.manifest), identity(wanted))
            if diff is not None:
                raise BadInput(f"--resume {str(path)!r} was saved by another command ({diff}); accepted: the same "
                               f"command that made the store, with --resume in place of --save")
            store.check_chunks()
        except BaseException:
            store.unlock()
            raise
        store.resumed = True
        return store

    def lock(self) -> None:
        """Hold the store for this process (an advisory lock the system drops when the process ends,
        however it ends): a second --save/--resume of the same store at once is refused in one line
        instead of both writing its chunks."""
        import fcntl
        with writing(self.path / LOCK, self.kept_words()):
            self._lock = open(self.path / LOCK, "a+")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            self._lock = None
            raise BadInput(f"run store {str(self.path)!r} is in use by another moonshot run; accepted: wait for "
                           f"that run to end (or stop it), then --resume {self.path}") from None

    def unlock(self) -> None:
        lock = getattr(self, "_lock", None)
        if lock is not None:
            lock.close()                  # closing the file drops the lock
            self._lock = None

    def damaged(self, why: str) -> BadInput:
        return _damaged(self.path, why)

    def kept_words(self) -> str:
        """What a failed write leaves of this store (the tail of CannotWrite's line)."""
        if self.created and not self.saved:
            return "nothing is kept (the new store is removed)"
        return f"the store keeps every chunk finished so far: --resume {self.path} once there is room"

    def check_chunks(self, read: bool = True) -> None:
        """BadInput if a chunk file is not one this store wrote: a stranger's name, unreadable, or
        (`read`, and a store of this version) not its own (another run's, another index's) or with
        sums other than it was written with. Temporary files left by a killed process (never a whole
        chunk) are removed."""
        import pyarrow.parquet as pq
        folder = self.path / CHUNKS
        if not folder.is_dir():
            raise self.damaged("its chunks folder is missing")
        parts = {p["name"]: p for p in self.manifest["parts"]}
        for f in sorted(folder.iterdir()):
            if f.name.startswith(".") and f.name.endswith(".tmp"):
                if read and getattr(self, "_lock", None) is not None:     # only a run holding the store
                    f.unlink(missing_ok=True)
                continue
            m = _CHUNK_RE.match(f.name)
            if m is None or m.group(1) not in parts or int(m.group(2)) >= parts[m.group(1)]["chunks"]:
                raise self.damaged(f"{f.name} is not one of its chunks")
            if not read:
                continue
            try:
                seen = f.stat()
                key = (str(f.resolve()), seen.st_mtime_ns, seen.st_size, seen.st_ino)
                own = fingerprint(identity(self.manifest), parts[m.group(1)])
                if _CHECKED.get(key) == own:
                    continue              # checked already by this process (--resume checks before a cluster starts)
                table = pq.read_table(f)
            except Exception as exc:
                raise self.damaged(f"{f.name} cannot be read ({_one_line(exc)}); move it away to play that chunk "
                                   "again") from None
            self.check_chunk(f.name, table, m.group(1), int(m.group(2)), parts[m.group(1)])
            _CHECKED[key] = own

    def check_chunk(self, file: str, table: "pa.Table", part: str, index: int, record: dict) -> None:
        """BadInput unless `table` is chunk `index` of this store's part `part` (`record`), as written
        (an older store's chunks carry no identity: only what they show is checked)."""
        own = identity(self.manifest) if self.manifest.get("store_version") == STORE_VERSION else None
        why = problem(file, table, own, record, index)
        if why is not None:
            raise self.damaged(f"{why}; move it away to play that chunk again")

    # during a run ---------------------------------------------------------------------------

    def write_manifest(self) -> None:
        self.manifest["chunks"] = sum(p["chunks"] for p in self.manifest["parts"])
        _write_json(self.path / MANIFEST, self.manifest, self.kept_words())

    def begin_part(self, task: str, total: int, seed: int, chunk: int, chunks: int) -> Part:
        """The next chunked run of this verb: checked against the store's record of it (a resumed
        run), or recorded in the manifest (a new one)."""
        seq = self._next_part
        self._next_part += 1
        name = _part_name(seq, task)
        record = {"name": name, "task": task, "hands": total, "seed": seed, "chunk": chunk, "chunks": chunks}
        parts = self.manifest["parts"]
        if seq < len(parts):
            if parts[seq] != record:
                diff = _difference(parts[seq], record)
                raise BadInput(f"--resume {str(self.path)!r}: the store's part {seq} does not match this command's "
                               f"({diff}); accepted: the same command that made the store")
        else:
            parts.append(record)
            self.manifest["complete"] = False
            self.write_manifest()
        return Part(self, name, chunks, record)

    def stored_chunks(self) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        folder = self.path / CHUNKS
        for f in (folder.iterdir() if folder.is_dir() else ()):
            m = _CHUNK_RE.match(f.name)
            if m:
                out.setdefault(m.group(1), set()).add(int(m.group(2)))
        return out

    def finish(self, result_json: str) -> None:
        """Keep the verb's final result (its --format json text) and mark the run complete."""
        text = result_json.rstrip("\n") + "\n"
        atomic_write(self.path / RESULT, lambda tmp: tmp.write_text(text), durable=True, kept=self.kept_words())
        self.manifest["result_sha256"] = hashlib.sha256(text.encode()).hexdigest()
        self.manifest["complete"] = True
        self.manifest["finished"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        self.write_manifest()

    # reading --------------------------------------------------------------------------------

    def result_json(self) -> str | None:
        """The finished run's result (as --format json printed it), None while the run is incomplete;
        BadInput if it is not the result the run wrote (unreadable, edited, not a result)."""
        path = self.path / RESULT
        if not self.manifest.get("complete") or not path.is_file():
            return None
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8")
            obj = json.loads(text)
        except (OSError, ValueError, RecursionError) as exc:
            raise self.damaged(f"result.json cannot be read ({_one_line(exc)})") from None
        want = self.manifest.get("result_sha256")
        if want is not None and hashlib.sha256(raw).hexdigest() != want:
            raise self.damaged("result.json is not the result the run wrote (edited?)")
        tables = obj.get("tables") if isinstance(obj, dict) else None
        rows_ok = isinstance(tables, dict) and all(isinstance(rows, list) and all(isinstance(r, dict) for r in rows)
                                                   for rows in tables.values())
        if not rows_ok or not isinstance(obj.get("title"), str) or not isinstance(obj.get("meta"), dict):
            raise self.damaged("result.json is not a moonshot result (title, meta and tables of rows)")
        return text

    def progress(self) -> dict:
        """Chunks stored of the chunks known so far (a verb's later parts are known once they start)."""
        stored = self.stored_chunks()
        parts = [{"name": p["name"], "hands": p["hands"], "chunks": p["chunks"],
                  "done": len({i for i in stored.get(p["name"], ()) if i < p["chunks"]})}
                 for p in self.manifest["parts"]]
        return {"complete": bool(self.manifest.get("complete")), "parts": parts,
                "chunks": sum(p["chunks"] for p in parts), "done": sum(p["done"] for p in parts)}

    def command(self) -> str:
        """The command that made the store, as one line (less --save and per-hand outputs)."""
        m = self.manifest
        if m.get("command"):
            return m["command"]
        words = ["moonshot", m.get("verb") or "?"] + ([m["game"]] if m.get("game") else [])
        for key, value in (m.get("options") or {}).items():
            if key in ("game", "save", "resume", "save_hands", "history") or value in (None, False, [], ()):
                continue
            flag = "--" + key.replace("_", "-")
            for v in (value if isinstance(value, list) else [value]):
                words += [flag] if v is True else [flag, str(v)]
        return " ".join(words)

    def summary(self) -> str:
        """One line: where, what, how far."""
        p = self.progress()
        state = "complete" if p["complete"] else "incomplete"
        share = f" ({100 * p['done'] / p['chunks']:.1f}%)" if p["chunks"] and not p["complete"] else ""
        return (f"{self.path}  {state}  {p['done']}/{p['chunks']} chunks{share}  seed {self.manifest.get('seed')}  "
                f"{self.command()}")

    def how_far(self) -> str:
        """For an incomplete store: what is done, part by part, and how to finish it."""
        p = self.progress()
        lines = [f"run store {self.path}: incomplete, {p['done']} of {p['chunks']} chunks stored"
                 + (f" ({100 * p['done'] / p['chunks']:.1f}%)" if p["chunks"] else "")]
        for part in p["parts"]:
            lines.append(f"  part {part['name']}: {part['done']}/{part['chunks']} chunks of {part['hands']:,}")
        if p["done"] == p["chunks"] and p["chunks"]:
            lines.append("  every chunk known so far is stored; the run stopped before its result was written")
        lines.append(f"finish it with: {self.command()} --resume {self.path}")
        return "\n".join(lines)


def find_stores(paths: list[Path]) -> Iterator[RunStore | BadInput]:
    """The stores among `paths` and in their immediate subfolders (``runs list``); a damaged one
    comes as the BadInput that says what is wrong with it, and the others still follow (the quick
    checks only: manifest, result and chunk names; `runs show` reads every chunk)."""
    for path in paths:
        path = Path(path)
        if not path.is_dir():
            raise BadInput(f"runs list: {str(path)!r} is not a folder; accepted: run store folders or folders "
                           f"holding them")
        found = [path] if (path / MANIFEST).is_file() else sorted(p for p in path.iterdir() if (p / MANIFEST).is_file())
        for sub in found:
            try:
                kept = RunStore.open(sub, "runs list")
                kept.check_chunks(read=False)
                kept.result_json()
            except BadInput as exc:
                yield exc
                continue
            yield kept


# --------------------------------------------------------------------------------------------
# the hook the runner calls
# --------------------------------------------------------------------------------------------

def active() -> RunStore | None:
    return _ACTIVE.get()


def begin_part(task: str, total: int, seed: int, chunk: int, chunks: int) -> Part | None:
    """The active store's next part (None when no store is active): called by run_chunks."""
    store = _ACTIVE.get()
    return None if store is None else store.begin_part(task, total, seed, chunk, chunks)


def check(save: Path | None, resume: Path | None, manifest: dict | None = None) -> None:
    """Check --save/--resume before anything else starts (a cluster, a run); writes nothing."""
    if save is not None and resume is not None:
        raise BadInput("give --save DIR or --resume DIR, not both")
    if save is not None:
        RunStore.check_new(save)
    elif resume is not None:
        RunStore.resume(resume, manifest or {}).unlock()


@contextmanager
def recording(save: Path | None, resume: Path | None, manifest: dict) -> Iterator[RunStore | None]:
    """With --save DIR (a new store) or --resume DIR (an interrupted one, checked against
    `manifest`), every chunked run inside is kept in the store; None when neither is given.

    A --save whose run fails on bad input before any chunk is stored leaves no folder behind."""
    check(save, resume, manifest)
    if save is None and resume is None:
        yield None
        return
    if resume is not None and hands_sink() is not None:
        raise BadInput(RESUME_HANDS)
    store = RunStore.create(save, manifest) if save is not None else RunStore.resume(resume, manifest)
    token = _ACTIVE.set(store)
    try:
        yield store
    except BadInput:
        if store.created and store.saved == 0 and not store.stored_chunks():
            shutil.rmtree(store.path, ignore_errors=True)
        raise
    finally:
        _ACTIVE.reset(token)
        store.unlock()


def hands_file(path: Path | None):
    """Per-hand rows to `path` (simulator.hand_rows.hands_file), refused under a --resume store."""
    kept = active()
    return hand_rows.hands_file(path, resumed=kept is not None and kept.resumed)
