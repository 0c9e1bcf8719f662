"""Which koans a new release breaks, and why, in a summary a maintainer reads in a minute.

    python tools/newest.py                    # prints the summary (Markdown)
    python tools/newest.py --summary FILE     # and appends it to FILE ($GITHUB_STEP_SUMMARY)

Runs the answer key (every answer must pass or skip with its reason) and the checker's quick
pass, then groups what broke by topic: the koan, the kind of failure and its first line. The
weekly job that runs it on the newest CPython pre-release and the newest NumPy and PyTorch
never fails a build: the summary is the result.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HELP_SUMMARY = "also append the summary to this file (GitHub's $GITHUB_STEP_SUMMARY)"


def versions() -> str:
    code = ("import sys, importlib.metadata as m\n"
            "rows = ['Python ' + sys.version.split()[0]]\n"
            "for name in ('pytest', 'hypothesis', 'numpy', 'torch'):\n"
            "    try: rows.append(f'{name} {m.version(name)}')\n"
            "    except m.PackageNotFoundError: rows.append(f'{name}: not installed')\n"
            "print(', '.join(rows))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False).stdout.strip()


def broken_answers() -> list[dict[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "answers.json"
        subprocess.run([sys.executable, "-m", "pytest", "answers", "-p", "no:cacheprovider", "-q",
                        "--koans-all", f"--koans-json={out}"], cwd=ROOT, capture_output=True,
                       text=True, timeout=3000, check=False)
        if not out.is_file():
            return [{"nodeid": "answers", "kind": "no report",
                     "message": "pytest wrote no report: the course's plugin did not load"}]
        rows = json.loads(out.read_text(encoding="utf-8"))["koans"]
    return [r for r in rows if r["kind"] not in ("passed", "skipped")]


def checker_breaches() -> list[str]:
    run = subprocess.run([sys.executable, "tools/check.py", "--quick"], cwd=ROOT,
                         capture_output=True, text=True, timeout=3000, check=False)
    return [line[len("BREACH "):] for line in run.stdout.splitlines() if line.startswith("BREACH ")]


def summary() -> str:
    rows = broken_answers()
    breaches = checker_breaches()
    lines = [f"## Koans on {versions()}", ""]
    if not rows and not breaches:
        return "\n".join([*lines, "Every answer passes (or skips with its reason); the checker is green."])
    lines.append(f"{len(rows)} answer(s) broke; the checker names {len(breaches)} breach(es).")
    topics: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        topics.setdefault(row["nodeid"].split("/")[1] if "/" in row["nodeid"] else "?", []).append(row)
    for topic, broken in sorted(topics.items()):
        lines += ["", f"### {topic} ({len(broken)})", "", "| koan | kind | why |", "|---|---|---|"]
        for row in broken:
            why = (str(row.get("message") or "").splitlines() or [""])[0].replace("|", "\\|")[:160]
            lines.append(f"| `{row['nodeid'].split('::')[-1]}` | {row['kind']} | {why} |")
    if breaches:
        lines += ["", "### the checker", ""] + [f"- {b[:200]}" for b in breaches[:40]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/newest.py", description=__doc__.split("\n")[0])
    parser.add_argument("--summary", type=Path, default=None, help=HELP_SUMMARY)
    args = parser.parse_args(argv)
    text = summary()
    print(text)
    if args.summary is not None:
        with open(args.summary, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
