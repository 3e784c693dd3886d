"""Peak memory of `pnp export tts` against the deck's size: `python bench/tts_memory.py [--sizes 200,1000,10000] [--dpi 150]`.

Each size is a synthetic deck of that many distinct cards (bench/make_deck.py), exported
in a process of its own; its peak memory is that process's max RSS (wait4). Printed per
size, with the growth per card between the smallest and each larger deck: an export that
keeps one sheet of images at a time grows by what the deck's faces and saved object take
(a few KB a card), one that keeps every image by about a megabyte a card at 150 dpi.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from make_deck import make  # noqa: E402


def peak_kib(command: list[str], tree: Path) -> tuple[int, float, int]:
    """(max RSS in KiB, wall seconds, exit status) of `command` with pnp from `tree`, run to its end."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if process.stderr is not None:
        process.stderr.close()
    return usage.ru_maxrss, wall, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,1000", help="deck sizes, comma-separated")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose pnp exports (default: this one)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            game = Path(tmp) / f"deck{size}"
            make(size, game)
            kib, wall, code = peak_kib(
                [sys.executable, "-m", "pnp", "export", "tts", str(game), "--dpi", str(args.dpi), "--out", str(Path(tmp) / "out")], args.tree
            )
            if code != 0:
                sys.exit(f"export of {size} cards failed (exit {code})")
            rows.append((size, kib, wall))
            print(f"{size:>6} cards at {args.dpi} dpi: peak {kib / 1024:8.1f} MiB, {wall:6.1f} s", flush=True)
    smallest, base_kib, _ = rows[0]
    for size, kib, _ in rows[1:]:
        print(f"growth {smallest} -> {size} cards: {(kib - base_kib) / (size - smallest):.1f} KiB a card")


if __name__ == "__main__":
    main()
