"""The `pnp` command line. Heavy modules are imported inside the commands, so that
`pnp --help` stays fast."""

from __future__ import annotations

import errno
import functools
import gc
import json
import math
import os
import sys
import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from pnp import __version__
from pnp.base.errors import EXIT_ERRORS, PnpError, Problems, display_path, grouped
from pnp.base.output import Output, output_problem, writing_under
from pnp.base.paths import DEFAULT_GAME
from pnp.base.signals import Interrupted, held, raising_on_signals, stop_if_received
from pnp.impose.paper import PAPERS, paper
from pnp.load.model import LANGUAGE
from pnp.load.remote import offline as offline_data
from pnp.load.schema import suggest
from pnp.load.settings import config_path, read_config, read_game_sheet

if TYPE_CHECKING:
    from pnp.impose.sheets import SheetSpec
    from pnp.pipeline.reuse import Reuse

EXIT_INTERNAL = 3  # a bug in pnp, not in the user's files
EXIT_PIPE = 141  # the reader of the output went away (as a shell reports a process SIGPIPE ended)

game_argument = click.argument("game", type=click.Path(path_type=Path, file_okay=False), default=str(DEFAULT_GAME), required=False)


def _offset(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not two numbers; expected X,Y in mm, e.g. 0.5,-1") from None
    if abs(x) > 20 or abs(y) > 20:
        raise click.BadParameter("expected an offset of at most 20 mm each way")
    return x, y


def _mm(value: float) -> str:
    """A length in mm as the user would type it: 0.4, -1, 2.5."""
    return f"{value:g}"


def _language(ctx: click.Context, param: click.Parameter, value):
    """A language code, which becomes part of file names: no separators, no dots."""
    for code in value if isinstance(value, tuple) else [value] if value is not None else []:
        if not LANGUAGE.fullmatch(code):
            raise click.BadParameter(f"'{code}' is not a language code; expected a code like en, de or pt_BR")
    return value


def out_folder(help: str, default: Path = Path("output")):
    """Every command's --out: a folder, `output/` unless the command says otherwise."""
    return click.option("--out", "out", type=click.Path(path_type=Path, file_okay=False), default=default, show_default=True, help=help)


class PaperType(click.ParamType):
    """A paper: a name of PAPERS (or an alias) or WIDTHxHEIGHT in mm or in (impose.paper.paper),
    handed on as the name files are named by ('a4', '300x450', '11x17in')."""

    name = "paper"

    def convert(self, value, param, ctx):
        try:
            return paper(value).name
        except ValueError as exc:
            self.fail(f"'{value}' is not a paper; {exc}", param, ctx)

    def get_metavar(self, param, ctx=None) -> str:
        return "NAME|WxH"

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in PAPERS if name.startswith(incomplete)]


# Sheet options shared by the commands that print or plan sheets (build, check, impose; calibrate's paper and flip).
def paper_choice(help_text: str):
    """The --paper option of a command, with its own help."""
    names = f"{', '.join(PAPERS)}, or WIDTHxHEIGHT in mm or in (e.g. 300x450, 11x17in)"
    return click.option("--paper", type=PaperType(), default="a4", show_default=True, envvar="PNP_PAPER", show_envvar=True, help=f"{help_text} {names}.")


paper_option = paper_choice("Paper size (portrait):")


out_option = out_folder("Folder for the PDFs.")
sides_option = click.option(
    "--sides",
    envvar="PNP_SIDES",
    show_envvar=True,
    type=click.Choice(["duplex", "fronts", "backs", "fold"]),
    default="duplex",
    show_default=True,
    help="duplex: each sheet of fronts followed by its backs; fronts or backs only; fold: fronts and backs side by side on one page, to print one-sided and fold.",
)
cutter_option = click.option(
    "--cutter",
    envvar="PNP_CUTTER",
    show_envvar=True,
    type=click.Choice(["silhouette", "cricut"]),
    default=None,
    help='Print for a cutting machine: its registration marks instead of crop marks, and a cut file per sheet beside the PDF: SVG, and DXF with the cutter extra (pip install "pnpkit[cutter]", or ezdxf).',
)
corner_option = click.option(
    "--corner-radius",
    envvar="PNP_CORNER_RADIUS",
    show_envvar=True,
    type=click.FloatRange(0, 20),
    default=None,
    help="With --cutter: the radius in mm of the cut cards' corners (default: 3).",
)
mark_inset_option = click.option(
    "--mark-inset",
    envvar="PNP_MARK_INSET",
    show_envvar=True,
    type=click.FloatRange(5, 30),
    default=None,
    help="With --cutter silhouette: how far in mm from the page's edges the registration marks' corners are, as set in Silhouette Studio (default: 10; 15.875 for the Auto Sheet Feeder's 0.625 in).",
)


def _sheet_spec(
    paper: str,
    sides: str,
    flip: str,
    back_offset,
    bleed: float,
    outer_bleed: float,
    back_bleed: float | None,
    gap: float,
    overlap: float,
    cutter: str | None,
    corner_radius: float | None,
    mark_inset: float | None,
) -> SheetSpec:
    """The sheet options of build, check and impose, checked together."""
    from pnp.impose.sheets import SheetSpec  # here for speed: `pnp --help` and the commands without sheet options never load the geometry

    if cutter and sides == "fold":
        raise click.UsageError("--sides fold and --cutter cannot be combined; expected one of them (a cutting machine cuts duplex sheets)")
    if corner_radius is not None and not cutter:
        raise click.UsageError("--corner-radius shapes a cutting machine's cut; expected it with --cutter")
    if mark_inset is not None and cutter != "silhouette":
        raise click.UsageError("--mark-inset places Silhouette's registration marks; expected it with --cutter silhouette")
    return SheetSpec(
        paper=paper,
        bleed=bleed,
        outer_bleed=outer_bleed,
        back_bleed=back_bleed,
        gap=gap,
        flip=flip,
        back_offset=back_offset,
        sides=sides,
        overlap=overlap,
        cutter=cutter,
        corner_radius=corner_radius,
        mark_inset=mark_inset,
    )


