"""Benchmarks of the learner's runner, each beside the naive baseline measured in the same run.

    python tools/bench.py [--json] [--runs N] [--course | --course-only] [--cuda]

- cold start to first verdict: ``python tools/koans.py`` on a fresh copy vs ``pytest koans -x``;
- watch save-to-verdict, a pure-Python koan, a torch koan and a Hypothesis koan, vs re-running
  ``pytest FILE``;
- peak memory (VmHWM) of the runner's processes;
- with ``--course``: a save in every koan file of the course, the rest of the course solved
  (median, 95th percentile, maximum), vs ``pytest FILE`` (``--course-only``: just that row).

Everything runs in a scratch copy of the repository; the learner's koans are never touched.
Times are wall-clock medians; on a loaded machine compare the runner with its baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns("__pycache__", ".koans", ".pytest_cache", ".hypothesis",
                                ".benchmarks", ".git", "*.pyc", ".mypy_cache", ".ruff_cache")
TORCH_KOAN = '''import pytest

torch = pytest.importorskip("torch")


def test_sum_of_a_tensor_is_a_tensor():
    """Reductions return 0-d tensors; `.item()` turns one into a Python number."""
    assert torch.tensor([1, 2]).sum().item() == __
'''


def fresh_copy(base: Path, name: str, source: Path = REPO) -> Path:
    """A copy of the course as a fresh clone has it (no caches, no .koans/)."""
    target = base / name
    target.mkdir()
    for item in ("conftest.py", "pyproject.toml"):
        shutil.copy2(source / item, target / item)
    for folder in ("koans", "answers", "tools"):
        shutil.copytree(source / folder, target / folder, ignore=IGNORE)
    return target


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, timeout=600, check=False)
    return time.perf_counter() - start


USES = {
    "torch": re.compile(r"importorskip\(\s*['\"]torch|^\s*import torch", re.M),
    "hypothesis": re.compile(r"^\s*(?:from|import) hypothesis\b", re.M),
}


def first_blank_file(root: Path, uses: str | None) -> Path | None:
    """The first koan file with a blank that uses ``uses`` (torch, hypothesis, cuda: a file
    of koans marked ``cuda``), or none of them."""
    for path in sorted((root / "koans").glob("*/test_*.py")):
        text = path.read_text(encoding="utf-8")
        found = {name for name, pattern in USES.items() if pattern.search(text)}
        cuda = "mark.cuda" in text
        if uses == "cuda":
            if cuda and "__" in text:
                return path
            continue
        if "__" in text and not cuda and found == ({uses} if uses else set()):
            return path
    return None


def last_koan_unsolved(answer: str, koan: str) -> str | None:
    """The answer file with its last koan as the pristine koan has it (its blanks back)."""
    import ast

    def last(text: str) -> tuple[int, int] | None:
        tests = [n for n in ast.parse(text).body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")]
        if not tests:
            return None
        node = tests[-1]
        return min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno or node.lineno

    a, k = last(answer), last(koan)
    if a is None or k is None:
        return None
    rows, krows = answer.splitlines(keepends=True), koan.splitlines(keepends=True)
    return "".join(rows[:a[0] - 1] + krows[k[0] - 1:k[1]] + rows[a[1]:])


def course_rows(py: str, base: Path, source: Path, notes: list[str]) -> list[dict[str, Any]]:
    """Every koan file of the course, the worst case for a save: the rest of the course solved,
    the file's last koan unsolved, then saved with its fill. Watch mode's save-to-verdict for
    each file (median, 95th percentile, maximum), beside plain `pytest FILE`."""
    root = fresh_copy(base, "course-wide", source)
    files = sorted((root / "koans").glob("*/test_*.py"))
    answers = {f: (root / "answers" / f.relative_to(root / "koans")).read_text(encoding="utf-8")
               for f in files}
    pristine = {f: f.read_text(encoding="utf-8") for f in files}
    # The learner's first run snapshotted the pristine koans before they filled any.
    subprocess.run([py, "tools/koans.py", "list"], cwd=root, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=600, check=False)
    for f in files:
        f.write_text(answers[f], encoding="utf-8")
    events = root / "events.jsonl"
    env = dict(os.environ, KOANS_EVENT_LOG=str(events))
    proc = subprocess.Popen([py, "tools/koans.py", "watch"], cwd=root, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)

    def verdicts(event: str = "verdict") -> list[dict[str, Any]]:
        try:
            rows = [json.loads(x) for x in events.read_text().splitlines() if x.strip()]
        except OSError:
            return []
        return [r for r in rows if r["event"] == event and r.get("pid") == proc.pid]

    def after(count: int) -> dict[str, Any]:
        end = time.monotonic() + 600
        while time.monotonic() < end:
            rows = verdicts()
            if len(rows) > count:
                return rows[-1]
            time.sleep(0.002)
        raise RuntimeError("no verdict from watch mode")

    per_file: dict[str, float] = {}
    own: dict[str, float] = {}  # the edited koan's own run, as the child timed it
    try:
        after(0)
        for f in files:
            unsolved = last_koan_unsolved(answers[f], pristine[f])
            if unsolved is None:
                continue
            count = len(verdicts())
            f.write_text(unsolved, encoding="utf-8")
            after(count)
            time.sleep(0.2)
            count, ran = len(verdicts()), len(verdicts("run-end"))
            start = time.time()
            f.write_text(answers[f], encoding="utf-8")
            event = after(count)
            rel = f.relative_to(root).as_posix()
            per_file[rel] = event["t"] - start
            own[rel] = max((d for e in verdicts("run-end")[ran:] if e["file"] == rel
                            for d in e.get("durations", {}).values()), default=0.0)
            time.sleep(0.1)
    finally:
        proc.stdin.write("q\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    baseline = {rel: timed([py, "-m", "pytest", rel, "-q", "-p", "no:cacheprovider"], root)
                for rel in per_file}
    values = sorted(per_file.values())
    slowest = sorted(per_file.items(), key=lambda item: -item[1])[:8]
    notes.append("course-wide slowest saves: " + ", ".join(f"{rel} {t:.2f}s" for rel, t in slowest))
    over = [(rel, t) for rel, t in slowest if t > 1.0]
    if over:
        notes.append("course-wide saves over 1 s: " + ", ".join(
            f"{rel} {t:.2f}s (the koan's own run: {own.get(rel, 0):.2f}s)" for rel, t in over))
    return [{"metric": f"watch save-to-verdict, every koan file ({len(values)}): median",
             "runner_s": statistics.median(values), "baseline": "pytest FILE, median",
             "baseline_s": statistics.median(baseline.values()), "target_s": 0.15,
             "files": {rel: {"runner_s": round(t, 4), "koan_s": round(own.get(rel, 0), 4),
                             "baseline_s": round(baseline[rel], 4)} for rel, t in per_file.items()}},
            {"metric": "  ... 95th percentile", "runner_s": values[int(0.95 * (len(values) - 1))],
             "baseline": "pytest FILE, 95th percentile",
             "baseline_s": sorted(baseline.values())[int(0.95 * (len(values) - 1))], "target_s": 0.4},
            {"metric": "  ... maximum", "runner_s": values[-1], "baseline": "pytest FILE, maximum",
             "baseline_s": max(baseline.values()), "target_s": None}]


CUDA_PROBE = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 3)"


def cuda_rows(py: str, base: Path, source: Path, runs: int, notes: list[str]) -> list[dict[str, Any]]:
    """Save-to-verdict on a CUDA koan file, beside the bare cost of starting CUDA in a fresh
    process (the floor a forked child pays: the warm server must never start CUDA itself)."""
    probe = subprocess.run([py, "-c", CUDA_PROBE], capture_output=True, check=False, timeout=600)
    if probe.returncode != 0:
        notes.append("cuda rows skipped: no CUDA GPU visible (or torch is not installed)")
        return []
    bare = [timed([py, "-c", "import torch"], base) for _ in range(runs)]
    started = [timed([py, "-c", "import torch; torch.zeros(1, device='cuda')"], base)
               for _ in range(runs)]
    rows: list[dict[str, Any]] = [{
        "metric": "starting CUDA in a fresh process (beyond import torch)",
        "runner_s": statistics.median(started) - statistics.median(bare),
        "baseline": "python -c 'import torch'", "baseline_s": statistics.median(bare),
        "target_s": None}]
    root = fresh_copy(base, "watch-cuda", source)
    koan = first_blank_file(root, "cuda")
    if koan is None:
        notes.append("cuda save-to-verdict row skipped: no cuda koan file with a blank")
        return rows
    latencies, _ = watch_latency(root, koan, runs, py)
    rel = koan.relative_to(root).as_posix()
    baseline = [timed([py, "-m", "pytest", rel, "-q", "-p", "no:cacheprovider"], root)
                for _ in range(runs)]
    rows.append({"metric": f"watch save-to-verdict, cuda koan ({rel})",
                 "runner_s": statistics.median(latencies), "baseline": f"pytest {rel}",
                 "baseline_s": statistics.median(baseline), "target_s": None})
    return rows


def vm_hwm(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def descendants(pid: int) -> list[int]:
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *descendants(int(child))]
    except OSError:
        pass
    return found


def watch_latency(root: Path, koan: Path, runs: int, python: str) -> tuple[list[float], dict[str, int]]:
    """Start `koans.py watch`, save the koan file `runs` times, time each save to its verdict."""
    events = root / "events.jsonl"
    events.unlink(missing_ok=True)
    env = dict(os.environ, KOANS_EVENT_LOG=str(events))
    rel = koan.relative_to(root).as_posix()
    subprocess.run([python, "tools/koans.py", "goto", rel], cwd=root, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, check=False)
    proc = subprocess.Popen([python, "tools/koans.py", "watch"], cwd=root, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)

    def verdicts() -> list[dict[str, Any]]:
        try:
            rows = [json.loads(x) for x in events.read_text().splitlines() if x.strip()]
        except OSError:
            return []
        return [r for r in rows if r["event"] == "verdict"]

    def wait(count: int) -> dict[str, Any]:
        end = time.monotonic() + 300
        while time.monotonic() < end:
            rows = verdicts()
            if len(rows) > count:
                return rows[count]
            time.sleep(0.002)
        raise RuntimeError("no verdict from watch mode")

    latencies = []
    try:
        wait(len(verdicts()) - 1 if verdicts() else 0)
        time.sleep(3.0)  # let the server finish warming what the koan needs
        text = koan.read_text(encoding="utf-8")
        for n in range(runs + 1):
            count = len(verdicts())
            start = time.time()
            koan.write_text(text + f"\n# save {n}\n", encoding="utf-8")
            event = wait(count)
            if n:  # the first save also pays the first fork of a fresh server layout
                latencies.append(event["t"] - start)
            time.sleep(0.3)
        memory = {"runner": vm_hwm(proc.pid),
                  "server": max((vm_hwm(p) for p in descendants(proc.pid)), default=0)}
    finally:
        proc.stdin.write("q\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        koan.write_text(text, encoding="utf-8")
    return latencies, memory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--runs", type=int, default=5, help="repetitions per number (median)")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--course", action="store_true",
                        help="also the course-wide row: a save in every koan file (minutes)")
    parser.add_argument("--course-only", action="store_true",
                        help="only the course-wide row (and its baseline)")
    parser.add_argument("--cuda", action="store_true",
                        help="also the cuda rows (skipped, with a note, where no GPU is visible)")
    args = parser.parse_args()
    py = args.python
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        # Measure what a learner gets: with bytecode caching off, every start recompiles the
        # runner, the conftest and pytest's rewritten koans, for the runner and baseline alike.
        notes.append("PYTHONDONTWRITEBYTECODE was set; unset for these measurements")
    with tempfile.TemporaryDirectory(prefix="koans-bench-") as tmp:
        base = Path(tmp)
        source = fresh_copy(base, "source")  # one consistent snapshot of the repository
        cold, naive = [], []
        for n in range(0 if args.course_only else args.runs):
            root = fresh_copy(base, f"cold{n}", source)
            cold.append(timed([py, "tools/koans.py"], root))
            root = fresh_copy(base, f"naive{n}", source)
            naive.append(timed([py, "-m", "pytest", "koans", "-x", "-q", "-p", "no:cacheprovider"], root))
        if cold:
            rows.append({"metric": "cold start to first verdict", "runner_s": statistics.median(cold),
                         "baseline": "pytest koans -x", "baseline_s": statistics.median(naive),
                         "target_s": 0.5})
        memory: dict[str, int] = {}
        watched = () if args.course_only else (("pure-Python", None, 0.15), ("torch", "torch", 0.15),
                                                ("Hypothesis", "hypothesis", None))
        for label, uses, target in watched:
            if uses:
                found = subprocess.run([py, "-c", f"import {uses}"], capture_output=True, check=False)
                if found.returncode != 0:
                    notes.append(f"{label} row skipped: {uses} is not installed for this Python")
                    continue
            root = fresh_copy(base, f"watch-{label}", source)
            koan = first_blank_file(root, uses)
            if koan is None and uses == "torch":
                koan = root / "koans" / "99_bench_torch" / "test_01_torch.py"
                koan.parent.mkdir()
                koan.write_text(TORCH_KOAN, encoding="utf-8")
                notes.append("the course has no torch koan yet: measured a one-koan torch file")
            if koan is None:
                notes.append(f"{label} row skipped: no koan file with a blank")
                continue
            latencies, mem = watch_latency(root, koan, args.runs, py)
            for key, value in mem.items():
                memory[key] = max(memory.get(key, 0), value)
            rel = koan.relative_to(root).as_posix()
            baseline = [timed([py, "-m", "pytest", rel, "-q", "-p", "no:cacheprovider"], root)
                        for _ in range(args.runs)]
            rows.append({"metric": f"watch save-to-verdict, {label} koan ({rel})",
                         "runner_s": statistics.median(latencies), "baseline": f"pytest {rel}",
                         "baseline_s": statistics.median(baseline), "target_s": target})
        if args.course or args.course_only:
            rows += course_rows(py, base, source, notes)
        if args.cuda:
            rows += cuda_rows(py, base, source, args.runs, notes)
        if memory:
            rows.append({"metric": "peak memory, learner's process (VmHWM)", "runner_mb":
                         round(memory.get("runner", 0) / 2**20, 1)})
            rows.append({"metric": "peak memory, warm server and children (VmHWM)", "runner_mb":
                         round(memory.get("server", 0) / 2**20, 1)})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    result = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load_1min": load,
              "runs": args.runs, "rows": rows, "notes": notes}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"python {result['python']}, {result['cpus']} CPUs, load {load:.1f}, median of {args.runs}")
    print(f"{'metric':58} {'runner':>9} {'baseline':>9} {'target':>7}")
    for row in rows:
        if "runner_mb" in row:
            print(f"{row['metric']:58} {row['runner_mb']:>7} MB")
            continue
        goal = f"{row['target_s']}s" if row["target_s"] else "-"
        print(f"{row['metric'][:58]:58} {row['runner_s']:>8.3f}s {row['baseline_s']:>8.3f}s "
              f"{goal:>7}")
    for note in notes:
        print("note:", note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
