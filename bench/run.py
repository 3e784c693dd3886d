"""Benchmark runner: `python bench/run.py [--sizes 100,1000,10000] [--runs 3]`.

Builds synthetic decks with `pnp build` (as a whole process, A4 duplex) and with the
plain-reportlab baseline drawing the same content, and prints medians: wall time, peak
memory (max RSS of the process), PDF size and the ratio of pnp's time to the baseline's.
Also times the Mestá deck and `pnp --help`."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_deck import make  # noqa: E402


def measure(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (MB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def median_of(command: list[str], runs: int) -> tuple[float, float]:
    results = [measure(command) for _ in range(runs)]
    return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pnp = [sys.executable, "-m", "pnp"]
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    rows = []
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            game = work / f"deck{n}"
            make(n, game)
            out = work / f"out{n}"
            t, mem = median_of([*pnp, "build", str(game), "--out", str(out)], args.runs)
            pdf = out / game.name / "cards-sk-a4.pdf"
            base_pdf = work / f"base{n}.pdf"
            bt, bmem = median_of([sys.executable, str(HERE / "baseline.py"), str(game), str(base_pdf)], args.runs)
            rows.append((n, t, mem, pdf.stat().st_size / 1e6, bt, bmem, base_pdf.stat().st_size / 1e6))
        mesta, _ = median_of([*pnp, "build", "--out", str(work / "mesta")], args.runs)
        helptime, _ = median_of([*pnp, "--help"], args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"medians of {args.runs} runs, A4 duplex, {os.cpu_count()} cores")
    print(f"{'cards':>7} {'pnp s':>7} {'pnp MB':>7} {'PDF MB':>7} {'base s':>7} {'base MB':>8} {'base PDF':>9} {'ratio':>6}")
    for n, t, mem, size, bt, bmem, bsize in rows:
        print(f"{n:>7} {t:>7.2f} {mem:>7.0f} {size:>7.2f} {bt:>7.2f} {bmem:>8.0f} {bsize:>9.2f} {t / bt:>6.2f}")
    if len(rows) > 1:
        print(f"time {rows[-1][0]} / {rows[-2][0]} cards: {rows[-1][1] / rows[-2][1]:.1f}x; memory: {rows[-1][2] / rows[-2][2]:.2f}x")
    print(f"Mestá (both decks, Slovak, A4): {mesta:.2f} s; pnp --help: {helptime:.2f} s")


if __name__ == "__main__":
    main()