def with_sheet(command):
    """The command takes `sheet`, the SheetSpec of its sheet options (--paper, --sides,
    --flip, --back-offset, --bleed, --outer-bleed, --back-bleed, --gap, --overlap,
    --cutter, --corner-radius, --mark-inset), checked
    together before anything runs: a contradiction is a usage error (exit 2)."""

    @functools.wraps(command)
    def taking_sheet(*args, paper, sides, flip, back_offset, bleed, outer_bleed, back_bleed, gap, overlap, cutter, corner_radius, mark_inset, **kwargs):
        sheet = _sheet_spec(paper, sides, flip, back_offset, bleed, outer_bleed, back_bleed, gap, overlap, cutter, corner_radius, mark_inset)
        return command(*args, sheet=sheet, **kwargs)

    return taking_sheet


flip_option = click.option(
    "--flip",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    envvar="PNP_FLIP",
    show_envvar=True,
    help="The edge your printer turns the sheet over for duplex.",
)
back_offset_option = click.option(
    "--back-offset",
    envvar="PNP_BACK_OFFSET",
    show_envvar=True,
    default="0,0",
    callback=_offset,
    metavar="X,Y",
    show_default=True,
    help="Shift the backs X,Y mm right and up, as seen from the front, if your printer misregisters (see pnp calibrate).",
)
gap_option = click.option(
    "--gap",
    envvar="PNP_GAP",
    show_envvar=True,
    type=click.FloatRange(0, 20),
    default=0.0,
    show_default=True,
    help="Blank paper in mm between the art of neighbouring cards, bleed to bleed (their trims are 2 x bleed + gap apart, with the larger of --bleed and --back-bleed).",
)
overlap_option = click.option(
    "--overlap",
    envvar="PNP_OVERLAP",
    show_envvar=True,
    type=click.FloatRange(3, 50),
    default=10.0,
    show_default=True,
    help="For a component larger than the paper, printed in pieces: how many mm neighbouring pieces overlap (to glue).",
)

bleed_option = click.option(
    "--bleed",
    type=click.FloatRange(0, 6),
    default=0.0,
    show_default=True,
    envvar="PNP_BLEED",
    show_envvar=True,
    help="Bleed in mm: the art runs this far past the cut on every side.",
)
outer_bleed_option = click.option(
    "--outer-bleed",
    type=click.FloatRange(0, 10),
    default=0.0,
    show_default=True,
    envvar="PNP_OUTER_BLEED",
    show_envvar=True,
    help="At least this much bleed in mm on the edges at the outside of the grid of cards (facing the paper's margin), against a duplex printer's drift; the edges between cards keep --bleed.",
)
back_bleed_option = click.option(
    "--back-bleed",
    type=click.FloatRange(0, 6),
    default=None,
    envvar="PNP_BACK_BLEED",
    show_envvar=True,
    help="The backs' bleed in mm, when it differs from the fronts' (default: --bleed); the backs' trims stay behind the fronts'.",
)


def sheet_options(command):
    """The sheet options of `pnp build` after --paper (and --out), in its order; `pnp check`
    takes them too, to report what a build on those sheets would find."""
    for option in reversed(
        (
            sides_option,
            flip_option,
            back_offset_option,
            bleed_option,
            outer_bleed_option,
            back_bleed_option,
            gap_option,
            overlap_option,
            cutter_option,
            corner_option,
            mark_inset_option,
        )
    ):
        command = option(command)
    return command


SHEET_KEYS = ("paper", "sides", "flip", "back_offset", "bleed", "outer_bleed", "back_bleed", "gap", "overlap", "cutter", "corner_radius", "mark_inset")
# The commands whose sheet options the user's config file sets, and which of them (impose's
# --bleed is what its images include, not a setting of the printer's).
CONFIG_COMMANDS = {
    "build": SHEET_KEYS,
    "check": SHEET_KEYS,
    "serve": SHEET_KEYS,
    "impose": tuple(k for k in SHEET_KEYS if k != "bleed"),
    "calibrate": ("paper", "flip"),
}


def _config_check(param: click.Parameter):
    """What a value of `param` may be in the config file: what the command line takes,
    a mistake said as a game file's are ("expected ..."). Returns the value as click's
    default_map hands it to the option."""
    kind = param.type
    if isinstance(kind, PaperType):

        def named(value):
            return paper(value if isinstance(value, str) else "").name  # its ValueError says what was expected

        return named
    if isinstance(kind, click.Choice):
        choices = [str(c) for c in kind.choices]

        def choice(value):
            if isinstance(value, str) and value in choices:
                return value
            raise ValueError(f"expected one of: {', '.join(choices)}{suggest(str(value), choices)}")

        return choice
    if isinstance(kind, click.FloatRange):
        low, high = kind.min, kind.max

        def number(value):
            if isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high:
                return float(value)
            raise ValueError(f"expected a number of mm from {_mm(low)} to {_mm(high)}")

        return number

    def offset(value):  # --back-offset: "X,Y", or a list of two numbers
        parts = value if isinstance(value, list) else value.split(",") if isinstance(value, str) else []
        try:
            if len(parts) != 2 or any(isinstance(v, bool) for v in parts):
                raise ValueError
            x, y = (float(v) for v in parts)
        except (TypeError, ValueError):
            x = y = math.inf
        if abs(x) > 20 or abs(y) > 20:
            raise ValueError("expected X,Y in mm, at most 20 each way, e.g. 0.5,-1")
        return f"{_mm(x)},{_mm(y)}"

    return offset


# The global options: `pnp -q build GAME` and `pnp build GAME -q` alike (PnpCommand).
GLOBAL_OPTIONS = (
    (("--debug",), "Show Python tracebacks (for reporting bugs in pnp)."),
    (("-q", "--quiet"), "Print only errors and warnings."),
    (("-v", "--verbose"), "Also print how long each deck took, and where each sheet option not at its default came from."),
    (("--offline",), "Fetch nothing: a deck's data on the web is read from the copy an earlier build kept under --out."),
)
GLOBAL_NAMES = ("debug", "quiet", "verbose", "offline")


