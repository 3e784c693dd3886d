"""Where pnp writes: only inside --out (or the game folder, for catalogues), under the
game folder's real name, and when the system refuses a write, one line naming the path
and what to do, the previous output intact and no temporary file left."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run

import pnp.base.output


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_game(tmp_path / "hra")


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def test_build_dot_inside_the_game_folder_names_the_output_after_it(small, tmp_path, monkeypatch):
    monkeypatch.chdir(small)
    result = run("build", ".", "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 0, result.output
    assert files_under(tmp_path / "out") == {tmp_path / "out" / "hra" / "cards-sk-a4-fronts.pdf", tmp_path / "out" / "hra" / "manifest-sk-a4.json"}


def test_build_dot_dot_from_a_subfolder_of_the_game(small, tmp_path, monkeypatch):
    (small / "art").mkdir()
    monkeypatch.chdir(small / "art")
    result = run("build", "..", "--out", "built")
    assert result.exit_code == 0, result.output
    assert files_under(small / "art" / "built") == {
        small / "art" / "built" / "hra" / "cards-sk-a4.pdf",
        small / "art" / "built" / "hra" / "manifest-sk-a4.json",
    }
    assert not (small / "art" / "cards-sk-a4.pdf").exists() and not (tmp_path / "cards-sk-a4.pdf").exists()


def test_a_subprocess_in_the_game_folder_writes_under_out(small, tmp_path):
    """As a user runs it: a real working directory, a relative --out beside the game."""
    env = {**os.environ, "PYTHONPATH": str(Path(pnp.base.output.__file__).parents[2])}
    done = subprocess.run([sys.executable, "-m", "pnp", "-q", "build", ".", "--out", "../out"], cwd=small, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert files_under(tmp_path / "out") == {tmp_path / "out" / "hra" / "cards-sk-a4.pdf", tmp_path / "out" / "hra" / "manifest-sk-a4.json"}


@pytest.mark.parametrize("how", ["trailing slash", "symlink"])
def test_the_output_is_named_after_the_real_folder(small, tmp_path, how):
    if how == "symlink":
        os.symlink(small, tmp_path / "odkaz")
        game = str(tmp_path / "odkaz")
    else:
        game = str(small) + "/"
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert files_under(tmp_path / "out") == {tmp_path / "out" / "hra" / "cards-sk-a4.pdf", tmp_path / "out" / "hra" / "manifest-sk-a4.json"}


@pytest.mark.parametrize("value", ["../x", "a/b", "..", "sk/../../etc", "x\\y", ""])
def test_a_language_that_would_name_a_path_is_refused(small, tmp_path, value):
    result = run("build", small, "--lang", value, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"Invalid value for '--lang': '{value}' is not a language code; expected a code like en, de or pt_BR" in result.output
    assert not (tmp_path / "out").exists()


def test_a_new_catalogue_must_have_a_language_code(mesta):
    before = sorted(p.name for p in (mesta / "locale").iterdir())
    result = run("i18n", "update", mesta, "--add", "../../pwned")
    assert result.exit_code == 1
    assert "'../../pwned' is not a language code" in result.output
    assert sorted(p.name for p in (mesta / "locale").iterdir()) == before
    assert not (mesta.parent / "pwned.po").exists()


def test_a_path_outside_the_output_folder_is_refused_before_anything_is_written(tmp_path):
    """The one proof every writer goes through: a file name that climbs out is refused."""
    out = tmp_path / "out"
    with pytest.raises(pnp.base.output.PnpError) as caught, pnp.base.output.transaction(out) as txn:
        txn.path_for(out / "hra" / "../../escaped.pdf")
    assert f"escaped.pdf: this file would be written outside the output folder {out}; expected every file pnp writes inside it [output-outside]" in str(
        caught.value
    )
    assert not list(tmp_path.rglob("*"))


def test_a_link_in_the_output_folder_that_leads_out_is_refused(small, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "out" / "hra")
    result = run("build", small, "--out", tmp_path / "out")
    assert result.exit_code == 1
    shown = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    assert (
        f"{shown}: a symbolic link on its path leads outside the output folder {tmp_path / 'out'}; expected every file pnp writes inside it [output-outside]"
        in result.output
    )
    assert not list((tmp_path / "elsewhere").iterdir())


def build_once(small: Path, out: Path) -> bytes:
    assert run("build", small, "--out", out).exit_code == 0
    return (out / "hra" / "cards-sk-a4.pdf").read_bytes()


def test_an_output_file_that_is_a_folder(small, tmp_path):
    (tmp_path / "out" / "hra" / "cards-sk-a4.pdf").mkdir(parents=True)
    result = run("build", small, "--out", tmp_path / "out")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line]
    assert lines[0] == (
        f"{tmp_path / 'out' / 'hra' / 'cards-sk-a4.pdf'}: is a folder where an output file must be written; "
        "expected no folder there (move the folder away, or choose another folder with --out) [output-is-folder]"
    )
    assert "Traceback" not in result.output and not temporaries(tmp_path / "out")


def test_out_inside_a_file(small, tmp_path):
    (tmp_path / "plain").write_text("not a folder\n", encoding="utf-8")
    result = run("build", small, "--out", tmp_path / "plain" / "out")
    assert result.exit_code == 1
    assert (
        f"{tmp_path / 'plain'}: is a file where a folder must be; expected a folder (move the file away, or choose another folder with --out)" in result.output
    )
    assert (tmp_path / "plain").read_text(encoding="utf-8") == "not a folder\n"


def test_out_that_is_a_file(small, tmp_path):
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    result = run("build", small, "--out", tmp_path / "plain")
    assert result.exit_code == 2
    assert "is a file" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("where", ["out", "out/hra"])
def test_a_symlink_loop_in_the_output_path(small, tmp_path, where):
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(tmp_path / where, tmp_path / where)
    result = run("build", small, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert f"{tmp_path / where}: symbolic links loop in this path; expected links that end in a folder" in result.output
    assert "[output-link-loop]" in result.output


def refuse(monkeypatch, code: int, name: str = "replace") -> None:
    """Make the system refuse the writes pnp makes (as root, chmod refuses nothing)."""

    def refused(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(pnp.base.output.os, name, refused)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (errno.EROFS, "cannot write here: the file system is read-only; expected a writable folder (choose another folder with --out) [output-read-only]"),
        (
            errno.EACCES,
            "cannot write here: permission denied; expected a folder you may write to (change its permissions, or choose another folder with --out) [output-denied]",
        ),
        (errno.ENOSPC, "cannot write: the disk is full; expected free space (free some, or choose another folder with --out) [output-full]"),
    ],
)
def test_a_refused_move_into_place_keeps_the_last_build(small, tmp_path, monkeypatch, code, message):
    out = tmp_path / "out"
    good = build_once(small, out)
    edit(small / "cards.yaml", "title: Prvá", "title: Nová")
    refuse(monkeypatch, code)
    result = run("build", small, "--out", out)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{out / 'hra' / 'cards-sk-a4.pdf'}: {message}"
    assert "Traceback" not in result.output
    assert (out / "hra" / "cards-sk-a4.pdf").read_bytes() == good and not temporaries(out)


def held_open(monkeypatch, times: int | None) -> list[float]:
    """Make os.replace fail as Windows does while a viewer has the file open (a sharing
    violation: EACCES with winerror 32), `times` times (None: always); the pauses between
    tries are recorded instead of waited."""
    real = os.replace
    failures = {"left": times}

    def replace(src, dst):
        if failures["left"] is None or failures["left"] > 0:
            if failures["left"] is not None:
                failures["left"] -= 1
            exc = PermissionError(errno.EACCES, "The process cannot access the file because it is being used by another process", str(src), None, str(dst))
            exc.winerror = 32
            raise exc
        real(src, dst)

    pauses: list[float] = []
    monkeypatch.setattr(pnp.base.output.os, "replace", replace)
    monkeypatch.setattr(pnp.base.output, "SLEEP", pauses.append)
    return pauses


def test_a_file_open_in_a_viewer_for_a_moment_is_replaced_once_it_is_closed(small, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build_once(small, out)
    edit(small / "cards.yaml", "title: Prvá", "title: Nová")
    pauses = held_open(monkeypatch, 3)
    result = run("build", small, "--out", out)
    assert result.exit_code == 0, result.output
    assert len(pauses) == 3 and sum(pauses) < 1
    assert not temporaries(out)


def test_a_file_that_stays_open_in_a_viewer_is_named_and_kept(small, tmp_path, monkeypatch):
    out = tmp_path / "out"
    good = build_once(small, out)
    edit(small / "cards.yaml", "title: Prvá", "title: Nová")
    pauses = held_open(monkeypatch, None)
    result = run("build", small, "--out", out)
    assert result.exit_code == 1
    pdf = out / "hra" / "cards-sk-a4.pdf"
    assert result.output.splitlines()[0] == (
        f"{pdf}: cannot replace it: it is open in another program; close {pdf} in your PDF viewer and build again [output-in-use]"
    )
    assert len(pauses) == pnp.base.output.REPLACE_TRIES - 1 and sum(pauses) <= 2  # bounded: a second or so in all
    assert (out / "hra" / "cards-sk-a4.pdf").read_bytes() == good and not temporaries(out)


def test_permission_denied_off_windows_is_not_tried_again(small, tmp_path, monkeypatch):
    """EACCES without Windows' sharing violation is what it says: reported at once."""
    out = tmp_path / "out"
    build_once(small, out)
    edit(small / "cards.yaml", "title: Prvá", "title: Nová")
    pauses: list[float] = []
    monkeypatch.setattr(pnp.base.output, "SLEEP", pauses.append)
    refuse(monkeypatch, errno.EACCES)
    result = run("build", small, "--out", out)
    assert result.exit_code == 1 and "permission denied" in result.output and not pauses


