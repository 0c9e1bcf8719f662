"""The one script a maintainer runs on a GPU machine (and the GPU job runs): every step bounded,
one summary file at the end.

    python tools/gpu_check.py                  # every step; summary in gpu-check/summary.json
    python tools/gpu_check.py --out DIR        # where the summary and logs go

Steps, in order: host facts (nvidia-smi, torch and CUDA versions); the CUDA answers, twice; the
CUDA koans, each failing on its blank; the checker over topics 27-29 with --no-skips; the whole
answer key with -n 8; the benchmark's CUDA row. Where no CUDA GPU is visible, each step says
"skipped: no CUDA GPU visible" and the script still ends with a summary (exit 0): it is the
dress rehearsal. On a GPU, it exits 1 when any step fails, and in particular when fewer CUDA
koans pass than the course has (less those it deselects on purpose, each named).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CUDA_TOPICS = ("27_cuda_devices_and_transfers", "28_cuda_async_and_sync", "29_cuda_caching_allocator")
DESELECTED: dict[str, str] = {}  # nodeid -> why the GPU job leaves it out on purpose (none today)
NO_GPU = "skipped: no CUDA GPU visible"
HELP_OUT = "folder for the summary and each step's log (default: gpu-check/ in the course)"
HELP_STEP = "seconds each step may run before it is stopped (default: %(default)s)"


def cuda_koans(root: Path) -> list[str]:
    """The course's CUDA koans, by node id (answers/...): test functions marked ``cuda``, or in
    a module whose ``pytestmark`` holds the mark. Counted from the source, so a koan that skips
    or is never collected still counts."""
    found = []
    for path in sorted((root / "answers").glob("*/test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_marked = any(isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark"
                                                                  for t in node.targets)
                            and "cuda" in ast.unparse(node.value) for node in tree.body)
        rel = path.relative_to(root).as_posix()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                marked = any("mark.cuda" in ast.unparse(d) for d in node.decorator_list)
                if module_marked or marked:
                    found.append(f"{rel}::{node.name}")
    return found


def passed_in(junit: Path) -> tuple[set[str], dict[str, str]]:
    """The node ids that passed in a JUnit XML report, and why each other one did not."""
    passed: set[str] = set()
    other: dict[str, str] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "").split("[")[0]
        nodeid = classname.replace(".", "/") + ".py::" + name
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "")
        if outcome:
            child = next(c for c in case if c.tag == outcome)
            other[nodeid] = f"{outcome}: {(child.get('message') or '').splitlines()[0][:200] if child.get('message') else ''}"
        else:
            passed.add(nodeid)
    return passed, other


def count_verdict(expected: list[str], passed: set[str], other: dict[str, str]) -> dict[str, Any]:
    """Whether every CUDA koan the course has passed (those deselected on purpose aside)."""
    wanted = [n for n in expected if n not in DESELECTED]
    missing = [n for n in wanted if n not in passed]
    return {"expected": len(wanted), "passed": len(wanted) - len(missing),
            "deselected": dict(DESELECTED), "ok": not missing,
            "not_passed": {n: other.get(n, "not run at all") for n in missing}}


def gpu_visible(python: str) -> tuple[bool, str]:
    """Whether torch sees a CUDA GPU, asked in a fresh process (never in this one)."""
    code = ("import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available(), "
            "torch.cuda.device_count())")
    try:
        run = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=300,
                             check=False)
    except (OSError, subprocess.SubprocessError) as err:
        return False, f"torch could not be asked: {err}"
    words = run.stdout.split()
    if run.returncode != 0 or len(words) < 4:
        return False, (run.stderr.strip().splitlines() or ["torch is not installed"])[-1]
    return words[2] == "True", f"torch {words[0]}, CUDA {words[1]}, {words[3]} GPU(s)"


def step(name: str, command: list[str], out: Path, timeout: float, env: dict[str, str] | None = None
         ) -> dict[str, Any]:
    log = out / f"{name}.log"
    started = time.monotonic()
    try:
        with open(log, "w", encoding="utf-8") as handle:
            run = subprocess.run(command, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
                                 timeout=timeout, check=False, env=env)
        code = run.returncode
    except subprocess.TimeoutExpired:
        code = 124
    tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
    return {"step": name, "command": " ".join(command), "exit": code,
            "seconds": round(time.monotonic() - started, 1), "tail": tail, "log": str(log)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/gpu_check.py", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "gpu-check", help=HELP_OUT)
    parser.add_argument("--step-timeout", type=float, default=900.0, help=HELP_STEP)
    args = parser.parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    env = {k: v for k, v in os.environ.items() if k != "PYTORCH_CUDA_ALLOC_CONF"}  # see below
    visible, facts = gpu_visible(python)
    expected = cuda_koans(ROOT)
    summary: dict[str, Any] = {"gpu": visible, "torch": facts, "python": sys.version.split()[0],
                               "cuda_koans": len(expected), "steps": []}
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                          "--format=csv,noheader"], capture_output=True, text=True, check=False) \
        if visible else None
    summary["nvidia_smi"] = smi.stdout.strip() if smi is not None else NO_GPU
    plans = [
        ("cuda-answers-1", [python, "-m", "pytest", "answers", "-m", "cuda", "-p", "no:cacheprovider",
                            "-q", f"--junitxml={out / 'cuda-answers-1.xml'}"]),
        ("cuda-answers-2", [python, "-m", "pytest", "answers", "-m", "cuda", "-p", "no:cacheprovider",
                            "-q", f"--junitxml={out / 'cuda-answers-2.xml'}"]),
        ("cuda-koans-blank", [python, "-m", "pytest", "koans", "-m", "cuda", "-p", "no:cacheprovider",
                              "--koans-all", "-q", f"--koans-json={out / 'cuda-koans.json'}"]),
        ("checker-27-29", [python, "tools/check.py", "--no-skips", "-n", "4",
                           *[a for t in CUDA_TOPICS for a in ("--topic", t)]]),
        ("answer-key-n8", [python, "-m", "pytest", "answers", "-n", "8", "-p", "no:cacheprovider", "-q"]),
        ("bench-cuda", [python, "tools/bench.py", "--runs", "3", "--cuda", "--json"]),
    ]
    failed = False
    for name, command in plans:
        if not visible:
            summary["steps"].append({"step": name, "result": NO_GPU})
            continue
        result = step(name, command, out, args.step_timeout, env)
        if name.startswith("cuda-answers"):
            passed, other = passed_in(out / f"{name}.xml") if (out / f"{name}.xml").is_file() else (set(), {})
            result["count"] = count_verdict(expected, passed, other)
            result["result"] = "ok" if result["count"]["ok"] and result["exit"] == 0 else "failed"
        elif name == "cuda-koans-blank":
            rows = json.loads((out / "cuda-koans.json").read_text())["koans"] if \
                (out / "cuda-koans.json").is_file() else []
            kinds = {r["nodeid"]: r["kind"] for r in rows}
            not_blank = {n: k for n, k in kinds.items() if k != "blank"}
            result["koans"] = len(kinds)
            result["not_on_their_blank"] = not_blank
            result["result"] = "ok" if kinds and not not_blank else "failed"
        else:
            result["result"] = "ok" if result["exit"] == 0 else "failed"
        failed |= result["result"] != "ok"
        summary["steps"].append(result)
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    for row in summary["steps"]:
        extra = ""
        if "count" in row:
            extra = f" ({row['count']['passed']} of {row['count']['expected']} cuda koans passed)"
        print(f"{row['step']:18} {row['result']}{extra}")
    print(f"gpu: {summary['torch']}; summary in {out / 'summary.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
