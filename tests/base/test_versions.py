"""One store of file versions (pnp/base/versions.py): what is computed from a file is
computed again when the file changes (in content with a new modification time, or in size)
and once however often it is asked while the file stays as it is."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from conftest import edit, make_small_game
from pdfread import MM, operations, reader
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from pnp.base.output import Output, writing_under
from pnp.base.versions import Version, per_version, version
from pnp.live.session import Session
from pnp.pipeline.build import build
from pnp.project.options import BuildOptions
from pnp.write.manifest import file_hash


def _counted(maxsize: int | None = 8):
    """A function of a file remembered per version, and the list of the files it read."""
    reads: list[str] = []

    @per_version(maxsize=maxsize)
    def content(path: Path, suffix: str = "") -> str:
        reads.append(Path(path).name)
        return Path(path).read_text(encoding="utf-8") + suffix

    return content, reads


def _touch(path: Path, mtime_ns: int) -> None:
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_a_file_saved_with_the_same_size_and_a_new_time_is_read_again(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    path.write_text("red", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_000)
    assert content(path) == "red"
    path.write_text("tan", encoding="utf-8")  # the same size
    _touch(path, 1_000_000_000_000_000_001)  # a later time, however coarse the file system's clock
    assert version(path).size == 3
    assert content(path) == "tan" and reads == ["a.txt", "a.txt"]


def test_a_file_of_another_size_is_read_again_even_with_the_same_time(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    path.write_text("red", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_000)
    assert content(path) == "red"
    path.write_text("green", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_000)  # the time put back: only the size tells
    assert content(path) == "green" and reads == ["a.txt", "a.txt"]


def test_an_unchanged_file_is_read_once_however_often_it_is_asked_until_it_changes(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    path.write_text("red", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_000)
    assert {content(path) for _ in range(1000)} == {"red"}
    assert reads == ["a.txt"]
    path.write_text("blue", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_001)
    assert {content(path) for _ in range(1000)} == {"blue"}
    assert reads == ["a.txt", "a.txt"]  # once per version


def test_each_file_and_each_set_of_arguments_is_its_own_entry(tmp_path):
    content, reads = _counted()
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name, encoding="utf-8")
        _touch(tmp_path / name, 1_000_000_000_000_000_000)
    assert content(tmp_path / "a.txt") == "a.txt" and content(tmp_path / "b.txt") == "b.txt"
    assert content(tmp_path / "a.txt", "!") == "a.txt!" and content(tmp_path / "a.txt") == "a.txt"
    assert reads == ["a.txt", "b.txt", "a.txt"]
    (tmp_path / "a.txt").write_text("A.txt", encoding="utf-8")
    _touch(tmp_path / "a.txt", 1_000_000_000_000_000_001)
    assert content(tmp_path / "a.txt", "!") == "A.txt!" and content(tmp_path / "b.txt") == "b.txt"  # the changed file only
    assert reads == ["a.txt", "b.txt", "a.txt", "a.txt"]


def test_a_version_already_read_is_used_as_given(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    path.write_text("red", encoding="utf-8")
    found = Version.of(path.stat())
    assert found == version(path) == (path.stat().st_mtime_ns, 3)
    assert content.at(path, found) == "red" and content(path) == "red" and reads == ["a.txt"]  # one entry: the same version
    assert content.at(path, found._replace(size=4)) == "red" and reads == ["a.txt", "a.txt"]  # another version: read


def test_a_missing_file_or_a_failure_is_raised_and_not_remembered(tmp_path):
    """What `os.stat` raises is raised as it is; what the function raises too, and
    neither is remembered: the next version is read."""
    reads: list[str] = []

    @per_version(maxsize=4)
    def number(path: Path) -> int:
        reads.append(path.read_text(encoding="utf-8"))
        return int(reads[-1])

    path = tmp_path / "n.txt"
    with pytest.raises(FileNotFoundError) as raised:
        number(path)
    with pytest.raises(FileNotFoundError) as stat:
        path.stat()
    assert str(raised.value) == str(stat.value) and reads == []
    path.write_text("x", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_000)
    for _ in range(2):
        with pytest.raises(ValueError):
            number(path)
    assert reads == ["x", "x"]  # a failure is tried again
    path.write_text("1", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_001)
    assert number(path) == number(path) == 1 and reads == ["x", "x", "1"]
    path.write_text("2", encoding="utf-8")
    _touch(path, 1_000_000_000_000_000_002)
    assert number(path) == 2 and reads == ["x", "x", "1", "2"]


def test_the_most_recent_are_kept_up_to_the_bound(tmp_path):
    content, reads = _counted(maxsize=2)
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text(name, encoding="utf-8")
        _touch(tmp_path / name, 1_000_000_000_000_000_000)
        content(tmp_path / name)
    content(tmp_path / "c.txt")
    content(tmp_path / "a.txt")  # pushed out by c.txt: read again
    assert reads == ["a.txt", "b.txt", "c.txt", "a.txt"]
    assert content.cache_info().maxsize == 2 and content.cache_info().currsize == 2
    (tmp_path / "c.txt").write_text("C.txt", encoding="utf-8")
    _touch(tmp_path / "c.txt", 1_000_000_000_000_000_001)
    assert content(tmp_path / "c.txt") == "C.txt"  # kept, but of another version: read again
    assert reads == ["a.txt", "b.txt", "c.txt", "a.txt", "c.txt"]


# --- through the modules that use it ---

T = 1_700_000_000_000_000_000  # a modification time, in ns, set by hand: no clock's tick decides a test


def _png(size: tuple[int, int], colour: str, length: int | None = None) -> bytes:
    """A PNG of `size`, padded with a text chunk to `length` bytes when given."""
    info = None
    if length is not None:
        bare = len(_png(size, colour))
        info = PngInfo()
        info.add_text("k", "x" * (length - bare - 14))  # a tEXt chunk: 12 bytes of frame, the key and its NUL
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG", pnginfo=info)
    return buffer.getvalue()


def _save(path: Path, data: bytes, mtime_ns: int) -> None:
    path.write_bytes(data)
    _touch(path, mtime_ns)


def test_a_file_hash_follows_the_version_of_the_file(tmp_path):
    """manifest.file_hash, what the errata compare images by: a new hash for new bytes of
    the same size with a new time, and for another size with the same time."""
    path = tmp_path / "art.png"
    _save(path, b"red!", T)
    first = file_hash(str(path))
    assert file_hash(str(path)) == first
    _save(path, b"tan!", T + 1)
    second = file_hash(str(path))
    _save(path, b"green", T + 1)
    third = file_hash(str(path))
    assert len({first, second, third}) == 3
    path.unlink()
    assert file_hash(str(path)) == "missing"


@pytest.mark.parametrize("change", ["same size, later time", "other size, same time"])
def test_an_image_replaced_while_the_watcher_runs_is_drawn_at_its_new_size(tmp_path, change):
    """Two builds of one watcher session: the second draws the image as it is now, whether
    only its time or only its size tells the new version from the old (the watcher's digest
    of the folder's files, the image's check and its pixel size each follow the version)."""
    game = make_small_game(tmp_path / "hra")
    (game / "layouts").mkdir()
    (game / "layouts" / "mine.yaml").write_text('size: [63, 88]\nelements:\n  - image: "art.png"\n    box: [0, 0, 63, 40]\n    fit: cover\n', encoding="utf-8")
    edit(game / "game.yaml", "front: basic/card", "front: mine")
    out, art = tmp_path / "out", game / "art.png"
    wide = _png((200, 100), "red")
    square = _png((100, 100), "blue", len(wide) if change == "same size, later time" else None)
    assert (len(square) == len(wide)) == (change == "same size, later time")
    session = Session(game, [out])

    def drawn() -> tuple[float, float]:
        """Build as the watcher does; the size in mm the image is drawn at on the first card."""
        with writing_under(Output(out)):
            build(game, BuildOptions(out=out), reuse=session)
        page = reader(out / "hra" / "cards-sk-a4.pdf").pages[0]
        placed = [ops for ops, op in operations(page) if op == b"cm" and ops[1] == 0 and ops[0] != 1]
        return round(float(placed[0][0]) / MM, 1), round(float(placed[0][3]) / MM, 1)

    _save(art, wide, T)
    assert drawn() == (80.0, 40.0)  # 2:1, covering a 63 x 40 mm box
    _save(art, square, T + 1_000_000 if change == "same size, later time" else T)
    assert drawn() == (63.0, 63.0)
