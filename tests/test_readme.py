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
