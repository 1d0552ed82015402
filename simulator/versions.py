"""What code computed a number: the package version and each game's behaviour version.

A game's behaviour version (its registry entry's ``behaviour``) changes whenever the same command
with the same seed would give other numbers for that game (an engine, deal, strategy or tally
change); CHANGELOG.md says what changed and why. Every Result's meta and every run store carry
both, and --resume refuses a store written under another behaviour.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from moonshot.version import __version__


def package_version() -> str:
    return __version__


def behaviour(game: str | None) -> str | None:
    """'moon/1': the game's name and behaviour version (None without a game)."""
    if game is None:
        return None
    from moonshot.simulator.games import get
    return f"{game}/{get(game).behaviour}"


def source_revision() -> str | None:
    """``git rev-parse HEAD`` of the source tree this code runs from, when it is a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None
