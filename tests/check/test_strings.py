"""A string of game.yaml's `strings:` is a template in the source as in each translation:
one Jinja cannot read is an error at its own line, whether a layout prints it or not, as
its translation's is at its .po line."""

from __future__ import annotations

from conftest import edit, make_small_game, run


def test_a_string_that_is_no_readable_template_is_an_error_at_its_line_though_nothing_prints_it(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "  back: Karta\n", '  back: Karta\n  spell: "Kúzlo {{ title }"\n  fine: "Kúzlo {{ title }}"\n')
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        f"{game / 'game.yaml'}:8:10: string 'spell' is not a template pnp can read: unexpected '}}'; "
        "expected Jinja such as {{ title }} (a string with {{ or {% is filled in where it is printed) [template]"
    ) in result.output, result.output
    assert "1 error" in result.output