class PnpCommand(click.Command):
    """A pnp command: it takes the global options after its name too, so that `pnp build
    GAME -q` is `pnp -q build GAME` (each is said where a user types it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.params += [click.Option(list(names), is_flag=True, help=text) for names, text in GLOBAL_OPTIONS]

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, args)
        given = {name: bool(ctx.params.pop(name, False)) for name in GLOBAL_NAMES}
        pnp_ctx = ctx.find_object(Context)
        if pnp_ctx is not None:
            pnp_ctx.also(**given)
        return rest


class PnpGroup(click.Group):
    """The `pnp` group and its groups (i18n, export): every command in them is a PnpCommand."""

    command_class = PnpCommand
    group_class = type  # a group made in it is a PnpGroup too


class SheetCommand(PnpCommand):
    """A command that takes sheet options: its context's default_map is the user's config
    file's settings (see pnp/load/settings.py), so click gives each option its value
    from the command line, else its PNP_* variable, else the config file, else its
    built-in default. A mistake in the file is reported like a game file's (exit 2)."""

    def make_context(self, info_name, args, parent=None, **extra):
        if parent is not None and not parent.resilient_parsing and "default_map" not in extra:
            pnp_ctx = parent.find_object(Context)
            extra["default_map"] = _run(pnp_ctx, partial(_user_config, pnp_ctx, CONFIG_COMMANDS[self.name]))
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context):
        """Below the command line, the PNP_* variables and the config file: the game's own
        defaults (game.yaml's `sheet:`) for the options still at their built-in default."""
        if "game" in ctx.params and not ctx.resilient_parsing:
            pnp_ctx = ctx.find_object(Context)
            game_file = Path(ctx.params["game"]) / "game.yaml"
            keys = CONFIG_COMMANDS[self.name]
            settings = _run(pnp_ctx, partial(_game_sheet, game_file, keys))
            for name, value in settings.items():
                if ctx.get_parameter_source(name) == ParameterSource.DEFAULT:
                    ctx.params[name] = value
                    pnp_ctx.from_game[name] = game_file
        return super().invoke(ctx)


def _user_config(ctx: Context, keys: tuple[str, ...]) -> dict:
    """The settings of the user's config file that the command takes."""
    path = config_path()
    options = {p.name: p for p in build.params}
    settings = read_config(path, {name: _config_check(options[name]) for name in SHEET_KEYS})
    ctx.config = path
    return {k: settings[k] for k in keys if k in settings}


def _game_sheet(game_file: Path, keys: tuple[str, ...]) -> dict:
    """The game's default sheet options that the command takes ({} when the folder has no
    game.yaml inside it: the command reports that itself)."""
    folder = game_file.parent.resolve()
    if not game_file.is_file() or not game_file.resolve().is_relative_to(folder):
        return {}
    options = {p.name: p for p in build.params}
    settings = read_game_sheet(game_file, {name: _config_check(options[name]) for name in SHEET_KEYS})
    return {k: settings[k] for k in keys if k in settings}


def _sheet_sources(click_ctx: click.Context) -> list[str]:
    """For `build --verbose`: each sheet option not at its built-in default, and where its
    value came from (the command line, a PNP_* variable, the config file, game.yaml)."""
    pnp_ctx = click_ctx.find_object(Context)
    lines = []
    for param in click_ctx.command.params:
        source = click_ctx.get_parameter_source(param.name)
        if param.name not in SHEET_KEYS or source is None:
            continue
        if source == ParameterSource.COMMANDLINE:
            origin = "the command line"
        elif source == ParameterSource.ENVIRONMENT:
            origin = param.envvar
        elif source == ParameterSource.DEFAULT_MAP:
            origin = pnp_ctx.config
        elif param.name in pnp_ctx.from_game:
            origin = display_path(pnp_ctx.from_game[param.name])
        else:  # the built-in default
            continue
        value = click_ctx.params[param.name]
        shown = ",".join(_mm(v) for v in value) if param.name == "back_offset" else _mm(value) if isinstance(value, float) else value
        lines.append(f"{param.name}: {shown} (from {origin})")
    return lines


class Context:
    def __init__(self, debug: bool, quiet: bool, verbose: bool = False, offline: bool = False):
        self.debug = debug
        self.quiet = quiet
        self.verbose = verbose and not quiet
        self.offline = offline  # data on the web read from the kept copy only (load/remote.py)
        self.config: Path | None = None  # the user's config file, once read (for build --verbose)
        self.from_game: dict[str, Path] = {}  # the sheet options game.yaml set (for build --verbose)

    def also(self, debug: bool, quiet: bool, verbose: bool, offline: bool) -> None:
        """The global options given after the command's name, added to those before it."""
        self.offline = self.offline or offline
        self.debug = self.debug or debug
        self.quiet = self.quiet or quiet
        self.verbose = (self.verbose or verbose) and not self.quiet

    def say(self, message: str) -> None:
        if not self.quiet:
            click.echo(message)


def global_options(command):
    """The global options, on the `pnp` group (PnpCommand takes them after a command's name too)."""
    for names, text in reversed(GLOBAL_OPTIONS):
        command = click.option(*names, is_flag=True, help=text)(command)
    return command


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@global_options
@click.pass_context
def main(ctx: click.Context, debug: bool, quiet: bool, verbose: bool, offline: bool) -> None:
    """pnp: print-and-play cards, boards and rulebooks from one YAML source.

    GAME is a game folder (default: the bundled Mestá deck). Files go to --out DIR
    (default: output/). Exit codes: 0 fine, 1 errors in the game (or its output cannot be
    written), 2 the game cannot be read, 3 a bug in pnp, 130 and 143 stopped by Ctrl-C or
    SIGTERM, 141 the reader of the output went away (`pnp list | head -1`).
    """
    ctx.obj = Context(debug, quiet, verbose, offline)


