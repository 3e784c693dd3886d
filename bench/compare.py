"""Compare two revisions: `python bench/compare.py --base REV [--cards 1000] [--runs 7]`.

Builds the same synthetic deck (bench/make_deck.py) and Mestá with the working tree's pnp
and with the pnp of git revision REV (checked out into a temporary worktree), the two
interleaved run by run so that a busy machine slows both alike, and prints the median CPU
time (user + system, of the process and its children) and wall time of each and their
ratio. CPU time is what a refactoring changes; wall time on a shared machine mostly says
how busy it was. Bytecode is compiled first for both, as `pip install` does."""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from make_deck import make  # noqa: E402


def run(source: Path, game: Path, out: Path) -> tuple[float, float]:
    """CPU and wall seconds of one `pnp build`."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    start = time.perf_counter()
    process = subprocess.Popen(  # run in `source`: `python -m` puts the working folder before PYTHONPATH, so from another checkout it would run that one's
        [sys.executable, "-m", "pnp", "build", str(game), "--out", str(out)], env=env, cwd=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed with {source}: {process.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, wall  # the child's own and that of the processes it reaped (rulebooks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD")
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pnp-compare-"))
    base = work / "base"
    try:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True, capture_output=True)
        for source in (base, ROOT):
            compileall.compile_dir(source / "pnp", quiet=1)
        deck = work / "deck"
        make(args.cards, deck)
        games = {f"{args.cards} cards": deck, "Mestá": ROOT / "cards" / "mesta"}
        for name, game in games.items():
            times: dict[str, list[tuple[float, float]]] = {"base": [], "work": []}
            for i in range(args.runs):
                for side, source in (("base", base), ("work", ROOT)) if i % 2 == 0 else (("work", ROOT), ("base", base)):
                    times[side].append(run(source, game, work / "out" / side))
            cpu = {side: statistics.median(t[0] for t in runs) for side, runs in times.items()}
            wall = {side: statistics.median(t[1] for t in runs) for side, runs in times.items()}
            print(
                f"{name}: CPU {cpu['base']:.2f} s ({args.base}) -> {cpu['work']:.2f} s (working tree), ratio {cpu['work'] / cpu['base']:.2f}; "
                f"wall {wall['base']:.2f} -> {wall['work']:.2f} s; medians of {args.runs}"
            )
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