def test_a_folder_that_cannot_be_made(small, tmp_path, monkeypatch):
    def refused(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(pnp.base.output.Path, "mkdir", refused)
    result = run("build", small, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert f"{tmp_path / 'out'}: cannot write here: permission denied;" in result.output


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="chmod stops no writes of root")
def test_a_read_only_output_folder(small, tmp_path):
    out = tmp_path / "out"
    good = build_once(small, out)
    (out / "hra").chmod(0o555)
    try:
        edit(small / "cards.yaml", "title: Prvá", "title: Nová")
        result = run("build", small, "--out", out)
    finally:
        (out / "hra").chmod(0o755)
    assert result.exit_code == 1
    assert f"{out / 'hra'}: cannot write here: permission denied" in result.output
    assert (out / "hra" / "cards-sk-a4.pdf").read_bytes() == good


def test_a_full_disk_mid_build(mesta, tmp_path, monkeypatch):
    """A write fails while a PDF is being drawn (after the first one is done, while the
    rulebooks are being set aside): nothing is moved into place, nothing is left."""
    from pnp.pdf import canvas as pdfstream

    out = tmp_path / "out"
    assert run("build", mesta, "--out", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in (out / "mesta").iterdir()}
    written = []
    real = pdfstream.StreamingDocument._write

    def filling(self, data):
        written.append(len(data))
        if sum(written) > 150_000:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, data)

    monkeypatch.setattr(pdfstream.StreamingDocument, "_write", filling)
    edit(mesta / "cities.yaml", "  name: Ostia\n", "  name: Ostia Antica\n")
    result = run("build", mesta, "--out", out)
    assert result.exit_code == 1, result.output
    assert f"{out / 'mesta' / 'events-sk-a4.pdf'}: cannot write: the disk is full" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert {p.name: p.read_bytes() for p in (out / "mesta").iterdir()} == before


