"""Benchmark runner for issue #19: `python bench/run.py [--sizes 1000,10000] [--runs 3] [--base REV] [--only cold,watch,mesta]`.

Reports every target of the issue, each with the method that measured it, and says which
are met; the exit status is 1 when one is missed. Parts (`--only` runs some of them):

- cold: synthetic decks (bench/make_deck.py) built by `pnp build`, by the hand-written
  writer (bench/minimal_writer.py, same pages) and, up to 1,000 cards, by plain reportlab
  (bench/baseline.py, for reference), interleaved; CPU time, wall time and peak memory.
- watch: `pnp build --watch` on the 1,000-card deck, one card's text edited; time from
  the write to the deck's PDF replaced, against a cold build's wall time.
- mesta: a copy of Mestá watched, one event's text edited: time until every PDF whose
  bytes the edit changes is replaced; and Mestá's cold build, total CPU of all its
  processes, against the pnp of git revision --base run in the same interleaved loop.

Ratios are taken in one run, command against command, alternating the order from one
repetition to the next (A B, B A, ...), and are ratios of medians. CPU time is that of the
process and every process it waited for (forked rulebook builders): the delta of
getrusage(RUSAGE_CHILDREN) around it. Peak memory is the process's max RSS (wait4). The
load average is printed before and after each part: on a shared machine wall times say
mostly how busy it was, which is why the targets are ratios.

pnp's bytecode is compiled first (for --base too), as `pip install` does: from a source
checkout with PYTHONDONTWRITEBYTECODE set, every run would otherwise compile pnp's modules
again, which an installed pnp never does."""

from __future__ import annotations

import argparse
import compileall
import hashlib
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from make_deck import make  # noqa: E402

TIMEOUT = 30.0  # seconds an edit may take to show up in the PDFs before the watcher is given up on
POLL = 0.005  # seconds between two looks at the PDFs
SETTLE = 1.2  # seconds without a change in the output before the watcher counts as idle (it polls every 0.5 s today)
MESTA_EVENT = ("- id: leonidas", "strácajú", "stratia")  # the event edited, and the word swapped back and forth
DECK_CARD = 500  # the card edited in the synthetic deck


@dataclass
class Run:
    cpu: float  # seconds, user + system, the process and the processes it waited for
    wall: float
    rss: float  # MB, peak of the process


