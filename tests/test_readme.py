"""The README's commands paste and run as written: each `moonshot ...` line of its code blocks
parses with the real command line (options, arguments, games, analyses), with no shell pipes."""
import shlex
from pathlib import Path

import click
import pytest
import typer

from moonshot import cli
from moonshot.simulator.games import GAMES

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands() -> list[str]:
    """The `moonshot ...` lines of the README's shell blocks (fences with no language; text and
    python blocks are output and code)."""
    commands, fence = [], None
    for line in README.read_text().splitlines():
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
        elif fence == "" and line.startswith("moonshot "):
            commands.append(line.split("  #")[0].strip())
    return commands


def test_the_readme_has_commands_for_every_game():
    commands = readme_commands()
    for game in GAMES:
        assert any(f" {game}" in c for c in commands), game


@pytest.mark.parametrize("line", readme_commands())
def test_each_readme_command_parses(line):
    assert "|" not in line and "&&" not in line
    args = shlex.split(line)[1:]
    group = typer.main.get_command(cli.app)
    ctx = click.Context(group, info_name="moonshot")
    name, rest = args[0], args[1:]
    command = group.get_command(ctx, name)
    assert command is not None, f"{line}: no command {name!r}"
    try:
        with command.make_context(name, rest, parent=ctx) as sub:
            params = sub.params
    except click.exceptions.UsageError as exc:
        pytest.fail(f"{line}: {exc.format_message()}")
    if "game" in params:
        entry = GAMES[params["game"]]
        if name == "analyze" and params["analysis"] != "list":
            assert params["analysis"] in entry.analyses


def test_the_setup_says_how_to_reach_moonshot():
    """`make run` installs into .venv, which is not on the PATH: the set-up says how to reach it."""
    setup = README.read_text().split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert ". .venv/bin/activate" in setup and ".venv/bin/moonshot" in setup


def test_every_data_folder_is_a_declared_package():
    """A folder inside a package that Python can import (a namespace package) but setuptools is not
    told of prints a "Package would be ignored" warning block on every install: every such folder
    is in setup.py's DATA_PACKAGES, and pyproject.toml says which files it holds."""
    import ast
    import tomllib
    root = README.parent
    declared = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    tree = ast.parse((root / "setup.py").read_text())
    data = next(ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and n.targets[0].id == "DATA_PACKAGES")
    def data_folders(package):
        """The folders under a package that are not packages themselves, found package by package."""
        for d in package.iterdir():
            if d.is_dir() and not d.name.startswith((".", "__")):
                if (d / "__init__.py").exists():
                    yield from data_folders(d)
                elif any(f.is_file() for f in d.iterdir()):
                    yield str(d.relative_to(root)).replace("/", ".")
    top = [d for d in root.iterdir() if (d / "__init__.py").exists() and d.name not in ("tests", "benchmarks")]
    folders = {f for d in top for f in data_folders(d)}
    assert folders == set(data)
    assert all(f"moonshot.{p}" in declared for p in data)
