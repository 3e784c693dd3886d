"""The `pnp` command line as docs/commands.md describes it: shell completion."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pnp.cli import main


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_of_the_documented_shells(shell):
    result = CliRunner().invoke(main, [], prog_name="pnp", env={"_PNP_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0 and "_PNP_COMPLETE" in result.output


def test_powershell_has_no_completion_as_the_docs_say():
    """docs/commands.md: click 8 completes no PowerShell, so pnp prints nothing, exit status 1."""
    result = CliRunner().invoke(main, [], prog_name="pnp", env={"_PNP_COMPLETE": "powershell_source"})
    assert result.exit_code == 1 and result.output == ""