def measure(command: list[str], env: dict[str, str] | None = None) -> Run:
    """One process, run to its end, in the folder of the pnp it runs (`python -m` puts the
    working folder before PYTHONPATH: run from another checkout, it would run that one's)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    folder = (env or {}).get("PYTHONPATH") or None
    process = subprocess.Popen(command, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    process.stderr.close()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(cpu, wall, usage.ru_maxrss / 1024)


def interleaved(commands: dict[str, Callable[[], Run]], runs: int) -> dict[str, list[Run]]:
    """Each command `runs` times, in turn, the order reversed every other round (A B C, C B A, ...)."""
    found: dict[str, list[Run]] = {name: [] for name in commands}
    names = list(commands)
    for i in range(runs):
        for name in names if i % 2 == 0 else reversed(names):
            found[name].append(commands[name]())
    return found


def med(runs: list[Run], what: str) -> float:
    return statistics.median(getattr(r, what) for r in runs)


def pnp_env(source: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(source)}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


class Report:
    def __init__(self) -> None:
        self.targets: list[tuple[str, bool | None]] = []

    def section(self, title: str, method: str) -> None:
        print(f"\n== {title}\n   method: {method}\n   {load()}", flush=True)

    def line(self, text: str) -> None:
        print(f"   {text}", flush=True)

    def target(self, text: str, ok: bool | None) -> None:
        """A target and whether it is met (None: could not be measured)."""
        self.targets.append((text, ok))
        self.line(f"{'met   ' if ok else 'MISSED' if ok is not None else 'NOT MEASURED'} {text}")


def cold(report: Report, work: Path, sizes: list[int], runs: int) -> None:
    report.section(
        "cold builds of synthetic decks (A4 duplex)",
        f"`pnp build DECK` as a whole process, bench/minimal_writer.py and (up to 1,000 cards) bench/baseline.py, "
        f"interleaved, {runs} rounds; medians; CPU = user + system of the process and its waited-for children",
    )
    python = sys.executable
    rows = {}
    for n in sizes:
        game = work / f"deck{n}"
        make(n, game)
        commands = {
            "pnp": lambda g=game: measure([python, "-m", "pnp", "build", str(g), "--out", str(work / "cold")], pnp_env(ROOT)),
            "minimal": lambda g=game: measure([python, str(HERE / "minimal_writer.py"), str(g), str(work / "minimal.pdf")]),
        }
        if n <= 1000:
            commands["reportlab"] = lambda g=game: measure([python, str(HERE / "baseline.py"), str(g), str(work / "baseline.pdf")])
        found = interleaved(commands, runs)
        rows[n] = found
        pdf = (work / "cold" / game.name / "cards-sk-a4.pdf").stat().st_size / 1e6
        for name, found_runs in found.items():
            report.line(
                f"{n:>6} cards {name:<9} CPU {med(found_runs, 'cpu'):6.2f} s  wall {med(found_runs, 'wall'):6.2f} s  peak {med(found_runs, 'rss'):5.0f} MB"
                + (f"  PDF {pdf:.2f} MB" if name == "pnp" else "")
            )
        ratio = med(found["pnp"], "cpu") / med(found["minimal"], "cpu")
        if n == 1000:
            report.target(f"1,000 cards: pnp CPU at most 1.5x the minimal writer's ({ratio:.2f}x)", ratio <= 1.5)
            base = med(found["pnp"], "cpu") / med(found["reportlab"], "cpu")
            report.line(f"for reference: pnp / plain reportlab (bench/baseline.py) CPU {base:.2f}x")
            base_wall = med(found["pnp"], "wall") / med(found["reportlab"], "wall")
            report.target(f"issue #8: 1,000 cards at most 2x plain reportlab (wall, as #8 measured it) ({base_wall:.2f}x)", base_wall <= 2)
            t, rss = med(found["pnp"], "wall"), med(found["pnp"], "rss")
            report.target(
                f"issue #8: 1,000 cards in at most 1.5 s, 150 MB, 2 MB of PDF ({t:.2f} s wall, {rss:.0f} MB, {pdf:.2f} MB)",
                t <= 1.5 and rss <= 150 and pdf <= 2,
            )
        else:
            report.line(f"{n} cards: pnp / minimal writer CPU {ratio:.2f}x")
    if 1000 in rows and 10000 in rows:
        small, big = rows[1000]["pnp"], rows[10000]["pnp"]
        time_ratio = med(big, "cpu") / med(small, "cpu")
        memory = med(big, "rss") / med(small, "rss")
        report.target(f"10,000 cards: CPU at most 11x 1,000 cards' (linear) ({time_ratio:.1f}x)", time_ratio <= 11)
        report.target(f"10,000 cards: peak memory within 20 % of 1,000 cards' (flat) ({memory:.2f}x)", memory <= 1.2)
    help_runs = [measure([python, "-m", "pnp", "--help"], pnp_env(ROOT)) for _ in range(runs)]
    report.target(f"issue #8: `pnp --help` in under 0.3 s ({med(help_runs, 'wall'):.2f} s wall)", med(help_runs, "wall") < 0.3)
    report.line(load())


def identity(path: Path) -> tuple[int, int] | None:
    """What changes when the file is replaced by a rename (its inode) or rewritten."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns


