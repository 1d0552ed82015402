"""The toy game's report (`moonshot report toy-high-card`): the shared scaffolding's intro and headline
section, as every game's report begins, written whole into the folder."""
from pathlib import Path

from moonshot.reports.document import begin


def build_report(out, hands: int, seed: int, jobs: int, quiet: bool = False) -> Path:
    doc, base, step = begin(Path(out), "toy-high-card", "Toy high card: strategy report",
                            "Three players, each for themselves.", hands, seed, quiet, sections=1)
    doc.headline(step, base, hands, seed, jobs, "Headline: who takes the hand", "seats", "Per seat, one hand")
    return doc.write(Path(out))
