"""One store of file versions (pnp/base/versions.py): what is computed from a file is
computed again when the file changes (in content with a new modification time, or in size)
and once however often it is asked while the file stays as it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.base.versions import Version, per_version, version


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
    assert content(tmp_path / "a.txt") == "a.txt" and content(tmp_path / "b.txt") == "b.txt"
    assert content(tmp_path / "a.txt", "!") == "a.txt!" and content(tmp_path / "a.txt") == "a.txt"
    assert reads == ["a.txt", "b.txt", "a.txt"]


def test_a_version_already_read_is_used_as_given(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    path.write_text("red", encoding="utf-8")
    found = Version.of(path.stat())
    assert found == version(path) == (path.stat().st_mtime_ns, 3)
    assert content.at(path, found) == "red" and content(path) == "red" and reads == ["a.txt"]  # one entry: the same version
    assert content.at(path, found._replace(size=4)) == "red" and reads == ["a.txt", "a.txt"]  # another version: read


def test_a_missing_file_raises_as_stat_does_and_nothing_is_remembered(tmp_path):
    content, reads = _counted()
    path = tmp_path / "a.txt"
    with pytest.raises(FileNotFoundError) as raised:
        content(path)
    with pytest.raises(FileNotFoundError) as stat:
        path.stat()
    assert str(raised.value) == str(stat.value) and reads == []
    path.write_text("red", encoding="utf-8")
    assert content(path) == "red" and reads == ["a.txt"]


def test_what_the_function_raises_is_not_remembered(tmp_path):
    calls: list[int] = []

    @per_version(maxsize=4)
    def failing(path: Path) -> None:
        calls.append(1)
        raise ValueError("no")

    (tmp_path / "a.txt").write_text("red", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ValueError, match="no"):
            failing(tmp_path / "a.txt")
    assert len(calls) == 2


def test_the_most_recent_are_kept_up_to_the_bound(tmp_path):
    content, reads = _counted(maxsize=2)
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text(name, encoding="utf-8")
        content(tmp_path / name)
    content(tmp_path / "c.txt")
    content(tmp_path / "a.txt")  # pushed out by c.txt: read again
    assert reads == ["a.txt", "b.txt", "c.txt", "a.txt"]
    assert content.cache_info().maxsize == 2 and content.cache_info().currsize == 2
    content.cache_clear()
    content(tmp_path / "a.txt")
    assert reads[-1] == "a.txt" and len(reads) == 5