def outputs(folder: Path) -> dict[Path, tuple[int, int] | None]:
    return {p: identity(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def process_cpu(pid: int) -> float:
    """CPU seconds of a running process and the children it has waited for (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Watcher:
    """`pnp build GAME --out OUT --watch` in the background, its output to a log."""

    def __init__(self, game: Path, out: Path, log: Path):
        self.out = out
        self.log_path = log
        self.log = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "build", str(game), "--out", str(out), "--watch"], env=pnp_env(ROOT), stdout=self.log, stderr=subprocess.STDOUT
        )

    def settle(self, timeout: float = 120.0) -> bool:
        """Wait until the output has PDFs and nothing in it changed for SETTLE seconds."""
        end = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < end:
            if self.process.poll() is not None:
                return False
            now = outputs(self.out)
            if now != last:
                last, since = now, time.monotonic()
            elif any(p.suffix == ".pdf" for p in now) and time.monotonic() - since >= SETTLE:
                return True
            time.sleep(0.05)
        return False

    def edit(self, path: Path, anchor: str, old: str, new: str, pdfs: list[Path]) -> tuple[float | None, float]:
        """Swap `old` for `new` in the first line containing it after `anchor`, then
        seconds until every one of `pdfs` is replaced (None after TIMEOUT), and the CPU the
        watcher spent meanwhile."""
        lines = path.read_text(encoding="utf-8").split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(anchor))
        at = next(i for i in range(at, len(lines)) if old in lines[i])
        lines[at] = lines[at].replace(old, new, 1)
        data = "\n".join(lines).encode("utf-8")
        before = {p: identity(p) for p in pdfs}
        cpu = process_cpu(self.process.pid)
        start = time.perf_counter()
        with path.open("wb") as f:  # in place, as most editors save
            f.write(data)
        waiting = set(pdfs)
        while waiting and time.perf_counter() - start < TIMEOUT:
            time.sleep(POLL)
            waiting = {p for p in waiting if identity(p) == before[p]}
        took = time.perf_counter() - start
        self.settle()
        spent = process_cpu(self.process.pid) - cpu
        return (None if waiting else took), spent

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def tail(self) -> str:
        return "\n".join("      | " + line for line in self.log_path.read_text(errors="replace").splitlines()[-8:])


def edits(report: Report, watcher: Watcher, path: Path, anchor: str, words: tuple[str, str], pdfs: list[Path], runs: int, between=None) -> list[float]:
    """`runs` edits swapping the two words back and forth; `between()` runs before each."""
    times, cpus = [], []
    for i in range(runs):
        if between is not None:
            between()
        old, new = words if i % 2 == 0 else words[::-1]
        took, cpu = watcher.edit(path, anchor, old, new, pdfs)
        if took is None:
            report.line(
                f"edit {i + 1}: TIMEOUT: the PDFs were not all replaced within {TIMEOUT:.0f} s of the save; the watcher's last output:\n{watcher.tail()}"
            )
            return []
        times.append(took)
        cpus.append(cpu)
    report.line(
        f"save to PDFs replaced: {', '.join(f'{t:.2f}' for t in times)} s (median {statistics.median(times):.2f} s); watcher CPU per edit median {statistics.median(cpus):.2f} s"
    )
    return times


def watch_deck(report: Report, work: Path, runs: int) -> None:
    report.section(
        "watch: one card's text edited in the 1,000-card deck",
        f"`pnp build DECK --out OUT --watch` running; after the first build, card c{DECK_CARD}'s text in cards.yaml is rewritten in place "
        f"with one word changed ({runs} edits); timed from the write to the deck PDF replaced (its inode or mtime changes, polled every "
        f"{POLL * 1000:.0f} ms), the watcher then left to settle; before each edit, one cold `pnp build` of the same deck (wall time), "
        "so the two alternate",
    )
    game = work / "watch1000"
    make(1000, game)
    text = (game / "cards.yaml").read_text(encoding="utf-8").split("\n")
    at = text.index(f"- id: c{DECK_CARD}") + 2
    old = text[at].split('"')[1].split()[2]  # the card's third word, swapped for one of another length
    words = (f" {old} ", " mestá " if old != "mestá" else " hráč ")
    watcher = Watcher(game, work / "watch-out", work / "watch.log")
    cold_runs: list[Run] = []
    try:
        if not watcher.settle():
            report.target(f"watch, 1,000 cards: the first build did not finish; the watcher's output:\n{watcher.tail()}", None)
            return
        pdf = work / "watch-out" / game.name / "cards-sk-a4.pdf"

        def between() -> None:
            cold_runs.append(measure([sys.executable, "-m", "pnp", "build", str(game), "--out", str(work / "watch-cold")], pnp_env(ROOT)))

        times = edits(report, watcher, game / "cards.yaml", f"- id: c{DECK_CARD}", words, [pdf], runs, between)
    finally:
        watcher.stop()
    if not times:
        report.target("watch, 1,000 cards: one-card edit at most 0.25x a cold build (timed out)", False)
        return
    wall = med(cold_runs, "wall")
    ratio = statistics.median(times) / wall
    report.line(f"cold build of the same deck meanwhile: {wall:.2f} s wall (median of {len(cold_runs)})")
    report.target(f"watch, 1,000 cards: one-card edit's PDF replaced in at most 0.25x a cold build's time ({ratio:.2f}x)", ratio <= 0.25)
    report.line(load())


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*.pdf"))}


def watch_mesta(report: Report, work: Path, runs: int) -> None:
    anchor, old, new = MESTA_EVENT
    report.section(
        "watch: one event's text edited in Mestá",
        f"a copy of cards/mesta watched by `pnp build COPY --out OUT --watch`; the text of event '{anchor[6:]}' in events.yaml "
        f"has '{old}' swapped for '{new}' and back ({runs} edits, in place); timed from the write until every PDF whose bytes "
        "the edit changes is replaced (found first by two cold builds, before and after the edit, compared byte for byte)",
    )
    game = work / "mesta"
    shutil.copytree(ROOT / "cards" / "mesta", game)
    events = game / "events.yaml"
    original = events.read_bytes()
    command = [sys.executable, "-m", "pnp", "build", str(game), "--out"]
    subprocess.run([*command, str(work / "m-before")], env=pnp_env(ROOT), check=True, capture_output=True)
    lines = original.decode().split("\n")
    at = next(i for i in range(lines.index(anchor), len(lines)) if old in lines[i])
    lines[at] = lines[at].replace(old, new, 1)
    events.write_text("\n".join(lines), encoding="utf-8")
    subprocess.run([*command, str(work / "m-after")], env=pnp_env(ROOT), check=True, capture_output=True)
    events.write_bytes(original)
    before, after = digests(work / "m-before"), digests(work / "m-after")
    changing = sorted(name for name in before if before[name] != after.get(name))
    report.line(f"the PDFs the edit changes, waited for: {', '.join(changing)} (unchanged: {', '.join(sorted(set(before) - set(changing)))})")
    watcher = Watcher(game, work / "m-watch", work / "m-watch.log")
    try:
        if not watcher.settle():
            report.target(f"watch, Mestá: the first build did not finish; the watcher's output:\n{watcher.tail()}", None)
            return
        pdfs = [work / "m-watch" / game.name / name for name in changing]
        times = edits(report, watcher, events, anchor, (old, new), pdfs, runs)
    finally:
        watcher.stop()
    took = statistics.median(times) if times else None
    report.target(
        f"watch, Mestá: one event's text edited, its PDFs (rulebooks included) replaced in at most 0.5 s on an idle machine ({f'{took:.2f} s' if took else 'timed out'})",
        took is not None and took <= 0.5,
    )
    report.line(load())


def cold_mesta(report: Report, work: Path, runs: int, base: str) -> None:
    report.section(
        "Mestá's cold build: total CPU of all processes",
        f"`pnp build cards/mesta` with this tree's pnp and game and with the pnp and game of {base} (a temporary git worktree, bytecode compiled: each builds the Mestá it ships), "
        f"interleaved, {runs} rounds; CPU of the process and every process it waited for (the forked rulebook builders)",
    )
    tree = work / "base-src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), base], check=True, capture_output=True)
    try:
        compileall.compile_dir(tree / "pnp", quiet=1)
        # Each pnp builds the Mestá it ships: the game has grown since (its cards redesigned, new
        # keys an older pnp refuses), so this tree's build does more than the base's, not less.
        found = interleaved(
            {
                "base": lambda: measure([sys.executable, "-m", "pnp", "build", str(tree / "cards" / "mesta"), "--out", str(work / "mc-base")], pnp_env(tree)),
                "this": lambda: measure([sys.executable, "-m", "pnp", "build", str(ROOT / "cards" / "mesta"), "--out", str(work / "mc-this")], pnp_env(ROOT)),
            },
            runs,
        )
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    for name, label in (("base", base), ("this", "this tree")):
        report.line(f"{label:<12} CPU {med(found[name], 'cpu') * 1000:6.0f} ms  wall {med(found[name], 'wall'):.2f} s  peak {med(found[name], 'rss'):.0f} MB")
    report.line("for reference: the issue's measurement of today's build, 1,750 ms CPU in three processes (commit 82aa1e1)")
    ratio = med(found["this"], "cpu") / med(found["base"], "cpu")
    report.target(f"Mestá cold build: total CPU at most half of {base}'s ({ratio:.2f}x)", ratio <= 0.5)
    wall = med(found["this"], "wall")
    report.target(f"issue #8: Mestá in under 1 s ({wall:.2f} s wall)", wall < 1)
    report.line(load())


PARTS = ("cold", "watch", "mesta")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="deck sizes of the cold builds (default 1000,10000)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each measurement, and edits per watch test (default 5)")
    parser.add_argument("--base", default="b6b9455", help="the git revision that is 'today' for Mestá's CPU target (default b6b9455)")
    parser.add_argument("--only", default=",".join(PARTS), help=f"the parts to run, of {','.join(PARTS)}")
    args = parser.parse_args()
    only = [p.strip() for p in args.only.split(",") if p.strip()]
    if unknown := [p for p in only if p not in PARTS]:
        parser.error(f"unknown part {', '.join(unknown)}; expected some of {','.join(PARTS)}")
    compileall.compile_dir(ROOT / "pnp", quiet=1)
    print(f"bench/run.py: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}; {load()}")
    report = Report()
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    try:
        if "cold" in only:
            cold(report, work, [int(s) for s in args.sizes.split(",")], args.runs)
        if "watch" in only:
            watch_deck(report, work, args.runs)
        if "mesta" in only:
            watch_mesta(report, work, args.runs)
            cold_mesta(report, work, args.runs, args.base)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n== targets ({load()})")
    for text, ok in report.targets:
        print(f"   {'met   ' if ok else 'MISSED' if ok is not None else 'NOT MEASURED'} {text}")
    sys.exit(0 if all(ok for _, ok in report.targets) else 1)


if __name__ == "__main__":
    main()