def _run(ctx: Context, action, output: Output | None = None):
    """Run a command, turning the pipeline's errors into located messages and exit codes;
    within, nothing is written outside `output` (the command's --out), and a signal
    aborts what is being written. A reader that goes away (`pnp list | head -1`) ends the
    command quietly with EXIT_PIPE."""
    kept = output.kept if output is not None else ""
    written = False
    try:
        with raising_on_signals(), writing_under(output), offline_data(ctx.offline):
            done = _reporting(ctx, action, kept)
            signum = held()
            if signum is None:
                return done
            written = True  # it came as the files were moved into place, and let them all come
            raise Interrupted(signum)
    except Interrupted as stop:
        if written:
            _say_quietly(f"interrupted by {stop.name} once every file was in place")
            sys.exit(stop.exit_code)
        _say_quietly(f"interrupted by {stop.name}; " + (f"nothing was written; {kept}" if kept else "the files being written were removed"))
        sys.exit(stop.exit_code)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(EXIT_PIPE)


def _reporting(ctx: Context, action, kept: str = ""):
    """`action`'s errors reported; `kept`: what a failed command left as it was, said in
    the closing line."""
    try:
        try:
            return action()
        except BrokenPipeError:
            raise
        except Exception as exc:  # a signal a library turned into another exception (or a problem) on its way is the signal
            stop_if_received(exc)
            raise
    except PnpError as err:
        _report(err.problems.items)
        notes = f"; {_many(len(err.problems.notes), 'check')} not run (see the notes)" if err.problems.notes else ""
        click.echo(f"{_many(len(err.problems.errors), 'error')}{notes}; nothing was written{f'; {kept}' if kept else ''}.", err=True)
        sys.exit(err.exit_code)
    except BrokenPipeError:
        raise
    except OSError as exc:  # a write failed outside a transaction (those report their own)
        if ctx.debug or exc.errno not in WRITE_ERRNOS:
            return _internal(ctx, exc)
        _report(output_problem(exc, Path(exc.filename or ".")).problems.items)
        if kept:
            click.echo(f"nothing was written; {kept}.", err=True)
        sys.exit(EXIT_ERRORS)
    except Exception as exc:
        return _internal(ctx, exc)


def _count(problems: Problems) -> str:
    """The closing line: how many problems, every one counted (grouped lines are many),
    and how many checks could not run for them (the notes)."""
    notes = f"; {_many(len(problems.notes), 'check')} not run (see the notes)" if problems.notes else ""
    return f"{_many(len(problems.errors), 'error')}, {_many(len(problems.warnings), 'warning')}{notes}"


def _say_cut_files(ctx: Context, paths: list[Path]) -> None:
    """The cut files written, and the warning (shown with --quiet too) when the DXF ones
    could not be: ezdxf, the `cutter` extra, is not installed."""
    from pnp.pipeline.progress import cut_files_line, no_dxf_line  # here for speed: only build and impose write cut files

    ctx.say(cut_files_line(paths))
    warning = no_dxf_line(paths)
    if warning:
        click.echo(warning, err=True)


def _many(count: int, thing: str) -> str:
    """`count` things, in the singular for one."""
    return f"{count:,} {thing}{'s' if count != 1 else ''}"


def _wrote(path: Path, cards: int, pages: int, timing: str = "") -> str:
    return f"wrote {path} ({_many(cards, 'card') + ', ' if cards else ''}{_many(pages, 'page')}{timing})"


WRITE_ERRNOS = {errno.EROFS, errno.ENOSPC, errno.EDQUOT}  # only a write fails so


def _internal(ctx: Context, exc: Exception):
    """A bug: say so plainly, traceback only with --debug."""
    if ctx.debug:
        raise exc
    click.echo(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback and report it)", err=True)
    sys.exit(EXIT_INTERNAL)


def _say_quietly(message: str) -> None:
    try:
        click.echo(message, err=True)
    except OSError:  # no one reads standard error any more
        pass


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (tests capture it)
        pass


def _attempt(ctx: Context, action, output: Output | None = None) -> None:
    """Run a command like `_run`, but report errors instead of exiting (for --watch); a
    signal or a reader gone still ends the command."""
    try:
        _run(ctx, action, output)
    except SystemExit as end:
        if isinstance(end.code, int) and end.code >= 128:
            raise


def _report(problems) -> None:
    """Each problem once per cause: one made on many cards is one line and its places
    (`--format json` lists every one)."""
    for line in grouped(list(problems)):
        click.echo(line, err=True)


poll_data_option = click.option(
    "--poll-data",
    "poll_data",
    type=click.FloatRange(0, 86400),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="While watching: fetch a deck's data on the web again this often, and rebuild when it changed (0: never; --offline: never).",
)

LAST_BUILD = "\0last"  # --changed-since without a value


def changed_since_option(help_text: str):
    """The --changed-since option of a command, with its own help (build writes errata, list only says)."""
    return click.option("--changed-since", "changed_since", is_flag=False, flag_value=LAST_BUILD, default=None, metavar="[MANIFEST]", help=help_text)


