"""The Reports page's work: list the reports in the server's output folder (never a path the page
names: the page picks one of the listed folder names), and build a new one through the game's
report builder, with its sections ("[2/7] ...") as the run's progress: the builder's steps are
heard through reports.document.steps_heard (in the run's thread only; the CLI is unaffected)."""
from __future__ import annotations

import stat
from pathlib import Path

from moonshot.reports import document
from moonshot.simulator.errors import BadInput, short


def listing(root: Path) -> list[dict]:
    """Every folder under `root` (two levels at most) holding a report.html, newest first: only
    plain folders and a regular report.html (no symbolic link, no hidden name on the way: served())."""
    if not root.is_dir():
        return []
    found = [p.parent for p in list(root.glob("*/report.html")) + list(root.glob("*/*/report.html"))
             if served(root, p)]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [{"name": str(p.relative_to(root)), "title": _title(p)} for p in found]


def served(root: Path, path: Path) -> bool:
    """Whether `path` (under `root`) may be served: each part below `root` a real folder or, the
    last, a regular file, none a symbolic link (a link in the reports folder could point anywhere)
    and none hidden (a dot file is not part of a report)."""
    parts = path.relative_to(root).parts
    where = root
    for k, part in enumerate(parts):
        where = where / part
        if part.startswith(".") or part in ("", ".."):
            return False
        try:
            mode = where.lstat().st_mode
        except OSError:
            return False
        if not (stat.S_ISREG(mode) if k == len(parts) - 1 else stat.S_ISDIR(mode)):
            return False
    return bool(parts)


def _title(folder: Path) -> str:
    md = folder / "report.md"
    first = md.read_text(encoding="utf-8", errors="replace").splitlines()[:1] if served(folder, md) else []
    return first[0].lstrip("# ").strip() if first else folder.name


def resolve(root: Path, name: str, file: str) -> Path:
    """A file of a listed report, or BadInput: names come from listing(), never from elsewhere, and
    the file is a regular one right in the report's folder (served())."""
    names = {r["name"] for r in listing(root)}
    if name not in names:
        raise BadInput(f"no report {short(name)} in the server's reports folder; accepted: "
                       f"{', '.join(sorted(names)) or 'none yet'}")
    path = root / name / file
    if "/" in file or "\\" in file or not served(root, path):
        raise BadInput(f"no file {short(file)} in report {short(name)}; accepted: report.html and its figures")
    return path


def new_folder(root: Path, game: str, hands: int, seed: int) -> Path:
    base = root / f"{game}-{hands}-seed{seed}"
    out, k = base, 1
    while out.exists():
        k += 1
        out = Path(f"{base}-{k}")
    return out


def build(game: str, out: Path, hands: int, seed: int, jobs: int, progress, job=None) -> Path:
    """Build the report; `progress(1)` at each section (it raises to cancel between sections; inside
    one, the run's simulator.stopping watch stops it); the job's total becomes the builder's section
    count and its detail the section's line ("strong play: 50 paired games ...")."""
    from moonshot.simulator.games import get

    def hear(done: int, total: int, text: str) -> None:
        if job is not None:
            job.total, job.detail = total, text
        progress(1)
    with document.steps_heard(hear):
        return get(game).build_report(out, hands, seed, jobs, quiet=True)
