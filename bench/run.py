"""Benchmark runner: `python bench/run.py [--sizes 100,1000,10000] [--runs 3]`.

Builds synthetic decks with `pnp build` (as a whole process, A4 duplex) and with the
plain-reportlab baseline drawing the same content, and prints medians: wall time, peak
memory (max RSS of the process, and relative to the 1,000-card build's: memory must not
grow with the deck), PDF size and the ratio of pnp's time to the baseline's. Also times
the Mestá deck and `pnp --help`, then says which of issue #8's targets are met; the exit
status is 1 if one is missed.

pnp's bytecode is compiled first, as `pip install` does: from a source checkout with
PYTHONDONTWRITEBYTECODE set, every run would otherwise compile pnp's modules again
(about 60 ms), which an installed pnp never does and the baseline (reportlab, installed)
never pays."""

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
    compileall.compile_dir(HERE.parent / "pnp", quiet=1)
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
    by_size = {row[0]: row for row in rows}
    reference = by_size.get(1000, rows[0])[2]  # peak memory of the 1,000-card build
    print(f"{'cards':>7} {'pnp s':>7} {'pnp MB':>7} {'MB/1k':>6} {'PDF MB':>7} {'base s':>7} {'base MB':>8} {'base PDF':>9} {'ratio':>6}")
    for n, t, mem, size, bt, bmem, bsize in rows:
        print(f"{n:>7} {t:>7.2f} {mem:>7.0f} {mem / reference:>6.2f} {size:>7.2f} {bt:>7.2f} {bmem:>8.0f} {bsize:>9.2f} {t / bt:>6.2f}")
    if len(rows) > 1:
        print(f"time {rows[-1][0]} / {rows[-2][0]} cards: {rows[-1][1] / rows[-2][1]:.1f}x; memory: {rows[-1][2] / rows[-2][2]:.2f}x")
    print(f"Mestá (decks, reference card, rulebook and booklet; Slovak, A4): {mesta:.2f} s; pnp --help: {helptime:.2f} s")
    missed = [line for line, ok in targets(by_size, mesta, helptime) if not ok]
    for line, ok in targets(by_size, mesta, helptime):
        print(f"  {'met   ' if ok else 'MISSED'} {line}")
    sys.exit(1 if missed else 0)


def targets(by_size: dict, mesta: float, helptime: float) -> list[tuple[str, bool]]:
    """Issue #8's targets that the measured sizes can show."""
    found = [(f"Mestá under 1 s ({mesta:.2f} s)", mesta < 1), (f"pnp --help under 0.3 s ({helptime:.2f} s)", helptime < 0.3)]
    for n, t, _, _, bt, _, _ in by_size.values():
        found.append((f"{n} cards at most 2x plain reportlab ({t / bt:.2f}x)", t <= 2 * bt))
    if 1000 in by_size:
        _, t, mem, size, *_ = by_size[1000]
        found.append((f"1,000 cards: at most 1.5 s, 150 MB, 2 MB of PDF ({t:.2f} s, {mem:.0f} MB, {size:.2f} MB)", t <= 1.5 and mem <= 150 and size <= 2))
    if 10000 in by_size:
        _, t, mem, *_ = by_size[10000]
        found.append((f"10,000 cards: at most 8 s and 200 MB ({t:.2f} s, {mem:.0f} MB)", t <= 8 and mem <= 200))
    if 1000 in by_size and 10000 in by_size:
        (_, t1, m1, *_), (_, t10, m10, *_) = by_size[1000], by_size[10000]
        found.append((f"10,000 cards' time at most 11x 1,000 cards' ({t10 / t1:.1f}x)", t10 <= 11 * t1))
        found.append((f"10,000 cards' peak memory within 20 % of 1,000 cards' ({m10 / m1:.2f}x)", m10 <= 1.2 * m1))
    return found


if __name__ == "__main__":
    main()
