"""The checks of the values a user gives, written once for both front doors: the command line
(cli.py) and the library (__init__.py). Each returns the value as the run uses it, or raises
BadInput with one line naming the value (as its command-line option) and what is accepted.
"""
from __future__ import annotations

import numbers
import os
import sys
from pathlib import Path

from moonshot.simulator.errors import BadInput, short

# Ten billion: hours at the fastest engine (benchmarks/bench.py measures its speed); a bigger
# count is a typo, or a run to split. It also keeps the list of chunks a run plans in memory.
MAX_COUNT = 10_000_000_000
REPORT_MIN_HANDS = 1_000          # fewer leaves a report's tables and figures empty
FORMATS = ("table", "json", "csv", "parquet")
EXTENSIONS = {".json": "json", ".csv": "csv", ".parquet": "parquet", ".txt": "table"}
CUT = 80                          # characters of a bad value a message repeats (a value may be megabytes)


def _integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def game(name):
    """The registry entry of the game called `name`."""
    from moonshot.simulator import games
    return games.get(str(name))


def count(option: str, value, required: bool = False):
    """A count of hands, games or samples (None: not given, unless `required`)."""
    if value is None and not required:
        return None
    if not _integer(value) or not 1 <= value <= MAX_COUNT:
        raise BadInput(f"{option} {short(value, CUT)} is not a positive count; accepted: an integer from 1 to "
                       f"{MAX_COUNT:,}")
    return int(value)


def counts(hands, games) -> tuple:
    """--hands and --games: each a count, and not both."""
    hands, games = count("--hands", hands), count("--games", games)
    if hands and games:
        raise BadInput("give --hands or --games, not both")
    return hands, games


def analysis_count(name: str, unit: str, default: int, hands, games) -> int:
    """The count an analysis takes: --hands for hands, --games for whole games; the other is an error."""
    hands, games = counts(hands, games)
    given, other = (hands, games) if unit == "hands" else (games, hands)
    if other is not None:
        wrong, right = ("--games", "--hands/-n") if unit == "hands" else ("--hands", "--games")
        raise BadInput(f"{name} counts {unit}: give {right}, not {wrong}")
    return given or default


def analysis(entry, name: str):
    """The spec of the game's analysis called `name`."""
    spec = entry.analyses.get(name) if isinstance(name, str) else None
    if spec is None:
        raise BadInput(f"unknown analysis {short(name, CUT)} for {entry.name}; accepted: {', '.join(entry.analyses)}")
    return spec


def analysis_seat(entry, name: str, seat, setups) -> int | None:
    """--seat of an analysis that takes one, a seat at every table it runs on (None: not given)."""
    seat = whole("--seat", seat)
    if seat is None:
        return None
    if not entry.analyses[name].takes_seat:
        takes = [k for k, v in entry.analyses.items() if v.takes_seat]
        raise BadInput(f"--seat does not apply to {name}; it applies to: {', '.join(takes) or 'none'}")
    players = min(s.players for s in setups)
    if not 0 <= seat < players:
        raise BadInput(f"--seat {seat} does not exist; accepted: 0..{players - 1}")
    return seat


def hand_analyzer(entry):
    """The game's analyze_hand (`moonshot hand`)."""
    from moonshot.simulator.games import GAMES
    analyzer = entry.hand_analyzer
    if analyzer is None:
        have = [g.name for g in GAMES.values() if g.hand_analyzer is not None]
        raise BadInput(f"there is no hand analyzer for {entry.name} yet; accepted: {', '.join(have)}")
    return analyzer


def report_hands(hands) -> int:
    """A report's --hands (default 200,000)."""
    hands = count("--hands", hands) or 200_000
    if hands < REPORT_MIN_HANDS:
        raise BadInput(f"--hands {hands} is too few for a report (its tables and figures would be empty); "
                       f"accepted: at least {REPORT_MIN_HANDS:,}")
    return hands


def whole(option: str, value):
    """A whole number option such as --players or --seat (None: not given); its range is the game's."""
    if value is not None and not _integer(value):
        raise BadInput(f"{option} {short(value, CUT)} is not a whole number; accepted: an integer")
    return None if value is None else int(value)


def text(option: str, value) -> str:
    """A one-text option such as --vs or --hand."""
    if not isinstance(value, str):
        raise BadInput(f"{option} {short(value, CUT)} is not accepted; accepted: a text as on the command line")
    return value


def maybe_text(option: str, value) -> str | None:
    """A one-text option that may be left out (None), such as --strong."""
    return None if value is None else text(option, value)


