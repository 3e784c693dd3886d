"""Install size: `python bench/install_size.py [--venv DIR] [--limit MIB]`.

How much `pip install .` puts into an environment: every distribution installed besides
pip and setuptools (which a fresh venv has before), by the sizes its RECORD lists (the
files' own sizes, as pip wrote them), and what the same files take on this disk (whole
blocks, so a little more). Without `--venv`, a fresh venv in a temporary folder gets the
checkout installed first. With `--limit`, the exit status is 1 when the files' own sizes
add up to more than MIB mebibytes (CI: 100, issue #29)."""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = {"pip", "setuptools", "wheel"}  # in a venv before anything is installed
MIB = 1024 * 1024


def site_packages(venv: Path) -> Path:
    found = [p for p in venv.glob("lib/python3*/site-packages")] + [p for p in venv.glob("Lib/site-packages")]
    if not found:
        raise SystemExit(f"no site-packages in {venv}; expected a virtual environment")
    return found[0]


def sizes(site: Path) -> dict[str, tuple[int, int]]:
    """Each installed distribution (but those a venv starts with): its files' sizes and
    the disk they take, in bytes."""
    result = {}
    for record in sorted(site.glob("*.dist-info/RECORD")):
        name = record.parent.name.split("-")[0].lower().replace("_", "-")
        if name in BEFORE:
            continue
        own = disk = 0
        with record.open(newline="", encoding="utf-8") as file:
            for row in csv.reader(file):
                path = site / row[0]
                if not path.is_file():
                    continue
                stat = path.stat()
                own += stat.st_size
                disk += getattr(stat, "st_blocks", 0) * 512 or stat.st_size
        result[name] = (own, disk)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="measure this environment (default: a fresh one with the checkout installed)")
    parser.add_argument("--limit", type=float, help="fail when the files' own sizes exceed this many MiB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-size-") as tmp:
        venv = args.venv
        if venv is None:
            venv = Path(tmp) / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(ROOT)], check=True)
        measured = sizes(site_packages(venv))
    own = sum(size for size, _ in measured.values())
    disk = sum(size for _, size in measured.values())
    for name, (size, _) in sorted(measured.items(), key=lambda item: -item[1][0]):
        print(f"{size / MIB:8.1f} MiB  {name}")
    print(f"{own / MIB:8.1f} MiB in {len(measured)} distributions ({disk / MIB:.1f} MiB on this disk)")
    if args.limit is not None and own > args.limit * MIB:
        print(f"the install is {own / MIB:.1f} MiB; expected at most {args.limit:g} MiB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
