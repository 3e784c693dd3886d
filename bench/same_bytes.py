"""Same bytes: `python bench/same_bytes.py [--base REV | --python PATH [--installed]] [--keep DIR]`.

Builds every bundled game (every language, A4 and Letter, long and short flip, fronts
only, with bleed, a deal) and the calibration sheet with the working tree's pnp and with
the pnp of git revision REV (default HEAD, checked out into a temporary worktree), and
compares the PDFs and the manifests (the record of what was drawn, for errata) byte for
byte. A refactoring must print `all N files identical`; the exit status is 1 when any
file differs or exists on one side only.

With `--python PATH` the other side is not a revision but another interpreter (another
Python version): the working tree's pnp built by PATH is compared with the same built by
this one, so every supported Python must write the same bytes. With `--installed` as well,
PATH runs the pnp installed in its environment (a wheel) instead of the working tree's.

Both sides run with SOURCE_DATE_EPOCH unset and the same environment, from the same
game folders (the working tree's cards/), so only the code differs."""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (game folder relative to the root, extra arguments); each run writes into its own folder
RUNS: list[tuple[str, list[str]]] = [
    ("cards/mesta", ["--lang", "all"]),
    ("cards/mesta", ["--paper", "letter", "--flip", "short"]),
    ("cards/mesta", ["--sides", "fronts", "--bleed", "2", "--gap", "4"]),
    ("cards/mesta", ["--deal", "quick"]),
    ("cards/ages", []),
    ("cards/ages", ["--paper", "letter"]),
    ("cards/settlers", ["--lang", "all"]),
    ("cards/civ", ["--lang", "all"]),
    ("cards/civ", ["--paper", "a3"]),
    ("cards/scharz", []),
    ("cards/scharz", ["--paper", "a3"]),
]


def build_all(python: str, pnp_root: Path | None, out: Path) -> None:
    """Every run above with the pnp found at `pnp_root` (None: the one installed for
    `python`), into `out`/<run number>."""
    env = {**os.environ, "PYTHONPATH": str(pnp_root)} if pnp_root is not None else {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.pop("SOURCE_DATE_EPOCH", None)
    for number, (game, extra) in enumerate(RUNS):
        target = out / str(number)
        command = [python, "-m", "pnp", "build", str(ROOT / game), "--out", str(target), "--force", *extra]
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=out)
        if done.returncode != 0:
            raise SystemExit(f"failed ({pnp_root}): {' '.join(command)}\n{done.stderr}")
    command = [python, "-m", "pnp", "calibrate", "--out", str(out / "calibrate")]
    subprocess.run(command, env=env, capture_output=True, text=True, cwd=out, check=True)


def digests(folder: Path) -> dict[str, str]:
    files = [p for p in folder.rglob("*") if p.suffix == ".pdf" or (p.suffix == ".json" and p.name.startswith("manifest-"))]
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(files)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the git revision to compare with")
    parser.add_argument("--python", help="compare with this interpreter's build of the working tree instead of a revision")
    parser.add_argument("--installed", action="store_true", help="with --python: build with the pnp installed for it, not the working tree's")
    parser.add_argument("--keep", type=Path, help="keep both output trees in this folder")
    args = parser.parse_args()
    if args.installed and not args.python:
        parser.error("--installed goes with --python")
    work = Path(tempfile.mkdtemp(prefix="pnp-same-"))
    base_tree = work / "base-src"
    try:
        if args.python:
            args.base = f"the build by {args.python}"
            sides = (("base", args.python, None if args.installed else ROOT), ("work", sys.executable, ROOT))
        else:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_tree), args.base], check=True, capture_output=True)
            sides = (("base", sys.executable, base_tree), ("work", sys.executable, ROOT))
        for side, python, source in sides:
            (work / side).mkdir()
            build_all(python, source, work / side)
        old, new = digests(work / "base"), digests(work / "work")
        differ = sorted(name for name in old.keys() & new.keys() if old[name] != new[name])
        only = sorted(old.keys() ^ new.keys())
        for name in differ:
            print(f"differs: {name}")
        for name in only:
            print(f"only in {'base' if name in old else 'work'}: {name}")
        if args.python:
            print(f"base: {args.python}; work: {sys.executable}")
        if differ or only:
            print(f"{len(differ)} of {len(old.keys() & new.keys())} files differ, {len(only)} on one side only")
            status = 1
        else:
            print(f"all {len(new)} files identical to {args.base}")
            status = 0
        if args.keep:
            shutil.copytree(work / "base", args.keep / "base", dirs_exist_ok=True)
            shutil.copytree(work / "work", args.keep / "work", dirs_exist_ok=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    raise SystemExit(status)


if __name__ == "__main__":
    main()