def whole_numbers(option: str, value) -> list[int] | None:
    """A repeatable whole-number option such as --seat or --hand-id: one, a list of them, or None."""
    if value is None:
        return None
    values = [value] if not isinstance(value, (list, tuple)) else value
    if not all(_integer(v) for v in values):
        raise BadInput(f"{option} {short(value, CUT)} is not accepted; accepted: an integer, or a list of them")
    return [int(v) for v in values]


def path(option: str, value) -> Path:
    """A file or folder name (a text or a path)."""
    if not isinstance(value, (str, os.PathLike)) or isinstance(os.fspath(value), bytes) or not os.fspath(value):
        raise BadInput(f"{option} {short(value, CUT)} is not accepted; accepted: a file or folder name (a text or a "
                       "pathlib.Path)")
    return Path(value)


def readable_file(option: str, value) -> Path:
    """The name of a file that exists and can be read."""
    where = path(option, value)
    try:
        with open(where, "rb"):
            pass
    except OSError as exc:
        raise BadInput(f"{option} {short(str(where), CUT)} cannot be read ({exc.strerror or exc}); accepted: a file "
                       "that exists") from None
    return where


def texts(option: str, value) -> list[str]:
    """A repeatable option such as --strategy, --rule or --profile: one text or a list of texts."""
    values = [] if value is None else [value] if isinstance(value, str) else value
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise BadInput(f"{option} {short(value, CUT)} is not accepted; accepted: a text as on the command line, or a "
                       "list of them")
    return list(values)


def flag(option: str, value) -> bool:
    """An on/off option such as --partners."""
    if not isinstance(value, bool):
        raise BadInput(f"{option} {short(value, CUT)} is not accepted; accepted: True or False")
    return value


def seed(value) -> int:
    if not _integer(value) or not 0 <= value < 2**63:
        raise BadInput(f"--seed {short(value, CUT)} is not accepted; accepted: an integer from 0 to 2**63 - 1")
    return int(value)


def jobs(value) -> int:
    """--jobs, capped at the cores this machine has (more only slows the run down)."""
    if not _integer(value) or value == 0 or value < -1:
        raise BadInput(f"--jobs {short(value, CUT)} is not accepted; accepted: a positive count, or -1 for every core")
    cores = os.cpu_count() or 1
    if value > cores:
        print(f"moonshot: note: --jobs {value} capped at {cores}, the cores this machine has", file=sys.stderr)
        return cores
    return int(value)


def out_format(fmt: str | None, out: Path | None, extra: dict[str, str] | None = None) -> str:
    """--format, or the one --out's extension names; an extension naming no format, or a conflict
    between the two, is an error. `extra` (extension -> format) adds a verb's own file formats."""
    extensions = {**EXTENSIONS, **(extra or {})}
    formats = (*FORMATS, *dict.fromkeys((extra or {}).values()))
    implied = None
    if out is not None and out.suffix:
        implied = extensions.get(out.suffix.lower())
        if implied is None:
            names = ", ".join(f"{ext} ({f})" for ext, f in extensions.items())
            raise BadInput(f"--out {short(str(out), CUT)}: the extension {out.suffix[:CUT]} names no --format; "
                           f"accepted: {names}, or a name without an extension (a table)")
    if fmt is None:
        return implied or "table"
    if fmt not in formats:
        raise BadInput(f"unknown --format {short(fmt, CUT)}; accepted: {', '.join(formats)}")
    if implied is not None and implied != fmt:
        raise BadInput(f"--format {fmt} but --out {short(str(out), CUT)} names {implied}; accepted: matching ones, or "
                       "leave out --format")
    if fmt == "parquet" and out is None:
        raise BadInput("--format parquet writes a file; give --out FILE.parquet")
    return fmt


def out_file(out: Path | None, option: str = "--out") -> None:
    """Fail before any work if `out` cannot be written: a folder, a missing or read-only folder."""
    if out is None:
        return
    import tempfile
    if out.is_dir():
        raise BadInput(f"{option} {short(str(out), CUT)} is a folder; accepted: a file name")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise BadInput(f"cannot write {short(str(out), CUT)}: folder {short(str(parent), CUT)} does not exist; "
                       "accepted: a file in an existing folder")
    try:                                    # the real test of "writable" (root may not write into /proc)
        fd, probe = tempfile.mkstemp(prefix=f".{out.name}.", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise BadInput(f"cannot write {short(str(out), CUT)}: {exc.strerror or exc}") from None