@main.command(cls=SheetCommand)
@game_argument
@paper_option
@out_option
@sheet_options
@click.option("--deck", "decks", multiple=True, help="Build only this deck (repeatable).")
@click.option("--deal", default=None, help="Print only the cards of this deal (game set-up), e.g. quick.")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    callback=_language,
    help="Language to build (repeatable; 'all' for every catalogue, 'qps' for the pseudo-language). Default: the game's source language.",
)
@click.option("--allow-untranslated", is_flag=True, help="Print missing or stale translations in the source language instead of failing.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Build decks and languages in this many processes.")
@click.option("--force", is_flag=True, help="Write the PDFs even if the check finds errors (not errors in reading the game: a card's data, a layout).")
@click.option("--watch", is_flag=True, help="Rebuild whenever a file of GAME changes, until Ctrl-C; errors are printed, not fatal.")
@poll_data_option
@changed_since_option(
    "Also write errata PDFs of the cards changed or new since MANIFEST (default: the last build's in --out), and say which to take out. Put it after GAME."
)
@click.pass_obj
@with_sheet
def build(
    ctx: Context,
    game: Path,
    out: Path,
    sheet: SheetSpec,
    decks: tuple[str, ...],
    deal: str | None,
    langs: tuple[str, ...],
    allow_untranslated: bool,
    jobs: int,
    force: bool,
    watch: bool,
    changed_since: str | None,
    poll_data: float,
) -> None:
    """Build print-ready PDFs of GAME: each deck on its own, with crop marks and backs."""
    from pnp.pipeline.progress import BuildProgress, print_advice  # here for speed: the other commands (an export) show no build's progress
    from pnp.pipeline.reuse import Reuse
    from pnp.project.options import BuildOptions

    if ctx.verbose:
        for line in _sheet_sources(click.get_current_context()):
            ctx.say(line)

    def action(reuse: Reuse):
        from pnp.pipeline.build import build as run_build

        progress = BuildProgress(bar=not ctx.quiet)
        try:
            result = run_build(
                game,
                BuildOptions(
                    sheet=sheet,
                    out=out,
                    decks=list(decks) or None,
                    deal=deal,
                    langs=list(langs) or None,
                    allow_untranslated=allow_untranslated,
                    jobs=jobs,
                    force=force,
                ),
                progress,
                changed_since=None if changed_since in (None, LAST_BUILD) else Path(changed_since),
                since_last=changed_since == LAST_BUILD,
                reuse=reuse,
            )
        finally:
            progress.finish()
        _report(result.problems.items)
        if result.problems.items:
            ctx.say(_count(result.problems))
        rebuilt = reuse.summary()
        if rebuilt is not None:  # a rebuild: one line
            ctx.say(rebuilt)
            for change in result.changes:
                click.echo(change.text())
            return
        for path, cards, pages, _ in result.files:
            seconds = progress.timings.get(path)
            timing = f", {seconds:.2f} s" if ctx.verbose and seconds is not None else ""
            ctx.say(_wrote(path, cards, pages, timing))
        if ctx.verbose:
            ctx.say(f"built in {progress.total:.2f} s")
        if result.cut_files:
            _say_cut_files(ctx, result.cut_files)
        if result.files:
            ctx.say(print_advice(result.files))
        for change in result.changes:
            click.echo(change.text())

    if watch:
        from pnp.live.session import watch_builds  # the renderer and reportlab: only for --watch (the build imports them when it runs)

        if jobs > 1:
            ctx.say(f"--jobs {jobs} is not used with --watch: the watcher keeps what it drew in one process, and redraws only what a save changes")
        watch_builds(game, out, lambda reuse: _attempt(ctx, partial(action, reuse), Output(out)), ctx.say, 0.0 if ctx.offline else poll_data)
    else:
        _run(ctx, partial(action, Reuse()), Output(out))


def words_option(what: str):
    """The --lang of a command that prints pnp's own words and no game's (calibrate,
    impose): the language of `what`."""
    return click.option("--lang", default="en", show_default=True, callback=_language, help=f"The language of {what} (pnp's own words).")


def _own_words(lang: str, what: str):
    """pnp's words in `lang`, said in a warning to be English where pnp has none in it."""
    from pnp.i18n.own import has_words, own_words

    if not has_words(lang):
        click.echo(f"warning: pnp has no words in '{lang}'; {what} in English (pnp/i18n/own has a catalogue per language)", err=True)
    return own_words(lang)


@main.command(cls=SheetCommand)
@paper_option
@flip_option
@words_option("the sheet's instructions")
@out_folder("Folder for the PDF.")
@click.pass_obj
def calibrate(ctx: Context, paper: str, flip: str, lang: str, out: Path) -> None:
    """Write a calibration sheet: rulers to check 100 % printing and crosshairs on both
    sides to measure how far your printer shifts the backs (for --back-offset)."""

    def action():
        from pnp.assets.fonts import bundled_fonts
        from pnp.commands.calibrate import write_calibration

        words = _own_words(lang, "the sheet's instructions are")
        target = out / f"calibration-{paper}-{flip}.pdf"
        write_calibration(target, paper, flip, bundled_fonts().get("sans").registered, words)
        ctx.say(f"wrote {target}: print it double-sided at 100 %")
        ctx.say(f"to use the offset you measure in every build, save it as back_offset: X,Y in {config_path()} (or set PNP_BACK_OFFSET=X,Y)")

    _run(ctx, action, Output(out, kept="the previous calibration sheet is intact"))


@main.command(cls=SheetCommand)
@game_argument
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="json: one object per problem, for editors and CI."
)
@click.option(
    "--lang",
    "langs",
    multiple=True,
    callback=_language,
    help="Also check this language (repeatable; 'all' for every catalogue, 'qps' for the pseudo-language).",
)
@click.option("--allow-untranslated", is_flag=True, help="Missing or stale translations fall back to the source language.")
@paper_choice("Paper size (portrait), as for pnp build (what does not fit it is reported):")
@sheet_options
@out_folder("The build's folder: a deck's data on the web is read from the copy kept there when it cannot be fetched (or with --offline); check keeps none.")
@click.pass_obj
@with_sheet
def check(
    ctx: Context,
    game: Path,
    fmt: str,
    langs: tuple[str, ...],
    allow_untranslated: bool,
    sheet: SheetSpec,
    out: Path,
) -> None:
    """Check GAME without building: data types, the game's rules, the glossary, layouts,
    text that does not fit, missing glyphs, unknown symbols, translations, and how each
    deck goes on paper (with the sheet options of pnp build, which it takes too).
    Exit 0 when clean, 1 on errors, 2 if the game cannot be read."""

    def action():
        from pnp.check.run import check_all, not_loaded
        from pnp.project.edition import resolve_languages
        from pnp.project.project import prepare

        try:
            project = prepare(game, keep_going=True)
            problems = check_all(project, resolve_languages(project.game, list(langs) or None), allow_untranslated, sheet)
        except PnpError as err:
            problems = err.problems
            problems.extend(not_loaded(game, problems))
        if fmt == "json":
            click.echo(json.dumps([p.as_json() for p in problems.items], ensure_ascii=False, indent=1))
        else:
            _report(problems.items)
            if problems.errors:  # on stderr after the problems, as when the game cannot be read
                click.echo(_count(problems), err=True)
            else:
                ctx.say(_count(problems) if problems.items else "no problems found")
        if problems.errors:
            sys.exit(PnpError(problems).exit_code)

    _run(ctx, action, Output(out, cache=False))


