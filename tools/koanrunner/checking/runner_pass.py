"""The runner agrees with pytest: every answer file, run the way the learner's runner runs a
koan file (a child forked from its warm pytest server), must get the verdicts plain pytest
gives it. A koan true under ``pytest`` but false in a forked child (a thread's native id, a
process-wide setting the server changed) would be one a learner can never solve."""

from __future__ import annotations

from pathlib import Path

from ..course import KoanFile as ModelFile
from ..running import Runner
from .engine import Report
from .koans import KoanFile

TIMEOUT = 60.0


def runner_pass(root: Path, files: list[KoanFile], report: Report, skipped: set[str]) -> None:
    """Each answer file through the runner's server; a verdict other than plain pytest's (a
    pass, or the same skip) is a breach."""
    if not files:
        return
    with Runner(root, TIMEOUT) as runner:
        if not runner.fork:
            report.notes.append("runner pass not run: this platform has no fork, so the runner "
                                "runs plain pytest itself")
            return
        for kf in files:
            rel = f"answers/{kf.topic}/{kf.name}"
            result = runner.run(rel, ModelFile(root, rel).needs())
            got = {row["nodeid"].split("::")[-1].split("[")[0]: row for row in result["koans"]}
            for test in kf.tests:
                name = test.split("::")[-1]
                want = "skipped" if f"{rel}::{test}" in skipped else "passed"
                row = got.get(name)
                kind = (row or {}).get("kind")
                if result.get("skipped") and want == "skipped":
                    kind = "skipped"
                if result.get("broken") or result.get("internal") or kind != want:
                    why = (result.get("broken") or {}).get("message") or result.get("internal") \
                        or (row or {}).get("message") or "no verdict"
                    report.breach(f"{rel}::{test}", f"plain pytest says {want}, the runner says "
                                  f"{kind or 'nothing'}: {str(why).splitlines()[0]}",
                                  "make the koan true in a child forked from a warm pytest "
                                  "process as well (no state of the parent process, no thread "
                                  "ids, no process-wide settings left changed)")
                else:
                    report.count("answers passing in the runner" if want == "passed"
                                 else "answers skipped in the runner")
