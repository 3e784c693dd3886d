"""The `pnp` command line as docs/commands.md describes it: shell completion, the global
options, and every option of every command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import run

from pnp.cli import main


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_of_the_documented_shells(shell):
    result = CliRunner().invoke(main, [], prog_name="pnp", env={"_PNP_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0 and "_PNP_COMPLETE" in result.output


def test_powershell_has_no_completion_as_the_docs_say():
    """docs/commands.md: click 8 completes no PowerShell, so pnp prints nothing, exit status 1."""
    result = CliRunner().invoke(main, [], prog_name="pnp", env={"_PNP_COMPLETE": "powershell_source"})
    assert result.exit_code == 1 and result.output == ""


def test_global_options_are_taken_after_the_command_too(tmp_path):
    assert run("new", "g", "--out", tmp_path, "-q").output == ""
    game = tmp_path / "g"
    for args in (["-q", "build", game], ["build", game, "-q"], ["build", "-q", game]):
        result = run(*args, "--out", tmp_path / "out")
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert not any(line.startswith(("wrote ", "Print ")) for line in lines) and "[new-placeholder]" in result.output  # problems only
    verbose = run("build", game, "--paper", "letter", "--out", tmp_path / "out", "-v")
    assert "paper: letter (from the command line)" in verbose.output
    assert "paper: letter" not in run("build", game, "--paper", "letter", "--out", tmp_path / "out", "-v", "-q").output
    for args in (["i18n", "status", game, "--debug"], ["export", "png", game, "--dpi", "72", "--out", tmp_path / "out", "-q"], ["list", game, "-v"]):
        result = run(*args)
        assert result.exit_code == 0, result.output


OPTION = r"`(--[a-z][a-z-]*|-[a-z])\b"  # an option in backquotes, as the page names them (not a file name's `-fronts`)


def _commands(command, path):
    """Every command under `command` with its words: ('pnp', 'export', 'png'), ..."""
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, (*path, name))
    else:
        yield path, command


def _documented() -> tuple[set[str], dict[str, set[str]], set[str]]:
    """docs/commands.md's reference of options: the global ones, each command's, and every
    option named anywhere in the page."""
    page = (Path(__file__).parents[1] / "docs" / "commands.md").read_text(encoding="utf-8")
    named = set(re.findall(OPTION, page))
    reference = page.split("\n## Every option of every command\n")[1].split("\n## ")[0]
    head, *sections = reference.split("\n### ")
    options = {}
    for section in sections:
        title, _, body = section.partition("\n")
        words = re.match(r"(pnp(?: [a-z0-9]+)+)", title).group(1)
        options[words] = set(re.findall(OPTION, body))
    return set(re.findall(OPTION, head)), options, named


def test_docs_commands_md_documents_every_option_of_every_command_and_no_other():
    global_options, documented, named = _documented()
    assert global_options == {"--debug", "-q", "--quiet", "-v", "--verbose", "--offline"}
    commands = {" ".join(path): command for path, command in _commands(main, ("pnp",))}
    assert set(documented) == set(commands)
    every = {"--help", "-h", "--version"} | global_options
    for words, command in commands.items():
        options = {name for param in command.params if isinstance(param, click.Option) for name in param.opts + param.secondary_opts}
        every |= options
        own = options - global_options
        assert own - documented[words] == set(), f"{words}: options not in docs/commands.md"
        assert documented[words] - options == set(), f"{words}: docs/commands.md names options it does not have"
    assert named - every == set(), "docs/commands.md names options no command has"