@main.group()
def i18n() -> None:
    """Translations: gettext catalogues in GAME/locale/ (messages.pot and LANG.po)."""


@i18n.command("update")
@game_argument
@click.option("--add", "add", multiple=True, metavar="LANG", help="Create a catalogue for a new language (repeatable; checked as a locale that babel knows).")
@click.pass_obj
def i18n_update(ctx: Context, game: Path, add: tuple[str, ...]) -> None:
    """Extract the template and merge it into every catalogue: changed source texts become
    fuzzy, new strings empty, removed ones obsolete. No translation is ever lost."""

    def action():
        from pnp.i18n.catalogues import update
        from pnp.load.game import load_game
        from pnp.project.edition import read_originals

        loaded, _ = load_game(game)
        pot, reports = update(loaded, read_originals(loaded, rulebooks=False).entries, list(add))
        ctx.say(f"wrote {pot}")
        for r in reports:
            ctx.say(f"{r.lang}: {r.new} new, {r.fuzzy} fuzzy, {r.obsolete} obsolete")

    _run(ctx, action, Output(game, "or copy the game folder somewhere writable", "the game folder", "the catalogues are as they were", cache=False))


@i18n.command("status")
@game_argument
@click.pass_obj
def i18n_status(ctx: Context, game: Path) -> None:
    """Per language: translated, fuzzy and missing strings, and the ids of what is not done."""

    def action():
        from pnp.i18n.catalogues import languages, status
        from pnp.load.game import load_game
        from pnp.project.edition import read_originals

        loaded, _ = load_game(game)
        problems = Problems()
        found = languages(loaded)
        if not found:
            click.echo(f"no catalogues in {game / 'locale'}; create one with: pnp i18n update --add LANG")
        entries = read_originals(loaded, rulebooks=False).entries if found else []  # extracted once for every language
        for lang in found:
            state, _ = status(loaded, entries, lang, problems)
            click.echo(f"{lang}: {state.translated}/{state.total} translated ({state.percent} %), {len(state.fuzzy)} fuzzy, {len(state.missing)} missing")
            for label, items in (("fuzzy", state.fuzzy), ("missing", state.missing)):
                for sid, line in items:
                    click.echo(f"  {label}: {sid}" + (f" (line {line})" if line else ""))
        if problems.errors:
            raise PnpError(problems)

    _run(ctx, action)


@main.command()
@click.argument("name", type=click.Path(path_type=Path))
@out_folder("Folder to create the game in.", Path("."))
@click.option("--title", default=None, help="The game's title (default: from NAME).")
@click.option(
    "--lang",
    default="en",
    show_default=True,
    help="The language the game is written in: its starter text is in it (en, sk, cs, de, pl, fr; another language gets the English text and a catalogue to translate it into that language).",
)
@click.option(
    "--translation",
    default=None,
    help="A second language to start an empty catalogue for (default: de, or en for German games; 'none': no catalogue).",
)
@click.pass_obj
def new(ctx: Context, name: Path, out: Path, title: str | None, lang: str, translation: str | None) -> None:
    """Create a game folder NAME that builds at once: metadata, a card type with one rule,
    a few cards, their front and back layouts, a rulebook stub and a catalogue to translate."""

    def action():
        import shlex

        from pnp.commands.new import create, untranslated_note  # here for speed: only `pnp new` writes a game

        second = translation or ("en" if lang == "de" else "de")
        target = create(out / name, title, lang, None if second == "none" else second)
        shown = shlex.quote(str(target))
        ctx.say(f"created {target}: next, run  pnp check {shown}  and  pnp build {shown}")
        note = untranslated_note(lang)
        if note:
            click.echo(f"note: {note}", err=True)

    _run(ctx, action, Output((out / name).parent, kept="no game folder was made"))


@main.command(cls=SheetCommand)
@game_argument
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="The port to serve on, on 127.0.0.1 (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; only print the address.")
@click.option("--lang", "lang", default=None, callback=_language, help="The language shown first (default: the game's source language).")
@out_folder(
    "Where the sheet view draws its PDFs, each removed as soon as it is shown; only the copies of a deck's data on the web are kept there (.pnp-cache/, as a build keeps them)."
)
@poll_data_option
@paper_choice("The sheet view's paper (portrait), as for pnp build:")
@sheet_options
@click.pass_obj
@with_sheet
def serve(ctx: Context, game: Path, port: int, no_browser: bool, lang: str | None, out: Path, poll_data: float, sheet: SheetSpec) -> None:
    """Preview GAME in the browser, updated on every save: every face as a picture, deck
    by deck, the sheets as `pnp build` prints them with the same sheet options (the
    command line, PNP_* variables, the config file, game.yaml's sheet:, read when it
    starts), and the problems of `pnp check` on the cards they concern. Serves on
    127.0.0.1 only, reads only GAME (and a deck's data on the web), until Ctrl-C."""

    def action():
        from pnp.live.serve import serve as run_server  # the server and the drawing: only for this command
        from pnp.load.game import game_yaml  # YAML and the model: only when a command runs (pnp --help stays fast)

        game_yaml(game)  # a folder that is no game at all ends here; a game with mistakes is shown with them
        run_server(game, out, lang, port, not no_browser, click.echo, sheet, 0.0 if ctx.offline else poll_data)

    _run(ctx, action, Output(out))


