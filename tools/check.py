"""The integrity checker: proves the course keeps its promises, or names each breach.

    python tools/check.py                 # everything, mutants included
    python tools/check.py --topic 01_floats --topic 02_integers_and_bits
    python tools/check.py --quick         # skip the mutation pass

It proves, and exits 1 on any breach:
- koans/ and answers/ hold the same test files, and each answer's AST equals its koan's with the
  blanks replaced (comments aside); no stray files; test names unique in a topic;
- every koan has a lesson (docstring), at least one blank (pre-solved intro koans aside) and a
  hint; hints.toml names only real koans and its misconceptions parse;
- every koan fails as shipped, and fails on its blank (not on a SyntaxError, an ImportError or an
  unrelated error); pre-solved koans pass;
- every answer passes (skips, e.g. CUDA koans on a CPU machine, are counted and listed);
- every fill has teeth: each plausible wrong value (see CONTRIBUTING.md) and each listed
  misconception, put in the fill's place, makes the answer fail.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/ is on no path of its own
from koanrunner.checking.engine import Report
from koanrunner.checking.koans import static_pass, topics
from koanrunner.checking.mutants import answers_pass, koans_pass, mutation_pass
from koanrunner.checking.runner_pass import runner_pass
from koanrunner.checking.tricks import tricks_pass

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")
HELP_TOPIC = "check only this topic folder (repeatable), e.g. 01_floats"
HELP_QUICK = "skip the mutation, tricks and runner passes (structure, koans and answers only)"
HELP_ROOT = "the course to check (default: the checkout this file lives in)"
HELP_NO_SKIPS = "a koan or answer that skips here is a breach (the GPU job: cuda koans must run)"
HELP_COINS = "list every bare True/False/0/1 fill, and the boolean ones whose name may state them"
HELP_STATIC = "only the static pass: files, ASTs, lessons, hints, give-aways, coin flips (seconds)"
HELP_JOBS = "pytest-xdist workers for the dynamic passes (default: 2 where xdist is installed)"


def default_jobs() -> int:
    try:
        import xdist  # noqa: F401
    except ImportError:
        return 1
    return 2


def children_cpu() -> float:
    """CPU seconds the processes this one ran have used (0 where the platform cannot say)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/check.py", description=__doc__.split("\n")[0])
    parser.add_argument("--topic", action="append", default=[], help=HELP_TOPIC)
    parser.add_argument("--quick", action="store_true", help=HELP_QUICK)
    parser.add_argument("--root", type=Path, default=ROOT, help=HELP_ROOT)
    parser.add_argument("-n", "--jobs", type=int, default=None, help=HELP_JOBS)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list skips and notes, and the time each pass took")
    parser.add_argument("--no-skips", action="store_true", help=HELP_NO_SKIPS)
    parser.add_argument("--coins", action="store_true", help=HELP_COINS)
    parser.add_argument("--static", action="store_true", help=HELP_STATIC)
    args = parser.parse_args(list(argv) if argv is not None else None)
    root = args.root.resolve()
    if not (root / "koans").is_dir() or not (root / "conftest.py").is_file():
        print(f"check: {root} is not a koans course (no koans/ or conftest.py)", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else default_jobs()
    report = Report()
    took: dict[str, tuple[float, float]] = {}

    def timed(name: str, run: Callable[[], T]) -> T:
        start, cpu = time.monotonic(), children_cpu()
        try:
            return run()
        finally:
            took[name] = (time.monotonic() - start, children_cpu() - cpu)

    files = timed("static", lambda: static_pass(root, topics(root, args.topic, report), report))
    skipped: set[str] = set()
    if not args.static:
        timed("koans", lambda: koans_pass(root, files, jobs, report))
        skipped = timed("answers", lambda: answers_pass(root, files, jobs, report))
    if not args.quick and not args.static:
        unevaluated = timed("mutants", lambda: mutation_pass(root, files, jobs, report, skipped))
        timed("tricks", lambda: tricks_pass(root, files, jobs, report, skipped, unevaluated))
        timed("runner", lambda: runner_pass(root, files, report, skipped))
    if not args.topic and not args.static and (root / "koans" / "katas").is_dir():  # the whole course: katas too
        from koanrunner.checking.katas import check_katas

        kata_breaches, kata_counts = timed("katas", lambda: check_katas(root, jobs=jobs))
        for where, what, fix in kata_breaches:
            report.breach(where, what, fix)
        for key, value in kata_counts.items():
            report.count(f"kata {key}" if not key.startswith("kata") else key, int(value))
    if args.no_skips:
        for note in report.notes:
            if "skipped" in note:
                report.breach(note.split(": ", 1)[-1].split(" ")[0], "skipped here, with --no-skips",
                              "run it where what it needs is present")
    for breach in report.breaches:
        print(breach)
    if args.verbose:
        for note in report.notes:
            print("note:", note)
        print("took (wall, CPU of its processes): " + ", ".join(
            f"{name} {wall:.1f} s, {cpu:.1f} s" for name, (wall, cpu) in took.items()))
    if args.coins:
        for row in report.coin_list:
            print("coin:", row)
        for topic, (coins, fills) in sorted(report.coins.items()):
            print(f"coins: {topic} {coins}/{fills} ({coins / fills if fills else 0:.0%})")
    coins, fills = report.counts.get("coin-flip fills", 0), report.counts.get("fills", 0)
    if fills:
        report.counts["coin-flip fills"] = coins  # keep its place in the summary
        report.counts = {k: v for k, v in report.counts.items() if k != "coin-flip fills"} | {
            f"coin-flip fills ({coins / fills:.1%})": coins}
    summary = ", ".join(f"{v} {k}" for k, v in report.counts.items())
    if report.breaches:
        print(f"check: {len(report.breaches)} breach(es). {summary}.")
        return 1
    print(f"check: ok. {summary}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