@pytest.fixture
def tiny(tmp_path: Path):
    """A 288 kB file system (a tmpfs), where root may mount one: one build of the events fits, two do not."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=288k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode(errors='replace').strip()}")
    yield folder
    subprocess.run(["umount", str(folder)], check=True)


def test_a_build_onto_a_tiny_file_system(mesta, tiny):
    """A real full disk: the previous deck fits, a second copy does not."""
    assert run("build", mesta, "--deck", "events", "--out", tiny).exit_code == 0
    target = tiny / "mesta" / "events-sk-a4.pdf"
    good = target.read_bytes()
    result = run("build", mesta, "--deck", "events", "--out", tiny)
    assert result.exit_code == 1, result.output
    assert f"{target}: cannot write: the disk is full; expected free space" in result.output
    assert "Traceback" not in result.output
    assert target.read_bytes() == good and not temporaries(tiny)


def test_a_read_only_locale_folder(mesta, monkeypatch):
    refuse(monkeypatch, errno.EACCES)
    before = (mesta / "locale" / "en.po").read_bytes()
    edit(mesta / "cities.yaml", "  name: Ostia\n", "  name: Ostia Antica\n")
    result = run("i18n", "update", mesta)
    assert result.exit_code == 1
    assert (
        "locale/messages.pot: cannot write here: permission denied; expected a folder you may write to (change its permissions, or copy the game folder somewhere writable)"
        in result.output
    )
    assert (mesta / "locale" / "en.po").read_bytes() == before and not temporaries(mesta)


def test_stale_temporary_files_of_any_target_are_removed(small, tmp_path):
    """Left by a killed run (its process is gone); those of a running one stay."""
    out = tmp_path / "out" / "hra"
    out.mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    stale = out / f".events-en-a4.pdf.{dead}.abcd1234.tmp"
    alive = out / f".cards-en-a4.pdf.{os.getppid()}.abcd1234.tmp"
    mine = out / "notes.tmp"
    for path in (stale, alive, mine):
        path.write_bytes(b"x")
    assert run("build", small, "--out", tmp_path / "out").exit_code == 0
    assert not stale.exists() and alive.exists() and mine.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["export", "png", "--dpi", "36"],
        ["export", "tts", "--dpi", "36"],
        ["calibrate"],
        ["impose", "{cards}"],
    ],
)
def test_every_writer_reports_a_file_in_the_way(small, tmp_path, command):
    """export, calibrate and impose write through the same transaction as build."""
    from PIL import Image

    cards = tmp_path / "cards"
    cards.mkdir()
    for i in range(2):
        Image.new("RGB", (63, 88), "red").save(cards / f"{i}.png")
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    args = [str(cards) if part == "{cards}" else part for part in command]
    result = run(*args, *([small] if command[0] == "export" else []), "--out", tmp_path / "plain" / "out")
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{tmp_path / 'plain'}: is a file where a folder must be; expected a folder") and "[output-not-folder]" in result.output
    assert (tmp_path / "plain").read_text(encoding="utf-8") == "x"


def test_i18n_update_writes_nothing_through_a_link_that_leaves_the_game(mesta, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.move(mesta / "locale", elsewhere)
    os.symlink(elsewhere, mesta / "locale")
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    edit(mesta / "cities.yaml", "  name: Ostia\n", "  name: Ostia Antica\n")
    result = run("i18n", "update", mesta)
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before


def test_a_folder_made_meanwhile_by_the_other_process_of_the_build_is_written_into(tmp_path, monkeypatch):
    """The decks and the rulebooks (set in a forked process) may make the same new output
    folder at the same moment: the one that comes second writes into it, and an aborted
    build does not remove it (it is the other's)."""
    out = tmp_path / "out"
    make = Path.mkdir

    def raced(folder, *args, **kwargs):
        make(folder)  # the other process, a moment earlier
        make(folder, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", raced)
    with pnp.base.output.transaction(out) as txn:
        txn.path_for(out / "g" / "cards-en-a4.pdf").write_bytes(b"%PDF")
    with pytest.raises(RuntimeError), pnp.base.output.transaction(out) as txn:
        txn.path_for(out / "h" / "cards-en-a4.pdf")
        raise RuntimeError("the build fails")
    monkeypatch.undo()
    assert (out / "h").is_dir() and not list((out / "h").iterdir())  # the other process's folder, left to it
    assert (out / "g" / "cards-en-a4.pdf").read_bytes() == b"%PDF"
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(pnp.base.output.PnpError, match="is a file where a folder must be"), pnp.base.output.transaction(tmp_path / "file" / "out") as txn:
        txn.path_for(tmp_path / "file" / "out" / "g" / "cards.pdf")


def test_the_command_ends_with_its_exit_code_and_all_it_printed(small, tmp_path):
    """`pnp` ends its process at once after a command: what it printed to a file or a
    pipe is all there, and the exit code is the command's."""
    env = {**os.environ, "PYTHONPATH": str(Path(pnp.base.output.__file__).parents[2])}
    pnp_ = [sys.executable, "-m", "pnp"]
    listed = subprocess.run([*pnp_, "list", str(small)], env=env, capture_output=True, text=True)
    assert listed.returncode == 0 and listed.stdout == run("list", small).output and listed.stdout.count("\n") > 3
    edit(small / "cards.yaml", "title:", "titel:")
    broken = subprocess.run([*pnp_, "check", str(small)], env=env, capture_output=True, text=True)
    in_process = run("check", small)
    assert broken.returncode == in_process.exit_code != 0
    assert broken.stdout + broken.stderr == in_process.output and "cards.yaml:" in broken.stderr


@pytest.mark.parametrize(
    ("ending", "code", "said"), [("sys.exit(3)", 3, ""), ("sys.exit('no game here')", 1, "no game here"), ("sys.exit([4])", 1, "[4]"), ("None", 0, "")]
)
def test_the_command_ends_as_python_would(tmp_path, ending, code, said):
    """cli.run ends the process at once: what the command printed without flushing is all
    written, and the exit code (and a message given as the code) is Python's."""
    env = {**os.environ, "PYTHONPATH": str(Path(pnp.base.output.__file__).parents[2])}
    command = f"import sys\nfrom pnp import cli\ncli.main = lambda: (sys.stdout.write('x' * 100000), {ending})\ncli.run()"
    done = subprocess.run([sys.executable, "-c", command], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (code, "x" * 100000, said)