@main.command("list")
@game_argument
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="json: for scripts.")
@changed_since_option(
    "Say which cards changed or are new since MANIFEST (default: the last build's in --out): what build --changed-since would put in "
    "errata PDFs, and which to take out of the printed deck. Writes nothing. Put it after GAME."
)
@out_folder(
    "The build's folder: with --changed-since, its manifest; a deck's data on the web is read from the copy kept there when it cannot be fetched (or with --offline)."
)
@paper_choice("With --changed-since: the build's paper:")
@click.option("--lang", "lang", default=None, help="With --changed-since: the build's language (default: the game's source language).")
@click.pass_obj
def list_game(ctx: Context, game: Path, fmt: str, changed_since: str | None, out: Path, paper: str, lang: str | None) -> None:
    """Show what GAME is made of: types, decks (cards, copies, size), deals, rulebooks
    (title, modes, files) and languages; with --changed-since, the cards a build would
    put in its errata and those to take out of the printed deck."""

    def action():
        from pnp.commands.listing import changes_since, listing, render_text  # here for speed: only this command lists

        if changed_since is not None:
            since = None if changed_since == LAST_BUILD else Path(changed_since)
            change = changes_since(game, since, out, paper, lang)
            click.echo(json.dumps(change.as_dict(), ensure_ascii=False, indent=1) if fmt == "json" else change.text())
            return
        data = listing(game)
        click.echo(json.dumps(data.as_dict(), ensure_ascii=False, indent=1) if fmt == "json" else render_text(data))

    _run(ctx, action, Output(out, cache=False))


@main.group()
def export() -> None:
    """Images of GAME: PNGs of every card, Tabletop Simulator deck sheets, or the files a print shop takes."""


images_out_option = out_folder("Folder for the images.")


def _export_output(out: Path) -> Output:
    """An export's output folder: a failed or interrupted export leaves the last one whole."""
    return Output(out, kept="the previous export is intact")


deck_option = click.option("--deck", "decks", multiple=True, help="Export only this deck (repeatable).")
lang_option = click.option("--lang", default=None, callback=_language, help="Language to export (default: the game's source language).")
untranslated_option = click.option("--allow-untranslated", is_flag=True, help="Missing or stale translations fall back to the source language.")
force_option = click.option("--force", is_flag=True, help="Write the images even if the check finds errors.")


@export.command("png")
@game_argument
@images_out_option
@click.option("--dpi", type=click.IntRange(36, 1200), default=300, show_default=True, help="Resolution of the images.")
@click.option(
    "--bleed",
    type=click.FloatRange(0, 6),
    default=0.0,
    show_default=True,
    metavar="MM",
    help="Bleed in mm: the art this far past the trim on every side (3 is usual).",
)
@lang_option
@deck_option
@untranslated_option
@force_option
@click.pass_obj
def export_png(
    ctx: Context, game: Path, out: Path, dpi: int, bleed: float, lang: str | None, decks: tuple[str, ...], allow_untranslated: bool, force: bool
) -> None:
    """One PNG per distinct card face: OUT/GAME/png-LANG/DECK/ID-front.png and the backs
    (one back.png when every card of a deck has the same back)."""

    def action():
        from pnp.exports.png import export_png as run_export

        result = run_export(game, out, dpi, bleed, lang, list(decks) or None, allow_untranslated, force)
        _report(result.problems.items)
        folders = sorted({str(path.parent) for path in result.files})
        ctx.say(f"wrote {len(result.files)} PNG files at {dpi} dpi in {', '.join(folders)}")

    _run(ctx, action, _export_output(out))


def _calibration(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float, float] | None:
    """Three lengths measured in Tabletop Simulator, each above zero."""
    if value is None:
        return None
    parts = value.split(",")
    try:
        numbers = tuple(float(part) for part in parts)
    except ValueError:
        numbers = ()
    if len(numbers) != 3 or not all(0 < number < 1000 for number in numbers):
        raise click.BadParameter(f"'{value}' is not three lengths; expected ACROSS,ALONG,TILE in inches as the Line tool shows them, e.g. 2.1,1.95,2.6")
    return numbers[0], numbers[1], numbers[2]


@export.command("tts")
@game_argument
@images_out_option
@click.option("--dpi", type=click.IntRange(36, 600), default=150, show_default=True, help="Resolution of the cards, boards and tokens.")
@click.option("--format", "fmt", type=click.Choice(["jpg", "png"]), default="jpg", show_default=True, help="Image format.")
@click.option("--deal", default=None, help="Only the components this game set-up uses (deals.yaml).")
@click.option("--base-url", default=None, help="Where you will upload the images (default: local file:/// URLs, seen only on this computer).")
@click.option(
    "--max-sheet",
    type=click.IntRange(256, 10_000),
    default=4096,
    show_default=True,
    help="Largest side of a sheet in pixels; above 4096 a warning says what it costs.",
)
@click.option(
    "--calibration",
    callback=_calibration,
    metavar="ACROSS,ALONG,TILE",
    default=None,
    help="What your Tabletop Simulator shows of the 'pnp calibration' card (across, along) and tile, in inches with the Line tool; each should be 2.",
)
@lang_option
@deck_option
@untranslated_option
@force_option
@click.pass_obj
def export_tts(
    ctx: Context,
    game: Path,
    out: Path,
    dpi: int,
    fmt: str,
    deal: str | None,
    base_url: str | None,
    max_sheet: int,
    calibration: tuple[float, float, float] | None,
    lang: str | None,
    decks: tuple[str, ...],
    allow_untranslated: bool,
    force: bool,
) -> None:
    """The whole table for Tabletop Simulator: deck sheets (at most 10 x 7 cards and 4096 px
    a side), board and token images, and one saved object (GAME.json, with its thumbnail
    GAME.png) that places them all at their printed size, beside a calibration card and
    tile to measure; with where to put it and how to load it."""

    def action():
        from pnp.exports.tts import export_tts as run_export

        result = run_export(game, out, dpi, fmt, lang, list(decks) or None, allow_untranslated, force, deal, base_url, max_sheet, calibration)
        _report(result.problems.items)
        for line in result.notes:
            ctx.say(line)

    _run(ctx, action, _export_output(out))


@export.command("shop")
@game_argument
@click.option(
    "--profile",
    type=click.Choice(["tgc", "mpc", "dtc"]),
    required=True,
    help="The print shop: tgc (The Game Crafter, PNG), mpc (MakePlayingCards, PNG), dtc (DriveThruCards, PDF/X-1a).",
)
@images_out_option
@click.option("--pdfx/--no-pdfx", default=True, show_default=True, help="For a shop that asks for PDF/X: convert to CMYK with Ghostscript (gs).")
@click.option(
    "--icc", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None, help="CMYK ICC profile for PDF/X (default: Ghostscript's SWOP)."
)
@lang_option
@deck_option
@untranslated_option
@force_option
@click.pass_obj
def export_shop(
    ctx: Context,
    game: Path,
    profile: str,
    out: Path,
    pdfx: bool,
    icc: Path | None,
    lang: str | None,
    decks: tuple[str, ...],
    allow_untranslated: bool,
    force: bool,
) -> None:
    """The files a print shop takes: per deck, each card face at the shop's exact size with
    its bleed (an image, or a page of one PDF), the quantity in each file name and in
    manifest.csv (which pnp impose reads back), and a preflight of text in the shop's
    unsafe zone and images under its resolution."""

    def action():
        from pnp.exports.shop import export_shop as run_export

        result = run_export(game, out, profile, lang, list(decks) or None, allow_untranslated, force, pdfx, icc)
        _report(result.problems.items)
        for line in result.notes:
            ctx.say(line)

    _run(ctx, action, _export_output(out))


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float] | None:
    from pnp.commands.impose_images import parse_size

    try:
        return parse_size(value) if value else None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@main.command("impose", cls=SheetCommand)
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--back", type=click.Path(path_type=Path), default=None, help="One back image for every card, or a folder of backs (one per front, same order).")
@click.option("--size", callback=_size, metavar="WxH", default=None, help="Trim size in mm, e.g. 63x88 (default: from the images' proportions).")
@paper_option
@out_option
@sides_option
@flip_option
@back_offset_option
@click.option(
    "--bleed",
    type=click.FloatRange(0, 6),
    default=0.0,
    show_default=True,
    help="Bleed in mm that the images include beyond the trim on every side (images of pnp export png say theirs: without --bleed, that one).",
)
@outer_bleed_option
@back_bleed_option
@click.option(
    "--make-bleed",
    type=click.FloatRange(0, 6),
    default=0.0,
    show_default=True,
    help="Make this much bleed in mm for images cut at the trim, from their edges (see --make-bleed-mode); more where --outer-bleed or --back-bleed asks for it.",
)
@click.option(
    "--make-bleed-mode",
    type=click.Choice(["stretch", "mirror"]),
    default="stretch",
    show_default=True,
    help="How --make-bleed makes bleed: stretch the outermost pixels outwards (each corner its corner pixel), or mirror the image in its edges (corners both ways).",
)
@gap_option
@overlap_option
@cutter_option
@corner_option
@mark_inset_option
@click.option("--title", default=None, help="Printed under the ruler and in the PDF (default: the folder name).")
@words_option("the sheets' captions, the ruler's and the fold's labels, the assembly pages and the PDF's subject")
@click.pass_obj
@with_sheet
def impose_images(
    ctx: Context,
    folder: Path,
    back: Path | None,
    size: tuple[float, float] | None,
    out: Path,
    sheet: SheetSpec,
    title: str | None,
    make_bleed: float,
    make_bleed_mode: str,
    lang: str,
) -> None:
    """Lay out finished card images (PNG or JPEG in FOLDER, in file-name order) on print
    sheets with crop marks, duplex backs and the calibration ruler, like a built deck.
    Images cut at the trim get bleed made for them with --make-bleed."""
    if make_bleed and sheet.bleed:
        raise click.UsageError("--bleed says how much bleed the images hold, --make-bleed makes bleed for images that hold none; expected one of them")

    def action():
        from pnp.commands.impose_images import impose_images as run_impose
        from pnp.pipeline.progress import print_advice

        learn = click.get_current_context().get_parameter_source("bleed") != ParameterSource.COMMANDLINE
        words = _own_words(lang, "the sheets' words are")
        written, problems, cuts, done = run_impose(folder, back, size, sheet, out, title, learn, make_bleed, make_bleed_mode, words)
        _report(problems.items)
        for line in done:
            ctx.say(line)
        ctx.say(_wrote(written.path, written.cards, written.pages))
        if cuts:
            _say_cut_files(ctx, cuts)
        if written.pages:
            ctx.say(print_advice([written]))

    _run(ctx, action, Output(out, kept="the previous PDF is intact"))


def run() -> None:
    """The `pnp` command (and `python -m pnp`): `main`, with the cycle collector run less
    often, then the process ends at once. Why: a build makes millions of objects and
    almost no cycles, and Python's default (a collection every 700 new objects, each also
    scanning what the imports made) spends its time looking for cycles that are not there
    (a collection every 100,000, as set here, does not raise a large build's peak memory);
    and exiting normally, Python frees every object it made, one by one, which ending the
    process at once leaves to the system. Every file pnp writes is written, closed and
    moved into place (or removed) before `main` returns; where a thread or a child process may still be
    running (the watcher, `pnp serve`), Python's own exit waits for them as usual."""
    gc.freeze()  # what the imports made lives as long as the process: not scanned (until a fork thaws all: base/forked.py)
    gc.set_threshold(100_000, 10, 10)
    try:
        main()
        code: object = 0
    except SystemExit as stop:
        code = stop.code
    if code is None:
        code = 0
    elif not isinstance(code, int):  # as Python's exit prints it
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone away: as Python's exit ignores it
            pass
    if threading.active_count() > 1 or ("multiprocessing" in sys.modules and sys.modules["multiprocessing"].active_children()):
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
